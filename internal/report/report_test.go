package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/anishathalye/porcupine"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const scale = 50.0

// at converts scenario seconds to true-time ns at scale 50.
func at(s float64) int64 { return int64(s / scale * 1e9) }

type opSpec struct {
	client string
	f      history.Func
	typ    history.Type
	v      history.Value
	s, e   float64 // scenario seconds
}

// gcPause is Kleppmann's timeline 1 (lock-theory §2.2): w1 takes the lock
// (token 1), reads "unpaid", is paused 1 s → 36 s; its key expires at 30 s;
// w2, retrying every second, gets the lock at 30.1 s (token 2), charges at
// 31 s and releases; w1 wakes at 36 s and charges again. fenced makes the
// resource refuse w1's late charge instead.
func gcPause(backend string, fenced bool) history.History {
	// Fencing tokens exist only in the fenced run (the safe lock has none).
	fence := func(n int64) int64 {
		if fenced {
			return n
		}
		return 0
	}
	specs := []opSpec{
		{"w1", history.Acquire, history.OK, history.Value{Token: "a1b2c3d4e5f6", Fence: fence(1), TTL: at(30), Nodes: []string{"n1"}}, 0, 0.01},
		{"w1", history.Read, history.OK, history.Value{Action: "read-status", Result: "unpaid"}, 0.5, 0.52},
		{history.NemesisClient, history.Fault, history.Info, pauseAt("w1", history.PointBeforeWrite, 35), 1.0, 36.0},
	}
	for s := 1.0; s <= 30.0; s++ {
		specs = append(specs, opSpec{"w2", history.Acquire, history.Fail, history.Value{}, s, s + 0.01})
	}
	specs = append(specs,
		opSpec{"w2", history.Acquire, history.OK, history.Value{Token: "ffee0011", Fence: fence(2), TTL: at(30), Nodes: []string{"n1"}}, 30.09, 30.1},
		opSpec{"w2", history.Read, history.OK, history.Value{Action: "read-status", Result: "unpaid"}, 30.3, 30.32},
		opSpec{"w2", history.Write, history.OK, history.Value{Action: "charge", Fence: fence(2)}, 31.0, 31.05},
		opSpec{"w2", history.Write, history.OK, history.Value{Action: "mark-paid", Fence: fence(2)}, 31.5, 31.52},
		opSpec{"w2", history.Release, history.OK, history.Value{Token: "ffee0011", Removed: true, Nodes: []string{"n1"}}, 32.0, 32.01},
	)
	if fenced {
		specs = append(specs,
			opSpec{"w1", history.Write, history.Fail, history.Value{Action: "charge", Fence: 1, Refusal: history.RefusalStaleFence, SeenFence: fence(2)}, 36.0, 36.02},
			opSpec{"w1", history.Release, history.OK, history.Value{Token: "a1b2c3d4e5f6"}, 36.5, 36.51},
		)
	} else {
		specs = append(specs,
			opSpec{"w1", history.Write, history.OK, history.Value{Action: "charge", Fence: fence(1)}, 36.0, 36.05},
			opSpec{"w1", history.Write, history.OK, history.Value{Action: "mark-paid", Fence: fence(1)}, 36.3, 36.32},
			opSpec{"w1", history.Release, history.OK, history.Value{Token: "a1b2c3d4e5f6"}, 36.5, 36.51},
		)
	}
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].s < specs[j].s })
	algorithm, name := "safe", "gc-pause"
	var traits []string
	if fenced {
		algorithm, name, traits = "fenced", "gc-pause-fencing", []string{history.TraitFenced}
	}
	h := history.History{Header: history.Header{
		Format: history.Format, Version: history.Version, Scenario: name, Seed: 42, TimeScale: scale,
		Backend: backend, Algorithm: algorithm, Traits: traits, Workload: "payment", FencingEnforced: fenced,
		Clients: []string{"w1", "w2"}, Nodes: []string{"n1"}, RedisVersion: "7.0.15",
	}}
	for i, sp := range specs {
		proc := 0
		switch sp.client {
		case "w2":
			proc = 1
		case history.NemesisClient:
			proc = history.NemesisProcess
		}
		key := "invoice-1"
		if sp.f == history.Fault {
			key = ""
		}
		h.Ops = append(h.Ops, history.Op{Index: i, Process: proc, Client: sp.client, F: sp.f, Key: key, Value: sp.v,
			Invoke: at(sp.s), Complete: at(sp.e), Type: sp.typ})
	}
	return h
}

