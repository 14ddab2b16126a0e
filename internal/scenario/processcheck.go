package scenario

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/history"
)

// commandNode is the YAML node of process.command[i], or the command (or
// the file's root) when it is not known.
func (p *parser) commandNode(i int) *yaml.Node {
	if c := p.procCommand; c != nil {
		if c.Kind == yaml.SequenceNode && i < len(c.Content) {
			return c.Content[i]
		}
		return c
	}
	return p.root
}

// checkCommand reports a process command that cannot run (Load only): a
// program that is not on PATH, or a path to one that does not exist or
// is not executable, and an interpreter's script (node's, python's first
// argument that is not a flag) that does not exist. It warns when a
// Python interpreter lacks a module its script imports. It reports
// whether the command can be started, so that the probes that start it
// run only then.
func (p *parser) checkCommand(s *Scenario) bool {
	po := s.Process
	if !p.checkFiles || po == nil || len(po.Command) == 0 {
		return p.checkFiles
	}
	if st, err := os.Stat(po.Dir); po.Dir != "" && (err != nil || !st.IsDir()) {
		return false // checkDir says so
	}
	prog, err := resolveProgram(po.Command[0], po.Dir)
	if err != nil {
		p.errorf(p.commandNode(0), "process.command[0]", "%v", err)
		return false
	}
	if a, root, ok := clients.ShippedAdapter(po.Command, po.Dir); ok {
		if err := a.Ready(root); err != nil {
			p.errorf(p.commandNode(0), "process.command", "%v", err) // names what installs it
			return false
		}
	}
	script, at := interpreterScript(po.Command)
	if script == "" {
		return true
	}
	path := script
	if !filepath.IsAbs(path) {
		path = filepath.Join(po.Dir, script)
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		p.errorf(p.commandNode(at), fmt.Sprintf("process.command[%d]", at), "script %s does not exist (looked for %s, relative to process.dir)", script, path)
		return false
	}
	if isPython(po.Command[0]) {
		p.pythonModules(po, prog, path)
	}
	return true
}

// resolveProgram finds the program of a command as exec does: a name
// without a slash on PATH, a path relative to dir; an error says why it
// cannot run.
func resolveProgram(prog, dir string) (string, error) {
	if !strings.Contains(prog, "/") {
		found, err := exec.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("program %s is not on PATH", prog)
		}
		return found, nil
	}
	path := prog
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, prog)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("program %s does not exist (looked for %s)", prog, path)
	case st.IsDir():
		return "", fmt.Errorf("program %s is a directory", path)
	case st.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("program %s is not executable (mode %v)", path, st.Mode().Perm())
	}
	return path, nil
}

// interpreterScript is the script a node or python command runs (its
// first argument that is not a flag) and its position; "" for another
// program, or an interpreter given code inline (-c, -e, -m).
func interpreterScript(cmd []string) (string, int) {
	base := filepath.Base(cmd[0])
	if !isPython(cmd[0]) && base != "node" && base != "nodejs" {
		return "", 0
	}
	for i := 1; i < len(cmd); i++ {
		a := cmd[i]
		switch {
		case a == "-c" || a == "-e" || a == "-m" || a == "--eval" || a == "-p" || a == "--print":
			return "", 0
		case strings.HasPrefix(a, "-"):
			continue
		}
		return a, i
	}
	return "", 0
}

var pythonRE = regexp.MustCompile(`^python[0-9.]*$`)

func isPython(prog string) bool { return pythonRE.MatchString(filepath.Base(prog)) }

// importRE matches a top-level import statement: its first module name.
var importRE = regexp.MustCompile(`^(?:import|from)\s+([A-Za-z_][A-Za-z0-9_]*)`)

// pythonModules warns when the interpreter prog cannot import a module the
// script at path imports at its top level (a python3 on PATH other than
// the one the adapter was made for: Debian's /usr/bin/python3 with
// python3-redis).
func (p *parser) pythonModules(po *Process, prog, path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	var mods []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := importRE.FindStringSubmatch(sc.Text()); m != nil && !slices.Contains(mods, m[1]) && m[1] != "__future__" {
			mods = append(mods, m[1])
		}
	}
	if len(mods) == 0 {
		return
	}
	for _, m := range missingModules(prog, po.Dir, po.EnvList(), mods) {
		p.warns = append(p.warns, &FieldError{File: p.file, Line: p.commandNode(0).Line, Column: p.commandNode(0).Column, Path: "process.command[0]",
			Msg: fmt.Sprintf("%s (%s) cannot import %s, which %s imports: the run will fail when the process starts; name an interpreter that has it (Debian's /usr/bin/python3 with apt-get install python3-%s) or install it for this one", po.Command[0], prog, m, filepath.Base(path), m)})
	}
}

// checkInRenew refuses a pause at the in-renew point for a lock client
// process that sends no renewed events (Load only): its library renews
// inside the process, where locksim sees nothing, so the pause could
// never fire. The process is started once, as a probe, to read its hello.
func (p *parser) checkInRenew(s *Scenario) {
	po := s.Process
	if !p.checkFiles || po == nil {
		return
	}
	for i, f := range s.Faults {
		if f.When.Kind != history.TriggerPoint || f.When.Point != history.PointInRenew {
			continue
		}
		at, path := p.root, fmt.Sprintf("faults[%d].point", i)
		if f.Line > 0 {
			at = &yaml.Node{Line: f.Line, Column: f.Column}
		}
		h, err := clients.ProbeHello(clients.ProcessOptions{Command: po.Command, Dir: po.Dir, Env: po.EnvList()})
		switch {
		case err != nil:
			p.errorf(at, path, "point in-renew: the lock client process could not be asked whether its library renews on its own: %v", err)
		case !h.Renews():
			p.errorf(at, path, "point in-renew never fires for %s: a lock client process's renewals run inside it, and its hello (protocol %d, events %v) lists no renewed event (protocol version 2, docs/protocol.md); pause it at a time (at:) instead, or send renewed events from the adapter", h.Name, h.Protocol, h.Events)
		}
		return
	}
}

// moduleCache remembers which modules each interpreter lacks (Load runs
// for one file several times in a suite).
var moduleCache struct {
	sync.Mutex
	m map[string][]string
}

// missingModules lists the modules of mods that the interpreter prog,
// run in dir with env, cannot import; none when it cannot be asked.
func missingModules(prog, dir string, env, mods []string) []string {
	key := fmt.Sprintf("%s|%s|%q|%q", prog, dir, env, mods)
	moduleCache.Lock()
	defer moduleCache.Unlock()
	if out, ok := moduleCache.m[key]; ok {
		return out
	}
	const find = "import importlib.util, sys\nfor m in sys.argv[1:]:\n    if importlib.util.find_spec(m) is None: print(m)"
	cmd := exec.Command(prog, append([]string{"-c", find}, mods...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var missing []string
	if out, err := cmd.Output(); err == nil { // an interpreter that fails itself: the run says how
		missing = strings.Fields(string(out))
	}
	if moduleCache.m == nil {
		moduleCache.m = map[string][]string{}
	}
	moduleCache.m[key] = missing
	return missing
}
