package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Doc is a scenario file as its YAML node tree, to change fields by their
// path ("ttl", "workload.job", "faults[0].duration") before the strict
// parser reads the result again (Doc.Scenario): a path names a field by
// the scenario's own field names, and every value set is validated exactly
// as if it had been written in the file. `locksim map` varies parameters
// and `locksim shrink` simplifies schedules this way.
type Doc struct {
	file string
	root *yaml.Node // the mapping at the top of the document
}

// ParseDoc reads data as a scenario's node tree; file names it in
// messages. Only the YAML itself is checked here (one document holding a
// mapping); Doc.Scenario checks the rest.
func ParseDoc(file string, data []byte) (*Doc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: file is empty", file)
		}
		return nil, fmt.Errorf("%s: invalid YAML: %w", file, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: a scenario must be a mapping of fields", file)
	}
	return &Doc{file: file, root: doc.Content[0]}, nil
}

// DocOf is the normalised scenario s as a Doc (Normalize, then ParseDoc).
func DocOf(s Scenario) (*Doc, error) {
	b, err := Normalize(s)
	if err != nil {
		return nil, err
	}
	file := s.File
	if file == "" {
		file = s.Name + ".yaml"
	}
	return ParseDoc(file, b)
}

// File is the file name the Doc's messages use.
func (d *Doc) File() string { return d.file }

// Clone is a deep copy of d.
func (d *Doc) Clone() *Doc { return &Doc{file: d.file, root: cloneNode(d.root)} }

func cloneNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	c.Alias = cloneNode(n.Alias)
	return &c
}

// Bytes encodes the tree as YAML (comments kept; layout may differ from
// the file's).
func (d *Doc) Bytes() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(d.root); err != nil {
		return nil, fmt.Errorf("encode %s: %w", d.file, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode %s: %w", d.file, err)
	}
	return b.Bytes(), nil
}

// Scenario parses the tree with the strict parser (Parse): a wrong value
// or an unknown field gives a *ErrorList naming the field's path.
func (d *Doc) Scenario() (Scenario, error) {
	b, err := d.Bytes()
	if err != nil {
		return Scenario{}, err
	}
	return Parse(d.file, b)
}

// PathError says why a path does not name a field of a Doc.
type PathError struct {
	Path string
	Msg  string
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }

// step is one element of a path: a field name, or an index into a list.
type step struct {
	name  string
	index int // -1 for a name
}

// parsePath splits "faults[0].duration" into its steps.
func parsePath(path string) ([]step, error) {
	bad := func(msg string) error { return &PathError{Path: path, Msg: msg} }
	if path == "" {
		return nil, bad("empty path; name a field like ttl, workload.job or faults[0].duration")
	}
	var out []step
	rest := path
	for rest != "" {
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, bad("unclosed [")
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 {
				return nil, bad(fmt.Sprintf("index %q is not a number ≥ 0", rest[1:end]))
			}
			if len(out) == 0 {
				return nil, bad("a path starts with a field name, e.g. faults[0]")
			}
			out = append(out, step{index: i})
			rest = rest[end+1:]
		case rest[0] == '.':
			if len(out) == 0 {
				return nil, bad("a path starts with a field name")
			}
			rest = rest[1:]
			if rest == "" || rest[0] == '.' || rest[0] == '[' {
				return nil, bad("a field name is missing after a dot")
			}
		default:
			if len(out) > 0 && path[len(path)-len(rest)-1] != '.' {
				return nil, bad("write a dot between a field and the next one (faults[0].duration)")
			}
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			name := rest[:end]
			if strings.ContainsAny(name, "] =") {
				return nil, bad(fmt.Sprintf("field name %q has a character no scenario field has", name))
			}
			out = append(out, step{name: name, index: -1})
			rest = rest[end:]
		}
	}
	return out, nil
}

