package report

import "fmt"

// messages holds every user-visible string of the report, one table per
// language. Values are fmt formats; their verbs and argument order are part
// of the key's contract (documented beside the English text). To add a
// language, add a table with the same keys: missing keys fall back to
// English (TestEveryLanguageHasEveryKey keeps them complete).
var messages = map[string]map[string]string{
	"en": {
		// Page chrome.
		"title":            "locksim report: %s",                                                // scenario
		"emulated":         "emulated Redis (miniredis)",                                        //
		"emulated.warning": "Not real Redis: this run used %s. Timing and expiry are emulated.", // "emulated Redis (miniredis)"
		"verdict.valid":    "VALID",
		"verdict.invalid":  "INVALID",
		"verdict.unknown":  "UNKNOWN",
		"expect.none":      "This scenario declares no expected verdict.",
		"expect.met":       "Expected %s, got %s: expectation met.", // expect, verdict
		"expect.notmet":    "Expected %s, got %s: expectation NOT met.",
		"h.story":          "What happened, step by step",
		"h.story.note":     "Times are scenario time (t=0 is the start of the run).",
		"h.anomalies":      "Anomalies",
		"h.checkers":       "Checkers",
		"h.timeline":       "Timeline",
		"h.latency":        "Acquire latency",
		"h.history":        "Linearizability (porcupine)",
		"h.scenario":       "Scenario",
		"h.run":            "Run",
		"no.anomalies":     "No anomalies.",
		"col.kind":         "Kind",
		"col.clients":      "Clients",
		"col.key":          "Key",
		"col.window":       "Window (scenario s)",
		"col.explain":      "Explanation",
		"col.checker":      "Checker",
		"col.verdict":      "Verdict",
		"col.summary":      "Summary",
		"informational":    "informational (does not fail the run)",
		"history.link":     "Open the porcupine visualisation of the resource history (history.html)",
		"history.none":     "No history.html: no linearizability information was given for this run.",
		"history.toobig":   "No history.html: the history has %d porcupine operations, more than the limit of %d.", // n, limit
		"history.faults":   "Fault windows are shown as annotations in the \"faults\" row.",
		"alt.timeline":     "Timeline: who held the lock when, faults and writes",
		"alt.latency":      "Acquire latency over scenario time",
		"run.seed":         "Seed",
		"run.reproduce":    "Reproduce",
		"run.version":      "locksim version",
		"run.redis":        "Redis version",
		"run.backend":      "Backend",
		"run.scale":        "Time scale",
		"run.scale.text":   "1 s of wall time = %s s of scenario time", // scale
		"run.wall":         "Wall time",
		"run.wall.text":    "%.2f s",
		"run.scenario.s":   "Scenario time covered",
		"run.file":         "Scenario file",
		"run.algorithm":    "Algorithm",
		"run.workload":     "Workload",
		"unknown.value":    "unknown",

		// Verdict sentences.
		"say.double.late":   "The invoice (%s) was charged twice: %s kept acting on a lock that had expired %.1f s earlier.",                        // Key, client, seconds
		"say.double":        "The invoice (%s) was charged twice, by %s.",                                                                           // Key, clients
		"say.overlap":       "Two workers held the lock at the same time: %s both believed they held %s for %.1f s.",                                // clients, key, seconds
		"say.stale":         "The resource accepted a stale write: %s",                                                                              // explain
		"say.other":         "%s: %s",                                                                                                               // kind, explain
		"say.fenced":        "The fencing token saved the day: %s's late %s (token %d) was refused because the resource had already seen token %d.", // client, action, token, seen
		"say.fenced.plain":  "The fencing token saved the day: a late write by %s was refused.",
		"say.valid":         "No checker found a problem: the lock kept its promise in this run.",
		"say.unknown":       "Inconclusive: %s",
		"say.unknown.plain": "Inconclusive: a checker could not decide.",
		"and":               "%s and %s",

		// Narrative. Times are scenario seconds, formatted by the caller.
		"n.acquire":              "%s acquired the lock on %s (%s, TTL %s).", // client, key, token text, ttl
		"n.acquire.nodes":        "%s acquired the lock on %s on %d of %d nodes (%s, TTL %s).",
		"n.probe":                "Final probe: %s acquired the lock on %s (%s).", // client, key, token text
		"n.token.fence":          "token %d",
		"n.token.owner":          "owner token %s",
		"n.tries.one":            "%s tried to acquire %s and was refused (someone else held it).",                                             // client, key
		"n.tries":                "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time (someone else held it).", // client, key, n, t0, t1
		"n.acquire.info":         "%s's acquire of %s got no answer: outcome unknown.",
		"n.read":                 "%s read %s: %s.",                                   // client, key, result
		"n.write.ok":             "%s: %s of %s accepted%s.",                          // client, action, key, token suffix
		"n.write.charge":         "%s charged %s%s: accepted by the payment gateway.", // client, key, token suffix
		"n.write.claim":          "%s registered its token at the resource for %s%s: accepted.",
		"n.write.markpaid":       "%s marked %s as paid%s.",
		"n.write.refused":        "%s's %s of %s%s was REFUSED by the resource: %s.", // client, action, key, token suffix, reason
		"n.write.info":           "%s's %s of %s%s got no answer: it may or may not have happened.",
		"n.with.token":           " with token %d",
		"n.release.ok":           "%s released %s (key deleted).",
		"n.release.none.expired": "%s tried to release %s, but its key was already gone from Redis (expired): nothing of its own to delete.",
		"n.release.none.other":   "%s tried to release %s, but the key now belonged to %s: nothing of its own to delete.",
		"n.release.none":         "%s tried to release %s: nothing of its own to delete.",
		"n.release.fail":         "%s's release of %s failed.",
		"n.release.info":         "%s's release of %s got no answer: outcome unknown.",
		"n.extend.ok":            "%s extended its lock on %s.",
		"n.extend.fail":          "%s could not extend its lock on %s.",
		"n.lost":                 "%s concluded its lock on %s was lost and stopped.",
		"n.pause":                "%s was paused (stop-the-world GC) for %s%s.", // client(s), duration, point suffix
		"n.pause.point":          " at %s",
		"n.resume":               "%s woke up after %s paused%s.", // client, duration, belief suffix
		"n.resume.belief":        " and still believes it holds the lock on %s (token %s)",
		"n.fault":                "Fault %s on %s started%s.", // kind, targets, detail
		"n.fault.end":            "Fault %s on %s healed.",
		"n.expired.paused":       "%s's lock on %s expired in Redis (TTL %s) while %s was paused.", // client, key, ttl, client
		"n.expired.belief":       "%s's lock on %s expired in Redis (TTL %s) while %s still believed it held it.",
		"n.expired":              "%s's lock on %s expired in Redis (TTL %s).",
		"n.anomaly":              "Violation (%s): %s", // kind, explain
		"n.anomaly.info":         "Noted (%s, informational): %s",

		// Plots.
		"p.timeline.title": "%s — %s", // scenario, verdict
		"p.x":              "scenario time (s)",
		"p.hold":           "%s holds the lock (key in Redis)", // client
		"p.believed":       "believes it holds, key already gone",
		"p.key":            "key exists on node",
		"p.pause":          "pause (GC)",
		"p.pause.word":     "GC pause",
		"p.paused":         "%s frozen: %s %s", // clients, fault word, duration
		"p.other.ok":       "other write accepted (claim, mark-paid)",
		"p.fault":          "fault: %s",
		"p.violation":      "violation",
		"p.charge.ok":      "charge accepted",
		"p.write.refused":  "write refused",
		"p.acquire.fail":   "acquire refused",
		"p.expired":        "expired",
		"p.node":           "node %s",
		"p.latency.title":  "%s — acquire latency", // scenario
		"p.latency.y":      "acquire latency (ms, wall time)",
		"p.ok":             "granted",
		"p.fail":           "refused",
		"p.info":           "unknown (no reply)",
		"p.charged":        "charged",
		"p.refused":        "refused",
	},
}

// tr formats the message key in lang, falling back to English, then to the
// key itself so a missing message is visible rather than silent.
func tr(lang, key string, args ...any) string {
	f, ok := messages[lang][key]
	if !ok {
		f, ok = messages["en"][key]
	}
	if !ok {
		f = key
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}
