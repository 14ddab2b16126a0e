package report

import (
	"sort"

	"github.com/locksim/locksim/internal/history"
)

// lease is one granted lock, derived from an ok acquire. All instants are
// true time (wall ns since the run's start).
type lease struct {
	Client, Key, Token string
	Fence              int64
	TTL                int64 // scenario ns, as in the history
	Nodes              []string
	Op                 int   // index into History.Ops of the granting acquire
	Start              int64 // acquire Complete
	Expire             int64 // derived instant the key expires in Redis: Start (or last extend) + TTL/TimeScale
	KeyEnd             int64 // instant the key left Redis: min(Expire, removal, next grant of the key)
	Expired            bool  // KeyEnd is the TTL expiry, inside the history
	Removed            bool  // a removing release ended the key
	BelievedEnd        int64 // release Invoke, lost, or the end of the history
	EndHow             string
}

// window is a fault's active interval (wall ns).
type window struct {
	Fault, Point, Detail string
	Targets              []string
	Start, End           int64
	Op                   int
}

// model is what the narrative and the plots derive from a history.
type model struct {
	h       history.History
	scale   float64
	end     int64 // last instant in the history (wall ns)
	leases  []lease
	faults  []window
	clients []string
	nodes   []string
	keys    []string
}

func (m *model) sec(ns int64) float64 { return m.h.Header.ScenarioSeconds(ns) }

// wallOfScenarioNS converts a scenario-time duration (ns) to wall ns.
func (m *model) wallOfScenarioNS(d int64) int64 { return int64(float64(d) / m.scale) }

func opEnd(o history.Op, end int64) int64 {
	if o.Open() {
		return end
	}
	return o.Complete
}

func newModel(h history.History) *model {
	m := &model{h: h, scale: h.Header.TimeScale}
	if m.scale <= 0 {
		m.scale = 1
	}
	seenC, seenK := map[string]bool{}, map[string]bool{}
	for _, c := range h.Header.Clients {
		if !seenC[c] {
			seenC[c] = true
			m.clients = append(m.clients, c)
		}
	}
	for _, o := range h.Ops {
		if o.Invoke > m.end {
			m.end = o.Invoke
		}
		if o.Complete > m.end {
			m.end = o.Complete
		}
		if o.Process != history.NemesisProcess && o.Client != history.NemesisClient && o.Client != "" && !seenC[o.Client] {
			seenC[o.Client] = true
			m.clients = append(m.clients, o.Client)
		}
		if o.Key != "" && !seenK[o.Key] && o.F != history.Fault {
			seenK[o.Key] = true
			m.keys = append(m.keys, o.Key)
		}
	}
	m.nodes = append(m.nodes, h.Header.Nodes...)
	if len(m.nodes) == 0 {
		m.nodes = []string{"redis"}
	}
	for i, o := range h.Ops {
		if o.F == history.Fault {
			m.faults = append(m.faults, window{Fault: o.Value.Fault, Point: o.Value.Point, Detail: o.Value.Detail,
				Targets: o.Value.Targets, Start: o.Invoke, End: opEnd(o, m.end), Op: i})
		}
	}
	m.deriveLeases()
	return m
}

