package scenario

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// Limits of a replicated topology (issue 17).
const (
	MaxReplicas = 4
)

// topology reads replicas, sentinels, sentinel and save_interval.
func (p *parser) topology(fs map[string]field, s *Scenario) {
	if v, st := p.smallInt(fs["replicas"], "replicas", 0, MaxReplicas, "replicas per master, each a redis-server following it"); st == good {
		s.Replicas = v
	}
	v, n, st := p.integer(fs["sentinels"], "sentinels")
	if st == good {
		switch {
		case v != 0 && v != 1 && v != 3 && v != 5:
			p.errorf(n, "sentinels", "must be 0, 1, 3 or 5 (got %s): an odd number, so that a majority of sentinels can authorise a failover", clip(n.Value))
		case v > 0 && s.Replicas == 0:
			p.errorf(n, "sentinels", "needs replicas to promote: add replicas: 1 (or more)")
		}
		s.Sentinels = int(v)
	}
	p.replicas, p.sentinels = s.Replicas, s.Sentinels
	if m := fs["sentinel"].val; m != nil && !(m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		if m.Kind != yaml.MappingNode {
			p.errorf(m, "sentinel", "must be a mapping like {down_after: 5s, failover_timeout: 60s} (got %s)", describe(m))
		} else {
			if s.Sentinels == 0 {
				p.errorf(fs["sentinel"].key, "sentinel", "sets Sentinel's timings, but the scenario has no sentinels (sentinels: 3)")
			}
			sf := p.fields(m, "sentinel", []string{"down_after", "failover_timeout"})
			sn := &Sentinel{DownAfter: DefaultDownAfter, FailoverTimeout: DefaultFailoverTimeout}
			if d, dn, st := p.duration(sf["down_after"], "sentinel.down_after"); st == good {
				if d <= 0 {
					p.errorf(dn, "sentinel.down_after", "must be > 0 (got %s)", describe(dn))
				}
				sn.DownAfter = d
			}
			if d, dn, st := p.duration(sf["failover_timeout"], "sentinel.failover_timeout"); st == good {
				if d <= 0 {
					p.errorf(dn, "sentinel.failover_timeout", "must be > 0 (got %s)", describe(dn))
				}
				sn.FailoverTimeout = d
			}
			s.Sentinel = sn
		}
	} else if s.Sentinels > 0 {
		s.Sentinel = &Sentinel{DownAfter: DefaultDownAfter, FailoverTimeout: DefaultFailoverTimeout}
	}
	if d, n, st := p.duration(fs["save_interval"], "save_interval"); st == good {
		if d <= 0 {
			p.errorf(n, "save_interval", "must be > 0 (got %s)", describe(n))
		}
		s.SaveInterval = d
		if pv := fs["persistence"].val; pv == nil || pv.Value != "rdb" {
			p.errorf(fs["save_interval"].key, "save_interval", "applies to persistence: rdb only (its snapshot interval)")
		}
	}
}

// SentinelTimings returns the scenario's Sentinel timings with defaults,
// scenario time.
func (s Scenario) SentinelTimings() Sentinel {
	if s.Sentinel != nil {
		return *s.Sentinel
	}
	return Sentinel{DownAfter: DefaultDownAfter, FailoverTimeout: DefaultFailoverTimeout}
}

// SnapshotInterval is the rdb save interval with its default, scenario
// time.
func (s Scenario) SnapshotInterval() Duration {
	if s.SaveInterval > 0 {
		return s.SaveInterval
	}
	return DefaultSaveInterval
}

// FaultTopology is what resolving the scenario's fault plan needs of the
// run, as the runner's cluster names it: masters n1..nN, clients w1..wM,
// replicas nIrJ and sentinels s1..sK, the time scale, the TTL and the
// run's duration (scenario time). A plan resolved with it and a seed is
// the plan a run with that seed carries out.
func (s Scenario) FaultTopology() faults.Topology {
	t := faults.Topology{Scale: s.TimeScale, TTL: s.TTL.D(), Duration: s.Duration.D()}
	for i := range s.Nodes {
		n := "n" + strconv.Itoa(i+1)
		t.Nodes = append(t.Nodes, n)
		for j := range s.Replicas {
			t.Replicas = append(t.Replicas, history.ReplicaName(n, j+1))
		}
	}
	for i := range s.Clients {
		t.Clients = append(t.Clients, ClientName(i))
	}
	for i := range s.Sentinels {
		t.Sentinels = append(t.Sentinels, "s"+strconv.Itoa(i+1))
	}
	return t
}
