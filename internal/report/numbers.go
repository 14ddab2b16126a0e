package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/report/chart"
	"github.com/locksim/locksim/internal/workload"
)

// Numbers in a language's sentences (issue 34 item 19). English writes
// them as Go does ("6.1", "300ms"). Vietnamese writes a decimal comma
// ("6,1"), a unit after a space ("6,1 s", "300 ms") and whole minutes and
// hours in words ("1 phút", not Go's "1m0s"). A number reaches a sentence
// as a value of its own type — a float, a time.Duration, or one of the
// types below — and tr writes it once, in the sentence's language
// (localArg); a string argument is words, written as it is.

// instant is an instant of scenario time in seconds, written to a tenth
// (chart.Tenths): "30.0" in English, "30,0" in Vietnamese. The sentence
// puts "t=" and "s" around it. It is chart's type, so a drawing's own
// words (Drawing.Say) write their instants the same way.
type instant = chart.Instant

// span is a stretch of scenario time in seconds, written as a duration
// (spanDuration): "6.1s", "300ms", "1m0s" in English; "6,1 s", "300 ms",
// "1 phút" in Vietnamese.
type span float64

// jump is a signed duration of scenario time (a clock's jump or offset),
// written with its sign: "+15s", "-2s"; "+15 s".
type jump time.Duration

// instantMs is an instant of scenario time in seconds to the millisecond,
// its trailing zeros cut ("12.345", "12.3"; "12,345"): a tip's precision,
// where node events microseconds apart stay apart.
type instantMs float64

// decimal is a number written with prec decimals (-1: as few as it
// needs): "2.50", "2,50".
type decimal struct {
	v    float64
	prec int
}

// number is a plain number written as short as it can be (strconv's 'g'):
// a rate, a time scale — "0.5", "0,5".
type number float64

// in writes n in lang.
func (n number) in(lang Lang) string {
	return decimalSign(lang, strconv.FormatFloat(float64(n), 'g', -1, 64))
}

// in writes t in lang.
func (t span) in(lang Lang) string {
	d := spanDuration(float64(t))
	if lang == Vietnamese {
		return viDuration(d)
	}
	return d.String()
}

// MarshalText writes t as results.json records a duration of its words
// (Advice.Args): in English.
func (t span) MarshalText() ([]byte, error) { return []byte(t.in(English)), nil }

// spanDuration is s seconds rounded for a sentence: to 0.1 s from a second
// up, to the millisecond below.
func spanDuration(s float64) time.Duration {
	d := time.Duration(s * 1e9)
	switch {
	case d >= time.Second:
		d = d.Round(100 * time.Millisecond)
	case d >= time.Millisecond:
		d = d.Round(time.Millisecond)
	}
	return d
}

// in writes j in lang.
func (j jump) in(lang Lang) string {
	d, sign := time.Duration(j), ""
	if d >= 0 {
		sign = "+"
	}
	if lang == Vietnamese {
		return sign + viDuration(d)
	}
	return sign + d.String()
}

// in writes t in lang.
func (t instantMs) in(lang Lang) string {
	v := strconv.FormatFloat(float64(t), 'f', 3, 64)
	v = strings.TrimRight(v, "0")
	if strings.HasSuffix(v, ".") {
		v += "0"
	}
	return decimalSign(lang, v)
}

// in writes n in lang.
func (n decimal) in(lang Lang) string {
	return decimalSign(lang, strconv.FormatFloat(n.v, 'f', n.prec, 64))
}

// instantIn writes the instant s (scenario seconds) in lang, to a tenth.
func instantIn(lang Lang, s float64) string { return decimalSign(lang, chart.Tenths(s)) }

// commaIn reports whether lang writes a decimal comma ("6,1").
func commaIn(lang Lang) bool { return lang == Vietnamese }

// decimalSign puts lang's decimal sign in place of the decimal point of
// v, a number strconv (or chart.Tenths) has just written.
func decimalSign(lang Lang, v string) string {
	if commaIn(lang) {
		return strings.Replace(v, ".", ",", 1)
	}
	return v
}

// localArgs writes the number arguments of a message in lang.
func localArgs(lang Lang, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = localArg(lang, a)
	}
	return out
}

// localArg is a written in lang when it is a number of scenario time (an
// instant or a duration, the report's types or a workload's) or a
// Vietnamese float or time.Duration; else a itself, for its verb.
func localArg(lang Lang, a any) any {
	switch v := a.(type) {
	case instant:
		return instantIn(lang, float64(v))
	case workload.At:
		return instantIn(lang, float64(v))
	case span:
		return v.in(lang)
	case workload.Span:
		return span(v).in(lang)
	case jump:
		return v.in(lang)
	case instantMs:
		return v.in(lang)
	case decimal:
		return v.in(lang)
	case number:
		return v.in(lang)
	}
	if lang != Vietnamese {
		return a
	}
	switch v := a.(type) {
	case float64:
		return viFloat(v)
	case float32:
		return viFloat(v)
	case time.Duration:
		return viDuration(v)
	}
	return a
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
		return neg + viNum(float64(d)/float64(time.Microsecond)) + " µs"
	case d < time.Second:
		return neg + viNum(float64(d)/float64(time.Millisecond)) + " ms"
	}
	return neg + viNum(d.Seconds()) + " s"
}

// viNum writes v with as few decimals as it needs and a decimal comma.
func viNum(v float64) string { return decimal{v, -1}.in(Vietnamese) }

// viFloat is a float argument that formats as its verb asks, with a
// decimal comma.
type viFloat float64

// Format writes f by the verb, flags, width and precision of the
// message's own verb, with a decimal comma in place of the point.
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
	fmt.Fprint(s, decimalSign(Vietnamese, fmt.Sprintf(b.String(), float64(f))))
}
