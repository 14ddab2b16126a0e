package scenario

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Fault kinds other than pause, the nemesis's kinds, and their options.
var (
	NodeFaultKinds = []string{KindPartition, KindLatency, KindReset, KindCrash, KindPauseNode, KindClockJump, KindClockRate}
	// NemesisKinds are the kinds a random nemesis can draw.
	NemesisKinds = []string{KindPartition, KindLatency, KindReset, KindCrash, KindPauseNode, KindClockJump, KindClockRate, KindPause}
	Selectors    = []string{SelectOne, SelectMinority, SelectMajority, SelectAll}
	CutModes     = []string{"drop", "refuse"}
	Directions   = []string{"both", "replies"}
	Events       = []string{EventAcquired, EventGrantedBy}
	// crashPoints are the points a crash-client fault can name.
	crashPoints = []string{PointAfterAcquire, PointBeforeWrite, PointBeforeRelease, PointInAcquire}

	nemesisFields = []string{"interval", "duration", "faults", "start"}
	whenFields    = []string{"client", "event", "node"}
)

// isNode reports whether name is one of n1..nN.
func isNode(name string, nodes int) bool {
	if len(name) < 2 || name[0] != 'n' || name[1] == '0' {
		return false
	}
	n, err := strconv.Atoi(name[1:])
	return err == nil && n >= 1 && n <= nodes && "n"+strconv.Itoa(n) == name
}

