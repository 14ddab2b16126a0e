// Package lesson reads the course lessons' files (scenarios/lessons/N.yaml,
// issue 34): a lesson is data — its goal, the requirements of lesson 42 it
// bears on, a "predict before you look" question for each broken/fixed pair
// of scenarios, takeaways and caveats, each text in English (en) and
// Vietnamese (vi). A suite's lesson pages render them (internal/report).
//
// A bad file is refused with every problem located as file:line:col and
// field path (scenario.FieldError), the way a scenario file is.
package lesson

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/scenario"
	"github.com/locksim/locksim/scenarios/lessons"
)

// Requirements are lesson 42's five requirements of a distributed lock,
// in the course's order, as a lesson file names them. Report's
// requirement codes (report.Requirements) follow the same order.
var Requirements = []string{"mutual-exclusion", "deadlock-free", "fault-tolerance", "safety", "liveness"}

// Languages are the languages every text of a lesson file has.
var Languages = []string{"en", "vi"}

// Text is one text of a lesson in each language (Languages).
type Text map[string]string

// In is t in lang, or "" when it has none.
func (t Text) In(lang string) string { return t[lang] }

// Pair is a broken scenario of the lesson (its file name, as its fixed_by
// pairs it with the fix) and the question the class answers before looking
// at the two runs. A pair with a Contrast shows the broken scenario beside
// the Contrast file's run instead of its fix: a run of the same shape in
// which the lesson's point makes the difference (lesson 42: the same 45 s
// job under a 30 s TTL costs duplicate work in an efficiency lock and a
// double charge in a correctness lock). Either file may belong to another
// lesson; neither needs a fixed_by.
//
// A pair with a Fix shows that file as the broken scenario's fix instead
// of its fixed_by: a scenario has one fixed_by, and another lesson may
// teach another fix of it (lesson 48: gc-pause fixed by an idempotency
// key). The two files must differ in the fix alone (scenario.BeyondFix).
type Pair struct {
	Broken   string
	Contrast string // "" for a broken/fixed pair
	Fix      string // "" when the broken file's fixed_by is the fix
	Question Text
}

// Lesson is one course lesson's file.
type Lesson struct {
	Number       int
	File         string
	Goal         Text
	Requirements []string // of Requirements, in the course's order
	Pairs        []Pair
	Takeaways    []Text
	Caveats      []Text
	// TakeawayRuns and CaveatRuns are, for each takeaway and caveat, the
	// scenario files (base names, as fixed_by names files) whose runs the
	// text speaks of: its evidence. A lesson page says beside the text
	// where each is: run in the suite, run only as an experiment of a
	// suite's run, or not run at all (teacher7 F1, F2; reader7 F5, F15).
	TakeawayRuns [][]string
	CaveatRuns   [][]string
}

// Question is the question of the pair whose broken scenario file is
// broken (a base name: gc-pause.yaml) beside its fixed_by, and whether
// there is one (a pair with its own fix or contrast is asked its own).
func (l *Lesson) Question(broken string) (Text, bool) {
	for _, p := range l.Pairs {
		if p.Broken == filepath.Base(broken) && p.Fix == "" && p.Contrast == "" {
			return p.Question, true
		}
	}
	return nil, false
}

// All parses every lesson file locksim ships (scenarios/lessons, embedded),
// by lesson number.
func All() (map[int]*Lesson, error) {
	out := map[int]*Lesson{}
	names, err := fs.Glob(lessons.FS, "*.yaml")
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, n := range names {
		b, err := lessons.FS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		l, err := Parse(filepath.Join("scenarios", "lessons", n), b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[l.Number] = l
	}
	return out, errors.Join(errs...)
}

// Load parses the lesson file at path.
func Load(path string) (*Lesson, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("lesson %s: %w", path, err)
	}
	return Parse(path, b)
}

// IsLessonFile tells whether path is a lesson file by where it lives: a
// *.yaml in a directory named lessons.
func IsLessonFile(path string) bool {
	return filepath.Base(filepath.Dir(path)) == "lessons" && strings.HasSuffix(path, ".yaml")
}

