package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/why"
	"github.com/locksim/locksim/internal/workload"
)

// remedies says what would have prevented an anomaly: the first row
// that matches the anomaly and whose premises hold gives its advice. A
// row matches by the run's algorithm (its name, or a trait of it from the
// history header; "" = any), the anomaly's kind ("" = any), and, when
// renewed is set, only an anomaly whose cause says the holder's renewals
// kept the key (checker.Cause.Renewed), when cause is set, only an
// anomaly of that cause (checker.Cause.Kind). Its premises (pre) are
// facts of the run as claims (premise). Each advice is a message key
// "fix.*", offered only where its own premises (offers) hold.
var remedies = []struct {
	algorithm, trait, kind string
	advice                 []string
	renewed                bool
	cause                  string
	pre                    []premise
}{
	// The workload anomalies of issue 4 have one remedy each, whatever the
	// algorithm (lock-theory S18–S22).
	{"", "", checker.KindOversell, []string{"fix.lua.stock"}, false, "", nil},
	{"", "", checker.KindLostUpdate, []string{"fix.incr", "fix.fencing"}, false, "", nil},
	{"", "", checker.KindDuplicateRun, []string{"fix.cron"}, false, "", nil},
	{"", "", checker.KindSplitBrain, []string{"fix.epoch"}, false, "", nil},
	// A superseded run's failure record (Bull's failedReason) written over
	// the newer run's record: only that write was unchecked, so the advice
	// is to check it by the lock's token as the completion is, and a fence
	// would guard the job store, not the gateway (bull #1416, BR-23).
	{"", "", checker.KindStaleWriteAccepted, []string{"fix.record.token", "fix.fencing"}, false, "", []premise{recordAccepted}},
	// Over-admission: the advice follows what the nodes did (issue 27,
	// false statement 2). No permit purged: the semaphore ranked a caller
	// ahead of the holders — the basic one ranks by each caller's own
	// clock. A permit purged: the purging client's clock (no pause) or
	// the paused holder's story (offers).
	{"", "", checker.KindOverAdmission, []string{"fix.semaphore.rank", "fix.fencing"}, false, "", []premise{noPurge}},
	{"", "", checker.KindOverAdmission, []string{"fix.semaphore.clock", "fix.semaphore"}, false, "", nil},
	// An orphan kept alive by another client's extends: the extend, not
	// the TTL, is the fault (rq #1707, BR-25).
	{"", "", checker.KindOrphanedLease, []string{"fix.extend.owner", "fix.renewal"}, true, "", []premise{extendedByOther}},
	// Not a shorter TTL: the extends, not the TTL, kept the key past it
	// (scheduler-heartbeat-foreign-queue: 29 s on a 10 s TTL).
	{"", "", checker.KindOrphanedLease, []string{"fix.extend.owner"}, false, "", []premise{extendedByOther}},
	// A counter lost in a failover: durability on the old master would
	// not have reached the replica (S23, BR-20).
	{"", "", checker.KindTokenRegression, []string{"fix.wait.counter"}, false, account.EndFailover, nil},
	{"", "", checker.KindTokenRegression, []string{"fix.durable.counter"}, false, "", nil},
	// A lock lost in a failover to a replica that lacked its key: a fence
	// counter on that master would have been lost with it
	// (failover-fence-regression); the grant must wait for a replica.
	{"", "", "", []string{"fix.wait.lock"}, false, account.EndFailover, nil},
	// A restarted client's restore on start deleted a live lease: no
	// unlock script prevents that; restoring only what expired does
	// (kombu PR #905, BR-27).
	{"", "", checker.KindForeignUnlock, []string{"fix.restore.own"}, false, account.EndRestored, nil},
	// A renewal that brought a lost lease back, or vouched for one: the
	// renewal must check the owner token and tell the holder
	// (redis-semaphore 5.3.1, #175; redlock-rb PR #37, BR-08).
	{"", "", checker.KindResurrectedLease, []string{"fix.refresh.owner", "fix.fencing"}, false, "", nil},
	{"", "", checker.KindHiddenLapse, []string{"fix.refresh.owner", "fix.fencing"}, false, "", nil},
	{"naive", "", checker.KindForeignUnlock, []string{"fix.safe", "fix.fencing"}, false, "", nil},
	{"naive", "", "", []string{"fix.safe", "fix.fencing", "fix.idempotency"}, false, "", nil},
	// SETNX then EXPIRE: the key without a TTL is the cause, whatever it
	// shows (a stuck lock, an orphaned lease, the lock unavailable).
	{"setnx-expire", "", "", []string{"fix.ttl.atomic"}, false, "", nil},
	// A fenced Redlock whose stale holder got the higher token (taken
	// after the grant): the run had tokens; where the token is issued is
	// the fault (redlock-gc-pause-fenced-token-late; issue 27).
	{"redlock-fenced", "", "", []string{"fix.token.grant"}, false, "", []premise{tokenLate}},
	{"", history.TraitMultiNode, "", []string{"fix.redlock", "fix.fencing", "fix.idempotency"}, false, "", nil},
	{"", history.TraitFenced, "", []string{"fix.enforce", "fix.idempotency"}, false, "", nil},
	{"", "", checker.KindDoubleEffect, []string{"fix.idempotency.charge", "fix.fencing"}, false, "", nil},
	{"", "", checker.KindForeignUnlock, []string{"fix.safe"}, false, "", nil},
	// A watchdog that renewed a lock nobody used: its TTL was not the
	// problem (BR-21, S15b).
	{"", "", checker.KindStuckLock, []string{"fix.renewal"}, true, "", nil},
	{"", "", checker.KindOrphanedLease, []string{"fix.renewal"}, true, "", nil},
	{"", "", checker.KindStuckLock, []string{"fix.ttl"}, false, "", nil},
	{"", "", checker.KindOrphanedLease, []string{"fix.orphan"}, false, "", nil},
	{"", "", checker.KindUnavailable, []string{"fix.unavailable"}, false, "", nil},
	{"", "", "", []string{"fix.fencing", "fix.idempotency", "fix.atomic"}, false, "", nil},
}

