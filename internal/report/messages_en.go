package report

// messagesEN is the English table of messages (messages.go).
var messagesEN = map[string]string{
	// Page chrome.
	"title":            "locksim report: %s",                                                // scenario
	"emulated":         "emulated Redis (miniredis)",                                        //
	"emulated.warning": "Not real Redis: this run used %s. Timing and expiry are emulated.", // "emulated Redis (miniredis)"
	"aborted":          "ABORTED — partial history",
	"aborted.text":     "The run was interrupted before it finished: the story, the plots and the verdict cover only what happened until then.",
	"verdict.valid":    "VALID",
	"verdict.invalid":  "INVALID",
	"verdict.unknown":  "UNKNOWN",
	// A checker that found nothing to check (checker.Result.NotChecked).
	"verdict.notchecked":     "NOT CHECKED",
	"expect.none":            "This scenario declares no expected verdict.",
	"expect.none.history":    "This history was checked without its scenario file, so no expected verdict is known to judge it by.",
	"expect.aborted":         "Expected %s: not judged — the run was interrupted before it finished.",
	"say.aborted":            "The run was interrupted before it finished; the partial history shows no violation so far.",
	"expect.met":             "Expected %s, got %s: expectation met.", // expect, verdict
	"expect.notmet":          "Expected %s, got %s: expectation NOT met.",
	"expect.missing":         "Missing: %s.",                                                                                                        // kinds
	"expect.unjudged":        "Not judged: %s — only the nodes' own record of what they executed shows it, and this run recorded none.",             // kinds
	"expect.undecided":       "Not judged: %s — the linearizability check came out unknown in this run, so the run neither shows nor rules it out.", // kinds
	"expect.unexpected":      "Found but not expected: %s.",                                                                                         // kinds
	"expect.cut":             "Expected %s: not judged — the history is cut off.",                                                                   // expect
	"cut":                    "CUT OFF — the history ends early",
	"cut.text":               "The history file ends before the run did (it was cut off while being written): the story, the plots and the verdict cover only what it holds, and the verdict is at most unknown unless it shows a violation.",
	"say.cut":                "The history is cut off; what it holds shows no violation.",
	"h.story":                "What happened, step by step",
	"h.story.note":           "Times are scenario time (t=0 is the start of the run).",
	"h.anomalies":            "What went wrong",
	"h.fix":                  "What would have prevented it",
	"h.checkers":             "Checkers",
	"h.timeline":             "Timeline",
	"h.timeline.how":         "One row per client (w1, w2, …), one per Redis node and one for the resource. A coloured bar is a lock held, labelled with its token; on a node's row it is the lock key as that node held it (a dashed outline where the node was not observed and the clients' outcomes tell it). Grey arrows are commands to a node and their replies (a refused attempt's command that would cross another row is a short arrow on the node's row instead); a red line ending in a cross is a message that never arrived. Shaded areas are faults; a red band is where a checker found a violation. Hover any mark for the operation in full.",
	"h.latency":              "Acquire latency",
	"h.rate":                 "Acquire rate",
	"charts.noacquires":      "No worker tried to acquire a lock in this run, so there is no acquire latency or rate to draw.",
	"h.history":              "Linearizability (porcupine)",
	"h.scenario":             "Scenario",
	"h.run":                  "Run",
	"no.anomalies":           "No anomalies.",
	"col.kind":               "What",
	"col.clients":            "Clients",
	"col.key":                "Key",
	"col.window":             "Window (scenario s)",
	"col.explain":            "Explanation",
	"col.why":                "Why it matters",
	"col.checker":            "Checker",
	"col.verdict":            "Verdict",
	"col.summary":            "Summary",
	"informational":          "informational (does not fail the run)",
	"checker.words":          "The checker's own words",
	"history.link":           "Open porcupine's check of the lock and resource history, drawn on this page's time axis (history.html)",
	"history.none":           "No history.html: no linearizability information was given for this run.",
	"history.toobig":         "No history.html: the history has %d porcupine operations, more than the limit of %d.",                                                                                            // n, limit
	"history.window":         "The history has %d porcupine operations, more than the limit of %d: history.html shows only the %d operations from t=%ss to t=%ss, the busiest window around the first anomaly.", // n, limit, shown, t0, t1
	"history.faults":         "Faults and violation windows are shaded there as on the timeline above; hovering an operation tells it in full.",
	"history.faults.nochart": "Faults and violation windows are shaded there; hovering an operation tells it in full.", // no timeline drawn on this page (reader 7, F11)
	"alt.timeline":           "Timeline: who held the lock when, faults and writes",
	"charts.skipped":         "Charts not drawn for this run: a suite draws them only for its notable runs — every run that missed its expectation and, without an expectation, every run that is not valid; a sweep of one file (--count) also its first seed (--charts all draws every run). To draw them now: %s", // command
	"alt.latency":            "Acquire latency, each attempt at the scenario time it began",
	"alt.rate":               "Acquires granted, refused and of unknown outcome per second of scenario time, each counted in the time bin its answer came in",
	"run.seed":               "Seed",
	"run.reproduce":          "Reproduce",
	"run.version":            "locksim version",
	"run.redis":              "Redis version",
	"run.backend":            "Backend",
	"run.scale":              "Time scale",
	"run.scale.text":         "1 s of wall time = %s s of scenario time", // scale
	"run.wall":               "Wall time",
	"run.wall.text":          "%.2f s",
	"run.lag":                "Machine load",
	"run.wallrate":           "Host clock",
	"say.unknown.hostclock":  "Inconclusive: the host's wall clock, on which Redis counts every TTL, was set while the run went (it ran at %.2f× the run's own clock), so the nodes' keys did not live as planned and nothing this run found is the scenario's; run it again.",
	"run.wallrate.apart":     "the host's wall clock, on which Redis counts TTLs, ran at %.2f× the run's own clock: it was set (stepped or slewed hard) during the run, and no one rate can allow for that: the run is unknown",
	"run.wallrate.fast":      "the host's wall clock, on which Redis counts every TTL, ran fast, at %.4f× the run's own clock: each TTL here lasted %.2f %% less of the run's clock than its number says (a clock being slewed; locksim's record allows for it)", // rate, percent
	"run.wallrate.slow":      "the host's wall clock, on which Redis counts every TTL, ran slow, at %.4f× the run's own clock: each TTL here lasted %.2f %% more of the run's clock than its number says (a clock being slewed; locksim's record allows for it)", // rate, percent
	"run.lag.text":           "harness timers fired up to %.1f ms late (wall), %.2f s of scenario time; %s",                                                                                                                                                      // wall ms, scenario s, run.lag.rule
	"run.lag.start":          "the harness was up to %.1f ms late (wall), %.2f s of scenario time, counting its timers and the clients' starts; of the clients, %s began its workload latest, %.1f ms (wall) after its planned start at t=%ss; %s",
	"run.lag.rule":           "a lateness of %d ms or more (wall) that is also a tenth of the run's shortest TTL or more, or a tenth of its shortest fault window or more, makes a run prove nothing (unknown): for this run, %.0f ms or more, %s", // floor ms, this run's bound ms, run.lag.by.*
	"run.lag.by.floor":       "the floor itself",
	"run.lag.by.ttl":         "a tenth of its shortest TTL (%s of scenario time)",                              // span
	"run.lag.by.window":      "a tenth of its shortest fault window, step #%d (%s on %s, %s of scenario time)", // id, fault word, targets, span
	"run.scenario.s":         "Scenario time covered",
	"run.file":               "Scenario file",
	"run.algorithm":          "Algorithm",
	"run.workload":           "Workload",
	"unknown.value":          "unknown",

	// What would have prevented it.
	"fix.restore.own":  "Reclaim only what is yours, once it has expired: a restarted worker should leave its old leases to their TTL (the visibility timeout) instead of deleting every job's lock key on start, live workers' included (celery/kombu PR #905, #1098).",
	"fix.safe":         "Safe unlock: give each holder a random owner token and release with an atomic Lua script that deletes the key only if it still holds your token (lesson 45).",
	"fix.fencing":      "Fencing token, claimed first: every grant carries a number that only grows; the resource (the payment gateway, the counter, the stock…) refuses any write with a token lower than one it has already seen, and each new holder presents its token to the resource as soon as it is granted, before anything slow. A token check refuses only a write older than a token the resource has seen: a stale holder that writes before the new holder's first write gets through unless the new holder claimed first (lesson 46; lock-theory §7.2).",
	"fix.record.token": "Check the failure record by the lock's token, as the completion is: the job store must take a failedReason write only while the job's lock key still holds the writer's token, so a superseded run's failure cannot overwrite the record of the run that finished (bull #1416; scenario stalled-job-failed-reason-checked).",
	"fix.idempotency":  "Idempotency key: give the charge a unique key the payment gateway remembers, so a second charge of the same invoice is refused whoever sends it (lesson 48).",
	// No second charge was sent (reader 11, server-clock-step-watchdog).
	"fix.idempotency.overlap":  "Idempotency key: give the charge a unique key the payment gateway remembers (lesson 48). No invoice was charged twice in this run, but two clients believed they held the lock at once: had both charged, the payment gateway would have refused the second charge, whoever sent it.",
	"fix.atomic":               "No lock at all: do the check and the change in one atomic Redis command or Lua script (e.g. check-and-decrement), so there is no window to lose (lesson 42).",
	"fix.enforce":              "The tokens were there but the resource did not check them: the resource must refuse writes with an old fencing token (lesson 46).",
	"fix.wait.lock":            "Wait for a replica before acting: after acquiring, WAIT 1 until a replica has acknowledged the key, so the replica Sentinel promotes more likely has it (replication is asynchronous; WAIT does not make Redis strongly consistent: with two replicas the one that acknowledged can be lost with the master). A fencing counter on the same master would be lost in the same failover; fence only with an issuer that survives it (lessons 46, 47; lock-theory S23).",
	"fix.wait.all":             "Wait for every replica, and know that it is still not enough: %[1]s's acquire waited for %[2]s of %[4]s's %[3]s replicas (WAIT %[2]s), and Sentinel can promote a replica that did not acknowledge. WAIT for all of them (WAIT %[3]s) before acting narrows the window, but WAIT does not make Redis strongly consistent: it counts acknowledgements, it does not choose the replica Sentinel promotes, and a write acknowledged by every replica can still be lost (redis.io, WAIT). For correctness, fence the resource with a token from an issuer that survives a failover (lessons 46, 47; lock-theory S23).", // client, replicas waited for, replicas, master
	"fix.wait.counter":         "The token issuer went backwards in a failover: Sentinel promoted a replica that had not received the counter's last INCR (replication is asynchronous). Have each grant wait until a replica has acknowledged the counter and the key (WAIT 1 before the token is used), so the replica Sentinel promotes more likely has them (not certainly: WAIT does not make Redis strongly consistent); persistence on the old master would not have reached the replica (lesson 46, lock-theory S23).",
	"fix.wait.counter.all":     "The token issuer went backwards in a failover although its grants waited: %[1]s's grant waited for %[2]s of %[4]s's %[3]s replicas (WAIT %[2]s), and Sentinel promoted a replica that had not received the counter's last INCR. WAIT for all of them (WAIT %[3]s) before the token is used narrows the window, but WAIT does not make Redis strongly consistent: it counts acknowledgements, it does not choose the replica Sentinel promotes (redis.io, WAIT). For correctness, take tokens from an issuer that survives a failover (lesson 46, lock-theory S23).", // client, replicas waited for, replicas, master
	"fix.durable.counter":      "The token issuer went backwards: keep the fence counter durable (appendonly yes, appendfsync always) or on a store that survives a restart, so a new grant never repeats an old token (lesson 46, lock-theory S06b).",
	"fix.fencing.counter":      "Fencing token, on a counter that survives the crash: every grant carries a number that only grows, and the resource refuses any write with a token lower than one it has already seen. But a fence counter kept on %s would have gone back in this run's crash (%s), and a token granted again would be accepted: keep the counter with appendfsync always, or on a store that survives the crash, and have each new holder present its token to the resource as soon as it is granted (lessons 46, 47; lock-theory S06b).", // node, how it loses writes
	"fix.counter.none":         "it persists nothing and restarts empty",
	"fix.counter.rdb":          "it restarts from an rdb snapshot, without the writes since",
	"fix.counter.everysec":     "appendfsync everysec can lose the writes of its last second of real time, not of scenario time, in a power loss",
	"fix.redlock":              "Redlock's safety depends on clocks and timing: a clock jump, a pause or a slow network lets two clients get a quorum. Do not rely on it for correctness; add a fencing token checked by the resource, taken from a separate counter that only grows, since Redlock's grants carry none (lesson 47).",
	"fix.fencing.source":       "Redlock's grants carry no such number: take it from a separate counter that only grows and survives the faults, such as a consensus store's revision (etcd) or zxid (ZooKeeper), not from the lock's nodes (Kleppmann 2016).",
	"fix.redlock.claim":        "Redlock's safety depends on clocks and timing: a clock jump, a pause or a slow network lets two clients get a quorum. Do not rely on it for correctness: fence the resource with a token taken from a separate counter that only grows (Redlock's grants carry none), presented by each new holder as soon as it is granted (lessons 46, 47).",
	"fix.redlock.faults":       "Redlock's safety depends on clocks and timing, and here it failed under %s. Do not rely on it for correctness; add a fencing token checked by the resource, taken from a separate counter that only grows, since Redlock's grants carry none (lesson 47).",                                           // the run's faults (fix.cause.*)
	"fix.redlock.claim.faults": "Redlock's safety depends on clocks and timing, and here it failed under %s. Do not rely on it for correctness: fence the resource with a token taken from a separate counter that only grows (Redlock's grants carry none), presented by each new holder as soon as it is granted (lessons 46, 47).", // the run's faults (fix.cause.*)
	"fix.token.grant":          "This lock's grants carry fencing tokens, but a token is taken after the grant, in a step of its own, and this client checks its validity before it takes its token: a holder paused or slowed between its grant and its token gets its token after a newer holder's, and the resource then refuses the newer holder and serves the stale one. A token issued with the grant, in one atomic step, has no such gap: the single-node fenced lock's script sets the key and increments the counter together (lesson 46), and a consensus store issues a revision (etcd) or a zxid (ZooKeeper) with the lock (Kleppmann 2016). A Redlock client that checked its validity after taking its token would refuse a grant whose token came that late, under Redlock's timing assumptions, but no shipped file runs that order (lesson 47).",
	"fix.redlock.restart":      "Redlock as the redis.io page specifies it needs every node to keep its keys across a crash: persist them (appendfsync always), or keep a crashed node down longer than the longest TTL before it rejoins (the delayed restart antirez defended). A node that restarts empty can give a second client a majority while the first still holds the lock (lesson 47). For correctness whatever the operators do, fence the resource as well.",
	"fix.redlock.nocheck":      "This client skipped Redlock's validity check: %[1]s's acquire took %[2]s of its %[3]s TTL, leaving no validity (TTL − elapsed − drift) when it was granted, and it used the lease anyway. The check the redis.io page specifies refuses such a lease (redlock-pause-in-flight; lesson 47). A pause after the check is still every lease's problem: for that, fence the resource with a token or check-and-set (lessons 46, 47).", // client, elapsed, TTL
	"fix.cause.rate.fast":      "%s's clock running fast, at %s× speed",                                                                                                                                                                                                                                                                                                                                                                                           // whose clock, rate
	"fix.cause.rate.slow":      "%s's clock running slow, at %s× speed",                                                                                                                                                                                                                                                                                                                                                                                           // whose clock, rate
	"fix.cause.jump":           "a jump of %s's clock",                                                                                                                                                                                                                                                                                                                                                                                                            // whose clock
	"fix.cause.pause":          "a pause of %s",                                                                                                                                                                                                                                                                                                                                                                                                                   // client
	"fix.cause.kind":           "a %s fault on %s",                                                                                                                                                                                                                                                                                                                                                                                                                // fault kind, targets
	"fix.ttl":                  "Give the lock a TTL, so a crashed holder's lock frees itself (lesson 42).",
	"fix.renewal":              "A renewer kept extending a lock that no one was using: stop the renewer before sending the unlock, whatever the unlock's reply, and bound the renewals by the job (a cap on renewals, or renew only while the job makes progress), so that a hung or finished holder loses the lock one TTL later (BR-21, lock-theory S15b).",
	"fix.orphan":               "A lock whose holder was gone kept the others out until its TTL ran out: size the TTL to the job, not to a generous safety bound, and renew it while the job runs, so that a dead holder blocks at most one short TTL (BR-34).",
	"fix.ttl.atomic":           "Set the key and its TTL in one command, SET key token NX PX ttl: with SETNX then EXPIRE, a crash between the two leaves a key that never expires (lesson 42).",
	"fix.unavailable.queue":    "The lock's key was free, yet no one could take the lock: %[1]s's entry stood at the head of the waiter queue %[2]s, and only the head may take a free lock, so every waiter behind it was refused until that entry's timeout; a waiter that dies keeps its place. This is a liveness problem, not a safety one: give each waiter a short timeout, not a multiple of the lease, and have a waiter that gives up remove its own entry (Redisson's RFairLock, BR-29).", // head's owner, queue key
	"fix.unavailable.local":    "What held it was not a key in Redis: %[1]s's acquires never reached Redis, refused by a lock inside its own process, which has no TTL and which nothing frees. A lock of two levels must release both whatever Redis answers: give the process-local lock back in a finally block, even when the Redis release fails.",                                                                                                                                              // the starved client
	"fix.unavailable.key":      "No client could get the lock for longer than the scenario allows: this is a liveness problem, not a safety one. See what held it: an orphaned key (a holder that crashed or stopped believing) lasts until its TTL.",
	"fix.unavailable.kept":     "No client could get the lock for longer than the scenario allows: this is a liveness problem, not a safety one. See what held it: an orphaned key (a holder that crashed or stopped believing) lasts until its TTL runs out, unless something keeps extending it, as %s's extends did here.", // extender
	"fix.unavailable":          "No client could get the lock for longer than the scenario allows: this is a liveness problem, not a safety one. See what held it: an orphaned key (a holder that crashed or stopped believing) lasts until its TTL; a lost quorum needs more nodes reachable (lesson 47).",
	"fix.fixed":                "The same fault, made harmless: scenario %s.",                                                                                        // scenario
	"fix.fixed.untried":        "The scenario named as its fix, %[2]s: %[1]s. It was not tried with this run's seed, so this report does not show what it prevents.", // scenario, fix.with.*
	"fix.only":                 "Offered for “%s”.",                                                                                                                  // kinds of the findings it was offered for
	"fix.only.sep":             "”, “",
	"fix.fixed.own":            "The scenario named as its fix, with faults of its own, not this run's: %s.",                                                                                                                                                                                                                                                             // scenario
	"fix.fixed.own.as":         "The scenario named as its fix, with %[2]s: %[1]s.",                                                                                                                                                                                                                                                                                      // scenario, its faults (why.fixfaults.*)
	"fix.fixed.named":          "The scenario named as its fix: %s.",                                                                                                                                                                                                                                                                                                     // scenario
	"fix.fixed.partial":        "A partial fix, with the same faults: scenario %s. It did not make the fault harmless: its run with this seed still violates (below).",                                                                                                                                                                                                   // scenario
	"fix.fixed.invalid":        "The scenario named as its fix, with the same faults: %s. It did not make the fault harmless: its run with this seed still violates (below).",                                                                                                                                                                                            // scenario
	"fix.control":              "Not a fix: scenario %s is a harness control, an in-process lock every client shares, which tests the checkers and spans no pods.",                                                                                                                                                                                                       // scenario
	"fix.control.as":           "Not a fix: scenario %[1]s, with %[2]s, is a harness control, an in-process lock every client shares, which tests the checkers and spans no pods.",                                                                                                                                                                                       // scenario, its faults (why.fixfaults.*)
	"fix.control.without":      "Not a fix but a control: scenario %s is this run with some of its faults left out and nothing else changed.",                                                                                                                                                                                                                            // scenario
	"fix.control.without.as":   "Not a fix but a control: scenario %[1]s is the same run without %[2]s, nothing else changed.",                                                                                                                                                                                                                                           // scenario, the steps it leaves out
	"fix.contrast.clock":       "Not a fix but a contrast, the clock assumption holding: scenario %s.",                                                                                                                                                                                                                                                                   // scenario
	"fix.contrast.clock.as":    "Not a fix but a contrast, the clock assumption holding (%[2]s): scenario %[1]s.",                                                                                                                                                                                                                                                        // scenario, its faults (why.fixfaults.*)
	"fix.contrast.restart":     "Not a fix but a contrast, an operational answer (a crashed node kept down longer than the TTL), not a change to the lock: scenario %s.",                                                                                                                                                                                                 // scenario
	"fix.contrast.restart.as":  "Not a fix but a contrast, an operational answer (a crashed node kept down longer than the TTL; %[2]s), not a change to the lock: scenario %[1]s.",                                                                                                                                                                                       // scenario, its faults (why.fixfaults.*)
	"fix.fixed.run":            "Run it with",                                                                                                                                                                                                                                                                                                                            //
	"fix.fixed.report":         "open its report",                                                                                                                                                                                                                                                                                                                        //
	"fix.saved.fencing":        "Nothing to fix: the fencing token already did its job. The lock still broke (see the informational overlap), but the resource refused the stale holder.",                                                                                                                                                                                //
	"fix.saved.fencing.home":   "Its counter, %[1]s, is on %[2]s though, a node that also holds the lock's keys, with no persistence: a restart of %[2]s would start it again from 0 and reissue old tokens (see fencing-counter-lost). For a design to copy, take tokens from a separate counter that survives the faults, not from the lock's nodes (Kleppmann 2016).", // counter key, node
	"fix.saved.no-write":       "Nothing to fix in this run: the lock broke (see the informational overlap), but the stale holder had no write accepted or refused while both held, so the fencing token was never tested; this run does not show it refusing a stale write.",
	"fix.saved.fencing.order":  "Nothing to fix: the fencing token kept the resource in token order. The lock still broke (see the informational overlap), and the resource accepted the stale holder's write, but before the newer holder first used it; the newer holder then saw that write and did not repeat it (lock-theory §7.2, S03).",
	"fix.cas.claim":            "The resource's check-and-set refuses a stale write only once the newer holder has stored its token as currlock, and a fencing token would do no better: a holder can be paused between its grant and its claim, and a stale write that lands in that gap is accepted. Have each holder read the state after its claim and decide from that read (the newer holder then sees the stale write), and key an external effect by an idempotency key (lock-theory §7.2, §7.3).",
	"fix.cas.stale-claim":      "The stale holder claimed after the newer holder had used the resource: check-and-set keeps as currlock whichever token claimed last, so that late claim put the stale holder's token back, and the resource then accepted its writes. A fencing token issued in the same step as the grant would have refused the late claim, its token being lower than the newer holder's (lesson 46's single-node script, an etcd revision, a ZooKeeper zxid); a token taken after the grant, in a step of its own, has the same gap (redlock-gc-pause-fenced-token-late; lock-theory §7.2, §7.3).",
	"fix.saved.cas.order":      "Nothing to fix: the resource's check-and-set kept it in claim order. The lock still broke (see the informational overlap), and the resource accepted the stale holder's write, but while its currlock still held the stale holder's token, before the newer holder first used it; the newer holder then saw that write and did not repeat it (antirez 2016, lock-theory §7.3). A fencing token does no better here: it too accepts a write that lands before the newer holder's first use.",
	"fix.saved.cas":            "Nothing to fix: the resource's check-and-set did its job. The lock still broke (see the informational overlap), but the newer holder had stored its token as currlock, so the resource refused the stale holder's write (antirez 2016, lock-theory §7.3).",

	// Verdict sentences.
	"say.double.thawed":         "The invoice (%s) was charged twice: %s kept acting on a lock whose TTL had run out %.1f s earlier (%s, frozen then, dropped its key only when it woke, %.1f s earlier).",                                                                                                                 // key, client, seconds, node, seconds
	"say.double.late":           "The invoice (%s) was charged twice: %s kept acting on a lock that had expired %.1f s earlier.",                                                                                                                                                                                           // Key, client, seconds
	"say.double.crash":          "The invoice (%s) was charged twice: %s kept acting on a lock its node had lost in a crash %.1f s earlier.",                                                                                                                                                                               // Key, client, seconds
	"say.double.clock":          "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock jumped and it no longer had a majority of nodes.",                                                                                                                               // key, client, seconds, nodes
	"say.double.clock.rate":     "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock, running fast, expired its key early and it no longer had a majority of nodes.",                                                                                                 // key, client, seconds, nodes
	"say.double.restored":       "The invoice (%s) was charged twice: %s kept acting on a lock whose key %s, restarted, had deleted on start %.1f s earlier.",                                                                                                                                                              // key, client, restorer, seconds
	"say.double.removed":        "The invoice (%s) was charged twice: %s kept acting on a lock whose key %s had deleted %.1f s earlier.",                                                                                                                                                                                   // key, client, deleter, seconds
	"say.double.deleted":        "The invoice (%s) was charged twice: %s kept acting on a lock whose key a janitor had deleted %.1f s earlier.",                                                                                                                                                                            // key, client, seconds
	"say.double.failover":       "The invoice (%s) was charged twice: %s kept acting on a lock lost %.1f s earlier, when %s failed over to a replica that did not have its key.",                                                                                                                                           // key, client, seconds, group
	"say.double.failover.copy":  "The invoice (%[1]s) was charged twice: %[2]s kept acting on a lock lost %.1[3]f s earlier, when %[7]s, the replica that had acknowledged its key, crashed, after %[4]s, the master holding it, %[5]s; the replica promoted in its place (%[6]s) had not received all %[4]s had written.", // key, client, seconds, group, fate, promoted, replica
	"say.double.failover.fate":  "The invoice (%[1]s) was charged twice: %[2]s kept acting on a lock lost %.1[3]f s earlier, when %[4]s, the master holding it, %[5]s; the replica promoted in its place (%[6]s) had not received all %[4]s had written.",
	"say.double.sharer":         "The invoice (%s) was charged twice: %s's acquire had re-entered %s's key under their shared owner token, and both held the lock at once.", // key, client, sharer
	"say.double":                "The invoice (%s) was charged twice, by %s.",                                                                                               // Key, clients
	"say.stale":                 "The resource accepted a stale write: %s",                                                                                                  // explain
	"say.other":                 "%s: %s",                                                                                                                                   // kind, explain
	"say.fenced":                "The fencing token saved the day: %s's late %s (token %d) was refused because the resource had already seen token %d.",                     // client, action, token, seen
	"say.cron.fires":            "No checker found a problem: each fire time ran once, when a scheduler's own clock reached it: %s.",                                        // runs
	"a.fire":                    "%s by %s at t=%ss (the schedule's t=%ss)",                                                                                                 // job key, client, t, due
	"say.cron.fires.each":       "No checker found a problem, and no fire time ran twice: %s.",                                                                              // what became of each fire time, joined by "; "
	"a.fire.cut":                "%[1]s by %[2]s from t=%[3]ss (the schedule's t=%[5]ss), cut short by %[2]s's crash at t=%[4]ss (outcome unknown)",                         // job key, client, t, crash t, due
	"a.fire.unknown":            "%[1]s by %[2]s from t=%[3]ss (the schedule's t=%[4]ss; outcome unknown)",                                                                  // job key, client, t, due
	"a.fire.none":               "%s did not run",                                                                                                                           // job key
	"a.fire.none.refused":       "%s did not run (%s)",                                                                                                                      // job key, the refusals (a.fire.refused*)
	"a.fire.refused.by":         "%[1]s was refused at t=%[2]ss by %[3]s's key",                                                                                             // client, t, owner of the key
	"a.fire.refused":            "%[1]s was refused at t=%[2]ss",                                                                                                            // client, t
	"say.valid":                 "No checker found a problem: the lock kept its promise in this run.",
	"say.valid.untested":        "No write was refused for its fencing token, so the fencing token was never tested in this run.",
	"say.valid.untested.lost":   "%[1]s was told at t=%[2]ss that it had lost the lock, and no write was refused for its fencing token, so the fencing token was never tested in this run.",                                                                                                 // client, t
	"say.valid.info":            "No checker found a violation: the lock kept its promise in this run; informational findings: %s (see below).",                                                                                                                                             // kinds' words
	"say.valid.claim-order":     "No harm done, though the lock was broken: %[1]s and %[2]s both believed they held %[3]s, but the resource accepted %[1]s's writes while its currlock still held %[1]s's token, before %[2]s first used it, so it saw them one at a time, in claim order.", // stale, current, key
	"say.valid.fenced-order":    "No harm done, though the lock was broken: %[1]s and %[2]s both believed they held %[3]s, but the resource accepted %[1]s's writes before %[2]s first used it, so it saw them one at a time, in token order.",                                              // stale, current, key
	"say.valid.no-write":        "No harm done, though the lock was broken: %[1]s and %[2]s both believed they held %[3]s, but the resource accepted no write of %[1]s while both did and refused none, so the fencing token was never tested.",                                             // stale, current, key
	"say.unknown":               "Inconclusive: %s",
	"say.unknown.plain":         "Inconclusive: a checker could not decide.",
	"say.unknown.missed":        "Inconclusive: the run did not test what the scenario describes, because %s never took effect.", // step list
	"step.missed":               "step #%d (%s on %s, %s)",                                                                       // id, fault word, targets, when
	"when.at":                   "at t=%ss",                                                                                      // t
	"when.start":                "before the clients start",                                                                      //
	"when.event":                "%s after %s first acquired the lock",                                                           // delay, client
	"when.granted":              "%s after %s was first granted the lock by %s",                                                  // delay, client, node
	"when.point":                "the first time %s is %s",                                                                       // client, point words
	"when.point.nth":            "the %s time %s is %s",                                                                          // ordinal, client, point words
	"and":                       "%s and %s",
	"say.double.reset":          "The invoice (%s) was charged twice: %s's lock expired at t=%ss and its extend set the key again at t=%ss as if it had held it throughout; it charged %.1f s after its lock had expired.", // key, client, t expired, t reset, seconds
	"say.double.clock.one":      "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock jumped forward and its key expired early.",                                      // key, client, seconds, node
	"say.double.clock.rate.one": "The invoice (%s) was charged twice: %s kept acting on a lock it had lost %.1f s earlier, when %s's clock, running fast, expired its key early.",                                          // key, client, seconds, nodes

	// Narrative. Times are scenario seconds, formatted by the caller.
	"n.acquire":                        "%s acquired the lock on %s (%s, TTL %s).",                                                                                                                                                                                                      // client, key, token text, ttl
	"n.acquire.permit":                 "%s acquired a permit of %s (%s, TTL %s).",                                                                                                                                                                                                      // client, key, token text, ttl
	"a.mutex-overlap.permits":          "%s all believed they held a permit of %s from t=%ss to t=%ss: more holders than its %d permits.",                                                                                                                                               // clients, key, t0, t1, permits
	"n.release.permit":                 "%s released its permit of %s.",                                                                                                                                                                                                                 // client, key
	"a.stale-write-accepted":           "The resource accepted %[1]s's write on %[3]s at t=%[4]ss although %[2]s had already written to it under a newer lease.",                                                                                                                        // stale, current, key, t
	"n.acquire.nodes.gone":             "%[1]s's acquire of %[2]s, begun at t=%[3]ss, returned only now, as granted by %[4]s (%[5]d/%[6]d, quorum %[7]d) (%[8]s, TTL %[9]s); the lock it reports had lost its quorum at t=%[10]ss, so %[1]s believes it holds a lock it no longer has.", // client, key, began, nodes, n, total, quorum, token, ttl, lost
	"n.acquire.nodes":                  "%s acquired the lock on %s on %s (%d/%d, quorum %d) (%s, TTL %s).",                                                                                                                                                                             // client, key, nodes, n, total, quorum, token text, ttl
	"n.probe":                          "Final probe: %s acquired the lock on %s (%s).",                                                                                                                                                                                                 // client, key, token text
	"n.probe.ended":                    "Final probe ended: %s had acquired the lock on %s (%s).",                                                                                                                                                                                       // client, key, token text: told when the probe returned (its grant's own instant not told)
	"n.probe.ownkey":                   "Its key in Redis was %s, one no other client locked: it shows that key was free, not the others'.",                                                                                                                                             // the probe's lock key
	"n.probe.nolock":                   "Final probe: %s was let in to %s by the no-lock control, which takes nothing (%s).",                                                                                                                                                            // client, key, token text
	"n.probe.permit":                   "Final probe: %s acquired a permit of %s (%s).",                                                                                                                                                                                                 // client, key, token text
	"n.token.fence":                    "token %d",
	"n.token.owner":                    "owner token %s",
	"n.tries.one":                      "%s tried to acquire %s and was refused.",                                                                                                                                            // client, key
	"n.tries":                          "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time.",                                                                                                // client, key, n, t0, t1
	"n.tries.by.one":                   "%[1]s tried to acquire %[2]s and was refused: %[3]s's key stood on %[4]s.",                                                                                                          // client, key, owner, node
	"n.tries.by":                       "%[1]s tried to acquire %[2]s %[3]d times between t=%[4]ss and t=%[5]ss and was refused every time: %[6]s's key stood on %[7]s.",                                                     // client, key, n, t0, t1, owner, node
	"n.tries.by.as.one":                "%[1]s tried to acquire %[2]s and was refused: %[3]s's key %[5]s stood on %[4]s.",                                                                                                    // client, key, owner, nodes, the lock's name for the key
	"n.tries.by.as":                    "%[1]s tried to acquire %[2]s %[3]d times between t=%[4]ss and t=%[5]ss and was refused every time: %[6]s's key %[8]s stood on %[7]s.",                                               // client, key, n, t0, t1, owner, nodes, the lock's name for the key
	"n.tries.by.won":                   "; its own SET took only %s (%d of %d)",                                                                                                                                              // nodes, how many, of how many (after n.tries.by's nodes)
	"n.tries.by.more":                  ", %s's on %s",                                                                                                                                                                       // another owner, its nodes (after n.tries.by's nodes)
	"n.tries.by.silent":                "; %s did not answer %s's SET",                                                                                                                                                       // the nodes that gave no answer, the client refused (after n.tries.by's nodes)
	"n.tries.by.inflight.one":          "%[1]s tried to acquire %[2]s and was refused: %[3]s's key stood on %[4]s, though %[3]s's acquire had not returned yet.",                                                             // client, key, owner, node
	"n.tries.by.inflight":              "%[1]s tried to acquire %[2]s %[3]d times between t=%[4]ss and t=%[5]ss and was refused every time: %[6]s's key stood on %[7]s, though %[6]s's acquire had not returned yet.",        // client, key, n, t0, t1, owner, node
	"n.inflight":                       "%[1]s's acquire of %[2]s, begun at t=%[3]ss, had set its key on %[4]s by then: %[5]s's acquire was refused by it. %[1]s's acquire returned only at t=%[6]ss, %[7]s after it began.", // client, key, t began, server, refused client, t returned, how long
	"n.inflight.wait":                  "The lock counts a grant only once a replica has acknowledged the key (WAIT), and the acquire waited for that.",
	"n.tries.own.one":                  "%s tried to acquire %s and was refused by its own key: an earlier acquire of it had set the key, though it never got the reply.",                                                                      // client, key
	"n.tries.own":                      "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time by its own key: an earlier acquire of it had set the key, though it never got the reply.",                          // client, key, n, t0, t1
	"n.tries.local.one":                "%s tried to acquire %s and was refused without reaching Redis: the lock was held inside its own process.",                                                                                             // client, key
	"n.tries.local":                    "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time without reaching Redis: the lock was held inside its own process.",                                                 // client, key, n, t0, t1
	"n.tries.free.one":                 "%s tried to acquire %s and was refused, though no node held the lock's key then.",                                                                                                                     // client, key
	"n.tries.free":                     "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time, though no node held the lock's key then.",                                                                         // client, key, n, t0, t1
	"n.tries.queue.one":                "%[1]s tried to acquire %[2]s and was refused: the lock's key was free, but %[3]s's entry headed the waiter queue %[4]s.",                                                                              // client, key, head's owner, queue key
	"n.tries.queue":                    "%[1]s tried to acquire %[2]s %[3]d times between t=%[4]ss and t=%[5]ss and was refused every time: the lock's key was free, but %[6]s's entry headed the waiter queue %[7]s.",                         // client, key, n, t0, t1, head's owner, queue key
	"n.tries.restarted.one":            "%[1]s tried to acquire %[2]s and was refused by the lease of its previous process, which its restart had killed: that key still stood on %[4]s.",                                                      // client, key, owner, node
	"n.tries.restarted":                "%[1]s tried to acquire %[2]s %[3]d times between t=%[4]ss and t=%[5]ss and was refused every time by the lease of its previous process, which its restart had killed: that key still stood on %[7]s.", // client, key, n, t0, t1, owner, node
	"n.acquire.ungranted":              "%[1]s's acquire of %[2]s took no lock: only %[3]s granted it (%[4]d of %[5]d, short of the quorum of %[6]d)%[7]s. %[1]s itself, not knowing this, recorded the outcome as unknown.",                   // client, key, nodes that granted it, how many, of how many, quorum, n.ungranted.* parts
	"n.ungranted.held":                 "; %[1]s held %[2]s's key",                                                                                                                                                                             // nodes, owner
	"n.ungranted.silent":               "; %s never ran its SET (no answer)",                                                                                                                                                                   // nodes
	"n.ungranted.down.one":             "; %s was down",                                                                                                                                                                                        // node
	"n.ungranted.down":                 "; %s were down",                                                                                                                                                                                       // nodes
	"n.ungranted.back":                 "; %[1]s was down, restarting from t=%[2]ss, and never took %[3]s's key",                                                                                                                               // node, its restart
	"n.ungranted.removed.one":          "; %[1]s removed its key from %[2]s",                                                                                                                                                                   // client, node
	"n.ungranted.removed":              "; %[1]s removed its keys from %[2]s",                                                                                                                                                                  // client, nodes
	"n.acquire.info.refused":           "%s's acquire of %s could not connect (connection refused): recorded as unknown.",
	"n.acquire.info.reset":             "%s's acquire of %s lost its connection before the reply: outcome unknown.",
	"n.acquire.info.error":             "%s's acquire of %s ended in an error, with no definite answer: outcome unknown.",
	"n.acquire.info":                   "%s's acquire of %s got no answer: outcome unknown.",
	"n.read":                           "%s read %s: %s.",          // client, key, result
	"n.write.ok":                       "%s: %s of %s accepted%s.", // client, action, key, token suffix
	"n.write.claim":                    "%s registered its token at the resource for %s%s: accepted.",
	"n.write.refused":                  "%s's %s of %s%s was REFUSED by the resource: %s.", // client, action, key, token suffix, reason
	"n.write.refused.by":               "%s's %s of %s%s was REFUSED by the %s: %s.",       // client, action, key, token suffix, the action's own resource (workload.ResourceOf), reason
	"n.write.info.refused":             "%s's %s of %s%s could not connect (connection refused): recorded as unknown.",
	"n.write.info.reset":               "%s's %s of %s%s lost its connection before the reply: it may or may not have happened.",
	"n.write.info.error":               "%s's %s of %s%s ended in an error, with no definite answer: it may or may not have happened.",
	"n.write.info.crash":               "%[1]s's %[2]s of %[3]s%[4]s was cut short by %[1]s's crash at t=%[5]ss, %[6]s after it began at t=%[7]ss: it may or may not have happened.", // client, action, key, token suffix, the crash, how long it had run, its start
	"n.fire.skip.by":                   "%[1]s skipped %[2]s: its acquire of %[3]s was refused, as %[4]s's key stood on %[5]s.",                                                      // client, job key, lock key, owner, nodes
	"n.fire.skip.by.as":                "%[1]s skipped %[2]s: its acquire of %[3]s was refused, as %[4]s's key %[6]s stood on %[5]s.",                                                // client, job key, lock key, owner, nodes, the lock's name for the key
	"n.fire.never":                     " %s never ran.",                                                                                                                             // job key (after n.fire.skip*)
	"n.write.info":                     "%s's %s of %s%s got no answer: it may or may not have happened.",
	"n.with.token":                     " with token %d",
	"n.with.epoch":                     " with epoch %d", // the leader workload's own number, where the lock issues no token
	"n.with.word":                      "with",
	"n.release.ok":                     "%s released %s (key deleted).",
	"n.release.at.node":                "(The time is %s's record of the command that removed the key.)",                                                                                               // node
	"n.release.kept":                   "%s released %s without deleting its key: the release set the key to expire %s later, at t=%ss.",                                                               // client, key, ttl, t
	"n.release.rewrote":                "%s released %s without deleting its key: the release wrote the key again (a new value) to expire %s later, at t=%ss.",                                         // client, key, ttl, t
	"n.release.kept.unknown":           "%s's release of %s got no definite answer, but the node ran it, without deleting the key: it set the key to expire %s later, at t=%ss.",                       // client, key, ttl, t
	"n.release.rewrote.unknown":        "%s's release of %s got no definite answer, but the node ran it, without deleting the key: it wrote the key again (a new value) to expire %s later, at t=%ss.", // client, key, ttl, t
	"n.release.kept.at.node":           "(The time is %s's record of the release's command.)",                                                                                                          // node
	"n.release.gone.at":                "%[1]s tried to release %[2]s; at t=%[4]ss %[5]s found its key gone (%[3]s) — nothing of its own to remove.",                                                   // client, key, cause, when the node ran it, node
	"n.release.gone":                   "%s tried to release %s but its key was gone (%s) — nothing of its own to remove.",                                                                             // client, key, cause
	"n.release.permit.gone":            "%s tried to release its permit of %s, but it had been purged as timed out at t=%ss — nothing of its own to remove.",                                           // client, key, t
	"n.gone.thawed":                    "its TTL had run out at t=%[1]ss, while %[2]s was frozen; %[2]s dropped it when it woke at t=%[3]ss",
	"n.gone.expired":                   "it had expired at t=%ss",                                                                                                       // t
	"n.gone.clock":                     "it had expired early at t=%ss, when a node's clock jumped",                                                                     // t
	"n.gone.clock.rate":                "it had expired early at t=%ss, when a node's clock ran fast",                                                                   // t
	"n.gone.restored":                  "%[2]s, restarted, had deleted it on start at t=%[1]ss",                                                                         // t, client
	"n.gone.removed":                   "%[2]s had deleted it at t=%[1]ss",                                                                                              // t, client
	"n.gone.sharer":                    "%[2]s, presenting the same owner token, had released it at t=%[1]ss",                                                           // t, client
	"n.gone.deleted":                   "a janitor had deleted it at t=%ss",                                                                                             // t
	"n.gone.taken.released":            "; %s had already taken and released the lock",                                                                                  // client
	"n.gone.taken.holds":               "; %s holds the lock now",                                                                                                       // client
	"n.release.mutex":                  "%s released %s: the in-process mutex is free again (no key in Redis was involved).",                                            // client, key
	"n.release.nolock":                 "%s's release of %s freed nothing: the no-lock control had taken nothing.",                                                      // client, key
	"n.acquire.mutex":                  "%s acquired the in-process mutex on %s (%s). It has no TTL and no key in Redis: it stays held until its holder releases it.",   // client, key, token text
	"n.acquire.nolock":                 "%s was let in to %s by the no-lock control, which grants every acquire and takes nothing (%s).",                                // client, key, token text
	"n.tries.mutex.one":                "%s tried to acquire %s and was refused: another client held the in-process mutex.",                                             // client, key
	"n.tries.mutex":                    "%s tried to acquire %s %d times between t=%ss and t=%ss and was refused every time: another client held the in-process mutex.", // client, key, n, t0, t1
	"n.release.none.other":             "%s tried to release %s, but the key now belonged to %s: nothing of its own to delete.",
	"n.release.none":                   "%s tried to release %s: nothing of its own to delete.",
	"n.release.info.refused":           "%s's release of %s could not connect (connection refused): recorded as unknown.",
	"n.release.info.reset":             "%s's release of %s lost its connection before the reply: outcome unknown.",
	"n.release.info.error":             "%s's release of %s ended in an error, with no definite answer: outcome unknown.",
	"n.release.info":                   "%s's release of %s got no answer: outcome unknown.",
	"n.release.notrun.expired":         "%[1]s's release of %[2]s never reached Redis (no node ran a command of %[1]s then), and %[1]s got no answer; its key had already expired at t=%[3]ss.",    // client, key, t, node
	"n.release.notrun.gone":            "%[1]s's release of %[2]s never reached Redis (no node ran a command of %[1]s then), and %[1]s got no answer; its key had already left %[4]s at t=%[3]ss.", // client, key, t, node
	"n.release.notrun":                 "%[1]s's release of %[2]s never reached Redis (no node ran a command of %[1]s then): its key stayed, though %[1]s, with no answer, could not know it.",     // client, key
	"n.extend.ok":                      "%s extended its lock on %s.",
	"n.extend.also":                    "Its commands also extended %[2]s's key %[1]s on %[4]s, which %[3]s did not hold.", // key, owner, client, node
	"n.renew.ok":                       "%s's watchdog renewed its lock on %s.",
	"n.renew.fail":                     "%s's watchdog could not renew its lock on %s.",
	"n.renew.foreign":                  "%[1]s's watchdog renewed the lock key of %[2]s, but it was %[3]s's key: its extend checks no owner token, so it kept %[3]s's lease alive, not its own.", // client, key, owner
	"n.extend.foreign":                 "%[1]s extended the lock key of %[2]s, but it was %[3]s's key: its extend checks no owner token, so it kept %[3]s's lease alive, not its own.",           // client, key, owner
	"n.extend.missed":                  "%s's extend of its lock on %s was answered as done, but when its command ran the node had no key for it to extend.",                                     // client, key
	"n.renew.missed":                   "%s's watchdog was told it renewed its lock on %s, but when its command ran the node had no key for it to renew.",                                        // client, key
	"n.began":                          "It had begun at t=%ss.",
	"n.extend.fail":                    "%s could not extend its lock on %s.",
	"n.lost":                           "%s concluded its lock on %s was lost and stopped.",
	"n.pause":                          "%s was paused (frozen) for %s%s.",                                                                   // client(s), duration, point suffix: no cause named
	"n.pause.gc":                       "%s was frozen by a stop-the-world GC pause of %s%s.",                                                // client(s), duration, point suffix
	"n.pause.event-loop":               "%s was frozen by a blocked event loop for %s%s: none of its timers ran, its lease renewal neither.", // client(s), duration, point suffix
	"n.pause.sleep":                    "%s was frozen by a host sleep of %s%s.",                                                             // client(s), duration, point suffix
	"n.pause.stop":                     "%s was stopped by SIGSTOP for %s%s.",                                                                // client(s), duration, point suffix
	"n.pause.point":                    ", %s",                                                                                               // point words
	"point.before-write":               "just before its write",
	"point.after-acquire":              "right after acquiring the lock",
	"point.before-release":             "just before releasing the lock",
	"point.in-acquire":                 "in the middle of its acquire",
	"point.in-acquire.none":            "in the middle of its acquire, its SETs sent: by then no node had run one",                 // the account's Fault claim: the nodes that had run the acquire's SET by the freeze
	"point.in-acquire.some":            "in the middle of its acquire, its SETs sent: by then only %s of the %d nodes had run one", // nodes, total
	"point.in-acquire.all":             "in the middle of its acquire, its SETs sent: by then all %d nodes had run one",            // total
	"point.in-renew":                   "just before a renewal",
	"point.before-token":               "after its grant, before it took its fencing token",
	"n.resume":                         "%s woke up after being frozen for %s%s.",                                                                                                                   // client, duration, belief suffix
	"n.resume.belief":                  " and still believes it holds the lock on %s (%s)",                                                                                                          // key, token text
	"n.resume.belief.permit":           " and still believes it holds a permit of %s (%s)",                                                                                                          // key, token text
	"n.fault":                          "Fault: %s on %s for %s%s.",                                                                                                                                 // fault word, targets, duration, detail
	"n.fault.end":                      "Fault healed: %s on %s.",                                                                                                                                   // fault word, targets
	"n.partition":                      "Network partition: %s, for %s.",                                                                                                                            // cut sentences, duration
	"n.cut.one":                        "%s cannot reach %s",                                                                                                                                        // from, to
	"n.cut.one.replies":                "replies from %[2]s to %[1]s are lost (%[1]s's commands still reach %[2]s)",                                                                                 // client, nodes
	"n.cut.one.requests":               "%[1]s's commands to %[2]s are lost",                                                                                                                        // client, nodes
	"n.cut.heal.replies":               "replies from %[2]s reach %[1]s again",                                                                                                                      // client, nodes
	"n.cut.heal.requests":              "%[1]s's commands reach %[2]s again",                                                                                                                        // client, nodes
	"n.cut.heal":                       "%s can reach %s again",                                                                                                                                     // from, to
	"n.cut.heal.down":                  "the cut between %s and %s was lifted, but %s was still down",                                                                                               // from, to, nodes down
	"n.replag.stop":                    "Replication stopped: %s, for %s.",                                                                                                                          // stop sentences, duration
	"n.replag.stop.one":                "%[1]s receives nothing of %[2]s's replication stream",                                                                                                      // replica, master
	"n.replag.stop.end":                "Replication stream no longer held back: %s.",                                                                                                               // heal sentences
	"n.replag.heal":                    "%[1]s can receive %[2]s's stream again",                                                                                                                    // replica, master
	"n.replag.heal.down":               "the stop on %[1]s's replication link was lifted, but %[2]s was still down",                                                                                 // replica, master
	"n.replag.delay":                   "Replication lag: %s, for %s (%v ± %v).",                                                                                                                    // delay sentences, duration, latency, jitter
	"n.replag.delay.one":               "%[2]s's replication stream reaches %[1]s late",                                                                                                             // replica, master
	"n.partition.end":                  "Network partition healed: %s.",                                                                                                                             // heal sentences
	"n.clock.jump":                     "%s's clock jumped %s: keys on it expire that much sooner (locksim moves each key's expiry on it, as a jump of the clock Redis expires keys by would).",     // nodes, signed jump
	"n.clock.jump.back":                "%s's clock jumped back %s: keys on it expire that much later (locksim moves each key's expiry on it, as a jump of the clock Redis expires keys by would).", // nodes, jump
	"n.clock.jump.client":              "%s's own clock jumped %s; no Redis key changes, only what %[1]s computes from its clock.",                                                                  // clients, signed jump
	"n.clock.rate":                     "%s's clock runs at %[3]s× speed for %[2]s: keys on it expire that much sooner.",                                                                            // nodes, duration, rate
	"n.clock.rate.slow":                "%s's clock runs at %[3]s× speed for %[2]s: keys on it expire that much later.",                                                                             // nodes, duration, rate (< 1)
	"n.clock.rate.client":              "%s's own clock runs fast, at %[3]s× speed, for %[2]s; no Redis key changes.",                                                                               // clients, duration, rate (> 1)
	"n.clock.rate.client.slow":         "%s's own clock runs slow, at %[3]s× speed, for %[2]s; no Redis key changes.",                                                                               // clients, duration, rate (< 1)
	"n.starve":                         "%s's lease renewer was starved for %s while its job ran on.",                                                                                               // client, duration
	"n.key.nottl":                      "%[1]s stored %[2]s for %[3]s with no TTL: until someone deletes it, nothing will ever expire it.",                                                          // node, key, client
	"n.crash.client":                   "%s crashed: it stops for good and never releases its lock.",
	"n.crash.client.waiting":           "%s crashed while waiting for the lock, holding none (its last acquire had been refused): it stops for good.",                         // client
	"n.crash.client.keyset":            "%[1]s crashed after its key %[2]s was set on %[3]s, though no ok reply had told it so: it stops for good and never removes the key.", // client, key, node
	"n.crash.client.nolock":            "%s crashed, holding no lock then: it stops for good.",                                                                                // client                                                                                                // client
	"n.delete.key":                     "A janitor deleted the lock key %s on %s (by key, not by owner; the holder is not told).",                                             // key, nodes
	"n.crash":                          "%s crashed and lost its keys; down for %s.",                                                                                          // nodes, duration
	"n.crash.end":                      "%s restarted.",
	"n.crash.end.unreached":            "%s restarted, but clients could not reach it until t=%ss: %s's requests in between failed.", // nodes, t it ran a command again, clients                                                                                                                       // nodes
	"n.crash.kept":                     "%s crashed and came back with its keys from %[3]s; down for %[2]s.",
	"n.crash.some":                     "%s crashed; down for %s. It came back from %s with %s but without %s.", // nodes, duration, source, kept keys, lost keys
	"n.crash.from.aof":                 "its append-only file",
	"n.crash.from.rdb":                 "its last RDB snapshot",                                          // nodes, duration
	"n.pause.node":                     "Redis on %s was frozen for %s.",                                 // nodes, duration
	"n.latency":                        "Network latency: replies to %s delayed for %s (%v ± %v).",       // slow sentences, duration, latency, jitter
	"n.slow.one":                       "%s from %s",                                                     // client, nodes
	"n.reset":                          "Connections reset (TCP RST): %s.",                               // cut sentences
	"n.expired.paused":                 "%s's lock on %s expired in Redis (TTL %s) while %s was paused.", // client, key, ttl, client
	"n.expired.belief":                 "%s's lock on %s expired in Redis (TTL %s) while %s still believed it held it.",
	"n.expired":                        "%s's lock on %s expired in Redis (TTL %s).",
	"n.expired.thawed":                 "%[3]s woke and dropped %[1]s's key %[2]s: its TTL (%[4]s) had run out at t=%[5]ss, while %[3]s was frozen (SIGSTOP) and could expire nothing.",                                                                                  // client, key, node, ttl, t
	"n.expired.thawed.paused":          "%s was paused then too.",                                                                                                                                                                                                        // client
	"n.expired.kept":                   "%s's lock on %s expired in Redis at the end its release set at t=%ss (%s after it).",                                                                                                                                            // client, key, t, ttl
	"n.expired.nodes":                  "%s's key %s expired on %s (TTL %s).",                                                                                                                                                                                            // client, key, nodes, ttl
	"n.expired.clock.rate":             "%s's key %s expired early on %s: its clock ran fast.",                                                                                                                                                                           // client, key, nodes
	"n.expired.clock.slow":             "%s's key %s expired on %s: its clock ran slow.",                                                                                                                                                                                 // client, key, nodes
	"n.expired.clock":                  "%s's key %s expired early on %s: its clock had jumped.",                                                                                                                                                                         // client, key, nodes
	"n.expired.crash":                  "%s's key %s was lost on %s: the node crashed.",                                                                                                                                                                                  // client, key, nodes
	"n.lost.failover":                  "%[1]s's key %[2]s was lost in the failover of %[3]s: the promoted replica had not received all its master had written.",                                                                                                         // client, key, group
	"n.lost.failover.copy":             "%[1]s's key %[2]s was lost when %[6]s, the replica that had acknowledged it, crashed, after %[3]s, the master holding it, %[4]s at t=%[7]ss: the replica promoted in its place (%[5]s) had not received all %[3]s had written.", // client, key, group, fate, promoted, replica, when the master failed
	"n.lost.failover.fate":             "%[1]s's key %[2]s was lost when %[3]s, the master holding it, %[4]s: the replica promoted in its place (%[5]s) had not received all %[3]s had written.",
	"failover.fate.crash":              "crashed",
	"failover.fate.stop":               "was stopped",
	"failover.fate.sentinel":           "was failed over by a SENTINEL FAILOVER command",
	"failover.promoted":                "%[1]s, announced at t=%[2]ss",
	"failover.promoted.role":           "%[1]s, a master by t=%[2]ss",
	"n.quorum.none":                    "No node still holds it (of %d; the quorum is %d): %s no longer really holds the lock, but does not know it.",                                                                            // total, quorum, client
	"n.quorum.down":                    "Only %d of %d nodes still hold it, fewer than the quorum of %d, but %s stayed down until t=%ss, so no other client could reach a quorum meanwhile: %s still held the lock in practice.", // left, total, quorum, crashed nodes, t back up, client
	"n.quorum.lost":                    "Only %d of %d nodes still hold it, fewer than the quorum of %d: %s no longer really holds the lock, but does not know it.",                                                              // left, total, quorum, client
	"n.anomaly":                        "Violation (%s): %s",                                                                                                                                                                     // kind word, sentence
	"n.anomaly.info":                   "Noted (%s, informational): %s",
	"n.failover":                       "%[2]s, the master of group %[1]s, failed (%[3]s); Sentinel promoted the replica %[4]s and announced it as the new master (switch-master) at t=%[5]ss, %.1[6]f s after %[2]s failed.",                       // group, old, mode, promoted, t announced, seconds
	"n.failover.bytes":                 "%[1]s had received %[2]d of the %[3]d bytes of replication stream %[4]s had written: whatever it lacked is gone.",                                                                                          // promoted, replica offset, master offset, old
	"n.failover.bytes.all":             "%[1]s had received all %[2]d bytes of replication stream %[3]s had written just before the failure: the promotion lost none of it.",                                                                        // promoted, master offset, old
	"n.failover.role":                  "%[2]s, the master of group %[1]s, failed (%[3]s); Sentinel promoted the replica %[4]s: it answered ROLE as a master %.1[5]f s after %[2]s failed (no sentinel's switch-master announcement was recorded).", // group, old, mode, promoted, seconds
	"n.failover.none":                  "The master of %s failed (%s), and no replica was promoted.",                                                                                                                                                // group, mode
	"n.refused.granted":                "%[1]s's acquire of %[2]s was refused by the lock itself, though its own SETs had set its key on %[3]s (%[4]d of %[5]d nodes).",                                                                             // client, key, nodes, n, of
	"n.refused.granted.validity":       "%[1]s's acquire of %[2]s was refused by the lock itself, though its own SETs had set its key on %[3]s: the acquire took %[4]s, longer than the key's TTL of %[5]s, so its validity time had run out.",      // client, key, nodes, took, ttl
	"n.refused.granted.not-replicated": "%[1]s's acquire of %[2]s was refused by the lock itself: %[3]s set its key, but too few replicas acknowledged it (WAIT), so the lock did not grant it.",                                                    // client, key, nodes
	"n.refused.not-replicated":         "%[1]s's acquire of %[2]s was refused by the lock itself: too few replicas acknowledged its key (WAIT), so the lock did not grant it.",                                                                      // client, key
	"n.refused.loading":                "%[1]s's acquire of %[2]s was refused: the node answered LOADING (it was still loading its data after a restart) and ran nothing, so the lock was not granted.",                                             // client, key

	// Fault kinds.
	"fault.pause":            "pause",
	"fault.pause.gc":         "GC pause",
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
	"refusal.stale-fence":    "stale fencing token %d < %d",                                                // token, highest seen
	"refusal.duplicate-key":  "duplicate idempotency key %s",                                               // key
	"refusal.lock-changed":   "%s's currlock holds another client's token: another client claimed it last", // key (the last claimant may be a stale holder: redlock-gc-pause-cas-stale-claim)
	"refusal.out-of-stock":   "out of stock",
	"refusal.unknown":        "no reason given",

	// Anomaly kinds, their sentence and why they matter.
	"kind.mutex-overlap":              "two holders at once",
	"kind.mutex-overlap.semaphore":    "more holders than permits",
	"kind.double-effect":              "charged more than once",
	"kind.stale-write-accepted":       "stale write accepted",
	"kind.foreign-unlock":             "unlocked someone else's lock",
	"kind.lost-update":                "lost update",
	"kind.oversell":                   "oversold",
	"kind.over-admission":             "too many admitted",
	"kind.split-brain":                "two leaders",
	"kind.duplicate-run":              "job ran more than once",
	"kind.token-regression":           "fencing token went backwards",
	"kind.token-regression.repeated":  "fencing token repeated",
	"kind.unavailable":                "lock unavailable",
	"kind.stuck-lock":                 "lock stuck",
	"kind.not-linearizable":           "not linearizable",
	"a.mutex-overlap":                 "%s both believed they held %s from t=%ss to t=%ss.",                                                                                                                                     // clients, key, t0, t1
	"a.token-regression":              "%s were granted fencing tokens on %s that did not grow (from t=%ss to t=%ss): a later grant repeated or undercut an earlier token, so the resource cannot tell the stale holder apart.", // clients, key, t0, t1
	"a.double-effect":                 "%s was charged %d times: %s. A payment must happen once.",                                                                                                                               // key, n, list
	"a.double-effect.plain":           "%s was charged more than once, by %s.",                                                                                                                                                  // key, clients
	"a.at":                            "%s at t=%ss",                                                                                                                                                                            // client, t
	"a.not-linearizable":              "Porcupine found no order of %s's operations in which one client at a time holds the lock (%s, from t=%ss).",                                                                             // key, clients, t
	"a.generic":                       "%s: %s on %s, t=%ss – t=%ss.",                                                                                                                                                           // kind word, clients, key, t0, t1
	"a.foreign-unlock.restored":       "%s, restarted, deleted on start a lock key on %s that belonged to %s (t=%ss): its restore re-queued every job lease it found, live ones included.",                                      // restorer, key, owner, t
	"a.foreign-unlock":                "%s deleted a lock key on %s that belonged to %s (t=%ss).",                                                                                                                               // releaser, key, owners, t
	"why.mutex-overlap":               "Correctness: more clients held the lock at once than it allows; anything they did to the resource in this window may be wrong.",
	"why.double-effect":               "Correctness: the customer paid twice. This is real damage, not just wasted work.",
	"why.stale-write-accepted":        "Correctness: an old holder's write overwrote a newer one.",
	"why.foreign-unlock":              "Correctness: a client deleted a lock it did not own: its owner went on working without a key, and any other client could take the lock meanwhile.",
	"why.not-linearizable":            "Correctness: the resource's history cannot be explained by one lock holder at a time.",
	"why.oversell":                    "Correctness: more was sold than there was stock.",
	"why.lost-update":                 "Correctness: one write silently erased another.",
	"why.duplicate-run":               "Efficiency or correctness: a job meant to run once per fire time ran more than once; harmless only if the job is idempotent.",
	"why.split-brain":                 "Correctness: a leader of an older term acted after a newer leader had been elected.",
	"why.over-admission":              "Correctness: more clients than allowed were inside at once.",
	"why.token-regression":            "Correctness: fencing tokens must only grow; an older token after a newer one defeats fencing.",
	"why.unavailable":                 "Liveness: nobody could get the lock; nothing was corrupted, but work stopped.",
	"why.stuck-lock":                  "Liveness: the lock stayed taken with nobody using it.",
	"why.informational":               "Informational: the lock was broken, but the checkers found no harm to the data from it.",
	"why.informational.fenced":        "Harm prevented: the lock was broken, but the resource's check (a fencing token or an epoch) accepted no write of the stale holder while both held it, so no data was harmed.",
	"why.informational.no-write":      "No harm, and none prevented: the lock was broken, but the stale holder had no write accepted while both held it and the resource refused none, so no data was harmed and the fencing token was never tested.",
	"why.informational.check-and-set": "Harm prevented: the lock was broken, but the resource's check-and-set accepted no write of the stale holder while both held it (its currlock held the newer holder's token), so no data was harmed.",
	"why.informational.idempotent":    "Harm prevented: the lock was broken, but the idempotency key let only one of the holders' charges through, so no data was harmed.",
	"why.informational.claim-order":   "No harm done: the lock was broken, but the resource accepted the stale holder's writes while its currlock still held that holder's token, before the newer holder first used it, so it saw the holders one at a time, in claim order.",
	"why.informational.fenced-order":  "No harm done: the lock was broken, but the resource accepted the stale holder's writes before the newer holder first used it, so it saw the holders one at a time, in token order.",
	"why.other":                       "Correctness: a safety property of the lock did not hold.",
	"kind.duplicate-work":             "duplicate work",
	"informational.short":             "informational",
	"a.mutex-overlap.many":            "%s all believed they held %s from t=%ss to t=%ss.",                                      // clients, key, t0, t1
	"a.lost-update":                   "An update of %s was lost between t=%ss and t=%ss (%s).",                                 // key, t0, t1, clients
	"a.lost-update.wiped":             "%[1]s's write of %[2]s at t=%[3]ss wiped out %[4]d earlier updates: %[5]s.",             // writer, key, t, n, list
	"a.lost-update.wiped.one":         "%[1]s's write of %[2]s at t=%[3]ss wiped out %[4]d earlier update: %[5]s.",              // writer, key, t, n, list
	"a.lost.of":                       "%s's at t=%ss",                                                                          // client, t
	"a.lost.by":                       "%s's write at t=%ss",                                                                    // client, t
	"a.oversell":                      "%s was oversold: %d sold with only %d in stock (%s).",                                   // key, sold, stock, sales list
	"a.oversell.plain":                "%s was oversold: the stock went below 0 (%s).",                                          // key, clients
	"a.duplicate-run":                 "%s ran %d times (each when it began): %s. A scheduled job must run once per fire time.", // key, n, list
	// A duplicate run told at its second run: key, the run before, the second run; n in all, the later runs.
	"a.duplicate-run.second":      "%[1]s ran a second time for one fire time: %[2]s, then %[3]s. A scheduled job must run once per fire time.",
	"a.duplicate-run.second.more": "%[1]s ran a second time for one fire time: %[2]s, then %[3]s; it ran %[4]d times in all (later: %[5]s). A scheduled job must run once per fire time.",
	"a.split-brain":               "%s both acted as leader (key %s): the old leader's write was accepted at t=%ss, after the new leader was elected at t=%ss.",                             // clients, key, t1, t0
	"a.over-admission":            "%s were inside %s at once from t=%ss to t=%ss, with only %d permits.",                                                                                   // clients, key, t0, t1, permits
	"a.duplicate-work":            "%s both rebuilt %s from t=%ss to t=%ss: wasted work, the data is fine.",                                                                                 // clients, key, t0, t1
	"a.stuck-lock.dead":           "With %[4]s dead (a crashed client does not come back), %[1]s was still held by %[2]s%[5]s and the final probe could not take it (held since t=%[3]ss).", // key, clients, since, crashed clients, quit clause
	"a.stuck-lock":                "After the faults healed, %[1]s was still held by %[2]s%[5]s and the final probe could not take it (held since t=%[3]ss).",                               // key, clients, since, -, quit clause
	"a.unavailable":               "No client believed it held %s, yet no acquire of it succeeded from t=%ss to t=%ss.",
	"a.unavailable.kept":          "No client believed it held %[1]s, yet no acquire of it succeeded from t=%[2]ss to t=%[3]ss: %[4]s's lease on it ran out at t=%[5]ss, but %[6]s's extends kept %[4]s's key on %[7]s until t=%[8]ss.", // key, t0, t1, owner, lease end, extender, node, key end
	"a.unavailable.local":         "%[1]s sat free in Redis from t=%[2]ss to t=%[3]ss, yet %[4]s, alive and trying, was refused every time without its acquire reaching Redis: the lock was held inside its own process.",               // key, t0, t1, client
	"why.duplicate-work":          "Efficiency only: two workers did the same work. Waste, not corruption: this is an efficiency lock (Kleppmann 2016, efficiency vs correctness).",
	"why.efficiency":              "Efficiency only: the lock was broken, but cache-rebuild uses it only to save work, so the cost is duplicate work, not wrong data.",
	"why.liveness.info":           " Informational: this scenario does not ask for liveness (expect_live).",
	"why.liveness.bounded":        " Informational: the scenario expects liveness, and this lease ended within one TTL of when its holder stopped believing it held it, so the lock came free by itself, as its TTL promises.",
	"why.liveness.busy":           " Not judged: the machine was too busy to keep the run's compressed time, so the bounds were the machine's, not the lock's.",
	"say.lost-update":             "%s",
	"say.lost-update.total":       "In all, %d updates of %s were wiped out, by %s.", // n, key, writes
	"say.oversell":                "%s",
	"say.duplicate-run":           "%s",
	"say.split-brain":             "Split brain, two leaders: %s", // describe
	"say.over-admission":          "%s",
	"say.stuck-lock":              "%s",
	"say.unavailable":             "%s",
	"say.waste":                   "No data was harmed, but work was wasted: %s", // describe
	"say.notlive":                 "Safe, but not live: %s",                      // describe
	"fix.incr":                    "Atomic increment: do the read-modify-write in one Redis command (INCR) or Lua script, or fence the writes so a stale writer is refused (lessons 42, 46).",
	"fix.incr.atomic":             "Atomic increment: do the read-modify-write in one Redis command (INCR) or Lua script, so that no holder writes back a value it read before another's write (lesson 42).",
	"fix.lua.stock":               "Lua check-and-decrement: check the stock and decrement it in one atomic Lua script (algorithm atomic-lua); no lock, no window (lesson 48; the use case is in lesson 42).",
	"fix.cron.key":                "Name the lock after the task, the same on every server: here each scheduler locked a key of its own (%s), so their keys did not keep one another out, and a fire time ran on more than one of them. With one shared name only one scheduler gets each fire time; make the job idempotent as well (lesson 51).", // the keys locked
	"fix.cron":                    "One lock per fire time (key job@<fire time>, never released early, or lockAtLeastFor ≥ the largest difference between any two schedulers' clocks), and make the job idempotent (lesson 51).",
	"fix.cron.spread":             "One lock per fire time (key job@<fire time>, never released early, or lockAtLeastFor ≥ the largest difference between any two schedulers' clocks, %s in this run), and make the job idempotent (lesson 51).",                                                                                                                                                                                                                                                      // the clocks' spread
	"fix.cron.skew":               "Each fire time already had its own lock, never released, but its TTL (%s) was shorter than the spread of the schedulers' clocks (%s): a scheduler whose clock is behind can reach a fire time after that fire time's key has expired, and run the job again. Keep each fire time's key longer than the clocks can differ (a TTL, or lockAtLeastFor, above the largest clock skew), keep the schedulers' clocks in step, and make the job idempotent (lesson 51).", // TTL, clock spread
	"fix.epoch":                   "Epoch check, announced first: every election increments an epoch; the resource refuses any leader action with an epoch lower than the highest it has seen, and each new leader announces its epoch to the resource as soon as it is elected. An epoch check refuses only an action older than an epoch the resource has seen: a deposed leader that acts before the new leader's first action gets through unless the new leader announced first (lessons 46, 49; lock-theory §7.2).",
	"fix.semaphore":               "A semaphore alone cannot stop this: a holder paused past the timeout is purged and its permit handed on, while it still thinks it is inside. Have the resource check, with each piece of work, that the holder's own permit is still in the semaphore (its entry not purged), in one step with the work where it can (a script on the same Redis), so the stale holder's work is refused. A single fencing token that only grows fits one permit, not several: it would refuse the legitimate holders below the highest token (lessons 46, 50).",
	"fix.semaphore.rank":          "No permit was purged: the semaphore let a caller in ahead of its holders. The basic semaphore ranks each caller by the timestamp of its own clock, so a caller whose clock is behind ranks first; the fair semaphore ranks callers by a counter in Redis (Redis in Action 6.3.2, lesson 50).",
	"fix.semaphore.clock":         "A holder's permit was purged as timed out while it was still inside, with no pause in the plan: the purge's cut-off is computed from the purging client's own clock, so a clock ahead purges live holders. Keep the clocks in step, or have the resource check, with each piece of work, that the holder's own permit is still in the semaphore (its entry not purged), so a purged holder's work is refused; a single fencing token that only grows would refuse the legitimate holders below the highest token (lessons 46, 50).",
	"fix.semaphore.slow":          "A holder's permit was purged as timed out while it was still inside, with no pause in the plan: the holder had been inside longer than the semaphore's timeout, so no clock ahead of its holder's was needed to purge it. Refresh the permit while the work runs, or size the timeout to the longest job, and have the resource check, with each piece of work, that the holder's own permit is still in the semaphore (its entry not purged), so a purged holder's work is refused (lessons 46, 50).",
	"fix.idempotency.charge":      "Idempotency key: the payment gateway remembers the key of each invoice's charge and refuses a second one (\"duplicate idempotency key\"), whoever sends it (lesson 48).",
	"n.read.counter":              "%s read %s = %d.",                                                                                                                   // client, key, n
	"n.done":                      "%s finished its work on %s and left its critical section.",                                                                          // client, key
	"n.stopped":                   "The run ended while %s was still inside its critical section on %s, its work unfinished: it believed it held the lock until then.",  // client, key
	"n.done.all":                  "%s finished its work and left its critical section.",                                                                                // client
	"n.lost.all":                  "%s concluded its lock was lost and stopped.",                                                                                        // client
	"n.probe.fail":                "Final probe: after every fault healed, %s could not acquire the lock on %s.",                                                        // client, key
	"n.probe.fail.span":           "It tried from t=%ss until t=%ss.",                                                                                                   // the probe's start, its end
	"n.probe.fail.dead":           "Final probe: at the end of the run, with %s still dead (a crashed client does not come back), %s could not acquire the lock on %s.", // crashed clients, client, key
	"n.probe.queue":               "The lock's key was free, but %s's entry headed the waiter queue %s.",                                                                // head's owner, queue key
	"n.probe.info.refused":        "Final probe: %s's acquire of %s could not connect (connection refused).",
	"n.probe.info.reset":          "Final probe: %s's acquire of %s lost its connection before the reply.",
	"n.probe.info.error":          "Final probe: %s's acquire of %s ended in an error, with no definite answer.",
	"n.probe.info":                "Final probe: %s's acquire of %s got no answer.", // client, key
	"n.more":                      "… %d more steps from t=%ss to t=%ss: %s.",       // n, t0, t1, counts
	"n.more.acquire":              "%d grants",
	"n.more.retries":              "%d runs of refused acquires",
	"n.more.read":                 "%d reads",
	"n.more.write":                "%d accepted writes",
	"n.more.refused":              "%d refused writes",
	"n.more.release":              "%d releases",
	"n.more.extend":               "%d renewals",
	"n.more.lost":                 "%d lost locks",
	"n.more.done":                 "%d finished critical sections",
	"n.more.fault":                "%d faults",
	"n.more.heal":                 "%d fault ends",
	"n.more.expiry":               "%d key expiries",
	"n.more.probe":                "%d probes",
	"n.more.violated":             "%d anomalies",
	"n.more.acquire.one":          "%d grant",
	"n.more.retries.one":          "%d run of refused acquires",
	"n.more.read.one":             "%d read",
	"n.more.write.one":            "%d accepted write",
	"n.more.refused.one":          "%d refused write",
	"n.more.release.one":          "%d release",
	"n.more.extend.one":           "%d renewal",
	"n.more.lost.one":             "%d lost lock",
	"n.more.done.one":             "%d finished critical section",
	"n.more.fault.one":            "%d fault",
	"n.more.heal.one":             "%d fault end",
	"n.more.expiry.one":           "%d key expiry",
	"n.more.probe.one":            "%d probe",
	"n.more.violated.one":         "%d anomaly",
	"p.waste":                     "wasted work (informational)",
	"p.effect.ok":                 "effect accepted (sale, write, run, …)",
	"p.effect.bad":                "accepted effect that is the violation (as a checker names it)",

	// Plots.
	"p.timeline.title":        "%s — %s", // scenario, verdict
	"p.x":                     "scenario time (s)",
	"p.x.invoked":             "scenario time the attempt began (s)",
	"p.x.completed":           "scenario time the attempt was answered (s)",
	"desc.latency":            "Each acquire attempt is drawn at the time it began (as in Jepsen's latency graph), at the height of how long its answer took.",
	"desc.rate":               "Each acquire attempt is counted in the bin of scenario time its answer came in (one second; two or more in a run longer than 150 s, as the steps show), as in Jepsen's rate graph, not when it began: granted, refused, or of unknown outcome (an error or no reply; a dashed line, when the run had any).",
	"p.hold":                  "%s holds the lock",   // client
	"p.hold.permit":           "%s holds a permit",   // client
	"p.hold.nolock":           "%s let in (no lock)", // client
	"p.believed":              "believes it holds, but the key is gone",
	"p.believed.permit":       "believes it holds a permit, but it is gone",
	"p.key":                   "key on node, in its holder's colour",
	"p.pause":                 "pause (client frozen)",
	"p.pause.gc":              "GC pause (client frozen)",
	"p.pause.word":            "pause",
	"p.pause.word.gc":         "GC pause",
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
	"p.violation.more":        "and %d more (hover for all)",
	"p.charge.ok":             "charge accepted",
	"p.write.refused":         "write refused",
	"p.acquire.fail":          "acquire refused",
	"p.expired":               "expired",
	"p.shade.stacked":         "faults at once: each shades its own band of the height",
	"p.ended":                 "key ended: %s",                                                                                // words
	"p.ended.rows":            "end tick — on a node's row, that node's key ended: %s; on a client's row, its lock ended: %s", // node words, quorum words
	"p.ended.lock":            "lock ended: %s",
	"p.lost.crash":            "lost in crash",
	"p.deleted":               "deleted by janitor",
	"p.node":                  "node %s",
	"p.cut":                   "cut from %s",             // nodes or clients
	"p.repl.stop.master":      "stream to %s stopped",    // replicas
	"p.repl.stop.replica":     "no stream from %s",       // masters
	"p.repl.slow.master":      "stream to %s delayed",    // replicas
	"p.repl.slow.replica":     "stream from %s late",     // masters
	"p.slow":                  "slow link to %s",         // nodes or clients
	"p.cut.replies.node":      "replies to %s lost",      // clients (a node's lane)
	"p.cut.replies.client":    "replies from %s lost",    // nodes (a client's lane)
	"p.cut.requests.node":     "commands from %s lost",   // clients (a node's lane)
	"p.cut.requests.client":   "commands to %s lost",     // nodes (a client's lane)
	"p.reset":                 "connections to %s reset", // nodes or clients
	"p.owner":                 "owner %s",
	"p.quorum.lost":           "quorum lost",
	"p.charge.bad":            "accepted charge that is the violation (as a checker names it)",
	"p.latency.title":         "%s — acquire latency (workers; final probe left out)", // scenario
	"p.latency.y":             "acquire latency (ms, wall time)",
	"p.rate.title":            "%s — acquires per second (workers; final probe left out)", // scenario
	"p.rate.y":                "acquires / s (scenario time)",
	"p.ok":                    "granted",
	"p.fail":                  "refused",
	"p.info":                  "outcome unknown (an error or no reply)",
	"p.charged":               "charged",
	"p.refused":               "refused",

	// Suite page.
	"suite.title":      "locksim suite: %d runs", // n
	"suite.totals":     "%d runs: %d valid, %d invalid, %d unknown. %d met their expectation, %d did not.",
	"suite.errors":     "%d had no verdict (an infrastructure error; each such run says why below).",
	"suite.rate":       "%s: %d of %d runs invalid (%.0f%%), %d unknown, %d errors.", // scenario, invalid, runs with a verdict, percent, unknown, runs with an infrastructure error
	"suite.rate.seeds": "Invalid seeds: %s",
	"suite.nochart":    "not drawn in this suite (the run's page says how)",
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
	"n.fence.seen":                " — the fence counter on %s read %d",                                                                                                                                                                                 // node, value
	"n.release.foreign":           "%[1]s's release deleted %[2]s's key %[3]s: a plain DEL removes whatever key is there.",                                                                                                                              // releaser, owners, key
	"n.flushed":                   "%[1]s's key %[2]s was flushed from %[3]s.",                                                                                                                                                                          // client, key, nodes
	"n.overwritten":               "%[1]s's key %[2]s on %[3]s was overwritten by %[4]s.",                                                                                                                                                               // client, key, node, by
	"n.expired.taken":             "%[1]s's lock on %[2]s was gone by the time another client was granted it (the history does not say how).",                                                                                                           // client, key
	"n.permit.purged":             "%[1]s's permit on %[2]s, on the node for %[3]s, was purged as timed out: its stamp was at or before the purging command's cut-off, that client's clock less the timeout.",                                           // owner, key, on the node for
	"n.permit.purged.by":          " It was %s's command that purged it.",                                                                                                                                                                               // purger
	"n.permit.purged.own":         " It was %s's own command that purged it.",                                                                                                                                                                           // owner
	"n.permit.lost":               "%[1]s's permit on %[2]s was lost on %[3]s.",                                                                                                                                                                         // owner, key, node
	"n.gone.crashed":              "it was lost at t=%[1]ss, when %[2]s crashed",                                                                                                                                                                        // t, node
	"n.gone.failover":             "it was lost at t=%[1]ss in the failover of %[2]s",                                                                                                                                                                   // t, group
	"n.gone.failover.copy":        "it was lost at t=%[1]ss, when %[5]s, the replica that had acknowledged it, crashed after %[2]s, the master holding it, %[3]s, and %[4]s, the replica promoted in its place, had not received all %[2]s had written", // t, group, fate, promoted, replica
	"n.gone.failover.fate":        "it was lost at t=%[1]ss, when %[2]s, the master holding it, %[3]s, and %[4]s, the replica promoted in its place, had not received all %[2]s had written",
	"n.gone.taken":                "it was gone by t=%ss, for a reason the history does not show",                                                           // t
	"n.gone.flushed":              "it was flushed at t=%ss",                                                                                                // t
	"n.gone.overwritten":          "it was overwritten at t=%ss",                                                                                            // t
	"n.gone.taken.ended":          "; %s had taken the lock since, and lost it too",                                                                         // client
	"c.expired.paused":            "%[1]s's lease expired while it was paused and %[2]s acquired it",                                                        // stale, current
	"c.expired.used":              "%[1]s's lease (TTL %[3]s) expired while it was still working, a pause having used up part of it, and %[2]s acquired it", // stale, current, ttl
	"c.expired.during":            "%[1]s's lease (TTL %[3]s) expired while it was under a fault (%[4]s), and %[2]s acquired it",
	"c.expired":                   "%[1]s's lease (TTL %[3]s) expired while it was still working and %[2]s acquired it",                                                                                                                                                // stale, current, ttl
	"c.token.late":                "; %[1]s's acquire returned its token %[2]d after %[3]s's returned token %[4]d, though %[1]s's lock was the older, so the resource took the stale holder for the newer one",                                                         // stale, its token, current, its token
	"c.taken":                     "%[2]s was granted the lock on %[3]s while %[1]s still believed it held it",                                                                                                                                                         // stale, current, nodes
	"c.restored":                  "%[3]s, restarted, deleted %[1]s's key on start at t=%[4]ss (its restore re-queued every job lease it found) and %[2]s acquired it",                                                                                                 // stale, current, restorer, t
	"c.deleted":                   "%[3]s's release at t=%[4]ss removed %[1]s's key and %[2]s acquired it",                                                                                                                                                             // stale, current, deleter, t
	"c.janitor":                   "a janitor deleted %[1]s's key on %[3]s at t=%[4]ss and %[2]s acquired it",                                                                                                                                                          // stale, current, nodes, t
	"c.crashed":                   "%[3]s crashed at t=%[4]ss and lost %[1]s's key, and %[2]s acquired it",                                                                                                                                                             // stale, current, nodes, t
	"c.clock":                     "%[3]s's clock jumped and %[1]s's key there expired early at t=%[4]ss, and %[2]s acquired it",                                                                                                                                       // stale, current, nodes, t
	"c.clock.rate":                "%[3]s's clock ran fast and %[1]s's key there expired early at t=%[4]ss, and %[2]s acquired it",                                                                                                                                     // stale, current, nodes, t
	"c.failover":                  "%[3]s failed over at t=%[4]ss to a replica that had not received %[1]s's key, and %[2]s acquired it",                                                                                                                               // stale, current, group, t
	"c.failover.copy":             "%[3]s, the master holding %[1]s's key, %[5]s, and %[7]s, the replica that had acknowledged it, crashed at t=%[4]ss; the replica promoted in its place (%[6]s) had not received all %[3]s had written, and %[2]s acquired the lock", // stale, current, group, t the replica died, fate, promoted, replica
	"c.failover.fate":             "%[3]s, the master holding %[1]s's key, %[5]s at t=%[4]ss; the replica promoted in its place (%[6]s) had not received all %[3]s had written, and %[2]s acquired the lock",
	"c.ended.flushed":             "%[1]s's key on %[3]s was flushed at t=%[4]ss and %[2]s acquired it",                                                                                       // stale, current, nodes, t
	"c.ended.overwritten":         "%[1]s's key on %[3]s was overwritten at t=%[4]ss and %[2]s acquired it",                                                                                   // stale, current, nodes, t
	"c.ended.purged":              "%[1]s's permit on %[3]s was purged at t=%[4]ss and %[2]s entered",                                                                                         // stale, current, nodes, t
	"c.possible":                  "%[1]s acted on a lease it may never have been granted while %[2]s held the lock",                                                                          // stale, current
	"c.held":                      "%[2]s was granted the lock while %[1]s still believed it held it",                                                                                         // stale, current
	"c.reentered":                 "%[2]s's acquire re-entered %[1]s's own key, presenting the same owner token, and was granted it",                                                          // stale, current
	"c.sharer-released":           "%[3]s's release at t=%[4]ss removed the key %[1]s's grant rested on (its own, under the owner token they share) and %[2]s acquired it",                    // stale, current, remover, t
	"c.other-key":                 "%[1]s locked %[3]s and %[2]s locked %[4]s: the two computed different lock keys for one resource, so neither lock excluded the other",                     // stale, current, stale's key, current's key
	"a.mutex-overlap.cause":       "%[1]s and %[2]s both believed they held %[3]s from t=%[4]ss to t=%[5]ss: %[6]s.",                                                                          // stale, current, key, t0, t1, cause
	"a.orphaned-lease.unbelieved": "%[1]s's key %[2]s stayed on its node from t=%[3]ss to t=%[4]ss (%[5]s), though %[1]s never believed it held it (its acquire got no answer), while %[6]s.", // owner, key, t0, t1, duration
	"a.orphaned-lease":            "%[1]s's key %[2]s stayed on its node from t=%[3]ss to t=%[4]ss (%[5]s) after %[1]s had stopped believing it held it, while %[6]s.",                        // owner, key, t0, t1, duration
	"a.orphan.who":                "%s were refused",                                                                                                                                          // clients refused while an orphaned key stood
	"a.orphan.who.one":            "%s was refused",                                                                                                                                           // client
	"a.orphan.who.none":           "no other client tried to take it",
	"a.orphan.probe":              "the final probe",
	"a.split-brain.roles":         "%[1]s and %[2]s both acted as leader (key %[3]s): %[1]s's write from an older term was accepted at t=%[4]ss, after %[2]s was elected at t=%[5]ss.",                                        // stale, current, key, t1, t0
	"a.split-brain.roles.later":   "%[1]s and %[2]s both acted as leader (key %[3]s): %[1]s's write from an older term was accepted at t=%[4]ss, after %[2]s was elected at t=%[5]ss, and %[2]s wrote as leader at t=%[6]ss.", // stale, current, key, t1, t0, the new leader's write
	"kind.orphaned-lease.kept":    "key kept for the minimum hold",
	"a.orphaned-lease.kept":       "%[1]s's release kept its key %[2]s on its node for the lock's minimum hold, from t=%[3]ss to t=%[4]ss (%[5]s), while %[6]s: kept on purpose, not orphaned.", // owner, key, t0, t1, duration
	"why.min-hold":                "Informational: the lock keeps its key after a release until its minimum hold has passed (ShedLock's lockAtLeastFor), so the others waited out that hold by design; no key was orphaned.",
	"kind.orphaned-lease":         "orphaned lease",
	"why.orphaned-lease":          "Liveness: a lock nobody believed they held kept others out until it ended.",
	"say.orphaned-lease":          "A lease was orphaned: %s",                                                                         // describe
	"say.overlap.cause":           "Two workers believed they held the lock at the same time: %[1]s, for %.1[3]f s on %[2]s — %[4]s.", // clients, key, seconds, cause (one may have been frozen throughout: a belief, not an act)
	"p.restored":                  "deleted by a restarted client's restore on start",
	"p.removed":                   "deleted by another client",
	"p.released":                  "released",
	"p.overwritten":               "overwritten",
	"p.purged":                    "purged",
	"p.clock":                     "expired early (clock)",
	"p.failover":                  "lost with its master",
	"p.failover.copy":             "lost when %s, the replica that had acknowledged it, crashed", // replica
	"p.fault.of":                  "%s: %s",
	"p.held":                      "still held",

	// Issue 19, third round: the two-write job (BR-23 #1416), the orphan
	// kept alive by another client's extends (BR-25 #1707) and the client
	// restart (kombu PR #905, redisson #4595).
	"a.stale-write-accepted.record": "The resource accepted %[1]s's failure record on %[3]s at t=%[4]ss over the record of %[2]s's finished run: only the completion was checked against the lock, not the failure record.", // stale, current, key, t
	"refusal.lock-mismatch":         "the lock key of %s is gone or holds another owner token (Missing lock / Lock mismatch)",                                                                                               // key
	"fault.restart-client":          "client restart",
	"n.restart.client":              "%s was killed and started again %s later as a new process: it restored nothing, left its old lease to its TTL and began its jobs afresh.",                                                                                                                 // client, down time
	"n.restart.client.nolease":      "%s was killed and started again %s later as a new process, holding no lease then: it restored nothing and began its jobs afresh.",                                                                                                                         // client, down time
	"n.restart.client.restore":      "%s was killed and started again %s later as a new process: on start it re-queued every job lease it found (a DEL of every job's lock key, kombu's restore of unacked messages), live workers' included.",                                                  // client, down time
	"a.orphaned-lease.extended":     "%[1]s's key %[2]s stayed on its node from t=%[3]ss to t=%[4]ss (%[5]s) after %[1]s had stopped believing it held it, while %[8]s: %[6]s kept extending this key, which it did not hold (its extend does not check the owner), the last time at t=%[7]ss.", // owner, key, t0, t1, duration, extender, t
	"fix.extend.owner":              "Extend only your own lock, and only while it is still yours: a heartbeat that extends every configured key whoever holds it keeps a dead holder's lock for ever. Heartbeat the locks you acquired with a compare-and-pexpire on your own token, unique to the holder (a process id such as 1, the same in every container, tells no holder from another), and drop a lock it no longer finds (rq PR #2458, BR-25).",

	// Issue 33: a grant the observed nodes contradict (checker
	// CauseNodeHeldAnother). Args: current, key, t0, nodes, stale; and
	// current, key, nodes, stale.
	"a.mutex-overlap.node": "%[1]s was told it was granted %[2]s at t=%[3]ss while %[4]s still held %[5]s's key and set none for %[1]s: two owners at once, by the node's own record.",
	"say.overlap.accepted": "The resource accepted %[1]s's stale %[2]s on %[4]s at t=%[3]ss — %[5]s.", // stale, action, t, key, cause (it names the newer holder)
	"say.overlap.node":     "Two owners held the lock at once: %[1]s was told it was granted %[2]s while %[3]s still held %[4]s's key.",
	// Protocol v2 (issue 28): a library's own renewals, resurrected and hidden-lapsed leases.
	"fix.refresh.owner":            "A renewal must extend the key only while it still holds the lease's owner token (compare-and-pexpire), never set a missing key again, and tell the holder at once when it finds the key gone or someone else's, so that the holder stops before it acts (redis-semaphore 5.3.1, #175; redlock-rb PR #37).",
	"n.renew.lib.ok":               "%s's lock library renewed its lock on %s on its own.",
	"n.renew.lib.fail":             "%s's lock library tried to renew its lock on %s on its own and found it gone.",
	"n.renew.lib.missed":           "%s's lock library renewed its lock on %s on its own, but when its command ran the node had no key for it to renew.",                                                     // client, key
	"n.renew.lib.foreign":          "%[1]s's lock library renewed the lock key of %[2]s on its own, but it was %[3]s's key: its renewal checks no owner token, so it kept %[3]s's lease alive, not its own.", // client, key, owner
	"kind.resurrected-lease":       "lease brought back after another's grant",
	"kind.hidden-lapse":            "lapsed lease kept from its holder",
	"a.resurrected-lease":          "%[1]s's owner token was set again on %[2]s (key %[3]s on %[4]s) at t=%[5]ss, after its key had ended at t=%[6]ss and %[7]s had been granted the lock at t=%[8]ss: %[1]s's lock brought back a lease that was no longer its own.", // holder, resource, lock key, node, t set, t ended, other, t granted
	"a.hidden-lapse":               "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; its %[4]s at t=%[5]ss said the lease was still its own, and nothing told %[1]s otherwise before its %[6]s at t=%[7]ss.",                                               // holder, key, t ended, lock op, t said, act, t act
	"a.hidden-lapse.release":       "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; nothing told %[1]s, and its release at t=%[4]ss said it had removed the key.",                                                                                         // holder, key, t ended, t release
	"a.hidden-lapse.release.said":  "%[1]s's lease on %[2]s ended at t=%[3]ss while it held it; its %[4]s at t=%[5]ss said the lease was still its own, nothing told %[1]s otherwise, and its release at t=%[6]ss said it had removed the key.",                       // holder, key, t ended, lock op, t said, t release
	"lockop.renewal":               "renewal",
	"lockop.extend":                "extend",
	"why.resurrected-lease":        "Correctness: the lock came back to a holder after another client had been granted it, so two clients were granted one lock, and the old holder was never told it had lost it.",
	"why.hidden-lapse":             "Correctness: the lock told its holder its lease was still its own after the lease had ended, so the holder acted without the lock's protection.",
	"why.hidden-lapse.uncontended": " Informational: no other client was granted the lock meanwhile, so no one else acted under it.",
	"p.resurrected":                "key set again",

	// A run with no fault: none healed (teacher 9, F3); renewals that kept
	// a stuck lock say why it was still held.
	"a.stuck-lock.renewed":         "After the faults healed, %[1]s was still held by %[2]s, whose renewals kept it (the last at t=%[4]ss); the final probe could not take it (held since t=%[3]ss).", // key, clients, t0, last renewal
	"a.stuck-lock.nofault":         "At the end of the run, %[1]s was still held by %[2]s%[5]s and the final probe could not take it (held since t=%[3]ss).",                                          // key, clients, since, -, quit clause
	"a.stuck-lock.nofault.renewed": "At the end of the run, %[1]s was still held by %[2]s, whose renewals kept it (the last at t=%[4]ss); the final probe could not take it (held since t=%[3]ss).",   // key, clients, t0, last renewal
	// A stuck lock whose holder stopped using it at Start (finding.Quit*):
	// the clause after its name, and the renewal sentences that carry it.
	"a.stuck-lock.renewed.quit":         "After the faults healed, %[1]s was still held by %[2]s%[5]s and its renewals kept it (the last at t=%[4]ss); the final probe could not take it (held since t=%[3]ss).", // key, clients, since, last renewal, quit clause
	"a.stuck-lock.nofault.renewed.quit": "At the end of the run, %[1]s was still held by %[2]s%[5]s and its renewals kept it (the last at t=%[4]ss); the final probe could not take it (held since t=%[3]ss).",   // key, clients, since, last renewal, quit clause
	"a.stuck.quit.release-lost":         ", whose release at t=%ss got no answer and left it in place,",
	"a.stuck.quit.release-failed":       ", whose release at t=%ss failed,",
	"a.stuck.quit.release-kept":         ", whose release at t=%ss was answered ok but left it in place,",
	"a.stuck.quit.crashed":              ", which crashed at t=%ss,",
	"a.stuck.quit.done":                 ", which stopped using it at t=%ss without releasing it,",
	"a.stuck.quit.lost":                 ", which gave it up as lost at t=%ss without releasing it,",
	"n.probe.fail.nofault":              "Final probe: at the end of the run, %s could not acquire the lock on %s.", // client, key
}
