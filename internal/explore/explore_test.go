package explore

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/shrink"
	"github.com/locksim/locksim/internal/suite"
)

// corpus is a stored history of the report's accuracy corpus.
func corpus(t *testing.T, name string) (history.History, *account.Account) {
	t.Helper()
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return h, account.New(h)
}

func TestEveryRegisteredFaultKindHasAClass(t *testing.T) {
	if got, want := explored(), faults.Names(); !slices.Equal(got, want) {
		t.Errorf("classes cover %v, the registered kinds are %v", got, want)
	}
}

func TestTheGuideReadsARedlockGrantAndItsDecidingNode(t *testing.T) {
	h, a := corpus(t, "c07b-redlock-latency-expiry")
	ws := windows(a, true, len(h.Header.Nodes))
	if len(ws) == 0 {
		t.Fatal("no window")
	}
	w := ws[0]
	// The raw history: w1's ok acquire, its granting nodes, the SETs the
	// nodes ran with their PX, its first write and its release.
	var acq history.Op
	sets := map[string]int64{} // node → the key's deadline
	var write, release int64 = -1, -1
	for _, op := range h.Ops {
		switch {
		case op.F == history.Acquire && op.Type == history.OK && acq.F == "":
			acq = op
		case op.F == history.NodeCmd && len(op.Value.Cmd) >= 5 && strings.EqualFold(op.Value.Cmd[0], "set"):
			px, _ := strconv.ParseInt(op.Value.Cmd[4], 10, 64)
			sets[op.Value.Node] = op.Invoke + px*int64(time.Millisecond)
		case op.F == history.Write && op.Client == acq.Client && write < 0:
			write = op.Invoke
		case op.F == history.Release && op.Client == acq.Client && release < 0:
			release = op.Invoke
		}
	}
	t.Run("the window is w1's hold from its acquire's return, on the nodes that granted it", func(t *testing.T) {
		if w.Client != acq.Client || w.Grant != acq.Complete || !slices.Equal(w.Nodes, acq.Value.Nodes) || !w.FirstHold {
			t.Errorf("window %+v, acquire %+v", w, acq)
		}
	})
	t.Run("of three granting nodes out of five, losing one loses the quorum: the earliest deadline decides", func(t *testing.T) {
		earliest := ""
		for n, d := range sets {
			if earliest == "" || d < sets[earliest] || (d == sets[earliest] && n < earliest) {
				earliest = n
			}
		}
		if !slices.Equal(w.Deciding, []string{earliest}) {
			t.Errorf("deciding %v, want [%s]", w.Deciding, earliest)
		}
		if got := w.Expiry(w.Grant); got != sets[earliest] {
			t.Errorf("expiry %d, the node's SET PX says %d", got, sets[earliest])
		}
	})
	t.Run("its first write and its release are the client's own operations", func(t *testing.T) {
		if w.Write != write || !w.FirstWrite || w.Release != release {
			t.Errorf("write %d (first %v) release %d, want %d and %d", w.Write, w.FirstWrite, w.Release, write, release)
		}
	})
}

func TestTheGuideReadsRenewalsFromTheNodes(t *testing.T) {
	h, a := corpus(t, "c19j-plain-extend-renews-anothers-key")
	ws := windows(a, false, len(h.Header.Nodes))
	var n int
	for _, w := range ws {
		for _, r := range w.Renewals {
			n++
			// Every renewal is a PEXPIRE the node ran for the window's
			// client, on the window's key, inside the hold.
			ok := slices.ContainsFunc(h.Ops, func(op history.Op) bool {
				return op.F == history.NodeCmd && op.Client == w.Client && op.Invoke == r && len(op.Value.Cmd) > 1 &&
					strings.EqualFold(op.Value.Cmd[0], "pexpire") && op.Value.Cmd[1] == w.LockKey
			})
			if !ok || r < w.Grant || r > w.End {
				t.Errorf("renewal at %d of %s's hold [%d, %d] is no PEXPIRE of its key", r, w.Client, w.Grant, w.End)
			}
		}
	}
	if n == 0 || !renews(ws) {
		t.Fatalf("no renewal read from %d windows", len(ws))
	}
	if p := renewalPeriod(ws, 1); p <= 0 {
		t.Errorf("renewal period %s", p)
	}
}