// offers are the remedies whose words rest on a fact of the run beyond
// the anomaly they remedy: advice k is offered as the first of offers[k]
// whose premises all hold, and not at all when none does. Advice not
// listed rests on its anomaly alone.
var offers = map[string][]offer{
	// Fencing relies on a counter that only grows: where the run's crash
	// lost the writes of the node that would keep it, the counter would
	// have gone back with them (issue 27, false statement 8).
	// A token that only grows admits one holder at a time: for a
	// semaphore of more than one permit it would refuse the legitimate
	// holders below the highest token and admit the over-admitted one
	// (semaphore-basic-clock-skew), so it is not offered there.
	"fix.fencing": {{"fix.fencing", []premise{counterKept, onePermit}}, {"fix.fencing.counter", []premise{counterLost, onePermit}}},
	// A purged permit's story: a pause of its holder; with no pause in
	// the run, the purging client's clock ahead of the holder's (issue 27,
	// false statement 2), or else a holder inside longer than the timeout.
	"fix.semaphore":       {{"fix.semaphore", []premise{purgedPaused}}},
	"fix.semaphore.clock": {{"fix.semaphore.clock", []premise{purgedBySkew, noPause}}, {"fix.semaphore.slow", []premise{purged, noPause}}},
	"fix.semaphore.rank":  {{"fix.semaphore.rank", []premise{noPurge}}},
	// One lock per fire time is advice only for a run without it; with
	// it, the schedulers' clock spread against the TTL is the story
	// (issue 27, false statement 10).
	// Schedulers that each locked a key of their own (named after the
	// host's release directory) ran together whatever they released or
	// their clocks said: the lock's name is the story (reader 15,
	// lock-key-per-host: "never released early, or lockAtLeastFor ≥ …"
	// of a run with neither).
	"fix.cron": {{"fix.cron.key", []premise{keysPerHost}}, {"fix.cron", []premise{notLockPerFire}}, {"fix.cron.skew", []premise{lockPerFire, skewPastTTL}}},
	// WAIT 1 is advice only for a holder that did not WAIT; one that
	// waited for fewer replicas than its master had is told to wait for
	// all, and that WAIT still does not make Redis strongly consistent
	// (failover-wait-two-replicas). A holder that waited for every replica
	// gets no WAIT advice.
	"fix.wait.lock": {{"fix.wait.lock", []premise{noWait}}, {"fix.wait.all", []premise{waitedFewer}}},
	// The same for a fence counter that went backwards in a failover: the
	// grant whose INCR the promoted replica lacked is the one told.
	"fix.wait.counter": {{"fix.wait.counter", []premise{grantNoWait}}, {"fix.wait.counter.all", []premise{grantWaitedFewer}}},
	// A token checked by the resource alone refuses only a stale write
	// that reaches it after a newer holder's: advice that offers it alone
	// ("add a fencing token", "or fence the writes") is offered only
	// where some stale write did (an overlap's Fenceable writes); else its
	// claim-first wording (fix.fencing) speaks for fencing.
	// A Redlock node that restarted empty under a holder's lock is the
	// spec's crash-recovery case (redis.io distlock §"Performance, crash
	// recovery and fsync"), not clocks and timing: its remedy is to
	// persist or to delay the restart past the TTL (a fresh reader, A1).
	// A client that used a lease its own acquire had outlasted skipped
	// the spec's validity check, which refuses it: that, not clocks and
	// timing, is what its run shows (teacher 7, F21).
	"fix.redlock": {{"fix.redlock.restart", []premise{keyLostInCrash}}, {"fix.redlock.nocheck", []premise{grantedPastValidity}},
		{"fix.redlock", []premise{staleAfterFresh}}, {"fix.redlock.claim", nil}},
	"fix.incr": {{"fix.incr", []premise{staleAfterFresh}}, {"fix.incr.atomic", nil}},
	// What blocked the lock says what to do (a fresh reader, F3): a
	// waiter's entry at the head of the lock's queue while its key was
	// free; else, on several nodes, an orphaned key or a lost quorum; on
	// one node, an orphaned key (no quorum to lose).
	// A key kept past its lease by others' extends did not last "until
	// its TTL" (reader 7, F10).
	// A client refused inside its own process while no key stood: no
	// orphaned key and no TTL held it (reader 15, local-lock-left-held).
	"fix.unavailable": {{"fix.unavailable.local", []premise{refusedInProcess}}, {"fix.unavailable.queue", []premise{queueBlocked}}, {"fix.unavailable.kept", []premise{keptByOthers}},
		{"fix.unavailable", []premise{multiNode}}, {"fix.unavailable.key", nil}},
	// An owner-checked extend: another client's extends kept the key.
	"fix.extend.owner": {{"fix.extend.owner", []premise{extendedByOther}}},
	// Check-and-set's stale write: one that reached the resource before
	// the newer holder's claim (a fencing token would have taken it too),
	// or one after the newer holder's use (an overlap's Fenceable
	// writes), which only a late claim of the stale holder, putting its
	// token back as currlock, lets through: a token issued with the grant
	// would have refused it (redlock-gc-pause-cas-stale-claim).
	// An idempotency key refuses a second charge of an invoice: told so
	// where one was sent; where none was, only as what it would have done
	// had both overlapping holders charged, never as if a second charge
	// had happened (reader 11, server-clock-step-watchdog); with neither a
	// second charge nor an overlap it is not offered.
	"fix.idempotency": {{"fix.idempotency", []premise{secondCharge}}, {"fix.idempotency.overlap", []premise{noSecondCharge, overlapped}}},
	"fix.cas.claim":   {{"fix.cas.claim", []premise{staleBeforeFresh}}, {"fix.cas.stale-claim", []premise{staleAfterFresh}}},
}

