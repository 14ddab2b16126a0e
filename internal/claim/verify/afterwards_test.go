package verify_test

import (
	"testing"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// extendOf picks an extend's claim (Extend, or an Op of an extend) cut by
// its client's own release, or not.
func extendOf(cut bool) func(claim.Claim) bool {
	return func(c claim.Claim) bool {
		ext := c.Kind == claim.Extend || c.Kind == claim.Op && c.What == string(history.Extend)
		return ext && (c.CutBy != nil) == cut
	}
}

// laterOf picks an informational finding's Anomaly claim whose stale
// holder later had a write accepted, or had none.
func laterOf(wrote bool) func(claim.Claim) bool {
	return kind(claim.Anomaly, func(c claim.Claim) bool { return c.Later != nil && (*c.Later >= 0) == wrote })
}

func at(i int) *int { return &i }

// cutRun is w1's extend of k, from 100 to 120 ms, answered info and
// failed as f, while w1's release (record 2) began at 110 ms.
func cutRun(f history.Failure) func(*testing.T) history.History {
	return func(*testing.T) history.History {
		ext := kOp(0, "w1", history.Extend, history.Info, 100, 120, history.Value{Renewal: true})
		ext.Failure = f
		return handRun([]history.Op{
			kOp(0, "w1", history.Acquire, history.OK, 0, 1, history.Value{Token: "tokA", TTL: 1000 * ms}),
			ext,
			kOp(1, "w1", history.Release, history.OK, 110, 115, history.Value{Token: "tokA"}),
		})
	}
}

// A renewal whose wait its own client's release cancelled is told so only
// when that release of the same client and key began while it was in
// flight, and an informational overlap's "but afterwards the resource
// accepted a write" only with the stale holder's first such write under
// the same lease (reader 14; the report had read both from the history,
// one of them from an error's text, outside any claim).
func TestWhatAClientDidAfterAnEndIsToldOnlyAsTheHistoryHasIt(t *testing.T) {
	const release = 266 // c38b: w1's release, after its renewals
	cases := []mutation{
		{"a renewal its own release cut is not told as not cut", corpus("c55b-renewal-cut-by-own-release"),
			extendOf(true), func(c *claim.Claim) { c.CutBy = nil }},
		{"a renewal no release began inside is not told as cut by one", corpus("c38b-renewal-at-the-nodes-pexpire"),
			extendOf(false), func(c *claim.Claim) { c.CutBy = at(release) }},
		{"an extend its own release cut, told of itself, is not told as not cut", cutRun(history.FailOther),
			kind(claim.Op, func(c claim.Claim) bool { return c.CutBy != nil }), func(c *claim.Claim) { c.CutBy = nil }},
		{"an extend that timed out as its release began is not told as cut by it", cutRun(history.FailTimeout),
			kind(claim.Op, func(c claim.Claim) bool { return c.What == string(history.Extend) }), func(c *claim.Claim) { c.CutBy = at(2) }},
		{"a cut renewal names the release that cut it", corpus("c55b-renewal-cut-by-own-release"),
			extendOf(true), func(c *claim.Claim) { c.CutBy = at(*c.CutBy + 1) }},
		{"an overlap whose stale holder later had a write accepted is not told as having none", corpus("c55c-harm-prevented-scoped-to-overlap"),
			laterOf(true), func(c *claim.Claim) { c.Later = at(-1) }},
		{"a later write is the stale holder's first accepted one after the overlap", corpus("c55c-harm-prevented-scoped-to-overlap"),
			laterOf(true), func(c *claim.Claim) { c.Later = at(*c.Later + 1) }},
		{"a later write is the stale holder's own", corpus("c55c-harm-prevented-scoped-to-overlap"),
			laterOf(true), func(c *claim.Claim) { c.Client = c.By }},
		{"an overlap whose stale holder wrote nothing more is not told as having a later write", corpus("c38f-fence-never-tested"),
			laterOf(false), func(c *claim.Claim) { c.Later = at(c.Records[len(c.Records)-1]) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.try(t) })
	}
}
