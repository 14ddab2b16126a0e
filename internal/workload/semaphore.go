package workload

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/algo"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Semaphore is N permits in a sorted set (lock-theory S21): more holders
// than permits at once is over-admission.
const Semaphore = "semaphore"

// The semaphore workload's actions.
const (
	ActionEnter = "enter" // a client takes a permit
	ActionExit  = "exit"  // a client gives its permit back
)

func init() {
	Register(Kind{
		Name:     Semaphore,
		About:    "N permits in a sorted set; more holders than permits at once is over-admission",
		Order:    60,
		Actions:  []Action{{Name: ActionEnter, Effect: true}, {Name: ActionExit}},
		Fields:   []string{"permits"},
		Permits:  true,
		New:      func() Workload { return &semaphore{} },
		Question: history.AnomalyOverAdmission,
		Effects:  []Rule{overAdmissions},
		Words:    semaphoreWords,
		Tell:     func(h history.History) Teller { return &semTeller{h: h, inside: map[string]map[string]bool{}} },
	})
}

// semaphore is the semaphore workload's own fields.
type semaphore struct {
	// Permits: how many clients may hold the semaphore. Required.
	Permits int `yaml:"permits,omitempty"`
}

func (w *semaphore) Decode(d Decoder) {
	const why = "how many clients may hold the semaphore at once"
	if v, ok := d.Int("permits", 1, d.MaxClients(), why); ok {
		w.Permits = v
	} else if !d.Has("permits") {
		d.Required("permits", why+`, e.g. "permits: 2"`)
	}
	runs := func(t algo.Traits) bool { return t.Runs(Semaphore) }
	if a := d.Algorithm(); a != "" && !runs(d.Traits()) {
		d.Errorf("kind", "the semaphore workload needs algorithm %s (got %s): a lock admits one client, a semaphore N",
			strings.Join(algo.Where(runs), ", "), a)
	}
}

func (w *semaphore) Params(func(time.Duration) int64) map[string]int64 {
	return map[string]int64{history.ParamPermits: int64(w.Permits)}
}

func (w *semaphore) Start(Env) Run { return w }

// keySemaphore is the semaphore's key.
const keySemaphore = "sem-1"

func (*semaphore) Setup(context.Context) error { return nil }

// Work is one client's use of a permit: enter, work, exit.
func (*semaphore) Work(ctx context.Context, c Client) {
	accept := func(string, Proof) Refusal { return Refusal{} }
	c.With(ctx, keySemaphore, func(l lock.Lease) (bool, error) {
		write(c, keySemaphore, ActionEnter, ProofOf(l), accept)
		if err := c.Job(ctx, l); err != nil && !errors.Is(err, ErrLost) {
			return false, err
		}
		if err := c.Point(ctx, history.PointBeforeWrite); err != nil {
			return false, err
		}
		write(c, keySemaphore, ActionExit, ProofOf(l), accept)
		return true, nil
	})
}

// overAdmissions is the over-admission rule (S21): more than
// Header.Params["permits"] clients at once between their accepted enter
// (Complete: certainly admitted) and their next exit (Invoke), or the kill
// of their incarnation (a crash-client or restart-client fault: the next
// incarnation enters afresh), or else the end of the history. Without the
// parameter the rule cannot judge: the finding is Unknown (said in the
// summary), never a default.
func overAdmissions(a *account.Account, _ *Index) Finding {
	h := a.H
	var f Finding
	type ev struct {
		t      int64
		delta  int
		client string
		op     int
	}
	perKey := map[string][]ev{}
	var keys []string
	eoh := h.End()
	inside := map[[2]string]int{} // client,key → position of its open enter
	idx := make([]int, 0)
	for i := range h.Ops {
		op := &h.Ops[i]
		if finding.ClientOp(*op) && op.F == history.Write && (op.Value.Action == ActionEnter || op.Value.Action == ActionExit) {
			idx = append(idx, i)
		}
	}
	finding.SortIdx(h, idx, finding.InvokeOf)
	enters := 0
	add := func(k string, e ev) {
		if _, ok := perKey[k]; !ok {
			keys = append(keys, k)
		}
		perKey[k] = append(perKey[k], e)
	}
	// A kill of the client's incarnation (crash-client, restart-client)
	// ends every stay it had begun: a dead incarnation is inside nothing,
	// and its next one, under the same name, enters afresh.
	kills := clientKills(h)
	killedUpTo := func(t int64) {
		for len(kills) > 0 && kills[0].t <= t {
			k := kills[0]
			kills = kills[1:]
			for ck, i := range inside {
				if ck[0] == k.client && h.Ops[i].Complete <= k.t {
					delete(inside, ck)
					add(ck[1], ev{k.t, -1, ck[0], -1})
				}
			}
		}
	}
	for _, i := range idx {
		op := h.Ops[i]
		killedUpTo(op.Invoke)
		ck := [2]string{op.Client, op.Key}
		switch op.Value.Action {
		case ActionEnter:
			if !finding.Accepted(op) {
				continue
			}
			if _, ok := inside[ck]; ok {
				continue // already inside: a second enter adds no permit
			}
			enters++
			inside[ck] = i
			add(op.Key, ev{op.Complete, +1, op.Client, op.Index})
		case ActionExit:
			if _, ok := inside[ck]; !ok {
				continue
			}
			delete(inside, ck)
			add(op.Key, ev{op.Invoke, -1, op.Client, op.Index})
		}
	}
	// A client that never exits is inside until a kill of its incarnation,
	// or the end of the history.
	killedUpTo(eoh)
	for ck := range inside {
		add(ck[1], ev{eoh, -1, ck[0], -1})
	}
	if enters == 0 {
		return f
	}
	permits, ok := h.Header.Params[history.ParamPermits]
	if !ok || permits < 1 {
		// history.Validate refuses such a file; built in memory, the rule
		// cannot judge, and no default stands in.
		f.Summary = fmt.Sprintf("%s, not judged: no permits parameter", finding.Plural(enters, "accepted enter", "accepted enters"))
		f.Unknown = true
		return f
	}
	sort.Strings(keys)
	for _, k := range keys {
		es := perKey[k]
		// exits before enters at one instant: touching is not overlap
		sort.SliceStable(es, func(a, b int) bool {
			if es[a].t != es[b].t {
				return es[a].t < es[b].t
			}
			return es[a].delta < es[b].delta
		})
		in := map[string]int{}
		var start int64
		var peak int64
		var peakClients []string
		var ops []int
		over := false
		for _, e := range es {
			if e.delta > 0 {
				in[e.client] = e.op
			} else {
				delete(in, e.client)
			}
			n := int64(len(in))
			switch {
			case n > permits && !over:
				over, start, peak = true, e.t, 0
				fallthrough
			case n > permits:
				if n > peak {
					peak = n
					peakClients, ops = nil, nil // fresh: earlier anomalies keep theirs
					for c, o := range in {
						peakClients = append(peakClients, c)
						ops = append(ops, o)
					}
					sort.Strings(peakClients)
					sort.Ints(ops)
				}
			case over:
				over = false
				explain := fmt.Sprintf("%d clients (%s) were inside %s at once from %s to %s, with only %d permits",
					peak, strings.Join(peakClients, ", "), k, finding.At(h, start), finding.At(h, e.t), permits)
				f.Anomalies = append(f.Anomalies, finding.New(h, history.AnomalyOverAdmission, k, peakClients, start, e.t, explain, ops...))
			}
		}
	}
	return summed(f, "over-admission", "over-admissions",
		fmt.Sprintf("%s, never more than %d inside at once", finding.Plural(enters, "accepted enter", "accepted enters"), permits))
}

