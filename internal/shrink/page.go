package shrink

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	reportpage "github.com/locksim/locksim/internal/report/page"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/scenario"
)

// Files a shrink writes in its directory.
const (
	MinimalFile  = "minimal.yaml"
	OriginalFile = "original.yaml"
	PageFile     = "shrink.html"
	SummaryFile  = "shrink.json"
)

// Summary is shrink.json: what was shrunk, to what, at what cost.
type Summary struct {
	From           string   `json:"from"`
	File           string   `json:"file,omitempty"`
	Seeds          []int64  `json:"seeds"`
	OriginalFaults int      `json:"original_faults"`
	MinimalFaults  int      `json:"minimal_faults"`
	Failing        bool     `json:"failing"` // the minimal schedule is invalid in every seed
	Kinds          []string `json:"kinds"`
	Candidates     int      `json:"candidates"`
	Runs           int      `json:"runs"`
	// ElapsedSeconds is the search's wall time, seconds.
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	// Exhausted: the budget ran out before the search was done.
	Exhausted     bool     `json:"exhausted"`
	OriginalSteps []string `json:"original_steps"`
	MinimalSteps  []string `json:"minimal_steps"`
	// Minimal is minimal.yaml, MinimalReport the report of its first run.
	Minimal        string `json:"minimal"`
	MinimalReport  string `json:"minimal_report,omitempty"`
	OriginalReport string `json:"original_report,omitempty"`
	Page           string `json:"page"`
}

// Minimal is the minimal scenario as it is written: named for what it
// is, seeded with the first seed, expecting what its runs showed.
func Minimal(src Source, res Result) scenario.Scenario {
	sc := res.Minimal.Scenario
	name := src.Scenario.Name
	if len(name) > 56 {
		name = name[:56]
	}
	sc.Name = strings.TrimRight(name, "-._") + "-minimal"
	seed := res.Seeds[0]
	sc.Seed = &seed
	sc.FixedBy = ""
	sc.Expect = scenario.Expectation{Verdict: string(checker.Invalid), Kinds: res.Minimal.Kinds()}
	if sc.Description == "" || !strings.HasPrefix(sc.Description, "Minimal schedule") {
		sc.Description = fmt.Sprintf("Minimal schedule of %s found by locksim shrink.", src.Scenario.Name)
	}
	return sc
}

// Write writes the shrink's results into dir: minimal.yaml (normalised,
// with a comment saying what it was shrunk from), original.yaml (the
// explicit schedule it started from), shrink.json and shrink.html (the
// two schedules side by side, every candidate, links to the reports).
// The first report of the minimal and of the original schedule are
// redrawn with their charts by redraw (nil: left as they are).
func Write(dir string, src Source, res Result, version string, redraw func(reportDir string, sc scenario.Scenario) error) (Summary, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Summary{}, err
	}
	min := Minimal(src, res)
	sum := Summary{From: src.From, File: src.File, Seeds: res.Seeds, OriginalFaults: len(res.Original.Scenario.Faults),
		MinimalFaults: len(min.Faults), Failing: res.Minimal.Failing(), Kinds: res.Minimal.Kinds(), Candidates: len(res.Steps),
		Runs: res.Runs, ElapsedSeconds: res.Elapsed.Seconds(), Exhausted: res.Exhausted,
		Minimal: filepath.Join(dir, MinimalFile), Page: filepath.Join(dir, PageFile)}
	scale := src.Scenario.TimeScale
	for _, s := range src.Steps {
		sum.OriginalSteps = append(sum.OriginalSteps, faults.Describe(s, scale))
	}
	minSteps, err := planOf(min)
	if err != nil {
		return sum, err
	}
	for _, s := range minSteps {
		sum.MinimalSteps = append(sum.MinimalSteps, faults.Describe(s, scale))
	}
	first := func(c Candidate) string {
		for _, r := range c.Runs {
			if r.ReportDir != "" {
				return r.ReportDir
			}
		}
		return ""
	}
	sum.MinimalReport, sum.OriginalReport = first(res.Minimal), first(res.Original)
	if redraw != nil {
		for _, r := range []struct {
			dir string
			sc  scenario.Scenario
		}{{sum.MinimalReport, res.Minimal.Scenario}, {sum.OriginalReport, res.Original.Scenario}} {
			if r.dir == "" {
				continue
			}
			if err := redraw(r.dir, r.sc); err != nil {
				return sum, err
			}
			if sum.MinimalReport == sum.OriginalReport {
				break
			}
		}
	}

	header := func(what string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s, found by `locksim shrink` (locksim %s).\n", what, version)
		fmt.Fprintf(&b, "# Shrunk from: %s", src.From)
		if src.File != "" && !strings.Contains(src.From, src.File) {
			fmt.Fprintf(&b, " (scenario %s)", src.File)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "# %d faults → %d; clients %d → %d; keys %d → %d.\n", sum.OriginalFaults, sum.MinimalFaults,
			res.Original.Scenario.Clients, min.Clients, res.Original.Scenario.Workload.Keys, min.Workload.Keys)
		verdict := fmt.Sprintf("invalid in all %d seeds", len(res.Seeds))
		if !sum.Failing {
			verdict = fmt.Sprintf("NOT invalid in all %d seeds", len(res.Seeds))
		}
		fmt.Fprintf(&b, "# %s (%s)", verdict, seedRange(res.Seeds))
		if len(sum.Kinds) > 0 {
			fmt.Fprintf(&b, ", with %s", strings.Join(sum.Kinds, ", "))
		}
		b.WriteString(".\n")
		how := "a whole round of changes kept none"
		if res.Exhausted {
			how = "the budget ran out"
		}
		fmt.Fprintf(&b, "# %d candidates, %d runs, %.1fs; the search stopped because %s.\n", len(res.Steps), res.Runs, res.Elapsed.Seconds(), how)
		fmt.Fprintf(&b, "# Run it: locksim run %s\n", filepath.Join(dir, MinimalFile))
		return b.String()
	}
	minYAML, err := scenario.Normalize(min)
	if err != nil {
		return sum, err
	}
	if sum.Failing {
		if err := os.WriteFile(sum.Minimal, append([]byte(header("Minimal failing schedule")), minYAML...), 0o644); err != nil {
			return sum, fmt.Errorf("write %s: %w", MinimalFile, err)
		}
	} else {
		sum.Minimal, sum.MinimalSteps, minYAML = "", nil, nil
	}
	if err := os.WriteFile(filepath.Join(dir, OriginalFile), append([]byte(header("The schedule shrinking started from, every step explicit")), res.Original.YAML...), 0o644); err != nil {
		return sum, fmt.Errorf("write %s: %w", OriginalFile, err)
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, SummaryFile), append(b, '\n'), 0o644)
	}
	if err != nil {
		return sum, fmt.Errorf("write %s: %w", SummaryFile, err)
	}
	return sum, writePage(dir, src, res, sum, minYAML)
}

