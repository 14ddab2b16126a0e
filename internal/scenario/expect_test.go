package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// base is a scenario without expect; the test cases append lines from line 4.
const base = "clients: 2\nalgorithm: safe\nttl: 30s\n"

func TestExpectReadsTheShortAndTheLongForm(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want Expectation
	}{
		{"no expect declares no expectation", "", Expectation{}},
		{"the short form gives the verdict and leaves the kinds unjudged", "expect: invalid\n", Expectation{Verdict: "invalid"}},
		{"an empty short form declares no expectation", "expect: \"\"\n", Expectation{}},
		{"the long form gives the verdict and the kinds, sorted", "expect: {verdict: invalid, kinds: [mutex-overlap, double-effect]}\n",
			Expectation{Verdict: "invalid", Kinds: []string{"double-effect", "mutex-overlap"}}},
		{"the long form in block style reads the same", "expect:\n  verdict: invalid\n  kinds:\n    - lost-update\n",
			Expectation{Verdict: "invalid", Kinds: []string{"lost-update"}}},
		{"the long form without kinds judges the verdict only", "expect: {verdict: unknown}\n", Expectation{Verdict: "unknown"}},
		{"a valid run may say it shows no violation", "expect: {verdict: valid, kinds: []}\n", Expectation{Verdict: "valid", Kinds: []string{}}},
		{"a liveness kind is a violation with expect_live", "expect_live: true\nexpect: {verdict: invalid, kinds: [unavailable, stuck-lock]}\n",
			Expectation{Verdict: "invalid", Kinds: []string{"stuck-lock", "unavailable"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("e.yaml", []byte(base+tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Expect, tt.want) {
				t.Errorf("expect = %#v, want %#v", s.Expect, tt.want)
			}
		})
	}
}

func TestExpectRefusesBadKindsWithTheirPosition(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string // one reported problem, "line:col: path: message…"
	}{
		{"an unknown kind is refused with a suggestion", "expect: {verdict: invalid, kinds: [double-efect]}\n",
			`4:36: expect.kinds[0]: unknown anomaly kind "double-efect" (did you mean "double-effect"?); valid: mutex-overlap, double-effect`},
		{"a kind listed twice is refused", "expect:\n  verdict: invalid\n  kinds: [oversell, oversell]\n",
			"6:21: expect.kinds[1]: oversell is listed twice"},
		{"an always-informational kind is refused", "expect: {verdict: invalid, kinds: [duplicate-work]}\n",
			"4:36: expect.kinds[0]: duplicate-work is always informational"},
		{"a liveness kind needs expect_live", "expect: {verdict: invalid, kinds: [stuck-lock]}\n",
			"4:36: expect.kinds[0]: stuck-lock is informational unless the scenario sets expect_live: true"},
		{"a valid run cannot expect kinds", "expect: {verdict: valid, kinds: [mutex-overlap]}\n",
			"4:33: expect.kinds: a valid run shows no violation, so it expects no kind"},
		{"an unknown run cannot expect kinds", "expect: {verdict: unknown, kinds: [mutex-overlap]}\n",
			"4:35: expect.kinds: an unknown run shows no violation"},
		{"an invalid run must list at least one kind", "expect: {verdict: invalid, kinds: []}\n",
			"4:35: expect.kinds: an invalid run shows at least one violation"},
		{"kinds must be a list", "expect: {verdict: invalid, kinds: mutex-overlap}\n",
			"4:35: expect.kinds: must be a list of anomaly kinds"},
		{"the long form needs a verdict", "expect: {kinds: [mutex-overlap]}\n",
			"4:9: expect.verdict: missing required field"},
		{"an unknown field of the long form gets a suggestion", "expect: {verdict: invalid, kind: [oversell]}\n",
			`4:28: expect.kind: unknown field "kind" (did you mean "kinds"?)`},
		{"an unknown verdict of the long form gets a suggestion", "expect: {verdict: invalidd}\n",
			`4:19: expect.verdict: unknown verdict "invalidd" (did you mean "invalid"?)`},
		{"an unknown short-form verdict gets a suggestion", "expect: vaild\n",
			`4:9: expect: unknown verdict "vaild" (did you mean "valid"?)`},
		{"a list is neither form", "expect: [invalid]\n",
			"4:9: expect: must be a verdict (valid, invalid, unknown) or a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.yaml", []byte(base+tt.yaml))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), "e.yaml:"+tt.want) {
				t.Errorf("error\n  %v\nwant one containing\n  e.yaml:%s", err, tt.want)
			}
			var list *ErrorList
			if errors.As(err, &list) && len(list.Errs) != 1 {
				t.Errorf("%d problems reported, want 1:\n%v", len(list.Errs), err)
			}
		})
	}
}

