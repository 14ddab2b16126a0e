package cluster

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWhatACrashKeepsByPersistence writes a key, lets a snapshot or a
// second pass (where the mode has one), writes a second key, crashes the
// node and restarts it: what comes back is what the mode keeps.
func TestWhatACrashKeepsByPersistence(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name        string
		persistence string
		powerLoss   bool
		// snapshot: take one between the two writes (rdb); settle: let
		// the power-loss window pass between them (aof-everysec).
		snapshot, settle      bool
		keepFirst, keepSecond bool
	}{
		{"rdb restarts from the last snapshot: the write after it is lost", PersistenceRDB, false, true, false, true, false},
		{"aof-always keeps every acknowledged write through a crash", PersistenceAOFAlways, false, false, false, true, true},
		{"aof-always keeps every acknowledged write through a power loss", PersistenceAOFAlways, true, false, false, true, true},
		{"aof-everysec keeps every acknowledged write through kill -9 (the page cache survives)", PersistenceAOFEverysec, false, false, false, true, true},
		{"aof-everysec loses the last second of writes in a power loss", PersistenceAOFEverysec, true, false, true, true, false},
		{"none restarts empty", PersistenceNone, false, false, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startCluster(t, Options{Backend: BackendLocal, Nodes: 1, Persistence: tt.persistence, Clients: []string{"w1"},
				SaveInterval: time.Hour, PowerLossWindow: time.Second})
			n := c.Node(0)
			rc := testClient(t, n.Addr())
			if err := rc.Set(ctx, "first", "1", 0).Err(); err != nil {
				t.Fatal(err)
			}
			if tt.snapshot {
				if err := n.Snapshot(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if tt.settle {
				time.Sleep(1500 * time.Millisecond) // past the window: "first" counts as fsynced
			}
			// With everysec, a write that finds an fsync still running is
			// postponed (up to 2 s) while its reply goes out: a kill then
			// loses it (Redis's flushAppendOnlyFile). Write once none runs.
			if err := eventually(settle, func() error {
				info, err := rc.Info(ctx, "persistence").Result()
				if err == nil && infoField(info, "aof_pending_bio_fsync") != "0" && infoField(info, "aof_enabled") == "1" {
					return errors.New("an fsync is pending")
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := rc.Set(ctx, "second", "2", 0).Err(); err != nil {
				t.Fatal(err)
			}
			if tt.powerLoss {
				if _, err := n.PowerLoss(); err != nil {
					t.Fatal(err)
				}
			} else if err := n.Kill(); err != nil {
				t.Fatal(err)
			}
			if err := n.Restart(ctx); err != nil {
				t.Fatal(err)
			}
			rc = testClient(t, n.Addr())
			for key, want := range map[string]bool{"first": tt.keepFirst, "second": tt.keepSecond} {
				got, err := rc.Exists(ctx, key).Result()
				if err != nil {
					t.Fatal(err)
				}
				if (got == 1) != want {
					t.Errorf("after the restart %s exists = %v, want %v", key, got == 1, want)
				}
			}
		})
	}
}
