package verify

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// inferredRefusal: a refusal by a key no node's record shows (claim
// Inferred): Records[1] is By's granted acquire of Key with Token, begun
// before the refusal ended and not returned before the refusal began
// unless by then. What stood on the node is the clients' inference.
func (v *verifier) inferredRefusal(c claim.Claim) outcome {
	g, ok := v.rec(c, 1)
	if !ok || (g.F != history.Acquire && g.F != history.Probe) || g.Type != history.OK || g.Client != c.By || g.Key != c.Key ||
		(c.Token != "" && g.Value.Token != c.Token) {
		return refuse(c.Records, "record %v is not %s's granted acquire of %s with token %s", c.Records, c.By, c.Key, c.Token)
	}
	if g.Invoke > c.End {
		return refuse(c.Records, "%s's acquire began at %d, after the refusal ended (%d)", c.By, g.Invoke, c.End)
	}
	if c.By == c.Client {
		return refuse(c.Records, "an inferred refusal names the refused client's own key")
	}
	return skip("refusal by a key inferred from the clients")
}

// shownStart: an inferred key life that starts before its acquire
// returned (Records[0]) starts when another client's acquire of the key,
// made inside that acquire, was refused (its end): the key stood by then.
func (v *verifier) shownStart(c claim.Claim) outcome {
	g, ok := v.rec(c, 0)
	if !ok || g.F != history.Acquire || g.Type != history.OK || c.Start >= g.Complete {
		return outcome{}
	}
	for _, o := range v.h.Ops {
		if o.F == history.Acquire && o.Type == history.Fail && o.Client != g.Client && o.Key == c.Key &&
			o.Invoke >= g.Invoke && o.Complete == c.Start {
			return outcome{}
		}
	}
	return refuse(c.Records[:1], "the key life starts at %d, before its acquire returned (%d), and no other client's acquire refused inside it ended then", c.Start, g.Complete)
}
