package locksimtest

import (
	"strings"
	"testing"

	_ "github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/lock"
)

// builtin is a registered algorithm under another name, as a user's own
// lock would be.
func builtin(t *testing.T, name, as string) lock.Algorithm {
	t.Helper()
	a, ok := lock.Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	a.Name, a.About = as, "a copy of "+name+" registered by a test"
	return a
}

func TestAScenarioRunsWithTheGivenLockInsteadOfItsOwnAlgorithm(t *testing.T) {
	Scenario(t, "gc-pause.yaml", builtin(t, "safe", "safe-copy"))
}

func TestAShippedScenarioIsSubstitutedWithTheLocksNameOrRefusedWhereItsFieldsDoNotFit(t *testing.T) {
	plain := builtin(t, "safe", "plain-copy")
	single := plain
	single.Name, single.Traits.SingleNode = "single-copy", true
	fenced := builtin(t, "fenced", "fenced-copy")
	for _, a := range []lock.Algorithm{plain, single, fenced} {
		if err := ensure(a); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, file string
		a          lock.Algorithm
		refused    string // "" = accepted
	}{
		{"a plain lock takes a plain scenario", "gc-pause.yaml", plain, ""},
		{"a plain lock is refused a fenced resource", "gc-pause-fencing.yaml", plain, "workload.fencing"},
		{"a fenced lock takes a fenced resource", "gc-pause-fencing.yaml", fenced, ""},
		{"a single-node lock is refused five nodes", "redlock-gc-pause.yaml", single, "nodes"},
		{"a plain lock is refused a library block", "redislock-happy.yaml", plain, "library"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := load(tt.file, tt.a)
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refused == "" && sc.Algorithm != tt.a.Name:
				t.Fatalf("algorithm %q, want %q", sc.Algorithm, tt.a.Name)
			case tt.refused == "" && !strings.HasSuffix(sc.Name, "-"+tt.a.Name):
				t.Fatalf("name %q does not say the lock", sc.Name)
			case tt.refused != "" && err == nil:
				t.Fatalf("accepted; want %s refused", tt.refused)
			case tt.refused != "" && !strings.Contains(err.Error(), tt.refused):
				t.Fatalf("refused for another reason: %v", err)
			}
		})
	}
}

func TestTheCatalogueOfALockIsTheScenariosOfLocksimsOwnAlgorithmOfItsKind(t *testing.T) {
	tests := []struct {
		name   string
		traits lock.Traits
		want   string
	}{
		{"a plain lock is judged as safe", lock.Traits{}, "safe"},
		{"a fenced lock is judged as fenced", lock.Traits{Fenced: true}, "fenced"},
		{"a multi-node lock is judged as redlock", lock.Traits{MultiNode: true}, "redlock"},
		{"a fenced multi-node lock is judged as redlock-fenced", lock.Traits{MultiNode: true, Fenced: true}, "redlock-fenced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reference(tt.traits); got[0] != tt.want {
				t.Fatalf("reference %v, want %s first", got, tt.want)
			}
		})
	}
}
