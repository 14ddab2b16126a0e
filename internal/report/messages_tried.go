package report

// The messages of reader 14's findings on what a run tried and what
// spoiled it: a fix tried with the run's seed whose run proves nothing
// (fix.fixed.spoiled, fix.spoiled.*), the machine load row against its own
// bound (run.lag.over.*, run.lag.under.*), a command that stalled the run
// (sum.stall.*) and a fix's fault that lasts to the end of the run
// (why.fired.lasting). One table per language like messages.go's, merged
// into it: every key in both (TestEveryLanguageHasEveryKey).
var triedMessages = map[Lang]map[string]string{
	"en": {
		"fix.fixed.spoiled":        "The scenario named as its fix, %[3]s: %[1]s. It was tried with this run's seed, but that run proves nothing (%[2]s), so this report does not show what it prevents.",                                            // scenario, fix.spoiled.*
		"fix.fixed.info":           "The same fault, with no violation: scenario %[1]s. Its run with this seed is valid, though not untouched: it still showed %[2]s, which the checkers count as informational, not as a safety violation (below).", // scenario, informational kinds
		"fix.spoiled.unknown":      "it came out unknown",
		"fix.spoiled.busy":         "the machine was too busy to keep its compressed time",
		"fix.spoiled.margin":       "every violation it found was within the harness's own lateness around it",
		"fix.spoiled.exposure":     "a holder acted after its lease ended while no other client's try could have taken the lock",
		"fix.spoiled.off-plan":     "Sentinel promoted a replica no step asked for",
		"fix.spoiled.few-grants":   "too few acquires succeeded while the harness ran late",
		"fix.spoiled.fault-failed": "a step of its fault plan failed to apply",
		"fix.spoiled.unfired":      "a step of its fault plan never fired while the harness ran late",
		"fix.spoiled.untested":     "no fault met a hold while the harness ran late",
		"run.lag.over.stands":      "; this run was over it: a valid verdict would prove nothing, but the violations found still happened",
		"run.lag.over":             "; this run was over it, so it proves nothing",
		"run.lag.under.stall":      "; this run stayed under it: what spoiled it was %s",                                                                                                                   // sum.stall.what
		"sum.stall":                "the machine was too busy to keep the run's compressed time: %s, so the run proves nothing; run it again with fewer runs at once (--parallel) or a lower --time-scale", // sum.stall.what
		"sum.stall.stands":         "the machine was too busy to keep the run's compressed time: %s, so a valid verdict would prove nothing, but the violations found still happened",                      // sum.stall.what
		"sum.stall.what":           "%s's %s to %s at t=%ss, which got no answer within its %.0f ms deadline (wall), with no fault between them",                                                           // client, command, node, seconds, ms
		"sum.stall.what.late":      "%s's %s to %s at t=%ss, which was answered only after %.0f ms (wall), with no fault between them",                                                                     // client, command, node, seconds, ms
		"why.fired.lasting":        "There %[1]s began at t=%[2]ss and lasted until the end of the run, over every hold of %[3]s from then on.",                                                            // fault (why.fault.short), seconds in the fix's run, client
	},
	"vi": {
		"fix.fixed.spoiled":        "Kịch bản được nêu là cách sửa, %[3]s: %[1]s. Nó đã được chạy thử với seed của lần chạy này, nhưng lần chạy đó không chứng minh được gì (%[2]s), nên báo cáo này không cho thấy nó ngăn được gì.",
		"fix.fixed.info":           "Cùng lỗi đó, không có vi phạm: kịch bản %[1]s. Lần chạy của nó với seed này hợp lệ, nhưng không phải không có gì xảy ra: nó vẫn có %[2]s, mà các checker tính là thông tin, không phải vi phạm an toàn (xem bên dưới).",
		"fix.spoiled.unknown":      "nó chưa kết luận được",
		"fix.spoiled.busy":         "máy quá bận nên không giữ được thời gian nén của nó",
		"fix.spoiled.margin":       "mọi vi phạm nó tìm thấy đều nằm trong độ trễ của chính harness quanh thời điểm đó",
		"fix.spoiled.exposure":     "một client từng giữ lock đã tác động sau khi lease của nó hết hạn trong lúc không lần thử nào của client khác có thể lấy được lock",
		"fix.spoiled.off-plan":     "Sentinel đã promote một replica mà không bước nào yêu cầu",
		"fix.spoiled.few-grants":   "quá ít lần lấy lock thành công trong lúc harness chạy trễ",
		"fix.spoiled.fault-failed": "một bước trong kế hoạch lỗi của nó không áp dụng được",
		"fix.spoiled.unfired":      "một bước trong kế hoạch lỗi của nó không hề xảy ra trong lúc harness chạy trễ",
		"fix.spoiled.untested":     "không lỗi nào trùng với lúc giữ lock trong lúc harness chạy trễ",
		"run.lag.over.stands":      "; lần chạy này đã vượt mức đó: một kết luận hợp lệ sẽ không chứng minh được gì, nhưng các vi phạm tìm thấy vẫn đã xảy ra",
		"run.lag.over":             "; lần chạy này đã vượt mức đó, nên nó không chứng minh được gì",
		"run.lag.under.stall":      "; lần chạy này vẫn dưới mức đó: thứ làm hỏng nó là %s",
		"sum.stall":                "máy quá bận nên không giữ được thời gian nén của lần chạy: %s, vì vậy lần chạy không chứng minh được gì; hãy chạy lại với ít lần chạy cùng lúc hơn (--parallel) hoặc --time-scale thấp hơn",
		"sum.stall.stands":         "máy quá bận nên không giữ được thời gian nén của lần chạy: %s, nên một kết luận hợp lệ sẽ không chứng minh được gì, nhưng các vi phạm tìm thấy vẫn đã xảy ra",
		"sum.stall.what":           "lệnh %[2]s của %[1]s tới %[3]s lúc t=%[4]ss không nhận được trả lời trong hạn %.0[5]f ms (wall time), mà không có lỗi nào chắn giữa chúng",
		"sum.stall.what.late":      "lệnh %[2]s của %[1]s tới %[3]s lúc t=%[4]ss chỉ được trả lời sau %.0[5]f ms (wall time), mà không có lỗi nào chắn giữa chúng",
		"why.fired.lasting":        "Ở lần chạy đó, %[1]s bắt đầu lúc t=%[2]ss và kéo dài đến hết lần chạy, trùm lên mọi lần %[3]s giữ lock từ lúc đó trở đi.",
	},
}

func init() { addMessages(triedMessages, "messages_tried.go") }
