package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childServers lists the redis-server and redis-sentinel processes whose
// parent is pid, by name.
func childServers(pid int) map[string][]int {
	out := map[string][]int{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			continue
		}
		comm := string(b[open+1 : end])
		f := strings.Fields(string(b[end+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(pid) || f[0] == "Z" {
			continue
		}
		if comm == "redis-server" || comm == "redis-sentinel" {
			n, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out[comm] = append(out[comm], n)
		}
	}
	return out
}

// TestNoRedisServerOrSentinelSurvivesASignal runs a Sentinel scenario (a
// master, a replica and three sentinels), counts its processes once they
// all run, signals locksim and counts what is left: nothing, whether
// locksim winds down (SIGINT, SIGTERM) or dies at once (SIGKILL: the
// parent-death signal).
func TestNoRedisServerOrSentinelSurvivesASignal(t *testing.T) {
	for _, bin := range []string{"redis-server", "redis-sentinel"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required when CI=true: %v", bin, err)
			}
			t.Skipf("needs %s", bin)
		}
	}
	tests := []struct {
		name string
		sig  syscall.Signal
		want int // exit code; -1 for killed
	}{
		{"Ctrl-C stops every redis-server and redis-sentinel and exits 130", syscall.SIGINT, 130},
		{"SIGTERM stops every redis-server and redis-sentinel and exits 143", syscall.SIGTERM, 143},
		{"a SIGKILLed locksim takes every redis-server and redis-sentinel along", syscall.SIGKILL, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Real time: the run lasts a minute, time enough to signal it.
			cmd := exec.Command(locksimBinary(t), "run", "../../scenarios/failover-lost-lock.yaml", "--time-scale", "1",
				"--backend", "local", "--out", t.TempDir(), "--json")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			var kids map[string][]int
			for deadline := time.Now().Add(settle); ; time.Sleep(50 * time.Millisecond) {
				kids = childServers(cmd.Process.Pid)
				if len(kids["redis-server"]) == 2 && len(kids["redis-sentinel"]) == 3 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("want 2 redis-server and 3 redis-sentinel children within %v, have %v\n%s", settle, kids, stderr.String())
				}
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			code := waitExit(t, cmd, &stderr)
			if tt.want >= 0 && code != tt.want {
				t.Errorf("exit %d, want %d\n%s", code, tt.want, stderr.String())
			}
			all := append(append([]int(nil), kids["redis-server"]...), kids["redis-sentinel"]...)
			deadline := time.Now().Add(settle) // the parent-death signal is immediate; a loaded machine reaps late
			for len(alive(all)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if left := alive(all); len(left) > 0 {
				t.Errorf("of %d redis-server and %d redis-sentinel processes, %v outlived locksim\n%s",
					len(kids["redis-server"]), len(kids["redis-sentinel"]), left, stderr.String())
			}
			if tt.sig != syscall.SIGKILL {
				if left := ownedTempDirs(cmd.Process.Pid); len(left) > 0 {
					t.Errorf("temp dirs left behind: %v", left)
				}
			}
		})
	}
}
