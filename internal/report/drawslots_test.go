package report

import "testing"

func TestChartsTakeHalfTheSlotsOnlyWhileRunsRaceTheirTime(t *testing.T) {
	t.Cleanup(func() { LimitDrawing(4) })
	LimitDrawing(4)
	var doneA, doneB func()
	steps := []struct {
		name string
		do   func()
		want int
	}{
		{"with no run racing, charts take the whole limit", func() {}, 4},
		{"while one pool's runs race, half", func() { doneA = RacingRuns() }, 2},
		{"while two pools' runs race, still half", func() { doneB = RacingRuns() }, 2},
		{"when one pool is done (twice) and the other still races, half", func() { doneA(); doneA() }, 2},
		{"when both are done, the whole limit again", func() { doneB() }, 4},
		{"a limit of one stays one while runs race", func() { LimitDrawing(1); doneA = RacingRuns() }, 1},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.do()
			if got := cap(*drawSlots.Load()); got != st.want {
				t.Fatalf("%d drawing slots, want %d", got, st.want)
			}
		})
	}
	doneA()
}
