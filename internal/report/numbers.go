package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Numbers in a language's sentences (issue 34 item 19). English writes
// them as Go does ("6.1", "300ms"). Vietnamese writes a decimal comma
// ("6,1"), a unit after a space ("6,1 s", "300 ms") and whole minutes and
// hours in words ("1 phút", not Go's "1m0s"). tr renders every number
// argument of a message this way, so one formatter serves every vi
// sentence: a float (whatever its verb), a string that is a decimal number
// ("6.1", fmtT's output) and a string that is a Go duration (fmtDur's
// output).

var (
	// decimalArg is a decimal number as fmtT and strconv write it.
	decimalArg = regexp.MustCompile(`^[-+]?[0-9]+\.[0-9]+$`)
	// goDurationArg is a duration as time.Duration.String (and so fmtDur)
	// writes it.
	goDurationArg = regexp.MustCompile(`^[-+]?([0-9]+h)?([0-9]+m)?[0-9]+(\.[0-9]+)?(s|ms|µs|ns)$`)
)

// localArgs renders the number arguments of a message in lang: args
// itself for English.
func localArgs(lang Lang, args []any) []any {
	if lang != Vietnamese {
		return args
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = viArg(a)
	}
	return out
}

// viArg is a the Vietnamese way when it is a number or a duration, else
// a itself.
func viArg(a any) any {
	switch v := a.(type) {
	case float64:
		return viFloat(v)
	case float32:
		return viFloat(v)
	case time.Duration:
		return viDuration(v)
	case string:
		return viNumber(v)
	}
	return a
}

// viNumber is s the Vietnamese way when s is a decimal number or a Go
// duration, else s.
func viNumber(s string) string {
	switch {
	case decimalArg.MatchString(s):
		return strings.Replace(s, ".", ",", 1)
	case goDurationArg.MatchString(s):
		if d, err := time.ParseDuration(s); err == nil {
			if strings.HasPrefix(s, "+") {
				// A signed jump keeps its sign: "+15 s".
				return "+" + viDuration(d)
			}
			return viDuration(d)
		}
	}
	return s
}

// viDuration writes d in Vietnamese: whole hours and minutes in words
// ("1 phút"), anything shorter than a second in ms ("300 ms"), the rest
// in seconds with a decimal comma ("6,1 s", "90 s").
func viDuration(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	switch {
	case d == 0:
		return "0 s"
	case d >= time.Hour && d%time.Hour == 0:
		return neg + strconv.FormatInt(int64(d/time.Hour), 10) + " giờ"
	case d >= time.Minute && d%time.Minute == 0:
		return neg + strconv.FormatInt(int64(d/time.Minute), 10) + " phút"
	case d < time.Millisecond:
		return neg + viDecimal(strconv.FormatFloat(float64(d)/float64(time.Microsecond), 'f', -1, 64)) + " µs"
	case d < time.Second:
		return neg + viDecimal(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64)) + " ms"
	}
	return neg + viDecimal(strconv.FormatFloat(d.Seconds(), 'f', -1, 64)) + " s"
}

// viDecimal puts a decimal comma in place of s's decimal point.
func viDecimal(s string) string { return strings.Replace(s, ".", ",", 1) }

// viFloat is a float argument that formats as its verb asks, with a
// decimal comma.
type viFloat float64

// Format writes f by the verb, flags, width and precision of the
// message's own verb, then puts a decimal comma in place of the point.
func (f viFloat) Format(s fmt.State, verb rune) {
	var b strings.Builder
	b.WriteByte('%')
	for _, fl := range "+-# 0" {
		if s.Flag(int(fl)) {
			b.WriteRune(fl)
		}
	}
	if w, ok := s.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if p, ok := s.Precision(); ok {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(p))
	}
	b.WriteRune(verb)
	fmt.Fprint(s, viDecimal(fmt.Sprintf(b.String(), float64(f))))
}

// numIn is the number or duration s (as fmtT or fmtDur write it) as lang
// writes it: for a number a page renders outside a message.
func numIn(lang Lang, s string) string {
	if lang != Vietnamese {
		return s
	}
	return viNumber(s)
}
