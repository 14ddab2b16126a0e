package report

// The messages of `locksim explore`'s safety profile page (issue 29), one
// table per language like messages; init merges them into messages, so tr,
// the language list and TestEveryLanguageHasEveryKey see one catalogue.
var exploreMessages = map[Lang]map[string]string{
	"en": {
		"explore.page.title": "locksim — safety profile of %s", // algorithm
		"explore.title":      "Safety profile of %s",           // algorithm
		"explore.intro": "locksim explore ran the lock once with no fault, read from that run's account where its holds, lease expiries, renewals, grants and quorums were, and aimed a fault of every class that applies at them (lineage-driven fault injection: break what the success depended on; Alvaro et al., SIGMOD 2015), mixed with schedules drawn at random from the seed. " +
			"For each class it stopped at the first invalid run and shrank that schedule to the fewest faults and shortest durations still invalid in every one of %d seeds: the regression file.", // k
		"explore.caveat":          "“Survived” is evidence within this budget, not a proof: no schedule tried here broke the lock, but one not tried still may.",
		"explore.totals":          "%d classes broken, %d broken in some seeds only, %d survived, %d not reached within the budget — %d runs in %s s.", // broken, flaky, survived, untried, runs, seconds
		"explore.interrupted":     "INTERRUPTED — the exploration was stopped before its budget was spent",
		"explore.f.lock":          "Lock %s, workload",                                                                       // algorithm; the workload follows
		"explore.f.topology":      "%d nodes, %d clients, persistence %s",                                                    // nodes, clients, persistence
		"explore.f.replicas":      "%d replicas per node, %d sentinels",                                                      // replicas, sentinels
		"explore.f.fencing":       "the resource refuses stale fencing tokens",                                               //
		"explore.f.scales":        "TTL %gs, job %gs, a renewal every %gs in the fault-free run",                             // ttl, job, renewal
		"explore.f.norenewal":     "TTL %gs, job %gs; the lock renewed nothing in the fault-free run",                        // ttl, job
		"explore.f.seed":          "seed %d; budget %s, each shrink %s; a smallest schedule must be invalid in all %d seeds", // seed, budget, shrink budget, k
		"explore.f.shard":         "— shard %s: only its classes are here",                                                   // K/N
		"explore.f.shards":        "— merged from shards %s",                                                                 // list
		"explore.f.baseline":      "Fault-free run",
		"explore.f.reproduce":     "Explore again",
		"explore.baseline.broken": "The lock broke in the fault-free run itself: no fault is needed to break it, so no class was explored.",
		"explore.th.class":        "Fault class",
		"explore.th.result":       "Result",
		"explore.th.schedules":    "Schedules tried",
		"explore.th.ranges":       "Over these values",
		"explore.th.req":          "Lesson 42's requirements",
		"explore.th.minimal":      "Smallest failing schedule",
		"explore.st.broken":       "broken after %s s",                // seconds to the first violation
		"explore.st.flaky":        "broken in some seeds, after %s s", // seconds
		"explore.st.survived":     "survived %d schedules",            // valid runs
		"explore.st.untried":      "not reached within the budget",
		"explore.schedules":       "runs: %d — %d valid, %d invalid, %d unknown; %d aimed by the fault-free run, the rest drawn from the seed", // runs, valid, invalid, unknown, guided
		"explore.req.broken":      "%s broken",                                                                                                 // requirement
		"explore.req.kept":        "%s kept in %d runs",                                                                                        // requirement, runs
		"explore.min.faults":      "%d fault(s), invalid in every seed:",                                                                       // faults
		"explore.min.timeline":    "Timeline of the smallest schedule of %s",                                                                   // class
		"explore.min.file":        "regression file",
		"explore.min.report":      "report of its run",
		"explore.min.shrink":      "how it was shrunk",
		"explore.min.exhausted":   "The shrink's budget ran out: this is the smallest schedule found so far.",
		"explore.min.confirmed":   "Run again on fresh seeds: invalid with the same kinds in %d of %d.",                                                                              // confirmed, seeds
		"explore.abandoned":       "%d runs never ended and were abandoned (toxiproxy could not remove a toxic from a closing connection); their nodes stopped when locksim exited.", // runs
		"explore.flaky.note":      "No schedule of this class was invalid in all %d seeds, so no regression file was written. The first invalid run:",                                // k
		"explore.found.file":      "its scenario",
		"explore.h.na":            "Classes not explored",
		"explore.h.base":          "The fault-free scenario every schedule was added to",
		"explore.na.client-clock": "%s does not read the client's clock: a client clock fault changes nothing for it",      // algorithm
		"explore.na.monotonic":    "%s measures time on a monotonic clock: a step of the client's clock does not reach it", // algorithm
		"explore.na.renewals":     "%s renewed no lease in the fault-free run",                                             // algorithm
		"explore.na.failover":     "needs replicas and sentinels (--replicas 1 --sentinels 3)",
		"explore.na.replicas":     "needs replicas (--replicas 1)",
		"explore.na.backend":      "persistence %s needs real redis-server (the local backend)", // persistence
		"explore.na.persistence":  "the nodes' persistence was chosen: %s",                      // persistence
		"explore.na.parser":       "the scenario parser refuses its schedules:",
		"explore.na.not-chosen":   "not among the classes asked for (--classes)",
		"explore.na.other-shard":  "explored by shard %s", // K/N
	},
	"vi": {
		"explore.page.title": "locksim — hồ sơ an toàn của %s",
		"explore.title":      "Hồ sơ an toàn của %s",
		"explore.intro": "locksim explore chạy lock một lần không có lỗi nào, đọc từ bản kê của lần chạy đó các khoảng giữ lock, các lần lease hết hạn (expire), các lần gia hạn, các lần cấp lock và quorum, rồi nhắm một lỗi của mọi lớp áp dụng được vào đúng những chỗ đó (tiêm lỗi theo dòng dõi: phá đúng điều mà thành công dựa vào; Alvaro và cộng sự, SIGMOD 2015), xen với các lịch lỗi rút ngẫu nhiên từ seed. " +
			"Với mỗi lớp, nó dừng ở lần chạy vi phạm đầu tiên và thu gọn lịch lỗi đó thành ít lỗi nhất, thời lượng ngắn nhất mà vẫn vi phạm ở cả %d seed: đó là tệp kiểm thử hồi quy.",
		"explore.caveat":          "“Chịu được” là bằng chứng trong ngân sách này, không phải chứng minh: không lịch lỗi nào đã thử ở đây phá được lock, nhưng một lịch chưa thử vẫn có thể.",
		"explore.totals":          "%d lớp bị phá vỡ, %d lớp chỉ bị phá vỡ ở một số seed, %d lớp chịu được, %d lớp chưa tới lượt trong ngân sách — %d lần chạy trong %s s.",
		"explore.interrupted":     "BỊ DỪNG — việc khám phá bị dừng trước khi dùng hết ngân sách",
		"explore.f.lock":          "Lock %s, tải công việc",
		"explore.f.topology":      "%d node, %d client, persistence %s",
		"explore.f.replicas":      "%d replica mỗi node, %d sentinel",
		"explore.f.fencing":       "tài nguyên từ chối fencing token cũ",
		"explore.f.scales":        "TTL %gs, job %gs, gia hạn mỗi %gs trong lần chạy không lỗi",
		"explore.f.norenewal":     "TTL %gs, job %gs; lock không gia hạn lần nào trong lần chạy không lỗi",
		"explore.f.seed":          "seed %d; ngân sách %s, mỗi lần thu gọn %s; lịch lỗi nhỏ nhất phải vi phạm ở cả %d seed",
		"explore.f.shard":         "— shard %s: trang này chỉ có các lớp của nó",
		"explore.f.shards":        "— gộp từ các shard %s",
		"explore.f.baseline":      "Lần chạy không lỗi",
		"explore.f.reproduce":     "Khám phá lại",
		"explore.baseline.broken": "Lock đã bị phá vỡ ngay trong lần chạy không lỗi: không cần lỗi nào để phá nó, nên không lớp lỗi nào được thử.",
		"explore.th.class":        "Lớp lỗi",
		"explore.th.result":       "Kết quả",
		"explore.th.schedules":    "Các lịch lỗi đã thử",
		"explore.th.ranges":       "Trên các giá trị này",
		"explore.th.req":          "Các yêu cầu của bài 42",
		"explore.th.minimal":      "Lịch lỗi nhỏ nhất còn vi phạm",
		"explore.st.broken":       "bị phá vỡ sau %s s",
		"explore.st.flaky":        "bị phá vỡ ở một số seed, sau %s s",
		"explore.st.survived":     "chịu được %d lịch lỗi",
		"explore.st.untried":      "chưa tới lượt trong ngân sách",
		"explore.schedules":       "số lần chạy: %d — %d hợp lệ, %d vi phạm, %d chưa kết luận; %d lịch nhắm theo lần chạy không lỗi, còn lại rút từ seed",
		"explore.req.broken":      "%s bị phá vỡ",
		"explore.req.kept":        "%s được giữ trong %d lần chạy",
		"explore.min.faults":      "%d lỗi, vi phạm ở mọi seed:",
		"explore.min.timeline":    "Dòng thời gian của lịch lỗi nhỏ nhất của %s",
		"explore.min.file":        "tệp kiểm thử hồi quy",
		"explore.min.report":      "báo cáo của lần chạy",
		"explore.min.shrink":      "quá trình thu gọn",
		"explore.min.exhausted":   "Hết ngân sách thu gọn: đây là lịch lỗi nhỏ nhất tìm được đến lúc đó.",
		"explore.min.confirmed":   "Chạy lại với các seed mới: vi phạm với cùng các loại ở %d trên %d seed.",
		"explore.abandoned":       "%d lần chạy không bao giờ kết thúc và đã bị bỏ lại (toxiproxy không gỡ được một toxic khỏi kết nối đang đóng); các node của chúng dừng khi locksim thoát.",
		"explore.flaky.note":      "Không lịch lỗi nào của lớp này vi phạm ở cả %d seed, nên không có tệp kiểm thử hồi quy. Lần chạy vi phạm đầu tiên:",
		"explore.found.file":      "kịch bản của nó",
		"explore.h.na":            "Các lớp lỗi không được thử",
		"explore.h.base":          "Kịch bản không lỗi mà mọi lịch lỗi được thêm vào",
		"explore.na.client-clock": "%s không đọc đồng hồ của client: lỗi đồng hồ ở client không thay đổi gì với nó",
		"explore.na.monotonic":    "%s đo thời gian bằng đồng hồ đơn điệu (monotonic): một bước nhảy đồng hồ của client không tới được nó",
		"explore.na.renewals":     "%s không gia hạn lease nào trong lần chạy không lỗi",
		"explore.na.failover":     "cần replica và sentinel (--replicas 1 --sentinels 3)",
		"explore.na.replicas":     "cần replica (--replicas 1)",
		"explore.na.backend":      "persistence %s cần redis-server thật (backend local)",
		"explore.na.persistence":  "persistence của các node đã được chọn: %s",
		"explore.na.parser":       "trình đọc kịch bản từ chối các lịch lỗi của nó:",
		"explore.na.not-chosen":   "không nằm trong các lớp được yêu cầu (--classes)",
		"explore.na.other-shard":  "được thử ở shard %s",
	},
}

func init() { addMessages(exploreMessages, "messages_explore.go") }
