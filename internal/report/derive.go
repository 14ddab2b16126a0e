package report

import (
	"sort"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// lease is one granted lock, derived from an ok acquire. All instants are
// true time (wall ns since the run's start).
type lease struct {
	Client, Key, Token string
	Fence              int64
	TTL                int64 // wall ns, as in the history
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
	// NodeHow says why.
	NodeEnd  map[string]int64
	NodeHow  map[string]keyEnd
	EndCause keyEnd // NodeHow of the node that decided KeyEnd
}

// keyEnd is how a lease's key left a node: How is "expired", "clock" (the
// node's clock jumped), "crash", "deleted" (a delete-key fault: a
// janitor), "released", "removed" (another client's DEL, By) or "taken"
// (another client, By, was granted the key there).
type keyEnd struct{ How, By string }

// gone reports whether the key ran out on its own or was lost with the
// node (not removed by a client).
func (e keyEnd) gone() bool { return e.How == "expired" || e.How == "clock" || e.How == "crash" }

// window is an applied fault step and its active interval (wall ns).
type window struct {
	Step       history.FaultStep
	Start, End int64
	Op         int
}

// Kind is the window's fault kind.
func (w window) Kind() string { return w.Step.Kind }

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

	lane     map[string]int           // client → lane (first occurrence)
	opsByKey map[string][]int         // positions of each key's ops in History.Ops, in index order
	byClient map[string]*leaseList    // leases per client
	byKey    map[string]*leaseList    // leases per key
	byCK     map[clientKey]*leaseList // leases per client and key
}

func (m *model) sec(ns int64) float64 { return m.h.Header.ScenarioSeconds(ns) }

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
	m.lane = make(map[string]int, len(m.clients))
	for i, c := range m.clients {
		if _, ok := m.lane[c]; !ok {
			m.lane[c] = i
		}
	}
	m.opsByKey = map[string][]int{}
	for i, o := range h.Ops {
		m.opsByKey[o.Key] = append(m.opsByKey[o.Key], i)
	}
	m.nodes = append(m.nodes, h.Header.Nodes...)
	if len(m.nodes) == 0 {
		m.nodes = []string{"redis"}
	}
	for i, o := range h.Ops {
		if o.F == history.Fault && o.Value.Fault != nil && o.Type != history.Fail {
			m.faults = append(m.faults, window{Step: *o.Value.Fault, Start: o.Invoke, End: opEnd(o, m.end), Op: i})
		}
	}
	m.deriveLeases()
	return m
}

// clientKey names the operations of one client on one key.
type clientKey struct{ client, key string }

// opList is a list of op positions (into History.Ops) in index order.
type opList struct {
	pos []int
	// sorted reports whether the ops' Invoke never decreases along pos
	// (true of every recorded history: the recorder numbers ops as they
	// are invoked); lookups by instant then use binary search.
	sorted bool
}

func (l *opList) add(ops []history.Op, j int) {
	if n := len(l.pos); n == 0 {
		l.sorted = true
	} else if ops[l.pos[n-1]].Invoke > ops[j].Invoke {
		l.sorted = false
	}
	l.pos = append(l.pos, j)
}

// from returns the first position in l whose op may be invoked at or
// after t: exact when l is sorted, 0 otherwise (callers filter).
func (l *opList) from(ops []history.Op, t int64) int {
	if !l.sorted {
		return 0
	}
	return sort.Search(len(l.pos), func(q int) bool { return ops[l.pos[q]].Invoke >= t })
}

// leaseList is the leases of one client, one key or one client on one
// key, in m.leases order (by Start), with running maxima for lookups.
type leaseList struct {
	idx   []int   // into m.leases
	start []int64 // Start of each
	beMax []int64 // beMax[q] = max BelievedEnd of idx[0..q]
	keMax []int64 // keMax[q] = max KeyEnd of idx[0..q]
}

func (ll *leaseList) add(i int, l *lease) {
	be, ke := l.BelievedEnd, l.KeyEnd
	if n := len(ll.idx); n > 0 {
		be, ke = max(be, ll.beMax[n-1]), max(ke, ll.keMax[n-1])
	}
	ll.idx, ll.start = append(ll.idx, i), append(ll.start, l.Start)
	ll.beMax, ll.keMax = append(ll.beMax, be), append(ll.keMax, ke)
}

// upTo is the number of leases of ll that started at or before t.
func (ll *leaseList) upTo(t int64) int {
	return sort.Search(len(ll.start), func(q int) bool { return ll.start[q] > t })
}

