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
