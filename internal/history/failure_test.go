package history

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

func TestFailureOf(t *testing.T) {
	// A port that was listening and is closed now refuses connections.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refused := net.DialTimeout("tcp", addr, time.Second)
	if refused == nil {
		t.Skip("a closed port accepted a connection on this machine")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	cases := []struct {
		name string
		err  error
		want Failure
	}{
		{"no error has no failure", nil, ""},
		{"a refused dial is refused", fmt.Errorf("acquire: %w", refused), FailRefused},
		{"an expired context is a timeout", fmt.Errorf("acquire: %w", ctx.Err()), FailTimeout},
		{"an EOF before the reply is a reset", fmt.Errorf("read: %w", io.EOF), FailReset},
		{"a plain error is other", errors.New("ERR unknown command"), FailOther},
		{"a joined Redlock error with a refusal is refused", errors.Join(errors.New("n1: nope"), refused), FailRefused},
		// A second fresh reader (failover-fence-wait): "w1's acquire could
		// not connect (connection refused)" of an acquire whose SET, INCR
		// and WAIT ran, whose WAIT lost its connection (EOF), and whose
		// give-back then met the dead master's refusal.
		{"a failure followed by a refused clean-up fails as the failure", fmt.Errorf("acquire: %w",
			&FailedAs{Err: fmt.Errorf("acquire outcome unknown: wait on n1: EOF; giving the key back failed: %w", refused), Cause: fmt.Errorf("wait on n1: %w", io.EOF)}), FailReset},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := FailureOf(c.err); got != c.want {
				t.Fatalf("FailureOf(%v) = %q, want %q", c.err, got, c.want)
			}
		})
	}
}
