package scenario

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/lock"
)

// unfairPairs are the shipped pairs known to differ in more than their fix
// (issue 34 lists them), each with the fields beyond it. The test fails
// when a pair not listed here differs beyond its fix, and when a listed
// pair no longer does (or differs otherwise): fix a pair, then take it
// off this list.
var unfairPairs = map[string][]string{
	// The crash point between SETNX and EXPIRE has no counterpart in one
	// SET … NX PX: the fix crashes 0.5 s into its job instead (a crash the
	// instant the grant returns races the client's record of it).
	"setnx-expire-crash.yaml": {"faults[0].delay", "faults[0].occurrence", "faults[0].point", "faults[0].when.client", "faults[0].when.event"},
	// Field pairs (no lesson page shows them as a lesson's pair yet).
	"scheduler-pid-heartbeat.yaml":  {"duration", "time_scale", "ttl"},
	"unlock-deletes-next-lock.yaml": {"duration", "min_hold", "time_scale", "ttl"},
}

// TestEveryPairDiffersInItsFixAlone: a broken scenario and its fixed_by
// differ only in fixFields (and in what names and judges them), so the
// lesson page's "what to change" is the whole change.
func TestEveryPairDiffersInItsFixAlone(t *testing.T) {
	var files []string
	for _, dir := range []string{"scenarios", "scenarios/field"} {
		fs, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		files = append(files, fs...)
	}
	seen := map[string]bool{}
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.FixedBy == "" {
			continue
		}
		name := filepath.Base(f)
		seen[name] = true
		t.Run(name+" and its fix "+s.FixedBy+" differ in the fix alone", func(t *testing.T) {
			fixed, err := Load(s.FixedByFile())
			if err != nil {
				t.Fatal(err)
			}
			beyond, err := BeyondFix(s, fixed)
			if err != nil {
				t.Fatal(err)
			}
			if want := unfairPairs[name]; !reflect.DeepEqual(beyond, want) {
				if len(want) == 0 {
					t.Errorf("differs beyond its fix in %s", strings.Join(beyond, ", "))
				} else {
					t.Errorf("differs beyond its fix in %v; unfairPairs lists %v (fixed? take it off the list)", beyond, want)
				}
			}
		})
	}
	for name := range unfairPairs {
		if !seen[name] {
			t.Errorf("unfairPairs lists %s, which is no broken scenario with a fixed_by", name)
		}
	}
}

// TestAnOperationalFixChangesOnlyTheFaultItMakesHarmless: the pair test
// lets a clock jump go, a clock rate come inside the drift allowance and
// a crashed node stay down past the TTL, and nothing more.
func TestAnOperationalFixChangesOnlyTheFaultItMakesHarmless(t *testing.T) {
	jump := map[string]string{"ttl": "10s", "faults[2].kind": "clock-jump", "faults[2].delta": "15s"}
	rate := func(r string) map[string]string {
		return map[string]string{"ttl": "10s", "faults[0].kind": "clock-rate", "faults[0].rate": r}
	}
	crash := func(d string) map[string]string {
		return map[string]string{"ttl": "10s", "faults[0].kind": "crash", "faults[0].restart_after": d}
	}
	for _, c := range []struct {
		name string
		path string
		a, b map[string]string
		want bool
	}{
		{"a clock jump the fix leaves out is its fix", "faults[2].delta", jump, map[string]string{"ttl": "10s"}, true},
		{"a clock jump the fix only shortens is not", "faults[2].delta", jump, map[string]string{"ttl": "10s", "faults[2].kind": "clock-jump", "faults[2].delta": "1s"}, false},
		{"a clock rate brought to 1.005 is the fix", "faults[0].rate", rate("1.5"), rate("1.005"), true},
		{"a clock rate brought to 0.995 is the fix", "faults[0].rate", rate("0.9"), rate("0.995"), true},
		{"a clock rate still 2 % off is not", "faults[0].rate", rate("1.5"), rate("1.02"), false},
		{"a restart after more than the TTL is the fix", "faults[0].restart_after", crash("300ms"), crash("11s"), true},
		{"a restart within the TTL is not", "faults[0].restart_after", crash("300ms"), crash("9s"), false},
		{"a field outside the faults is not", "workload.job", jump, map[string]string{"ttl": "10s"}, false},
		{"another field of a crash is not", "faults[0].nodes[0]", crash("300ms"), crash("11s"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := isOperationalFix(c.path, c.a, c.b); got != c.want {
				t.Errorf("isOperationalFix(%s) = %v, want %v", c.path, got, c.want)
			}
		})
	}
}

