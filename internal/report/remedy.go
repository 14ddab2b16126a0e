package report

import (
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// remedies says what would have prevented an anomaly, by the run's
// algorithm (its name, or a trait of it from the history header, or "" =
// any), anomaly kind ("" = any) and, when renewed is set, only for an
// anomaly whose cause says the holder's renewals kept the key
// (checker.Cause.Renewed), and, when cause is set, only for an anomaly of
// that cause (checker.Cause.Kind); the first matching row wins. Each
// advice is a message key "fix.*".
var remedies = []struct {
	algorithm, trait, kind string
	advice                 []string
	renewed                bool
	cause                  string
}{
	// The workload anomalies of issue 4 have one remedy each, whatever the
	// algorithm (lock-theory S18–S22).
	{"", "", checker.KindOversell, []string{"fix.lua.stock"}, false, ""},
	{"", "", checker.KindLostUpdate, []string{"fix.incr", "fix.fencing"}, false, ""},
	{"", "", checker.KindDuplicateRun, []string{"fix.cron"}, false, ""},
	{"", "", checker.KindSplitBrain, []string{"fix.epoch"}, false, ""},
	{"", "", checker.KindOverAdmission, []string{"fix.semaphore"}, false, ""},
	// A counter lost in a failover: durability on the old master would
	// not have reached the replica (S23, BR-20).
	{"", "", checker.KindTokenRegression, []string{"fix.wait.counter"}, false, account.EndFailover},
	{"", "", checker.KindTokenRegression, []string{"fix.durable.counter"}, false, ""},
	// A lock lost in a failover to a replica that lacked its key: a fence
	// counter on that master would have been lost with it
	// (failover-fence-regression); the grant must wait for a replica.
	{"", "", "", []string{"fix.wait.lock"}, false, account.EndFailover},
	// A restarted client's restore on start deleted a live lease: no
	// unlock script prevents that; restoring only what expired does
	// (kombu PR #905, BR-27).
	{"", "", checker.KindForeignUnlock, []string{"fix.restore.own"}, false, account.EndRestored},
	// A renewal that brought a lost lease back, or vouched for one: the
	// renewal must check the owner token and tell the holder
	// (redis-semaphore 5.3.1, #175; redlock-rb PR #37, BR-08).
	{"", "", checker.KindResurrectedLease, []string{"fix.refresh.owner", "fix.fencing"}, false, ""},
	{"", "", checker.KindHiddenLapse, []string{"fix.refresh.owner", "fix.fencing"}, false, ""},
	{"naive", "", checker.KindForeignUnlock, []string{"fix.safe", "fix.fencing"}, false, ""},
	{"naive", "", "", []string{"fix.safe", "fix.fencing", "fix.idempotency"}, false, ""},
	// SETNX then EXPIRE: the key without a TTL is the cause, whatever it
	// shows (a stuck lock, an orphaned lease, the lock unavailable).
	{"setnx-expire", "", "", []string{"fix.ttl.atomic"}, false, ""},
	{"", history.TraitMultiNode, "", []string{"fix.redlock", "fix.fencing", "fix.idempotency"}, false, ""},
	{"", history.TraitFenced, "", []string{"fix.enforce", "fix.idempotency"}, false, ""},
	{"", "", checker.KindDoubleEffect, []string{"fix.idempotency.charge", "fix.fencing"}, false, ""},
	{"", "", checker.KindForeignUnlock, []string{"fix.safe"}, false, ""},
	// A watchdog that renewed a lock nobody used: its TTL was not the
	// problem (BR-21, S15b).
	{"", "", checker.KindStuckLock, []string{"fix.renewal"}, true, ""},
	{"", "", checker.KindOrphanedLease, []string{"fix.renewal"}, true, ""},
	{"", "", checker.KindStuckLock, []string{"fix.ttl"}, false, ""},
	{"", "", checker.KindOrphanedLease, []string{"fix.orphan"}, false, ""},
	{"", "", checker.KindUnavailable, []string{"fix.unavailable"}, false, ""},
	{"", "", "", []string{"fix.fencing", "fix.idempotency", "fix.atomic"}, false, ""},
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
			if hasHarmless(in.Results, checker.HarmlessFencedOrder) {
				return &remedy{Saved: tr(lang, "fix.saved.fencing.order")}
			}
			return &remedy{Saved: tr(lang, "fix.saved.fencing")}
		}
		if in.Verdict == checker.Valid && h.CheckAndSet && hasInformational(in.Results, checker.KindMutexOverlap) {
			return &remedy{Saved: tr(lang, "fix.saved.cas")}
		}
		return nil
	}
	r := &remedy{}
	seen := map[string]bool{}
	kind := workload.Of(h)
	add := func(keys []string) {
		for _, k := range keys {
			if (k == "fix.idempotency" || k == "fix.idempotency.charge") && kind.Deduplicates == nil {
				continue // an idempotency key is the payment gateway's: no use to a counter, a stock, a job
			}
			if slices.Contains(kind.Unadvised, k) {
				continue // the workload says the advice does not fit it
			}
			if !seen[k] {
				seen[k] = true
				r.Advice = append(r.Advice, adviceText(lang, k, h.Workload))
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
	// Under check-and-set a stale write got through before the newer
	// holder stored its token: a fencing token would have let it through
	// too (lock-theory §7.2, §7.3), so the table's advice does not apply.
	if h.CheckAndSet {
		add([]string{"fix.cas.claim", "fix.idempotency.charge"})
		if f := in.FixedBy; f != nil && f.Name != h.Scenario {
			r.Fixed, r.FixedCmd = f.Name, "locksim run "+f.File
		}
		return r
	}
	// Over-admission: the advice follows what the nodes did (issue 27,
	// false statement 2). No permit purged: the semaphore ranked a caller
	// ahead of the holders — the basic one ranks by each caller's own
	// clock. A permit purged with no pause in the plan: the purge's
	// cut-off came from the purging client's clock. Only a purge after a
	// pause is fix.semaphore's story.
	for _, a := range anoms {
		if a.Kind != checker.KindOverAdmission || in.Account == nil {
			continue
		}
		purged := slices.ContainsFunc(in.Account.Members(), func(m account.MemberLife) bool { return m.Ended.Kind == account.EndPurged })
		paused := slices.ContainsFunc(h.Plan, func(st history.FaultStep) bool { return st.Effect == history.EffectFreezeClient })
		switch {
		case !purged:
			add([]string{"fix.semaphore.rank", "fix.fencing"})
		case !paused:
			add([]string{"fix.semaphore.clock"})
		default:
			add([]string{"fix.semaphore"})
		}
		if f := in.FixedBy; f != nil && f.Name != h.Scenario {
			r.Fixed, r.FixedCmd = f.Name, "locksim run "+f.File
		}
		return r
	}
	// An orphan kept alive by another client's extends: the extend, not
	// the TTL, is the fault (rq #1707, BR-25).
	for _, a := range anoms {
		if a.Kind == checker.KindOrphanedLease && a.Cause != nil && a.Cause.ExtendedBy != "" {
			add([]string{"fix.extend.owner"})
			break
		}
	}
	// The catch-all row speaks only when no anomaly has advice of its own.
	generic := len(remedies) - 1
	needGeneric := false
	for _, a := range anoms {
		if ak, ok := workload.AnomalyOf(a.Kind); ok && len(ak.Advice) > 0 {
			add(ak.Advice) // a workload's own kind has its own advice
			continue
		}
		for ri, row := range remedies {
			if (row.algorithm == "" || row.algorithm == h.Algorithm) && (row.trait == "" || slices.Contains(h.Traits, row.trait)) &&
				(row.kind == "" || row.kind == a.Kind) && (!row.renewed || (a.Cause != nil && a.Cause.Renewed > 0)) &&
				(row.cause == "" || (a.Cause != nil && a.Cause.Kind == row.cause)) {
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

// hasHarmless reports whether some checker reported an informational
// anomaly that did no harm for reason why (checker.Harmless*).
func hasHarmless(results []checker.Result, why string) bool {
	for _, a := range allAnomalies(results) {
		if a.Informational && a.Harmless == why {
			return true
		}
	}
	return false
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

// adviceText is advice k in lang, fitted to the run's workload where the
// advice names the protected resource: fencing names this run's resource
// (the counter, the stock, …), not a list of every workload's.
func adviceText(lang Lang, k, workload string) string {
	if k == "fix.fencing" {
		if _, ok := messages[English]["wl.resource."+workload]; ok {
			return tr(lang, "fix.fencing.wl", tr(lang, "wl.resource."+workload))
		}
	}
	return tr(lang, k)
}
