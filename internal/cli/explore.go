package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/internal/suite"
)

const exploreUsage = `Usage: locksim explore --algorithm NAME [flags]
       locksim explore <base scenario> [flags]

Finds the failure nobody wrote down: searches for fault schedules that
make the lock's run invalid. It runs the lock once with no fault, reads
from that run's account where its holds, lease expiries, renewals, grants
and quorums were, and aims a fault of every class that applies to the
lock's traits and topology at them — a pause that straddles a hold's
expiry, a clock jump on the node that decides a quorum, a partition
during a renewal, a crash between a grant and its persistence
(lineage-driven fault injection, Alvaro et al., SIGMOD 2015) — then
schedules drawn at random from the seed. Per class it stops at the first
invalid run and shrinks it (as locksim shrink does) to the fewest faults
and shortest durations still invalid in every one of --k seeds, written as
a regression file: a plain scenario with expect: invalid and its kinds.

The lock is a registered algorithm (built in, or your own through
locksim.Main) given with --algorithm, or a base scenario file: its
algorithm (a lock client process with algorithm: process and its process:
block), workload and topology, with its faults dropped; the flags
override it. Without a job length, the lock gets a job of two TTLs when it
renews its lease through one in the fault-free run, else half a TTL.
Without --persistence, a node crash is tried with every persistence (one
class each); with it, only with that one.

It writes, in <out>/<name>-explore/<time>/: profile.html (one row per
fault class: broken, with its smallest schedule, timeline and reproduce
line, or survived N schedules over the values they took; lesson 42's
requirements marked), profile.vi.html, profile.json, regressions/ (one
file per broken class), and the runs (baseline/, classes/, shrinks/).
"Survived" is evidence within the budget, not a proof.

--budget bounds the search (a wall time like 5m, or a number of runs);
each violation found is then shrunk within --shrink-budget. --shard K/N
explores the classes whose name hashes to part K of N (as run --shard
does for runs), and locksim merge combines the shards' directories.

Examples:
  locksim explore --algorithm safe --budget 2m
  locksim explore --algorithm redlock --nodes 5 --budget 5m
  locksim explore --algorithm fenced --fencing --persistence aof-always --budget 5m
  locksim explore scenarios/node-redlock-gc-pause.yaml --budget 5m   # a process adapter
  locksim explore --algorithm safe --budget 10m --shard 2/3 --out shard-2

Exit codes: 0 no class broke the lock within the budget, 1 a class broke
it (regression files written), 254 bad usage or base scenario (nothing
started), 255 internal or infrastructure error, 130/143 interrupted (what
was found so far is written).

Flags:
`

type exploreFlags struct {
	base         explore.Base
	fencing      bool
	out          string
	budget       time.Duration
	runs         int
	shrinkBudget time.Duration
	k            int
	seed         int64
	seedSet      bool
	parallel     int
	shard        suite.Shard
	classes      []string
	backend      string
	lang         report.Lang
	verbose      bool
	set          []string // the flags given, for the reproduce line
}

