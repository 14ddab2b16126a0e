package report

// This file compares a lesson pair's two runs: their fault plans in
// scenario time, the code changes between them, and the YAML diff.

import (
	"html/template"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/pmezard/go-difflib/difflib"
)

// planWords tells a run's fault plan in scenario time: "GC pause on w1
// for 35s, clock jump on n3, clock drift ×1.5 on n3", or "no fault". A duration is a
// span, as every duration on a page is.
func planWords(lang Lang, r Results) string {
	if len(r.Plan) == 0 {
		return tr(lang, "lesson.fault.none")
	}
	h := history.Header{TimeScale: r.TimeScale}
	parts := make([]string, 0, len(r.Plan))
	for _, st := range r.Plan {
		parts = append(parts, stepWords(lang, h, st))
	}
	return strings.Join(parts, ", ")
}

// stepWords tells one step of a fault plan in scenario time (planWords).
func stepWords(lang Lang, h history.Header, st history.FaultStep) string {
	targets := joinAnd(lang, targetsOf(st))
	word := faultWord(lang, st)
	if st.Rate > 0 {
		// A clock's rate is what tells a drift inside Redlock's
		// allowance (1.005×) from one far outside it (1.5×).
		word += " ×" + decimal{st.Rate, -1}.in(lang)
	}
	if st.Effect == history.EffectRestartClient && st.Mode != "" {
		// Two restarts that differ only in what the new incarnation
		// restores would otherwise read alike.
		word += " " + tr(lang, "lesson.restore."+st.Mode)
	}
	switch {
	case st.Kind == "crash" && st.Duration > 0:
		// A crashed node's window is its downtime, not how long a
		// crash lasts; a power loss also drops what no fsync reached.
		key := "lesson.step.crash"
		if st.PowerLoss {
			key = "lesson.step.powerloss"
		}
		return tr(lang, key, targets, span(h.ScenarioSeconds(st.Duration)))
	case st.Duration > 0:
		return tr(lang, "lesson.step.for", word, targets, span(h.ScenarioSeconds(st.Duration)))
	}
	return tr(lang, "lesson.step", word, targets)
}

// firedApart tells, for two runs of the same faults (samePlan or
// sameFaults: their steps in one order), each step fired by an event (a
// client's grant, a point in its code) that fired at another moment in
// one run than in the other, from the runs' recorded faults (their Fault
// claims' starts): "n1r1 crashed, …: t=0.5s in the broken run, t=4.6s
// in the fixed one". A plan's "same" is then not the same crash:
// failover-wait-all's grant waits for WAIT, so its failover fired 4 s
// later than failover-wait-two-replicas's (issue 34, teacher review). ""
// when every such step fired at the same moment as written (a tenth of a
// second) or a run recorded none.
func firedApart(lang Lang, b, f Results, side string) string {
	if len(b.Plan) != len(f.Plan) {
		return ""
	}
	var parts []string
	for i, st := range b.Plan {
		if st.Trigger.Kind == history.TriggerAt || st.Trigger.Kind == "" {
			continue
		}
		bs, bok := firedAt(b, st.ID)
		fs, fok := firedAt(f, f.Plan[i].ID)
		if !bok || !fok || chart.Tenths(float64(bs)) == chart.Tenths(float64(fs)) || withinLateness(b, f, float64(bs-fs)) {
			continue
		}
		parts = append(parts, tr(lang, "lesson.fault.fired.step", stepWords(lang, history.Header{TimeScale: b.TimeScale}, st),
			bs, fs, tr(lang, "lesson.side."+side)))
	}
	if len(parts) == 0 {
		return ""
	}
	return tr(lang, "lesson.fault.fired", strings.Join(parts, "; "))
}

// withinLateness reports whether d scenario seconds between two runs'
// firings of one step is no more than the harness's own lateness in them
// (the worse run's worst timer lag, and at least history.LagRecordNS, in
// scenario time): scheduling jitter, not a different moment (a fresh
// teacher's pages said "fired at t=9.3s in the broken run, t=9.4s in the
// fixed one" at time scale 50, 2 ms of wall time apart).
func withinLateness(b, f Results, d float64) bool {
	lagMS := max(b.MaxTimerLagMS, f.MaxTimerLagMS, float64(history.LagRecordNS)/1e6)
	scale := max(b.TimeScale, f.TimeScale)
	if scale <= 0 {
		scale = 1
	}
	return math.Abs(d) <= lagMS/1000*scale
}