// offer is one way a remedy is worded: its message key and the premises
// under which its words are true.
type offer struct {
	key string
	pre []premise
}

// Advice is one remedy a report offers (results.json `advice`): its
// message key, the arguments of its words, and the ids of the claims its
// premises and the anomalies it remedies rest on.
type Advice struct {
	Key    string   `json:"key"`
	Args   []any    `json:"args,omitempty"` // strings, and spans (written in English)
	Claims []string `json:"claims"`
	// Only are the kinds of the findings it was offered for (their
	// labels: "token-regression.repeated"), when they
	// leave out the headline's (leadFirst); empty when it was offered for
	// the headline's finding. It says what the advice was offered for,
	// never that it would not have prevented the headline's harm: that
	// only an experiment can show (reader 11: "not “charged more than
	// once”" where the tried fix was valid).
	Only []string `json:"only,omitempty"`
}

// adviceRow is one rendered remedy: its words and its claims' ids
// (data-claim, space-separated).
type adviceRow struct {
	Text, Claim string
}

// remedy is the "what would have prevented it" section.
type remedy struct {
	Advice   []adviceRow // in lang
	Fixed    string      // fixed scenario's name (the scenario's fixed_by), "" when none
	FixedCmd string      // command that runs it
	// FixedKey is the message that names it: "the same fault, made
	// harmless" only when it has the run's faults (fixedKey).
	FixedKey string
	// FixedFaults are, for a fix whose experiment ran it with faults of
	// its own that its claim names (the run's without some steps, some
	// changed), those faults: FixedKey "fix.fixed.own.as" names them.
	FixedFaults string
	// FixedWhy is, for a fix tried with this run's seed whose run proves
	// nothing (FixedKey "fix.fixed.spoiled"), why it proves nothing.
	FixedWhy string
	// FixedWith is, for FixedKey "fix.fixed.untried" or
	// "fix.fixed.spoiled", what the fix keeps and changes (fixWith).
	FixedWith string
	Saved     string // for a valid fenced run: what saved it
	// SavedClaim are the ids of the claims Saved renders: the overlap the
	// checker found harmless and the stale writes the resource refused.
	SavedClaim string
}

