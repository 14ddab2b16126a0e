package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/workload"
)

// Persistences are the values of persistence and node_persistence, as a
// fresh slice.
func Persistences() []string { return []string{"none", "aof-everysec", "aof-always", "rdb"} }

// MaxNodes is the most masters a scenario may have.
const MaxNodes = 9

// Limits of a scenario file and its values.
const (
	// MaxFileSize is the largest scenario file accepted, in bytes.
	MaxFileSize = 1 << 20
	// MaxDepth is the deepest nesting of YAML collections accepted; a
	// scenario needs 3 (faults → fault → field).
	MaxDepth = 16

	MaxClients = 1000
	// MaxLinks bounds clients × nodes: every pair is a toxiproxy link.
	MaxLinks     = 2000
	MaxKeys      = 100000
	MaxTimeScale = 10000
	// MinWallTTL is the shortest TTL Redis can be given (SET PX is in ms).
	MinWallTTL = time.Millisecond
)

// Defaults applied by Parse.
const (
	DefaultTimeScale   = 1.0
	DefaultDuration    = Duration(10 * time.Minute)
	DefaultNodes       = 1
	DefaultPersistence = "none"
	DefaultRetryDelay  = Duration(time.Second)
	DefaultStagger     = Duration(time.Second)
	DefaultWorkload    = workload.Default
	DefaultKeys        = 1
)

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Field names of each mapping, in schema order.
var (
	scenarioFields = []string{"name", "description", "seed", "time_scale", "duration", "nodes",
		"replicas", "sentinels", "sentinel", "persistence", "save_interval", "clients", "algorithm", "ttl", "retry_delay", "stagger", "workload",
		"faults", "expect", "nemesis", "client_start", "node_persistence", "library", "probe", "probe_timeout", "expect_live", "min_acquires", "fixed_by", "observe",
		"process", "node_timeout", "description_vi", "lesson", "min_hold"}
)

// Load reads and parses the scenario file at path. A file that cannot be read
// gives the os error (wrapped); an invalid scenario gives a *ErrorList.
// Unlike Parse, Load also checks what the file names on disk: the file
// fixed_by names must exist next to it.
func Load(path string) (Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return Scenario{}, fmt.Errorf("read scenario: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return Scenario{}, fmt.Errorf("read scenario: %w", err)
	}
	return parse(path, data, true)
}

// Parse parses data; file is used in error messages only (and for the
// default name). Every problem found is returned at once in a *ErrorList.
// Parse reads no other file: fixed_by is taken as written (a stored copy
// of a scenario, away from its directory, still parses).
func Parse(file string, data []byte) (s Scenario, err error) { return parse(file, data, false) }

func parse(file string, data []byte, checkFiles bool) (s Scenario, err error) {
	p := &parser{file: file, checkFiles: checkFiles}
	defer func() {
		// yaml.v3 is not known to panic on any input since v3.0.1; this
		// keeps a parser bug from taking the CLI down if one turns up.
		if r := recover(); r != nil {
			s = Scenario{}
			p.errs = nil
			p.at(1, 1, "", fmt.Sprintf("internal error while parsing (please report): %v", r))
			err = p.list()
		}
	}()
	s = p.parse(data)
	if len(p.errs) > 0 {
		return Scenario{}, p.list()
	}
	s.File, s.Warnings = file, p.warns
	return s, nil
}

