package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report/chart"
)

var moreRE = regexp.MustCompile(`^… (\d+) more steps from t=`)

func TestLongStoryIsCapped(t *testing.T) {
	kinds := []string{StepAcquire, StepRead, StepWrite, StepRelease, StepRetries}
	var steps []Step
	for i := 0; i < 5000; i++ {
		k := kinds[i%len(kinds)]
		switch i {
		case 1200, 3400:
			k = StepViolated
		case 2000:
			k = StepFault
		case 2600:
			k = StepHeal
		}
		steps = append(steps, Step{T: float64(i) / 10, Kind: k, Text: fmt.Sprintf("step %d", i)})
	}
	got := capStory("en", steps)
	if len(got) > maxStorySteps {
		t.Errorf("%d steps, want at most %d", len(got), maxStorySteps)
	}
	t.Run("keeps the beginning, the end and every anomaly and fault with its context", func(t *testing.T) {
		want := map[string]bool{"step 0": true, "step 29": true, "step 4999": true, "step 4990": true}
		for _, i := range []int{1200, 3400, 2000, 2600} {
			for j := i - storyBefore; j <= i+storyAfter; j++ {
				want[fmt.Sprintf("step %d", j)] = true
			}
		}
		for _, s := range got {
			delete(want, s.Text)
		}
		if len(want) > 0 {
			t.Errorf("story lacks %v", want)
		}
	})
	t.Run("counts every step left out", func(t *testing.T) {
		n, summaries := 0, 0
		for _, s := range got {
			if s.Kind != StepMore {
				n++
				continue
			}
			summaries++
			m := moreRE.FindStringSubmatch(s.Text)
			if m == nil {
				t.Fatalf("summary %q", s.Text)
			}
			c, _ := strconv.Atoi(m[1])
			n += c
			if !strings.Contains(s.Text, "grants") || !strings.Contains(s.Text, "releases") {
				t.Errorf("summary %q does not say what happened", s.Text)
			}
		}
		if n != len(steps) || summaries == 0 {
			t.Errorf("%d steps accounted for in %d summaries, want %d", n, summaries, len(steps))
		}
	})
	t.Run("leaves a short story alone", func(t *testing.T) {
		if s := capStory("en", steps[:maxStorySteps]); len(s) != maxStorySteps {
			t.Errorf("%d steps, want %d", len(s), maxStorySteps)
		}
	})
}

// TestBusyReport writes the report of a generated 10,000-operation run
// (a dense timeline, a capped story) and checks what a reader gets.
func TestBusyReport(t *testing.T) {
	h := genBusy(2, 10_000, 12, 300)
	rep := checker.Check(context.Background(), h, checker.Options{Timeout: time.Minute})
	in := Input{History: h, Verdict: rep.Verdict, Results: rep.Results, Lang: "en"}
	if l := rep.Linearization; l != nil {
		in.Porcupine = &PorcupineView{Model: l.Model, Info: l.Info, Order: l.Order}
	}
	if m := newModel(h, nil); len(m.leases) <= chart.MaxTimelineBars {
		t.Fatalf("only %d leases: the timeline is not dense", len(m.leases))
	}
	dir := t.TempDir()
	if _, err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	lanes := timelineLanes(h)
	for _, f := range []struct {
		name string
		w, h int
	}{{TimelineFile, chart.TimelineW, int(chart.TimelineHeight(lanes))}, {LatencyFile, chart.LatencyW, chart.LatencyH}, {RateFile, chart.LatencyW, chart.LatencyH}} {
		if w, h := pngSize(t, filepath.Join(dir, f.name)); w != f.w || h != f.h {
			t.Errorf("%s: %d×%d, want %d×%d", f.name, w, h, f.w, f.h)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `<li class="k-`); n == 0 || n > maxStorySteps {
		t.Errorf("index.html tells %d steps, want 1..%d", n, maxStorySteps)
	}
	if !strings.Contains(string(b), `class="k-more"`) {
		t.Errorf("index.html does not say steps were left out")
	}
	if _, err := os.Stat(filepath.Join(dir, HistoryFile)); err != nil {
		t.Error(err)
	}
}
