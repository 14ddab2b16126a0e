package workload

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// CacheRebuild rebuilds cache entries under an efficiency lock (Kleppmann
// 2016, "efficiency vs correctness"): overlapping rebuilds are wasted work,
// not a violation.
const CacheRebuild = "cache-rebuild"

// ActionRebuild is one rebuild: its Invoke..Complete is the whole rebuild.
const ActionRebuild = "rebuild"

func init() {
	Register(Kind{
		Name:       CacheRebuild,
		About:      "an efficiency lock: overlapping rebuilds are reported as wasted work, not as a violation",
		Order:      70,
		Actions:    []Action{{Name: ActionRebuild, Effect: true}},
		Object:     "cache",
		Keyed:      true,
		Efficiency: true,
		New:        func() Workload { return &cacheRebuild{} },
		Question:   history.AnomalyDuplicateWork,
		Effects:    []Rule{duplicateWork},
		Words:      cacheRebuildWords,
		Tell:       func(h history.History) Teller { return rebuildTeller{h} },
	})
}

// cacheRebuild has no fields of its own; its resource keeps nothing.
type cacheRebuild struct {
	noFields `yaml:"-"` // nothing of its own for scenario.Normalize to write back
}

func (*cacheRebuild) Start(Env) Run { return rebuilds{} }

// rebuilds is a run's cache: it keeps nothing.
type rebuilds struct{ noSetup }

func (rebuilds) Work(ctx context.Context, c Client) {
	eachObject(ctx, c, func(key string) Body { return rebuild(ctx, c, key) })
}

// rebuild is one write whose Invoke..Complete is the whole rebuild.
// Overlapping rebuilds are waste, not corruption.
func rebuild(ctx context.Context, c Client, key string) Body {
	return func(l lock.Lease) (bool, error) {
		p := c.Begin(key, ActionRebuild, l.Fence)
		err := c.Job(ctx, l)
		if err != nil && !errors.Is(err, ErrLost) {
			p.End(err)
			return false, err
		}
		p.End(nil)
		return true, nil
	}
}

// duplicateWork is the rebuild's rule: accepted rebuilds of two clients on
// one key whose [Invoke, Complete] overlap (more than touching). Always
// informational: the lock is an efficiency lock, the waste is not
// corruption (Kleppmann 2016, "efficiency vs correctness").
func duplicateWork(acc *account.Account, ix *Index) Finding {
	h := acc.H
	var f Finding
	by, keys := ix.ByKey(ActionRebuild)
	total := 0
	for _, k := range keys {
		rs := slices.Clone(by[k])
		total += len(rs)
		finding.SortIdx(h, rs, finding.InvokeOf)
		for a := 0; a < len(rs); a++ {
			ra := h.Ops[rs[a]]
			for b := a + 1; b < len(rs); b++ {
				rb := h.Ops[rs[b]]
				if rb.Invoke >= ra.Complete {
					break
				}
				if rb.Client == ra.Client {
					continue
				}
				end := min(ra.Complete, rb.Complete)
				explain := fmt.Sprintf("%s and %s both rebuilt %s from %s to %s: wasted work, not corruption (an efficiency lock)",
					ra.Client, rb.Client, k, finding.At(h, rb.Invoke), finding.At(h, end))
				an := finding.New(h, history.AnomalyDuplicateWork, k, []string{ra.Client, rb.Client}, rb.Invoke, end, explain, ra.Index, rb.Index)
				an.Informational = true
				f.Anomalies = append(f.Anomalies, an)
			}
		}
	}
	switch {
	case total == 0:
	case len(f.Anomalies) > 0:
		f.Summary = fmt.Sprintf("%s of %s overlapped (informational: duplicate work)", finding.Plural(len(f.Anomalies), "pair", "pairs"), finding.Plural(total, "rebuild", "rebuilds"))
	default:
		f.Summary = fmt.Sprintf("%s, none at the same time", finding.Plural(total, "rebuild", "rebuilds"))
	}
	return f
}

// cacheRebuildWords are the cache-rebuild workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var cacheRebuildWords = map[string]map[string]string{
	"en": {
		"question.cache-rebuild":      "Will two clients rebuild the cache at the same time?", // locksim serve asks it before a run
		"n.write.rebuild":             "%s began rebuilding %s (%s of work, finished t=%ss).", // client, key, duration, its end
		"wl.cache-rebuild":            "cache entry",
		"wl.write.cache-rebuild":      "cache rebuild",
		"wl.resource.cache-rebuild":   "the cache",
		"lane.resource.cache-rebuild": "cache",
		"act.rebuild":                 "cache rebuild",
		"p.act.rebuild":               "began rebuilding",
	},
	"vi": {
		"question.cache-rebuild":      "Có hai client cùng dựng lại cache một lúc không?",
		"n.write.rebuild":             "%s bắt đầu rebuild %s (mất %s, xong lúc t=%ss).",
		"wl.cache-rebuild":            "mục cache",
		"wl.write.cache-rebuild":      "lần dựng lại cache",
		"wl.resource.cache-rebuild":   "cache",
		"lane.resource.cache-rebuild": "cache",
		"act.rebuild":                 "dựng lại cache",
		"p.act.rebuild":               "bắt đầu rebuild",
	},
}

// rebuildTeller tells a rebuild with how long it took.
type rebuildTeller struct{ h history.History }

func (rebuildTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (t rebuildTeller) Write(o history.Op, _ string) (Words, bool) {
	if o.Value.Action != ActionRebuild {
		return Words{}, false
	}
	// Told at its start, when the story places it: "began", with when
	// it finished (reader 16, F9: "t=0.3s w1 rebuilt cache-1" of a
	// rebuild that ran to 45.3 s).
	return Say("n.write.rebuild", o.Client, o.Key, Span(t.h.Header.ScenarioSeconds(o.Complete)-t.h.Header.ScenarioSeconds(o.Invoke)), At(t.h.Header.ScenarioSeconds(o.Complete))), true
}
