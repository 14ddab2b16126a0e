package report

// The messages of the interactive timeline, its tips, history.html, the
// lesson pages, the requirements page and the classroom mode (issue 15),
// one table per language like messages.go's and merged into it: every
// key in both (TestEveryLanguageHasEveryKey). Verbs and argument order are
// documented beside the English text.
var pageMessages = map[Lang]map[string]string{
	"en": {
		// Lanes.
		"lane.resource": "resource",

		// Legend words.
		"p.believed.quorum":   "believes it holds the lock, but fewer than a majority of nodes still hold its key",
		"p.key.inferred":      "key on node, inferred from the clients' outcomes (the node's commands were not recorded)",
		"p.quorum.lost.how":   "quorum lost — %[2]s: %[1]s", // end word, node
		"p.node.promoted":     "replica of %s",              // node
		"p.removed.by":        "deleted by %s",              // client
		"p.restored.by":       "deleted by %s on restart",   // client
		"p.permit":            "a permit on the node (sorted-set member)",
		"p.clock.rate":        "clock ×%s", // rate
		"p.clock.offset":      "clock %s",  // signed offset
		"p.clock.legend":      "a clock fault: the node's (or client's) clock offset",
		"p.clock.legend.rate": "a clock fault: the node's (or client's) clock running fast or slow",
		"p.token.short":       "· token %d",             // fence
		"p.seen":              "highest token seen: %d", // fence
		"p.seen.legend":       "the highest fencing token the resource has seen",
		"p.epoch.short":       "· epoch %d",             // the workload's own number
		"p.seen.epoch":        "highest epoch seen: %d", // the workload's own number
		"p.seen.epoch.legend": "the highest epoch the resource has seen (the workload's own number: the lock issues no fencing token)",
		"p.effect.accepted":   "accepted: %s", // action words
		"p.effect.violation":  "accepted write that is the violation (as a checker names it)",
		"p.other.accepted":    "other write accepted: %s",                                              // action words
		"p.effect.unknown":    "outcome unknown (no answer came: it may or may not have happened): %s", // action words
		"p.act.unknown":       "%s? (outcome unknown)",                                                 // action word
		"p.act.unknown.short": "%s?",                                                                   // action word
		"p.msg":               "a command to a node and its reply (drawn at the instant the node ran it)",
		"p.msg.cut":           "a message that never arrived (cut)",

		// Write actions, as nouns.
		"act.claim": "token claim",
		"act.write": "write",

		// Tips: the whole operation and the fact behind it.
		"tip.band":                  "Violation window t=%ss – t=%ss:",                                                   // t0, t1
		"tip.hold":                  "%s held the lock on %s (%s, TTL %s), granted at %s.",                               // client, key, token text, ttl, at
		"tip.hold.permit":           "%s held a permit of %s (%s, TTL %s), granted at %s.",                               // client, semaphore, token text, ttl, at
		"tip.write.held.permit":     "%s held a permit of %s when it wrote.",                                             // client, semaphore
		"tip.write.lost.permit":     "%[1]s believed it held a permit of %[3]s, but that permit had been lost at %[2]s.", // client, at, semaphore
		"tip.hold.nodes":            "Granted by %s (%d of %d nodes).",                                                   // nodes, n, total
		"tip.token":                 "Owner token in full: %s.",
		"tip.quorum":                "fewer than %d nodes (a majority) still held its key", // quorum
		"tip.lost":                  "Its key left Redis at %s: %s.",                       // at, why (released, expired, lost in a crash, …)
		"tip.kept":                  "Its key was still in Redis when the history ended.",
		"tip.hold.nokey":            "%s held the lock on %s (%s), granted at %s.", // client, key, token text, at
		"tip.kept.mutex":            "An in-process mutex: no key in Redis and no TTL; it stayed held until its holder released it.",
		"tip.kept.nolock":           "The no-lock control took no lock: nothing stood for it anywhere.",
		"tip.belief.released":       "%s released it at %s.",                                                                                                                                                                          // client, at
		"tip.belief.lost":           "%s concluded at %s that it had lost it.",                                                                                                                                                        // client, at
		"tip.belief.done":           "%s left its critical section at %s.",                                                                                                                                                            // client, at
		"tip.belief.reacquired":     "%s asked for the lock again at %s.",                                                                                                                                                             // client, at
		"tip.belief.crashed":        "%s crashed at %s.",                                                                                                                                                                              // client, at
		"tip.belief.stopped":        "%s was still inside its critical section when the run ended, at %s.",                                                                                                                            // client, at
		"tip.belief.last":           "%s's last recorded instant: %s.",                                                                                                                                                                // client, at
		"tip.belief.after":          "%s went on believing it held the lock for %s after it was lost.",                                                                                                                                // client, duration
		"tip.crash.held":            "%[1]s lost its key in a crash at %[2]s; %[3]d of %[4]d nodes still held it, and %[1]s stayed down until %[5]s, so no other client could reach a quorum: %[6]s still held the lock in practice.", // nodes, at, left, total, up at, client
		"tip.key":                   "Key %[2]s on %[1]s, set by %[3]s (%[4]s) at %[5]s.",                                                                                                                                             // node, key, client, token text, at
		"tip.key.shown":             "Key %[2]s on %[1]s, set by %[3]s (%[4]s) by %[5]s at the latest: %[6]s's acquire was refused by it then, while %[3]s's acquire, begun at %[7]s, had not returned (it returned at %[8]s).",       // server, key, owner, token text, at, refused client, acquire began, returned
		"tip.key.end":               "It left the node at %s: %s.",                                                                                                                                                                    // at, how
		"tip.key.held":              "It was still there when the history ended.",
		"tip.key.server":            "From %[3]s it was on %[1]s, the replica Sentinel had promoted to master of %[2]s.", // server, node, at
		"tip.key.nogrant":           "It backed no lock that %s was granted.",                                            // owner
		"tip.key.inferred":          "(Inferred from the clients' outcomes: this node's commands were not recorded.)",
		"tip.permit":                "Permit of %[3]s in %[2]s on %[1]s, added at %[4]s.",                                                                                          // node, key, owner, at
		"tip.clock.rate":            "%s's clock ran at %s× speed from %s to %s.",                                                                                                  // name, rate, from, to
		"tip.clock.jump":            "%s's clock jumped %s at %s: its offset is now %s.",                                                                                           // name, jump, at, total
		"tip.seen":                  "From here the resource had seen fencing token %[2]d on %[1]s (%[3]s): it refuses any lower one.",                                             // key, value, at
		"tip.seen.unchecked":        "From here the resource had seen fencing token %[2]d on %[1]s (%[3]s); it checks no token in this run, so a lower one would be accepted too.", // key, value, at
		"tip.seen.epoch":            "From here the resource had seen epoch %[2]d on %[1]s (%[3]s), the workload's own number (the lock issues no fencing token).",                 // key, value, at
		"tip.write.ok":              "%s: %s's %s of %s%s, accepted by the %s.",                                                                                                    // at, client, action, key, token suffix, resource
		"tip.write.refused":         "%s: %s's %s of %s%s, REFUSED by the %s: %s.",                                                                                                 // at, client, action, key, token suffix, resource, reason
		"tip.num":                   "Value written: %d.",
		"tip.write.unknown":         "%s: %s's %s of %s%s began; its outcome is unknown: no answer came, so it may or may not have happened.",                                               // at, client, action, key, token suffix
		"tip.write.unknown.crash":   "%[1]s: %[2]s's %[3]s of %[4]s%[5]s began; its outcome is unknown: %[2]s crashed at %[6]s, before an answer came, so it may or may not have happened.", // at, client, action, key, token suffix, the crash
		"tip.write.lost":            "%s believed it held the lock, but the lock had been lost at %s.",                                                                                      // client, at
		"tip.write.held":            "%s held the lock when it wrote.",
		"tip.write.nolock":          "%s had been let in by the no-lock control when it wrote: no lock was held.",                                                                                                                                               // client
		"tip.write.lostduring":      "%s held the lock when it began, but the lock was lost at %s, before the write finished at %s.",                                                                                                                            // client, key end, write's end
		"tip.write.violation.stale": "A checker names this write as the one that should not have happened (%[1]s); it became a violation at %[2]s, when %[3]s's %[4]s came too.",                                                                                // kind word, at, client, action
		"tip.write.completes":       "This write completed the violation (%[1]s) that a checker pins on %[2]s's %[3]s at %[4]s.",                                                                                                                                // kind word, client, action, at
		"tip.write.violation":       "A checker names this write as the violation (%s).",                                                                                                                                                                        // kind word
		"tip.msg.cmd":               "%s → %s: %s, run by the node at %s.",                                                                                                                                                                                      // client, node, command, at
		"tip.msg.late":              "%s → %s: %s — sent at %s, run by the node at %s, answered at %s (late).",                                                                                                                                                  // client, node, command, sent, ran, answered
		"tip.msg.norep.noscript":    "%[1]s → %[2]s: the reply to %[3]s did not reach %[2]s before it gave up at %[5]s; the command was sent at %[4]s, and the node answered NOSCRIPT (the script was not loaded there), so it ran nothing and changed no key.", // node, client, command, sent, gave up
		"tip.msg.norep":             "%[1]s → %[2]s: the reply to %[3]s did not reach %[2]s before it gave up at %[5]s; the command was sent at %[4]s and the node ran it.",                                                                                     // node, client, command, sent, gave up
		"tip.msg.lost":              "%s → %s: %s never reached the node: sent at %s, no answer by %s, and the node did not run it.",                                                                                                                            // client, node, command, sent, gave up
		"tip.msg.script":            "(the script ran: %s)",
		"tip.msg.inner":             "%s at %s",                                                                                                                                                                     // a command a script ran, when the node ran it
		"tip.msg.part":              "Part of %[2]s's %[1]s of %[3]s at %[4]s (%[5]s).",                                                                                                                             // op word, client, key, at, outcome
		"tip.msg.noanswer":          "%s → %s: %s got no answer: sent at %s, the client gave up at %s (this node's commands were not recorded then, so whether it ran the command is not known).",                   // client, node, command, sent, gave up
		"tip.msg.stopped":           "%s → %s: %s got no answer: sent at %s; the node was stopped when the client gave up at %s, and a stopped node runs what it was sent when it wakes, after the client gave up.", // client, node, command, sent, gave up
		"tip.msg.fault":             "A %s stood on this link from %s to %s.",                                                                                                                                       // fault word, from, to
		"tip.msg.nofault":           "No fault stood on this link then: the machine may have been too busy.",
		"f.acquire":                 "acquire",
		"f.release":                 "release",
		"f.extend":                  "renewal",
		"f.probe":                   "final probe",
		"outcome.ok":                "done",
		"outcome.ok.acquire":        "granted",
		"outcome.ok.extend":         "granted",
		"outcome.ok.probe":          "granted",
		"outcome.ok.write":          "accepted",
		"outcome.fail":              "refused",
		"outcome.info":              "outcome unknown",

		// A lock on several nodes that lost its quorum while copies of its
		// key remained (a fresh reader, issue 27: not "its key left Redis").
		"tip.quorum.lost":     "From %[1]s its key stood on only %[2]d of %[3]d nodes (%[4]s), fewer than %[5]d (a majority): the lock had lost its quorum.",                                                                                      // at, left, total, nodes, quorum
		"tip.quorum.released": "From %[2]s its key stood on only %[3]d of %[4]d nodes (%[5]s) because %[1]s's own release was deleting it node by node: %[1]s gave the lock up, it did not lose it.",                                              // client, at, left, total, nodes
		"tip.quorum.last":     "Its last copy left Redis at %s.",                                                                                                                                                                                  // at
		"tip.write.quorum":    "%[1]s believed it held the lock, but from %[2]s its key stood on only %[3]d of %[4]d nodes, fewer than %[5]d (a majority): the lock had lost its quorum.",                                                         // client, at, left, total, quorum
		"tip.write.practice":  "%[1]s held the lock in practice when it wrote: from %[2]s its key stood on only %[3]d of %[4]d nodes, fewer than %[5]d (a majority), but %[6]s stayed down until %[7]s, so no other client could reach a quorum.", // client, at, left, total, quorum, nodes, up at

		// history.html.
		"hist.title":            "%s — porcupine's linearizability check, on the run's own time axis", // scenario
		"hist.verdict.ok":       "Porcupine found an order of every operation below that keeps one lock holder at a time: the history is linearizable.",
		"hist.verdict.bad":      "Porcupine found no order of the operations below that keeps one lock holder at a time: the history is not linearizable.",
		"hist.verdict.ok.free":  "Porcupine found an order of every operation below that its model accepts: the history is linearizable. That model has no rule of one lock holder at a time here, as %s.",    // why (hist.free.*)
		"hist.verdict.bad.free": "Porcupine found no order of the operations below that its model accepts: the history is not linearizable. That model has no rule of one lock holder at a time here, as %s.", // why (hist.free.*)
		"hist.free.nolock":      "the run takes no lock",
		"hist.free.permits":     "a semaphore admits several holders: over-admission is for the other checkers (see the report) to find",
		"hist.free.efficiency":  "the lock only saves work: duplicate work is for the other checkers (see the report) to find",
		"hist.out.free":         "It is not in the longest order porcupine found for %s.", // key
		"hist.how":              "One row per client. Each bar is one operation porcupine checked, from its call to its return, in scenario seconds (t=0 is the start of the run). Solid: in the longest order porcupine found; dashed outline: not in it. Hover a bar for the operation in full.",
		"hist.model":            "In porcupine's model a grant hands the lease to its client whether or not the previous holder's lease had run out (the model does not count time), so grants may follow one another in an order; what no order explains is a write, a renewal or a release that removed a key by a client whose lease a later grant had taken.",
		"hist.back":             "Back to the report (index.html)",
		"hist.op":               "%s → %s: %s's %s — %s.",                                                                 // from, to, client, op words, outcome
		"hist.of":               "%s of %s",                                                                               // op word, key
		"hist.in":               "Porcupine placed it at position %d of its order for %s.",                                // position, key
		"hist.out":              "It is not in the longest order porcupine found for %s that keeps one holder at a time.", // key
		"hist.legend.in":        "an operation in porcupine's longest order (its client's colour)",
		"hist.legend.out":       "an operation outside that order",
		"hist.f.acquire":        "acquire",
		"hist.f.release":        "release",
		"hist.f.extend":         "renewal",
		"hist.f.read":           "read",
		"hist.f.write":          "write",

		// history.html's verdict of a linearizable history whose order
		// leaves operations out (a fresh reader, issue 27).
		"hist.verdict.ok.part":      "Porcupine found an order of the operations below that keeps one lock holder at a time: the history is linearizable.",
		"hist.verdict.ok.part.free": "Porcupine found an order of the operations below that its model accepts: the history is linearizable. That model has no rule of one lock holder at a time here, as %s.",       // why (hist.free.*)
		"hist.left.unknown":         "That order leaves out %s, whose outcome is unknown (drawn dashed): an operation that got no answer may or may not have taken effect, so an order may leave it out.",           // the operations ("w1's release of leader")
		"hist.left.unknown.n":       "That order leaves out %d operations whose outcome is unknown (drawn dashed): an operation that got no answer may or may not have taken effect, so an order may leave it out.", // count
		"hist.left":                 "%d of them are not in that order (drawn dashed).",                                                                                                                             // count
		"hist.left.op":              "%s's %s",                                                                                                                                                                      // client, op words

		// The timeline's tools.
		"tl.window":    "This run has %d marks, too many to draw one by one: the timeline shows the %d around the first anomaly, t=%ss to t=%ss (timeline.png shows the whole run).", // total, shown, t0, t1
		"tl.zoom.in":   "zoom in",
		"tl.zoom.out":  "zoom out",
		"tl.pan.left":  "earlier",
		"tl.pan.right": "later",
		"tl.reset":     "whole run",
		"tl.hint":      "Hover a mark for what happened. Zoom: + and −, Ctrl + wheel, or pinch; pan: drag.",
		"tl.png":       "The same timeline as a picture (timeline.png), for slides and CI archives",

		// The two-write job (BR-23 #1416).
	},
	"vi": {
		"lane.resource": "tài nguyên",

		"p.believed.quorum":   "tin là mình giữ lock, nhưng chưa tới đa số node còn giữ key của nó",
		"p.key.inferred":      "key trên node, suy ra từ kết quả của các client (các lệnh trên node không được ghi lại)",
		"p.quorum.lost.how":   "mất quorum — %[2]s: %[1]s",
		"p.node.promoted":     "bản sao của %s",
		"p.removed.by":        "bị %s xoá",
		"p.restored.by":       "bị %s xoá khi khởi động lại",
		"p.permit":            "một permit trên node (phần tử của sorted set)",
		"p.clock.rate":        "đồng hồ ×%s",
		"p.clock.offset":      "đồng hồ %s",
		"p.clock.legend":      "lỗi đồng hồ: độ lệch đồng hồ của node (hoặc client)",
		"p.clock.legend.rate": "lỗi đồng hồ: đồng hồ của node (hoặc client) chạy nhanh hoặc chậm",
		"p.token.short":       "· token %d",
		"p.seen":              "token lớn nhất đã thấy: %d",
		"p.seen.legend":       "fencing token lớn nhất mà tài nguyên đã thấy",
		"p.epoch.short":       "· epoch %d",
		"p.seen.epoch":        "epoch lớn nhất đã thấy: %d",
		"p.seen.epoch.legend": "epoch lớn nhất mà tài nguyên đã thấy (số của chính workload: lock không cấp fencing token)",
		"p.effect.accepted":   "được chấp nhận: %s",
		"p.effect.violation":  "lần ghi được chấp nhận chính là vi phạm (theo checker)",
		"p.other.accepted":    "lần ghi khác được chấp nhận: %s",
		"p.effect.unknown":    "không rõ kết quả (không có phản hồi: có thể đã xảy ra, có thể chưa): %s",
		"p.act.unknown":       "%s? (không rõ kết quả)",
		"p.act.unknown.short": "%s?",
		"p.msg":               "một lệnh gửi tới node và phản hồi của nó (vẽ tại thời điểm node chạy lệnh)",
		"p.msg.cut":           "một thông điệp không bao giờ tới nơi (bị cắt)",

		"act.claim": "đăng ký token",
		"act.write": "ghi",

		"tip.band":                  "Khoảng vi phạm t=%ss – t=%ss:",
		"tip.hold":                  "%s giữ lock trên %s (%s, TTL %s), được cấp lúc %s.",
		"tip.hold.permit":           "%s giữ một permit của %s (%s, TTL %s), được cấp lúc %s.",
		"tip.write.held.permit":     "%s đang giữ một permit của %s khi ghi.",
		"tip.write.lost.permit":     "%[1]s tin là mình giữ một permit của %[3]s, nhưng permit đó đã mất từ %[2]s.",
		"tip.hold.nodes":            "Được cấp bởi %s (%d trên %d node).",
		"tip.token":                 "Token chủ sở hữu đầy đủ: %s.",
		"tip.quorum":                "chưa tới %d node (đa số) còn giữ key của nó",
		"tip.lost":                  "Key của nó không còn trong Redis từ %s: %s.",
		"tip.kept":                  "Key của nó vẫn còn trong Redis khi lịch sử kết thúc.",
		"tip.hold.nokey":            "%s giữ lock trên %s (%s), được cấp lúc %s.",
		"tip.kept.mutex":            "Một mutex trong process: không có key trong Redis và không có TTL; nó được giữ cho tới khi client giữ nó nhả ra.",
		"tip.kept.nolock":           "Đối chứng không-lock không lấy lock nào: không có gì đứng thay cho nó ở đâu cả.",
		"tip.belief.released":       "%s nhả lock lúc %s.",
		"tip.belief.stopped":        "%s vẫn còn trong critical section khi lần chạy kết thúc, lúc %s.",
		"tip.belief.lost":           "%s kết luận lúc %s rằng mình đã mất lock.",
		"tip.belief.done":           "%s rời critical section lúc %s.",
		"tip.belief.reacquired":     "%s xin lấy lock lại lúc %s.",
		"tip.belief.crashed":        "%s bị crash lúc %s.",
		"tip.belief.last":           "Thời điểm cuối cùng được ghi lại của %s: %s.",
		"tip.belief.after":          "%s vẫn tin là mình giữ lock thêm %s sau khi lock đã mất.",
		"tip.crash.held":            "%[1]s mất key của nó trong một lần crash lúc %[2]s; %[3]d trên %[4]d node vẫn giữ key, và %[1]s nằm im đến %[5]s, nên không client nào khác đạt được quorum: trên thực tế %[6]s vẫn giữ lock.",
		"tip.key":                   "Key %[2]s trên %[1]s, do %[3]s đặt (%[4]s) lúc %[5]s.",
		"tip.key.shown":             "Key %[2]s trên %[1]s, do %[3]s đặt (%[4]s) chậm nhất lúc %[5]s: lệnh lấy lock của %[6]s bị key này từ chối lúc đó, trong khi lệnh lấy lock của %[3]s, bắt đầu lúc %[7]s, chưa trả về (nó trả về lúc %[8]s).",
		"tip.key.end":               "Nó rời node lúc %s: %s.",
		"tip.key.held":              "Nó vẫn còn đó khi lịch sử kết thúc.",
		"tip.key.server":            "Từ %[3]s nó nằm trên %[1]s, bản sao mà Sentinel đã nâng lên làm master của %[2]s.",
		"tip.key.nogrant":           "Key này không ứng với lock nào mà %s được cấp.",
		"tip.key.inferred":          "(Suy ra từ kết quả của các client: các lệnh trên node này không được ghi lại.)",
		"tip.permit":                "Permit của %[3]s trong %[2]s trên %[1]s, được thêm lúc %[4]s.",
		"tip.clock.rate":            "Đồng hồ của %s chạy với tốc độ ×%s từ %s đến %s.",
		"tip.clock.jump":            "Đồng hồ của %s nhảy %s lúc %s: độ lệch giờ là %s.",
		"tip.seen":                  "Từ đây tài nguyên đã thấy fencing token %[2]d trên %[1]s (%[3]s): nó từ chối mọi token nhỏ hơn.",
		"tip.seen.unchecked":        "Từ đây tài nguyên đã thấy fencing token %[2]d trên %[1]s (%[3]s); lần chạy này nó không kiểm tra token, nên một token nhỏ hơn cũng sẽ được chấp nhận.",
		"tip.seen.epoch":            "Từ đây tài nguyên đã thấy epoch %[2]d trên %[1]s (%[3]s), số của chính workload (lock không cấp fencing token).",
		"tip.write.ok":              "%s: %s thực hiện %s trên %s%s, được %s chấp nhận.",
		"tip.write.refused":         "%s: %s thực hiện %s trên %s%s, bị %s TỪ CHỐI: %s.",
		"tip.num":                   "Giá trị được ghi: %d.",
		"tip.write.unknown":         "%s: %s bắt đầu %s trên %s%s; không rõ kết quả: không có phản hồi, nên có thể nó đã xảy ra, có thể chưa.",
		"tip.write.unknown.crash":   "%[1]s: %[2]s bắt đầu %[3]s trên %[4]s%[5]s; không rõ kết quả: %[2]s crash lúc %[6]s, trước khi có phản hồi, nên có thể nó đã xảy ra, có thể chưa.",
		"tip.write.lost":            "%s tin là mình giữ lock, nhưng lock đã mất từ %s.",
		"tip.write.lostduring":      "%s giữ lock khi bắt đầu, nhưng lock đã mất lúc %s, trước khi lần ghi xong lúc %s.",
		"tip.write.held":            "%s đang giữ lock khi ghi.",
		"tip.write.nolock":          "%s đã được đối chứng không-lock cho vào khi ghi: không có lock nào được giữ.",
		"tip.write.violation.stale": "Một checker xác định lần ghi này là lần lẽ ra không được xảy ra (%[1]s); nó thành vi phạm lúc %[2]s, khi %[4]s của %[3]s cũng được chấp nhận.",
		"tip.write.completes":       "Lần ghi này làm trọn vi phạm (%[1]s) mà một checker quy cho %[3]s của %[2]s lúc %[4]s.",
		"tip.write.violation":       "Một checker xác định lần ghi này chính là vi phạm (%s).",
		"tip.msg.cmd":               "%s → %s: %s, node chạy lệnh lúc %s.",
		"tip.msg.late":              "%s → %s: %s — gửi lúc %s, node chạy lúc %s, có phản hồi lúc %s (chậm).",
		"tip.msg.norep.noscript":    "%[1]s → %[2]s: phản hồi cho %[3]s không tới được %[2]s trước khi nó bỏ cuộc lúc %[5]s; lệnh được gửi lúc %[4]s, và node trả lời NOSCRIPT (script chưa được nạp trên đó), nên nó không chạy gì và không key nào thay đổi.",
		"tip.msg.norep":             "%[1]s → %[2]s: phản hồi cho %[3]s không tới được %[2]s trước khi nó bỏ cuộc lúc %[5]s; lệnh được gửi lúc %[4]s và node đã chạy lệnh.",
		"tip.msg.lost":              "%s → %s: %s không bao giờ tới node: gửi lúc %s, không có phản hồi tới %s, và node không chạy lệnh đó.",
		"tip.msg.script":            "(script đã chạy: %s)",
		"tip.msg.inner":             "%s lúc %s",
		"tip.msg.noanswer":          "%s → %s: %s không có phản hồi: gửi lúc %s, client bỏ cuộc lúc %s (lúc đó các lệnh trên node này không được ghi lại, nên không biết node có chạy lệnh hay không).",
		"tip.msg.stopped":           "%s → %s: %s không có phản hồi: gửi lúc %s; node đang bị dừng khi client bỏ cuộc lúc %s, và một node bị dừng sẽ chạy những gì nó đã nhận khi chạy lại, sau khi client đã bỏ cuộc.",
		"tip.msg.part":              "Thuộc lần %[1]s của %[2]s trên %[3]s lúc %[4]s (%[5]s).",
		"tip.msg.fault":             "Một %s chặn đường kết nối này từ %s đến %s.",
		"tip.msg.nofault":           "Lúc đó không có lỗi nào trên đường kết nối này: có thể máy đã quá bận.",
		"f.acquire":                 "lấy lock",
		"f.release":                 "nhả lock",
		"f.extend":                  "gia hạn",
		"f.probe":                   "thử cuối (final probe)", // after "lần" (tip.msg.part)
		"outcome.ok":                "thành công",
		"outcome.ok.acquire":        "được cấp",
		"outcome.ok.extend":         "được cấp",
		"outcome.ok.probe":          "được cấp",
		"outcome.ok.write":          "được chấp nhận",
		"outcome.fail":              "bị từ chối",
		"outcome.info":              "không rõ kết quả",

		"tip.quorum.lost":     "Từ %[1]s key của nó chỉ còn trên %[2]d trong %[3]d node (%[4]s), chưa tới %[5]d (đa số): lock đã mất quorum.",
		"tip.quorum.released": "Từ %[2]s key của nó chỉ còn trên %[3]d trong %[4]d node (%[5]s) vì lần nhả lock của chính %[1]s đang xoá key trên từng node: %[1]s tự nhả lock, không phải bị mất lock.",
		"tip.quorum.last":     "Bản sao cuối cùng của key rời Redis lúc %s.",
		"tip.write.quorum":    "%[1]s tin là mình giữ lock, nhưng từ %[2]s key của nó chỉ còn trên %[3]d trong %[4]d node, chưa tới %[5]d (đa số): lock đã mất quorum.",
		"tip.write.practice":  "Trên thực tế %[1]s vẫn giữ lock khi ghi: từ %[2]s key của nó chỉ còn trên %[3]d trong %[4]d node, chưa tới %[5]d (đa số), nhưng %[6]s nằm im đến %[7]s, nên không client nào khác đạt được quorum.",

		"hist.title":            "%s — kiểm tra linearizability của porcupine, trên trục thời gian của lần chạy",
		"hist.verdict.ok":       "Porcupine tìm được một thứ tự cho mọi thao tác dưới đây mà mỗi lúc chỉ có một client giữ lock: lịch sử là linearizable.",
		"hist.verdict.bad":      "Porcupine không tìm được thứ tự nào cho các thao tác dưới đây mà mỗi lúc chỉ có một client giữ lock: lịch sử vi phạm linearizability.",
		"hist.verdict.ok.free":  "Porcupine tìm được một thứ tự cho mọi thao tác dưới đây mà mô hình của nó chấp nhận: lịch sử là linearizable. Ở đây mô hình đó không có quy tắc mỗi lúc chỉ một client giữ lock, vì %s.",
		"hist.verdict.bad.free": "Porcupine không tìm được thứ tự nào cho các thao tác dưới đây mà mô hình của nó chấp nhận: lịch sử vi phạm linearizability. Ở đây mô hình đó không có quy tắc mỗi lúc chỉ một client giữ lock, vì %s.",
		"hist.free.nolock":      "lần chạy này không lấy lock nào",
		"hist.free.permits":     "một semaphore cho phép nhiều client cùng giữ: việc cho vào quá số permit là để các checker khác (xem báo cáo) phát hiện",
		"hist.free.efficiency":  "lock chỉ để tiết kiệm công việc: việc làm trùng là để các checker khác (xem báo cáo) phát hiện",
		"hist.out.free":         "Nó không nằm trong thứ tự dài nhất mà porcupine tìm được cho %s.",
		"hist.how":              "Mỗi client một hàng. Mỗi thanh là một thao tác porcupine đã kiểm tra, từ lúc gọi đến lúc trả về, theo giây của kịch bản (t=0 là lúc bắt đầu lần chạy). Tô đặc: nằm trong thứ tự dài nhất porcupine tìm được; viền nét đứt: không nằm trong đó. Di chuột lên một thanh để xem đầy đủ thao tác.",
		"hist.model":            "Trong mô hình của porcupine, mỗi lần cấp lock trao lease cho client được cấp, dù lease của người giữ trước đã hết hạn hay chưa (mô hình không tính thời gian), nên trong một thứ tự các lần cấp có thể nối tiếp nhau; điều không thứ tự nào giải thích được là một lần ghi, gia hạn hoặc nhả lock có xoá key của một client mà lease đã bị một lần cấp sau lấy mất.",
		"hist.back":             "Quay lại báo cáo (index.html)",
		"hist.op":               "%s → %s: %s thực hiện %s — %s.",
		"hist.of":               "%s trên %s",
		"hist.in":               "Porcupine đặt nó ở vị trí %d trong thứ tự của %s.",
		"hist.out":              "Nó không nằm trong thứ tự dài nhất mà porcupine tìm được cho %s với mỗi lúc một client giữ lock.",
		"hist.legend.in":        "một thao tác trong thứ tự dài nhất của porcupine (màu của client)",
		"hist.legend.out":       "một thao tác nằm ngoài thứ tự đó",
		"hist.f.acquire":        "lấy lock",
		"hist.f.release":        "nhả lock",
		"hist.f.extend":         "gia hạn",
		"hist.f.read":           "đọc",
		"hist.f.write":          "ghi",

		"hist.verdict.ok.part":      "Porcupine tìm được một thứ tự cho các thao tác dưới đây mà mỗi lúc chỉ có một client giữ lock: lịch sử là linearizable.",
		"hist.verdict.ok.part.free": "Porcupine tìm được một thứ tự cho các thao tác dưới đây mà mô hình của nó chấp nhận: lịch sử là linearizable. Ở đây mô hình đó không có quy tắc mỗi lúc chỉ một client giữ lock, vì %s.",
		"hist.left.unknown":         "Thứ tự đó bỏ ra ngoài %s, thao tác không rõ kết quả (viền nét đứt): một thao tác không nhận được câu trả lời có thể đã có hiệu lực hoặc chưa, nên một thứ tự có thể bỏ nó ra ngoài.",
		"hist.left.unknown.n":       "Thứ tự đó bỏ ra ngoài %d thao tác không rõ kết quả (viền nét đứt): một thao tác không nhận được câu trả lời có thể đã có hiệu lực hoặc chưa, nên một thứ tự có thể bỏ nó ra ngoài.",
		"hist.left":                 "%d thao tác trong số đó không nằm trong thứ tự ấy (viền nét đứt).",
		"hist.left.op":              "%[2]s của %[1]s",

		"tl.window":    "Lần chạy này có %d ký hiệu, quá nhiều để vẽ từng cái: dòng thời gian chỉ hiện %d ký hiệu quanh bất thường đầu tiên, từ t=%ss đến t=%ss (timeline.png vẽ toàn bộ lần chạy).",
		"tl.zoom.in":   "phóng to",
		"tl.zoom.out":  "thu nhỏ",
		"tl.pan.left":  "sớm hơn",
		"tl.pan.right": "muộn hơn",
		"tl.reset":     "toàn bộ lần chạy",
		"tl.hint":      "Di chuột lên một ký hiệu để xem chuyện gì đã xảy ra. Phóng to: + và −, Ctrl + lăn chuột, hoặc chụm hai ngón tay; kéo để di chuyển.",
		"tl.png":       "Cùng dòng thời gian này dưới dạng ảnh (timeline.png), dùng cho slide và lưu trữ CI",

		// The two-write job (BR-23 #1416).
	},
}

func init() {
	for lang, table := range pageMessages {
		if messages[lang] == nil {
			messages[lang] = map[string]string{}
		}
		for k, v := range table {
			messages[lang][k] = v
		}
	}
}
