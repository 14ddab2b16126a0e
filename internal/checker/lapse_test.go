package checker

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// lapseRun is a library's refresh scenario on one observed node, in
// scenario seconds: w1 holds invoice-1 (TTL 10 s) from 0 s and is stopped
// past its key's end at 10 s; w2, when other, is granted the key at 10.5 s
// and releases it at 11.5 s; at 16 s w1's library refreshes (renewal
// says the refresh's outcome: ok, fail or none), setting the gone key
// again when resurrect; then w1 charges at 20 s (unless told) and
// releases at 20.1 s.
type lapseRun struct {
	other, resurrect, lost, observed bool
	renewal                          history.Type // "" for none
}

func (c lapseRun) history() history.History {
	b := newHB(false)
	b.h.Header.Nodes, b.h.Header.Clients = []string{"n1"}, []string{"w1", "w2"}
	if c.observed {
		b.h.Header.Observed = []string{"n1"}
	}
	node := func(client string, t float64, lua bool, args ...string) {
		if !c.observed {
			return
		}
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
			Key: "invoice-1", Value: history.Value{Node: "n1", Cmd: args, Lua: lua}, Invoke: ns(t), Complete: ns(t), Type: history.OK})
	}
	ttl := history.Value{Token: "w1-tok", TTL: ns(10), Nodes: []string{"n1"}}
	b.op("w1", history.Acquire, "invoice-1", 0, 0.01, history.OK, ttl)
	node("w1", 0.005, false, "set", "invoice-1", "w1-tok", "PX", "10000", "NX")
	if c.other {
		b.op("w2", history.Acquire, "invoice-1", 10.5, 10.51, history.OK, history.Value{Token: "w2-tok", TTL: ns(10), Nodes: []string{"n1"}})
		node("w2", 10.505, false, "set", "invoice-1", "w2-tok", "PX", "10000", "NX")
		b.write("w2", "invoice-1", workload.ActionCharge, 11, 11, 0)
		b.op("w2", history.Release, "invoice-1", 11.5, 11.51, history.OK, history.Value{Token: "w2-tok", Removed: true, Nodes: []string{"n1"}})
		node("w2", 11.505, false, "evalsha", "sha1:cad", "1", "invoice-1", "w2-tok")
		node("w2", 11.505, true, "get", "invoice-1")
		node("w2", 11.505, true, "del", "invoice-1")
	}
	if c.renewal != "" {
		node("w1", 16.005, false, "evalsha", "sha1:refresh", "1", "invoice-1", "w1-tok", "10000")
		node("w1", 16.005, true, "get", "invoice-1")
		if c.resurrect {
			node("w1", 16.005, true, "set", "invoice-1", "w1-tok")
			node("w1", 16.005, true, "pexpire", "invoice-1", "10000")
		}
		b.op("w1", history.Extend, "invoice-1", 16, 16.01, c.renewal, history.Value{Token: "w1-tok", TTL: ns(10), Renewal: true})
	}
	if c.lost {
		b.lost("w1", "invoice-1", 16.02)
		return b.h
	}
	b.write("w1", "invoice-1", workload.ActionCharge, 20, 20, 0)
	removed := c.resurrect
	t := history.OK
	if !removed {
		t = history.Fail
	}
	b.op("w1", history.Release, "invoice-1", 20.1, 20.11, t, history.Value{Token: "w1-tok", Removed: removed, Nodes: []string{"n1"}})
	node("w1", 20.105, false, "evalsha", "sha1:cad", "1", "invoice-1", "w1-tok")
	node("w1", 20.105, true, "get", "invoice-1")
	if removed {
		node("w1", 20.105, true, "del", "invoice-1")
	}
	return b.h
}

