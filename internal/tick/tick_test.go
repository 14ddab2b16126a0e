package tick

import (
	"context"
	"testing"
	"time"
)

func TestEvery(t *testing.T) {
	t.Run("it stops at the first step that returns false", func(t *testing.T) {
		n := 0
		Every(context.Background(), time.Millisecond, func() bool { n++; return n < 3 })
		if n != 3 {
			t.Errorf("%d steps, want 3", n)
		}
	})
	t.Run("it makes no step once its context is done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		n := 0
		Every(ctx, time.Hour, func() bool { n++; return true })
		if n != 0 {
			t.Errorf("%d steps after the context ended, want 0", n)
		}
	})
}
