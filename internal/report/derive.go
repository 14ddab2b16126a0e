package report

import (
	"cmp"
	"slices"
	"sort"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// lease is one granted lock as the report draws and tells it: a grant of
// the run's account (package account) with the believed hold its client
// had on it. The report derives nothing here: every instant and every
// reason comes from the account. All instants are true time (wall ns
// since the run's start).
type lease struct {
	Client, Key, Token string
	Fence              int64
	TTL                int64 // wall ns, as in the history
	Nodes              []string
	Op                 int   // index into History.Ops of the granting acquire
	Start              int64 // acquire Complete
	// KeyEnd is when the lock was lost in Redis (account.Grant.End); Cause
	// says how, on CauseNode. Cause.Kind is account.EndHeld when the key
	// outlived the history.
	KeyEnd    int64
	Cause     account.End
	CauseNode string
	// Lives are the key's lives on the granting nodes that backed it.
	Lives []account.KeyLife
	// BelievedEnd is when its client stopped believing it held the lock
	// (the account's Hold), EndHow why (an account.Hold* reason); a grant
	// its client never acted on as holder (the final probe) believes
	// until KeyEnd.
	BelievedEnd int64
	EndHow      string
}

// lost reports whether the lock was lost inside the history.
func (l lease) lost() bool { return l.Cause.Kind != account.EndHeld }

// keptByRelease reports whether the key life that ended the lease had its
// end set by its client's own release, which removed no key (the
// account's Kept: a minimum hold's PEXPIRE, ShedLock's rewrite): the
// client released the lock, it did not lose it.
func (l lease) keptByRelease() bool {
	for _, k := range l.Lives {
		if k.End == l.KeyEnd && k.Kept != nil && k.Owner == l.Client {
			return true
		}
	}
	return false
}

// life returns the lease's key life on node, if one backed it there.
func (l lease) life(node string) (account.KeyLife, bool) {
	for _, k := range l.Lives {
		if k.Node == node {
			return k, true
		}
	}
	return account.KeyLife{}, false
}

// window is an applied fault step and its active interval (wall ns).
type window = account.FaultWindow

// model is what the narrative and the plots read off a history: its
// account and the lookups they need over it.
type model struct {
	h       history.History
	a       *account.Account
	scale   float64
	end     int64 // last instant in the history (wall ns)
	leases  []lease
	faults  []window
	clients []string
	nodes   []string
	keys    []string

	lane     map[string]int       // client → lane (first occurrence)
	opsByKey map[string][]int     // positions of each key's ops in History.Ops, in index order
	byClient map[string][]int     // positions in leases per client, by Start
	byKey    map[string][]int     // positions in leases per key, by Start
	byCK     map[clientKey][]int  // positions in leases per client and key, by Start
	tokens   map[string]string    // owner token → how the report writes it (see shortTokens)
	byOp     map[int]int          // acquire op index → position in leases
	members  map[string][]int     // semaphore key → positions in a.Members(), by Start
	fences   map[int]fenceReading // acquire op index → the fence counter the node showed for it
}

// fenceReading is a fence counter's value as a node showed it beside a
// grant (account.Counters).
type fenceReading struct {
	Node  string
	Value int64
}

func (m *model) sec(ns int64) float64 { return m.h.Header.ScenarioSeconds(ns) }

func opEnd(o history.Op, end int64) int64 {
	if o.Open() {
		return end
	}
	return o.Complete
}

// newModel reads the model off h's account a (derived from h when nil).
func newModel(h history.History, a *account.Account) *model {
	if a == nil {
		a = account.New(h)
	}
	m := &model{h: h, a: a, scale: h.Header.TimeScale, end: a.End(), faults: a.Faults}
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
		if o.Process == history.NodeProcess {
			continue
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
	m.lane = make(map[string]int, len(m.clients))
	for i, c := range m.clients {
		if _, ok := m.lane[c]; !ok {
			m.lane[c] = i
		}
	}
	m.opsByKey = map[string][]int{}
	for i, o := range h.Ops {
		if o.Process != history.NodeProcess {
			m.opsByKey[o.Key] = append(m.opsByKey[o.Key], i)
		}
	}
	m.nodes = append(m.nodes, h.Header.Nodes...)
	if len(m.nodes) == 0 {
		m.nodes = []string{"redis"}
	}
	m.readLeases()
	m.tokens = shortTokens(h, a)
	m.members = map[string][]int{}
	for i, ml := range a.Members() {
		m.members[ml.Key] = append(m.members[ml.Key], i)
	}
	m.readFences()
	return m
}

// readLeases turns the account's grants into leases, each with the
// believed hold of its acquire.
func (m *model) readLeases() {
	hold := map[int]account.Hold{}
	for _, hd := range m.a.Holds {
		if prev, ok := hold[hd.Acquire]; !ok || hd.End > prev.End {
			hold[hd.Acquire] = hd
		}
	}
	grants := m.a.Grants()
	m.leases = make([]lease, 0, len(grants))
	m.byOp = make(map[int]int, len(grants))
	for _, g := range grants {
		l := lease{Client: g.Client, Key: g.Key, Token: g.Token, Fence: g.Fence, TTL: g.TTL, Nodes: g.Nodes, Op: g.Op,
			Start: g.Start, KeyEnd: g.End, Cause: g.Ended, CauseNode: g.EndNode, Lives: g.Lives, BelievedEnd: g.End}
		if len(l.Nodes) == 0 {
			for _, k := range g.Lives {
				l.Nodes = append(l.Nodes, k.Node)
			}
		}
		if hd, ok := hold[g.Op]; ok {
			l.BelievedEnd, l.EndHow = hd.End, hd.Ended
		}
		m.byOp[g.Op] = len(m.leases)
		m.leases = append(m.leases, l)
	}
	m.byClient, m.byKey, m.byCK = map[string][]int{}, map[string][]int{}, map[clientKey][]int{}
	for i, l := range m.leases {
		m.byClient[l.Client] = append(m.byClient[l.Client], i)
		m.byKey[l.Key] = append(m.byKey[l.Key], i)
		ck := clientKey{l.Client, l.Key}
		m.byCK[ck] = append(m.byCK[ck], i)
	}
}

// resurrectionOf is the account's resurrection of lease l's key: its
// token set again after the key had ended and another client had been
// granted it (account.Resurrections).
func (m *model) resurrectionOf(l lease) (account.Resurrection, bool) {
	for _, r := range m.a.Resurrections() {
		if r.Before.Grant == l.Op {
			return r, true
		}
	}
	return account.Resurrection{}, false
}

// readFences ties each fenced grant to the fence counter value a node
// showed when it was granted: the counter write by the same client inside
// the acquire's window, of the grant's own key's counter (a second reader:
// the final probe, taking thirteen keys in a row, was told the counter of
// the key before) — the one that left the grant's fence, else the last:
// the acquire's own comes after any of an earlier, stalled acquire of the
// client's that the node ran inside this one's window (fencing-random-
// nemesis seed 1166: w2's grant, fence 4, was told the 3 of the INCR its
// earlier script ran when n1 resumed).
func (m *model) readFences() {
	m.fences = map[int]fenceReading{}
	cs := slices.Clone(m.a.Counters())
	if len(cs) == 0 {
		return
	}
	slices.SortStableFunc(cs, func(x, y account.CounterValue) int { return cmp.Compare(x.At, y.At) })
	for _, l := range m.leases {
		if l.Fence <= 0 {
			continue
		}
		op := m.h.Ops[l.Op]
		from := sort.Search(len(cs), func(i int) bool { return cs[i].At >= op.Invoke-2e6 })
		for _, c := range cs[from:] {
			if c.At > op.Complete+2e6 {
				break
			}
			if c.By == l.Client && counterOf(c.Key, l.Key) {
				m.fences[l.Op] = fenceReading{Node: c.Node, Value: c.Value}
				if c.Value == l.Fence {
					break
				}
			}
		}
	}
}

// counterOf reports whether counter is the fence counter of lock key key
// (account.CounterOf).
func counterOf(counter, key string) bool { return account.CounterOf(counter, key) }

// clientKey names the operations of one client on one key.
type clientKey struct{ client, key string }

// pausedAt returns the pause window of client covering instant t, if any.
func (m *model) pausedAt(client string, t int64) (window, bool) { return m.a.PausedAt(client, t) }

// leaseAt returns the lease client believed it held on key at instant t
// (any key when key is ""): the last one by Start that started at or
// before t and whose believed hold had not ended.
func (m *model) leaseAt(client, key string, t int64) (lease, bool) {
	var idx []int
	if key == "" {
		idx = m.byClient[client]
	} else {
		idx = m.byCK[clientKey{client, key}]
	}
	n := sort.Search(len(idx), func(q int) bool { return m.leases[idx[q]].Start > t })
	for q := n - 1; q >= 0; q-- {
		if l := m.leases[idx[q]]; t <= l.BelievedEnd && l.EndHow != "" {
			return l, true
		}
	}
	return lease{}, false
}

// keyOwnerAt returns the lease whose lock held key at t: the latest by
// Start with Start ≤ t < KeyEnd.
func (m *model) keyOwnerAt(key string, t int64) (lease, bool) {
	idx := m.byKey[key]
	n := sort.Search(len(idx), func(q int) bool { return m.leases[idx[q]].Start > t })
	for q := n - 1; q >= 0; q-- {
		if l := m.leases[idx[q]]; t < l.KeyEnd {
			return l, true
		}
	}
	return lease{}, false
}

// laneOf maps a client name to its lane index (0 = top).
func (m *model) laneOf(client string) int {
	if i, ok := m.lane[client]; ok {
		return i
	}
	return -1
}

// shortTokens maps every owner token of h, and every value a key of a's
// held (a release may rewrite a key with a value no acquire recorded), to
// how the report writes it: its first 8 characters while those stay
// distinct among the run's values, else as long a prefix as keeps every
// value apart (the full token in tooltips and results). It is the one
// place the report shortens a token (m.shortToken): history.html wrote a
// process client's "ADDED:1796363012…@w1" and "…013…@w2" both "ADDED:17"
// (reader 10, finding 2).
func shortTokens(h history.History, a *account.Account) map[string]string {
	var all []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			all = append(all, t)
		}
	}
	for _, o := range h.Ops {
		add(o.Value.Token)
	}
	if a != nil {
		for _, k := range a.Keys() {
			add(k.Value)
		}
	}
	sort.Strings(all)
	n := 8
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		p := 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		n = max(n, p+1)
	}
	out := make(map[string]string, len(all))
	for _, t := range all {
		out[t] = t[:min(n, len(t))]
	}
	return out
}

// shortToken is how the report writes owner token (or key value) t: as
// shortTokens derived it for the run, else whole.
func (m *model) shortToken(t string) string {
	if s, ok := m.tokens[t]; ok {
		return s
	}
	return t
}

// refusalKey is the message of a refused acquire o ("n.tries", ".one" for
// a single attempt): a semaphore refused a permit; a lock whose key no
// node held then, by the account, refused it for a reason of its own
// (a fair lock's queue); one its claim c says never reached Redis was
// refused inside its own process; else the plain refusal, which names no
// one (a claim names whose key refused it, when the nodes show one).
func (m *model) refusalKey(o history.Op, c claim.Claim) string {
	switch {
	case workload.Of(m.h.Header).Permits:
		return "n.tries.permit"
	case m.h.Header.InProcess():
		return "n.tries.mutex" // refused by the harness's mutex, which no node holds
	case c.Kind == claim.Refusal && c.What == claim.Local:
		return "n.tries.local" // it never reached Redis, whatever key stood then (reader 15)
	case m.a.KeyFreeAt(o.Key, o.Invoke, o.Complete):
		return "n.tries.free"
	}
	return "n.tries"
}
