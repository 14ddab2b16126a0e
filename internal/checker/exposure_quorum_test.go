package checker

import (
	"context"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// qtry is one contender's acquire in a quorum run: [from, to] (scenario
// s; to < 0: no answer, an unknown outcome), its type, and its commands,
// each a node and the instant it reached it (scenario s), in order. With
// no type it is no acquire: its client's SETs without NX alone; of the
// client "unobserved", the gap [from, to] in the record of its one
// command's node.
type qtry struct {
	client   string
	from, to float64
	typ      history.Type
	cmds     []qcmd
}

// qcmd is one command of a contender on a node: a SET NX of its token,
// or, with del, the compare-and-delete of a refused Redlock's unlock.
type qcmd struct {
	node string
	at   float64
	del  bool
}

// quorumRun is a Redlock run on nodes (quorum N/2+1): w1 holds every
// node of w1On from 0.005 s (PX 30 s, so its keys there expire at
// 30.005 s), pauses, and charges at 31 s (its window: 30.005 s to
// 31.03 s); the contenders try as tries says.
func quorumRun(nodes, w1On []string, tries ...qtry) *hb {
	b := newHB(false)
	b.h.Header.Nodes, b.h.Header.Observed = nodes, nodes
	b.h.Header.Traits = []string{history.TraitMultiNode}
	cmd := func(c, node string, at float64, args ...string) {
		b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, Client: c, F: history.NodeCmd,
			Key: inv1, Value: history.Value{Node: node, Cmd: args}, Invoke: ns(at), Complete: ns(at), Type: history.OK})
	}
	b.op("w1", history.Acquire, inv1, 0, 0.01, history.OK, history.Value{Token: "w1-tok", TTL: ns(30), Nodes: w1On})
	for _, n := range w1On {
		cmd("w1", n, 0.005, "SET", inv1, "w1-tok", "NX", "PX", "30000")
	}
	b.fault("pause", []string{"w1"}, 5, 31)
	for _, tr := range tries {
		if tr.client == "unobserved" {
			// The nodes' record of cmds[0].node missed [from, to].
			b.h.Ops = append(b.h.Ops, history.Op{Index: len(b.h.Ops), Process: history.NodeProcess, F: history.Unobserved,
				Value: history.Value{Node: tr.cmds[0].node}, Invoke: ns(tr.from), Complete: ns(tr.to), Type: history.OK})
			continue
		}
		if tr.typ == "" {
			// No acquire: the client's key set again, no NX (a renewal
			// that re-creates a missing key: redlock-rb #36).
			for _, c := range tr.cmds {
				cmd(tr.client, c.node, c.at, "SET", inv1, tr.client+"-tok", "PX", "30000")
			}
			continue
		}
		v := history.Value{}
		if tr.typ == history.OK {
			v = history.Value{Token: tr.client + "-tok", TTL: ns(30), Nodes: nodes}
		}
		b.op(tr.client, history.Acquire, inv1, tr.from, tr.to, tr.typ, v)
		for _, c := range tr.cmds {
			if c.del {
				cmd(tr.client, c.node, c.at, "EVAL", "if redis.call('get',KEYS[1]) == ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end", "1", inv1, tr.client+"-tok")
				continue
			}
			cmd(tr.client, c.node, c.at, "SET", inv1, tr.client+"-tok", "NX", "PX", "30000")
		}
	}
	b.write("w1", inv1, workload.ActionCharge, 31, 31.01, 0)
	b.write("w1", inv1, workload.ActionMarkPaid, 31.02, 31.03, 0)
	b.release("w1", inv1, 31.05, 31.06, false)
	return b
}

// sets is one SET per node, in the order given, at the instants given.
func sets(nodeAt ...any) []qcmd {
	var out []qcmd
	for i := 0; i+1 < len(nodeAt); i += 2 {
		out = append(out, qcmd{node: nodeAt[i].(string), at: nodeAt[i+1].(float64)})
	}
	return out
}

var (
	three = []string{"n1", "n2", "n3"}
	five  = []string{"n1", "n2", "n3", "n4", "n5"}
)

