package scenario

// A lesson's pairs (issue 34): a broken scenario and its fix may differ in
// the fix alone. PairDiff and BeyondFix say whether they do; the pair
// tests hold every shipped pair to it.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// PairDiff is the fields (paths of the normalised YAML, as Flatten gives
// them) in which a broken scenario and its fix differ, besides what names
// and judges a run (name, description, lesson, seed, expect, fixed_by,
// the final probe), sorted. The error is a normalisation's.
func PairDiff(broken, fixed Scenario) ([]string, error) {
	read := func(s Scenario) (map[string]string, error) {
		b, err := Normalize(s)
		if err != nil {
			return nil, err
		}
		return Flatten(b)
	}
	a, err := read(broken)
	if err != nil {
		return nil, fmt.Errorf("pair diff: %s: %w", broken.Name, err)
	}
	b, err := read(fixed)
	if err != nil {
		return nil, fmt.Errorf("pair diff: %s: %w", fixed.Name, err)
	}
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
	return out, nil
}

// BeyondFix is the fields of a PairDiff that a fix may not change (see
// fixFields): empty when the pair differs in its fix alone, so a lesson
// page's "what to change" is the whole change (issue 34).
func BeyondFix(diff []string) []string {
	var out []string
	sameAlgorithm := !slices.Contains(diff, "algorithm")
	for _, p := range diff {
		if !isFixField(p, sameAlgorithm) {
			out = append(out, p)
		}
	}
	return out
}

// judged is a field that names a run or says what it should come out as,
// which a broken file and its fix differ in by nature (a lock-free fix
// has no final probe to take).
func judged(path string) bool {
	for _, p := range []string{"name", "description", "description_vi", "lesson", "seed", "expect", "expect_live", "min_acquires", "fixed_by", "probe", "probe_timeout"} {
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
