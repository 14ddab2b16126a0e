package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// What each persistence mode models, and how (issue 17, BR-31):
//
//   - none: no RDB, no AOF. A killed node restarts empty.
//   - rdb: Redis's snapshots (redis.io, "Redis persistence": "RDB
//     persistence performs point-in-time snapshots of your dataset at
//     specified intervals"). Redis's own `save <seconds> <changes>` counts
//     whole seconds of wall time, too coarse for a compressed run, so the
//     harness sends BGSAVE every Options.SaveInterval (the scenario's
//     save_interval, scaled) — the same fork-and-write Redis's save points
//     trigger. A killed node restarts from the last snapshot it finished:
//     every write after it is lost, keys it held come back with their
//     absolute expiry.
//   - aof-always: appendfsync always; Redis fsyncs before it replies, so a
//     crash keeps every acknowledged write, a power loss too.
//   - aof-everysec: appendfsync everysec. Redis writes the AOF buffer to
//     the OS before it replies and fsyncs once a second in the background,
//     so a killed process (kill -9) keeps every acknowledged write — the
//     page cache survives it; except a write that found the previous
//     fsync still running, which Redis postpones (up to 2 s) while its
//     reply already went out — while a power loss drops what was written
//     since the last fsync: "you may lose 1 second of data" (redis.io,
//     "Redis persistence", AOF advantages). A crash with power_loss
//     models that: the node is killed, then its current AOF file is cut
//     back to its size Options.PowerLossWindow (1 s of scenario time,
//     scaled) before the kill, as sampled by the harness every window/8,
//     and only then restarted (Redis loads a truncated AOF tail:
//     aof-load-truncated yes is its default). For the other modes a power
//     loss is the same as a kill.

// background holds a node's background jobs.
type background struct {
	stopOnce sync.Once
	quit     chan struct{}
	wg       sync.WaitGroup
	// rewind restarts the save interval (Reset: a reused node's snapshots
	// count from the new run, as a fresh node's from its start).
	rewind chan struct{}

	mu      sync.Mutex
	samples []aofSample // aof-everysec: recent (time, file, size) samples
	window  time.Duration
	saves   int // finished BGSAVE commands sent (tests)
}

type aofSample struct {
	at   time.Time
	file string
	size int64
}

func (b *background) stop() {
	if b == nil {
		return
	}
	b.stopOnce.Do(func() { close(b.quit) })
	b.wg.Wait()
}

// startBackground starts the snapshot timers of rdb nodes and the AOF
// samplers of aof-everysec nodes (masters and replicas).
func (c *Cluster) startBackground() {
	save, window := c.saveInterval, c.powerLossWindow
	for _, n := range append(append([]*Node(nil), c.nodes...), c.topo.replicas...) {
		ln, ok := n.impl.(*localNode)
		if !ok {
			continue
		}
		switch n.persistence {
		case PersistenceRDB:
			ln.bg = &background{quit: make(chan struct{}), rewind: make(chan struct{}, 1)}
			ln.bg.wg.Go(func() { n.snapshots(save) })
		case PersistenceAOFEverysec:
			ln.bg = &background{quit: make(chan struct{}), window: window}
			ln.bg.wg.Go(func() { ln.sampleAOF(window) })
		}
	}
}

// backgroundPeriods are o's save interval and power-loss window, wall
// time, with their defaults (60 s and 1 s).
func backgroundPeriods(o Options) (save, window time.Duration) {
	save, window = o.SaveInterval, o.PowerLossWindow
	if save <= 0 {
		save = 60 * time.Second
	}
	if window <= 0 {
		window = time.Second
	}
	return save, window
}

// snapshots sends BGSAVE every interval while the node runs.
func (n *Node) snapshots(interval time.Duration) {
	ln := n.impl.(*localNode)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ln.bg.quit:
			return
		case <-ln.bg.rewind:
			t.Reset(interval)
			continue
		case <-t.C:
		}
		if err := n.Snapshot(context.Background()); err != nil {
			n.log.Debug("snapshot skipped", "node", n.name, "err", err)
		}
	}
}

