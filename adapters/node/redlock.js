// node-redlock (npm redlock 4.2.0) as a locksim lock client process.
//
//   algorithm: process
//   process: {command: [node, adapters/node/redlock.js], traits: [multi-node]}
//
// One ioredis client per node (through this client's own proxies). One
// acquire is one Redlock attempt (retryCount 0): locksim retries with the
// scenario's retry_delay. Options (process.options): drift_factor (the
// library's, default 0.01).
//
// How the answers are sorted: the library reports only "locked" or a
// LockError, and every node error as a 'clientError' event; which nodes
// said yes it keeps to itself. The adapter watches each node's script
// reply (it wraps the library's _executeScript and changes nothing it
// sends) to name the granting nodes and the nodes a release removed the
// key from. A LockError with no node error during the attempt is a
// definite refusal (every node answered; fewer than a quorum said yes, or
// the validity had run out); with a node error it is unknown (a SET whose
// reply was lost may have landed). Release reports what the nodes did: ok
// when at least one removed our value, not-held when every node answered
// and none did, unknown otherwise. (The library itself calls a release
// failed when fewer than a quorum removed it, e.g. when the key had
// expired on some nodes.)
'use strict';

const Redlock = require('redlock');
const { serve, notify } = require('./protocol');
const { connect, ready } = require('./redis');

let redlock = null;
let clients = [];
let ttl = 0;
let errors = 0; // node errors seen so far (clientError events)
const held = new Map(); // token → Lock
let names = []; // node names by client index
let said = null; // the current call's yes-saying nodes, by script name
let current = 0; // the id of the acquire being worked on, for its sent event
let issued = 0; // lock scripts issued in the current acquire

// watch records which nodes answered a lock, extend or unlock script with
// "done" (the library counts those as votes).
function watch(rl) {
  const exec = rl._executeScript.bind(rl);
  rl._executeScript = function (server, name, args, callback) {
    const i = clients.indexOf(server);
    if (name === 'lockScript' && current && ++issued === clients.length) {
      // Every node has been sent its SET: from now on the replies are in
      // flight (locksim pauses a process planned in-acquire here).
      setImmediate(((id) => () => notify({ type: 'sent', id }))(current));
    }
    return exec(server, name, args, (err, res) => {
      if (!err && said && (res === 1 || res === '1')) {
        (said[name] = said[name] || []).push(names[i]);
      }
      callback(err, res);
    });
  };
}

serve({
  async hello(msg) {
    ttl = Math.max(1, Math.round(msg.ttl_ms));
    const opts = msg.options || {};
    if (!msg.probe) {
      clients = msg.nodes.map((n) => connect(n, msg.timeout_ms));
      redlock = new Redlock(clients, {
        driftFactor: typeof opts.drift_factor === 'number' ? opts.drift_factor : 0.01,
        retryCount: 0,
        retryDelay: 0,
        retryJitter: 0,
      });
      await ready(clients, 5000);
      redlock.on('clientError', () => { errors++; });
      names = msg.nodes.map((n) => n.name);
      watch(redlock);
      // One lock and unlock of a key of its own before time zero: the
      // library's code is compiled on first use, which on a busy machine
      // would make this client's first acquire lose its race for nothing.
      try { await redlock.unlock(await redlock.lock('locksim-warmup:' + msg.client, ttl)); } catch (e) { /* a node may be down */ }
      errors = 0;
    }
    return { name: 'node-redlock 4.2.0', ops: ['acquire', 'release', 'extend'], events: ['sent'] };
  },

  async acquire(msg, received) {
    const before = errors;
    said = {};
    current = msg.id;
    issued = 0;
    try {
      const lock = await redlock.lock(msg.key, ttl);
      held.set(lock.value, lock);
      return { type: 'ok', token: lock.value, validity_ms: lock.expiration - received, nodes: said.lockScript || [] };
    } catch (e) {
      if (e instanceof Redlock.LockError && errors === before) {
        return { type: 'not-acquired', error: e.message };
      }
      return { type: 'unknown', error: String(e.message || e) };
    } finally {
      current = 0;
    }
  },

  async release(msg) {
    const lock = held.get(msg.token) || new Redlock.Lock(redlock, msg.key, msg.token, 0, 0, 0);
    held.delete(msg.token);
    const before = errors;
    said = {};
    let failure = null;
    try {
      await redlock.unlock(lock);
    } catch (e) {
      failure = e;
    }
    const removed = said.unlockScript || [];
    if (removed.length > 0) return { type: 'ok', nodes: removed };
    if (errors === before && (!failure || failure instanceof Redlock.LockError)) {
      return { type: 'not-held', error: failure ? failure.message : '' };
    }
    return { type: 'unknown', error: String((failure && failure.message) || 'a node did not answer') };
  },

  async extend(msg, received) {
    const lock = held.get(msg.token);
    if (!lock) return { type: 'not-held', error: 'no lock with this token' };
    const before = errors;
    try {
      const l = await redlock.extend(lock, ttl);
      return { type: 'ok', token: l.value, validity_ms: l.expiration - received };
    } catch (e) {
      if (e instanceof Redlock.LockError && errors === before) {
        return { type: 'not-held', error: e.message };
      }
      return { type: 'unknown', error: String(e.message || e) };
    }
  },

  async close() {
    for (const c of clients) c.disconnect();
  },
});
