package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/algo"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/workload"
)

// Fields of the mapping form of clients: and of a process block.
var (
	clientSpecFields = []string{"job", "start", "keys", "process"}
	processFields    = []string{"command", "dir", "env", "timeout", "options", "traits", "fake_time"}
)

// traitsOf is the traits of the scenario's algorithm as parsing goes: a
// lock client process's declared traits once its process block is read.
func (p *parser) traitsOf(algorithm string) algo.Traits {
	if p.proc != nil && traitsOf(algorithm).Process {
		return Scenario{Algorithm: algorithm, Process: p.proc}.Traits()
	}
	return traitsOf(algorithm)
}

// clientsField reads clients: a count ("clients: 2") or a mapping of the
// clients w1..wN to their own settings ("clients: {w1: {job: 40s}, w2:
// {}}"). It sets s.Clients (and s.PerClient) and reports the state.
func (p *parser) clientsField(f field, s *Scenario) state {
	m := f.val
	if m == nil || m.Kind != yaml.MappingNode {
		n, st := p.smallInt(f, "clients", 1, MaxClients, "")
		if st == good {
			s.Clients = n
		}
		if st == bad && m != nil && m.Kind != yaml.ScalarNode {
			return bad
		}
		return st
	}
	names := map[string]*yaml.Node{}
	per := map[string]ClientSpec{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "clients", "client names must be plain strings like w1 (got %s)", describe(k))
			continue
		}
		path := "clients." + clip(k.Value)
		if _, dup := names[k.Value]; dup {
			p.errorf(k, path, "duplicate client (first set at line %d)", names[k.Value].Line)
			continue
		}
		names[k.Value] = k
		per[k.Value] = p.clientSpec(v, path)
	}
	n := len(names)
	if n == 0 {
		p.errorf(m, "clients", "an empty mapping names no client; write a count (\"clients: 2\") or name w1..wN (\"clients: {w1: {job: 40s}, w2: {}}\")")
		return bad
	}
	if n > MaxClients {
		p.errorf(m, "clients", "must be between 1 and %d clients (got %d)", MaxClients, n)
		return bad
	}
	ok := true
	for name, k := range names {
		if !isClient(name, n) {
			p.errorf(k, "clients."+clip(name), "clients are named w1..w%d in order: a mapping of %d client%s names exactly %s (got %s)", n, n, plural(n), clientRange(n), quote(name))
			ok = false
		}
	}
	if !ok {
		return bad
	}
	s.Clients, s.PerClient = n, per
	return good
}

// clientSpec reads one client's settings.
func (p *parser) clientSpec(v *yaml.Node, path string) ClientSpec {
	var c ClientSpec
	if v == nil || (v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		return c
	}
	if v.Kind != yaml.MappingNode {
		p.errorf(v, path, "must be a mapping like {job: 40s, start: 2s, keys: [1, 2]} or {} (got %s)", describe(v))
		return c
	}
	fs := p.fields(v, path, clientSpecFields)
	p.clientProcess(fs["process"], path, &c)
	if d, n, st := p.duration(fs["job"], path+".job"); st == good {
		if d < 0 {
			p.errorf(n, path+".job", "must be ≥ 0 (got %s)", describe(n))
		} else {
			c.Job = &d
		}
	}
	if d, n, st := p.duration(fs["start"], path+".start"); st == good {
		if d < 0 {
			p.errorf(n, path+".start", "must be ≥ 0 (got %s)", describe(n))
		} else {
			c.Start = &d
		}
	}
	if kf := fs["keys"]; kf.val != nil {
		kn := kf.val
		if kn.Kind != yaml.SequenceNode || len(kn.Content) == 0 {
			p.errorf(kn, path+".keys", "must be a list of object numbers like [1, 3] (got %s)", describe(kn))
			return c
		}
		seen := map[int]bool{}
		for i, e := range kn.Content {
			ep := fmt.Sprintf("%s.keys[%d]", path, i)
			k, st := p.smallInt(field{val: e}, ep, 1, MaxKeys, "an object's number, 1..workload.keys")
			if st != good {
				continue
			}
			if seen[k] {
				p.errorf(e, ep, "object %d is listed twice", k)
				continue
			}
			seen[k] = true
			c.Keys = append(c.Keys, k)
			p.keyNodes = append(p.keyNodes, keyNode{path: ep, n: e, key: k})
		}
	}
	return c
}

