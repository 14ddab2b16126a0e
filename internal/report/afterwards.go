package report

import (
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/history"
)

// What a client did after a point the story tells as an end: a renewal
// its own release cut short, a harmless overlap whose stale holder later
// had a write accepted (reader 14). (A lost record it went on writing
// after is its Op claim's second record: Account.wroteAfterLost.)

// cutByRelease reports whether extend o's wait for its reply was
// cancelled by its client's own release: it ended in a cancelled context,
// and a release (or the end of the work) of the same client and key began
// while it was in flight. Its node may well have run it: it is not a
// renewal the lock refused (reader 14, stalled-job-failed-reason-half-1:
// n1 ran w1's renewal while the key was still w1's).
func cutByRelease(ops []history.Op, o history.Op) bool {
	if o.Type == history.OK || !strings.Contains(o.Error, "context canceled") {
		return false
	}
	for _, r := range ops {
		if r.Client == o.Client && r.Key == o.Key && (r.F == history.Release || r.F == history.Done) &&
			r.Invoke >= o.Invoke && r.Invoke <= o.Complete {
			return true
		}
	}
	return false
}

// harmPrevented says why an informational overlap did no harm, scoped to
// the overlap where its stale holder later had a write to the same key
// accepted (reader 14, stalled-job-failed-reason: "so no data was harmed"
// beside the same holder's failure record that overwrote the finished job
// at t=40.270 s, the run's violation).
func (m *model) harmPrevented(lang Lang, a checker.Anomaly) string {
	text := tr(lang, "why.informational."+a.Harmless)
	if a.Stale == "" {
		return text
	}
	for _, o := range m.h.Ops {
		if o.Client != a.Stale || o.Key != a.Key || o.Process == history.NodeProcess || o.Invoke < a.End {
			continue
		}
		if o.F == history.Acquire && o.Type == history.OK {
			break // a new lease: its writes are not the stale holder's
		}
		if o.F == history.Write && o.Type == history.OK {
			if a.Harmless == checker.HarmlessIdempotent {
				text = tr(lang, "why.informational.idempotent.window")
			}
			return text + " " + tr(lang, "why.informational.later", a.Stale, a.Key, instant(m.sec(o.Complete)))
		}
	}
	return text
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
