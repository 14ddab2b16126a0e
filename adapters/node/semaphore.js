// redis-semaphore's Mutex as a locksim lock client process, with its
// automatic refresh, at one of five published releases, chosen by the
// command's one argument (package.json pins each under an npm alias):
//
//   algorithm: process
//   process: {command: [node, adapters/node/semaphore.js], traits: [single-node]}          # 5.8.0
//   process: {command: [node, adapters/node/semaphore.js, 4.1.0], traits: [single-node]}
//   process: {command: [node, --unhandled-rejections=warn, adapters/node/semaphore.js, 3.2.1], ...}
//
//   5.8.0 (redis-semaphore)    the current release. tryAcquire; the refresh
//                              script PEXPIREs the key only while it holds our
//                              identifier (since 5.3.1, #175: a gone key is
//                              lost, not set again); onLockLost; isAcquired.
//   5.3.1 (redis-semaphore-531) the release that fixed #175 (CHANGELOG 5.3.1:
//                              "Fixed reacquire expired resource in
//                              refresh"): lib/mutex/refresh.js's
//                              expireIfEqualLua PEXPIREs only a key that
//                              holds our identifier and answers 0 otherwise,
//                              so the refresh calls onLockLost.
//   5.3.0 (redis-semaphore-530) the last release with #175: the same script
//                              goes on `elseif value == false then
//                              redis.call('set', key, identifier)
//                              redis.call('pexpire', key, lockTimeout)
//                              return 1`: a refresh that finds the key gone
//                              (expired, or released by the next holder)
//                              sets it again under our identifier and calls
//                              that a success.
//   4.1.0 (redis-semaphore-4)  the release that answered #24 (2021-01-30,
//                              commits 0efc0a2 "added isAcquired property" and
//                              6a082b6 "added lost lock handler"): onLockLost
//                              (default: throw) and isAcquired. Its refresh
//                              script (since 4.0.0, 4ea2962) SETs a gone key
//                              again under our identifier and calls that a
//                              success. No tryAcquire.
//   3.2.1 (redis-semaphore-3)  before #24's answer: no onLockLost, no
//                              isAcquired. A refresh that finds the key gone
//                              or someone else's throws LostLockError inside
//                              its setInterval callback — an unhandled
//                              rejection nobody can catch; the holder is never
//                              told. (The registry serves no 4.0.x, the
//                              release #24 was filed against; 4.0.x has the
//                              same unobservable throw, and its refresh
//                              re-SETs a gone key like 4.1.0.) Node ≥ 15 ends
//                              the process at an unhandled rejection; the
//                              reporter's Node 12 printed a warning and ran
//                              on, which --unhandled-rejections=warn restores.
//
// One ioredis client (node n1, through this client's proxy). One acquire is
// one attempt. The Mutex refreshes its key every refresh_interval_ms
// (process.options; default the library's 0.8 × ttl, 0 = no refresh). Where
// the release has onLockLost (4.1.0 and 5.x) the adapter passes one that
// sends a "lost" event, which ends the hold in locksim's history, and
// answers valid with isAcquired; 3.2.1 offers neither, so this adapter
// lists no valid op for it and sends no lost event: the holder acts on.
//
// Protocol version 2: an acquire's ok names the library's own key
// (lock_key "mutex:<key>", the key its README says it stores), and every
// refresh the library makes on its own is a "renewed" event (ok when the
// refresh script answered 1, not-held when 0, unknown when it failed),
// sent from a wrapper of the Mutex's _refresh — the one call every
// release's refresh timer makes — which changes nothing it sends.
//
// Mutex.release() resolves whether or not it deleted the key (the delete
// script's result is only logged, lib/mutex/release.js), so it cannot say
// not-held. The adapter stops the refresh and runs that release's own
// delete script (delIfEqualLua, exported by lib/mutex/release from 4.0.0
// on; 3.2.1's, unexported, is copied below verbatim and run through its
// own createEval) to read the result: 1 ok, 0 or nil not-held.
'use strict';
// Hand over to the one-file bundle `make adapters` built from this file
// when it is fresh (bundle.js): the same code, started faster.
if (require('./bundle').handOver(__filename)) return;

const { serve, notify } = require('./protocol');
const { connect, ready } = require('./redis');

// Each release by its npm alias: the library, its TimeoutError and its
// delete script. The requires are written out, not built from the name,
// so that the bundle holds them.
const RELEASES = {
  '5.8.0': () => ({
    lib: require('redis-semaphore'),
    TimeoutError: require('redis-semaphore/lib/errors/TimeoutError').default,
    delIfEqualLua: () => require('redis-semaphore/lib/mutex/release').delIfEqualLua,
  }),
  '5.3.1': () => ({
    lib: require('redis-semaphore-531'),
    TimeoutError: require('redis-semaphore-531/lib/errors/TimeoutError').default,
    delIfEqualLua: () => require('redis-semaphore-531/lib/mutex/release').delIfEqualLua,
  }),
  '5.3.0': () => ({
    lib: require('redis-semaphore-530'),
    TimeoutError: require('redis-semaphore-530/lib/errors/TimeoutError').default,
    delIfEqualLua: () => require('redis-semaphore-530/lib/mutex/release').delIfEqualLua,
  }),
  '4.1.0': () => ({
    lib: require('redis-semaphore-4'),
    TimeoutError: require('redis-semaphore-4/lib/errors/TimeoutError').default,
    delIfEqualLua: () => require('redis-semaphore-4/lib/mutex/release').delIfEqualLua,
  }),
  '3.2.1': () => ({
    lib: require('redis-semaphore-3'),
    TimeoutError: require('redis-semaphore-3/lib/errors/TimeoutError').default,
    // redis-semaphore 3.2.1, lib/mutex/release.js, verbatim (unexported
    // there), run through its own createEval.
    delIfEqualLua: () => require('redis-semaphore-3/lib/utils').createEval(`
  local key = KEYS[1]
  local identifier = ARGV[1]

  if redis.call('get', key) == identifier then
    return redis.call('del', key)
  end`, 1),
  }),
};
const args = process.argv.slice(2);
const version = args.length === 0 ? '5.8.0' : args[0];
if (args.length > 1 || !RELEASES[version]) {
  process.stderr.write(`semaphore.js: usage: semaphore.js [${Object.keys(RELEASES).join('|')}] (got ${JSON.stringify(args)})\n`);
  process.exit(2);
}
const release = RELEASES[version]();
const lib = release.lib;
const Mutex = lib.Mutex;
const TimeoutError = release.TimeoutError;
const hasTry = typeof Mutex.prototype.tryAcquire === 'function'; // 5.x
const observable = version !== '3.2.1'; // onLockLost and isAcquired
const delIfEqualLua = release.delIfEqualLua();

