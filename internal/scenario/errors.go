package scenario

import (
	"sort"
	"strconv"
	"strings"
)

// FieldError locates one problem in a scenario file.
//
// Line and Column are 1-based. Column is 0 when only the line is known (YAML
// syntax errors); Error then prints "file:line:". A problem with the file as a
// whole (too large, empty, not UTF-8 at its start) is reported at 1:1 with an
// empty Path.
type FieldError struct {
	File   string
	Line   int
	Column int
	// Path names the field, e.g. "faults[0].duration"; empty for problems
	// that belong to no field (syntax, encoding, the file as a whole).
	Path string
	Msg  string
}

// Error formats e as "file:line:col: path: msg".
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(e.Line))
	if e.Column > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Column))
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in one file, in file order. Parse and
// Load return a *ErrorList when the scenario is invalid.
type ErrorList struct{ Errs []*FieldError }

// Error lists the problems, one per line.
func (l *ErrorList) Error() string {
	if l == nil || len(l.Errs) == 0 {
		return "no errors"
	}
	lines := make([]string, len(l.Errs))
	for i, e := range l.Errs {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives errors.As access to each *FieldError.
func (l *ErrorList) Unwrap() []error {
	if l == nil {
		return nil
	}
	errs := make([]error, len(l.Errs))
	for i, e := range l.Errs {
		errs[i] = e
	}
	return errs
}

// maxErrors bounds how many problems one file reports; the rest are counted.
const maxErrors = 100

// finish sorts the problems by position and caps their number.
func (l *ErrorList) finish() {
	sort.SliceStable(l.Errs, func(i, j int) bool {
		a, b := l.Errs[i], l.Errs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	if n := len(l.Errs); n > maxErrors {
		last := l.Errs[maxErrors]
		l.Errs = append(l.Errs[:maxErrors:maxErrors], &FieldError{
			File: last.File, Line: last.Line, Column: last.Column,
			Msg: "too many errors (" + strconv.Itoa(n-maxErrors) + " more not shown)",
		})
	}
}