// keyNode is a per-client key number with its position, checked against
// workload.keys once the workload is read.
type keyNode struct {
	path string
	n    *yaml.Node
	key  int
}

// perClientFinish checks what the per-client settings need of the rest of
// the scenario.
func (p *parser) perClientFinish(root map[string]field, s *Scenario) {
	if len(s.PerClient) == 0 {
		return
	}
	for _, k := range p.keyNodes {
		if k.key > s.Workload.Keys {
			p.errorf(k.n, k.path, "no object %d: workload.keys is %d", k.key, s.Workload.Keys)
		}
	}
	keyed := false
	for _, c := range s.PerClient {
		keyed = keyed || len(c.Keys) > 0
	}
	if k, _ := workload.Lookup(s.Workload.Kind); keyed && !k.Keyed {
		p.errorf(root["clients"].val, "clients", "per-client keys need a workload of numbered objects (%s; got %s)", strings.Join(keyedWorkloads(), ", "), s.Workload.Kind)
	}
}

// keyedWorkloads names the workloads whose clients may have keys of their
// own: those of numbered objects, then those whose keys are leases of
// their own naming (the leader's: leader-1..leader-N, one scheduler lock
// per queue, BR-25).
func keyedWorkloads() []string {
	return append(workload.With(func(k workload.Kind) bool { return k.Keyed && k.Object != "" }),
		workload.With(func(k workload.Kind) bool { return k.Keyed && k.Object == "" })...)
}

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// process reads the process block (algorithm process). file locates a
// relative dir.
func (p *parser) process(f field, s Scenario) *Process {
	m := f.val
	isProc := traitsOf(s.Algorithm).Process
	if m == nil || (m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null") {
		if isProc && s.Algorithm != "" {
			p.errorf(p.root, "process", "missing required field; algorithm process runs each client's lock in a child process: give its command, e.g. \"process: {command: [node, adapters/node/redlock.js]}\"")
		}
		return nil
	}
	if m.Kind == yaml.AliasNode {
		return nil
	}
	if !isProc && s.Algorithm != "" {
		p.errorf(f.key, "process", "applies only to algorithm process (got algorithm %s)", s.Algorithm)
		return nil
	}
	if m.Kind != yaml.MappingNode {
		p.errorf(m, "process", "must be a mapping like {command: [node, adapters/node/redlock.js]} (got %s)", describe(m))
		return nil
	}
	proc := &Process{}
	fs := p.fields(m, "process", processFields)
	cf := fs["command"]
	switch {
	case cf.val == nil:
		p.required(m, cf, "process.command", "the program and its arguments as a list, e.g. \"command: [node, adapters/node/redlock.js]\" (never a shell string)")
	case cf.val.Kind == yaml.ScalarNode && cf.val.ShortTag() == "!!str":
		p.errorf(cf.val, "process.command", "must be a list of the program and its arguments, e.g. [node, adapters/node/redlock.js], not a string: locksim runs no shell (got %s)", describe(cf.val))
	case cf.val.Kind != yaml.SequenceNode || len(cf.val.Content) == 0:
		p.errorf(cf.val, "process.command", "must be a non-empty list of the program and its arguments (got %s)", describe(cf.val))
	default:
		for i, e := range cf.val.Content {
			ep := fmt.Sprintf("process.command[%d]", i)
			v, _, st := p.str(field{val: e}, ep)
			if st == good && v == "" && i == 0 {
				p.errorf(e, ep, "the program must not be empty")
			}
			if st != good {
				continue
			}
			proc.Command = append(proc.Command, v)
		}
	}
	if v, _, st := p.str(fs["dir"], "process.dir"); st == good {
		proc.Dir = v
	}
	if p.file != "" && !filepath.IsAbs(proc.Dir) {
		proc.Dir = filepath.Join(filepath.Dir(p.file), proc.Dir)
		if abs, err := filepath.Abs(proc.Dir); err == nil {
			proc.Dir = abs
		}
	}
	if ef := fs["env"]; ef.val != nil {
		if ef.val.Kind != yaml.MappingNode {
			p.errorf(ef.val, "process.env", "must be a mapping like {NODE_OPTIONS: --no-warnings} (got %s)", describe(ef.val))
		} else {
			proc.Env = map[string]string{}
			for i := 0; i+1 < len(ef.val.Content); i += 2 {
				k, v := ef.val.Content[i], ef.val.Content[i+1]
				path := "process.env." + clip(k.Value)
				if k.Kind != yaml.ScalarNode || !envNameRE.MatchString(k.Value) {
					p.errorf(k, path, "must be an environment variable name (letters, digits, '_')")
					continue
				}
				if s, _, st := p.str(field{key: k, val: v}, path); st == good {
					proc.Env[k.Value] = s
				}
			}
		}
	}
	if d, n, st := p.duration(fs["timeout"], "process.timeout"); st == good {
		if d <= 0 {
			p.errorf(n, "process.timeout", "must be > 0 (got %s)", describe(n))
		} else {
			proc.Timeout = d
		}
	}
	if of := fs["options"]; of.val != nil {
		if of.val.Kind != yaml.MappingNode {
			p.errorf(of.val, "process.options", "must be a mapping (got %s); it is passed to the process in its hello", describe(of.val))
		} else {
			var opts map[string]any
			if err := of.val.Decode(&opts); err != nil {
				p.errorf(of.val, "process.options", "%v", err)
			} else {
				proc.Options = opts
			}
		}
	}
	if tf := fs["traits"]; tf.val != nil {
		if tf.val.Kind != yaml.SequenceNode {
			p.errorf(tf.val, "process.traits", "must be a list of %s (got %s)", strings.Join(ProcessTraits(), ", "), describe(tf.val))
		} else {
			for i, e := range tf.val.Content {
				if v, _, st := p.enum(field{val: e}, fmt.Sprintf("process.traits[%d]", i), "process trait", ProcessTraits()); st == good {
					proc.Traits = append(proc.Traits, v)
				}
			}
			if contains(proc.Traits, "single-node") && contains(proc.Traits, "multi-node") {
				p.errorf(tf.val, "process.traits", "a lock is single-node or multi-node, not both")
			}
		}
	}
	if v, _, st := p.enum(fs["fake_time"], "process.fake_time", "fake time mode", []string{clients.FakeTimeJump, clients.FakeTimeRate}); st == good {
		proc.FakeTime = v
	}
	p.procCommand = cf.val
	return proc
}

