package clients_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/clients/clientstest"
	"github.com/locksim/locksim/lock"
	"github.com/redis/go-redis/v9"
)

// repoRoot is the repository root, where the adapters' commands run from.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// adapter returns the named shipped adapter, skipping the test when what
// it needs is missing — failing instead under CI=true, where nothing may
// be skipped.
func adapter(t *testing.T, name string) clients.Adapter {
	t.Helper()
	for _, a := range clients.Adapters() {
		if a.Name != name {
			continue
		}
		if err := a.Ready(repoRoot(t)); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%v (CI=true: adapter tests are not skipped)", err)
			}
			t.Skipf("skipped: %v", err)
		}
		return a
	}
	t.Fatalf("no adapter %s", name)
	return clients.Adapter{}
}

// processFactory builds a lock client process running a's command.
func processFactory(t *testing.T, a clients.Adapter, options map[string]any) clientstest.Factory {
	root := repoRoot(t)
	return func(c clients.Config) (clients.Locker, error) {
		c.Process = &clients.ProcessOptions{Command: a.Command, Dir: root, Options: options}
		return clients.New("process", c)
	}
}

func TestEveryShippedAdapterPassesTheConformanceSuite(t *testing.T) {
	tests := []struct {
		name    string
		adapter string
		options map[string]any
		expect  clientstest.Expect
	}{
		{"node-redlock on one node", "node-redlock", nil, clientstest.Expect{}},
		{"node-redlock on five nodes", "node-redlock", nil, clientstest.Expect{Nodes: 5}},
		// Its automatic refresh would keep every lease alive past its
		// TTL, which the expiry properties test: off here, on in the
		// scenarios.
		{"redis-semaphore's Mutex without its refresh", "redis-semaphore", map[string]any{"refresh_interval_ms": 0}, clientstest.Expect{}},
		// The pinned affected releases (issue 19, BR-07 and BR-17).
		{"node-redlock 5.0.0-beta.2 on one node", "node-redlock 5.0.0-beta.2", nil, clientstest.Expect{}},
		{"node-redlock 5.0.0-beta.2 on five nodes", "node-redlock 5.0.0-beta.2", nil, clientstest.Expect{Nodes: 5}},
		{"redis-semaphore 4.1.0's Mutex without its refresh", "redis-semaphore 4.1.0", map[string]any{"refresh_interval_ms": 0}, clientstest.Expect{}},
		{"redis-semaphore 3.2.1's Mutex without its refresh", "redis-semaphore 3.2.1", map[string]any{"refresh_interval_ms": 0}, clientstest.Expect{}},
		{"redis-py's Lock", "redis-py", nil, clientstest.Expect{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Two adapters at a time (go test's -parallel): each property
			// starts its own nodes, and most of its time is a wait for a
			// TTL to run out.
			t.Parallel()
			clientstest.Run(t, processFactory(t, adapter(t, tt.adapter), tt.options), tt.expect)
		})
	}
}

// fake builds a lock client process running testdata/fake_adapter.py in
// mode, on one node of a fresh cluster.
func fake(t *testing.T, mode string) clients.Locker {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	c := clientstest.StartCluster(t, 1, 1)
	f := func(cfg clients.Config) (clients.Locker, error) {
		cfg.Process = &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/fake_adapter.py", mode},
			Timeout: 300 * time.Millisecond}
		return clients.New("process", cfg)
	}
	return c.Locker(t, f, 0, time.Second)
}

func TestAProcessThatBreaksTheProtocolIsAnInfrastructureErrorWithItsStderr(t *testing.T) {
	tests := []struct {
		name, mode, says string
	}{
		{"a line that is not JSON breaks the protocol", "garbage", "broke the protocol"},
		{"a reply of a type the protocol lacks breaks the protocol", "badtype", `unknown type "granted"`},
		{"a process that exits is an infrastructure error quoting its stderr", "exit", "fake adapter: giving up on acquire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lk := fake(t, tt.mode)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := lk.Acquire(ctx, "k")
			if !errors.Is(err, clients.ErrInfrastructure) {
				t.Fatalf("acquire = %v, want an infrastructure error", err)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("error %q does not say %q", err, tt.says)
			}
			if p := lk.(clients.ProcessLock); p.Failed() == nil {
				t.Fatal("the process is not marked failed")
			}
		})
	}
}