// testEnv is an env of base with windows like a fault-free run's: each
// client's hold of each key in turn, the first client writing.
func testEnv(t *testing.T, yaml string) *env {
	t.Helper()
	base, err := scenario.Parse("base.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	topo := base.FaultTopology()
	e := &env{base: base, traits: base.Traits(), backend: "local", scale: base.TimeScale, ttl: base.TTL.D(),
		nodes: topo.Nodes, clients: topo.Clients, replicas: topo.Replicas, grain: base.TTL.D() / 100,
		persistence: base.Persistence, replicated: base.Replicas > 0, withSentinels: base.Sentinels > 0}
	wall := func(d time.Duration) int64 { return int64(float64(d) / base.TimeScale) }
	var at time.Duration
	for k := 1; k <= base.Workload.Keys; k++ {
		for i, c := range topo.Clients {
			w := window{Client: c, Key: "invoice-" + strconv.Itoa(k), LockKey: "invoice-" + strconv.Itoa(k), Acquire: wall(at),
				Grant: wall(at + 50*time.Millisecond), End: wall(at + 3*time.Second), TTL: wall(base.TTL.D()),
				Nodes: topo.Nodes, Deciding: topo.Nodes[:len(topo.Nodes)-quorum(len(topo.Nodes))+1], FirstHold: k == 1,
				Write: -1, Release: wall(at + 3*time.Second)}
			if i == 0 {
				w.Write, w.FirstWrite = wall(at+2*time.Second), k == 1
				w.Renewals = []int64{wall(at + time.Second)}
			}
			e.ws = append(e.ws, w)
			at += 3 * time.Second
		}
	}
	e.end = at
	e.renewal = time.Second
	return e
}

func TestEveryClassWritesSchedulesTheParserTakes(t *testing.T) {
	bases := []struct{ name, yaml string }{
		{"safe on one node", "time_scale: 20\nduration: 60s\nclients: 2\nalgorithm: safe\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 2500ms}\n"},
		{"redlock on five nodes", "time_scale: 20\nduration: 60s\nnodes: 5\nclients: 2\nalgorithm: redlock\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 2500ms}\n"},
		{"a watchdog with a replica and sentinels", "time_scale: 20\nduration: 90s\nnodes: 1\nreplicas: 1\nsentinels: 3\nclients: 3\nalgorithm: watchdog\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 20s}\n"},
	}
	for _, b := range bases {
		e := testEnv(t, b.yaml)
		for _, c := range classes(e) {
			if r, _ := c.applies(e); r != "" {
				continue
			}
			t.Run(fmt.Sprintf("%s: every guided and drawn schedule of %s parses", b.name, c.Name), func(t *testing.T) {
				s := &classSearch{x: &explorer{o: Options{Seed: 1}}, e: e, c: c, guided: c.guided(e)}
				if len(s.guided) == 0 {
					t.Fatal("no guided schedule")
				}
				for i := range len(s.guided) + 10 {
					cand, _ := s.candidate(i)
					sc, _, err := scenarioOf(e.base, cand, "x-"+c.Name)
					if err != nil {
						t.Fatalf("candidate %d: %v", i, err)
					}
					if len(sc.Faults) == 0 || sc.Faults[0].Kind != c.Kind {
						t.Fatalf("candidate %d has faults %+v, want %s", i, sc.Faults, c.Kind)
					}
					if _, err := faults.NewPlan(sc.Faults, nil, 1, sc.FaultTopology()); err != nil {
						t.Fatalf("candidate %d does not resolve: %v", i, err)
					}
				}
			})
		}
	}
}

func TestAGuidedFaultOnAFirstHoldFiresOnTheAcquireItself(t *testing.T) {
	e := testEnv(t, "time_scale: 20\nduration: 60s\nclients: 2\nalgorithm: safe\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 2500ms}\n")
	for _, c := range guidedOf(e, "clock-jump-node", "crash-none", "delete-key") {
		sc, _, err := scenarioOf(e.base, c, "x")
		if err != nil {
			t.Fatal(err)
		}
		if w := sc.Faults[0].When; w.Kind != history.TriggerEvent || w.Event != history.EventAcquired || w.Client != "w1" {
			t.Errorf("%s fires on %+v, want w1's acquire", sc.Faults[0].Kind, w)
		}
	}
}

// guidedOf are the first guided candidates of the named classes.
func guidedOf(e *env, names ...string) []candidate {
	var out []candidate
	for _, c := range classes(e) {
		if slices.Contains(names, c.Name) {
			out = append(out, c.guided(e)[0])
		}
	}
	return out
}

func TestAClassDrawsItsSchedulesFromTheSeedAndItsNameAlone(t *testing.T) {
	e := testEnv(t, "time_scale: 20\nduration: 60s\nclients: 2\nalgorithm: safe\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 2500ms}\n")
	draw := func(seed int64, class string, i int) string {
		for _, c := range classes(e) {
			if c.Name == class {
				s := &classSearch{x: &explorer{o: Options{Seed: seed}}, e: e, c: c, guided: c.guided(e)}
				cand, runSeed := s.candidate(i)
				_, b, err := scenarioOf(e.base, cand, "x")
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("%s seed %d", b, runSeed)
			}
		}
		t.Fatalf("no class %s", class)
		return ""
	}
	n := len(pauseGuided(e)) + 3
	t.Run("the same seed draws the same schedule and run seed", func(t *testing.T) {
		if draw(5, "pause", n) != draw(5, "pause", n) {
			t.Error("two draws differ")
		}
	})
	t.Run("another seed draws another", func(t *testing.T) {
		if draw(5, "pause", n) == draw(6, "pause", n) {
			t.Error("seeds 5 and 6 drew the same")
		}
	})
}

func TestShardsSplitTheClassesOnce(t *testing.T) {
	names := ClassNames()
	for _, n := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprintf("%d shards explore every class exactly once", n), func(t *testing.T) {
			count := map[string]int{}
			for k := 1; k <= n; k++ {
				sh := suite.Shard{K: k, N: n}
				for _, c := range names {
					if sh.Has(suite.Job{Scenario: scenario.Scenario{Name: c}, Seed: 42}) {
						count[c]++
						if got := shardOf(c, 42, n); n > 1 && got != sh.String() {
							t.Errorf("%s is in shard %s but said to be in %s", c, sh, got)
						}
					}
				}
			}
			for _, c := range names {
				if count[c] != 1 {
					t.Errorf("%s explored %d times", c, count[c])
				}
			}
		})
	}
}

