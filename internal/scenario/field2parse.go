package scenario

import (
	"regexp"
	"strings"

	"github.com/locksim/locksim/internal/algo"
)

// The fields of issue 19's field reports (part 2): a client's process, a
// minimum hold and a leader's heartbeat.

// processNameRE is a process name: lowercase letters, digits and '-',
// starting with a letter; never a client's name (w1, w2, …), whose own
// process that would be.
var (
	processNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	clientNameRE  = regexp.MustCompile(`^w[0-9]+$`)
)

// clientProcess reads one client's process: field.
func (p *parser) clientProcess(f field, path string, c *ClientSpec) {
	v, n, st := p.str(f, path+".process")
	if st != good {
		return
	}
	switch {
	case !processNameRE.MatchString(v):
		p.errorf(n, path+".process", "must be a process name of lowercase letters, digits and '-', starting with a letter, like p1 (got %s)", describe(n))
	case clientNameRE.MatchString(v):
		p.errorf(n, path+".process", "%s is a client's name; name the process something else, like p1", quote(v))
	default:
		c.Process = v
	}
}

// minHold reads min_hold: a duration ≥ 0, below the TTL (a lease cannot
// be held longer than it lives), for an algorithm with the min-hold trait.
func (p *parser) minHold(f field, s *Scenario) {
	d, n, st := p.duration(f, "min_hold")
	if st != good {
		return
	}
	switch t := p.traitsOf(s.Algorithm); {
	case d < 0:
		p.errorf(n, "min_hold", "must be ≥ 0 (got %s)", describe(n))
	case s.Algorithm != "" && !t.MinHold && d > 0:
		p.errorf(n, "min_hold", "algorithm %s keeps no minimum hold; min_hold needs one of %s", s.Algorithm, traitNames(func(t algo.Traits) bool { return t.MinHold }))
	case s.TTL > 0 && d > s.TTL:
		p.errorf(n, "min_hold", "must be at most the ttl %s: a lease cannot stay taken longer than it lives (got %s)", s.TTL, describe(n))
	default:
		s.MinHold = d
	}
}

// traitNames lists the registered algorithms whose traits satisfy keep,
// as "a, b or c".
func traitNames(keep func(algo.Traits) bool) string {
	names := algo.Where(keep)
	switch len(names) {
	case 0:
		return "(none registered)"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
