package report

import (
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/checker"
)

type suiteRow struct {
	Scenario, Seed, Verdict, VerdictWord, Expect, Met, MetClass, Wall string
	Thumb, Link                                                       string // relative to the suite page; "" when unknown
	Aborted                                                           bool
	Error                                                             string // why the run has no verdict
}

type suitePage struct {
	Lang          Lang
	Title, Totals string
	// Rates has one line per scenario run more than once (a sweep): its
	// violation rate and the seeds of its invalid runs.
	Rates []string
	Rows  []suiteRow
}

// maxRateSeeds is how many invalid seeds a suite page's rate line lists.
const maxRateSeeds = 30

// SweepRate is one scenario's tally over the runs of an invocation: how
// many runs got a verdict (Runs), how many of those were invalid (with
// their seeds, in run order) or unknown, and how many had no verdict
// (Errors) or were interrupted (Aborted; not counted in Runs).
type SweepRate struct {
	Scenario, File         string
	Runs, Invalid, Unknown int
	Errors, Aborted        int
	InvalidSeeds           []int64
}

// SweepRates tallies runs per scenario file, in the order the files first
// appear.
func SweepRates(runs []Results) []SweepRate {
	var out []SweepRate
	at := map[string]int{}
	for _, r := range runs {
		k := r.File + "\x00" + r.Scenario
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, SweepRate{Scenario: r.Scenario, File: r.File})
		}
		g := &out[i]
		switch {
		case r.Aborted:
			g.Aborted++
		case r.Error != "":
			g.Errors++
		default:
			g.Runs++
			switch r.Verdict {
			case checker.Invalid:
				g.Invalid++
				g.InvalidSeeds = append(g.InvalidSeeds, r.Seed)
			case checker.Unknown:
				g.Unknown++
			}
		}
	}
	return out
}

// sweepRates gives, per scenario file run more than once, "name: k of n
// runs invalid (p%), …; invalid seeds: …".
func sweepRates(lang Lang, runs []Results) []string {
	var out []string
	for _, g := range SweepRates(runs) {
		if g.Runs+g.Errors+g.Aborted < 2 {
			continue
		}
		pct := 0.0
		if g.Runs > 0 {
			pct = 100 * float64(g.Invalid) / float64(g.Runs)
		}
		line := tr(lang, "suite.rate", g.Scenario, g.Invalid, g.Runs, pct, g.Unknown, g.Errors)
		if len(g.InvalidSeeds) > 0 {
			seeds := make([]string, 0, min(len(g.InvalidSeeds), maxRateSeeds+1))
			for i, sd := range g.InvalidSeeds {
				if i == maxRateSeeds {
					seeds = append(seeds, "…")
					break
				}
				seeds = append(seeds, strconv.FormatInt(sd, 10))
			}
			line += " " + tr(lang, "suite.rate.seeds", strings.Join(seeds, " "))
		}
		out = append(out, line)
	}
	return out
}

