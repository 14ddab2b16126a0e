package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// Expectations are the verdicts an expect may name, as a fresh slice.
func Expectations() []string { return []string{"valid", "invalid", "unknown"} }

// Expectation is what a scenario is meant to produce: its `expect` field,
// either the short form `expect: invalid` or the long form
// `expect: {verdict: invalid, kinds: [double-effect, mutex-overlap]}`.
type Expectation struct {
	// Verdict is valid, invalid or unknown; "" when the scenario declares
	// no expectation.
	Verdict string
	// Kinds, when not nil, are the non-informational anomaly kinds the
	// run must show: every one of them and no other (informational
	// findings never count). Nil leaves the kinds unjudged: the short
	// form, or the long form without kinds. Sorted, each once; empty (not
	// nil) for a valid or unknown run that must show no violation.
	Kinds []string
}

// IsZero reports whether the scenario declares no expectation (YAML's
// omitempty reads it).
func (e Expectation) IsZero() bool { return e.Verdict == "" && e.Kinds == nil }

// MarshalYAML writes the short form when the kinds are not judged, the
// long form otherwise.
func (e Expectation) MarshalYAML() (any, error) {
	if e.Kinds == nil {
		return e.Verdict, nil
	}
	return struct {
		Verdict string   `yaml:"verdict"`
		Kinds   []string `yaml:"kinds,flow"`
	}{e.Verdict, e.Kinds}, nil
}

// String is the expectation as a reader would write it: "invalid",
// "invalid (double-effect, mutex-overlap)", "valid (no violation)".
func (e Expectation) String() string {
	switch {
	case e.Kinds == nil:
		return e.Verdict
	case len(e.Kinds) == 0:
		return e.Verdict + " (no violation)"
	}
	return e.Verdict + " (" + strings.Join(e.Kinds, ", ") + ")"
}

// FixedByFile is the file fixed_by names, as a path usable from the
// current directory (joined to the directory of File); "" when the
// scenario names none.
func (s Scenario) FixedByFile() string {
	if s.FixedBy == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(s.File), filepath.FromSlash(s.FixedBy))
}

// expectFields are the fields of the long form of expect.
var expectFields = []string{"verdict", "kinds"}

// expect reads the expect field: a verdict, or a mapping with a verdict and
// the anomaly kinds. The kinds are checked against the checker's
// vocabulary (history.AnomalyKinds, and the workloads' own kinds,
// workload.AnomalyKinds) and against the scenario: only an
// invalid run shows violations, an always-informational kind can never be
// one, and a liveness kind is one only with expect_live: true.
func (p *parser) expect(f field, s Scenario) Expectation {
	var e Expectation
	n := f.val
	if n == nil || n.Kind == yaml.AliasNode {
		return e
	}
	const long = "{verdict: invalid, kinds: [double-effect, mutex-overlap]}"
	switch n.Kind {
	case yaml.ScalarNode:
		v, vn, st := p.str(f, "expect")
		if st != good || v == "" {
			return e
		}
		if !contains(Expectations(), v) {
			msg := fmt.Sprintf("unknown verdict %s", quote(v))
			if sg := suggest(v, Expectations()); sg != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sg)
			}
			p.errorf(vn, "expect", "%s; valid: %s (or leave it out), or the long form %s", msg, strings.Join(Expectations(), ", "), long)
			return e
		}
		e.Verdict = v
		return e
	case yaml.MappingNode:
	default:
		p.errorf(n, "expect", "must be a verdict (%s) or a mapping like %s (got %s)", strings.Join(Expectations(), ", "), long, describe(n))
		return e
	}
	fs := p.fields(n, "expect", expectFields)
	switch v, vn, st := p.str(fs["verdict"], "expect.verdict"); st {
	case good:
		if !contains(Expectations(), v) {
			msg := fmt.Sprintf("unknown verdict %s", quote(v))
			if sg := suggest(v, Expectations()); sg != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sg)
			}
			p.errorf(vn, "expect.verdict", "%s; valid: %s", msg, strings.Join(Expectations(), ", "))
			break
		}
		e.Verdict = v
	case absent:
		p.required(n, fs["verdict"], "expect.verdict", "the verdict the run must give: "+strings.Join(Expectations(), ", "))
	}
	kf := fs["kinds"]
	seq := kf.val
	switch {
	case seq == nil || seq.Kind == yaml.AliasNode || (seq.Kind == yaml.ScalarNode && seq.ShortTag() == "!!null"):
		return e // verdict only
	case seq.Kind != yaml.SequenceNode:
		p.errorf(seq, "expect.kinds", "must be a list of anomaly kinds like [double-effect, mutex-overlap] (got %s)", describe(seq))
		return e
	}
	kinds := append(history.AnomalyKinds(), workload.AnomalyKinds()...) // the shared vocabulary, then the workloads' own
	e.Kinds = []string{}
	for i, it := range seq.Content {
		ipath := "expect.kinds[" + strconv.Itoa(i) + "]"
		v, vn, st := p.enum(field{val: it}, ipath, "anomaly kind", kinds)
		if st != good {
			continue
		}
		switch {
		case slices.Contains(e.Kinds, v):
			p.errorf(vn, ipath, "%s is listed twice", v)
		case history.AlwaysInformational(v):
			p.errorf(vn, ipath, "%s is always informational (wasted work, never a violation) and informational findings never count; leave it out", v)
		case history.LivenessKind(v) && !s.ExpectLive:
			p.errorf(vn, ipath, "%s is informational unless the scenario sets expect_live: true, and informational findings never count; set expect_live: true or leave it out", v)
		default:
			e.Kinds = append(e.Kinds, v)
		}
	}
	slices.Sort(e.Kinds)
	switch {
	case e.Verdict == "":
	case e.Verdict != "invalid" && len(seq.Content) > 0:
		p.errorf(seq, "expect.kinds", "%s run shows no violation, so it expects no kind (informational findings never count); use kinds: [] or leave kinds out, or expect invalid", article(e.Verdict))
	case e.Verdict == "invalid" && len(seq.Content) == 0:
		p.errorf(seq, "expect.kinds", "an invalid run shows at least one violation: list the kinds it must show, e.g. [double-effect, mutex-overlap], or leave kinds out to judge the verdict only")
	}
	return e
}

