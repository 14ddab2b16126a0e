package workload

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/locksim/locksim/internal/algo"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Leader is leader election by lease (lock-theory S20): the holder leads
// and writes with its epoch; two leaders' writes accepted is split brain.
const Leader = "leader"

// ActionLead is one unit of a leader's work; Fence = its epoch.
const ActionLead = "lead"

func init() {
	Register(Kind{
		Name:     Leader,
		About:    "the lease holder leads and writes with its epoch; two leaders' writes accepted is split brain",
		Order:    50,
		Actions:  []Action{{Name: ActionLead, Effect: true}},
		Keyed:    true,
		Epoch:    true,
		Fields:   []string{"terms", "epoch_check", "heartbeat"},
		New:      func() Workload { return &leader{} },
		Question: history.AnomalySplitBrain,
		Effects:  []Rule{splitBrains},
		Words:    leaderWords,
		Tell:     func(history.History) Teller { return leaderTeller{} },
	})
}

// leader is the leader workload's own fields.
type leader struct {
	// Terms: units of work an elected leader does. Default 1.
	Terms int `yaml:"terms,omitempty"`
	// EpochCheck: the resource refuses a lower epoch than the highest it
	// has seen.
	EpochCheck bool `yaml:"epoch_check,omitempty"`
	// Heartbeat: after each term's write the leader extends its lease with
	// the algorithm's Extend, in the same loop as its work (a scheduler's
	// heartbeat: rq's enqueue, then heartbeat); a refused heartbeat
	// deposes it. Needs an algorithm with the heartbeat trait.
	Heartbeat bool `yaml:"heartbeat,omitempty"`
}

func (w *leader) Decode(d Decoder) {
	w.Terms, _ = d.Int("terms", 1, 10_000, "units of work an elected leader does")
	if w.Terms == 0 {
		w.Terms = 1
	}
	w.EpochCheck, _ = d.Bool("epoch_check")
	if v, ok := d.Bool("heartbeat"); ok {
		if a := d.Algorithm(); v && a != "" && !d.Traits().Heartbeat {
			d.Errorf("heartbeat", "algorithm %s sends no heartbeat; heartbeat: true needs one of %s", a,
				d.Algorithms(func(t algo.Traits) bool { return t.Heartbeat }))
		} else {
			w.Heartbeat = v
		}
	}
}

// Fences: with the epoch check the resource refuses a stale epoch.
func (w *leader) Fences() bool { return w.EpochCheck }

func (w *leader) Params(func(time.Duration) int64) map[string]int64 {
	return map[string]int64{history.ParamTerms: int64(w.Terms), history.ParamEpochCheck: flag(w.EpochCheck)}
}

func (w *leader) Start(env Env) Run { return &leaders{w: w, g: env.Guard(), keys: env.Keys()} }

// keyLeader is the leader lease's key (leader-1..leader-N with several).
const keyLeader = "leader"

// leaders is a run's leader work log: the epochs it has seen (the guard)
// and the elections it numbered.
type leaders struct {
	w     *leader
	g     *Guard
	keys  int
	terms int64 // inside g.Do
}

func (r *leaders) Setup(context.Context) error { return nil }

func (r *leaders) Work(ctx context.Context, c Client) {
	if r.keys > 1 {
		r.leaderSet(ctx, c, r.leaderKeys(c))
		return
	}
	r.lead(ctx, c)
}

// nextTerm numbers a leader election in grant order, for algorithms that
// hand out no fencing token.
func (r *leaders) nextTerm() (t int64) {
	r.g.Do(func() {
		r.terms++
		t = r.terms
	})
	return t
}

// epochOf is the epoch a leader's writes carry: its fencing token, or the
// election's number.
func (r *leaders) epochOf(l lock.Lease) int64 {
	if l.Fence != 0 {
		return l.Fence
	}
	return r.nextTerm()
}

// accept decides one unit of a leader's work under its epoch: with the
// epoch check on it refuses an epoch lower than the highest seen.
func (r *leaders) accept(key string, p Proof) (ref Refusal) {
	r.g.Do(func() { ref = r.g.Admit(key, p) })
	return ref
}

// lead campaigns for the leader lease until elected once; the leader does
// Terms units of work, each a lead write carrying its epoch, then
// abdicates.
func (r *leaders) lead(ctx context.Context, c Client) {
	for {
		if ctx.Err() != nil {
			return
		}
		lease, ok := c.Acquire(ctx, keyLeader)
		if !ok {
			if c.Sleep(ctx, c.Wall(c.RetryDelay())) != nil {
				return
			}
			continue
		}
		epoch := r.epochOf(lease)
		c.Hold(ctx, lease, func(l lock.Lease) (bool, error) {
			for range r.w.Terms {
				if err := c.Job(ctx, l); err != nil {
					return false, err
				}
				if err := c.BeforeWrite(ctx, l); err != nil {
					return false, err
				}
				if !write(c, keyLeader, ActionLead, Proof{Fence: epoch}, r.accept) {
					return true, nil // deposed: the resource saw a newer epoch
				}
				if r.w.Heartbeat {
					var leads bool
					if l, leads = c.Heartbeat(ctx, l); !leads {
						return false, ErrLost
					}
				}
			}
			return true, nil
		}, true)
		return
	}
}

