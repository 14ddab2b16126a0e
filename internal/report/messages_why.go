package report

// The messages of a run's causes by experiment (why.go, package why), one
// table per language like messages.go's and merged into it: every key in
// both (TestEveryLanguageHasEveryKey).
var whyMessages = map[Lang]map[string]string{
	"en": {
		"why.fault":                   "%s at t=%ss",                                              // fault (faultOf), seconds
		"why.fault.when":              "%s (%s)",                                                  // fault (faultOf), when it was planned
		"why.step":                    "step #%d",                                                 // plan step ID
		"why.item":                    "%s (%s)",                                                  // fault, reproduce command
		"why.or":                      ", or without ",                                            // between items of why.without
		"why.without":                 "Without %s, the same seed is valid.",                      // items
		"why.half":                    "With it %s long instead of %s, the same seed is %s (%s).", // new, old length, verdict, command
		"why.half.short":              "With it %s long instead of %s, the same seed is %s.",      // new, old length, verdict
		"why.half.named":              "With %s %s long instead of %s, the same seed is %s (%s).", // fault (why.fault.short), new, old length, verdict, command
		"why.half.named.short":        "With %s %s long instead of %s, the same seed is %s.",      // fault, new, old length, verdict
		"why.fault.short":             "%s's %s",                                                  // targets, fault word
		"why.none":                    "Without any one of its faults the same seed is still invalid: no single fault alone was necessary.",
		"why.verdict.valid":           "valid",
		"why.verdict.invalid":         "invalid",
		"why.verdict.unknown":         "unknown (the run proves nothing)",
		"h.why":                       "Causes by experiment",
		"why.note":                    "Each row is a real run of the same seed with one change. A seed fixes the fault plan and every random choice, not which of two clients trying at the same instant the machine runs first, so an experiment may interleave such clients in another order. A fault was necessary when the same seed is valid without it.",
		"why.col.change":              "Experiment",
		"why.col.kinds":               "Anomalies",
		"why.kinds.info.only":         "no violation; informational: %s (not a safety violation)", // informational kinds
		"why.kinds.info":              "%s; informational: %s (not a safety violation)",           // violation kinds, informational kinds
		"why.col.meaning":             "Meaning",
		"why.col.reproduce":           "Reproduce",
		"why.change.without":          "without %s",              // fault
		"why.change.half":             "%s, %s long instead",     // fault, new length
		"why.change.fix":              "%s with the same faults", // fix scenario name
		"why.necessary":               "necessary",
		"why.notnecessary":            "not necessary",
		"why.undecided":               "undecided",
		"why.noverdict":               "no verdict: %s", // error
		"why.report":                  "report",
		"why.fix.valid":               "Tried: %s with the same faults and seed is valid (%s).", // scenario name, command
		"why.fix.invalid":             "Tried: %s with the same faults and seed is still invalid (%s).",
		"why.fix.partial":             "Tried: %[1]s, with %[2]s and the same seed, is still invalid, with fewer anomalies. Gone: %[3]s. Still shown: %[4]s (%[5]s).", // scenario name, its faults (why.fixfaults.*), kinds gone, kinds shown, command
		"why.fix.invalid.kinds":       "Tried: %[1]s, with %[2]s and the same seed, is still invalid: %[3]s (%[4]s).",                                                 // scenario name, its faults, kinds shown, command
		"why.fixfaults.same":          "the same faults",
		"why.fix.noeffect":            "But no %s was accepted in that run: it shows no harm done, not that the fix made one safe.", // the workload's protected write
		"why.fix.unknown":             "Tried: %s with the same faults and seed came out unknown, which proves nothing (%s).",
		"why.change.fix.own":          "%s, with %s", // fix scenario name, its faults (why.fixfaults.*)
		"why.fixfaults.own":           "faults of its own, not this run's",
		"why.fixfaults.lacks":         "this run's faults without %s",             // steps
		"why.fixfaults.changed":       "this run's faults but %s",                 // changed steps (why.changed.*)
		"why.fixfaults.lacks.changed": "this run's faults without %s and with %s", // steps, changed steps
		"why.changed.duration":        "lasting %s instead of %s",                 // the fix's, the run's
		"why.changed.rate":            "at rate %s instead of %s",
		"why.changed.delta":           "by %s instead of %s",
		"why.changed.latency":         "with latency %s instead of %s",
		"why.changed.other":           "with its %s changed",                                                                                                  // the changed fields, as in a scenario's faults
		"why.control.valid":           "With the same seed it is valid (%[2]s): the violation needs the faults it leaves out; leaving them out is no remedy.", // scenario name, command
		"why.control.invalid":         "With the same seed it is still invalid (%[2]s): the violation does not need the faults it leaves out.",
		"why.control.unknown":         "With the same seed it came out unknown, which proves nothing (%[2]s).",
		"why.fixown.valid":            "Tried: %s, with %s, is valid with the same seed (%s).", // scenario name, its faults, command
		"why.fixown.invalid":          "Tried: %s, with %s, is still invalid with the same seed (%s).",
		"why.fixown.unknown":          "Tried: %s, with %s, came out unknown with the same seed, which proves nothing (%s).",
		"why.fired.holding":           "There %[1]s came at t=%[2]ss, after %[3]s's acquire had returned: %[3]s held the lock then.", // fault (why.fault.short), seconds in the fix's run, client
		"why.fired.acquiring":         "There %[1]s came at t=%[2]ss, while %[3]s's acquire was still running.",
		"why.fired.idle":              "There %[1]s came at t=%[2]ss, while %[3]s held no lock and had no acquire running.",
		"why.fired.node":              "There %[1]s came at t=%[2]ss.",
	},
	"vi": {
		"why.fault":            "%s lúc t=%ss",
		"why.fault.when":       "%s (%s)",
		"why.step":             "bước #%d",
		"why.item":             "%s (%s)",
		"why.or":               ", hoặc không có ",
		"why.without":          "Nếu không có %s, thì cùng seed đó cho kết quả hợp lệ.",
		"why.half":             "Khi lỗi đó chỉ kéo dài %s thay vì %s, cùng seed đó cho kết quả %s (%s).",
		"why.half.short":       "Khi lỗi đó chỉ kéo dài %s thay vì %s, cùng seed đó cho kết quả %s.",
		"why.half.named":       "Khi %s chỉ kéo dài %s thay vì %s, cùng seed đó cho kết quả %s (%s).",
		"why.half.named.short": "Khi %s chỉ kéo dài %s thay vì %s, cùng seed đó cho kết quả %s.",
		"why.fault.short":      "%[2]s của %[1]s",
		// A fault named with whose it is, as a noun (faultOf): "client bị
		// crash của w1" read as "the crashed client of w1" (teacher9 F1).
		"whose.pause":                 "lần tạm dừng của %s",
		"whose.pause.gc":              "GC pause của %s",
		"whose.pause.event-loop":      "lần chặn event loop của %s",
		"whose.pause.sleep":           "lần máy (host) tạm ngủ (sleep) dừng %s",
		"whose.pause.stop":            "SIGSTOP gửi tới %s",
		"whose.partition":             "lần chia cắt mạng của %s",
		"whose.latency":               "độ trễ mạng của %s",
		"whose.reset":                 "lần reset kết nối của %s",
		"whose.crash":                 "lần crash của node %s",
		"whose.pause-node":            "lần đóng băng node %s",
		"whose.clock-jump":            "lần nhảy đồng hồ của %s",
		"whose.clock-rate":            "drift tốc độ đồng hồ của %s",
		"whose.starve-renewals":       "lần bỏ đói bộ gia hạn (renewer) của %s",
		"whose.crash-client":          "lần crash của client %s",
		"whose.delete-key":            "lần xoá key trên %s",
		"whose.failover":              "lần failover của %s",
		"whose.replication-lag":       "độ trễ sao chép của %s",
		"whose.bandwidth":             "giới hạn băng thông của %s",
		"whose.slicer":                "lần cắt nhỏ gói tin của %s",
		"whose.limit-data":            "giới hạn dữ liệu của %s",
		"whose.slow-close":            "lần đóng kết nối chậm của %s",
		"whose.timeout":               "lần hết thời gian kết nối của %s",
		"whose.restart-client":        "lần khởi động lại của client %s",
		"why.none":                    "Bỏ riêng bất kỳ lỗi nào, cùng seed đó vẫn vi phạm: không lỗi đơn lẻ nào là điều kiện cần.",
		"why.verdict.valid":           "hợp lệ",
		"why.verdict.invalid":         "vi phạm",
		"why.verdict.unknown":         "chưa kết luận (lần chạy không chứng minh được gì)",
		"h.why":                       "Nguyên nhân qua thực nghiệm",
		"why.note":                    "Mỗi dòng là một lần chạy thật với cùng seed và đúng một thay đổi. Seed cố định kế hoạch lỗi và mọi lựa chọn ngẫu nhiên, nhưng không cố định việc máy chạy trước client nào khi hai client thử cùng một lúc, nên một thí nghiệm có thể xếp các client đó theo thứ tự khác. Một lỗi là điều kiện cần khi bỏ nó đi thì cùng seed đó hợp lệ.",
		"why.col.change":              "Thực nghiệm",
		"why.col.kinds":               "Bất thường",
		"why.kinds.info.only":         "không có vi phạm; chỉ để tham khảo: %s (không phải vi phạm an toàn)",
		"why.kinds.info":              "%s; chỉ để tham khảo: %s (không phải vi phạm an toàn)",
		"why.col.meaning":             "Ý nghĩa",
		"why.col.reproduce":           "Chạy lại",
		"why.change.without":          "không có %s",
		"why.change.half":             "%s, chỉ kéo dài %s",
		"why.change.fix":              "%s với cùng các lỗi",
		"why.fix.noeffect":            "Nhưng trong lần chạy đó không có %s nào được chấp nhận: nó chỉ cho thấy không có hại gì xảy ra, không cho thấy bản sửa đã làm cho thao tác đó an toàn.",
		"why.necessary":               "điều kiện cần",
		"why.notnecessary":            "không phải điều kiện cần",
		"why.undecided":               "chưa rõ",
		"why.noverdict":               "không có kết luận: %s",
		"why.report":                  "báo cáo",
		"why.fix.valid":               "Đã thử: %s với cùng các lỗi và cùng seed cho kết quả hợp lệ (%s).",
		"why.fix.invalid":             "Đã thử: %s với cùng các lỗi và cùng seed vẫn vi phạm (%s).",
		"why.fix.partial":             "Đã thử: %[1]s, với %[2]s và cùng seed, vẫn vi phạm nhưng ít bất thường hơn. Không còn: %[3]s. Vẫn còn: %[4]s (%[5]s).",
		"why.fix.invalid.kinds":       "Đã thử: %[1]s, với %[2]s và cùng seed, vẫn vi phạm: %[3]s (%[4]s).",
		"why.fixfaults.same":          "cùng các lỗi",
		"why.fix.unknown":             "Đã thử: %s với cùng các lỗi và cùng seed chưa kết luận được, nên không chứng minh được gì (%s).",
		"why.change.fix.own":          "%s, với %s",
		"why.fixfaults.own":           "các lỗi của riêng nó, không phải của lần chạy này",
		"why.fixfaults.lacks":         "các lỗi của lần chạy này nhưng không có %s",
		"why.fixfaults.changed":       "các lỗi của lần chạy này nhưng %s",
		"why.fixfaults.lacks.changed": "các lỗi của lần chạy này nhưng không có %s và với %s",
		"why.changed.duration":        "kéo dài %s thay vì %s",
		"why.changed.rate":            "với tốc độ %s thay vì %s",
		"why.changed.delta":           "lệch %s thay vì %s",
		"why.changed.latency":         "với độ trễ %s thay vì %s",
		"why.changed.other":           "với %s đã đổi",
		"why.control.valid":           "Với cùng seed nó cho kết quả hợp lệ (%[2]s): vi phạm cần đến các lỗi mà nó bỏ đi; bỏ chúng đi không phải là cách sửa.",
		"why.control.invalid":         "Với cùng seed nó vẫn vi phạm (%[2]s): vi phạm không cần đến các lỗi mà nó bỏ đi.",
		"why.control.unknown":         "Với cùng seed nó chưa kết luận được, nên không chứng minh được gì (%[2]s).",
		"why.fixown.valid":            "Đã thử: %s, với %s, cho kết quả hợp lệ với cùng seed (%s).",
		"why.fixown.invalid":          "Đã thử: %s, với %s, vẫn vi phạm với cùng seed (%s).",
		"why.fixown.unknown":          "Đã thử: %s, với %s, chưa kết luận được với cùng seed, nên không chứng minh được gì (%s).",
		"why.fired.holding":           "Ở lần chạy đó, %[1]s xảy ra lúc t=%[2]ss, sau khi lần lấy lock của %[3]s đã trả về: khi ấy %[3]s đang giữ lock.",
		"why.fired.acquiring":         "Ở lần chạy đó, %[1]s xảy ra lúc t=%[2]ss, khi lần lấy lock của %[3]s vẫn đang chạy.",
		"why.fired.idle":              "Ở lần chạy đó, %[1]s xảy ra lúc t=%[2]ss, khi %[3]s không giữ lock và không có lần lấy lock nào đang chạy.",
		"why.fired.node":              "Ở lần chạy đó, %[1]s xảy ra lúc t=%[2]ss.",
	},
}

func init() { addMessages(whyMessages, "messages_why.go") }
