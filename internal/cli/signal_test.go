package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/proctest"
	"github.com/redis/go-redis/v9"
)

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.Cleanup()
	if shippedDir != "" {
		_ = os.RemoveAll(shippedDir)
	}
	os.Exit(code)
}

// locksimBinary builds the locksim command once per test binary.
func locksimBinary(t *testing.T) string { return proctest.Binary(t) }

// childRedis lists the redis-server processes whose parent is pid.
func childRedis(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	for _, p := range redisPids(t) {
		b, err := os.ReadFile(filepath.Join("/proc", p, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			n, _ := strconv.Atoi(p)
			out = append(out, n)
		}
	}
	return out
}

// alive reports which of pids still exist (zombies excluded).
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 0 && f[0] != "Z" {
			out = append(out, p)
		}
	}
	return out
}

// ownedTempDirs lists os.TempDir()/locksim-* dirs whose owner.pid is pid.
func ownedTempDirs(pid int) []string {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "locksim-*"))
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "owner.pid"))
		if err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(pid) {
			out = append(out, d)
		}
	}
	return out
}

// slowRun starts the binary on gc-pause at time scale 2 (a minute of wall
// time) and waits until its redis-server runs and the workload has begun:
// a client holds the invoice's lock key. (A fixed sleep instead would race
// a loaded machine's start-up: a signal during set-up interrupts no
// workload.)
func slowRun(t *testing.T, out string) (*exec.Cmd, *lockedBuffer, *lockedBuffer, []int) {
	t.Helper()
	// --why=false: the run alone, so that the node watched below is its
	// own and not one of the experiments started beside it.
	cmd := exec.Command(locksimBinary(t), "run", "../../scenarios/gc-pause.yaml", "--time-scale", "2", "--backend", "local", "--out", out, "--json", "--why=false")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(settle)
	var kids []int
	for len(kids) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		kids = childRedis(t, cmd.Process.Pid)
	}
	if len(kids) == 0 {
		t.Fatalf("no redis-server child appeared within %v", settle)
	}
	rc := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + redisPort(t, kids[0]), MaxRetries: -1, DisableIdentity: true})
	defer rc.Close()
	for {
		n, err := rc.Exists(context.Background(), "invoice-1").Result()
		if err == nil && n == 1 {
			return cmd, &stdout, &stderr, kids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workload took no lock within %v (last: %d, %v)", settle, n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settle bounds a wait for something that must happen however loaded the
// machine is.
const settle = 10 * time.Second

// redisPort is the port of the redis-server process pid, from its command
// line: "--port N", or the "127.0.0.1:N" redis-server writes into its
// process title.
func redisPort(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(strings.ReplaceAll(string(b), "\x00", " "))
	for i, a := range args {
		if a == "--port" && i+1 < len(args) {
			return args[i+1]
		}
		if port, ok := strings.CutPrefix(a, "127.0.0.1:"); ok {
			return port
		}
	}
	t.Fatalf("no port in redis-server %d's command line %q", pid, args)
	return ""
}

// lockedBuffer is a bytes.Buffer that a test may read while the process
// it belongs to still writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// waitFor waits up to settle for text in b.
func waitFor(t *testing.T, b *lockedBuffer, text string) {
	t.Helper()
	for deadline := time.Now().Add(settle); !strings.Contains(b.String(), text); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %v:\n%s", text, settle, b.String())
		}
	}
}

// waitExit waits for cmd and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd, stderr *lockedBuffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("locksim did not exit within 20 s of the signal\n%s", stderr.String())
	}
	return cmd.ProcessState.ExitCode()
}