// kill is one kill of a client's incarnation.
type kill struct {
	client string
	t      int64
}

// clientKills lists the kills of every client's incarnation (crash-client
// and restart-client faults that applied), by time.
func clientKills(h history.History) []kill {
	var out []kill
	for _, m := range []map[string][]int64{account.ClientCrashes(h), account.ClientRestarts(h)} {
		for c, ts := range m {
			for _, t := range ts {
				out = append(out, kill{c, t})
			}
		}
	}
	slices.SortFunc(out, func(a, b kill) int { return cmp.Or(cmp.Compare(a.t, b.t), strings.Compare(a.client, b.client)) })
	return out
}

// semaphoreWords are the semaphore workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var semaphoreWords = map[string]map[string]string{
	"en": {
		"question.semaphore":           "Will more clients hold a permit than there are permits?", // locksim serve asks it before a run
		"n.write.enter":                "%s entered %s (%d of %d permits in use).",                // client, key, in use, permits
		"n.write.enter.plain":          "%s entered %s (%d inside).",                              // client, key, in use
		"n.write.exit":                 "%s left %s (%d of %d permits in use).",                   // client, key, in use, permits
		"n.write.exit.plain":           "%s left %s (%d inside).",                                 // client, key, in use
		"wl.semaphore":                 "permit",
		"wl.write.semaphore":           "work under a permit",
		"wl.resource.semaphore":        "the resource behind the semaphore",
		"lane.resource.semaphore":      "guarded resource",
		"act.enter":                    "entry (permit taken)",
		"act.exit":                     "exit (permit given back)",
		"p.act.enter":                  "entered",
		"point.before-write.semaphore": "just before it gave its permit back", // a pause's point: the write is the exit
	},
	"vi": {
		"question.semaphore":           "Có nhiều client giữ permit hơn số permit không?",
		"n.write.enter":                "%s vào %s (%d/%d permit đang dùng).",
		"n.write.enter.plain":          "%s vào %s (%d client bên trong).",
		"n.write.exit":                 "%s rời %s (%d/%d permit đang dùng).",
		"n.write.exit.plain":           "%s rời %s (%d client bên trong).",
		"wl.semaphore":                 "permit",
		"wl.write.semaphore":           "phần việc dưới một permit",
		"wl.resource.semaphore":        "tài nguyên sau semaphore",
		"lane.resource.semaphore":      "tài nguyên được giới hạn",
		"act.enter":                    "vào (lấy một permit)",
		"act.exit":                     "ra (trả permit)",
		"p.act.enter":                  "đã vào",
		"point.before-write.semaphore": "ngay trước khi trả permit",
	},
}

// semTeller tells entries and exits with how many are inside.
type semTeller struct {
	h      history.History
	inside map[string]map[string]bool // key → clients inside
}

func (*semTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (t *semTeller) Write(o history.Op, _ string) (Words, bool) {
	enter := o.Value.Action == ActionEnter
	if !enter && o.Value.Action != ActionExit {
		return Words{}, false
	}
	if t.inside[o.Key] == nil {
		t.inside[o.Key] = map[string]bool{}
	}
	if enter {
		t.inside[o.Key][o.Client] = true
	} else {
		delete(t.inside[o.Key], o.Client)
	}
	n := len(t.inside[o.Key])
	key := "n.write." + o.Value.Action
	if permits, ok := t.h.Header.Params[history.ParamPermits]; ok {
		return Say(key, o.Client, o.Key, n, permits), true
	}
	return Say(key+".plain", o.Client, o.Key, n), true
}
