package serve

import (
	"fmt"

	"github.com/locksim/locksim/internal/report"
)

// messages are the words of locksim serve's own pages, one table per
// language the reports speak (report.Languages), every key in each
// (TestEveryPageMessageIsInEveryLanguage); the Vietnamese uses the
// glossary's terms (report.Glossary). Arguments are documented beside the
// English text.
var messages = map[report.Lang]map[string]string{
	"en": {
		"app.title":              "locksim — in class",
		"nav.catalogue":          "Catalogue",
		"nav.past":               "Past runs",
		"nav.lang":               "Language",
		"lang.en":                "English",
		"lang.vi":                "Tiếng Việt",
		"cat.title":              "Scenarios to run live",
		"cat.intro":              "Each scenario runs on real Redis nodes on this machine. Pick a pace, run it, and fire faults by hand while it goes.",
		"cat.lesson":             "Lesson %d — %s", // number, name
		"cat.broken":             "broken",
		"cat.fixed":              "fixed",
		"cat.field":              "Field reports",
		"cat.field.intro":        "Failures found in real lock libraries, each beside its fix.",
		"cat.own":                "Your scenarios: %s", // directory
		"cat.other":              "Other scenarios",
		"cat.none":               "No scenario file here.",
		"cat.invalid":            "This file does not load: %s", // error
		"cat.last":               "Last runs:",
		"cat.never":              "not run yet",
		"cat.expect":             "expected %s", // verdict word
		"run.pace":               "Pace",
		"pace.own":               "the file's own (×%s)", // time scale
		"pace.real":              "real time (×1)",
		"pace.slow":              "slowed (×0.5)",
		"run.predict":            "Ask the class first",
		"run.start":              "Run live",
		"run.title":              "%s — live", // scenario
		"run.live":               "LIVE",
		"run.seed":               "seed %d, time scale ×%s", // seed, scale
		"run.state.starting":     "Starting the Redis nodes and the clients…",
		"run.state.running":      "Running. Scenario time:",
		"run.state.checking":     "The run is over; checking its history…",
		"run.state.done":         "Done.",
		"run.state.failed":       "The run failed and has no verdict: %s", // error
		"run.state.waiting":      "Waiting for the class's answer.",
		"run.stop":               "Stop the run",
		"run.story":              "What happened so far",
		"run.timeline":           "Timeline so far",
		"run.faults":             "Faults by hand",
		"run.faults.intro":       "Each button fires the fault now, through the same fault kinds as a scenario file; the history records it as fired by hand.",
		"run.faults.owner":       "Only the browser that started this run can fire faults.",
		"run.for":                "for",
		"run.for.unit":           "s of scenario time (empty: until you end it)",
		"run.by":                 "by",
		"run.by.unit":            "s",
		"f.pause":                "pause %s",   // client
		"f.resume":               "resume %s",  // client
		"f.crash":                "crash %s",   // node
		"f.restart":              "restart %s", // node
		"f.jump.fwd":             "%s clock +", // client or node
		"f.jump.back":            "%s clock −", // client or node
		"f.cut":                  "cut",
		"f.heal":                 "heal",
		"f.link":                 "link",
		"f.both":                 "both ways",
		"f.replies":              "replies only",
		"f.clients":              "Clients",
		"f.nodes":                "Nodes",
		"f.links":                "Links",
		"f.fired":                "Fired by hand",
		"f.none":                 "none yet",
		"run.report":             "The report",
		"run.save":               "Save as scenario",
		"run.save.note":          "Writes this run, with the faults fired by hand at the times they fired, as a scenario file that replays it.",
		"run.saved":              "Saved: %s", // path
		"predict.q.other":        "Will two clients hold the lock at once?",
		"predict.intro":          "Ask the class before the run. Count the hands, type the numbers, then reveal: the run starts and answers. Nothing is stored.",
		"predict.yes":            "yes",
		"predict.no":             "no",
		"predict.depends":        "it depends",
		"predict.reveal":         "Reveal: run it",
		"predict.class":          "The class said: yes %s, no %s, it depends %s.",             // counts
		"predict.answer.yes":     "This run (seed %d) answers: yes.",                          // seed
		"predict.answer.no":      "This run (seed %d) answers: no.",                           // seed
		"predict.answer.unknown": "This run (seed %d) cannot answer: its verdict is UNKNOWN.", // seed
		"predict.depends.note":   "“It depends” is the lesson's answer: on the pause against the TTL, the lock and the resource.",
		"past.title":             "Past runs in %s", // directory
		"past.filter":            "Show",
		"past.lesson":            "lesson",
		"past.verdict":           "verdict",
		"past.any":               "any",
		"past.apply":             "Filter",
		"past.when":              "When",
		"past.scenario":          "Scenario",
		"past.seed":              "Seed",
		"past.verdict.h":         "Verdict",
		"past.lessons":           "Lessons",
		"past.open":              "open",
		"past.none":              "No run matches.",
		"past.more":              "Showing the newest %d of %d runs.", // shown, total
		"report.title":           "Report: %s",                        // scenario
		"err.title":              "locksim serve",
		"err.notfound":           "There is nothing here.",
		"err.back":               "Back to the catalogue",
		"err.busy":               "%d runs are going on this machine, the most at once; start this one when one ends.", // limit
		"err.yours":              "This browser already has a run going: %s.",                                          // link
		"err.token":              "The page's security token is missing or wrong: reload the page and try again.",
	},
	"vi": {
		"app.title":              "locksim — trên lớp",
		"nav.catalogue":          "Danh mục",
		"nav.past":               "Các lần chạy trước",
		"nav.lang":               "Ngôn ngữ",
		"lang.en":                "English",
		"lang.vi":                "Tiếng Việt",
		"cat.title":              "Kịch bản để chạy trực tiếp",
		"cat.intro":              "Mỗi kịch bản chạy trên các node Redis thật ngay trên máy này. Chọn tốc độ, chạy, và gây lỗi bằng tay trong lúc nó chạy.",
		"cat.lesson":             "Bài %d — %s",
		"cat.broken":             "bị lỗi",
		"cat.fixed":              "bản đã sửa",
		"cat.field":              "Báo cáo từ thực tế",
		"cat.field.intro":        "Những lỗi tìm thấy trong các thư viện lock thật, mỗi lỗi bên cạnh cách sửa.",
		"cat.own":                "Kịch bản của bạn: %s",
		"cat.other":              "Các kịch bản khác",
		"cat.none":               "Không có tệp kịch bản nào ở đây.",
		"cat.invalid":            "Không nạp được tệp này: %s",
		"cat.last":               "Các lần chạy gần nhất:",
		"cat.never":              "chưa chạy lần nào",
		"cat.expect":             "kỳ vọng %s",
		"run.pace":               "Tốc độ",
		"pace.own":               "theo tệp (×%s)",
		"pace.real":              "wall time (×1)",
		"pace.slow":              "chậm lại (×0,5)",
		"run.predict":            "Hỏi cả lớp trước",
		"run.start":              "Chạy trực tiếp",
		"run.title":              "%s — trực tiếp",
		"run.live":               "TRỰC TIẾP",
		"run.seed":               "seed %d, tỉ lệ thời gian ×%s",
		"run.state.starting":     "Đang khởi động các node Redis và các client…",
		"run.state.running":      "Đang chạy. Thời gian kịch bản:",
		"run.state.checking":     "Lần chạy đã xong; đang kiểm tra lịch sử…",
		"run.state.done":         "Xong.",
		"run.state.failed":       "Lần chạy thất bại và không có kết luận: %s",
		"run.state.waiting":      "Đang chờ câu trả lời của cả lớp.",
		"run.stop":               "Dừng lần chạy",
		"run.story":              "Chuyện gì đã xảy ra cho đến giờ",
		"run.timeline":           "Dòng thời gian cho đến giờ",
		"run.faults":             "Gây lỗi bằng tay",
		"run.faults.intro":       "Mỗi nút gây lỗi ngay lúc này, qua đúng các loại lỗi của tệp kịch bản; lịch sử ghi lại rằng lỗi được kích hoạt bằng tay.",
		"run.faults.owner":       "Chỉ trình duyệt đã bắt đầu lần chạy này mới gây lỗi được.",
		"run.for":                "trong",
		"run.for.unit":           "s thời gian kịch bản (để trống: đến khi bạn kết thúc nó)",
		"run.by":                 "thêm",
		"run.by.unit":            "s",
		"f.pause":                "đóng băng %s",
		"f.resume":               "cho %s chạy tiếp",
		"f.crash":                "crash %s",
		"f.restart":              "khởi động lại %s",
		"f.jump.fwd":             "đồng hồ %s +",
		"f.jump.back":            "đồng hồ %s −",
		"f.cut":                  "cắt",
		"f.heal":                 "nối lại",
		"f.link":                 "đường nối",
		"f.both":                 "cả hai chiều",
		"f.replies":              "chỉ phản hồi",
		"f.clients":              "Các client",
		"f.nodes":                "Các node",
		"f.links":                "Các đường nối",
		"f.fired":                "Đã kích hoạt bằng tay",
		"f.none":                 "chưa có",
		"run.report":             "Báo cáo",
		"run.save":               "Lưu thành kịch bản",
		"run.save.note":          "Ghi lần chạy này, cùng các lỗi đã kích hoạt bằng tay đúng vào lúc chúng xảy ra, thành một tệp kịch bản chạy lại được nó.",
		"run.saved":              "Đã lưu: %s",
		"predict.q.other":        "Có hai client cùng giữ lock một lúc không?",
		"predict.intro":          "Hỏi cả lớp trước khi chạy. Đếm số cánh tay, nhập các con số, rồi công bố: lần chạy bắt đầu và trả lời. Không có gì được lưu lại.",
		"predict.yes":            "có",
		"predict.no":             "không",
		"predict.depends":        "còn tuỳ",
		"predict.reveal":         "Công bố: chạy ngay",
		"predict.class":          "Cả lớp trả lời: có %s, không %s, còn tuỳ %s.",
		"predict.answer.yes":     "Lần chạy này (seed %d) trả lời: có.",
		"predict.answer.no":      "Lần chạy này (seed %d) trả lời: không.",
		"predict.answer.unknown": "Lần chạy này (seed %d) không trả lời được: kết luận là CHƯA KẾT LUẬN.",
		"predict.depends.note":   "“Còn tuỳ” là câu trả lời của bài học: tuỳ vào thời gian dừng so với TTL, vào lock và vào tài nguyên.",
		"past.title":             "Các lần chạy trước trong %s",
		"past.filter":            "Hiển thị",
		"past.lesson":            "bài",
		"past.verdict":           "kết luận",
		"past.any":               "tất cả",
		"past.apply":             "Lọc",
		"past.when":              "Lúc",
		"past.scenario":          "Kịch bản",
		"past.seed":              "Seed",
		"past.verdict.h":         "Kết luận",
		"past.lessons":           "Bài",
		"past.open":              "mở",
		"past.none":              "Không có lần chạy nào khớp.",
		"past.more":              "Đang hiển thị %d lần chạy mới nhất trong %d.",
		"report.title":           "Báo cáo: %s",
		"err.title":              "locksim serve",
		"err.notfound":           "Không có gì ở đây.",
		"err.back":               "Quay lại danh mục",
		"err.busy":               "Máy này đang chạy %d lần chạy, mức tối đa cùng lúc; hãy bắt đầu khi có một lần chạy kết thúc.",
		"err.yours":              "Trình duyệt này đã có một lần chạy đang diễn ra: %s.",
		"err.token":              "Mã bảo mật của trang bị thiếu hoặc sai: hãy tải lại trang và thử lại.",
	},
}

// t is the message key in lang (English when lang has none), formatted
// with args.
func t(lang report.Lang, key string, args ...any) string {
	f, ok := messages[lang][key]
	if !ok {
		f, ok = messages[report.English][key]
	}
	if !ok {
		f = key
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}
