package faults

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// Restore-on-start modes of a restart-client fault (FaultStep.Mode).
const (
	// RestoreNone: the new incarnation starts its work afresh and restores
	// nothing; a lease of its old incarnation frees itself by its TTL (the
	// visibility timeout).
	RestoreNone = history.RestoreNone
	// RestoreAll: on start the new incarnation re-queues every job lease it
	// finds — a DEL of every job's lock key — as kombu's Redis transport
	// restored every unacked message on a gevent worker's start,
	// "regardless to time" (celery/kombu PR #905; #1098: live workers'
	// tasks redelivered; bug-reports-2.md BR-27's Celery form).
	RestoreAll = history.RestoreAll
)

// restartClient kills a client (kill -9 of the worker) and starts a new
// incarnation of it under the same name restart_after later: a fresh lock
// client and process, which works through its jobs from the start; with
// restore: all it first re-queues every job lease it finds.
type restartClient struct {
	Client       string        `yaml:"client"`
	RestartAfter time.Duration `yaml:"restart_after"`
	Restore      string        `yaml:"restore,omitempty"`
}

func init() {
	Register(Kind{
		Name:      "restart-client",
		About:     "kill a client and start a new incarnation of it restart_after later; restore: all makes it re-queue every job lease on start (kombu PR #905)",
		Fields:    []string{"client", "restart_after", "restore"},
		Triggers:  []string{history.TriggerAt, history.TriggerEvent, history.TriggerPoint},
		PointHint: "the point of the client's work where it is killed",
		Points:    history.WorkPoints(),
		New:       func() Fault { return &restartClient{} },
	})
}

func (f *restartClient) Decode(d Decoder) {
	f.Client = requiredClient(d, "the client to restart")
	if v, ok := d.Duration("restart_after", Positive); ok {
		f.RestartAfter = v
	} else if !d.Has("restart_after") {
		d.Required("restart_after", `how long the client stays down before its new incarnation starts, e.g. "restart_after: 3s"`)
	}
	f.Restore = RestoreNone
	if d.Has("restore") {
		if v, ok := d.Enum("restore", "restore-on-start mode", []string{RestoreNone, RestoreAll}); ok {
			f.Restore = v
		}
	}
}

func (f *restartClient) Resolve(r *Resolver, s *history.FaultStep) error {
	s.Effect, s.Clients, s.Duration, s.Mode = history.EffectRestartClient, []string{f.Client}, r.Wall(f.RestartAfter), f.Restore
	return nil
}

// Restarter is a client that can start again after a crash.
type Restarter interface {
	// CrashToRestart crashes the client as Crash does, to be restarted.
	CrashToRestart()
	// Restart starts a new incarnation of the client CrashToRestart
	// killed, with the restore-on-start mode restore (RestoreNone,
	// RestoreAll).
	Restart(restore string) error
}

func (f *restartClient) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	c, err := env.Client(s.Clients[0])
	if err != nil {
		return nil, err
	}
	r, ok := c.(Restarter)
	if !ok {
		return nil, fmt.Errorf("client %s cannot be restarted", s.Clients[0])
	}
	r.CrashToRestart()
	return func(context.Context) error { return r.Restart(s.Mode) }, nil
}

func (f *restartClient) Encode(e Encoder, s history.FaultStep) (err error) {
	f.Client, err = oneClient(s)
	f.RestartAfter = e.Scen(s.Duration)
	if s.Mode != RestoreNone {
		f.Restore = s.Mode
	}
	return err
}
