package cli

import (
	"io"
	"log/slog"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestARepeatedInterruptWithinTheWindowIsTheSameInterrupt drives
// handleSignals in this process: signals sent to the test process itself,
// exitNow replaced.
func TestARepeatedInterruptWithinTheWindowIsTheSameInterrupt(t *testing.T) {
	exited := make(chan int, 1)
	prev := exitNow
	exitNow = func(code int) { exited <- code }
	defer func() { exitNow = prev }()
	cancelled := make(chan struct{})
	code, stop := handleSignals(func() { close(cancelled) }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	self := os.Getpid()
	first := time.Now()
	for range 2 {
		if err := syscall.Kill(self, syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("the first Ctrl-C cancels the runs and asks for exit 130", func(t *testing.T) {
		select {
		case <-cancelled:
		case <-time.After(2 * time.Second):
			t.Fatal("not cancelled")
		}
		if c := code.Load(); c != 130 {
			t.Errorf("code %d, want 130", c)
		}
	})
	t.Run("a second one at once does not exit", func(t *testing.T) {
		select {
		case c := <-exited:
			t.Fatalf("exited with %d on a repeat within the window", c)
		case <-time.After(300 * time.Millisecond):
		}
	})
	t.Run("one more after the window exits at once with 130", func(t *testing.T) {
		time.Sleep(time.Until(first.Add(sameInterrupt + 100*time.Millisecond)))
		if err := syscall.Kill(self, syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case c := <-exited:
			if c != 130 {
				t.Errorf("exit %d, want 130", c)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("a later Ctrl-C did not exit")
		}
	})
}
