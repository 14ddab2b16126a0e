package report

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// extendOwn tells an extend whose command reached the node only after its
// client's own release had removed the key (an Extend claim Missed, Own):
// when the node ran it, and that it found no key because its client had
// just let the lock go — harmless; false for any other extend (reader 15,
// writer-exists-check: "w3's watchdog could not renew its lock" told at
// the renewal's start, before w3's write, read as a lost lock written on).
func (n *narrator) extendOwn(o history.Op, c claim.Claim) bool {
	if c.Kind != claim.Extend || c.What != claim.Missed || !c.Own || c.At == 0 {
		return false
	}
	n.add(c.At, 2, StepExtend, c, tr(n.lang, n.m.extendKey(o, "own"), c.Client, c.Key, instant(n.m.sec(c.Start)), c.Node))
	return true
}

// ownReleaseMessages are this file's sentences, merged into messages at
// init.
var ownReleaseMessages = map[Lang]map[string]string{
	"en": {
		"n.renew.own":     "%[1]s's watchdog's renewal of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to renew, which did no harm (%[1]s had already let the lock go).",         // client, key, t, node
		"n.renew.lib.own": "%[1]s's lock library's own renewal of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to renew, which did no harm (%[1]s had already let the lock go).", // client, key, t, node
		"n.extend.own":    "%[1]s's extend of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to extend, which did no harm (%[1]s had already let the lock go).",                    // client, key, t, node
	},
	"vi": {
		"n.renew.own":     "Lần gia hạn lock trên %[2]s của watchdog của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
		"n.renew.lib.own": "Lần tự gia hạn lock trên %[2]s của thư viện lock của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
		"n.extend.own":    "Lần gia hạn lock trên %[2]s của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
	},
}

func init() { addMessages(ownReleaseMessages, "ownrelease.go") }
