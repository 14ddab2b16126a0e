package workload

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Counter is a read-modify-write of a counter under the lock (Jepsen's
// lock-set idea): an increment that vanishes is a lost update.
const Counter = "counter"

// The counter workload's actions.
const (
	ActionReadCounter = "read-counter" // read, Num = value read
	ActionSetCounter  = "set-counter"  // write, Num = value written
)

func init() {
	Register(Kind{
		Name:     Counter,
		About:    "read-modify-write of a counter under the lock; an increment that vanishes is a lost update",
		Order:    20,
		Actions:  []Action{{Name: ActionReadCounter}, {Name: ActionSetCounter, Effect: true, Num: true}},
		Object:   "counter",
		Keyed:    true,
		Guards:   []string{GuardFencing, GuardCheckAndSet},
		New:      func() Workload { return &counter{} },
		Model:    counterModel,
		Question: history.AnomalyLostUpdate,
		Effects:  []Rule{counterLostUpdates},
		Words:    counterWords,
		Tell:     func(history.History) Teller { return counterTeller{} },
	})
}

// counter has no fields of its own.
type counter struct {
	noFields `yaml:"-"` // nothing of its own for scenario.Normalize to write back
}

func (*counter) Start(env Env) Run { return &counters{newPerObject[int64](env)} }

// counters is a run's counters, one per object, each starting at 0.
type counters struct{ perObject[int64] }

func (r *counters) Work(ctx context.Context, c Client) {
	eachObject(ctx, c, func(key string) Body { return r.increment(ctx, c, key) })
}

// increment is the read-modify-write: read the counter, do the job, write
// back what was read plus one.
func (r *counters) increment(ctx context.Context, c Client, key string) Body {
	return func(l lock.Lease) (bool, error) {
		if !claimFirst(c, r.g, key, l) {
			return true, nil
		}
		v, ok := c.ReadNum(ctx, key, ActionReadCounter, func(context.Context) (int64, error) {
			var v int64
			r.g.Do(func() { v = r.values[key] })
			return v, nil
		})
		if !ok {
			return false, ctx.Err()
		}
		if err := c.Job(ctx, l); err != nil {
			return false, err
		}
		if err := c.BeforeWrite(ctx, l); err != nil {
			return false, err
		}
		c.Write(key, ActionSetCounter, ProofOf(l), func(note *history.Value) (ref Refusal, _ error) {
			n := v + 1
			note.Num = &n
			r.g.Do(func() {
				if ref = r.g.Admit(key, ProofOf(l)); ref.Why == "" {
					r.values[key] = n
				}
			})
			return ref, nil
		})
		return true, nil
	}
}

// counterModel is a register: a read of the counter must return its
// value (known from the first read or write: a run may start anywhere);
// an accepted write sets it. A lost update shows as a read of a value
// another write already replaced, or a write by a superseded holder.
var counterModel = Model{
	Init: func(map[string]int64) any { return knownValue{} },
	Read: func(s any, in Input, out Output) (bool, any) {
		if in.Action != ActionReadCounter {
			return true, s
		}
		return readValue(s, out)
	},
	Apply: func(s any, in Input, _ Output) (bool, any) {
		if in.Action == ActionSetCounter && in.HasNum {
			return true, knownValue{in.Num, true}
		}
		return true, s
	},
	Hash:     hashValue,
	Describe: describeValue("counter"),
}

// counterLostUpdates is the lost-update rule of the counter (Jepsen's
// lock-set idea): an accepted set-counter whose Num is ≤ the Num of the
// previous accepted one on that key, in the order of the resource's
// decisions (op Complete: the harness serialises them; two writes that
// overlap in time may have been applied in either order, so between them
// only an equal value counts, see regressed); or, with no such pair, a
// final value (Num of the last accepted set-counter) below the number of
// accepted set-counters (the counter starts at 0 and every write adds
// one).
func counterLostUpdates(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	by, keys := ix.ByKey(ActionSetCounter)
	writes := 0
	for _, k := range keys {
		ws := withNum(h, by[k])
		writes += len(ws)
		lostUpdates := regressions(h, k, ws, +1, func(prev, cur history.Op, lost []history.Op) string {
			// Its value undid every increment it wiped out.
			return fmt.Sprintf("the resource accepted %s's write of %s = %d at %s after %s's write of %d at %s; %s lost (%s)",
				cur.Client, k, *cur.Value.Num, finding.At(h, cur.Complete), prev.Client, *prev.Value.Num, finding.At(h, prev.Complete), finding.Plural(len(lost), "increment was", "increments were"), lostList(h, lost))
		})
		f.Anomalies = append(f.Anomalies, lostUpdates...)
		if len(lostUpdates) == 0 && len(ws) > 0 {
			last := h.Ops[ws[len(ws)-1]]
			if *last.Value.Num < int64(len(ws)) {
				first := h.Ops[ws[0]]
				explain := fmt.Sprintf("%s ended at %d after %d accepted increments; %d were lost",
					k, *last.Value.Num, len(ws), int64(len(ws))-*last.Value.Num)
				f.Anomalies = append(f.Anomalies, finding.New(h, history.AnomalyLostUpdate, k, []string{first.Client, last.Client},
					first.Complete, last.Complete, explain, first.Index, last.Index))
			}
		}
	}
	clean := ""
	if writes > 0 {
		clean = fmt.Sprintf("%s on %s", finding.Plural(writes, "accepted counter write", "accepted counter writes"), finding.Plural(len(keys), "counter", "counters")) + ", no lost update"
	}
	return summed(f, "lost update", "lost updates", clean)
}

// counterWords are the counter workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var counterWords = map[string]map[string]string{
	"en": {
		"question.counter":      "Will an update to the counter be lost?", // locksim serve asks it before a run
		"n.write.counter":       "%s wrote %s = %d%s.",                    // client, key, n, token suffix
		"wl.counter":            "counter",
		"wl.write.counter":      "counter write",
		"wl.resource.counter":   "the counter",
		"lane.resource.counter": "counter",
		"act.set-counter":       "counter write",
		"p.act.set-counter":     "set",
	},
	"vi": {
		"question.counter":      "Có lần cập nhật bộ đếm nào bị mất không?",
		"n.write.counter":       "%s ghi %s = %d%s.",
		"wl.counter":            "bộ đếm",
		"wl.write.counter":      "lần ghi bộ đếm",
		"wl.resource.counter":   "bộ đếm",
		"lane.resource.counter": "bộ đếm",
		"act.set-counter":       "ghi bộ đếm",
		"p.act.set-counter":     "đã ghi",
	},
}

// counterTeller tells a counter's writes with the value written.
type counterTeller struct{}

func (counterTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (counterTeller) Write(o history.Op, tok string) (Words, bool) {
	if o.Value.Action == ActionSetCounter && o.Value.Num != nil {
		return Say("n.write.counter", o.Client, o.Key, *o.Value.Num, tok), true
	}
	return Words{}, false
}
