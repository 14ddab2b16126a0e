package report

import (
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/account"
)

func TestLanguagesAreTheMessageTables(t *testing.T) {
	t.Run("English comes first and every table is listed once", func(t *testing.T) {
		ls := Languages()
		if len(ls) != len(messages) || ls[0] != English || !slices.Contains(ls, Vietnamese) {
			t.Errorf("Languages() = %v", ls)
		}
	})
	t.Run("each call returns a slice of its own", func(t *testing.T) {
		ls := Languages()
		ls[0] = "xx"
		if Languages()[0] != English {
			t.Error("Languages returned a shared slice")
		}
	})
	t.Run("the usage list reads en or vi", func(t *testing.T) {
		if got := LanguageList(); got != "en or vi" {
			t.Errorf("LanguageList() = %q", got)
		}
	})
}

func TestALangFlagRefusesALanguageWithoutAMessageTable(t *testing.T) {
	tests := []struct {
		name, arg string
		want      Lang
		ok        bool
	}{
		{"vi is taken", "vi", Vietnamese, true},
		{"en is taken", "en", English, true},
		{"fr is refused", "fr", English, false},
		{"an empty language is refused", "", English, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			l := English
			fs.Var(&l, "lang", "")
			err := fs.Parse([]string{"--lang", tt.arg})
			if (err == nil) != tt.ok || l != tt.want {
				t.Errorf("--lang %q: lang %q, err %v", tt.arg, l, err)
			}
		})
	}
}

func TestEveryWayABeliefEndsHasItsTipInEveryLanguage(t *testing.T) {
	for _, how := range []string{account.HoldReleased, account.HoldLost, account.HoldDone, account.HoldStopped,
		account.HoldReacquired, account.HoldCrashed, account.HoldLast} {
		for _, l := range Languages() {
			t.Run("a belief that ended "+how+" has its "+string(l)+" tip", func(t *testing.T) {
				if _, ok := messages[l]["tip.belief."+how]; !ok {
					t.Errorf("no message tip.belief.%s in %s", how, l)
				}
			})
		}
	}
}
