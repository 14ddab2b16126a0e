package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/paramap"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/suite"
)

const mapUsage = `Usage: locksim map <scenario> --vary path=values [--vary path=values] [flags]
       locksim map <map file> [flags]

Maps where a lock is safe: varies one or two parameters of a scenario over
a grid and runs every cell --count times, with the same seeds in every
cell. A parameter is a field of the scenario by its own name: ttl,
workload.job, faults[0].duration, faults[1].rate, nemesis.interval, …
(a field the file leaves out is added). Values are a range lo..hi/step of
durations or numbers, both ends included, or a comma-separated list. Each
cell is checked by the scenario parser before anything starts: a path
that names no field, or a value the field refuses, is an error.

--set path=value gives a field one value in every cell (e.g. a faster
time_scale). A map file (scenarios/maps/) holds the same: scenario
(relative to the map file), vary (one or two), set, count and,
optionally, seed; --count and --seed override its own.

It writes, in <out>/<scenario>-map/<time>/: map.png (a heatmap of the
violation rate, each cell with its rate, its invalid runs and, when some
runs were unknown, their share), map.html (the table, linking each cell's
first invalid run), map.json, and cells/ with each cell's scenario and
runs. The first axis runs along x, the second along y.

Examples:
  locksim map scenarios/gc-pause.yaml --vary ttl=10s..50s/10s --vary 'faults[0].duration=10s..50s/10s' --count 10
  locksim map scenarios/client-clock-skew.yaml --vary faults[0].rate=0.8,0.9,1,1.05 --count 5
  locksim map scenarios/maps/gc-pause.yaml
  locksim map scenarios/maps/client-clock-skew.yaml --count 3 --out /tmp/maps

Exit codes: 0 the map was written, 254 bad usage, scenario or parameter
(nothing started), 255 a run had no verdict (the map is still written),
130/143 interrupted (the map of the runs so far is written).

Flags:
`

// varyFlags collects repeated --vary flags.
type varyFlags []string

func (v *varyFlags) String() string     { return strings.Join(*v, " ") }
func (v *varyFlags) Set(s string) error { *v = append(*v, s); return nil }

type mapFlags struct {
	out      string
	vary     varyFlags
	set      varyFlags
	count    int
	countSet bool
	seed     *int64
	parallel int
	backend  string
	lang     report.Lang
	verbose  bool
}

func parseMapFlags(args []string, stderr io.Writer) (f mapFlags, pos []string, code int, ok bool) {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mapUsage); fs.PrintDefaults() }
	fs.StringVar(&f.out, "out", "reports", "report root: the map writes <out>/<scenario>-map/<time>/")
	fs.Var(&f.vary, "vary", "a parameter and its values, path=lo..hi/step or path=a,b,c (once or twice; the first is x)")
	fs.Var(&f.set, "set", "a field given one value in every cell, path=value (repeatable; e.g. time_scale=10)")
	fs.IntVar(&f.count, "count", 10, "runs per cell (seeds from the scenario's seed, or --seed)")
	seed := fs.String("seed", "", "first seed of every cell (default: the map file's, else the scenario's, else drawn and printed)")
	fs.IntVar(&f.parallel, "parallel", suite.DefaultParallel(), fmt.Sprintf("runs at the same time (default %d per CPU)", suite.PerCPU))
	poolFlags(fs, &f.backend, &f.lang, &f.verbose)
	pos, code, ok = parseCommandFlags(fs, args)
	if !ok {
		return f, nil, code, false
	}
	fs.Visit(func(fl *flag.Flag) { f.countSet = f.countSet || fl.Name == "count" })
	bad := func(format string, a ...any) (mapFlags, []string, int, bool) {
		fmt.Fprintf(stderr, "locksim map: "+format+"\n", a...)
		return f, nil, exitUsage, false
	}
	if *seed != "" {
		n, err := strconv.ParseInt(*seed, 10, 64)
		if err != nil {
			return bad("--seed %q: not an integer", *seed)
		}
		f.seed = &n
	}
	switch {
	case len(pos) != 1:
		return bad("give one scenario (with --vary) or one map file (try: locksim map --help)")
	case f.count < 1:
		return bad("--count %d: must be ≥ 1", f.count)
	case f.parallel < 1:
		return bad("--parallel %d: must be ≥ 1", f.parallel)
	case len(f.vary) > paramap.MaxAxes:
		return bad("%d --vary flags: a map varies one or two parameters", len(f.vary))
	case f.backend != "" && f.backend != cluster.BackendLocal && f.backend != cluster.BackendEmbedded:
		return bad("--backend %q: want %s or %s", f.backend, cluster.BackendLocal, cluster.BackendEmbedded)
	}
	return f, pos, exitValid, true
}

// mapSpec reads what to map: a map file, or a scenario with --vary.
func mapSpec(f mapFlags, path string) (paramap.Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return paramap.Spec{}, err
	}
	var sp paramap.Spec
	if paramap.IsMapFile(data) {
		if len(f.vary) > 0 {
			return sp, fmt.Errorf("%s is a map file: its vary is the map's; --vary is for a scenario file", path)
		}
		if sp, err = paramap.LoadSpec(path); err != nil {
			return sp, err
		}
	} else {
		if len(f.vary) == 0 {
			return sp, fmt.Errorf("%s is a scenario: give what to vary, e.g. --vary ttl=10s..60s/10s", path)
		}
		sp = paramap.Spec{Scenario: path, Count: f.count}
		for _, v := range f.vary {
			a, err := paramap.ParseVary(v)
			if err != nil {
				return sp, err
			}
			sp.Axes = append(sp.Axes, a)
		}
	}
	for _, s := range f.set {
		if _, _, err := paramap.ParseSet(s); err != nil {
			return sp, err
		}
		sp.Set = append(sp.Set, s)
	}
	if f.countSet || sp.File == "" {
		sp.Count = f.count
	}
	if f.seed != nil {
		sp.Seed = f.seed
	}
	return sp, nil
}

