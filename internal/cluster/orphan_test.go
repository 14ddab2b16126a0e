package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperOwner is not a test: run as a child by
// TestNodesDieWithLocksim, it starts a local cluster, prints the node's pid
// and dir, and waits to be killed.
func TestHelperOwner(t *testing.T) {
	if os.Getenv("LOCKSIM_CLUSTER_HELPER") != "1" {
		t.Skip("helper process for TestNodesDieWithLocksim")
	}
	c, err := Start(context.Background(), Options{Backend: BackendLocal, Nodes: 1, Clients: []string{"w1"}})
	if err != nil {
		fmt.Println("ERR", err)
		t.Fatalf("start: %v", err)
	}
	fmt.Println("NODE", c.Node(0).PID(), c.Node(0).Dir())
	time.Sleep(time.Minute)
}

func TestNodesDieWithLocksim(t *testing.T) {
	requireBackend(t, BackendLocal)
	t.Run("a SIGKILLed owner takes its redis-server along and its dir is removed at the next Start", func(t *testing.T) {
		// Become a subreaper so the orphaned redis-server is reparented to
		// this test process, which can then reap it and see how it died.
		const prSetChildSubreaper = 36
		if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
			t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOwner$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LOCKSIM_CLUSTER_HELPER=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			t.Fatalf("read helper output: %v", err)
		}
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "NODE" {
			t.Fatalf("helper said %q", line)
		}
		pid, _ := strconv.Atoi(f[1])
		dir := f[2]
		if pid <= 0 || syscall.Kill(pid, 0) != nil {
			t.Fatalf("helper's redis-server pid %d not alive", pid)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if err := eventually(settle, func() error {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			switch {
			case errors.Is(err, syscall.ECHILD):
				// Reparented elsewhere (an init that reaps orphans first):
				// how it died cannot be read, but it must be gone.
				if syscall.Kill(pid, 0) == nil {
					return fmt.Errorf("redis-server pid %d still alive", pid)
				}
				return nil
			case err != nil:
				return fmt.Errorf("wait4(%d): %w", pid, err)
			case got != pid:
				return fmt.Errorf("redis-server pid %d still alive", pid)
			case !ws.Signaled() || ws.Signal() != syscall.SIGKILL:
				t.Fatalf("redis-server pid %d ended with %v, want SIGKILL (parent-death signal)", pid, ws)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// Another locksim process (a parallel test package) may clean the
		// dead owner's dir up first; either way it must be gone afterwards.
		if _, err := os.Stat(dir); err != nil {
			t.Logf("node dir already removed by another process's cleanup: %v", err)
		}
		removeStaleDirs(slog.New(slog.DiscardHandler))
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			_ = os.RemoveAll(dir)
			t.Fatalf("stale dir %s not removed (stat: %v)", dir, err)
		}
	})
}
