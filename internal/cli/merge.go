package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

const mergeUsage = `Usage: locksim merge <dir>... [flags]

Combines the results of the shards of one suite (locksim run --shard K/N,
each into its own --out) into one: the suite page <out>/index.html linking
every run's report where it lies, one JUnit file, the results as JSON Lines
(<out>/results.jsonl, one object per run as run --json prints them), and
the summary with every sweep's violation rate and failing seeds on stdout.
Each <dir> is searched at any depth, so CI artifacts can be given as they
were downloaded. Every shard K = 1..N of the same plan must be there.

Given the shards of an exploration (locksim explore --shard K/N: their
directories hold a profile.json), it writes one safety profile instead
(<out>/profile.html, profile.json) with every shard's rows, and exits as
the whole exploration would have: 1 when a class broke the lock, else 0.

The exit code is the one a single run of the whole suite would have
given: 0 every expectation met (or valid), 1 one not met (or invalid),
2 unknown, 255 a run without a verdict, 130/143 a shard was interrupted;
254 when the shards are incomplete, repeated or of different suites.

Examples:
  locksim run scenarios/ --count 20 --seed 1 --shard 1/3 --out shard-1   # on three machines,
  locksim run scenarios/ --count 20 --seed 1 --shard 2/3 --out shard-2   # or one after another
  locksim run scenarios/ --count 20 --seed 1 --shard 3/3 --out shard-3
  locksim merge shard-1 shard-2 shard-3 --out merged
  locksim merge artifacts/ --out merged --junit merged/junit.xml
  locksim merge explore-1 explore-2 --out merged                          # an exploration's shards

Flags:
`

// mergeFlags are the flags of `locksim merge`.
type mergeFlags struct {
	out   string
	junit string
	json  bool
}

func parseMergeFlags(args []string, stderr io.Writer) (f mergeFlags, dirs []string, code int, ok bool) {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mergeUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "merged", "directory for the merged suite page, JUnit file and results.jsonl")
	fs.StringVar(&f.junit, "junit", "", "JUnit XML file (default <out>/junit.xml)")
	fs.BoolVar(&f.json, "json", false, "print one results object per run as JSON Lines on stdout (instead of the summary)")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, nil, exitValid, false
		}
		return f, nil, exitUsage, false
	}
	if len(dirs) == 0 {
		fmt.Fprintln(stderr, "locksim merge: no directory given (try: locksim merge shard-1 shard-2 shard-3 --out merged)")
		return f, nil, exitUsage, false
	}
	if f.junit == "" {
		f.junit = filepath.Join(f.out, "junit.xml")
	}
	return f, dirs, exitValid, true
}

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	f, dirs, code, ok := parseMergeFlags(args, stderr)
	if !ok {
		return code
	}
	profiles, err := explore.Profiles(dirs)
	if err != nil {
		fmt.Fprintf(stderr, "locksim %v\n", err)
		return exitUsage
	}
	if len(profiles) > 0 {
		return mergeExplore(f, profiles, stdout, stderr)
	}
	m, err := suite.Merge(dirs)
	if err != nil {
		fmt.Fprintf(stderr, "locksim %v\n", err)
		return exitUsage
	}
	if len(m.Outcomes) == 0 {
		fmt.Fprintf(stderr, "locksim merge: no run results (%s or results.json) under %v\n", suite.ManifestFile, dirs)
		return exitUsage
	}
	if err := checkWritable(f.out); err != nil {
		fmt.Fprintf(stderr, "locksim merge: --out %s: %v\n", f.out, err)
		return exitUsage
	}
	codes := make([]int, len(m.Outcomes))
	runs := make([]report.Results, len(m.Outcomes))
	jl, err := os.Create(filepath.Join(f.out, "results.jsonl"))
	if err != nil {
		fmt.Fprintf(stderr, "locksim merge: %v\n", err)
		return exitInternal
	}
	for i, o := range m.Outcomes {
		codes[i] = codeOf(o, m.Interrupted)
		runs[i] = o.Result()
		b, err := json.Marshal(runLine{Results: runs[i], ExitCode: codes[i]})
		if err == nil {
			_, err = fmt.Fprintln(jl, string(b))
		}
		if err == nil && f.json {
			_, err = fmt.Fprintln(stdout, string(b))
		}
		if err != nil {
			fmt.Fprintf(stderr, "locksim merge: results.jsonl: %v\n", err)
			return exitInternal
		}
	}
	if err := jl.Close(); err != nil {
		fmt.Fprintf(stderr, "locksim merge: results.jsonl: %v\n", err)
		return exitInternal
	}
	if err := report.WriteSuite(f.out, runs, m.Lang); err != nil {
		fmt.Fprintf(stderr, "locksim merge: suite page: %v\n", err)
		return exitInternal
	}
	if err := suite.WriteJUnit(f.junit, m.Outcomes); err != nil {
		fmt.Fprintf(stderr, "locksim merge: --junit %s: %v\n", f.junit, err)
		return exitInternal
	}
	sweep := false
	perFile := map[string]int{}
	for _, o := range m.Outcomes {
		perFile[o.Scenario.File]++
		sweep = sweep || perFile[o.Scenario.File] > 1
	}
	if !f.json {
		printSummary(stdout, m.Outcomes, sweep)
	}
	from := fmt.Sprintf("%d shards (%v)", len(m.Shards), m.Shards)
	if m.Loose > 0 {
		from += fmt.Sprintf(" and %d runs outside any shard", m.Loose)
	}
	fmt.Fprintf(stderr, "locksim merge: %d runs from %s; suite page %s, JUnit %s, results %s\n", len(m.Outcomes), from,
		filepath.Join(f.out, report.IndexFile), f.junit, filepath.Join(f.out, "results.jsonl"))
	if m.Interrupted != 0 {
		return m.Interrupted
	}
	return combine(codes)
}

// mergeExplore combines the shards of an exploration (explore --shard
// K/N, each with its profile.json) into one profile in --out, and prints
// it as explore does. Its exit code is the one the whole exploration
// would have given.
func mergeExplore(f mergeFlags, dirs []string, stdout, stderr io.Writer) int {
	if err := checkWritable(f.out); err != nil {
		fmt.Fprintf(stderr, "locksim merge: --out %s: %v\n", f.out, err)
		return exitUsage
	}
	p, err := explore.Merge(dirs, f.out)
	if err != nil {
		fmt.Fprintf(stderr, "locksim %v\n", err)
		return exitUsage
	}
	if err := explore.Write(f.out, p, report.English); err != nil {
		fmt.Fprintf(stderr, "locksim merge: %v\n", err)
		return exitInternal
	}
	fmt.Fprintf(stderr, "locksim merge: the exploration of %s from %d shards (%s)\n", p.Algorithm, len(p.Shards), strings.Join(p.Shards, ", "))
	printProfile(stdout, p, f.out, report.English)
	return exploreCode(p)
}
