// redis-semaphore's Mutex (npm redis-semaphore 5.8.0) as a locksim lock
// client process, with its automatic refresh.
//
//   algorithm: process
//   process: {command: [node, adapters/node/semaphore.js], traits: [single-node]}
//
// One ioredis client (node n1, through this client's proxy). One acquire is
// one attempt (acquireAttemptsLimit 1). The Mutex refreshes its key every
// refresh_interval_ms (process.options; default the library's 0.8 × ttl, 0
// = no refresh) and calls onLockLost when a refresh finds the key gone or
// someone else's: the adapter then sends a "lost" event, which ends the
// hold in locksim's history.
//
// Two things the library does that the adapter has to work around, read
// from its code (lib/RedisMutex.js, lib/mutex/release.js):
//   - it stores the lock under "mutex:<key>"; the adapter sets the Mutex's
//     key to locksim's lock key, so the nodes hold what locksim observes;
//   - Mutex.release() resolves whether or not it deleted the key (the
//     delete script's result is only logged), so it cannot say not-held.
//     The adapter stops the refresh and runs the library's own delete
//     script (delIfEqualLua, exported by lib/mutex/release) to read the
//     result: 1 ok, 0 not-held.
'use strict';

const Mutex = require('redis-semaphore').Mutex;
const { delIfEqualLua } = require('redis-semaphore/lib/mutex/release');
const { serve, notify } = require('./protocol');
const { connect, ready } = require('./redis');

let client = null;
let ttl = 0;
let refresh = undefined;
const held = new Map(); // token → Mutex

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
        const w = new Mutex(client, 'locksim-warmup:' + msg.client, { lockTimeout: ttl, acquireAttemptsLimit: 1, refreshInterval: 0 });
        if (await w.tryAcquire()) await w.release();
      } catch (e) { /* the node may be down */ }
    }
    return { name: 'redis-semaphore 5.8.0 Mutex', ops: ['acquire', 'release', 'valid'] };
  },

  async acquire(msg, received) {
    const options = {
      lockTimeout: ttl,
      acquireTimeout: ttl,
      acquireAttemptsLimit: 1,
      retryInterval: 1,
      onLockLost: () => {
        held.delete(m.identifier);
        notify({ type: 'lost', key: msg.key, token: m.identifier });
      },
    };
    if (refresh !== undefined) options.refreshInterval = refresh;
    const m = new Mutex(client, msg.key, options);
    m._key = msg.key; // the library would lock "mutex:<key>"
    const ok = await m.tryAcquire(); // a node error rejects: unknown
    if (!ok) return { type: 'not-acquired' };
    held.set(m.identifier, m);
    return { type: 'ok', token: m.identifier, validity_ms: ttl - (Date.now() - received) };
  },

  async release(msg) {
    const m = held.get(msg.token);
    held.delete(msg.token);
    if (m) m.stopRefresh();
    const n = await delIfEqualLua(client, [msg.key, msg.token]);
    if (m) m._acquired = false;
    return Number(n) === 1 ? { type: 'ok' } : { type: 'not-held' };
  },

  async valid(msg) {
    const m = held.get(msg.token);
    return { type: 'ok', valid: !!(m && m.isAcquired) };
  },

  async close() {
    for (const m of held.values()) m.stopRefresh();
    if (client) client.disconnect();
  },
});
