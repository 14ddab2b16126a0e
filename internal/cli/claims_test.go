package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// claimsDir writes a report directory with a corpus history and the
// claims its account and checkers make (as results.json stores them),
// after change alters them.
func claimsDir(t *testing.T, change func([]claim.Claim)) string {
	t.Helper()
	src := filepath.Join("..", "report", "testdata", "accuracy", "c01-naive-del-foreign-unlock.jsonl")
	h, err := history.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	rep := checker.Check(context.Background(), h, checker.Options{})
	cs := claim.Number(append(rep.Account.Claims(), checker.Claims(rep.Results)...))
	if change != nil {
		change(cs)
	}
	dir := t.TempDir()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"scenario": h.Header.Scenario, "claims": cs})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"history.jsonl": raw, "results.json": b} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckClaims(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dir    func(t *testing.T) string
		code   int
		stdout string
		stderr string
	}{
		{"a report whose claims are all true exits 0 and says so", func(t *testing.T) string { return claimsDir(t, nil) },
			exitValid, "claims, all hold", ""},
		{"a report with a false claim exits 1 and names the claim and the records against it", func(t *testing.T) string {
			return claimsDir(t, func(cs []claim.Claim) {
				for i := range cs {
					if cs[i].Kind == claim.ForeignDelete {
						cs[i].Client = cs[i].By
						return
					}
				}
				t.Fatal("no foreign delete claim")
			})
		}, exitInvalid, "claim foreign-delete-1 is false", ""},
		{"a directory that does not exist exits 254 naming it", func(t *testing.T) string { return filepath.Join(t.TempDir(), "gone") },
			exitUsage, "", "gone: no such file"},
		{"a report without history.jsonl exits 254 naming the file", func(t *testing.T) string {
			d := claimsDir(t, nil)
			if err := os.Remove(filepath.Join(d, "history.jsonl")); err != nil {
				t.Fatal(err)
			}
			return d
		}, exitUsage, "", "history.jsonl"},
		{"a results.json from before claims exits 254 saying how to rewrite it", func(t *testing.T) string {
			d := claimsDir(t, nil)
			if err := os.WriteFile(filepath.Join(d, "results.json"), []byte("{\n \"verdict\": \"valid\"\n}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return d
		}, exitUsage, "", "no field claims"},
		{"a results.json that is not JSON exits 254 with its line and column", func(t *testing.T) string {
			d := claimsDir(t, nil)
			if err := os.WriteFile(filepath.Join(d, "results.json"), []byte("{\n \"claims\": [}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return d
		}, exitUsage, "", "results.json:2:13"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main([]string{"check", "--claims", tc.dir(t)}, &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout %q stderr %q", code, tc.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out.String(), errb.String(), tc.stdout, tc.stderr)
			}
			if tc.code == exitInvalid && !strings.Contains(out.String(), "  record ") {
				t.Errorf("the false claim's records are not printed: %q", out.String())
			}
		})
	}
}

// TestCheckClaimsReadsAnExperimentsOwnVerdict: an experiment claim's
// verdict is checked against its experiment's results.json when that
// report is on disk, and left not checkable when it is gone; the report
// must be of the run changed as the claim says (its history's seed and
// plan), else another run's verdict would pass for the experiment's.
func TestCheckClaimsReadsAnExperimentsOwnVerdict(t *testing.T) {
	h, err := history.ReadFile(filepath.Join("..", "report", "testdata", "accuracy", "c01-naive-del-foreign-unlock.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	same := func(hd history.Header) history.Header { return hd }
	for _, tc := range []struct {
		name     string
		what     string
		recorded string // the experiment report's verdict; "" = no report
		run      func(history.Header) history.Header
		code     int
		stdout   string
	}{
		{"an experiment whose report gives the claimed verdict holds", "fixed-by", "valid", same, exitValid, "claims, all hold"},
		{"an experiment whose report gives another verdict is false", "fixed-by", "invalid", same, exitInvalid, `results.json says "invalid", not "valid"`},
		{"an experiment whose report is gone is not checkable", "fixed-by", "", same, exitValid, "1 experiment: its verdict is another run's"},
		{"an experiment whose report is another seed's run is false", "fixed-by", "valid",
			func(hd history.Header) history.Header { hd.Seed++; return hd }, exitInvalid, "the experiment's run has seed"},
		{"an experiment without the pause whose report still has the pause is false", "without", "valid", same, exitInvalid, "the experiment's plan has 1 steps, not the 0"},
		{"an experiment without the pause whose report's plan lacks it holds", "without", "valid",
			func(hd history.Header) history.Header { hd.Plan = nil; return hd }, exitValid, "claims, all hold"},
		{"an experiment at half the pause whose report has the whole pause is false", "half", "valid", same, exitInvalid, "at half its length"},
		{"an experiment at half the pause whose report has half of it holds", "half", "valid",
			func(hd history.Header) history.Header {
				hd.Plan = slices.Clone(hd.Plan)
				hd.Plan[0].Duration /= 2
				return hd
			}, exitValid, "claims, all hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp := filepath.Join(t.TempDir(), tc.what)
			if tc.recorded != "" {
				if err := os.MkdirAll(exp, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(exp, "results.json"), []byte(`{"verdict": "`+tc.recorded+`"}`), 0o644); err != nil {
					t.Fatal(err)
				}
				ex := history.History{Header: tc.run(h.Header), Ops: h.Ops}
				if err := history.WriteFile(filepath.Join(exp, "history.jsonl"), ex); err != nil {
					t.Fatal(err)
				}
			}
			dir := claimsDir(t, nil)
			b, err := os.ReadFile(filepath.Join(dir, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Claims []claim.Claim `json:"claims"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			step := 0
			if tc.what != "fixed-by" {
				step = h.Header.Plan[0].ID
			}
			res.Claims = append(res.Claims, claim.Claim{ID: "experiment-1", Kind: claim.Experiment, What: tc.what, Step: step, How: "valid", Report: exp, Records: []int{}})
			if b, err = json.Marshal(res); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := Main([]string{"check", "--claims", dir}, &out, &errb); code != tc.code || !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out.String(), errb.String(), tc.code, tc.stdout)
			}
		})
	}
}

// TestCheckRewritesAReportInItsOwnLanguageAndVerifiesItsClaims: `locksim
// check DIR` on a Vietnamese report rewrites it in Vietnamese unless
// --lang says otherwise (a reader once turned two Vietnamese reports into
// English by checking them), and verifies the claims it has just written.
func TestCheckRewritesAReportInItsOwnLanguageAndVerifiesItsClaims(t *testing.T) {
	dir := claimsDir(t, nil)
	if err := os.Remove(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"check", "--lang", "vi", dir}, &out, &errb); code == exitUsage || code == exitInternal {
		t.Fatalf("check --lang vi exit %d: %s", code, errb.String())
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a check without --lang keeps the report's Vietnamese", []string{"check", dir}, "vi"},
		{"a check with --lang en rewrites it in English", []string{"check", "--lang", "en", dir}, "en"},
		{"a later check without --lang keeps the English it was given", []string{"check", dir}, "en"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Main(tc.args, &out, &errb); code == exitUsage || code == exitInternal {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			b, err := os.ReadFile(filepath.Join(dir, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Lang string `json:"lang"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if res.Lang != tc.want {
				t.Errorf("results.json says lang %q, want %q", res.Lang, tc.want)
			}
			if !strings.Contains(errb.String(), "claims, all hold") {
				t.Errorf("stderr does not say the rewritten report's claims were verified:\n%s", errb.String())
			}
		})
	}
}