// Snapshot writes a snapshot of an rdb node now (BGSAVE, waiting until it
// is on disk), as its save interval does; ErrNodeNotRunning when the node
// is down or paused.
func (n *Node) Snapshot(ctx context.Context) error {
	n.mu.Lock()
	ln, ok := n.impl.(*localNode)
	if !ok || ln.state() != StateRunning {
		n.mu.Unlock()
		return ErrNodeNotRunning
	}
	admin := ln.admin
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := admin.BgSave(ctx).Err(); err != nil && !strings.Contains(err.Error(), "in progress") {
		return fmt.Errorf("snapshot %s: %w", n.name, err)
	}
	// rdb_bgsave_in_progress says when this one is done (LASTSAVE counts
	// whole seconds).
	for {
		info, err := admin.Info(ctx, "persistence").Result()
		if err != nil {
			return fmt.Errorf("snapshot %s: %w", n.name, err)
		}
		if infoField(info, "rdb_bgsave_in_progress") == "0" {
			if infoField(info, "rdb_last_bgsave_status") != "ok" {
				return fmt.Errorf("snapshot %s: bgsave failed", n.name)
			}
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("snapshot %s: %w", n.name, ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
	if ln.bg != nil {
		ln.bg.mu.Lock()
		ln.bg.saves++
		ln.bg.mu.Unlock()
	}
	return nil
}

// sampleAOF records the size of the node's current AOF file every
// window/8, keeping a little more than one window of samples.
func (n *localNode) sampleAOF(window time.Duration) {
	every := min(max(window/8, time.Millisecond), 100*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-n.bg.quit:
			return
		case now := <-t.C:
			file := currentAOF(n.dataDir)
			if file == "" {
				continue
			}
			size := fileSize(file)
			n.bg.mu.Lock()
			n.bg.samples = append(n.bg.samples, aofSample{now, file, size})
			cut := 0
			for cut < len(n.bg.samples)-1 && now.Sub(n.bg.samples[cut+1].at) > 2*window {
				cut++
			}
			n.bg.samples = n.bg.samples[cut:]
			n.bg.mu.Unlock()
		}
	}
}

// currentAOF is the path of the AOF file Redis appends to: the incr file
// with the highest sequence number in appendonlydir (Redis 7's multi-part
// AOF), or the single appendonly.aof of older versions.
func currentAOF(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "appendonlydir", "*.incr.aof"))
	if len(files) == 0 {
		if p := filepath.Join(dir, "appendonly.aof"); fileSize(p) > 0 {
			return p
		}
		return ""
	}
	seq := func(p string) int {
		parts := strings.Split(filepath.Base(p), ".")
		for i := len(parts) - 1; i >= 0; i-- {
			if v, err := strconv.Atoi(parts[i]); err == nil {
				return v
			}
		}
		return 0
	}
	sort.Slice(files, func(i, j int) bool { return seq(files[i]) < seq(files[j]) })
	return files[len(files)-1]
}

// powerLossCut truncates the current AOF of a killed aof-everysec node to
// its size one window before now; it returns the bytes dropped.
func (n *localNode) powerLossCut(now time.Time) (int64, error) {
	if n.bg == nil || n.persistence != PersistenceAOFEverysec {
		return 0, nil
	}
	file := currentAOF(n.dataDir)
	if file == "" {
		return 0, nil
	}
	n.bg.mu.Lock()
	keep := int64(-1)
	for _, s := range n.bg.samples {
		if s.file == file && !s.at.After(now.Add(-n.bg.window)) {
			keep = s.size
		}
	}
	n.bg.mu.Unlock()
	if keep < 0 {
		// The file is younger than the window (or sampling had not seen
		// it): nothing of it was fsynced yet.
		keep = 0
	}
	size := fileSize(file)
	if keep >= size {
		return 0, nil
	}
	if err := os.Truncate(file, keep); err != nil {
		return 0, fmt.Errorf("cut the aof of %s: %w", n.name, err)
	}
	return size - keep, nil
}

// PowerLoss crashes the node as a power loss would: kill -9, then for an
// aof-everysec node the writes of the last PowerLossWindow that no fsync
// reached are dropped from its AOF. For the other persistence modes it is
// Kill. It returns the bytes of AOF dropped.
func (n *Node) PowerLoss() (int64, error) {
	var dropped int64
	err := n.do("power-loss", func() error {
		now := time.Now()
		n.killed = true
		if err := n.impl.kill(); err != nil {
			return err
		}
		ln, ok := n.impl.(*localNode)
		if !ok {
			return errors.New("a power loss needs a local node")
		}
		d, err := ln.powerLossCut(now)
		dropped = d
		return err
	})
	return dropped, err
}