// pauseAt is the value of a pause of client at point lasting d scenario
// seconds, as the scheduler records it: a GC pause, as gc-pause.yaml
// names its cause.
func pauseAt(client, point string, d float64) history.Value {
	st := historytest.Step("pause", client)
	st.ID, st.Duration, st.Cause = 1, at(d), history.PauseGC
	st.Trigger = history.Trigger{Kind: history.TriggerPoint, Client: client, Point: point, Occurrence: 1}
	return historytest.Value(st)
}

func indexOf(h history.History, client string, f history.Func, action string) []int {
	var out []int
	for _, o := range h.Ops {
		if o.Client == client && o.F == f && (action == "" || o.Value.Action == action) {
			out = append(out, o.Index)
		}
	}
	return out
}

func gcPauseInput(backend string, fenced bool) Input {
	h := gcPause(backend, fenced)
	in := Input{
		History: h, ScenarioFile: "scenarios/gc-pause.yaml", Description: "Kleppmann's timeline 1: a GC pause longer than the TTL.",
		Reproduce: "locksim run scenarios/gc-pause.yaml --seed 42", Version: "v0.1.0-test", WallSeconds: 0.81, Lang: "en",
		ScenarioYAML: []byte("name: gc-pause\nclients: 2\nalgorithm: fenced\nttl: 30s\ntime_scale: 50\n"),
	}
	in.Expect = "invalid"
	if fenced {
		in.Expect = "valid"
	}
	return in.checked()
}

// checked is in with the checkers' own results and account for its
// history: the report renders what they found, as in a real run.
func (in Input) checked() Input {
	rep := checker.Check(context.Background(), in.History, checker.Options{})
	in.Results, in.Verdict, in.Account = rep.Results, rep.Verdict, rep.Account
	return in
}

// porcupineView checks h with porcupine as the linearizable checker does.
func porcupineView(h history.History) *PorcupineView {
	model, ops := checker.Porcupine(h)
	_, info := porcupine.CheckOperationsVerbose(model, ops, 0)
	return &PorcupineView{Model: model, Info: info}
}

func writeReport(t *testing.T, in Input) (string, Results) {
	t.Helper()
	dir := t.TempDir()
	res, err := Write(dir, in)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return dir, res
}

