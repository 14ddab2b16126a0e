package scenario

import (
	"gopkg.in/yaml.v3"
)

// libraryFields are the fields of a library block, in schema order.
var libraryFields = []string{"tries", "retry_delay", "drift_factor", "refresh", "timeout"}

// Defaults of a library block.
const (
	DefaultLibraryTries       = 1
	DefaultLibraryDriftFactor = 0.01
	MaxLibraryTries           = 1000
)

// Library holds a third-party lock library's own options (algorithm
// redsync or redislock). Durations are scenario time.
type Library struct {
	// Tries is the number of attempts one acquire makes inside the library
	// (redsync WithTries; redislock LimitRetry). Default 1: the runner
	// retries with retry_delay.
	Tries int `yaml:"tries"`
	// RetryDelay is the wait between two attempts inside one acquire. 0
	// (default) keeps the library's own default, which is wall time and not
	// scaled (redsync: uniform 50–250 ms; redislock adapter: 50 ms).
	RetryDelay Duration `yaml:"retry_delay"`
	// DriftFactor is redsync's clock-drift factor, in [0, 1). Default 0.01
	// for redsync; redislock has none (nil).
	DriftFactor *float64 `yaml:"drift_factor,omitempty"`
	// Refresh, when > 0, refreshes a held lease every Refresh with the
	// library's own call (redsync Extend, redislock Refresh) until it is
	// released. Default 0: never. Must be shorter than the ttl.
	Refresh Duration `yaml:"refresh"`
	// Timeout bounds one command the library sends, scenario time; it
	// becomes the clients' per-command timeout (the go-redis read and
	// write timeouts). 0 (default) keeps the runner's default, half the
	// ttl between 50 ms and 2 s of wall time.
	Timeout Duration `yaml:"timeout,omitempty"`
}

// library reads the library block and checks the adapters' constraints
// that hold with or without one.
func (p *parser) library(root map[string]field, s Scenario) *Library {
	traits := p.traitsOf(s.Algorithm)
	if n := root["nodes"].val; traits.SingleNode && s.Nodes > 1 && n != nil {
		p.errorf(n, "nodes", "%s locks a single Redis node; use nodes: 1 (got %d)", s.Algorithm, s.Nodes)
	}
	f := root["library"]
	m := f.val
	if m == nil || m.Kind == yaml.AliasNode || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "library", "must be a mapping like {tries: 1, retry_delay: 50ms, drift_factor: 0.01, refresh: 0s} (got %s)", describe(m))
		return nil
	}
	if !traits.Library && s.Algorithm != "" {
		p.errorf(f.key, "library", "library options apply only to the library adapters %s (got algorithm %s)", libraryNames(), s.Algorithm)
		return nil
	}
	lib := &Library{Tries: DefaultLibraryTries}
	fs := p.fields(m, "library", libraryFields)
	if v, st := p.smallInt(fs["tries"], "library.tries", 1, MaxLibraryTries, "attempts of one acquire inside the library"); st == good {
		lib.Tries = v
	}
	lib.RetryDelay = p.nonNegDuration(fs["retry_delay"], "library.retry_delay", 0)
	v, n, st := p.number(fs["drift_factor"], "library.drift_factor")
	switch {
	case st == good && s.Algorithm != "" && !traits.DriftFactor:
		p.errorf(n, "library.drift_factor", "%s has no drift factor: it tracks no validity on the client (only %s takes one)", s.Algorithm, driftFactorNames())
	case st == good && (v < 0 || v >= 1):
		p.errorf(n, "library.drift_factor", "must be ≥ 0 and < 1 (got %s); redsync's validity is expiry − elapsed − expiry×drift_factor", clip(n.Value))
	case st == good:
		lib.DriftFactor = &v
	case st == absent && traits.DriftFactor:
		d := DefaultLibraryDriftFactor
		lib.DriftFactor = &d
	}
	refresh, rn, rst := p.duration(fs["refresh"], "library.refresh")
	if rst == good {
		switch {
		case refresh < 0:
			p.errorf(rn, "library.refresh", "must be ≥ 0 (got %s)", describe(rn))
		case refresh > 0 && s.TTL > 0 && refresh >= s.TTL:
			p.errorf(rn, "library.refresh", "refresh every %s is not shorter than the ttl %s: the lease would expire between two refreshes", refresh, s.TTL)
		default:
			lib.Refresh = refresh
		}
	}
	if d, n, st := p.duration(fs["timeout"], "library.timeout"); st == good {
		switch {
		case d <= 0:
			p.errorf(n, "library.timeout", "must be > 0 (got %s)", describe(n))
		case s.TTL > 0 && d >= s.TTL:
			p.errorf(n, "library.timeout", "%s is not shorter than the ttl %s: a command that may take longer than the lease lasts cannot hold it", d, s.TTL)
		default:
			lib.Timeout = d
		}
	}
	return lib
}
