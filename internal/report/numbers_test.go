package report

import (
	"testing"
	"time"

	"github.com/locksim/locksim/internal/workload"
)

// TestANumberIsWrittenOnceInTheLanguageOfItsSentence: a number reaches a
// message as a value of its own type, and tr writes it as the message's
// language writes numbers (issue 34 item 19).
func TestANumberIsWrittenOnceInTheLanguageOfItsSentence(t *testing.T) {
	for _, tt := range []struct {
		name   string
		arg    any
		en, vi string
	}{
		{"an instant to a tenth", instant(6.14), "6.1", "6,1"},
		{"an instant on a whole second keeps its tenth", instant(30), "30.0", "30,0"},
		{"a workload's instant as the report's", workload.At(12.35), "12.4", "12,4"},
		{"a span of seconds", span(6.14), "6.1s", "6,1 s"},
		{"a span under a second in milliseconds", span(0.3), "300ms", "300 ms"},
		{"a span of whole minutes in words", span(60), "1m0s", "1 phút"},
		{"a span of a minute and a half in seconds", span(90), "1m30s", "90 s"},
		{"a workload's span as the report's", workload.Span(2.5), "2.5s", "2,5 s"},
		{"a TTL as a time.Duration", 10 * time.Second, "10s", "10 s"},
		{"a clock jump forward keeps its sign", jump(15 * time.Second), "+15s", "+15 s"},
		{"a clock jump back keeps its sign", jump(-1500 * time.Millisecond), "-1.5s", "-1,5 s"},
		{"a tip's instant to the millisecond", instantMs(12.3456), "12.346", "12,346"},
		{"a tip's instant without its trailing zeros", instantMs(12.3), "12.3", "12,3"},
		{"a number with two decimals", decimal{2.5, 2}, "2.50", "2,50"},
		{"a rate as short as it can be", number(1.005), "1.005", "1,005"},
	} {
		t.Run(tt.name+" is "+tt.en+" in English and "+tt.vi+" in Vietnamese", func(t *testing.T) {
			for _, c := range []struct {
				lang Lang
				want string
			}{{English, tt.en}, {Vietnamese, tt.vi}} {
				if got := tr(c.lang, "%s", tt.arg); got != c.want {
					t.Errorf("%s: %q, want %q", c.lang, got, c.want)
				}
			}
		})
	}
}

// TestAFloatKeepsItsVerbWithTheLanguagesDecimalSign: a float argument is
// written by its message's verb, with a decimal comma in Vietnamese.
func TestAFloatKeepsItsVerbWithTheLanguagesDecimalSign(t *testing.T) {
	for _, tt := range []struct {
		format string
		v      float64
		en, vi string
	}{
		{"%.1f ms", 12.25, "12.2 ms", "12,2 ms"},
		{"%.2f s", 3, "3.00 s", "3,00 s"},
		{"%gs", 2.5, "2.5s", "2,5s"},
	} {
		t.Run(tt.format+" writes "+tt.en+" and "+tt.vi, func(t *testing.T) {
			if got := tr(English, tt.format, tt.v); got != tt.en {
				t.Errorf("en: %q, want %q", got, tt.en)
			}
			if got := tr(Vietnamese, tt.format, tt.v); got != tt.vi {
				t.Errorf("vi: %q, want %q", got, tt.vi)
			}
		})
	}
}

// TestAStringArgumentIsWordsNeverANumber: a string reaches a sentence as
// it is in every language, even one that looks like a number or a
// duration (a key, a token, a value): nothing reads a number back out of
// a string.
func TestAStringArgumentIsWordsNeverANumber(t *testing.T) {
	for _, s := range []string{"6.1", "300ms", "1m0s", "+15s", "v1.2", "10s"} {
		t.Run("the string "+s+" stays "+s+" in Vietnamese", func(t *testing.T) {
			if got := tr(Vietnamese, "%s", s); got != s {
				t.Errorf("%q, want %q", got, s)
			}
		})
	}
}
