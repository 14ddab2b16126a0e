package report

// The "what to change" of pairs whose fix is another algorithm's acquire
// or another release of a library: the code comes from where the
// algorithm or the library is registered (algo.Algorithm.Acquire,
// clients.ReleaseChanges), never written out here.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/locksim/locksim/internal/algo"
	"github.com/locksim/locksim/internal/clients"
)

// acquireChanges are the changes of a pair whose fix replaces the
// acquire itself: an owner token per process made one per acquire
// (reentrant-shared-token → safe, BR-26), and the basic sorted-set
// semaphore made the fair one (Redis in Action 6.3.2), shown as the
// difference between the two registered acquire scripts.
func acquireChanges(lang Lang, b, f Results) []codeChange {
	var out []codeChange
	if b.Algorithm == "reentrant-shared-token" && f.Algorithm == "safe" {
		if a, ok := algo.Lookup(b.Algorithm); ok && a.Acquire != "" {
			lines := []string{"-owner := processID" + cm(lang, "perprocess"), "+owner := randomToken()" + cm(lang, "peracquire")}
			lines = append(lines, evalLines("-", a.Acquire, a.AcquireArgs)...)
			lines = append(lines, "+SET lock-key owner NX PX ttl")
			out = append(out, change(tr(lang, "diff.pertoken"), lines...))
		}
	}
	if key, ok := scriptFixes[[2]string{b.Algorithm, f.Algorithm}]; ok {
		ba, ok1 := algo.Lookup(b.Algorithm)
		fa, ok2 := algo.Lookup(f.Algorithm)
		if lines := scriptDiff(evalLines("", ba.Acquire, ba.AcquireArgs), evalLines("", fa.Acquire, fa.AcquireArgs)); ok1 && ok2 && len(lines) > 0 {
			out = append(out, change(tr(lang, key), lines...))
		}
	}
	return out
}

// scriptFixes are the pairs of algorithms (broken, fixed) whose fix is
// the acquire script itself, each with the message that leads the diff of
// their two registered scripts: the basic sorted-set semaphore made the
// fair one (the algorithm semaphore, not the workload of that name).
var scriptFixes = map[[2]string]string{
	{"semaphore", "fair-semaphore"}: "diff.fairsem",
}

// evalLines are a Lua script's lines as one EVAL command of a diff, each
// led by op: EVAL "first line, the others indented under it, the last
// closing the quote before tail (the key count, keys and arguments).
func evalLines(op, script, tail string) []string {
	if script == "" {
		return nil
	}
	src := strings.Split(strings.TrimSpace(script), "\n")
	out := make([]string, len(src))
	for i, l := range src {
		switch {
		case i == 0:
			out[i] = op + "EVAL \"" + l
		default:
			out[i] = op + "      " + l
		}
	}
	out[len(out)-1] += "\" " + tail
	return out
}

// scriptDiff is the whole of two commands' lines as one diff: every
// line of either, each led by "-" (only a's), "+" (only c's) or " "
// (both's); nil when either is missing or they are the same.
func scriptDiff(a, c []string) []string {
	if len(a) == 0 || len(c) == 0 || slices.Equal(a, c) {
		return nil
	}
	al, cl := make([]string, len(a)), make([]string, len(c))
	for i, l := range a {
		al[i] = l + "\n"
	}
	for i, l := range c {
		cl[i] = l + "\n"
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: al, B: cl, Context: len(al) + len(cl)})
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range difflib.SplitLines(text) {
		l = strings.TrimRight(l, "\n")
		if l == "" || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "@@") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// releaseChanges is the change of a pair of runs of one shipped adapter
// at two releases of its library (clients.ReleaseChanges): its one line
// from the message tables, its code from the libraries' sources. bf and
// ff are the two scenarios' fields (scenario.Flatten).
func releaseChanges(lang Lang, bf, ff map[string]string) []codeChange {
	c, ok := clients.ReleaseChangeOf(commandOf(bf), commandOf(ff))
	if !ok {
		return nil
	}
	return []codeChange{change(tr(lang, c.Note), c.Code...)}
}

// commandOf is a scenario's process.command from its flattened fields;
// nil when it has none.
func commandOf(fields map[string]string) []string {
	var cmd []string
	for i := 0; ; i++ {
		v, ok := fields["process.command["+strconv.Itoa(i)+"]"]
		if !ok {
			return cmd
		}
		cmd = append(cmd, v)
	}
}
