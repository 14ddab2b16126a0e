package report

// The messages of a run whose verdict the harness's own lateness could
// have made (issue 32): an exposure no contender tested, violations
// within the lateness around them. One table per language like messages;
// init merges them into messages. Kept in their own file so that other
// work on messages.go does not meet them.
var busyMessages = map[Lang]map[string]string{
	"en": {
		"say.unknown.exposure":                       "Inconclusive: %s's %s came %.1f s after its lease ended; no other client tried to take the lock in that window, so this run could not show whether the lock protects it.",                                                                                                                               // client, action, seconds
		"say.unknown.exposure.short":                 "Inconclusive: %s's %s came %.1f s after its lease ended, and no other client's try in that window could have been granted: a grant needs %d nodes free of the lock's key, %s's or any other client's, and the try %s began at t=%ss found %d, so this run could not show whether the lock protects it.", // client, action, seconds, need, client, contender, t, met
		"say.unknown.exposure.gaveup.validity":       "Inconclusive: %s's %s came %.1f s after its lease ended, and no other client could act on the lock in that window: the try %s began at t=%ss ran past its lease's validity before the nodes had all answered, and gave the lock up, so this run could not show whether the lock protects it.",           // client, action, seconds, contender, t
		"say.unknown.exposure.gaveup.not-replicated": "Inconclusive: %s's %s came %.1f s after its lease ended, and no other client could act on the lock in that window: the try %s began at t=%ss had its key set, but too few replicas acknowledged it and it gave the lock up, so this run could not show whether the lock protects it.",                   // client, action, seconds, contender, t
		"say.unknown.exposure.last":                  " The last try before it: %s at t=%ss.",                                                                                                                                                                                                                                                                  // client, t
		"say.unknown.exposure.next":                  " The next: %s at t=%ss.",                                                                                                                                                                                                                                                                                // client, t
		"say.unknown.margin":                         "Inconclusive: a violation (%s) went only %.0f ms (wall) past the lease, within the %.0f ms the harness itself ran late around it; a harness on time might not have made it, so this run proves nothing either way.",                                                                                     // kind, ms, ms
		"say.unknown.lost":                           "Inconclusive: while a violation (%s) was in the making, the harness itself ran %.0f ms (wall) late, past the %.0f ms a run at this time scale can absorb; what came late may be what let it happen, so this run proves nothing either way.",                                                             // kind, ms, ms
		"say.unknown.stall":                          "Inconclusive: while a violation (%s) was in the making, one of its clients' commands got no answer for %.0f ms (wall) with no fault to explain it; the machine, not the scenario, may have made it, so this run proves nothing either way.",                                                             // kind, ms
		"sum.exposure":                               "a holder acted on the resource after its lease ended and no other client tried to take the lock meanwhile, so the run proves nothing",
		"sum.exposure.short":                         "a holder acted on the resource after its lease ended and no other client's try meanwhile could have been granted, so the run proves nothing",
		"sum.margin":                                 "every violation found is within the harness's own lateness around it, or was made while the harness had lost the run's timing, so the run proves nothing either way",
	},
	"vi": {
		"say.unknown.exposure":                       "Chưa kết luận được: lần %[2]s của %[1]s diễn ra %.1[3]f s sau khi lease của nó đã hết; không client nào khác thử lấy lock trong khoảng đó, nên lần chạy này không thể cho thấy lock có bảo vệ được nó hay không.",
		"say.unknown.exposure.short":                 "Chưa kết luận được: lần %[2]s của %[1]s diễn ra %.1[3]f s sau khi lease của nó đã hết, và không lần thử nào của client khác trong khoảng đó có thể được cấp lock: muốn được cấp cần %[4]d node không còn key nào của lock, dù của %[5]s hay của client khác, còn lần thử %[6]s bắt đầu lúc t=%[7]ss chỉ gặp %[8]d node như vậy, nên lần chạy này không thể cho thấy lock có bảo vệ được nó hay không.",
		"say.unknown.exposure.gaveup.validity":       "Chưa kết luận được: lần %[2]s của %[1]s diễn ra %.1[3]f s sau khi lease của nó đã hết, và không client nào khác có thể dùng lock trong khoảng đó: lần thử %[4]s bắt đầu lúc t=%[5]ss đã vượt quá thời hạn hiệu lực của lease trước khi các node trả lời xong, nên đã bỏ lock, nên lần chạy này không thể cho thấy lock có bảo vệ được nó hay không.",
		"say.unknown.exposure.gaveup.not-replicated": "Chưa kết luận được: lần %[2]s của %[1]s diễn ra %.1[3]f s sau khi lease của nó đã hết, và không client nào khác có thể dùng lock trong khoảng đó: lần thử %[4]s bắt đầu lúc t=%[5]ss đã được đặt key, nhưng quá ít replica xác nhận nên đã bỏ lock, nên lần chạy này không thể cho thấy lock có bảo vệ được nó hay không.",
		"say.unknown.exposure.last":                  " Lần thử gần nhất trước đó: %s lúc t=%ss.",
		"say.unknown.exposure.next":                  " Lần thử kế tiếp: %s lúc t=%ss.",
		"say.unknown.margin":                         "Chưa kết luận được: một vi phạm (%s) chỉ vượt quá lease %.0f ms (wall time), nằm trong %.0f ms mà chính công cụ chạy trễ quanh thời điểm đó; nếu công cụ chạy đúng giờ thì có thể đã không xảy ra, nên lần chạy này không chứng minh được điều gì.",
		"say.unknown.lost":                           "Chưa kết luận được: trong lúc một vi phạm (%s) đang hình thành, chính công cụ đã chạy trễ %.0f ms (wall time), vượt quá %.0f ms mà lần chạy với thời gian nén này chịu được; chính phần bị trễ có thể là điều đã khiến nó xảy ra, nên lần chạy này không chứng minh được điều gì.",
		"say.unknown.stall":                          "Chưa kết luận được: trong lúc một vi phạm (%s) đang hình thành, một lệnh của client liên quan không nhận được trả lời trong %.0f ms (wall time) mà không có lỗi nào giải thích; chính máy, không phải kịch bản, có thể đã gây ra nó, nên lần chạy này không chứng minh được điều gì.",
		"sum.exposure":                               "một client giữ lock đã tác động lên tài nguyên sau khi lease hết hạn mà không client nào khác thử lấy lock trong lúc đó, nên lần chạy không chứng minh được gì",
		"sum.exposure.short":                         "một client giữ lock đã tác động lên tài nguyên sau khi lease hết hạn mà không lần thử nào của client khác trong lúc đó có thể được cấp lock, nên lần chạy không chứng minh được gì",
		"sum.margin":                                 "mọi vi phạm tìm thấy đều nằm trong độ trễ của chính công cụ quanh thời điểm đó, hoặc xảy ra khi công cụ đã mất nhịp thời gian của lần chạy, nên lần chạy không chứng minh được điều gì",
	},
}

func init() { addMessages(busyMessages, "messages_busy.go") }
