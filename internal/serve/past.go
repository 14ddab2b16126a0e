package serve

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
)

// pastRun is one stored run in --out, as results.json describes it.
type pastRun struct {
	// Rel is the run's report directory relative to --out, with forward
	// slashes: the only name a request may use for it (see reports).
	Rel      string
	Dir      string // absolute
	Scenario string
	Seed     int64
	Verdict  checker.Verdict
	Lessons  []int
	Lang     report.Lang
	When     time.Time
}

// maxPastDepth bounds how deep under --out a report directory is looked
// for (a suite's runs are at depth 2, a map's cells and a shrink's
// candidates a few levels further).
const maxPastDepth = 6

// reports lists the stored runs under --out, newest first: every directory
// holding results.json and index.html. A directory that cannot be read is
// skipped.
func (s *Server) reports() []pastRun {
	root, err := filepath.Abs(s.o.Out)
	if err != nil {
		return nil
	}
	var out []pastRun
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, p); strings.Count(rel, string(filepath.Separator)) >= maxPastDepth {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "results.json" {
			return nil
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, report.IndexFile)); err != nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var res report.Results
		if json.Unmarshal(b, &res) != nil || res.Scenario == "" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, dir)
		out = append(out, pastRun{Rel: filepath.ToSlash(rel), Dir: dir, Scenario: res.Scenario, Seed: res.Seed,
			Verdict: res.Verdict, Lessons: res.Lessons, Lang: res.Lang, When: info.ModTime()})
		return nil
	})
	slices.SortStableFunc(out, func(a, b pastRun) int { return b.When.Compare(a.When) })
	return out
}

// report finds the stored run whose Rel is rel (reading --out again when
// the last reading does not have it: a run may have just written it).
func (s *Server) report(rel string) (pastRun, bool) {
	for _, fresh := range []bool{false, true} {
		for _, p := range s.pastRuns(fresh) {
			if p.Rel == rel {
				return p, true
			}
		}
	}
	return pastRun{}, false
}