type parser struct {
	file string
	errs []*scenario.FieldError
}

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, n.Column
	}
	p.errs = append(p.errs, &scenario.FieldError{File: p.file, Line: line, Column: col, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads a lesson file's bytes; file names it in errors. Every field
// is required: lesson (42–51), goal, requirements (at least one of
// Requirements, none twice), pairs (a list, each with broken and
// question, and optionally contrast or fix; empty when the lesson has no
// pair),
// takeaways and caveats (at
// least one each); every text has en and vi, non-empty. An unknown field
// is an error. The error is a *scenario.ErrorList.
func Parse(file string, data []byte) (*Lesson, error) {
	p := &parser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &scenario.ErrorList{Errs: []*scenario.FieldError{{File: file, Line: 1, Column: 0, Msg: "not YAML: " + err.Error()}}}
	}
	l := &Lesson{File: file}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		p.errorf(&doc, "", "must be a mapping with lesson, goal, requirements, pairs, takeaways and caveats")
		return nil, &scenario.ErrorList{Errs: p.errs}
	}
	root := doc.Content[0]
	fields := p.mapping(root, "", []string{"lesson", "goal", "requirements", "pairs", "takeaways", "caveats"})
	if n := fields["lesson"]; n != nil {
		v, err := strconv.Atoi(n.Value)
		switch {
		case n.Kind != yaml.ScalarNode || err != nil:
			p.errorf(n, "lesson", "must be a lesson number %d–%d (got %q)", scenario.FirstLesson, scenario.LastLesson, n.Value)
		case v < scenario.FirstLesson || v > scenario.LastLesson:
			p.errorf(n, "lesson", "must be between %d and %d, the course module's lessons (got %d)", scenario.FirstLesson, scenario.LastLesson, v)
		default:
			l.Number = v
		}
	}
	l.Goal = p.text(fields["goal"], "goal")
	l.Requirements = p.requirements(fields["requirements"])
	l.Pairs = p.pairs(fields["pairs"])
	l.Takeaways, l.TakeawayRuns = p.texts(fields["takeaways"], "takeaways")
	l.Caveats, l.CaveatRuns = p.texts(fields["caveats"], "caveats")
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i], p.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
		})
		return nil, &scenario.ErrorList{Errs: p.errs}
	}
	return l, nil
}

// mapping checks n is a mapping of known fields and optional ones, each
// given once, every known one present, and returns them by name (nil for
// a missing one).
func (p *parser) mapping(n *yaml.Node, path string, known []string, optional ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	at := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, path, "must be a mapping with %s", strings.Join(known, ", "))
		return out
	}
	all := append(slices.Clone(known), optional...)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(all, k.Value):
			p.errorf(k, at(k.Value), "unknown field; this mapping has %s", strings.Join(all, ", "))
		case out[k.Value] != nil:
			p.errorf(k, at(k.Value), "given twice")
		default:
			out[k.Value] = v
		}
	}
	for _, k := range known {
		if out[k] == nil {
			p.errorf(n, at(k), "is missing")
		}
	}
	return out
}

// text reads {en: …, vi: …}, both non-empty.
func (p *parser) text(n *yaml.Node, path string) Text {
	if n == nil {
		return nil
	}
	return p.textOf(n, path, p.mapping(n, path, Languages))
}

// textOf is the text of a mapping's fields f (en, vi).
func (p *parser) textOf(n *yaml.Node, path string, f map[string]*yaml.Node) Text {
	t := Text{}
	for _, lang := range Languages {
		v := f[lang]
		if v == nil {
			continue
		}
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			p.errorf(v, path+"."+lang, "must be a non-empty text")
			continue
		}
		t[lang] = strings.Join(strings.Fields(v.Value), " ")
	}
	return t
}

