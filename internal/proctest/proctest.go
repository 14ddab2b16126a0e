// Package proctest helps the tests that run processes: locksim's own
// binary, and headless Chromium. It is imported by _test files only.
package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// Binary builds the locksim command (cmd/locksim of this module) once per
// test binary and returns its path; the build's directory is removed by
// Cleanup, which the test binary's TestMain calls.
func Binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		main := filepath.Join(filepath.Dir(self), "..", "..", "cmd", "locksim")
		if binDir, binErr = os.MkdirTemp("", "locksim-test-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "locksim")
		if out, err := exec.Command("go", "build", "-o", binPath, main).CombinedOutput(); err != nil {
			binErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if binErr != nil {
		t.Fatalf("build locksim: %v", binErr)
	}
	return binPath
}

// Cleanup removes what Binary built.
func Cleanup() {
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
}

// Chromium returns the headless browser's path (Debian's chromium first);
// without one the test is skipped, except in CI (CI=true), where it fails.
func Chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no headless Chromium found, and CI=true requires the browser test (apt-get install -y chromium)")
	}
	t.Skip("no Chromium found: skipping the browser test (apt-get install -y chromium; required in CI)")
	return ""
}
