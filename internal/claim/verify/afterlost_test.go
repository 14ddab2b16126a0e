package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// lostOp picks a lost record's Op claim with n records (one: the client
// wrote nothing more under the lease; two: the write it went on with).
func lostOp(n int) func(claim.Claim) bool {
	return kind(claim.Op, func(c claim.Claim) bool { return c.What == string(history.Lost) && len(c.Records) == n })
}

// A lost record is told as the client stopping only when it wrote nothing
// more under that lease, and as "did not stop: it went on to write" only
// with the write (reader 14; the report had read it from the history,
// outside any claim).
func TestALostRecordIsToldAsWhatItsClientDidNext(t *testing.T) {
	cases := []mutation{
		{"a client that went on writing is not told as having stopped", corpus("c55a-lost-but-went-on-writing"),
			lostOp(2), func(c *claim.Claim) { c.Records = c.Records[:1] }},
		{"a client that wrote nothing more is not told as having gone on writing", corpus("c38f-fence-never-tested"),
			lostOp(1), func(c *claim.Claim) { c.Records = append(c.Records, c.Records[0]+1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
