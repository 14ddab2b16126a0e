package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
)

// Fault is one scheduled fault of a scenario: its kind, its trigger and
// the kind's own attributes (package faults decodes and runs each kind).
type Fault = faults.Spec

// Nemesis is a seeded random fault schedule (package faults).
type Nemesis = faults.Nemesis

// Trigger fields of a fault, by the trigger kind they belong to
// (faults.TriggerFields).
var triggerFields = faults.TriggerFields()

// faultCommon are the fields of every fault.
func faultCommon() []string { return []string{"kind", "optional"} }

// allFaultFields is every field some fault kind accepts.
func allFaultFields() []string {
	out := faultCommon()
	for _, t := range []string{history.TriggerAt, history.TriggerEvent, history.TriggerPoint} {
		out = append(out, triggerFields[t]...)
	}
	for _, k := range faults.Kinds() {
		for _, f := range k.Fields {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// kindFields are the fields a fault of kind k accepts, in the order they
// are listed: kind, the kind's own, its trigger fields, optional.
func kindFields(k faults.Kind) []string {
	out := []string{"kind"}
	out = append(out, k.Fields...)
	for _, t := range k.Triggers {
		out = append(out, triggerFields[t]...)
	}
	return append(out, "optional")
}

var whenFields = []string{"client", "event", "node"}

// isNode reports whether name is one of n1..nN.
func isNode(name string, nodes int) bool {
	if len(name) < 2 || name[0] != 'n' || name[1] == '0' {
		return false
	}
	n, err := strconv.Atoi(name[1:])
	return err == nil && n >= 1 && n <= nodes && "n"+strconv.Itoa(n) == name
}

// isReplica reports whether name is replica nIrJ of this topology.
func isReplica(name string, nodes, replicas int) bool {
	i := strings.LastIndexByte(name, 'r')
	if i < 2 || replicas == 0 {
		return false
	}
	j, err := strconv.Atoi(name[i+1:])
	return err == nil && isNode(name[:i], nodes) && j >= 1 && j <= replicas && name[i+1:] == strconv.Itoa(j)
}

// isSentinel reports whether name is sentinel sK of this topology.
func isSentinel(name string, sentinels int) bool {
	if len(name) < 2 || name[0] != 's' || name[1] == '0' {
		return false
	}
	k, err := strconv.Atoi(name[1:])
	return err == nil && k >= 1 && k <= sentinels && "s"+strconv.Itoa(k) == name
}

// targets reads a target list: a list of names, or one name or selector as a
// scalar. valid checks one name.
func (p *parser) targets(f field, path, what string, valid func(string) bool, count int) []string {
	n := f.val
	if n == nil || n.Kind == yaml.AliasNode || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null") {
		return nil
	}
	sels := faults.Selectors()
	var items []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
	default:
		p.errorf(n, path, "must be a list of %s names or one of %s (got %s)", what, strings.Join(sels, ", "), describe(n))
		return nil
	}
	var out []string
	for i, it := range items {
		ipath := path
		if n.Kind == yaml.SequenceNode {
			ipath = path + "[" + strconv.Itoa(i) + "]"
		}
		v, _, st := p.str(field{val: it}, ipath)
		if st != good {
			continue
		}
		if contains(sels, v) {
			if len(items) > 1 {
				p.errorf(it, ipath, "selector %s must stand alone (write %s: %s)", quote(v), path, v)
			}
			out = append(out, v)
			continue
		}
		if count > 0 && !valid(v) {
			p.errorf(it, ipath, "no %s %s (this scenario has %d; or use one of %s)", what, quote(v), count, strings.Join(sels, ", "))
			continue
		}
		if contains(out, v) {
			p.errorf(it, ipath, "%s %s named twice", what, quote(v))
			continue
		}
		out = append(out, v)
	}
	return out
}

// faults reads the faults list.
func (p *parser) faults(f field, clients, nodes int, runDur Duration) []Fault {
	seq := f.val
	if seq == nil || seq.Kind == yaml.AliasNode || (seq.Kind == yaml.ScalarNode && seq.ShortTag() == "!!null") {
		return nil
	}
	if seq.Kind != yaml.SequenceNode {
		p.errorf(seq, "faults", "must be a list of faults like [{kind: pause, client: w1, point: after-acquire, duration: 15s}] (got %s)", describe(seq))
		return nil
	}
	var out []Fault
	for i, m := range seq.Content {
		path := "faults[" + strconv.Itoa(i) + "]"
		if m.Kind == yaml.AliasNode {
			continue
		}
		if m.Kind != yaml.MappingNode {
			p.errorf(m, path, "must be a mapping like {kind: pause, client: w1, point: after-acquire, duration: 15s} (got %s)", describe(m))
			continue
		}
		out = append(out, p.fault(m, path, clients, nodes, runDur))
	}
	return out
}

// fault reads one fault: its kind, the fields that apply to it, its
// trigger, and then the kind's own attributes through the kind's Decode.
func (p *parser) fault(m *yaml.Node, path string, clients, nodes int, runDur Duration) Fault {
	ft := Fault{Line: m.Line, Column: m.Column}
	// The kind decides which fields apply: read it first.
	var kind faults.Kind
	kindOK := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "kind" {
			v := m.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
				kind, kindOK = faults.Lookup(v.Value)
			}
			break
		}
	}
	var fs map[string]field
	if kindOK {
		fs = p.fieldsFor(m, path, kindFields(kind), allFaultFields(), "a "+kind.Name+" fault")
	} else {
		fs = p.fields(m, path, allFaultFields())
	}
	switch v, _, st := p.enum(fs["kind"], path+".kind", "fault kind", faults.Names()); st {
	case good:
		ft.Kind = v
	case absent:
		p.required(m, fs["kind"], path+".kind", "one of "+strings.Join(faults.Names(), ", "))
	}
	if v, _, st := p.boolean(fs["optional"], path+".optional"); st == good {
		ft.Optional = v
	}
	if !kindOK {
		return ft
	}
	d := &faultDecoder{mapDecoder: mapDecoder{p: p, m: m, fs: fs, path: path}, clients: clients, nodes: nodes, runDur: runDur,
		replicas: p.replicas, sentinels: p.sentinels}
	ft.When = p.trigger(kind, d)
	ft.Fault = kind.New()
	ft.Fault.Decode(d)
	return ft
}

