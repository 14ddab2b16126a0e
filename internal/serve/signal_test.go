package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/proctest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.Cleanup()
	os.Exit(code)
}

// proc is one process as /proc tells it.
type proc struct {
	pid, ppid int
	comm      string
	zombie    bool
}

func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid ...
	i, j := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if i < 0 || j < i {
		return proc{}, false
	}
	f := strings.Fields(string(b[j+1:]))
	if len(f) < 2 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return proc{pid: pid, ppid: ppid, comm: string(b[i+1 : j]), zombie: f[0] == "Z"}, true
}

// descendants are the living processes below pid: the nodes, sentinels
// and lock client processes a run started.
func descendants(t *testing.T, pid int) []proc {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	parent := map[int]proc{}
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := readProc(n); ok && !p.zombie {
				parent[n] = p
			}
		}
	}
	var out []proc
	for _, p := range parent {
		for q := p; q.ppid > 1; q = parent[q.ppid] {
			if q.ppid == pid {
				out = append(out, p)
				break
			}
			if _, ok := parent[q.ppid]; !ok {
				break
			}
		}
	}
	return out
}

// alive are the processes of ps that still exist (zombies excluded).
func alive(ps []proc) []proc {
	var out []proc
	for _, p := range ps {
		if q, ok := readProc(p.pid); ok && !q.zombie && q.comm == p.comm {
			out = append(out, p)
		}
	}
	return out
}

func countComm(ps []proc, comm string) int {
	n := 0
	for _, p := range ps {
		if strings.HasPrefix(p.comm, comm) {
			n++
		}
	}
	return n
}

// TestNoProcessSurvivesTheServersInterrupt starts `locksim serve`, starts
// a run from a browser session (its nodes, its sentinels, its lock client
// processes — stubborn ones that ignore SIGHUP, SIGINT and SIGTERM), waits
// until they all run, signals the server, and counts what is left: no
// process the run started, no temporary directory the server owned.
func TestNoProcessSurvivesTheServersInterrupt(t *testing.T) {
	for _, tool := range []string{"redis-server", "redis-sentinel", "/usr/bin/python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s missing, and CI=true requires this test", tool)
			}
			t.Skipf("needs %s", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	own := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "scenarios", "gc-pause.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stubborn := strings.Replace(string(src), "algorithm: safe\n", fmt.Sprintf("algorithm: process\nprocess:\n  command: [/usr/bin/python3, internal/clients/testdata/fake_adapter.py, stubborn]\n  dir: %q\n", root), 1)
	stubborn = strings.Replace(strings.Replace(stubborn, "fixed_by: gc-pause-fencing.yaml\n", "", 1), "name: gc-pause\n", "name: stubborn-clients\n", 1)
	if err := os.WriteFile(filepath.Join(own, "stubborn-clients.yaml"), []byte(stubborn), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		scenario string
		pace     string
		sig      syscall.Signal
		code     int
		want     map[string]int // processes of each name that must run first
	}{
		{"SIGINT during gc-pause: its redis-server", "catalogue/gc-pause.yaml", "0.5", syscall.SIGINT, 130, map[string]int{"redis-server": 1}},
		{"SIGTERM during gc-pause: its redis-server", "catalogue/gc-pause.yaml", "0.5", syscall.SIGTERM, 143, map[string]int{"redis-server": 1}},
		{"SIGTERM during a failover scenario: its master, replica and sentinels", "catalogue/failover-lost-lock.yaml", "own", syscall.SIGTERM, 143,
			map[string]int{"redis-server": 2, "redis-sentinel": 3}},
		{"SIGINT during a run of lock client processes that ignore it", "dir1/stubborn-clients.yaml", "1", syscall.SIGINT, 130,
			map[string]int{"redis-server": 1, "python3": 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(proctest.Binary(t), "serve", "--addr", "127.0.0.1:0", "--scenarios", filepath.Join(root, "scenarios"),
				"--dir", own, "--out", out, "--backend", "local")
			cmd.Dir = root
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr := newLog(t, filepath.Join(t.TempDir(), "serve.log"))
			cmd.Stderr = stderr.f
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
			line, err := bufio.NewReader(stdout).ReadString('\n')
			base, ok := strings.CutPrefix(strings.TrimSpace(line), "locksim serve: ")
			if err != nil || !ok {
				t.Fatalf("no address on stdout (%q, %v)\n%s", line, err, stderr.String())
			}
			cl := newClient(t, strings.TrimSuffix(base, "/"))
			if _, resp := cl.start(c.scenario, url.Values{"pace": {c.pace}}); resp.StatusCode != 303 {
				t.Fatalf("start %s: status %d\n%s", c.scenario, resp.StatusCode, stderr.String())
			}
			var kids []proc
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
				kids = descendants(t, cmd.Process.Pid)
				enough := true
				for name, n := range c.want {
					enough = enough && countComm(kids, name) >= n
				}
				if enough && streaming(out) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the run's processes did not all start within a minute: %v\n%s", kids, stderr.String())
				}
			}
			if err := syscall.Kill(cmd.Process.Pid, c.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("locksim serve did not exit within a minute of %v\n%s", c.sig, stderr.String())
			}
			if got := cmd.ProcessState.ExitCode(); got != c.code {
				t.Errorf("exit code %d, want %d\n%s", got, c.code, stderr.String())
			}
			if left := alive(kids); len(left) > 0 {
				t.Errorf("%d of the run's %d processes outlived locksim serve: %v", len(left), len(kids), left)
			}
			// It stopped in order: the run saved its partial history, marked
			// aborted (a parent-death signal alone would kill the nodes but
			// save nothing).
			if res, _ := filepath.Glob(filepath.Join(out, "*", "*", "results.json")); len(res) != 1 {
				t.Errorf("%d reports in --out, want the interrupted run's\n%s", len(res), stderr.String())
			} else if b, _ := os.ReadFile(res[0]); !strings.Contains(string(b), `"aborted": true`) {
				t.Errorf("the report is not marked aborted: %.300s", b)
			}
			dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "locksim-*"))
			for _, d := range dirs {
				if b, err := os.ReadFile(filepath.Join(d, "owner.pid")); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(cmd.Process.Pid) {
					t.Errorf("temporary directory %s left behind", d)
				}
			}
		})
	}
}

// streaming reports whether a run under out has begun its workload: its
// history.jsonl has its header.
func streaming(out string) bool {
	files, _ := filepath.Glob(filepath.Join(out, "*", "*", "history.jsonl"))
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > 0 {
			return true
		}
	}
	return false
}

// logFile is a process's stderr, kept in a file the test reads while the
// process writes it.
type logFile struct {
	f    *os.File
	path string
}

func newLog(t *testing.T, path string) logFile {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return logFile{f: f, path: path}
}

func (l logFile) String() string {
	b, _ := os.ReadFile(l.path)
	return string(b)
}
