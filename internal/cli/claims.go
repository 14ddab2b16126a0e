package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/claim/verify"
	"github.com/locksim/locksim/internal/history"
)

// cmdCheckClaims is `locksim check --claims DIR`: it verifies the claims a
// stored report's results.json makes against its history.jsonl with the
// independent verifier (package claim/verify), rewriting nothing. It
// prints "N claims, all hold" or every false claim with the records that
// contradict it. An experiment claim's verdict (a counterfactual run's) is
// checked against that run's own results.json while it is on disk. Exit 0: every claim holds; 1: a claim is false; 254: bad
// input (a missing directory or file, results.json without claims or not
// JSON, an unreadable history), with the file and the reason.
func cmdCheckClaims(path string, stdout, stderr io.Writer) int {
	dir := path
	if st, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "locksim check --claims: %v\n", err)
		return exitUsage
	} else if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	v, err := verifyReport(dir)
	if err != nil {
		fmt.Fprintf(stderr, "locksim check --claims: %v\n", err)
		return exitUsage
	}
	if !v.print(stdout) {
		return exitInvalid
	}
	return exitValid
}

// verified is a report's claims with what the verifier found of them.
type verified struct {
	claims []claim.Claim
	hist   history.History
	res    verify.Result
}

// verifyReport verifies the claims of the report in dir (its results.json)
// against its history.jsonl; an error names the file that is missing or
// unreadable.
func verifyReport(dir string) (verified, error) {
	cs, err := readClaims(filepath.Join(dir, "results.json"))
	if err != nil {
		return verified{}, err
	}
	h, err := history.ReadFile(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		return verified{}, err
	}
	r := verify.Verify(h, cs)
	checkExperiments(&r, cs, h.Header)
	return verified{claims: cs, hist: h, res: r}, nil
}

// print writes "N claims, all hold" (with how many could not be checked
// from the history, and why) or each false claim with the records that
// contradict it, and reports whether every claim holds.
func (v verified) print(w io.Writer) bool {
	unchecked := 0
	var whys []string
	for why, n := range v.res.Unchecked {
		unchecked += n
		whys = append(whys, fmt.Sprintf("%d %s", n, why))
	}
	sort.Strings(whys)
	if len(v.res.Failures) == 0 {
		fmt.Fprintf(w, "%d claims, all hold", len(v.claims))
		if unchecked > 0 {
			fmt.Fprintf(w, " (%d of them not checkable from the history: %s)", unchecked, joinComma(whys))
		}
		fmt.Fprintln(w)
		return true
	}
	fmt.Fprintf(w, "%d claims, %d false:\n", len(v.claims), len(v.res.Failures))
	for _, f := range v.res.Failures {
		b, _ := json.Marshal(f.Claim)
		fmt.Fprintf(w, "claim %s is false: %s\n  claim: %s\n", f.Claim.ID, f.Reason, b)
		for _, i := range f.Records {
			if i >= 0 && i < len(v.hist.Ops) {
				rb, _ := json.Marshal(v.hist.Ops[i])
				fmt.Fprintf(w, "  record %d: %s\n", i, rb)
			}
		}
	}
	return false
}

// readClaims reads the claims of a results.json file.
func readClaims(file string) ([]claim.Claim, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var res struct {
		Claims *[]claim.Claim `json:"claims"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := lineCol(b, se.Offset-1) // Offset is just past the bad byte
			return nil, fmt.Errorf("%s:%d:%d: %v", file, line, col, err)
		case errors.As(err, &te):
			line, col := lineCol(b, te.Offset)
			return nil, fmt.Errorf("%s:%d:%d: field %s: %v", file, line, col, te.Field, err)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if res.Claims == nil {
		return nil, fmt.Errorf("%s: no field claims (a report written before locksim made claims; `locksim check %s` rewrites it)", file, filepath.Dir(file))
	}
	return *res.Claims, nil
}

// lineCol converts a byte offset of b to a 1-based line and column.
func lineCol(b []byte, off int64) (line, col int) {
	line, col = 1, 1
	for _, c := range b[:min(int(off), len(b))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func joinComma(ss []string) string { return strings.Join(ss, ", ") }

// checkExperiments checks each Experiment claim's verdict against its
// experiment's own results.json, where that report is still on disk: one
// not checkable from the run's history becomes held or false. The report
// must be the experiment's: its history's header is run's, changed as the
// claim says (verify.ExperimentRun), else the claim is false whatever that
// report's verdict.
func checkExperiments(r *verify.Result, cs []claim.Claim, run history.Header) {
	for _, c := range cs {
		if c.Kind != claim.Experiment || c.Report == "" || r.Unchecked[verify.ExperimentUnchecked] == 0 ||
			slices.ContainsFunc(r.Failures, func(f verify.Failure) bool { return f.Claim.ID == c.ID }) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(c.Report, "results.json"))
		if err != nil {
			continue // the experiment's report is gone: it stays not checkable
		}
		var res struct {
			Verdict   string `json:"verdict"`
			Anomalies []struct {
				Kind          string `json:"kind"`
				Informational bool   `json:"informational"`
			} `json:"anomalies"`
		}
		if json.Unmarshal(b, &res) != nil {
			continue
		}
		ex, err := history.ReadFile(filepath.Join(c.Report, "history.jsonl"))
		if err != nil {
			continue // which run the verdict is of cannot be told: not checkable
		}
		if r.Unchecked[verify.ExperimentUnchecked]--; r.Unchecked[verify.ExperimentUnchecked] == 0 {
			delete(r.Unchecked, verify.ExperimentUnchecked)
		}
		why := verify.ExperimentRun(c, run, ex.Header)
		if why == "" {
			why = verify.ExperimentVerdict(c, res.Verdict)
		}
		if why == "" {
			var kinds, info []string
			for _, a := range res.Anomalies {
				if !a.Informational {
					kinds = append(kinds, a.Kind)
				} else {
					info = append(info, a.Kind)
				}
			}
			why = verify.ExperimentKinds(c, kinds)
			if why == "" {
				why = verify.ExperimentInfoKinds(c, info)
			}
		}
		if why == "" {
			why = verify.ExperimentEffects(c, ex)
		}
		if why == "" {
			why = verify.ExperimentFired(c, ex)
		}
		if why != "" {
			r.Failures = append(r.Failures, verify.Failure{Claim: c, Reason: why, Records: []int{}})
			continue
		}
		r.Held++
	}
}