// suiteRel is target relative to outDir, slash-separated, "" when it
// cannot be expressed.
func suiteRel(outDir, target string) string {
	if target == "" {
		return ""
	}
	if !filepath.IsAbs(target) {
		if abs, err := filepath.Abs(target); err == nil {
			target = abs
		}
	}
	base, err := filepath.Abs(outDir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(base, target)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// WriteSuite writes <outDir>/index.html for a multi-scenario run: one row
// per run (scenario, seed, verdict, expected, met, wall seconds, a
// thumbnail of its timeline.png and a link to its index.html, both by
// relative path from outDir to the run's ReportDir; a run with Error set
// has no verdict and says why) and the totals. The page is self-contained
// (no network); lang is "en" or "vi".
func WriteSuite(outDir string, runs []Results, lang Lang) error {
	lang = normLang(lang)
	pg := suitePage{Lang: lang, Title: tr(lang, "suite.title", len(runs))}
	var nv, ni, nu, ne, met, notMet int
	for _, r := range runs {
		row := suiteRow{Scenario: r.Scenario, Seed: strconv.FormatInt(r.Seed, 10), Verdict: string(r.Verdict),
			VerdictWord: tr(lang, "verdict."+string(r.Verdict)), Wall: fmt.Sprintf("%.2f", r.WallSeconds), Aborted: r.Aborted,
			Met: tr(lang, "suite.none"), MetClass: "none", Expect: tr(lang, "suite.none")}
		if r.Expect != "" {
			row.Expect = expectWords(lang, r.Expect, r.ExpectKinds)
		}
		switch {
		case r.Error != "":
			ne++
			row.Verdict, row.VerdictWord, row.Error = "error", tr(lang, "suite.error"), r.Error
		case r.Verdict == checker.Valid:
			nv++
		case r.Verdict == checker.Invalid:
			ni++
		default:
			nu++
		}
		if r.ExpectationMet != nil {
			if *r.ExpectationMet {
				met++
				row.Met, row.MetClass = tr(lang, "suite.yes"), "met"
			} else {
				notMet++
				row.Met, row.MetClass = tr(lang, "suite.no"), "notmet"
			}
		}
		if r.ReportDir != "" {
			if _, err := os.Stat(filepath.Join(r.ReportDir, TimelineFile)); err == nil {
				row.Thumb = suiteRel(outDir, filepath.Join(r.ReportDir, TimelineFile))
			}
			row.Link = suiteRel(outDir, filepath.Join(r.ReportDir, IndexFile))
		}
		pg.Rows = append(pg.Rows, row)
	}
	pg.Totals = tr(lang, "suite.totals", len(runs), nv, ni, nu, met, notMet)
	pg.Rates = sweepRates(lang, runs)
	if ne > 0 {
		pg.Totals += " " + tr(lang, "suite.errors", ne)
	}
	t, err := template.New("suite").Funcs(template.FuncMap{
		"t": func(key string) string { return tr(lang, key) },
	}).Parse(suiteTemplate)
	if err != nil {
		return fmt.Errorf("parse suite template: %w", err)
	}
	f, err := os.Create(filepath.Join(outDir, IndexFile))
	if err != nil {
		return err
	}
	if err := t.Execute(f, pg); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

const suiteTemplate = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
  body { font-family: "Liberation Sans", "Helvetica Neue", Arial, sans-serif; font-size: 22px; line-height: 1.4;
         color: #111; background: #fff; margin: 0 auto; max-width: 1600px; padding: 24px 32px 64px; }
  h1 { font-size: 34px; }
  .totals { font-size: 26px; font-weight: 700; margin: 12px 0 24px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border: 1px solid #bbb; padding: 8px 10px; text-align: left; vertical-align: middle; }
  th { background: #f0f0f0; }
  td.v-error { color: #fff; background: #3a3a3a; font-weight: 800; }
  td.v-valid { color: #1b7f3b; font-weight: 800; } td.v-invalid { color: #b3261e; font-weight: 800; } td.v-unknown { color: #9a6700; font-weight: 800; }
  td.met { color: #1b7f3b; font-weight: 700; } td.notmet { color: #fff; background: #b3261e; font-weight: 800; } td.none { color: #666; }
  img { width: 420px; border: 1px solid #bbb; display: block; }
  .nochart { color: #666; font-size: 18px; }
  .aborted { background: #3a3a3a; color: #fff; padding: 2px 8px; border-radius: 4px; font-size: 18px; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="totals" id="totals">{{.Totals}}</p>
{{if .Rates}}<ul id="rates">{{range .Rates}}<li>{{.}}</li>{{end}}</ul>{{end}}
<table id="runs">
<tr><th>{{t "suite.scenario"}}</th><th>{{t "suite.seed"}}</th><th>{{t "suite.verdict"}}</th><th>{{t "suite.expect"}}</th><th>{{t "suite.met"}}</th><th>{{t "suite.wall"}}</th><th>{{t "suite.timeline"}}</th><th>{{t "suite.report"}}</th></tr>
{{range .Rows}}<tr>
<td><b>{{.Scenario}}</b>{{if .Aborted}} <span class="aborted">{{t "suite.aborted"}}</span>{{end}}</td><td>{{.Seed}}</td><td class="v-{{.Verdict}}">{{.VerdictWord}}</td><td>{{.Expect}}</td><td class="{{.MetClass}}">{{.Met}}</td><td>{{.Wall}}</td>
<td>{{if .Thumb}}<a href="{{.Link}}"><img src="{{.Thumb}}" alt="{{.Scenario}} {{t "suite.timeline"}}"></a>{{else if .Link}}<span class="nochart">{{t "suite.nochart"}}</span>{{end}}</td>
<td>{{if .Link}}<a href="{{.Link}}">{{t "suite.open"}}</a>{{else if .Error}}<code>{{.Error}}</code>{{end}}</td>
</tr>
{{end}}</table>
</body>
</html>
`