func TestWrite(t *testing.T) {
	in := gcPauseInput("local", false)
	in.Porcupine = porcupineView(in.History)
	dir, _ := writeReport(t, in)

	t.Run("creates every report file", func(t *testing.T) {
		for _, f := range []string{"results.json", "index.html", "timeline.png", "latency.png", "rate.png", "history.html", "scenario.yaml"} {
			st, err := os.Stat(filepath.Join(dir, f))
			if err != nil {
				t.Errorf("%s: %v", f, err)
			} else if st.Size() == 0 {
				t.Errorf("%s is empty", f)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "history.jsonl")); err == nil {
			t.Errorf("Write wrote history.jsonl; that is the runner's job")
		}
	})

	t.Run("a report written again without charts drops the old ones and says why", func(t *testing.T) {
		again := in
		again.SkipCharts = true
		if _, err := Write(dir, again); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = Write(dir, in) }) // the other subtests read the full report
		for _, f := range []string{TimelineFile, LatencyFile, RateFile} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				t.Errorf("%s still there", f)
			}
		}
		page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
		if !strings.Contains(string(page), `id="no-charts"`) || !strings.Contains(string(page), "locksim check "+dir) || strings.Contains(string(page), ".png") {
			t.Errorf("page without charts neither says how to draw them nor drops the images:\n%s", page)
		}
	})

	t.Run("a run a lesson page draws keeps its drawing for that page though its own charts are skipped", func(t *testing.T) {
		again := in
		again.SkipCharts, again.KeepDrawing = true, true
		res, err := Write(dir, again)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = Write(dir, in) })
		if res.drawing == nil {
			t.Error("no drawing kept: the lesson page would say 'No timeline was drawn' of a run it could draw")
		}
		page, _ := os.ReadFile(filepath.Join(dir, IndexFile))
		if strings.Contains(string(page), `class="lsm-tl"`) || !strings.Contains(string(page), `id="no-charts"`) {
			t.Error("the run's own page draws a timeline though its charts were skipped")
		}
	})

	t.Run("results.json decodes with the run's fields", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"scenario", "file", "seed", "backend", "redis_version", "time_scale", "verdict", "expect",
			"expectation_met", "checkers", "anomalies", "scenario_seconds", "wall_seconds", "report_dir", "reproduce", "emulated"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("results.json has no %q", k)
			}
		}
		var r Results
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Scenario != "gc-pause" || r.Seed != 42 || r.Verdict != checker.Invalid || r.TimeScale != 50 || r.Backend != "local" || r.Emulated {
			t.Errorf("results = %+v", r)
		}
		if r.ExpectationMet == nil || !*r.ExpectationMet {
			t.Errorf("expectation_met = %v, want true", r.ExpectationMet)
		}
		if r.Checkers["mutex"] != checker.Invalid || r.Checkers["fencing"] != checker.Valid || len(r.Anomalies) != 3 {
			t.Errorf("checkers %v, %d anomalies", r.Checkers, len(r.Anomalies))
		}
		// gc-pause carries no fencing token: the page says NOT CHECKED,
		// and results.json must not leave only "valid" to say it.
		if !slices.Equal(r.NotChecked, []string{"fencing"}) {
			t.Errorf("not_checked = %v, want [fencing]", r.NotChecked)
		}
		if r.ScenarioSeconds < 36.5 || r.ScenarioSeconds > 36.6 {
			t.Errorf("scenario_seconds = %v, want ≈36.51", r.ScenarioSeconds)
		}
		if r.ReportDir != dir || r.Reproduce != in.Reproduce || r.File != in.ScenarioFile {
			t.Errorf("report_dir %q reproduce %q file %q", r.ReportDir, r.Reproduce, r.File)
		}
	})

	for _, c := range []struct {
		file string
		w, h int
	}{
		{"timeline.png", chart.TimelineW, chart.TimelineBase + chart.LaneHeight*4}, // w1, w2, node n1, the payment gateway
		{"latency.png", chart.LatencyW, chart.LatencyH},
		{"rate.png", chart.LatencyW, chart.LatencyH},
	} {
		t.Run(c.file+" decodes as a PNG of the expected size", func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cfg, err := png.DecodeConfig(f)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != c.w || cfg.Height != c.h {
				t.Errorf("size %d×%d, want %d×%d", cfg.Width, cfg.Height, c.w, c.h)
			}
		})
	}

	t.Run("index.html links history.html and timeline.png and shows the SVG timeline and latency.png", func(t *testing.T) {
		b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
		for _, s := range []string{`href="history.html"`, `href="timeline.png"`, `<figure class="lsm-tl"`, `src="latency.png"`, "locksim run scenarios/gc-pause.yaml --seed 42", "1 s of wall time = 50 s of scenario time"} {
			if !bytes.Contains(b, []byte(s)) {
				t.Errorf("index.html lacks %q", s)
			}
		}
	})

	t.Run("history.html draws the pause on w1's lane in scenario seconds", func(t *testing.T) {
		b, _ := os.ReadFile(filepath.Join(dir, "history.html"))
		if !bytes.Contains(b, []byte(`class="s s-pause"`)) || !bytes.Contains(b, []byte(`class="lane-name" data-l="0" data-dy="0" x="8" y="62">w1</text>`)) {
			t.Errorf("history.html has no pause on w1's lane")
		}
	})

	if d := os.Getenv("LOCKSIM_REPORT_KEEP"); d != "" {
		os.MkdirAll(d, 0o755)
		Write(d, in)
		fin := gcPauseInput("embedded", true)
		os.MkdirAll(d+"-fenced", 0o755)
		Write(d+"-fenced", fin)
	}
}

