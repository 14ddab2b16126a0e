package report

import (
	"slices"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// remedies says what would have prevented an anomaly, by the run's
// algorithm (its name, or a trait of it from the history header, or "" =
// any) and anomaly kind ("" = any); the first matching row wins. Each
// advice is a message key "fix.*".
var remedies = []struct {
	algorithm, trait, kind string
	advice                 []string
}{
	// The workload anomalies of issue 4 have one remedy each, whatever the
	// algorithm (lock-theory S18–S22).
	{"", "", checker.KindOversell, []string{"fix.lua.stock"}},
	{"", "", checker.KindLostUpdate, []string{"fix.incr", "fix.fencing"}},
	{"", "", checker.KindDuplicateRun, []string{"fix.cron"}},
	{"", "", checker.KindSplitBrain, []string{"fix.epoch"}},
	{"", "", checker.KindOverAdmission, []string{"fix.semaphore"}},
	{"", "", checker.KindTokenRegression, []string{"fix.durable.counter"}},
	{"naive", "", checker.KindForeignUnlock, []string{"fix.safe", "fix.fencing"}},
	{"naive", "", "", []string{"fix.safe", "fix.fencing", "fix.idempotency"}},
	// SETNX then EXPIRE: the key without a TTL is the cause, whatever it
	// shows (a stuck lock, an orphaned lease, the lock unavailable).
	{"setnx-expire", "", "", []string{"fix.ttl.atomic"}},
	{"", history.TraitMultiNode, "", []string{"fix.redlock", "fix.fencing", "fix.idempotency"}},
	{"", history.TraitFenced, "", []string{"fix.enforce", "fix.idempotency"}},
	{"", "", checker.KindDoubleEffect, []string{"fix.idempotency.charge", "fix.fencing"}},
	{"", "", checker.KindForeignUnlock, []string{"fix.safe"}},
	{"", "", checker.KindStuckLock, []string{"fix.ttl"}},
	{"", "", checker.KindOrphanedLease, []string{"fix.orphan"}},
	{"", "", checker.KindUnavailable, []string{"fix.unavailable"}},
	{"", "", "", []string{"fix.fencing", "fix.idempotency", "fix.atomic"}},
}

// remedy is the "what would have prevented it" section.
type remedy struct {
	Advice   []string // sentences in lang
	Fixed    string   // fixed scenario's name (the scenario's fixed_by), "" when none
	FixedCmd string   // command that runs it
	Saved    string   // for a valid fenced run: what saved it
}

// buildRemedy chooses the advice for a run from the tables above; nil when
// the run had no (non-informational) anomaly and no fencing refusal.
func buildRemedy(in Input, lang Lang) *remedy {
	h := in.History.Header
	var anoms []checker.Anomaly
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational {
			anoms = append(anoms, a)
		}
	}
	if len(anoms) == 0 {
		if in.Verdict == checker.Valid && h.FencingEnforced && hasInformational(in.Results, checker.KindMutexOverlap) {
			return &remedy{Saved: tr(lang, "fix.saved.fencing")}
		}
		return nil
	}
	r := &remedy{}
	seen := map[string]bool{}
	add := func(keys []string) {
		for _, k := range keys {
			if (k == "fix.idempotency" || k == "fix.idempotency.charge") && h.Workload != history.WorkloadPayment {
				continue // an idempotency key is the payment gateway's: no use to a counter, a stock, a job
			}
			if !seen[k] {
				seen[k] = true
				r.Advice = append(r.Advice, tr(lang, k))
			}
		}
	}
	// A token issuer that went backwards is the root cause: checking the
	// tokens harder would not have helped (lock-theory S06b).
	for _, a := range anoms {
		if a.Kind == checker.KindTokenRegression {
			anoms = []checker.Anomaly{a}
			break
		}
	}
	// The catch-all row speaks only when no anomaly has advice of its own.
	generic := len(remedies) - 1
	needGeneric := false
	for _, a := range anoms {
		for ri, row := range remedies {
			if (row.algorithm == "" || row.algorithm == h.Algorithm) && (row.trait == "" || slices.Contains(h.Traits, row.trait)) &&
				(row.kind == "" || row.kind == a.Kind) {
				if ri == generic {
					needGeneric = true
				} else {
					add(row.advice)
				}
				break
			}
		}
	}
	if len(r.Advice) == 0 && needGeneric {
		add(remedies[generic].advice)
	}
	if f := in.FixedBy; f != nil && f.Name != h.Scenario {
		r.Fixed, r.FixedCmd = f.Name, "locksim run "+f.File
	}
	return r
}

// hasInformational reports whether some checker reported an informational
// anomaly of kind.
func hasInformational(results []checker.Result, kind string) bool {
	for _, a := range allAnomalies(results) {
		if a.Informational && a.Kind == kind {
			return true
		}
	}
	return false
}