func TestNoReplyWithinTheProcessTimeoutIsAnUnknownOutcome(t *testing.T) {
	lk := fake(t, "silent")
	_, err := lk.Acquire(context.Background(), "k")
	if !clientstest.Unknown(err) || errors.Is(err, clients.ErrInfrastructure) {
		t.Fatalf("acquire = %v, want an unknown outcome that is no infrastructure error", err)
	}
	if p := lk.(clients.ProcessLock); p.Failed() != nil {
		t.Fatalf("a silent process is marked failed: %v", p.Failed())
	}
}

// monitor counts, from a MONITOR connection to node 0, the commands that
// mention key; count reads the current total. The connection is a plain
// socket the test closes at its end: a go-redis MONITOR left reading on a
// quiet node held its connection's read lock, and the client's Close in
// the cleanup waited on it for ever (a hang beside a second make test).
func monitor(t *testing.T, c *clientstest.Cluster, key string) (count func() int) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", c.NodeAddr(0), 5*time.Second)
	if err != nil {
		t.Fatalf("monitor: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if _, err := conn.Write([]byte("MONITOR\r\n")); err != nil {
		t.Fatalf("monitor: %v", err)
	}
	var mu sync.Mutex
	n := 0
	go func() {
		r := bufio.NewReader(conn)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return // closed at the test's end
			}
			if strings.Contains(line, `"`+key+`"`) {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}
	}()
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// eventually polls cond until it holds, failing the test after limit.
func eventually(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAPausedProcessSendsNothingUntilItIsContinued(t *testing.T) {
	a := adapter(t, "redis-semaphore")
	if clientstest.Backend(t) != "local" {
		t.Skip("needs real redis-server for MONITOR")
	}
	c := clientstest.StartCluster(t, 1, 1)
	const ttl = 2 * time.Second // refreshed every 40 ms, so it never expires while the process runs
	lk := c.Locker(t, processFactory(t, a, map[string]any{"refresh_interval_ms": 40}), 0, ttl)
	key := "paused-" + strconv.Itoa(os.Getpid())
	count := monitor(t, c, "mutex:"+key) // the library's own key (its lock_key)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lease, err := lk.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("acquire: %v", err)
	}
	eventually(t, "the Mutex refreshes its key", 10*time.Second, func() bool { return count() >= 3 })
	p := lk.(clients.ProcessLock)
	p.Freeze()
	time.Sleep(100 * time.Millisecond) // a refresh already on the wire lands
	before := count()
	time.Sleep(400 * time.Millisecond) // ten refresh intervals
	if during := count() - before; during != 0 {
		t.Fatalf("the stopped process sent %d commands on %s", during, key)
	}
	p.Thaw()
	eventually(t, "the continued process refreshes again", 10*time.Second, func() bool { return count() > before })
	if err := lk.Release(ctx, lease); err != nil {
		t.Fatalf("release: %v", err)
	}
}

func TestAClientClockFaultReachesTheProcessThroughLibfaketime(t *testing.T) {
	a := adapter(t, "redis-py")
	if _, err := clients.Libfaketime(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("skipped: %v", err)
	}
	c := clientstest.StartCluster(t, 1, 1)
	start := func(t *testing.T, mode string) clients.Locker {
		root := repoRoot(t)
		return c.Locker(t, func(cfg clients.Config) (clients.Locker, error) {
			cfg.Process = &clients.ProcessOptions{Command: a.Command, Dir: root, FakeTime: mode}
			return clients.New("process", cfg)
		}, 0, time.Second)
	}
	read := func(t *testing.T, lk clients.Locker) (time.Time, time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		wall, mono, err := clients.ProcessClock(ctx, lk)
		if err != nil {
			t.Fatalf("read the process's clock: %v", err)
		}
		return wall, mono
	}
	t.Run("a jump moves the process's wall clock and leaves its monotonic clock alone", func(t *testing.T) {
		lk := start(t, clients.FakeTimeJump)
		_, mono0 := read(t, lk)
		lk.(clients.ProcessLock).FakeClock().Jump(time.Hour)
		real := time.Now()
		wall, mono1 := read(t, lk)
		if off := wall.Sub(real); off < 59*time.Minute || off > 61*time.Minute {
			t.Fatalf("the process's wall clock is %v off true time, want about +1h", off)
		}
		if step := mono1 - mono0; step < 0 || step > 30*time.Minute {
			t.Fatalf("the process's monotonic clock moved %v, want it untouched by the jump", step)
		}
	})
	t.Run("a rate fault makes both of the process's clocks run fast", func(t *testing.T) {
		lk := start(t, clients.FakeTimeRate)
		lk.(clients.ProcessLock).FakeClock().SetRate(20)
		w0, m0 := read(t, lk)
		real0 := time.Now()
		time.Sleep(200 * time.Millisecond)
		w1, m1 := read(t, lk)
		real := time.Since(real0)
		if got := w1.Sub(w0); got < 5*real {
			t.Fatalf("the wall clock advanced %v in %v of true time, want it 20× fast", got, real)
		}
		if got := m1 - m0; got < 5*real {
			t.Fatalf("the monotonic clock advanced %v in %v of true time, want it 20× fast", got, real)
		}
	})
}