// fixedText is the sentence that names the fixed_by scenario, as the
// page renders it (FixedKey with its arguments).
func (r *remedy) fixedText(lang Lang) string {
	switch {
	case r.FixedFaults != "":
		return tr(lang, r.FixedKey, r.Fixed, r.FixedFaults)
	case r.FixedKey == "fix.fixed.untried":
		return tr(lang, r.FixedKey, r.Fixed, r.FixedWith)
	case r.FixedKey == "fix.fixed.spoiled":
		return tr(lang, r.FixedKey, r.Fixed, r.FixedWhy, r.FixedWith)
	case r.FixedWhy != "":
		return tr(lang, r.FixedKey, r.Fixed, r.FixedWhy)
	}
	return tr(lang, r.FixedKey, r.Fixed)
}

// Texts are the advice's words.
func (r *remedy) Texts() []string {
	var out []string
	for _, a := range r.Advice {
		out = append(out, a.Text)
	}
	return out
}

// buildRemedy is the remedy of a run whose claims are not at hand: they
// are made as results.json makes them.
func buildRemedy(in Input, lang Lang) *remedy {
	return remedyOf(in, lang, runClaims(in, newModel(in.History, in.Account)))
}

// remedyOf words the run's advice (adviceOf; cs are its numbered claims)
// in lang; nil when the run had no (non-informational) anomaly and no
// fencing refusal.
func remedyOf(in Input, lang Lang, cs []claim.Claim) *remedy {
	h := in.History.Header
	advice, any := adviceOf(in, cs)
	if !any {
		return savedBy(in, lang, cs)
	}
	r := &remedy{}
	for _, a := range advice {
		r.Advice = append(r.Advice, adviceRow{Text: adviceText(lang, a, h), Claim: strings.Join(a.Claims, " ")})
	}
	if f := in.FixedBy; f != nil && f.Name != h.Scenario {
		r.Fixed, r.FixedCmd, r.FixedKey = f.Name, "locksim run "+f.File, fixedKey(in, cs)
		switch r.FixedKey {
		case "fix.fixed.spoiled":
			r.FixedWhy = fixSpoiled(lang, in)
		case "fix.fixed.info":
			r.FixedWhy = fixInfoKinds(lang, in)
		}
		r.FixedWith = fixWith(lang, in)
	}
	return r
}

