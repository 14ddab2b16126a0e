package report

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/why"
)

// TestAFixsExperimentSaysWhenItsChangedStepCame: a fix run with the run's
// step changed (setnx-expire-crash's safe-client-crash: the crash moved
// from inside w1's acquire to after it returned) says when that step came
// in the fix's run and where its client stood, from the experiment's
// claim (reader 2, finding 3: "with its trigger changed" alone hid that
// the fix's crash hit a holder, not an acquire).
func TestAFixsExperimentSaysWhenItsChangedStepCame(t *testing.T) {
	for _, tt := range []struct {
		lang  Lang
		state string
		want  string
	}{
		{English, claim.Holding, "There w1's GC pause came at t=3.5s, after w1's acquire had returned: w1 held the lock then."},
		{English, claim.Acquiring, "There w1's GC pause came at t=3.5s, while w1's acquire was still running."},
		{Vietnamese, claim.Holding, "Ở lần chạy đó, GC pause của w1 xảy ra lúc t=3,5s, sau khi lần lấy lock của w1 đã trả về: khi ấy w1 đang giữ lock."},
	} {
		t.Run(string(tt.lang)+" "+tt.state, func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang = tt.lang
			st := *in.History.Faults()[0].Value.Fault // the pause, w1's
			to := st
			to.Duration /= 2
			in.FixedBy = &Fixed{Name: "gc-pause-fixed", File: "scenarios/gc-pause-fixed.yaml", Faults: FaultsOwn}
			in.Counterfactuals = []why.Counterfactual{{Change: why.FixedByOwn, Changed: []claim.StepChange{{Step: st.ID, To: to}},
				Fired: []claim.Fired{{Step: st.ID, At: 1, AtS: 3.5, Client: "w1", State: tt.state}},
				Name:  "gc-pause-fixed", File: "why/gc-pause-fixed.yaml", Verdict: checker.Valid, Reproduce: "locksim run why/gc-pause-fixed.yaml --seed 42"}}
			dir, _ := writeReport(t, in)
			b, _ := os.ReadFile(filepath.Join(dir, IndexFile))
			page := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), ""))
			if !strings.Contains(page, tt.want) {
				t.Errorf("page lacks %q", tt.want)
			}
		})
	}
}
