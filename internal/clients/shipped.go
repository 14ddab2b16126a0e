package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Adapter is one lock client process shipped in adapters/: the command
// that runs it (relative to the repository root) and what it needs.
type Adapter struct {
	// Name is how tests and scenarios call it ("node-redlock").
	Name string
	// Command runs it from the repository root.
	Command []string
	// Needs says what must be installed, and how to get it.
	Needs string
	// ready reports nil when what it needs is there.
	ready func(root string) error
}

// Adapters are the lock client processes shipped in adapters/.
func Adapters() []Adapter {
	// node checks for Node.js and the npm package (or npm alias) that the
	// adapter loads.
	node := func(pkg string) func(root string) error {
		return func(root string) error {
			if _, err := exec.LookPath("node"); err != nil {
				return fmt.Errorf("node is not on PATH")
			}
			if _, err := os.Stat(filepath.Join(root, "adapters", "node", "node_modules", pkg)); err != nil {
				return fmt.Errorf("adapters/node/node_modules/%s is missing", pkg)
			}
			return nil
		}
	}
	python := func(string) error {
		out, err := exec.Command("/usr/bin/python3", "-c", "import redis").CombinedOutput()
		if err != nil {
			return fmt.Errorf("/usr/bin/python3 cannot import redis: %s", firstLineOf(string(out)))
		}
		return nil
	}
	const nodeNeeds = "Node.js ≥ 18 and `npm ci --prefix adapters/node` (make adapters)"
	return []Adapter{
		{Name: "node-redlock", Command: []string{"node", "adapters/node/redlock.js"}, Needs: nodeNeeds, ready: node("redlock")},
		// The release that dropped the validity check (BR-17), pinned as
		// the npm alias redlock-5.
		{Name: "node-redlock 5.0.0-beta.2", Command: []string{"node", "adapters/node/redlock.js", "5.0.0-beta.2"}, Needs: nodeNeeds, ready: node("redlock-5")},
		{Name: "redis-semaphore", Command: []string{"node", "adapters/node/semaphore.js"}, Needs: nodeNeeds, ready: node("redis-semaphore")},
		// #175's pair: 5.3.0's refresh sets an expired key again, 5.3.1's
		// does not.
		{Name: "redis-semaphore 5.3.1", Command: []string{"node", "adapters/node/semaphore.js", "5.3.1"}, Needs: nodeNeeds, ready: node("redis-semaphore-531")},
		{Name: "redis-semaphore 5.3.0", Command: []string{"node", "adapters/node/semaphore.js", "5.3.0"}, Needs: nodeNeeds, ready: node("redis-semaphore-530")},
		// BR-07's releases: 4.1.0 answered #24 (onLockLost, isAcquired);
		// 3.2.1 came before it (a lost lock is an unhandled rejection).
		{Name: "redis-semaphore 4.1.0", Command: []string{"node", "adapters/node/semaphore.js", "4.1.0"}, Needs: nodeNeeds, ready: node("redis-semaphore-4")},
		{Name: "redis-semaphore 3.2.1", Command: []string{"node", "--unhandled-rejections=warn", "adapters/node/semaphore.js", "3.2.1"}, Needs: nodeNeeds, ready: node("redis-semaphore-3")},
		{Name: "redis-py", Command: []string{"/usr/bin/python3", "adapters/python/redis_py_lock.py"},
			Needs: "Debian's python3-redis (apt-get install python3-redis)", ready: python},
	}
}

// Ready reports nil when the adapter can run from the repository at root,
// else what is missing and how to get it (the command that installs it).
func (a Adapter) Ready(root string) error {
	if err := a.ready(root); err != nil {
		return fmt.Errorf("%s adapter: %v; needs %s", a.Name, err, a.Needs)
	}
	return nil
}