// Normalize returns the scenario as YAML with every default filled in
// (durations as Go duration strings like "30s"), for the report's
// scenario.yaml. Parse(Normalize(s)) gives s back (File, FixedBy and fault
// positions aside: fixed_by is relative to the original file, so a stored
// copy leaves it out). Zero fields whose zero value is invalid are given their defaults;
// RetryDelay and Stagger are written as they are, since 0 is valid.
func Normalize(s Scenario) ([]byte, error) {
	if s.Name == "" && s.File != "" {
		s.Name = nameFromFile(s.File)
	}
	if s.TimeScale == 0 {
		s.TimeScale = DefaultTimeScale
	}
	if s.Duration == 0 {
		s.Duration = DefaultDuration
	}
	if s.Nodes == 0 {
		s.Nodes = DefaultNodes
	}
	if s.Persistence == "" {
		s.Persistence = DefaultPersistence
	}
	if s.Workload.Kind == "" {
		s.Workload.Kind = DefaultWorkload
	}
	if s.Workload.Keys == 0 {
		s.Workload.Keys = DefaultKeys
	}
	if s.Workload.Claim == nil {
		c := s.Workload.Fencing || s.Workload.CheckAndSet
		s.Workload.Claim = &c
	}
	if s.Probe == nil {
		pr := s.ProbeEnabled()
		s.Probe = &pr
	}
	var doc yaml.Node
	if err := doc.Encode(s); err != nil {
		return nil, fmt.Errorf("normalize scenario: %w", err)
	}
	if err := writeClients(&doc, s); err != nil {
		return nil, fmt.Errorf("normalize scenario: %w", err)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("normalize scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("normalize scenario: %w", err)
	}
	return b.Bytes(), nil
}

// MarshalYAML writes d as a Go duration string ("30s", "1m30s").
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// nameFromFile is the default name: the file's base name without extension.
func nameFromFile(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// parser collects the problems of one file.
type parser struct {
	file string
	errs []*FieldError
	// checkFiles makes fixed_by's file be looked for on disk (Load).
	checkFiles bool
	// replicas and sentinels of the scenario, once read (fault targets).
	replicas, sentinels int

	// Per-client settings and lock client processes (clientsparse.go).
	root        *yaml.Node
	proc        *Process
	procCommand *yaml.Node
	keyNodes    []keyNode
	// warns are problems that do not stop a run (Scenario.Warnings).
	warns []*FieldError
}

func (p *parser) at(line, col int, path, msg string) {
	if line < 1 {
		line, col = 1, 1
	}
	if col < 0 {
		col = 0
	}
	p.errs = append(p.errs, &FieldError{File: p.file, Line: line, Column: col, Path: path, Msg: msg})
}

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	p.at(n.Line, n.Column, path, fmt.Sprintf(format, args...))
}

// reported tells whether a problem at path is already recorded.
func (p *parser) reported(path string) bool {
	for _, e := range p.errs {
		if e.Path == path {
			return true
		}
	}
	return false
}

func (p *parser) list() *ErrorList {
	l := &ErrorList{Errs: p.errs}
	l.finish()
	return l
}

func (p *parser) parse(data []byte) Scenario {
	if len(data) > MaxFileSize {
		p.at(1, 1, "", fmt.Sprintf("file is %d bytes; a scenario file may be at most %d bytes (1 MiB)", len(data), MaxFileSize))
		return Scenario{}
	}
	if !p.checkText(data) {
		return Scenario{}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.at(1, 1, "", "file is empty; a scenario needs at least clients, algorithm and ttl")
		} else {
			p.syntax(err, data)
		}
		return Scenario{}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		line, col := next.Line, next.Column
		if len(next.Content) > 0 {
			line, col = next.Content[0].Line, next.Content[0].Column
		}
		p.at(line, col, "", "second YAML document (after ---); a scenario file holds exactly one")
	case !errors.Is(err, io.EOF):
		p.syntax(err, data)
		p.at(1, 1, "", "file holds more than one YAML document; a scenario file holds exactly one")
	}
	p.scan(&doc)

	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		p.at(1, 1, "", "file holds no scenario")
		return Scenario{}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		p.errorf(root, "", "file holds no scenario (the document is empty); a scenario needs at least clients, algorithm and ttl")
		return Scenario{}
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "", "a scenario must be a mapping of fields like \"clients: 2\" (got %s)", describe(root))
		return Scenario{}
	}
	return p.scenario(root)
}

// checkText refuses content that is not UTF-8 or holds characters YAML
// forbids, at the position of the first bad byte.
func (p *parser) checkText(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		p.at(1, 1, "", "file is UTF-16 encoded; save it as UTF-8")
		return false
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			p.at(line, col, "", fmt.Sprintf("file is not valid UTF-8 (byte 0x%02x at offset %d); save it as UTF-8", data[i], i))
			return false
		case !printable(r):
			p.at(line, col, "", fmt.Sprintf("character %U is not allowed in YAML (offset %d)", r, i))
			return false
		}
		i += size
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return true
}

// printable is YAML 1.2's c-printable set (§5.1).
func printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r >= 0x20 && r <= 0x7E:
		return true
	case r == 0x85:
		return true
	case r >= 0xA0 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return true
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

var syntaxLineRE = regexp.MustCompile(`^line (\d+): `)