// firedAt is when run r's fault step id first took effect, in scenario
// seconds, as its Fault claims record it; false when none does.
func firedAt(r Results, id int) (instant, bool) {
	var at int64 = -1
	for _, c := range r.Claims {
		if c.Kind == claim.Fault && c.Step == id && (at < 0 || c.Start < at) {
			at = c.Start
		}
	}
	if at < 0 {
		return 0, false
	}
	return instant(history.Header{TimeScale: r.TimeScale}.ScenarioSeconds(at)), true
}

// scenarioPlan is a run's fault plan as its scenario file states it: every
// wall-time field (durations, clock deltas, latencies, trigger times,
// toxics' ms) in scenario time rounded to the millisecond, step ids and
// what the run did with a step (its failovers' promotions) left out. Two
// runs with different time scales planned the same faults when their
// scenario plans are equal.
func scenarioPlan(plan []history.FaultStep, timeScale float64) []history.FaultStep {
	h := history.Header{TimeScale: timeScale}
	sc := func(ns int64) int64 { return int64(h.ScenarioTime(ns).Round(time.Millisecond)) }
	out := make([]history.FaultStep, len(plan))
	for i, st := range plan {
		st.ID, st.Promotions = 0, nil
		st.Duration, st.Delta, st.Latency, st.Jitter = sc(st.Duration), sc(st.Delta), sc(st.Latency), sc(st.Jitter)
		st.Trigger.At, st.Trigger.Delay = sc(st.Trigger.At), sc(st.Trigger.Delay)
		if st.Toxic != nil {
			t := *st.Toxic
			t.Attributes = maps.Clone(t.Attributes)
			for _, k := range []string{"latency", "jitter", "delay", "timeout"} {
				if v, ok := t.Attributes[k]; ok {
					t.Attributes[k] = sc(v*int64(time.Millisecond)) / int64(time.Millisecond)
				}
			}
			st.Toxic = &t
		}
		out[i] = st
	}
	return out
}

// samePlan tells whether two runs planned the same fault steps, compared
// as structured data in scenario time (scenarioPlan), never as words.
func samePlan(a, b Results) bool {
	return reflect.DeepEqual(scenarioPlan(a.Plan, a.TimeScale), scenarioPlan(b.Plan, b.TimeScale))
}

// sameFaults tells whether two runs planned the same faults, fired at
// another moment or on another trigger.
func sameFaults(a, b Results) bool {
	x, y := scenarioPlan(a.Plan, a.TimeScale), scenarioPlan(b.Plan, b.TimeScale)
	for i := range x {
		x[i].Trigger = history.Trigger{}
	}
	for i := range y {
		y[i].Trigger = history.Trigger{}
	}
	return reflect.DeepEqual(x, y)
}

// diffLine is one line of a "what to change" diff: Op is "-", "+" or " ".
type diffLine struct{ Op, Text string }

// codeChange is one change a fix makes, as a comment and the code.
type codeChange struct {
	Note  string
	Lines []diffLine
}

// change is a codeChange of a note and its lines, each led by its Op
// ("-", "+" or " ").
func change(note string, lines ...string) codeChange {
	c := codeChange{Note: note}
	for _, l := range lines {
		c.Lines = append(c.Lines, diffLine{Op: l[:1], Text: l[1:]})
	}
	return c
}

// pairView is a broken run beside the run of its fixed_by scenario.
type pairView struct {
	Broken, Fixed       runCard
	Seeds, Faults, Axis string
	// FixedLabel heads the fixed side: "fixed" only when the run shown
	// there is valid, "no evidence" otherwise (FixedClass "fixed" or
	// "noevidence"); Evidence tells how many seeds of each file this suite
	// ran and how many the fix was valid in (never a bare VALID).
	FixedLabel, FixedClass string
	// Side is what the right side is: fixed, contrast or control (a
	// harness control, which no reader deploys as a fix).
	Side     string
	Evidence []string
	// Question is the lesson file's "predict before you look" question
	// for this pair, "" when it has none.
	Question string
	// Strip is what each side showed of the lesson's requirements
	// (Shows), one row per requirement.
	Strip []stripRow
	// Timelines is the two runs' SVG timelines, one above the other on
	// one time axis (a sync group: zooming one zooms both); "" when a
	// run's drawing was not kept (a later run of the scenario).
	Timelines template.HTML
	Changes   []codeChange
	YAML      []diffLine
	YAMLNone  bool
}