func TestNarrative(t *testing.T) {
	steps := Narrative(gcPauseInput("local", false))
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.String() + "\n")
	}
	got := b.String()

	t.Run("tells the key steps in order", func(t *testing.T) {
		order := []string{
			"t=0.0s  w1 acquired the lock on invoice-1 (owner token a1b2c3d4",
			"t=1.0s  w1 was frozen by a stop-the-world GC pause of 35s",
			"w2 tried to acquire invoice-1 30 times between t=1.0s and t=30.0s",
			"t=30.0s  w1's lock on invoice-1 expired in Redis (TTL 30s) while w1 was paused",
			"t=30.1s  w2 acquired the lock on invoice-1 (owner token ffee0011",
			"t=31.0s  w2 charged invoice-1: accepted",
			"t=36.0s  w1 woke up after being frozen for 35s and still believes it holds the lock on invoice-1 (owner token a1b2c3d4)",
			"t=36.0s  w1 charged invoice-1: accepted",
			"Violation (charged more than once)",
		}
		pos := 0
		for _, want := range order {
			i := strings.Index(got[pos:], want)
			if i < 0 {
				t.Fatalf("after position %d, no %q in:\n%s", pos, want, got)
			}
			pos += i + len(want)
		}
	})

	t.Run("summarises refused retries instead of telling each", func(t *testing.T) {
		n := 0
		for _, s := range steps {
			if s.Kind == StepRetries {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d retry steps, want 1", n)
		}
	})

	t.Run("times are scenario seconds", func(t *testing.T) {
		last := steps[len(steps)-1]
		if last.T < 36 || last.T > 37 {
			t.Errorf("last step at %v s, want ≈36.5 (scenario time, not wall)", last.T)
		}
	})
}

func TestFencedVariant(t *testing.T) {
	in := gcPauseInput("local", true)
	var b strings.Builder
	for _, s := range Narrative(in) {
		b.WriteString(s.String() + "\n")
	}
	got := b.String()
	for _, c := range []struct{ name, want string }{
		{"narrates the refused late charge", "w1's charge of invoice-1 with token 1 was REFUSED by the resource: stale fencing token 1 < 2."},
		{"notes the overlap as informational", "Noted (two holders at once, informational)"},
		{"tells that w1's release found its key gone and why", "w1 tried to release invoice-1 but its key was gone (it had expired at t=30.0s; w2 had already taken and released the lock) — nothing of its own to remove."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(got, c.want) {
				t.Errorf("narrative lacks %q:\n%s", c.want, got)
			}
		})
	}
	t.Run("headline says fencing saved the day", func(t *testing.T) {
		want := "The fencing token saved the day: w1's late charge (token 1) was refused because the resource had already seen token 2."
		if h := Headline(in); h != want {
			t.Errorf("Headline = %q, want %q", h, want)
		}
	})
}