// syntax reports a yaml.v3 error, which gives a line but no column. A
// tab in the indentation of the line it names or the next (yaml.v3 names
// either, depending on what the tab breaks) is said as such, with its
// column: yaml.v3's own words ("found character that cannot start any
// token") do not mention tabs (issue 31).
func (p *parser) syntax(err error, data []byte) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := syntaxLineRE.FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n >= 1 {
			line = n
		}
		msg = msg[len(m[0]):]
	}
	if l, col, ok := tabIndent(data, line); ok {
		p.at(l, col, "", "invalid YAML: a tab indents this line; YAML indents with spaces only (replace the tab with spaces)")
		return
	}
	p.at(line, 0, "", "invalid YAML: "+msg)
}

// tabIndent finds a tab in the leading white space of line or line+1 of
// data (1-based) and returns its line and column.
func tabIndent(data []byte, line int) (int, int, bool) {
	lines := strings.Split(string(data), "\n")
	for l := line; l <= line+1 && l <= len(lines); l++ {
		for i, r := range lines[l-1] {
			if r == '\t' {
				return l, i + 1, true
			}
			if r != ' ' {
				break
			}
		}
	}
	return 0, 0, false
}

// scan walks the whole tree without recursion, refusing aliases (no
// billion-laughs expansion) and nesting deeper than MaxDepth.
func (p *parser) scan(doc *yaml.Node) {
	type frame struct {
		n      *yaml.Node
		depth  int
		parent *frame
		seg    string // path segment: ".key" or "[i]"
	}
	pathOf := func(f *frame) string {
		var segs []string
		for ; f != nil; f = f.parent {
			segs = append(segs, f.seg)
		}
		var b strings.Builder
		for i := len(segs) - 1; i >= 0; i-- {
			b.WriteString(segs[i])
		}
		return strings.TrimPrefix(b.String(), ".")
	}
	stack := []*frame{{n: doc}}
	tooDeep := false
	var firstAlias *frame
	aliases := 0
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if n == nil {
			continue
		}
		if n.Kind == yaml.AliasNode {
			if aliases == 0 {
				firstAlias = f
			}
			aliases++
			continue
		}
		if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode && n.Kind != yaml.DocumentNode {
			continue
		}
		if f.depth > MaxDepth {
			if !tooDeep {
				p.errorf(n, pathOf(f), "nested more than %d levels deep", MaxDepth)
				tooDeep = true
			}
			continue
		}
		depth := f.depth + 1
		if n.Kind == yaml.DocumentNode {
			depth = f.depth
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			c := n.Content[i]
			seg := ""
			switch n.Kind {
			case yaml.SequenceNode:
				seg = "[" + strconv.Itoa(i) + "]"
			case yaml.MappingNode:
				if i%2 == 0 {
					seg = "." + keyText(c)
				} else {
					seg = "." + keyText(n.Content[i-1])
				}
			}
			stack = append(stack, &frame{n: c, depth: depth, parent: f, seg: seg})
		}
	}
	if firstAlias != nil {
		msg := fmt.Sprintf("YAML aliases (*%s) are not allowed in a scenario; write the value out", clip(firstAlias.n.Value))
		if aliases > 1 {
			msg += fmt.Sprintf(" (%d aliases in this file, first shown)", aliases)
		}
		p.errorf(firstAlias.n, pathOf(firstAlias), "%s", msg)
	}
}

func keyText(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return clip(k.Value)
	}
	return "?"
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// quote is %q of a clipped string.
func quote(s string) string { return strconv.Quote(clip(s)) }

// describe names what a node holds, for "got …".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!str":
		return quote(n.Value)
	case "!!null":
		return "null"
	case "!!bool":
		return "boolean " + clip(n.Value)
	case "!!int", "!!float":
		return clip(n.Value)
	}
	return n.ShortTag() + " " + quote(n.Value)
}

// field is one key/value pair of a mapping.
type field struct {
	key, val *yaml.Node
}

// fields checks the keys of mapping m (unknown, duplicate, non-string) and
// returns the known ones.
func (p *parser) fields(m *yaml.Node, path string, allowed []string) map[string]field {
	return p.fieldsFor(m, path, allowed, nil, "")
}

