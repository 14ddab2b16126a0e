package report

import (
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// TestRefusedMarkSitsWhereItWasRefused: a refused acquire's mark on the
// timeline sits where its tip and the story tell it: a Redlock acquire
// the lock itself refused after 12 s (its validity ran out while its
// client was frozen) at its end, t=12.2 s, not at t=0.2 s where it began
// (reader 14, redlock-pause-in-flight: "acquire refused" drawn beside w1's
// fresh keys on all five nodes); a refusal by a key at the instant its
// claim gives.
func TestRefusedMarkSitsWhereItWasRefused(t *testing.T) {
	in := adviceRun(t, "c31a-redlock-validity-ran-out")
	m := newModel(in.History, in.Account)
	long := 0
	for _, s := range buildDrawing(in, m, headline(in, m)).Shapes {
		if s.Kind != chart.ShTry || s.Op <= 0 {
			continue
		}
		o := in.History.Ops[s.Op-1]
		if o.F != history.Acquire || o.Type != history.Fail {
			t.Fatalf("a refusal mark on op %d, which is no refused acquire", s.Op-1)
		}
		if m.sec(o.Complete)-m.sec(o.Invoke) > 10 {
			long++
			if want := m.sec(o.Complete); s.X0 != want {
				t.Errorf("%s's %.1f s refused acquire (op %d) is drawn at t=%.3f s, not where it was refused, t=%.3f s",
					o.Client, m.sec(o.Complete)-m.sec(o.Invoke), s.Op-1, s.X0, want)
			}
		}
	}
	if long == 0 {
		t.Fatal("no refused acquire longer than 10 s in c31a")
	}
}
