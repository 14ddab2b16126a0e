package explore

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

// Profiles finds the profiles (profile.json) under dirs, at any depth, as
// CI artifacts are downloaded; their directories, sorted.
func Profiles(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && e.Name() == report.ProfileJSON {
				out = append(out, filepath.Dir(path))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ErrNotShards says the profiles are not the shards 1..N of one
// exploration.
var ErrNotShards = errors.New("not the shards of one exploration")

// Merge combines the profiles of an exploration's shards (in dirs, as
// Profiles finds them) into one profile whose paths are relative to out:
// every shard's rows, the classes none explored with why, the runs
// summed, the longest shard's wall time. Every shard K = 1..N of the same
// exploration (PlanHash) must be there, once.
func Merge(dirs []string, out string) (report.Profile, error) {
	if len(dirs) == 0 {
		return report.Profile{}, errors.New("merge: no profile")
	}
	var ps []report.Profile
	for _, d := range dirs {
		p, err := report.ReadProfile(filepath.Join(d, report.ProfileJSON))
		if err != nil {
			return report.Profile{}, fmt.Errorf("merge: %w", err)
		}
		rebase(&p, d, out)
		ps = append(ps, p)
	}
	if err := checkShards(ps, dirs); err != nil {
		return report.Profile{}, err
	}
	m := ps[0]
	m.Shard, m.Rows, m.NotApplicable, m.Runs, m.ElapsedSeconds, m.Abandoned = "", nil, nil, 0, 0, 0
	skipped := map[string]report.ProfileSkip{}
	for _, p := range ps {
		m.Shards = append(m.Shards, p.Shard)
		m.Runs += p.Runs
		m.Abandoned += p.Abandoned
		m.ElapsedSeconds = max(m.ElapsedSeconds, p.ElapsedSeconds)
		m.Interrupted = m.Interrupted || p.Interrupted
		m.BaselineBroken = m.BaselineBroken || p.BaselineBroken
		m.Rows = append(m.Rows, p.Rows...)
		for _, s := range p.NotApplicable {
			if s.Reason != naOtherShard {
				skipped[s.Class] = s
			}
		}
	}
	order := ClassNames()
	rank := func(class string) int {
		if i := slices.Index(order, class); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(m.Rows, func(a, b report.ProfileRow) int { return rank(a.Class) - rank(b.Class) })
	for _, c := range order {
		if s, ok := skipped[c]; ok && !slices.ContainsFunc(m.Rows, func(r report.ProfileRow) bool { return r.Class == c }) {
			m.NotApplicable = append(m.NotApplicable, s)
		}
	}
	return m, nil
}

// checkShards makes sure ps are the shards 1..N of one exploration.
func checkShards(ps []report.Profile, dirs []string) error {
	n := 0
	seen := map[int]string{}
	for i, p := range ps {
		sh, err := suite.ParseShard(p.Shard)
		switch {
		case p.Shard == "" || err != nil:
			return fmt.Errorf("merge: %s is a whole exploration, not a shard (--shard K/N): %w", dirs[i], ErrNotShards)
		case p.PlanHash != ps[0].PlanHash:
			return fmt.Errorf("merge: %s explored another lock, base or seed than %s: %w", dirs[i], dirs[0], ErrNotShards)
		case n != 0 && sh.N != n:
			return fmt.Errorf("merge: %s is a shard of %d, %s of %d: %w", dirs[i], sh.N, dirs[0], n, ErrNotShards)
		case seen[sh.K] != "":
			return fmt.Errorf("merge: shard %s twice (%s and %s): %w", p.Shard, seen[sh.K], dirs[i], ErrNotShards)
		}
		n, seen[sh.K] = sh.N, dirs[i]
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if seen[k] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("merge: shard %s missing: %w", strings.Join(missing, ", "), ErrNotShards)
	}
	return nil
}

// rebase makes a profile's paths, relative to from, relative to to.
func rebase(p *report.Profile, from, to string) {
	re := func(path string) string {
		if path == "" || filepath.IsAbs(path) {
			return path
		}
		return relTo(to, filepath.Join(from, filepath.FromSlash(path)))
	}
	run := func(r *report.ProfileRun) {
		if r == nil {
			return
		}
		r.File, r.Report, r.Timeline = re(r.File), re(r.Report), re(r.Timeline)
	}
	run(&p.Baseline)
	for i := range p.Rows {
		run(p.Rows[i].Found)
		run(p.Rows[i].Minimal)
		p.Rows[i].ShrinkPage = re(p.Rows[i].ShrinkPage)
	}
}