func cmdMap(args []string, stdout, stderr io.Writer) int {
	f, pos, code, ok := parseMapFlags(args, stderr)
	if !ok {
		return code
	}
	sp, err := mapSpec(f, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "locksim map: %v\n", err)
		return exitUsage
	}
	data, sc, err := paramap.ScenarioData(sp.Scenario)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	cells, err := paramap.Cells(sp.Scenario, data, sp.Set, sp.Axes)
	if err != nil {
		fmt.Fprintf(stderr, "locksim map: %v\n", err)
		return exitUsage
	}
	if n := len(cells) * sp.Count; n > paramap.MaxRuns {
		fmt.Fprintf(stderr, "locksim map: %d cells × %d runs = %d runs; at most %d\n", len(cells), sp.Count, n, paramap.MaxRuns)
		return exitUsage
	}
	var first int64
	switch {
	case sp.Seed != nil:
		first = *sp.Seed
	case sc.Seed != nil:
		first = *sc.Seed
	default:
		first = time.Now().UnixNano() % (1 << 40)
	}
	seeds := paramap.Seeds(first, sp.Count)
	dir, code := commandDir("map", f.out, sc.Name, f.backend, stderr)
	if code != exitValid {
		return code
	}
	var axes []string
	for _, a := range sp.Axes {
		axes = append(axes, fmt.Sprintf("%s ∈ {%s}", a.Path, strings.Join(a.Values, ", ")))
	}
	total := len(cells) * sp.Count
	fmt.Fprintf(stderr, "locksim map: %s, %s; %d cells × %d seeds (%d..%d) = %d runs; into %s\n",
		sp.Scenario, strings.Join(axes, " × "), len(cells), sp.Count, seeds[0], seeds[len(seeds)-1], total, dir)

	prog, log := commandLog(stderr, f.verbose)
	ctx, pool, interrupted, stop := commandSession(dir, f.parallel, f.backend, f.lang, log)
	defer stop()
	defer pool.Close()
	prog.start(total)
	var mu sync.Mutex
	done := 0
	m, err := paramap.Run(ctx, pool, dir, sp, cells, seeds, func(c paramap.Cell, o suite.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if prog.tty {
			prog.finished(o, total)
			return
		}
		v := "no verdict"
		if o.Results != nil {
			v = string(o.Results.Verdict)
		}
		again := ""
		if o.Retry > 0 {
			total++
			again = fmt.Sprintf(" (rerun %d)", o.Retry)
		}
		fmt.Fprintf(prog, "[%d/%d, %d at once]%s %s seed %d: %s\n", done, total, o.Parallel, again, c.Label(sp.Axes), o.Seed, v)
	})
	prog.stop()
	if err != nil {
		fmt.Fprintf(stderr, "locksim map: %v\n", err)
		return exitInternal
	}
	// The reports the table links get their charts.
	for _, c := range m.Cells {
		if c.FirstInvalid == "" {
			continue
		}
		cs := cells[c.Y*len(sp.Axes[0].Values)+c.X].Scenario
		cs.File = filepath.Join(c.Dir, paramap.CellFile)
		if _, err := suite.Redraw(context.WithoutCancel(ctx), c.FirstInvalid, cs, f.lang, version()); err != nil {
			log.Warn("draw the charts of a cell's first invalid run", "err", err)
		}
	}
	if err := paramap.Write(dir, m); err != nil {
		fmt.Fprintf(stderr, "locksim map: %v\n", err)
		return exitInternal
	}
	printMap(stdout, m)
	fmt.Fprintf(stdout, "map=%s page=%s data=%s\n", filepath.Join(dir, paramap.PNGFile), filepath.Join(dir, paramap.HTMLFile), filepath.Join(dir, paramap.JSONFile))
	if c := interrupted.Load(); c != 0 {
		return int(c)
	}
	for _, c := range m.Cells {
		if c.Errors > 0 {
			return exitInternal
		}
	}
	return exitValid
}

// printMap prints the grid of violation rates, y from the top.
func printMap(w io.Writer, m paramap.Map) {
	nx := len(m.Axes[0].Values)
	ny := 1
	if len(m.Axes) > 1 {
		ny = len(m.Axes[1].Values)
	}
	fmt.Fprintf(w, "%s: violation rate per cell (%d seeds each, %d runs, %.1fs)\n", m.Scenario, len(m.Seeds), m.Runs, m.Seconds)
	head := fmt.Sprintf("%-14s", "")
	if len(m.Axes) > 1 {
		head = fmt.Sprintf("%-14s", clipTo(m.Axes[1].Path, 14))
	}
	for _, v := range m.Axes[0].Values {
		head += fmt.Sprintf(" %9s", clipTo(v, 9))
	}
	fmt.Fprintln(w, head+"   ← "+m.Axes[0].Path)
	for y := ny - 1; y >= 0; y-- {
		row := fmt.Sprintf("%-14s", "")
		if len(m.Axes) > 1 {
			row = fmt.Sprintf("%-14s", clipTo(m.Axes[1].Values[y], 14))
		}
		for x := range nx {
			c, _ := m.Cell(x, y)
			cell := "-"
			if c.Runs > 0 {
				cell = fmt.Sprintf("%.0f%%", 100*c.Rate)
				if c.Unknown > 0 {
					cell += "?"
				}
			}
			row += fmt.Sprintf(" %9s", cell)
		}
		fmt.Fprintln(w, row)
	}
}

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
