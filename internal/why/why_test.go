package why

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

const twoFaults = `name: two-faults
description: w1 is paused past its lease and charges twice.
seed: 7
time_scale: 50
duration: 1m
nodes: 1
clients: 2
algorithm: safe
ttl: 30s
workload: {kind: payment, keys: 1, job: 5s}
faults:
  - {kind: pause, client: w1, point: before-write, duration: 35s}
  - {kind: clock-jump, nodes: [n1], at: 3s, delta: 20s}
expect: invalid
fixed_by: the-fix.yaml
`

// theFix changes the lock and declares the run's faults.
const theFix = `name: the-fix
time_scale: 10
duration: 1m
nodes: 1
clients: 2
algorithm: fenced
ttl: 30s
workload: {kind: payment, keys: 1, job: 5s, fencing: true}
faults:
  - {kind: pause, client: w1, point: before-write, duration: 35s}
  - {kind: clock-jump, nodes: [n1], at: 3s, delta: 20s}
`

// noJump is the fix that is the change of faults: the same lock without
// the clock jump (as redlock-no-clock-jump is redlock-clock-jump's).
const noJump = `name: no-jump
seed: 7
time_scale: 50
duration: 1m
nodes: 1
clients: 2
algorithm: safe
ttl: 30s
workload: {kind: payment, keys: 1, job: 5s}
faults:
  - {kind: pause, client: w1, point: before-write, duration: 35s}
expect: valid
`

// slower is a fix whose fault is another: the pause shorter.
const slower = `name: slower
seed: 7
time_scale: 50
duration: 1m
nodes: 1
clients: 2
algorithm: safe
ttl: 30s
workload: {kind: payment, keys: 1, job: 5s}
faults:
  - {kind: pause, client: w1, point: before-write, duration: 5s}
  - {kind: clock-jump, nodes: [n1], at: 3s, delta: 20s}
`

