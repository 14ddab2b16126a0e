package account_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/internal/history/historytest"
)

// ms is a time in milliseconds of wall time, as ns (the histories here run
// at time scale 1).
func ms(v float64) int64 { return int64(v * 1e6) }

// run builds a history of one or more observed nodes from client ops and
// node events, in the order given.
type run struct {
	h     history.History
	procs map[string]int
}

func newRun(algorithm string, nodes ...string) *run {
	return &run{h: history.History{Header: history.Header{
		Format: history.Format, Version: history.Version, TimeScale: 1, Algorithm: algorithm,
		Clients: []string{"w1", "w2"}, Nodes: nodes, Observed: nodes,
	}}, procs: map[string]int{}}
}

func (r *run) add(op history.Op) int {
	op.Index = len(r.h.Ops)
	r.h.Ops = append(r.h.Ops, op)
	return op.Index
}

func (r *run) proc(c string) int {
	p, ok := r.procs[c]
	if !ok {
		p = len(r.procs)
		r.procs[c] = p
	}
	return p
}

// acquire is a client's acquire of invoice-1 with token, granted on nodes
// (none: refused).
func (r *run) acquire(c, token string, inv, comp float64, nodes ...string) int {
	t := history.OK
	if len(nodes) == 0 {
		t = history.Fail
	}
	return r.add(history.Op{Process: r.proc(c), Client: c, F: history.Acquire, Key: "invoice-1", Type: t,
		Value: history.Value{Token: token, TTL: ms(1000), Nodes: nodes}, Invoke: ms(inv), Complete: ms(comp)})
}

func (r *run) release(c, token string, inv, comp float64, removed bool, nodes ...string) int {
	return r.add(history.Op{Process: r.proc(c), Client: c, F: history.Release, Key: "invoice-1", Type: history.OK,
		Value: history.Value{Token: token, Removed: removed, Nodes: nodes}, Invoke: ms(inv), Complete: ms(comp)})
}

// cmd is a node event: node ran args (lua: inside a script) from client c
// at t ms.
func (r *run) cmd(node, c string, t float64, lua bool, args ...string) int {
	key := args[1]
	if c := strings.ToLower(args[0]); c == "eval" || c == "evalsha" {
		key = args[3]
	}
	return r.add(history.Op{Process: history.NodeProcess, Client: c, F: history.NodeCmd, Key: key, Type: history.OK,
		Value: history.Value{Node: node, Cmd: args, Lua: lua}, Invoke: ms(t), Complete: ms(t)})
}

// crashN1 is a crash of n1 from inv to comp ms.
func (r *run) crashN1(inv, comp float64) {
	crash := historytest.Step("crash", "n1")
	crash.ID, crash.Duration = 1, ms(comp-inv)
	r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
		Value: historytest.Value(crash), Invoke: ms(inv), Complete: ms(comp), Type: history.OK})
}

// held is n1's dump of every string key it held at t ms (node-held).
func (r *run) held(t float64, keys ...history.HeldKey) {
	r.add(history.Op{Process: history.NodeProcess, F: history.NodeHeld, Type: history.OK, Invoke: ms(t), Complete: ms(t),
		Value: history.Value{Node: "n1", Held: keys}})
}

// compareAndDelete is the release script's lines: found says whether its
// GET found token (and so went on to DEL).
func (r *run) compareAndDelete(node, c, token string, t float64, found bool) {
	r.cmd(node, c, t, false, "evalsha", "sha1:cad", "1", "invoice-1", token)
	r.cmd(node, c, t, true, "GET", "invoice-1")
	if found {
		r.cmd(node, c, t, true, "DEL", "invoice-1")
	}
}

