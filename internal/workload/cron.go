package workload

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/faults"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Cron is schedulers with clocks of their own, each running a job at
// every fire time (lock-theory S22): a second run of one fire time is a
// duplicate run.
const Cron = "cron"

// ActionRunJob is one run of the job: Key "job@<k>", one run per fire time.
const ActionRunJob = "run-job"

// FireOf is the fire time k a run-job key names ("job@2": 2), fire k being
// due k intervals after the run's start by the schedule; ok false for a key
// that names none.
func FireOf(key string) (k int, ok bool) {
	n, err := fmt.Sscanf(key, "job@%d", &k)
	return k, err == nil && n == 1 && key == fmt.Sprintf("job@%d", k)
}

func init() {
	Register(Kind{
		Name:     Cron,
		About:    "schedulers with their own clocks run a job per fire time; a second run of one fire time is a duplicate run",
		Order:    40,
		Actions:  []Action{{Name: ActionRunJob, Effect: true}},
		Fields:   []string{"interval", "fires", "lock_per_fire", "singleton"},
		New:      func() Workload { return &cron{} },
		Question: history.AnomalyDuplicateRun,
		Effects:  []Rule{duplicateRuns},
		Words:    cronWords,
		Tell:     func(history.History) Teller { return &cronTeller{runs: map[string]int{}} },
	})
}

// cron is the cron workload's own fields.
type cron struct {
	// Interval and Fires: a fire time every Interval (scenario time, on
	// each scheduler's own clock), Fires times (default 1).
	Interval time.Duration `yaml:"interval,omitempty"`
	Fires    int           `yaml:"fires,omitempty"`
	// LockPerFire: lock one key per fire time, never released (it
	// expires), instead of one key per job released after each run.
	LockPerFire bool `yaml:"lock_per_fire,omitempty"`
	// Singleton: one scheduler, the holder of one leader key, runs every
	// fire time; the others stand by, trying the key every retry delay,
	// and a scheduler that takes over runs only the fire times still
	// ahead on its own clock (a singleton worker: lesson 51). The leader
	// keeps the key to the run's end, so it needs a lock that renews its
	// lease (a watchdog) to hold it past the TTL.
	Singleton bool `yaml:"singleton,omitempty"`
}

func (w *cron) Decode(d Decoder) {
	if v, ok := d.Duration("interval", faults.Positive); ok {
		w.Interval = v
	} else if !d.Has("interval") {
		d.Required("interval", "the time between two fire times, e.g. \"interval: 60s\"")
	}
	w.Fires, _ = d.Int("fires", 1, 10_000, "how many fire times each scheduler goes through")
	if w.Fires == 0 {
		w.Fires = 1
	}
	w.LockPerFire, _ = d.Bool("lock_per_fire")
	w.Singleton, _ = d.Bool("singleton")
	if w.Singleton && w.LockPerFire {
		d.Errorf("singleton", "a singleton worker holds one leader key for every fire time; it takes no lock_per_fire")
	}
}

func (w *cron) Params(wall func(time.Duration) int64) map[string]int64 {
	return map[string]int64{history.ParamFires: int64(w.Fires), history.ParamIntervalNS: wall(w.Interval),
		history.ParamLockPerFire: flag(w.LockPerFire), history.ParamSingleton: flag(w.Singleton)}
}

func (w *cron) Start(Env) Run { return w }

// cronJob is the job's lock key; cronLeader a singleton worker's.
const (
	cronJob    = "cron:report"
	cronLeader = "cron:leader"
)

func (w *cron) Setup(context.Context) error { return nil }

