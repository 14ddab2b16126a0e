package checker

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/workload"
)

// TestLinearizableSummaryTellsLockKeysFromResources: the linearizable
// checker partitions by key, and a workload whose writes go to keys no lock
// op touches (cron: the lock cron:report, the runs job@1 and job@2) has
// partitions that are resources, not lock keys. Its summary says so ("on 1
// lock key and 1 resource"), not "on 2 keys" of a run with one lock key
// (reader 11, cron-duplicate-run: "18 operations on 3 keys").
func TestLinearizableSummaryTellsLockKeysFromResources(t *testing.T) {
	type tc struct {
		name string
		b    *hb
		want string
	}
	var cases []tc
	{
		b := newHB(false).workload(workload.Cron, "single", nil)
		b.acquire("s2", "lock:J", 59.2, 59.3, 0)
		b.write("s2", "job@3", workload.ActionRunJob, 59.4, 59.7, 0)
		b.release("s2", "lock:J", 59.8, 59.9, true)
		b.acquire("s1", "lock:J", 60, 60.1, 0)
		b.write("s1", "job@4", workload.ActionRunJob, 60.2, 60.5, 0)
		b.release("s1", "lock:J", 60.6, 60.7, true)
		cases = append(cases, tc{"one lock key, two resources", b, "6 operations on 1 lock key and 2 resources linearizable under the lease model"})
	}
	{
		b := newHB(false).workload(workload.Cron, "per-fire-key", nil)
		b.acquire("s2", "job@3", 59.2, 59.3, 0)
		b.write("s2", "job@3", workload.ActionRunJob, 59.4, 59.7, 0)
		b.acquire("s1", "job@4", 120, 120.1, 0)
		b.write("s1", "job@4", workload.ActionRunJob, 120.2, 120.5, 0)
		cases = append(cases, tc{"lock keys that are their resources", b, "4 operations on 2 keys linearizable under the lease model"})
	}
	{
		b := newHB(false).workload(workload.Inventory, "atomic-lua", map[string]int64{history.ParamStock: 0})
		b.numWrite("b1", "item-1", workload.ActionSell, 0, 0.1, 0, -1)
		cases = append(cases, tc{"a lock-free resource not linearizable", b, "1 resource not linearizable under the lease model"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := Linearizable(context.Background(), c.b.h, Options{Timeout: 5 * time.Second})
			if r.Summary != c.want {
				t.Errorf("summary %q, want %q", r.Summary, c.want)
			}
		})
	}
}
