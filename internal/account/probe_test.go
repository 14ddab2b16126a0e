package account_test

import (
	"testing"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// Issue 27 (a fresh reader, semaphore-over-admission seed 50): the final
// probe's tooltip said "granted at t=28.317s. Its key left Redis at
// t=28.316s": n1 added the probe's permit at 28.311 s and removed it at
// 28.316 s; 28.317 s is the probe's completion. A probe's grant is no
// later than the node's record of its key or its permit.
func TestAProbesGrantIsNoLaterThanTheNodesRecordOfIt(t *testing.T) {
	tests := []struct {
		name      string
		algorithm string
		key       string
		nodes     []string
		cmds      func(r *run)
		wantStart float64
	}{
		{"a probe's permit in a sorted set is granted when the node added it", "fair-semaphore", "sem-1", nil, func(r *run) {
			r.cmd("n1", history.ProbeClient, 505, false, "evalsha", "sha1:acquire", "3", "sem-1", "sem-1:owner", "sem-1:counter", "99999", "500", "p", "2")
			r.cmd("n1", history.ProbeClient, 506, true, "ZADD", "sem-1", "99999", "p")
			r.cmd("n1", history.ProbeClient, 510, false, "evalsha", "sha1:release", "2", "sem-1", "sem-1:owner", "p")
			r.cmd("n1", history.ProbeClient, 511, true, "ZREM", "sem-1", "p")
		}, 506},
		// Reader 19 (node-redlock-clock-jump, redsync-clock-jump,
		// redlock-majority-partition): "granted at t=16.96s … Granted by
		// n1, n2, n3, n4 and n5" when only two nodes had run the probe's
		// SET; a Redlock lock is held from its majority on.
		{"a Redlock probe's lock is granted when the majority's last node set its key", "redlock", "invoice-1", []string{"n1", "n2", "n3", "n4", "n5"}, func(r *run) {
			for i, n := range []string{"n2", "n1", "n5", "n3", "n4"} {
				r.cmd(n, history.ProbeClient, 505+float64(2*i), false, "set", "invoice-1", "p", "px", "1000", "nx")
			}
			for _, n := range []string{"n1", "n2", "n3", "n4", "n5"} {
				r.compareAndDelete(n, history.ProbeClient, "p", 516, true)
			}
		}, 509},
		{"a probe's key is granted when the node set it", "safe", "invoice-1", nil, func(r *run) {
			r.cmd("n1", history.ProbeClient, 505, false, "set", "invoice-1", "p", "px", "1000", "nx")
			r.compareAndDelete("n1", history.ProbeClient, "p", 510, true)
		}, 505},
	}
	for i := range tests {
		if tests[i].nodes == nil {
			tests[i].nodes = []string{"n1"}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(tt.algorithm, tt.nodes...)
			p := r.add(history.Op{Process: 9, Client: history.ProbeClient, F: history.Probe, Key: tt.key, Type: history.OK,
				Value: history.Value{Token: "p", TTL: ms(1000), Nodes: tt.nodes, Removed: true}, Invoke: ms(500), Complete: ms(520)})
			tt.cmds(r)
			a := account.New(r.h)
			g, ok := a.GrantOf(p)
			if !ok {
				t.Fatal("no grant of the probe")
			}
			if g.Start != ms(tt.wantStart) || g.Start > g.End {
				t.Errorf("probe granted at %d, its lock gone at %d (%d key lives, %d members); want granted at %d",
					g.Start, g.End, len(g.Lives), len(g.Members), ms(tt.wantStart))
			}
		})
	}
}