func TestAQuorumTestOfAnExposureCountsOnlyNodesThatCouldHaveSaidYes(t *testing.T) {
	for _, tt := range []struct {
		name        string
		nodes, w1On []string
		tries       []qtry
		tried       bool
		met         int // of the short try, when untried
	}{
		{"a try that met a third client's fresh keys, not w1's, on every node could not have been granted",
			three, three, []qtry{
				{"w3", 30.01, 31.5, history.OK, sets("n1", 30.02, "n2", 30.021, "n3", 30.022)},
				{"w2", 30.1, 30.6, history.Fail, sets("n1", 30.11, "n2", 30.12, "n3", 30.13)},
			}, false, 0},
		{"an unanswered try whose second round set its keys on every node inside the window tested it",
			three, three, []qtry{
				{"w2", 29.9, -1, history.Info, append(sets("n1", 29.95, "n2", 29.96, "n3", 29.97), sets("n1", 30.2, "n2", 30.21, "n3", 30.22)...)},
			}, true, 0},
		{"a try that reached the two nodes w1 never held and one it had lost found a quorum of five free",
			five, three, []qtry{
				{"w2", 30.1, 30.6, history.Fail, sets("n4", 30.11, "n5", 30.12, "n1", 30.13)},
			}, true, 0},
		{"two contenders that each found one of three nodes free are both short of the quorum",
			three, three, []qtry{
				{"w2", 30.1, 30.6, history.Fail, sets("n1", 30.11)},
				{"w3", 30.1, 30.6, history.Fail, sets("n2", 30.12)},
			}, false, 1},
		{"a refused try whose unlocks reached the nodes after w1's keys expired is still short",
			three, three, []qtry{
				{"w2", 29.9, 30.6, history.Fail, append(sets("n1", 29.95, "n2", 29.96, "n3", 30.1), qcmd{"n1", 30.2, true}, qcmd{"n2", 30.21, true}, qcmd{"n3", 30.22, true})},
			}, false, 1},
		{"a try that met w1's keys its renewal set again after they expired found them taken, not free",
			three, three, []qtry{
				{"w1", 0, 0, "", sets("n1", 30.05, "n2", 30.06)},
				{"w2", 30.1, 30.6, history.Fail, sets("n1", 30.11, "n2", 30.12, "n3", 30.13)},
			}, false, 1},
		{"a try that met w1's keys on two watched nodes is short though the third went unrecorded for a while",
			three, three, []qtry{
				{"w2", 29.9, 30.6, history.Fail, sets("n1", 29.95, "n2", 29.96, "n3", 30.1)},
				{"unobserved", 30.05, 30.15, "", []qcmd{{node: "n3"}}},
			}, false, 1},
		{"a try whose SETs found two nodes free is no less a test when the third went unrecorded",
			three, three, []qtry{
				{"w2", 29.9, 30.6, history.Fail, sets("n1", 30.05, "n2", 30.06)},
				{"unobserved", 30.05, 30.15, "", []qcmd{{node: "n3"}}},
			}, true, 0},
		{"a try wholly before the window tests nothing though w1 never held the nodes it reached",
			five, three, []qtry{
				{"w2", 20, 20.6, history.Fail, sets("n4", 20.1, "n5", 20.2, "n1", 20.3)},
			}, false, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			es := exposures(account.New(quorumRun(tt.nodes, tt.w1On, tt.tries...).h))
			if len(es) == 0 {
				t.Fatal("no exposure")
			}
			e := es[0]
			if e.Tried != tt.tried {
				t.Fatalf("tried %v, want %v: %+v short %+v", e.Tried, tt.tried, e, e.Short)
			}
			switch {
			case tt.tried && e.Short != nil:
				t.Errorf("short %+v on a tested window", e.Short)
			case !tt.tried && tt.met >= 0 && (e.Short == nil || e.Short.Met != tt.met):
				t.Errorf("short %+v, want one that found %d", e.Short, tt.met)
			case tt.met < 0 && e.Short != nil:
				t.Errorf("short %+v, want none: no try inside the window", e.Short)
			}
		})
	}
}

