package scenario

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/workload"
	"github.com/locksim/locksim/lock"
)

// scenarioFor is a minimal scenario for algorithm on workload kind (with
// the fields that workload requires) plus extra top-level YAML and extra
// workload fields.
func scenarioFor(algorithm, kind, workloadExtra, extra string) string {
	w := "kind: " + kind
	switch kind {
	case workload.Semaphore:
		w += ", permits: 2"
	case workload.Cron:
		w += ", interval: 60s"
	}
	if kind == workload.Payment && clientsTraits(algorithm).IdempotencyKey && !strings.Contains(workloadExtra, "idempotency") {
		w += ", idempotency: true"
	}
	if workloadExtra != "" {
		w += ", " + workloadExtra
	}
	if clientsTraits(algorithm).Process && !strings.Contains(extra, "process:") {
		extra = "process: {command: [./lock-client]}\n" + extra // a lock client process needs its command
	}
	return fmt.Sprintf("clients: 2\nalgorithm: %s\nttl: 30s\nworkload: {%s}\n%s", algorithm, w, extra)
}

func clientsTraits(name string) clients.Traits {
	a, _ := clients.Lookup(name)
	return a.Traits
}

// firstRun is the first of kinds the algorithm runs, or "".
func firstRun(t clients.Traits, kinds ...string) string {
	for _, k := range kinds {
		if t.Runs(k) {
			return k
		}
	}
	return ""
}

// parseProblems parses src and returns its problems' texts (nil: valid).
func parseProblems(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("t.yaml", []byte(src))
	if err == nil {
		return nil
	}
	var list *ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Parse = %v, want an *ErrorList", err)
	}
	out := make([]string, len(list.Errs))
	for i, e := range list.Errs {
		out[i] = e.Error()
	}
	return out
}

func TestTheParserAcceptsExactlyTheRegisteredAlgorithms(t *testing.T) {
	all := clients.All()
	if len(all) < 16 {
		t.Fatalf("%d algorithms registered, want locksim's 16 at least", len(all))
	}
	for _, a := range all {
		kind := firstRun(a.Traits, workload.Names()...)
		t.Run("the registered algorithm "+a.Name+" is accepted on the "+kind+" workload", func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(scenarioFor(a.Name, kind, "", "")))
			if err != nil {
				t.Fatal(err)
			}
			if s.Algorithm != a.Name {
				t.Errorf("Algorithm = %q, want %q", s.Algorithm, a.Name)
			}
		})
	}
	t.Run("every algorithm the parser offers is registered, in catalogue order", func(t *testing.T) {
		problems := parseProblems(t, "clients: 2\nalgorithm: paxos\nttl: 30s\n")
		if len(problems) != 1 {
			t.Fatalf("problems = %q, want one", problems)
		}
		_, valid, ok := strings.Cut(problems[0], "; valid: ")
		if !ok {
			t.Fatalf("no list of valid algorithms in %q", problems[0])
		}
		if got, want := strings.Split(valid, ", "), lock.Names(); !reflect.DeepEqual(got, want) {
			t.Errorf("the parser offers\n  %q\nthe registry holds\n  %q", got, want)
		}
	})
	t.Run("a missing algorithm's hint names every registered algorithm", func(t *testing.T) {
		problems := parseProblems(t, "clients: 2\nttl: 30s\n")
		if len(problems) != 1 || !strings.HasSuffix(problems[0], "one of "+strings.Join(lock.Names(), ", ")) {
			t.Errorf("problems = %q", problems)
		}
	})
	t.Run("every workload a registration names is a workload kind", func(t *testing.T) {
		for _, a := range all {
			for _, w := range a.Traits.Workloads {
				if !contains(workload.Names(), w) {
					t.Errorf("%s runs workload %q, which is no workload kind (%v)", a.Name, w, workload.Names())
				}
			}
		}
	})
	t.Run("the registry's semaphore workload is history's", func(t *testing.T) {
		if (clients.Traits{}).Runs(workload.Semaphore) || !(clients.Traits{Traits: lock.Traits{Semaphore: true}}).Runs(workload.Semaphore) {
			t.Errorf("clients.Traits.Runs does not treat %q as the semaphore workload", workload.Semaphore)
		}
	})
}

