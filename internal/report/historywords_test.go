package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// TestTheHistoryPageSaysWhatPorcupinesModelChecked: porcupine's lease
// model has no one-holder rule for a semaphore (several permits) or a run
// that takes no lock; history.html must not say porcupine's order "keeps
// one lock holder at a time" there (reader 4, findings 5 and 17:
// semaphore-basic-clock-skew, inventory-atomic-lua).
func TestTheHistoryPageSaysWhatPorcupinesModelChecked(t *testing.T) {
	for _, c := range []struct {
		name   string
		header history.Header
		want   string
	}{
		{"a mutex keeps its one-holder rule", history.Header{Workload: workload.Payment, Algorithm: "safe"}, ""},
		{"a semaphore's model has no one-holder rule", history.Header{Workload: workload.Semaphore, Algorithm: "semaphore"}, "hist.free.permits"},
		{"a lock-free run's model has no one-holder rule", history.Header{Workload: workload.Inventory, Algorithm: "atomic-lua", Traits: []string{history.TraitLockFree}}, "hist.free.nolock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := freeModel(history.History{Header: c.header}); got != c.want {
				t.Errorf("freeModel = %q, want %q", got, c.want)
			}
			for _, lang := range Languages() {
				// Where grants hand the lease on, the guide says so; where
				// the model has no holder rule it does not talk of grants.
				how := historyHow(lang, history.History{Header: c.header})
				if got, want := strings.Contains(how, tr(lang, "hist.model")), c.want == ""; got != want {
					t.Errorf("%s: the guide tells how a grant hands the lease on: %v, want %v", lang, got, want)
				}
			}
			for _, lang := range Languages() {
				if c.want == "" {
					continue
				}
				for _, k := range []string{"hist.verdict.ok.free", "hist.verdict.ok.part.free", "hist.verdict.bad.free"} {
					if s := tr(lang, k, tr(lang, c.want)); strings.Contains(s, "keeps one lock holder") || strings.Contains(s, "mỗi lúc chỉ có một client giữ lock:") {
						t.Errorf("%s says %q", lang, s)
					}
				}
			}
		})
	}
}

// TestAHistoryTooltipSaysHowTheOperationEnded: an ok acquire was granted,
// an ok write accepted, an ok release done — not "granted or done"; a
// leader's epoch is an epoch, not a token, with one space before it
// (reader 4, findings 10 and 15).
func TestAHistoryTooltipSaysHowTheOperationEnded(t *testing.T) {
	ok := func(f history.Func, fence int64) history.Op {
		return history.Op{Client: "w1", F: f, Key: "leader", Type: history.OK, Value: history.Value{Fence: fence, Action: workload.ActionLead}}
	}
	leader := history.Header{Workload: workload.Leader, Algorithm: "safe"}
	for _, c := range []struct {
		name       string
		op         history.Op
		en, vi     string
		words      string
		wordsFence int64
	}{
		{"an ok acquire was granted", ok(history.Acquire, 0), "granted", "được cấp", "", 0},
		{"an ok write was accepted, with the leader's epoch", ok(history.Write, 2), "accepted", "được chấp nhận", "of leader with epoch 2", 2},
		{"an ok release was done", ok(history.Release, 0), "done", "thành công", "", 0},
		{"a refused acquire was refused", history.Op{F: history.Acquire, Type: history.Fail}, "refused", "bị từ chối", "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := outcomeWord(English, c.op); got != c.en {
				t.Errorf("en: %q, want %q", got, c.en)
			}
			if got := outcomeWord(Vietnamese, c.op); got != c.vi {
				t.Errorf("vi: %q, want %q", got, c.vi)
			}
			if c.words != "" {
				got := opWords(English, newModel(history.History{Header: leader}, nil), c.op)
				if !strings.HasSuffix(got, c.words) || strings.Contains(got, "  ") || strings.Contains(got, "token") {
					t.Errorf("opWords = %q, want it to end %q, one space apart, no token", got, c.words)
				}
			}
		})
	}
}

// TestPageLabelsAreInThePagesLanguage: the Vietnamese timeline's fault
// labels are Vietnamese ("client crash" was left in English: reader 4,
// finding 13), and a band's "and N more" points to what the page has
// (history.html has no table: finding 14).
func TestPageLabelsAreInThePagesLanguage(t *testing.T) {
	for _, k := range []string{"fault.crash-client", "fault.crash"} {
		t.Run(k+" is translated", func(t *testing.T) {
			if tr(Vietnamese, k) == tr(English, k) {
				t.Errorf("vi %s is the English %q", k, tr(English, k))
			}
		})
	}
	for _, lang := range Languages() {
		t.Run("in "+string(lang)+" a band's more points to no table", func(t *testing.T) {
			if s := tr(lang, "p.violation.more", 3); strings.Contains(s, "table") || strings.Contains(s, "bảng") {
				t.Errorf("%q points to a table history.html lacks", s)
			}
		})
	}
}
