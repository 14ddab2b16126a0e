package suite

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is part K (1-based) of N of a suite's runs, for running one suite
// on many machines (`locksim run --shard K/N`, then `locksim merge`).
// The zero Shard is the whole suite.
type Shard struct{ K, N int }

// MaxShards is the most parts a suite can be cut into.
const MaxShards = 10000

// ParseShard reads "K/N" with 1 ≤ K ≤ N ≤ MaxShards.
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(strings.TrimSpace(ks))
	n, errN := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || errK != nil || errN != nil:
		return Shard{}, fmt.Errorf("shard %q: want K/N, e.g. 2/3 (the second of three parts)", s)
	case n < 1 || n > MaxShards:
		return Shard{}, fmt.Errorf("shard %q: N must be between 1 and %d", s, MaxShards)
	case k < 1 || k > n:
		return Shard{}, fmt.Errorf("shard %q: K must be between 1 and N (%d)", s, n)
	}
	return Shard{K: k, N: n}, nil
}

// String is "K/N", or "" for the whole suite.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Whole reports whether s is the whole suite.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether the run of j belongs to the shard. A run is placed
// by a hash of its scenario's name and its seed alone — not by its
// position, the other scenarios or the number of runs — so for every N
// each run lands in exactly one of the N shards, on every machine.
func (s Shard) Has(j Job) bool {
	if s.Whole() {
		return true
	}
	return RunHash(j.Scenario.Name, j.Seed)%uint64(s.N) == uint64(s.K-1)
}

// Of keeps the jobs of the shard, in order; their N (position in the
// whole suite) and what makes a run notable stay those of the whole plan.
func (s Shard) Of(jobs []Job) []Job {
	var out []Job
	for _, j := range jobs {
		if s.Has(j) {
			out = append(out, j)
		}
	}
	return out
}

// RunHash is the 64-bit FNV-1a hash of a run's scenario name and seed,
// which places the run in a shard.
func RunHash(scenario string, seed int64) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(scenario))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write([]byte(strconv.FormatInt(seed, 10)))
	return h.Sum64()
}

// PlanHash identifies a whole plan (every run's scenario name and seed,
// in order) so that merge can tell shards of one suite from shards of
// another: hex FNV-1a. File paths are left out: they may differ between
// the machines that run the shards.
func PlanHash(jobs []Job) string {
	h := fnv.New64a()
	for _, j := range jobs {
		fmt.Fprintf(h, "%d\x00%s\x00%d\n", j.N, j.Scenario.Name, j.Seed)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