// processFinish sets how client clock faults reach a lock client process
// and, when the file was loaded from disk, probes that libfaketime really
// reaches its command; a process that cannot take a fault of the scenario
// is refused here.
func (p *parser) processFinish(s *Scenario) {
	if s.Process == nil || len(s.Process.Command) == 0 {
		return
	}
	jump, rate := false, false
	shared := sharedProcesses(*s)
	for _, f := range s.Faults {
		at := p.root
		if f.Line > 0 {
			at = &yaml.Node{Line: f.Line, Column: f.Column}
		}
		if len(shared) > 0 && (f.Kind == "pause" || f.Kind == "crash-client" || f.Kind == "restart-client" || (f.Kind == "clock-jump" || f.Kind == "clock-rate") && clientClock(f)) {
			p.errorf(at, "faults", "%s acts on a client, and %s: a lock client process is paused, killed, restarted and re-clocked whole, so it would reach every client in it; give the clients of a client fault processes of their own", f.Kind, shared[0])
			continue
		}
		switch f.Kind {
		case "starve-renewals":
			p.errorf(at, "faults", "starve-renewals holds back a renewer inside locksim; a lock client process's renewer runs in the process, which locksim can only stop whole (use pause)")
		case "clock-jump", "clock-rate":
			if clientClock(f) {
				jump = jump || f.Kind == "clock-jump"
				rate = rate || f.Kind == "clock-rate"
			}
		}
	}
	if s.Process.FakeTime == "" {
		switch {
		case rate:
			s.Process.FakeTime = clients.FakeTimeRate
		case jump:
			s.Process.FakeTime = clients.FakeTimeJump
		}
	}
	if !p.checkCommand(s) {
		return // it cannot start: no probe
	}
	p.checkInRenew(s)
	if s.Process.FakeTime == "" || !p.checkFiles {
		return
	}
	po := clients.ProcessOptions{Command: s.Process.Command, Dir: s.Process.Dir, Env: envList(s.Process.Env), FakeTime: s.Process.FakeTime}
	if err := clients.ProbeFakeTime(po); err != nil {
		at := p.procCommand
		if at == nil {
			at = p.root
		}
		p.errorf(at, "process.command", "client clock faults cannot reach this process: %v", err)
	}
}