let client = null;
let ttl = 0;
let refresh = undefined;
const held = new Map(); // token → Mutex

// options builds the Mutex's options for one attempt: 5.x has
// acquireAttemptsLimit; 3.2.1 and 4.1.0 loop until acquireTimeout, so a
// 2 ms timeout with a 2 ms retry interval makes one SET (a refused one
// waits 2 ms, then the loop ends and acquire throws TimeoutError).
function options(extra) {
  const o = hasTry
    ? { lockTimeout: ttl, acquireTimeout: ttl, acquireAttemptsLimit: 1, retryInterval: 1 }
    : { lockTimeout: ttl, acquireTimeout: 2, retryInterval: 2 };
  return Object.assign(o, extra);
}

// attempt makes one acquire: true granted, false definitely refused; a
// node error rejects (unknown).
async function attempt(m) {
  if (hasTry) return m.tryAcquire();
  try {
    await m.acquire();
    return true;
  } catch (e) {
    if (e instanceof TimeoutError) return false;
    throw e;
  }
}

serve({
  async hello(msg) {
    ttl = Math.max(1, Math.round(msg.ttl_ms));
    const opts = msg.options || {};
    if (typeof opts.refresh_interval_ms === 'number') refresh = Math.round(opts.refresh_interval_ms);
    if (!msg.probe) {
      client = connect(msg.nodes[0], msg.timeout_ms);
      await ready([client], 5000);
      // One acquire and release of a key of its own before time zero: the
      // library's code is compiled on first use, which on a busy machine
      // would make this client's first acquire lose its race for nothing.
      try {
        const w = new Mutex(client, 'locksim-warmup:' + msg.client, options({ refreshInterval: 0 }));
        if (await attempt(w)) await w.release();
      } catch (e) { /* the node may be down */ }
    }
    return {
      name: `redis-semaphore ${version} Mutex`,
      ops: observable ? ['acquire', 'release', 'valid'] : ['acquire', 'release'],
      events: ['renewed'],
    };
  },

  async acquire(msg, received) {
    const extra = {};
    if (observable) {
      extra.onLockLost = () => {
        held.delete(m.identifier);
        notify({ type: 'lost', key: msg.key, token: m.identifier });
      };
    }
    if (refresh !== undefined) extra.refreshInterval = refresh;
    const m = new Mutex(client, msg.key, options(extra));
    reportRefreshes(m, msg.key);
    const ok = await attempt(m);
    if (!ok) return { type: 'not-acquired' };
    held.set(m.identifier, m);
    return { type: 'ok', token: m.identifier, validity_ms: ttl - (Date.now() - received), lock_key: lockKey(msg.key) };
  },

  async release(msg) {
    const m = held.get(msg.token);
    held.delete(msg.token);
    if (m) stop(m);
    const n = await delIfEqualLua(client, [msg.lock_key || lockKey(msg.key), msg.token]);
    if (m) m._acquired = false;
    return Number(n) === 1 ? { type: 'ok' } : { type: 'not-held' };
  },

  async valid(msg) {
    const m = held.get(msg.token);
    return { type: 'ok', valid: !!(m && m.isAcquired) };
  },

  async close() {
    for (const m of held.values()) stop(m);
    if (client) client.disconnect();
  },
});

// lockKey is the key every release of the Mutex stores its lock under
// (README: "final key in redis: mutex:<key>"; lib/RedisMutex.js).
function lockKey(key) {
  return 'mutex:' + key;
}

// reportRefreshes sends a renewed event for every refresh of m: its
// refresh timer calls m._refresh() (every release: _processRefresh), which
// this wraps without changing what it sends.
function reportRefreshes(m, key) {
  const refresh = m._refresh.bind(m);
  m._refresh = async function () {
    const t0 = performance.now();
    let ok;
    try {
      ok = await refresh();
    } catch (e) {
      notify({ type: 'renewed', key, token: m.identifier, result: 'unknown', error: String((e && e.message) || e), took_ms: performance.now() - t0 });
      throw e;
    }
    notify({ type: 'renewed', key, token: m.identifier, result: ok ? 'ok' : 'not-held', took_ms: performance.now() - t0 });
    return ok;
  };
}

// stop ends a Mutex's refresh: 5.x has stopRefresh(); 3.2.1 and 4.1.0 keep
// it private as _stopRefresh().
function stop(m) {
  if (typeof m.stopRefresh === 'function') m.stopRefresh();
  else m._stopRefresh();
}