func TestTheLibfaketimeProbeRefusesACommandItDoesNotReach(t *testing.T) {
	a := adapter(t, "redis-py")
	if _, err := clients.Libfaketime(); err != nil {
		t.Skipf("skipped: %v", err)
	}
	root := repoRoot(t)
	tests := []struct {
		name    string
		command []string
		refused bool
	}{
		{"the Python adapter sees the faked time", a.Command, false},
		// env drops the preload before Python starts: libfaketime never
		// loads, as with a statically linked program.
		{"a command that drops LD_PRELOAD is refused", append([]string{"env", "-u", "LD_PRELOAD"}, a.Command...), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := clients.ProbeFakeTime(clients.ProcessOptions{Command: tt.command, Dir: root, FakeTime: clients.FakeTimeJump})
			switch {
			case tt.refused && err == nil:
				t.Fatal("accepted")
			case tt.refused && !strings.Contains(err.Error(), "libfaketime does not reach the command"):
				t.Fatalf("refused for another reason: %v", err)
			case !tt.refused && err != nil:
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

func TestClientsOfOneSimulatedProcessShareOneLockClientProcess(t *testing.T) {
	a := adapter(t, "node-redlock")
	c := clientstest.StartCluster(t, 1, 2)
	host := clients.NewHost("app", "0123456789abcdef0123456789abcdef")
	f := processFactory(t, a, nil)
	inApp := func(cfg clients.Config) (clients.Locker, error) {
		cfg.Host = host
		return f(cfg)
	}
	w1, w2 := c.Locker(t, inApp, 0, 5*time.Second), c.Locker(t, inApp, 1, 5*time.Second)
	p1, p2 := w1.(clients.ProcessLock), w2.(clients.ProcessLock)
	if p1.PID() != p2.PID() {
		t.Fatalf("w1 runs in process %d, w2 in %d: want one process", p1.PID(), p2.PID())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	key := "shared-" + strconv.Itoa(os.Getpid())
	l1, err := w1.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("w1 acquire: %v", err)
	}
	if _, err := w2.Acquire(ctx, key); !errors.Is(err, clients.ErrNotAcquired) {
		t.Fatalf("w2 acquired w1's lock in the same process: %v, want ErrNotAcquired", err)
	}
	// w1's connections are its own: its leaving leaves w2 served.
	if err := w1.Release(ctx, l1); err != nil {
		t.Fatalf("w1 release: %v", err)
	}
	if err := p1.Close(); err != nil {
		t.Fatal(err)
	}
	l2, err := w2.Acquire(ctx, key)
	if err != nil {
		t.Fatalf("w2 acquire after w1 closed: %v", err)
	}
	if err := w2.Release(ctx, l2); err != nil {
		t.Fatalf("w2 release: %v", err)
	}
	if err := syscall.Kill(p2.PID(), 0); err != nil {
		t.Fatalf("the process ended while w2 used it: %v", err)
	}
	if err := p2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(p2.PID(), 0); err == nil {
		t.Fatalf("process %d still runs after its last client closed", p2.PID())
	}
}

func TestAnAdapterServingOneClientRefusesASecondClientOfItsProcess(t *testing.T) {
	a := adapter(t, "redis-semaphore")
	c := clientstest.StartCluster(t, 1, 2)
	host := clients.NewHost("app", "0123456789abcdef0123456789abcdef")
	f := processFactory(t, a, map[string]any{"refresh_interval_ms": 0})
	cfg := c.Config(0, time.Second)
	cfg.Host = host
	first, err := f(cfg)
	if err != nil {
		t.Fatalf("w1: %v", err)
	}
	defer first.(io.Closer).Close()
	cfg = c.Config(1, time.Second)
	cfg.Host = host
	second, err := f(cfg)
	if err == nil {
		second.(io.Closer).Close()
		t.Fatal("a second client joined a process whose adapter serves one")
	}
	if !errors.Is(err, clients.ErrOneClientPerProcess) || !errors.Is(err, clients.ErrInfrastructure) {
		t.Fatalf("error %v: want ErrOneClientPerProcess, an infrastructure error", err)
	}
}

// renewLog records the renewals a lock reports (lock.Renewals).
type renewLog struct {
	mu   sync.Mutex
	seen []string // "key token err"
}

func (r *renewLog) Renewing(l clients.Lease) func(error) {
	return func(err error) { r.Renewed(l, 0, err) }
}

func (r *renewLog) Renewed(l clients.Lease, _ time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, l.Key+" "+l.Token+" "+strconv.FormatBool(err == nil))
}

func (r *renewLog) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func TestAVersion2ProcessNamesItsLockKeyAndReportsItsRenewals(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	c := clientstest.StartCluster(t, 1, 1)
	log := &renewLog{}
	f := func(cfg clients.Config) (clients.Locker, error) {
		cfg.Process = &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/fake_adapter.py", "renews"}, Timeout: 2 * time.Second}
		cfg.Renewals = log
		return clients.New("process", cfg)
	}
	lk := c.Locker(t, f, 0, time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := lk.Acquire(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if l.Key != "fake:k" {
		t.Errorf("lease key %q, want the process's lock_key fake:k", l.Key)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(log.list()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := log.list(); len(got) != 1 || got[0] != "fake:k t1 true" {
		t.Errorf("renewals reported %q, want the process's one renewed event of fake:k (t1, ok)", got)
	}
}

func TestAProcessMissingAModuleSaysSoOnItsErrorsFirstLine(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	c := clientstest.StartCluster(t, 1, 1)
	cfg := c.Config(0, time.Second)
	cfg.Process = &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/fake_adapter.py", "nomodule"}}
	_, err := clients.New("process", cfg)
	if !errors.Is(err, clients.ErrInfrastructure) {
		t.Fatalf("New = %v, want an infrastructure error", err)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	if !strings.Contains(first, "the Python module redis it imports is not installed") || !strings.Contains(first, "apt-get install python3-redis") {
		t.Errorf("first line %q: want the missing module and the command that installs it", first)
	}
}

// unreached is one node no fake adapter connects to.
func unreached(t *testing.T) []clients.Node {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { rdb.Close() })
	return []clients.Node{{Name: "n1", Cmd: rdb}}
}

// Issue 32: a SIGCONT sent on time is not a process running on time.
// ThawHeard hears when a thawed process says something again; a process
// slow to run after its thaw (testdata/slow_thaw.py) is heard from that
// much later.
func TestAThawHearsWhenTheProcessRunsAgain(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the fake adapter")
	}
	tests := []struct {
		name         string
		delay        string // s the process sleeps after each SIGCONT
		least, most  time.Duration
		wantRTTUnder time.Duration
	}{
		{"a process that runs at once is heard from sooner than one that sleeps 400 ms", "0", 0, 400 * time.Millisecond, time.Second},
		{"a process that sleeps 400 ms after its SIGCONT is heard from no sooner", "0.4", 400 * time.Millisecond, 5 * time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lk, err := clients.New("process", clients.Config{Config: lock.Config{Client: "w1", TTL: time.Second, Nodes: unreached(t), Rand: rand.New(rand.NewPCG(1, 2))},
				Process: &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/slow_thaw.py", tt.delay, "testdata/fake_adapter.py", "ok"},
					Timeout: 3 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			defer lk.(io.Closer).Close()
			p := lk.(clients.ProcessLock)
			p.Freeze()
			time.Sleep(50 * time.Millisecond)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			sent := time.Now()
			heard, rtt, ok := p.ThawHeard(ctx)
			if !ok {
				t.Fatal("the thaw was not heard")
			}
			if silent := heard.Sub(sent); silent < tt.least || silent > tt.most {
				t.Errorf("heard from %v after the SIGCONT, want between %v and %v", silent, tt.least, tt.most)
			}
			if rtt <= 0 || rtt > tt.wantRTTUnder {
				t.Errorf("round trip once running %v, want (0, %v]", rtt, tt.wantRTTUnder)
			}
		})
	}
	t.Run("a process that never answers is not measured at its first thaw", func(t *testing.T) {
		lk, err := clients.New("process", clients.Config{Config: lock.Config{Client: "w1", TTL: time.Second, Nodes: unreached(t), Rand: rand.New(rand.NewPCG(1, 2))},
			Process: &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/fake_adapter.py", "silent"},
				Timeout: 200 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		defer lk.(io.Closer).Close()
		p := lk.(clients.ProcessLock)
		p.Freeze()
		if _, _, ok := p.ThawHeard(context.Background()); ok {
			t.Error("a process that never answered a thaw's request was measured")
		}
	})
}