func TestWhatALockToldItsHolderWhenItsLeaseLapsed(t *testing.T) {
	tests := []struct {
		name string
		run  lapseRun
		// want are the kinds found, each "kind" or "kind (informational)".
		want []string
	}{
		{"a refresh that sets the gone key again after w2's grant brings the lease back and hides the lapse",
			lapseRun{other: true, resurrect: true, observed: true, renewal: history.OK},
			[]string{"hidden-lapse", "resurrected-lease"}},
		{"a refresh that finds the key gone tells its holder: no lapse is hidden",
			lapseRun{other: true, observed: true, renewal: history.Fail, lost: true},
			nil},
		{"a refused refresh is a telling even when no lost event follows",
			lapseRun{other: true, observed: true, renewal: history.Fail},
			nil},
		{"a plain lock that never renews hides nothing: the holder acts past its TTL, told by no one",
			lapseRun{other: true, observed: true},
			nil},
		{"a token set again with no grant in between brings back no one else's lock, and the lapse it hid harmed no one",
			lapseRun{resurrect: true, observed: true, renewal: history.OK},
			[]string{"hidden-lapse (informational)"}},
		{"without node events a lapse is the clients' estimate and is not judged",
			lapseRun{other: true, resurrect: true, renewal: history.OK},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(context.Background(), tt.run.history(), Options{})
			var got []string
			for _, a := range rep.Anomalies() {
				if a.Kind != KindResurrectedLease && a.Kind != KindHiddenLapse {
					continue
				}
				k := a.Kind
				if a.Informational {
					k += " (informational)"
				}
				got = append(got, k)
				if a.Stale != "w1" {
					t.Errorf("%s: stale %q, want w1: %s", a.Kind, a.Stale, a.Explain)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				var b strings.Builder
				for _, a := range rep.Anomalies() {
					b.WriteString("\n  " + a.Kind + ": " + a.Explain)
				}
				t.Errorf("found %v, want %v%s", got, tt.want, b.String())
			}
		})
	}
}

func TestAHiddenLapseNamesTheLapseTheVouchingRenewalAndTheAct(t *testing.T) {
	h := lapseRun{other: true, resurrect: true, observed: true, renewal: history.OK}.history()
	rep := Check(context.Background(), h, Options{})
	for _, a := range rep.Anomalies() {
		if a.Kind != KindHiddenLapse {
			continue
		}
		if a.Start != ns(10.005) || a.End != ns(20) || a.Current != "w2" {
			t.Errorf("window %d–%d, current %q; want 10.005 s–20 s (w1's key's end to its charge), w2", a.Start, a.End, a.Current)
		}
		if len(a.Ops) != 3 || h.Ops[a.Ops[1]].F != history.Extend || h.Ops[a.Ops[2]].F != history.Write {
			t.Errorf("ops %v: want the grant, the renewal that vouched, the charge", a.Ops)
		}
		if a.Cause == nil || a.Cause.Kind != "expired" || a.Cause.Reset != ns(16.005) {
			t.Errorf("cause %+v: want the key expired, set again at 16.005 s", a.Cause)
		}
		if len(a.Violating) != 1 || h.Ops[a.Violating[0]].Client != "w1" {
			t.Errorf("violating %v: want w1's charge", a.Violating)
		}
		return
	}
	t.Fatal("no hidden lapse")
}

func TestAForeignUnlockOfALibrarysOwnKeyIsJudgedOnTheNode(t *testing.T) {
	b := newHB(false)
	b.h.Header.Nodes, b.h.Header.Observed, b.h.Header.Clients = []string{"n1"}, []string{"n1"}, []string{"w1", "w2"}
	node := func(client string, ts float64, args ...string) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
			Key: "mutex:invoice-1", Value: history.Value{Node: "n1", Cmd: args}, Invoke: ns(ts), Complete: ns(ts), Type: history.OK})
	}
	b.op("w1", history.Acquire, "invoice-1", 0, 0.01, history.OK, history.Value{Token: "w1-tok", TTL: ns(30), Nodes: []string{"n1"}, LockKey: "mutex:invoice-1"})
	node("w1", 0.005, "set", "mutex:invoice-1", "w1-tok", "PX", "30000", "NX")
	rel := b.release("w2", "invoice-1", 4.9, 5.1, true)
	node("w2", 5, "del", "mutex:invoice-1") // w2's release removed the library's key by a plain DEL
	rep := Check(context.Background(), b.h, Options{})
	for _, a := range rep.Anomalies() {
		if a.Kind == KindForeignUnlock && a.Deleter == "w2" && a.Owner == "w1" {
			if !slices.Contains(a.Ops, b.h.Ops[rel].Index) {
				t.Errorf("the foreign unlock does not name w2's release of invoice-1 (op %d): %v", b.h.Ops[rel].Index, a.Ops)
			}
			return
		}
	}
	t.Errorf("no foreign unlock of w1's mutex:invoice-1 by w2; found %v", kindsFound(rep))
}

func kindsFound(rep Report) []string {
	var out []string
	for _, a := range rep.Anomalies() {
		out = append(out, a.Kind)
	}
	return out
}