// runFields is a run's scenario as path → value (scenario.Flatten of its
// normalised scenario.yaml); nil when the run kept none.
func runFields(r Results) map[string]string {
	if r.ReportDir == "" {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(r.ReportDir, "scenario.yaml"))
	if err != nil {
		return nil
	}
	m, err := scenario.Flatten(raw)
	if err != nil {
		return nil
	}
	return m
}

// changes are the code changes from broken to fixed, chosen by what the
// two runs' headers say of them (algorithm, traits, fencing, workload
// parameters, persistence) and by the fields their scenario files differ
// in (claim-first, check-and-set, the failure record's check, the TTL of
// one algorithm), in this order.
func changes(lang Lang, b, f Results) []codeChange {
	return changesOf(lang, b, f, runFields(b), runFields(f))
}

// changesOf is changes with the two scenarios' fields given (bf, ff: path
// → value, as scenario.Flatten gives them; nil when unknown).
func changesOf(lang Lang, b, f Results, bf, ff map[string]string) []codeChange {
	var out []codeChange
	add := func(note string, lines ...string) { out = append(out, change(note, lines...)) }
	param := func(r Results, k string) bool { return r.Params[k] != 0 }
	if b.Algorithm == "no-lock" && f.Algorithm != "no-lock" {
		add(tr(lang, "diff.shared"), "-func Acquire(key string) { return }", "+func Acquire(key string) { sharedMutex.Lock() }")
	}
	if b.Algorithm == "naive" && f.Algorithm != "naive" {
		add(tr(lang, "diff.unlock"),
			"-DEL lock-key",
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('DEL', KEYS[1])",
			"+      end",
			"+      return 0\" 1 lock-key owner-token")
	}
	if b.Algorithm == "setnx-expire" && f.Algorithm != "setnx-expire" {
		add(tr(lang, "diff.ttl"), "-SETNX lock-key owner-token", "-PEXPIRE lock-key ttl", "+SET lock-key owner-token NX PX ttl")
	}
	out = append(out, redlockChanges(lang, b, f)...)
	out = append(out, watchdogChanges(lang, b, f)...)
	bFenced, fFenced := slices.Contains(b.Traits, history.TraitFenced), slices.Contains(f.Traits, history.TraitFenced)
	if a, ok := algo.Lookup(f.Algorithm); fFenced && !bFenced && ok && a.Traits.MultiNode {
		// A fenced Redlock keeps its acquire and takes the token after
		// the grant, from one never-expiring counter (redlock-fenced).
		add(tr(lang, "diff.fence.grant.quorum"),
			" granted := setOnEveryNode(key, token, ttl) >= quorum",
			"+fence := INCR fence:{key} on n1"+cm(lang, "counter"))
	} else if fFenced && !bFenced {
		add(tr(lang, "diff.fence.grant"),
			"-SET lock-key owner-token NX PX ttl",
			"+EVAL \"if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then",
			"+        return redis.call('INCR', KEYS[2])",
			"+      end\" 2 lock-key fence-counter owner-token ttl")
	}
	turnedOn := func(path string) bool { return ff[path] == "true" && bf[path] != "true" }
	// Check-and-set claims with the lock's unique token (its own step
	// below), never with a fencing token.
	if turnedOn("workload.claim") && ff["workload.check_and_set"] != "true" {
		add(tr(lang, "diff.claim"),
			" grant := acquire(key)",
			"+resource.Claim(key, grant.token)"+cm(lang, "claim"),
			" work(); resource.Write(key, value, grant.token)")
	}
	if turnedOn("workload.check_and_set") {
		add(tr(lang, "diff.cas"),
			"+resource.SetCurrlock(key, grant.token)"+cm(lang, "grant"),
			"+if currlock[key] != grant.token { refuse }"+cm(lang, "samestep"),
			" accept(write)")
	}
	if ff["workload.failure_record"] != bf["workload.failure_record"] && ff["workload.failure_record"] == "token" {
		add(tr(lang, "diff.failurerecord"),
			"-HSET job failedReason err",
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('HSET', KEYS[2], 'failedReason', ARGV[2])",
			"+      end return 0\" 2 lock-key job owner-token err")
	}
	if scenario.DelayedRestart(bf, ff) {
		add(tr(lang, "diff.restart", ttlSpan(ff["ttl"])), restartLines(bf, ff)...)
	}
	if bt, ft := bf["ttl"], ff["ttl"]; b.Algorithm == f.Algorithm && bt != "" && ft != "" && bt != ft {
		add(tr(lang, "diff.ttlvalue"), "-ttl := "+bt, "+ttl := "+ft)
	}
	if param(f, history.ParamEpochCheck) && !param(b, history.ParamEpochCheck) {
		add(tr(lang, "diff.epoch"), "+if write.epoch < highestEpoch { refuse }", "+highestEpoch = write.epoch", " accept(write)")
	} else if f.FencingEnforced && !b.FencingEnforced {
		w := tr(lang, "wl.write."+f.Workload)
		add(tr(lang, "diff.fence"), "+if token < highestToken[key] { refuse }   // "+w, "+highestToken[key] = token", " accept(write)")
	}
	if f.Algorithm == "atomic-lua" && b.Algorithm != "atomic-lua" {
		add(tr(lang, "diff.stock"),
			"-lock(item); stock := GET stock-key",
			"-if stock > 0 { SET stock-key stock-1 }; unlock(item)",
			"+EVAL \"local s = tonumber(redis.call('GET', KEYS[1]))",
			"+      if s ~= nil and s > 0 then return redis.call('DECR', KEYS[1]) end",
			"+      return -1\" 1 stock-key")
	}
	if param(f, history.ParamIdempotency) && !param(b, history.ParamIdempotency) {
		add(tr(lang, "diff.idempotency"), "-gateway.Charge(invoice)", "+gateway.Charge(invoice, IdempotencyKey(invoice))")
	}
	if param(f, history.ParamLockPerFire) && !param(b, history.ParamLockPerFire) {
		add(tr(lang, "diff.perfire"), "-key := \"lock:\" + job", "+key := \"lock:\" + job + \"@\" + fireTime", "-release(key)")
	}
	if param(f, history.ParamSingleton) && !param(b, history.ParamSingleton) {
		add(tr(lang, "diff.singleton"),
			"-at each fire time: lock(\"lock:\" + job); run(job); release()",
			"+lease := lock(\"lock:leader\")"+cm(lang, "leader"),
			"+at each fire time: if lease.lost() { stand by again } else { run(job) }")
	}
	switch {
	case f.Algorithm == "safe-wait-all" && b.Algorithm == "safe-wait":
		add(tr(lang, "diff.wait", tr(lang, "diff.wait.all")),
			"-n, err := WAIT 1 timeout",
			"-if err != nil || n < 1 { release(); return retry }",
			"+n, err := WAIT replicas timeout",
			"+if err != nil || n < replicas { release(); return retry }")
	case strings.HasSuffix(f.Algorithm, "-wait") && !strings.Contains(b.Algorithm, "-wait"):
		add(tr(lang, "diff.wait", tr(lang, "diff.wait.one")), acquireLine(lang, f),
			"+n, err := WAIT 1 timeout"+cm(lang, "wait"),
			"+if err != nil || n < 1 {"+cm(lang, "waiterr"),
			"+    release(); return retry",
			"+}")
	}
	out = append(out, clientChanges(lang, b, f)...)
	out = append(out, acquireChanges(lang, b, f)...)
	out = append(out, releaseChanges(lang, bf, ff)...)
	// Persistence: the nodes the fix made aof-always (every node, or the
	// few node_persistence names).
	var aofNodes []string
	var before []string
	for _, n := range sortedKeys(f.Persistence) {
		if f.Persistence[n] == "aof-always" && b.Persistence[n] != "aof-always" {
			aofNodes = append(aofNodes, n)
			if p := b.Persistence[n]; !slices.Contains(before, p) {
				before = append(before, p)
			}
		}
	}
	if len(aofNodes) > 0 && len(before) == 1 && before[0] == "aof-everysec" {
		// AOF was on already: the fsync policy is the whole change.
		add(tr(lang, "diff.aof"), " appendonly yes       # "+strings.Join(aofNodes, ", ")+" ("+tr(lang, "code.unchanged")+")",
			"-appendfsync everysec", "+appendfsync always")
	} else if len(aofNodes) > 0 {
		var lines []string
		for _, p := range before {
			switch p {
			case "rdb":
				lines = append(lines, "-appendonly no        # rdb")
			case "aof-everysec":
				lines = append(lines, "-appendfsync everysec")
			default:
				lines = append(lines, "-appendonly no")
			}
		}
		lines = append(lines, "+appendonly yes       # "+strings.Join(aofNodes, ", "), "+appendfsync always")
		add(tr(lang, "diff.aof"), lines...)
	}
	return out
}

