package paramap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

// Limits of a map.
const (
	MaxAxes = 2
	// MaxRuns bounds cells × count.
	MaxRuns = 20000
)

// Spec is a map to draw: a scenario file, one or two axes, the runs of
// each cell. The first axis runs along x (the table's columns), the
// second along y.
type Spec struct {
	// Scenario is the scenario file.
	Scenario string `json:"scenario"`
	Axes     []Axis `json:"axes"`
	// Count is the runs of each cell (seeds Seed, Seed+1, …; the same in
	// every cell).
	Count int `json:"count"`
	// Seed, when set, is the first seed; else the scenario's own.
	Seed *int64 `json:"seed,omitempty"`
	// File is the map file the spec was read from ("" from flags).
	File string `json:"file,omitempty"`
	// Description is the map file's, if any.
	Description string `json:"description,omitempty"`
	// Set are fields given one value in every cell, "path=value" (a map
	// run faster than its scenario: "time_scale=10").
	Set []string `json:"set,omitempty"`
}

// IsMapFile reports whether data is a map file (a mapping with a
// scenario field and a vary list) rather than a scenario.
func IsMapFile(data []byte) bool {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := n.Content[0]
	has := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		has[m.Content[i].Value] = true
	}
	return has["scenario"] && has["vary"]
}

// mapFields are a map file's fields.
var mapFields = []string{"description", "scenario", "set", "vary", "count", "seed"}

// LoadSpec reads a map file strictly: its fields (scenario, relative to
// the file; vary, a list of one or two "path=values"; set, a list of
// "path=value" for every cell; count; seed; description), each problem
// with the file, line and column.
func LoadSpec(file string) (Spec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Spec{}, fmt.Errorf("read map file: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Spec{}, fmt.Errorf("%s: invalid YAML: %w", file, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return Spec{}, fmt.Errorf("%s:1:1: a map file is a mapping with scenario, vary and count", file)
	}
	m := doc.Content[0]
	sp := Spec{File: file, Count: 10}
	var errs []string
	at := func(n *yaml.Node, format string, a ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d:%d: %s", file, n.Line, n.Column, fmt.Sprintf(format, a...)))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !slices.Contains(mapFields, k.Value) {
			at(k, "%s: unknown field; fields allowed in a map file: %s", k.Value, strings.Join(mapFields, ", "))
			continue
		}
		if seen[k.Value] {
			at(k, "%s: duplicate field", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "description":
			sp.Description = v.Value
		case "scenario":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				at(v, "scenario: must be the path of a scenario file, relative to this file")
				continue
			}
			sp.Scenario = filepath.Join(filepath.Dir(file), v.Value)
		case "count":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 1 {
				at(v, "count: must be an integer ≥ 1 (runs per cell)")
				continue
			}
			sp.Count = n
		case "seed":
			n, err := strconv.ParseInt(v.Value, 10, 64)
			if v.Kind != yaml.ScalarNode || err != nil {
				at(v, "seed: must be an integer")
				continue
			}
			sp.Seed = &n
		case "set":
			if v.Kind != yaml.SequenceNode {
				at(v, "set: must be a list of \"path=value\", e.g. [\"time_scale=10\"]")
				continue
			}
			for _, it := range v.Content {
				if _, _, err := ParseSet(it.Value); err != nil {
					at(it, "set: %v", err)
					continue
				}
				sp.Set = append(sp.Set, it.Value)
			}
		case "vary":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 || len(v.Content) > MaxAxes {
				at(v, "vary: must be a list of one or two \"path=values\", e.g. [\"ttl=10s..60s/10s\"]")
				continue
			}
			for _, it := range v.Content {
				a, err := ParseVary(it.Value)
				if err != nil {
					at(it, "vary: %v", err)
					continue
				}
				sp.Axes = append(sp.Axes, a)
			}
		}
	}
	for _, f := range []string{"scenario", "vary"} {
		if !seen[f] {
			at(m, "%s: missing required field", f)
		}
	}
	if len(errs) > 0 {
		return Spec{}, errors.New(strings.Join(errs, "\n"))
	}
	return sp, nil
}

// Cell is one point of the grid: a value per axis and the scenario with
// them set.
type Cell struct {
	// Index is the cell's position: x + y×len(x values).
	Index  int
	X, Y   int
	Values []string
	// Scenario is the cell's scenario, its File the cell's own YAML.
	Scenario scenario.Scenario
	YAML     []byte
}

// Label is "ttl=30s, faults[0].duration=20s".
func (c Cell) Label(axes []Axis) string {
	parts := make([]string, len(c.Values))
	for i, v := range c.Values {
		parts[i] = axes[i].Path + "=" + v
	}
	return strings.Join(parts, ", ")
}

