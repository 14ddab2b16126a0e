package report

import (
	"sort"
	"strings"
)

// FixChange is one field of a fixed_by scenario that differs from the
// run's scenario's (Fixed.Changes): its path as scenario.Flatten names it,
// and its two values.
type FixChange struct {
	Field, From, To string
}

// FixChanges are the fields the fix in ff changes against the run's
// scenario in bf (each scenario.Flatten of the normalised file), leaving
// out what names, describes or judges a scenario and its faults (Fixed.
// Faults tells those): the lock, its TTL, min_hold, the time scale… in
// path order (reader 16, F3: "a changed lock" of a fix that changed its
// TTL, min_hold and time scale too). nil when either is not at hand.
func FixChanges(bf, ff map[string]string) []FixChange {
	if bf == nil || ff == nil {
		return nil
	}
	skip := func(k string) bool {
		for _, p := range []string{"name", "description", "description_vi", "seed", "fixed_by", "expect_live"} {
			if k == p {
				return true
			}
		}
		for _, p := range []string{"expect.", "expect[", "faults[", "faults.", "lessons"} {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return k == "expect" || k == "faults"
	}
	keys := map[string]bool{}
	for k := range bf {
		keys[k] = true
	}
	for k := range ff {
		keys[k] = true
	}
	var out []FixChange
	for k := range keys {
		if !skip(k) && bf[k] != ff[k] {
			out = append(out, FixChange{Field: k, From: bf[k], To: ff[k]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// fixWith is what a fixed_by scenario that declares the run's faults
// keeps and changes, for fix.fixed.untried and fix.fixed.spoiled: "the
// same faults" only when the run had some ("the same clients and
// schedule" when it had none: reader 15 and 16), and what it changes as
// its file does (Fixed.Changes), "a changed lock" only when that is not
// known.
func fixWith(lang Lang, in Input) string {
	same := "fix.with.faults"
	if len(in.History.Header.Plan) == 0 && len(in.History.Faults()) == 0 {
		same = "fix.with.nofaults"
	}
	if in.FixedBy == nil || len(in.FixedBy.Changes) == 0 {
		return tr(lang, same, tr(lang, "fix.with.lock"))
	}
	var words []string
	for _, c := range in.FixedBy.Changes {
		from, to := c.From, c.To
		if from == "" {
			from = tr(lang, "fix.change.unset")
		}
		if to == "" {
			to = tr(lang, "fix.change.unset")
		}
		key := "fix.change." + c.Field
		if _, ok := messages[English][key]; !ok {
			words = append(words, tr(lang, "fix.change.other", c.Field, from, to))
			continue
		}
		words = append(words, tr(lang, key, from, to))
	}
	return tr(lang, same, tr(lang, "fix.with.changes", joinAnd(lang, words)))
}

// fixChangesMessages are fixWith's words. One table per language, merged
// into messages: every key in both (TestEveryLanguageHasEveryKey).
var fixChangesMessages = map[Lang]map[string]string{
	"en": {
		"fix.with.faults":        "with the same faults and %s",                                        // fix.with.lock or fix.with.changes
		"fix.with.nofaults":      "with the same clients and schedule (this run had no faults) and %s", // fix.with.lock or fix.with.changes
		"fix.with.lock":          "a changed lock",                                                     //
		"fix.with.changes":       "these changes: %s",                                                  // fix.change.* joined
		"fix.change.algorithm":   "the lock (%s → %s)",                                                 // from, to
		"fix.change.ttl":         "the TTL (%s → %s)",                                                  // from, to
		"fix.change.min_hold":    "min_hold (%s → %s)",                                                 // from, to
		"fix.change.time_scale":  "the time scale (%s → %s)",                                           // from, to
		"fix.change.duration":    "the duration (%s → %s)",                                             // from, to
		"fix.change.retry_delay": "the retry delay (%s → %s)",                                          // from, to
		"fix.change.other":       "%s (%s → %s)",                                                       // field, from, to
		"fix.change.unset":       "not set",                                                            //
	},
	"vi": {
		"fix.with.faults":        "cùng các lỗi và %s",
		"fix.with.nofaults":      "cùng các client và lịch chạy (lần chạy này không có lỗi nào) và %s",
		"fix.with.lock":          "đổi cách lock",
		"fix.with.changes":       "những thay đổi sau: %s",
		"fix.change.algorithm":   "cách lock (%s → %s)",
		"fix.change.ttl":         "TTL (%s → %s)",
		"fix.change.min_hold":    "min_hold (%s → %s)",
		"fix.change.time_scale":  "hệ số nén thời gian time_scale (%s → %s)",
		"fix.change.duration":    "thời lượng (%s → %s)",
		"fix.change.retry_delay": "khoảng chờ thử lại (%s → %s)",
		"fix.change.other":       "%s (%s → %s)",
		"fix.change.unset":       "không đặt",
	},
}

func init() { addMessages(fixChangesMessages, "fixchanges.go") }