// redlockChanges are the changes a fix makes to Redlock's client: the
// validity check after the quorum (redlock-nocheck → redlock) and the
// monotonic clock it measures with (redlock → redlock-monotonic).
func redlockChanges(lang Lang, b, f Results) []codeChange {
	var out []codeChange
	add := func(note string, lines ...string) { out = append(out, change(note, lines...)) }
	if b.Algorithm == "redlock-nocheck" && f.Algorithm == "redlock" {
		add(tr(lang, "diff.validity"),
			" granted := setOnEveryNode(key, token, ttl) >= quorum",
			"+validity := ttl - elapsed - drift",
			"+if validity <= 0 { unlockEveryNode(key, token); return retry }")
	}
	if b.Algorithm == "redlock" && f.Algorithm == "redlock-monotonic" {
		// The client's clock seen through its monotonic view (the runner
		// gives it to the lock and the job alike, clock.Monotonic).
		add(tr(lang, "diff.monotonic"),
			"-now := wallClock"+cm(lang, "wallclock"),
			"+now := monotonicClock"+cm(lang, "monotonic"),
			" start := now()",
			" granted := setOnEveryNode(key, token, ttl) >= quorum",
			" validity := ttl - (now() - start) - drift",
			" if validity <= 0 { unlockEveryNode(key, token); return retry }",
			" work while now() < start + ttl - drift - margin"+cm(lang, "sameclock"))
	}
	return out
}

