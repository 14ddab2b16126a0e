package workload

// CacheRebuild rebuilds cache entries under an efficiency lock (Kleppmann
// 2016, "efficiency vs correctness"): overlapping rebuilds are wasted work,
// not a violation.
const CacheRebuild = "cache-rebuild"

// ActionRebuild is one rebuild: its Invoke..Complete is the whole rebuild.
const ActionRebuild = "rebuild"

func init() {
	Register(Kind{
		Name:    CacheRebuild,
		About:   "an efficiency lock: overlapping rebuilds are reported as wasted work, not as a violation",
		Order:   70,
		Actions: []Action{{Name: ActionRebuild, Effect: true}},
	})
}
