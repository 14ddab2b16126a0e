package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// langCookie keeps a browser's choice of language.
const langCookie = "locksim_lang"

// page is what every page's layout needs.
type page struct {
	Lang  report.Lang
	Title string
	CSRF  string
	Langs []langLink
	Nav   string
	Body  any
}

type langLink struct {
	Code, Name, URL string
	Current         bool
}

// lang is the request's language: ?lang= (remembered in a cookie), else
// the cookie's, else the server's.
func (s *Server) lang(w http.ResponseWriter, r *http.Request) report.Lang {
	if v := r.URL.Query().Get("lang"); v != "" {
		if l, err := report.ParseLang(v); err == nil {
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: string(l), Path: "/", SameSite: http.SameSiteStrictMode})
			return l
		}
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if l, err := report.ParseLang(c.Value); err == nil {
			return l
		}
	}
	return s.o.Lang
}

// render writes a page in the layout.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title, nav string, body any) {
	ss := s.sessions.get(w, r)
	lang := s.lang(w, r)
	p := page{Lang: lang, Title: title, CSRF: ss.token, Nav: nav, Body: body}
	for _, l := range report.Languages() {
		q := r.URL.Query()
		q.Set("lang", string(l))
		p.Langs = append(p.Langs, langLink{Code: string(l), Name: t(l, "lang."+string(l)), URL: r.URL.Path + "?" + q.Encode(), Current: l == lang})
	}
	var b bytes.Buffer
	if err := s.pages.ExecuteTemplate(&b, name, p); err != nil {
		s.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// fail writes an error page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	lang := s.lang(w, r)
	s.render(w, r, status, "error.html", t(lang, "err.title"), "", msg)
}

// pageLang is the language of a page being rendered for r (for titles).
func (s *Server) pageLang(r *http.Request) report.Lang {
	if v, err := report.ParseLang(r.URL.Query().Get("lang")); err == nil {
		return v
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if l, err := report.ParseLang(c.Value); err == nil {
			return l
		}
	}
	return s.o.Lang
}

func (s *Server) handleCatalogue(w http.ResponseWriter, r *http.Request) {
	lang := s.pageLang(r)
	s.render(w, r, http.StatusOK, "catalogue.html", t(lang, "app.title"), "catalogue", s.catalogue(lang, s.pastRuns()))
}

// pastPage is the past runs page's body.
type pastPage struct {
	Out            string
	Runs           []pastRun
	Total, Shown   int
	Lesson         int
	Verdict        string
	Lessons        []int
	Verdicts       []string
	VerdictWordsOf map[string]string
}

// maxPastShown bounds the rows of the past runs page.
const maxPastShown = 200

func (s *Server) handlePast(w http.ResponseWriter, r *http.Request) {
	lang := s.pageLang(r)
	q := r.URL.Query()
	p := pastPage{Out: s.o.Out, Verdicts: []string{string(checker.Valid), string(checker.Invalid), string(checker.Unknown)},
		VerdictWordsOf: map[string]string{}}
	for l := scenario.FirstLesson; l <= scenario.LastLesson; l++ {
		p.Lessons = append(p.Lessons, l)
	}
	for _, v := range p.Verdicts {
		p.VerdictWordsOf[v] = report.VerdictWord(lang, checker.Verdict(v))
	}
	if n, err := strconv.Atoi(q.Get("lesson")); err == nil && n >= scenario.FirstLesson && n <= scenario.LastLesson {
		p.Lesson = n
	}
	if v := q.Get("verdict"); slices.Contains(p.Verdicts, v) {
		p.Verdict = v
	}
	for _, run := range s.pastRuns() {
		if (p.Lesson == 0 || slices.Contains(run.Lessons, p.Lesson)) && (p.Verdict == "" || string(run.Verdict) == p.Verdict) {
			p.Total++
			if len(p.Runs) < maxPastShown {
				p.Runs = append(p.Runs, run)
			}
		}
	}
	p.Shown = len(p.Runs)
	s.render(w, r, http.StatusOK, "past.html", t(lang, "past.title", s.o.Out), "past", p)
}

// reportPage is the body of a page that shows a stored report in a frame
// (a past run, or a live run once it ended).
type reportPage struct {
	Scenario string
	Src      string
}