// leaderKey names the leader lease of object k of a leader workload of
// several (workload.keys > 1): leader-1..leader-N, one scheduler lock per
// queue (BR-25).
func leaderKey(k int) string { return keyLeader + "-" + strconv.Itoa(k) }

// leaderKeys are the leader leases the client campaigns for: its own keys
// when the scenario gives it some, else every one.
func (r *leaders) leaderKeys(c Client) []string {
	mine := c.OwnKeys()
	if len(mine) == 0 {
		for k := 1; k <= r.keys; k++ {
			mine = append(mine, k)
		}
	}
	out := make([]string, len(mine))
	for i, k := range mine {
		out[i] = leaderKey(k)
	}
	return out
}

// leaderTerm is one leader lease a client holds in leaderSet: the lease,
// the epoch its lead writes carry, and the end of its loss watch.
type leaderTerm struct {
	lease lock.Lease
	epoch int64
	stop  func()
}

// leaderSet is a scheduler for several queues, each with its own leader
// lease (rq's scheduler, BR-25): one loop that tries every lease of keys
// it does not hold, then — holding at least one — does one unit of work
// and a lead write for each held lease, and heartbeats each of them
// (workload.heartbeat); Terms units, then it abdicates, releasing what it
// holds. A refused lead write deposes it from that lease (done, released);
// a refused heartbeat or a lost lease ends that lease's term (released,
// with no done). Holding nothing, it tries again after the retry delay.
func (r *leaders) leaderSet(ctx context.Context, c Client, keys []string) {
	held := map[string]*leaderTerm{}
	// end releases the lease of k: done first when finished.
	end := func(k string, finished bool) {
		t := held[k]
		t.stop()
		if finished {
			c.Done(t.lease)
		}
		c.Release(ctx, t.lease)
		delete(held, k)
	}
	abdicated := false
	defer func() {
		for _, k := range keys {
			if t := held[k]; t != nil {
				t.stop()
				if ctx.Err() != nil && !c.Crashed() && !abdicated {
					// The run ended with the client leading: it believed it
					// held the lease until now.
					c.Stopped(t.lease)
				}
			}
		}
	}()
	for worked := 0; worked < r.w.Terms; {
		if ctx.Err() != nil {
			return
		}
		if !r.campaign(ctx, c, keys, held) {
			return
		}
		if len(held) == 0 {
			if c.Sleep(ctx, c.Wall(c.RetryDelay())) != nil {
				return
			}
			continue
		}
		if c.Sleep(ctx, c.Wall(c.JobLength())) != nil {
			return
		}
		// Which leases the client was told it lost is decided as the pause
		// at the point ended (PointThen): a watchdog thawed with it cannot
		// get ahead of the leader that woke to write, as for before-write
		// in the runner's own workloads.
		told := map[string]bool{}
		if c.PointThen(ctx, history.PointBeforeWrite, func() {
			for k, t := range held {
				told[k] = t != nil && Lost(t.lease)
			}
		}) != nil {
			return
		}
		for _, k := range keys {
			t := held[k]
			if t == nil {
				continue
			}
			if told[k] || c.Validate(ctx, t.lease) != nil {
				if ctx.Err() != nil {
					return
				}
				end(k, false)
				continue
			}
			if !write(c, k, ActionLead, Proof{Fence: t.epoch}, r.accept) {
				end(k, true) // deposed: the resource saw a newer epoch
			}
		}
		if r.w.Heartbeat && !r.heartbeats(ctx, c, keys, held, end) {
			return
		}
		worked++
	}
	for _, k := range keys {
		if t := held[k]; t != nil {
			t.stop()
			c.Done(t.lease)
		}
	}
	abdicated = true
	if c.Point(ctx, history.PointBeforeRelease) != nil {
		return
	}
	for _, k := range keys {
		if t := held[k]; t != nil {
			c.Release(ctx, t.lease)
			delete(held, k)
		}
	}
}

// campaign tries every lease of keys the client does not hold; false when
// the run is over for it.
func (r *leaders) campaign(ctx context.Context, c Client, keys []string, held map[string]*leaderTerm) bool {
	for _, k := range keys {
		if held[k] != nil {
			continue
		}
		lease, ok := c.Acquire(ctx, k)
		if !ok {
			if ctx.Err() != nil {
				return false
			}
			continue
		}
		held[k] = &leaderTerm{lease: lease, epoch: r.epochOf(lease), stop: c.WatchLost(lease)}
		if c.Point(ctx, history.PointAfterAcquire) != nil {
			return false
		}
	}
	return true
}

