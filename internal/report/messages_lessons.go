package report

// The messages of a suite's lesson pages, its requirements page, the
// classroom mode and the glossary (issue 15), one table per language like
// messages; init merges them into messages, so tr, the language list and
// TestEveryLanguageHasEveryKey see one catalogue. Kept in their own file
// so that other work on messages.go does not meet them.
var lessonMessages = map[Lang]map[string]string{
	"en": {
		// The course module (lesson-42-distributed-lock.vi.txt, "Bài 43…51").
		"lesson.42": "Why distributed locks",
		"lesson.43": "A basic lock with SET NX EX",
		"lesson.44": "Lock expiration",
		"lesson.45": "Safe unlock with Lua",
		"lesson.46": "Fencing token",
		"lesson.47": "Redlock and the Kleppmann–antirez debate",
		"lesson.48": "Idempotency key against double payment",
		"lesson.49": "Leader election with Redis",
		"lesson.50": "Distributed semaphore",
		"lesson.51": "Singleton worker and cron deduplication",

		"lesson.word":             "Lesson %d",               // lesson number
		"lesson.title":            "Lesson %d — %s",          // number, name
		"lesson.page.title":       "locksim — lesson %d: %s", // number, name
		"lesson.other":            "Scenarios without a lesson",
		"lesson.back":             "Back to the suite",
		"lesson.nav":              "Lessons",
		"lesson.pairs":            "Broken and fixed, side by side",
		"lesson.more":             "More runs of this lesson",
		"lesson.broken":           "broken",
		"lesson.fixed":            "fixed",
		"lesson.fixedby":          "fixed by %s",                                                                                                     // scenario
		"lesson.nopair":           "This suite holds no broken run of this lesson together with the run of its fixed_by scenario.",                   //
		"lesson.missing.fixed":    "The fix of %s, %s, was not run in this suite; run both files together to see them side by side.",                 // broken, fixed file
		"lesson.missing.contrast": "The contrast of %s, %s, not a fix, was not run in this suite; run both files together to see them side by side.", // broken, contrast file
		"lesson.missing.control":  "The control of %s, %s, not a fix, was not run in this suite; run both files together to see them side by side.",  // broken, control file
		"lesson.seed.same":        "Both runs used seed %d.",                                                                                         // seed
		"lesson.seed.diff":        "The runs used different seeds: %d and %d (each file's own seed).",                                                // broken seed, fixed seed
		"lesson.fault.same":       "The same fault plan: %s.",                                                                                        // steps
		"lesson.fault.diff":       "The fault plans differ: broken %s; fixed %s.",                                                                    // steps, steps
		"lesson.fault.when":       "The same faults, fired at another moment or on another trigger: %s.",                                             // steps
		"lesson.fault.none":       "no fault",                                                                                                        //
		"lesson.restore.all":      "(restoring every lease on start)",
		"lesson.caveat.time":      "Every run of this lesson plays its scenario at the scenario's time scale, here from %s to %s (above 1 faster than real time, below 1 slower): a 30 s TTL at time scale %s is a %s key in Redis. Times on these pages are scenario time; each run's report gives its scale and how late the harness ran.", // lowest, highest scale
		"lesson.caveat.time.one":  "Every run of this lesson in this suite plays its scenario at time scale %s (above 1 faster than real time, below 1 slower): a 30 s TTL at time scale %s is a %s key in Redis. Times on these pages are scenario time; each run's report gives how late the harness ran.",                                 // scale
		"lesson.restore.none":     "(restoring nothing)",
		"lesson.axis.shared":      "Both timelines below are drawn on one time axis of scenario time: zooming or panning one moves the other.",
		"lesson.axis.same":        "Both timelines span t=0 to t=%ss of scenario time.",                                                                  // seconds
		"lesson.axis.diff":        "The timelines span t=0 to t=%ss (broken) and t=0 to t=%ss (%s) of scenario time: compare them by their axis labels.", // seconds, seconds, lesson.side.*
		"lesson.axis.runs.same":   "Both runs span t=0 to t=%ss of scenario time.",                                                                       // seconds
		"lesson.axis.runs.diff":   "The runs span t=0 to t=%ss (broken) and t=0 to t=%ss (%s) of scenario time.",                                         // seconds, seconds, lesson.side.*
		"lesson.side.fixed":       "fixed",
		"lesson.side.contrast":    "contrast",
		"lesson.side.control":     "control",
		"lesson.change":           "What to change",
		"lesson.change.control":   "What the control changes (a harness control, not a fix to deploy)",
		"lesson.change.contrast":  "How the contrast differs from the broken run (not a fix to deploy)",
		"lesson.change.yaml":      "What the scenario file changes (scenario.yaml of each run, normalised; without name, seed, the process's working directory and the harness's own fields, which are not part of the fix: expect, expect_live, min_acquires, observe, probe and probe_timeout, how long the final probe waits):",
		"lesson.change.none":      "The two scenario files differ in nothing but their name, description, seed and the harness's own fields (expect, expect_live, min_acquires, observe, probe, probe_timeout).",
		"lesson.open":             "open the report",
		"lesson.notimeline":       "No timeline was drawn for this run.",
		"lesson.step":             "%s on %s",                                                           // fault word, targets
		"lesson.step.for":         "%s on %s for %s",                                                    // fault word, targets, duration
		"lesson.step.crash":       "%s crashed, restarted after %s",                                     // nodes, downtime
		"lesson.step.powerloss":   "%s lost power (what no fsync reached was lost), restarted after %s", // nodes, downtime
		"dur.planned":             "%s (%s planned)",                                                    // measured duration, planned duration

		// A pair's steps an event triggers, fired apart (firedApart).
		"lesson.fault.fired":      "But the steps an event triggers fired at different moments in the two runs: %s.", // lesson.fault.fired.step, joined
		"lesson.fault.fired.step": "%[1]s: t=%[2]ss in the broken run, t=%[3]ss in the %[4]s one",                    // step, t broken, t other, lesson.side.*

		// A pair's evidence: the seeds behind each side (lessons.go evidence).
		"lesson.noevidence":                     "no evidence: this run of the fix was not valid",
		"lesson.partial":                        "a partial fix: still violates, as expected (%s)", // expected kinds
		"lesson.contrast.clock":                 "contrast: when the clock assumption holds",
		"lesson.contrast.restart":               "contrast: an operational answer (a crashed node kept down longer than the TTL), not a change to the lock",
		"lesson.contrast":                       "contrast: another scenario of the same shape, not a fix",
		"lesson.fault.diff.contrast":            "The fault plans differ: broken %s; contrast %s.",                                              // steps, steps
		"lesson.evidence.contrast":              "The contrast was valid in %d of %d runs (%s).",                                                // valid, runs, seeds
		"lesson.missing.lessonpair":             "%s and %s were not both run in this suite; run both files together to see them side by side.", // broken, fix or contrast file
		"lesson.control":                        "control: an in-process lock every client shares, which tests the checkers and spans no pods; not a fix to deploy",
		"lesson.goal":                           "Goal",
		"lesson.strip":                          "What each run showed of this lesson's requirements (the requirements page says how each is decided)",
		"lesson.strip.req":                      "Requirement",
		"lesson.strip.notshown":                 "not shown by this run",
		"lesson.strip.prevented":                "broken, harm prevented: two clients believed they held the lock (the course's safety broken), and the resource refused %s's stale write", // stale holder
		"lesson.strip.stale":                    "the first holder",
		"lesson.strip.nolock":                   "broken: there is no lock: every acquire succeeds, so %s was let in while %s was inside", // fresh, stale holder
		"lesson.strip.current":                  "the second client",
		"lesson.strip.granted":                  "broken: the lock itself let %s in while %s's key should still have stood (two grants at once, not an overlap after a TTL ran out)", // fresh, stale holder
		"lesson.strip.waste":                    "broken, no harm: two clients believed they held an efficiency lock, so the overlap only duplicated work",
		"lesson.strip.inorder":                  "broken, no harm: two clients believed they held the lock, but the resource took %s's writes before the newer holder first used it, one holder at a time (in token order with a fencing token, in claim order with check-and-set)", // stale holder
		"lesson.strip.noharm":                   "broken, no harm: two clients believed they held the lock, but the resource accepted no write of %s while both did",                                                                                                                // stale holder
		"lesson.strip.harmoneholder":            "broken by harm, not by two holders: the lock never let two clients believe they held it at once (the course's definition held), but the resource was harmed anyway (see the run's findings); locksim counts that harm under safety too",
		"lesson.strip.linksonly":                "kept: the faults on the nodes' side only cut links (%s), and no finding had a node's failure as its cause; no node failed in this run, so it does not show the lock through a node's failure", // links
		"lesson.strip.granted.janitor":          "broken: a janitor deleted %[1]s's key by name, and the lock then let %[2]s in while %[1]s still believed it held the lock",                                                                    // stale, fresh holder
		"lesson.strip.singlepoint":              "kept correct across the node's failure, not available through it: a lock on one Redis node (or on a master, until a replica is promoted) takes no one while that node is down, a single point of failure (lesson 42 §3)",
		"lesson.strip.expired":                  "kept: the lock granted one client at a time; %s was let in only after %s's key had expired by its TTL (two clients believing they hold the lock is safety's concern)", // fresh, stale holder
		"lesson.strip.bounded":                  "kept: %s's key %s stayed %s after its holder stopped, and its TTL (%s) ended it: the lock came free by itself",                                                        // owner, key, how long, TTL
		"lesson.strip.informational":            "broken, though the liveness checker counts it as information, not a violation: %s's key %s stayed %s after its holder stopped, until its TTL (%s) ended it",
		"lesson.strip.informational.unbelieved": "broken, though the liveness checker counts it as information, not a violation: %[1]s's key %[2]s stayed %[3]s on its node though %[1]s never believed it held it (its acquire got no answer), until its TTL (%[4]s) ended it",
		"lesson.strip.nodenotneeded":            "the node's fault did not cause the harm: the same seed without it was still invalid",
		"lesson.strip.keptbyothers":             "broken: %[1]s's key %[2]s stayed %[3]s after its holder stopped, kept past its TTL by %[4]s's extends (the last at t=%[5]ss): it did not come free by itself", // owner, key, how long, extender, last extend
		"lesson.strip.gaveup":                   "kept: the lock gave %[1]s's lease on %[2]s up before %[1]s left its critical section: %[3]s; at t=%[4]ss %[1]s was told its lease was lost%[5]s",              // client, key, lesson.strip.gaveup.{none,once,times}, t, lesson.strip.gaveup.{released,expired} or ""
		"lesson.strip.gaveup.none":              "its renewer never renewed it",
		"lesson.strip.gaveup.once":              "its renewer renewed it once, at t=%ss",                                                                                                                                           // t
		"lesson.strip.gaveup.times":             "its renewer renewed it %d times, the last at t=%ss",                                                                                                                              // renewals, t of the last
		"lesson.strip.gaveup.released":          ", and its key left %s at t=%ss, deleted by its own release",                                                                                                                      // node, t
		"lesson.strip.gaveup.expired":           ", and its key expired on %s at t=%ss",                                                                                                                                            // node, t
		"lesson.strip.bounded.unbelieved":       "kept: %[1]s's key %[2]s stayed %[3]s on its node though %[1]s never believed it held it (its acquire got no answer), and its TTL (%[4]s) ended it: the lock came free by itself", // owner, key, how long, TTL
		// lesson.strip.node.*: fault tolerance broken without harm
		// (NoteNodeSpared): args node(s), stale holder (cause); cause,
		// fresh, stale holder, lesson.strip.node.fence or "" (the rest).
		"lesson.strip.node.cause.clock":    "%[1]s's clock jumped and %[2]s's key there expired early",
		"lesson.strip.node.cause.crashed":  "%[1]s crashed and lost %[2]s's key",
		"lesson.strip.node.cause.failover": "a failover lost %[2]s's key from %[1]s",
		"lesson.strip.node.cause.flushed":  "%[2]s's key was wiped from %[1]s",
		"lesson.strip.node.cause":          "a fault of %[1]s lost %[2]s's key",
		"lesson.strip.node.refused":        "broken, harm prevented: %[1]s, so the lock let %[2]s in while %[3]s still believed it held it (the node's fault broke the lock's safety); the resource refused %[3]s's stale write%[4]s",
		"lesson.strip.node.fence":          " (its fencing token was older than one the resource had seen)",
		"lesson.strip.node.in-order":       "broken, no harm: %[1]s, so the lock let %[2]s in while %[3]s still believed it held it (the node's fault broke the lock's safety); the resource took %[3]s's writes before the newer holder first used it, one holder at a time",
		"lesson.strip.node.no-harm":        "broken, no harm: %[1]s, so the lock let %[2]s in while %[3]s still believed it held it (the node's fault broke the lock's safety); the resource accepted no write of %[3]s while both did",
		"lesson.strip.node.waste":          "broken, no harm: %[1]s, so the lock let %[2]s in while %[3]s still believed it held it (the node's fault broke the lock's safety); it is an efficiency lock, so the overlap only duplicated work",
		"lesson.requirements":              "Requirements (from lesson 42) this lesson bears on:",
		"lesson.requirements.own":          "The requirements this lesson names, which the later lessons refer to:",
		"lesson.predict":                   "Predict before you look:",
		"lesson.takeaways":                 "Takeaways",
		"lesson.caveats":                   "Caveats",
		"lesson.seeds.one":                 "seed %d",                                                               // seed
		"lesson.seeds.range":               "seeds %d–%d",                                                           // lowest, highest
		"lesson.evidence.broken":           "The broken file was invalid in %d of %d runs (%s).",                    // invalid, runs, seeds
		"lesson.evidence.fixed":            "The fix was valid in %d of %d runs (%s).",                              // valid, runs, seeds
		"lesson.evidence.partial":          "The partial fix was still invalid in %d of %d runs (%s), as expected.", // invalid, runs, seeds
		"lesson.evidence.control":          "The control was valid in %d of %d runs (%s).",                          // valid, runs, seeds
		"lesson.evidence.rest":             "The others: %s.",                                                       // counts by verdict
		"lesson.evidence.busy.one":         "That run is unknown because the machine was too busy in every try of it (the harness ran too late to keep compressed time), not because of anything the lock did: it shows nothing either way.",
		"lesson.evidence.busy":             "Those %d runs are unknown because the machine was too busy in every try of them (the harness ran too late to keep compressed time), not because of anything the lock did: they show nothing either way.",
		"lesson.evidence.rerun.one":        "1 of these runs was run again after the machine spoiled its try; it counts by its last try.",
		"lesson.evidence.rerun":            "%d of these runs were run again after the machine spoiled a try; each counts by its last try.",                       // runs rerun
		"lesson.evidence.few":              "Fewer than %d seeds are not evidence that the fix holds: run locksim run %s %s --count %d to see how often it does.", // min, broken file, fixed file, min
		"lesson.evidence.scope":            "Evidence for these faults at these seeds, not a proof: other faults can still break the fix.",
		"lesson.evidence.few.contrast":     "Fewer than %d seeds show what happened in these runs, not that the contrast always comes out so: run locksim run %s %s --count %d to see how often it does.", // min, broken file, contrast file, min

		// A valid run's headline when a check at the resource refused a
		// late write (report.go refusedHeadline), one per check.
		"say.valid.lockfree":      "No checker found a problem in this run, which takes no lock: the resource's own atomic step kept it safe.",
		"say.fenced.epoch":        "The leader epoch check held: %s's %s as the leader of term %d was refused because the resource had already seen term %d.",       // client, action, term, seen
		"say.fenced.epoch.lead":   "The leader epoch check held: %s's write as the leader of term %d was refused because the resource had already seen term %d.",    // client, term, seen
		"say.refused.cas":         "The check-and-set on the lock's unique token held: %s's late %s was refused because %s's currlock held a newer holder's token.", // client, action, key
		"say.refused.idempotency": "The idempotency key held: %s's %s was refused because %s had already been charged with the same key.",                           // client, action, key
		"say.refused.lockcheck":   "The lock check on the job record held: %s's late %s was refused because the lock key of %s no longer held its owner token.",     // client, action, key

		// What to change: comment lines of the code diffs (the code itself
		// is the same in every language).
		"diff.unlock":             "Release: delete the key only if it still holds your owner token (one Lua script, atomic).",
		"diff.heartbeat":          "Own each queue lock with a random token: the heartbeat renews a key only while it still holds that token and tells the scheduler when it does not, and the stop deletes only the keys that still hold it (rq PR #2458).",
		"diff.restore":            "On start, reclaim only what is yours once it has expired: leave the killed process's leases to their TTL (the visibility timeout) instead of deleting every job's lock key (celery/kombu PR #905, #1098).",
		"diff.ttl":                "Set the key and its TTL in one command.",
		"diff.fence":              "At the resource, in the same step as the write: refuse a fencing token lower than the highest seen.",
		"diff.fence.grant":        "The lock hands out a fencing token that only grows (INCR in the acquire script).",
		"diff.fence.grant.quorum": "After each Redlock grant, the lock takes a fencing token from one counter that only grows (INCR on one node; the key never expires). This is how the run issues its token, to show the check at the resource; it is not a recommended token source: one node's counter is a single point of failure, and a pause before the INCR can reorder the tokens (the lesson's caveats).",
		"diff.epoch":              "At the resource: refuse a write from an older leader term (epoch).",
		"diff.stock":              "No lock: check and decrement the stock in one Lua script, which Redis runs atomically.",
		"diff.idempotency":        "The payment gateway remembers each charge's idempotency key and refuses a second charge with it.",
		"diff.perfire":            "One lock key per fire time, never released: it expires after the TTL, so a skewed scheduler finds it taken.",
		"diff.singleton":          "A singleton worker: one scheduler holds the leader key for the whole run and runs every fire time; the others stand by.",
		"diff.aof":                "Persistence: fsync every write before replying, so a restarted node still has the key.",
		"diff.restart":            "Operate the nodes so that a crashed node stays down longer than the TTL (%s) before it restarts (the Redlock spec's delayed restart, which antirez defended): by then every key it held has expired on the other nodes, so its empty restart cannot hand a second client a majority. The lock's code does not change.", // TTL
		"diff.wait":               "After acquiring: wait until %s acknowledged the key, check WAIT's reply, and give the lock back when too few did.",                                                                                                                                                                                                     // "1 replica" / "every replica"
		"diff.wait.one":           "one replica",
		"diff.wait.all":           "every replica",
		"diff.watchdog":           "While the job runs: renew the lease every TTL/3, and stop the job when a renewal fails.",
		"diff.watchdoglost":       "The watchdog tells the job when a renewal fails, and the job stops; before, the failure was raised where nobody listened.",
		"diff.twochanges":         "This fix changes two things: this stop, and the fencing token below. A run whose stopped job never wrote again did not test the token (its card says so).",
		"diff.nowatchdog":         "The fix drops the watchdog: the lease is no longer renewed, and ends at its TTL.",
		"diff.nowatchdog.fenced":  "A holder that outlives it meets the fencing token below.",
		"code.unheard":            "raised where nobody listens: the job goes on",
		"diff.watchdogcap":        "Cap the renewals: after maxRenewals renewals (3 here) the watchdog stops the job and releases the lock, so a hung job cannot hold it for ever.",
		"diff.extendowned":        "The renewal extends the key only while it still holds the owner token: a key that is gone is not set again, and the renewal tells the job the lock is lost (compare-and-pexpire; redlock-rb PR #37).",
		"diff.deadline":           "Keep a local lease deadline beside the renewer: when the lease's end (from when the SET or the last renewal was sent), less a tenth of the TTL, passes on the client's own clock with no renewal since, stop the job, whether or not the renewer ran (node-redlock using()'s abort signal).",
		"diff.monotonic":          "Measure the elapsed time, and so the lease's validity and the time left for the job, on a monotonic clock (Go's time.Since, as redsync does): a step of the wall clock does not move it. The acquire is unchanged.",
		"diff.validity":           "After the quorum: the lease is valid only for TTL − elapsed − drift; give up when that is not positive.",
		"diff.shared":             "Every client uses the same lock: one key, one owner at a time.",
		"diff.claim":              "Claim first: each new holder presents its fencing token to the resource as soon as it is granted, so a stale holder's later write meets a higher token.",
		"diff.cas":                "At the resource: store the lock's unique token as currlock when granted, and accept a write only while currlock is still the writer's token, in one step (check-and-set).",
		"diff.failurerecord":      "The failure record is written only while the lock key still holds this worker's owner token (one Lua script).",
		"diff.ttlvalue":           "The lease's TTL.",
		// Comments of the code lines of those diffs (cm).
		"code.lost":                "failed, timed out or key gone: the lock is lost",
		"code.cap":                 "a job still running after maxRenewals renewals is taken as hung: stop it and give the lock up",
		"code.sent":                "client's clock when the SET, or the last renewal, was sent; a renewal moves it",
		"code.renewer":             "renews every TTL/3 as before; a starved renewer does not run",
		"code.watch":               "a watch of its own beside the renewer",
		"code.latetimers":          "a tenth of the TTL for the client's timers running late",
		"code.norenewal":           "no renewal moved it: the lease may be over, stop",
		"code.wallclock":           "time of day: a clock step moves it",
		"code.monotonic":           "counts elapsed time only: a clock step does not move it",
		"code.sameclock":           "the job's time left, on the same clock",
		"code.unchanged":           "unchanged",
		"code.counter":             "one counter that never expires, after each grant",
		"code.claim":               "at once, before anything slow",
		"code.grant":               "at once, after the grant",
		"code.samestep":            "in the same step as the write",
		"code.leader":              "retry every retry delay; the watchdog renews it",
		"code.wait":                "WAIT returns how many replicas acknowledged",
		"code.waiterr":             "no reply, or too few acknowledged: the grant may be lost",
		"code.pid":                 "the PID: 1 in every container",
		"code.random":              "a random token per scheduler",
		"code.whoever":             "whoever holds it, reply ignored",
		"code.lostlock":            "the lock is lost",
		"code.everyqueue":          "every configured queue, on stop",
		"code.unacked":             "every unacked job, live workers' too",
		"code.fencedacquire":       "EVAL: SET NX PX and INCR of the fencing counter, in one script",
		"code.nothing":             "nothing: the killed process's own lease comes back when its TTL ends",
		"code.perprocess":          "one id per process, which its threads share",
		"code.peracquire":          "one token per acquire",
		"diff.pertoken":            "Each acquire draws its own random owner token, and the acquire grants only a free key: no re-entry for a process's id, so a second thread of the same process is refused until the first releases.",
		"diff.fairsem":             "Rank callers by a counter in Redis, not by their own clocks (Redis in Action 6.3.2): drop timed-out holders from the owner set too (ZINTERSTORE), take the next number from the counter (INCR), ZADD the caller to the timeout set with its timestamp and to the owner set with that number, and keep the permit only if its ZRANK in the owner set is below N. Timestamps still time holders out.",
		"lib.semaphore.onlocklost": "4.1.0 calls onLockLost (and isAcquired turns false) when a refresh finds the key no longer holds the holder's identifier; 3.2.1 threw LostLockError inside its refresh timer, where no caller could catch it (redis-semaphore #24).",
		"lib.semaphore.noreset":    "5.3.1's refresh script no longer SETs a missing key again: it PEXPIREs the key only while it holds the holder's identifier and answers 0 otherwise, so the Mutex calls onLockLost (redis-semaphore #175).",
		"lib.redlock.validity":     "4.2.0 checks Date.now() against the lease's end (start + ttl − drift) after the quorum, and unlocks instead of granting when it has passed; 5.0.0-beta.2 returns the lock without that check (node-redlock #296). 4.2.0 is the older release: no newer one has the check.",

		// The requirements page (lesson 42's five requirements).
		"req.title":             "The five requirements of a distributed lock (lesson 42)",
		"req.page.title":        "locksim — the five requirements",
		"req.intro":             "Each cell lists the runs of this suite that show the requirement kept (✔) or broken (✘; in amber, for safety, when no harm was done), with their verdicts and, where a mark alone would mislead, why. A run counts only if it was judged valid or invalid (an unknown run proves nothing) and, for a requirement that needs a fault, only if its fault plan held one.",
		"req.algorithm":         "Algorithm",
		"req.mutual":            "Mutual exclusion",
		"req.deadlock":          "Deadlock-free",
		"req.fault":             "Fault tolerance",
		"req.safety":            "Safety",
		"req.liveness":          "Liveness",
		"req.mutual.rule":       "Broken: two clients were let in at once by the lock itself — the first holder's key was deleted by another client, lost on its node (crash, clock, failover), re-entered or released by another client sharing its owner token, or never excluded the second (it was granted while the first holder's key should still have stood by its TTL), or a semaphore admitted more than its permits. Kept: a run that tested it (a fault, a job longer than its TTL, or a client the lock refused while another's key stood) with no such finding; an overlap whose first key had merely expired by its TTL keeps it (the lock granted one client at a time), and the mark says so: two clients believing they hold the lock is safety's concern.",
		"req.deadlock.rule":     "Broken: a lock stayed stuck (stuck-lock), or a lease outlived its holder by more than its TTL because another client's extends kept its key (the lock did not come free by itself). Kept: a run whose faults stopped, cut off or crashed a client while it held a lock, with no stuck lock (a fault on a client that held nothing strands no lock and shows nothing).",
		"req.fault.rule":        "Broken: a finding whose cause is a node's failure (crash, clock fault, failover, flush, power loss). Kept: a run whose faults struck a node or cut links, with no such finding. A lock on one node (or a master with replicas) that kept it kept only correctness: the course's fault tolerance asks for availability too, and such a lock takes no one while its node is down (lesson 42 §3), which its mark says.",
		"req.safety.rule":       "Broken: a violation that is not informational (two holders acting at once, a double charge, a lost update, an oversell, a split brain, a duplicate run, a stale write or token accepted). A run broken by harm alone, with never two believed holders at once (a job run twice because its lock was keyed by the job and released before a late scheduler fired), says so: the course's definition held, and locksim counts the harm under safety too. Broken with no harm (✘, in amber): by the course's definition (no two clients believe they hold the lock) safety was broken, but the checkers found no harm: the resource refused the stale write (harm prevented), the lock was an efficiency lock (duplicate work), or a resource that checks tokens took the stale writes in token or claim order, or took none. A resource that checks nothing is not spared by a stale holder that happened to stop before it wrote: that run stays broken, for only timing kept the harm out. Kept: a valid run that tested it (a fault, or a job longer than its TTL) with no two believed holders. A lesson page marks its pairs by this same rule, in each pair's requirements strip; a run a lesson page shows alone carries no mark.",
		"req.liveness.rule":     "Broken: the lock was unavailable, stuck or orphaned (a liveness finding, informational or not, unless the machine was too busy). Kept: a run whose liveness checker ran and found nothing else; an informational orphaned lease whose key its TTL ended within one TTL of its holder's end is no break: the lock came free by itself.",
		"req.kept":              "kept",
		"req.broken":            "broken",
		"req.empty":             "No run in this suite shows it.",
		"req.undecided":         "No run in this suite shows it (%s ran, but did not test it or its findings do not tell); run a %s scenario with %s.", // runs, algorithm, what
		"req.need.fault":        "a fault on its nodes or links",
		"req.need.holder":       "a fault that stops or crashes a holder",
		"req.na.nokey":          "does not apply: %s keeps no key on any node, so no node or link fault can reach its lock",                                                                                          // algorithm
		"req.inprocess":         "No run can show it: %s's mutex has no TTL and comes free only when its holder releases it, so a stopped holder keeps the others out until it resumes, and a crashed one for ever.", // algorithm
		"req.need.any":          "any fault, or a job longer than the TTL",
		"req.na":                "does not apply: %s takes no lock", // algorithm
		"req.rules":             "How each cell is decided",
		"req.na.head":           "Does not apply",
		"req.na.rule":           "a run that takes no lock neither keeps nor breaks what a lock promises, and a cell whose algorithm's runs are all such runs says so. A lock-free algorithm (atomic-lua, idempotency-key) takes no lock at all: none of the five requirements applies to it. The no-lock control calls acquire, but its acquire succeeds at once and takes nothing: deadlock-freedom and liveness do not apply to it, as no lock of its can stay stuck or come free by itself; its mutual exclusion is broken whenever two clients were inside at once (there is no lock: every acquire succeeds), and its fault tolerance and safety follow their rules above.",
		"req.undecided.invalid": "No run in this suite shows it: %s tested it (a fault, or a job longer than the TTL) and broke no safety, but is invalid by its other findings, and only a valid run keeps safety.", // runs

		// Classroom mode (every run page).
		"class.toggle": "Step through the story",
		"class.help":   "Keys: → or space shows the next step, ← hides it, Home shows none, End shows all, Esc leaves.",
		"class.next":   "What happens next? (press → or space)",
		"class.done":   "That is the whole story.",
		"class.prev":   "← back",
		"class.more":   "next →",
		"class.print":  "Print or project",

		// Workload-specific legend and labels (the page's own text).
		"h.timeline.how.wl": "One row per client (w1, w2, …), one per Redis node and one for the resource. A coloured bar is a %[1]s held, labelled with its token; on a node's row it is the lock key as that node held it (a dashed outline where the node was not observed and the clients' outcomes tell it). Marks are writes to the protected %[2]s: a %[3]s, or another write the legend names. Grey arrows are commands to a node and their replies; a red line ending in a cross is a message that never arrived. Shaded areas are faults; a red band is where a checker found a violation. Hover any mark for the operation in full.", // hold word, object word, write word
		"wl.hold.lock":      "lock",
		"wl.hold.semaphore": "permit",
		"alt.timeline.run":  "Timeline of %s: %s", // scenario, headline

		// The suite index grouped by lesson.
		"suite.madefrom": "These pages were made from this suite's own %d runs, in English, the first begun at %s UTC. Vietnamese pages come only from a run of their own (--lang vi) of the same scenario files and seeds; where such pages exist, their times and counts can differ slightly from these and, rarely, so can an informational finding.", // runs, first start
		"suite.reqlink":  "The five requirements: which runs kept or broke them",
		"suite.lessonpg": "lesson page",
		// What the run below a broken run is (fixSide), then its name.
		"suite.pair.fixed":            "fixed by %s",                                                                                             // scenario
		"suite.pair.partial":          "a partial fix, still invalid as expected (%[2]s): %[1]s",                                                 // scenario, expected kinds
		"suite.pair.noevidence":       "its fix, whose run here was not valid (no evidence): %s",                                                 // scenario
		"suite.pair.contrast":         "contrast, another scenario of the same shape, not a fix: %s",                                             // scenario
		"suite.pair.contrast.clock":   "contrast, the clock assumption holding (a jump left out or a drift within the allowance), not a fix: %s", // scenario
		"suite.pair.contrast.restart": "contrast, an operational answer (a crashed node kept down longer than the TTL), not a fix: %s",           // scenario
		"suite.pair.control":          "control, an in-process lock that tests the checkers, not a fix to deploy: %s",                            // scenario

		// The checkers table's summary, rendered from the checker's data.
		"sum.coverage.nofaults":        "no faults in this run: nothing to cover; %d ok acquires",     // ok acquires
		"sum.coverage.nofaults.writes": "no faults in this run: nothing to cover; %d accepted writes", // accepted writes
		"sum.liveness.probes":          "%d final probes succeeded",                                   // probes
		"sum.valid":                    "no problem found",
		"sum.notchecked":               "not checked: %s", // what it lacked (sum.notchecked.<checker>)
		"sum.notchecked.fencing":       "no operation carried a fencing token",
		"sum.notchecked.liveness":      "no final probe, and no acquire was refused",
		"sum.liveness.noprobe":         "the run's refused acquires alone were judged (%d): no final probe ran; none met a free lock for long",
		"sum.invalid":                  "%d findings: %s", // count, kinds
		"sum.invalid.info":             "%d findings, all informational: %s",
		"sum.invalid.info.one":         "%d finding, informational: %s",
		"sum.invalid.one":              "%d finding: %s",
		"sum.untested":                 "this run proves nothing: no fault (of %d) overlapped a believed lock hold or an in-flight lock operation of a client it affected, so the faults tested nothing", // faults
		"sum.unknown":                  "could not decide",
		"sum.busy":                     "the machine was too busy to keep the run's compressed time, so the run proves nothing; run it again with fewer runs at once (--parallel) or a lower --time-scale",
		"sum.offplan":                  "the deployment changed without the fault plan (Sentinel promoted a replica no failover step asked for), so the run proves nothing",
		"sum.race":                     "the machine was too busy to keep the run's compressed time: a harness timer or a client's command ran late by more than a tenth of the shortest fault window of the plan, so the faults may have missed the operations they were planned around and the run proves nothing; run it again with fewer runs at once (--parallel) or a lower --time-scale",
		"sum.hostclock":                "the host's wall clock, on which Redis counts every TTL, ran apart from the run's own clock, so the nodes' keys did not live as the plan said and the run proves nothing; run it again",
		"sum.shortofgrants":            "fewer acquires succeeded than the run needs while the harness's timers ran late: the machine, not the lock, may have kept the contenders out, so the run proves nothing; run it again with fewer runs at once (--parallel) or a lower --time-scale",
		"sum.missed":                   "the run did not test what the scenario describes: %s never took effect",                                                                                   // steps
		"sum.missed.stands":            "the run did not test what the scenario describes (%s never took effect), so a valid verdict would prove nothing, but the violations found still happened", // steps
		"sum.busy.stands":              "the machine was too busy to keep the run's compressed time, so a valid verdict would prove nothing, but the violations found still happened",
		"sum.unknown.stands":           "a valid verdict would prove nothing on this run, but the violations found still happened",
		// A semaphore's refused acquires: no permit was free.
		"n.tries.permit.one": "%s asked for a permit of %s and was refused (no permit was free).",                                             // client, key
		"n.tries.permit":     "%s asked for a permit of %s %d times between t=%ss and t=%ss and was refused every time (no permit was free).", // client, key, n, t0, t1
		// The protected resource, as the fencing advice names it.
		"fix.fencing.wl": "Fencing token, claimed first: every grant carries a number that only grows; the resource (here %s) refuses any write with a token lower than one it has already seen, and each new holder presents its token to the resource as soon as it is granted, before anything slow. A token check refuses only a write older than a token the resource has seen: a stale holder that writes before the new holder's first write gets through unless the new holder claimed first (lesson 46; lock-theory §7.2).", // resource
		"fix.fencing.of": "the %s",                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   // an action's resource (workload.ResourceOf: resource.<name>)
		// A write's action as the story names it (a workload's Action*): in
		// English the action's own code, as the checkers write it.
		"act.claim": "claim",
		"act.write": "write",
	},
	"vi": {
		"lesson.42": "Tại sao cần lock phân tán",
		"lesson.43": "Lock cơ bản với SET NX EX",
		"lesson.44": "Vấn đề lock hết hạn",
		"lesson.45": "Unlock an toàn với Lua",
		"lesson.46": "Fencing token",
		"lesson.47": "Redlock và tranh luận Kleppmann–antirez",
		"lesson.48": "Idempotency key chống trừ tiền hai lần",
		"lesson.49": "Bầu leader với Redis",
		"lesson.50": "Semaphore phân tán",
		"lesson.51": "Singleton worker và chống chạy trùng cron",

		"lesson.word":             "Bài %d",
		"lesson.title":            "Bài %d — %s",
		"lesson.page.title":       "locksim — bài %d: %s",
		"lesson.other":            "Kịch bản không thuộc bài nào",
		"lesson.back":             "Về trang bộ kịch bản",
		"lesson.nav":              "Các bài",
		"lesson.pairs":            "Bản lỗi và bản đã sửa, đặt cạnh nhau",
		"lesson.more":             "Các lần chạy khác của bài này",
		"lesson.broken":           "bản lỗi",
		"lesson.fixed":            "bản đã sửa",
		"lesson.fixedby":          "được sửa bởi %s",
		"lesson.nopair":           "Bộ kịch bản này không có lần chạy lỗi nào của bài này cùng với lần chạy của kịch bản fixed_by của nó.",
		"lesson.missing.fixed":    "Bản sửa của %s, %s, không được chạy trong bộ này; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.missing.contrast": "Bản đối chiếu của %s, %s, không phải bản sửa, không được chạy trong bộ này; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.missing.control":  "Bản đối chứng của %s, %s, không phải bản sửa, không được chạy trong bộ này; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.seed.same":        "Cả hai lần chạy dùng seed %d.",
		"lesson.seed.diff":        "Hai lần chạy dùng seed khác nhau: %d và %d (seed riêng của mỗi file).",
		"lesson.fault.same":       "Cùng một kế hoạch lỗi: %s.",
		"lesson.fault.diff":       "Kế hoạch lỗi khác nhau: bản lỗi %s; bản đã sửa %s.",
		"lesson.fault.when":       "Cùng các lỗi đó, nhưng xảy ra vào lúc khác hoặc theo điều kiện kích hoạt khác: %s.",
		"lesson.fault.none":       "không có lỗi",
		"lesson.restore.all":      "(khôi phục mọi lease khi khởi động)",
		"lesson.caveat.time":      "Mỗi lần chạy của bài này diễn ra theo time scale của kịch bản, ở đây từ %s đến %s (lớn hơn 1 là nhanh hơn wall time, nhỏ hơn 1 là chậm hơn): TTL 30 s ở time scale %s là một key %s trong Redis. Thời gian trên các trang này là thời gian kịch bản; báo cáo của từng lần chạy cho biết time scale và độ trễ của harness.",
		"lesson.caveat.time.one":  "Mọi lần chạy của bài này trong bộ này diễn ra ở time scale %s (lớn hơn 1 là nhanh hơn wall time, nhỏ hơn 1 là chậm hơn): TTL 30 s ở time scale %s là một key %s trong Redis. Thời gian trên các trang này là thời gian kịch bản; báo cáo của từng lần chạy cho biết độ trễ của harness.",
		"lesson.restore.none":     "(không khôi phục gì)",
		"lesson.axis.shared":      "Hai dòng thời gian bên dưới dùng chung một trục thời gian kịch bản: phóng to hay kéo một dòng thì dòng kia đi theo.",
		"lesson.axis.same":        "Cả hai dòng thời gian trải từ t=0 đến t=%ss thời gian kịch bản.",
		"lesson.axis.diff":        "Hai dòng thời gian trải từ t=0 đến t=%ss (bản lỗi) và từ t=0 đến t=%ss (%s) thời gian kịch bản: hãy so theo nhãn trục.",
		"lesson.axis.runs.same":   "Cả hai lần chạy trải từ t=0 đến t=%ss thời gian kịch bản.",
		"lesson.axis.runs.diff":   "Hai lần chạy trải từ t=0 đến t=%ss (bản lỗi) và từ t=0 đến t=%ss (%s) thời gian kịch bản.",
		"lesson.side.fixed":       "bản đã sửa",
		"lesson.side.contrast":    "bản đối chiếu",
		"lesson.side.control":     "bản đối chứng",
		"lesson.change":           "Cần thay đổi gì",
		"lesson.change.control":   "Bản đối chứng thay đổi gì (đối chứng của harness, không phải bản sửa để triển khai)",
		"lesson.change.contrast":  "Bản đối chiếu khác bản lỗi ở đâu (không phải bản sửa để triển khai)",
		"lesson.change.yaml":      "File kịch bản thay đổi những gì (scenario.yaml của mỗi lần chạy, đã chuẩn hoá; bỏ qua tên, seed, thư mục làm việc của process và các trường riêng của harness, vốn không thuộc bản sửa: expect, expect_live, min_acquires, observe, probe và probe_timeout, thời gian lần thử cuối (final probe) chờ):",
		"lesson.change.none":      "Hai file kịch bản chỉ khác nhau ở tên, phần mô tả, seed và các trường riêng của harness (expect, expect_live, min_acquires, observe, probe, probe_timeout).",
		"lesson.open":             "mở báo cáo",
		"lesson.notimeline":       "Lần chạy này không vẽ dòng thời gian.",
		"lesson.step":             "%s trên %s",
		"lesson.step.for":         "%s trên %s trong %s",
		"lesson.step.crash":       "%s bị crash, khởi động lại sau %s",
		"lesson.step.powerloss":   "%s mất điện (mất những gì chưa được fsync), khởi động lại sau %s",
		"dur.planned":             "%s (kế hoạch: %s)",

		// A pair's steps an event triggers, fired apart (firedApart).
		"lesson.fault.fired":      "Nhưng các bước do một sự kiện kích hoạt đã xảy ra vào lúc khác nhau ở hai lần chạy: %s.",
		"lesson.fault.fired.step": "%[1]s: lúc t=%[2]ss ở bản lỗi, lúc t=%[3]ss ở %[4]s",

		"lesson.noevidence":                     "chưa có bằng chứng: lần chạy này của bản sửa không hợp lệ",
		"lesson.partial":                        "bản sửa một phần: vẫn vi phạm, đúng kỳ vọng (%s)",
		"lesson.contrast.clock":                 "đối chiếu: khi giả định về đồng hồ đúng",
		"lesson.contrast.restart":               "đối chiếu: một câu trả lời về vận hành (node bị crash nằm im lâu hơn TTL), không phải thay đổi lock",
		"lesson.contrast":                       "đối chiếu: một kịch bản khác có cùng dạng, không phải bản sửa",
		"lesson.fault.diff.contrast":            "Kế hoạch lỗi khác nhau: bản lỗi %s; bản đối chiếu %s.",
		"lesson.evidence.contrast":              "Kịch bản đối chiếu hợp lệ trong %d trên %d lần chạy (%s).",
		"lesson.missing.lessonpair":             "%s và %s không cùng được chạy trong bộ này; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.control":                        "đối chứng: một lock trong process mà mọi client dùng chung, dùng để kiểm tra checker và không dùng chung được giữa các pod; không phải bản sửa để triển khai",
		"lesson.goal":                           "Mục tiêu",
		"lesson.strip":                          "Mỗi lần chạy cho thấy gì về các yêu cầu của bài này (trang năm yêu cầu nói cách quyết định từng ô)",
		"lesson.strip.req":                      "Yêu cầu",
		"lesson.strip.notshown":                 "lần chạy này không cho thấy",
		"lesson.strip.prevented":                "bị phá vỡ, tác hại được ngăn lại: hai client cùng tin mình giữ lock (an toàn theo định nghĩa của môn học bị phá vỡ), và tài nguyên đã từ chối lần ghi cũ của %s",
		"lesson.strip.stale":                    "client giữ lock đầu tiên",
		"lesson.strip.nolock":                   "bị phá vỡ: không có lock nào: mọi lần lấy lock đều thành công, nên %s được cho vào khi %s còn ở bên trong",
		"lesson.strip.current":                  "client thứ hai",
		"lesson.strip.granted":                  "bị phá vỡ: chính lock đã cho %s vào khi key của %s lẽ ra vẫn còn (hai lần cấp lock cùng lúc, không phải chồng lấn sau khi TTL hết)",
		"lesson.strip.waste":                    "bị phá vỡ, không có tác hại: hai client cùng tin mình giữ một efficiency lock, nên phần chồng lấn chỉ làm trùng công việc",
		"lesson.strip.inorder":                  "bị phá vỡ, không có tác hại: hai client cùng tin mình giữ lock, nhưng tài nguyên nhận các lần ghi của %s trước khi client giữ lock mới dùng nó lần đầu, từng client một (theo thứ tự token với fencing token, theo thứ tự đăng ký token với check-and-set)",
		"lesson.strip.noharm":                   "bị phá vỡ, không có tác hại: hai client cùng tin mình giữ lock, nhưng tài nguyên không chấp nhận lần ghi nào của %s trong lúc cả hai cùng tin như vậy",
		"lesson.strip.harmoneholder":            "bị phá vỡ vì tác hại, không phải vì hai client cùng giữ: lock chưa bao giờ để hai client cùng tin mình giữ nó một lúc (định nghĩa của môn học vẫn đúng), nhưng tài nguyên vẫn bị hại (xem các phát hiện của lần chạy); locksim tính cả tác hại đó vào yêu cầu an toàn",
		"lesson.strip.linksonly":                "được giữ: các lỗi phía node chỉ cắt kết nối (%s), và không có phát hiện nào có nguyên nhân là node bị hỏng; không node nào bị hỏng trong lần chạy này, nên nó không cho thấy lock qua một lần node bị hỏng",
		"lesson.strip.granted.janitor":          "bị phá vỡ: một janitor đã xoá key của %[1]s theo tên, rồi lock cho %[2]s vào trong khi %[1]s vẫn tin mình đang giữ lock",
		"lesson.strip.singlepoint":              "vẫn đúng qua lần node bị hỏng, nhưng không sẵn sàng trong lúc đó: lock trên một node Redis (hoặc trên master, cho tới khi một replica được nâng lên) không cấp cho ai trong lúc node đó chết, một single point of failure (bài 42 §3)",
		"lesson.strip.expired":                  "được giữ: lock chỉ cấp cho một client mỗi lúc; %s chỉ được vào sau khi key của %s đã hết hạn (expire) theo TTL (hai client cùng tin mình giữ lock là chuyện của yêu cầu an toàn)",
		"lesson.strip.bounded":                  "được giữ: key %[2]s của %[1]s còn lại %[3]s sau khi client giữ nó dừng, rồi hết hạn theo TTL (%[4]s): lock tự được giải phóng",
		"lesson.strip.informational":            "bị phá vỡ, dù bộ kiểm tra liveness chỉ coi đây là thông tin, không phải vi phạm: key %[2]s của %[1]s còn lại %[3]s sau khi client giữ nó dừng, cho tới khi hết hạn theo TTL (%[4]s)",
		"lesson.strip.informational.unbelieved": "bị phá vỡ, dù bộ kiểm tra liveness chỉ coi đây là thông tin, không phải vi phạm: key %[2]s của %[1]s còn lại %[3]s trên node dù %[1]s chưa bao giờ tin mình giữ nó (lần lấy lock của nó không nhận được trả lời), cho tới khi hết hạn theo TTL (%[4]s)",
		"lesson.strip.nodenotneeded":            "lỗi của node không gây ra tác hại: cùng seed đó khi không có lỗi này vẫn vi phạm",
		"lesson.strip.keptbyothers":             "bị phá vỡ: key %[2]s của %[1]s còn lại %[3]s sau khi client giữ nó dừng, được các lệnh gia hạn của %[4]s giữ quá TTL (lần cuối lúc t=%[5]ss): nó không tự được giải phóng",
		"lesson.strip.gaveup":                   "được giữ: lock đã từ bỏ lease của %[1]s trên %[2]s trước khi %[1]s rời critical section: %[3]s; lúc t=%[4]ss %[1]s được báo lease của nó đã mất%[5]s",
		"lesson.strip.gaveup.none":              "bộ gia hạn của nó chưa gia hạn lần nào",
		"lesson.strip.gaveup.once":              "bộ gia hạn của nó đã gia hạn một lần, lúc t=%ss",
		"lesson.strip.gaveup.times":             "bộ gia hạn của nó đã gia hạn %d lần, lần cuối lúc t=%ss",
		"lesson.strip.gaveup.released":          ", và key của nó rời %s lúc t=%ss, bị chính lần nhả lock của nó xoá",
		"lesson.strip.gaveup.expired":           ", và key của nó hết hạn trên %s lúc t=%ss",
		"lesson.strip.bounded.unbelieved":       "được giữ: key %[2]s của %[1]s còn lại %[3]s trên node dù %[1]s chưa bao giờ tin mình giữ nó (lần lấy lock của nó không nhận được trả lời), rồi hết hạn theo TTL (%[4]s): lock tự được giải phóng",
		"lesson.strip.node.cause.clock":         "đồng hồ của %[1]s nhảy và key của %[2]s ở đó hết hạn sớm",
		"lesson.strip.node.cause.crashed":       "%[1]s bị crash và mất key của %[2]s",
		"lesson.strip.node.cause.failover":      "một lần failover làm mất key của %[2]s khỏi %[1]s",
		"lesson.strip.node.cause.flushed":       "key của %[2]s bị xoá sạch khỏi %[1]s",
		"lesson.strip.node.cause":               "một lỗi của %[1]s làm mất key của %[2]s",
		"lesson.strip.node.refused":             "bị phá vỡ, tác hại được ngăn lại: %[1]s, nên lock cho %[2]s vào khi %[3]s vẫn tin mình giữ nó (lỗi của node đã phá vỡ an toàn của lock); tài nguyên đã từ chối lần ghi cũ của %[3]s%[4]s",
		"lesson.strip.node.fence":               " (fencing token của nó cũ hơn một token tài nguyên đã thấy)",
		"lesson.strip.node.in-order":            "bị phá vỡ, không có tác hại: %[1]s, nên lock cho %[2]s vào khi %[3]s vẫn tin mình giữ nó (lỗi của node đã phá vỡ an toàn của lock); tài nguyên nhận các lần ghi của %[3]s trước khi client giữ lock mới dùng nó lần đầu, từng client một",
		"lesson.strip.node.no-harm":             "bị phá vỡ, không có tác hại: %[1]s, nên lock cho %[2]s vào khi %[3]s vẫn tin mình giữ nó (lỗi của node đã phá vỡ an toàn của lock); tài nguyên không chấp nhận lần ghi nào của %[3]s trong lúc cả hai cùng tin như vậy",
		"lesson.strip.node.waste":               "bị phá vỡ, không có tác hại: %[1]s, nên lock cho %[2]s vào khi %[3]s vẫn tin mình giữ nó (lỗi của node đã phá vỡ an toàn của lock); đây là một efficiency lock, nên phần chồng lấn chỉ làm trùng công việc",
		"lesson.requirements":                   "Các yêu cầu của bài 42 mà bài này đề cập:",
		"lesson.requirements.own":               "Các yêu cầu mà bài này nêu ra, được các bài sau nhắc lại:",
		"lesson.predict":                        "Hãy dự đoán trước khi xem:",
		"lesson.takeaways":                      "Điều cần nhớ",
		"lesson.caveats":                        "Lưu ý",
		"lesson.seeds.one":                      "seed %d",
		"lesson.seeds.range":                    "các seed %d–%d",
		"lesson.evidence.broken":                "Kịch bản lỗi vi phạm ở %d trên %d lần chạy (%s).",
		"lesson.evidence.fixed":                 "Bản sửa hợp lệ trong %d trên %d lần chạy (%s).",
		"lesson.evidence.partial":               "Bản sửa một phần vẫn vi phạm ở %d trên %d lần chạy (%s), đúng kỳ vọng.",
		"lesson.evidence.control":               "Bản đối chứng hợp lệ trong %d trên %d lần chạy (%s).",
		"lesson.evidence.rest":                  "Các lần còn lại: %s.",
		"lesson.evidence.busy.one":              "Lần chạy đó chưa kết luận được vì máy quá bận trong mọi lần thử của nó (harness chạy quá trễ để giữ được thời gian nén), không phải vì điều gì lock đã làm: nó không cho thấy gì, theo chiều nào cũng vậy.",
		"lesson.evidence.busy":                  "%d lần chạy đó chưa kết luận được vì máy quá bận trong mọi lần thử của chúng (harness chạy quá trễ để giữ được thời gian nén), không phải vì điều gì lock đã làm: chúng không cho thấy gì, theo chiều nào cũng vậy.",
		"lesson.evidence.rerun.one":             "1 lần chạy trong số này được chạy lại vì máy quá bận đã làm hỏng lần thử trước; nó được tính theo lần thử cuối.",
		"lesson.evidence.rerun":                 "%d lần chạy trong số này được chạy lại vì máy quá bận đã làm hỏng một lần thử; mỗi lần được tính theo lần thử cuối.",
		"lesson.evidence.few":                   "Ít hơn %d seed thì chưa phải bằng chứng rằng bản sửa đúng: hãy chạy locksim run %s %s --count %d để xem nó đúng thường xuyên đến đâu.",
		"lesson.evidence.scope":                 "Đây là bằng chứng với các lỗi này ở các seed này, không phải chứng minh: những lỗi khác vẫn có thể phá bản sửa.",
		"lesson.evidence.few.contrast":          "Ít hơn %d seed chỉ cho thấy điều đã xảy ra trong các lần chạy này, không cho thấy bản đối chiếu luôn ra như vậy: hãy chạy locksim run %s %s --count %d để xem nó thường ra thế nào.",

		"say.valid.lockfree":      "Không checker nào phát hiện vấn đề trong lần chạy này, vốn không dùng lock: chính bước atomic của tài nguyên đã giữ an toàn.",
		"say.fenced.epoch":        "Kiểm tra epoch của leader đã giữ vững: lần %[2]s của %[1]s với tư cách leader nhiệm kỳ %[3]d bị từ chối vì tài nguyên đã thấy nhiệm kỳ %[4]d.",
		"say.fenced.epoch.lead":   "Kiểm tra epoch của leader đã giữ vững: lần ghi của %s với tư cách leader nhiệm kỳ %d bị từ chối vì tài nguyên đã thấy nhiệm kỳ %d.",
		"say.refused.cas":         "Check-and-set trên token duy nhất của lock đã giữ vững: lần %[2]s muộn của %[1]s bị từ chối vì currlock của %[3]s đang giữ token của client giữ lock sau.",
		"say.refused.idempotency": "Idempotency key đã giữ vững: lần %[2]s của %[1]s bị từ chối vì %[3]s đã bị trừ tiền với cùng key đó.",
		"say.refused.lockcheck":   "Kiểm tra lock trên bản ghi job đã giữ vững: lần %[2]s muộn của %[1]s bị từ chối vì key lock của %[3]s không còn giữ owner token của nó.",

		"diff.unlock":              "Nhả lock: chỉ xoá key nếu key vẫn chứa owner token của mình (một Lua script, atomic).",
		"diff.heartbeat":           "Mỗi lock queue có một token ngẫu nhiên của chủ nó: heartbeat chỉ gia hạn key khi key vẫn chứa token đó và báo cho scheduler khi không còn, và lệnh dừng chỉ xoá các key vẫn chứa token đó (rq PR #2458).",
		"diff.restore":             "Khi khởi động, chỉ lấy lại những gì của mình và đã hết hạn: để các lease của process bị kill tự hết TTL (visibility timeout) thay vì xoá key lock của mọi job (celery/kombu PR #905, #1098).",
		"diff.ttl":                 "Đặt key và TTL của nó trong cùng một lệnh.",
		"diff.fence":               "Tại tài nguyên, trong cùng bước với lần ghi: từ chối fencing token nhỏ hơn token lớn nhất đã thấy.",
		"diff.fence.grant":         "Lock cấp một fencing token chỉ tăng (INCR trong script lấy lock).",
		"diff.fence.grant.quorum":  "Sau mỗi lần Redlock cấp lock, lock lấy một fencing token từ một bộ đếm fencing chỉ tăng (INCR trên một node; key đó không bao giờ hết hạn). Đây là cách lần chạy cấp token, để cho thấy phép kiểm tra tại tài nguyên; nó không phải một nguồn token nên dùng: bộ đếm trên một node là một điểm lỗi duy nhất, và một lần pause trước lệnh INCR có thể đảo thứ tự các token (xem các lưu ý của bài).",
		"diff.epoch":               "Tại tài nguyên: từ chối lần ghi của leader thuộc nhiệm kỳ (epoch) cũ hơn.",
		"diff.stock":               "Không cần lock: kiểm tra và giảm tồn kho trong một Lua script, Redis chạy nó một cách atomic.",
		"diff.idempotency":         "Cổng thanh toán ghi nhớ idempotency key của mỗi lần trừ tiền và từ chối lần trừ tiền thứ hai có cùng key.",
		"diff.perfire":             "Mỗi thời điểm kích hoạt một key lock riêng, không bao giờ nhả: nó hết hạn sau TTL, nên scheduler lệch đồng hồ thấy key đã bị giữ.",
		"diff.singleton":           "Singleton worker: một scheduler giữ key leader suốt lần chạy và chạy mọi lần kích hoạt; các scheduler khác đứng chờ.",
		"diff.aof":                 "Lưu bền (persistence): fsync mọi lần ghi trước khi trả lời, để node khởi động lại vẫn còn key.",
		"diff.restart":             "Vận hành các node sao cho node bị crash nằm im lâu hơn TTL (%s) rồi mới khởi động lại (trì hoãn khởi động lại, cách khắc phục trong đặc tả Redlock mà antirez bảo vệ): đến lúc đó mọi key nó từng giữ đã hết hạn (expire) trên các node khác, nên lần khởi động lại với dữ liệu trống của nó không thể trao đa số cho client thứ hai. Mã của lock không đổi.",
		"diff.wait":                "Sau khi lấy lock: chờ tới khi %s xác nhận đã có key, kiểm tra giá trị WAIT trả về, và trả lại lock khi quá ít replica xác nhận.",
		"diff.wait.one":            "một replica",
		"diff.wait.all":            "mọi replica",
		"diff.watchdog":            "Trong khi job chạy: gia hạn lease mỗi TTL/3, và dừng job khi một lần gia hạn thất bại.",
		"diff.watchdoglost":        "Watchdog báo cho job khi một lần gia hạn thất bại, và job dừng; trước đây lỗi đó được báo ở nơi không ai nghe.",
		"diff.twochanges":          "Bản sửa này thay đổi hai điều: lần dừng này, và fencing token bên dưới. Một lần chạy mà job đã dừng không ghi gì nữa thì chưa kiểm tra token (thẻ của lần chạy đó nói vậy).",
		"diff.nowatchdog":          "Bản sửa bỏ watchdog: lease không còn được gia hạn, và hết theo TTL của nó.",
		"diff.nowatchdog.fenced":   "Client giữ lock nào còn làm sau lúc đó sẽ gặp fencing token bên dưới.",
		"code.unheard":             "được báo ở nơi không ai nghe: job vẫn chạy tiếp",
		"diff.watchdogcap":         "Giới hạn số lần gia hạn: sau maxRenewals lần (ở đây là 3), watchdog dừng job và nhả lock, để một job bị treo không giữ lock mãi mãi.",
		"diff.extendowned":         "Lần gia hạn chỉ kéo dài key khi key vẫn giữ owner token: key đã mất thì không được đặt lại, và lần gia hạn báo cho job biết lock đã mất (compare-and-pexpire; redlock-rb PR #37).",
		"diff.deadline":            "Giữ một hạn chót lease cục bộ bên cạnh bộ gia hạn (renewer): khi thời điểm kết thúc của lease (tính từ lúc gửi lệnh SET hoặc lần gia hạn gần nhất), trừ đi một phần mười TTL, đã qua theo đồng hồ của chính client mà không có lần gia hạn nào kể từ đó, thì dừng job, dù bộ gia hạn có chạy hay không (abort signal của using() trong node-redlock).",
		"diff.monotonic":           "Đo thời gian đã trôi, và do đó thời gian hiệu lực của lease và thời gian còn lại cho job, bằng một đồng hồ đơn điệu (monotonic; time.Since của Go, như redsync): một lần nhảy của đồng hồ hệ thống (wall clock) không làm nó xê dịch. Lệnh lấy lock không đổi.",
		"diff.validity":            "Sau khi có quorum: lease chỉ còn hiệu lực TTL − thời gian đã trôi − drift; bỏ cuộc khi giá trị đó không dương.",
		"diff.shared":              "Mọi client dùng cùng một lock: một key, mỗi lúc một chủ.",
		"diff.claim":               "Đăng ký token trước (claim): mỗi client giữ lock mới trình fencing token cho tài nguyên ngay khi được cấp, để lần ghi muộn của client giữ cũ gặp một token lớn hơn.",
		"diff.cas":                 "Tại tài nguyên: lưu token duy nhất của lock làm currlock khi được cấp, và chỉ chấp nhận lần ghi khi currlock vẫn là token của client ghi, trong một bước (check-and-set).",
		"diff.failurerecord":       "Bản ghi lỗi chỉ được ghi khi key lock vẫn giữ owner token của worker này (một Lua script).",
		"diff.ttlvalue":            "TTL của lease.",
		"code.lost":                "thất bại, hết thời gian chờ hoặc key đã mất: lock đã mất",
		"code.cap":                 "job vẫn chạy sau maxRenewals lần gia hạn bị coi là treo: dừng nó và trả lock",
		"code.sent":                "đồng hồ của client lúc gửi lệnh SET, hoặc lần gia hạn gần nhất; mỗi lần gia hạn dời nó đi",
		"code.renewer":             "gia hạn mỗi TTL/3 như trước; bộ gia hạn bị bỏ đói thì không chạy",
		"code.watch":               "một phép canh riêng bên cạnh bộ gia hạn",
		"code.latetimers":          "một phần mười TTL cho các timer của client chạy trễ",
		"code.norenewal":           "không lần gia hạn nào dời nó: lease có thể đã hết, dừng lại",
		"code.wallclock":           "giờ trong ngày: một lần nhảy đồng hồ làm nó xê dịch",
		"code.monotonic":           "chỉ đếm thời gian đã trôi: một lần nhảy đồng hồ không làm nó xê dịch",
		"code.sameclock":           "thời gian còn lại của job, trên cùng đồng hồ đó",
		"code.unchanged":           "không đổi",
		"code.counter":             "một bộ đếm fencing không bao giờ hết hạn, sau mỗi lần cấp lock",
		"code.claim":               "ngay lập tức, trước mọi việc chậm",
		"code.grant":               "ngay lập tức, sau khi được cấp lock",
		"code.samestep":            "trong cùng bước với lần ghi",
		"code.leader":              "thử lại sau mỗi khoảng retry delay; watchdog gia hạn nó",
		"code.wait":                "WAIT trả về số replica đã xác nhận",
		"code.waiterr":             "không có phản hồi, hoặc quá ít replica xác nhận: lần cấp lock có thể đã mất",
		"code.pid":                 "PID: bằng 1 trong mọi container",
		"code.random":              "một token ngẫu nhiên cho mỗi scheduler",
		"code.whoever":             "bất kể ai giữ, bỏ qua giá trị trả về",
		"code.lostlock":            "lock đã mất",
		"code.everyqueue":          "mọi queue được cấu hình, khi dừng",
		"code.unacked":             "mọi job chưa ack, kể cả của các worker còn sống",
		"code.fencedacquire":       "EVAL: SET NX PX và INCR bộ đếm fencing, trong một script",
		"code.nothing":             "không làm gì: lease của chính process bị kill sẽ tự hết khi TTL của nó kết thúc",
		"code.perprocess":          "một id cho mỗi process, các thread của nó dùng chung",
		"code.peracquire":          "một token cho mỗi lần lấy lock",
		"diff.pertoken":            "Mỗi lần lấy lock rút một owner token ngẫu nhiên của riêng nó, và lệnh lấy lock chỉ cấp khi key đang trống: không còn lấy lại (re-entry) theo id của process, nên thread thứ hai của cùng process bị từ chối cho tới khi thread đầu nhả lock.",
		"diff.fairsem":             "Xếp hạng các client xin permit bằng một bộ đếm trong Redis, không theo đồng hồ của chính chúng (Redis in Action 6.3.2): bỏ cả khỏi owner set các client giữ đã quá timeout (ZINTERSTORE), lấy số kế tiếp từ bộ đếm (INCR), ZADD client xin permit vào timeout set với timestamp của nó và vào owner set với số đó, và chỉ giữ permit khi ZRANK của nó trong owner set nhỏ hơn N. Timestamp vẫn dùng để tính timeout cho các client giữ.",
		"lib.semaphore.onlocklost": "4.1.0 gọi onLockLost (và isAcquired thành false) khi một lần gia hạn thấy key không còn giữ identifier của client giữ lock; 3.2.1 ném LostLockError bên trong timer gia hạn của nó, nơi không caller nào bắt được (redis-semaphore #24).",
		"lib.semaphore.noreset":    "Script gia hạn của 5.3.1 không còn SET lại một key đã mất: nó chỉ PEXPIRE key khi key vẫn giữ identifier của client giữ lock và trả về 0 trong trường hợp khác, nên Mutex gọi onLockLost (redis-semaphore #175).",
		"lib.redlock.validity":     "4.2.0 so Date.now() với thời điểm kết thúc của lease (start + ttl − drift) sau khi có quorum, và nhả lock thay vì cấp khi thời điểm đó đã qua; 5.0.0-beta.2 trả về lock mà không kiểm tra điều đó (node-redlock #296). 4.2.0 là bản cũ hơn: không bản mới hơn nào có kiểm tra này.",

		"req.title":             "Năm yêu cầu của một lock phân tán (bài 42)",
		"req.page.title":        "locksim — năm yêu cầu",
		"req.intro":             "Mỗi ô liệt kê các lần chạy trong bộ này cho thấy yêu cầu được giữ (✔) hoặc bị phá vỡ (✘; màu hổ phách, với yêu cầu an toàn, khi không có tác hại), kèm kết luận của chúng và, khi riêng dấu có thể gây hiểu lầm, lý do. Một lần chạy chỉ được tính khi nó được kết luận hợp lệ hoặc vi phạm (lần chạy chưa kết luận không chứng minh được gì) và, với yêu cầu cần có lỗi, chỉ khi kế hoạch lỗi của nó có ít nhất một lỗi.",
		"req.algorithm":         "Thuật toán",
		"req.mutual":            "Loại trừ lẫn nhau",
		"req.deadlock":          "Không deadlock",
		"req.fault":             "Chịu lỗi",
		"req.safety":            "An toàn",
		"req.liveness":          "Tiến triển",
		"req.mutual.rule":       "Bị phá vỡ: chính lock đã cho hai client vào cùng lúc — key của client giữ đầu tiên bị client khác xoá, bị mất trên node của nó (crash, đồng hồ, failover), bị một client khác dùng chung owner token vào lại hoặc nhả, hoặc không hề ngăn client thứ hai (client thứ hai được cấp lock khi theo TTL key của client giữ đầu tiên lẽ ra vẫn còn), hoặc semaphore cho vào nhiều hơn số permit. Được giữ: lần chạy có kiểm tra yêu cầu này (có lỗi, job dài hơn TTL, hoặc một client bị lock từ chối khi key của client khác vẫn còn) mà không có phát hiện nào như vậy; một lần chồng lấn mà key đầu tiên chỉ hết hạn (expire) theo TTL vẫn giữ yêu cầu này (lock chỉ cấp cho một client mỗi lúc), và ô đánh dấu nói rõ điều đó: hai client cùng tin mình giữ lock là chuyện của yêu cầu an toàn.",
		"req.deadlock.rule":     "Bị phá vỡ: một lock bị kẹt mãi (stuck-lock), hoặc một lease tồn tại lâu hơn client giữ nó quá một TTL vì các lệnh gia hạn của một client khác giữ key của nó (lock không tự được giải phóng). Được giữ: lần chạy có lỗi làm dừng, cắt hoặc crash một client đang giữ lock mà không có lock nào bị kẹt (lỗi trên một client không giữ gì thì không làm kẹt lock nào và không cho thấy gì).",
		"req.fault.rule":        "Bị phá vỡ: một phát hiện có nguyên nhân là node bị hỏng (crash, lỗi đồng hồ, failover, flush, mất điện). Được giữ: lần chạy có lỗi đánh vào một node hoặc cắt kết nối mà không có phát hiện nào như vậy. Một lock trên một node (hoặc master có replica) giữ được yêu cầu này thì chỉ giữ được tính đúng: yêu cầu chịu lỗi của môn học đòi cả tính sẵn sàng, và lock như vậy không cấp cho ai trong lúc node của nó chết (bài 42 §3), điều mà dấu của nó nói rõ.",
		"req.safety.rule":       "Bị phá vỡ: một vi phạm không chỉ mang tính thông tin (hai client giữ lock cùng hành động một lúc, trừ tiền hai lần, mất cập nhật, bán quá số hàng, hai leader, chạy trùng, lần ghi hay token cũ được chấp nhận). Một lần chạy bị phá vỡ chỉ vì tác hại, chưa bao giờ có hai client cùng tin mình giữ lock một lúc (một job chạy hai lần vì lock của nó được đặt theo job và đã được nhả trước khi một scheduler chạy muộn kích hoạt), sẽ nói rõ điều đó: định nghĩa của môn học vẫn đúng, và locksim tính cả tác hại đó vào yêu cầu an toàn. Bị phá vỡ nhưng không có tác hại (✘, màu hổ phách): theo định nghĩa của môn học (không có hai client cùng tin mình giữ lock) thì an toàn bị phá vỡ, nhưng checker không thấy tác hại: tài nguyên đã từ chối lần ghi cũ (tác hại được ngăn lại), lock là efficiency lock (chỉ làm trùng công việc), hoặc một tài nguyên có kiểm tra token đã nhận các lần ghi cũ theo thứ tự token hay thứ tự đăng ký token, hoặc không nhận lần nào. Tài nguyên không kiểm tra gì thì không được tính là tránh được tác hại chỉ vì client giữ lock cũ tình cờ dừng trước khi ghi: lần chạy đó vẫn bị phá vỡ, vì chỉ có thời điểm đã giữ cho tác hại không xảy ra. Được giữ: lần chạy hợp lệ có kiểm tra yêu cầu này (có lỗi, hoặc job dài hơn TTL) mà không có hai client cùng tin mình giữ lock. Trang bài học đánh dấu các cặp của nó theo đúng quy tắc này, trong bảng yêu cầu của mỗi cặp; lần chạy được hiện riêng lẻ trên trang bài học thì không có dấu.",
		"req.liveness.rule":     "Bị phá vỡ: lock không khả dụng, bị kẹt hoặc bị bỏ rơi (một phát hiện về tiến triển, thông tin hay không, trừ khi máy quá bận). Được giữ: lần chạy mà checker tiến triển đã chạy và không thấy gì khác; một lease bị bỏ rơi chỉ mang tính thông tin mà TTL đã xoá key trong vòng một TTL sau khi client giữ nó dừng thì không tính là phá vỡ: lock tự được giải phóng.",
		"req.kept":              "được giữ",
		"req.broken":            "bị phá vỡ",
		"req.empty":             "Không lần chạy nào trong bộ này cho thấy điều đó.",
		"req.undecided":         "Không lần chạy nào trong bộ này cho thấy điều đó (%s đã chạy nhưng không kiểm tra điều này hoặc kết quả không cho biết); hãy chạy một kịch bản %s với %s.",
		"req.need.fault":        "một lỗi trên node hoặc kết nối của nó",
		"req.need.holder":       "một lỗi làm dừng hoặc crash client giữ lock",
		"req.na.nokey":          "không áp dụng: %s không giữ key nào trên node nào, nên không lỗi node hay kết nối nào chạm tới lock của nó",
		"req.inprocess":         "Không lần chạy nào cho thấy được: mutex của %s không có TTL và chỉ được giải phóng khi client giữ nó nhả ra, nên một client giữ lock bị dừng sẽ chặn các client khác cho tới khi nó chạy tiếp, còn một client bị crash thì chặn mãi mãi.",
		"req.need.any":          "một lỗi bất kỳ, hoặc một job dài hơn TTL",
		"req.na":                "không áp dụng: %s không dùng lock",
		"req.rules":             "Mỗi ô được quyết định thế nào",
		"req.na.head":           "Không áp dụng",
		"req.na.rule":           "một lần chạy không lấy lock nào thì không giữ cũng không phá điều mà lock cam kết, và ô mà mọi lần chạy của thuật toán đều như vậy sẽ ghi rõ là không áp dụng. Thuật toán không dùng lock (atomic-lua, idempotency-key) hoàn toàn không lấy lock: không yêu cầu nào trong năm yêu cầu áp dụng cho nó. Đối chứng no-lock có gọi lấy lock, nhưng lần lấy lock của nó thành công ngay và không giữ gì cả: yêu cầu không deadlock và yêu cầu tiến triển không áp dụng cho nó, vì không lock nào của nó có thể bị kẹt hay tự được giải phóng; loại trừ lẫn nhau của nó bị phá vỡ mỗi khi hai client cùng ở bên trong (không có lock nào: mọi lần lấy lock đều thành công), còn chịu lỗi và an toàn của nó theo các quy tắc ở trên.",
		"req.undecided.invalid": "Không lần chạy nào trong bộ này cho thấy điều đó: %s có kiểm tra điều này (có lỗi, hoặc job dài hơn TTL) và không phá vỡ an toàn, nhưng không hợp lệ vì các phát hiện khác, mà chỉ một lần chạy hợp lệ mới giữ được an toàn.",

		"class.toggle": "Xem từng bước câu chuyện",
		"class.help":   "Phím: → hoặc phím cách hiện bước tiếp theo, ← ẩn lại, Home ẩn hết, End hiện hết, Esc để thoát.",
		"class.next":   "Điều gì xảy ra tiếp theo? (nhấn → hoặc phím cách)",
		"class.done":   "Câu chuyện đến đây là hết.",
		"class.prev":   "← lùi",
		"class.more":   "tiếp →",
		"class.print":  "In hoặc trình chiếu",

		"h.timeline.how.wl": "Mỗi client (w1, w2, …) một hàng, mỗi node Redis một hàng và một hàng cho tài nguyên. Một thanh màu là một %[1]s đang được giữ, ghi nhãn bằng token của nó; trên hàng của node, đó là key lock như node đó giữ (viền nét đứt ở chỗ node không được quan sát và kết quả của các client cho biết). Các dấu là các lần ghi vào %[2]s được bảo vệ: một %[3]s, hoặc một lần ghi khác mà chú giải gọi tên. Mũi tên xám là lệnh gửi tới node và phản hồi của nó; đường đỏ kết thúc bằng dấu chéo là thông điệp không bao giờ tới nơi. Vùng tô bóng là lỗi; dải đỏ là nơi checker phát hiện vi phạm. Di chuột lên bất kỳ ký hiệu nào để xem đầy đủ thao tác.",
		"wl.hold.lock":      "lock",
		"wl.hold.semaphore": "permit",
		"alt.timeline.run":  "Dòng thời gian của %s: %s",

		"suite.madefrom": "Các trang này được tạo từ %d lần chạy riêng của bộ này, bằng tiếng Việt, lần đầu bắt đầu lúc %s UTC. Trang tiếng Anh chỉ được tạo từ một lần chạy riêng của chúng (--lang en) với cùng các file kịch bản và seed; nếu có các trang đó, thời gian và số đếm của chúng có thể lệch đôi chút so với các trang này và, hiếm khi, một phát hiện chỉ mang tính thông tin cũng có thể khác.",
		"suite.reqlink":  "Năm yêu cầu: lần chạy nào giữ hay phá vỡ chúng",
		"suite.lessonpg": "trang bài học",

		"suite.pair.fixed":            "được sửa bởi %s",
		"suite.pair.partial":          "bản sửa một phần, vẫn vi phạm đúng kỳ vọng (%[2]s): %[1]s",
		"suite.pair.noevidence":       "bản sửa của nó, nhưng lần chạy ở đây không hợp lệ (chưa có bằng chứng): %s",
		"suite.pair.contrast":         "đối chiếu, một kịch bản khác có cùng dạng, không phải bản sửa: %s",
		"suite.pair.contrast.clock":   "đối chiếu, khi giả định về đồng hồ đúng (không có cú nhảy, hoặc độ trôi nằm trong phần dự phòng), không phải bản sửa: %s",
		"suite.pair.contrast.restart": "đối chiếu, một câu trả lời về vận hành (node bị crash nằm im lâu hơn TTL), không phải bản sửa: %s",
		"suite.pair.control":          "đối chứng, một lock trong process dùng để kiểm tra checker, không phải bản sửa để triển khai: %s",

		"sum.coverage.nofaults":        "không có lỗi nào trong lần chạy này: không có gì để phủ; %d lần lấy lock thành công",
		"sum.coverage.nofaults.writes": "không có lỗi nào trong lần chạy này: không có gì để phủ; %d lần ghi được chấp nhận",
		"sum.liveness.probes":          "%d lần thử cuối (final probe) thành công",
		"sum.valid":                    "không thấy vấn đề",
		"sum.notchecked":               "không kiểm tra: %s",
		"sum.notchecked.fencing":       "không thao tác nào mang fencing token",
		"sum.notchecked.liveness":      "không có lần thử cuối (final probe), và không lần lấy lock nào bị từ chối",
		"sum.liveness.noprobe":         "chỉ xét các lần lấy lock bị từ chối trong lúc chạy (%d): không có lần thử cuối (final probe); không lần nào gặp lock rảnh quá lâu",
		"sum.invalid":                  "%d phát hiện: %s",
		"sum.invalid.info":             "%d phát hiện, tất cả chỉ mang tính thông tin: %s",
		"sum.invalid.info.one":         "%d phát hiện, chỉ mang tính thông tin: %s",
		"sum.invalid.one":              "%d phát hiện: %s",
		"sum.untested":                 "lần chạy này không chứng minh được gì: không lỗi nào (trong %d) trùng với lúc một client mà nó tác động đang tin mình giữ lock hoặc đang chạy một thao tác lock, nên các lỗi không kiểm tra được gì", // faults
		"sum.unknown":                  "các checker không đủ dữ kiện để kết luận",
		"sum.busy":                     "máy quá bận nên không giữ được thời gian nén của lần chạy, vì vậy lần chạy không chứng minh được gì; hãy chạy lại với ít lần chạy cùng lúc hơn (--parallel) hoặc --time-scale thấp hơn",
		"sum.offplan":                  "hệ thống đã thay đổi ngoài kế hoạch lỗi (Sentinel nâng một replica mà không bước failover nào yêu cầu), vì vậy lần chạy không chứng minh được gì",
		"sum.race":                     "máy quá bận nên không giữ được thời gian nén của lần chạy: một bộ hẹn giờ của harness hoặc một lệnh của client đã bị trễ hơn một phần mười khoảng thời gian ngắn nhất của một lỗi trong kế hoạch lỗi, nên các lỗi có thể đã không gặp các thao tác mà chúng được đặt quanh, và lần chạy không chứng minh được gì; hãy chạy lại với ít lần chạy cùng lúc hơn (--parallel) hoặc --time-scale thấp hơn",
		"sum.hostclock":                "đồng hồ hệ thống của máy (host), theo đó Redis tính mọi TTL, đã chạy lệch khỏi đồng hồ riêng của lần chạy, nên các key trên node không sống đúng như kế hoạch và lần chạy không chứng minh được gì; hãy chạy lại",
		"sum.shortofgrants":            "số lần lấy lock thành công ít hơn mức lần chạy cần trong lúc bộ hẹn giờ của harness bị trễ: có thể chính máy, chứ không phải lock, đã giữ các client tranh chấp ở ngoài, nên lần chạy không chứng minh được gì; hãy chạy lại với ít lần chạy cùng lúc hơn (--parallel) hoặc --time-scale thấp hơn",
		"n.tries.permit.one":           "%s xin một permit của %s và bị từ chối (không còn permit nào trống).",
		"n.tries.permit":               "%s xin một permit của %s %d lần từ t=%ss đến t=%ss và lần nào cũng bị từ chối (không còn permit nào trống).",
		"fix.fencing.wl":               "Fencing token, đăng ký token trước (claim): mỗi lần cấp lock kèm một số chỉ tăng; tài nguyên (ở đây là %s) từ chối mọi lần ghi có token nhỏ hơn token đã thấy, và mỗi client giữ lock mới trình token của mình cho tài nguyên ngay khi được cấp, trước mọi việc chậm. Kiểm tra token chỉ từ chối lần ghi cũ hơn một token tài nguyên đã thấy: client giữ lock cũ ghi trước lần ghi đầu tiên của client giữ mới vẫn lọt qua, trừ khi client mới đã đăng ký token trước (bài 46; lock-theory §7.2).",
		"fix.fencing.of":               "%s", // an action's resource (workload.ResourceOf: resource.<name>)
		"act.claim":                    "đăng ký token",
		"act.write":                    "ghi",
		"sum.missed":                   "lần chạy không kiểm tra được điều kịch bản mô tả: %s không hề xảy ra",
		"sum.missed.stands":            "lần chạy không kiểm tra được điều kịch bản mô tả (%s không hề xảy ra), nên một kết luận hợp lệ sẽ không chứng minh được gì, nhưng các vi phạm tìm thấy vẫn đã xảy ra",
		"sum.busy.stands":              "máy quá bận để giữ thời gian nén của lần chạy, nên một kết luận hợp lệ sẽ không chứng minh được gì, nhưng các vi phạm tìm thấy vẫn đã xảy ra",
		"sum.unknown.stands":           "một kết luận hợp lệ sẽ không chứng minh được gì với lần chạy này, nhưng các vi phạm tìm thấy vẫn đã xảy ra",
	},
}

// actionWord is a write's action in lang: its message, or the code itself
// when it has none.
func actionWord(lang Lang, code string) string {
	if _, ok := messages[English]["act."+code]; ok {
		return tr(lang, "act."+code)
	}
	return code
}

func init() { addMessages(lessonMessages, "messages_lessons.go") }

// addMessages merges the tables of file into messages; a key already
// there is a programming error, found at init.
func addMessages(tables map[Lang]map[string]string, file string) {
	for lang, table := range tables {
		if messages[lang] == nil {
			messages[lang] = map[string]string{}
		}
		for k, v := range table {
			if _, dup := messages[lang][k]; dup {
				panic("report: message " + k + " is in messages.go and " + file)
			}
			messages[lang][k] = v
		}
	}
}
