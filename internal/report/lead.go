package report

import (
	"sort"

	"github.com/locksim/locksim/internal/checker"
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