// TestTheParserEnforcesEveryTraitRule tries each rule on every registered
// algorithm: what its traits allow is accepted, what they forbid is refused
// with the rule's message and nothing else.
func TestTheParserEnforcesEveryTraitRule(t *testing.T) {
	type rule struct {
		// what is the sentence's object, e.g. "workload.fencing: true".
		what string
		// src is the scenario, or "" when the rule does not apply.
		src func(a clients.Algorithm) string
		// allowed says whether the traits allow it; why says why (for the
		// test's name).
		allowed func(t clients.Traits) bool
		why     func(t clients.Traits) string
		// refusal is a substring of the one problem reported otherwise.
		refusal func(a clients.Algorithm) string
	}
	fenceRule := func(field string) rule {
		return rule{
			what: "workload." + field + ": true",
			src: func(a clients.Algorithm) string {
				if k := firstRun(a.Traits, workload.Payment, workload.Counter); k != "" {
					return scenarioFor(a.Name, k, field+": true", "")
				}
				return ""
			},
			allowed: func(t clients.Traits) bool { return t.Fenced },
			why: func(t clients.Traits) string {
				if t.Fenced {
					return "it hands out fencing tokens"
				}
				return "it hands out no fencing token"
			},
			refusal: func(a clients.Algorithm) string {
				return "workload." + field + ": true needs algorithm fenced, redlock-fenced, watchdog-fenced or fenced-wait (got " + a.Name + ")"
			},
		}
	}
	rules := []rule{
		fenceRule("fencing"),
		fenceRule("claim"),
		{
			what: "a library block",
			src: func(a clients.Algorithm) string {
				return scenarioFor(a.Name, firstRun(a.Traits, workload.Names()...), "", "library: {tries: 2}\n")
			},
			allowed: func(t clients.Traits) bool { return t.Library },
			why: func(t clients.Traits) string {
				if t.Library {
					return "it is a library adapter"
				}
				return "it is no library adapter"
			},
			refusal: func(a clients.Algorithm) string {
				return "library: library options apply only to the library adapters redsync, redislock (got algorithm " + a.Name + ")"
			},
		},
		{
			what: "library.drift_factor",
			src: func(a clients.Algorithm) string {
				if !a.Traits.Library {
					return "" // the library block itself is refused
				}
				return scenarioFor(a.Name, firstRun(a.Traits, workload.Names()...), "", "library: {drift_factor: 0.02}\n")
			},
			allowed: func(t clients.Traits) bool { return t.DriftFactor },
			why: func(t clients.Traits) string {
				if t.DriftFactor {
					return "its validity subtracts a drift allowance"
				}
				return "it tracks no validity on the client"
			},
			refusal: func(a clients.Algorithm) string {
				return "library.drift_factor: " + a.Name + " has no drift factor: it tracks no validity on the client (only redsync takes one)"
			},
		},
		{
			what: "nodes: 5",
			src: func(a clients.Algorithm) string {
				return scenarioFor(a.Name, firstRun(a.Traits, workload.Names()...), "", "nodes: 5\n")
			},
			allowed: func(t clients.Traits) bool { return !t.SingleNode },
			why: func(t clients.Traits) string {
				if t.SingleNode {
					return "it locks a single node only"
				}
				return "it is not limited to one node"
			},
			refusal: func(a clients.Algorithm) string {
				return "nodes: " + a.Name + " locks a single Redis node; use nodes: 1 (got 5)"
			},
		},
		{
			what: "probe: true",
			src: func(a clients.Algorithm) string {
				return scenarioFor(a.Name, firstRun(a.Traits, workload.Names()...), "", "probe: true\n")
			},
			allowed: func(t clients.Traits) bool { return !t.LockFree },
			why: func(t clients.Traits) string {
				if t.LockFree {
					return "it takes no lock to probe"
				}
				return "it takes a lock"
			},
			refusal: func(a clients.Algorithm) string {
				return "probe: true needs a lock: " + a.Name + " takes none"
			},
		},
		{
			what: "a payment workload without idempotency keys",
			src: func(a clients.Algorithm) string {
				if !a.Traits.Runs(workload.Payment) {
					return ""
				}
				return scenarioFor(a.Name, workload.Payment, "idempotency: false", "")
			},
			allowed: func(t clients.Traits) bool { return !t.IdempotencyKey },
			why: func(t clients.Traits) string {
				if t.IdempotencyKey {
					return "it relies on the gateway's idempotency key"
				}
				return "it does not rely on idempotency keys"
			},
			refusal: func(a clients.Algorithm) string {
				return "workload.idempotency: algorithm " + a.Name + " takes no lock and relies on the gateway's idempotency key"
			},
		},
	}
	for _, kind := range workload.Names() {
		rules = append(rules, rule{
			what: "the " + kind + " workload",
			src:  func(a clients.Algorithm) string { return scenarioFor(a.Name, kind, "", "") },
			allowed: func(t clients.Traits) bool {
				return t.Runs(kind)
			},
			why: func(t clients.Traits) string {
				switch {
				case len(t.Workloads) > 0:
					return "it runs " + strings.Join(t.Workloads, ", ") + " only"
				case kind != workload.Semaphore:
					return "it runs every lock workload"
				case t.Semaphore:
					return "it is a semaphore"
				case t.Control:
					return "it is a control"
				}
				return "a lock admits one client, a semaphore N"
			},
			refusal: func(a clients.Algorithm) string {
				if ws := a.Traits.Workloads; len(ws) > 0 {
					return "workload.kind: algorithm " + a.Name + " runs the " + strings.Join(ws, ", ") + " workload only (got " + kind + ")"
				}
				return "workload.kind: the semaphore workload needs algorithm semaphore, fair-semaphore, no-lock, control-mutex (got " + a.Name + ")"
			},
		})
	}
	for _, r := range rules {
		for _, a := range clients.All() {
			src := r.src(a)
			if src == "" {
				continue
			}
			verb := "refuses"
			if r.allowed(a.Traits) {
				verb = "accepts"
			}
			t.Run(fmt.Sprintf("the parser %s %s for %s because %s", verb, r.what, a.Name, r.why(a.Traits)), func(t *testing.T) {
				problems := parseProblems(t, src)
				if r.allowed(a.Traits) {
					if problems != nil {
						t.Errorf("refused:\n%s\n%s", strings.Join(problems, "\n"), src)
					}
					return
				}
				// The semaphore workload on a single-workload algorithm
				// breaks two rules at once: each says so.
				want := 1
				if len(a.Traits.Workloads) > 0 && strings.Contains(r.what, workload.Semaphore) && !a.Traits.Runs(workload.Semaphore) {
					want = 2
				}
				if len(problems) != want || !strings.Contains(problems[0], r.refusal(a)) {
					t.Errorf("problems:\n%s\nwant %d, the first with …%s…\n%s", strings.Join(problems, "\n"), want, r.refusal(a), src)
				}
			})
		}
	}
}

