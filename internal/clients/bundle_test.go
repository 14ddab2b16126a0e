package clients_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTheNodeAdaptersStartFromTheirBundleOnlyWhileItIsFresh runs a copy
// of adapters/node: `node bundle.js` (make adapters) writes each adapter
// as one file under dist/, and an adapter hands over to it only while it
// is newer than every source (adapters/node/bundle.js). NODE_DEBUG=module
// tells which files Node loaded: ioredis's own files only from sources.
func TestTheNodeAdaptersStartFromTheirBundleOnlyWhileItIsFresh(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "adapters", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		needed(t, "node: %v", err)
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules", "esbuild")); err != nil {
		needed(t, "esbuild is not installed (make adapters): %v", err)
	}
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(src, "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no adapters in %s (%v)", src, err)
	}
	for _, f := range append(files, filepath.Join(src, "package.json")) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	// The copies are newer than the installed packages' lock: build after.
	if out, err := runNode(dir, nil, "bundle.js"); err != nil {
		t.Fatalf("node bundle.js: %v\n%s", err, out)
	}
	loadsIoredis := func(t *testing.T, env []string, adapter string) bool {
		t.Helper()
		out, err := runNode(dir, append(env, "NODE_DEBUG=module"), adapter)
		if err != nil {
			t.Fatalf("node %s: %v\n%s", adapter, err, lastLines(out, 5))
		}
		return strings.Contains(out, `"ioredis"`)
	}
	for _, adapter := range []string{"redlock.js", "semaphore.js"} {
		t.Run(adapter+" starts from its fresh bundle, without loading a package file", func(t *testing.T) {
			if loadsIoredis(t, nil, adapter) {
				t.Errorf("%s loaded ioredis from node_modules: its fresh bundle was not used", adapter)
			}
		})
		t.Run(adapter+" starts from its sources with LOCKSIM_NODE_BUNDLE=0", func(t *testing.T) {
			if !loadsIoredis(t, []string{"LOCKSIM_NODE_BUNDLE=0"}, adapter) {
				t.Errorf("%s did not load ioredis: it ran its bundle", adapter)
			}
		})
	}
	// An edit after the build: the sources run until the next build.
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(filepath.Join(dir, "redis.js"), later, later); err != nil {
		t.Fatal(err)
	}
	t.Run("an adapter whose source changed after the build starts from its sources", func(t *testing.T) {
		if !loadsIoredis(t, nil, "redlock.js") {
			t.Error("redlock.js ran its bundle, older than redis.js")
		}
	})
}

// runNode runs node with args in dir, stdin closed (the adapter ends at
// once), and returns its combined output.
func runNode(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// needed skips the test, or fails it under CI=true, where nothing is
// skipped.
func needed(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: adapter tests are not skipped)", args...)
	}
	t.Skipf("skipped: "+format, args...)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