// fixedKey is the message naming the run's fixed_by scenario: what it
// is when it is no fix (Fixed.Side: a control, a contrast), else "the
// same fault, made harmless" only when it has the run's faults — as its
// experiment ran it (why.FixedBy) or, without one, as Analyse found its
// file (Fixed.Faults) — and its experiment, if it ran, was not invalid
// (one that still showed some of the run's kinds is a partial fix, one
// that showed them all no fix of them: fixOutcome); a fix with faults of
// its own (why.FixedByOwn, FaultsOwn) is named as such, and one not known
// either way plainly. cs are the run's claims.
func fixedKey(in Input, cs []claim.Claim) string {
	if s := in.FixedBy.Side; s != "" {
		return "fix." + s
	}
	faults := in.FixedBy.Faults
	for _, c := range in.Counterfactuals {
		switch c.Change {
		case why.FixedBy:
			faults = FaultsSame
		case why.FixedByOwn:
			faults = FaultsOwn
		}
	}
	switch faults {
	case FaultsSame:
		e, ok := fixClaim(cs)
		switch {
		case ok && e.How == string(checker.Invalid):
			if gone, _ := fixKinds(in, e); len(gone) > 0 {
				return "fix.fixed.partial"
			}
			return "fix.fixed.invalid"
		case ok && e.How == string(checker.Unknown):
			// Tried with this run's seed, and that run proves nothing
			// (reader 14: "not tried" of a fix whose run the machine
			// spoiled).
			return "fix.fixed.spoiled"
		case !ok || e.How != string(checker.Valid):
			// Not tried with this run's seed (a run with no fault has
			// no experiment): what it changes, not that it made the
			// fault harmless (reader 10, finding 3).
			return "fix.fixed.untried"
		}
		if fixInfo(in) != nil {
			// Valid, yet not untouched: a bounded orphan, a skipped fire
			// the checkers judged harmless (reader 17: "made harmless" of
			// a fix whose run still skipped job@2).
			return "fix.fixed.info"
		}
		return "fix.fixed"
	case FaultsOwn:
		return "fix.fixed.own"
	}
	return "fix.fixed.named"
}