func TestIndexHTML(t *testing.T) {
	const doubleCharge = "The invoice (invoice-1) was charged twice: w1 kept acting on a lock that had expired 6.0 s earlier."

	for _, c := range []struct {
		name         string
		backend      string
		wantEmulated bool
	}{
		{"says emulated Redis when the backend is embedded", "embedded", true},
		{"does not say emulated Redis for real local nodes", "local", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, res := writeReport(t, gcPauseInput(c.backend, false))
			b, err := os.ReadFile(filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			if got := strings.Contains(page, "emulated Redis (miniredis)"); got != c.wantEmulated {
				t.Errorf("emulated marker present = %v, want %v", got, c.wantEmulated)
			}
			if res.Emulated != c.wantEmulated {
				t.Errorf("results emulated = %v, want %v", res.Emulated, c.wantEmulated)
			}
			if !strings.Contains(page, doubleCharge) {
				t.Errorf("index.html lacks the verdict sentence %q", doubleCharge)
			}
			if !strings.Contains(page, `class="banner invalid"`) {
				t.Errorf("index.html has no red invalid banner")
			}
			if !strings.Contains(page, "No history.html") {
				t.Errorf("index.html does not say why there is no history.html")
			}
			if _, err := os.Stat(filepath.Join(dir, "history.html")); err == nil {
				t.Errorf("history.html written without porcupine info")
			}
		})
	}
	t.Run("says so when no expectation is declared", func(t *testing.T) {
		in := gcPauseInput("local", false)
		in.Expect = ""
		dir, res := writeReport(t, in)
		if res.ExpectationMet != nil {
			t.Errorf("expectation_met = %v, want null", *res.ExpectationMet)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
		if !bytes.Contains(b, []byte(`"expectation_met": null`)) {
			t.Errorf("results.json does not carry expectation_met: null")
		}
	})
	t.Run("reports an unmet expectation", func(t *testing.T) {
		in := gcPauseInput("local", false)
		in.Expect = "valid"
		dir, _ := writeReport(t, in)
		b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
		if !bytes.Contains(b, []byte("Expected VALID, got INVALID: expectation NOT met.")) {
			t.Errorf("index.html does not say the expectation failed")
		}
	})
}

func TestEveryLanguageHasEveryKey(t *testing.T) {
	for lang, table := range messages {
		for key := range messages["en"] {
			if _, ok := table[key]; !ok {
				t.Errorf("language %q lacks message %q", lang, key)
			}
		}
	}
}

func TestTheHeadlineNamesAPlannedStepThatNeverFired(t *testing.T) {
	h := gcPause("local", false)
	pause := historytest.Step("pause", "w1")
	pause.ID, pause.Duration, pause.Cause = 1, at(35), history.PauseGC
	pause.Trigger = history.Trigger{Kind: history.TriggerPoint, Client: "w1", Point: history.PointBeforeWrite, Occurrence: 3}
	h.Header.Plan = []history.FaultStep{pause}
	for _, tt := range []struct {
		lang Lang
		want string
	}{
		{"en", "because step #1 (GC pause on w1, the 3rd time w1 is just before its write) never took effect."},
		{"vi", "vì bước #1 (GC pause trên w1, lần thứ 3 w1 ở ngay trước khi ghi) không hề xảy ra."},
	} {
		t.Run("in "+string(tt.lang)+" the unknown verdict says which step never fired", func(t *testing.T) {
			in := Input{History: h, Lang: tt.lang, Verdict: checker.Unknown, Results: []checker.Result{
				{Checker: checker.CheckerCoverage, Verdict: checker.Unknown, Summary: "this run proves nothing", Missed: []int{1}}}}
			if got := Headline(in); !strings.HasSuffix(got, tt.want) {
				t.Errorf("headline %q, want it to end %q", got, tt.want)
			}
		})
	}
}

// TestAValidRunsHeadlineCreditsTheCheckThatRefusedTheWrite: the headline
// of a valid run names the check at the resource that refused a late
// write, from the refusal's reason; the fencing token only where the write
// carried one lower than one the resource had seen (issue 34).
func TestAValidRunsHeadlineCreditsTheCheckThatRefusedTheWrite(t *testing.T) {
	for _, c := range []struct {
		name, refusal string
		fence, seen   int64
		epoch         bool
		want          string
	}{
		{"a stale fencing token refused is the fencing token's doing", history.RefusalStaleFence, 1, 2, false,
			"The fencing token saved the day: w1's late charge (token 1) was refused because the resource had already seen token 2."},
		{"a leader's old epoch refused is the epoch check's doing", history.RefusalStaleFence, 1, 2, true,
			"The leader epoch check held: w1's charge as the leader of term 1 was refused because the resource had already seen term 2."},
		{"a changed currlock is check-and-set's doing, not a fencing token's", history.RefusalLockChanged, 0, 0, false,
			"The check-and-set on the lock's unique token held: w1's late charge was refused because invoice-1's currlock held a newer holder's token."},
		{"a used idempotency key is the idempotency key's doing", history.RefusalDuplicateKey, 0, 0, false,
			"The idempotency key held: w1's charge was refused because invoice-1 had already been charged with the same key."},
		// Nor was the fenced lock's token tested: no write was refused
		// for it (teacher14 T14-1).
		{"a sale refused for want of stock saves nothing", history.RefusalOutOfStock, 0, 0, false,
			"No checker found a problem: the lock kept its promise in this run. No write was refused for its fencing token, so the fencing token was never tested in this run."},
		{"a stale-fence refusal without a token credits no fencing token", history.RefusalStaleFence, 0, 0, false,
			"No checker found a problem: the lock kept its promise in this run."},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := gcPauseInput("local", true)
			h := in.History
			h.Ops = slices.Clone(h.Ops)
			h.Header.Params = maps.Clone(h.Header.Params)
			if c.epoch {
				if h.Header.Params == nil {
					h.Header.Params = map[string]int64{}
				}
				h.Header.Params[history.ParamEpochCheck] = 1
			}
			n := 0
			for i, o := range h.Ops {
				if o.F == history.Write && o.Type == history.Fail {
					o.Value.Refusal, o.Value.Fence, o.Value.SeenFence = c.refusal, c.fence, c.seen
					h.Ops[i] = o
					n++
				}
			}
			if n == 0 {
				t.Fatal("the fenced gc-pause history has no refused write")
			}
			in.History, in.Account = h, nil // the headline renders the changed history's claims
			if got := Headline(in); got != c.want {
				t.Errorf("Headline = %q, want %q", got, c.want)
			}
		})
	}
	for _, c := range []struct {
		name, first string
		firstKey    string
	}{
		{"two checks that each refused a write are both credited, in their order", history.RefusalDuplicateKey, "say.refused.idempotency"},
		{"one check that refused two actions is credited for each (completion, then failure record)", history.RefusalLockMismatch, "say.refused.lockcheck"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := gcPauseInput("local", true)
			h := in.History
			h.Ops = slices.Clone(h.Ops)
			i := slices.IndexFunc(h.Ops, func(o history.Op) bool { return o.F == history.Write && o.Type == history.Fail })
			if i < 0 {
				t.Fatal("the fenced gc-pause history has no refused write")
			}
			h.Ops[i].Value.Refusal = c.first
			late := h.Ops[i] // the stale holder's failure record, refused after its first write
			late.Index, late.Value.Action, late.Value.Refusal = len(h.Ops), workload.ActionRecordFailure, history.RefusalLockMismatch
			late.Invoke, late.Complete = late.Complete+1, late.Complete+2
			h.Ops = append(h.Ops, late)
			in.History, in.Account = h, nil // the headline renders the changed history's claims
			first := h.Ops[i]
			want := tr(English, c.firstKey, first.Client, actionWord(English, first.Value.Action), first.Key) + " " +
				tr(English, "say.refused.lockcheck", late.Client, actionWord(English, late.Value.Action), late.Key)
			if got := Headline(in); got != want {
				t.Errorf("Headline = %q, want %q", got, want)
			}
		})
	}
	t.Run("a valid run that takes no lock does not say the lock kept its promise", func(t *testing.T) {
		in := gcPauseInput("local", true)
		h := in.History
		h.Ops = slices.Clone(h.Ops)
		for i, o := range h.Ops {
			if o.F == history.Write && o.Type == history.Fail {
				o.Value.Refusal = history.RefusalOutOfStock
				h.Ops[i] = o
			}
		}
		h.Header.Traits = append(slices.Clone(h.Header.Traits), history.TraitLockFree)
		in.History, in.Account = h, nil
		if got, want := Headline(in), tr(English, "say.valid.lockfree"); got != want {
			t.Errorf("Headline = %q, want %q", got, want)
		}
	})
}

