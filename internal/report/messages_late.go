package report

// The words of a fault step that missed its plan and so made a run's
// timing lost (issue 32; coverage's Result.Late), the "what" of sum.stall
// and sum.stall.stands. One table per language like messages; init merges
// them into messages.
var lateMessages = map[Lang]map[string]string{
	"en": {
		"sum.late.what.thaw":    "step #%d (%s) lasted %s of scenario time for %s's process instead of its planned %s: the process said nothing for %.0f ms (wall) after its SIGCONT",                                                                         // id, fault word, span, client, span, ms
		"sum.late.what.stretch": "step #%d (%s) lasted %s of scenario time instead of its planned %s",                                                                                                                                                         // id, fault word, span, span
		"sum.late.what.start":   "step #%d (%s) started %s of scenario time after its planned start",                                                                                                                                                          // id, fault word, span
		"sum.late.what.edge":    "the harness's timers due from t=%ss fired only at t=%ss (%.0f ms late, wall), a stretch over the %s of step #%d (%s) at t=%ss, in which %s's %s began: which of the two came first was the machine's doing, not the plan's", // t, t, ms, sum.late.edge.*, id, fault word, t, client, op word
		"sum.late.edge.start":   "start",
		"sum.late.edge.end":     "end",
		"run.lag.under.edge":    "; this run stayed under it, but a shorter lateness spoiled it all the same: %s", // sum.late.what.edge
	},
	"vi": {
		"sum.late.what.thaw":    "bước #%d (%s) kéo dài %s thời gian kịch bản đối với process của %s thay vì %s như kế hoạch: process không gửi gì trong %.0f ms (wall time) sau khi nhận SIGCONT",
		"sum.late.what.stretch": "bước #%d (%s) kéo dài %s thời gian kịch bản thay vì %s như kế hoạch",
		"sum.late.what.start":   "bước #%d (%s) bắt đầu muộn %s thời gian kịch bản so với kế hoạch",
		"sum.late.what.edge":    "các bộ hẹn giờ của harness đến hạn từ t=%ss chỉ chạy lúc t=%ss (trễ %.0f ms, wall time), một quãng trễ trùm lên %s của bước #%d (%s) lúc t=%ss, và trong quãng đó %s bắt đầu thao tác %s: việc nào đến trước là do máy quyết định, không phải do kế hoạch",
		"sum.late.edge.start":   "điểm bắt đầu",
		"sum.late.edge.end":     "điểm kết thúc",
		"run.lag.under.edge":    "; lần chạy này vẫn dưới mức đó, nhưng một độ trễ ngắn hơn vẫn làm hỏng nó: %s",
	},
}

func init() { addMessages(lateMessages, "messages_late.go") }