// watchdogChanges are the changes a fix makes to a lease renewer: a
// watchdog that renews every TTL/3 and stops the job when a renewal
// fails, and the cap that gives a hung job's lock up (watchdog-bounded).
func watchdogChanges(lang Lang, b, f Results) []codeChange {
	var out []codeChange
	add := func(note string, lines ...string) { out = append(out, change(note, lines...)) }
	if f.Algorithm == "watchdog" && b.Algorithm != "watchdog" {
		add(tr(lang, "diff.watchdog"),
			"+for range time.Tick(ttl / 3) {",
			"+    EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+            return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0\" 1 lock-key owner-token ttl",
			"+    if err != nil || reply == 0 { job.Stop(); break }"+cm(lang, "lost"),
			"+}")
	}
	fenced := slices.Contains(f.Traits, history.TraitFenced) && !slices.Contains(b.Traits, history.TraitFenced)
	if slices.Contains(quietWatchdogs, b.Algorithm) && slices.Contains(tellingWatchdogs, f.Algorithm) {
		// host-sleep → host-sleep-fenced: the stop is what kept the fixed
		// runs valid (w1 never writes again), so it is shown beside the
		// token, never left for the token to take the credit (teacher11 G2).
		note := tr(lang, "diff.watchdoglost")
		if fenced {
			note += " " + tr(lang, "diff.twochanges")
		}
		add(note,
			" reply, err := EVAL \"…PEXPIRE…\" 1 lock-key owner-token ttl",
			"-if err != nil || reply == 0 { log(err) }"+cm(lang, "unheard"),
			"+if err != nil || reply == 0 { job.Stop(); break }"+cm(lang, "lost"))
	}
	if strings.HasPrefix(b.Algorithm, "watchdog") && slices.Contains([]string{"safe", "fenced"}, f.Algorithm) {
		// server-clock-step-watchdog → server-clock-step-fenced: the fix
		// renews nothing (teacher11 G5).
		note := tr(lang, "diff.nowatchdog")
		if fenced {
			note += " " + tr(lang, "diff.nowatchdog.fenced")
		}
		add(note,
			"-for range time.Tick(ttl / 3) {",
			"-    EVAL \"…PEXPIRE…\" 1 lock-key owner-token ttl",
			"-}")
	}
	if b.Algorithm == "extend-reacquire" && f.Algorithm != "extend-reacquire" && strings.HasPrefix(f.Algorithm, "watchdog") {
		// The extend of redlock-rb before PR #37 against locksim's
		// compare-and-pexpire (lockkit.CompareAndPexpire), one script.
		add(tr(lang, "diff.extendowned"),
			" EVAL \"local v = redis.call('GET', KEYS[1])",
			"-       if v == ARGV[1] or not v then",
			"-         redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])",
			"-         return 1",
			"+       if v == ARGV[1] then",
			"+         return redis.call('PEXPIRE', KEYS[1], ARGV[2])",
			"        end",
			"        return 0\" 1 lock-key owner-token ttl",
			" if err != nil || reply == 0 { job.Stop(); break }"+cm(lang, "lost"))
	}
	if f.Algorithm == "watchdog-deadline" && b.Algorithm != "watchdog-deadline" {
		// The deadline watch of watchdog-deadline (watchDeadline): a
		// goroutine of its own, which a starved renewer does not hold back.
		add(tr(lang, "diff.deadline"),
			" validUntil := sent + ttl"+cm(lang, "sent"),
			" go renewer()"+cm(lang, "renewer"),
			"+go func() {"+cm(lang, "watch"),
			"+    for {",
			"+        deadline := validUntil - ttl/10"+cm(lang, "latetimers"),
			"+        sleepUntil(deadline)",
			"+        if validUntil-ttl/10 <= deadline { job.Stop(); break }"+cm(lang, "norenewal"),
			"+    }",
			"+}")
	}
	if b.Algorithm == "watchdog" && f.Algorithm == "watchdog-bounded" {
		add(tr(lang, "diff.watchdogcap"),
			"+renewals := 0",
			" for range time.Tick(ttl / 3) {",
			"+    if renewals == maxRenewals { job.Stop(); release(); break }"+cm(lang, "cap"),
			"     reply, err := EVAL \"…PEXPIRE…\" 1 lock-key owner-token ttl",
			"     if err != nil || reply == 0 { job.Stop(); break }",
			"+    renewals++",
			" }")
	}
	return out
}