// TestAnUnavailableHeadlineGivesTheFirstWindowOfItsFindings: a fair lock
// refused the restarted w2 from 11.1 s, and the final probe from 45.0 s;
// the checker lists the probe's finding first. The headline's window is
// the facts' window: it starts at 11.1 s (fair-lock-restarted-waiter).
func TestAnUnavailableHeadlineGivesTheFirstWindowOfItsFindings(t *testing.T) {
	un := func(start, end float64, clients ...string) checker.Anomaly {
		return checker.Anomaly{Kind: checker.KindUnavailable, Key: "invoice-1", Clients: clients,
			Start: int64(start * 1e9), End: int64(end * 1e9), StartS: start, EndS: end}
	}
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("in "+string(lang)+" the headline starts at the first refusal, not at the probe's", func(t *testing.T) {
			in := gcPauseInput("local", false)
			in.Lang, in.Verdict = lang, checker.Invalid
			in.Results = []checker.Result{{Checker: checker.CheckerLiveness, Verdict: checker.Invalid,
				Anomalies: []checker.Anomaly{un(45.0, 79.7), un(11.1, 79.7, "w2")}}}
			got := Headline(in)
			if want := tr(lang, "a.unavailable", "invoice-1", instant(11.1), instant(79.7)); !strings.Contains(got, want) {
				t.Errorf("headline %q, want it to say %q", got, want)
			}
		})
	}
}