// targets reads a target list: a list of names, or one name or selector as a
// scalar. valid checks one name.
func (p *parser) targets(f field, path, what string, valid func(string) bool, count int) []string {
	n := f.val
	if n == nil || n.Kind == yaml.AliasNode || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null") {
		return nil
	}
	var items []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
	default:
		p.errorf(n, path, "must be a list of %s names or one of %s (got %s)", what, strings.Join(Selectors, ", "), describe(n))
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
		if contains(Selectors, v) {
			if len(items) > 1 {
				p.errorf(it, ipath, "selector %s must stand alone (write %s: %s)", quote(v), path, v)
			}
			out = append(out, v)
			continue
		}
		if count > 0 && !valid(v) {
			p.errorf(it, ipath, "no %s %s (this scenario has %d; or use one of %s)", what, quote(v), count, strings.Join(Selectors, ", "))
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

// faultMore reads the fields of the fault kinds beyond pause. ft.Kind is
// set when the kind was valid.
func (p *parser) faultMore(m *yaml.Node, fs map[string]field, path string, ft *Fault, clients, nodes int, runDur Duration) {
	kind := ft.Kind
	if d, n, st := p.duration(fs["at"], path+".at"); st == good {
		ft.At = &d
		if d < 0 {
			p.errorf(n, path+".at", "must be ≥ 0 (got %s; at: 0s is before the clients start)", describe(n))
		}
		if runDur > 0 && d >= runDur {
			p.errorf(n, path+".at", "is at or after the end of the run (duration %s)", runDur)
		}
	}
	if w := fs["when"].val; w != nil && !(w.Kind == yaml.ScalarNode && w.ShortTag() == "!!null") && w.Kind != yaml.AliasNode {
		if w.Kind != yaml.MappingNode {
			p.errorf(w, path+".when", "must be a mapping like {client: w1, event: acquired} (got %s)", describe(w))
		} else {
			ft.When = p.when(w, path+".when", clients, nodes)
		}
	}
	if ft.At != nil && ft.When != nil {
		p.errorf(m, path, "give either at (a scenario time) or when (a client event), not both")
	}
	ft.Delay = p.nonNegDuration(fs["delay"], path+".delay", 0)
	if ft.When == nil && fs["delay"].val != nil && ft.Delay != 0 {
		p.errorf(fs["delay"].key, path+".delay", "delay counts from a client event; it needs when")
	}
	ft.Nodes = p.targets(fs["nodes"], path+".nodes", "node", func(s string) bool { return isNode(s, nodes) }, nodes)
	ft.Clients = p.targets(fs["clients"], path+".clients", "client", func(s string) bool { return isClient(s, clients) }, clients)
	if v, _, st := p.enum(fs["mode"], path+".mode", "partition mode", CutModes); st == good {
		ft.Mode = v
	}
	if v, _, st := p.enum(fs["direction"], path+".direction", "direction", Directions); st == good {
		ft.Direction = v
	}
	ft.Latency = p.nonNegDuration(fs["latency"], path+".latency", 0)
	ft.Jitter = p.nonNegDuration(fs["jitter"], path+".jitter", 0)
	if d, _, st := p.duration(fs["delta"], path+".delta"); st == good {
		ft.Delta = d
	}
	if v, n, st := p.number(fs["rate"], path+".rate"); st == good {
		if v <= 0 || v > 100 {
			p.errorf(n, path+".rate", "must be > 0 and ≤ 100 (got %s): seconds of the clock per real second", clip(n.Value))
		}
		ft.Rate = v
	}
	if d, n, st := p.duration(fs["restart_after"], path+".restart_after"); st == good {
		if d < 0 {
			p.errorf(n, path+".restart_after", "must be ≥ 0 (got %s)", describe(n))
		}
		ft.RestartAfter = &d
	}
	if kind == "" {
		return
	}
	need := func(name string, ok bool, hint string) {
		if !ok {
			p.required(m, fs[name], path+"."+name, hint)
		}
	}
	refuse := func(names ...string) {
		for _, name := range names {
			if f := fs[name]; f.key != nil {
				p.errorf(f.key, path+"."+name, "does not apply to a %s fault", kind)
			}
		}
	}
	switch kind {
	case KindPause:
		refuse("nodes", "clients", "mode", "direction", "latency", "jitter", "delta", "rate", "restart_after", "at", "when", "delay")
		return
	case KindStarveRenewals:
		refuse("nodes", "clients", "mode", "direction", "latency", "jitter", "delta", "rate", "restart_after")
		return
	case KindCrashClient:
		refuse("nodes", "clients", "mode", "direction", "latency", "jitter", "delta", "rate", "restart_after", "duration")
		if ft.Point != "" && (ft.At != nil || ft.When != nil) {
			p.errorf(m, path, "give one of at (a scenario time), when (a client event) or point (a point of the client's work), not several")
		}
		if ft.Point == PointRandom {
			p.errorf(fs["point"].val, path+".point", "a crash needs a named point: %s", strings.Join(crashPoints, ", "))
		}
		return
	case KindPartition:
		need("nodes", len(ft.Nodes) > 0, "the nodes to cut off, e.g. \"nodes: [n4, n5]\" or \"nodes: minority\"")
		refuse("latency", "jitter", "delta", "rate", "restart_after")
		if ft.Mode == "refuse" && ft.Direction == "replies" {
			p.errorf(fs["direction"].val, path+".direction", "mode refuse closes the connection both ways; use mode drop for a replies-only cut")
		}
	case KindLatency:
		need("nodes", len(ft.Nodes) > 0, "the nodes whose links get slow, e.g. \"nodes: all\"")
		need("latency", ft.Latency > 0, "the added delay, e.g. \"latency: 100ms\"")
		refuse("mode", "direction", "delta", "rate", "restart_after")
	case KindReset:
		need("nodes", len(ft.Nodes) > 0, "the nodes whose links reset connections, e.g. \"nodes: [n3]\"")
		refuse("mode", "direction", "latency", "jitter", "delta", "rate", "restart_after")
	case KindCrash, KindPauseNode:
		need("nodes", len(ft.Nodes) > 0, "the nodes to "+map[string]string{KindCrash: "kill -9", KindPauseNode: "SIGSTOP"}[kind]+", e.g. \"nodes: [n3]\"")
		refuse("clients", "mode", "direction", "latency", "jitter", "delta", "rate")
		if kind == KindPauseNode {
			refuse("restart_after")
		}
	case KindClockJump:
		refuse("mode", "direction", "latency", "jitter", "rate", "restart_after")
		need("delta", ft.Delta != 0, "how far the clock steps, e.g. \"delta: 15s\" (negative = backwards)")
	case KindClockRate:
		refuse("mode", "direction", "latency", "jitter", "delta", "restart_after")
		need("rate", ft.Rate > 0, "the clock's speed, e.g. \"rate: 1.5\" (50 % fast)")
	}
	if kind == KindClockJump || kind == KindClockRate {
		switch {
		case len(ft.Nodes) > 0 && len(ft.Clients) > 0:
			p.errorf(m, path, "a clock fault acts on nodes (TTL shifting) or on clients (their own clock), not both")
		case len(ft.Nodes) == 0 && len(ft.Clients) == 0:
			p.errorf(m, path, "missing targets: give nodes (e.g. \"nodes: [n3]\") or clients (e.g. \"clients: [w1]\")")
		}
	}
	if d := fs["duration"]; d.key != nil && kind == KindClockJump {
		p.errorf(d.key, path+".duration", "a clock jump is a step; it has no duration")
	}
}

func (p *parser) when(w *yaml.Node, path string, clients, nodes int) *When {
	fs := p.fields(w, path, whenFields)
	out := &When{}
	switch v, n, st := p.str(fs["client"], path+".client"); st {
	case good:
		out.Client = v
		if clients > 0 && !isClient(v, clients) {
			p.errorf(n, path+".client", "no client %s: this scenario has %d client%s (%s)", quote(v), clients, plural(clients), clientRange(clients))
		}
	case absent:
		p.required(w, fs["client"], path+".client", "the client whose event starts the fault, e.g. \"client: w1\"")
	}
	switch v, _, st := p.enum(fs["event"], path+".event", "event", Events); st {
	case good:
		out.Event = v
	case absent:
		p.required(w, fs["event"], path+".event", "one of "+strings.Join(Events, ", "))
	}
	switch v, n, st := p.str(fs["node"], path+".node"); st {
	case good:
		out.Node = v
		if nodes > 0 && !isNode(v, nodes) {
			p.errorf(n, path+".node", "no node %s: this scenario has %d node%s", quote(v), nodes, plural(nodes))
		}
		if out.Event != EventGrantedBy {
			p.errorf(n, path+".node", "node applies to event granted-by only")
		}
	case absent:
		if out.Event == EventGrantedBy {
			p.required(w, fs["node"], path+".node", "the granting node, e.g. \"node: n3\"")
		}
	}
	return out
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
	fs := p.fields(m, "nemesis", nemesisFields)
	nm := &Nemesis{}
	d, n, st := p.duration(fs["interval"], "nemesis.interval")
	switch st {
	case good:
		if d <= 0 {
			p.errorf(n, "nemesis.interval", "must be > 0 (got %s)", describe(n))
		}
		nm.Interval = d
	case absent:
		p.required(m, fs["interval"], "nemesis.interval", "time between two faults, e.g. \"interval: 5s\"")
	}
	d, n, st = p.duration(fs["duration"], "nemesis.duration")
	switch st {
	case good:
		if d <= 0 {
			p.errorf(n, "nemesis.duration", "must be > 0 (got %s)", describe(n))
		}
		if nm.Interval > 0 && d > nm.Interval {
			p.errorf(n, "nemesis.duration", "%s is longer than the interval %s; faults would overlap", d, nm.Interval)
		}
		nm.Duration = d
	case absent:
		p.required(m, fs["duration"], "nemesis.duration", "how long each fault lasts, e.g. \"duration: 2s\"")
	}
	nm.Start = p.nonNegDuration(fs["start"], "nemesis.start", 0)
	if runDur > 0 && nm.Start >= runDur {
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
			if v, _, st := p.enum(field{val: it}, ipath, "fault kind", NemesisKinds); st == good {
				nm.Faults = append(nm.Faults, v)
			}
		}
		if len(seq.Content) == 0 {
			p.errorf(seq, "nemesis.faults", "must name at least one fault kind: %s", strings.Join(NemesisKinds, ", "))
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
		if x, _, st := p.enum(field{key: k, val: v}, path, "persistence", Persistences); st == good {
			out[k.Value] = x
		}
	}
	return out
}

// faultsMore reads, for each fault already parsed by faults, the fields of
// the kinds beyond pause. Unknown and duplicate fields were reported by
// faults; here the first occurrence of each known field is used.
func (p *parser) faultsMore(f field, fts []Fault, clients, nodes int, runDur Duration) []Fault {
	seq := f.val
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return fts
	}
	j := 0
	for i, m := range seq.Content {
		if m.Kind != yaml.MappingNode {
			continue
		}
		if j >= len(fts) {
			break
		}
		fs := knownFields(m, faultFields)
		p.faultMore(m, fs, "faults["+strconv.Itoa(i)+"]", &fts[j], clients, nodes, runDur)
		j++
	}
	return fts
}
