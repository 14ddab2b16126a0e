package report

import (
	"fmt"
	"slices"
	"strings"
)

// Lang is the language a report is written in: one of Languages. The zero
// value writes English.
type Lang string

// The report's languages.
const (
	English    Lang = "en"
	Vietnamese Lang = "vi"
)

// Languages lists the languages a report can be written in, English first.
// The slice is the caller's.
func Languages() []Lang {
	out := make([]Lang, 0, len(messages))
	for l := range messages {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Lang) int {
		switch {
		case a == English:
			return -1
		case b == English:
			return 1
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

// ParseLang returns the language named s, or an error listing the choices.
func ParseLang(s string) (Lang, error) {
	if _, ok := messages[Lang(s)]; ok {
		return Lang(s), nil
	}
	return "", fmt.Errorf("want %s", LanguageList())
}

// LanguageList is "en or vi": the languages for a usage line.
func LanguageList() string {
	ls := Languages()
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = string(l)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// String returns the language's code; with Set, a *Lang is a flag.Value
// that refuses a language the report cannot write.
func (l Lang) String() string { return string(l) }

// Set parses a flag's value into l.
func (l *Lang) Set(s string) error {
	v, err := ParseLang(s)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// normLang maps "" and unknown languages to English.
func normLang(lang Lang) Lang {
	if _, ok := messages[lang]; ok {
		return lang
	}
	return English
}
