package faults

import (
	"context"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/tick"
)

// clockRate makes a clock run fast or slow. A client's own clock gets the
// rate; a node's clock is skewed by shifting its keys' remaining TTLs every
// skewPeriod (lock-theory §6.3): after t of real time they have lost
// (rate−1)×t more.
type clockRate struct {
	Nodes    []string      `yaml:"nodes,omitempty"`
	Clients  []string      `yaml:"clients,omitempty"`
	Duration time.Duration `yaml:"duration,omitempty"`
	Rate     float64       `yaml:"rate"`
}

func init() {
	Register(Kind{
		Name:     "clock-rate",
		About:    "run a node's clock (periodic TTL shifts) or a client's clock fast or slow",
		Fields:   []string{"nodes", "clients", "duration", "rate"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		Nemesis:  true,
		New:      func() Fault { return &clockRate{} },
	})
}

func (f *clockRate) Decode(d Decoder) {
	f.Nodes, f.Clients = clockTargets(d)
	f.Duration = windowDuration(d)
	v, ok := d.Number("rate", 0, 100, "seconds of the clock per real second")
	if !ok && !d.Has("rate") {
		d.Required("rate", `the clock's speed, e.g. "rate: 1.5" (50 % fast)`)
	}
	f.Rate = v
}

// Draw runs one node's clock 50 % fast for the window.
func (f *clockRate) Draw(r *Resolver, window time.Duration) {
	f.Nodes, f.Rate, f.Duration = r.pick(SelectOne, r.Nodes), 1.5, window
}

func (f *clockRate) Resolve(r *Resolver, s *history.FaultStep) error {
	s.Rate = f.Rate
	setWindow(r, f.Duration, s)
	return resolveClock(r, f.Nodes, f.Clients, s)
}

// skewPeriod is how often a node clock-rate fault shifts the node's keys.
const skewPeriod = 10 * time.Millisecond

func (f *clockRate) Apply(ctx context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyClock(env, s, func(cs []Client) Undo {
		for _, c := range cs {
			c.Clock().SetRate(s.Rate)
		}
		return func(context.Context) error {
			for _, c := range cs {
				c.Clock().SetRate(1)
			}
			return nil
		}
	}, func(ns []Node) (Undo, error) {
		tctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() {
			defer close(done)
			skew(tctx, ns, s.Rate)
		}()
		return func(context.Context) error { stop(); <-done; return nil }, nil
	})
}

// skew shifts the nodes' keys so their clocks run at rate. Whole
// milliseconds are applied as they accrue, so no rounding error builds up.
func skew(ctx context.Context, ns []Node, rate float64) {
	began := time.Now()
	applied := time.Duration(0)
	tick.Every(ctx, skewPeriod, func() bool {
		owed := time.Duration(float64(time.Since(began))*(rate-1)) - applied
		if step := owed.Truncate(time.Millisecond); step != 0 {
			for _, n := range ns {
				_ = n.ShiftClock(ctx, step) // a paused or down node keeps no time
			}
			applied += step
		}
		return true
	})
}

func (f *clockRate) Encode(e Encoder, s history.FaultStep) error {
	f.Nodes, f.Clients = encodeClock(s)
	f.Rate, f.Duration = s.Rate, e.Window(s)
	return nil
}