// String writes steps back as a path.
func pathString(steps []step) string {
	var b strings.Builder
	for i, s := range steps {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case i > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// lookup walks the path. With create, missing fields of mappings are
// added (empty mappings on the way, a null at the end); a missing list
// entry is an error either way. It returns the parent node, and the key
// node for a mapping field, with the node itself.
func (d *Doc) lookup(path string, create bool) (parent, key, node *yaml.Node, err error) {
	steps, err := parsePath(path)
	if err != nil {
		return nil, nil, nil, err
	}
	cur := d.root
	for i, s := range steps {
		here := pathString(steps[:i])
		if here == "" {
			here = "the scenario"
		}
		bad := func(format string, args ...any) error {
			return &PathError{Path: path, Msg: fmt.Sprintf(format, args...)}
		}
		if cur.Kind == yaml.AliasNode {
			return nil, nil, nil, bad("%s is an alias; aliases are not allowed in a scenario", here)
		}
		if s.index >= 0 {
			if cur.Kind != yaml.SequenceNode {
				return nil, nil, nil, bad("%s is not a list (it is %s), so it has no [%d]", here, describe(cur), s.index)
			}
			if s.index >= len(cur.Content) {
				return nil, nil, nil, bad("%s has %s, so there is no %s[%d]", here, entries(len(cur.Content), pathString(steps[:i])), pathString(steps[:i]), s.index)
			}
			parent, key, cur = cur, nil, cur.Content[s.index]
			continue
		}
		if cur.Kind == yaml.ScalarNode && cur.ShortTag() == "!!null" && create {
			cur.Kind, cur.Tag, cur.Value, cur.Style = yaml.MappingNode, "!!map", "", 0
		}
		if cur.Kind != yaml.MappingNode {
			return nil, nil, nil, bad("%s is not a mapping (it is %s), so it has no field %q", here, describe(cur), s.name)
		}
		found := false
		for j := 0; j+1 < len(cur.Content); j += 2 {
			if k := cur.Content[j]; k.Kind == yaml.ScalarNode && k.Value == s.name {
				parent, key, cur, found = cur, k, cur.Content[j+1], true
				break
			}
		}
		if found {
			continue
		}
		if !create {
			return nil, nil, nil, bad("%s has no field %q", here, s.name)
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.name}
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		if i+1 < len(steps) {
			if steps[i+1].index >= 0 {
				return nil, nil, nil, bad("%s has no field %q, so there is no %s", here, s.name, pathString(steps[:i+2]))
			}
			v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		cur.Content = append(cur.Content, k, v)
		parent, key, cur = cur, k, v
	}
	return parent, key, cur, nil
}

// entries is "1 entry (faults[0])", "3 entries (faults[0..2])", "no entry".
func entries(n int, list string) string {
	switch n {
	case 0:
		return "no entry"
	case 1:
		return fmt.Sprintf("1 entry (%s[0])", list)
	}
	return fmt.Sprintf("%d entries (%s[0..%d])", n, list, n-1)
}

// Has reports whether path names a field or entry present in the tree.
func (d *Doc) Has(path string) bool {
	_, _, n, err := d.lookup(path, false)
	return err == nil && !(n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// Value is the text of the scalar at path ("30s", "0.9").
func (d *Doc) Value(path string) (string, error) {
	_, _, n, err := d.lookup(path, false)
	if err != nil {
		return "", err
	}
	if n.Kind != yaml.ScalarNode {
		return "", &PathError{Path: path, Msg: fmt.Sprintf("is %s, not a single value", describe(n))}
	}
	return n.Value, nil
}

// Len is the number of entries of the list at path (0 when the field is
// absent or null).
func (d *Doc) Len(path string) (int, error) {
	_, _, n, err := d.lookup(path, false)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) && strings.Contains(pe.Msg, "has no field") {
			return 0, nil
		}
		return 0, err
	}
	switch {
	case n.Kind == yaml.SequenceNode:
		return len(n.Content), nil
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		return 0, nil
	}
	return 0, &PathError{Path: path, Msg: fmt.Sprintf("is %s, not a list", describe(n))}
}

// Set gives the field at path the value written as YAML ("45s", "0.9",
// "[n1, n2]"), adding the field (and the mappings on its way) when the
// file leaves it out. Whether the value suits the field is for the parser
// to say (Doc.Scenario).
func (d *Doc) Set(path, value string) error {
	var vd yaml.Node
	if err := yaml.Unmarshal([]byte(value), &vd); err != nil {
		return &PathError{Path: path, Msg: fmt.Sprintf("value %q is not YAML: %v", value, err)}
	}
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	if len(vd.Content) == 1 {
		v = vd.Content[0]
	}
	return d.SetNode(path, v)
}

// SetNode puts n at path, as Set does with a value.
func (d *Doc) SetNode(path string, n *yaml.Node) error {
	_, _, node, err := d.lookup(path, true)
	if err != nil {
		return err
	}
	lineComment, headComment := node.LineComment, node.HeadComment
	*node = *cloneNode(n)
	node.LineComment, node.HeadComment = lineComment, headComment
	return nil
}

// Delete removes the field or list entry at path; a missing field is no
// error.
func (d *Doc) Delete(path string) error {
	parent, _, node, err := d.lookup(path, false)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) && strings.Contains(pe.Msg, "has no field") {
			return nil
		}
		return err
	}
	if parent == nil {
		return &PathError{Path: path, Msg: "cannot delete the whole scenario"}
	}
	for i, c := range parent.Content {
		switch {
		case c != node:
		case parent.Kind == yaml.MappingNode && i%2 == 1:
			parent.Content = slices.Delete(parent.Content, i-1, i+1)
			return nil
		case parent.Kind == yaml.SequenceNode:
			parent.Content = slices.Delete(parent.Content, i, i+1)
			return nil
		}
	}
	return &PathError{Path: path, Msg: "not found in its parent"}
}
