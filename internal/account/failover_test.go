package account_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/account"
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