// trigger reads when a fault of kind fires: at a time, on a client event,
// or at a point of its client's work, whichever the kind accepts.
func (p *parser) trigger(kind faults.Kind, d *faultDecoder) faults.When {
	m, fs, path := d.m, d.fs, d.path
	var forms []string
	for _, t := range kind.Triggers {
		if d.Has(triggerFields[t][0]) {
			forms = append(forms, t)
		}
	}
	if len(forms) > 1 {
		words := map[string]string{history.TriggerAt: "at (a scenario time)", history.TriggerEvent: "when (a client event)",
			history.TriggerPoint: "point (a point of the client's work)"}
		var accepted []string
		for _, t := range []string{history.TriggerAt, history.TriggerEvent, history.TriggerPoint} {
			if kind.Accepts(t) {
				accepted = append(accepted, words[t])
			}
		}
		if len(accepted) == 2 {
			p.errorf(m, path, "give either %s or %s, not both", accepted[0], accepted[1])
		} else {
			p.errorf(m, path, "give one of %s or %s, not several", strings.Join(accepted[:len(accepted)-1], ", "), accepted[len(accepted)-1])
		}
	}
	w := faults.When{Kind: kind.Triggers[0]}
	if len(forms) > 0 {
		w.Kind = forms[0]
	}
	if kind.Accepts(history.TriggerEvent) {
		if fs["delay"].key != nil && !d.Has("when") {
			p.errorf(fs["delay"].key, path+".delay", "delay counts from a client event; it needs when")
		}
		w.Delay = time.Duration(p.nonNegDuration(fs["delay"], path+".delay", 0))
	}
	if kind.Accepts(history.TriggerPoint) && fs["occurrence"].key != nil && !d.Has("point") && len(forms) > 0 {
		p.errorf(fs["occurrence"].key, path+".occurrence", "occurrence counts the times the client reaches its point; it needs point")
	}
	switch w.Kind {
	case history.TriggerAt:
		if v, n, st := p.duration(fs["at"], path+".at"); st == good {
			if v < 0 {
				p.errorf(n, path+".at", "must be ≥ 0 (got %s; at: 0s is before the clients start)", describe(n))
			}
			if d.runDur > 0 && v >= d.runDur {
				p.errorf(n, path+".at", "is at or after the end of the run (duration %s)", d.runDur)
			}
			w.At = time.Duration(v)
		}
	case history.TriggerEvent:
		if wn := fs["when"].val; wn.Kind != yaml.MappingNode {
			p.errorf(wn, path+".when", "must be a mapping like {client: w1, event: acquired} (got %s)", describe(wn))
		} else {
			p.when(wn, path+".when", d.clients, d.nodes, &w)
		}
	case history.TriggerPoint:
		points := kind.Points
		if kind.RandomPoint {
			points = append(slices.Clone(points), faults.PointRandom)
		}
		what := "point"
		if kind.Name == "pause" {
			what = "pause point"
		}
		switch v, n, st := p.str(fs["point"], path+".point"); {
		case st == absent:
			p.required(m, fs["point"], path+".point", kind.PointHint)
		case st == good && v == faults.PointRandom && !kind.RandomPoint:
			p.errorf(n, path+".point", "a %s needs a named point: %s", kind.Name, strings.Join(kind.Points, ", "))
		case st == good:
			if v, _, st := p.enum(fs["point"], path+".point", what, points); st == good {
				w.Point = v
			}
		}
		w.Occurrence = 1
		if v, st := p.smallInt(fs["occurrence"], path+".occurrence", 1, math.MaxInt32, "the fault fires the Nth time the client reaches the point"); st == good {
			w.Occurrence = v
		}
	}
	return w
}

