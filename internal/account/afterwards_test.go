package account_test

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// extend adds c's extend of invoice-1 over [inv, comp] ms, answered typ
// and failed as f.
func (r *run) extend(c string, inv, comp float64, typ history.Type, f history.Failure) int {
	return r.add(history.Op{Process: r.proc(c), Client: c, F: history.Extend, Key: "invoice-1", Type: typ, Failure: f,
		Value: history.Value{Renewal: true}, Invoke: ms(inv), Complete: ms(comp)})
}

// write adds c's write to key over [inv, comp] ms, answered typ.
func (r *run) write(c, key string, inv, comp float64, typ history.Type) int {
	return r.add(history.Op{Process: r.proc(c), Client: c, F: history.Write, Key: key, Type: typ,
		Value: history.Value{Action: "charge"}, Invoke: ms(inv), Complete: ms(comp)})
}

// TestARenewalItsOwnReleaseCutIsToldSo: an extend whose wait for its reply
// ended with an unknown outcome, for no timeout or lost connection, while
// its client's own release of the key began, was cut by that release: its
// claim names the release (CutBy), read from the records' fields, never
// from the error's text (reader 14, c55b). A timeout, a refusal, or a
// release that began after it are not that.
func TestARenewalItsOwnReleaseCutIsToldSo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typ     history.Type
		failure history.Failure
		relAt   float64 // the release's invoke, ms
		cut     bool
	}{
		{"a renewal whose wait its own release cancelled is cut by it", history.Info, history.FailOther, 110, true},
		{"a renewal that timed out while its release began is not cut by it", history.Info, history.FailTimeout, 110, false},
		{"a renewal the lock refused while its release began is not cut by it", history.Fail, "", 110, false},
		{"a renewal that failed before its release began is not cut by it", history.Info, history.FailOther, 130, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			r.acquire("w1", "tok1", 0, 1, "n1")
			ext := r.extend("w1", 100, 120, tc.typ, tc.failure)
			rel := r.release("w1", "tok1", tc.relAt, tc.relAt+5, true, "n1")
			a := account.New(r.h)
			want := -1
			if tc.cut {
				want = rel
			}
			if got := a.CutBy(ext); got != want {
				t.Errorf("CutBy = %d, want %d", got, want)
			}
			c, ok := claim.Find(a.Claims(), func(c claim.Claim) bool {
				return (c.Kind == claim.Extend || c.Kind == claim.Op) && c.Records[0] == ext
			})
			switch {
			case !ok:
				t.Fatal("no claim of the extend")
			case tc.cut && (c.CutBy == nil || *c.CutBy != rel):
				t.Errorf("the extend's %s claim has CutBy %v, want record %d", c.Kind, c.CutBy, rel)
			case !tc.cut && c.CutBy != nil:
				t.Errorf("the extend's %s claim has CutBy %d, want none", c.Kind, *c.CutBy)
			}
		})
	}
}

// TestAStaleHoldersLaterWriteIsItsFirstAcceptedOneUnderTheSameLease:
// LaterWrite is the client's first accepted write to the key from an
// instant on, not one refused, not another key's, and none once the client
// acquired the key again (reader 14, c55c).
func TestAStaleHoldersLaterWriteIsItsFirstAcceptedOneUnderTheSameLease(t *testing.T) {
	r := newRun("safe", "n1")
	r.acquire("w1", "tok1", 0, 1, "n1")
	r.write("w1", "invoice-1", 10, 11, history.OK) // before the instant
	r.write("w1", "invoice-1", 50, 51, history.Fail)
	r.write("w1", "invoice-2", 60, 61, history.OK)
	w := r.write("w1", "invoice-1", 70, 71, history.OK)
	r.acquire("w1", "tok2", 200, 201, "n1")
	r.write("w1", "invoice-1", 210, 211, history.OK)
	a := account.New(r.h)
	for _, tc := range []struct {
		name string
		from float64
		want int
	}{
		{"the first accepted write to the key from the instant on", 20, w},
		{"none after its last write under the lease, though it wrote under a new one", 100, -1},
		{"none of a client that wrote nothing", 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := "w1"
			if tc.from == 0 {
				client = "w2"
			}
			if got := a.LaterWrite(client, "invoice-1", ms(tc.from)); got != tc.want {
				t.Errorf("LaterWrite = %d, want %d", got, tc.want)
			}
		})
	}
}