func parseExploreFlags(args []string, stderr io.Writer) (f exploreFlags, code int, ok bool) {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exploreUsage); fs.PrintDefaults() }
	b := &f.base
	fs.StringVar(&b.Algorithm, "algorithm", "", "the lock: a registered algorithm (locksim list); or give a base scenario file")
	fs.StringVar(&b.Workload, "workload", "", "the workload by name (default payment)")
	fs.IntVar(&b.Nodes, "nodes", 0, "Redis masters (default 5 for a multi-node lock, else 1)")
	fs.IntVar(&b.Clients, "clients", 0, "lock clients (default 2)")
	fs.IntVar(&b.Keys, "keys", 0, "the workload's keys (default 2)")
	fs.IntVar(&b.Replicas, "replicas", 0, "replicas per master (failover and replication lag need them)")
	fs.IntVar(&b.Sentinels, "sentinels", 0, "redis-sentinel processes (0, 1, 3 or 5; failover needs them)")
	fs.StringVar(&b.Persistence, "persistence", "", "every node's persistence: none, aof-everysec, aof-always or rdb (default: crashes are tried with each)")
	fs.DurationVar(&b.TTL, "ttl", 0, "the lease's TTL, scenario time (default 10s)")
	fs.DurationVar(&b.Job, "job", 0, "the job's length, scenario time (default: two TTLs for a lock that renews, else half the TTL)")
	fs.BoolVar(&f.fencing, "fencing", false, "the resource refuses stale fencing tokens and each holder claims first (a fenced lock)")
	fs.Float64Var(&b.TimeScale, "time-scale", 0, "time compression (default 10)")
	fs.StringVar(&f.out, "out", "reports", "report root: the exploration writes <out>/<name>-explore/<time>/")
	budget := fs.String("budget", "5m", "the search's budget: a wall time (2m, 5m) or a number of runs (300)")
	fs.DurationVar(&f.shrinkBudget, "shrink-budget", 60*time.Second, "each shrink's wall time")
	fs.IntVar(&f.k, "k", 3, "seeds a smallest schedule must be invalid in, all of them")
	seed := fs.String("seed", "", "the seed every random choice is drawn from (default: drawn and printed)")
	fs.IntVar(&f.parallel, "parallel", suite.DefaultParallel(), fmt.Sprintf("runs at the same time (default %d per CPU; one per CPU for a lock client process)", suite.PerCPU))
	shard := fs.String("shard", "", "explore only part K of N of the classes, K/N (then locksim merge)")
	classes := fs.String("classes", "", "only these classes, comma-separated (e.g. pause,crash-none)")
	fs.StringVar(&f.backend, "backend", "", "node backend: local (redis-server) or embedded (miniredis, emulated) (default: local when redis-server is on PATH)")
	f.lang = report.English
	fs.Var(&f.lang, "lang", "the profile page's first language: "+report.LanguageList()+" (every language is written)")
	fs.BoolVar(&f.verbose, "v", false, "print every run and shrink candidate")
	pos, code, ok := parseCommandFlags(fs, args)
	if !ok {
		return f, code, false
	}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "seed" && fl.Name != "out" && fl.Name != "v" {
			f.set = append(f.set, "--"+fl.Name, fl.Value.String())
		}
	})
	var err error
	bad := func(format string, a ...any) (exploreFlags, int, bool) {
		fmt.Fprintf(stderr, "locksim explore: "+format+"\n", a...)
		return f, exitUsage, false
	}
	if f.budget, f.runs, f.seed, f.seedSet, err = parseBudgetSeed(*budget, *seed); err != nil {
		return bad("%v", err)
	}
	if *shard != "" {
		if f.shard, err = suite.ParseShard(*shard); err != nil {
			return bad("--%v", err)
		}
	}
	if *classes != "" {
		names := explore.ClassNames()
		for _, c := range strings.Split(*classes, ",") {
			c = strings.TrimSpace(c)
			if !slices.Contains(names, c) {
				return bad("--classes: no class %q (the classes: %s)", c, strings.Join(names, ", "))
			}
			f.classes = append(f.classes, c)
		}
	}
	if f.fencing {
		b.Fencing = &f.fencing
	}
	switch {
	case len(pos) > 1:
		return bad("give at most one base scenario (try: locksim explore --help)")
	case len(pos) == 0 && b.Algorithm == "":
		return bad("give the lock: --algorithm NAME (locksim list shows them) or a base scenario file")
	case f.k < 1 || f.k > 100:
		return bad("--k %d: must be between 1 and 100", f.k)
	case f.parallel < 1:
		return bad("--parallel %d: must be ≥ 1", f.parallel)
	case f.shrinkBudget <= 0:
		return bad("--shrink-budget %s: must be > 0", f.shrinkBudget)
	case b.TTL < 0 || b.Job < 0:
		return bad("--ttl and --job must be > 0")
	case b.Nodes < 0 || b.Clients < 0 || b.Keys < 0 || b.Replicas < 0 || b.Sentinels < 0:
		return bad("--nodes, --clients, --keys, --replicas and --sentinels must be ≥ 0")
	case f.backend != "" && f.backend != cluster.BackendLocal && f.backend != cluster.BackendEmbedded:
		return bad("--backend %q: want %s or %s", f.backend, cluster.BackendLocal, cluster.BackendEmbedded)
	case b.TimeScale < 0 || b.TimeScale > scenario.MaxTimeScale:
		return bad("--time-scale %g: must be in (0, %d]", b.TimeScale, scenario.MaxTimeScale)
	}
	if len(pos) == 1 {
		b.File = pos[0]
	}
	return f, exitValid, true
}

// exploreReproduce is the command that repeats the exploration.
func exploreReproduce(f exploreFlags) string {
	parts := []string{"locksim", "explore"}
	if f.base.File != "" {
		parts = append(parts, shellQuote(f.base.File))
	}
	for i := 0; i+1 < len(f.set); i += 2 {
		if f.set[i+1] == "true" && (f.set[i] == "--fencing") {
			parts = append(parts, f.set[i])
			continue
		}
		parts = append(parts, f.set[i], shellQuote(f.set[i+1]))
	}
	return strings.Join(append(parts, "--seed", strconv.FormatInt(f.seed, 10)), " ")
}

