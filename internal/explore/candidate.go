package explore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/scenario"
)

// fault is one fault mapping of a candidate schedule, its fields in the
// order a person writes them; values are strings, numbers, booleans,
// durations (scenario time) or lists of names.
type fault struct {
	keys []string
	vals []any
}

func newFault(kind string) *fault { return (&fault{}).set("kind", kind) }

// set adds or replaces a field.
func (f *fault) set(k string, v any) *fault {
	if i := slices.Index(f.keys, k); i >= 0 {
		f.vals[i] = v
		return f
	}
	f.keys, f.vals = append(f.keys, k), append(f.vals, v)
	return f
}

// node is the fault as a YAML mapping.
func (f *fault) node() (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i, k := range f.keys {
		var v yaml.Node
		val := f.vals[i]
		if d, ok := val.(time.Duration); ok {
			val = d.String()
		}
		if err := v.Encode(val); err != nil {
			return nil, fmt.Errorf("fault %s: %w", k, err)
		}
		if v.Kind == yaml.SequenceNode {
			v.Style = yaml.FlowStyle
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &v)
	}
	return m, nil
}

// candidate is one fault schedule to try: faults of one class, and the
// scenario fields the class sets besides them (a crash class's
// persistence).
type candidate struct {
	Guided bool
	Faults []*fault
	Set    map[string]string
}

// scenarioOf is base with the candidate's faults and fields, read back by
// the strict parser (a candidate it refuses is an error naming the field).
func scenarioOf(base scenario.Scenario, c candidate, name string) (scenario.Scenario, []byte, error) {
	doc, err := scenario.DocOf(base)
	if err != nil {
		return scenario.Scenario{}, nil, err
	}
	if err := doc.Set("name", name); err != nil {
		return scenario.Scenario{}, nil, err
	}
	keys := make([]string, 0, len(c.Set))
	for k := range c.Set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := doc.Set(k, c.Set[k]); err != nil {
			return scenario.Scenario{}, nil, err
		}
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, f := range c.Faults {
		n, err := f.node()
		if err != nil {
			return scenario.Scenario{}, nil, err
		}
		seq.Content = append(seq.Content, n)
	}
	if err := doc.SetNode("faults", seq); err != nil {
		return scenario.Scenario{}, nil, err
	}
	sc, err := doc.Scenario()
	if err != nil {
		return scenario.Scenario{}, nil, err
	}
	b, err := scenario.Normalize(sc)
	if err != nil {
		return scenario.Scenario{}, nil, err
	}
	return sc, b, nil
}

// tried is what the candidates of a class have tried, field by field, for
// the profile's "over these ranges": the least and greatest duration or
// number each field took, and the words (points, modes, targets).
type tried struct {
	durs  map[string][2]time.Duration
	nums  map[string][2]float64
	words map[string][]string
	order []string
}

func (t *tried) add(c candidate) {
	if t.durs == nil {
		t.durs, t.nums, t.words = map[string][2]time.Duration{}, map[string][2]float64{}, map[string][]string{}
	}
	note := func(k string) {
		if !slices.Contains(t.order, k) {
			t.order = append(t.order, k)
		}
	}
	for k, v := range c.Set {
		note(k)
		if !slices.Contains(t.words[k], v) {
			t.words[k] = append(t.words[k], v)
		}
	}
	for _, f := range c.Faults {
		for i, k := range f.keys {
			if k == "kind" {
				continue
			}
			note(k)
			switch v := f.vals[i].(type) {
			case time.Duration:
				r, ok := t.durs[k]
				if !ok {
					r = [2]time.Duration{v, v}
				}
				t.durs[k] = [2]time.Duration{min(r[0], v), max(r[1], v)}
			case float64, int:
				x := toFloat(v)
				r, ok := t.nums[k]
				if !ok {
					r = [2]float64{x, x}
				}
				t.nums[k] = [2]float64{min(r[0], x), max(r[1], x)}
			default:
				for _, w := range words(v) {
					if !slices.Contains(t.words[k], w) {
						t.words[k] = append(t.words[k], w)
					}
				}
			}
		}
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func words(v any) []string {
	switch x := v.(type) {
	case []string:
		return []string{strings.Join(x, ",")}
	case map[string]string:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+x[k])
		}
		return []string{strings.Join(parts, ",")}
	case bool:
		return []string{strconv.FormatBool(x)}
	}
	return []string{fmt.Sprint(v)}
}