// sharedProcesses says, for each simulated process that several clients
// name (clients: {wN: {process: NAME}}), which clients share its lock
// client process ("w1 and w2 share process app"), in the order of their
// first client.
func sharedProcesses(s Scenario) []string {
	var order []string
	by := map[string][]string{}
	for i := range s.Clients {
		c := ClientName(i)
		pn := s.ProcessOf(c)
		if _, ok := by[pn]; !ok {
			order = append(order, pn)
		}
		by[pn] = append(by[pn], c)
	}
	var out []string
	for _, pn := range order {
		if cs := by[pn]; len(cs) > 1 {
			out = append(out, fmt.Sprintf("%s share process %s", andList(cs), pn))
		}
	}
	return out
}

// clientClock reports whether a clock fault targets clients.
func clientClock(f Fault) bool {
	b, err := yaml.Marshal(f.Fault)
	if err != nil {
		return false
	}
	var m map[string]any
	if yaml.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m["clients"]
	return ok
}

// envList is env as NAME=value, sorted.
func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Env is the process block's environment as NAME=value, sorted.
func (pr *Process) EnvList() []string { return envList(pr.Env) }

// nodeTimeout reads node_timeout (multi-node algorithms only).
func (p *parser) nodeTimeout(f field, s Scenario) Duration {
	d, n, st := p.duration(f, "node_timeout")
	if st != good {
		return 0
	}
	switch t := p.traitsOf(s.Algorithm); {
	case d <= 0:
		p.errorf(n, "node_timeout", "must be > 0 (got %s)", describe(n))
	case s.Algorithm != "" && !t.MultiNode && !t.Process && !t.Library:
		p.errorf(n, "node_timeout", "is the per-node timeout of a multi-node algorithm (%s; got %s); a single-node lock's command timeout is library.timeout for an adapter", orList(algo.Where(func(t algo.Traits) bool { return t.MultiNode })), s.Algorithm)
	case s.TTL > 0 && d >= s.TTL:
		p.errorf(n, "node_timeout", "%s is not shorter than the ttl %s: Redlock's per-node timeout must be much smaller than the lease", d, s.TTL)
	default:
		return d
	}
	return 0
}

// writeClients replaces the clients count in a normalised scenario's YAML
// tree with the mapping form, when the scenario has per-client settings.
func writeClients(root *yaml.Node, s Scenario) error {
	if len(s.PerClient) == 0 || root.Kind != yaml.MappingNode {
		return nil
	}
	var m yaml.Node
	m.Kind, m.Tag = yaml.MappingNode, "!!map"
	for i := range s.Clients {
		name := ClientName(i)
		var v yaml.Node
		if err := v.Encode(s.PerClient[name]); err != nil {
			return err
		}
		v.Style = yaml.FlowStyle
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, &v)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "clients" {
			root.Content[i+1] = &m
		}
	}
	return nil
}

// checkDir reports a process dir that does not exist (Load only).
func (p *parser) checkDir(s Scenario) {
	if s.Process == nil || !p.checkFiles || s.Process.Dir == "" {
		return
	}
	if st, err := os.Stat(s.Process.Dir); err != nil || !st.IsDir() {
		p.errorf(p.root, "process.dir", "directory %s does not exist", strconv.Quote(s.Process.Dir))
	}
}
