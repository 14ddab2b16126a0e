package scenario

// A lesson's pairs (issue 34): a broken scenario and its fix may differ in
// the fix alone. PairDiff and BeyondFix say whether they do; the pair
// tests hold every shipped pair to it.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// PairDiff is the fields (paths of the normalised YAML, as Flatten gives
// them) in which a broken scenario and its fix differ, besides what names
// and judges a run (name, description, lesson, seed, expect, fixed_by),
// sorted. The error is a normalisation's.
func PairDiff(broken, fixed Scenario) ([]string, error) {
	a, b, err := pairFields(broken, fixed)
	if err != nil {
		return nil, err
	}
	return fieldDiff(a, b), nil
}

// pairFields are a broken scenario's and its fix's fields, as Flatten
// gives them from the normalised YAML.
func pairFields(broken, fixed Scenario) (a, b map[string]string, err error) {
	read := func(s Scenario) (map[string]string, error) {
		b, err := Normalize(s)
		if err != nil {
			return nil, err
		}
		return Flatten(b)
	}
	if a, err = read(broken); err != nil {
		return nil, nil, fmt.Errorf("pair diff: %s: %w", broken.Name, err)
	}
	if b, err = read(fixed); err != nil {
		return nil, nil, fmt.Errorf("pair diff: %s: %w", fixed.Name, err)
	}
	return a, b, nil
}

