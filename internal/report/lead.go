package report

import (
	"sort"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report/chart"
)

// leadAnomaly is the index into all of the finding an invalid run's
// headline tells, and whether all has a non-informational one: damage to
// the resource first, then the broken lock, then liveness; of several of
// its kind, the first (of lost updates, the one that wiped out the most).
func leadAnomaly(all []checker.Anomaly) (int, bool) {
	var anoms []int // indices into all
	for i, a := range all {
		if !a.Informational {
			anoms = append(anoms, i)
		}
	}
	if len(anoms) == 0 {
		return 0, false
	}
	prio := map[string]int{checker.KindDoubleEffect: 0, checker.KindOversell: 0, checker.KindSplitBrain: 0,
		checker.KindOverAdmission: 0, checker.KindDuplicateRun: 0, checker.KindLostUpdate: 1,
		checker.KindMutexOverlap: 2, checker.KindStaleWriteAccepted: 3}
	sort.SliceStable(anoms, func(i, j int) bool {
		return rank(prio, all[anoms[i]].Kind) < rank(prio, all[anoms[j]].Kind)
	})
	n := anoms[0]
	for _, o := range anoms[1:] {
		// The headline's window is the facts' window: of several
		// findings of its kind (a client's refusals and the final
		// probe's, both unavailable), the first.
		if all[o].Kind != all[n].Kind {
			continue
		}
		// Of several lost updates, the write that wiped out the most:
		// control-negative's last write undid both others', and the
		// first wiped out one (teacher 4, #18).
		if lo, ln := len(all[o].Lost), len(all[n].Lost); all[o].Kind == checker.KindLostUpdate && lo != ln {
			if lo > ln {
				n = o
			}
			continue
		}
		if all[o].Start < all[n].Start {
			n = o
		}
	}
	return n, true
}

// splitBrainText tells a split brain with its roles: the stale leader's
// accepted write, the new leader's election and, when the new leader
// wrote only after the stale write (the instant the split became true,
// At), that write too. ok is false without the roles.
func (m *model) splitBrainText(lang Lang, a checker.Anomaly, t0 instant) (string, bool) {
	if a.Stale == "" || a.Current == "" {
		return "", false
	}
	// The stale leader's accepted write (the first of the writes
	// the checker names as the violation), not the instant the
	// split became true (At: the later of the two leaders' writes).
	stale := instant(a.AtS)
	if len(a.Violating) > 0 && a.Violating[0] < len(m.h.Ops) {
		stale = instant(m.sec(m.h.Ops[a.Violating[0]].Invoke))
	}
	var s0, s1 any = stale, t0
	if chart.Tenths(float64(stale)) == chart.Tenths(float64(t0)) {
		// Two instants that read alike to a tenth ("accepted at
		// t=12.2s, after w3 was elected at t=12.2s") are told to
		// the millisecond (teacher 4, #11).
		s0, s1 = instantMs(stale), instantMs(t0)
	}
	if chart.Tenths(a.AtS) > chart.Tenths(float64(stale)) {
		// The new leader wrote after the stale write: the story
		// tells it at that instant (At), and says why (readers 14
		// and 15: a step at t=18.6s told only of 13.6 and 15.1).
		return tr(lang, "a.split-brain.roles.later", a.Stale, a.Current, a.Key, s0, s1, instant(a.AtS)), true
	}
	return tr(lang, "a.split-brain.roles", a.Stale, a.Current, a.Key, s0, s1), true
}