func firstLineOf(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

// ShippedAdapter finds the shipped adapter a process command runs, dir its
// working directory: the one whose script, at the same place under
// adapters/ of some repository root, takes the same arguments. It returns
// the adapter and that root; false for a command of another program.
func ShippedAdapter(command []string, dir string) (Adapter, string, bool) {
	script, args, ok := scriptOf(command)
	if !ok {
		return Adapter{}, "", false
	}
	if !filepath.IsAbs(script) {
		script = filepath.Join(dir, script)
	}
	for _, a := range Adapters() {
		own, ownArgs, ok := scriptOf(a.Command)
		if !ok || !slices.Equal(args, ownArgs) || !strings.HasSuffix(script, string(filepath.Separator)+own) {
			continue
		}
		return a, strings.TrimSuffix(script, string(filepath.Separator)+own), true
	}
	return Adapter{}, "", false
}

// scriptOf is the script an interpreter's command runs (its first
// argument that is not a flag) and the arguments after it.
func scriptOf(command []string) (string, []string, bool) {
	for i := 1; i < len(command); i++ {
		if !strings.HasPrefix(command[i], "-") {
			return command[i], command[i+1:], true
		}
	}
	return "", nil, false
}

// ReleaseChange is what a release of a library that a shipped adapter
// loads changes against another release of it, as a lesson page's "what
// to change" shows it for a pair of runs that differ in that release
// alone: Note is the message key of its one line (the report's message
// tables hold it in every language) and Code its lines, quoted from the
// two releases' sources, each led by "-" (From's), "+" (To's) or " "
// (both's).
type ReleaseChange struct {
	// Script is the adapter's script (adapters/node/semaphore.js); From
	// and To are the arguments that pick the two releases.
	Script, From, To string
	Note             string
	Code             []string
}

// ReleaseChanges are the release pairs the shipped scenarios compare,
// checked against the libraries' own sources in adapters/node/node_modules.
var ReleaseChanges = []ReleaseChange{
	// redis-semaphore #24 (BR-07): 3.2.1's _processRefresh (lib/RedisMutex.js)
	// throws inside its setInterval callback; 4.1.0's (lib/Lock.js) tells
	// the caller.
	{Script: "adapters/node/semaphore.js", From: "3.2.1", To: "4.1.0", Note: "lib.semaphore.onlocklost", Code: []string{
		" const refreshed = await this._refresh();",
		" if (!refreshed) {",
		"-    throw new LostLockError(`Lost ${this._kind} for key ${this._key}`);",
		"+    this._acquired = false;",
		"+    this._stopRefresh();",
		"+    this._onLockLost(new LostLockError(`Lost ${this._kind} for key ${this._key}`));",
		" }",
		"-} catch (err) {",
		"-    this._stopRefresh();",
		"-    throw err;",
		"-}",
	}},
	// redis-semaphore #175: 5.3.1's refresh script (lib/mutex/refresh.js)
	// lost the branch that SETs a missing key again.
	{Script: "adapters/node/semaphore.js", From: "5.3.0", To: "5.3.1", Note: "lib.semaphore.noreset", Code: []string{
		" if value == identifier then",
		"   redis.call('pexpire', key, lockTimeout)",
		"   return 1",
		"-elseif value == false then",
		"-  redis.call('set', key, identifier)",
		"-  redis.call('pexpire', key, lockTimeout)",
		"-  return 1",
		" end",
		" return 0",
	}},
	// node-redlock #296 (BR-17): 5.0.0-beta.2's acquire (dist/cjs/index.js)
	// returns the lock once the quorum said yes; 4.2.0's _lock
	// (redlock.js) also compares its end with the clock.
	{Script: "adapters/node/redlock.js", From: "5.0.0-beta.2", To: "4.2.0", Note: "lib.redlock.validity", Code: []string{
		"-return new Lock(this, resources, value, attempts, start + duration - drift);",
		"+const lock = new Lock(self, resource, value, start + ttl - drift, attempts, retryCount - attempts);",
		"+if (votes >= quorum && lock.expiration > Date.now())",
		"+    return resolve(lock);",
		"+return lock.unlock(function(){ … });",
	}},
}

// ReleaseChangeOf is the ReleaseChange between the releases two process
// commands run (each its adapter's script, then the argument that picks
// the release); false when they are not two releases of one shipped pair.
func ReleaseChangeOf(from, to []string) (ReleaseChange, bool) {
	fs, fa, ok1 := scriptOf(from)
	ts, ta, ok2 := scriptOf(to)
	if !ok1 || !ok2 || len(fa) != 1 || len(ta) != 1 || filepath.ToSlash(fs) != filepath.ToSlash(ts) {
		return ReleaseChange{}, false
	}
	for _, c := range ReleaseChanges {
		if strings.HasSuffix("/"+filepath.ToSlash(fs), "/"+c.Script) && fa[0] == c.From && ta[0] == c.To {
			return c, true
		}
	}
	return ReleaseChange{}, false
}
