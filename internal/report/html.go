package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/checker"
)

//go:embed index.html.tmpl
var indexTemplate string

type pageStep struct {
	T, Text, Kind string
	Info          bool
}

type pageAnomaly struct {
	Kind, Clients, Key, Window, Explain string
	Informational                       bool
}

type pageRun struct {
	Name, Value string
	Code        bool
}

type page struct {
	Lang, Title, Description       string
	Emulated                       bool
	EmulatedText                   string
	Verdict, VerdictWord, Headline string
	ExpectClass, ExpectText        string
	Steps                          []pageStep
	Anomalies                      []pageAnomaly
	Checkers                       []checker.Result
	History                        historyInfo
	Run                            []pageRun
	YAML                           string
}

func buildPage(in Input, res Results, hist historyInfo) page {
	lang := in.Lang
	if lang == "" {
		lang = "en"
	}
	h := in.History.Header
	p := page{
		Lang: lang, Title: tr(lang, "title", h.Scenario), Description: in.Description,
		Emulated: res.Emulated, EmulatedText: tr(lang, "emulated.warning", tr(lang, "emulated")),
		Verdict: string(res.Verdict), VerdictWord: tr(lang, "verdict."+string(res.Verdict)),
		Headline: Headline(in), History: hist, YAML: string(in.ScenarioYAML), Checkers: in.Results,
	}
	switch {
	case res.ExpectationMet == nil:
		p.ExpectClass, p.ExpectText = "none", tr(lang, "expect.none")
	case *res.ExpectationMet:
		p.ExpectClass, p.ExpectText = "met", tr(lang, "expect.met", in.Expect, res.Verdict)
	default:
		p.ExpectClass, p.ExpectText = "notmet", tr(lang, "expect.notmet", in.Expect, res.Verdict)
	}
	for _, s := range Narrative(in) {
		p.Steps = append(p.Steps, pageStep{T: fmtT(s.T), Text: s.Text, Kind: s.Kind,
			Info: s.Kind == StepViolated && strings.Contains(s.Text, "informational")})
	}
	for _, a := range res.Anomalies {
		p.Anomalies = append(p.Anomalies, pageAnomaly{Kind: a.Kind, Clients: strings.Join(a.Clients, ", "), Key: a.Key,
			Window: fmtT(a.StartS) + " – " + fmtT(a.EndS), Explain: a.Explain, Informational: a.Informational})
	}
	backend := h.Backend
	if res.Emulated {
		backend += " — " + tr(lang, "emulated")
	}
	redis := h.RedisVersion
	if redis == "" {
		redis = tr(lang, "unknown.value")
	}
	if res.Emulated {
		redis += " (" + tr(lang, "emulated") + ")"
	}
	add := func(k, v string, code bool) {
		if v != "" {
			p.Run = append(p.Run, pageRun{Name: tr(lang, k), Value: v, Code: code})
		}
	}
	add("run.file", in.ScenarioFile, true)
	add("run.seed", strconv.FormatInt(h.Seed, 10), true)
	add("run.reproduce", in.Reproduce, true)
	add("run.algorithm", h.Algorithm, false)
	add("run.workload", h.Workload, false)
	add("run.backend", backend, false)
	add("run.redis", redis, false)
	add("run.scale", tr(lang, "run.scale.text", strconv.FormatFloat(res.TimeScale, 'g', -1, 64)), false)
	add("run.scenario.s", fmtDur(res.ScenarioSeconds), false)
	add("run.wall", tr(lang, "run.wall.text", res.WallSeconds), false)
	add("run.version", in.Version, true)
	return p
}

func writeIndex(path string, in Input, res Results, hist historyInfo) error {
	lang := in.Lang
	t, err := template.New("index").Funcs(template.FuncMap{
		"t": func(key string) string { return tr(lang, key) },
	}).Parse(indexTemplate)
	if err != nil {
		return fmt.Errorf("parse template: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := t.Execute(f, buildPage(in, res, hist)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
