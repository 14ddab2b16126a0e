package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
)

// A write of unknown outcome is drawn (reader 16, F11: scheduler-mutex-90s
// seed 34 drew no mark for w1's job@1 run, cut short by its crash, while
// the headline said it "may or may not have happened"): on its client's
// lane and the resource's, with a mark of its own, a tip that says so and
// a legend entry, in both languages.
func TestAWriteOfUnknownOutcomeIsDrawnWithItsOwnMark(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c59a-unknown-job-run-drawn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Languages() {
		in := Input{History: h, Lang: lang}.checked()
		d := drawingOf(t, in)
		res := laneNamed(d, d.Lanes[len(d.Lanes)-1].Name)
		for i, l := range d.Lanes {
			if l.Kind == chart.LaneResource {
				res = i
			}
		}
		marks := shapesOn(d, res, chart.ShWriteUnk)
		if len(marks) != 1 {
			t.Fatalf("%s: %d unknown-outcome marks on the resource lane, want 1 (w1's job@1 run at t=50.1s)", lang, len(marks))
		}
		if x := marks[0].X0; x < 50.1 || x > 50.11 {
			t.Errorf("%s: the unknown mark at t=%.3f, want its invoke t=50.105", lang, x)
		}
		if w1 := shapesOn(d, laneNamed(d, "w1"), chart.ShWriteUnk); len(w1) != 1 {
			t.Errorf("%s: %d unknown-outcome marks on w1's lane, want 1", lang, len(w1))
		}
		tip := marks[0].TipText()
		want := map[Lang][]string{
			English:    {"t=50.105s", "w1", "job@1", "outcome is unknown", "w1 crashed at t=55.128s"},
			Vietnamese: {"t=50,105s", "w1", "job@1", "không rõ kết quả", "w1 crash lúc t=55,128s"},
		}[lang]
		for _, s := range want {
			if !strings.Contains(tip, s) {
				t.Errorf("%s: the unknown mark's tip %q does not say %q", lang, tip, s)
			}
		}
		legend := map[Lang]string{English: "outcome unknown", Vietnamese: "không rõ kết quả"}[lang]
		found := false
		for _, e := range d.Legend {
			found = found || (e.Kind == chart.ShWriteUnk && strings.Contains(e.Text, legend))
		}
		if !found {
			t.Errorf("%s: no legend entry of kind %s saying %q: %+v", lang, chart.ShWriteUnk, legend, d.Legend)
		}
	}
}

// A Vietnamese tip of a probe's command says "lần thử cuối" once
// (reader 15: "Thuộc lần lần thử cuối (final probe)").
func TestAProbesCommandTipSaysItsOperationOnce(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("testdata", "accuracy", "c59a-unknown-job-run-drawn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	d := drawingOf(t, Input{History: h, Lang: Vietnamese}.checked())
	n := 0
	for _, s := range d.Shapes {
		tip := s.TipText()
		if strings.Contains(tip, "lần lần") {
			t.Errorf("tip %q", tip)
		}
		if strings.Contains(tip, "Thuộc lần thử cuối (final probe) của probe") {
			n++
		}
	}
	if n == 0 {
		t.Error("no tip of the probe's commands")
	}
}

// A sale's number is the stock it left, and a semaphore's holder holds a
// permit (reader 15: "Value written: 1" of a sale; reader 16, F5: "w1
// held the lock on sem-1").
func TestTipsNameASalesStockAndASemaphoresPermit(t *testing.T) {
	for _, c := range []struct {
		file, want string
		not        []string
	}{
		{"c10-inventory-oversell.jsonl", "Stock left: ", []string{"Value written: "}},
		{"c05-semaphore-over-admission.jsonl", "held a permit of sem-1", []string{"held the lock on sem-1", "held the lock when it wrote", "believed it held the lock, but"}},
	} {
		h, err := history.ReadFile(filepath.Join("testdata", "accuracy", c.file))
		if err != nil {
			t.Fatal(err)
		}
		d := drawingOf(t, Input{History: h}.checked())
		n := 0
		for _, s := range d.Shapes {
			tip := s.TipText()
			for _, not := range c.not {
				if strings.Contains(tip, not) {
					t.Errorf("%s: tip %q says %q", c.file, tip, not)
				}
			}
			if strings.Contains(tip, c.want) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no tip says %q", c.file, c.want)
		}
	}
}

// A lock-free run (no worker acquired anything) says so where the
// acquire charts go, in both languages, instead of two empty charts
// (reader 15: idempotency-key, inventory-atomic-lua).
func TestALockFreeRunSaysItHasNoAcquiresToChart(t *testing.T) {
	for _, lang := range Languages() {
		in := recorded(t, "inventory-atomic-lua")
		in.Lang = lang
		dir, _ := writeReport(t, in)
		b, err := os.ReadFile(filepath.Join(dir, IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		want := map[Lang]string{English: "No worker tried to acquire a lock in this run", Vietnamese: "Trong lần chạy này không worker nào thử lấy lock"}[lang]
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: the page does not say %q", lang, want)
		}
		if strings.Contains(string(b), `src="latency.png"`) || strings.Contains(string(b), `src="rate.png"`) {
			t.Errorf("%s: the page still shows the empty acquire charts", lang)
		}
	}
}