// planOf resolves sc's (explicit) faults into steps.
func planOf(sc scenario.Scenario) ([]history.FaultStep, error) {
	var seed int64
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	p, err := faults.NewPlan(sc.Faults, sc.Nemesis, seed, sc.FaultTopology())
	if err != nil {
		return nil, fmt.Errorf("plan of the minimal schedule: %w", err)
	}
	return p.Steps, nil
}

func seedRange(seeds []int64) string {
	if len(seeds) == 1 {
		return "seed " + strconv.FormatInt(seeds[0], 10)
	}
	return fmt.Sprintf("seeds %d..%d", seeds[0], seeds[len(seeds)-1])
}

type pageStep struct {
	N                      int
	Change, Outcome, Class string
	Runs, Link             string
	Elapsed                string
}

type page struct {
	Lang, Title, From, Seeds, Verdict, Stopped string
	Failing                                    bool
	Original, Minimal                          []string
	OriginalYAML, MinimalYAML                  string
	MinimalReport, OriginalReport              string
	MinimalFile                                string
	Before, After                              string
	Steps                                      []pageStep
}

func rel(dir, target string) string {
	if target == "" {
		return ""
	}
	a, err1 := filepath.Abs(dir)
	b, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return ""
	}
	r, err := filepath.Rel(a, b)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(r)
}

