package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
	"github.com/locksim/locksim/internal/why"
)

const checkUsage = `Usage: locksim check <report dir | history.jsonl> [flags]

Re-runs the checkers and rewrites the report from a stored history, with no
Redis at all. Given a report directory, it reads history.jsonl and
scenario.yaml there and rewrites the report in place, in the language it
was written in (--lang to change it); given a history file, it writes the
report beside it. It then verifies the claims of the report it wrote, as
--claims does, and logs "N claims, all hold".

The verdict equals the original run's; an aborted run stays aborted. Exit
codes as for run: 0 valid (or expectation met), 1 invalid (or not met),
2 unknown, 254 bad input, 255 internal error (also when a claim it wrote is
false: each is printed with the records that contradict it).

With --claims it rewrites nothing: it verifies every claim the report's
results.json makes (who held what when, how each key ended and why, each
fault as planned, ...) against its history.jsonl, by a second reading of the
history independent of the one that made them, and prints "N claims, all
hold" or each false claim with the records that contradict it. Exit codes
with --claims: 0 every claim holds, 1 a claim is false, 254 bad input (a
missing directory or file, results.json without claims, an unreadable
history; the message names the file and the reason).

Examples:
  locksim check reports/gc-pause/20261129-101500-seed42
  locksim check reports/gc-pause/20261129-101500-seed42/history.jsonl --json
  for d in reports/*/*/; do locksim check "$d"; done
  locksim check --claims reports/gc-pause/20261129-101500-seed42

Flags:
`

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, checkUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the results object as JSON on stdout")
	claims := fs.Bool("claims", false, "verify the stored report's claims against its history, rewriting nothing (exit 0 all hold, 1 a claim is false, 254 bad input)")
	lang := report.English
	fs.Var(&lang, "lang", "report language: "+report.LanguageList()+" (default: the stored report's own)")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if len(paths) != 1 {
		fmt.Fprintln(stderr, "locksim check: give one report directory or history.jsonl")
		return exitUsage
	}
	if *claims {
		return cmdCheckClaims(paths[0], stdout, stderr)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	path := paths[0]
	dir, file := path, filepath.Join(path, "history.jsonl")
	if st, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "locksim check: %v\n", err)
		return exitUsage
	} else if !st.IsDir() {
		dir, file = filepath.Dir(path), path
	}
	if looksLikeScenario(file) {
		fmt.Fprintf(stderr, "locksim check: %s looks like a scenario file (YAML), not a history: check re-checks a run's history.jsonl or report directory; to run the scenario: locksim run %s\n", file, file)
		return exitUsage
	}
	h, err := history.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "locksim check: %v\n", err)
		return exitUsage
	}
	// A history alone names no scenario file: the report shows none (the
	// reproduce line names the history).
	sc := scenario.Scenario{Name: h.Header.Scenario, TimeScale: h.Header.TimeScale}
	if st, err := os.Stat(filepath.Join(dir, "scenario.yaml")); err == nil && !st.IsDir() {
		// Parse, not Load: the stored copy lives away from the scenario's
		// directory (its fixed_by comes from results.json).
		data, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
		if err != nil {
			fmt.Fprintf(stderr, "locksim check: stored scenario: %v\n", err)
			return exitUsage
		}
		stored, err := scenario.Parse(filepath.Join(dir, "scenario.yaml"), data)
		if err != nil {
			fmt.Fprintf(stderr, "locksim check: stored scenario: %v\n", err)
			return exitUsage
		}
		sc = stored
	}
	// Keep what only the original run knew: its reproduce command, wall
	// time, scenario file, the scenario that fixes it, whether it was
	// aborted and its experiments (suite.Options.Why).
	var prev struct {
		Counterfactuals []why.Counterfactual `json:"counterfactuals"`
		Reproduce       string               `json:"reproduce"`
		WallSeconds     float64              `json:"wall_seconds"`
		Aborted         bool                 `json:"aborted"`
		File            string               `json:"file"`
		FixedBy         string               `json:"fixed_by"`
		Lang            report.Lang          `json:"lang"`
		FixedBySide     string               `json:"fixed_by_side"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "results.json")); err == nil {
		_ = json.Unmarshal(b, &prev)
	}
	if prev.File != "" {
		sc.File = prev.File
	}
	// The report keeps its own language unless --lang names another.
	langSet := false
	fs.Visit(func(f *flag.Flag) { langSet = langSet || f.Name == "lang" })
	if !langSet && prev.Lang != "" {
		lang = prev.Lang
	}
	repro := prev.Reproduce
	if repro == "" {
		repro = fmt.Sprintf("locksim check %s", path)
	}
	cut := h.Cut
	if cut && h.Header.Ops > len(h.Ops) {
		log.Warn("the history is cut off: it holds fewer operations than its header says (the file was truncated); the verdict is at most unknown unless it shows a violation", "history", file, "ops", len(h.Ops), "header_ops", h.Header.Ops)
	} else if cut {
		log.Warn("the history is cut off: the run stopped while streaming it; the verdict is at most unknown unless it shows a violation", "history", file)
	}
	log.Info("locksim check", "history", file, "ops", len(h.Ops), "scenario", h.Header.Scenario, "seed", h.Header.Seed, "aborted", prev.Aborted, "cut", cut)
	stopProgress := checkProgress(log, "checking", len(h.Ops))
	in, err := suite.Analyse(context.Background(), sc, h, suite.AnalyseOptions{
		Reproduce: repro, Aborted: prev.Aborted, Cut: cut, Lang: lang, Version: version(), FixedBy: prev.FixedBy})
	stopProgress("checked")
	if err != nil {
		log.Error("check", "err", err)
		return exitInternal
	}
	in.WallSeconds, in.Counterfactuals = prev.WallSeconds, prev.Counterfactuals
	storedSpoiled(in.Counterfactuals, dir)
	storedFix(&in, sc, dir, prev.FixedBySide, lang)
	stopProgress = checkProgress(log, "writing report", len(h.Ops))
	r, err := report.Write(dir, in)
	stopProgress("report written")
	if err != nil {
		log.Error("write report", "dir", dir, "err", err)
		return exitInternal
	}
	if *asJSON {
		b, err := json.Marshal(runLine{Results: r, ExitCode: exitCode(r)})
		if err != nil {
			log.Error("encode results", "err", err)
			return exitInternal
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		line := suite.SummaryLine(r)
		if prev.Aborted {
			line += " [aborted]"
		}
		if cut {
			line += " [cut off]"
		}
		fmt.Fprintln(stdout, line)
	}
	log.Info("report written", "path", filepath.Join(dir, "index.html"))
	if !verifyWritten(log, dir, stderr) {
		return exitInternal
	}
	return exitCode(r)
}

// storedSpoiled completes, for a report in dir written before the
// experiments recorded it, each unknown experiment's Spoiled cause from
// its own results.json: in the report's why/ (a copied report), else
// where it was written.
func storedSpoiled(cs []why.Counterfactual, dir string) {
	for i, c := range cs {
		if c.Verdict != finding.Unknown || c.Spoiled != "" || c.Report == "" {
			continue
		}
		for _, d := range []string{filepath.Join(dir, "why", c.Name, filepath.Base(c.Report)), c.Report} {
			var r struct {
				Spoiled string `json:"spoiled"`
			}
			if b, err := os.ReadFile(filepath.Join(d, "results.json")); err == nil && json.Unmarshal(b, &r) == nil {
				cs[i].Spoiled = r.Spoiled
				break
			}
		}
	}
}

// storedFix completes in.FixedBy for a stored report in dir: what the fix
// is, from the copy its experiment ran in why/ (the run's fixed_by path is
// relative to where the run was made), else side, the run's own
// fixed_by_side; and the fix's newest report in the same out dir and lang.
func storedFix(in *report.Input, sc scenario.Scenario, dir, side string, lang report.Lang) {
	if in.FixedBy != nil && in.FixedBy.Faults == "" {
		// Its fixed_by path leads nowhere from here (it is relative to
		// where the run was made): read what the fix is from the copy its
		// experiment ran as it is, in the report's why/, or keep what the
		// run said (a check from another directory named
		// redlock-no-clock-jump as a fix; reader9).
		for _, c := range in.Counterfactuals {
			f := filepath.Join(dir, "why", filepath.Base(c.File))
			if c.Change == why.FixedByOwn && c.Name == in.FixedBy.Name {
				if _, err := os.Stat(f); err == nil {
					in.FixedBy.Faults, in.FixedBy.Side = suite.FixedFaults(sc, f)
					in.FixedBy.Changes = suite.FixedChanges(sc, f)
				}
			}
		}
		if in.FixedBy.Side == "" {
			in.FixedBy.Side = side
		}
	}
	if in.FixedBy != nil {
		// <out>/<scenario>/<run>/: the fixed scenario's newest report in
		// the same out dir and language, if any.
		in.FixedBy.Report = report.LatestReport(filepath.Dir(filepath.Dir(dir)), in.FixedBy.Name, lang)
	}
}

// verifyWritten verifies the claims of the report check has just written
// in dir, as `check --claims` would, and logs "N claims, all hold"; it
// prints each false claim with its records on stderr and reports false
// when one is false (locksim's own error, whatever the run's verdict) or
// the report cannot be read back.
func verifyWritten(log *slog.Logger, dir string, stderr io.Writer) bool {
	v, err := verifyReport(dir)
	if err != nil {
		log.Error("verify claims", "err", err)
		return false
	}
	var said strings.Builder
	if !v.print(&said) {
		fmt.Fprint(stderr, said.String())
		log.Error("the report states a claim its history contradicts (a locksim bug: please report it with this directory)", "dir", dir)
		return false
	}
	log.Info("claims verified", "result", strings.TrimSpace(said.String()))
	return true
}

// checkProgress logs what (e.g. "checking") at once and every 2 s until
// stop is called (a big history takes seconds), then, for a big history,
// one line with what was done and how long it took.
func checkProgress(log *slog.Logger, what string, ops int) (stop func(done string)) {
	began := time.Now()
	log.Info(what, "ops", ops)
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				log.Info(what, "ops", ops, "elapsed", time.Since(began).Round(100*time.Millisecond).String())
			}
		}
	}()
	return func(done string) {
		close(quit)
		<-finished
		if ops >= 10000 {
			log.Info(done, "ops", ops, "seconds", fmt.Sprintf("%.2f", time.Since(began).Seconds()))
		}
	}
}

// looksLikeScenario says whether file is a scenario rather than a history:
// its name ends in .yaml or .yml, or its first line that is neither blank
// nor a comment is a YAML mapping key ("name: gc-pause"), where every
// line of a history is a JSON object (issue 31: a scenario given to check
// was refused as "invalid character 'a' in literal null").
func looksLikeScenario(file string) bool {
	if ext := strings.ToLower(filepath.Ext(file)); ext == ".yaml" || ext == ".yml" {
		return true
	}
	f, err := os.Open(file)
	if err != nil {
		return false // ReadFile says why
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64*1024))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || l == "---" {
			continue
		}
		return yamlKey.MatchString(l)
	}
	return false
}

// yamlKey is a line of a YAML mapping at the top: a key, a colon, then
// the end of the line or a space.
var yamlKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*:(\s|$)`)