// faultDecoder is the scenario side of faults.Decoder: one fault mapping's
// fields, read with the parser's positions and messages.
type faultDecoder struct {
	mapDecoder
	clients, nodes int
	runDur         Duration
	// replicas per master and sentinels of the scenario.
	replicas, sentinels int
}

// mapDecoder reads the fields of one mapping (a fault's, the workload's)
// for a registered kind's decoder, with the parser's positions and
// messages: its methods are the ones faults.Decoder and
// workload.Decoder share.
type mapDecoder struct {
	p    *parser
	m    *yaml.Node
	fs   map[string]field
	path string
}

// Bool reads true or false.
func (d *mapDecoder) Bool(name string) (bool, bool) {
	v, _, st := d.p.boolean(d.fs[name], d.at(name))
	return v, st == good
}

func (d *mapDecoder) at(name string) string { return d.path + "." + name }

func (d *mapDecoder) Has(name string) bool {
	v := d.fs[name].val
	return v != nil && !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null")
}

func (d *mapDecoder) Duration(name string, min faults.Bound) (time.Duration, bool) {
	v, n, st := d.p.duration(d.fs[name], d.at(name))
	if st != good {
		return 0, false
	}
	switch {
	case min == faults.NonNegative && v < 0:
		d.p.errorf(n, d.at(name), "must be ≥ 0 (got %s)", describe(n))
		return 0, false
	case min == faults.Positive && v <= 0:
		d.p.errorf(n, d.at(name), "must be > 0 (got %s)", describe(n))
		return 0, false
	}
	return time.Duration(v), true
}

func (d *mapDecoder) Enum(name, what string, values []string) (string, bool) {
	v, _, st := d.p.enum(d.fs[name], d.at(name), what, values)
	return v, st == good
}

func (d *mapDecoder) Required(name, hint string) {
	d.p.required(d.m, d.fs[name], d.at(name), hint)
}

func (d *mapDecoder) Errorf(name, format string, args ...any) {
	if name == "" {
		d.p.errorf(d.m, d.path, format, args...)
		return
	}
	f := d.fs[name]
	n := f.val
	if n == nil {
		n = f.key
	}
	if n == nil {
		n = d.m
	}
	d.p.errorf(n, d.at(name), format, args...)
}

// Replicas and Sentinels are the scenario's topology (faults.TopologyDecoder).
func (d *faultDecoder) Replicas() int  { return d.replicas }
func (d *faultDecoder) Sentinels() int { return d.sentinels }

func (d *faultDecoder) Number(name string, lo, hi float64, why string) (float64, bool) {
	v, n, st := d.p.number(d.fs[name], d.at(name))
	if st != good {
		return 0, false
	}
	if v <= lo || v > hi {
		d.p.errorf(n, d.at(name), "must be > %s and ≤ %s (got %s): %s",
			strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64), clip(n.Value), why)
		return 0, false
	}
	return v, true
}

