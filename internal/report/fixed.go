package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sort"
)

// Fixed is the scenario that shows a run's fault made harmless: the
// scenario's fixed_by. The report's "what would have prevented it"
// section names it, gives the command that runs it and links its report.
type Fixed struct {
	Name string // its scenario name
	File string // its file, as `locksim run` takes it (e.g. scenarios/gc-pause-fencing.yaml)
	// Report is the index.html of a report of it, any path; "" when none
	// is known yet (LinkFixed adds the link once one is written).
	Report string
	// Faults says whether it declares the run's scenario's faults
	// (FaultsSame: it changes the lock, not the faults) or faults of its
	// own (FaultsOwn: the fix is the change of faults); "" when unknown.
	Faults string
	// Side says what it is when it is no fix, whatever its run shows
	// (FixSide: a harness control, the clock assumption holding, a
	// crashed node kept down); "" for a fix, or when not known.
	Side string
	// Changes are the fields it changes against the run's scenario
	// (FixChanges), beside the faults; nil when not known.
	Changes []FixChange
}

// Fixed.Faults: the fixed scenario's faults against the run's.
const (
	FaultsSame = "same"
	FaultsOwn  = "own"
)

// fixedSlot marks where the link to the fixed scenario's report goes in a
// page written before that report existed; LinkFixed fills it.
const fixedSlot = `<span id="fixed-report"></span>`

// LinkFixed links the report in dir to target, the index.html of a report
// of the scenario its run names as fixed_by, in the report's own language.
// A suite calls it once every run has finished, so the link does not
// depend on which run finished first. A report whose page names no fixed
// scenario (a run with no violation) is left as it is.
func LinkFixed(dir, target string) error {
	page := filepath.Join(dir, IndexFile)
	b, err := os.ReadFile(page)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(fixedSlot)) {
		return nil
	}
	rel, err := relLink(dir, target)
	if err != nil {
		return fmt.Errorf("link %s to %s: %w", dir, target, err)
	}
	link := fmt.Sprintf(`<span id="fixed-report"> — <a href="%s">%s</a></span>`,
		template.HTMLEscapeString(rel), template.HTMLEscapeString(tr(reportLang(dir), "fix.fixed.report")))
	return os.WriteFile(page, bytes.Replace(b, []byte(fixedSlot), []byte(link), 1), 0o644)
}

// LatestReport finds the newest report of the scenario name under root
// (root/<name>/<run>/index.html, run directories sorted by name, which
// begins with the time) written in lang; "" when there is none.
func LatestReport(root, name string, lang Lang) string {
	if name == "" {
		return ""
	}
	ms, _ := filepath.Glob(filepath.Join(root, name, "*", IndexFile))
	sort.Strings(ms)
	for i := len(ms) - 1; i >= 0; i-- {
		if reportLang(filepath.Dir(ms[i])) == normLang(lang) {
			return ms[i]
		}
	}
	return ""
}

// reportLang is the language results.json in dir says its report is in
// (English for a report older than the field).
func reportLang(dir string) Lang {
	var r struct {
		Lang Lang `json:"lang"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "results.json")); err == nil {
		_ = json.Unmarshal(b, &r)
	}
	return normLang(r.Lang)
}

// relLink is target relative to dir, slash-separated, for an href.
func relLink(dir, target string) (string, error) {
	from, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	to, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}
