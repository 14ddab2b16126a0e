package verify

import (
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// cutBy: an extend claim (Extend, or an Op of an extend) with CutBy says
// its wait for its reply was cancelled by its client's own release: the
// extend was answered info for no timeout or lost connection
// (history.FailOther), and CutBy is the first release (or done record)
// of the same client on the same key, in history order, invoked inside
// the extend's window. Without CutBy it says no such release cut it: the
// extend did not end so, or no such release began while it was in
// flight. The error text is not read.
func (v *verifier) cutBy(c claim.Claim) outcome {
	e, ok := v.rec(c, 0)
	if !ok || e.F != history.Extend {
		if c.CutBy != nil {
			return refuse(c.Records, "record %v is no extend: no release cut its wait", c.Records)
		}
		return held
	}
	cut := -1
	if e.Type == history.Info && e.Failure == history.FailOther && e.Complete >= 0 {
		for j, r := range v.h.Ops {
			if r.Process >= 0 && r.Client == e.Client && r.Key == e.Key && (r.F == history.Release || r.F == history.Done) &&
				r.Invoke >= e.Invoke && r.Invoke <= e.Complete {
				cut = j
				break
			}
		}
	}
	switch {
	case c.CutBy == nil && cut >= 0:
		return refuse([]int{c.Records[0], cut}, "%s's %s of %s began at %d while its extend was in flight, and the extend ended %s (%s): it cut the extend's wait",
			e.Client, v.h.Ops[cut].F, e.Key, v.h.Ops[cut].Invoke, e.Type, e.Failure)
	case c.CutBy != nil && cut < 0:
		return refuse(c.Records[:1], "no release of %s's on %s cut the wait of its extend [%d, %d], answered %s (%s)",
			e.Client, e.Key, e.Invoke, e.Complete, e.Type, e.Failure)
	case c.CutBy != nil && *c.CutBy != cut:
		return refuse([]int{c.Records[0], cut}, "the release that cut %s's extend is record %d, not %d", e.Client, cut, *c.CutBy)
	}
	return held
}

// later: an Anomaly claim with Later names its stale holder (Client)'s
// first write to Key the resource accepted (ok), in history order, invoked
// at or after the finding's End, before that client's next granted
// acquire of Key invoked then; Later -1 says there is no such write.
func (v *verifier) later(c claim.Claim) outcome {
	if c.Later == nil {
		return held
	}
	if c.Client == "" {
		return refuse(c.Records, "a later write is told of no stale holder")
	}
	wrote := -1
	for j, o := range v.h.Ops {
		if o.Process < 0 || o.Client != c.Client || o.Key != c.Key || o.Invoke < c.End {
			continue
		}
		if o.F == history.Acquire && o.Type == history.OK {
			break // a new lease of the stale holder's
		}
		if o.F == history.Write && o.Type == history.OK {
			wrote = j
			break
		}
	}
	switch {
	case *c.Later < 0 && wrote >= 0:
		return refuse([]int{wrote}, "the resource accepted %s's write %d to %s after the finding's end %d", c.Client, wrote, c.Key, c.End)
	case *c.Later >= 0 && wrote < 0:
		return refuse([]int{*c.Later}, "the resource accepted no write of %s's to %s after the finding's end %d under that lease", c.Client, c.Key, c.End)
	case *c.Later != wrote:
		return refuse([]int{*c.Later, wrote}, "%s's first write to %s accepted after the finding's end %d is record %d, not %d", c.Client, c.Key, c.End, wrote, *c.Later)
	}
	return held
}
