package clients

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/locksim/locksim/lock"
)

// Fake-time modes of a lock client process (ProcessOptions.FakeTime).
const (
	// FakeTimeJump fakes the wall clock only (DONT_FAKE_MONOTONIC=1): a
	// clock jump moves what the process reads as the time of day and
	// leaves the monotonic clock its timers and elapsed-time measurements
	// use alone, as an NTP step does.
	FakeTimeJump = "jump"
	// FakeTimeRate fakes both clocks: a rate fault makes the process's
	// wall and monotonic clocks both run fast or slow (a jump then moves
	// both too).
	FakeTimeRate = "rate"
)

// libfaketimePaths are where Debian's libfaketime puts its preload library;
// LOCKSIM_LIBFAKETIME names another.
var libfaketimePaths = []string{
	"/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/faketime/libfaketime.so.1",
	"/usr/local/lib/faketime/libfaketime.so.1",
}

// Libfaketime returns the path of libfaketime's preload library, or an
// error saying how to get it.
func Libfaketime() (string, error) {
	if p := os.Getenv("LOCKSIM_LIBFAKETIME"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("LOCKSIM_LIBFAKETIME: %w", err)
		}
		return p, nil
	}
	for _, p := range libfaketimePaths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("libfaketime is not installed (apt-get install faketime), so a client clock fault cannot reach a lock client process")
}

// fakeTime is one process's clock as libfaketime fakes it: locksim writes
// the offset (and rate) to the process's timestamp file, which libfaketime
// reads again on every clock call (FAKETIME_NO_CACHE), so a fault starting
// mid-run changes the process's time at once.
type fakeTime struct {
	mode    string
	dir     string
	file    string
	started time.Time // when the process started (libfaketime's rate origin)
	probed  float64   // the process's clock in its probe's hello (ms since epoch)

	mu     sync.Mutex
	offset time.Duration
	rate   float64
}

func newFakeTime(mode string) (*fakeTime, error) {
	if mode != FakeTimeJump && mode != FakeTimeRate {
		return nil, fmt.Errorf("fake time mode %q: want %s or %s", mode, FakeTimeJump, FakeTimeRate)
	}
	if _, err := Libfaketime(); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "locksim-faketime-")
	if err != nil {
		return nil, fmt.Errorf("fake time: %w", err)
	}
	f := &fakeTime{mode: mode, dir: dir, file: filepath.Join(dir, "faketime"), rate: 1}
	if err := f.write(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return f, nil
}

// env is the process's libfaketime environment.
func (f *fakeTime) env() []string {
	lib, _ := Libfaketime()
	env := []string{"LD_PRELOAD=" + lib, "FAKETIME_TIMESTAMP_FILE=" + f.file, "FAKETIME_NO_CACHE=1"}
	if f.mode == FakeTimeJump {
		env = append(env, "DONT_FAKE_MONOTONIC=1")
	} else {
		env = append(env, "DONT_FAKE_MONOTONIC=0")
	}
	return env
}

// spec is the timestamp file's content: "+12.345" seconds of offset, and
// " x1.5" for a rate other than 1.
func (f *fakeTime) spec() string {
	s := strconv.FormatFloat(f.offset.Seconds(), 'f', 6, 64)
	if f.offset >= 0 {
		s = "+" + s
	}
	if f.rate != 1 {
		s += " x" + strconv.FormatFloat(f.rate, 'f', 6, 64)
	}
	return s + "\n"
}

// write replaces the timestamp file atomically (a rename), so the process
// never reads half a line.
func (f *fakeTime) write() error {
	tmp := f.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(f.spec()), 0o644); err != nil {
		return fmt.Errorf("fake time: %w", err)
	}
	if err := os.Rename(tmp, f.file); err != nil {
		return fmt.Errorf("fake time: %w", err)
	}
	return nil
}

// Jump steps the process's wall clock by d.
func (f *fakeTime) Jump(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.offset += d
	_ = f.write()
}

// SetRate makes the process's clocks advance rate seconds per real second
// from now on. libfaketime scales the time elapsed since the process
// started, so the offset takes back what the new rate would add to the
// past: the clock goes on from where it is.
func (f *fakeTime) SetRate(rate float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if rate <= 0 {
		return
	}
	elapsed := time.Since(f.started)
	f.offset += time.Duration(float64(elapsed) * (f.rate - rate))
	f.rate = rate
	_ = f.write()
}

// close removes the timestamp file's directory.
func (f *fakeTime) close() {
	if f != nil {
		_ = os.RemoveAll(f.dir)
	}
}

// probeCache remembers each command's probe result.
var probeCache struct {
	sync.Mutex
	m map[string]error
}

// ProbeFakeTime starts the command of po with libfaketime set 24 h ahead
// and reads the clock it reports in its hello reply: nil when the process
// really saw the faked time (so client clock faults reach it), else why
// not. The result is remembered per command, directory and mode.
func ProbeFakeTime(po ProcessOptions) error {
	key := fmt.Sprintf("%q|%s|%s", po.Command, po.Dir, po.FakeTime)
	probeCache.Lock()
	defer probeCache.Unlock()
	if err, ok := probeCache.m[key]; ok {
		return err
	}
	err := probeFakeTime(po)
	if probeCache.m == nil {
		probeCache.m = map[string]error{}
	}
	probeCache.m[key] = err
	return err
}

const probeOffset = 24 * time.Hour

func probeFakeTime(po ProcessOptions) error {
	if _, err := Libfaketime(); err != nil {
		return err
	}
	if po.FakeTime == "" {
		po.FakeTime = FakeTimeJump
	}
	c := Config{Config: lock.Config{Client: "probe", TTL: time.Second}, Process: &po}
	p, err := startProbe(c)
	if err != nil {
		return fmt.Errorf("the libfaketime probe could not start the command: %w", err)
	}
	defer p.Close()
	got := time.UnixMilli(int64(p.fake.probed))
	if p.fake.probed == 0 {
		return errors.New("the command's hello_ok carries no now_ms, so locksim cannot tell whether libfaketime reaches it")
	}
	if skew := got.Sub(time.Now().Add(probeOffset)); skew < -time.Hour || skew > time.Hour {
		return fmt.Errorf("libfaketime does not reach the command: with its clock set %v ahead it reported %s, %v from the true time", probeOffset, got.UTC().Format(time.RFC3339), time.Until(got).Round(time.Second))
	}
	return nil
}

// startProbe starts a process for the probe with its clock 24 h ahead.
func startProbe(c Config) (*procLock, error) {
	// The offset is in the timestamp file before the process starts.
	po := *c.Process
	c.Process = &po
	return startProcessWith(c, true, func(f *fakeTime) { f.offset = probeOffset; _ = f.write() })
}
