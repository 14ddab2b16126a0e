package account_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

func TestServersOfSplitsAKeyLifeAtItsNodesPromotion(t *testing.T) {
	failoverAt := func(promoted string) history.History {
		r := newRun("safe", "n1")
		st := history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}}
		if promoted != "" {
			st.Promotions = []history.Promotion{{Group: "n1", Old: "n1", Promoted: promoted}}
		}
		r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
			Value: history.Value{Fault: &st}, Invoke: ms(100), Complete: ms(150)})
		return r.h
	}
	for _, c := range []struct {
		name       string
		promoted   string
		start, end float64
		want       []account.Stint
	}{
		{"a life that ended before the failover stays on its node", "n1r1", 10, 90, []account.Stint{{"n1", ms(10), ms(90)}}},
		{"a life across the failover moves to the promoted replica at its start", "n1r1", 10, 300, []account.Stint{{"n1", ms(10), ms(100)}, {"n1r1", ms(100), ms(300)}}},
		{"a life set after the failover lives on the promoted replica", "n1r1", 200, 300, []account.Stint{{"n1r1", ms(200), ms(300)}}},
		{"a life lost when the failover began never was on the promoted replica", "n1r1", 10, 100, []account.Stint{{"n1", ms(10), ms(100)}}},
		{"a failover that promoted nobody leaves the life on its node", "", 200, 300, []account.Stint{{"n1", ms(200), ms(300)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := account.New(failoverAt(c.promoted))
			got := a.ServersOf(account.KeyLife{Node: "n1", Key: "invoice-1", Start: ms(c.start), End: ms(c.end)})
			if !slices.Equal(got, c.want) {
				t.Errorf("ServersOf = %v, want %v", got, c.want)
			}
		})
	}
}

func TestNodeDownCoversTheStepsThatStopANode(t *testing.T) {
	r := newRun("safe", "n1", "n2")
	add := func(kind, mode string, node string, from, to float64) {
		st := history.FaultStep{ID: len(r.h.Ops) + 1, Kind: kind, Nodes: []string{node}, FailoverMode: mode}
		switch kind {
		case "crash":
			st.Effect = history.EffectCrashNode
		case "failover":
			st.Effect = history.EffectFailover
		}
		r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
			Value: history.Value{Fault: &st}, Invoke: ms(from), Complete: ms(to)})
	}
	add("crash", "", "n1", 100, 200)
	add("failover", "sentinel", "n2", 100, 200)
	a := account.New(r.h)
	for _, c := range []struct {
		name string
		node string
		at   float64
		want bool
	}{
		{"a crashed node is down while the step lasts", "n1", 150, true},
		{"a crashed node is up again once the step restarted it", "n1", 200, false},
		{"a node is up before its crash", "n1", 50, false},
		{"a SENTINEL FAILOVER leaves the old master up", "n2", 150, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := a.NodeDown(c.node, ms(c.at)); got != c.want {
				t.Errorf("NodeDown(%s, %v ms) = %v, want %v", c.node, c.at, got, c.want)
			}
		})
	}
}