// quietWatchdogs renew a lease but never tell the job a renewal failed;
// tellingWatchdogs (besides watchdog itself, whose whole renewer diff.watchdog
// shows) stop the job when one does (clients' watchdog variants).
var (
	quietWatchdogs   = []string{"watchdog-loss-unobserved", "watchdog-unobserved"}
	tellingWatchdogs = []string{"watchdog-fenced", "watchdog-bounded", "watchdog-deadline"}
)

// clientChanges are the changes a fix makes to what a client does beside
// its acquire: a scheduler's heartbeat and stop that check their own token
// (pid-expire-heartbeat → checked-heartbeat, rq PR #2458) and a restarted
// worker that restores nothing on start (a restart-client step's mode).
func clientChanges(lang Lang, b, f Results) []codeChange {
	var out []codeChange
	add := func(note string, lines ...string) { out = append(out, change(note, lines...)) }
	if b.Algorithm == "pid-expire-heartbeat" && f.Algorithm == "checked-heartbeat" {
		add(tr(lang, "diff.heartbeat"),
			"-SET queue-key pid NX PX ttl"+cm(lang, "pid"),
			"+SET queue-key owner-token NX PX ttl"+cm(lang, "random"),
			"-for each configured queue: PEXPIRE queue-key ttl"+cm(lang, "whoever"),
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0\" 1 queue-key owner-token ttl",
			"+if reply == 0 { stop scheduling the queue }"+cm(lang, "lostlock"),
			"-DEL queue-key-1 queue-key-2 …"+cm(lang, "everyqueue"),
			"+EVAL \"if redis.call('GET', KEYS[1]) == ARGV[1] then",
			"+        return redis.call('DEL', KEYS[1]) end return 0\" 1 queue-key owner-token")
	}
	if restoresOnStart(b, history.RestoreAll) && !restoresOnStart(f, history.RestoreAll) {
		add(tr(lang, "diff.restore"),
			" on start:",
			"-for each job lock key: DEL key"+cm(lang, "unacked"),
			"+// "+tr(lang, "code.nothing"))
	}
	return out
}

