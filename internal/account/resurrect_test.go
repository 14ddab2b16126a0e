package account_test

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
)

// refresh is a renewal script's lines as redis-semaphore 5.3.0's refresh
// runs them (lib/mutex/refresh.js): GET, and, on a missing key, SET and
// PEXPIRE (resurrect) or nothing more.
func (r *run) refresh(c, token string, t float64, resurrect bool) {
	r.cmd("n1", c, t, false, "evalsha", "sha1:refresh", "1", "invoice-1", token, "1000")
	r.cmd("n1", c, t, true, "get", "invoice-1")
	if resurrect {
		r.cmd("n1", c, t, true, "set", "invoice-1", token)
		r.cmd("n1", c, t, true, "pexpire", "invoice-1", "1000")
	}
}

func TestAResurrectionIsATokenSetAgainAfterAnotherClientsGrant(t *testing.T) {
	tests := []struct {
		name       string
		otherGrant bool // w2 is granted the key (and releases it) while w1's key is gone
		resurrect  bool // w1's refresh sets the gone key again
		want       int
	}{
		{"a refresh that sets the key again after w2's grant is a resurrection", true, true, 1},
		{"a refresh that sets the key again with no grant in between is none", false, true, 0},
		{"a refresh that finds the key gone and sets nothing is none", true, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("process", "n1")
			r.acquire("w1", "t1", 0, 5, "n1")
			r.cmd("n1", "w1", 1, false, "set", "invoice-1", "t1", "PX", "1000", "NX") // deadline 1001 ms
			if tt.otherGrant {
				r.acquire("w2", "t2", 1500, 1510, "n1")
				r.cmd("n1", "w2", 1505, false, "set", "invoice-1", "t2", "PX", "1000", "NX")
				r.release("w2", "t2", 1600, 1610, true)
				r.compareAndDelete("n1", "w2", "t2", 1605, true)
			}
			r.refresh("w1", "t1", 2000, tt.resurrect)
			a := account.New(r.h)
			got := a.Resurrections()
			if len(got) != tt.want {
				t.Fatalf("%d resurrections, want %d; lives %v", len(got), tt.want, lives(a))
			}
			if tt.want == 0 {
				return
			}
			res := got[0]
			if res.Holder != "w1" || res.Other != "w2" {
				t.Errorf("holder %q, other %q; want w1, w2", res.Holder, res.Other)
			}
			if res.Before.End != ms(1001) || res.Before.Ended.Kind != account.EndExpired {
				t.Errorf("w1's key ended at %d (%s), want at 1001 ms, expired", res.Before.End, res.Before.Ended.Kind)
			}
			if res.After.Start != ms(2000) || res.After.Value != "t1" || res.After.Deadline != ms(3000) {
				t.Errorf("set again at %d with %q until %d, want at 2000 ms with t1 until 3000 ms", res.After.Start, res.After.Value, res.After.Deadline)
			}
			if res.BetweenLife.Start != ms(1505) || res.Between.Client != "w2" {
				t.Errorf("the grant in between: %s's at %d, want w2's at 1505 ms", res.Between.Client, res.BetweenLife.Start)
			}
		})
	}
}

func TestTheLockKeysOfAResourceAreItsOwnAndTheOnesAnAlgorithmDerived(t *testing.T) {
	r := newRun("process", "n1")
	i := r.acquire("w1", "t1", 0, 5, "n1")
	r.h.Ops[i].Value.LockKey = "mutex:invoice-1"
	r.cmd("n1", "w1", 1, false, "set", "mutex:invoice-1", "t1", "PX", "1000", "NX")
	r.acquire("w2", "", 10, 12) // refused while the node held w1's key
	a := account.New(r.h)
	if got := a.LockKeysOf("invoice-1"); len(got) != 2 || got[0] != "invoice-1" || got[1] != "mutex:invoice-1" {
		t.Errorf("LockKeysOf(invoice-1) = %v, want [invoice-1 mutex:invoice-1]", got)
	}
	if a.KeyFreeAt("invoice-1", ms(10), ms(12)) {
		t.Error("KeyFreeAt says invoice-1 was free while the node held w1's mutex:invoice-1")
	}
}
