package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/scenario"
)

const checkUsage = `Usage: locksim check <report dir | history.jsonl> [flags]

Re-runs the checkers and rewrites the report from a stored history, with no
Redis at all. Given a report directory, it reads history.jsonl and
scenario.yaml there and rewrites the report in place; given a history file,
it writes the report beside it.

Examples:
  locksim check reports/gc-pause/20261129-101500-seed42
  locksim check /tmp/history.jsonl --json

Flags:
`

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, checkUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the results object as JSON on stdout")
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
	log := slog.New(slog.NewTextHandler(stderr, nil))
	path := paths[0]
	dir, file := path, filepath.Join(path, "history.jsonl")
	if st, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "locksim check: %v\n", err)
		return exitUsage
	} else if !st.IsDir() {
		dir, file = filepath.Dir(path), path
	}
	h, err := history.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "locksim check: %v\n", err)
		return exitUsage
	}
	sc := scenario.Scenario{Name: h.Header.Scenario, TimeScale: h.Header.TimeScale, File: file}
	if st, err := os.Stat(filepath.Join(dir, "scenario.yaml")); err == nil && !st.IsDir() {
		stored, err := scenario.Load(filepath.Join(dir, "scenario.yaml"))
		if err != nil {
			fmt.Fprintf(stderr, "locksim check: stored scenario: %v\n", err)
			return exitUsage
		}
		sc = stored
	}
	log.Info("locksim check", "history", file, "ops", len(h.Ops), "scenario", h.Header.Scenario, "seed", h.Header.Seed)
	repro := fmt.Sprintf("locksim check %s", path)
	in, err := analyse(context.Background(), sc, h, repro)
	if err != nil {
		log.Error("check", "err", err)
		return exitInternal
	}
	return finish(dir, in, *asJSON, log, stdout)
}