// restoresOnStart tells whether r's plan restarts a client that restores
// mode on start (history.RestoreAll or RestoreNone).
func restoresOnStart(r Results, mode string) bool {
	return slices.ContainsFunc(r.Plan, func(st history.FaultStep) bool {
		return st.Effect == history.EffectRestartClient && st.Mode == mode
	})
}

// yamlDiff is the unified diff of the two runs' normalised scenario.yaml,
// without the fields diffable leaves out.
func yamlDiff(b, f Results) (lines []diffLine, ok bool) {
	read := func(r Results) []string {
		if r.ReportDir == "" {
			return nil
		}
		raw, err := os.ReadFile(filepath.Join(r.ReportDir, "scenario.yaml"))
		if err != nil {
			return nil
		}
		return diffable(difflib.SplitLines(string(raw)))
	}
	a, c := read(b), read(f)
	if a == nil || c == nil {
		return nil, false
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: c, Context: 1})
	if err != nil {
		return nil, false
	}
	for _, l := range difflib.SplitLines(text) {
		l = strings.TrimRight(l, "\n")
		switch {
		case l == "", strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "@@"):
			lines = append(lines, diffLine{Op: "@", Text: "…"})
		default:
			lines = append(lines, diffLine{Op: l[:1], Text: l[1:]})
		}
	}
	return lines, true
}

// leftOut are the top-level fields of a normalised scenario.yaml that a
// pair's diff leaves out: what names a run (name, description, lesson,
// seed) and what the harness expects of it (scenario.HarnessFields).
var leftOut = append([]string{"name", "description", "description_vi", "lesson", "seed"}, scenario.HarnessFields...)

// diffable is a normalised scenario.yaml's lines without leftOut's
// fields (each with the indented lines under it) and without the lock
// client process's working directory, a path on the machine that ran it
// (process.dir: the normalised file resolves it to an absolute path).
func diffable(lines []string) []string {
	var keep []string
	var top string // the top-level field the line is in
	skip := false
	for _, l := range lines {
		if !strings.HasPrefix(l, " ") {
			top, _, _ = strings.Cut(l, ":")
			skip = slices.Contains(leftOut, top)
		}
		if skip || top == "process" && strings.HasPrefix(l, "  dir:") {
			continue
		}
		keep = append(keep, l)
	}
	return keep
}

// cm is a code line's trailing comment in lang: the code of a "what to
// change" diff is the same in every language, its comments are not.
func cm(lang Lang, key string) string { return "   // " + tr(lang, "code."+key) }

// acquireLine is the acquire a WAIT fix follows, as context: a plain SET,
// or for a fenced lock the script that also takes the fencing token.
func acquireLine(lang Lang, f Results) string {
	if slices.Contains(f.Traits, history.TraitFenced) {
		return " grant := acquire(key)" + cm(lang, "fencedacquire")
	}
	return " SET lock-key owner-token NX PX ttl"
}

// restartLines are a delayed restart's diff lines (scenario.DelayedRestart:
// bf and ff differ only in crashes' restart_after): each crashed node's
// downtime before and after, against the TTL.
func restartLines(bf, ff map[string]string) []string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(bf)) {
		if fault, field, ok := strings.Cut(k, "].restart_after"); ok && field == "" && ff[k] != bf[k] {
			node := ff[fault+"].nodes[0]"]
			lines = append(lines, "-restart "+node+" after "+bf[k], "+restart "+node+" after "+ff[k]+"   // > ttl "+ff["ttl"])
		}
	}
	return lines
}

// ttlSpan is a scenario's ttl field as a span (a duration on a page is
// one, in the page's words), or the field itself when it does not parse.
func ttlSpan(ttl string) any {
	if d, err := time.ParseDuration(ttl); err == nil {
		return span(d.Seconds())
	}
	return ttl
}