// TestAPairWhoseFixIsTheClockAssumptionIsAContrast: a pair that only
// leaves a clock jump out or brings a clock rate inside the drift
// allowance shows the clock assumption holding, not a fix; a delayed
// restart, a lock change beside the clock, or no difference at all is no
// such pair (issue 34 item 12).
func TestAPairWhoseFixIsTheClockAssumptionIsAContrast(t *testing.T) {
	jump := map[string]string{"ttl": "10s", "faults[2].kind": "clock-jump", "faults[2].delta": "15s"}
	rate := func(r string) map[string]string {
		return map[string]string{"ttl": "10s", "faults[0].kind": "clock-rate", "faults[0].rate": r}
	}
	crash := func(d string) map[string]string {
		return map[string]string{"ttl": "10s", "faults[0].kind": "crash", "faults[0].restart_after": d}
	}
	with := func(m map[string]string, k, v string) map[string]string {
		out := maps.Clone(m)
		out[k] = v
		return out
	}
	for _, c := range []struct {
		name          string
		a, b          map[string]string
		want, restart bool
	}{
		{"a clock jump left out is a contrast", jump, map[string]string{"ttl": "10s"}, true, false},
		{"a clock rate brought inside the allowance is a contrast", rate("1.5"), rate("1.005"), true, false},
		{"a clock rate left outside the allowance is not", rate("1.5"), rate("1.02"), false, false},
		{"a delayed restart is an operational contrast, not a clock one", crash("300ms"), crash("11s"), false, true},
		{"a restart still inside the TTL is neither", crash("300ms"), crash("5s"), false, false},
		{"a delayed restart beside a shorter job is neither", crash("300ms"), with(crash("11s"), "workload.job", "5s"), false, false},
		{"a clock jump left out beside a new algorithm is not", jump, map[string]string{"ttl": "10s", "algorithm": "redlock"}, false, false},
		{"two identical files are not", rate("1.5"), rate("1.5"), false, false},
		{"a clock rate brought inside beside a longer TTL is not", rate("1.5"), with(rate("1.005"), "ttl", "20s"), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ClockContrast(c.a, c.b); got != c.want {
				t.Errorf("ClockContrast = %v, want %v", got, c.want)
			}
			if got, want := DelayedRestart(c.a, c.b), c.restart; got != want {
				t.Errorf("DelayedRestart = %v, want %v", got, want)
			}
		})
	}
}

// TestAPairTeachesOneFixAndNoFlagBesideIt: a pair whose fix turns on two
// of the resource's checks (two fixes for two bugs: stalled-job's
// idempotency key and failure record) differs beyond its fix, and so
// does a process pair whose command changes a flag beside the library's
// version (redis-semaphore's --unhandled-rejections=warn).
func TestAPairTeachesOneFixAndNoFlagBesideIt(t *testing.T) {
	cmd := func(args ...string) map[string]string {
		m := map[string]string{"algorithm": "process"}
		for i, a := range args {
			m[fmt.Sprintf("process.command[%d]", i)] = a
		}
		return m
	}
	work := func(kv ...string) map[string]string {
		m := map[string]string{"algorithm": "watchdog"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, c := range []struct {
		name string
		a, b map[string]string
		want []string
	}{
		{"a fix that checks the failure record alone is one fix",
			work("workload.failure_record", "unchecked", "workload.idempotency", "true"),
			work("workload.failure_record", "token", "workload.idempotency", "true"), nil},
		{"a fix that also keys the charge is two",
			work("workload.failure_record", "unchecked"),
			work("workload.failure_record", "token", "workload.idempotency", "true"),
			[]string{"workload.failure_record", "workload.idempotency"}},
		{"fencing with its claim step is one fix",
			work(), work("workload.fencing", "true", "workload.claim", "true"), nil},
		{"a library's version alone is the fix",
			cmd("node", "--unhandled-rejections=warn", "semaphore.js", "3.2.1"),
			cmd("node", "--unhandled-rejections=warn", "semaphore.js", "4.1.0"), nil},
		{"a flag dropped beside the version is a second change",
			cmd("node", "--unhandled-rejections=warn", "semaphore.js", "3.2.1"),
			cmd("node", "semaphore.js", "4.1.0"),
			[]string{"process.command[1]", "process.command[2]", "process.command[3]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := beyondFields(c.a, c.b); !reflect.DeepEqual(got, c.want) {
				t.Errorf("beyond the fix: %v, want %v", got, c.want)
			}
		})
	}
}

// TestAWaitFixMeetsItsFailoverBeforeTheReplicaCatchesUp: a pair whose fix
// is WAIT 1 (safe-wait, fenced-wait) shows what WAIT saves only when its
// failover strikes both runs at one moment, while the replica is still cut
// off: a failover timed from w1's grant fires in the fixed run after WAIT
// has waited the lag out, where no WAIT was needed (lesson 46's
// failover-fence-wait, lesson 47's failover-wait).
func TestAWaitFixMeetsItsFailoverBeforeTheReplicaCatchesUp(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.yaml"))
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.FixedBy == "" {
			continue
		}
		fixed, err := Load(s.FixedByFile())
		if err != nil {
			t.Fatal(err)
		}
		if fixed.Algorithm != "safe-wait" && fixed.Algorithm != "fenced-wait" {
			continue
		}
		t.Run(filepath.Base(f)+"'s failover strikes before its replica catches up", func(t *testing.T) {
			b, err := Normalize(fixed)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Flatten(b)
			if err != nil {
				t.Fatal(err)
			}
			var lagEnd, failover time.Duration = -1, -1
			for i := 0; ; i++ {
				kind, ok := m[fmt.Sprintf("faults[%d].kind", i)]
				if !ok {
					break
				}
				at, err := time.ParseDuration(m[fmt.Sprintf("faults[%d].at", i)])
				switch {
				case kind == "replication-lag" && err == nil:
					d, err := time.ParseDuration(m[fmt.Sprintf("faults[%d].duration", i)])
					if err != nil {
						t.Fatalf("replication-lag without a duration: %v", err)
					}
					lagEnd = at + d
				case kind == "failover" && err == nil:
					failover = at
				case kind == "failover":
					t.Fatalf("the failover fires on a trigger (%v), not at a fixed time both runs share", err)
				}
			}
			if lagEnd < 0 || failover < 0 || failover >= lagEnd {
				t.Errorf("failover at %v, replication lag ends at %v: the failover must strike while the replica lags", failover, lagEnd)
			}
		})
	}
}

