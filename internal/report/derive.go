package report

import (
	"regexp"
	"sort"
	"strings"
	"time"

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
	KeyEnd             int64 // instant the lock was lost in Redis: for one node min(Expire, removal, next grant); for N nodes when fewer than a quorum still held the key
	Expired            bool  // KeyEnd is the TTL expiry, inside the history
	Removed            bool  // a removing release ended the key
	BelievedEnd        int64 // release Invoke, lost, or the end of the history
	EndHow             string
	// NodeEnd is, per granting node, the instant the key left that node;
	// NodeHow says why: "expired", "clock" (its clock jumped), "crash",
	// "released", "removed:<client>" or "taken:<client>".
	NodeEnd  map[string]int64
	NodeHow  map[string]string
	EndCause string // NodeHow of the node that decided KeyEnd
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
	const never = int64(1<<62 - 1)
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
			l.Expire = never
		}
		l.NodeEnd = map[string]int64{}
		l.NodeHow = map[string]string{}
		for j, p := range ops {
			if j == i || p.Key != o.Key || p.Invoke < o.Complete {
				continue
			}
			same := p.Client == o.Client && (p.Value.Token == "" || l.Token == "" || p.Value.Token == l.Token)
			switch {
			case same && l.EndHow == "end" && (p.F == history.Release || p.F == history.Lost || p.F == history.Done):
				l.BelievedEnd, l.EndHow = p.Invoke, string(p.F)
				if p.F == history.Release && p.Type == history.OK && p.Value.Removed {
					l.removeOn(p.Value.Nodes, p.Invoke, "released")
				}
			case same && p.F == history.Extend && p.Type == history.OK && !p.Open() && p.Invoke <= l.Expire && l.EndHow == "end":
				ttl := p.Value.TTL
				if ttl <= 0 {
					ttl = l.TTL
				}
				l.Expire = p.Complete + m.wallOfScenarioNS(ttl)
			}
			// A compare-and-delete release carrying another owner token
			// cannot remove our key; only a plain DEL (naive, or no token) can.
			plainDel := m.h.Header.Algorithm == "naive" || p.Value.Token == "" || l.Token == ""
			if p.Client != o.Client && plainDel && (p.F == history.Release || p.F == history.Probe) && p.Type == history.OK &&
				p.Value.Removed && p.Invoke < l.Expire && (len(p.Value.Nodes) == 0 || shareNode(p.Value.Nodes, l.Nodes)) {
				l.removeOn(p.Value.Nodes, p.Invoke, "removed:"+p.Client) // a foreign plain DEL (naive) while the key was still ours
			}
		}
		// Per node: the TTL expiry, earlier when the node's clock jumped
		// forward or the node crashed (no persistence) while the key lived.
		for _, n := range l.Nodes {
			end, how := l.Expire, "expired"
			for _, w := range m.faults {
				if !containsStr(w.Targets, n) || w.Start < l.Start || w.Start >= end {
					continue
				}
				switch w.Fault {
				case "clock-jump":
					if d, ok := parseJump(w.Detail); ok && d > 0 {
						e := max(w.Start, end-m.wallOfScenarioNS(int64(d)))
						if e < end {
							end, how = e, "clock"
						}
					}
				case "crash":
					end, how = w.Start, "crash"
				}
			}
			if r, ok := l.NodeEnd[n]; !ok || end < r {
				l.NodeEnd[n], l.NodeHow[n] = end, how
			}
		}
		m.leases = append(m.leases, l)
	}
	// A later grant of the same key on a node means the key was gone from
	// that node by then: clip (our derived expiry is an estimate).
	sort.SliceStable(m.leases, func(a, b int) bool { return m.leases[a].Start < m.leases[b].Start })
	for a := range m.leases {
		la := &m.leases[a]
		for b := a + 1; b < len(m.leases); b++ {
			lb := m.leases[b]
			if la.Key != lb.Key {
				continue
			}
			for _, n := range lb.Nodes {
				e, ok := la.NodeEnd[n]
				if !ok || lb.Start >= e {
					continue
				}
				if la.NodeHow[n] == "expired" && la.Expire <= lb.Start+m.wallOfScenarioNS(int64(1e9)) {
					la.NodeEnd[n] = lb.Start // expired, a hair earlier than we estimated
				} else if la.NodeHow[n] == "expired" {
					la.NodeEnd[n], la.NodeHow[n] = lb.Start, "taken:"+lb.Client
				} else {
					la.NodeEnd[n] = lb.Start
				}
			}
		}
	}
	quorum := len(m.nodes)/2 + 1
	for a := range m.leases {
		l := &m.leases[a]
		ends := make([]int64, 0, len(l.Nodes))
		for _, n := range l.Nodes {
			ends = append(ends, l.NodeEnd[n])
		}
		sort.Slice(ends, func(i, j int) bool { return ends[i] > ends[j] })
		q := 1
		if len(m.nodes) > 1 && len(l.Nodes) >= quorum {
			q = quorum
		}
		q = min(q, len(ends))
		l.KeyEnd = ends[q-1]
		how := ""
		for _, n := range l.Nodes {
			if l.NodeEnd[n] == l.KeyEnd {
				how = l.NodeHow[n]
				break
			}
		}
		l.Removed = how != "expired" && how != "clock" && how != "crash"
		l.Expired = !l.Removed && l.KeyEnd <= m.end
		l.EndCause = how
	}
}

// removeOn records that the key was deleted from nodes (all of the
// lease's nodes when none is named) at t.
func (l *lease) removeOn(nodes []string, t int64, how string) {
	if len(nodes) == 0 {
		nodes = l.Nodes
	}
	for _, n := range nodes {
		if !containsStr(l.Nodes, n) {
			continue
		}
		if e, ok := l.NodeEnd[n]; !ok || t < e {
			l.NodeEnd[n], l.NodeHow[n] = t, how
		}
	}
}

var jumpRE = regexp.MustCompile(`([+-]?)\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\b`)

// parseJump reads the first signed duration in a fault's detail ("n3's
// clock jumps +15s", "clock of n3 jumped forward by 15s"); a "back"
// wording or a minus sign makes it negative.
func parseJump(detail string) (time.Duration, bool) {
	mm := jumpRE.FindStringSubmatch(detail)
	if mm == nil {
		return 0, false
	}
	d, err := time.ParseDuration(mm[2] + mm[3])
	if err != nil {
		return 0, false
	}
	if mm[1] == "-" || strings.Contains(strings.ToLower(detail), "back") {
		d = -d
	}
	return d, true
}

// declaredDuration is the fault's length as the scenario declared it,
// read from its detail ("stop-the-world pause of 35s").
func declaredDuration(detail string) (time.Duration, bool) {
	d, ok := parseJump(detail)
	if !ok {
		return 0, false
	}
	if d < 0 {
		d = -d
	}
	return d, d > 0
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