// fieldDiff is PairDiff of two scenarios' fields.
func fieldDiff(a, b map[string]string) []string {
	var diff []string
	for k := range a {
		if a[k] != b[k] {
			diff = append(diff, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	var out []string
	for _, k := range diff {
		if !judged(k) {
			out = append(out, k)
		}
	}
	return out
}

// BeyondFix is the fields in which a broken scenario and its fix differ
// (PairDiff) that a fix may not change (see fixFields and
// isOperationalFix): empty when the pair differs in its fix alone, so a
// lesson page's "what to change" is the whole change (issue 34). The
// error is a normalisation's.
func BeyondFix(broken, fixed Scenario) ([]string, error) {
	a, b, err := pairFields(broken, fixed)
	if err != nil {
		return nil, err
	}
	return beyondFields(a, b), nil
}

// beyondFields is BeyondFix of two scenarios' fields (a the broken
// file's, b the fix's), sorted. Besides the fields no fix may change, it
// holds a process command's arguments other than the last (the library's
// version: a flag that changes with it is a second change) and, when the
// pair changes more than one of the resource's checks (two fixes for two
// bugs), every field of those checks: a pair teaches one fix.
func beyondFields(a, b map[string]string) []string {
	diff := fieldDiff(a, b)
	var out []string
	sameAlgorithm := !slices.Contains(diff, "algorithm")
	var checks []string
	for _, p := range diff {
		if c := resourceCheck(p); c != "" && !slices.Contains(checks, c) {
			checks = append(checks, c)
		}
	}
	for _, p := range diff {
		switch {
		case strings.HasPrefix(p, "process.command["):
			if !isVersionArgument(p, a, b) {
				out = append(out, p)
			}
		case len(checks) > 1 && resourceCheck(p) != "":
			out = append(out, p)
		case !isFixField(p, sameAlgorithm) && !isOperationalFix(p, a, b):
			out = append(out, p)
		}
	}
	return out
}

// resourceChecks are the resource's checks a fix may turn on, one per
// pair (the claim step belongs to the fencing or check-and-set it serves).
var resourceChecks = []string{"workload.fencing", "workload.check_and_set", "workload.epoch_check", "workload.idempotency",
	"workload.lock_per_fire", "workload.singleton", "workload.failure_record"}

// resourceCheck is the resource check path belongs to ("" for none).
func resourceCheck(path string) string {
	if i := slices.IndexFunc(resourceChecks, func(c string) bool {
		return path == c || strings.HasPrefix(path, c+".")
	}); i >= 0 {
		return resourceChecks[i]
	}
	return ""
}

// isVersionArgument tells whether path is the last argument of a process
// command both files run with as many arguments: the library version an
// adapter takes (semaphore.js 3.2.1 against 4.1.0).
func isVersionArgument(path string, a, b map[string]string) bool {
	count := func(m map[string]string) int {
		n := 0
		for k := range m {
			if strings.HasPrefix(k, "process.command[") {
				n++
			}
		}
		return n
	}
	n := count(a)
	return n > 0 && n == count(b) && path == fmt.Sprintf("process.command[%d]", n-1)
}

// faultIndex splits a fault field's path (faults[2].delta) into the
// fault's path (faults[2]) and the field (delta); ok false for a path
// outside faults.
func faultIndex(path string) (fault, field string, ok bool) {
	if !strings.HasPrefix(path, "faults[") {
		return "", "", false
	}
	i := strings.Index(path, "]")
	if i < 0 {
		return "", "", false
	}
	return path[:i+1], strings.TrimPrefix(path[i+1:], "."), true
}

// isOperationalFix tells whether path is a fault field an operator's fix
// changes, where the fix is how the nodes are run rather than the lock
// (antirez's answers to Kleppmann, lesson 47): a clock jump the fix leaves
// out (clocks slewed, never stepped; the fix's fault list has no fault at
// that place), a clock rate brought inside Redlock's 1 % drift allowance,
// and a crashed node kept down longer than the TTL before it restarts
// (delayed restart). a and b are the broken file's fields and the fix's.
func isOperationalFix(path string, a, b map[string]string) bool {
	fault, field, ok := faultIndex(path)
	if !ok {
		return false
	}
	kind := a[fault+".kind"]
	switch {
	case kind == "clock-jump":
		_, fixHasIt := b[fault+".kind"]
		return !fixHasIt
	case kind == "clock-rate" && field == "rate" && b[fault+".kind"] == "clock-rate":
		r, err := strconv.ParseFloat(b[path], 64)
		return err == nil && r >= 0.99 && r <= 1.01
	case kind == "crash" && field == "restart_after" && b[fault+".kind"] == "crash":
		down, err := time.ParseDuration(b[path])
		ttl, err2 := time.ParseDuration(b["ttl"])
		return err == nil && err2 == nil && down > ttl
	}
	return false
}

// ClockContrast tells whether a broken scenario's fields a and its fix's
// b (as Flatten gives them) differ in nothing but a clock fault the fix
// leaves out (a clock jump) or brings inside Redlock's 1 % drift
// allowance (a clock rate): the "fix" is the clock assumption holding,
// not a change anyone makes to the lock or its nodes, so a lesson page
// shows its run as a contrast (issue 34). A delayed restart is
// DelayedRestart.
func ClockContrast(a, b map[string]string) bool {
	return onlyOperational(a, b, "clock-jump", "clock-rate")
}

// DelayedRestart tells whether a broken scenario's fields a and its fix's
// b differ in nothing but a crashed node kept down longer than the TTL
// before it restarts: antirez's delayed restart, an answer of how the
// nodes are operated in the same class as clocks that never jump, not a
// change to the lock, so a lesson page shows its run as a contrast too
// (lesson 47; issue 34).
func DelayedRestart(a, b map[string]string) bool {
	return onlyOperational(a, b, "crash")
}

// onlyOperational tells whether a and b differ in nothing but operational
// fixes (isOperationalFix) of faults of the given kinds.
func onlyOperational(a, b map[string]string, kinds ...string) bool {
	diff := fieldDiff(a, b)
	for _, p := range diff {
		fault, _, ok := faultIndex(p)
		if !ok {
			return false
		}
		if !slices.Contains(kinds, a[fault+".kind"]) || !isOperationalFix(p, a, b) {
			return false
		}
	}
	return len(diff) > 0
}

// judged is a field that names a run or says what it should come out as,
// which a broken file and its fix differ in by nature. The final probe is
// not one: a lock-free fix takes none, so its broken twin goes without one
// too, or its page's diff shows probe: true → false beside the fix (issue
// 34, inventory-oversell).
func judged(path string) bool {
	for _, p := range []string{"name", "description", "description_vi", "lesson", "seed", "expect", "expect_live", "min_acquires", "fixed_by", "probe_timeout"} {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}

// fixFields are the fields a fix may change (issue 34, "a pair's files
// differ in the fix alone"): the lock (its algorithm, the library or
// process that implements it, its drift factor), the resource's checks
// (fencing, claim-first, check-and-set, the leader epoch, idempotency key,
// lock per fire time, a singleton worker, the failure record's check), and the nodes'
// persistence. Anything else — durations, timings, faults, the job — is a
// second change that the pair's page would credit to the fix.
var fixFields = []string{"algorithm", "library", "process", "persistence", "node_persistence", "save_interval",
	"workload.fencing", "workload.claim", "workload.check_and_set", "workload.epoch_check",
	"workload.idempotency", "workload.lock_per_fire", "workload.singleton", "workload.failure_record"}

// isFixField tells whether a pair may differ in path: one of fixFields;
// a worker restart's restore mode (what the restarted worker's own code
// re-queues, faults[i].restore); or, in a pair whose lock is the same
// algorithm, its TTL (the fix is the lease's length).
func isFixField(path string, sameAlgorithm bool) bool {
	if sameAlgorithm && path == "ttl" {
		return true
	}
	if strings.HasPrefix(path, "faults[") && strings.HasSuffix(path, "].restore") {
		return true
	}
	return slices.ContainsFunc(fixFields, func(f string) bool {
		return path == f || strings.HasPrefix(path, f+".") || strings.HasPrefix(path, f+"[")
	})
}
