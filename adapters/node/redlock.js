// node-redlock as a locksim lock client process, at one of two published
// releases, chosen by the command's one argument (package.json pins each
// under an npm alias):
//
//   algorithm: process
//   process: {command: [node, adapters/node/redlock.js], traits: [multi-node]}                 # 4.2.0
//   process: {command: [node, adapters/node/redlock.js, 5.0.0-beta.2], traits: [multi-node]}
//
//   4.2.0 (redlock)               redlock.js, _lock: the lease ends at
//                                 start + ttl − drift, and a quorum of yes
//                                 votes counts only while that end is ahead
//                                 of Date.now() (`votes >= quorum &&
//                                 lock.expiration > Date.now()`); otherwise
//                                 it unlocks and refuses. It waits for every
//                                 node's answer.
//   5.0.0-beta.2 (redlock-5)      the rewrite (#84, commit 4e5df01,
//                                 2021-07-24), the newest release: acquire()
//                                 returns new Lock(…, start + duration −
//                                 drift) as soon as a quorum said yes, with
//                                 no comparison against the clock, so a
//                                 lease that ran out while the replies were
//                                 on their way is handed out (#296; PR
//                                 #369, open, adds the check; master's
//                                 #276 only takes `start` from the last
//                                 attempt). No release carries a fix.
//
// Both releases lock the resource's name itself (lock_key = key); neither
// renews on its own here (the adapter does not use 5.x's using()).
//
// One ioredis client per node (through this client's own proxies). One
// acquire is one Redlock attempt (retryCount 0): locksim retries with the
// scenario's retry_delay. Options (process.options): drift_factor (the
// library's, default 0.01); command_timeout: none gives each ioredis
// connection ioredis's own default, no per-command timeout, instead of the
// hello's timeout_ms (locksim's node_timeout, which must stay below the
// ttl): with it a reply that comes after the lease ran out is still read,
// as it is by an application that configured no timeout.
//
// How the answers are sorted: the library reports only "locked" or an
// error (4.2.0: LockError, and every node error as a 'clientError' event;
// 5.0.0-beta.2: ExecutionError, and every failed vote as an 'error' event,
// a ResourceLockedError when the node answered that the key is another's);
// which nodes said yes it keeps to itself. The adapter watches each node's
// script reply (it wraps the library's per-node call, _executeScript or
// _attemptOperationOnClient, and changes nothing it sends) to name the
// granting nodes and the nodes a release removed the key from. A refusal
// with no node error during the attempt is definite (every node answered;
// fewer than a quorum said yes, or, in 4.2.0, the validity had run out);
// with a node error it is unknown (a SET whose reply was lost may have
// landed). Release reports what the nodes did: ok when at least one
// removed our value, not-held when every node answered and none did,
// unknown otherwise. (The library itself calls a release failed when fewer
// than a quorum removed it, e.g. when the key had expired on some nodes.)
'use strict';
// Hand over to the one-file bundle `make adapters` built from this file
// when it is fresh (bundle.js): the same code, started faster.
if (require('./bundle').handOver(__filename)) return;

const { serve, notify } = require('./protocol');
const { connect, ready } = require('./redis');

// Each release by its npm alias; the requires are written out, not built
// from the name, so that the bundle holds them.
const RELEASES = {
  '4.2.0': () => require('redlock'),
  '5.0.0-beta.2': () => require('redlock-5'),
};
const args = process.argv.slice(2);
const version = args.length === 0 ? '4.2.0' : args[0];
if (args.length > 1 || !RELEASES[version]) {
  process.stderr.write(`redlock.js: usage: redlock.js [${Object.keys(RELEASES).join('|')}] (got ${JSON.stringify(args)})\n`);
  process.exit(2);
}
const lib = RELEASES[version]();

// commandTimeout is the per-command timeout for the ioredis connections:
// the hello's timeout_ms, or none (null) with option command_timeout: none.
function commandTimeout(msg) {
  const opts = msg.options || {};
  if (opts.command_timeout === undefined) return msg.timeout_ms;
  if (opts.command_timeout === 'none') return null;
  process.stderr.write(`redlock.js: option command_timeout: ${JSON.stringify(opts.command_timeout)} is not "none"\n`);
  process.exit(2);
}