// TestAValidCronRunsHeadlineSaysWhoRanEachFireAndWhen: lesson 51's fixed
// runs run each fire when the first scheduler's own clock reaches it (w2,
// 10 s ahead, runs both fires 10 s before the schedule's time); the
// headline says who ran each fire and when, beside the schedule's time,
// from the run-job records, not "the lock kept its promise" alone.
func TestAValidCronRunsHeadlineSaysWhoRanEachFireAndWhen(t *testing.T) {
	h := history.History{Header: history.Header{Workload: workload.Cron, TimeScale: 50, Clients: []string{"w1", "w2", "w3"},
		Params: map[string]int64{history.ParamIntervalNS: 600_000_000, history.ParamFires: 2}}}
	run := func(client, key string, invoke float64) {
		h.Ops = append(h.Ops, history.Op{Index: len(h.Ops), Process: len(h.Ops), Client: client, F: history.Write, Key: key, Type: history.OK,
			Value: history.Value{Action: workload.ActionRunJob}, Invoke: int64(invoke / 50 * 1e9), Complete: int64((invoke + 2) / 50 * 1e9)})
	}
	run("w2", "job@1", 20.1)
	run("w2", "job@2", 50.1)
	for _, lang := range []Lang{English, Vietnamese} {
		t.Run("in "+string(lang)+" each fire names its scheduler, its time and the schedule's", func(t *testing.T) {
			got := Headline(Input{History: h, Lang: lang, Verdict: checker.Valid})
			want := tr(lang, "say.cron.fires", joinAnd(lang, []string{
				tr(lang, "a.fire", "job@1", "w2", instant(20.1), instant(30)), tr(lang, "a.fire", "job@2", "w2", instant(50.1), instant(60))}))
			if got != want {
				t.Errorf("headline %q, want %q", got, want)
			}
		})
	}
}
