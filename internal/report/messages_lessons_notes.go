package report

// The messages that say, on a lesson page, where each run its words name
// is (issue 34, teacher7 F1, F2, F5, F24, F25; reader7 F5, F15): in the
// suite, only an experiment of one of its runs, or not run at all.
var lessonNoteMessages = map[Lang]map[string]string{
	"en": {
		"lesson.note.head":               "Runs named here, in this suite:",
		"lesson.note.suite":              "%s (%s)",                                                                                                                                                    // counts by verdict, seeds
		"lesson.note.why":                "run only as an experiment of %s (seed %d), %s",                                                                                                              // broken scenario, seed, verdict
		"lesson.note.none":               "Not run in this suite: %s.",                                                                                                                                 // scenario files
		"lesson.missing.fixed.why":       "The fix of %s, %s, was run in this suite only as an experiment of that run (seed %d): %s.",                                                                  // broken, fixed file, seed, verdict
		"lesson.missing.contrast.why":    "The contrast of %s, %s, not a fix, was run in this suite only as an experiment of that run (seed %d): %s.",                                                  // broken, contrast file, seed, verdict
		"lesson.missing.control.why":     "The control of %s, %s, not a fix, was run in this suite only as an experiment of that run (seed %d): %s.",                                                   // broken, control file, seed, verdict
		"lesson.missing.partial.why":     "The fix of %s, %s, is a partial fix, expected to stay invalid (%s): it was run in this suite only as an experiment of that run (seed %d): %s, as expected.", // broken, fixed file, expected kinds, seed, verdict
		"lesson.missing.partial.gone":    "What it fixes: it no longer showed %s.",                                                                                                                     // kinds of the broken run the fix did not show
		"lesson.missing.open":            "open the experiment's report",
		"lesson.missing.lessonpair.none": "Neither %s nor %s was run in this suite; run both files together to see them side by side.",                                                       // broken, fix or contrast file
		"lesson.missing.lessonpair.one":  "%s was run in this suite, but not %s; run both files together to see them side by side.",                                                          // the file run, the file not run
		"lesson.card.count":              "%d runs of this file in this suite (%s): %s; this card shows seed %d.",                                                                            // runs, seeds, counts by verdict, seed
		"lesson.card.alone.fixed":        "The fix of %s; that file was not run in this suite.",                                                                                              // broken file
		"lesson.card.alone.contrast":     "The contrast of %s, not a fix; that file was not run in this suite.",                                                                              // broken file
		"lesson.card.alone.control":      "The control of %s, not a fix; that file was not run in this suite.",                                                                               // broken file
		"lesson.card.few":                "Valid in %d of %d runs (%s): fewer than %d seeds show what happened in these runs, not how often it holds; run locksim run %s --count %d to see.", // valid, runs, seeds, min, file, min
	},
	"vi": {
		"lesson.note.head":               "Các lần chạy được nhắc tới ở đây, trong bộ này:",
		"lesson.note.suite":              "%s (%s)",
		"lesson.note.why":                "chỉ được chạy như một thí nghiệm của %s (seed %d), %s",
		"lesson.note.none":               "Không được chạy trong bộ này: %s.",
		"lesson.missing.fixed.why":       "Bản sửa của %s, %s, chỉ được chạy trong bộ này như một thí nghiệm của lần chạy đó (seed %d): %s.",
		"lesson.missing.contrast.why":    "Bản đối chiếu của %s, %s, không phải bản sửa, chỉ được chạy trong bộ này như một thí nghiệm của lần chạy đó (seed %d): %s.",
		"lesson.missing.control.why":     "Bản đối chứng của %s, %s, không phải bản sửa, chỉ được chạy trong bộ này như một thí nghiệm của lần chạy đó (seed %d): %s.",
		"lesson.missing.partial.why":     "Bản sửa của %s, %s, là một bản sửa một phần, dự kiến vẫn vi phạm (%s): nó chỉ được chạy trong bộ này như một thí nghiệm của lần chạy đó (seed %d): %s, đúng kỳ vọng.",
		"lesson.missing.partial.gone":    "Điều nó sửa được: nó không còn cho thấy %s.",
		"lesson.missing.open":            "mở báo cáo của thí nghiệm",
		"lesson.missing.lessonpair.none": "Cả %s lẫn %s đều không được chạy trong bộ này; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.missing.lessonpair.one":  "%s có được chạy trong bộ này, nhưng %s thì không; hãy chạy cả hai file cùng nhau để xem chúng cạnh nhau.",
		"lesson.card.count":              "%d lần chạy của file này trong bộ này (%s): %s; thẻ này cho thấy seed %d.",
		"lesson.card.alone.fixed":        "Bản sửa của %s; file đó không được chạy trong bộ này.",
		"lesson.card.alone.contrast":     "Bản đối chiếu của %s, không phải bản sửa; file đó không được chạy trong bộ này.",
		"lesson.card.alone.control":      "Bản đối chứng của %s, không phải bản sửa; file đó không được chạy trong bộ này.",
		"lesson.card.few":                "Hợp lệ trong %d trên %d lần chạy (%s): ít hơn %d seed chỉ cho thấy điều đã xảy ra trong các lần chạy này, không cho thấy nó đúng thường xuyên đến đâu; hãy chạy locksim run %s --count %d để xem.",
	},
}

func init() { addMessages(lessonNoteMessages, "messages_lessons_notes.go") }
