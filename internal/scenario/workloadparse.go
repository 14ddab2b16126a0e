package scenario

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/algo"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/workload"
)

// guardFields are the common workload fields that apply only to a
// workload whose registration accepts their guard (check_and_set has a
// message of its own, in workload).
var guardFields = map[string]string{
	"fencing": workload.GuardFencing,
	"claim":   workload.GuardFencing,
}

// guarded lists the workloads that accept guard g.
func guarded(g string) []string {
	return workload.With(func(k workload.Kind) bool { return slices.Contains(k.Guards, g) })
}

// owners lists the workloads a workload field belongs to, when it belongs
// to some only: a workload's own field, or a guard's; nil for a field every
// workload has.
func owners(name string) []string {
	if g, ok := guardFields[name]; ok {
		return guarded(g)
	}
	if slices.Contains(workload.CommonFields(), name) {
		return nil
	}
	return workload.With(func(k workload.Kind) bool { return slices.Contains(k.Fields, name) })
}

// workloadMore reads the workload's own fields through its registration
// (workload.Kind.New, Decode), after checking that every field given
// applies to it and that the workload and the algorithm fit together.
// Unknown and duplicate fields were reported by workload; the first
// occurrence of each known field is used here.
func (p *parser) workloadMore(f field, w *Workload, algorithm string) {
	kind, kindOK := workload.Lookup(w.Kind)
	m := f.val
	if m == nil || m.Kind != yaml.MappingNode {
		// No mapping: the default workload, its own fields at their
		// defaults.
		w.Attrs = kind.New()
		w.Attrs.Decode(&workloadDecoder{mapDecoder: mapDecoder{p: p, m: &yaml.Node{Kind: yaml.MappingNode}, fs: map[string]field{}, path: "workload"}})
		return
	}
	fs := knownFields(m, workload.Fields())
	if kf := fs["kind"]; kf.val != nil {
		if v, isStr := kf.val.Value, kf.val.Kind == yaml.ScalarNode; !isStr || !contains(workload.Names(), v) {
			kindOK = false // reported by workload
		}
	}
	for _, name := range workload.Fields() {
		f, kinds := fs[name], owners(name)
		if _, guard := guardFields[name]; guard && f.val != nil && f.val.Value == "false" {
			continue // written by Normalize for every workload
		}
		if f.key != nil && kindOK && kinds != nil && !contains(kinds, w.Kind) {
			p.errorf(f.key, "workload."+name, "does not apply to the %s workload (only to %s)", w.Kind, strings.Join(kinds, ", "))
		}
	}
	if !kindOK {
		return
	}
	at := m
	if kf := fs["kind"]; kf.val != nil {
		at = kf.val
	}
	if algorithm != "" {
		if ws := p.traitsOf(algorithm).Workloads; len(ws) > 0 && !contains(ws, w.Kind) {
			p.errorf(at, "workload.kind", "algorithm %s runs the %s workload only (got %s)", algorithm, strings.Join(ws, ", "), w.Kind)
		}
	}
	w.Attrs = kind.New()
	w.Attrs.Decode(&workloadDecoder{mapDecoder: mapDecoder{p: p, m: m, fs: fs, path: "workload"}, algorithm: algorithm})
}

// workloadDecoder is the scenario side of workload.Decoder: the workload
// mapping's fields, read with the parser's positions and messages.
type workloadDecoder struct {
	mapDecoder
	algorithm string
}

func (d *workloadDecoder) Int(name string, lo, hi int, why string) (int, bool) {
	v, st := d.p.smallInt(d.fs[name], d.at(name), int64(lo), int64(hi), why)
	return v, st == good
}

func (d *workloadDecoder) Algorithm() string   { return d.algorithm }
func (d *workloadDecoder) Traits() algo.Traits { return d.p.traitsOf(d.algorithm) }
func (d *workloadDecoder) MaxClients() int     { return MaxClients }

func (d *workloadDecoder) Algorithms(keep func(algo.Traits) bool) string { return traitNames(keep) }

// MarshalYAML writes the workload as a scenario file has it: the common
// fields, with the workload's own (Attrs) among them before rounds.
func (w Workload) MarshalYAML() (any, error) {
	type plain Workload // the fields, without this method
	var n yaml.Node
	if err := n.Encode(plain(w)); err != nil {
		return nil, err
	}
	if w.Attrs == nil {
		return &n, nil
	}
	var own yaml.Node
	if err := own.Encode(w.Attrs); err != nil {
		return nil, err
	}
	at := len(n.Content)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i].Value; v == "rounds" || v == "round_delay" {
			at = i
			break
		}
	}
	n.Content = slices.Insert(n.Content, at, own.Content...)
	return &n, nil
}

// knownFields maps the allowed keys of mapping m to their fields, for a
// second pass over a mapping whose problems (unknown or duplicate keys)
// the first pass (parser.fields) already reported; a duplicate keeps its
// first value.
func knownFields(m *yaml.Node, allowed []string) map[string]field {
	fs := map[string]field{}
	for k := 0; k+1 < len(m.Content); k += 2 {
		key := m.Content[k]
		if key.Kind != yaml.ScalarNode || !contains(allowed, key.Value) {
			continue
		}
		if _, dup := fs[key.Value]; !dup {
			fs[key.Value] = field{key, m.Content[k+1]}
		}
	}
	return fs
}
