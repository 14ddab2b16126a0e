package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	node := func(root string) error {
		if _, err := exec.LookPath("node"); err != nil {
			return fmt.Errorf("node is not on PATH")
		}
		if _, err := os.Stat(filepath.Join(root, "adapters", "node", "node_modules", "redlock")); err != nil {
			return fmt.Errorf("adapters/node/node_modules is missing")
		}
		return nil
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
		{Name: "node-redlock", Command: []string{"node", "adapters/node/redlock.js"}, Needs: nodeNeeds, ready: node},
		{Name: "redis-semaphore", Command: []string{"node", "adapters/node/semaphore.js"}, Needs: nodeNeeds, ready: node},
		{Name: "redis-py", Command: []string{"/usr/bin/python3", "adapters/python/redis_py_lock.py"},
			Needs: "Debian's python3-redis (apt-get install python3-redis)", ready: python},
	}
}

// Ready reports nil when the adapter can run from the repository at root,
// else what is missing and how to get it.
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