// lives says each key life as "node key=value (owner) start–end end-kind[ by]", in ms.
func lives(a *account.Account) []string {
	var out []string
	for _, k := range a.Keys() {
		s := fmt.Sprintf("%s %s=%s (%s) %.1f–%.1f %s", k.Node, k.Key, k.Value, k.Owner, float64(k.Start)/1e6, float64(k.End)/1e6, k.Ended.Kind)
		if k.Ended.By != "" {
			s += " by " + k.Ended.By
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestKeyLivesFollowWhatTheNodeShowedItHad(t *testing.T) {
	tests := []struct {
		name  string
		build func(r *run)
		want  []string
	}{
		{
			// redlock-gc-pause seed 12 under load: the node stamped w2's SET NX
			// 0.6 ms after w1's key's deadline, yet w2's release script found
			// nothing, so the SET had not taken; the probe's later key is its own.
			name: "a SET NX a hair past the deadline that a later compare shows did not take leaves the old key",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.acquire("w2", "B", 1004.7, 1005.6)
				r.cmd("n1", "w2", 1005.5, false, "set", "invoice-1", "B", "ex", "1", "nx")
				r.release("w2", "B", 1118, 1119, false)
				r.compareAndDelete("n1", "w2", "B", 1118.4, false)
				r.add(history.Op{Process: r.proc("probe"), Client: "probe", F: history.Probe, Key: "invoice-1", Type: history.OK,
					Value: history.Value{Token: "P", Removed: true, Nodes: []string{"n1"}}, Invoke: ms(1650), Complete: ms(1690)})
				r.cmd("n1", "probe", 1653.9, false, "set", "invoice-1", "P", "ex", "1", "nx")
				r.compareAndDelete("n1", "probe", "P", 1679.7, true)
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–1005.5 expired", "n1 invoice-1=P (probe) 1653.9–1679.7 released by probe"},
		},
		{
			// inventory-oversell seed 21: w3's SET NX came 0.5 ms after w1's
			// deadline, but w3 was refused, so the key was still w1's and
			// w2's later grant is w2's own (no foreign unlock by w2).
			name: "a SET NX a hair past the deadline whose single-node acquire was refused did not take",
			build: func(r *run) {
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1.7, false, "set", "invoice-1", "A", "px", "500", "nx")
				r.acquire("w3", "", 502.0, 502.4)
				r.cmd("n1", "w3", 502.2, false, "set", "invoice-1", "C", "px", "500", "nx")
				r.acquire("w2", "B", 511.4, 511.6, "n1")
				r.cmd("n1", "w2", 511.5, false, "set", "invoice-1", "B", "px", "500", "nx")
				r.release("w2", "B", 568.1, 568.9, true, "n1")
				r.compareAndDelete("n1", "w2", "B", 568.8, true)
			},
			want: []string{"n1 invoice-1=A (w1) 1.7–502.2 expired", "n1 invoice-1=B (w2) 511.5–568.8 released by w2"},
		},
		{
			// bsm/redislock's obtain script: SET NX, and on failure a GETRANGE
			// of the key to see whether it is already the caller's. The
			// script that went on to read the key had found it taken; the
			// one that stopped after its SET had taken it.
			name: "a script's SET NX a hair past the deadline is read from what the script did next",
			build: func(r *run) {
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1.0, false, "set", "invoice-1", "A", "px", "1000", "nx")
				r.cmd("n1", "w2", 1001.5, false, "evalsha", "sha1:obtain", "1", "invoice-1", "B", "22", "1000")
				r.cmd("n1", "w2", 1001.5, true, "set", "invoice-1", "B", "NX", "PX", "1000")
				r.cmd("n1", "w2", 1001.5, true, "getrange", "invoice-1", "0", "21")
				r.cmd("n1", "w3", 1003.0, false, "evalsha", "sha1:obtain", "1", "invoice-1", "C", "22", "1000")
				r.cmd("n1", "w3", 1003.0, true, "set", "invoice-1", "C", "NX", "PX", "1000")
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–1001.5 expired", "n1 invoice-1=C (w3) 1003.0–1003.0 held"},
		},
		{
			name: "a SET NX a hair past the deadline that a later compare found did take",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.acquire("w2", "B", 1004.7, 1005.6, "n1")
				r.cmd("n1", "w2", 1005.5, false, "set", "invoice-1", "B", "ex", "1", "nx")
				r.release("w2", "B", 1118, 1119, true, "n1")
				r.compareAndDelete("n1", "w2", "B", 1118.4, true)
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–1004.9 expired", "n1 invoice-1=B (w2) 1005.5–1118.4 released by w2"},
		},
		{
			name: "a SET NX a hair before the deadline that its client was granted did take",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.acquire("w2", "B", 1003, 1004.6, "n1")
				r.cmd("n1", "w2", 1004.0, false, "set", "invoice-1", "B", "ex", "1", "nx")
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–1004.0 expired", "n1 invoice-1=B (w2) 1004.0–1004.6 held"},
		},
		{
			name: "a script's DEL a hair past the deadline shows the key was still there: a release, not an expiry",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.release("w1", "A", 1005, 1006, true, "n1")
				r.compareAndDelete("n1", "w1", "A", 1005.8, true)
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–1005.8 released by w1"},
		},
		{
			name: "a SET NX well past the deadline takes whatever follows, by the stamps",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.acquire("w2", "B", 1100, 1101, "n1")
				r.cmd("n1", "w2", 1100.5, false, "set", "invoice-1", "B", "ex", "1", "nx")
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–1004.9 expired", "n1 invoice-1=B (w2) 1100.5–1101.0 held"},
		},
		{
			// redlock-restart seed 11 under load: w2's SET came on a connection a
			// timeout closed before the observer could ask its name.
			name: "a SET from a connection the observer could not name belongs to the client whose token it wrote",
			build: func(r *run) {
				r.add(history.Op{Process: r.proc("w2"), Client: "w2", F: history.Acquire, Key: "invoice-1", Type: history.Info,
					Value: history.Value{Token: "B", TTL: ms(1000)}, Invoke: ms(305), Complete: ms(564)})
				r.cmd("n1", "", 470.6, false, "set", "invoice-1", "B", "ex", "1", "nx")
				r.compareAndDelete("n1", "w2", "B", 564.2, true)
			},
			want: []string{"n1 invoice-1=B (w2) 470.6–564.2 released by w2"},
		},
		{
			name: "a key of unknown sender that a client's compare-and-delete removed was that client's",
			build: func(r *run) {
				r.add(history.Op{Process: r.proc("w2"), Client: "w2", F: history.Acquire, Key: "invoice-1", Type: history.Info,
					Value: history.Value{TTL: ms(1000)}, Invoke: ms(305), Complete: ms(564)})
				r.cmd("n1", "", 470.6, false, "set", "invoice-1", "B", "ex", "1", "nx")
				r.compareAndDelete("n1", "w2", "B", 564.2, true)
			},
			want: []string{"n1 invoice-1=B (w2) 470.6–564.2 released by w2"},
		},
		{
			name: "a plain DEL by another client removes the owner's key",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "set", "invoice-1", "A", "ex", "1", "nx")
				r.release("w2", "", 300, 301, true, "n1")
				r.cmd("n1", "w2", 300.5, false, "del", "invoice-1")
			},
			want: []string{"n1 invoice-1=A (w1) 4.9–300.5 deleted by w2"},
		},
		{
			name: "a fenced acquire's SET NX that went on to INCR took; one that stopped did not",
			build: func(r *run) {
				r.acquire("w1", "A", 2, 5, "n1")
				r.cmd("n1", "w1", 4.9, false, "evalsha", "sha1:fa", "2", "invoice-1", "fence", "A", "1000")
				r.cmd("n1", "w1", 4.9, true, "SET", "invoice-1", "A", "NX", "PX", "1000")
				r.cmd("n1", "w1", 4.9, true, "INCR", "fence")
				r.acquire("w2", "B", 1004, 1006)
				r.cmd("n1", "w2", 1005.5, false, "evalsha", "sha1:fa", "2", "invoice-1", "fence", "B", "1000")
				r.cmd("n1", "w2", 1005.5, true, "SET", "invoice-1", "B", "NX", "PX", "1000")
			},
			want: []string{"n1 fence=1 (w1) 4.9–1006.0 held", "n1 invoice-1=A (w1) 4.9–1005.5 expired"},
		},
		{
			// A fooling run (snapshot-kept-lock): n1 restarts from an RDB
			// snapshot that has w1's key; w2's SET NX after the restart finds
			// it. The node's dump after the restart shows w1's key: it
			// survived, and w2's key never existed.
			name: "a key the node showed it came back with survives the crash, and a SET NX the model took for granted is retracted",
			build: func(r *run) {
				r.h.Header.Persistence = map[string]string{"n1": "rdb"}
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "30000", "nx")
				r.crashN1(5000, 5300)
				r.cmd("n1", "w2", 5310, false, "set", "invoice-1", "B", "px", "30000", "nx")
				r.held(5320, history.HeldKey{Key: "invoice-1", Value: "A", TTL: ms(24680)})
				r.release("w1", "A", 10000, 10002, true, "n1")
				r.compareAndDelete("n1", "w1", "A", 10001, true)
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–10001.0 released by w1"},
		},
		{
			name: "a key the node did not come back with was lost in the crash",
			build: func(r *run) {
				r.h.Header.Persistence = map[string]string{"n1": "aof-always"}
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "30000", "nx")
				r.crashN1(5000, 5300)
				r.held(5320)
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–5000.0 crashed"},
		},
		{
			// Issue 33 class 3 (power-loss-always, crafted): the aof-always
			// node keeps w1's key through its crash; while its observer
			// reconnects, w1 releases and w2 is granted, unseen. The dump
			// shows w2's key: w1's life ended at its release, w2's began
			// at its grant, and w2's compare-and-delete removes its own.
			name: "a dump that shows another client's key wins over the model: the unseen release and grant are placed",
			build: func(r *run) {
				r.h.Header.Persistence = map[string]string{"n1": "aof-always"}
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "30000", "nx")
				r.crashN1(5000, 5300)
				r.add(history.Op{Process: history.NodeProcess, F: history.Unobserved, Type: history.OK, Invoke: ms(5001), Complete: ms(6000),
					Value: history.Value{Node: "n1"}})
				r.release("w1", "A", 5500, 5502, true, "n1")
				r.acquire("w2", "B", 5600, 5602, "n1")
				r.held(6001, history.HeldKey{Key: "invoice-1", Value: "B", TTL: ms(29599)})
				r.release("w2", "B", 7000, 7002, true, "n1")
				r.compareAndDelete("n1", "w2", "B", 7001, true)
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–5500.0 released by w1", "n1 invoice-1=B (w2) 5602.0–7001.0 released by w2"},
		},
		{
			name: "a key the dump no longer shows, with no crash and no release to explain it, was gone by the dump",
			build: func(r *run) {
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "30000", "nx")
				r.add(history.Op{Process: history.NodeProcess, F: history.Unobserved, Type: history.OK, Invoke: ms(100), Complete: ms(200),
					Value: history.Value{Node: "n1"}})
				r.held(201)
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–201.0 taken"},
		},
		{
			// redis-semaphore-3-host-sleep: n1 was SIGSTOPped from 3 s to
			// 11 s; the key's deadline at 10 s passed while Redis could
			// expire nothing.
			name: "a key whose deadline passed while its node was stopped leaves when the node resumes",
			build: func(r *run) {
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "1000", "nx")
				stop := historytest.Step("pause-node", "n1")
				stop.ID, stop.Duration = 1, ms(800)
				r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
					Value: historytest.Value(stop), Invoke: ms(300), Complete: ms(1100), Type: history.OK})
				r.acquire("w2", "B", 1200, 1202, "n1")
				r.cmd("n1", "w2", 1201, false, "set", "invoice-1", "B", "px", "1000", "nx")
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–1100.0 expired", "n1 invoice-1=B (w2) 1201.0–1202.0 held"},
		},
		{
			// fencing-random-nemesis seed 1142 (make claims-sweep): the
			// nemesis's record of a pause-node step ran from 162.8 to 237.2
			// ms, but n1 executed commands all through it (the SIGSTOP came
			// late) and granted w3 the key at 235.6: w1's key was gone by
			// then, not at the step's end.
			name: "a key whose deadline passed in a node's stop window ends no later than a command the node executed in that window",
			build: func(r *run) {
				r.acquire("w1", "A", 0, 2, "n1")
				r.cmd("n1", "w1", 1, false, "set", "invoice-1", "A", "px", "1000", "nx")
				stop := historytest.Step("pause-node", "n1")
				stop.ID, stop.Duration = 1, ms(800)
				r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault,
					Value: historytest.Value(stop), Invoke: ms(300), Complete: ms(1100), Type: history.OK})
				r.acquire("w2", "B", 1040, 1042, "n1")
				r.cmd("n1", "w2", 1041, false, "set", "invoice-1", "B", "px", "1000", "nx")
			},
			want: []string{"n1 invoice-1=A (w1) 1.0–1041.0 expired", "n1 invoice-1=B (w2) 1041.0–1100.0 held"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			tt.build(r)
			got := lives(account.New(r.h))
			if !slices.Equal(got, tt.want) {
				t.Errorf("key lives:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestAProbesGrantIsWhenItsKeyWasSetNotItsOperationsEnd(t *testing.T) {
	r := newRun("safe", "n1")
	// The probe's one operation sets its key at 10.2 ms and deletes it at
	// 10.6 ms; the operation ends at 11 ms, after its own release.
	op := r.add(history.Op{Process: 9, Client: history.ProbeClient, F: history.Probe, Key: "invoice-1", Type: history.OK,
		Value: history.Value{Token: "p", TTL: ms(1000), Nodes: []string{"n1"}, Removed: true}, Invoke: ms(10), Complete: ms(11)})
	r.cmd("n1", history.ProbeClient, 10.2, false, "SET", "invoice-1", "p", "PX", "1000", "NX")
	r.cmd("n1", history.ProbeClient, 10.6, true, "DEL", "invoice-1")
	a := account.New(r.h)
	g, ok := a.GrantOf(op)
	if !ok {
		t.Fatal("no grant for the probe")
	}
	if g.Start > g.End || g.Start != ms(10.2) {
		t.Fatalf("probe granted at %d, key ended at %d: want the grant at its SET (%d)", g.Start, g.End, ms(10.2))
	}
}

func TestAnUnobservedProbeThatRemovedItsKeyLeavesNoKeyHeld(t *testing.T) {
	// After a failover the group's commands reach a replica no observer
	// watches (failover-lost-lock): the probe's key is inferred from its
	// one operation, which says it removed the key it set.
	r := newRun("safe", "n1")
	r.h.Header.Observed = nil
	r.add(history.Op{Process: 9, Client: history.ProbeClient, F: history.Probe, Key: "invoice-1", Type: history.OK,
		Value: history.Value{Token: "p", TTL: ms(1000), Nodes: []string{"n1"}, Removed: true}, Invoke: ms(10), Complete: ms(11)})
	r.add(history.Op{Process: 1, Client: "w1", F: history.Acquire, Key: "invoice-2", Type: history.OK,
		Value: history.Value{Token: "A", TTL: ms(1000), Nodes: []string{"n1"}}, Invoke: ms(20), Complete: ms(21)})
	got := lives(account.New(r.h))
	want := []string{"n1 invoice-1=p (probe) 11.0–11.0 released by probe", "n1 invoice-2=A (w1) 21.0–21.0 held"}
	if !slices.Equal(got, want) {
		t.Errorf("key lives:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestReachedSaysWhetherTheNodesRanAnOperationsCommands(t *testing.T) {
	build := func(ran bool) (*account.Account, int) {
		r := newRun("safe", "n1")
		op := r.add(history.Op{Process: 1, Client: "w1", F: history.Release, Key: "invoice-1", Type: history.Info,
			Value: history.Value{Token: "A"}, Invoke: ms(100), Complete: ms(200)})
		if ran {
			r.cmd("n1", "w1", 150, false, "evalsha", "x", "1", "invoice-1", "A")
		}
		r.cmd("n1", "w2", 160, false, "set", "invoice-1", "B", "px", "1000", "nx")
		return account.New(r.h), op
	}
	t.Run("a release whose command no node ran never reached Redis", func(t *testing.T) {
		a, op := build(false)
		if ran, known := a.Reached(op); ran || !known {
			t.Errorf("Reached = %v, %v; want false, true", ran, known)
		}
	})
	t.Run("a release whose command the node ran reached it", func(t *testing.T) {
		a, op := build(true)
		if ran, known := a.Reached(op); !ran || !known {
			t.Errorf("Reached = %v, %v; want true, true", ran, known)
		}
	})
	// The observer names a sender by asking the node for its connections;
	// a connection gone before it asked (a client that timed out and hung
	// up) leaves the sender "": the owner token its command carried says
	// whose it was.
	unnamed := func(late bool) (*account.Account, int) {
		r := newRun("safe", "n1")
		op := r.add(history.Op{Process: 1, Client: "w1", F: history.Release, Key: "invoice-1", Type: history.Info,
			Value: history.Value{Token: "A"}, Invoke: ms(100), Complete: ms(200)})
		at := 150.0
		if late {
			at = 250
		}
		r.cmd("n1", "", at, false, "evalsha", "x", "1", "invoice-1", "A")
		r.cmd("n1", "w2", 260, false, "set", "invoice-1", "B", "px", "1000", "nx")
		return account.New(r.h), op
	}
	t.Run("a release whose command the node ran on a connection it could not name reached it", func(t *testing.T) {
		a, op := unnamed(false)
		if ran, known := a.Reached(op); !ran || !known {
			t.Errorf("Reached = %v, %v; want true, true", ran, known)
		}
	})
	t.Run("a release whose command a node ran late on a connection it could not name reached it", func(t *testing.T) {
		a, op := unnamed(true)
		if ran, known := a.Reached(op); !ran || !known {
			t.Errorf("Reached = %v, %v; want true, true", ran, known)
		}
	})
}

func TestAnAcquireSentWhileItsNodeWasDownReachedNothing(t *testing.T) {
	// snapshot-lost-lock on a loaded machine: n1 crashed and came back
	// late; w2's acquires in between got a reset, and the observer's gap
	// covers them. The crash's recorded down window says they ran nowhere.
	build := func(deadTo int64) (*account.Account, int) {
		r := newRun("safe", "n1")
		r.add(history.Op{Process: history.NemesisProcess, Client: history.NemesisClient, F: history.Fault, Type: history.OK,
			Value: history.Value{Fault: &history.FaultStep{ID: 1, Kind: "crash", Effect: history.EffectCrashNode, Nodes: []string{"n1"}},
				DeadFrom: ms(100), DeadTo: deadTo}, Invoke: ms(99), Complete: ms(700)})
		r.add(history.Op{Process: history.NodeProcess, F: history.Unobserved, Type: history.OK, Value: history.Value{Node: "n1"}, Invoke: ms(101), Complete: ms(701)})
		op := r.add(history.Op{Process: 2, Client: "w2", F: history.Acquire, Key: "invoice-1", Type: history.Info,
			Value: history.Value{TTL: ms(1000)}, Invoke: ms(300), Complete: ms(302)})
		return account.New(r.h), op
	}
	for _, c := range []struct {
		name   string
		deadTo int64
		known  bool
	}{
		{"an acquire inside the crash's down window is known to have run nowhere", ms(600), true},
		{"an acquire after the restart began, in the observer's gap, may have run", ms(250), false},
		{"a crash with no recorded down window leaves the gap unknown", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, op := build(c.deadTo)
			if ran, known := a.Reached(op); ran || known != c.known {
				t.Errorf("Reached = %v, %v; want false, %v", ran, known, c.known)
			}
		})
	}
}

func TestAHistoryCutWhileItsRunWentOnHasItsClientsBelievingToItsEnd(t *testing.T) {
	r := newRun("safe", "n1")
	r.acquire("w1", "t1", 0, 1, "n1")
	r.add(history.Op{Process: r.proc("w1"), Client: "w1", F: history.Read, Key: "invoice-1", Type: history.OK,
		Value: history.Value{Result: "unpaid"}, Invoke: ms(1), Complete: ms(2)})
	r.acquire("w2", "", 9, 10) // refused at 10 ms: the history's end
	for _, c := range []struct {
		name string
		cut  bool
		end  int64
	}{
		{"a finished run's client that stops recording is taken to have stopped then", false, ms(2)},
		{"a cut one's (w1 is in its job as the stream is read) still believes at the end", true, ms(10)},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := r.h
			h.Cut = c.cut
			a := account.New(h)
			if len(a.Holds) != 1 || a.Holds[0].Client != "w1" || a.Holds[0].End != c.end {
				t.Errorf("holds %+v, want w1's to end at %d ns", a.Holds, c.end)
			}
		})
	}
}

// TestAbsoluteExpiriesAreOnTheRunsClock: PXAT, EXAT and PEXPIREAT give a
// unix time; the account places it on the run's clock with the header's
// start, as the observer places the node's own stamps.
func TestAbsoluteExpiriesAreOnTheRunsClock(t *testing.T) {
	start := time.Date(2026, 12, 2, 2, 3, 53, 0, time.UTC)
	unixMS := func(at float64) string { return fmt.Sprint(start.UnixMilli() + int64(at)) }
	tests := []struct {
		name     string
		set      []string
		extend   []string
		deadline float64 // ms on the run's clock
	}{
		{"SET PXAT ends the key at its unix millisecond", []string{"set", "invoice-1", "t1", "PXAT", unixMS(250), "NX"}, nil, 250},
		{"SET EXAT ends the key at its unix second", []string{"set", "invoice-1", "t1", "exat", fmt.Sprint(start.Unix() + 2), "nx"}, nil, 2000},
		{"PEXPIREAT moves the deadline to its unix millisecond", []string{"set", "invoice-1", "t1", "px", "100", "nx"}, []string{"PEXPIREAT", "invoice-1", unixMS(400)}, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("safe", "n1")
			r.h.Header.Started = start
			r.acquire("w1", "t1", 0, 2, "n1")
			r.cmd("n1", "w1", 1, false, tt.set...)
			if tt.extend != nil {
				r.cmd("n1", "w1", 50, false, tt.extend...)
			}
			r.acquire("w2", "t2", 3000, 3002, "n1")
			r.cmd("n1", "w2", 3001, false, "set", "invoice-1", "t2", "px", "100", "nx")
			lives := account.New(r.h).LivesOf("n1", "invoice-1")
			if len(lives) != 2 {
				t.Fatalf("got %d lives, want w1's and w2's", len(lives))
			}
			if k := lives[0]; k.End != ms(tt.deadline) || k.Ended.Kind != account.EndExpired {
				t.Errorf("w1's key ended at %d (%s), want expired at %d", k.End, k.Ended.Kind, ms(tt.deadline))
			}
		})
	}
}