// Cells builds every cell of the grid from the scenario file's node tree,
// with sets ("path=value") applied to every cell, and checks each with
// the strict parser. A path that names no field, or
// a value the field refuses, is an error naming the --vary, the field and
// the value; nothing runs. Each cell drops the scenario's expectation
// (the map is the expectation) and its fixed_by.
func Cells(file string, data []byte, sets []string, axes []Axis) ([]Cell, error) {
	if len(axes) == 0 || len(axes) > MaxAxes {
		return nil, fmt.Errorf("a map varies one or two parameters (got %d)", len(axes))
	}
	if len(axes) == 2 && axes[0].Path == axes[1].Path {
		return nil, fmt.Errorf("--vary %s given twice", axes[0].Path)
	}
	base, err := scenario.ParseDoc(file, data)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		path, value, err := ParseSet(s)
		if err != nil {
			return nil, err
		}
		for _, a := range axes {
			if a.Path == path {
				return nil, fmt.Errorf("--set %s: the map varies it", path)
			}
		}
		if err := base.Set(path, value); err != nil {
			var pe *scenario.PathError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("--set %s: %s", path, pe.Msg)
			}
			return nil, fmt.Errorf("--set %s: %w", path, err)
		}
	}
	if _, err := base.Scenario(); err != nil {
		return nil, err
	}
	nx, ny := len(axes[0].Values), 1
	if len(axes) == 2 {
		ny = len(axes[1].Values)
	}
	var cells []Cell
	var errs []string
	seen := map[string]bool{}
	for y := range ny {
		for x := range nx {
			c := Cell{Index: len(cells), X: x, Y: y, Values: []string{axes[0].Values[x]}}
			if len(axes) == 2 {
				c.Values = append(c.Values, axes[1].Values[y])
			}
			d := base.Clone()
			bad := false
			for i, v := range c.Values {
				if err := d.Set(axes[i].Path, v); err != nil {
					var pe *scenario.PathError
					if errors.As(err, &pe) {
						return nil, fmt.Errorf("--vary %s: %s", axes[i].Path, pe.Msg)
					}
					return nil, fmt.Errorf("--vary %s: %w", axes[i].Path, err)
				}
			}
			_ = d.Delete("expect")
			_ = d.Delete("fixed_by")
			sc, err := d.Scenario()
			if err != nil {
				var el *scenario.ErrorList
				if errors.As(err, &el) {
					for _, fe := range el.Errs {
						msg := fe.Msg
						if fe.Path != "" {
							msg = fe.Path + ": " + msg
						}
						if key := msg; !seen[key] {
							seen[key] = true
							errs = append(errs, fmt.Sprintf("%s (cell %s): %s", file, c.Label(axes), msg))
						}
					}
				} else {
					errs = append(errs, err.Error())
				}
				bad = true
			}
			if !bad {
				c.Scenario = sc
				c.YAML, _ = d.Bytes()
			}
			cells = append(cells, c)
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return cells, nil
}

// CellResult is how the runs of one cell ended.
type CellResult struct {
	X      int      `json:"x"`
	Y      int      `json:"y"`
	Values []string `json:"values"`
	// Runs got a verdict; Invalid, Unknown and Valid split them. Errors
	// had none (not in Runs).
	Runs    int `json:"runs"`
	Invalid int `json:"invalid"`
	Unknown int `json:"unknown"`
	Valid   int `json:"valid"`
	Errors  int `json:"errors"`
	// Rate is Invalid / Runs, UnknownShare Unknown / Runs (0 without runs).
	Rate         float64 `json:"rate"`
	UnknownShare float64 `json:"unknown_share"`
	InvalidSeeds []int64 `json:"invalid_seeds"`
	// FirstInvalid is the report of the cell's invalid run with the
	// lowest seed ("" when none).
	FirstInvalid string `json:"first_invalid_report,omitempty"`
	// Dir holds the cell's scenario (cell.yaml) and its runs.
	Dir string `json:"dir"`
	// MaxTimerLagMS is the latest a harness timer fired in any of the
	// cell's runs (wall ms): how busy the machine was. A lag near the
	// margin between a cell and the boundary can move the cell's runs.
	MaxTimerLagMS float64 `json:"max_timer_lag_ms"`
}

// Map is a finished map (map.json).
type Map struct {
	Scenario    string       `json:"scenario"`
	File        string       `json:"file"`
	MapFile     string       `json:"map_file,omitempty"`
	Description string       `json:"description,omitempty"`
	Algorithm   string       `json:"algorithm"`
	Axes        []Axis       `json:"axes"`
	Seeds       []int64      `json:"seeds"`
	Cells       []CellResult `json:"cells"`
	Runs        int          `json:"runs"`
	// Seconds is the wall time of every cell's runs, seconds.
	Seconds float64 `json:"wall_seconds"`
	Aborted bool    `json:"aborted,omitempty"`
}

// Cell returns the result at x, y.
func (m Map) Cell(x, y int) (CellResult, bool) {
	for _, c := range m.Cells {
		if c.X == x && c.Y == y {
			return c, true
		}
	}
	return CellResult{}, false
}

// CellFile is a cell's scenario in its directory.
const CellFile = "cell.yaml"

// Reruns is how many times a map runs again a run the machine spoiled
// (suite.Pool.Rerun), as a suite does by default.
const Reruns = 2

// Run runs every cell Count times with the same seeds on the pool, into
// <dir>/cells/c<N>/, and tallies each cell. done, when set, is called as
// each run finishes, with its cell.
func Run(ctx context.Context, pool *suite.Pool, dir string, sp Spec, cells []Cell, seeds []int64, done func(Cell, suite.Outcome)) (Map, error) {
	began := time.Now()
	m := Map{Axes: sp.Axes, Seeds: seeds, MapFile: sp.File, File: sp.Scenario, Description: sp.Description}
	var jobs []suite.Job
	cellOf := map[int]Cell{}
	for _, c := range cells {
		cdir := filepath.Join(dir, "cells", fmt.Sprintf("c%02d", c.Index))
		if err := os.MkdirAll(cdir, 0o755); err != nil {
			return m, fmt.Errorf("cell directory: %w", err)
		}
		file := filepath.Join(cdir, CellFile)
		head := fmt.Sprintf("# Cell %s of the map of %s (locksim map).\n", c.Label(sp.Axes), sp.Scenario)
		if err := os.WriteFile(file, append([]byte(head), c.YAML...), 0o644); err != nil {
			return m, fmt.Errorf("write cell: %w", err)
		}
		sc := c.Scenario
		sc.File = file
		m.Scenario, m.Algorithm = sc.Name, sc.Algorithm
		for _, seed := range seeds {
			j := suite.Job{N: len(jobs), Scenario: sc, Seed: seed, Out: cdir}
			cellOf[j.N] = c
			jobs = append(jobs, j)
		}
		m.Cells = append(m.Cells, CellResult{X: c.X, Y: c.Y, Values: c.Values, Dir: cdir, InvalidSeeds: []int64{}})
	}
	each := func(o suite.Outcome) {
		if done != nil {
			done(cellOf[o.N], o)
		}
	}
	outs := pool.RunEach(ctx, jobs, each)
	// A run the machine spoiled measures the machine, not the cell: it
	// runs again, at fewer at once (issue 32).
	pool.Rerun(ctx, outs, Reruns, each)
	m.Aborted = ctx.Err() != nil
	for _, o := range outs {
		c := &m.Cells[cellOf[o.N].Index]
		switch {
		case o.Results == nil || o.Aborted:
			c.Errors++
			continue
		}
		c.Runs++
		c.MaxTimerLagMS = max(c.MaxTimerLagMS, o.Results.MaxTimerLagMS)
		switch o.Results.Verdict {
		case checker.Invalid:
			c.Invalid++
			c.InvalidSeeds = append(c.InvalidSeeds, o.Seed)
			if c.FirstInvalid == "" {
				c.FirstInvalid = o.Results.ReportDir // outcomes are in seed order per cell
			}
		case checker.Unknown:
			c.Unknown++
		default:
			c.Valid++
		}
	}
	for i := range m.Cells {
		c := &m.Cells[i]
		m.Runs += c.Runs + c.Errors
		if c.Runs > 0 {
			c.Rate = float64(c.Invalid) / float64(c.Runs)
			c.UnknownShare = float64(c.Unknown) / float64(c.Runs)
		}
	}
	m.Seconds = time.Since(began).Seconds()
	return m, nil
}

// Seeds are count consecutive seeds from first.
func Seeds(first int64, count int) []int64 {
	out := make([]int64, count)
	for i := range out {
		out[i] = first + int64(i)
	}
	return out
}

// ScenarioData reads the scenario file of a spec (and checks it parses).
func ScenarioData(file string) ([]byte, scenario.Scenario, error) {
	sc, err := scenario.Load(file)
	if err != nil {
		return nil, scenario.Scenario{}, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, scenario.Scenario{}, fmt.Errorf("read scenario: %w", err)
	}
	return bytes.Clone(data), sc, nil
}
