package faults

import (
	"context"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// starveRenewals holds back only a client's lease renewer (its watchdog)
// while its job keeps running: a starved thread, a blocked event loop
// (bug-reports BR-08, BR-11).
type starveRenewals struct {
	Client   string        `yaml:"client"`
	Duration time.Duration `yaml:"duration"`
}

func init() {
	Register(Kind{
		Name:     "starve-renewals",
		About:    "delay only a client's renewer (watchdog) while its job keeps running",
		Fields:   []string{"client", "duration"},
		Triggers: []string{history.TriggerAt, history.TriggerEvent},
		New:      func() Fault { return &starveRenewals{} },
	})
}

func (f *starveRenewals) Decode(d Decoder) {
	f.Client = requiredClient(d, "the client whose renewer starves")
	if v, ok := d.Duration("duration", Positive); ok {
		f.Duration = v
	} else if !d.Has("duration") {
		d.Required("duration", `how long the fault lasts, e.g. "duration: 15s"`)
	}
}

func (f *starveRenewals) Resolve(r *Resolver, s *history.FaultStep) error {
	s.Effect, s.Clients, s.Duration = history.EffectStarveRenewer, []string{f.Client}, r.Wall(f.Duration)
	return nil
}

func (f *starveRenewals) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	c, err := env.Client(s.Clients[0])
	if err != nil {
		return nil, err
	}
	c.Starve()
	return func(context.Context) error { c.Feed(); return nil }, nil
}

func (f *starveRenewals) Encode(e Encoder, s history.FaultStep) (err error) {
	f.Client, err = oneClient(s)
	f.Duration = e.Scen(s.Duration)
	return err
}