func TestAnUnseenKeyMayHaveExpiredFromWhenItsAcquireWasSent(t *testing.T) {
	// failover-wait seed 32 in a loaded suite: w1's SET reached a promoted
	// master no observer watched yet, and its WAIT held the acquire's
	// return back for a long while. The key's TTL ran from the SET, which
	// came between the acquire's invoke and its return: a later grant to
	// w2 after invoke + TTL says the key may have run out, not that
	// something the history does not show took it.
	tests := []struct {
		name  string
		grant float64 // w2's grant, ms
		want  string
	}{
		{"a grant after the acquire's invoke plus its TTL finds the key expired", 1100, "n1 invoice-1=A (w1) 400.0–1100.0 expired"},
		{"a grant before the acquire's invoke plus its TTL finds the key taken", 900, "n1 invoice-1=A (w1) 400.0–900.0 taken by w2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun("safe-wait", "n1")
			r.h.Header.Observed = nil
			r.h.Header.TimeScale = 10 // a scenario second is 100 ms of wall time
			r.acquire("w1", "A", 0, 400, "n1")
			r.acquire("w2", "B", tt.grant-5, tt.grant, "n1")
			r.release("w2", "B", tt.grant+50, tt.grant+55, true, "n1")
			got := lives(account.New(r.h))
			if !slices.Contains(got, tt.want) {
				t.Errorf("key lives:\n  %s\nwant among them:\n  %s", strings.Join(got, "\n  "), tt.want)
			}
		})
	}
}