func (s *Server) handlePastReport(w http.ResponseWriter, r *http.Request) {
	lang := s.pageLang(r)
	p, ok := s.report(strings.TrimSuffix(r.PathValue("rel"), "/"))
	if !ok {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	s.render(w, r, http.StatusOK, "report.html", t(lang, "report.title", p.Scenario), "past",
		reportPage{Scenario: p.Scenario, Src: reportURL(lang, p.Rel)})
}

// reportURL is the address of a stored report's page in lang.
func reportURL(lang report.Lang, rel string) string {
	return "/report/" + string(lang) + "/" + pathEscape(rel) + "/" + report.IndexFile
}

func pathEscape(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// reportFiles are the files of a report directory the server hands out.
var reportFiles = map[string]string{
	report.IndexFile:    "text/html; charset=utf-8",
	report.HistoryFile:  "text/html; charset=utf-8",
	report.TimelineFile: "image/png",
	report.LatencyFile:  "image/png",
	report.RateFile:     "image/png",
	"scenario.yaml":     "text/plain; charset=utf-8",
	"results.json":      "application/json",
	"history.jsonl":     "text/plain; charset=utf-8",
	SavedFile:           "text/plain; charset=utf-8",
}

// handleReportFile serves /report/<lang>/<rel>/<file>: a file of a report
// found in --out under the name rel, in lang (rendered again from its
// history when it was written in another language). Nothing else is
// opened: rel must be a listed report, file one of reportFiles.
func (s *Server) handleReportFile(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(r.PathValue("path"), "/")
	lang := s.pageLang(r)
	if len(parts) < 3 {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	want, err := report.ParseLang(parts[0])
	file := parts[len(parts)-1]
	ctype, known := reportFiles[file]
	p, listed := s.report(path.Join(parts[1 : len(parts)-1]...))
	if err != nil || !known || !listed {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	dir := p.Dir
	if want != report.Lang(cmpLang(p.Lang)) && !strings.HasSuffix(file, ".yaml") && !strings.HasSuffix(file, ".json") && !strings.HasSuffix(file, ".jsonl") {
		if dir, err = s.rendered(r.Context(), p, want); err != nil {
			s.log.Warn("render report in another language", "report", p.Rel, "lang", want, "err", err)
			dir = p.Dir
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	if strings.HasPrefix(ctype, "text/html") {
		w.Header().Set("Content-Security-Policy", reportCSP(b))
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

func cmpLang(l report.Lang) string {
	if l == "" {
		return string(report.English)
	}
	return string(l)
}

func (s *Server) handleStart(w http.ResponseWriter, r *http.Request) {
	lang := s.pageLang(r)
	ss, err := s.sessions.check(r)
	if err != nil {
		s.fail(w, r, http.StatusForbidden, t(lang, "err.token"))
		return
	}
	e, ok := s.lookup(r.PostFormValue("scenario"))
	if !ok || e.Err != "" {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	sc := e.Sc
	switch r.PostFormValue("pace") {
	case "1":
		sc.TimeScale = 1
	case "0.5":
		sc.TimeScale = 0.5
	}
	if err := scenario.CheckTTLAtScale(sc.TTL, sc.TimeScale); err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	run, err := s.newRun(ss.id, e, sc, r.PostFormValue("predict") == "on")
	switch {
	case errors.Is(err, errYours):
		s.fail(w, r, http.StatusConflict, t(lang, "err.yours", "/run/"+run.id+"/"))
		return
	case errors.Is(err, errBusy):
		s.fail(w, r, http.StatusServiceUnavailable, t(lang, "err.busy", s.o.MaxRuns))
		return
	case err != nil:
		s.fail(w, r, http.StatusServiceUnavailable, err.Error())
		return
	}
	if !run.predict {
		if err := s.start(run); err != nil {
			s.fail(w, r, http.StatusConflict, err.Error())
			return
		}
	}
	http.Redirect(w, r, "/run/"+run.id+"/", http.StatusSeeOther)
}

// runPage is the live run page's body.
type runPage struct {
	ID, Scenario, File, Description, DescriptionLang string
	Seed                                             int64
	Scale                                            string
	Owner, Predict                                   bool
	Question                                         string
	Clients, Nodes                                   []string
	State                                            string
	ReportSrc                                        string
	Answer                                           string
	Duration                                         float64
}

func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	lang := s.pageLang(r)
	run := s.run(r.PathValue("id"))
	if run == nil {
		s.fail(w, r, http.StatusNotFound, t(lang, "err.notfound"))
		return
	}
	ss := s.sessions.get(w, r)
	snap := run.snapshot(lang)
	p := runPage{ID: run.id, Scenario: run.sc.Name, File: run.entry.ID, Seed: run.seed, Scale: fmtScale(run.sc.TimeScale),
		Owner: ss.id == run.owner, Predict: run.predict, Question: question(lang, run.sc.Workload.Kind),
		State: snap.State, Answer: snap.Answer, Duration: run.sc.Duration.D().Seconds()}
	p.Description, p.DescriptionLang = describe(lang, run.sc)
	for i := range run.sc.Clients {
		p.Clients = append(p.Clients, scenario.ClientName(i))
	}
	for i := range run.sc.Nodes {
		p.Nodes = append(p.Nodes, "n"+strconv.Itoa(i+1))
	}
	if snap.State == stDone {
		p.ReportSrc = snap.Report
	}
	s.render(w, r, http.StatusOK, "run.html", t(lang, "run.title", run.sc.Name), "", p)
}

// relOf is a report directory's name among the reports: its path
// relative to --out, with forward slashes ("" when it lies elsewhere).
func (s *Server) relOf(dir string) string {
	root, err := filepath.Abs(s.o.Out)
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// owned returns the run a state-changing request acts on, refusing one
// without its session's token or from another browser than the one that
// started the run.
func (s *Server) owned(w http.ResponseWriter, r *http.Request) *liveRun {
	ss, err := s.sessions.check(r)
	if err != nil {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": err.Error()})
		return nil
	}
	run := s.run(r.PathValue("id"))
	switch {
	case run == nil:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such run"})
		return nil
	case run.owner != ss.id:
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "only the browser that started this run can change it"})
		return nil
	}
	return run
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) handleGo(w http.ResponseWriter, r *http.Request) {
	run := s.owned(w, r)
	if run == nil {
		return
	}
	if err := s.start(run); err != nil {
		writeJSON(w, http.StatusConflict, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"state": stStarting})
}

func (s *Server) handleFault(w http.ResponseWriter, r *http.Request) {
	run := s.owned(w, r)
	if run == nil {
		return
	}
	q, err := readFault(r)
	if err == nil {
		var f firedFault
		if f, err = run.fire(q); err == nil {
			writeJSON(w, http.StatusOK, f)
			return
		}
	}
	status := http.StatusBadRequest
	if errors.Is(err, errConflict) {
		status = http.StatusConflict
	}
	s.log.Warn("fault by hand refused", "run", run.id, "action", q.Action, "on", on(q), "err", err)
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	run := s.owned(w, r)
	if run == nil {
		return
	}
	run.abandon()
	run.cancel()
	writeJSON(w, http.StatusOK, map[string]string{"state": "stopping"})
}

func (s *Server) handleSave(w http.ResponseWriter, r *http.Request) {
	run := s.owned(w, r)
	if run == nil {
		return
	}
	p, _, err := run.save()
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, errConflict) {
			status = http.StatusConflict
		}
		writeJSON(w, status, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"path": p})
}

// handleEvents streams a run's progress as Server-Sent Events: "state"
// (the run's state, its faults fired by hand, its verdict and report once
// written) whenever it changes, and "frame" (its timeline and story so
// far, in the page's language) as its history streams in, at most every
// framePeriod.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	run := s.run(r.PathValue("id"))
	if run == nil {
		http.NotFound(w, r)
		return
	}
	lang := s.pageLang(r)
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(event string, v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	lastState, lastFrame := ^uint64(0), ^uint64(0)
	var nextFrame time.Time
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		run.mu.Lock()
		ch, streamed := run.changed, run.streamed
		run.mu.Unlock()
		// The state at once; a frame (a whole drawing) at most every
		// framePeriod.
		snap := run.snapshot(lang)
		if snap.Seq != lastState {
			lastState = snap.Seq
			if !send("state", snap) {
				return
			}
		}
		var wait <-chan time.Time
		if streamed != lastFrame {
			if d := time.Until(nextFrame); d > 0 {
				wait = time.After(d)
			} else if f := run.frame(r.Context(), lang); f.Timeline != "" {
				lastFrame, nextFrame = f.streamed, time.Now().Add(framePeriod)
				if !send("frame", f) {
					return
				}
			}
		}
		if snap.State == stDone || snap.State == stFailed {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-ch:
		case <-wait:
		}
	}
}

// framePeriod is the shortest time between two frames of one page.
const framePeriod = 100 * time.Millisecond
