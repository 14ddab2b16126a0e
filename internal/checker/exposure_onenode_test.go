package checker

import (
	"context"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// oneNodeRun is a lock on one watched node n1: w1 sets its key at 0.005 s
// (PX 30 s, so it expires at 30.005 s), pauses from 5 s to 31 s, and
// charges at 31 s (its window: 30.005 s to 31.03 s); steps add the
// contenders' acquires and the commands n1 ran for them (oneAcq, oneSet,
// oneScript).
func oneNodeRun(steps ...func(b *hb)) *hb {
	b := newHB(false)
	b.h.Header.Nodes, b.h.Header.Observed = []string{"n1"}, []string{"n1"}
	b.op("w1", history.Acquire, inv1, 0, 0.01, history.OK, history.Value{Token: "w1-tok", TTL: ns(30)})
	oneSet("w1", "w1-tok", 0.005)(b)
	b.fault("pause", []string{"w1"}, 5, 31)
	for _, s := range steps {
		s(b)
	}
	b.write("w1", inv1, workload.ActionCharge, 31, 31.01, 0)
	b.write("w1", inv1, workload.ActionMarkPaid, 31.02, 31.03, 0)
	b.release("w1", inv1, 31.05, 31.06, false)
	return b
}

// oneAcq is an acquire of client's over [from, to] (scenario s) of type
// typ; a granted one carries tok.
func oneAcq(client, tok string, from, to float64, typ history.Type) func(b *hb) {
	return func(b *hb) {
		v := history.Value{TTL: ns(30)}
		if typ == history.OK {
			v.Token = tok
		}
		b.op(client, history.Acquire, inv1, from, to, typ, v)
	}
}

// oneSet is the SET NX PX 30000 of client's token tok that n1 ran at at
// (scenario s): it set the key when n1 was free, else n1 refused it.
func oneSet(client, tok string, at float64) func(b *hb) {
	return func(b *hb) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
			Key: inv1, Value: history.Value{Node: "n1", Cmd: []string{"SET", inv1, tok, "NX", "PX", "30000"}}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
	}
}

// oneScript is a fair lock's acquire script of client's that n1 ran at at
// (scenario s) and that set nothing: its lines read the waiter queue and
// the lock key, and queued the caller (mutant_fair_queue.go).
func oneScript(client string, at float64) func(b *hb) {
	return func(b *hb) {
		node := func(lua bool, cmd ...string) {
			b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: client, F: history.NodeCmd,
				Key: inv1, Value: history.Value{Node: "n1", Cmd: cmd, Lua: lua}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
		}
		q, ts := "fair-queue:{"+inv1+"}", "fair-timeout:{"+inv1+"}"
		node(false, "evalsha", "f00d", "3", inv1, q, ts, client+"-tok", "30000", "300000", "0")
		node(true, "LINDEX", q, "0")
		node(true, "HGET", ts, "w2-tok")
		node(true, "LINDEX", q, "0")
		node(true, "EXISTS", inv1)
		node(true, "HEXISTS", ts, client+"-tok")
	}
}

// w4Later is w4 taking the lock at 61 s, after every key of the rows has
// left n1: a second grant, so that a run is judged at all (coverage).
var w4Later = []func(b *hb){oneAcq("w4", "w4-tok", 61, 61.01, history.OK), oneSet("w4", "w4-tok", 61.005),
	func(b *hb) { b.release("w4", inv1, 61.1, 61.11, true) }}

func TestAOneNodeTryTestsAnExposureOnlyWhenTheNodeCouldHaveSaidYes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		steps   []func(b *hb)
		tried   bool
		verdict Verdict
		owner   string // the short try's KeyOwner, when untried
		after   []func(b *hb)
	}{
		{"a try whose own SET found n1 free after w1's key expired, and was granted, tested the window",
			[]func(b *hb){oneAcq("w2", "w2-tok", 30.1, 30.2, history.OK), oneSet("w2", "w2-tok", 30.15),
				func(b *hb) { b.release("w2", inv1, 30.3, 30.31, true) }},
			true, Invalid, "", nil},
		{"a try refused by w2's own key that its earlier unanswered acquire set before this one began is short",
			[]func(b *hb){oneAcq("w2", "", 29, 30.05, history.Info), oneSet("w2", "w2-old", 30.07),
				oneAcq("w2", "", 30.1, 30.3, history.Fail), oneSet("w2", "w2-new", 30.2)},
			false, Unknown, "w2", w4Later},
		{"a try refused by w2's own key that its earlier unanswered acquire's stalled SET set while this one was in flight is short",
			[]func(b *hb){oneAcq("w2", "", 29, 30.05, history.Info), oneSet("w2", "w2-old", 30.15),
				oneAcq("w2", "", 30.1, 30.3, history.Fail), oneSet("w2", "w2-new", 30.16)},
			false, Unknown, "w2", w4Later},
		{"a try refused by a third client's key set inside the window is short, naming w3",
			[]func(b *hb){oneAcq("w3", "", 29, 30.05, history.Info), oneSet("w3", "w3-old", 30.07),
				oneAcq("w2", "", 30.1, 30.3, history.Fail), oneSet("w2", "w2-new", 30.2)},
			false, Unknown, "w3", w4Later},
		{"a try refused by a third client's stalled SET that landed while it was in flight is short, naming w3",
			[]func(b *hb){oneAcq("w3", "", 29, 30.05, history.Info), oneSet("w3", "w3-old", 30.15),
				oneAcq("w2", "", 30.1, 30.3, history.Fail), oneSet("w2", "w2-new", 30.16)},
			false, Unknown, "w3", w4Later},
		{"a fair lock's script that found n1 free and refused the try, its queue headed by a dead waiter, is short: the lock refused it for a reason of its own",
			[]func(b *hb){oneAcq("w3", "", 30.2, 30.21, history.Fail), oneScript("w3", 30.205),
				oneAcq("w3", "", 30.7, 30.71, history.Fail), oneScript("w3", 30.705)},
			false, Unknown, "", w4Later},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneNodeRun(tt.steps...)
			for _, s := range tt.after {
				s(b)
			}
			es := exposures(account.New(b.h))
			if len(es) == 0 {
				t.Fatal("no exposure")
			}
			e := es[0]
			if e.Tried != tt.tried {
				t.Fatalf("tried %v, want %v: %+v short %+v", e.Tried, tt.tried, e, e.Short)
			}
			if !tt.tried && (e.Short == nil || e.Short.Need != 1 || e.Short.Met != 0 || e.Short.KeyOwner != tt.owner || e.Short.ScriptRefused != (tt.owner == "")) {
				t.Errorf("short %+v, want one that met %s's key on n1", e.Short, tt.owner)
			}
			if rep := Check(context.Background(), b.h, Options{}); rep.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s: %+v", rep.Verdict, tt.verdict, rep.Results)
			}
		})
	}
}