func (d *faultDecoder) String(name string) (string, bool) {
	v, n, st := d.p.str(d.fs[name], d.at(name))
	if st != good {
		return "", false
	}
	if strings.TrimSpace(v) == "" {
		d.p.errorf(n, d.at(name), "must not be empty")
		return "", false
	}
	return v, true
}

func (d *faultDecoder) Client(name string) (string, bool) {
	v, n, st := d.p.str(d.fs[name], d.at(name))
	if st != good {
		return "", false
	}
	if d.clients > 0 && !isClient(v, d.clients) {
		d.p.errorf(n, d.at(name), "no client %s: this scenario has %d client%s (%s)", quote(v), d.clients, plural(d.clients), clientRange(d.clients))
		return "", false
	}
	return v, true
}

func (d *faultDecoder) Targets(name, what string) ([]string, bool) {
	f := d.fs[name]
	if !d.Has(name) {
		return nil, false
	}
	before := len(d.p.errs)
	var out []string
	switch what {
	case "node":
		out = d.p.targets(f, d.at(name), what, func(s string) bool {
			return isNode(s, d.nodes) || isReplica(s, d.nodes, d.replicas) || isSentinel(s, d.sentinels)
		}, d.nodes)
	case "replica":
		if d.replicas == 0 {
			d.p.errorf(f.val, d.at(name), "this scenario has no replicas (replicas: 1 gives each master one)")
			return nil, false
		}
		out = d.p.targets(f, d.at(name), what, func(s string) bool { return isReplica(s, d.nodes, d.replicas) }, d.nodes*d.replicas)
	default:
		out = d.p.targets(f, d.at(name), what, func(s string) bool { return isClient(s, d.clients) }, d.clients)
	}
	return out, len(d.p.errs) == before
}

func (d *faultDecoder) RunDuration() time.Duration { return time.Duration(d.runDur) }

func (p *parser) when(w *yaml.Node, path string, clients, nodes int, out *faults.When) {
	fs := p.fields(w, path, whenFields)
	switch v, n, st := p.str(fs["client"], path+".client"); st {
	case good:
		out.Client = v
		if clients > 0 && !isClient(v, clients) {
			p.errorf(n, path+".client", "no client %s: this scenario has %d client%s (%s)", quote(v), clients, plural(clients), clientRange(clients))
		}
	case absent:
		p.required(w, fs["client"], path+".client", "the client whose event starts the fault, e.g. \"client: w1\"")
	}
	events := []string{history.EventAcquired, history.EventGrantedBy}
	switch v, _, st := p.enum(fs["event"], path+".event", "event", events); st {
	case good:
		out.Event = v
	case absent:
		p.required(w, fs["event"], path+".event", "one of "+strings.Join(events, ", "))
	}
	switch v, n, st := p.str(fs["node"], path+".node"); st {
	case good:
		out.Node = v
		if nodes > 0 && !isNode(v, nodes) {
			p.errorf(n, path+".node", "no node %s: this scenario has %d node%s", quote(v), nodes, plural(nodes))
		}
		if out.Event != history.EventGrantedBy {
			p.errorf(n, path+".node", "node applies to event granted-by only")
		}
	case absent:
		if out.Event == history.EventGrantedBy {
			p.required(w, fs["node"], path+".node", "the granting node, e.g. \"node: n3\"")
		}
	}
}