func TestAnInterruptedRunSavesItsPartialHistoryAndLeavesNothingBehind(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	// A signal to send: to the process, or to its process group, after a
	// pause.
	type send struct {
		sig     syscall.Signal
		toGroup bool
		after   time.Duration
		// acked: sent once locksim has logged the interrupt before it
		// (a signal sent while the one before is still pending in the
		// kernel merges with it, as a loaded machine can make happen).
		acked bool
	}
	tests := []struct {
		name    string
		signals []send
		want    int
		report  bool // a report of the partial history is written
	}{
		{"Ctrl-C exits 130 with an aborted report", []send{{syscall.SIGINT, false, 0, false}}, 130, true},
		{"SIGTERM exits 143 with an aborted report", []send{{syscall.SIGTERM, false, 0, false}}, 143, true},
		// 10 ms apart: signals sent closer than the runtime takes to
		// deliver the first are merged into one by the kernel.
		{"two SIGINTs back to back, to the process and its group as timeout -s INT sends them, are one interrupt with an aborted report",
			[]send{{syscall.SIGINT, false, 0, false}, {syscall.SIGINT, true, 10 * time.Millisecond, false}}, 130, true},
		// An interrupted gc-pause run saves its report in well under the
		// second that makes a repeat the same interrupt: it is frozen
		// (SIGSTOP) as soon as it has taken the first, and the later
		// Ctrl-C is waiting when it goes on (SIGCONT).
		{"a second Ctrl-C more than a second after the first exits at once and still kills the nodes",
			[]send{{syscall.SIGINT, false, 0, false}, {syscall.SIGSTOP, false, 0, true},
				{syscall.SIGINT, false, sameInterrupt + 100*time.Millisecond, false}, {syscall.SIGCONT, false, 0, false}}, 130, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			cmd, stdout, stderr, kids := slowRun(t, out)
			for _, s := range tt.signals {
				time.Sleep(s.after)
				if s.acked {
					waitFor(t, stderr, "interrupted: stopping the workload")
				}
				pid := cmd.Process.Pid
				if s.toGroup {
					pid = -pid
				}
				if err := syscall.Kill(pid, s.sig); err != nil {
					t.Fatal(err)
				}
			}
			code := waitExit(t, cmd, stderr)
			if code != tt.want {
				t.Errorf("exit %d, want %d\n%s", code, tt.want, stderr.String())
			}
			if left := alive(kids); len(left) > 0 {
				t.Errorf("redis-server %v still running after locksim exited", left)
			}
			if left := ownedTempDirs(cmd.Process.Pid); len(left) > 0 {
				t.Errorf("temp dirs left behind: %v", left)
			}
			if !tt.report {
				if !strings.Contains(stderr.String(), "killing every node and exiting now") {
					t.Errorf("the second interrupt did not end the run at once:\n%s", stderr.String())
				}
				return
			}
			for _, bad := range []string{"exiting now", "cluster is closed", "nothing to save"} {
				if strings.Contains(stderr.String(), bad) {
					t.Errorf("stderr says %q:\n%s", bad, stderr.String())
				}
			}
			var line struct {
				Aborted   bool   `json:"aborted"`
				ReportDir string `json:"report_dir"`
				Verdict   string `json:"verdict"`
				ExitCode  int    `json:"exit_code"`
			}
			if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &line); err != nil {
				t.Fatalf("stdout is not one results line: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			if !line.Aborted || line.ExitCode != tt.want || line.Verdict == "valid" {
				t.Errorf("results line %+v, want aborted, exit %d, no valid verdict", line, tt.want)
			}
			b, err := os.ReadFile(filepath.Join(line.ReportDir, "results.json"))
			if err != nil || !bytes.Contains(b, []byte(`"aborted": true`)) {
				t.Errorf("results.json not marked aborted (%v):\n%s", err, b)
			}
			if st, err := os.Stat(filepath.Join(line.ReportDir, "history.jsonl")); err != nil || st.Size() == 0 {
				t.Errorf("partial history not saved: %v", err)
			}
			var cs bytes.Buffer
			if code := realMain([]string{"check", line.ReportDir, "--json"}, &cs, &bytes.Buffer{}); code == exitInternal || code == exitUsage || !bytes.Contains(cs.Bytes(), []byte(`"aborted":true`)) || !bytes.Contains(cs.Bytes(), []byte(`"verdict":"`+line.Verdict+`"`)) {
				t.Errorf("check of the aborted report: exit %d, %s", code, cs.String())
			}
		})
	}
}

func TestAfterSIGKILLTheNodesDieAndTheNextRunStartsCleanly(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	out := t.TempDir()
	cmd, _, stderr, kids := slowRun(t, out)
	pid := cmd.Process.Pid
	// Kill once the stream (written every 100 ms) holds w1's grant.
	for deadline := time.Now().Add(settle); ; time.Sleep(20 * time.Millisecond) {
		if w1GrantedOnDisk(out) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the streamed history never showed w1's grant within %v", settle)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	t.Run("the streamed history holds what the run did and check says it was cut off", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(out, "gc-pause", "*", "history.jsonl"))
		if len(files) != 1 {
			t.Fatalf("history files %v, want the one the killed run streamed", files)
		}
		h, err := history.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if !h.Cut || !w1GrantedOnDisk(out) {
			t.Fatalf("cut %v in %d ops: want a cut history holding w1's grant", h.Cut, len(h.Ops))
		}
		check := exec.Command(locksimBinary(t), "check", filepath.Dir(files[0]))
		b, _ := check.CombinedOutput()
		if code := check.ProcessState.ExitCode(); code != exitUnknown || !strings.Contains(string(b), "cut off") {
			t.Errorf("check exited %d, want %d (unknown) saying the run was cut off:\n%s", code, exitUnknown, b)
		}
	})
	t.Run("every redis-server child dies with it", func(t *testing.T) {
		deadline := time.Now().Add(settle) // the parent-death signal is immediate; a loaded machine reaps late
		for len(alive(kids)) > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if left := alive(kids); len(left) > 0 {
			t.Errorf("redis-server %v outlived the SIGKILLed locksim\n%s", left, stderr.String())
		}
	})
	t.Run("the next run succeeds and removes the dead run's temp dirs", func(t *testing.T) {
		if len(ownedTempDirs(pid)) == 0 {
			t.Log("the dead run left no temp dir to clean up")
		}
		next := exec.Command(locksimBinary(t), "run", "../../scenarios/redislock-happy.yaml", "--backend", "local", "--out", t.TempDir())
		b, err := next.CombinedOutput()
		if err != nil {
			t.Fatalf("next run: %v\n%s", err, b)
		}
		if left := ownedTempDirs(pid); len(left) > 0 {
			t.Errorf("temp dirs of the dead run remain: %v", left)
		}
	})
}

// w1GrantedOnDisk reports whether gc-pause's history under out holds w1's
// ok acquire.
func w1GrantedOnDisk(out string) bool {
	files, _ := filepath.Glob(filepath.Join(out, "gc-pause", "*", "history.jsonl"))
	if len(files) != 1 {
		return false
	}
	h, err := history.ReadFile(files[0])
	if err != nil {
		return false
	}
	for _, op := range h.Ops {
		if op.F == history.Acquire && op.Type == history.OK && op.Client == "w1" {
			return true
		}
	}
	return false
}
