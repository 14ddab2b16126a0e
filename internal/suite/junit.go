package suite

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/internal/checker"
	"github.com/locksim/locksim/internal/report"
)

// JUnit XML (the testsuites/testsuite/testcase/failure schema that CI
// systems read).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitOf builds the JUnit document: one testsuite per scenario file, one
// testcase per run. A run that did not pass (expectation not met, or
// invalid or unknown without one) is a failure with the anomaly
// explanations as message; an infrastructure error or an interruption is
// an error.
func junitOf(outs []Outcome) junitSuites {
	doc := junitSuites{Name: "locksim"}
	idx := map[string]int{}
	var total float64
	secs := map[string]float64{}
	for _, o := range outs {
		sc := o.Scenario
		i, ok := idx[sc.File]
		if !ok {
			i = len(doc.Suites)
			idx[sc.File] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: sc.Name})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: fmt.Sprintf("%s seed %d", sc.Name, o.Seed), Classname: "locksim." + sc.Name, Time: fmt.Sprintf("%.3f", o.Wall.Seconds())}
		c.SystemOut = o.Line()
		switch {
		case o.Aborted:
			c.Error = &junitProblem{Message: "run aborted (interrupted)", Type: "aborted", Text: c.SystemOut}
		case o.Results == nil:
			c.Error = &junitProblem{Message: FirstLine(o.Err), Type: "infrastructure", Text: o.Err}
		case !o.Passed():
			c.Failure = failureOf(*o.Results)
		}
		if c.Failure != nil {
			s.Failures++
			doc.Failures++
		}
		if c.Error != nil {
			s.Errors++
			doc.Errors++
		}
		s.Tests++
		doc.Tests++
		s.Cases = append(s.Cases, c)
		secs[sc.File] += o.Wall.Seconds()
		total += o.Wall.Seconds()
	}
	for f, i := range idx {
		doc.Suites[i].Time = fmt.Sprintf("%.3f", secs[f])
	}
	doc.Time = fmt.Sprintf("%.3f", total)
	return doc
}

func failureOf(r report.Results) *junitProblem {
	var explains []string
	for _, a := range r.Anomalies {
		if !a.Informational {
			explains = append(explains, a.Explain)
		}
	}
	typ, head := "verdict-"+string(r.Verdict), fmt.Sprintf("verdict %s", r.Verdict)
	if r.ExpectationMet != nil {
		typ, head = "expectation-not-met", fmt.Sprintf("expected %s, got %s", r.Expect, r.Verdict)
		if why := KindsMissed(r); why != "" {
			head += " (" + why + ")"
		}
	}
	msg := head
	if len(explains) > 0 {
		msg += ": " + strings.Join(explains, " | ")
	} else if r.Verdict != checker.Valid {
		msg += ": no violation found"
	} else {
		msg += ": no anomaly found"
	}
	text := fmt.Sprintf("%s\nreproduce: %s\nreport: %s", msg, r.Reproduce, filepath.Join(r.ReportDir, report.IndexFile))
	return &junitProblem{Message: msg, Type: typ, Text: text}
}

// WriteJUnit writes the JUnit XML file of a suite's outcomes: one testsuite
// per scenario file, one testcase per run, a failure for a run that did
// not pass, an error for one with no verdict or interrupted.
func WriteJUnit(path string, outs []Outcome) error {
	b, err := xml.MarshalIndent(junitOf(outs), "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}
