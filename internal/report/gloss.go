package report

import (
	"bytes"
	"slices"
)

// wallTimeGloss is what "wall time", a loanword the Vietnamese pages keep
// (Glossary), means, given once per page at its first use (teacher12
// nit: VI lesson 42's "nhanh hơn wall time" left it unexplained). It
// speaks the glossary's "đồng hồ hệ thống" for the wall clock.
const wallTimeGloss = "thời gian trôi qua theo đồng hồ hệ thống của máy"

// firstUseGlosses are the loanwords a page of a language explains at
// their first use in its visible text: the term, and its gloss.
var firstUseGlosses = map[Lang][][2]string{
	Vietnamese: {{"wall time", wallTimeGloss}},
}

// glossFirstUse adds to page b, written in the language its <html lang>
// names, the gloss of each of firstUseGlosses' terms after its first use
// in the page's visible text: "wall time (…)", or "wall time: …" where a
// parenthesis closes right after it. Text inside script, style, svg,
// title, pre and code, and inside an element marked lang="en" (the
// English shown beside a translation), is not a use; nor is an attribute.
// A term already followed by its gloss is left as it is.
func glossFirstUse(b []byte) []byte {
	head := b[:min(len(b), 1024)]
	for lang, glosses := range firstUseGlosses {
		if !bytes.Contains(head, []byte(`<html lang="`+string(lang)+`"`)) {
			continue
		}
		for _, g := range glosses {
			b = glossOnce(b, g[0], g[1])
		}
	}
	return b
}

// glossOnce is glossFirstUse for one term.
func glossOnce(b []byte, term, gloss string) []byte {
	for i := 0; i < len(b); {
		if b[i] == '<' {
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return b
			}
			i = skipUnsaid(b, i, i+j+1)
			continue
		}
		end := len(b)
		if j := bytes.IndexByte(b[i:], '<'); j >= 0 {
			end = i + j
		}
		if k := bytes.Index(b[i:end], []byte(term)); k >= 0 {
			at := i + k + len(term)
			rest := b[at:]
			if bytes.HasPrefix(rest, []byte(" ("+gloss)) || bytes.HasPrefix(rest, []byte(": "+gloss)) {
				return b
			}
			ins := " (" + gloss + ")"
			if len(rest) > 0 && rest[0] == ')' {
				ins = ": " + gloss
			}
			return slices.Concat(b[:at], []byte(ins), rest)
		}
		i = end
	}
	return b
}

// skipUnsaid is where the scan goes on after the tag b[start:end]: past
// the whole element when its text is not a use (unsaidElements, or
// lang="en"), else right after the tag.
func skipUnsaid(b []byte, start, end int) int {
	tag := b[start+1 : end-1]
	name := tag
	if k := bytes.IndexAny(tag, " \t\n/"); k >= 0 {
		name = tag[:k]
	}
	if len(name) == 0 || name[0] == '/' || name[0] == '!' || bytes.HasSuffix(tag, []byte("/")) {
		return end
	}
	if !slices.Contains(unsaidElements, string(bytes.ToLower(name))) && !bytes.Contains(tag, []byte(`lang="en"`)) {
		return end
	}
	// The matching close tag, counting the same element nested inside.
	opening, closing := []byte("<"+string(name)), []byte("</"+string(name)+">")
	depth, i := 1, end
	for depth > 0 {
		c := bytes.Index(b[i:], closing)
		if c < 0 {
			return len(b)
		}
		for o := bytes.Index(b[i:i+c], opening); o >= 0; o = bytes.Index(b[i:i+c], opening) {
			if next := i + o + len(opening); next < len(b) && (b[next] == '>' || b[next] == ' ') {
				depth++
			}
			i += o + len(opening)
			c = bytes.Index(b[i:], closing)
			if c < 0 {
				return len(b)
			}
		}
		depth--
		i += c + len(closing)
	}
	return i
}

// unsaidElements hold no use of a term: code, styles, drawings, the tab's
// title.
var unsaidElements = []string{"script", "style", "svg", "title", "pre", "code"}
