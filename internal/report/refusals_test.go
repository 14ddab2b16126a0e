package report

import (
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestAChangedCurrlockSaysWhoseTokenItHeldNotThatItWasNewer: a
// check-and-set resource refuses a write whose token is not its currlock,
// the token of the last claim. That claim is not always a newer holder's:
// in redlock-gc-pause-cas-stale-claim the stale w1 woke and claimed after
// the live w2, and w2's charge was refused "because a newer holder claimed
// it" (issue 34).
func TestAChangedCurrlockSaysWhoseTokenItHeldNotThatItWasNewer(t *testing.T) {
	op := history.Op{Client: "w2", Key: "invoice-1", Value: history.Value{Refusal: history.RefusalLockChanged}}
	tests := []struct {
		lang Lang
		want string
	}{
		{English, "invoice-1's currlock holds another client's token: another client claimed it last"},
		{Vietnamese, "currlock của invoice-1 đang giữ token của client khác: một client khác đã đăng ký token vào đó sau cùng"},
	}
	for _, tt := range tests {
		t.Run("in "+string(tt.lang), func(t *testing.T) {
			if got := refusalText(tt.lang, op); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
