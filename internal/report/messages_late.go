package report

// The words of a fault step that missed its plan and so made a run's
// timing lost (issue 32; coverage's Result.Late), the "what" of sum.stall
// and sum.stall.stands. One table per language like messages; init merges
// them into messages.
var lateMessages = map[Lang]map[string]string{
	"en": {
		"sum.late.what.thaw":      "step #%d (%s) lasted %s of scenario time for %s's process instead of its planned %s: the process said nothing for %.0f ms (wall) after its SIGCONT",                                                                                                                // id, fault word, span, client, span, ms
		"sum.late.what.stretch":   "step #%d (%s) lasted %s of scenario time instead of its planned %s",                                                                                                                                                                                                // id, fault word, span, span
		"sum.late.what.start":     "step #%d (%s) started %s of scenario time after its planned start",                                                                                                                                                                                                 // id, fault word, span
		"sum.late.what.edge":      "a harness timer due at t=%ss fired only at t=%ss (%.0f ms late, wall); the %s of step #%d (%s) came at t=%ss and %s's %s began at t=%ss, each in that stretch or the %.0f ms (wall) after it: which of the two came first was the machine's doing, not the plan's", // t, t, ms, sum.late.edge.*, id, fault word, t, client, op word, t, ms
		"sum.late.edge.start":     "start",
		"sum.late.edge.end":       "end",
		"run.lag.under.edge":      "; this run stayed under it, but a shorter lateness spoiled it all the same: %s",                                                                                                                                                                          // sum.late.what.edge
		"sum.late.what.drift":     "from t=%[1]ss, %[2]s's operations with no fault over them ran slower than the quickest of their kind in the run (%[4]d of them), which put it %.0[3]f ms (wall) behind its own pace, so %[5]s: which came first was the machine's doing, not the plan's", // t, client, ms, n, sum.late.drift.*
		"sum.drift":               "the machine was too busy for %s to keep its own pace: %s, so the run proves nothing; run it again with fewer runs at once (--parallel) or a lower --time-scale",                                                                                          // client, sum.late.what.drift
		"sum.late.drift.inflight": "its %s that began at t=%ss was in flight at the %s of step #%d (%s) at t=%ss, where at its pace it would have ended before it",                                                                                                                           // op word, t, sum.late.edge.*, id, fault word, t
		"sum.late.drift.after":    "its %s began at t=%ss, after the %s of step #%d (%s) at t=%ss, where at its pace it would have begun before it",                                                                                                                                          // op word, t, sum.late.edge.*, id, fault word, t
		"run.lag.under.drift":     "; this run stayed under it, but a client's own slowness spoiled it all the same: %s",                                                                                                                                                                     // sum.late.what.drift
	},
	"vi": {
		"sum.late.what.thaw":      "bước #%d (%s) kéo dài %s thời gian kịch bản đối với process của %s thay vì %s như kế hoạch: process không gửi gì trong %.0f ms (wall time) sau khi nhận SIGCONT",
		"sum.late.what.stretch":   "bước #%d (%s) kéo dài %s thời gian kịch bản thay vì %s như kế hoạch",
		"sum.late.what.start":     "bước #%d (%s) bắt đầu muộn %s thời gian kịch bản so với kế hoạch",
		"sum.late.what.edge":      "một bộ hẹn giờ của harness đến hạn lúc t=%ss chỉ chạy lúc t=%ss (trễ %.0f ms, wall time); %s của bước #%d (%s) diễn ra lúc t=%ss và %s bắt đầu thao tác %s lúc t=%ss, cả hai đều trong quãng trễ đó hoặc trong %.0f ms (wall time) ngay sau nó: việc nào đến trước là do máy quyết định, không phải do kế hoạch",
		"sum.late.edge.start":     "điểm bắt đầu",
		"sum.late.edge.end":       "điểm kết thúc",
		"run.lag.under.edge":      "; lần chạy này vẫn dưới mức đó, nhưng một độ trễ ngắn hơn vẫn làm hỏng nó: %s",
		"sum.late.what.drift":     "từ t=%[1]ss, các thao tác của %[2]s không bị lỗi nào phủ lên đã chạy chậm hơn thao tác nhanh nhất cùng loại trong lần chạy (%[4]d thao tác), khiến nó trễ nhịp của chính nó %.0[3]f ms (wall time), nên %[5]s: việc nào đến trước là do máy quyết định, không phải do kế hoạch",
		"sum.drift":               "máy quá bận nên %s không giữ được nhịp của chính nó: %s, vì vậy lần chạy không chứng minh được gì; hãy chạy lại với ít lần chạy cùng lúc hơn (--parallel) hoặc --time-scale thấp hơn",
		"sum.late.drift.inflight": "thao tác %s mà nó bắt đầu lúc t=%ss vẫn đang chạy ở %s của bước #%d (%s) lúc t=%ss, trong khi theo nhịp của nó thì thao tác đó đã xong trước thời điểm ấy",
		"sum.late.drift.after":    "thao tác %s của nó chỉ bắt đầu lúc t=%ss, sau %s của bước #%d (%s) lúc t=%ss, trong khi theo nhịp của nó thì thao tác đó đã bắt đầu trước thời điểm ấy",
		"run.lag.under.drift":     "; lần chạy này vẫn dưới mức đó, nhưng chính sự chậm chạp của một client vẫn làm hỏng nó: %s",
	},
}

func init() { addMessages(lateMessages, "messages_late.go") }