// Work is one scheduler: at every fire time of its own clock it tries the
// lock once; the one that gets it runs the job (a run-job write spanning
// the job) and, with one lock per job, releases it; with one lock per fire
// time it never releases (the key expires).
func (w *cron) Work(ctx context.Context, c Client) {
	if w.Singleton {
		w.lead(ctx, c)
		return
	}
	every := c.Wall(w.Interval)
	zero := c.Zero()
	for k := 1; k <= w.Fires; k++ {
		due := zero.Add(every * time.Duration(k))
		for {
			left := due.Sub(c.Now())
			if left <= 0 {
				break
			}
			if c.Sleep(ctx, max(left/2, 100*time.Microsecond)) != nil {
				return
			}
		}
		key := cronJob
		if w.LockPerFire {
			key = fmt.Sprintf("%s@%d", cronJob, k)
		}
		jobKey := fmt.Sprintf("job@%d", k)
		lease, ok := c.Acquire(ctx, key)
		if !ok {
			if ctx.Err() != nil || c.Crashed() {
				return
			}
			continue // another scheduler has this fire time
		}
		_, ok = c.Hold(ctx, lease, func(l lock.Lease) (bool, error) {
			if err := c.BeforeWrite(ctx, l); err != nil {
				return false, err
			}
			p := c.Begin(jobKey, ActionRunJob, l.Fence)
			err := c.Sleep(ctx, c.Wall(c.JobLength()))
			p.End(err)
			if err != nil {
				return false, err
			}
			return true, nil
		}, !w.LockPerFire)
		if !ok {
			return
		}
	}
}

// lead is one scheduler of a singleton worker: it tries the leader key
// every retry delay while fire times remain ahead on its own clock (one
// whose time passes while it stands by is another's); the leader runs
// each fire time as it comes, checking its lease before each run, and
// keeps the key to the run's end. A leader whose lease is lost stands by
// again.
func (w *cron) lead(ctx context.Context, c Client) {
	due := func(k int) time.Time { return c.Zero().Add(c.Wall(w.Interval) * time.Duration(k)) }
	next := 1
	passed := func() {
		for next <= w.Fires && !due(next).After(c.Now()) {
			next++
		}
	}
	for {
		passed()
		if next > w.Fires {
			return
		}
		lease, ok := c.Acquire(ctx, cronLeader)
		if !ok {
			if ctx.Err() != nil || c.Crashed() || c.Sleep(ctx, c.Wall(c.RetryDelay())) != nil {
				return
			}
			continue
		}
		_, ok = c.Hold(ctx, lease, func(l lock.Lease) (bool, error) {
			for ; next <= w.Fires; next++ {
				if err := c.Sleep(ctx, max(due(next).Sub(c.Now()), 0)); err != nil {
					return false, err
				}
				if err := c.BeforeWrite(ctx, l); err != nil {
					return false, err
				}
				p := c.Begin(fmt.Sprintf("job@%d", next), ActionRunJob, l.Fence)
				err := c.Sleep(ctx, c.Wall(c.JobLength()))
				p.End(err)
				if err != nil {
					return false, err
				}
			}
			<-ctx.Done() // the singleton leads to the run's end
			return false, ctx.Err()
		}, true)
		if !ok || ctx.Err() != nil {
			return
		}
		next++ // the fire time the lost lease was for is given up
	}
}

// duplicateRuns is the duplicate-run rule (S22): more than one accepted
// run-job for one job key (job@<fire time>).
//
// Its window opens when the second run began (the first run was the right
// one; issue 27: the table opened at the first run's end while the
// timeline's band began at the second run) and closes when the last ended.
func duplicateRuns(a *account.Account, ix *Index) Finding {
	h := a.H
	f := repeated(h, ix, ActionRunJob, history.AnomalyDuplicateRun, "ran", "fire time", "fire times", "a scheduled job must run once per fire time")
	for n := range f.Anomalies {
		an := &f.Anomalies[n]
		var inv []int64
		for _, i := range an.Ops {
			inv = append(inv, h.Ops[i].Invoke)
			an.End = max(an.End, h.Ops[i].Complete)
		}
		slices.Sort(inv)
		an.Start = inv[1]
		an.StartS, an.EndS = h.Header.ScenarioSeconds(an.Start), h.Header.ScenarioSeconds(an.End)
	}
	return f
}