// texts reads a non-empty list of texts, each with the scenario files
// its runs field names (nil when it has none).
func (p *parser) texts(n *yaml.Node, path string) ([]Text, [][]string) {
	if n == nil {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errorf(n, path, "must be a list of at least one text with en and vi")
		return nil, nil
	}
	var out []Text
	var runs [][]string
	for i, it := range n.Content {
		at := fmt.Sprintf("%s[%d]", path, i)
		f := p.mapping(it, at, Languages, "runs")
		out = append(out, p.textOf(it, at, f))
		runs = append(runs, p.runs(f["runs"], at+".runs"))
	}
	return out, runs
}

// runs reads a text's runs: a list of scenario file names, none twice.
func (p *parser) runs(n *yaml.Node, path string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errorf(n, path, "must be a list of the scenario files the text speaks of (gc-pause.yaml)")
		return nil
	}
	var out []string
	for i, it := range n.Content {
		at := fmt.Sprintf("%s[%d]", path, i)
		switch f := p.fileName(it, at, "gc-pause.yaml"); {
		case f == "":
		case slices.Contains(out, f):
			p.errorf(it, at, "%s is named twice", f)
		default:
			out = append(out, f)
		}
	}
	return out
}

func (p *parser) requirements(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errorf(n, "requirements", "must be a list of at least one of %s", strings.Join(Requirements, ", "))
		return nil
	}
	var out []string
	for i, it := range n.Content {
		path := fmt.Sprintf("requirements[%d]", i)
		switch {
		case it.Kind != yaml.ScalarNode || !slices.Contains(Requirements, it.Value):
			p.errorf(it, path, "must be one of %s (lesson 42's five requirements; got %q)", strings.Join(Requirements, ", "), it.Value)
		case slices.Contains(out, it.Value):
			p.errorf(it, path, "%s is named twice", it.Value)
		default:
			out = append(out, it.Value)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(Requirements, a) - slices.Index(Requirements, b) })
	return out
}

func (p *parser) pairs(n *yaml.Node) []Pair {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "pairs", "must be a list of {broken: <scenario file>, question: {en, vi}}, each with an optional contrast: <scenario file> ([] when the lesson has no pair)")
		return nil
	}
	var out []Pair
	for i, it := range n.Content {
		path := fmt.Sprintf("pairs[%d]", i)
		f := p.mapping(it, path, []string{"broken", "question"}, "contrast", "fix")
		pr := Pair{Question: p.text(f["question"], path+".question")}
		pr.Contrast = p.fileName(f["contrast"], path+".contrast", "cache-rebuild-waste.yaml")
		pr.Fix = p.fileName(f["fix"], path+".fix", "payment-idempotency.yaml")
		if pr.Contrast != "" && pr.Fix != "" {
			p.errorf(f["fix"], path+".fix", "a pair has a contrast or a fix, not both")
		}
		if b := f["broken"]; b != nil {
			switch {
			case b.Kind != yaml.ScalarNode || !strings.HasSuffix(b.Value, ".yaml") || strings.ContainsRune(b.Value, '/'):
				p.errorf(b, path+".broken", "must be a broken scenario's file name, as fixed_by names files (gc-pause.yaml; got %q)", b.Value)
			case slices.ContainsFunc(out, func(q Pair) bool { return q.Broken == b.Value && q.Fix == pr.Fix && q.Contrast == pr.Contrast }):
				p.errorf(b, path+".broken", "%s has a question already beside the same fix", b.Value)
			default:
				pr.Broken = b.Value
			}
		}
		out = append(out, pr)
	}
	return out
}

// fileName reads a scenario's file name (a base name, as fixed_by names
// files; example is shown in the error), or "" when n is nil or wrong.
func (p *parser) fileName(n *yaml.Node, path, example string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode || !strings.HasSuffix(n.Value, ".yaml") || strings.ContainsRune(n.Value, '/') {
		p.errorf(n, path, "must be a scenario's file name (%s; got %q)", example, n.Value)
		return ""
	}
	return n.Value
}
