package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startProc starts a long-running stand-in process in its own process
// group, kills the group when the test ends and waits until addr accepts
// connections.
func startProc(t *testing.T, addr string, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s on %s did not come up: %v", name, addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// externalStack starts five redis-server processes and a toxiproxy server
// built from the module (stand-ins for docker-compose.yml's containers)
// and writes a --cluster file whose pause/resume commands are kill
// -STOP/-CONT of the node's pid (argument lists, no shell).
func externalStack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tp := filepath.Join(dir, "toxiproxy-server")
	if out, err := exec.Command("go", "build", "-o", tp, "github.com/Shopify/toxiproxy/v2/cmd/server").CombinedOutput(); err != nil {
		t.Fatalf("build toxiproxy server: %v\n%s", err, out)
	}
	var b strings.Builder
	apiPort := freePort(t)
	startProc(t, fmt.Sprintf("127.0.0.1:%d", apiPort), tp, "-host", "127.0.0.1", "-port", strconv.Itoa(apiPort))
	fmt.Fprintf(&b, "cluster:\n  toxiproxy: 127.0.0.1:%d\n  proxy_host: 127.0.0.1\n  nodes:\n", apiPort)
	for i := 1; i <= 5; i++ {
		port := freePort(t)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		nd := filepath.Join(dir, fmt.Sprintf("redis-%d", i))
		if err := os.Mkdir(nd, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := startProc(t, addr, "redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--dir", nd, "--hz", "100")
		pid := strconv.Itoa(cmd.Process.Pid)
		fmt.Fprintf(&b, "    - addr: %s\n      pause: [kill, -STOP, %q]\n      resume: [kill, -CONT, %q]\n", addr, pid, pid)
	}
	file := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runVerdicts runs locksim with args plus --json and returns scenario →
// verdict and scenario → checker verdicts.
func runVerdicts(t *testing.T, bin string, args ...string) map[string]string {
	t.Helper()
	// --why=false: the verdicts are compared, not the experiments.
	cmd := exec.Command(bin, append(append([]string{"run"}, args...), "--json", "--why=false", "--out", t.TempDir())...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Scenario string            `json:"scenario"`
			Verdict  string            `json:"verdict"`
			Backend  string            `json:"backend"`
			Checkers map[string]string `json:"checkers"`
			Error    string            `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("bad --json line %q: %v\nstderr:\n%s", line, err, stderr.String())
		}
		if r.Error != "" {
			t.Fatalf("%s: %s\nstderr:\n%s", r.Scenario, r.Error, stderr.String())
		}
		cs, _ := json.Marshal(r.Checkers)
		got[r.Scenario] = r.Verdict + " " + string(cs)
		got[r.Scenario+"/backend"] = r.Backend
	}
	return got
}

// TestExternalBackendSameVerdicts runs the gc-pause and Redlock clock-jump
// scenarios with --backend external against stand-in processes and checks
// that every checker gives the verdict it gives in local mode.
func TestExternalBackendSameVerdicts(t *testing.T) {
	needRedis(t)
	if testing.Short() {
		t.Skip("builds toxiproxy and runs four scenarios")
	}
	bin := buildLocksimT(t)
	file := externalStack(t)
	scs := []string{"../../scenarios/gc-pause.yaml", "../../scenarios/redlock-clock-jump.yaml"}
	var local, ext map[string]string
	// A run that lost its compressed time or missed a step on a loaded
	// machine has coverage unknown: such a pair proves nothing about the
	// backend, and runs again (at most five times in all).
	for attempt := 1; attempt <= 5; attempt++ {
		local = runVerdicts(t, bin, scs...)
		ext = runVerdicts(t, bin, append(scs, "--backend", "external", "--cluster", file)...)
		busy := false
		for k, v := range local {
			if v != ext[k] && (strings.Contains(v, `"coverage":"unknown"`) || strings.Contains(ext[k], `"coverage":"unknown"`)) {
				busy = true
			}
		}
		if !busy {
			break
		}
		t.Logf("attempt %d: a run's coverage was unknown (a busy machine); running both again", attempt)
	}
	for _, name := range []string{"gc-pause", "redlock-clock-jump"} {
		if local[name] == "" || local[name] != ext[name] {
			t.Errorf("%s: external %q, local %q", name, ext[name], local[name])
		}
		if ext[name+"/backend"] != "external" {
			t.Errorf("%s: backend %q in external mode", name, ext[name+"/backend"])
		}
	}
}

func buildLocksimT(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "locksim")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/locksim").CombinedOutput(); err != nil {
		t.Fatalf("build locksim: %v\n%s", err, out)
	}
	return bin
}
