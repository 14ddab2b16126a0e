package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// markedProcesses lists the processes whose command line holds marker.
func markedProcesses(t *testing.T, marker string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), marker) {
			out = append(out, pid)
		}
	}
	return out
}

// processRun starts the binary on gc-pause in real time with its clients
// run as stubborn lock client processes (testdata/fake_adapter.py: they
// ignore SIGHUP, SIGINT and SIGTERM and outlive their stdin), their
// command lines carrying marker, and waits until both run.
func processRun(t *testing.T, marker string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "scenarios", "gc-pause.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.Replace(string(src), "algorithm: safe\n", fmt.Sprintf(`algorithm: process
process:
  command: [/usr/bin/python3, internal/clients/testdata/fake_adapter.py, stubborn, %s]
  dir: %q
`, marker, root), 1)
	sc = strings.Replace(sc, "fixed_by: gc-pause-fencing.yaml\n", "", 1)
	dir := t.TempDir()
	file := filepath.Join(dir, "marked.yaml")
	if err := os.WriteFile(file, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(locksimBinary(t), "run", file, "--time-scale", "1", "--backend", "local", "--out", filepath.Join(dir, "out"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	for deadline := time.Now().Add(3 * settle); len(markedProcesses(t, marker)) < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("the two lock client processes did not start within %v\n%s", 3*settle, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cmd, &stderr
}

func TestNoLockClientProcessOutlivesLocksim(t *testing.T) {
	tests := []struct {
		name string
		sig  syscall.Signal
	}{
		{"SIGINT winds the run down and ends every client process", syscall.SIGINT},
		{"SIGTERM winds the run down and ends every client process", syscall.SIGTERM},
		{"SIGKILL leaves no client process behind (parent-death signal)", syscall.SIGKILL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marker := fmt.Sprintf("locksim-test-marker-%d-%d", os.Getpid(), tt.sig)
			cmd, stderr := processRun(t, marker)
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			for deadline := time.Now().Add(settle); ; {
				left := markedProcesses(t, marker)
				if len(left) == 0 {
					return
				}
				if time.Now().After(deadline) {
					for _, p := range left {
						_ = syscall.Kill(p, syscall.SIGKILL) // ours: the marker is this test's
					}
					t.Fatalf("%d lock client processes survived locksim's %v: %v\n%s", len(left), tt.sig, left, stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
