package report

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// deriveLeasesRef is the straightforward (quadratic) derivation the
// indexed deriveLeases must agree with.
func (m *model) deriveLeasesRef() {
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
		l.Expire = l.Start + l.TTL
		if l.TTL <= 0 {
			l.Expire = never
		}
		l.NodeEnd = map[string]int64{}
		l.NodeHow = map[string]keyEnd{}
		ended := false // a release or lost after which nothing of ours matters
		for j, p := range ops {
			if j == i || p.Key != o.Key || p.Invoke < o.Complete {
				continue
			}
			same := p.Client == o.Client && (p.Value.Token == "" || l.Token == "" || p.Value.Token == l.Token)
			switch {
			case same && !ended && (p.F == history.Release || p.F == history.Lost || p.F == history.Done):
				if l.EndHow == "end" {
					l.BelievedEnd, l.EndHow = p.Invoke, string(p.F)
				}
				ended = p.F != history.Done // after done, the release may still remove the key
				if p.F == history.Release && p.Type == history.OK && p.Value.Removed {
					l.removeOn(p.Value.Nodes, p.Invoke, keyEnd{How: "released"})
				}
			case same && p.F == history.Extend && p.Type == history.OK && !p.Open() && p.Invoke <= l.Expire && l.EndHow == "end":
				ttl := p.Value.TTL
				if ttl <= 0 {
					ttl = l.TTL
				}
				l.Expire = p.Complete + ttl
			}
			// A compare-and-delete release carrying another owner token
			// cannot remove our key; only a plain DEL (naive, or no token) can.
			plainDel := m.h.Header.Algorithm == "naive" || p.Value.Token == "" || l.Token == ""
			if p.Client != o.Client && plainDel && (p.F == history.Release || p.F == history.Probe) && p.Type == history.OK &&
				p.Value.Removed && p.Invoke < l.Expire && (len(p.Value.Nodes) == 0 || shareNode(p.Value.Nodes, l.Nodes)) {
				l.removeOn(p.Value.Nodes, p.Invoke, keyEnd{"removed", p.Client}) // a foreign plain DEL (naive) while the key was still ours
			}
		}
		// Per node: the TTL expiry, earlier when the node's clock jumped
		// forward or the node crashed (no persistence) while the key lived.
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
					end, how = w.Start, keyEnd{How: "crash"}
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
				if la.NodeHow[n].How == "expired" && la.Expire <= lb.Start+m.h.Header.Wall(time.Second) {
					la.NodeEnd[n] = lb.Start // expired, a hair earlier than we estimated
				} else if la.NodeHow[n].How == "expired" {
					la.NodeEnd[n], la.NodeHow[n] = lb.Start, keyEnd{"taken", lb.Client}
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
}

// leaseAtRef, keyOwnerAtRef: the linear scans the indexed lookups replace.
func (m *model) leaseAtRef(client, key string, t int64) (lease, bool) {
	for i := len(m.leases) - 1; i >= 0; i-- {
		l := m.leases[i]
		if l.Client == client && (key == "" || l.Key == key) && l.Start <= t && t <= l.BelievedEnd {
			return l, true
		}
	}
	return lease{}, false
}

func (m *model) keyOwnerAtRef(key string, t int64) (lease, bool) {
	for _, l := range m.leases {
		if l.Key == key && l.Start <= t && t < l.KeyEnd {
			return l, true
		}
	}
	return lease{}, false
}

// randomHistory mixes every op kind, token and node shape, with ops out of
// invoke order when shuffled is set.
func randomHistory(rng *rand.Rand, n int, shuffled bool) history.History {
	clients := []string{"a", "b", "c"}
	keys := []string{"k1", "k2"}
	nodes := []string{"n1", "n2", "n3"}
	algs := []string{"naive", "safe", "redlock"}
	h := history.History{Header: history.Header{TimeScale: float64(1 + rng.IntN(3)), Algorithm: algs[rng.IntN(len(algs))],
		Clients: clients, Nodes: nodes[:1+2*rng.IntN(2)]}}
	funcs := []history.Func{history.Acquire, history.Acquire, history.Release, history.Release, history.Extend, history.Extend, history.Lost,
		history.Done, history.Probe, history.Write, history.Read}
	types := []history.Type{history.OK, history.OK, history.OK, history.Fail, history.Info}
	toks := []string{"", "t1", "t2", "t3"}
	t := int64(0)
	for i := 0; i < n; i++ {
		t += int64(rng.IntN(1e9))
		d := int64(rng.IntN(2e9))
		o := history.Op{Client: clients[rng.IntN(3)], Key: keys[rng.IntN(2)], F: funcs[rng.IntN(len(funcs))],
			Type: types[rng.IntN(len(types))], Invoke: t, Complete: t + d}
		if o.Type == history.Info && rng.IntN(2) == 0 {
			o.Complete = -1
		}
		o.Value = history.Value{Token: toks[rng.IntN(4)], TTL: int64(rng.IntN(8)) * 1e9, Removed: rng.IntN(2) == 0, Fence: int64(rng.IntN(4))}
		if rng.IntN(2) == 0 {
			ns := h.Header.Nodes
			o.Value.Nodes = append([]string(nil), ns[:1+rng.IntN(len(ns))]...)
		}
		if rng.IntN(12) == 0 {
			st := historytest.Step([]string{"clock-jump", "crash", "delete-key"}[rng.IntN(3)], nodes[rng.IntN(3)])
			st.Delta, st.Key = 4e9, keys[rng.IntN(2)]
			if rng.IntN(3) == 0 {
				st = historytest.Step("pause", clients[rng.IntN(3)])
			}
			o = history.Op{Client: history.NemesisClient, Process: history.NemesisProcess, F: history.Fault, Invoke: t, Complete: t + d,
				Value: historytest.Value(st)}
		}
		if rng.IntN(15) == 0 {
			o.Key = ""
		}
		h.Ops = append(h.Ops, o)
	}
	if shuffled {
		for i := range h.Ops {
			if j := i + rng.IntN(4); j < len(h.Ops) && rng.IntN(3) == 0 {
				h.Ops[i], h.Ops[j] = h.Ops[j], h.Ops[i]
			}
		}
	}
	for i := range h.Ops {
		h.Ops[i].Index = i
	}
	return h
}

func TestDeriveLeasesMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 2000; it++ {
		h := randomHistory(rng, 5+rng.IntN(60), it%2 == 1)
		m := newModel(h)
		ref := &model{h: m.h, scale: m.scale, end: m.end, faults: m.faults, clients: m.clients, nodes: m.nodes, keys: m.keys}
		ref.deriveLeasesRef()
		if !reflect.DeepEqual(m.leases, ref.leases) {
			t.Fatalf("history %d: leases differ\n got %+v\nwant %+v", it, m.leases, ref.leases)
		}
		ref.leases = m.leases // the lookups below on the same leases
		for q := 0; q < 40; q++ {
			at := int64(rng.IntN(int(m.end + 2)))
			c, k := h.Header.Clients[rng.IntN(3)], []string{"", "k1", "k2"}[rng.IntN(3)]
			g, gok := m.leaseAt(c, k, at)
			w, wok := ref.leaseAtRef(c, k, at)
			if gok != wok || !reflect.DeepEqual(g, w) {
				t.Fatalf("history %d: leaseAt(%s, %s, %d) = %v %+v, want %v %+v", it, c, k, at, gok, g, wok, w)
			}
			if k == "" {
				continue
			}
			g, gok = m.keyOwnerAt(k, at)
			w, wok = ref.keyOwnerAtRef(k, at)
			if gok != wok || !reflect.DeepEqual(g, w) {
				t.Fatalf("history %d: keyOwnerAt(%s, %d) = %v %+v, want %v %+v", it, k, at, gok, g, wok, w)
			}
		}
	}
}
