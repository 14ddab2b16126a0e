package verify_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// TestClaimsOfStoredRunsHold verifies the claims of the raw histories in
// testdata/runs (see the README there): catalogue runs in which a claim
// was once reported false, or left not checkable though the history
// decides it. Each file's entry names a claim the account must still make,
// so that the case keeps testing what it was kept for; decided says that
// claim must be checked and hold, not merely escape refusal.
func TestClaimsOfStoredRunsHold(t *testing.T) {
	cases := map[string]struct {
		about   string
		want    func(claim.Claim) bool
		decided bool
	}{
		"redislock-gc-pause-s62-obtain-script-met-the-key": {
			"w2's key set by its obtain script after one whose SET met w1's key (the script read it next) is released by w2",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w2" && c.Token == "B2M_HaK8Evdv8_kQPTfDTg" && c.How == "released"
			},
			true,
		},
		"redsync-happy-s7-set-after-own-orphans-deadline": {
			"w3's Redlock acquire, refused by w5's keys on n1–n3, took n5 with a SET NX 1.7 ms past the deadline of w3's own orphaned key there (its unlock script read its token and deleted it), which the replay cannot tell from the client's failed acquire",
			func(c claim.Claim) bool {
				return c.Kind == claim.Refusal && c.Client == "w3" && c.By == "w5" && c.Start == 1842455957
			},
			false,
		},
		"redlock-gc-pause-cas-s10-refused-set-at-deadline": {
			"w1's key on n1 expired: w2's SET NX 0.4 ms before its deadline did not take, as w2's compare-and-delete read the key next and deleted nothing",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w1" && c.Node == "n1" && c.How == "expired" && slices.Equal(c.Records, []int{1})
			},
			true,
		},
		"snapshot-lost-lock-s31-key-set-while-unobserved": {
			"w2's release removed the key w2 set while n1 was not recorded, which n1's dump shows with w2's token",
			func(c claim.Claim) bool {
				return c.Kind == claim.Release && c.Client == "w2" && c.By == "w2" && c.Token == "917ac737276ae354377525680f62e4e4"
			},
			true,
		},
		"power-loss-everysec-s32-crash-told-from-its-death": {
			"n1's power loss is told from its death (record 3's dead_from_ns to dead_to_ns), not from the harness's run-up and recovery",
			func(c claim.Claim) bool {
				return c.Kind == claim.Fault && c.Node == "n1" && c.Start == 75402504 && c.End == 135730609
			},
			true,
		},
		"fencing-random-nemesis-s1082-refused-before-node-stopped": {
			"w2's acquire was refused by w1's key, whose deadline passed while n1 was stopped and executed nothing until after the acquire ended",
			func(c claim.Claim) bool {
				return c.Kind == claim.Refusal && c.Client == "w2" && c.By == "w1" && c.Start == 60181152 && c.End == 98677326
			},
			true,
		},
		"fencing-random-nemesis-s1140-clock-script-after-timeout": {
			"w2's key on n1 ended by the clock: the clock step's shift script moved its deadline after the step had been recorded as failed",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w2" && c.Token == "225d5388785b2bf4a8b0cd531106fc04" && c.How == "clock"
			},
			true,
		},
		"fencing-random-nemesis-s1142-node-ran-through-stop-record": {
			"w1's acquire at 236.7 ms was refused by w3's key, set at 235.6 ms, not by w1's own key whose deadline had passed",
			func(c claim.Claim) bool {
				return c.Kind == claim.Refusal && c.Client == "w1" && c.By == "w3" && c.Start == 236651748
			},
			true,
		},
		"fencing-random-nemesis-s1001-stalled-script-took": {
			"w2's fenced acquire script that ran on n1's resume (record 270) set its key: the script went on to INCR the fence",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w2" && c.Token == "cf1a845d1f92cf38730aa1ba3bd769d6" && len(c.Records) > 0 && c.Records[0] == 270
			},
			true,
		},
		"fencing-random-nemesis-s1110-key-thawed-within-slack": {
			"w2's key on n1 (record 118), whose deadline passed while n1 was stopped, left 2.7 ms later when the freeze ended: thawed",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w2" && c.What == claim.Thawed && len(c.Records) > 0 && c.Records[0] == 118
			},
			true,
		},
		"fencing-random-nemesis-s1301-probe-set-at-script-deadline": {
			"the probe's key on invoice-2 was made by its SET NX at record 170, not by the one at record 167, which no INCR followed",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "probe" && c.Key == "invoice-2" && len(c.Records) > 0 && c.Records[0] == 170
			},
			true,
		},
		"fencing-random-nemesis-s1634-outage-began-with-orphan": {
			"invoice-6 was unavailable from w3's refused acquire at 140.8 ms, which w3's own orphaned key refused, to the probe's grant",
			func(c claim.Claim) bool {
				return c.Kind == claim.Anomaly && c.What == "unavailable" && c.Key == "invoice-6" && c.Start == 140768999
			},
			true,
		},
		"fencing-random-nemesis-s1157-refused-before-a-grant-completed": {
			"the lock was not unavailable from w2's refusal at 243.5 ms: w1's acquire, whose SET had run before it, was granted at 244.9 ms; the final probe's finding begins after that grant",
			func(c claim.Claim) bool {
				return c.Kind == claim.Anomaly && c.Key == "invoice-3" && c.Records[len(c.Records)-1] == 154
			},
			false,
		},
		"fencing-random-nemesis-s1057-script-took-before-deadline": {
			"the probe's key on invoice-7 was made by its SET NX at record 331, whose script's INCR followed, though w3's key set at 248.7 ms had 37 ms left by the run's clock",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "probe" && c.Key == "invoice-7" && len(c.Records) > 0 && c.Records[0] == 331
			},
			true,
		},
		"fencing-random-nemesis-s1074-node-records-flushed-late": {
			"the probe's key on invoice-1 was made by its SET NX at record 197, not by the one at record 192, 73 µs before w2's key's deadline, which the history lists before the probe ops of other keys",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "probe" && c.Key == "invoice-1" && len(c.Records) > 0 && c.Records[0] == 197
			},
			true,
		},
		"fencing-random-nemesis-s1166-script-stamped-after-stop": {
			"w2's second acquire made its key with the SET NX at record 332, whose script's INCR followed, though the key of its first, stalled acquire is stamped 1.9 ms before it (record 318, just after n1's stop ended)",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "w2" && c.Token == "d7b43def6e9ceb01d095ac73424d0d27" && len(c.Records) > 0 && c.Records[0] == 332
			},
			true,
		},
		"fencing-random-nemesis-s1005-next-try-begun-first": {
			"the next try after w1's exposure window is w2's acquire, invoked at 154.9 ms, the first begun after the window, not told at a later instant past w3's acquire invoked at 155.1 ms",
			func(c claim.Claim) bool {
				return c.Kind == claim.Exposure && c.Client == "w1" && c.NextTry != nil && c.NextTry.Client == "w2" && c.NextTry.At == 154906031
			},
			true,
		},
		"fencing-random-nemesis-s1011-lease-ended-by-clock-script": {
			"w1's exposure window begins with the DEL a node clock step's shift script ran on its key (the harness's, record 219), which is no contender's try",
			func(c claim.Claim) bool {
				return c.Kind == claim.Exposure && c.Client == "w1" && c.Start == 160818903
			},
			true,
		},
		"unlock-checks-owner-s30-release-kept-after-window-start": {
			"w2's key was kept for its minimum hold by its release, which began at the orphaned lease's window start; the release's PEXPIRE reached n1 7.8 ms later",
			func(c claim.Claim) bool {
				return c.Kind == claim.Anomaly && c.What == "orphaned-lease" && c.How == "kept" && c.Client == "w2" && c.Start == 1819829229
			},
			true,
		},
		"scheduler-heartbeat-foreign-queue-s25-probe-retried-at-deadline": {
			"the probe's key on leader-1 was made by its last SET NX (record 119), not by the one 4.8 ms before w1's key's deadline (record 118)",
			func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Client == "probe" && c.Key == "leader-1" && len(c.Records) > 0 && c.Records[0] == 119
			},
			false,
		},
	}
	files, err := filepath.Glob(filepath.Join("testdata", "runs", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stored run: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join("testdata", "runs", "README.md"))
	if err != nil {
		t.Fatalf("read the README: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		tc, ok := cases[name]
		t.Run(name+" says only true things", func(t *testing.T) {
			if !ok {
				t.Fatalf("%s has no entry in this test's table", name)
			}
			if !strings.Contains(string(readme), name+".jsonl") {
				t.Errorf("the README does not describe %s", name)
			}
			h, err := history.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cs := claimsOf(h)
			c, found := claim.Find(cs, tc.want)
			if !found {
				t.Errorf("the account no longer makes the claim the case is about: %s", tc.about)
			} else if one := verify.Verify(h, []claim.Claim{c}); tc.decided && one.Held != 1 {
				t.Errorf("%s is not decided (%v), though the history decides it: %s", c.ID, one.Unchecked, tc.about)
			}
			r := verify.Verify(h, cs)
			if len(r.Failures) > 0 {
				t.Errorf("%d of %d claims are false:%s", len(r.Failures), len(cs), describe(r))
			}
		})
	}
}
