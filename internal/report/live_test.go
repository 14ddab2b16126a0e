package report

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// manualGCPause is the gc-pause history with its pause fired by hand
// (locksim serve) instead of by the plan: the same operation, its trigger
// manual, and the step in the header's plan as a run leaves it.
func manualGCPause() Input {
	in := gcPauseInput("local", false)
	h := in.History
	h.Ops = slices.Clone(h.Ops)
	for i, op := range h.Ops {
		if op.F == history.Fault {
			st := op.Value.Fault.Clone()
			st.Trigger = history.Trigger{Kind: history.TriggerManual, At: op.Invoke}
			h.Ops[i].Value.Fault = &st
			h.Header.Plan = []history.FaultStep{st}
		}
	}
	in.History = h
	return in.checked()
}

func TestAFaultFiredByHandIsToldLikeAnyOther(t *testing.T) {
	in := manualGCPause()
	for _, c := range []struct {
		lang Lang
		want string
	}{{English, "It was fired by hand."}, {Vietnamese, "Lỗi này được kích hoạt bằng tay."}} {
		t.Run("the story says so in "+string(c.lang), func(t *testing.T) {
			in.Lang = c.lang
			var faults []string
			for _, s := range Narrative(in) {
				if s.Kind == StepFault {
					faults = append(faults, s.Text)
				}
			}
			if len(faults) != 1 || !strings.HasSuffix(faults[0], c.want) {
				t.Errorf("fault steps %q; want one ending %q", faults, c.want)
			}
		})
	}
	t.Run("the checkers judge it as the planned pause", func(t *testing.T) {
		planned := gcPauseInput("local", false)
		if in.Verdict != planned.Verdict || in.Verdict != checker.Invalid {
			t.Errorf("verdict %s, planned pause's %s; want both invalid", in.Verdict, planned.Verdict)
		}
		for _, r := range in.Results {
			if r.Checker == checker.CheckerCoverage && r.Verdict != checker.Valid {
				t.Errorf("coverage %s: %s", r.Verdict, r.Summary)
			}
		}
	})
	t.Run("its timeline tip and when it fired say so", func(t *testing.T) {
		in.Lang = English
		m := newModel(in.History, in.Account)
		d := buildDrawing(in, m, "")
		tips := 0
		for _, s := range d.Shapes {
			if s.Kind == chart.ShPause && strings.Contains(s.TipText(), "fired by hand") {
				tips++
			}
		}
		if tips == 0 {
			t.Error("no pause mark's tip tells it was fired by hand")
		}
		if got := m.whenText(English, in.History.Header.Plan[0].Trigger); !strings.HasPrefix(got, "by hand at t=") {
			t.Errorf("when: %q", got)
		}
	})
}

func TestTheLiveViewTellsOnlyWhatIsTrueSoFar(t *testing.T) {
	full := gcPauseInput("local", false)
	h := full.History
	// The run cut at w2's grant: before the second charge.
	var grant int64
	for _, op := range h.Ops {
		if op.Client == "w2" && op.F == history.Acquire && op.Type == history.OK {
			grant = op.Complete
			break
		}
	}
	if grant == 0 {
		t.Fatal("no grant of w2 in the gc-pause history")
	}
	cut := h
	cut.Ops = nil
	for _, op := range h.Ops {
		if op.Invoke > grant {
			continue
		}
		if op.Complete > grant {
			op.Complete, op.Type = -1, history.Info // still open when the stream was read
		}
		cut.Ops = append(cut.Ops, op)
	}
	for i := range cut.Ops {
		cut.Ops[i].Index = i
	}
	v := Live(context.Background(), cut, English)
	if v.Timeline == "" || !strings.Contains(string(v.Timeline), `class="lsm-tl"`) {
		t.Fatalf("no timeline figure: %.200q", v.Timeline)
	}
	if v.Now > float64(grant)*h.Header.TimeScale/1e9+1e-6 {
		t.Errorf("now %.3fs is past the history's last instant", v.Now)
	}
	for _, s := range v.Story {
		if s.T > v.Now {
			t.Errorf("step at t=%.1fs after now (%.1fs): %s", s.T, v.Now, s.Text)
		}
		if s.Kind == StepViolated || strings.Contains(s.Text, "charged") && strings.Contains(s.Text, "w1") {
			t.Errorf("a step the run has not reached yet: %s", s.Text)
		}
	}
	for _, s := range v.Story {
		if s.Kind == StepHeal && strings.Contains(s.Text, "w1") {
			t.Errorf("w1 is still frozen when the stream was read; the story says it woke: %s", s.Text)
		}
		if s.Kind == StepFault && !strings.Contains(s.Text, "so far") {
			t.Errorf("the pause still in force is told with a length it has not had yet: %s", s.Text)
		}
	}
	if strings.Contains(string(v.Timeline), "s-band") {
		t.Error("a violation band before any violation: the overlap's harm is not known yet")
	}
	full2 := Live(context.Background(), h, English)
	if !strings.Contains(string(full2.Timeline), "s-band") || !slices.ContainsFunc(full2.Story, func(s Step) bool { return s.Kind == StepViolated }) {
		t.Error("the whole history: want the double charge's band and its step")
	}
}
