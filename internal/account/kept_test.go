package account_test

import (
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/claim"
)

// TestAReleaseThatKeptItsKeyIsToldAsKeepingItNotDeletingIt: a release
// whose command did not remove the key but set when it would end — a
// PEXPIRE (a minimum hold: checked-min-hold-unlock) or a SET … PX … XX of
// a new value (ShedLock's unlock with lockAtLeastFor) — is a Release claim
// "kept" or "rewrote" with when the command ran and the TTL it set, not an
// Op claim of a release that said it removed its key ("key deleted"); the
// key then expires at the end that release set, and its KeyLife claim
// says so (issue 27, reader findings 8 and 9).
func TestAReleaseThatKeptItsKeyIsToldAsKeepingItNotDeletingIt(t *testing.T) {
	for _, tc := range []struct {
		name, what, token string
		cmd               func(r *run)
	}{
		{"a release whose script PEXPIREd its own key kept it", claim.Kept, "tok1", func(r *run) {
			r.cmd("n1", "w1", 101, false, "evalsha", "sha1:hold", "1", "invoice-1", "tok1", "300")
			r.cmd("n1", "w1", 101, true, "GET", "invoice-1")
			r.cmd("n1", "w1", 101, true, "PEXPIRE", "invoice-1", "300")
		}},
		{"a release that SET its key again with XX and a TTL rewrote it", claim.Rewrote, "tok1b", func(r *run) {
			r.cmd("n1", "w1", 101, false, "set", "invoice-1", "tok1b", "px", "300", "xx")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun("min-hold", "n1")
			r.acquire("w1", "tok1", 0, 1, "n1")
			r.cmd("n1", "w1", 0.5, false, "set", "invoice-1", "tok1", "px", "1000", "nx")
			rel := r.release("w1", "tok1", 100, 102, true, "n1")
			tc.cmd(r)
			cmd := len(r.h.Ops) - 1
			r.acquire("w2", "tok2", 500, 501, "n1") // the history goes on past the kept key's end
			r.cmd("n1", "w2", 500.5, false, "set", "invoice-1", "tok2", "px", "1000", "nx")
			a := account.New(r.h)
			cs := a.Claims()
			c, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Release })
			if !ok {
				t.Fatalf("no Release claim of the release; claims: %+v", cs)
			}
			if c.What != tc.what || c.Client != "w1" || c.Node != "n1" || c.Key != "invoice-1" || c.Token != tc.token ||
				c.At != ms(101) || c.TTL != ms(300) || !slices.Equal(c.Records, []int{rel, cmd}) {
				t.Errorf("Release claim %+v, want %s by w1 of invoice-1 on n1 (value %s) at 101 ms, TTL 300 ms, records [%d %d]",
					c, tc.what, tc.token, rel, cmd)
			}
			if _, ok := claim.Find(cs, func(c claim.Claim) bool { return c.Kind == claim.Op && c.Records[0] == rel }); ok {
				t.Error("the release is also an Op claim (told from its own record: \"key deleted\")")
			}
			life, ok := claim.Find(cs, func(c claim.Claim) bool {
				return c.Kind == claim.KeyLife && c.Token == tc.token && c.How == account.EndExpired
			})
			if !ok {
				t.Fatalf("no KeyLife claim of %s expiring; claims: %+v", tc.token, cs)
			}
			if life.End != ms(401) || life.What != claim.Kept || life.At != ms(101) || life.TTL != ms(300) {
				t.Errorf("the kept key's life %+v, want expired at 401 ms at the end its release set at 101 ms (TTL 300 ms)", life)
			}
		})
	}
}
