package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/cluster"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/serve"
)

const serveUsage = `Usage: locksim serve [flags]

Starts the classroom web application on 127.0.0.1:7420: the catalogue of
scenarios (lessons 42–51, each broken scenario beside its fix, the field
reports and your own --dir), a scenario run live at a chosen pace with its
timeline growing as it goes, faults fired by hand (pause or resume a
client, cut or heal a link, crash or restart a node, jump a clock), a
predict-then-reveal classroom mode, and the past runs in --out. Open the
address it prints in a browser; Ctrl-C (or SIGTERM) stops every run and
every process it started, then the server (exit 130 or 143).

It listens on the loopback interface only; another address must be named
with --addr, and is served with a warning: whoever reaches the page can
start processes on this machine.

Examples:
  locksim serve
  locksim serve --dir my-scenarios --lang vi
  locksim serve --addr 127.0.0.1:8080 --out /tmp/class-reports

Exit codes: 0 stopped, 254 bad usage (nothing started), 255 the server
could not listen, 130/143 interrupted (SIGINT/SIGTERM).

Flags:
`

// dirFlags collects the repeatable --dir.
type dirFlags []string

func (d *dirFlags) String() string     { return fmt.Sprint(*d) }
func (d *dirFlags) Set(s string) error { *d = append(*d, s); return nil }

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveUsage); fs.PrintDefaults() }
	addr := fs.String("addr", serve.DefaultAddr, "address to listen on (host:port); loopback unless named here explicitly")
	catalogue := fs.String("scenarios", "scenarios", "the shipped catalogue's directory (its field reports in field/)")
	var dirs dirFlags
	fs.Var(&dirs, "dir", "a directory of your own scenario files to offer beside the catalogue (repeatable)")
	out := fs.String("out", "reports", "report root: the runs write here, and the past runs are listed from here")
	maxRuns := fs.Int("max-runs", 2, "the most runs going at once (each browser runs one at a time)")
	backend := fs.String("backend", "", "nodes: local (redis-server) or embedded (emulated Redis); default: local when redis-server is on PATH")
	verbose := fs.Bool("v", false, "debug logging")
	lang := report.English
	fs.Var(&lang, "lang", "the pages' and the reports' language until a browser picks one: "+report.LanguageList())
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitValid
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "locksim serve: unexpected argument %q (scenario directories go in --dir)\n", fs.Arg(0))
		return exitUsage
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "addr" })
	if _, err := serve.CheckAddr(*addr, given); err != nil {
		fmt.Fprintf(stderr, "locksim serve: %v\n", err)
		return exitUsage
	}
	if *maxRuns < 1 {
		fmt.Fprintf(stderr, "locksim serve: --max-runs %d: want at least 1\n", *maxRuns)
		return exitUsage
	}
	switch *backend {
	case "", cluster.BackendLocal, cluster.BackendEmbedded:
	default:
		fmt.Fprintf(stderr, "locksim serve: --backend %q: want local or embedded\n", *backend)
		return exitUsage
	}
	if err := needRedis(*backend); err != nil {
		fmt.Fprintf(stderr, "locksim serve: %v\n", err)
		return exitInternal
	}
	for _, d := range append([]string{*catalogue}, dirs...) {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "locksim serve: scenario directory %s: not a directory; run it from the repository's root, or give --scenarios DIR\n", d)
			return exitUsage
		}
	}
	if err := checkWritable(*out); err != nil {
		fmt.Fprintf(stderr, "locksim serve: --out %s: %v\n", *out, err)
		return exitUsage
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	redis.SetLogger(redisLog{log})
	report.LimitDrawing(1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted, stopSignals := handleSignals(cancel, log)
	defer stopSignals()
	err := serve.Serve(ctx, serve.Options{Addr: *addr, AddrGiven: given, Catalogue: filepath.Clean(*catalogue), Dirs: dirs, Out: *out,
		Lang: lang, MaxRuns: *maxRuns, Backend: *backend, Version: version(), Logger: log},
		func(url string) { fmt.Fprintf(stdout, "locksim serve: %s\n", url) })
	if err != nil {
		fmt.Fprintf(stderr, "locksim serve: %v\n", err)
		return exitInternal
	}
	if c := interrupted.Load(); c != 0 {
		log.Info("stopped: every run and every process it started", "exit", c)
		return int(c)
	}
	return exitValid
}
