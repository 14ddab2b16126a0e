package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/observe"
)

const (
	// startTimeout bounds how long a node may take to answer INFO server:
	// on a loaded machine (two CPU hogs beside a suite, issue 32) a start
	// took more than 5 s; a node that dies at start fails at once anyway.
	startTimeout = 15 * time.Second
	// startAttempts is how often a first start is tried with a fresh port
	// when the port turns out to be taken.
	startAttempts = 4
	// ownerFile holds the pid of the locksim process owning a node dir.
	ownerFile = "owner.pid"
	// nodePIDFile holds the pid of the node's redis-server.
	nodePIDFile = "redis-server.pid"
	logFile     = "redis.log"
	stderrFile  = "redis.stderr"
	dirPrefix   = "locksim-"
)

// localNode is a redis-server process started by locksim.
type localNode struct {
	name        string
	bin         string
	persistence string
	log         *slog.Logger

	port int
	// portOwned: n.port is claimed in ports (from the first start until
	// close, through crashes and restarts).
	portOwned bool
	dataDir   string

	cmd    *exec.Cmd
	done   chan struct{} // closed when cmd.Wait returned
	paused bool

	admin *redis.Client // direct connection for the harness

	// sentinel: the process is redis-sentinel, run from its own config
	// file (sentinel.conf in dataDir, written before the first launch).
	sentinel bool
	// replicaOf is the "host:port" a replica follows (its replication
	// link's proxy); "" for a master. The first launch starts without it
	// and Start sends REPLICAOF (which connects at once, where the config
	// option waits for the next replication cron); a restart passes it as
	// --replicaof, as a replica's config file would.
	replicaOf string
	launches  int
	// bg are the node's background jobs (snapshots, AOF size samples),
	// stopped by close.
	bg *background
}

func newLocalNode(name, bin, persistence string, log *slog.Logger) *localNode {
	return &localNode{name: name, bin: bin, persistence: persistence, log: log}
}

func (n *localNode) addr() string { return "127.0.0.1:" + strconv.Itoa(n.port) }
func (n *localNode) dir() string  { return n.dataDir }

func (n *localNode) running() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

func (n *localNode) pid() int {
	if !n.running() {
		return 0
	}
	return n.cmd.Process.Pid
}

func (n *localNode) state() string {
	switch {
	case !n.running():
		return StateDown
	case n.paused:
		return StatePaused
	default:
		return StateRunning
	}
}

// makeDir creates the node's temp dir with its owner file.
func (n *localNode) makeDir() error {
	dir, err := os.MkdirTemp("", dirPrefix+n.name+"-*")
	if err != nil {
		return fmt.Errorf("create dir: %w", err)
	}
	n.dataDir = dir
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", ownerFile, err)
	}
	return nil
}

func (n *localNode) start(ctx context.Context) error {
	if err := n.makeDir(); err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < startAttempts; attempt++ {
		port, err := ports.free()
		if err != nil {
			return err
		}
		n.port, n.portOwned = port, true
		err = n.launch(ctx)
		if err == nil {
			return nil
		}
		ports.release(port)
		n.portOwned = false
		lastErr = err
		if !errors.Is(err, errPortInUse) || ctx.Err() != nil {
			return err
		}
		n.log.Debug("node port taken, retrying", "node", n.name, "port", port)
	}
	return lastErr
}