// TestALockRegisteredByAUserIsParsedByItsTraits registers an algorithm the
// way a user adds their own lock, and the parser applies its traits with no
// other change. It runs in a child process: a registration lasts for the
// process, and the other tests (and testdata/bad) expect locksim's own
// algorithms only.
func TestALockRegisteredByAUserIsParsedByItsTraits(t *testing.T) {
	if os.Getenv("LOCKSIM_TEST_USER_LOCK") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestALockRegisteredByAUserIsParsedByItsTraits$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "LOCKSIM_TEST_USER_LOCK=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestALockRegisteredByAUserIsParsedByItsTraits/") {
			t.Fatalf("child test: %v\n%s", err, out)
		}
		return
	}
	clients.Register(clients.Algorithm{
		Name:  "user-fenced-lock",
		About: "a user's fenced lock (test)",
		New: func(clients.Config) (clients.Locker, error) {
			return nil, errors.New("not built in parser tests")
		},
		Traits: clients.Traits{Traits: lock.Traits{Fenced: true, SingleNode: true}},
	})
	t.Run("its name is accepted and fencing is allowed since it is fenced", func(t *testing.T) {
		if p := parseProblems(t, scenarioFor("user-fenced-lock", workload.Payment, "fencing: true", "")); p != nil {
			t.Errorf("refused: %q", p)
		}
	})
	t.Run("fencing messages name it among the fenced algorithms", func(t *testing.T) {
		p := parseProblems(t, scenarioFor("safe", workload.Payment, "fencing: true", ""))
		if len(p) != 1 || !strings.Contains(p[0], "needs algorithm fenced, redlock-fenced, watchdog-fenced, fenced-wait or user-fenced-lock (got safe)") {
			t.Errorf("problems = %q", p)
		}
	})
	t.Run("five nodes are refused since it locks a single node", func(t *testing.T) {
		p := parseProblems(t, scenarioFor("user-fenced-lock", workload.Payment, "", "nodes: 5\n"))
		if len(p) != 1 || !strings.Contains(p[0], "user-fenced-lock locks a single Redis node") {
			t.Errorf("problems = %q", p)
		}
	})
	t.Run("the parser lists it last, after locksim's own", func(t *testing.T) {
		if names := lock.Names(); !slices.Contains(names, "user-fenced-lock") || names[len(names)-1] != "user-fenced-lock" {
			t.Errorf("Names() = %q", names)
		}
	})
}
