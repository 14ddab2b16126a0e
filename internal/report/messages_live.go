package report

// The messages of a run told while it goes (locksim serve, live.go) and
// of faults fired by hand, one table per language like messages.go's and
// merged into it: every key in both (TestEveryLanguageHasEveryKey).
var liveMessages = map[Lang]map[string]string{
	"en": {
		"n.manual":      "It was fired by hand.", // appended to a fault's sentence
		"when.manual":   "by hand at t=%ss",      // seconds
		"live.running":  "running",
		"live.headline": "The run so far, to t=%ss of scenario time.", // seconds
		"dur.sofar":     "%s so far",                                  // duration
	},
	"vi": {
		"n.manual":      "Lỗi này được kích hoạt bằng tay.",
		"when.manual":   "bằng tay lúc t=%ss",
		"live.running":  "đang chạy",
		"live.headline": "Lần chạy cho đến lúc này, tới t=%ss thời gian kịch bản.",
		"dur.sofar":     "%s tính đến lúc này",
	},
}

func init() {
	for lang, table := range liveMessages {
		if messages[lang] == nil {
			messages[lang] = map[string]string{}
		}
		for k, v := range table {
			if _, dup := messages[lang][k]; dup {
				panic("report: message " + k + " is in messages_live.go and another table")
			}
			messages[lang][k] = v
		}
	}
}