// Issue 27 (a fresh reader): failover-lost-lock said "Sentinel promoted the
// replica after 11.4 s", the step's took_ns (when the harness, polling
// ROLE, found the replica a master), while the history's switch-master
// record, Sentinel's announcement, came 16.0 s after the crash. The
// failover's claim is stamped at that record, the first of its promotion
// heard after the step began.
func TestAFailoverIsAnnouncedAtItsSwitchMasterRecord(t *testing.T) {
	sw := func(group, old, promoted string, at float64) history.Op {
		return history.Op{Process: history.NodeProcess, F: history.MasterSwitch, Type: history.OK,
			Value: history.Value{Node: group, Cmd: []string{old, promoted}}, Invoke: ms(at), Complete: ms(at)}
	}
	for _, c := range []struct {
		name     string
		switches []history.Op
		want     float64 // ms; 0: none
	}{
		{"the promotion's announcement is the claim's instant", []history.Op{sw("n1", "n1", "n1r1", 260)}, 260},
		{"an announcement before the step, or of another promotion, is not its own",
			[]history.Op{sw("n1", "n1", "n1r1", 50), sw("n1", "n1", "n1r2", 200), sw("n1", "n1", "n1r1", 300)}, 300},
		{"the first of several sentinels' announcements is the one", []history.Op{sw("n1", "n1", "n1r1", 320), sw("n1", "n1", "n1r1", 280)}, 280},
		{"without an announcement the claim gives no instant", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			st := history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"},
				Promotions: []history.Promotion{{Group: "n1", Old: "n1", Promoted: "n1r1", TookNS: ms(90)}}}
			f := r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
				Value: history.Value{Fault: &st}, Invoke: ms(100), Complete: ms(400)})
			for _, op := range c.switches {
				r.add(op)
			}
			var got []claim.Claim
			for _, cl := range account.New(r.h).Claims() {
				if cl.Kind == claim.Fault {
					got = append(got, cl)
				}
			}
			if len(got) != 1 {
				t.Fatalf("fault claims %+v, want one", got)
			}
			g := got[0]
			switch {
			case c.want == 0 && (g.At != 0 || len(g.Records) != 1):
				t.Errorf("claim at %d with records %v: no announcement was heard", g.At, g.Records)
			case c.want != 0 && (g.At != ms(c.want) || len(g.Records) != 2 || g.Records[0] != f || r.h.Ops[g.Records[1]].Invoke != ms(c.want)):
				t.Errorf("claim at %d with records %v, want the switch-master at %d", g.At, g.Records, ms(c.want))
			}
		})
	}
}

// Issue 27 (a fresh reader): after a failover, the final probe's key on the
// promoted replica (no observer watches it) was told as granted and gone
// at the probe's end, t=50.939s, while the old master, following the
// replica again, had recorded the replicated SET at 50.929 s and DEL at
// 50.937 s: the key's end before its grant. The probe's grant and key are
// no later than a node's record of them.
func TestAProbesKeyOnAPromotedReplicaIsNoLaterThanTheRecordOfIt(t *testing.T) {
	for _, c := range []struct {
		name     string
		recorded bool
	}{
		{"a replica's record of the probe's SET and DEL bounds its key", true},
		{"without a record the key is the probe's end, as its client tells it", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			st := history.FaultStep{ID: 1, Kind: "failover", Effect: history.EffectFailover, Nodes: []string{"n1"}, FailoverMode: "crash",
				Promotions: []history.Promotion{{Group: "n1", Old: "n1", Promoted: "n1r1"}}}
			r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
				Value: history.Value{Fault: &st}, Invoke: ms(100), Complete: ms(300)})
			p := r.add(history.Op{Process: 9, Client: history.ProbeClient, F: history.Probe, Key: "invoice-1", Type: history.OK,
				Value: history.Value{Token: "p", TTL: ms(1000), Nodes: []string{"n1"}, Removed: true}, Invoke: ms(500), Complete: ms(520)})
			if c.recorded { // replicated from n1r1: no client of its own
				r.cmd("n1", "", 505, false, "SET", "invoice-1", "p", "PXAT", "99999")
				r.cmd("n1", "", 512, false, "DEL", "invoice-1")
			}
			a := account.New(r.h)
			g, ok := a.GrantOf(p)
			if !ok || len(g.Lives) != 1 {
				t.Fatalf("probe grant %+v (found %t), want one key life", g, ok)
			}
			k := g.Lives[0]
			set, end := ms(520), ms(520)
			if c.recorded {
				set, end = ms(505), ms(512)
			}
			if g.Start > k.End || k.Start != set || k.End != end || g.Start != set {
				t.Errorf("probe granted at %d, key [%d, %d]: want granted and set at %d, gone at %d", g.Start, k.Start, k.End, set, end)
			}
		})
	}
}
