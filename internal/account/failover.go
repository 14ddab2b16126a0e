package account

import (
	"github.com/locksim/locksim/internal/history"
)

// failover is a master's failure and Sentinel's promotion of a replica in
// its group (an EffectFailover step): from At on, the group's commands
// reach a process the node observer does not watch.
type failover struct {
	At int64
	// Lost: the promoted replica had received less of the replication
	// stream than the master had written (or none was promoted): the keys
	// the master held are taken as lost with it.
	Lost bool
	Op   int
	Step int
}

// failovers maps each group (node name) to its failovers, by start.
func (a *Account) failovers() map[string][]failover {
	out := map[string][]failover{}
	for _, f := range a.Faults {
		st := f.Step
		if st.Effect != history.EffectFailover {
			continue
		}
		for _, g := range st.Nodes {
			fo := failover{At: f.Start, Lost: true, Op: f.Op, Step: st.ID}
			for _, p := range st.Promotions {
				if p.Group == g && p.Promoted != "" {
					off, ok := p.ReplicaOffsets[p.Promoted]
					if !ok {
						off = p.PromotedOffset
					}
					fo.Lost = off < p.MasterOffset
				}
			}
			out[g] = append(out[g], fo)
		}
	}
	return out
}

// handOver ends the replay of node at a failover: a key life still on the
// failed master ends there when the promoted replica lacked part of the
// stream (EndFailover); otherwise it lives on, on the new master, and its
// end is inferred from the clients' outcomes like an unobserved grant's.
func (s *sim) handOver(fo failover) {
	for key, i := range s.strs {
		s.expire(key, fo.At)
		if _, ok := s.strs[key]; !ok {
			continue
		}
		if fo.Lost {
			s.endKey(key, fo.At, End{Kind: EndFailover, Op: fo.Op, Step: fo.Step})
			continue
		}
		k := &s.a.keys[i]
		k.handedOver = true
		delete(s.strs, key)
	}
	for key, m := range s.zsets {
		for member := range m {
			if fo.Lost {
				s.endMember(key, member, fo.At, End{Kind: EndFailover, Op: fo.Op, Step: fo.Step})
			}
		}
		if !fo.Lost {
			delete(s.zsets, key)
		}
	}
}

// Stint is a stretch of a key life on one server: the master of its node
// (group) at the time, named as the run named its process.
type Stint struct {
	Server     string
	Start, End int64
}

// ServersOf splits a key life by the server that held it: its node's
// own name until a failover of that node promoted a replica (from the
// failover's start, the instant the account hands keys over), then the
// promoted replica's name. A life with no failover in it, or one that
// ended when the failover began, is one stint on k.Node.
func (a *Account) ServersOf(k KeyLife) []Stint {
	server, at := k.Node, k.Start
	var out []Stint
	for _, f := range a.Faults {
		st := f.Step
		// A life that ended by the failover's start (lost with the old
		// master: the replica had not received it) never was on the
		// promoted replica.
		if st.Effect != history.EffectFailover || f.Start >= k.End {
			continue
		}
		next := ""
		for _, p := range st.Promotions {
			if p.Group == k.Node && p.Promoted != "" {
				next = p.Promoted
			}
		}
		if next == "" {
			continue
		}
		if f.Start > at {
			out = append(out, Stint{Server: server, Start: at, End: f.Start})
			at = f.Start
		}
		server = next
	}
	return append(out, Stint{Server: server, Start: at, End: k.End})
}

// Loss is how a fence counter may have gone back (IssuerLoss): the end
// kind (EndFailover, EndCrashed), the fault step, its nodes and when it
// began (true ns).
type Loss struct {
	Kind  string
	Step  int
	Nodes []string
	At    int64
}

// IssuerLoss is why a fence counter may have gone back between from and
// to (true ns): a failover that began then and promoted a replica lacking
// part of the master's stream (EndFailover), else a node crash step that
// began then (EndCrashed). ok is false when no such fault began in
// [from, to].
func (a *Account) IssuerLoss(from, to int64) (l Loss, ok bool) {
	for g, fos := range a.failovers() {
		for _, fo := range fos {
			if fo.Lost && fo.At >= from && fo.At <= to && (!ok || fo.At < l.At) {
				l, ok = Loss{Kind: EndFailover, Step: fo.Step, Nodes: []string{g}, At: fo.At}, true
			}
		}
	}
	if ok {
		return l, true
	}
	for _, f := range a.Faults {
		if f.Step.Effect == history.EffectCrashNode && f.Start >= from && f.Start <= to {
			return Loss{Kind: EndCrashed, Step: f.Step.ID, Nodes: f.Step.Nodes, At: f.Died()}, true
		}
	}
	return Loss{}, false
}