// heartbeats extends every lease the client holds; a refused one ends
// that lease's term. false when the run is over for the client.
func (r *leaders) heartbeats(ctx context.Context, c Client, keys []string, held map[string]*leaderTerm, end func(string, bool)) bool {
	for _, k := range keys {
		t := held[k]
		if t == nil {
			continue
		}
		nl, leads := c.Heartbeat(ctx, t.lease)
		if ctx.Err() != nil {
			return false
		}
		if !leads {
			end(k, false)
			continue
		}
		t.lease = nl
	}
	return true
}

// splitBrains is the split-brain rule (S20): client A's lead write is
// accepted (invoked) after client B's later grant on that key completed,
// where A's own latest grant before the write is older than B's (by
// fencing epoch when both carry one, else by grant Complete), and B too
// had an accepted lead under that grant: two leaders acted.
func splitBrains(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	by, keys := ix.ByKey(ActionLead)
	if len(keys) == 0 {
		return f
	}
	tm := newTerms(h)
	term := tm.term
	total := 0
	for _, k := range keys {
		ws := by[k]
		total += len(ws)
		reported := map[[2]string]bool{}
		for _, wi := range ws {
			w := &h.Ops[wi]
			tw := term(w)
			for _, bi := range ws {
				b := &h.Ops[bi]
				if b.Client == w.Client || reported[[2]string{w.Client, b.Client}] {
					continue
				}
				tb := term(b)
				if tb < 0 {
					continue
				}
				g := &h.Ops[tb]
				elected := finding.GrantedAt(*g)
				if elected >= w.Invoke {
					continue // b's election came after w: w is not from an older term
				}
				// b's term is the later one: by the epochs the writes carry
				// when both do, else by the grants' order.
				switch {
				case w.Value.Fence > 0 && b.Value.Fence > 0:
					if b.Value.Fence <= w.Value.Fence {
						continue
					}
				case tw < 0:
					continue // no grant of its own: not this rule's finding
				default:
					if finding.GrantedAt(h.Ops[tw]) >= elected {
						continue
					}
				}
				reported[[2]string{w.Client, b.Client}] = true
				explain := fmt.Sprintf("%s was elected leader of %s at %s, yet the resource accepted %s's lead write at %s from an older term; two leaders acted",
					b.Client, k, finding.At(h, elected), w.Client, finding.At(h, w.Complete))
				if w.Value.Fence > 0 && b.Value.Fence > 0 {
					explain = fmt.Sprintf("%s was elected leader of %s at %s (its writes carry epoch %d), yet the resource accepted %s's lead write with epoch %d at %s; two leaders acted",
						b.Client, k, finding.At(h, elected), b.Value.Fence, w.Client, w.Value.Fence, finding.At(h, w.Complete))
				}
				ops := []int{g.Index, b.Index, w.Index}
				if tw >= 0 {
					ops = append([]int{h.Ops[tw].Index}, ops...)
				}
				an := finding.New(h, history.AnomalySplitBrain, k, []string{w.Client, b.Client}, elected, w.Complete, explain, ops...)
				an.Stale, an.Current = w.Client, b.Client
				f.Anomalies = append(f.Anomalies, an)
			}
		}
	}
	return summed(f, "split brain", "split brains",
		fmt.Sprintf("%s, one leader at a time", finding.Plural(total, "accepted lead write", "accepted lead writes")))
}

// leaderWords are the leader workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var leaderWords = map[string]map[string]string{
	"en": {
		"question.leader":      "Will two leaders write in the same term?", // locksim serve asks it before a run
		"n.write.lead":         "%s acted as leader (key %s, epoch %d).",   // client, key, epoch
		"n.write.lead.plain":   "%s acted as leader (key %s).",             // client, key
		"wl.leader":            "leader term",
		"wl.write.leader":      "leader's write",
		"wl.resource.leader":   "the resource the leader writes to",
		"lane.resource.leader": "leader's resource",
		"act.lead":             "leader action (term)",
		"p.act.lead":           "led",
		"p.hold.leader":        "%s holds the leader lock", // client
	},
	"vi": {
		"question.leader":      "Có hai leader cùng ghi trong một nhiệm kỳ không?",
		"n.write.lead":         "%s làm việc với vai trò leader (key %s, epoch %d).",
		"n.write.lead.plain":   "%s làm việc với vai trò leader (key %s).",
		"wl.leader":            "nhiệm kỳ leader",
		"wl.write.leader":      "lần ghi của leader",
		"wl.resource.leader":   "tài nguyên mà leader ghi vào",
		"lane.resource.leader": "tài nguyên của leader",
		"act.lead":             "thao tác leader",
		"p.act.lead":           "leader",
		"p.hold.leader":        "%s giữ lock leader",
	},
}

// leaderTeller tells a leader's work with its epoch.
type leaderTeller struct{}

func (leaderTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (leaderTeller) Write(o history.Op, _ string) (Words, bool) {
	if o.Value.Action != ActionLead {
		return Words{}, false
	}
	if o.Value.Fence > 0 {
		return Say("n.write.lead", o.Client, o.Key, o.Value.Fence), true
	}
	return Say("n.write.lead.plain", o.Client, o.Key), true
}
