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
		"run.lag.under.edge":      "; this run stayed under it, but a shorter lateness spoiled it all the same: %s",                                                                                                              // sum.late.what.edge
		"sum.late.what.drift":     "%s's own operations ran %.0f ms (wall) behind their pace from t=%ss (%d slower than the quickest of their kind in the run), so %s: which came first was the machine's doing, not the plan's", // client, ms, t, n, sum.late.drift.*
		"sum.late.drift.inflight": "its %s that began at t=%ss was in flight at the %s of step #%d (%s) at t=%ss, where at its pace it would have ended before it",                                                               // op word, t, sum.late.edge.*, id, fault word, t
		"sum.late.drift.after":    "its %s began at t=%ss, after the %s of step #%d (%s) at t=%ss, where at its pace it would have begun before it",                                                                              // op word, t, sum.late.edge.*, id, fault word, t
		"run.lag.under.drift":     "; this run stayed under it, but a client's own slowness spoiled it all the same: %s",                                                                                                         // sum.late.what.drift
	},
	"vi": {
		"sum.late.what.thaw":      "bước #%d (%s) kéo dài %s thời gian kịch bản đối với process của %s thay vì %s như kế hoạch: process không gửi gì trong %.0f ms (wall time) sau khi nhận SIGCONT",
		"sum.late.what.stretch":   "bước #%d (%s) kéo dài %s thời gian kịch bản thay vì %s như kế hoạch",
		"sum.late.what.start":     "bước #%d (%s) bắt đầu muộn %s thời gian kịch bản so với kế hoạch",
		"sum.late.what.edge":      "một bộ hẹn giờ của harness đến hạn lúc t=%ss chỉ chạy lúc t=%ss (trễ %.0f ms, wall time); %s của bước #%d (%s) diễn ra lúc t=%ss và %s bắt đầu thao tác %s lúc t=%ss, cả hai đều trong quãng trễ đó hoặc trong %.0f ms (wall time) ngay sau nó: việc nào đến trước là do máy quyết định, không phải do kế hoạch",
		"sum.late.edge.start":     "điểm bắt đầu",
		"sum.late.edge.end":       "điểm kết thúc",
		"run.lag.under.edge":      "; lần chạy này vẫn dưới mức đó, nhưng một độ trễ ngắn hơn vẫn làm hỏng nó: %s",
		"sum.late.what.drift":     "các thao tác của chính %s chạy chậm hơn nhịp của nó %.0f ms (wall time) kể từ t=%ss (%d thao tác chậm hơn thao tác nhanh nhất cùng loại trong lần chạy), nên %s: việc nào đến trước là do máy quyết định, không phải do kế hoạch",
		"sum.late.drift.inflight": "thao tác %s mà nó bắt đầu lúc t=%ss vẫn đang chạy ở %s của bước #%d (%s) lúc t=%ss, trong khi theo nhịp của nó thì thao tác đó đã xong trước thời điểm ấy",
		"sum.late.drift.after":    "thao tác %s của nó chỉ bắt đầu lúc t=%ss, sau %s của bước #%d (%s) lúc t=%ss, trong khi theo nhịp của nó thì thao tác đó đã bắt đầu trước thời điểm ấy",
		"run.lag.under.drift":     "; lần chạy này vẫn dưới mức đó, nhưng chính sự chậm chạp của một client vẫn làm hỏng nó: %s",
	},
}

func init() { addMessages(lateMessages, "messages_late.go") }
