package report

import "strings"

// maxStorySteps bounds the story of a long run (a page of a hundred
// thousand steps helps nobody). A longer story keeps its beginning, its
// end and the steps around what matters — anomalies first, then faults,
// refused writes, lost locks and probes, then key expiries, each with a
// little context — then more of its beginning while there is room; every
// stretch left out becomes one StepMore line that counts what happened
// there ("… 1234 more steps from t=… to t=…: 300 grants, 280 releases, …").
// Shorter stories are returned whole.
//
// A StepMore line is placed at the first step it leaves out and carries
// that step's claim (Step.Claim): the line's own facts are counts of
// other lines, not a statement about the run, and the claim it names is
// the one where the left-out stretch begins.
const maxStorySteps = 300

const (
	storyHead    = 30 // first steps always kept
	storyTail    = 10 // last steps always kept
	storyBefore  = 2  // context kept before an important step
	storyAfter   = 1  // and after it
	storyNoPrio  = 9
	storyMaxPrio = 3
)

// storyPrio ranks the steps a capped story keeps (lower first).
func storyPrio(kind string) int {
	switch kind {
	case StepViolated:
		return 0
	case StepFault, StepHeal:
		return 1
	case StepRefused, StepLost, StepProbe:
		return 2
	case StepExpiry:
		return storyMaxPrio
	}
	return storyNoPrio
}

// storyKinds orders the counts of an elided stretch.
var storyKinds = []string{StepAcquire, StepRetries, StepRead, StepWrite, StepRefused, StepRelease, StepExtend, StepLost,
	StepDone, StepFault, StepHeal, StepExpiry, StepProbe, StepViolated}

func capStory(lang Lang, steps []Step) []Step {
	n := len(steps)
	if n <= maxStorySteps {
		return steps
	}
	keep := make([]bool, n)
	kept, gaps := 0, 1 // lines so far: kept steps plus one summary per gap
	mark := func(i int) bool {
		if i < 0 || i >= n || keep[i] {
			return true
		}
		left, right := i > 0 && !keep[i-1], i < n-1 && !keep[i+1]
		d := 0
		switch {
		case left && right:
			d = 1 // splits a gap in two
		case !left && !right:
			d = -1 // fills a gap of one
		}
		if kept+1+gaps+d > maxStorySteps {
			return false
		}
		keep[i] = true
		kept, gaps = kept+1, gaps+d
		return true
	}
	for i := 0; i < storyHead; i++ {
		mark(i)
	}
	for i := n - storyTail; i < n; i++ {
		mark(i)
	}
full:
	for prio := 0; prio <= storyMaxPrio; prio++ {
		for i, s := range steps {
			if storyPrio(s.Kind) != prio || keep[i] {
				continue
			}
			if !mark(i) {
				break full
			}
			for j := i - storyBefore; j <= i+storyAfter; j++ {
				if !mark(j) {
					break full
				}
			}
		}
	}
	// Room left: more of the beginning.
	for i := storyHead; i < n; i++ {
		if !mark(i) {
			break
		}
	}
	out := make([]Step, 0, maxStorySteps)
	for i := 0; i < n; {
		if keep[i] {
			out = append(out, steps[i])
			i++
			continue
		}
		j := i
		count := map[string]int{}
		for ; j < n && !keep[j]; j++ {
			count[steps[j].Kind]++
		}
		var parts []string
		for _, k := range storyKinds {
			if c := count[k]; c > 0 {
				key := "n.more." + k
				if c == 1 {
					key += ".one"
				}
				parts = append(parts, tr(lang, key, c))
			}
		}
		out = append(out, Step{T: steps[i].T, Kind: StepMore, Claim: steps[i].Claim,
			Text: tr(lang, "n.more", j-i, instant(steps[i].T), instant(steps[j-1].T), strings.Join(parts, ", "))})
		i = j
	}
	return out
}