func TestAViolationIsShrunkAgainOnlyWhenNoRunSaidValid(t *testing.T) {
	runs := func(vs ...string) []shrink.Run {
		var out []shrink.Run
		for _, v := range vs {
			out = append(out, shrink.Run{Verdict: checker.Verdict(v)})
		}
		return out
	}
	tests := []struct {
		name string
		runs []shrink.Run
		want bool
	}{
		{"invalid and unknown runs are the machine's load", runs("invalid", "unknown", "invalid"), true},
		{"a run without a verdict is too", runs("invalid", ""), true},
		{"one valid run is a violation that comes and goes", runs("invalid", "valid", "unknown"), false},
		{"all invalid needs no second shrink", runs("invalid", "invalid"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := undecided(tt.runs); got != tt.want {
				t.Errorf("undecided = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestExploreRestartsAClientWithoutTheWorkersOwnRestoreBug: a restarted
// client restores nothing in every schedule explore draws — restore: all
// is the worker's own bug (kombu PR #905), a DEL of every lease that no
// lock can stop, not a fault of the lock's environment.
func TestExploreRestartsAClientWithoutTheWorkersOwnRestoreBug(t *testing.T) {
	e := testEnv(t, "time_scale: 20\nduration: 60s\nclients: 2\nalgorithm: fenced\nttl: 10s\nworkload: {kind: payment, keys: 2, job: 2500ms, fencing: true, claim: true}\n")
	for _, c := range classes(e) {
		if c.Kind != "restart-client" {
			continue
		}
		s := &classSearch{x: &explorer{o: Options{Seed: 1}}, e: e, c: c, guided: c.guided(e)}
		n := 0
		for i := range len(s.guided) + 40 {
			cand, _ := s.candidate(i)
			if _, _, err := scenarioOf(e.base, cand, "x"); err != nil {
				t.Fatal(err)
			}
			for _, f := range cand.Faults {
				n++
				if j := slices.Index(f.keys, "restore"); j < 0 || f.vals[j] != faults.RestoreNone {
					t.Errorf("candidate %d restores %v", i, f.vals)
				}
			}
		}
		if n == 0 {
			t.Fatal("no restart-client schedule drawn")
		}
		return
	}
	t.Fatal("no restart-client class")
}