// fieldsFor is fields where the names in elsewhere are known fields of
// other variants (other fault kinds): they are reported as not applying
// to this one (named by what), not as unknown.
func (p *parser) fieldsFor(m *yaml.Node, path string, allowed, elsewhere []string, what string) map[string]field {
	out := make(map[string]field, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.AliasNode {
			continue // reported by scan
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, path, "field names must be plain strings (got %s)", describe(k))
			continue
		}
		fpath := join(path, clip(k.Value))
		if !contains(allowed, k.Value) {
			if contains(elsewhere, k.Value) {
				p.errorf(k, fpath, "does not apply to %s", what)
				continue
			}
			msg := fmt.Sprintf("unknown field %s", quote(k.Value))
			if s := suggest(k.Value, allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			where := "a scenario"
			if path != "" {
				where = path
			}
			msg += fmt.Sprintf("; fields allowed in %s: %s", where, strings.Join(allowed, ", "))
			p.errorf(k, fpath, "%s", msg)
			continue
		}
		if prev, dup := out[k.Value]; dup {
			p.errorf(k, fpath, "duplicate field (first set at line %d)", prev.key.Line)
			continue
		}
		out[k.Value] = field{k, v}
	}
	return out
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the entry of list closest to s, if close enough to be a
// likely typo.
func suggest(s string, list []string) string {
	if len(s) > 64 {
		return ""
	}
	norm := func(x string) string { return strings.ReplaceAll(strings.ToLower(x), "-", "_") }
	ns := norm(s)
	best, bestD := "", 3
	for _, c := range list {
		nc := norm(c)
		if ns == nc {
			return c
		}
		d := levenshtein(ns, nc)
		if limit := max(1, len(nc)/3); d <= limit+1 && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// state of a field after reading it.
type state int

const (
	absent state = iota // not in the file, or null
	bad                 // present but wrong; already reported
	good
)

// scalar checks that f holds a scalar with a standard tag. It returns
// absent for a missing field or null.
func (p *parser) scalar(f field, path, want string) (*yaml.Node, state) {
	n := f.val
	if n == nil {
		return nil, absent
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nil, bad // reported by scan
	case yaml.ScalarNode:
	default:
		p.errorf(n, path, "must be %s (got %s)", want, describe(n))
		return nil, bad
	}
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil, absent
	case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
	default:
		p.errorf(n, path, "YAML tag %s is not supported here; must be %s", clip(tag), want)
		return nil, bad
	}
	return n, good
}

func (p *parser) str(f field, path string) (string, *yaml.Node, state) {
	n, st := p.scalar(f, path, "a string")
	if st != good {
		return "", n, st
	}
	if n.ShortTag() == "!!bool" {
		p.errorf(n, path, "must be a string (got %s)", describe(n))
		return "", n, bad
	}
	return n.Value, n, good
}

func (p *parser) integer(f field, path string) (int64, *yaml.Node, state) {
	n, st := p.scalar(f, path, "an integer")
	if st != good {
		return 0, n, st
	}
	switch n.ShortTag() {
	case "!!int":
		var v int64
		if err := n.Decode(&v); err != nil {
			p.errorf(n, path, "integer %s is out of range", clip(n.Value))
			return 0, n, bad
		}
		return v, n, good
	case "!!float":
		if strings.Trim(n.Value, "+-0123456789_") == "" {
			p.errorf(n, path, "integer %s is out of range", clip(n.Value))
			return 0, n, bad
		}
	}
	p.errorf(n, path, "must be an integer (got %s)", describe(n))
	return 0, n, bad
}

// smallInt reads an integer that must lie in [lo, hi].
func (p *parser) smallInt(f field, path string, lo, hi int64, why string) (int, state) {
	v, n, st := p.integer(f, path)
	if st != good {
		return 0, st
	}
	if v < lo || v > hi {
		msg := fmt.Sprintf("must be between %d and %d (got %s)", lo, hi, clip(n.Value))
		if hi == math.MaxInt32 {
			msg = fmt.Sprintf("must be ≥ %d (got %s)", lo, clip(n.Value))
		}
		if why != "" {
			msg += "; " + why
		}
		p.errorf(n, path, "%s", msg)
		return 0, bad
	}
	return int(v), good
}

func (p *parser) number(f field, path string) (float64, *yaml.Node, state) {
	n, st := p.scalar(f, path, "a number")
	if st != good {
		return 0, n, st
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		var v float64
		if err := n.Decode(&v); err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			p.errorf(n, path, "must be a finite number (got %s)", describe(n))
			return 0, n, bad
		}
		return v, n, good
	}
	p.errorf(n, path, "must be a number (got %s)", describe(n))
	return 0, n, bad
}

func (p *parser) boolean(f field, path string) (bool, *yaml.Node, state) {
	n, st := p.scalar(f, path, "true or false")
	if st != good {
		return false, n, st
	}
	if n.ShortTag() == "!!bool" {
		var v bool
		if err := n.Decode(&v); err == nil {
			return v, n, good
		}
	}
	p.errorf(n, path, "must be true or false (got %s)", describe(n))
	return false, n, bad
}

func (p *parser) duration(f field, path string) (Duration, *yaml.Node, state) {
	const want = `a duration string with a unit, like "30s", "250ms" or "1m30s"`
	n, st := p.scalar(f, path, want)
	if st != good {
		return 0, n, st
	}
	switch n.ShortTag() {
	case "!!str":
		d, err := time.ParseDuration(n.Value)
		if err != nil {
			why := "not a Go duration"
			if strings.Contains(err.Error(), "missing unit") {
				why = "no unit"
			} else if strings.Contains(err.Error(), "invalid duration") && n.Value != "" && strings.Trim(n.Value, "+-0123456789.nsuµμmh") == "" {
				why = "out of range"
			}
			p.errorf(n, path, "must be %s (got %s: %s)", want, describe(n), why)
			return 0, n, bad
		}
		return Duration(d), n, good
	case "!!int":
		if v, err := strconv.ParseInt(n.Value, 10, 64); err == nil && v == 0 {
			return 0, n, good
		}
		p.errorf(n, path, "must be %s (got %s: a bare number has no unit)", want, describe(n))
		return 0, n, bad
	case "!!float":
		p.errorf(n, path, "must be %s (got %s: a bare number has no unit)", want, describe(n))
		return 0, n, bad
	}
	p.errorf(n, path, "must be %s (got %s)", want, describe(n))
	return 0, n, bad
}

// enum reads a string that must be one of list.
func (p *parser) enum(f field, path, what string, list []string) (string, *yaml.Node, state) {
	v, n, st := p.str(f, path)
	if st != good {
		return "", n, st
	}
	if !contains(list, v) {
		msg := fmt.Sprintf("unknown %s %s", what, quote(v))
		if s := suggest(v, list); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		msg += "; valid: " + strings.Join(list, ", ")
		p.errorf(n, path, "%s", msg)
		return "", n, bad
	}
	return v, n, good
}

// required reports a missing required field: at the null value if the key
// is there, else at the parent mapping.
func (p *parser) required(parent *yaml.Node, f field, path, hint string) {
	if p.reported(path) {
		return // its value was already refused: one message per mistake
	}
	if f.val != nil {
		p.errorf(f.val, path, "must be set (got null); %s", hint)
		return
	}
	p.errorf(parent, path, "missing required field; %s", hint)
}

// top is a scenario's top level as the parser reads it: its fields, the
// scenario read so far, and what later fields need of earlier ones (a
// time scale and a run duration that were valid).
type top struct {
	p    *parser
	root *yaml.Node
	fs   map[string]field
	s    Scenario
	// scale is the time scale when scaleOK; runDur the run's duration
	// when it was valid, 0 otherwise.
	scale   float64
	scaleOK bool
	runDur  Duration
}

// topFields reads a scenario's top-level fields, in order: each entry
// reads its field (or the few it needs together) into t.s, and may use
// what the entries before it read.
var topFields = []func(t *top){
	(*top).name,
	(*top).descriptions,
	(*top).seed,
	(*top).timeScale,
	(*top).duration,
	(*top).nodes,
	func(t *top) { t.p.topology(t.fs, &t.s) },
	(*top).persistence,
	(*top).clients,
	(*top).algorithm,
	(*top).ttl,
	func(t *top) { t.s.Process = t.p.process(t.fs["process"], t.s); t.p.proc = t.s.Process },
	func(t *top) {
		t.s.RetryDelay = t.p.nonNegDuration(t.fs["retry_delay"], "retry_delay", DefaultRetryDelay)
		t.s.Stagger = t.p.nonNegDuration(t.fs["stagger"], "stagger", DefaultStagger)
	},
	func(t *top) {
		t.s.Workload = t.p.workload(t.fs["workload"], t.s.Algorithm)
		t.p.workloadMore(t.fs["workload"], &t.s.Workload, t.s.Algorithm)
	},
	(*top).probe,
	(*top).probeTimeout,
	(*top).expectLive,
	func(t *top) {
		if v, _, st := t.p.boolean(t.fs["observe"], "observe"); st == good {
			t.s.Observe = &v
		}
	},
	func(t *top) {
		if v, st := t.p.smallInt(t.fs["min_acquires"], "min_acquires", 0, math.MaxInt32, "the fewest granted acquires for the run to count as tested"); st == good {
			t.s.MinAcquires = &v
		}
	},
	func(t *top) {
		p, fs, s := t.p, t.fs, &t.s
		s.Faults = p.faults(fs["faults"], s.Clients, s.Nodes, t.runDur)
		s.Nemesis = p.nemesis(fs["nemesis"], t.runDur)
		s.ClientStart = p.clientStart(fs["client_start"], s.Clients)
		s.NodePersistence = p.nodePersistence(fs["node_persistence"], s.Nodes)
		s.Library = p.library(fs, *s)
		s.NodeTimeout = p.nodeTimeout(fs["node_timeout"], *s)
		p.minHold(fs["min_hold"], s)
		p.perClientFinish(fs, s)
		p.processFinish(s)
		p.checkBeforeToken(*s)
		p.checkDir(*s)
	},
	func(t *top) {
		t.s.Expect = t.p.expect(t.fs["expect"], t.s)
		t.s.FixedBy = t.p.fixedBy(t.fs["fixed_by"], t.s)
	},
}

func (p *parser) scenario(root *yaml.Node) Scenario {
	p.root = root
	t := &top{p: p, root: root, fs: p.fields(root, "", scenarioFields)}
	for _, read := range topFields {
		read(t)
	}
	return t.s
}

func (t *top) name() {
	p, root := t.p, t.root
	name, nameNode, st := p.str(t.fs["name"], "name")
	switch st {
	case good:
		if !nameRE.MatchString(name) {
			p.errorf(nameNode, "name", "must match %s: lowercase letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64 characters; it becomes a directory name (got %s)", nameRE, quote(name))
		}
		t.s.Name = name
	case absent:
		if p.file == "" {
			p.required(root, t.fs["name"], "name", `give the scenario a name like "gc-pause"`)
			break
		}
		t.s.Name = nameFromFile(p.file)
		if !nameRE.MatchString(t.s.Name) {
			p.errorf(root, "name", "not set, and the file's base name %s cannot be used as the name (it must match %s); add a name field", quote(t.s.Name), nameRE)
		}
	}
}

func (t *top) descriptions() {
	if d, _, st := t.p.str(t.fs["description"], "description"); st == good {
		t.s.Description = d
	}
	t.s.DescriptionVI = t.p.descriptionVI(t.fs["description_vi"], t.s.Description)
	t.s.Lessons = t.p.lessons(t.fs["lesson"])
}

func (t *top) seed() {
	if v, _, st := t.p.integer(t.fs["seed"], "seed"); st == good {
		t.s.Seed = &v
	}
}

func (t *top) timeScale() {
	scale, n, st := t.p.number(t.fs["time_scale"], "time_scale")
	switch st {
	case good:
		if scale <= 0 || scale > MaxTimeScale {
			t.p.errorf(n, "time_scale", "must be > 0 and ≤ %d (got %s); wall time = scenario time / time_scale", MaxTimeScale, clip(n.Value))
		}
		t.s.TimeScale, t.scale, t.scaleOK = scale, scale, scale > 0
	case absent:
		t.s.TimeScale, t.scale, t.scaleOK = DefaultTimeScale, DefaultTimeScale, true
	}
}

func (t *top) duration() {
	dur, n, st := t.p.duration(t.fs["duration"], "duration")
	switch st {
	case good:
		t.s.Duration = dur
		if dur <= 0 {
			t.p.errorf(n, "duration", "must be > 0 (got %s)", describe(n))
			break
		}
		t.runDur = dur
	case absent:
		t.s.Duration, t.runDur = DefaultDuration, DefaultDuration
	}
}

func (t *top) nodes() {
	nodes, n, st := t.p.integer(t.fs["nodes"], "nodes")
	switch st {
	case good:
		if nodes < 1 || nodes > MaxNodes {
			t.p.errorf(n, "nodes", "must be between 1 and %d (got %s): 1 for a single Redis instance, 3, 5 or more for Redlock's quorum N/2+1", MaxNodes, clip(n.Value))
		}
		t.s.Nodes = int(nodes)
	case absent:
		t.s.Nodes = DefaultNodes
	}
}

func (t *top) persistence() {
	switch v, _, st := t.p.enum(t.fs["persistence"], "persistence", "persistence", Persistences()); st {
	case good:
		t.s.Persistence = v
	case absent:
		t.s.Persistence = DefaultPersistence
	}
}

// clients reads clients: a count, or a mapping of w1..wN to their own
// settings.
func (t *top) clients() {
	p, s := t.p, &t.s
	switch p.clientsField(t.fs["clients"], s) {
	case good:
		// One toxiproxy link (a listener and its connections) per client
		// and node: past MaxLinks the machine runs out of file descriptors
		// mid-run instead of failing here.
		// Replicas and sentinels get a link from every client too.
		if nodes := s.Nodes*(1+s.Replicas) + s.Sentinels; s.Nodes > 0 && s.Clients*nodes > MaxLinks {
			p.errorf(t.fs["clients"].val, "clients", "%d clients × %d nodes = %d proxied links; at most %d (fewer clients, or one node)", s.Clients, nodes, s.Clients*nodes, MaxLinks)
		}
	case absent:
		p.required(t.root, t.fs["clients"], "clients", "how many lock clients (w1..wN) compete, e.g. \"clients: 2\"")
	}
}

func (t *top) algorithm() {
	algorithms := algorithmNames()
	switch v, _, st := t.p.enum(t.fs["algorithm"], "algorithm", "algorithm", algorithms); st {
	case good:
		t.s.Algorithm = v
	case absent:
		t.p.required(t.root, t.fs["algorithm"], "algorithm", "one of "+strings.Join(algorithms, ", "))
	}
}

func (t *top) ttl() {
	ttl, n, st := t.p.duration(t.fs["ttl"], "ttl")
	switch st {
	case good:
		if ttl <= 0 {
			t.p.errorf(n, "ttl", "must be > 0 (got %s)", describe(n))
			break
		}
		t.s.TTL = ttl
		if t.scaleOK {
			if err := CheckTTLAtScale(ttl, t.scale); err != nil {
				t.p.errorf(n, "ttl", "%v (raise ttl or lower time_scale)", err)
			}
		}
	case absent:
		t.p.required(t.root, t.fs["ttl"], "ttl", "the lease time in scenario time, e.g. \"ttl: 30s\"")
	}
}

func (t *top) probe() {
	s := &t.s
	switch v, n, st := t.p.boolean(t.fs["probe"], "probe"); st {
	case good:
		if v && lockFree(s.Algorithm) {
			t.p.errorf(n, "probe", "true needs a lock: %s takes none, so there is no lock key to probe", s.Algorithm)
		}
		s.Probe = &v
	default:
		pr := s.ProbeEnabled()
		s.Probe = &pr
	}
}

func (t *top) probeTimeout() {
	if d, n, st := t.p.duration(t.fs["probe_timeout"], "probe_timeout"); st == good {
		switch {
		case d <= 0:
			t.p.errorf(n, "probe_timeout", "must be > 0 (got %s); leave it out to wait twice the TTL", describe(n))
		case !t.s.ProbeEnabled():
			t.p.errorf(n, "probe_timeout", "there is no final probe to bound (probe: false, or an algorithm that takes no lock)")
		default:
			t.s.ProbeTimeout = d
		}
	}
}

func (t *top) expectLive() {
	if v, n, st := t.p.boolean(t.fs["expect_live"], "expect_live"); st == good {
		if v && !t.s.ProbeEnabled() {
			t.p.errorf(n, "expect_live", "true needs the final probe (probe: true and an algorithm that takes a lock)")
		}
		t.s.ExpectLive = v
	}
}

// CheckTTLAtScale says whether a lease of ttl (scenario time) compressed by
// scale is still a TTL Redis can take: SET PX counts whole milliseconds, so
// the wall TTL must be at least MinWallTTL. The parser applies it to a
// file's ttl and time_scale; the CLI to --time-scale, which overrides the
// file's.
func CheckTTLAtScale(ttl Duration, scale float64) error {
	if wall := float64(ttl) / scale; !(wall >= float64(MinWallTTL)) { // also refuses NaN
		return fmt.Errorf("ttl %s at time scale %s is %sms of wall time; Redis PX needs at least 1ms",
			ttl, strconv.FormatFloat(scale, 'f', -1, 64), strconv.FormatFloat(wall/1e6, 'g', 3, 64))
	}
	return nil
}

func (p *parser) nonNegDuration(f field, path string, def Duration) Duration {
	d, n, st := p.duration(f, path)
	switch st {
	case good:
		if d < 0 {
			p.errorf(n, path, "must be ≥ 0 (got %s)", describe(n))
		}
		return d
	case absent:
		return def
	}
	return 0
}

func (p *parser) workload(f field, algorithm string) (w Workload) {
	w = Workload{Kind: workload.Default, Keys: DefaultKeys}
	defer func() {
		if w.Claim == nil {
			c := w.Fencing || w.CheckAndSet
			w.Claim = &c
		}
	}()
	m := f.val
	if m == nil || m.Kind == yaml.AliasNode || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		return w
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "workload", "must be a mapping like {kind: payment, job: 45s} (got %s)", describe(m))
		return w
	}
	fs := p.fields(m, "workload", workload.Fields())
	if v, _, st := p.enum(fs["kind"], "workload.kind", "workload kind", workload.Names()); st == good {
		w.Kind = v
	}
	if v, st := p.smallInt(fs["keys"], "workload.keys", 1, MaxKeys, ""); st == good {
		w.Keys = v
	}
	w.Read = p.nonNegDuration(fs["read"], "workload.read", 0)
	w.Job = p.nonNegDuration(fs["job"], "workload.job", 0)
	w.UntilValidity = p.nonNegDuration(fs["until_validity"], "workload.until_validity", 0)
	if v, st := p.smallInt(fs["rounds"], "workload.rounds", 1, 10_000, "how many times each client works through its keys"); st == good {
		w.Rounds = v
	}
	w.RoundDelay = p.nonNegDuration(fs["round_delay"], "workload.round_delay", 0)
	if v, n, st := p.boolean(fs["fencing"], "workload.fencing"); st == good {
		w.Fencing = v
		if v && algorithm != "" && !p.traitsOf(algorithm).Fenced {
			p.errorf(n, "workload.fencing", "true needs algorithm %s (got %s): only fenced hands out increasing fencing tokens; with %s every lease's token is 0, so the resource cannot tell a stale holder from the current one", fencedNames(), algorithm, algorithm)
		}
	}
	if v, n, st := p.boolean(fs["check_and_set"], "workload.check_and_set"); st == good && v {
		switch {
		case w.Fencing:
			p.errorf(n, "workload.check_and_set", "cannot be set with fencing: true; the resource checks either ordered fencing tokens (fencing) or the lock's unique token (check_and_set)")
		case !contains(guarded(workload.GuardCheckAndSet), w.Kind):
			p.errorf(n, "workload.check_and_set", "works with the %s workloads only (got %s): their writes are what the resource checks against currlock", andList(guarded(workload.GuardCheckAndSet)), w.Kind)
		case algorithm != "" && p.traitsOf(algorithm).LockFree:
			p.errorf(n, "workload.check_and_set", "needs an algorithm that takes a lock (got %s): the resource checks the lock's token", algorithm)
		default:
			w.CheckAndSet = true
		}
	}
	if v, n, st := p.boolean(fs["claim"], "workload.claim"); st == good {
		w.Claim = &v
		if !v && w.CheckAndSet {
			p.errorf(n, "workload.claim", "false leaves check_and_set with no currlock: the claim is what stores the lease's token at the resource; leave claim out")
		}
		if v && algorithm != "" && !p.traitsOf(algorithm).Fenced && !w.CheckAndSet {
			p.errorf(n, "workload.claim", "true needs algorithm %s (got %s): a claim registers the lease's fencing token at the resource, and only fenced hands out tokens", fencedNames(), algorithm)
		}
	}
	return w
}

// isClient reports whether name is one of w1..wN.
func isClient(name string, clients int) bool {
	if len(name) < 2 || name[0] != 'w' || name[1] == '0' {
		return false
	}
	n, err := strconv.Atoi(name[1:])
	return err == nil && n >= 1 && n <= clients && ClientName(n-1) == name
}

func clientRange(n int) string {
	if n == 1 {
		return "w1"
	}
	return "w1.." + ClientName(n-1)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
