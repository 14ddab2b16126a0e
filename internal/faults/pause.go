package faults

import (
	"context"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// pause is a stop-the-world pause of one client (a GC pause, SIGSTOP of the
// worker): its job, its renewer and its timers freeze at a point of its
// work (Kleppmann 2016, timeline 1; lock-theory S01), or wherever it is at
// a time — what the random nemesis draws, and what `locksim shrink` writes
// such a drawn step as.
type pause struct {
	Client   string        `yaml:"client"`
	Duration time.Duration `yaml:"duration"`
	// Cause names what froze the client, for the report's words only
	// (history.PauseCauses); "" when the scenario names none, which the
	// report tells as a pause, not as a GC it cannot know ran.
	Cause string `yaml:"cause,omitempty"`
}

func init() {
	Register(Kind{
		Name:        "pause",
		About:       "freeze a client (job, timers, renewer) at a point (after-acquire, before-write, before-release, in-acquire, in-renew, before-token, random) or at a time",
		Fields:      []string{"client", "duration", "cause"},
		Triggers:    []string{history.TriggerPoint, history.TriggerAt},
		PointHint:   "where the client freezes: " + strings.Join(pausePoints(), ", ") + ` (or "at: 10s", a scenario time)`,
		Points:      pausePoints(),
		RandomPoint: true,
		Nemesis:     true,
		New:         func() Fault { return &pause{} },
	})
}

// pausePoints are the points a pause may name (PointRandom aside).
func pausePoints() []string {
	return append(history.WorkPoints(), history.PointInAcquire, history.PointInRenew, history.PointBeforeToken)
}

func (f *pause) Decode(d Decoder) {
	f.Client = requiredClient(d, "the client to pause")
	if v, ok := d.Duration("duration", Positive); ok {
		if run := d.RunDuration(); run > 0 && v > run {
			d.Errorf("duration", "pause of %s is longer than the run (duration %s)", v, run)
		}
		f.Duration = v
	} else if !d.Has("duration") {
		d.Required("duration", `how long the fault lasts, e.g. "duration: 15s"`)
	}
	f.Cause, _ = d.Enum("cause", "pause cause", history.PauseCauses())
}

func (f *pause) Draw(r *Resolver, window time.Duration) {
	f.Client = r.pick(SelectOne, r.Clients)[0]
	f.Duration = window
}

func (f *pause) Resolve(r *Resolver, s *history.FaultStep) error {
	s.Effect, s.Clients, s.Duration = history.EffectFreezeClient, []string{f.Client}, r.Wall(f.Duration)
	s.Cause = f.Cause // "gc" only where the scenario names it
	return nil
}

func (f *pause) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	c, err := env.Client(s.Clients[0])
	if err != nil {
		return nil, err
	}
	c.Freeze()
	return func(ctx context.Context) error {
		if th, ok := c.(ThawHearer); ok {
			if heard, rtt, ok := th.ThawHeard(ctx); ok {
				recordThaw(ctx, heard, rtt)
			}
			return nil
		}
		c.Thaw()
		return nil
	}, nil
}

func (f *pause) Encode(e Encoder, s history.FaultStep) (err error) {
	f.Client, err = oneClient(s)
	f.Duration = e.Scen(s.Duration)
	f.Cause = s.Cause
	return err
}
