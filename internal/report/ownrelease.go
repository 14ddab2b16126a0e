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

// acquireInfo tells an acquire of unknown outcome: that it never reached
// Redis when no node ran a command of its client while it was in flight
// and every node it could reach was recorded throughout (as a release's
// step says; reader 15, writer-token-check: "lost its connection before
// the reply: outcome unknown" of an acquire whose SET a partition held
// back), else how it ended with no answer.
func (m *model) acquireInfo(lang Lang, i int, o history.Op, who, key string) string {
	if ran, known := m.a.Reached(i); known && !ran {
		return tr(lang, "n.acquire.notrun", who, key)
	}
	return tr(lang, infoKey("n.acquire.info", o), who, key)
}

// existsChecks tells each EXISTS check a client made before its write
// that passed on another client's key (a Command claim What exists, By
// another client): the point of a lock whose holder checks only that its
// key exists (reader 15, writer-exists-check: w1's check at t=50.389 s
// passed on w2's key, and w1 wrote). A check on its own key, or one not
// followed by the client's write, is not told.
func (n *narrator) existsChecks() {
	ops := n.in.History.Ops
	for _, c := range n.claims.cs {
		if c.Kind != claim.Command || c.What != "exists" || c.How != claim.Ran || c.By == "" || c.By == c.Client {
			continue
		}
		// The client's next operation on the key (a write's record may
		// precede the check's node event in the history).
		next := -1
		for j, o := range ops {
			if o.Client == c.Client && o.Process != history.NodeProcess && o.Key == c.Key && o.Invoke >= c.Start &&
				(next < 0 || o.Invoke < ops[next].Invoke) {
				next = j
			}
		}
		if next >= 0 && ops[next].F == history.Write {
			n.add(c.Start, 2, StepRead, c, tr(n.lang, "n.exists.foreign", c.Client, c.Key, c.By))
		}
	}
}

// ownReleaseMessages are this file's sentences, merged into messages at
// init.
var ownReleaseMessages = map[Lang]map[string]string{
	"en": {
		"n.exists.foreign": "%[1]s checked that %[2]s existed before writing, and it did — but the key was %[3]s's, not %[1]s's: an EXISTS check passes on any holder's key.",                                                                                // client, key, owner
		"n.acquire.notrun": "%[1]s's acquire of %[2]s never reached Redis (no node ran a command of %[1]s then): it set no key, though %[1]s, with no answer, could not know it.",                                                                            // client, key
		"n.renew.own":      "%[1]s's watchdog's renewal of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to renew, which did no harm (%[1]s had already let the lock go).",         // client, key, t, node
		"n.renew.lib.own":  "%[1]s's lock library's own renewal of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to renew, which did no harm (%[1]s had already let the lock go).", // client, key, t, node
		"n.extend.own":     "%[1]s's extend of its lock on %[2]s, begun at t=%[3]ss, reached %[4]s only after %[1]s's own release had deleted the key: it found no key to extend, which did no harm (%[1]s had already let the lock go).",                    // client, key, t, node
	},
	"vi": {
		"n.exists.foreign": "%[1]s kiểm tra rằng %[2]s có tồn tại trước khi ghi, và đúng là có — nhưng đó là key của %[3]s, không phải của %[1]s: phép kiểm tra EXISTS qua được với key của bất kỳ ai đang giữ lock.",
		"n.acquire.notrun": "Lệnh lấy lock %[2]s của %[1]s không bao giờ tới được Redis (không node nào chạy lệnh nào của %[1]s lúc đó): nó không đặt key nào, dù %[1]s, không nhận được trả lời, không thể biết điều đó.",
		"n.renew.own":      "Lần gia hạn lock trên %[2]s của watchdog của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
		"n.renew.lib.own":  "Lần tự gia hạn lock trên %[2]s của thư viện lock của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
		"n.extend.own":     "Lần gia hạn lock trên %[2]s của %[1]s, bắt đầu từ t=%[3]ss, chỉ tới %[4]s sau khi lệnh nhả lock của chính %[1]s đã xoá key: nó không thấy key nào để gia hạn, và điều đó vô hại (%[1]s đã nhả lock rồi).",
	},
}

func init() { addMessages(ownReleaseMessages, "ownrelease.go") }
