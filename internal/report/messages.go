package report

import (
	"fmt"

	"github.com/locksim/locksim/internal/workload"
)

// messages holds every user-visible string of the report, one table per
// language. Values are fmt formats; their verbs and argument order are part
// of the key's contract (documented beside the English text). To add a
// language, add a table with the same keys: missing keys fall back to
// English (TestEveryLanguageHasEveryKey keeps them complete). The
// Vietnamese table uses the course's own terms (lessons 42–51): lock phân
// tán, lock, TTL, fencing token, idempotency key, Lua script, Redlock.
var messages = map[Lang]map[string]string{
	"en": messagesEN,
	"vi": messagesVI,
}

// tr formats the message key in lang, falling back to English, then to the
// key itself so a missing message is visible rather than silent. Number
// and duration arguments — values of their own types, never strings — are
// written as lang writes them (localArg).
func tr(lang Lang, key string, args ...any) string {
	f, ok := messages[lang][key]
	if !ok {
		f, ok = messages[English][key]
	}
	if !ok {
		f = key
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, localArgs(lang, args)...)
}

// sayer is tr bound to lang: the words a drawing (chart.Drawing.Say)
// renders its own few messages with.
func sayer(lang Lang) func(key string, args ...any) string {
	return func(key string, args ...any) string { return tr(lang, key, args...) }
}

// hasMessage reports whether key is a message of the report's tables or
// a workload's words.
func hasMessage(key string) bool {
	_, ok := messages[English][key]
	return ok
}

// say renders a workload's sentence (workload.Words) in lang: a Span
// argument is written as a duration of scenario time, an At as an instant
// (tr, localArg), a Term in lang's words.
func say(lang Lang, w workload.Words) string {
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		if v, ok := a.(workload.Term); ok {
			a = tr(lang, string(v))
		}
		args[i] = a
	}
	return tr(lang, w.Key, args...)
}
