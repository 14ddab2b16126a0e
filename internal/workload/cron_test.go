package workload

import (
	"fmt"
	"slices"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestARunJobKeyNamesItsFireTime: the report reads a fire's scheduled time
// from its run-job key; a key that names no fire gives none.
func TestARunJobKeyNamesItsFireTime(t *testing.T) {
	for _, c := range []struct {
		key  string
		k    int
		isOK bool
	}{
		{"job@1", 1, true},
		{"job@12", 12, true},
		{"job@", 0, false},
		{"job@2x", 0, false},
		{"invoice-1", 0, false},
	} {
		t.Run(c.key+" names fire "+map[bool]string{true: "a time", false: "none"}[c.isOK], func(t *testing.T) {
			k, ok := FireOf(c.key)
			if ok != c.isOK || (ok && k != c.k) {
				t.Errorf("FireOf(%q) = %d, %v; want %d, %v", c.key, k, ok, c.k, c.isOK)
			}
		})
	}
}

// TestFireTimesSaysWhatBecameOfEachFire: scheduler-mutex-90s, seed 34
// (reader 4, findings 1 and 6): four fire times; w1 ran job@1 until its
// crash, w2's acquires for fires 1 and 2 were refused by w1's key, and w2
// ran job@3 and job@4. Fire 2 has no run and w2's second refusal; a
// scheduler's k-th acquire is for fire k, and with one lock per fire time
// the key names it; a restarted scheduler's refusals are given to none.
func TestFireTimesSaysWhatBecameOfEachFire(t *testing.T) {
	op := func(client string, f history.Func, key string, typ history.Type, action string) history.Op {
		return history.Op{Client: client, F: f, Key: key, Type: typ, Value: history.Value{Action: action}}
	}
	run := func(plan []history.FaultStep, ops ...history.Op) []Fire {
		h := history.History{Header: history.Header{Workload: Cron, Plan: plan,
			Params: map[string]int64{history.ParamFires: 4, history.ParamIntervalNS: 600_000_000}}}
		for i, o := range ops {
			o.Index = i
			h.Ops = append(h.Ops, o)
		}
		fs, ok := FireTimes(h)
		if !ok {
			t.Fatal("FireTimes refused a cron run")
		}
		return fs
	}
	ops := []history.Op{
		op("w1", history.Acquire, cronJob, history.OK, ""),
		op("w1", history.Write, "job@1", history.Info, ActionRunJob),
		op("w2", history.Acquire, cronJob, history.Fail, ""),
		op("w2", history.Acquire, cronJob, history.Fail, ""),
		op("w2", history.Acquire, cronJob, history.OK, ""),
		op("w2", history.Write, "job@3", history.OK, ActionRunJob),
	}
	perFire := []history.Op{
		op("w2", history.Acquire, cronJob+"@3", history.Fail, ""),
		op("w1", history.Write, "job@3", history.OK, ActionRunJob),
	}
	restart := []history.FaultStep{{ID: 1, Effect: history.EffectRestartClient, Clients: []string{"w2"}}}
	for _, c := range []struct {
		name    string
		plan    []history.FaultStep
		ops     []history.Op
		refused [][]int
		runs    [][]int
	}{
		{"a scheduler's second acquire is for the second fire", nil, ops, [][]int{{2}, {3}, nil, nil}, [][]int{{1}, nil, {5}, nil}},
		{"a lock per fire time names its fire in its key", nil, perFire, [][]int{nil, nil, {0}, nil}, [][]int{nil, nil, {1}, nil}},
		{"a restarted scheduler's refusals are given to no fire", restart, ops, [][]int{nil, nil, nil, nil}, [][]int{{1}, nil, {5}, nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := run(c.plan, c.ops...)
			if len(fs) != 4 {
				t.Fatalf("%d fires, want 4", len(fs))
			}
			for k, f := range fs {
				if f.Key != fmt.Sprintf("job@%d", k+1) || f.Due != int64(k+1)*600_000_000 {
					t.Errorf("fire %d is %s due %d", k+1, f.Key, f.Due)
				}
				if !slices.Equal(f.Refused, c.refused[k]) || !slices.Equal(f.Runs, c.runs[k]) {
					t.Errorf("fire %d: refused %v, runs %v; want %v, %v", k+1, f.Refused, f.Runs, c.refused[k], c.runs[k])
				}
			}
		})
	}
}