// fixInfoKinds names the informational findings of the run's fix, tried
// with this run's seed and valid ("" when it had none): what its valid
// run still showed, judged harmless.
func fixInfoKinds(lang Lang, in Input) string {
	c := fixInfo(in)
	if c == nil {
		return ""
	}
	var words []string
	for _, k := range c.InfoKinds {
		if w := kindWord(lang, k); !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return joinAnd(lang, words)
}

// fixInfo is the run's fix experiment, tried with this run's seed, that
// came out valid with informational findings; nil when there is none.
func fixInfo(in Input) *why.Counterfactual {
	for i, c := range in.Counterfactuals {
		if c.Change == why.FixedBy && c.Verdict == checker.Valid && len(c.InfoKinds) > 0 {
			return &in.Counterfactuals[i]
		}
	}
	return nil
}

// fixSpoiled is why the run's fix, tried with this run's seed, proves
// nothing: its experiment's Spoiled cause in words, or that it came out
// unknown when no cause was recorded.
func fixSpoiled(lang Lang, in Input) string {
	for _, c := range in.Counterfactuals {
		if (c.Change != why.FixedBy && c.Change != why.FixedByOwn) || c.Verdict != checker.Unknown {
			continue
		}
		if _, ok := messages[English]["fix.spoiled."+c.Spoiled]; ok && c.Spoiled != "" {
			return tr(lang, "fix.spoiled."+c.Spoiled)
		}
	}
	return tr(lang, "fix.spoiled.unknown")
}

// fixClaim is the Experiment claim of the run's fixed_by scenario run
// with the same seed (why.FixedBy or why.FixedByOwn), if one was decided.
func fixClaim(cs []claim.Claim) (claim.Claim, bool) {
	return claim.Find(cs, func(e claim.Claim) bool {
		return e.Kind == claim.Experiment && (e.What == string(why.FixedBy) || e.What == string(why.FixedByOwn))
	})
}

// fixKinds splits the run's violation kinds by its fix's experiment e (its
// claim's Kinds): gone are the run's kinds e did not show, left the kinds
// e showed. A partial fix has both (redis-semaphore 5.3.1: no double
// charge, still two holders at once).
func fixKinds(in Input, e claim.Claim) (gone, left []string) {
	for _, k := range ViolationKinds(allAnomalies(in.Results)) {
		if !slices.Contains(e.Kinds, k) {
			gone = append(gone, k)
		}
	}
	return gone, e.Kinds
}

// savedBy is the section of a valid run whose lock broke but whose
// resource kept it whole (a fencing token, a check-and-set), rendered from
// its claims: the overlap a checker found harmless (claim.Anomaly) and
// each stale write the resource refused (claim.Op); nil for any other run.
func savedBy(in Input, lang Lang, cs []claim.Claim) *remedy {
	h := in.History.Header
	if in.Verdict != checker.Valid || !h.FencingEnforced && !h.CheckAndSet {
		return nil
	}
	var ids []string
	for i, a := range allAnomalies(in.Results) {
		if a.Informational && a.Kind == checker.KindMutexOverlap {
			ids = append(ids, nthClaim(cs, claim.Anomaly, i))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	refusal := history.RefusalStaleFence
	if !h.FencingEnforced {
		refusal = history.RefusalLockChanged
	}
	for _, c := range cs {
		if c.Kind == claim.Op && c.What == string(history.Write) && c.How == string(history.Fail) && c.Refusal == refusal {
			ids = append(ids, c.ID)
		}
	}
	key := "fix.saved.cas"
	switch {
	case h.FencingEnforced && hasHarmless(in.Results, checker.HarmlessFencedOrder):
		key = "fix.saved.fencing.order"
	case h.CheckAndSet && hasHarmless(in.Results, checker.HarmlessClaimOrder):
		key = "fix.saved.cas.order"
	case h.FencingEnforced && hasHarmless(in.Results, checker.HarmlessNoWrite) && !hasHarmless(in.Results, checker.HarmlessFenced):
		// Nothing refused: the token is credited with nothing (teacher 7, F26).
		key = "fix.saved.no-write"
	case h.FencingEnforced:
		key = "fix.saved.fencing"
	}
	saved := tr(lang, key)
	if key == "fix.saved.fencing" || key == "fix.saved.fencing.order" {
		saved += counterAtRisk(in, lang)
	}
	return &remedy{Saved: saved, SavedClaim: joinIDs(ids)}
}

// counterAtRisk is the sentence a fencing token's "nothing to fix" gets
// when the token's counter lives on one of the lock's own nodes with no
// persistence (account.CounterHomes): the run did not test that counter,
// and its design is not the one to copy (reader 21,
// redlock-gc-pause-fenced: INCR fence:{invoice-1} on n1 of five Redlock
// nodes); "" otherwise.
func counterAtRisk(in Input, lang Lang) string {
	a := in.Account
	if a == nil {
		a = account.New(in.History)
	}
	for _, c := range a.CounterHomes() {
		if c.LockNode && c.Persistence == "none" {
			return " " + tr(lang, "fix.saved.fencing.home", c.Key, c.Node)
		}
	}
	return ""
}

// adviceOf chooses the run's advice from the tables above, each with the
// claims it rests on, the advice that remedies the headline's harm first
// (leadFirst); any is false when the run had no (non-informational)
// anomaly.
func adviceOf(in Input, cs []claim.Claim) (out []Advice, any bool) {
	out, any = adviceRows(in, cs)
	return leadFirst(in, cs, out), any
}

// leadFirst orders an invalid run's advice so the rows offered for the
// finding its headline tells (their claims name its Anomaly claim) come
// first, and marks each other row with the kinds of the findings it was
// offered for (Only): unlock-deletes-next-lock's "Safe unlock" came first
// under a double charge, w1's key having expired by TTL (reader 10,
// finding 3).
func leadFirst(in Input, cs []claim.Claim, out []Advice) []Advice {
	all := allAnomalies(in.Results)
	n, ok := leadAnomaly(all)
	if !ok || in.Verdict == checker.Valid {
		return out
	}
	for _, r := range in.Results {
		if r.OffPlan || r.HostClock {
			return out // the headline tells no finding (headlineOf)
		}
	}
	lead := nthClaim(cs, claim.Anomaly, n)
	if lead == "" {
		return out
	}
	// Each finding by its own word's name (anomalyLabel: a token repeated,
	// not "went backwards"; reader 20): the n-th Anomaly claim is the n-th
	// finding, as nthClaim reads them.
	kinds := map[string]string{}
	i := 0
	for _, c := range cs {
		if c.Kind != claim.Anomaly {
			continue
		}
		kinds[c.ID] = c.What
		if i < len(all) && all[i].Kind == c.What {
			kinds[c.ID] = anomalyLabel(all[i])
		}
		i++
	}
	var first, rest []Advice
	for _, a := range out {
		if slices.Contains(a.Claims, lead) {
			first = append(first, a)
			continue
		}
		a.Only = nil
		for _, id := range a.Claims {
			if k, ok := kinds[id]; ok && !slices.Contains(a.Only, k) {
				a.Only = append(a.Only, k)
			}
		}
		rest = append(rest, a)
	}
	return append(first, rest...)
}

// adviceRows is adviceOf's rows in the tables' order.
func adviceRows(in Input, cs []claim.Claim) (out []Advice, any bool) {
	h := in.History.Header
	var anoms []checker.Anomaly
	for _, a := range allAnomalies(in.Results) {
		if !a.Informational {
			anoms = append(anoms, a)
		}
	}
	if len(anoms) == 0 {
		return nil, false
	}
	f := &runFacts{in: in, cs: cs, a: in.Account}
	if f.a == nil {
		f.a = account.New(in.History)
	}
	kind := workload.Of(h)
	add := func(an checker.Anomaly, keys []string, rowClaims []claim.Claim) {
		for _, k := range keys {
			if (k == "fix.idempotency" || k == "fix.idempotency.charge") && kind.Deduplicates == nil {
				continue // an idempotency key is the payment gateway's: no use to a counter, a stock, a job
			}
			if (k == "fix.idempotency" || k == "fix.idempotency.charge") && kind.Dedup(h.Params) != "" {
				continue // the run had the key already: advising it would tell the reader to add what was there
			}
			if slices.Contains(kind.Unadvised, k) {
				continue // the workload says the advice does not fit it
			}
			o, backing, ok := f.offer(k, an)
			if !ok {
				continue // its premises fail: its words would be false of this run
			}
			ids := f.ids(an, append(slices.Clone(rowClaims), backing...))
			if i := slices.IndexFunc(out, func(a Advice) bool { return a.Key == o.key }); i >= 0 {
				out[i].Claims = union(out[i].Claims, ids)
				continue
			}
			out = append(out, Advice{Key: o.key, Args: f.args(o.key, append(slices.Clone(rowClaims), backing...)), Claims: ids})
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
	// Under check-and-set a stale write got through, before the newer
	// holder stored its token (a fencing token would have let it through
	// too, lock-theory §7.2, §7.3) or after a late claim of the stale
	// holder (offers words which): the table's advice does not apply.
	if h.CheckAndSet {
		add(anoms[0], []string{"fix.cas.claim", "fix.idempotency.charge"}, nil)
		return out, true
	}
	// The catch-all row speaks only when no anomaly has advice of its own.
	generic := len(remedies) - 1
	var needGeneric []checker.Anomaly
	for _, a := range anoms {
		if ak, ok := workload.AnomalyOf(a.Kind); ok && len(ak.Advice) > 0 {
			add(a, ak.Advice, nil) // a workload's own kind has its own advice
			continue
		}
		for ri, row := range remedies {
			if (row.algorithm != "" && row.algorithm != h.Algorithm) || (row.trait != "" && !slices.Contains(h.Traits, row.trait)) ||
				(row.kind != "" && row.kind != a.Kind) || (row.renewed && (a.Cause == nil || a.Cause.Renewed == 0)) ||
				(row.cause != "" && (a.Cause == nil || a.Cause.Kind != row.cause)) {
				continue
			}
			backing, ok := f.all(row.pre, a)
			if !ok {
				continue
			}
			if ri == generic {
				needGeneric = append(needGeneric, a)
			} else {
				add(a, row.advice, backing)
			}
			break
		}
	}
	if len(out) == 0 {
		for _, a := range needGeneric {
			add(a, remedies[generic].advice, nil)
		}
	}
	return out, true
}

// union is a with b's ids it lacks.
func union(a, b []string) []string {
	for _, id := range b {
		if !slices.Contains(a, id) {
			a = append(a, id)
		}
	}
	return a
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

// adviceText is advice a in lang, fitted to the run (header h) where the
// advice names the protected resource: fencing names this run's resource
// (the counter, the stock, …), not a list of every workload's, and, for
// a Redlock, where its token comes from.
func adviceText(lang Lang, a Advice, h history.Header) string {
	text := adviceWords(lang, a, h)
	if text == "" || len(a.Only) == 0 {
		return text
	}
	only := make([]string, len(a.Only))
	for i, k := range a.Only {
		only[i] = kindWord(lang, k)
	}
	return text + " " + tr(lang, "fix.only", strings.Join(only, tr(lang, "fix.only.sep")))
}

// adviceWords is advice a's own words in lang (adviceText).
func adviceWords(lang Lang, a Advice, h history.Header) string {
	switch a.Key {
	case "fix.fencing":
		text := tr(lang, a.Key)
		if _, ok := messages[English]["wl.resource."+h.Workload]; ok {
			text = tr(lang, "fix.fencing.wl", tr(lang, "wl.resource."+h.Workload))
		}
		if len(a.Args) == 1 {
			// The write that was accepted went to a resource of its own
			// (a job's failure record goes to the job store).
			if r := workload.ResourceOf(fmt.Sprint(a.Args[0])); r != "" {
				text = tr(lang, "fix.fencing.wl", tr(lang, "fix.fencing.of", tr(lang, r)))
			}
		}
		if slices.Contains(h.Traits, history.TraitMultiNode) {
			// Redlock's grants carry no token: say where one comes from.
			text += " " + tr(lang, "fix.fencing.source")
		}
		return text
	case "fix.fencing.counter":
		if len(a.Args) == 2 {
			return tr(lang, a.Key, a.Args[0], tr(lang, fmt.Sprint("fix.counter.", a.Args[1])))
		}
	case "fix.unavailable.queue":
		if len(a.Args) == 2 {
			return tr(lang, a.Key, a.Args[0], a.Args[1])
		}
	case "fix.redlock.nocheck":
		if len(a.Args) == 3 {
			return tr(lang, a.Key, a.Args[0], a.Args[1], a.Args[2])
		}
	case "fix.unavailable.kept", "fix.unavailable.local":
		if len(a.Args) == 1 {
			return tr(lang, a.Key, a.Args[0])
		}
	case "fix.wait.all", "fix.wait.counter.all":
		if len(a.Args) == 4 {
			return tr(lang, a.Key, a.Args[0], a.Args[1], a.Args[2], a.Args[3])
		}
		return ""
	case "fix.cron":
		if len(a.Args) == 1 {
			return tr(lang, "fix.cron.spread", a.Args[0])
		}
	case "fix.cron.key":
		if len(a.Args) == 1 {
			return tr(lang, a.Key, a.Args[0])
		}
	case "fix.cron.skew":
		if len(a.Args) == 2 {
			return tr(lang, a.Key, a.Args[0], a.Args[1])
		}
	case "fix.redlock", "fix.redlock.claim":
		var faults []string
		for _, id := range a.Args {
			if s, ok := faultNoun(lang, h, fmt.Sprint(id)); ok {
				faults = append(faults, s)
			}
		}
		if len(faults) > 0 {
			return tr(lang, a.Key+".faults", joinAnd(lang, faults))
		}
	}
	return tr(lang, a.Key)
}

// faultNoun names plan step id of h as advice names a run's fault: a
// clock's rate, slow or fast, or jump, by whose clock; a pause; else the
// fault's kind.
func faultNoun(lang Lang, h history.Header, id string) (string, bool) {
	i := slices.IndexFunc(h.Plan, func(st history.FaultStep) bool { return strconv.Itoa(st.ID) == id })
	if i < 0 {
		return "", false
	}
	st := h.Plan[i]
	targets := joinAnd(lang, targetsOf(st))
	switch {
	case (st.Effect == history.EffectNodeClock || st.Effect == history.EffectClientClock) && st.Rate != 0:
		return tr(lang, pick(st.Rate < 1, "fix.cause.rate.slow", "fix.cause.rate.fast"), targets, number(st.Rate)), true
	case st.Effect == history.EffectNodeClock || st.Effect == history.EffectClientClock:
		return tr(lang, "fix.cause.jump", targets), true
	case st.Effect == history.EffectFreezeClient:
		return tr(lang, "fix.cause.pause", targets), true
	}
	return tr(lang, "fix.cause.kind", st.Kind, targets), true
}
