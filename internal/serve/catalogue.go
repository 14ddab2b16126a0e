package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// Groups of served scenario files.
const (
	groupCatalogue = "catalogue" // the shipped catalogue's own directory
	groupField     = "field"     // its field reports (field/)
	groupOwn       = "dir"       // a directory of the user's (--dir)
)

// entry is one scenario file a page may offer to run. Its ID is the only
// name a request may use for it: the server opens the Path it found while
// scanning, never a path from a request.
type entry struct {
	ID    string // "<root>/<file>": "catalogue/gc-pause.yaml", "dir1/mine.yaml"
	Group string
	Root  string // the directory it was found in, as given
	Path  string // absolute path
	Sc    scenario.Scenario
	// Err is why the file does not load (it is listed, not runnable).
	Err string
}

// root is one served directory of scenario files.
type root struct {
	name, group, dir string
}

// roots are the served directories: the catalogue, its field reports,
// and each of the user's own, in that order.
func (s *Server) roots() []root {
	out := []root{{groupCatalogue, groupCatalogue, s.o.Catalogue}}
	if st, err := os.Stat(filepath.Join(s.o.Catalogue, "field")); err == nil && st.IsDir() {
		out = append(out, root{groupField, groupField, filepath.Join(s.o.Catalogue, "field")})
	}
	for i, d := range s.o.Dirs {
		out = append(out, root{fmt.Sprintf("dir%d", i+1), groupOwn, d})
	}
	return out
}

// scan reads every *.yaml file directly in the served directories (each
// through the strict parser, as `locksim run` loads it). A file that does
// not load is kept with its error.
func (s *Server) scan() []entry {
	var out []entry
	for _, r := range s.roots() {
		files, _ := filepath.Glob(filepath.Join(r.dir, "*.yaml"))
		slices.Sort(files)
		for _, f := range files {
			abs, err := filepath.Abs(f)
			if err != nil {
				continue
			}
			e := entry{ID: r.name + "/" + filepath.Base(f), Group: r.group, Root: r.dir, Path: abs}
			if e.Sc, err = scenario.Load(f); err != nil {
				e.Err = err.Error()
			}
			out = append(out, e)
		}
	}
	return out
}

// lookup finds the served scenario file with this ID, scanning afresh.
func (s *Server) lookup(id string) (entry, bool) {
	for _, e := range s.scan() {
		if e.ID == id {
			return e, true
		}
	}
	return entry{}, false
}

// catRow is one scenario as the catalogue page lists it.
type catRow struct {
	ID, Name, Description, DescriptionLang, Role, Expect, Err string
	OwnScale                                                  string
	Last                                                      []pastRun
}

// catPair is a broken scenario and the one that fixes it (Fixed nil when
// the fix is not served, or for a scenario on its own).
type catPair struct {
	Broken catRow
	Fixed  *catRow
}

// catSection is one part of the catalogue page: a lesson, the field
// reports, a directory of the user's.
type catSection struct {
	ID, Title, Intro string
	Pairs            []catPair
}

// catalogue groups the served scenarios into the page's sections: the
// course's lessons 42–51 (each broken scenario followed by the one its
// fixed_by names), the field reports, the user's directories, and the
// catalogue's scenarios that name no lesson.
func (s *Server) catalogue(lang report.Lang, past []pastRun) []catSection {
	entries := s.scan()
	byPath := map[string]*entry{}
	for i := range entries {
		byPath[entries[i].Path] = &entries[i]
	}
	last := map[string][]pastRun{}
	for _, p := range past {
		if len(last[p.Scenario]) < 3 {
			last[p.Scenario] = append(last[p.Scenario], p)
		}
	}
	row := func(e *entry, role string) catRow {
		r := catRow{ID: e.ID, Name: strings.TrimSuffix(filepath.Base(e.Path), ".yaml"), Role: role, Err: e.Err}
		if e.Err != "" {
			return r
		}
		r.Name = e.Sc.Name
		r.Description, r.DescriptionLang = describe(lang, e.Sc)
		if e.Sc.Expect.Verdict != "" {
			r.Expect = t(lang, "cat.expect", report.VerdictWord(lang, checker.Verdict(e.Sc.Expect.Verdict)))
		}
		r.OwnScale = fmtScale(e.Sc.TimeScale)
		r.Last = last[r.Name]
		return r
	}
	// A fix is listed under its broken scenario, not again on its own.
	fixOf := map[*entry]*entry{}
	for i := range entries {
		e := &entries[i]
		if e.Err != "" || e.Sc.FixedBy == "" {
			continue
		}
		if abs, err := filepath.Abs(e.Sc.FixedByFile()); err == nil && byPath[abs] != nil {
			fixOf[e] = byPath[abs]
		}
	}
	pairsOf := func(keep func(*entry) bool) []catPair {
		listed := map[*entry]bool{}
		for b, f := range fixOf {
			if keep(b) {
				listed[f] = true
			}
		}
		var out []catPair
		for i := range entries {
			e := &entries[i]
			if !keep(e) || listed[e] {
				continue
			}
			p := catPair{Broken: row(e, "")}
			if f := fixOf[e]; f != nil {
				p.Broken.Role = t(lang, "cat.broken")
				fr := row(f, t(lang, "cat.fixed"))
				p.Fixed = &fr
			}
			out = append(out, p)
		}
		return out
	}
	var secs []catSection
	for l := scenario.FirstLesson; l <= scenario.LastLesson; l++ {
		ps := pairsOf(func(e *entry) bool {
			return e.Group == groupCatalogue && e.Err == "" && slices.Contains(e.Sc.Lessons, l)
		})
		if len(ps) > 0 {
			secs = append(secs, catSection{ID: fmt.Sprintf("lesson-%d", l), Title: t(lang, "cat.lesson", l, report.LessonName(lang, l)), Pairs: ps})
		}
	}
	if ps := pairsOf(func(e *entry) bool { return e.Group == groupField }); len(ps) > 0 {
		secs = append(secs, catSection{ID: "field", Title: t(lang, "cat.field"), Intro: t(lang, "cat.field.intro"), Pairs: ps})
	}
	for _, r := range s.roots() {
		if r.group != groupOwn {
			continue
		}
		ps := pairsOf(func(e *entry) bool { return e.Group == groupOwn && e.Root == r.dir })
		sec := catSection{ID: r.name, Title: t(lang, "cat.own", r.dir), Pairs: ps}
		if len(ps) == 0 {
			sec.Intro = t(lang, "cat.none")
		}
		secs = append(secs, sec)
	}
	if ps := pairsOf(func(e *entry) bool { return e.Group == groupCatalogue && (e.Err != "" || len(e.Sc.Lessons) == 0) }); len(ps) > 0 {
		secs = append(secs, catSection{ID: "other", Title: t(lang, "cat.other"), Pairs: ps})
	}
	return secs
}

// describe is the scenario's description in lang, and "en" when a page in
// another language shows the English one.
func describe(lang report.Lang, sc scenario.Scenario) (string, string) {
	if lang == report.Vietnamese && sc.DescriptionVI != "" {
		return sc.DescriptionVI, ""
	}
	if lang != report.English && sc.Description != "" {
		return sc.Description, "en"
	}
	return sc.Description, ""
}

// fmtScale writes a time scale as the pages show it ("50", "0.5").
func fmtScale(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", x), "0"), ".")
}
