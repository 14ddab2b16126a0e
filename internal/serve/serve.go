// Package serve is `locksim serve`: a local web application for a class.
// It lists the course's scenarios (lessons 42–51, each broken scenario
// beside its fix), the field reports and the user's own; runs one live,
// at a chosen pace, drawing its timeline and telling its story as the
// history streams in (Server-Sent Events, the same drawing model as the
// report: report.Live); lets the teacher fire faults by hand through the
// scenario's own fault kinds (runner.Control, recorded with the trigger
// manual) and save the run as a scenario that replays it; asks the class
// first in predict mode; and lists the past runs in --out. Pages are
// html/template, in English or Vietnamese, with every script and style
// embedded in the binary (nothing from a CDN).
//
// Security: it listens on loopback unless told otherwise (CheckAddr);
// a request can run only a scenario file found in the served directories
// and open only a report found in --out, by their listed names; every
// state-changing request carries its browser session's CSRF token; a
// browser runs one scenario at a time and the server at most MaxRuns;
// every process a run starts is stopped when it ends, is stopped, or the
// server stops (Serve's context); every page sends a strict
// Content-Security-Policy.
package serve

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
)

// rowData is what the catalogue's scenario template needs of one row.
type rowData struct {
	Lang report.Lang
	CSRF string
	Row  catRow
}

// Options configure the server.
type Options struct {
	// Addr is where to listen (host:port; DefaultAddr when empty), and
	// AddrGiven whether the user named it (--addr): see CheckAddr.
	Addr      string
	AddrGiven bool
	// Catalogue is the shipped catalogue's directory (scenarios/, its
	// field reports in field/); Dirs are the user's own directories of
	// scenario files (--dir).
	Catalogue string
	Dirs      []string
	// Out is the report root the runs write into and the past runs are
	// listed from ("reports" when empty).
	Out string
	// Lang is the pages' language until a browser picks one, and the
	// language of the reports the runs write.
	Lang report.Lang
	// MaxRuns is the most runs going at once on the server (default 2).
	MaxRuns int
	// Backend is the runs' backend (runner.Options.Backend).
	Backend string
	// Version is locksim's version, written in the reports.
	Version string
	// Logger receives the server's and the runs' log lines.
	Logger *slog.Logger
}

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Server is locksim serve's web application.
type Server struct {
	o        Options
	log      *slog.Logger
	sessions *sessions
	pages    *template.Template
	loopback bool

	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	runs    map[string]*liveRun
	order   []string
	closing bool
	rng     *rand.Rand

	// cacheDir holds the reports rendered in another language than the
	// one they were written in, made on first use and removed by Close.
	cacheMu  sync.Mutex
	cacheDir string
	renders  map[string]*sync.Mutex

	pastMu sync.Mutex
	pastAt time.Time
	past   []pastRun
}

// New checks the options and returns the server.
func New(o Options) (*Server, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.Out == "" {
		o.Out = "reports"
	}
	if o.MaxRuns <= 0 {
		o.MaxRuns = 2
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if _, err := report.ParseLang(string(o.Lang)); err != nil {
		o.Lang = report.English
	}
	for _, d := range append([]string{o.Catalogue}, o.Dirs...) {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("scenario directory %q: not a directory (%v)", d, err)
		}
	}
	pages, err := template.New("").Funcs(template.FuncMap{
		"t":       func(lang report.Lang, key string, args ...any) string { return t(lang, key, args...) },
		"scale":   fmtScale,
		"when":    func(tm time.Time) string { return tm.Format("2006-01-02 15:04:05") },
		"lesson":  report.LessonName,
		"verdict": func(lang report.Lang, v checker.Verdict) string { return report.VerdictWord(lang, v) },
		"rowOf":   func(p page, r catRow) rowData { return rowData{Lang: p.Lang, CSRF: p.CSRF, Row: r} },
	}).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	host, _, _ := net.SplitHostPort(o.Addr)
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{o: o, log: o.Logger, sessions: newSessions(), pages: pages, loopback: loopbackHost(host),
		ctx: ctx, cancel: cancel, runs: map[string]*liveRun{}, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)),
		renders: map[string]*sync.Mutex{}}, nil
}

// Serve listens on o.Addr and serves until ctx ends; then it stops
// taking requests, stops every run (each stops every process it started)
// and removes its temporary files. ready, when set, is called with the
// server's URL once it listens. An address CheckAddr refuses is an error
// before anything listens.
func Serve(ctx context.Context, o Options, ready func(url string)) error {
	warn, err := CheckAddr(cmpAddr(o.Addr), o.AddrGiven)
	if err != nil {
		return err
	}
	s, err := New(o)
	if err != nil {
		return err
	}
	if warn != "" {
		s.log.Warn(warn)
	}
	ln, err := net.Listen("tcp", s.o.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.o.Addr, err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/"
	s.log.Info("locksim serve: listening", "url", url, "catalogue", s.o.Catalogue, "out", s.o.Out)
	if ready != nil {
		ready(url)
	}
	select {
	case <-ctx.Done():
	case err := <-done:
		s.Close(context.Background())
		return fmt.Errorf("serve: %w", err)
	}
	// Event streams never end by themselves: close them with the runs.
	s.cancel()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = srv.Shutdown(sctx)
	cancel()
	s.Close(context.Background())
	return nil
}

func cmpAddr(a string) string {
	if a == "" {
		return DefaultAddr
	}
	return a
}

// Close stops every run, waits (up to 30 s, or ctx) until each has stopped
// every process it started, and removes the server's temporary files.
func (s *Server) Close(ctx context.Context) {
	s.cancel()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	s.stopAll(wctx)
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cacheDir != "" {
		_ = os.RemoveAll(s.cacheDir)
		s.cacheDir = ""
	}
}

// Handler is the application's routes, with the security headers of
// every response.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleCatalogue)
	mux.HandleFunc("GET /past", s.handlePast)
	mux.HandleFunc("GET /past/{rel...}", s.handlePastReport)
	mux.HandleFunc("GET /report/{path...}", s.handleReportFile)
	mux.HandleFunc("POST /runs", s.handleStart)
	mux.HandleFunc("GET /run/{id}/{$}", s.handleRun)
	mux.HandleFunc("GET /run/{id}/events", s.handleEvents)
	mux.HandleFunc("POST /run/{id}/go", s.handleGo)
	mux.HandleFunc("POST /run/{id}/fault", s.handleFault)
	mux.HandleFunc("POST /run/{id}/stop", s.handleStop)
	mux.HandleFunc("POST /run/{id}/save", s.handleSave)
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /static/timeline.js", func(w http.ResponseWriter, _ *http.Request) {
		serveText(w, "text/javascript; charset=utf-8", report.TimelineScript())
	})
	mux.HandleFunc("GET /static/timeline.css", func(w http.ResponseWriter, _ *http.Request) {
		serveText(w, "text/css; charset=utf-8", report.TimelineStyles())
	})
	return secure(mux, s.loopback)
}

func serveText(w http.ResponseWriter, ctype, body string) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write([]byte(body))
}

// run is the live run with this id, or nil.
func (s *Server) run(id string) *liveRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[id]
}

// pastRuns is reports(), read again when the last reading is older than
// a second (a page's images each ask), or at once with fresh.
func (s *Server) pastRuns(fresh ...bool) []pastRun {
	s.pastMu.Lock()
	defer s.pastMu.Unlock()
	if time.Since(s.pastAt) > time.Second || len(fresh) > 0 && fresh[0] {
		s.past, s.pastAt = s.reports(), time.Now()
	}
	return s.past
}