// nemesis reads the optional random nemesis.
func (p *parser) nemesis(f field, runDur Duration) *Nemesis {
	m := f.val
	if m == nil || m.Kind == yaml.AliasNode || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "nemesis", "must be a mapping like {interval: 5s, duration: 2s, faults: [partition, pause-node]} (got %s)", describe(m))
		return nil
	}
	fs := p.fields(m, "nemesis", []string{"interval", "duration", "faults", "start"})
	nm := &Nemesis{}
	d, n, st := p.duration(fs["interval"], "nemesis.interval")
	switch st {
	case good:
		if d <= 0 {
			p.errorf(n, "nemesis.interval", "must be > 0 (got %s)", describe(n))
		}
		nm.Interval = time.Duration(d)
	case absent:
		p.required(m, fs["interval"], "nemesis.interval", "time between two faults, e.g. \"interval: 5s\"")
	}
	d, n, st = p.duration(fs["duration"], "nemesis.duration")
	switch st {
	case good:
		if d <= 0 {
			p.errorf(n, "nemesis.duration", "must be > 0 (got %s)", describe(n))
		}
		if nm.Interval > 0 && time.Duration(d) > nm.Interval {
			p.errorf(n, "nemesis.duration", "%s is longer than the interval %s; faults would overlap", d, nm.Interval)
		}
		nm.Duration = time.Duration(d)
	case absent:
		p.required(m, fs["duration"], "nemesis.duration", "how long each fault lasts, e.g. \"duration: 2s\"")
	}
	nm.Start = time.Duration(p.nonNegDuration(fs["start"], "nemesis.start", 0))
	if runDur > 0 && nm.Start >= time.Duration(runDur) {
		p.errorf(fs["start"].val, "nemesis.start", "is at or after the end of the run (duration %s)", runDur)
	}
	seq := fs["faults"].val
	switch {
	case seq == nil || (seq.Kind == yaml.ScalarNode && seq.ShortTag() == "!!null"):
		p.required(m, fs["faults"], "nemesis.faults", "the kinds to draw from, e.g. \"faults: [partition, pause-node]\"")
	case seq.Kind != yaml.SequenceNode:
		p.errorf(seq, "nemesis.faults", "must be a list of fault kinds (got %s)", describe(seq))
	default:
		for i, it := range seq.Content {
			ipath := "nemesis.faults[" + strconv.Itoa(i) + "]"
			if v, _, st := p.enum(field{val: it}, ipath, "fault kind", faults.NemesisNames()); st == good {
				nm.Faults = append(nm.Faults, v)
			}
		}
		if len(seq.Content) == 0 {
			p.errorf(seq, "nemesis.faults", "must name at least one fault kind: %s", strings.Join(faults.NemesisNames(), ", "))
		}
	}
	return nm
}

// clientStart reads client_start: {w2: 1.2s}.
func (p *parser) clientStart(f field, clients int) map[string]Duration {
	m := f.val
	if m == nil || m.Kind == yaml.AliasNode || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "client_start", "must be a mapping like {w2: 1.2s} (got %s)", describe(m))
		return nil
	}
	out := map[string]Duration{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		path := "client_start." + clip(k.Value)
		if clients > 0 && !isClient(k.Value, clients) {
			p.errorf(k, path, "no client %s: this scenario has %d client%s (%s)", quote(k.Value), clients, plural(clients), clientRange(clients))
			continue
		}
		if _, dup := out[k.Value]; dup {
			p.errorf(k, path, "duplicate client")
			continue
		}
		out[k.Value] = p.nonNegDuration(field{key: k, val: v}, path, 0)
	}
	return out
}

// nodePersistence reads node_persistence: {n3: aof-always}.
func (p *parser) nodePersistence(f field, nodes int) map[string]string {
	m := f.val
	if m == nil || m.Kind == yaml.AliasNode || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "node_persistence", "must be a mapping like {n3: aof-always} (got %s)", describe(m))
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		path := "node_persistence." + clip(k.Value)
		if nodes > 0 && !isNode(k.Value, nodes) {
			p.errorf(k, path, "no node %s: this scenario has %d node%s", quote(k.Value), nodes, plural(nodes))
			continue
		}
		if x, _, st := p.enum(field{key: k, val: v}, path, "persistence", Persistences()); st == good {
			out[k.Value] = x
		}
	}
	return out
}

// checkBeforeToken refuses a fault at the before-token point for an
// algorithm that takes no fencing token after its grant: the point would
// never be reached, and the run would test nothing.
func (p *parser) checkBeforeToken(s Scenario) {
	if s.Algorithm == "" || traitsOf(s.Algorithm).TokenAfterGrant {
		return
	}
	for i, f := range s.Faults {
		if f.When.Kind != history.TriggerPoint || f.When.Point != history.PointBeforeToken {
			continue
		}
		at := p.root
		if f.Line > 0 {
			at = &yaml.Node{Line: f.Line, Column: f.Column}
		}
		why := "takes no fencing token"
		if traitsOf(s.Algorithm).Fenced {
			why = "takes its fencing token in the same step as the grant"
		}
		p.errorf(at, fmt.Sprintf("faults[%d].point", i), "before-token is the gap between a grant and a fencing token taken after it, which only %s has; %s %s, so the point is never reached (pause at after-acquire or in-acquire instead)", tokenAfterGrantNames(), s.Algorithm, why)
	}
}