func writePage(dir string, src Source, res Result, sum Summary, minYAML []byte) error {
	min := Minimal(src, res)
	pg := page{Lang: "en", Title: "Shrinking " + src.Scenario.Name, From: src.From, Seeds: seedRange(res.Seeds), Failing: sum.Failing,
		Original: sum.OriginalSteps, Minimal: sum.MinimalSteps, OriginalYAML: string(res.Original.YAML), MinimalYAML: string(minYAML),
		MinimalFile: MinimalFile,
		Before:      fmt.Sprintf("%d faults, %d clients, %d keys", sum.OriginalFaults, res.Original.Scenario.Clients, res.Original.Scenario.Workload.Keys),
		After:       fmt.Sprintf("%d faults, %d clients, %d keys", sum.MinimalFaults, min.Clients, min.Workload.Keys)}
	if sum.MinimalReport != "" {
		pg.MinimalReport = rel(dir, filepath.Join(sum.MinimalReport, report.IndexFile))
	}
	if sum.OriginalReport != "" {
		pg.OriginalReport = rel(dir, filepath.Join(sum.OriginalReport, report.IndexFile))
	}
	pg.Verdict = fmt.Sprintf("The minimal schedule is invalid in all %d seeds (%s)", len(res.Seeds), pg.Seeds)
	if len(sum.Kinds) > 0 {
		pg.Verdict += ": " + strings.Join(sum.Kinds, ", ")
	}
	if !sum.Failing {
		pg.Verdict = fmt.Sprintf("The original schedule is not invalid in all %d seeds (%s): there was nothing to shrink", len(res.Seeds), pg.Seeds)
	}
	pg.Stopped = fmt.Sprintf("%d candidates, %d runs, %.1f s; the search stopped because a whole round of changes kept none.", len(res.Steps), res.Runs, res.Elapsed.Seconds())
	if res.Exhausted {
		pg.Stopped = fmt.Sprintf("%d candidates, %d runs, %.1f s; the budget ran out: this is the smallest failing schedule found so far.", len(res.Steps), res.Runs, res.Elapsed.Seconds())
	}
	for _, st := range res.Steps {
		ps := pageStep{N: st.N, Change: st.Change, Elapsed: fmt.Sprintf("%.1f", st.Elapsed.Seconds())}
		switch {
		case st.Skipped != "":
			ps.Outcome, ps.Class = "skipped: "+st.Skipped, "skipped"
		case st.Failing:
			ps.Outcome, ps.Class = "invalid in every seed — kept", "kept"
		default:
			ps.Outcome, ps.Class = "does not fail in every seed — dropped", "dropped"
		}
		var vs []string
		for _, r := range st.Runs {
			v := string(r.Verdict)
			if v == "" {
				v = "error"
			}
			vs = append(vs, fmt.Sprintf("%d:%s", r.Seed, v))
		}
		ps.Runs = strings.Join(vs, " ")
		if st.Dir != "" {
			ps.Link = rel(dir, filepath.Join(st.Dir, CandidateFile))
		}
		pg.Steps = append(pg.Steps, ps)
	}
	t, err := reportpage.Parse("shrink", pageTemplate, nil)
	if err != nil {
		return fmt.Errorf("shrink page template: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, pg); err != nil {
		return fmt.Errorf("shrink page: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, PageFile), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", PageFile, err)
	}
	return nil
}

const pageTemplate = `{{template "head" .}}<style>
{{template "plain.css"}}  h2 { font-size: 26px; margin-top: 32px; }
  .verdict { font-size: 24px; font-weight: 700; }
  .verdict.ok { color: #b3261e; } .verdict.none { color: #9a6700; }
  .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
  .side { border: 1px solid #bbb; padding: 12px 16px; min-width: 0; }
  .side h2 { margin-top: 0; }
  pre { background: #f6f6f6; padding: 12px; font-size: 15px; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: 17px; }
  th, td { border: 1px solid #bbb; padding: 6px 8px; text-align: left; vertical-align: top; }
  th { background: #f0f0f0; }
  td.kept { color: #1b7f3b; font-weight: 700; } td.dropped { color: #666; } td.skipped { color: #9a6700; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Shrunk from <code>{{.From}}</code>, judged on {{.Seeds}}.</p>
<p class="verdict {{if .Failing}}ok{{else}}none{{end}}" id="verdict">{{.Verdict}}.</p>
<p id="stopped">{{.Stopped}}</p>
<div class="sides">
<div class="side" id="original">
<h2>Original schedule — {{.Before}}</h2>
<ol>{{range .Original}}<li>{{.}}</li>{{else}}<li>no fault</li>{{end}}</ol>
{{if .OriginalReport}}<p><a href="{{.OriginalReport}}">Report of its first run</a></p>{{end}}
<pre>{{.OriginalYAML}}</pre>
</div>
<div class="side" id="minimal">
{{if .Failing}}<h2>Minimal schedule — {{.After}}</h2>
<ol>{{range .Minimal}}<li>{{.}}</li>{{else}}<li>no fault</li>{{end}}</ol>
{{if .MinimalReport}}<p><a href="{{.MinimalReport}}">Report of its first run</a> · <a href="{{.MinimalFile}}">{{.MinimalFile}}</a></p>{{end}}
<pre>{{.MinimalYAML}}</pre>
{{else}}<h2>No minimal schedule</h2>
<p>The original schedule does not fail in every seed, so no smaller one was looked for. Try another failing run, or a smaller --k.</p>{{end}}
</div>
</div>
<h2>Candidates</h2>
<table id="candidates">
<tr><th>#</th><th>change</th><th>runs (seed:verdict)</th><th>outcome</th><th>s</th></tr>
{{range .Steps}}<tr><td>{{if .Link}}<a href="{{.Link}}">{{.N}}</a>{{else}}{{.N}}{{end}}</td><td>{{.Change}}</td><td>{{.Runs}}</td><td class="{{.Class}}">{{.Outcome}}</td><td>{{.Elapsed}}</td></tr>
{{end}}</table>
</body>
</html>
`
