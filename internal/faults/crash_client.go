package faults

import (
	"context"

	"github.com/locksim/locksim/internal/history"
)

// crashClient stops a client for good (kill -9 of a worker) at a time, an
// event or a point of its work: it never releases what it holds, so its
// lock must expire (lock-theory S24).
type crashClient struct {
	Client string `yaml:"client"`
}

func init() {
	Register(Kind{
		Name:      "crash-client",
		About:     "stop a client for good at a time, an event or a point; its lease must expire",
		Fields:    []string{"client"},
		Triggers:  []string{history.TriggerAt, history.TriggerEvent, history.TriggerPoint},
		PointHint: "the point of the client's work where it crashes",
		Points:    append(history.WorkPoints(), history.PointInAcquire),
		New:       func() Fault { return &crashClient{} },
	})
}

func (f *crashClient) Decode(d Decoder) {
	f.Client = requiredClient(d, "the client to crash")
}

func (f *crashClient) Resolve(_ *Resolver, s *history.FaultStep) error {
	s.Effect, s.Clients = history.EffectCrashClient, []string{f.Client}
	return nil
}

func (f *crashClient) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	c, err := env.Client(s.Clients[0])
	if err != nil {
		return nil, err
	}
	c.Crash()
	return nil, nil
}

func (f *crashClient) Encode(_ Encoder, s history.FaultStep) (err error) {
	f.Client, err = oneClient(s)
	return err
}