// create is one client's adapter (protocol.js serves several clients in
// one process, each with its own connections, library object and state).
function create() {
  // State of either release's adapter.
  let redlock = null;
  let clients = [];
  let ttl = 0;
  let errors = 0; // node errors seen so far (clientError events)
  const held = new Map(); // token → Lock
  let names = []; // node names by client index
  let said = null; // the current call's yes-saying nodes, by script name
  let current = 0; // the id of the acquire being worked on, for its sent event
  let issued = 0; // lock scripts issued in the current acquire
  let wantSent = true; // the hello's "sent": false turns the sent events off

  // ---- 4.2.0

  const Redlock = lib;

  // watch records which nodes answered a lock, extend or unlock script with
  // "done" (the library counts those as votes).
  function watch(rl) {
    const exec = rl._executeScript.bind(rl);
    rl._executeScript = function (server, name, args, callback) {
      const i = clients.indexOf(server);
      if (name === 'lockScript' && current && ++issued === clients.length && wantSent) {
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

  // extendReply is the reply to an extend of the held lock msg.token:
  // extendOnce(lock) extends it (the new lock, or a throw), and
  // refusal(e) tells (once the failed call has settled) whether a throw
  // is the nodes' refusal — not-held when no node error came with it.
  async function extendReply(msg, received, extendOnce, refusal) {
    const lock = held.get(msg.token);
    if (!lock) return { type: 'not-held', error: 'no lock with this token' };
    const before = errors;
    try {
      const l = await extendOnce(lock);
      return { type: 'ok', token: l.value, validity_ms: l.expiration - received };
    } catch (e) {
      if (await refusal(e) && errors === before) {
        return { type: 'not-held', error: e.message };
      }
      return { type: 'unknown', error: String(e.message || e) };
    }
  }

  // releaseReply sorts a release of either release: ok when a node removed
  // our value; not-held when every node answered (no node error since
  // before) and none did, the library's refusal being a refusal error;
  // else unknown.
  function releaseReply(removed, before, failure, refusal) {
    if (removed.length > 0) return { type: 'ok', nodes: removed };
    if (errors === before && (!failure || failure instanceof refusal)) {
      return { type: 'not-held', error: failure ? failure.message : '' };
    }
    return { type: 'unknown', error: String((failure && failure.message) || 'a node did not answer') };
  }

  // setUp reads the hello of either release: the TTL, whether sent events
  // are wanted, and (unless it is a probe) one connection per node and the
  // library's object, made by make(clients, options), with one attempt per
  // acquire. It reports whether the process is to connect.
  async function setUp(msg, make) {
    ttl = Math.max(1, Math.round(msg.ttl_ms));
    wantSent = msg.sent !== false;
    const opts = msg.options || {};
    if (msg.probe) return false;
    clients = msg.nodes.map((n) => connect(n, commandTimeout(msg)));
    redlock = make(clients, {
      driftFactor: typeof opts.drift_factor === 'number' ? opts.drift_factor : 0.01,
      retryCount: 0,
      retryDelay: 0,
      retryJitter: 0,
    });
    await ready(clients, 5000);
    names = msg.nodes.map((n) => n.name);
    return true;
  }

  const v4 = {
    async hello(msg) {
      if (await setUp(msg, (cs, o) => new Redlock(cs, o))) {
        redlock.on('clientError', () => { errors++; });
        watch(redlock);
        // One lock and unlock of a key of its own before time zero: the
        // library's code is compiled on first use, which on a busy machine
        // would make this client's first acquire lose its race for nothing.
        try { await redlock.unlock(await redlock.lock('locksim-warmup:' + msg.client, ttl)); } catch (e) { /* a node may be down */ }
        errors = 0;
      }
      return { name: `node-redlock ${version}`, ops: ['acquire', 'release', 'extend'], events: ['sent'] };
    },

    async acquire(msg, received) {
      const before = errors;
      said = {};
      current = msg.id;
      issued = 0;
      try {
        const lock = await redlock.lock(msg.key, ttl);
        held.set(lock.value, lock);
        return { type: 'ok', token: lock.value, validity_ms: lock.expiration - received, nodes: said.lockScript || [], lock_key: msg.key };
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
      return releaseReply(removed, before, failure, Redlock.LockError);
    },

    async extend(msg, received) {
      return extendReply(msg, received, (lock) => redlock.extend(lock, ttl),
        async (e) => e instanceof Redlock.LockError);
    },

    async close() {
      for (const c of clients) c.disconnect();
    },
  };

  // ---- 5.0.0-beta.2

  const Redlock5 = lib.default;
  const { ExecutionError, ResourceLockedError, Lock: Lock5 } = lib;

  // watch5 records which nodes voted "for" in each script call, and sends
  // the sent event once every node has been sent the acquire's SET.
  function watch5(rl) {
    const attempt = rl._attemptOperationOnClient.bind(rl);
    rl._attemptOperationOnClient = async function (client, script, keys, a) {
      const i = clients.indexOf(client);
      const name = script === rl.scripts.acquireScript ? 'lockScript'
        : script === rl.scripts.releaseScript ? 'unlockScript' : 'extendScript';
      const mine = said;
      if (name === 'lockScript' && current && ++issued === clients.length && wantSent) {
        setImmediate(((id) => () => notify({ type: 'sent', id }))(current));
      }
      const r = await attempt(client, script, keys, a);
      if (mine && r.vote === 'for') (mine[name] = mine[name] || []).push(names[i]);
      return r;
    };
  }

  // settled waits until every node has voted in the call's last attempt
  // (the library resolves at a quorum; each attempt's stats promise resolves
  // once all votes are in, each bounded by the command timeout).
  async function settled(attempts) {
    if (attempts && attempts.length) await attempts[attempts.length - 1];
  }

  const v5 = {
    async hello(msg) {
      if (await setUp(msg, (cs, o) => new Redlock5(cs, o))) {
        redlock.on('error', (e) => { if (!(e instanceof ResourceLockedError)) errors++; });
        watch5(redlock);
        // The warm-up of the 4.2.0 path; it also loads the scripts (EVALSHA
        // first, EVAL on NOSCRIPT) on every node.
        try { await redlock.release(await redlock.acquire(['locksim-warmup:' + msg.client], ttl)); } catch (e) { /* a node may be down */ }
        errors = 0;
      }
      return { name: `node-redlock ${version}`, ops: ['acquire', 'release', 'extend'], events: ['sent'] };
    },

    async acquire(msg, received) {
      const before = errors;
      const mine = said = {};
      current = msg.id;
      issued = 0;
      try {
        const lock = await redlock.acquire([msg.key], ttl);
        held.set(lock.value, lock);
        // The library resolves at a quorum; the other nodes' SETs may still
        // land. The adapter waits for the attempt's last votes (each bounded
        // by the command timeout) so that the lease names every node that
        // holds the key — its caller could start at the quorum, so a slow
        // node makes locksim see the grant later than the library gave it,
        // never earlier.
        await settled(lock.attempts);
        return { type: 'ok', token: lock.value, validity_ms: lock.expiration - received, nodes: mine.lockScript || [], lock_key: msg.key };
      } catch (e) {
        if (e instanceof ExecutionError) await settled(e.attempts);
        if (e instanceof ExecutionError && errors === before) {
          return { type: 'not-acquired', error: e.message };
        }
        return { type: 'unknown', error: String(e.message || e) };
      } finally {
        current = 0;
      }
    },

    async release(msg) {
      const lock = held.get(msg.token) || new Lock5(redlock, [msg.key], msg.token, [], 0);
      held.delete(msg.token);
      const before = errors;
      said = {};
      const mine = said;
      let failure = null;
      try {
        await settled((await redlock.release(lock)).attempts);
      } catch (e) {
        failure = e;
        if (e instanceof ExecutionError) await settled(e.attempts);
      }
      const removed = mine.unlockScript || [];
      return releaseReply(removed, before, failure, ExecutionError);
    },

    async extend(msg, received) {
      return extendReply(msg, received, async (lock) => {
        const l = await redlock.extend(lock, ttl);
        held.set(l.value, l);
        return l;
      }, async (e) => {
        if (!(e instanceof ExecutionError)) return false;
        await settled(e.attempts);
        return true;
      });
    },

    async close() {
      for (const c of clients) c.disconnect();
    },
  };

  return version === '4.2.0' ? v4 : v5;
}

serve(create);
