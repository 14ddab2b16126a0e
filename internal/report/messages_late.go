package report

// The words of a fault step that missed its plan and so made a run's
// timing lost (issue 32; coverage's Result.Late), the "what" of sum.stall
// and sum.stall.stands. One table per language like messages; init merges
// them into messages.
var lateMessages = map[Lang]map[string]string{
	"en": {
		"sum.late.what.thaw":    "step #%d (%s) lasted %s of scenario time for %s's process instead of its planned %s: the process said nothing for %.0f ms (wall) after its SIGCONT", // id, fault word, span, client, span, ms
		"sum.late.what.stretch": "step #%d (%s) lasted %s of scenario time instead of its planned %s",                                                                                 // id, fault word, span, span
		"sum.late.what.start":   "step #%d (%s) started %s of scenario time after its planned start",                                                                                  // id, fault word, span
	},
	"vi": {
		"sum.late.what.thaw":    "bước #%d (%s) kéo dài %s thời gian kịch bản đối với process của %s thay vì %s như kế hoạch: process không gửi gì trong %.0f ms (wall time) sau khi nhận SIGCONT",
		"sum.late.what.stretch": "bước #%d (%s) kéo dài %s thời gian kịch bản thay vì %s như kế hoạch",
		"sum.late.what.start":   "bước #%d (%s) bắt đầu muộn %s thời gian kịch bản so với kế hoạch",
	},
}

func init() { addMessages(lateMessages, "messages_late.go") }