// TestAWaitFixsJobFitsInItsLeaseAfterWaitHasBlocked: WAIT blocks up to its
// timeout while the lease's TTL runs from the SET before it, so a WAIT fix
// is fair only when read + job fit in the TTL less that timeout. With a
// 50 s job under a 60 s TTL, failover-wait was invalid at 3 of 10 seeds:
// when w1 won the promoted master, its WAIT blocked 14 s until the old
// master came back as a replica, and its job outlived its lease (issue 34).
//
// WAIT's timeout, as the runner and the WAIT clients set it: three
// quarters of the command timeout (clients.waitLock), which is the
// scenario's node_timeout, else lock.DefaultCommandTimeout of the TTL in
// wall time (runner.opTimeout).
func TestAWaitFixsJobFitsInItsLeaseAfterWaitHasBlocked(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.yaml"))
	waits := []string{"safe-wait", "safe-wait-all", "fenced-wait"}
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.FixedBy == "" {
			continue
		}
		fixed, err := Load(s.FixedByFile())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(waits, fixed.Algorithm) || fixed.Expect.Verdict != "valid" {
			continue
		}
		t.Run(filepath.Base(s.FixedByFile())+"'s job fits in its lease after WAIT's timeout", func(t *testing.T) {
			scale := fixed.TimeScale
			if scale <= 0 {
				scale = 1
			}
			wall := func(d time.Duration) time.Duration { return time.Duration(float64(d) / scale) }
			op := lock.DefaultCommandTimeout(wall(fixed.TTL.D()))
			if fixed.NodeTimeout > 0 {
				op = wall(fixed.NodeTimeout.D())
			}
			wait := time.Duration(float64(max(op*3/4, time.Millisecond)) * scale)
			need := fixed.Workload.Read.D() + fixed.Workload.Job.D() + wait
			if need > fixed.TTL.D() {
				t.Errorf("read %v + job %v + WAIT's timeout %v = %v, past the %v TTL: a WAIT that blocks its whole timeout leaves the job outliving its lease",
					fixed.Workload.Read.D(), fixed.Workload.Job.D(), wait, need, fixed.TTL.D())
			}
		})
	}
}

// TestAFairLocksFixKeepsItFair: a pair whose broken side is a fair lock
// (fair-queue, fair-semaphore) teaches a fix of a fair lock, so its fix is
// a fair lock too; a plain lock beside it gives up what the broken lock
// promised and is a contrast (a lesson file's contrast:), never a
// fixed_by (issue 34: lesson 42's restarted-waiter pair was headed
// "fixed" beside a plain lock).
func TestAFairLocksFixKeepsItFair(t *testing.T) {
	var files []string
	for _, dir := range []string{"scenarios", "scenarios/field"} {
		fs, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		files = append(files, fs...)
	}
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.FixedBy == "" || !strings.HasPrefix(s.Algorithm, "fair-") {
			continue
		}
		t.Run(filepath.Base(f)+"'s fix "+s.FixedBy+" is a fair lock", func(t *testing.T) {
			fixed, err := Load(s.FixedByFile())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(fixed.Algorithm, "fair-") {
				t.Errorf("the fair lock %s is fixed by %s, which is no fair lock", s.Algorithm, fixed.Algorithm)
			}
		})
	}
}
