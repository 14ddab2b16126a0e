// Package cluster owns the environment of one locksim run: N Redis nodes and
// an in-process toxiproxy server with one proxy per (client, node) link, all
// listening on 127.0.0.1 only (design §3–§4).
//
// Two backends exist. "local" starts real redis-server processes, each on an
// ephemeral port with its own temp dir (os.TempDir()/locksim-<node>-*), in its
// own process group and with a parent-death signal, so nodes die with
// locksim; stale dirs of a previous, killed locksim are removed at Start.
// "embedded" runs miniredis v2 servers in process with ClockTTL(true); every
// version string it reports says "emulated Redis".
//
// Network faults are toxiproxy toxics on one Link (Cut, AddLatency, Reset,
// Heal); node faults act on one Node (Kill, Restart, Pause, Resume,
// ShiftClock). A server clock jump is emulated by TTL shifting
// (lock-theory §6.3): one Lua script rewrites the remaining TTL of every
// volatile key of the node. HealAll undoes every fault; Close tears the whole
// environment down. Both are idempotent.
package cluster