func TestFixedByMustNameAFileNextToTheScenario(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"fixed.yaml", "sub/deeper.yaml"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(base), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		yaml string
		want string // "" = loads, with fixed_by kept as written
	}{
		{"a file next to the scenario is accepted", "expect: invalid\nfixed_by: fixed.yaml\n", ""},
		{"a file in a subdirectory is accepted", "fixed_by: sub/deeper.yaml\n", ""},
		{"a missing file is refused at its position with a suggestion", "expect: invalid\nfixed_by: fixd.yaml\n",
			`broken.yaml:5:11: fixed_by: no file ` + filepath.Join(dir, "fixd.yaml") + ` (fixed_by is relative to this file's directory) (did you mean "fixed.yaml"?)`},
		{"a name without its extension is refused with the file it meant", "fixed_by: fixed\n",
			`broken.yaml:4:11: fixed_by: no file ` + filepath.Join(dir, "fixed") + ` (fixed_by is relative to this file's directory) (did you mean "fixed.yaml"?)`},
		{"a directory is refused", "fixed_by: sub\n", "broken.yaml:4:11: fixed_by: " + filepath.Join(dir, "sub") + " is a directory"},
		{"the scenario itself is refused", "fixed_by: broken.yaml\n", "broken.yaml:4:11: fixed_by: names this scenario itself"},
		{"an absolute path is refused", "fixed_by: /etc/passwd\n", "broken.yaml:4:11: fixed_by: must be relative to this file's directory"},
		{"a scenario expected valid has nothing to fix", "expect: valid\nfixed_by: fixed.yaml\n",
			"broken.yaml:5:11: fixed_by: names the fix of a broken scenario, but this one expects valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "broken.yaml")
			if err := os.WriteFile(path, []byte(base+tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(path)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.FixedBy == "" || s.FixedByFile() != filepath.Join(dir, s.FixedBy) {
					t.Errorf("FixedBy %q, FixedByFile %q", s.FixedBy, s.FixedByFile())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error\n  %v\nwant one containing\n  %s", err, tt.want)
			}
		})
	}
	t.Run("Parse alone does not look for the file, so a stored copy parses", func(t *testing.T) {
		s, err := Parse(filepath.Join(t.TempDir(), "scenario.yaml"), []byte(base+"expect: invalid\nfixed_by: gc-pause-fencing.yaml\n"))
		if err != nil || s.FixedBy != "gc-pause-fencing.yaml" {
			t.Errorf("Parse = %q, %v", s.FixedBy, err)
		}
	})
}

func TestNormalizeKeepsTheExpectationAndLeavesFixedByOut(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"the short form stays short", "expect: invalid\n", "expect: invalid\n"},
		{"the long form stays long", "expect: {verdict: invalid, kinds: [oversell, lost-update]}\n", "expect:\n  verdict: invalid\n  kinds: [lost-update, oversell]\n"},
		{"an empty kind list stays an empty list", "expect: {verdict: valid, kinds: []}\n", "expect:\n  verdict: valid\n  kinds: []\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := ""
			if strings.Contains(tt.yaml, "invalid") {
				extra = "fixed_by: other.yaml\n"
			}
			s, err := Parse("n.yaml", []byte(base+tt.yaml+extra))
			if err != nil {
				t.Fatal(err)
			}
			out, err := Normalize(s)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("normalised YAML lacks %q:\n%s", tt.want, out)
			}
			if strings.Contains(string(out), "fixed_by") {
				t.Errorf("normalised YAML names fixed_by:\n%s", out)
			}
			back, err := Parse("n.yaml", out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Expect, s.Expect) {
				t.Errorf("round trip gave %#v, want %#v", back.Expect, s.Expect)
			}
		})
	}
}

func TestCheckTTLAtScaleRefusesALeaseShorterThanAMillisecond(t *testing.T) {
	tests := []struct {
		name  string
		ttl   Duration
		scale float64
		ok    bool
	}{
		{"30 s at 50× is 600 ms", Duration(30e9), 50, true},
		{"exactly 1 ms is enough", Duration(10e6), 10, true},
		{"5 ms at 10× is too short", Duration(5e6), 10, false},
		{"a NaN scale is refused", Duration(30e9), nan(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTTLAtScale(tt.ttl, tt.scale)
			if (err == nil) != tt.ok {
				t.Errorf("CheckTTLAtScale(%s, %g) = %v, want ok=%v", tt.ttl, tt.scale, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "Redis PX needs at least 1ms") {
				t.Errorf("error %q does not say why", err)
			}
		})
	}
}

func nan() float64 { z := 0.0; return z / z }
