package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// firesHeadline is a valid cron run's headline: what became of each fire
// time (workload.FireTimes; fire k is due k intervals after the run's
// start) — who ran it and when, beside the schedule's time; a run of
// unknown outcome, cut short when a crash-client step killed its
// scheduler (its Fault claim); a fire that never ran, and whose acquires
// for it were refused, by whose key (their Refusal claims). "Each fire
// time ran once" only when each did (reader 4, finding 1: it was said of
// a run whose second fire never ran and whose first was cut by a crash).
// ok false when no job ran.
func (m *model) firesHeadline(lang Lang, cs []claim.Claim) (said, bool) {
	fires, ok := workload.FireTimes(m.h)
	if !ok {
		return said{}, false
	}
	var parts, ids []string
	once, ran := true, false
	for _, f := range fires {
		oks := 0
		for _, i := range f.Runs {
			o := m.h.Ops[i]
			c, _ := claim.Find(cs, func(c claim.Claim) bool {
				return c.Kind == claim.Op && len(c.Records) > 0 && c.Records[0] == i
			})
			if c.ID != "" {
				ids = append(ids, c.ID)
			}
			switch {
			case o.Type == history.OK:
				oks++
				ran = true
				parts = append(parts, tr(lang, "a.fire", o.Key, o.Client, instant(m.sec(o.Invoke)), instant(m.sec(f.Due))))
			case o.Type == history.Info:
				once = false
				if crash, ok := crashIn(cs, o.Client, o.Invoke, o.Complete); ok {
					ids = append(ids, crash.ID)
					parts = append(parts, tr(lang, "a.fire.cut", o.Key, o.Client, instant(m.sec(o.Invoke)), instant(m.sec(crash.Start)), instant(m.sec(f.Due))))
					continue
				}
				parts = append(parts, tr(lang, "a.fire.unknown", o.Key, o.Client, instant(m.sec(o.Invoke)), instant(m.sec(f.Due))))
			}
		}
		if oks != 1 {
			once = false
		}
		if len(f.Runs) > 0 {
			continue
		}
		var refused []string
		for _, i := range f.Refused {
			o := m.h.Ops[i]
			c, ok := claim.Find(cs, func(c claim.Claim) bool {
				return (c.Kind == claim.Refusal || c.Kind == claim.Op) && len(c.Records) > 0 && c.Records[0] == i
			})
			if ok {
				ids = append(ids, c.ID)
			}
			if ok && c.Kind == claim.Refusal && c.By != "" && c.What != claim.Granted {
				refused = append(refused, tr(lang, "a.fire.refused.by", o.Client, instant(m.sec(o.Invoke)), c.By))
				continue
			}
			refused = append(refused, tr(lang, "a.fire.refused", o.Client, instant(m.sec(o.Invoke))))
		}
		if len(refused) > 0 {
			parts = append(parts, tr(lang, "a.fire.none.refused", f.Key, joinAnd(lang, refused)))
			continue
		}
		parts = append(parts, tr(lang, "a.fire.none", f.Key))
	}
	if !ran {
		return said{}, false
	}
	if once {
		return said{Text: tr(lang, "say.cron.fires", joinAnd(lang, parts)), Claim: joinIDs(ids)}, true
	}
	return said{Text: tr(lang, "say.cron.fires.each", strings.Join(parts, "; ")), Claim: joinIDs(ids)}, true
}

// crashIn is the Fault claim of a crash-client step that killed client
// within [from, to] (a run of unknown outcome it cut short).
func crashIn(cs []claim.Claim, client string, from, to int64) (claim.Claim, bool) {
	return claim.Find(cs, func(c claim.Claim) bool {
		return c.Kind == claim.Fault && c.Fault != nil && c.Fault.Effect == history.EffectCrashClient &&
			slices.Contains(c.Fault.Clients, client) && from <= c.Start && c.Start <= to
	})
}