func TestTheTriesAroundAnExposureAreNotTheShortTryItself(t *testing.T) {
	for _, tt := range []struct {
		name       string
		tries      []qtry
		last, next *Attempt
	}{
		{"a short try whose last SET reached a node after the window is not the next try",
			[]qtry{{"w2", 29.9, 31.2, history.Fail, sets("n1", 29.95, "n2", 30.1, "n3", 31.1)}},
			nil, nil},
		{"a short try is neither, and the tries before and after it are",
			[]qtry{
				{"w3", 29.0, 29.1, history.Fail, sets("n1", 29.01, "n2", 29.02, "n3", 29.03)},
				{"w2", 29.9, 31.2, history.Fail, sets("n1", 29.95, "n2", 30.1, "n3", 31.1)},
				{"w3", 40, 40.1, history.OK, sets("n1", 40.01, "n2", 40.02, "n3", 40.03)},
			},
			&Attempt{Client: "w3", At: ns(29.03)}, &Attempt{Client: "w3", At: ns(40)}}, // begun after the window: told at its invoke
	} {
		t.Run(tt.name, func(t *testing.T) {
			es := exposures(account.New(quorumRun(three, three, tt.tries...).h))
			if len(es) == 0 {
				t.Fatal("no exposure")
			}
			e := es[0]
			if e.Tried || e.Short == nil || e.Short.Client != "w2" || e.Short.At != ns(29.9) {
				t.Fatalf("tried %v, short %+v; want w2's try from 29.9 s short", e.Tried, e.Short)
			}
			// Who and when: the acquire's index is the history's.
			same := func(x, y *Attempt) bool {
				return x == nil && y == nil || x != nil && y != nil && x.Client == y.Client && x.At == y.At
			}
			if !same(e.LastTry, tt.last) || !same(e.NextTry, tt.next) {
				t.Errorf("last %+v next %+v, want %+v and %+v", e.LastTry, e.NextTry, tt.last, tt.next)
			}
		})
	}
}

func TestARunWhoseOnlyContenderMetAThirdClientsKeysIsNotValid(t *testing.T) {
	t.Run("w3 granted only after w1's charge holds every node while w2 tries: unknown, with w3's try in flight in the window, granted after it", func(t *testing.T) {
		b := quorumRun(three, three,
			qtry{"w3", 30.01, 31.5, history.OK, sets("n1", 30.02, "n2", 30.021, "n3", 30.022)},
			qtry{"w2", 30.1, 30.6, history.Fail, sets("n1", 30.11, "n2", 30.12, "n3", 30.13)})
		b.release("w3", inv1, 31.6, 31.7, true)
		rep := Check(context.Background(), b.h, Options{})
		if rep.Verdict != Unknown {
			t.Fatalf("verdict %s, want unknown: %+v", rep.Verdict, rep.Results)
		}
		e := rep.Results[len(rep.Results)-1].Exposure
		// w3's try, not w2's, is told: w3 took every node inside the
		// window, so "no other client's try in that window could have
		// been granted" would not be true of it; it was granted after
		// the window, and no one held the lock in it.
		if e == nil || e.Short == nil || e.Short.Client != "w3" || e.Short.Granted != ns(31.5) || e.Short.Met != 0 || e.Short.Need != 0 {
			t.Fatalf("exposure %+v, want w3's try granted at 31.5 s", e)
		}
		if e.NextTry != nil {
			t.Errorf("next try %+v, want none: w3's is the try in flight in the window", e.NextTry)
		}
	})
}

func TestATryThatGaveTheLockUpByItsOwnGuardIsNoTest(t *testing.T) {
	for _, tt := range []struct {
		name   string
		nodes  []string
		refuse string
	}{
		{"a Redlock try that set its key on every node but outran its lease's validity is short, gave up", three, history.RefusalValidity},
		{"a try its WAIT refused is short, gave up, on one node", nil, history.RefusalNotReplicated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b *hb
			if tt.nodes == nil {
				b = exposed(1)
				b.op("w2", history.Acquire, inv1, 30.2, 30.8, history.Fail, history.Value{Refusal: tt.refuse})
			} else {
				b = quorumRun(tt.nodes, tt.nodes, qtry{"w2", 30.1, 30.6, history.Fail,
					append(sets("n1", 30.11, "n2", 30.12, "n3", 30.13), qcmd{"n1", 30.5, true}, qcmd{"n2", 30.51, true}, qcmd{"n3", 30.52, true})})
				for i, op := range b.h.Ops {
					if op.Client == "w2" && op.F == history.Acquire {
						b.h.Ops[i].Value.Refusal = tt.refuse
					}
				}
			}
			rep := Check(context.Background(), b.h, Options{})
			e := rep.Results[len(rep.Results)-1].Exposure
			if rep.Verdict != Unknown || e == nil || e.Tried {
				t.Fatalf("verdict %s, exposure %+v; want unknown, untried", rep.Verdict, e)
			}
			if e.Short == nil || e.Short.Client != "w2" || e.Short.GaveUp != tt.refuse {
				t.Errorf("short %+v, want w2's try, gave up %s", e.Short, tt.refuse)
			}
		})
	}
}