// deriveLeases derives m.leases from the ok acquires. For each grant it
// looks only at its own client's ops on the key (the release, lost or
// done that ends the believed hold, the renewals before it) and at the
// removing releases of the key invoked while the key could still live,
// so the cost grows with the history, not with its square.
func (m *model) deriveLeases() {
	ops := m.h.Ops
	const never = int64(1<<62 - 1)
	byCK := map[clientKey]*opList{}
	removals := map[string][]int{} // per key: ok removing releases and probes, by (Invoke, index)
	for j, p := range ops {
		k := clientKey{p.Client, p.Key}
		l := byCK[k]
		if l == nil {
			l = &opList{}
			byCK[k] = l
		}
		l.add(ops, j)
		if (p.F == history.Release || p.F == history.Probe) && p.Type == history.OK && p.Value.Removed {
			removals[p.Key] = append(removals[p.Key], j)
		}
	}
	for _, rs := range removals {
		sort.SliceStable(rs, func(a, b int) bool { return ops[rs[a]].Invoke < ops[rs[b]].Invoke })
	}
	type extension struct {
		j      int // op position of the renewal
		expire int64
	}
	type removal struct {
		j     int
		nodes []string
		t     int64
		how   keyEnd
	}
	var exts []extension
	var rems []removal
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
		l.Expire = l.Start + l.TTL
		if l.TTL <= 0 {
			l.Expire = never
		}
		l.NodeEnd = map[string]int64{}
		l.NodeHow = map[string]keyEnd{}
		exts, rems = exts[:0], rems[:0]
		// The client's own ops on the key from o.Complete on, in index
		// order: renewals, then the release, lost or done that ends the
		// believed hold (nothing after it matters).
		own := byCK[clientKey{o.Client, o.Key}]
		for _, j := range own.pos[own.from(ops, o.Complete):] {
			p := ops[j]
			if j == i || p.Invoke < o.Complete || !(p.Value.Token == "" || l.Token == "" || p.Value.Token == l.Token) {
				continue
			}
			if p.F == history.Release || p.F == history.Lost || p.F == history.Done {
				if l.EndHow == "end" {
					l.BelievedEnd, l.EndHow = p.Invoke, string(p.F)
				}
				if p.F == history.Release && p.Type == history.OK && p.Value.Removed {
					rems = append(rems, removal{j, p.Value.Nodes, p.Invoke, keyEnd{How: "released"}})
				}
				if p.F == history.Done {
					// The work is over; the release that follows may still
					// remove the key.
					continue
				}
				break
			}
			if p.F == history.Extend && p.Type == history.OK && !p.Open() && p.Invoke <= l.Expire && l.EndHow == "end" {
				ttl := p.Value.TTL
				if ttl <= 0 {
					ttl = l.TTL
				}
				l.Expire = p.Complete + ttl
				exts = append(exts, extension{j, l.Expire})
			}
		}
		// Foreign removals: a compare-and-delete release carrying another
		// owner token cannot remove our key; only a plain DEL (naive, or
		// no token) can, invoked while the key was still ours (before the
		// expiry in force at that point of the history).
		latest := l.Start + l.TTL
		if l.TTL <= 0 {
			latest = never
		}
		for _, e := range exts {
			latest = max(latest, e.expire)
		}
		rs := removals[o.Key]
		for q := sort.Search(len(rs), func(q int) bool { return ops[rs[q]].Invoke >= o.Complete }); q < len(rs); q++ {
			j := rs[q]
			p := ops[j]
			if p.Invoke >= latest {
				break
			}
			plainDel := m.h.Header.Algorithm == "naive" || p.Value.Token == "" || l.Token == ""
			if j == i || p.Client == o.Client || !plainDel || (len(p.Value.Nodes) > 0 && !shareNode(p.Value.Nodes, l.Nodes)) {
				continue
			}
			expire := l.Start + l.TTL // the expiry in force when op j comes
			if l.TTL <= 0 {
				expire = never
			}
			for _, e := range exts {
				if e.j < j {
					expire = e.expire
				}
			}
			if p.Invoke < expire {
				rems = append(rems, removal{j, p.Value.Nodes, p.Invoke, keyEnd{"removed", p.Client}}) // a foreign plain DEL (naive) while the key was still ours
			}
		}
		sort.SliceStable(rems, func(a, b int) bool { return rems[a].j < rems[b].j })
		for _, r := range rems {
			l.removeOn(r.nodes, r.t, r.how)
		}
		// Per node: the TTL expiry, earlier when the node's clock jumped
		// forward or the node crashed while the key lived and kept nothing
		// on disk (an AOF node comes back with its keys).
		for _, n := range l.Nodes {
			end, how := l.Expire, keyEnd{How: "expired"}
			for _, w := range m.faults {
				if !containsStr(w.Step.Nodes, n) || w.Start < l.Start || w.Start >= end {
					continue
				}
				switch w.Step.Effect {
				case history.EffectNodeClock:
					if d := w.Step.Delta; d > 0 {
						e := max(w.Start, end-d)
						if e < end {
							end, how = e, keyEnd{How: "clock"}
						}
					}
				case history.EffectCrashNode:
					if crashLoses(m.h.Header, w.Step, n) {
						end, how = w.Start, keyEnd{How: "crash"}
					}
				case history.EffectDeleteKey:
					if w.Step.Key == l.Key {
						end, how = w.Start, keyEnd{How: "deleted"}
					}
				}
			}
			if r, ok := l.NodeEnd[n]; !ok || end < r {
				l.NodeEnd[n], l.NodeHow[n] = end, how
			}
		}
		m.leases = append(m.leases, l)
	}
	// A later grant of the same key on a node means the key was gone from
	// that node by then: clip (our derived expiry is an estimate). Leases
	// are by Start, so the later grants of a key that can still clip a
	// lease are those before its latest node end.
	sort.SliceStable(m.leases, func(a, b int) bool { return m.leases[a].Start < m.leases[b].Start })
	byKey := map[string][]int{}
	for a := range m.leases {
		byKey[m.leases[a].Key] = append(byKey[m.leases[a].Key], a)
	}
	for _, group := range byKey {
		for x, a := range group {
			la := &m.leases[a]
			last := latestNodeEnd(la)
			for _, b := range group[x+1:] {
				lb := &m.leases[b]
				if lb.Start >= last {
					break
				}
				for _, n := range lb.Nodes {
					e, ok := la.NodeEnd[n]
					if !ok || lb.Start >= e {
						continue
					}
					if la.NodeHow[n].How == "expired" && la.Expire <= lb.Start+m.h.Header.Wall(time.Second) {
						la.NodeEnd[n] = lb.Start // expired, a hair earlier than we estimated
					} else if la.NodeHow[n].How == "expired" {
						la.NodeEnd[n], la.NodeHow[n] = lb.Start, keyEnd{"taken", lb.Client}
					} else {
						la.NodeEnd[n] = lb.Start
					}
					last = latestNodeEnd(la)
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
		var how keyEnd
		for _, n := range l.Nodes {
			if l.NodeEnd[n] == l.KeyEnd {
				how = l.NodeHow[n]
				break
			}
		}
		l.Removed = !how.gone()
		l.Expired = !l.Removed && l.KeyEnd <= m.end
		l.EndCause = how
	}
	m.indexLeases()
}

// latestNodeEnd is the last instant the lease's key lived on any node.
func latestNodeEnd(l *lease) int64 {
	last := int64(-1 << 62)
	for _, e := range l.NodeEnd {
		last = max(last, e)
	}
	return last
}

// indexLeases builds the per-client, per-key and per-client-and-key
// lease lists the lookups below use.
func (m *model) indexLeases() {
	m.byClient = map[string]*leaseList{}
	m.byKey = map[string]*leaseList{}
	m.byCK = map[clientKey]*leaseList{}
	get := func(mp map[string]*leaseList, k string) *leaseList {
		ll := mp[k]
		if ll == nil {
			ll = &leaseList{}
			mp[k] = ll
		}
		return ll
	}
	for i := range m.leases {
		l := &m.leases[i]
		get(m.byClient, l.Client).add(i, l)
		get(m.byKey, l.Key).add(i, l)
		ck := clientKey{l.Client, l.Key}
		ll := m.byCK[ck]
		if ll == nil {
			ll = &leaseList{}
			m.byCK[ck] = ll
		}
		ll.add(i, l)
	}
}

// removeOn records that the key was deleted from nodes (all of the
// lease's nodes when none is named) at t.
func (l *lease) removeOn(nodes []string, t int64, how keyEnd) {
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
		if w.Step.Effect != history.EffectFreezeClient || w.Start > t || w.End < t {
			continue
		}
		if containsStr(w.Step.Clients, client) {
			return w, true
		}
	}
	return window{}, false
}

// leaseAt returns the lease client believed it held on key at instant t
// (any key when key is ""): the last one by Start that started at or
// before t and whose believed hold had not ended.
func (m *model) leaseAt(client, key string, t int64) (lease, bool) {
	var ll *leaseList
	if key == "" {
		ll = m.byClient[client]
	} else {
		ll = m.byCK[clientKey{client, key}]
	}
	if ll == nil {
		return lease{}, false
	}
	for q := ll.upTo(t) - 1; q >= 0 && ll.beMax[q] >= t; q-- {
		if l := m.leases[ll.idx[q]]; t <= l.BelievedEnd {
			return l, true
		}
	}
	return lease{}, false
}

// keyOwnerAt returns the lease whose key existed in Redis on key at t:
// the first by Start with Start ≤ t < KeyEnd.
func (m *model) keyOwnerAt(key string, t int64) (lease, bool) {
	ll := m.byKey[key]
	if ll == nil {
		return lease{}, false
	}
	// The first lease whose key outlived t is the first where the running
	// maximum of KeyEnd passes t; later ones started no earlier.
	q := sort.Search(len(ll.keMax), func(q int) bool { return ll.keMax[q] > t })
	if q < len(ll.idx) && ll.start[q] <= t {
		return m.leases[ll.idx[q]], true
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

// keysLostOnCrash reports whether node n comes back from a kill -9 without
// its keys: it persisted nothing (or the history does not say).
func keysLostOnCrash(h history.Header, n string) bool {
	p := h.Persistence[n]
	// rdb restarts from its last snapshot: a lock taken since is gone.
	return p == "" || p == "none" || p == "rdb"
}

// crashLoses reports whether crash step st loses node n's recent keys: as
// keysLostOnCrash, or a power loss of an aof-everysec node (its last
// second never reached the disk).
func crashLoses(h history.Header, st history.FaultStep, n string) bool {
	return keysLostOnCrash(h, n) || (st.PowerLoss && h.Persistence[n] == "aof-everysec")
}