// fixedBy reads fixed_by: the scenario that shows the same fault made
// harmless, a path relative to this file's directory. Only a scenario that
// may fail names its fix; with checkFiles (Load) the file must exist.
func (p *parser) fixedBy(f field, s Scenario) string {
	v, n, st := p.str(f, "fixed_by")
	if st != good {
		return ""
	}
	const hint = "a scenario file next to this one, e.g. fixed_by: gc-pause-fencing.yaml"
	switch {
	case v == "":
		p.errorf(n, "fixed_by", "must name %s", hint)
		return ""
	case filepath.IsAbs(v):
		p.errorf(n, "fixed_by", "must be relative to this file's directory (got the absolute path %s); %s", quote(v), hint)
		return ""
	case s.Expect.Verdict == "valid" || s.Expect.Verdict == "unknown":
		p.errorf(n, "fixed_by", "names the fix of a broken scenario, but this one expects %s; leave it out, or expect invalid", s.Expect.Verdict)
		return ""
	}
	if !p.checkFiles || p.file == "" {
		return v
	}
	dir := filepath.Dir(p.file)
	target := filepath.Join(dir, filepath.FromSlash(v))
	if self, err1 := filepath.Abs(p.file); err1 == nil {
		if abs, err2 := filepath.Abs(target); err2 == nil && abs == self {
			p.errorf(n, "fixed_by", "names this scenario itself; name the scenario that fixes it")
			return ""
		}
	}
	st2, err := os.Stat(target)
	switch {
	case err == nil && st2.IsDir():
		p.errorf(n, "fixed_by", "%s is a directory; %s", target, hint)
		return ""
	case errors.Is(err, os.ErrNotExist):
		msg := fmt.Sprintf("no file %s (fixed_by is relative to this file's directory)", target)
		var names []string
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			for _, x := range m {
				names = append(names, filepath.Base(x))
			}
		}
		sg := suggest(filepath.Base(v), names)
		for _, ext := range []string{".yaml", ".yml"} {
			if st, err := os.Stat(target + ext); sg == "" && err == nil && !st.IsDir() {
				sg = filepath.Base(v) + ext
			}
		}
		if sg != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", filepath.ToSlash(filepath.Join(filepath.Dir(v), sg)))
		}
		p.errorf(n, "fixed_by", "%s", msg)
		return ""
	case err != nil:
		p.errorf(n, "fixed_by", "cannot read %s: %v", target, err)
		return ""
	}
	return v
}

// article is "a valid", "an unknown".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