func (n *localNode) restart(ctx context.Context) error {
	// Same port: retry briefly in case the old socket is still being torn
	// down or something grabbed the port in between.
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := n.launch(ctx)
		if err == nil || !errors.Is(err, errPortInUse) || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var errPortInUse = errors.New("port in use")

func (n *localNode) args() []string {
	if n.sentinel {
		return []string{filepath.Join(n.dataDir, sentinelConfFile)}
	}
	appendonly, fsync := "no", "everysec"
	switch n.persistence {
	case PersistenceAOFEverysec:
		appendonly = "yes"
	case PersistenceAOFAlways:
		appendonly, fsync = "yes", "always"
	}
	args := []string{
		"--bind", "127.0.0.1",
		"--port", strconv.Itoa(n.port),
		"--dir", n.dataDir,
		"--save", "",
		"--appendonly", appendonly,
		"--appendfsync", fsync,
		// Redis's own default of 10 background ticks a second: nothing a
		// run checks waits on them (an expired key is gone to the next
		// command that reads it, a blocked WAIT times out on its own
		// clock), and an idle node at 100 cost twice the CPU (issue 32).
		"--hz", runHz,
		"--daemonize", "no",
		"--protected-mode", "yes",
		"--logfile", filepath.Join(n.dataDir, logFile),
		"--loglevel", "notice",
		"--tcp-backlog", "128",
		// A replica's first sync must not wait Redis 7's default 5 s for
		// more replicas to join a diskless transfer.
		"--repl-diskless-sync-delay", "0",
	}
	if n.replicaOf != "" && n.launches > 0 {
		host, port, _ := net.SplitHostPort(n.replicaOf)
		args = append(args, "--replicaof", host, port)
	}
	return args
}

// launch starts the process on n.port and waits until it answers INFO
// server with its own pid.
func (n *localNode) launch(ctx context.Context) error {
	stderr, err := os.OpenFile(filepath.Join(n.dataDir, stderrFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", stderrFile, err)
	}
	defer stderr.Close()
	logStart := fileSize(filepath.Join(n.dataDir, logFile))

	cmd := exec.Command(n.bin, n.args()...)
	n.launches++
	cmd.Dir = n.dataDir
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Pdeathsig fires when the *thread* that forked the child exits. Go only
	// ends threads that are locked when their goroutine returns, so fork
	// from a locked thread and unlock it again: it goes back to the pool and
	// lives as long as the process.
	runtime.LockOSThread()
	err = cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return fmt.Errorf("exec %s: %w", n.bin, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	n.cmd, n.done, n.paused = cmd, done, false
	_ = os.WriteFile(filepath.Join(n.dataDir, nodePIDFile), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644)

	// A first start retried on a fresh port needs an admin client for the
	// new address, not the one of the port that was taken.
	if n.admin != nil && n.admin.Options().Addr != n.addr() {
		_ = n.admin.Close()
		n.admin = nil
	}
	if n.admin == nil {
		n.admin = newAdminClient(n.addr())
	}

	if err := n.waitReady(ctx, done); err != nil {
		n.killProc()
		tail := n.logTail(logStart)
		if strings.Contains(tail, "Address already in use") {
			err = fmt.Errorf("%w: %w", errPortInUse, err)
		}
		return fmt.Errorf("start redis-server on %s: %w; log tail:\n%s", n.addr(), err, tail)
	}
	n.log.Debug("node started", "node", n.name, "addr", n.addr(), "pid", cmd.Process.Pid, "dir", n.dataDir)
	return nil
}

func (n *localNode) waitReady(ctx context.Context, done <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		select {
		case <-done:
			return fmt.Errorf("process exited: %v", n.cmd.ProcessState)
		default:
		}
		pid, err := rawInfoPID(ctx, n.addr())
		if err == nil && pid == n.cmd.Process.Pid {
			return nil
		}
		if err == nil {
			err = fmt.Errorf("%w: redis-server pid %d answers there, not ours (pid %d)", errPortInUse, pid, n.cmd.Process.Pid)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready (INFO server from our pid) within %v: %w (last: %v)", startTimeout, ctx.Err(), err)
		case <-done:
			return fmt.Errorf("process exited: %v", n.cmd.ProcessState)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// rawInfoPID sends one inline INFO server persistence over a fresh TCP
// connection and returns the answering server's process_id; a server still
// loading its dataset (loading:1 — Redis 7 answers INFO while it loads an
// AOF or RDB, and refuses other commands with -LOADING) counts as not
// ready. The pid tells our node from another redis-server that answers on
// the same port.
func rawInfoPID(ctx context.Context, addr string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if _, err := conn.Write([]byte("INFO server persistence\r\n")); err != nil {
		return 0, err
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	line = strings.TrimSpace(line)
	size, err := strconv.Atoi(strings.TrimPrefix(line, "$"))
	if !strings.HasPrefix(line, "$") || err != nil || size < 0 {
		return 0, fmt.Errorf("INFO server answered %q", line)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return 0, err
	}
	pid, found := 0, false
	for _, l := range strings.Split(string(body), "\n") {
		l = strings.TrimSpace(l)
		if l == "loading:1" {
			return 0, errors.New("still loading its dataset")
		}
		if v, ok := strings.CutPrefix(l, "process_id:"); ok {
			if pid, err = strconv.Atoi(v); err != nil {
				return 0, err
			}
			found = true
		}
	}
	if !found {
		return 0, errors.New("INFO server has no process_id")
	}
	return pid, nil
}

// killProc sends SIGKILL to the node's process group and waits for the exit.
func (n *localNode) killProc() {
	if n.cmd == nil || n.cmd.Process == nil {
		return
	}
	pid := n.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = n.cmd.Process.Kill()
	select {
	case <-n.done:
	case <-time.After(5 * time.Second):
		n.log.Warn("node did not exit after SIGKILL", "node", n.name, "pid", pid)
	}
	n.paused = false
}

func (n *localNode) kill() error {
	if !n.running() {
		return nil
	}
	n.killProc()
	if n.running() {
		return fmt.Errorf("pid %d still alive after SIGKILL", n.cmd.Process.Pid)
	}
	// Drop pooled connections to the dead process.
	n.resetAdmin()
	return nil
}

func (n *localNode) resetAdmin() {
	if n.admin != nil {
		_ = n.admin.Close()
	}
	n.admin = newAdminClient(n.addr())
}

// newAdminClient returns the harness's direct client to a node: no retries
// (the shift script is not idempotent), deadlines from the caller's ctx.
func newAdminClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:                  addr,
		DialTimeout:           time.Second,
		ReadTimeout:           5 * time.Second,
		WriteTimeout:          5 * time.Second,
		MaxRetries:            -1,
		DialerRetries:         1,
		PoolSize:              2,
		ContextTimeoutEnabled: true,
		DisableIdentity:       true,
		ClientName:            observe.AdminName, // node observers tell the harness's commands by it
	})
}

func (n *localNode) signal(sig syscall.Signal) error {
	if !n.running() {
		return ErrNodeNotRunning
	}
	if err := syscall.Kill(-n.cmd.Process.Pid, sig); err != nil {
		return fmt.Errorf("send %v to pid %d: %w", sig, n.cmd.Process.Pid, err)
	}
	return nil
}

func (n *localNode) pause() error {
	if n.paused && n.running() {
		return nil
	}
	if err := n.signal(syscall.SIGSTOP); err != nil {
		return err
	}
	n.paused = true
	return nil
}

func (n *localNode) resume() error {
	if !n.running() {
		return ErrNodeNotRunning
	}
	if !n.paused {
		return nil
	}
	if err := n.signal(syscall.SIGCONT); err != nil {
		return err
	}
	n.paused = false
	return nil
}

func (n *localNode) shiftClock(ctx context.Context, delta time.Duration) (int, error) {
	if n.state() != StateRunning {
		return 0, ErrNodeNotRunning
	}
	return shiftKeys(ctx, n.admin, delta)
}

func (n *localNode) version(ctx context.Context) (string, error) {
	v, err := serverVersion(ctx, n.admin)
	if err != nil {
		return "", err
	}
	return v, nil
}

func (n *localNode) close() error {
	n.bg.stop()
	n.killProc()
	if n.portOwned { // the port stays owned through crashes and restarts, until here
		ports.release(n.port)
		n.portOwned = false
	}
	if n.admin != nil {
		_ = n.admin.Close()
		n.admin = nil
	}
	if n.dataDir == "" {
		return nil
	}
	if err := os.RemoveAll(n.dataDir); err != nil {
		return fmt.Errorf("remove dir: %w", err)
	}
	return nil
}

// logTail returns the last lines of the node's log written since offset
// logStart, plus its stderr, for error messages.
func (n *localNode) logTail(logStart int64) string {
	var b strings.Builder
	if t := tailFile(filepath.Join(n.dataDir, logFile), logStart, 12); t != "" {
		b.WriteString(t)
	}
	if t := tailFile(filepath.Join(n.dataDir, stderrFile), 0, 6); t != "" {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("stderr: ")
		b.WriteString(t)
	}
	if b.Len() == 0 {
		return "(empty log)"
	}
	return b.String()
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// tailFile returns the last maxLines lines of path after offset from.
func tailFile(path string, from int64, maxLines int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	size := fileSize(path)
	const maxBytes = 8 << 10
	if size-from > maxBytes {
		from = size - maxBytes
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return ""
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// removeStaleDirs deletes os.TempDir()/locksim-* node dirs whose owner
// process is dead (a previous locksim was SIGKILLed), killing a leftover
// redis-server whose working dir is that dir first. Dirs without an
// owner.pid file are not ours and are left alone.
func removeStaleDirs(log *slog.Logger) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, dir := range dirs {
		owner, ok := readPID(filepath.Join(dir, ownerFile))
		if !ok || owner == os.Getpid() || pidAlive(owner) {
			continue
		}
		if pid, ok := readPID(filepath.Join(dir, nodePIDFile)); ok && pidAlive(pid) {
			if cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil && cwd == dir {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if err := os.RemoveAll(dir); err != nil {
			log.Warn("cannot remove stale node dir", "dir", dir, "err", err)
			continue
		}
		log.Info("removed stale node dir", "dir", dir, "owner", owner)
	}
}

func readPID(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// pidAlive reports whether a process with this pid exists (zombies count as
// alive: their parent has not reaped them yet).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// shiftKeys runs the TTL-shifting script on a node (lock-theory §6.3): every
// volatile key loses delta of its TTL (gains it when delta < 0); it returns
// how many keys it touched.
func shiftKeys(ctx context.Context, admin *redis.Client, delta time.Duration) (int, error) {
	cnt, err := admin.Eval(ctx, shiftScript, nil, deltaMillis(delta)).Int()
	if err != nil {
		return 0, fmt.Errorf("shift script: %w", err)
	}
	return cnt, nil
}

// serverVersion reads redis_version from INFO server.
func serverVersion(ctx context.Context, admin *redis.Client) (string, error) {
	info, err := admin.Info(ctx, "server").Result()
	if err != nil {
		return "", fmt.Errorf("info server: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "redis_version:"); ok {
			return v, nil
		}
	}
	return "", errors.New("info server: no redis_version field")
}

func (n *localNode) adminClient() *redis.Client { return n.admin }