func (m *model) deriveLeases() {
	ops := m.h.Ops
	for i, o := range ops {
		if (o.F != history.Acquire && o.F != history.Probe) || o.Type != history.OK || o.Open() {
			continue
		}
		l := lease{Client: o.Client, Key: o.Key, Token: o.Value.Token, Fence: o.Value.Fence, TTL: o.Value.TTL,
			Nodes: o.Value.Nodes, Op: i, Start: o.Complete, BelievedEnd: m.end, EndHow: "end"}
		if len(l.Nodes) == 0 {
			if len(m.h.Header.Nodes) == 1 {
				l.Nodes = []string{m.h.Header.Nodes[0]}
			} else {
				l.Nodes = append([]string(nil), m.nodes...)
			}
		}
		l.Expire = l.Start + m.wallOfScenarioNS(l.TTL)
		if l.TTL <= 0 {
			l.Expire = 1<<62 - 1
		}
		removal := int64(1<<62 - 1)
		for j, p := range ops {
			if j == i || p.Key != o.Key || p.Invoke < o.Complete {
				continue
			}
			same := p.Client == o.Client && (p.Value.Token == "" || l.Token == "" || p.Value.Token == l.Token)
			switch {
			case same && l.EndHow == "end" && (p.F == history.Release || p.F == history.Lost):
				l.BelievedEnd, l.EndHow = p.Invoke, string(p.F)
				if p.F == history.Release && p.Type == history.OK && p.Value.Removed && p.Invoke < removal {
					removal = p.Invoke
				}
			case same && p.F == history.Extend && p.Type == history.OK && !p.Open() && p.Invoke <= l.Expire && l.EndHow == "end":
				ttl := p.Value.TTL
				if ttl <= 0 {
					ttl = l.TTL
				}
				l.Expire = p.Complete + m.wallOfScenarioNS(ttl)
			}
			if p.Client != o.Client && (p.F == history.Release || p.F == history.Probe) && p.Type == history.OK &&
				p.Value.Removed && p.Invoke < removal && p.Invoke < l.Expire && (len(p.Value.Nodes) == 0 || shareNode(p.Value.Nodes, l.Nodes)) {
				removal = p.Invoke // a foreign plain DEL (naive) while the key was still ours
			}
		}
		l.KeyEnd = l.Expire
		if removal < l.KeyEnd {
			l.KeyEnd, l.Removed = removal, true
		}
		m.leases = append(m.leases, l)
	}
	// A later grant of the same key on a shared node means the key was gone
	// by then: clip (our derived expiry is an estimate).
	sort.SliceStable(m.leases, func(a, b int) bool { return m.leases[a].Start < m.leases[b].Start })
	for a := range m.leases {
		for b := a + 1; b < len(m.leases); b++ {
			la, lb := &m.leases[a], m.leases[b]
			if la.Key == lb.Key && shareNode(la.Nodes, lb.Nodes) && lb.Start < la.KeyEnd {
				if la.Expire <= lb.Start+m.wallOfScenarioNS(int64(1e9)) && !la.Removed {
					la.KeyEnd = lb.Start // expired, a hair earlier than we estimated
				} else {
					la.KeyEnd, la.Removed = lb.Start, true
				}
				break
			}
		}
	}
	for a := range m.leases {
		l := &m.leases[a]
		l.Expired = !l.Removed && l.KeyEnd <= m.end
	}
}

func shareNode(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// pausedAt returns the pause window of client covering instant t, if any.
func (m *model) pausedAt(client string, t int64) (window, bool) {
	for _, w := range m.faults {
		if w.Fault != "pause" || w.Start > t || w.End < t {
			continue
		}
		for _, c := range w.Targets {
			if c == client {
				return w, true
			}
		}
	}
	return window{}, false
}

// leaseAt returns the lease client believed it held on key at instant t.
func (m *model) leaseAt(client, key string, t int64) (lease, bool) {
	for i := len(m.leases) - 1; i >= 0; i-- {
		l := m.leases[i]
		if l.Client == client && (key == "" || l.Key == key) && l.Start <= t && t <= l.BelievedEnd {
			return l, true
		}
	}
	return lease{}, false
}

// keyOwnerAt returns the lease whose key existed in Redis on key at t.
func (m *model) keyOwnerAt(key string, t int64) (lease, bool) {
	for _, l := range m.leases {
		if l.Key == key && l.Start <= t && t < l.KeyEnd {
			return l, true
		}
	}
	return lease{}, false
}

// laneOf maps a client name to its lane index (0 = top).
func (m *model) laneOf(client string) int {
	for i, c := range m.clients {
		if c == client {
			return i
		}
	}
	return -1
}