// cronWords are the cron workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var cronWords = map[string]map[string]string{
	"en": {
		"question.cron":         "Will one cron fire run its job twice?", // locksim serve asks it before a run
		"n.write.runjob":        "%s ran %s%s.",                          // client, key, token suffix
		"n.write.runjob.second": "%s ran %s%s (second run).",             // client, key, token suffix
		"n.write.runjob.nth":    "%s ran %s%s (run number %d).",          // client, key, token suffix, n
		"wl.cron":               "cron fire",
		"wl.write.cron":         "job run",
		"wl.resource.cron":      "the job's target",
		"lane.resource.cron":    "job runs",
		"act.run-job":           "job run (cron fire)",
		"p.act.run-job":         "ran",
		"p.hold.cron":           "%s holds the job's lock", // client
	},
	"vi": {
		"question.cron":         "Một lần kích hoạt cron có chạy job hai lần không?",
		"n.write.runjob":        "%s chạy %s%s.",
		"n.write.runjob.second": "%s chạy %s%s (lần chạy thứ hai).",
		"n.write.runjob.nth":    "%s chạy %s%s (lần chạy thứ %d).",
		"wl.cron":               "lần kích hoạt cron",
		"wl.write.cron":         "lần chạy job",
		"wl.resource.cron":      "nơi job ghi kết quả",
		"lane.resource.cron":    "các lần chạy job",
		"act.run-job":           "chạy job (một lần kích hoạt cron)",
		"p.act.run-job":         "đã chạy",
		"p.hold.cron":           "%s giữ lock của job",
	},
}

// cronTeller tells the job's runs, counting them per fire time.
type cronTeller struct{ runs map[string]int }

func (*cronTeller) Read(history.Op) (Words, bool) { return Words{}, false }

func (t *cronTeller) Write(o history.Op, tok string) (Words, bool) {
	if o.Value.Action != ActionRunJob {
		return Words{}, false
	}
	t.runs[o.Key]++
	switch n := t.runs[o.Key]; n {
	case 1:
		return Say("n.write.runjob", o.Client, o.Key, tok), true
	case 2:
		return Say("n.write.runjob.second", o.Client, o.Key, tok), true
	default:
		return Say("n.write.runjob.nth", o.Client, o.Key, tok, n), true
	}
}

// Fire is what became of one fire time of a cron run (FireTimes): the
// runs of its job and the schedulers' acquires the lock refused for it.
type Fire struct {
	K   int
	Key string // the job's key, "job@<k>"
	// Due is when the schedule gives it (k intervals after the run's
	// start), wall ns.
	Due int64
	// Runs are the history indices of its run-job writes, in order: ok, it
	// ran; info, its outcome is unknown.
	Runs []int
	// Refused are the history indices of the schedulers' acquires for it
	// that the lock refused.
	Refused []int
}

// FireTimes is what became of each fire time of a cron run, 1 to its
// fires, from the records: its job's runs (the run-job writes of its key)
// and the acquires refused for it. Without a singleton, a scheduler tries
// the lock once per fire time, in order (Work), so its k-th acquire of the
// job's lock key is for fire k; with one lock per fire time the key names
// k. A singleton's acquires are for no one fire time, and a scheduler a
// restart-client step restarted counts its fire times again: their
// refusals are given to none. ok false for a run of another workload.
func FireTimes(h history.History) ([]Fire, bool) {
	fires, interval := h.Header.Params[history.ParamFires], h.Header.Params[history.ParamIntervalNS]
	if h.Header.Workload != Cron || fires <= 0 || interval <= 0 {
		return nil, false
	}
	out := make([]Fire, fires)
	for k := range out {
		out[k] = Fire{K: k + 1, Key: fmt.Sprintf("job@%d", k+1), Due: int64(k+1) * interval}
	}
	restarted := map[string]bool{}
	for _, s := range h.Header.Plan {
		if s.Effect == history.EffectRestartClient {
			for _, c := range s.Clients {
				restarted[c] = true
			}
		}
	}
	tries := map[string]int{}
	for _, o := range h.Ops {
		switch {
		case o.F == history.Write && o.Value.Action == ActionRunJob:
			if k, ok := FireOf(o.Key); ok && k >= 1 && k <= len(out) {
				out[k-1].Runs = append(out[k-1].Runs, o.Index)
			}
		case o.F == history.Acquire && o.Process != history.NodeProcess && h.Header.Params[history.ParamSingleton] == 0:
			k := 0
			if _, err := fmt.Sscanf(o.Key, cronJob+"@%d", &k); err != nil {
				tries[o.Client]++
				k = tries[o.Client]
			}
			if o.Type == history.Fail && !restarted[o.Client] && k >= 1 && k <= len(out) {
				out[k-1].Refused = append(out[k-1].Refused, o.Index)
			}
		}
	}
	return out, true
}
