package clients_test

import (
	"context"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/lock"
)

func TestEveryRegisteredAlgorithmBuildsUnderItsName(t *testing.T) {
	// A go-redis client connects lazily: nothing here talks to Redis.
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for _, a := range clients.All() {
		t.Run(a.Name+" builds a Locker that answers to its registered name", func(t *testing.T) {
			nodes := []clients.Node{{Name: "n1", Cmd: rdb}}
			if a.Traits.MultiNode {
				for i := 2; i <= 5; i++ {
					nodes = append(nodes, clients.Node{Name: "n" + string(rune('0'+i)), Cmd: rdb})
				}
			}
			cfg := clients.Config{Config: lock.Config{Nodes: nodes, TTL: time.Second, Rand: rand.New(rand.NewPCG(1, 2))}}
			if a.Traits.Process {
				// A lock client process answers to the name its hello gives.
				cfg.Process = &clients.ProcessOptions{Command: []string{"/usr/bin/python3", "testdata/fake_adapter.py", "ok"}}
			}
			lk, err := clients.New(a.Name, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if c, ok := lk.(io.Closer); ok {
				defer c.Close()
			}
			if want := a.Name; a.Traits.Process {
				if lk.Name() != "fake ok" {
					t.Errorf("Name() = %q, want the process's own %q", lk.Name(), "fake ok")
				}
			} else if lk.Name() != want {
				t.Errorf("Name() = %q, want %q", lk.Name(), want)
			}
			if a.About == "" {
				t.Error("no description")
			}
		})
	}
}

func TestTheRegistryHandsOutCopies(t *testing.T) {
	t.Run("changing what All returns changes nothing registered", func(t *testing.T) {
		all := clients.All()
		all[0].Name = "changed"
		for i := range all {
			if len(all[i].Traits.Workloads) > 0 {
				all[i].Traits.Workloads[0] = "changed"
			}
		}
		for _, a := range clients.All() {
			if a.Name == "changed" || slices.Contains(a.Traits.Workloads, "changed") {
				t.Errorf("registry changed through All: %+v", a)
			}
		}
	})
	t.Run("changing what Lookup returns changes nothing registered", func(t *testing.T) {
		a, ok := clients.Lookup("atomic-lua")
		if !ok {
			t.Fatal("atomic-lua is not registered")
		}
		a.Traits.Workloads[0] = "changed"
		if b, _ := clients.Lookup("atomic-lua"); b.Traits.Workloads[0] != "inventory" {
			t.Errorf("atomic-lua's workloads changed through Lookup: %v", b.Traits.Workloads)
		}
	})
	t.Run("changing what Names returns changes nothing registered", func(t *testing.T) {
		n := clients.Names()
		n[0] = "changed"
		if clients.Names()[0] != "naive" {
			t.Errorf("Names()[0] = %q", clients.Names()[0])
		}
	})
	t.Run("an unknown name is not found", func(t *testing.T) {
		if _, ok := clients.Lookup("paxos"); ok {
			t.Error("Lookup(paxos) found something")
		}
		if _, err := clients.New("paxos", clients.Config{}); err == nil || !strings.Contains(err.Error(), `unknown algorithm "paxos"`) {
			t.Errorf("New(paxos) = %v", err)
		}
	})
}

func TestRegisterRefusesAMalformedAlgorithm(t *testing.T) {
	build := func(clients.Config) (clients.Locker, error) { return nil, context.Canceled }
	ok := clients.Algorithm{Name: "test-lock", About: "a test lock", New: build}
	with := func(f func(*clients.Algorithm)) clients.Algorithm {
		a := ok
		f(&a)
		return a
	}
	tests := []struct {
		name string
		a    clients.Algorithm
		want string
	}{
		{"a name taken by locksim's own algorithm is refused", with(func(a *clients.Algorithm) { a.Name = "safe" }), "registered twice"},
		{"an empty name is refused", with(func(a *clients.Algorithm) { a.Name = "" }), "algorithm name"},
		{"a name a scenario cannot spell is refused", with(func(a *clients.Algorithm) { a.Name = "My Lock" }), "algorithm name"},
		{"a missing description is refused", with(func(a *clients.Algorithm) { a.About = "" }), "one line"},
		{"a missing constructor is refused", with(func(a *clients.Algorithm) { a.New = nil }), "no constructor"},
		{"a lock-free algorithm without its one workload is refused", with(func(a *clients.Algorithm) { a.Traits.LockFree = true }), "exactly one workload"},
		{"a lock-free algorithm with a fence is refused", with(func(a *clients.Algorithm) {
			a.Traits = clients.Traits{LockFree: true, Traits: lock.Traits{Fenced: true, Workloads: []string{"payment"}}}
		}), "takes no lock"},
		{"a lock on one node only and on a quorum at once is refused", with(func(a *clients.Algorithm) {
			a.Traits.SingleNode, a.Traits.MultiNode = true, true
		}), "both single-node and multi-node"},
		{"a drift factor on no library is refused", with(func(a *clients.Algorithm) { a.Traits.DriftFactor = true }), "library option"},
		// Which workloads take the key is package workload's to check.
		{"an idempotency key that names no workload is refused", with(func(a *clients.Algorithm) { a.Traits.IdempotencyKey = true }), "names no workload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tt.want) {
					t.Errorf("Register panicked with %v, want …%s…", r, tt.want)
				}
				if _, found := clients.Lookup(tt.a.Name); found && tt.a.Name != "safe" {
					t.Errorf("%q was registered anyway", tt.a.Name)
				}
			}()
			clients.Register(tt.a)
		})
	}
}

func TestTraitsSayWhichWorkloadsAnAlgorithmRuns(t *testing.T) {
	tests := []struct {
		name     string
		traits   clients.Traits
		workload string
		want     bool
	}{
		{"a plain lock runs a lock workload", clients.Traits{}, "payment", true},
		{"a plain lock does not run the semaphore workload", clients.Traits{}, "semaphore", false},
		{"a semaphore runs the semaphore workload", clients.Traits{Traits: lock.Traits{Semaphore: true}}, "semaphore", true},
		{"a control runs the semaphore workload", clients.Traits{Control: true}, "semaphore", true},
		{"a listed workload is run", clients.Traits{Traits: lock.Traits{Workloads: []string{"inventory"}}}, "inventory", true},
		{"a workload not listed is not run", clients.Traits{Traits: lock.Traits{Workloads: []string{"inventory"}}}, "payment", false},
		{"a semaphore limited to its workload runs nothing else", clients.Traits{Traits: lock.Traits{Semaphore: true, Workloads: []string{"semaphore"}}}, "counter", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.traits.Runs(tt.workload); got != tt.want {
				t.Errorf("%+v.Runs(%q) = %v, want %v", tt.traits, tt.workload, got, tt.want)
			}
		})
	}
}
