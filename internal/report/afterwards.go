package report

import (
	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// What a client did after a point the story tells as an end, rendered
// from claims (reader 14): a renewal its own release cut short (an extend
// claim's CutBy), a harmless overlap whose stale holder later had a write
// accepted (its Anomaly claim's Later, copied from the finding), a lost
// record it went on writing after (its Op claim's second record).

// harmPrevented says why an informational overlap did no harm, scoped to
// the overlap when its stale holder later had a write to the same key
// accepted (reader 14, stalled-job-failed-reason: "so no data was harmed"
// beside the same holder's failure record that overwrote the finished job
// at t=40.270 s, the run's violation). It renders the finding's Anomaly
// claim (checker.Claims: its Later, which the verifier checks), told at
// the later write's completion.
func (m *model) harmPrevented(lang Lang, a checker.Anomaly) string {
	text := tr(lang, "why.informational."+a.Harmless)
	c := checker.Claims([]checker.Result{{Anomalies: []checker.Anomaly{a}}})[0]
	if c.Later == nil || *c.Later < 0 || *c.Later >= len(m.h.Ops) {
		return text
	}
	if a.Harmless == checker.HarmlessIdempotent {
		text = tr(lang, "why.informational.idempotent.window")
	}
	return text + " " + tr(lang, "why.informational.later", c.Client, c.Key, instant(m.sec(m.h.Ops[*c.Later].Complete)))
}

// ended tells, from its claim, a client that lost its locks, finished, or
// was stopped.
func (n *narrator) ended(c claim.Claim, wrote bool) {
	lang, lost := n.lang, pick(wrote, "n.lost.wrote", "n.lost") // it went on writing: it did not stop
	switch {
	case c.What == string(history.Lost) && c.Key == "":
		n.add(c.Start, 2, StepLost, c, tr(lang, lost+".all", c.Client))
	case c.What == string(history.Lost):
		n.add(c.Start, 2, StepLost, c, tr(lang, lost, c.Client, c.Key))
	case c.What == string(history.Done) && c.Key == "":
		n.add(c.Start, 2, StepDone, c, tr(lang, "n.done.all", c.Client))
	case c.What == string(history.Done):
		n.add(c.Start, 2, StepDone, c, tr(lang, "n.done", c.Client, c.Key))
	case c.What == string(history.Stopped):
		n.add(c.Start, 2, StepDone, c, tr(lang, "n.stopped", c.Client, c.Key))
	}
}

// afterMessages are this file's sentences, one table per language, merged
// into messages at init (kept here so that other work on messages_en.go
// and messages_vi.go does not meet them).
var afterMessages = map[Lang]map[string]string{
	"en": {
		"n.lost.wrote":                        "%[1]s was told its lock on %[2]s was lost, but did not stop: it went on to write to %[2]s.",
		"n.lost.wrote.all":                    "%s was told its lock was lost, but did not stop: it went on to write.",
		"n.renew.cut":                         "%[1]s's watchdog stopped waiting for its renewal of the lock on %[2]s: %[1]s was releasing the lock, which cancelled the wait, so it never learned whether the renewal went through.",
		"n.renew.lib.cut":                     "%[1]s's lock library stopped waiting for its own renewal of the lock on %[2]s: %[1]s was releasing the lock, which cancelled the wait, so it never learned whether the renewal went through.",
		"n.extend.cut":                        "%[1]s stopped waiting for its extend of the lock on %[2]s: it was releasing the lock, which cancelled the wait, so it never learned whether the extend went through.",
		"why.informational.idempotent.window": "Harm prevented for the charges: the lock was broken, but the idempotency key let only one of the holders' charges through.",
		"why.informational.later":             "But afterwards the resource accepted a write of %s's to %s at t=%ss.", // stale client, key, t
	},
	"vi": {
		"n.lost.wrote":                        "%[1]s được báo là lock trên %[2]s đã mất, nhưng không dừng lại: nó vẫn tiếp tục ghi vào %[2]s.",
		"n.lost.wrote.all":                    "%s được báo là lock đã mất, nhưng không dừng lại: nó vẫn tiếp tục ghi.",
		"n.renew.cut":                         "Watchdog của %[1]s thôi chờ trả lời cho lần gia hạn lock trên %[2]s: %[1]s đang nhả lock nên việc chờ bị huỷ, và nó không biết lần gia hạn có thành công hay không.",
		"n.renew.lib.cut":                     "Thư viện lock của %[1]s thôi chờ trả lời cho lần tự gia hạn lock trên %[2]s: %[1]s đang nhả lock nên việc chờ bị huỷ, và nó không biết lần gia hạn có thành công hay không.",
		"n.extend.cut":                        "%[1]s thôi chờ trả lời cho lần gia hạn lock trên %[2]s: nó đang nhả lock nên việc chờ bị huỷ, và nó không biết lần gia hạn có thành công hay không.",
		"why.informational.idempotent.window": "Đã ngăn được tác hại cho các lần trừ tiền: lock bị phá vỡ, nhưng idempotency key chỉ cho một lần trừ tiền của các client giữ lock đi qua.",
		"why.informational.later":             "Nhưng sau đó tài nguyên đã nhận một lần ghi của %s vào %s lúc t=%ss.",
	},
}

func init() { addMessages(afterMessages, "afterwards.go") }
