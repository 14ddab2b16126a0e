package report

import (
	"slices"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// writeResources are the resources h's writes went to, as message keys
// (workload.ResourceOf: "" the workload's resource), the workload's
// first, then in order of first write: one timeline row each.
func writeResources(h history.History) []string {
	var out []string
	for _, o := range h.Ops {
		if r := workload.ResourceOf(o.Value.Action); o.F == history.Write && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "":
			return -1
		case b == "":
			return 1
		}
		return 0
	})
	return out
}

// resLane is the timeline row of the resource a write of action went
// to, -1 when it has none.
func (b *builder) resLane(action string) int {
	if i, ok := b.res[workload.ResourceOf(action)]; ok {
		return i
	}
	return -1
}

// resourceName is the resource lane's name, by workload.
func (b *builder) resourceName() string {
	w := b.in.History.Header.Workload
	if _, ok := messages[English]["lane.resource."+w]; ok {
		return tr(b.lang, "lane.resource."+w)
	}
	return tr(b.lang, "lane.resource")
}

// resourceOf is what answered a write of action: the workload's word for
// that action's resource when it has one (a payment job's completion and
// failedReason go to the job store, not the gateway), else the workload's
// resource lane's.
func (b *builder) resourceOf(action string) string {
	return b.resourceLabel(workload.ResourceOf(action))
}

// resourceLabel is the name of resource r (a message key,
// workload.ResourceOf), "" the workload's resource lane's.
func (b *builder) resourceLabel(r string) string {
	if r != "" {
		return tr(b.lang, r)
	}
	return b.resourceName()
}