func cmdExplore(args []string, stdout, stderr io.Writer) int {
	f, code, ok := parseExploreFlags(args, stderr)
	if !ok {
		return code
	}
	base, jobSet, err := f.base.Scenario()
	if err != nil {
		fmt.Fprintf(stderr, "locksim explore: %v\n", err)
		return exitUsage
	}
	if !f.seedSet {
		f.seed = rand.Int64N(1 << 40)
	}
	if base.Traits().Process && !slices.Contains(f.set, "--parallel") {
		// Every run starts a lock client process per client (a Node.js
		// start costs a second of CPU): a dozen runs at once on two CPUs
		// left them without their hello for 20 s.
		f.parallel = runtime.NumCPU()
	}
	dir, code := commandDir("explore", f.out, base.Name, f.backend, stderr)
	if code != exitValid {
		return code
	}
	prog, log := commandLog(stderr, f.verbose)
	repro := exploreReproduce(f)
	fmt.Fprintf(stderr, "locksim explore: %s on %d node(s), %d client(s), workload %s; seed %d; budget %s, each shrink %s; %d runs at a time; into %s\nreproduce=%q\n",
		base.Algorithm, base.Nodes, base.Clients, base.Workload.Kind, f.seed, budgetWord(f.budget, f.runs), f.shrinkBudget, f.parallel, dir, repro)

	redis.SetLogger(redisLog{log})
	ctx, pool, interrupted, stop := commandSession(dir, f.parallel, f.backend, f.lang, log)
	defer stop()
	defer closePool(pool, stderr)
	p, err := explore.Explore(ctx, explore.Options{Base: base, JobSet: jobSet, PersistenceSet: f.base.Persistence != "",
		Seed: f.seed, Budget: f.budget, BudgetRuns: f.runs, ShrinkBudget: f.shrinkBudget, K: f.k, Classes: f.classes,
		Shard: f.shard, Pool: pool, Parallel: f.parallel, Dir: dir, Backend: f.backend, Lang: f.lang, Version: version(),
		Reproduce: repro, Verbose: f.verbose,
		Redraw: func(d string, sc scenario.Scenario) error {
			_, err := suite.Redraw(context.WithoutCancel(ctx), d, sc, f.lang, version())
			return err
		},
		Progress: func(e explore.Event) {
			fmt.Fprintf(prog, "explore [%.1fs, %d runs] %s\n", e.Elapsed.Seconds(), e.Runs, e.Line)
		}})
	if err != nil {
		fmt.Fprintf(stderr, "locksim explore: %v\n", err)
		if c := interrupted.Load(); c != 0 {
			return int(c)
		}
		return exitInternal
	}
	printProfile(stdout, p, dir, f.lang)
	if c := interrupted.Load(); c != 0 {
		return int(c)
	}
	return exploreCode(p)
}

// exploreCode is an exploration's exit code: 1 when a class (or the
// fault-free run itself) broke the lock, else 0.
func exploreCode(p report.Profile) int {
	if p.BaselineBroken || slices.ContainsFunc(p.Rows, report.ProfileRow.Broken) {
		return exitInvalid
	}
	return exitValid
}

// closePool closes the pool, waiting at most a minute: a run abandoned by
// the exploration still holds its worker, and its nodes stop when locksim
// exits (parent-death signal).
func closePool(pool *suite.Pool, stderr io.Writer) {
	done := make(chan struct{})
	go func() { defer close(done); pool.Close() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		fmt.Fprintln(stderr, "locksim explore: a run that never ended still holds its nodes; they stop as locksim exits")
	}
}

// printProfile is the exploration's summary on stdout: a line per class,
// then the regression files and the pages.
func printProfile(w io.Writer, p report.Profile, dir string, lang report.Lang) {
	count := map[string]int{}
	for _, r := range p.Rows {
		count[r.Status]++
	}
	fmt.Fprintf(w, "%s: %d classes explored in %.1fs (%d runs, seed %d): %d broken, %d broken in some seeds only, %d survived, %d undecided\n",
		p.Algorithm, len(p.Rows), p.ElapsedSeconds, p.Runs, p.Seed, count[report.StatusBroken], count[report.StatusFlaky],
		count[report.StatusSurvived], count[report.StatusUntried])
	if p.BaselineBroken {
		fmt.Fprintf(w, "  the fault-free run itself is %s: no fault is needed to break the lock (%s)\n", p.Baseline.Verdict, filepath.Join(dir, p.Baseline.Report))
	}
	width := 0
	for _, r := range p.Rows {
		width = max(width, len(r.Class))
	}
	var files []string
	for _, r := range p.Rows {
		fmt.Fprintf(w, "  %-*s  ", width, r.Class)
		switch r.Status {
		case report.StatusBroken:
			m := r.Minimal
			fmt.Fprintf(w, "BROKEN after %.1fs (%s): %d fault(s)", r.FirstViolationSeconds, strings.Join(m.Kinds, ", "), m.Faults)
			for _, s := range m.Steps {
				fmt.Fprintf(w, "\n  %-*s    %s", width, "", s)
			}
			files = append(files, filepath.Join(dir, m.File))
		case report.StatusFlaky:
			fmt.Fprintf(w, "broken after %.1fs, but in some seeds only (%s): %s", r.FirstViolationSeconds, strings.Join(r.Found.Kinds, ", "), r.Found.Reproduce)
		case report.StatusSurvived:
			fmt.Fprintf(w, "survived %d schedules (%d unknown)", r.Valid, r.Unknown)
		default:
			fmt.Fprintf(w, "undecided: %d runs, none valid or invalid", r.Schedules)
		}
		fmt.Fprintln(w)
	}
	if len(files) > 0 {
		fmt.Fprintln(w, "regression files:")
		for _, f := range files {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	fmt.Fprintf(w, "profile=%s json=%s\n", filepath.Join(dir, report.ProfilePage(lang, lang)), filepath.Join(dir, report.ProfileJSON))
}
