package report

import (
	"fmt"

	"github.com/locksim/locksim/internal/workload"
)

// messages holds every user-visible string of the report, one table per
// language. Values are fmt formats; their verbs and argument order are part
// of the key's contract (documented beside the English text). To add a
// language, add a table with the same keys: missing keys fall back to
// English (TestEveryLanguageHasEveryKey keeps them complete). The
// Vietnamese table uses the course's own terms (lessons 42–51): lock phân
// tán, lock, TTL, fencing token, idempotency key, Lua script, Redlock.
var messages = map[Lang]map[string]string{
	"en": {
		// Page chrome.
		"title":             "locksim report: %s",                                                // scenario
		"emulated":          "emulated Redis (miniredis)",                                        //
		"emulated.warning":  "Not real Redis: this run used %s. Timing and expiry are emulated.", // "emulated Redis (miniredis)"
		"aborted":           "ABORTED — partial history",
		"aborted.text":      "The run was interrupted before it finished: the story, the plots and the verdict cover only what happened until then.",
		"verdict.valid":     "VALID",
		"verdict.invalid":   "INVALID",
		"verdict.unknown":   "UNKNOWN",
		"expect.none":       "This scenario declares no expected verdict.",
		"expect.aborted":    "Expected %s: not judged — the run was interrupted before it finished.",
		"say.aborted":       "The run was interrupted before it finished; the partial history shows no violation so far.",
		"expect.met":        "Expected %s, got %s: expectation met.", // expect, verdict
		"expect.notmet":     "Expected %s, got %s: expectation NOT met.",
		"expect.missing":    "Missing: %s.",                                                                                            // kinds
		"expect.unjudged":   "Not judged: %s — only the nodes' own record of what they executed shows it, and this run recorded none.", // kinds
		"expect.unexpected": "Found but not expected: %s.",                                                                             // kinds
		"expect.cut":        "Expected %s: not judged — the history is cut off.",                                                       // expect
		"cut":               "CUT OFF — the history ends early",
		"cut.text":          "The history file ends before the run did (it was cut off while being written): the story, the plots and the verdict cover only what it holds, and the verdict is at most unknown unless it shows a violation.",
		"say.cut":           "The history is cut off; what it holds shows no violation.",
		"h.story":           "What happened, step by step",
		"h.story.note":      "Times are scenario time (t=0 is the start of the run).",
		"h.anomalies":       "What went wrong",
		"h.fix":             "What would have prevented it",
		"h.checkers":        "Checkers",
		"h.timeline":        "Timeline",
		"h.timeline.how":    "One row per client (w1, w2, …), one per Redis node and one for the resource. A coloured bar is a lock held, labelled with its token; on a node's row it is the lock key as that node held it (a dashed outline where the node was not observed and the clients' outcomes tell it). Grey arrows are commands to a node and their replies; a red line ending in a cross is a message that never arrived. Shaded areas are faults; a red band is where a checker found a violation. Hover any mark for the operation in full.",
		"h.latency":         "Acquire latency",
		"h.rate":            "Acquire rate",
		"h.history":         "Linearizability (porcupine)",
		"h.scenario":        "Scenario",
		"h.run":             "Run",
		"no.anomalies":      "No anomalies.",
		"col.kind":          "What",
		"col.clients":       "Clients",
		"col.key":           "Key",
		"col.window":        "Window (scenario s)",
		"col.explain":       "Explanation",
		"col.why":           "Why it matters",
		"col.checker":       "Checker",
		"col.verdict":       "Verdict",
		"col.summary":       "Summary",
		"informational":     "informational (does not fail the run)",
		"checker.words":     "The checker's own words",
		"history.link":      "Open porcupine's check of the lock and resource history, drawn on this page's time axis (history.html)",
		"history.none":      "No history.html: no linearizability information was given for this run.",
		"history.toobig":    "No history.html: the history has %d porcupine operations, more than the limit of %d.",                                                                                            // n, limit
		"history.window":    "The history has %d porcupine operations, more than the limit of %d: history.html shows only the %d operations from t=%ss to t=%ss, the busiest window around the first anomaly.", // n, limit, shown, t0, t1
		"history.faults":    "Faults and violation windows are shaded there as on the timeline above; hovering an operation tells it in full.",
		"alt.timeline":      "Timeline: who held the lock when, faults and writes",
		"charts.skipped":    "Charts not drawn for this run: in a sweep (--count) only notable runs get them — the first seed, every run that missed its expectation and, without an expectation, every run that is not valid (--charts all draws every run). To draw them now: %s", // command
		"alt.latency":       "Acquire latency over scenario time",
		"alt.rate":          "Acquires granted and refused per second of scenario time",
		"run.seed":          "Seed",
		"run.reproduce":     "Reproduce",
		"run.version":       "locksim version",
		"run.redis":         "Redis version",
		"run.backend":       "Backend",
		"run.scale":         "Time scale",
		"run.scale.text":    "1 s of wall time = %s s of scenario time", // scale
		"run.wall":          "Wall time",
		"run.wall.text":     "%.2f s",
		"run.lag":           "Machine load",
		"run.lag.text":      "harness timers fired up to %.1f ms late (wall), %.2f s of scenario time; a lag of %d ms or more that is also a tenth of the run's shortest TTL or more makes a run prove nothing (unknown)", // wall ms, scenario s, threshold ms
		"run.scenario.s":    "Scenario time covered",
		"run.file":          "Scenario file",
		"run.algorithm":     "Algorithm",
		"run.workload":      "Workload",
		"unknown.value":     "unknown",

		// What would have prevented it.
		"fix.restore.own":     "Reclaim only what is yours, once it has expired: a restarted worker should leave its old leases to their TTL (the visibility timeout) instead of deleting every job's lock key on start, live workers' included (celery/kombu PR #905, #1098).",
		"fix.safe":            "Safe unlock: give each holder a random owner token and release with an atomic Lua script that deletes the key only if it still holds your token (lesson 45).",
		"fix.fencing":         "Fencing token, claimed first: every grant carries a number that only grows; the resource (the payment gateway, the counter, the stock…) refuses any write with a token lower than one it has already seen, and each new holder presents its token to the resource as soon as it is granted, before anything slow. A token check refuses only a write older than a token the resource has seen: a stale holder that writes before the new holder's first write gets through unless the new holder claimed first (lesson 46; lock-theory §7.2).",
		"fix.idempotency":     "Idempotency key: give the charge a unique key the payment gateway remembers, so a second charge of the same invoice is refused whoever sends it (lesson 48).",
		"fix.atomic":          "No lock at all: do the check and the change in one atomic Redis command or Lua script (e.g. check-and-decrement), so there is no window to lose (lesson 42).",
		"fix.enforce":         "The tokens were there but the resource did not check them: the resource must refuse writes with an old fencing token (lesson 46).",
		"fix.wait.lock":       "Wait for a replica before acting: after acquiring, WAIT 1 until a replica has acknowledged the key, so the replica Sentinel promotes has it (replication is asynchronous). A fencing counter on the same master would be lost in the same failover; fence only with an issuer that survives it (lessons 46, 47; lock-theory S23).",
		"fix.wait.counter":    "The token issuer went backwards in a failover: Sentinel promoted a replica that had not received the counter's last INCR (replication is asynchronous). Have each grant wait until a replica has acknowledged the counter and the key (WAIT 1 before the token is used), so the replica Sentinel promotes has them; persistence on the old master would not have reached the replica (lesson 46, lock-theory S23).",
		"fix.durable.counter": "The token issuer went backwards: keep the fence counter durable (appendonly yes, appendfsync always) or on a store that survives a restart, so a new grant never repeats an old token (lesson 46, lock-theory S06b).",
		"fix.redlock":         "Redlock's safety depends on clocks and timing: a clock jump, a pause or a slow network lets two clients get a quorum. Do not rely on it for correctness; add a fencing token checked by the resource (lesson 47).",
		"fix.ttl":             "Give the lock a TTL, so a crashed holder's lock frees itself (lesson 42).",
		"fix.refresh.owner":   "A renewal must extend the key only while it still holds the lease's owner token (compare-and-pexpire), never set a missing key again, and tell the holder at once when it finds the key gone or someone else's, so that the holder stops before it acts (redis-semaphore 5.3.1, #175; redlock-rb PR #37).",
		"fix.renewal":         "A renewer kept extending a lock that no one was using: stop the renewer before sending the unlock, whatever the unlock's reply, and bound the renewals by the job (a cap on renewals, or renew only while the job makes progress), so that a hung or finished holder loses the lock one TTL later (BR-21, lock-theory S15b).",
		"fix.orphan":          "A lock whose holder was gone kept the others out until its TTL ran out: size the TTL to the job, not to a generous safety bound, and renew it while the job runs, so that a dead holder blocks at most one short TTL (BR-34).",
		"fix.ttl.atomic":      "Set the key and its TTL in one command, SET key token NX PX ttl: with SETNX then EXPIRE, a crash between the two leaves a key that never expires (lesson 42).",
		"fix.unavailable":     "No client could get the lock for longer than the scenario allows: this is a liveness problem, not a safety one. See what held it: an orphaned key (a holder that crashed or stopped believing) lasts until its TTL; a lost quorum needs more nodes reachable (lesson 47).",
		"fix.fixed":           "The same fault, made harmless: scenario %s.",                                                                                                             // scenario
		"fix.fixed.run":       "Run it with",                                                                                                                                             //
		"fix.fixed.report":    "open its report",                                                                                                                                         //
		"fix.saved.fencing":   "Nothing to fix: the fencing token already did its job. The lock still broke (see the informational overlap), but the resource refused the stale holder.", //
		"fix.cas.claim":       "The resource's check-and-set refuses a stale write only once the newer holder has stored its token as currlock, and a fencing token would do no better: a holder can be paused between its grant and its claim, and a stale write that lands in that gap is accepted. Have each holder read the state after its claim and decide from that read (the newer holder then sees the stale write), and key an external effect by an idempotency key (lock-theory §7.2, §7.3).",
		"fix.saved.cas":       "Nothing to fix: the resource's check-and-set did its job. The lock still broke (see the informational overlap), but the newer holder had stored its token as currlock, so the resource refused the stale holder's write (antirez 2016, lock-theory §7.3).",

		// Verdict sentences.
		"say.double.late":      "The invoice (%s) was charged twice: %s kept acting on a lock that had expired %.1f s earlier.",                                                             // Key, client, seconds
		"say.double.crash":     "The invoice (%s) was charged twice: %s kept acting on a lock its node had lost in a crash %.1f s earlier.",                                                 // Key, client, seconds
		"say.double.clock":     "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock jumped and it no longer had a majority of nodes.", // key, client, seconds, nodes
		"say.double.restored":  "The invoice (%s) was charged twice: %s kept acting on a lock whose key %s, restarted, had deleted on start %.1f s earlier.",                                // key, client, restorer, seconds
		"say.double.removed":   "The invoice (%s) was charged twice: %s kept acting on a lock whose key %s had deleted %.1f s earlier.",                                                     // key, client, deleter, seconds
		"say.double.deleted":   "The invoice (%s) was charged twice: %s kept acting on a lock whose key a janitor had deleted %.1f s earlier.",                                              // key, client, seconds
		"say.double.failover":  "The invoice (%s) was charged twice: %s kept acting on a lock lost %.1f s earlier, when %s failed over to a replica that did not have its key.",             // key, client, seconds, group
		"say.double.sharer":    "The invoice (%s) was charged twice: %s kept acting on a lock whose key %s, presenting the same owner token, had released %.1f s earlier.",                  // key, client, releaser, seconds
		"say.double":           "The invoice (%s) was charged twice, by %s.",                                                                                                                // Key, clients
		"say.stale":            "The resource accepted a stale write: %s",                                                                                                                   // explain
		"say.other":            "%s: %s",                                                                                                                                                    // kind, explain
		"say.fenced":           "The fencing token saved the day: %s's late %s (token %d) was refused because the resource had already seen token %d.",                                      // client, action, token, seen
		"say.fenced.plain":     "The fencing token saved the day: a late write by %s was refused.",
		"say.valid":            "No checker found a problem: the lock kept its promise in this run.",
		"say.unknown":          "Inconclusive: %s",
		"say.unknown.plain":    "Inconclusive: a checker could not decide.",
		"say.unknown.missed":   "Inconclusive: the run did not test what the scenario describes, because %s never took effect.", // step list
		"step.missed":          "step #%d (%s on %s, %s)",                                                                       // id, fault word, targets, when
		"when.at":              "at t=%ss",                                                                                      // t
		"when.start":           "before the clients start",                                                                      //
		"when.event":           "%s after %s first acquired the lock",                                                           // delay, client
		"when.granted":         "%s after %s was first granted the lock by %s",                                                  // delay, client, node
		"when.point":           "the first time %s is %s",                                                                       // client, point words
		"when.point.nth":       "the %s time %s is %s",                                                                          // ordinal, client, point words
		"and":                  "%s and %s",
		"say.double.reset":     "The invoice (%s) was charged twice: %s's lock expired at t=%ss and its extend set the key again at t=%ss as if it had held it throughout; it charged %.1f s after its lock had expired.", // key, client, t expired, t reset, seconds
		"say.double.clock.one": "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock jumped forward and its key expired early.",                                      // key, client, seconds, node

		// Narrative. Times are scenario seconds, formatted by the caller.
		"n.acquire":               "%s acquired the lock on %s (%s, TTL %s).",                                                                               // client, key, token text, ttl
		"n.acquire.permit":        "%s acquired a permit of %s (%s, TTL %s).",                                                                               // client, key, token text, ttl
		"a.mutex-overlap.permits": "%s all believed they held a permit of %s from t=%ss to t=%ss: more holders than its %d permits.",                        // clients, key, t0, t1, permits
		"n.release.permit":        "%s released its permit of %s.",                                                                                          // client, key
		"a.stale-write-accepted":  "The resource accepted %[1]s's write on %[3]s at t=%[4]ss although %[2]s had already written to it under a newer lease.", // stale, current, key, t
		"n.acquire.nodes":         "%s acquired the lock on %s on %s (%d/%d, quorum %d) (%s, TTL %s).",                                                      // client, key, nodes, n, total, quorum, token text, ttl
		"n.probe":                 "Final probe: %s acquired the lock on %s (%s).",                                                                          // client, key, token text
		"n.probe.permit":          "Final probe: %s acquired a permit of %s (%s).",                                                                          // client, key, token text
		"n.token.fence":           "token %d",
		"n.token.owner":           "owner token %s",
		"n.tries.one":             "%s tried to acquire %s and was refused (someone else held it).",                                                                    // client, key
		"n.tries":                 "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time (someone else held it).",                        // client, key, n, t0, t1
		"n.tries.free.one":        "%s tried to acquire %s and was refused, though no node held anyone's key for it then.",                                             // client, key
		"n.tries.free":            "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time, though no node held anyone's key for it then.", // client, key, n, t0, t1
		"n.acquire.info.refused":  "%s's acquire of %s could not connect (connection refused): recorded as unknown.",
		"n.acquire.info.reset":    "%s's acquire of %s lost its connection before the reply: outcome unknown.",
		"n.acquire.info.error":    "%s's acquire of %s ended in an error, with no definite answer: outcome unknown.",
		"n.acquire.info":          "%s's acquire of %s got no answer: outcome unknown.",
		"n.read":                  "%s read %s: %s.",          // client, key, result
		"n.write.ok":              "%s: %s of %s accepted%s.", // client, action, key, token suffix
		"n.write.claim":           "%s registered its token at the resource for %s%s: accepted.",
		"n.write.refused":         "%s's %s of %s%s was REFUSED by the resource: %s.", // client, action, key, token suffix, reason
		"n.write.info.refused":    "%s's %s of %s%s could not connect (connection refused): recorded as unknown.",
		"n.write.info.reset":      "%s's %s of %s%s lost its connection before the reply: it may or may not have happened.",
		"n.write.info.error":      "%s's %s of %s%s ended in an error, with no definite answer: it may or may not have happened.",
		"n.write.info":            "%s's %s of %s%s got no answer: it may or may not have happened.",
		"n.with.token":            " with token %d",
		"n.with.word":             "with",
		"n.release.ok":            "%s released %s (key deleted).",
		"n.release.gone":          "%s tried to release %s but its key was gone (%s) — nothing of its own to remove.",                                   // client, key, cause
		"n.release.permit.gone":   "%s tried to release its permit of %s, but it had been purged as timed out at t=%ss — nothing of its own to remove.", // client, key, t
		"n.gone.expired":          "it had expired at t=%ss",                                                                                            // t
		"n.gone.clock":            "it had expired early at t=%ss, when a node's clock jumped",                                                          // t
		"n.gone.restored":         "%[2]s, restarted, had deleted it on start at t=%[1]ss",                                                              // t, client
		"n.gone.removed":          "%[2]s had deleted it at t=%[1]ss",                                                                                   // t, client
		"n.gone.sharer":           "%[2]s, presenting the same owner token, had released it at t=%[1]ss",                                                // t, client
		"n.gone.deleted":          "a janitor had deleted it at t=%ss",                                                                                  // t
		"n.gone.taken.released":   "; %s had already taken and released the lock",                                                                       // client
		"n.gone.taken.holds":      "; %s holds the lock now",                                                                                            // client
		"n.release.none.other":    "%s tried to release %s, but the key now belonged to %s: nothing of its own to delete.",
		"n.release.none":          "%s tried to release %s: nothing of its own to delete.",
		"n.release.info.refused":  "%s's release of %s could not connect (connection refused): recorded as unknown.",
		"n.release.info.reset":    "%s's release of %s lost its connection before the reply: outcome unknown.",
		"n.release.info.error":    "%s's release of %s ended in an error, with no definite answer: outcome unknown.",
		"n.release.info":          "%s's release of %s got no answer: outcome unknown.",
		"n.release.notrun":        "%[1]s's release of %[2]s never reached Redis (no node ran a command of %[1]s then): its key stayed, though %[1]s, with no answer, could not know it.", // client, key
		"n.extend.ok":             "%s extended its lock on %s.",
		"n.renew.ok":              "%s's watchdog renewed its lock on %s.",
		"n.renew.fail":            "%s's watchdog could not renew its lock on %s.",
		"n.renew.foreign":         "%[1]s's watchdog renewed the lock key of %[2]s, but it was %[3]s's key: its extend checks no owner token, so it kept %[3]s's lease alive, not its own.", // client, key, owner
		"n.renew.lib.ok":          "%s's lock library renewed its lock on %s on its own.",
		"n.renew.lib.fail":        "%s's lock library tried to renew its lock on %s on its own and found it gone.",
		"n.renew.lib.foreign":     "%[1]s's lock library renewed the lock key of %[2]s on its own, but it was %[3]s's key: its renewal checks no owner token, so it kept %[3]s's lease alive, not its own.", // client, key, owner
		"n.extend.foreign":        "%[1]s extended the lock key of %[2]s, but it was %[3]s's key: its extend checks no owner token, so it kept %[3]s's lease alive, not its own.",                           // client, key, owner
		"n.extend.fail":           "%s could not extend its lock on %s.",
		"n.lost":                  "%s concluded its lock on %s was lost and stopped.",
		"n.pause":                 "%s was frozen by a stop-the-world GC pause of %s%s.",                                                // client(s), duration, point suffix
		"n.pause.event-loop":      "%s was frozen by a blocked event loop for %s%s: none of its timers ran, its lease renewal neither.", // client(s), duration, point suffix
		"n.pause.sleep":           "%s was frozen by a host sleep of %s%s.",                                                             // client(s), duration, point suffix
		"n.pause.stop":            "%s was stopped by SIGSTOP for %s%s.",                                                                // client(s), duration, point suffix
		"n.pause.point":           ", %s",                                                                                               // point words
		"point.before-write":      "just before its write",
		"point.after-acquire":     "right after acquiring the lock",
		"point.before-release":    "just before releasing the lock",
		"n.resume":                "%s woke up after being frozen for %s%s.",                                                          // client, duration, belief suffix
		"n.resume.belief":         " and still believes it holds the lock on %s (%s)",                                                 // key, token text
		"n.resume.belief.permit":  " and still believes it holds a permit of %s (%s)",                                                 // key, token text
		"n.fault":                 "Fault: %s on %s for %s%s.",                                                                        // fault word, targets, duration, detail
		"n.fault.end":             "Fault healed: %s on %s.",                                                                          // fault word, targets
		"n.partition":             "Network partition: %s, for %s.",                                                                   // cut sentences, duration
		"n.cut.one":               "%s cannot reach %s",                                                                               // from, to
		"n.cut.heal":              "%s can reach %s again",                                                                            // from, to
		"n.cut.heal.down":         "the cut between %s and %s was lifted, but %s was still down",                                      // from, to, nodes down
		"n.partition.end":         "Network partition healed: %s.",                                                                    // heal sentences
		"n.clock.jump":            "%s's clock jumped %s: keys on it expire that much sooner.",                                        // nodes, signed jump
		"n.clock.jump.client":     "%s's own clock jumped %s; no Redis key changes, only what %[1]s computes from its clock.",         // clients, signed jump
		"n.clock.rate":            "%s's clock runs at %[3]s× speed for %[2]s: keys on it expire that much sooner (or later).",        // nodes, duration, rate
		"n.clock.rate.client":     "%s's own clock runs at %[3]s× speed for %[2]s; no Redis key changes.",                             // clients, duration, rate
		"n.starve":                "%s's lease renewer was starved for %s while its job ran on.",                                      // client, duration
		"n.key.nottl":             "%[1]s stored %[2]s for %[3]s with no TTL: until someone deletes it, nothing will ever expire it.", // node, key, client
		"n.crash.client":          "%s crashed: it stops for good and never releases its lock.",                                       // client
		"n.delete.key":            "A janitor deleted the lock key %s on %s (by key, not by owner; the holder is not told).",          // key, nodes
		"n.crash":                 "%s crashed and lost its keys; down for %s.",                                                       // nodes, duration
		"n.crash.kept":            "%s crashed and came back with its keys from %[3]s; down for %[2]s.",
		"n.crash.some":            "%s crashed; down for %s. It came back from %s with %s but without %s.", // nodes, duration, source, kept keys, lost keys
		"n.crash.from.aof":        "its append-only file",
		"n.crash.from.rdb":        "its last RDB snapshot",                                          // nodes, duration
		"n.pause.node":            "Redis on %s was frozen for %s.",                                 // nodes, duration
		"n.latency":               "Network latency: replies to %s delayed for %s (%v ± %v).",       // slow sentences, duration, latency, jitter
		"n.slow.one":              "%s from %s",                                                     // client, nodes
		"n.reset":                 "Connections reset (TCP RST): %s.",                               // cut sentences
		"n.expired.paused":        "%s's lock on %s expired in Redis (TTL %s) while %s was paused.", // client, key, ttl, client
		"n.expired.belief":        "%s's lock on %s expired in Redis (TTL %s) while %s still believed it held it.",
		"n.expired":               "%s's lock on %s expired in Redis (TTL %s).",
		"n.expired.nodes":         "%s's key %s expired on %s (TTL %s).",                                                                                       // client, key, nodes, ttl
		"n.expired.clock":         "%s's key %s expired early on %s: its clock had jumped.",                                                                    // client, key, nodes
		"n.expired.crash":         "%s's key %s was lost on %s: the node crashed.",                                                                             // client, key, nodes
		"n.lost.failover":         "%[1]s's key %[2]s was lost in the failover of %[3]s: the promoted replica had not received all its master had written.",    // client, key, group
		"n.quorum.lost":           "Only %d of %d nodes still hold it, fewer than the quorum of %d: %s no longer really holds the lock, but does not know it.", // left, total, quorum, client
		"n.anomaly":               "Violation (%s): %s",                                                                                                        // kind word, sentence
		"n.anomaly.info":          "Noted (%s, informational): %s",
		"n.failover":              "%[2]s, the master of group %[1]s, failed (%[3]s); Sentinel promoted the replica %[4]s after %.1[5]f s. %[4]s had received %[6]d of the %[7]d bytes of replication stream %[8]s had written: whatever it lacked is gone.", // group, old, mode, promoted, seconds, replica offset, master offset, old
		"n.failover.none":         "The master of %s failed (%s), and no replica was promoted.",                                                                                                                                                              // group, mode

		// Fault kinds.
		"fault.pause":            "GC pause",
		"fault.pause.event-loop": "blocked event loop",
		"fault.pause.sleep":      "host sleep",
		"fault.pause.stop":       "SIGSTOP",
		"fault.partition":        "network partition",
		"fault.latency":          "network latency",
		"fault.reset":            "connection reset",
		"fault.crash":            "node crash",
		"fault.pause-node":       "node pause",
		"fault.clock-jump":       "clock jump",
		"fault.clock-rate":       "clock drift",
		"fault.starve-renewals":  "starved renewer",
		"fault.crash-client":     "client crash",
		"fault.delete-key":       "key deleted",
		"fault.failover":         "failover",
		"fault.replication-lag":  "replication lag",
		"fault.bandwidth":        "bandwidth limit",
		"fault.slicer":           "sliced packets",
		"fault.limit-data":       "data limit",
		"fault.slow-close":       "slow close",
		"fault.timeout":          "connection timeout",
		"refusal.stale-fence":    "stale fencing token %d < %d",                                           // token, highest seen
		"refusal.duplicate-key":  "duplicate idempotency key %s",                                          // key
		"refusal.lock-changed":   "%s's currlock holds another holder's token: a newer holder claimed it", // key
		"refusal.out-of-stock":   "out of stock",
		"refusal.unknown":        "no reason given",

		// Anomaly kinds, their sentence and why they matter.
		"kind.mutex-overlap":           "two holders at once",
		"kind.mutex-overlap.semaphore": "more holders than permits",
		"kind.double-effect":           "charged more than once",
		"kind.stale-write-accepted":    "stale write accepted",
		"kind.foreign-unlock":          "unlocked someone else's lock",
		"kind.lost-update":             "lost update",
		"kind.oversell":                "oversold",
		"kind.over-admission":          "too many admitted",
		"kind.split-brain":             "two leaders",
		"kind.duplicate-run":           "job ran more than once",
		"kind.token-regression":        "fencing token went backwards",
		"kind.unavailable":             "lock unavailable",
		"kind.stuck-lock":              "lock stuck",
		"kind.not-linearizable":        "not linearizable",
		"kind.resurrected-lease":       "lease brought back after another's grant",
		"kind.hidden-lapse":            "lapsed lease kept from its holder",
		"a.resurrected-lease":          "%[1]s's owner token was set again on %[2]s (key %[3]s on %[4]s) at t=%[5]ss, after its key had ended at t=%[6]ss and %[7]s had been granted the lock at t=%[8]ss: %[1]s's lock brought back a lease that was no longer its own.", // holder, resource, lock key, node, t set, t ended, other, t granted
		"a.hidden-lapse":               "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; its %[4]s at t=%[5]ss said the lease was still its own, and nothing told %[1]s otherwise before its %[6]s at t=%[7]ss.",                                               // holder, key, t ended, lock op, t said, act, t act
		"a.hidden-lapse.release":       "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; nothing told %[1]s, and its release at t=%[4]ss said it had removed the key.",                                                                                         // holder, key, t ended, t release
		"a.hidden-lapse.release.said":  "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; its %[4]s at t=%[5]ss said the lease was still its own, nothing told %[1]s otherwise, and its release at t=%[6]ss said it had removed the key.",                       // holder, key, t ended, lock op, t said, t release
		"lockop.renewal":               "renewal",
		"lockop.extend":                "extend",
		"a.mutex-overlap":              "%s both believed they held %s from t=%ss to t=%ss.",                                                                                                                                     // clients, key, t0, t1
		"a.token-regression":           "%s were granted fencing tokens on %s that did not grow (from t=%ss to t=%ss): a later grant repeated or undercut an earlier token, so the resource cannot tell the stale holder apart.", // clients, key, t0, t1
		"a.double-effect":              "%s was charged %d times: %s. A payment must happen once.",                                                                                                                               // key, n, list
		"a.double-effect.plain":        "%s was charged more than once, by %s.",                                                                                                                                                  // key, clients
		"a.at":                         "%s at t=%ss",                                                                                                                                                                            // client, t
		"a.not-linearizable":           "Porcupine found no order of %s's operations in which one client at a time holds the lock (%s, from t=%ss).",                                                                             // key, clients, t
		"a.generic":                    "%s: %s on %s, t=%ss – t=%ss.",                                                                                                                                                           // kind word, clients, key, t0, t1
		"a.foreign-unlock.restored":    "%s, restarted, deleted on start a lock key on %s that belonged to %s (t=%ss): its restore re-queued every job lease it found, live ones included.",                                      // restorer, key, owner, t
		"a.foreign-unlock":             "%s deleted a lock key on %s that belonged to %s (t=%ss).",                                                                                                                               // releaser, key, owners, t
		"why.mutex-overlap":            "Correctness: mutual exclusion was broken; anything both did to the resource in this window may be wrong.",
		"why.double-effect":            "Correctness: the customer paid twice. This is real damage, not just wasted work.",
		"why.stale-write-accepted":     "Correctness: an old holder's write overwrote a newer one.",
		"why.foreign-unlock":           "Correctness: a client deleted a lock it did not own: its owner went on working without a key, and any other client could take the lock meanwhile.",
		"why.not-linearizable":         "Correctness: the resource's history cannot be explained by one lock holder at a time.",
		"why.oversell":                 "Correctness: more was sold than there was stock.",
		"why.lost-update":              "Correctness: one write silently erased another.",
		"why.duplicate-run":            "Efficiency or correctness: a job meant to run once per fire time ran more than once; harmless only if the job is idempotent.",
		"why.split-brain":              "Correctness: a leader of an older term acted after a newer leader had been elected.",
		"why.over-admission":           "Correctness: more clients than allowed were inside at once.",
		"why.token-regression":         "Correctness: fencing tokens must only grow; an older token after a newer one defeats fencing.",
		"why.unavailable":              "Liveness: nobody could get the lock; nothing was corrupted, but work stopped.",
		"why.stuck-lock":               "Liveness: the lock stayed taken with nobody using it.",
		"why.informational":            "Efficiency only: the lock was broken, but the resource refused the stale holder, so no data was harmed.",
		"why.other":                    "Correctness: a safety property of the lock did not hold.",
		"why.resurrected-lease":        "Correctness: the lock came back to a holder after another client had been granted it, so two clients were granted one lock, and the old holder was never told it had lost it.",
		"why.hidden-lapse":             "Correctness: the lock told its holder its lease was still its own after the lease had ended, so the holder acted without the lock's protection.",
		"why.hidden-lapse.uncontended": " Informational: no other client was granted the lock meanwhile, so no one else acted under it.",
		"kind.duplicate-work":          "duplicate work",
		"informational.short":          "informational",
		"a.mutex-overlap.many":         "%s all believed they held %s from t=%ss to t=%ss.",                                                                       // clients, key, t0, t1
		"a.lost-update":                "An update of %s was lost between t=%ss and t=%ss (%s).",                                                                  // key, t0, t1, clients
		"a.oversell":                   "%s was oversold: %d sold with only %d in stock (%s).",                                                                    // key, sold, stock, sales list
		"a.oversell.plain":             "%s was oversold: the stock went below 0 (%s).",                                                                           // key, clients
		"a.duplicate-run":              "%s ran %d times: %s. A scheduled job must run once per fire time.",                                                       // key, n, list
		"a.split-brain":                "%s both acted as leader of %s: the old leader's write was accepted at t=%ss, after the new leader was elected at t=%ss.", // clients, key, t1, t0
		"a.over-admission":             "%s were inside %s at once from t=%ss to t=%ss, with only %d permits.",                                                    // clients, key, t0, t1, permits
		"a.duplicate-work":             "%s both rebuilt %s from t=%ss to t=%ss: wasted work, the data is fine.",                                                  // clients, key, t0, t1
		"a.stuck-lock":                 "After the faults healed, %s was still held by %s and the final probe could not take it (held since t=%ss).",              // key, clients, t0
		"a.unavailable":                "No client believed it held %s, yet none could acquire it from t=%ss to t=%ss.",
		"a.unavailable.local":          "%[1]s sat free in Redis from t=%[2]ss to t=%[3]ss, yet %[4]s, alive and trying, was refused every time without its acquire reaching Redis: the lock was held inside its own process.", // key, t0, t1, client
		"why.duplicate-work":           "Efficiency only: two workers did the same work. Waste, not corruption: this is an efficiency lock (Kleppmann 2016, efficiency vs correctness).",
		"why.efficiency":               "Efficiency only: the lock was broken, but cache-rebuild uses it only to save work, so the cost is duplicate work, not wrong data.",
		"why.liveness.info":            " Informational: this scenario does not ask for liveness (expect_live).",
		"why.liveness.busy":            " Not judged: the machine was too busy to keep the run's compressed time, so the bounds were the machine's, not the lock's.",
		"say.lost-update":              "%s",
		"say.oversell":                 "%s",
		"say.duplicate-run":            "%s",
		"say.split-brain":              "Split brain, two leaders: %s", // describe
		"say.over-admission":           "%s",
		"say.stuck-lock":               "%s",
		"say.unavailable":              "%s",
		"say.waste":                    "No data was harmed, but work was wasted: %s", // describe
		"say.notlive":                  "Safe, but not live: %s",                      // describe
		"fix.incr":                     "Atomic increment: do the read-modify-write in one Redis command (INCR) or Lua script, or fence the writes so a stale writer is refused (lessons 42, 46).",
		"fix.lua.stock":                "Lua check-and-decrement: check the stock and decrement it in one atomic Lua script (algorithm atomic-lua); no lock, no window (lesson 42).",
		"fix.cron":                     "One lock per fire time (key job@<fire time>, never released early, or lockAtLeastFor ≥ the clock skew), and make the job idempotent (lesson 51).",
		"fix.epoch":                    "Epoch check, announced first: every election increments an epoch; the resource refuses any leader action with an epoch lower than the highest it has seen, and each new leader announces its epoch to the resource as soon as it is elected. An epoch check refuses only an action older than an epoch the resource has seen: a deposed leader that acts before the new leader's first action gets through unless the new leader announced first (lessons 46, 49; lock-theory §7.2).",
		"fix.semaphore":                "A semaphore alone cannot stop this: a holder paused past the timeout is purged and its permit handed on, while it still thinks it is inside. Check a token per permit at the resource (fencing), so the stale holder's work is refused (lessons 46, 50).",
		"fix.idempotency.charge":       "Idempotency key: the payment gateway remembers the key of each invoice's charge and refuses a second one (\"duplicate idempotency key\"), whoever sends it (lesson 48).",
		"n.read.counter":               "%s read %s = %d.",                                                                                                                  // client, key, n
		"n.done":                       "%s finished its work on %s and left its critical section.",                                                                         // client, key
		"n.stopped":                    "The run ended while %s was still inside its critical section on %s, its work unfinished: it believed it held the lock until then.", // client, key
		"n.done.all":                   "%s finished its work and left its critical section.",                                                                               // client
		"n.lost.all":                   "%s concluded its lock was lost and stopped.",                                                                                       // client
		"n.probe.fail":                 "Final probe: after every fault healed, %s could not acquire the lock on %s.",                                                       // client, key
		"n.probe.info.refused":         "Final probe: %s's acquire of %s could not connect (connection refused).",
		"n.probe.info.reset":           "Final probe: %s's acquire of %s lost its connection before the reply.",
		"n.probe.info.error":           "Final probe: %s's acquire of %s ended in an error, with no definite answer.",
		"n.probe.info":                 "Final probe: %s's acquire of %s got no answer.", // client, key
		"n.more":                       "… %d more steps from t=%ss to t=%ss: %s.",       // n, t0, t1, counts
		"n.more.acquire":               "%d grants",
		"n.more.retries":               "%d runs of refused acquires",
		"n.more.read":                  "%d reads",
		"n.more.write":                 "%d accepted writes",
		"n.more.refused":               "%d refused writes",
		"n.more.release":               "%d releases",
		"n.more.extend":                "%d renewals",
		"n.more.lost":                  "%d lost locks",
		"n.more.done":                  "%d finished critical sections",
		"n.more.fault":                 "%d faults",
		"n.more.heal":                  "%d fault ends",
		"n.more.expiry":                "%d key expiries",
		"n.more.probe":                 "%d probes",
		"n.more.violated":              "%d anomalies",
		"n.more.acquire.one":           "%d grant",
		"n.more.retries.one":           "%d run of refused acquires",
		"n.more.read.one":              "%d read",
		"n.more.write.one":             "%d accepted write",
		"n.more.refused.one":           "%d refused write",
		"n.more.release.one":           "%d release",
		"n.more.extend.one":            "%d renewal",
		"n.more.lost.one":              "%d lost lock",
		"n.more.done.one":              "%d finished critical section",
		"n.more.fault.one":             "%d fault",
		"n.more.heal.one":              "%d fault end",
		"n.more.expiry.one":            "%d key expiry",
		"n.more.probe.one":             "%d probe",
		"n.more.violated.one":          "%d anomaly",
		"p.waste":                      "wasted work (informational)",
		"p.effect.ok":                  "effect accepted (sale, write, run, …)",
		"p.effect.bad":                 "accepted effect that is the violation (as a checker names it)",

		// Plots.
		"p.timeline.title":        "%s — %s", // scenario, verdict
		"p.x":                     "scenario time (s)",
		"p.hold":                  "%s holds the lock", // client
		"p.hold.permit":           "%s holds a permit", // client
		"p.believed":              "believes it holds, but the key is gone",
		"p.resurrected":           "key set again",
		"p.believed.permit":       "believes it holds a permit, but it is gone",
		"p.key":                   "key on node",
		"p.pause":                 "GC pause (client frozen)",
		"p.pause.word":            "GC pause",
		"p.pause.event-loop":      "blocked event loop (client frozen)",
		"p.pause.sleep":           "host sleep (client frozen)",
		"p.pause.stop":            "SIGSTOP (client frozen)",
		"p.pause.word.event-loop": "event loop blocked",
		"p.pause.word.sleep":      "host sleep",
		"p.pause.word.stop":       "SIGSTOP",
		"p.paused":                "%s frozen: %s %s", // clients, fault word, duration
		"p.other.ok":              "other write accepted (claim, mark-paid)",
		"p.fault":                 "%s",
		"p.violation":             "violation",
		"p.charge.ok":             "charge accepted",
		"p.write.refused":         "write refused",
		"p.acquire.fail":          "acquire refused",
		"p.expired":               "expired",
		"p.ended":                 "key ended: %s", // words
		"p.lost.crash":            "lost in crash",
		"p.deleted":               "deleted by janitor",
		"p.node":                  "node %s",
		"p.cut":                   "cut from %s",             // nodes or clients
		"p.slow":                  "slow link to %s",         // nodes or clients
		"p.reset":                 "connections to %s reset", // nodes or clients
		"p.owner":                 "owner %s",
		"p.quorum.lost":           "quorum lost",
		"p.charge.bad":            "accepted charge that is the violation (as a checker names it)",
		"p.latency.title":         "%s — acquire latency", // scenario
		"p.latency.y":             "acquire latency (ms, wall time)",
		"p.rate.title":            "%s — acquires per second", // scenario
		"p.rate.y":                "acquires / s (scenario time)",
		"p.ok":                    "granted",
		"p.fail":                  "refused",
		"p.info":                  "unknown (no reply)",
		"p.charged":               "charged",
		"p.refused":               "refused",

		// Suite page.
		"suite.title":      "locksim suite: %d runs", // n
		"suite.totals":     "%d runs: %d valid, %d invalid, %d unknown. %d met their expectation, %d did not.",
		"suite.errors":     "%d had no verdict (an infrastructure error; each such run says why below).",
		"suite.rate":       "%s: %d of %d runs invalid (%.0f%%), %d unknown, %d errors.", // scenario, invalid, runs with a verdict, percent, unknown, runs with an infrastructure error
		"suite.rate.seeds": "Invalid seeds: %s",
		"suite.nochart":    "not drawn in this sweep (the run's page says how)",
		"suite.error":      "ERROR",
		"suite.scenario":   "Scenario",
		"suite.seed":       "Seed",
		"suite.verdict":    "Verdict",
		"suite.expect":     "Expected",
		"suite.met":        "Met",
		"suite.wall":       "Wall s",
		"suite.timeline":   "Timeline",
		"suite.report":     "Report",
		"suite.open":       "open",
		"suite.yes":        "yes",
		"suite.no":         "NO",
		"suite.none":       "—",
		"suite.aborted":    "aborted",
		// Facts of the run's account (issue 14).
		"n.fence.seen":          " — the fence counter on %s read %d",                                                                                     // node, value
		"n.release.foreign":     "%[1]s's release deleted %[2]s's key %[3]s: a plain DEL removes whatever key is there.",                                  // releaser, owners, key
		"n.flushed":             "%[1]s's key %[2]s was flushed from %[3]s.",                                                                              // client, key, nodes
		"n.overwritten":         "%[1]s's key %[2]s on %[3]s was overwritten by %[4]s.",                                                                   // client, key, node, by
		"n.expired.taken":       "%[1]s's lock on %[2]s was gone by the time another client was granted it (the history does not say how).",               // client, key
		"n.permit.purged":       "%[1]s's permit on %[2]s was purged as timed out, after %[3]s.",                                                          // owner, key, held for
		"n.permit.lost":         "%[1]s's permit on %[2]s was lost on %[3]s.",                                                                             // owner, key, node
		"n.gone.crashed":        "it was lost at t=%[1]ss, when %[2]s crashed",                                                                            // t, node
		"n.gone.failover":       "it was lost at t=%[1]ss in the failover of %[2]s",                                                                       // t, group
		"n.gone.taken":          "it was gone by t=%ss, for a reason the history does not show",                                                           // t
		"n.gone.flushed":        "it was flushed at t=%ss",                                                                                                // t
		"n.gone.overwritten":    "it was overwritten at t=%ss",                                                                                            // t
		"n.gone.taken.ended":    "; %s had taken the lock since, and lost it too",                                                                         // client
		"c.expired.paused":      "%[1]s's lease expired while it was paused and %[2]s acquired it",                                                        // stale, current
		"c.expired.used":        "%[1]s's lease (TTL %[3]s) expired while it was still working, a pause having used up part of it, and %[2]s acquired it", // stale, current, ttl
		"c.expired.during":      "%[1]s's lease (TTL %[3]s) expired while it was under a fault (%[4]s), and %[2]s acquired it",
		"c.expired":             "%[1]s's lease (TTL %[3]s) expired while it was still working and %[2]s acquired it",                                                              // stale, current, ttl
		"c.taken":               "%[2]s was granted the lock on %[3]s while %[1]s still believed it held it",                                                                       // stale, current, nodes
		"c.restored":            "%[3]s, restarted, deleted %[1]s's key on start at t=%[4]ss (its restore re-queued every job lease it found) and %[2]s acquired it",               // stale, current, restorer, t
		"c.deleted":             "%[3]s's release at t=%[4]ss removed %[1]s's key and %[2]s acquired it",                                                                           // stale, current, deleter, t
		"c.janitor":             "a delete-key fault removed %[1]s's key on %[3]s at t=%[4]ss and %[2]s acquired it",                                                               // stale, current, nodes, t
		"c.crashed":             "%[3]s crashed at t=%[4]ss and lost %[1]s's key, and %[2]s acquired it",                                                                           // stale, current, nodes, t
		"c.clock":               "%[3]s's clock jumped and %[1]s's key there expired early at t=%[4]ss, and %[2]s acquired it",                                                     // stale, current, nodes, t
		"c.failover":            "%[3]s failed over at t=%[4]ss to a replica that had not received %[1]s's key, and %[2]s acquired it",                                             // stale, current, group, t
		"c.ended.flushed":       "%[1]s's key on %[3]s was flushed at t=%[4]ss and %[2]s acquired it",                                                                              // stale, current, nodes, t
		"c.ended.overwritten":   "%[1]s's key on %[3]s was overwritten at t=%[4]ss and %[2]s acquired it",                                                                          // stale, current, nodes, t
		"c.ended.purged":        "%[1]s's permit on %[3]s was purged at t=%[4]ss and %[2]s entered",                                                                                // stale, current, nodes, t
		"c.possible":            "%[1]s acted on a lease it may never have been granted while %[2]s held the lock",                                                                 // stale, current
		"c.held":                "%[2]s was granted the lock while %[1]s still believed it held it",                                                                                // stale, current
		"c.reentered":           "%[2]s's acquire re-entered %[1]s's own key, presenting the same owner token, and was granted it",                                                 // stale, current
		"c.sharer-released":     "%[3]s's release at t=%[4]ss removed the key %[1]s's grant rested on (its own, under the owner token they share) and %[2]s acquired it",           // stale, current, remover, t
		"c.other-key":           "%[1]s locked %[3]s and %[2]s locked %[4]s: the two computed different lock keys for one resource, so neither lock excluded the other",            // stale, current, stale's key, current's key
		"a.mutex-overlap.cause": "%[1]s and %[2]s both believed they held %[3]s from t=%[4]ss to t=%[5]ss: %[6]s.",                                                                 // stale, current, key, t0, t1, cause
		"a.orphaned-lease":      "%[1]s's key %[2]s stayed on its node from t=%[3]ss to t=%[4]ss (%[5]s) after %[1]s had stopped believing it held it, while others were refused.", // owner, key, t0, t1, duration
		"a.split-brain.roles":   "%[1]s and %[2]s both acted as leader of %[3]s: %[1]s's write from an older term was accepted at t=%[4]ss, after %[2]s was elected at t=%[5]ss.",  // stale, current, key, t1, t0
		"kind.orphaned-lease":   "orphaned lease",
		"why.orphaned-lease":    "Liveness: a lock nobody believed they held kept others out until it ended.",
		"say.orphaned-lease":    "A lease was orphaned: %s",                                                                         // describe
		"say.overlap.cause":     "Two workers believed they held the lock at the same time: %[1]s, for %.1[3]f s on %[2]s — %[4]s.", // clients, key, seconds, cause (one may have been frozen throughout: a belief, not an act)
		"p.restored":            "deleted by a restarted client's restore on start",
		"p.removed":             "deleted by another client",
		"p.released":            "released",
		"p.purged":              "purged",
		"p.clock":               "expired early (clock)",
		"p.failover":            "lost in failover",
		"p.held":                "still held",

		// Issue 19, third round: the two-write job (BR-23 #1416), the orphan
		// kept alive by another client's extends (BR-25 #1707) and the client
		// restart (kombu PR #905, redisson #4595).
		"a.stale-write-accepted.record": "The resource accepted %[1]s's failure record on %[3]s at t=%[4]ss over the record of %[2]s's finished run: only the completion was checked against the lock, not the failure record.", // stale, current, key, t
		"refusal.lock-mismatch":         "the lock key of %s is gone or holds another owner token (Missing lock / Lock mismatch)",                                                                                               // key
		"fault.restart-client":          "client restart",
		"n.restart.client":              "%s was killed and started again %s later as a new process: it restored nothing, left its old lease to its TTL and began its jobs afresh.",                                                                                                                               // client, down time
		"n.restart.client.nolease":      "%s was killed and started again %s later as a new process, holding no lease then: it restored nothing and began its jobs afresh.",                                                                                                                                       // client, down time
		"n.restart.client.restore":      "%s was killed and started again %s later as a new process: on start it re-queued every job lease it found (a DEL of every job's lock key, kombu's restore of unacked messages), live workers' included.",                                                                // client, down time
		"a.orphaned-lease.extended":     "%[1]s's key %[2]s stayed on its node from t=%[3]ss to t=%[4]ss (%[5]s) after %[1]s had stopped believing it held it, while others were refused: %[6]s kept extending this key, which it did not hold (its extend does not check the owner), the last time at t=%[7]ss.", // owner, key, t0, t1, duration, extender, t
		"fix.extend.owner":              "Extend only your own lock, and only while it is still yours: a heartbeat that extends every configured key whoever holds it keeps a dead holder's lock for ever. Heartbeat the locks you acquired with a compare-and-pexpire on your own token, and drop a lock it no longer finds (rq PR #2458, BR-25).",

		// Issue 33: a grant the observed nodes contradict (checker
		// CauseNodeHeldAnother). Args: current, key, t0, nodes, stale; and
		// current, key, nodes, stale.
		"a.mutex-overlap.node": "%[1]s was told it was granted %[2]s at t=%[3]ss while %[4]s still held %[5]s's key and set none for %[1]s: two owners at once, by the node's own record.",
		"say.overlap.node":     "Two owners held the lock at once: %[1]s was told it was granted %[2]s while %[3]s still held %[4]s's key.",
	},
	"vi": {
		"title":             "Báo cáo locksim: %s",
		"emulated":          "Redis giả lập (miniredis)",
		"emulated.warning":  "Không phải Redis thật: lần chạy này dùng %s. Thời gian và TTL được giả lập.",
		"aborted":           "ĐÃ HUỶ — lịch sử không đầy đủ",
		"aborted.text":      "Lần chạy bị ngắt trước khi kết thúc: diễn biến, biểu đồ và kết luận chỉ phản ánh những gì xảy ra đến lúc đó.",
		"verdict.valid":     "HỢP LỆ",
		"verdict.invalid":   "VI PHẠM",
		"verdict.unknown":   "CHƯA KẾT LUẬN",
		"expect.none":       "Kịch bản này không khai báo kết quả kỳ vọng.",
		"expect.aborted":    "Kỳ vọng: %s — không đánh giá — lần chạy bị ngắt trước khi kết thúc.",
		"say.aborted":       "Lần chạy bị ngắt trước khi kết thúc; lịch sử không đầy đủ chưa cho thấy vi phạm nào.",
		"expect.met":        "Kỳ vọng: %s — Kết quả: %s (đúng kỳ vọng).",
		"expect.notmet":     "Kỳ vọng: %s — Kết quả: %s (KHÔNG đúng kỳ vọng).",
		"expect.missing":    "Thiếu: %s.",
		"expect.unjudged":   "Chưa đánh giá: %s — chỉ bản ghi của chính các node về lệnh chúng đã thực thi mới cho thấy điều này, và lần chạy này không ghi lại bản ghi đó.",
		"expect.unexpected": "Có nhưng ngoài kỳ vọng: %s.",
		"expect.cut":        "Kỳ vọng: %s — không đánh giá — lịch sử bị cắt ngang.",
		"cut":               "BỊ CẮT — lịch sử kết thúc sớm",
		"cut.text":          "Tệp lịch sử dừng trước khi lần chạy kết thúc (bị cắt ngang khi đang ghi): diễn biến, biểu đồ và kết luận chỉ dựa trên phần còn lại, và kết luận nhiều nhất là chưa kết luận, trừ khi nó cho thấy vi phạm.",
		"say.cut":           "Lịch sử bị cắt ngang; phần còn lại chưa cho thấy vi phạm nào.",
		"h.story":           "Diễn biến từng bước",
		"h.story.note":      "Thời gian tính theo thời gian kịch bản (t=0 là lúc bắt đầu chạy).",
		"h.anomalies":       "Điều gì đã sai",
		"h.fix":             "Cách phòng tránh",
		"h.checkers":        "Các checker",
		"h.timeline":        "Dòng thời gian",
		"h.timeline.how":    "Mỗi client (w1, w2, …) một hàng, mỗi node Redis một hàng và một hàng cho tài nguyên. Thanh màu là lock đang giữ, ghi kèm token; trên hàng của node, đó là key lock mà node đó giữ (viền nét đứt khi node không được quan sát và kết quả của client cho biết điều đó). Mũi tên xám là lệnh gửi tới node và phản hồi của nó; đường đỏ kết thúc bằng dấu chéo là thông điệp không bao giờ tới nơi. Vùng tô là lỗi được chèn vào; dải đỏ là nơi một checker phát hiện vi phạm. Di chuột lên bất kỳ ký hiệu nào để xem đầy đủ thao tác.",
		"h.latency":         "Độ trễ lấy lock",
		"h.rate":            "Tốc độ lấy lock",
		"h.history":         "Tính tuyến tính (porcupine)",
		"h.scenario":        "Kịch bản",
		"h.run":             "Lần chạy",
		"no.anomalies":      "Không có bất thường nào.",
		"col.kind":          "Vấn đề",
		"col.clients":       "Client",
		"col.key":           "Key",
		"col.window":        "Khoảng thời gian (s kịch bản)",
		"col.explain":       "Giải thích",
		"col.why":           "Vì sao quan trọng",
		"col.checker":       "Checker",
		"col.verdict":       "Kết luận",
		"col.summary":       "Tóm tắt",
		"informational":     "chỉ để tham khảo (không làm lần chạy thất bại)",
		"checker.words":     "Nguyên văn của checker (tiếng Anh)",
		"history.link":      "Mở kết quả kiểm tra của porcupine cho lịch sử lock và tài nguyên, vẽ trên cùng trục thời gian với trang này (history.html)",
		"history.none":      "Không có history.html: lần chạy này không có thông tin kiểm tra tính tuyến tính.",
		"history.toobig":    "Không có history.html: lịch sử có %d thao tác porcupine, vượt giới hạn %d.",
		"history.window":    "Lịch sử có %d thao tác porcupine, vượt giới hạn %d: history.html chỉ hiển thị %d thao tác từ t=%ss đến t=%ss, khoảng bận rộn nhất quanh bất thường đầu tiên.",
		"history.faults":    "Ở đó các lỗi và khoảng vi phạm được tô như trên dòng thời gian ở trên; di chuột lên một thao tác để xem đầy đủ.",
		"alt.timeline":      "Dòng thời gian: ai giữ lock lúc nào, các lỗi và các lần ghi",
		"charts.skipped":    "Không vẽ biểu đồ cho lần chạy này: khi chạy lặp (--count) chỉ những lần chạy đáng chú ý mới có biểu đồ — seed đầu tiên, mọi lần không khớp kết quả kỳ vọng và, khi không khai báo kết quả kỳ vọng, mọi lần không hợp lệ (--charts all để vẽ cho mọi lần). Để vẽ ngay: %s",
		"alt.latency":       "Độ trễ lấy lock theo thời gian kịch bản",
		"alt.rate":          "Số lần lấy lock thành công và bị từ chối mỗi giây thời gian kịch bản",
		"run.seed":          "Seed",
		"run.reproduce":     "Chạy lại",
		"run.version":       "Phiên bản locksim",
		"run.redis":         "Phiên bản Redis",
		"run.backend":       "Backend",
		"run.scale":         "Tỉ lệ thời gian",
		"run.scale.text":    "1 s thời gian thực = %s s thời gian kịch bản",
		"run.wall":          "Thời gian thực",
		"run.wall.text":     "%.2f s",
		"run.lag":           "Độ tải của máy",
		"run.lag.text":      "bộ hẹn giờ của harness trễ tối đa %.1f ms (thời gian thực), tức %.2f s thời gian kịch bản; độ trễ từ %d ms trở lên mà đồng thời từ một phần mười TTL ngắn nhất của lần chạy trở lên khiến lần chạy không chứng minh được gì (unknown)",
		"run.scenario.s":    "Thời gian kịch bản đã chạy",
		"run.file":          "File kịch bản",
		"run.algorithm":     "Thuật toán",
		"run.workload":      "Workload",
		"unknown.value":     "không rõ",

		"fix.restore.own":     "Chỉ lấy lại những gì của mình, và chỉ khi nó đã hết hạn: một worker khởi động lại nên để các lease cũ của nó tự hết theo TTL (visibility timeout) thay vì xoá key lock của mọi job khi khởi động, kể cả của các worker đang chạy (celery/kombu PR #905, #1098).",
		"fix.safe":            "Unlock an toàn: mỗi người giữ lock có một owner token ngẫu nhiên, và nhả lock bằng Lua script atomic chỉ xoá key nếu key vẫn chứa token của mình (bài 45).",
		"fix.fencing":         "Fencing token, claim trước: mỗi lần cấp lock kèm một số chỉ tăng; tài nguyên (cổng thanh toán, bộ đếm, tồn kho…) từ chối mọi lần ghi có token nhỏ hơn token đã thấy, và mỗi người giữ lock mới trình token của mình cho tài nguyên ngay khi được cấp, trước mọi việc chậm. Kiểm tra token chỉ từ chối lần ghi cũ hơn một token tài nguyên đã thấy: người giữ lock cũ ghi trước lần ghi đầu tiên của người giữ mới vẫn lọt qua, trừ khi người mới đã claim trước (bài 46; lock-theory §7.2).",
		"fix.idempotency":     "Idempotency key: gán cho lần trừ tiền một key duy nhất mà cổng thanh toán ghi nhớ, nên lần trừ tiền thứ hai của cùng hoá đơn bị từ chối, dù ai gửi (bài 48).",
		"fix.atomic":          "Không cần lock: kiểm tra và thay đổi trong một lệnh Redis atomic hoặc Lua script (vd check-and-decrement), nên không còn khoảng hở nào (bài 42).",
		"fix.enforce":         "Đã có token nhưng tài nguyên không kiểm tra: tài nguyên phải từ chối các lần ghi mang fencing token cũ (bài 46).",
		"fix.wait.lock":       "Chờ một bản sao trước khi hành động: sau khi lấy lock, WAIT 1 tới khi một bản sao xác nhận đã có key, để bản sao được Sentinel nâng lên có nó (replication là bất đồng bộ). Một bộ đếm fencing trên cùng master sẽ mất trong cùng lần failover; chỉ dùng fencing với nơi cấp token sống sót qua nó (bài 46, 47; lock-theory S23).",
		"fix.wait.counter":    "Nơi cấp token đã đi lùi trong một lần failover: Sentinel đã nâng một bản sao chưa nhận được lệnh INCR cuối cùng của bộ đếm (replication là bất đồng bộ). Hãy để mỗi lần cấp lock chờ tới khi một bản sao xác nhận đã có bộ đếm và key (WAIT 1 trước khi dùng token), để bản sao được Sentinel nâng lên có chúng; lưu bền trên master cũ không giúp được bản sao (bài 46, lock-theory S23).",
		"fix.durable.counter": "Nơi cấp token đã đi lùi: giữ bộ đếm fencing bền vững (appendonly yes, appendfsync always) hoặc trên một kho không mất dữ liệu khi khởi động lại, để lần cấp mới không bao giờ lặp lại token cũ (bài 46, lock-theory S06b).",
		"fix.redlock":         "An toàn của Redlock phụ thuộc vào đồng hồ và thời gian: một cú nhảy đồng hồ, một lần pause hay mạng chậm cho phép hai client cùng có quorum. Đừng dựa vào nó cho correctness; thêm fencing token do tài nguyên kiểm tra (bài 47).",
		"fix.ttl":             "Đặt TTL cho lock, để lock của client bị crash tự được giải phóng (bài 42).",
		"fix.refresh.owner":   "Lần gia hạn chỉ được kéo dài key khi key vẫn giữ owner token của lease (so sánh rồi mới PEXPIRE), không bao giờ đặt lại một key đã mất, và phải báo ngay cho người giữ lock khi thấy key đã mất hoặc thuộc về người khác, để người giữ lock dừng trước khi hành động (redis-semaphore 5.3.1, #175; redlock-rb PR #37).",
		"fix.renewal":         "Một bộ gia hạn cứ kéo dài một lock mà không ai dùng: dừng bộ gia hạn trước khi gửi lệnh unlock, bất kể unlock trả lời thế nào, và giới hạn số lần gia hạn theo job (giới hạn số lần, hoặc chỉ gia hạn khi job còn tiến triển), để một người giữ bị treo hay đã xong mất lock sau một TTL (BR-21, lock-theory S15b).",
		"fix.orphan":          "Một lock mà người giữ đã không còn vẫn chặn các client khác cho tới khi TTL hết: đặt TTL vừa với thời gian của job, không phải một giới hạn an toàn rộng rãi, và gia hạn nó khi job còn chạy, để một người giữ đã chết chỉ chặn tối đa một TTL ngắn (BR-34).",
		"fix.ttl.atomic":      "Đặt key và TTL trong cùng một lệnh, SET key token NX PX ttl: với SETNX rồi EXPIRE, một lần crash giữa hai lệnh để lại một key không bao giờ hết hạn (bài 42).",
		"fix.unavailable":     "Không client nào lấy được lock lâu hơn mức kịch bản cho phép: đây là vấn đề tiến triển, không phải an toàn. Hãy xem cái gì đã giữ nó: một key mồ côi (người giữ bị crash hoặc đã thôi tin là mình giữ) tồn tại đến hết TTL; mất quorum thì cần nhiều node liên lạc được hơn (bài 47).",
		"fix.fixed":           "Cùng lỗi đó, nhưng vô hại: kịch bản %s.",
		"fix.fixed.run":       "Chạy bằng lệnh",
		"fix.fixed.report":    "mở báo cáo của nó",
		"fix.saved.fencing":   "Không cần sửa gì: fencing token đã làm đúng việc của nó. Lock vẫn bị phá vỡ (xem phần chồng lấn chỉ để tham khảo), nhưng tài nguyên đã từ chối người giữ lock cũ.",

		"say.double.late":      "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn tiếp tục hành động với một lock đã hết hạn (expire) từ %.1f s trước.",
		"say.double.crash":     "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn tiếp tục làm việc với một lock mà node đã mất trong lần crash %.1f s trước đó.",
		"say.double.sharer":    "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn tiếp tục hành động với một lock mà key của nó đã bị %s — mang cùng một owner token — nhả lock từ %.1f s trước.",
		"say.double.clock":     "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn hành động với một lock đã mất từ %.1f s trước, khi đồng hồ của %s nhảy và nó không còn giữ đa số node.",
		"say.double.restored":  "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn hành động với một lock mà key đã bị %s, khi khởi động lại, xoá từ %.1f s trước.",
		"say.double.removed":   "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn hành động với một lock mà key đã bị %s xoá từ %.1f s trước.",
		"say.double.deleted":   "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn hành động với một lock mà key đã bị tiến trình dọn dẹp xoá từ %.1f s trước.",
		"say.double.failover":  "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn hành động với một lock đã mất từ %.1f s trước, khi %s failover sang một replica không có key của nó.",
		"say.double":           "Hoá đơn (%s) bị trừ tiền hai lần, bởi %s.",
		"say.stale":            "Tài nguyên đã chấp nhận một lần ghi cũ: %s",
		"say.other":            "%s: %s",
		"say.fenced":           "Fencing token đã cứu nguy: lần %[2]s muộn của %[1]s (token %[3]d) bị từ chối vì tài nguyên đã thấy token %[4]d.",
		"say.fenced.plain":     "Fencing token đã cứu nguy: một lần ghi muộn của %s bị từ chối.",
		"say.valid":            "Không checker nào phát hiện vấn đề: lock đã giữ đúng cam kết trong lần chạy này.",
		"say.unknown":          "Chưa kết luận được: %s",
		"say.unknown.plain":    "Chưa kết luận được: một checker không thể quyết định.",
		"say.unknown.missed":   "Chưa kết luận được: lần chạy không kiểm tra được điều kịch bản mô tả, vì %s không hề xảy ra.",
		"step.missed":          "bước #%d (%s trên %s, %s)",
		"when.at":              "lúc t=%ss",
		"when.start":           "trước khi các client bắt đầu",
		"when.event":           "%s sau khi %s lấy được lock lần đầu",
		"when.granted":         "%s sau khi %s lần đầu được %s cấp lock",
		"when.point":           "lần đầu tiên %s ở %s",
		"when.point.nth":       "lần thứ %s %s ở %s",
		"and":                  "%s và %s",
		"fix.cas.claim":        "Check-and-set của tài nguyên chỉ reject lần ghi cũ khi người giữ mới hơn đã lưu token của mình vào currlock, và fencing token cũng không hơn gì: người giữ có thể bị pause giữa lúc được cấp lock và lúc claim, và lần ghi cũ đến trong khoảng đó vẫn được chấp nhận. Hãy để mỗi người giữ đọc trạng thái sau khi claim và quyết định theo lần đọc đó (người giữ mới khi đó thấy lần ghi cũ), và gắn idempotency key cho hiệu ứng bên ngoài (lock-theory §7.2, §7.3).",
		"fix.saved.cas":        "Không cần sửa gì: check-and-set của tài nguyên đã làm đúng việc của nó. Lock vẫn bị phá vỡ (xem phần chồng lấn chỉ để tham khảo), nhưng người giữ mới hơn đã lưu token của mình vào currlock, nên tài nguyên đã reject lần ghi của người giữ lock cũ (antirez 2016, lock-theory §7.3).",
		"say.double.reset":     "Hoá đơn (%s) bị trừ tiền hai lần: lock của %s hết hạn lúc t=%ss, rồi lệnh extend của nó đặt lại key lúc t=%ss như thể nó đã giữ lock suốt; nó charge %.1f s sau khi lock đã hết hạn.",
		"say.double.clock.one": "Hoá đơn (%s) bị trừ tiền hai lần: %s vẫn tiếp tục hành động với một lock nó đã mất từ %.1f s trước, khi đồng hồ của %s nhảy tới và key của nó hết hạn sớm.",

		"n.acquire":               "%s lấy được lock trên %s (%s, TTL %s).",
		"n.acquire.permit":        "%s lấy được một permit của %s (%s, TTL %s).",
		"a.mutex-overlap.permits": "%s đều tin rằng mình giữ một permit của %s từ t=%ss đến t=%ss: nhiều người giữ hơn số %d permit của nó.",
		"n.release.permit":        "%s trả lại permit của nó trên %s.",
		"a.stale-write-accepted":  "Tài nguyên đã chấp nhận lần ghi của %[1]s trên %[3]s lúc t=%[4]ss dù %[2]s đã ghi vào đó dưới một lease mới hơn.",
		"n.acquire.nodes":         "%s lấy được lock trên %s tại %s (%d/%d, quorum %d) (%s, TTL %s).",
		"n.probe":                 "Kiểm tra cuối: %s lấy được lock trên %s (%s).",
		"n.probe.permit":          "Kiểm tra cuối: %s lấy được một permit của %s (%s).",
		"n.token.fence":           "token %d",
		"n.token.owner":           "owner token %s",
		"n.tries.one":             "%s thử lấy lock %s và bị từ chối (người khác đang giữ).",
		"n.tries":                 "%s thử lấy lock %s %d lần từ t=%ss đến t=%ss và lần nào cũng bị từ chối (người khác đang giữ).",
		"n.tries.free.one":        "%s thử lấy lock %s và bị từ chối, dù khi đó không node nào giữ key của ai cho nó.",
		"n.tries.free":            "%s thử lấy lock %s %d lần từ t=%ss đến t=%ss và lần nào cũng bị từ chối, dù khi đó không node nào giữ key của ai cho nó.",
		"n.acquire.info":          "Lệnh lấy lock %[2]s của %[1]s không nhận được trả lời: không rõ kết quả.",
		"n.acquire.info.refused":  "Lệnh lấy lock %[2]s của %[1]s không kết nối được (connection refused): ghi nhận là không rõ kết quả.",
		"n.acquire.info.reset":    "Lệnh lấy lock %[2]s của %[1]s mất kết nối trước khi có trả lời: không rõ kết quả.",
		"n.acquire.info.error":    "Lệnh lấy lock %[2]s của %[1]s kết thúc bằng lỗi, không có câu trả lời chắc chắn: không rõ kết quả.",
		"n.read":                  "%s đọc %s: %s.",
		"n.write.ok":              "%s: %s %s được chấp nhận%s.",
		"n.write.claim":           "%s đăng ký token của mình tại tài nguyên cho %s%s: được chấp nhận.",
		"n.write.refused":         "Lần %[2]s %[3]s%[4]s của %[1]s bị tài nguyên TỪ CHỐI: %[5]s.",
		"n.write.info.refused":    "Lần %[2]s %[3]s%[4]s của %[1]s không kết nối được (connection refused): ghi nhận là không rõ kết quả.",
		"n.write.info.reset":      "Lần %[2]s %[3]s%[4]s của %[1]s mất kết nối trước khi có trả lời: có thể đã xảy ra hoặc chưa.",
		"n.write.info.error":      "Lần %[2]s %[3]s%[4]s của %[1]s kết thúc bằng lỗi, không có câu trả lời chắc chắn: có thể đã xảy ra hoặc chưa.",
		"n.write.info":            "Lần %[2]s %[3]s%[4]s của %[1]s không nhận được trả lời: có thể đã xảy ra hoặc chưa.",
		"n.with.token":            " với token %d",
		"n.release.ok":            "%s nhả lock %s (key đã bị xoá).",
		"n.release.gone":          "%s thử nhả lock %s nhưng key của nó đã không còn (%s) — không còn gì của mình để xoá.",
		"n.with.word":             "với",
		"n.release.permit.gone":   "%s thử trả permit của nó trên %s, nhưng permit đã bị dọn vì quá hạn lúc t=%ss — không còn gì của mình để xoá.",
		"n.gone.expired":          "key đã expire lúc t=%ss",
		"n.gone.clock":            "key đã expire sớm lúc t=%ss, khi đồng hồ của một node nhảy",
		"n.gone.restored":         "%[2]s, khi khởi động lại, đã xoá nó lúc t=%[1]ss",
		"n.gone.removed":          "%[2]s đã xoá nó lúc t=%[1]ss",
		"n.gone.sharer":           "%[2]s, mang cùng một owner token, đã nhả lock lúc t=%[1]ss",
		"n.gone.deleted":          "một tiến trình dọn dẹp đã xoá nó lúc t=%ss",
		"n.gone.taken.released":   "; %s đã lấy lock và nhả lock xong rồi",
		"n.gone.taken.holds":      "; giờ %s đang giữ lock",
		"n.release.none.other":    "%s thử nhả lock %s, nhưng key giờ thuộc về %s: không có gì của mình để xoá.",
		"n.release.none":          "%s thử nhả lock %s: không có gì của mình để xoá.",
		"n.release.info":          "Lệnh nhả lock %[2]s của %[1]s không nhận được trả lời: không rõ kết quả.",
		"n.release.notrun":        "Lệnh nhả lock %[2]s của %[1]s không bao giờ tới được Redis (không node nào chạy lệnh nào của %[1]s lúc đó): key của nó vẫn còn, dù %[1]s, không nhận được trả lời, không thể biết điều đó.",
		"n.release.info.refused":  "Lệnh nhả lock %[2]s của %[1]s không kết nối được (connection refused): ghi nhận là không rõ kết quả.",
		"n.release.info.reset":    "Lệnh nhả lock %[2]s của %[1]s mất kết nối trước khi có trả lời: không rõ kết quả.",
		"n.release.info.error":    "Lệnh nhả lock %[2]s của %[1]s kết thúc bằng lỗi, không có câu trả lời chắc chắn: không rõ kết quả.",
		"n.extend.ok":             "%s gia hạn lock trên %s.",
		"n.renew.foreign":         "Watchdog của %[1]s đã gia hạn key lock của %[2]s, nhưng đó là key của %[3]s: lệnh gia hạn của nó không kiểm tra owner token, nên nó giữ cho lease của %[3]s sống, không phải của chính nó.",
		"n.extend.foreign":        "%[1]s đã gia hạn key lock của %[2]s, nhưng đó là key của %[3]s: lệnh gia hạn của nó không kiểm tra owner token, nên nó giữ cho lease của %[3]s sống, không phải của chính nó.",
		"n.renew.ok":              "Watchdog của %s đã gia hạn lock trên %s.",
		"n.renew.fail":            "Watchdog của %s không gia hạn được lock trên %s.",
		"n.renew.lib.ok":          "Thư viện lock của %s tự gia hạn lock trên %s.",
		"n.renew.lib.fail":        "Thư viện lock của %s tự gia hạn lock trên %s và thấy lock đã mất.",
		"n.renew.lib.foreign":     "Thư viện lock của %[1]s tự gia hạn key lock của %[2]s, nhưng đó là key của %[3]s: lần gia hạn của nó không kiểm tra owner token, nên nó giữ cho lease của %[3]s sống, không phải của chính nó.",
		"n.extend.fail":           "%s không gia hạn được lock trên %s.",
		"n.lost":                  "%s kết luận lock trên %s đã mất và dừng lại.",
		"n.pause":                 "%s bị đóng băng bởi một GC pause (stop-the-world) dài %s%s.",
		"n.pause.event-loop":      "%s bị đóng băng vì event loop bị chặn trong %s%s: không timer nào chạy, kể cả việc gia hạn lease.",
		"n.pause.sleep":           "%s bị đóng băng vì máy tạm ngủ (sleep) trong %s%s.",
		"n.pause.stop":            "%s bị dừng bởi SIGSTOP trong %s%s.",
		"n.pause.point":           ", %s",
		"point.before-write":      "ngay trước khi ghi",
		"point.after-acquire":     "ngay sau khi lấy được lock",
		"point.before-release":    "ngay trước khi nhả lock",
		"n.resume":                "%s tỉnh dậy sau %s bị đóng băng%s.",
		"n.resume.belief":         " và vẫn tin rằng mình giữ lock trên %s (%s)",
		"n.resume.belief.permit":  " và vẫn tin rằng mình giữ một permit của %s (%s)",
		"n.fault":                 "Lỗi: %s trên %s trong %s%s.",
		"n.fault.end":             "Hết lỗi: %s trên %s.",
		"n.partition":             "Chia cắt mạng: %s, trong %s.",
		"n.cut.one":               "%s không kết nối được tới %s",
		"n.cut.heal":              "%s kết nối lại được tới %s",
		"n.cut.heal.down":         "đường cắt giữa %s và %s đã được gỡ, nhưng %s vẫn đang sập",
		"n.partition.end":         "Hết chia cắt mạng: %s.",
		"n.clock.jump":            "Đồng hồ của %s nhảy %s: các key trên đó expire sớm hơn đúng chừng ấy.",
		"n.clock.jump.client":     "Đồng hồ riêng của %s nhảy %s; không key Redis nào thay đổi, chỉ những gì %[1]s tính từ đồng hồ của nó.",
		"n.clock.rate":            "Đồng hồ của %s chạy nhanh gấp %[3]s lần trong %[2]s: các key trên đó expire sớm hơn (hoặc muộn hơn) tương ứng.",
		"n.clock.rate.client":     "Đồng hồ riêng của %s chạy nhanh gấp %[3]s lần trong %[2]s; không key Redis nào thay đổi.",
		"n.starve":                "Tiến trình gia hạn lease của %s bị bỏ đói trong %s, trong khi job vẫn chạy tiếp.",
		"n.key.nottl":             "%[1]s lưu %[2]s cho %[3]s mà không có TTL: nếu không ai xoá, key sẽ không bao giờ hết hạn.",
		"n.crash.client":          "%s bị crash: nó dừng hẳn và không bao giờ nhả lock.",
		"n.delete.key":            "Một tiến trình dọn dẹp (janitor) đã xoá key lock %s trên %s (xoá theo key, không theo chủ sở hữu; client đang giữ không được báo).",
		"n.crash":                 "%s bị crash và mất các key; ngừng hoạt động %s.",
		"n.crash.kept":            "%s bị crash rồi khởi động lại, vẫn còn các key nhờ %[3]s; ngừng hoạt động %[2]s.",
		"n.crash.some":            "%s bị crash; ngừng hoạt động %s. Khi khởi động lại từ %s, nó còn %s nhưng mất %s.",
		"n.crash.from.aof":        "file append-only",
		"n.crash.from.rdb":        "bản snapshot RDB gần nhất",
		"n.pause.node":            "Redis trên %s bị đóng băng trong %s.",
		"n.latency":               "Độ trễ mạng: phản hồi tới %s bị chậm trong %s (%v ± %v).",
		"n.slow.one":              "%s từ %s",
		"n.reset":                 "Các kết nối bị reset (TCP RST): %s.",
		"n.expired.paused":        "Lock của %s trên %s đã expire trong Redis (TTL %s) trong lúc %s đang bị pause.",
		"n.expired.belief":        "Lock của %s trên %s đã expire trong Redis (TTL %s) trong khi %s vẫn tin rằng mình đang giữ.",
		"n.expired":               "Lock của %s trên %s đã expire trong Redis (TTL %s).",
		"n.expired.nodes":         "Key %[2]s của %[1]s đã expire trên %[3]s (TTL %[4]s).",
		"n.expired.clock":         "Key %[2]s của %[1]s expire sớm trên %[3]s: đồng hồ của node đã nhảy.",
		"n.expired.crash":         "Key %[2]s của %[1]s bị mất trên %[3]s: node bị crash.",
		"n.lost.failover":         "Key %[2]s của %[1]s bị mất trong lần failover của %[3]s: replica được promote chưa nhận đủ những gì master đã ghi.",
		"n.quorum.lost":           "Chỉ còn %d/%d node giữ key, ít hơn quorum %d: %s thực ra không còn giữ lock, nhưng không hề biết.",
		"n.anomaly":               "Vi phạm (%s): %s",
		"n.anomaly.info":          "Ghi nhận (%s, chỉ để tham khảo): %s",
		"n.failover":              "%[2]s, master của nhóm %[1]s, gặp sự cố (%[3]s); Sentinel nâng replica %[4]s lên master sau %.1[5]f s. %[4]s đã nhận %[6]d trong %[7]d byte luồng sao chép mà %[8]s đã ghi: phần còn thiếu bị mất.",
		"n.failover.none":         "Master của %s gặp sự cố (%s), và không replica nào được nâng lên.",

		"fault.pause":            "GC pause",
		"fault.pause.event-loop": "event loop bị chặn",
		"fault.pause.sleep":      "máy tạm ngủ (sleep)",
		"fault.pause.stop":       "SIGSTOP",
		"fault.partition":        "chia cắt mạng",
		"fault.latency":          "độ trễ mạng",
		"fault.reset":            "reset kết nối",
		"fault.crash":            "node crash",
		"fault.pause-node":       "node bị đóng băng",
		"fault.clock-jump":       "nhảy đồng hồ",
		"fault.clock-rate":       "lệch tốc độ đồng hồ",
		"fault.starve-renewals":  "bộ gia hạn bị bỏ đói",
		"fault.crash-client":     "client crash",
		"fault.delete-key":       "key bị xoá",
		"fault.failover":         "failover",
		"fault.replication-lag":  "độ trễ sao chép",
		"fault.bandwidth":        "giới hạn băng thông",
		"fault.slicer":           "gói tin bị cắt nhỏ",
		"fault.limit-data":       "giới hạn dữ liệu",
		"fault.slow-close":       "đóng kết nối chậm",
		"fault.timeout":          "hết thời gian kết nối",
		"refusal.stale-fence":    "fencing token cũ %d < %d",
		"refusal.duplicate-key":  "idempotency key %s bị trùng",
		"refusal.lock-changed":   "currlock của %s đang giữ token của người khác: một người giữ mới hơn đã claim nó",
		"refusal.out-of-stock":   "hết hàng",
		"refusal.unknown":        "không rõ lý do",

		"kind.mutex-overlap":           "hai người cùng giữ lock",
		"kind.mutex-overlap.semaphore": "nhiều người giữ hơn số permit",
		"kind.double-effect":           "trừ tiền nhiều lần",
		"kind.stale-write-accepted":    "chấp nhận lần ghi cũ",
		"kind.foreign-unlock":          "unlock nhầm lock của người khác",
		"kind.lost-update":             "mất cập nhật",
		"kind.oversell":                "oversell (bán quá số lượng tồn kho)",
		"kind.over-admission":          "cho vào quá số lượng",
		"kind.split-brain":             "hai leader",
		"kind.duplicate-run":           "job chạy nhiều lần",
		"kind.token-regression":        "fencing token đi lùi",
		"kind.unavailable":             "lock không khả dụng",
		"kind.stuck-lock":              "lock bị kẹt",
		"kind.not-linearizable":        "không tuyến tính",
		"kind.resurrected-lease":       "lease sống lại sau khi người khác đã lấy lock",
		"kind.hidden-lapse":            "lease đã hết mà người giữ lock không được báo",
		"a.resurrected-lease":          "Owner token của %[1]s được đặt lại trên %[2]s (key %[3]s trên %[4]s) lúc t=%[5]ss, sau khi key của nó đã hết lúc t=%[6]ss và %[7]s đã lấy được lock lúc t=%[8]ss: lock của %[1]s đã làm sống lại một lease không còn là của nó.",
		"a.hidden-lapse":               "Lease của %[1]s trên %[2]s đã hết lúc t=%[3]ss trong khi nó đang giữ lock; lần %[4]s lúc t=%[5]ss báo rằng lease vẫn là của nó, và không có gì báo cho %[1]s điều ngược lại trước lần %[6]s lúc t=%[7]ss.",
		"a.hidden-lapse.release":       "Lease của %[1]s trên %[2]s đã hết lúc t=%[3]ss trong khi nó đang giữ lock; không có gì báo cho %[1]s, và lần nhả lock lúc t=%[4]ss báo rằng nó đã xoá key.",
		"a.hidden-lapse.release.said":  "Lease của %[1]s trên %[2]s đã hết lúc t=%[3]ss trong khi nó đang giữ lock; lần %[4]s lúc t=%[5]ss báo rằng lease vẫn là của nó, không có gì báo cho %[1]s điều ngược lại, và lần nhả lock lúc t=%[6]ss báo rằng nó đã xoá key.",
		"lockop.renewal":               "gia hạn tự động",
		"lockop.extend":                "gia hạn",
		"a.mutex-overlap":              "%s đều tin rằng mình giữ %s từ t=%ss đến t=%ss.",
		"a.token-regression":           "%s được cấp fencing token trên %s không tăng (từ t=%ss đến t=%ss): lần cấp sau lặp lại hoặc nhỏ hơn token trước, nên tài nguyên không phân biệt được ai là người giữ cũ.",
		"a.double-effect":              "%s bị trừ tiền %d lần: %s. Một khoản thanh toán chỉ được xảy ra một lần.",
		"a.double-effect.plain":        "%s bị trừ tiền nhiều hơn một lần, bởi %s.",
		"a.at":                         "%s lúc t=%ss",
		"a.not-linearizable":           "Porcupine không tìm được thứ tự nào của các thao tác trên %s mà mỗi lúc chỉ một client giữ lock (%s, từ t=%ss).",
		"a.generic":                    "%s: %s trên %s, t=%ss – t=%ss.",
		"a.foreign-unlock.restored":    "%s, sau khi khởi động lại, đã xoá ngay khi khởi động một key lock trên %s thuộc về %s (t=%ss): bước khôi phục của nó đưa mọi lease job tìm thấy trở lại hàng đợi, kể cả lease đang còn hiệu lực.",
		"a.foreign-unlock":             "%s đã xoá key lock trên %s thuộc về %s (t=%ss).",
		"why.mutex-overlap":            "Tính đúng đắn: loại trừ lẫn nhau bị phá vỡ; mọi việc cả hai làm với tài nguyên trong khoảng này có thể sai.",
		"why.double-effect":            "Tính đúng đắn: khách hàng bị trừ tiền hai lần. Đây là thiệt hại thật, không chỉ là tốn công.",
		"why.stale-write-accepted":     "Tính đúng đắn: lần ghi của người giữ lock cũ đã đè lên lần ghi mới hơn.",
		"why.foreign-unlock":           "Tính đúng đắn: một client đã xoá lock không phải của mình: chủ của lock tiếp tục làm việc mà không còn key, và trong lúc đó client khác có thể lấy lock.",
		"why.not-linearizable":         "Tính đúng đắn: lịch sử của tài nguyên không thể giải thích bằng việc mỗi lúc chỉ một người giữ lock.",
		"why.oversell":                 "Tính đúng đắn: bán nhiều hơn số hàng tồn kho.",
		"why.lost-update":              "Tính đúng đắn: một lần ghi đã lặng lẽ xoá mất lần ghi khác.",
		"why.duplicate-run":            "Efficiency hoặc correctness: một job chỉ được chạy một lần cho mỗi thời điểm kích hoạt đã chạy nhiều lần; chỉ vô hại nếu job là idempotent.",
		"why.split-brain":              "Tính đúng đắn: một leader của nhiệm kỳ cũ vẫn hành động sau khi leader mới đã được bầu.",
		"why.over-admission":           "Tính đúng đắn: số client vào cùng lúc vượt mức cho phép.",
		"why.token-regression":         "Tính đúng đắn: fencing token chỉ được tăng; token cũ xuất hiện sau token mới làm fencing vô dụng.",
		"why.unavailable":              "Tiến triển: không ai lấy được lock; dữ liệu không sai, nhưng công việc bị dừng.",
		"why.stuck-lock":               "Tiến triển: lock vẫn bị chiếm dù không ai dùng.",
		"why.informational":            "Chỉ là efficiency: lock bị phá vỡ, nhưng tài nguyên đã từ chối người giữ lock cũ nên dữ liệu không bị hại.",
		"why.other":                    "Tính đúng đắn: một tính chất an toàn của lock không được đảm bảo.",
		"why.resurrected-lease":        "Tính đúng đắn: lock quay lại với người giữ cũ sau khi client khác đã lấy được nó, nên hai client cùng được cấp một lock, và người giữ cũ không bao giờ được báo là đã mất lock.",
		"why.hidden-lapse":             "Tính đúng đắn: lock báo cho người giữ lock rằng lease vẫn là của nó sau khi lease đã hết, nên người giữ lock hành động mà không còn được lock bảo vệ.",
		"why.hidden-lapse.uncontended": " Chỉ mang tính thông tin: trong lúc đó không client nào khác lấy được lock, nên không ai khác hành động dưới lock này.",
		"kind.duplicate-work":          "làm trùng việc",
		"informational.short":          "chỉ để tham khảo",
		"a.mutex-overlap.many":         "%s đều tin rằng mình giữ %s từ t=%ss đến t=%ss.",
		"a.lost-update":                "Một lần cập nhật %s bị mất trong khoảng t=%ss đến t=%ss (%s).",
		"a.oversell":                   "%s bị oversell (bán quá số lượng tồn kho): bán %d trong khi tồn kho chỉ có %d (%s).",
		"a.oversell.plain":             "%s bị oversell (bán quá số lượng tồn kho): tồn kho xuống dưới 0 (%s).",
		"a.duplicate-run":              "%s chạy %d lần: %s. Một cron job chỉ được chạy một lần cho mỗi thời điểm kích hoạt.",
		"a.split-brain":                "%[1]s cùng làm leader (key %[2]s): lần ghi của leader cũ được chấp nhận lúc t=%[3]ss, sau khi leader mới được bầu lúc t=%[4]ss.",
		"a.over-admission":             "%s cùng ở trong %s một lúc từ t=%ss đến t=%ss, trong khi chỉ có %d permit.",
		"a.duplicate-work":             "%s cùng rebuild %s từ t=%ss đến t=%ss: tốn công thừa, dữ liệu vẫn đúng.",
		"a.stuck-lock":                 "Sau khi hết lỗi, %s vẫn bị %s giữ và lần kiểm tra cuối không lấy được lock (giữ từ t=%ss).",
		"a.unavailable":                "Không client nào tin rằng mình giữ %s, vậy mà không ai lấy được lock từ t=%ss đến t=%ss.",
		"a.unavailable.local":          "%[1]s vẫn trống trong Redis từ t=%[2]ss đến t=%[3]ss, vậy mà %[4]s — vẫn sống và vẫn thử — lần nào cũng bị từ chối mà lệnh lấy lock không hề tới Redis: lock đang bị giữ ngay trong tiến trình của nó.",
		"why.duplicate-work":           "Chỉ là efficiency: hai worker làm cùng một việc. Tốn công thừa, không sai data: đây là efficiency lock (Kleppmann 2016, efficiency và correctness).",
		"why.efficiency":               "Chỉ là efficiency: lock bị phá vỡ, nhưng cache-rebuild chỉ dùng lock để tránh làm thừa, nên cái giá là làm trùng việc, không phải sai data.",
		"why.liveness.info":            " Chỉ để tham khảo: kịch bản này không yêu cầu tiến triển (expect_live).",
		"why.liveness.busy":            " Không đánh giá: máy quá bận nên không giữ được thời gian nén của lần chạy; các giới hạn thời gian là của máy, không phải của lock.",
		"say.lost-update":              "%s",
		"say.oversell":                 "%s",
		"say.duplicate-run":            "%s",
		"say.split-brain":              "Split brain, hai leader: %s",
		"say.over-admission":           "%s",
		"say.stuck-lock":               "%s",
		"say.unavailable":              "%s",
		"say.waste":                    "Dữ liệu không bị hại, nhưng đã tốn công thừa: %s",
		"say.notlive":                  "An toàn, nhưng không đảm bảo tiến triển: %s",
		"fix.incr":                     "Tăng atomic: làm read-modify-write trong một lệnh Redis (INCR) hoặc Lua script, hoặc dùng fencing token để tài nguyên từ chối người ghi cũ (bài 42, 46).",
		"fix.lua.stock":                "Lua check-and-decrement: kiểm tra tồn kho và trừ trong một Lua script atomic (thuật toán atomic-lua); không cần lock, không còn khoảng hở (bài 42).",
		"fix.cron":                     "Mỗi thời điểm kích hoạt một lock riêng (key job@<thời điểm>, không nhả lock sớm, hoặc lockAtLeastFor ≥ độ lệch đồng hồ), và làm cho job idempotent (bài 51).",
		"fix.epoch":                    "Kiểm tra epoch, báo trước: mỗi lần bầu leader tăng epoch; tài nguyên từ chối mọi hành động của leader có epoch nhỏ hơn epoch lớn nhất đã thấy, và mỗi leader mới báo epoch của mình cho tài nguyên ngay khi được bầu. Kiểm tra epoch chỉ từ chối hành động cũ hơn một epoch tài nguyên đã thấy: leader cũ hành động trước hành động đầu tiên của leader mới vẫn lọt qua, trừ khi leader mới đã báo trước (bài 46, 49; lock-theory §7.2).",
		"fix.semaphore":                "Chỉ semaphore thì không ngăn được điều này: người giữ bị pause quá thời hạn sẽ bị dọn và permit của nó được trao cho người khác, trong khi nó vẫn nghĩ mình đang ở trong. Hãy kiểm tra token của từng permit tại tài nguyên (fencing), để công việc của người giữ cũ bị từ chối (bài 46, 50).",
		"fix.idempotency.charge":       "Idempotency key: cổng thanh toán ghi nhớ key của lần trừ tiền mỗi hoá đơn và từ chối lần thứ hai (\"duplicate idempotency key\"), dù ai gửi (bài 48).",
		"n.read.counter":               "%s đọc %s = %d.",
		"n.done":                       "%s làm xong việc trên %s và rời critical section.",
		"n.stopped":                    "Lượt chạy kết thúc khi %s vẫn còn trong critical section trên %s, chưa làm xong việc: đến lúc đó nó vẫn tin mình đang giữ lock.",
		"n.done.all":                   "%s làm xong việc và rời critical section.",
		"n.lost.all":                   "%s kết luận lock đã mất và dừng lại.",
		"n.probe.fail":                 "Kiểm tra cuối: sau khi mọi lỗi đã hết, %s không lấy được lock trên %s.",
		"n.probe.info":                 "Kiểm tra cuối: lệnh lấy lock %[2]s của %[1]s không nhận được trả lời.",
		"n.probe.info.refused":         "Kiểm tra cuối: lệnh lấy lock %[2]s của %[1]s không kết nối được (connection refused).",
		"n.probe.info.reset":           "Kiểm tra cuối: lệnh lấy lock %[2]s của %[1]s mất kết nối trước khi có trả lời.",
		"n.probe.info.error":           "Kiểm tra cuối: lệnh lấy lock %[2]s của %[1]s kết thúc bằng lỗi, không có câu trả lời chắc chắn.",
		"n.more":                       "… thêm %d bước từ t=%ss đến t=%ss: %s.",
		"n.more.acquire":               "%d lần cấp lock",
		"n.more.retries":               "%d đợt lấy lock bị từ chối",
		"n.more.read":                  "%d lần đọc",
		"n.more.write":                 "%d lần ghi được chấp nhận",
		"n.more.refused":               "%d lần ghi bị từ chối",
		"n.more.release":               "%d lần nhả lock",
		"n.more.extend":                "%d lần gia hạn",
		"n.more.lost":                  "%d lần mất lock",
		"n.more.done":                  "%d lần rời critical section",
		"n.more.fault":                 "%d lỗi",
		"n.more.heal":                  "%d lần hết lỗi",
		"n.more.expiry":                "%d lần key expire",
		"n.more.probe":                 "%d lần kiểm tra",
		"n.more.violated":              "%d vi phạm",
		"n.more.acquire.one":           "%d lần cấp lock",
		"n.more.retries.one":           "%d đợt lấy lock bị từ chối",
		"n.more.read.one":              "%d lần đọc",
		"n.more.write.one":             "%d lần ghi được chấp nhận",
		"n.more.refused.one":           "%d lần ghi bị từ chối",
		"n.more.release.one":           "%d lần nhả lock",
		"n.more.extend.one":            "%d lần gia hạn",
		"n.more.lost.one":              "%d lần mất lock",
		"n.more.done.one":              "%d lần rời critical section",
		"n.more.fault.one":             "%d lỗi",
		"n.more.heal.one":              "%d lần hết lỗi",
		"n.more.expiry.one":            "%d lần key expire",
		"n.more.probe.one":             "%d lần kiểm tra",
		"n.more.violated.one":          "%d vi phạm",
		"p.waste":                      "làm trùng việc (chỉ để tham khảo)",
		"p.effect.ok":                  "thao tác được chấp nhận (bán, ghi, chạy job, …)",
		"p.effect.bad":                 "thao tác được chấp nhận chính là vi phạm (theo checker)",

		"p.timeline.title":        "%s — %s",
		"p.x":                     "thời gian kịch bản (s)",
		"p.hold":                  "%s giữ lock",
		"p.hold.permit":           "%s giữ một permit",
		"p.believed":              "tin là mình giữ, nhưng key đã mất",
		"p.resurrected":           "key được đặt lại",
		"p.believed.permit":       "tin là mình giữ permit, nhưng permit đã mất",
		"p.key":                   "key trên node",
		"p.pause":                 "GC pause (client bị đóng băng)",
		"p.pause.word":            "GC pause",
		"p.pause.event-loop":      "event loop bị chặn (client bị đóng băng)",
		"p.pause.sleep":           "máy tạm ngủ (client bị đóng băng)",
		"p.pause.stop":            "SIGSTOP (client bị đóng băng)",
		"p.pause.word.event-loop": "event loop bị chặn",
		"p.pause.word.sleep":      "máy tạm ngủ",
		"p.pause.word.stop":       "SIGSTOP",
		"p.paused":                "%s bị đóng băng: %s %s",
		"p.other.ok":              "lần ghi khác được chấp nhận (claim, mark-paid)",
		"p.fault":                 "%s",
		"p.violation":             "vi phạm",
		"p.charge.ok":             "lần trừ tiền được chấp nhận",
		"p.write.refused":         "lần ghi bị từ chối",
		"p.acquire.fail":          "lấy lock bị từ chối",
		"p.expired":               "expire",
		"p.ended":                 "key kết thúc: %s",
		"p.lost.crash":            "mất do crash",
		"p.deleted":               "bị janitor xoá",
		"p.node":                  "node %s",
		"p.cut":                   "bị cắt khỏi %s",
		"p.slow":                  "kết nối chậm tới %s",
		"p.reset":                 "kết nối tới %s bị reset",
		"p.owner":                 "owner %s",
		"p.quorum.lost":           "mất quorum",
		"p.charge.bad":            "lần trừ tiền được chấp nhận chính là vi phạm (theo checker)",
		"p.latency.title":         "%s — độ trễ lấy lock",
		"p.latency.y":             "độ trễ lấy lock (ms, thời gian thực)",
		"p.rate.title":            "%s — số lần lấy lock mỗi giây",
		"p.rate.y":                "lần lấy lock / s (thời gian kịch bản)",
		"p.ok":                    "thành công",
		"p.fail":                  "bị từ chối",
		"p.info":                  "không rõ (không có trả lời)",
		"p.charged":               "đã trừ tiền",
		"p.refused":               "bị từ chối",

		"suite.title":           "Bộ kịch bản locksim: %d lần chạy",
		"suite.totals":          "%d lần chạy: %d hợp lệ, %d vi phạm, %d chưa kết luận. %d đúng kỳ vọng, %d không.",
		"suite.errors":          "%d lần không có kết luận (lỗi hạ tầng; mỗi lần như vậy ghi lý do bên dưới).",
		"suite.rate":            "%s: %d trên %d lần chạy vi phạm (%.0f%%), %d chưa kết luận, %d lỗi hạ tầng.",
		"suite.rate.seeds":      "Các seed vi phạm: %s",
		"suite.nochart":         "không vẽ trong lần chạy lặp này (trang của lần chạy chỉ cách vẽ)",
		"suite.error":           "LỖI",
		"suite.scenario":        "Kịch bản",
		"suite.seed":            "Seed",
		"suite.verdict":         "Kết luận",
		"suite.expect":          "Kỳ vọng",
		"suite.met":             "Đúng kỳ vọng",
		"suite.wall":            "Thời gian (s)",
		"suite.timeline":        "Dòng thời gian",
		"suite.report":          "Báo cáo",
		"suite.open":            "mở",
		"suite.yes":             "có",
		"suite.no":              "KHÔNG",
		"suite.none":            "—",
		"suite.aborted":         "đã huỷ",
		"n.fence.seen":          " — bộ đếm fence trên %s đọc được %d",
		"n.release.foreign":     "Lệnh nhả lock của %[1]s đã xoá key %[3]s của %[2]s: một lệnh DEL thường xoá bất kỳ key nào đang ở đó.",
		"n.flushed":             "Key %[2]s của %[1]s bị xoá sạch (flush) khỏi %[3]s.",
		"n.overwritten":         "Key %[2]s của %[1]s trên %[3]s bị %[4]s ghi đè.",
		"n.expired.taken":       "Lock của %[1]s trên %[2]s đã không còn khi một client khác được cấp lock (lịch sử không cho biết vì sao).",
		"n.permit.purged":       "Permit của %[1]s trên %[2]s bị dọn (purge) vì quá hạn, sau %[3]s.",
		"n.permit.lost":         "Permit của %[1]s trên %[2]s bị mất trên %[3]s.",
		"n.gone.crashed":        "nó bị mất lúc t=%[1]ss, khi %[2]s bị crash",
		"n.gone.failover":       "nó bị mất lúc t=%[1]ss trong lần failover của %[2]s",
		"n.gone.taken":          "nó đã không còn từ t=%ss, vì một lý do lịch sử không cho thấy",
		"n.gone.flushed":        "nó bị flush lúc t=%ss",
		"n.gone.overwritten":    "nó bị ghi đè lúc t=%ss",
		"n.gone.taken.ended":    "; sau đó %s đã lấy lock, và cũng đã mất nó",
		"c.expired.paused":      "lease của %[1]s hết hạn trong lúc nó bị pause và %[2]s đã lấy được lock",
		"c.expired.used":        "lease của %[1]s (TTL %[3]s) hết hạn khi nó vẫn đang làm việc — một lần pause đã ăn mất một phần lease — và %[2]s đã lấy được lock",
		"c.expired.during":      "lease của %[1]s (TTL %[3]s) hết hạn trong lúc nó đang chịu một lỗi (%[4]s), và %[2]s đã lấy được lock",
		"c.expired":             "lease của %[1]s (TTL %[3]s) hết hạn khi nó vẫn đang làm việc và %[2]s đã lấy được lock",
		"c.taken":               "%[2]s được cấp lock trên %[3]s trong khi %[1]s vẫn tin rằng mình đang giữ",
		"c.restored":            "%[3]s, khi khởi động lại, đã xoá key của %[1]s lúc t=%[4]ss (bước khôi phục của nó đưa mọi lease job tìm thấy trở lại hàng đợi) và %[2]s đã lấy được lock",
		"c.deleted":             "lệnh nhả lock của %[3]s lúc t=%[4]ss đã xoá key của %[1]s và %[2]s đã lấy được lock",
		"c.janitor":             "một lỗi delete-key đã xoá key của %[1]s trên %[3]s lúc t=%[4]ss và %[2]s đã lấy được lock",
		"c.crashed":             "%[3]s bị crash lúc t=%[4]ss và mất key của %[1]s, và %[2]s đã lấy được lock",
		"c.clock":               "đồng hồ của %[3]s nhảy và key của %[1]s ở đó expire sớm lúc t=%[4]ss, và %[2]s đã lấy được lock",
		"c.failover":            "%[3]s failover lúc t=%[4]ss sang một replica chưa nhận được key của %[1]s, và %[2]s đã lấy được lock",
		"c.ended.flushed":       "key của %[1]s trên %[3]s bị flush lúc t=%[4]ss và %[2]s đã lấy được lock",
		"c.ended.overwritten":   "key của %[1]s trên %[3]s bị ghi đè lúc t=%[4]ss và %[2]s đã lấy được lock",
		"c.ended.purged":        "permit của %[1]s trên %[3]s bị dọn lúc t=%[4]ss và %[2]s đã vào",
		"c.possible":            "%[1]s đã hành động dựa trên một lease mà có thể nó chưa bao giờ được cấp, trong khi %[2]s đang giữ lock",
		"c.held":                "%[2]s được cấp lock trong khi %[1]s vẫn tin rằng mình đang giữ",
		"c.reentered":           "lệnh lấy lock của %[2]s đã re-enter chính key của %[1]s, vì nó mang cùng một owner token, và được cấp lock",
		"c.sharer-released":     "lệnh nhả lock của %[3]s lúc t=%[4]ss đã xoá key mà lock của %[1]s dựa vào (key của chính %[3]s, dưới owner token mà hai bên dùng chung) và %[2]s đã lấy được lock",
		"c.other-key":           "%[1]s lấy lock trên %[3]s còn %[2]s lấy lock trên %[4]s: hai bên tính ra hai lock key khác nhau cho cùng một tài nguyên, nên lock của bên này không loại trừ được bên kia",
		"a.mutex-overlap.cause": "%[1]s và %[2]s đều tin rằng mình giữ %[3]s từ t=%[4]ss đến t=%[5]ss: %[6]s.",
		"a.orphaned-lease":      "Key %[2]s của %[1]s vẫn nằm trên node từ t=%[3]ss đến t=%[4]ss (%[5]s) sau khi %[1]s đã thôi tin rằng mình giữ nó, trong khi các client khác bị từ chối.",
		"a.split-brain.roles":   "%[1]s và %[2]s cùng làm leader (key %[3]s): lần ghi thuộc nhiệm kỳ cũ của %[1]s được chấp nhận lúc t=%[4]ss, sau khi %[2]s đã được bầu lúc t=%[5]ss.",
		"kind.orphaned-lease":   "lease mồ côi",
		"why.orphaned-lease":    "Tiến triển: một lock mà không ai còn tin là mình giữ đã chặn những client khác cho đến khi nó hết.",
		"say.orphaned-lease":    "Một lease bị mồ côi: %s",
		"say.overlap.cause":     "Hai worker cùng tin rằng mình giữ lock một lúc: %[1]s, trong %.1[3]f s trên %[2]s — %[4]s.",
		"p.restored":            "bị xoá khi một client khởi động lại và khôi phục",
		"p.removed":             "bị client khác xoá",
		"p.released":            "đã nhả lock",
		"p.purged":              "bị dọn (purge)",
		"p.clock":               "expire sớm (đồng hồ)",
		"p.failover":            "mất khi failover",
		"p.held":                "vẫn còn giữ",

		// Issue 19, third round: the two-write job (BR-23 #1416), the orphan
		// kept alive by another client's extends (BR-25 #1707) and the client
		// restart (kombu PR #905, redisson #4595).
		"a.stale-write-accepted.record": "Tài nguyên đã chấp nhận lý do thất bại mà %[1]s ghi vào %[3]s lúc t=%[4]ss, đè lên bản ghi của lần chạy đã xong của %[2]s: chỉ lần hoàn thành được kiểm tra với lock, lần ghi lý do thất bại thì không.",
		"refusal.lock-mismatch":         "key lock của %s không còn, hoặc đang giữ owner token của người khác (Missing lock / Lock mismatch)",
		"fault.restart-client":          "client khởi động lại",
		"n.restart.client":              "%s bị kill và khởi động lại sau %s như một tiến trình mới: nó không khôi phục gì, để lease cũ tự hết hạn theo TTL và làm lại các job từ đầu.",
		"n.restart.client.nolease":      "%s bị kill và khởi động lại sau %s như một tiến trình mới, lúc đó không giữ lease nào: nó không khôi phục gì và làm lại các job từ đầu.",
		"n.restart.client.restore":      "%s bị kill và khởi động lại sau %s như một tiến trình mới: khi khởi động nó đưa mọi lease của job mà nó thấy trở lại hàng đợi (DEL key lock của mọi job, như kombu khôi phục các message chưa ack), kể cả của các worker đang chạy.",
		"a.orphaned-lease.extended":     "Key %[2]s của %[1]s vẫn nằm trên node từ t=%[3]ss đến t=%[4]ss (%[5]s) sau khi %[1]s đã thôi tin rằng mình giữ nó, trong khi các client khác bị từ chối: %[6]s cứ gia hạn key này dù nó không giữ key đó (lệnh gia hạn của nó không kiểm tra owner), lần cuối lúc t=%[7]ss.",
		"fix.extend.owner":              "Chỉ gia hạn lock của chính mình, và chỉ khi nó còn là của mình: một heartbeat gia hạn mọi key được cấu hình bất kể ai giữ sẽ giữ lock của một người giữ đã chết mãi mãi. Hãy gia hạn các lock mình đã lấy bằng compare-and-pexpire trên owner token của mình, và bỏ lock mà nó không còn tìm thấy (rq PR #2458, BR-25).",

		"a.mutex-overlap.node": "%[1]s được báo là đã được cấp %[2]s lúc t=%[3]ss trong khi %[4]s vẫn giữ key của %[5]s và không đặt key nào cho %[1]s: hai chủ cùng lúc, theo chính bản ghi của node.",
		"say.overlap.node":     "Hai chủ cùng giữ lock một lúc: %[1]s được báo là đã được cấp %[2]s trong khi %[3]s vẫn giữ key của %[4]s.",
	},
}

// tr formats the message key in lang, falling back to English, then to the
// key itself so a missing message is visible rather than silent.
func tr(lang Lang, key string, args ...any) string {
	f, ok := messages[lang][key]
	if !ok {
		f, ok = messages[English][key]
	}
	if !ok {
		f = key
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// hasMessage reports whether key is a message of the report's tables or
// a workload's words.
func hasMessage(key string) bool {
	_, ok := messages[English][key]
	return ok
}

// say renders a workload's sentence (workload.Words) in lang: a Span
// argument is written as a duration of scenario time, an At as an instant,
// a Term in lang's words.
func say(lang Lang, w workload.Words) string {
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		switch v := a.(type) {
		case workload.Span:
			a = fmtDur(float64(v))
		case workload.At:
			a = fmtT(float64(v))
		case workload.Term:
			a = tr(lang, string(v))
		}
		args[i] = a
	}
	return tr(lang, w.Key, args...)
}