func load(t *testing.T, dir, name, text string) scenario.Scenario {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// kinds are the fault kinds of sc, in order, read back from its
// normalised YAML by the parser (a second reading of the variant).
func kinds(t *testing.T, sc scenario.Scenario) []string {
	t.Helper()
	b, err := scenario.Normalize(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse("variant.yaml", b)
	if err != nil {
		t.Fatalf("a variant does not parse back: %v\n%s", err, b)
	}
	var out []string
	for _, f := range back.Faults {
		out = append(out, f.Kind)
	}
	return out
}

func TestVariantsDropEachFaultHalveThePauseAndRunTheFixWithTheSameFaults(t *testing.T) {
	dir := t.TempDir()
	fix := load(t, dir, "the-fix.yaml", theFix)
	sc := load(t, dir, "two-faults.yaml", twoFaults)
	steps, err := Plan(sc, *sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	vs, errs := Variants(sc, steps, &Fix{Scenario: fix})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var labels []string
	for _, v := range vs {
		labels = append(labels, v.Label)
	}
	// The pause is #1, the clock jump #2: a clock jump has no length.
	if want := []string{"without-1", "half-1", "without-2", "fixed-by"}; !slices.Equal(labels, want) {
		t.Fatalf("experiments %v, want %v", labels, want)
	}
	byLabel := map[string]Variant{}
	for _, v := range vs {
		byLabel[v.Label] = v
	}
	t.Run("each without-variant has every other fault and not its own", func(t *testing.T) {
		if got := kinds(t, byLabel["without-1"].Scenario); !slices.Equal(got, []string{"clock-jump"}) {
			t.Errorf("without-1 has %v", got)
		}
		if got := kinds(t, byLabel["without-2"].Scenario); !slices.Equal(got, []string{"pause"}) {
			t.Errorf("without-2 has %v", got)
		}
	})
	t.Run("the half variant's pause lasts half as long and says so", func(t *testing.T) {
		h := byLabel["half-1"]
		if got, want := h.Scenario.Faults[0].Kind, "pause"; got != want {
			t.Fatalf("first fault %s", got)
		}
		var pause history.FaultStep
		for _, st := range steps {
			if st.ID == 1 {
				pause = st
			}
		}
		if h.ValueNS*2 != pause.Duration {
			t.Errorf("half length %d ns, the pause's %d ns", h.ValueNS, pause.Duration)
		}
		hs, err := Plan(h.Scenario, *sc.Seed)
		if err != nil || len(hs) != 2 || hs[0].Duration != h.ValueNS {
			t.Errorf("the half variant's plan %+v (%v)", hs, err)
		}
	})
	t.Run("the fix keeps its own algorithm and takes the run's faults at the run's time scale", func(t *testing.T) {
		f := byLabel["fixed-by"].Scenario
		if f.Algorithm != "fenced" || f.Name != "the-fix" || f.TimeScale != sc.TimeScale {
			t.Errorf("fix %s %s at %g", f.Name, f.Algorithm, f.TimeScale)
		}
		if got := kinds(t, f); !slices.Equal(got, []string{"pause", "clock-jump"}) {
			t.Errorf("fix has faults %v", got)
		}
	})
	t.Run("an experiment says what it is, and gives the original's description only as the original's", func(t *testing.T) {
		cases := map[string][2]string{
			"without-1": {"Experiment on two-faults: the same seed without plan step 1 (pause, w1). The original scenario: " + sc.Description,
				"Thí nghiệm trên two-faults: cùng seed, bỏ bước 1 của kế hoạch lỗi (pause, w1). Kịch bản gốc: "},
			"half-1": {"Experiment on two-faults: the same seed with plan step 1 (pause, w1) at half its length (17.5s).",
				"Thí nghiệm trên two-faults: cùng seed, bước 1 của kế hoạch lỗi (pause, w1) chỉ dài một nửa (17,5s)."},
			"without-2": {"Experiment on two-faults: the same seed without plan step 2 (clock-jump, n1).", "bỏ bước 2 của kế hoạch lỗi (clock-jump, n1)"},
		}
		for label, want := range cases {
			ex := byLabel[label].Scenario
			if !strings.HasPrefix(ex.Description, want[0]) || !strings.Contains(ex.DescriptionVI, want[1]) {
				t.Errorf("%s is described as %q / %q; want it to begin %q and hold %q", label, ex.Description, ex.DescriptionVI, want[0], want[1])
			}
		}
	})
	t.Run("no experiment carries the run's expectation or its fixed_by", func(t *testing.T) {
		for _, v := range vs {
			if v.Scenario.Expect.Verdict != "" || v.Scenario.FixedBy != "" {
				t.Errorf("%s expects %q, fixed_by %q", v.Label, v.Scenario.Expect.Verdict, v.Scenario.FixedBy)
			}
		}
	})
}

func TestAFixThatChangesTheFaultsRunsWithItsOwnFaultsNeverTheRuns(t *testing.T) {
	dir := t.TempDir()
	load(t, dir, "the-fix.yaml", theFix)
	sc := load(t, dir, "two-faults.yaml", twoFaults)
	steps, err := Plan(sc, *sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, text string
		wantKinds        []string
		wantLacks        []int
		// wantChanged: the run's steps the fix has in another form, and
		// the fix's duration of each, wall ns.
		wantChanged map[int]int64
	}{
		{"a fix without the clock jump runs without it and lacks the run's step 2", "no-jump.yaml", noJump,
			[]string{"pause"}, []int{2}, nil},
		{"a fix whose pause is shorter runs its own pause and names the run's pause as changed", "slower.yaml", slower,
			[]string{"pause", "clock-jump"}, nil, map[int]int64{1: int64(5e9 / sc.TimeScale)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fix := load(t, dir, tt.file, tt.text)
			if SameFaults(sc, fix) {
				t.Fatal("SameFaults says the fix declares the run's faults")
			}
			plan, err := Plan(fix, *sc.Seed)
			if err != nil {
				t.Fatal(err)
			}
			vs, errs := Variants(sc, steps, &Fix{Scenario: fix, Plan: plan})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			v := vs[len(vs)-1]
			if v.Change != FixedByOwn || v.Scenario.Name != fix.Name {
				t.Fatalf("the fix's experiment is %s %s, want %s %s", v.Change, v.Scenario.Name, FixedByOwn, fix.Name)
			}
			if got := kinds(t, v.Scenario); !slices.Equal(got, tt.wantKinds) {
				t.Errorf("the fix ran with faults %v, want its own %v", got, tt.wantKinds)
			}
			if !slices.Equal(v.Lacks, tt.wantLacks) {
				t.Errorf("it lacks the run's steps %v, want %v", v.Lacks, tt.wantLacks)
			}
			if v.Scenario.Expect.Verdict != "" || v.Scenario.Seed != nil {
				t.Errorf("the experiment keeps the fix's expectation %q or seed", v.Scenario.Expect.Verdict)
			}
			changed := map[int]int64{}
			for _, c := range v.Changed {
				changed[c.Step] = c.To.Duration
			}
			if len(changed) != len(tt.wantChanged) || !maps.Equal(changed, tt.wantChanged) {
				t.Errorf("it changes the run's steps %v (their new durations), want %v", changed, tt.wantChanged)
			}
			cs := Claims([]Counterfactual{{Change: v.Change, Lacks: v.Lacks, Changed: v.Changed, Verdict: "valid"}})
			if len(cs) != 1 || cs[0].What != string(FixedByOwn) || !slices.Equal(cs[0].Steps, tt.wantLacks) || len(cs[0].Changed) != len(tt.wantChanged) {
				t.Errorf("its claim %+v, want what %s, steps %v, %d changed", cs, FixedByOwn, tt.wantLacks, len(tt.wantChanged))
			}
		})
	}
}

func TestOnlyAValidRunWithoutAFaultMakesItNecessary(t *testing.T) {
	tests := []struct {
		c    Counterfactual
		want bool
	}{
		{Counterfactual{Change: Without, Verdict: "valid"}, true},
		{Counterfactual{Change: Without, Verdict: "invalid"}, false},
		{Counterfactual{Change: Without, Verdict: "unknown"}, false},
		{Counterfactual{Change: Without}, false},
		{Counterfactual{Change: Half, Verdict: "valid"}, false},
		{Counterfactual{Change: FixedBy, Verdict: "valid"}, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.c.Change)+" "+string(tt.c.Verdict), func(t *testing.T) {
			if got := tt.c.Necessary(); got != tt.want {
				t.Errorf("Necessary() = %v, want %v", got, tt.want)
			}
		})
	}
}

// Reader9: redlock-clock-jump's report named redlock-no-clock-jump, which
// is the same file without n3's clock jump, under "how to prevent it". A
// fixed_by that differs from the run's scenario only by leaving faults out
// is no remedy but a control, whatever the faults' kinds: FewerFaults
// says so from the two files' data.
func TestFewerFaultsTellsAFixThatOnlyLeavesFaultsOut(t *testing.T) {
	dir := t.TempDir()
	load(t, dir, "the-fix.yaml", theFix)
	sc := load(t, dir, "two-faults.yaml", twoFaults)
	noPause := strings.Replace(noJump, "  - {kind: pause, client: w1, point: before-write, duration: 35s}\n",
		"  - {kind: clock-jump, nodes: [n1], at: 3s, delta: 20s}\n", 1)
	for _, tt := range []struct {
		name, file, text string
		want             bool
	}{
		{"the run without its clock jump", "no-jump.yaml", noJump, true},
		{"the run without its pause (any kind of fault)", "no-pause.yaml", noPause, true},
		{"the run's faults with its pause shorter", "slower.yaml", slower, false},
		{"another lock with the run's faults", "the-fix.yaml", theFix, false},
		{"another lock without the clock jump", "fenced-no-jump.yaml", strings.Replace(noJump, "algorithm: safe", "algorithm: fenced", 1), false},
		{"the run's own faults, all of them", "same.yaml", strings.Replace(twoFaults, "fixed_by: the-fix.yaml\n", "", 1), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := FewerFaults(sc, load(t, dir, tt.file, tt.text)); got != tt.want {
				t.Errorf("FewerFaults = %v, want %v", got, tt.want)
			}
		})
	}
}
