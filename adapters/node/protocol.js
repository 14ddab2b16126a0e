// locksim's lock client protocol, version 2 (docs/protocol.md), for Node.js.
//
// serve(adapter) reads JSON Lines requests from stdin and writes one reply
// line per request to stdout. adapter.hello(msg) is called once with the
// hello message ({client, nodes: [{name, addr, conn_name}], ttl_ms,
// timeout_ms, seed, options, probe}) and returns {name, ops, events}; then
// adapter.acquire/release/extend/valid(msg) are called for each request and
// resolve to a reply body ({type: "ok", token, fence, validity_ms, nodes,
// lock_key}, {type: "not-acquired"}, {type: "not-held"}, {type: "unknown",
// error}). A handler that throws gives "unknown" with the error's text: the
// outcome of a call that failed in an unexpected way is not known.
// notify(event) writes an unsolicited event such as {type: "lost", key,
// token} or {type: "renewed", key, token, result, took_ms}. The hello
// offers the versions locksim speaks; the reply names 2, or 1 to a locksim
// that offers only 1 (then renewed events are not sent: version 1 has
// none). The
// optional clock request is answered here: the process's wall clock and
// monotonic clock as it reads them (libfaketime's faults show there).
// stdout carries only protocol lines: log to stderr.
'use strict';


// A refused acquire is an exception in most libraries (node-redlock's
// LockError): capturing a stack trace for each was a tenth of the
// process's CPU under contention, and nobody reads them here.
Error.stackTraceLimit = 0;
// With no frames, a stack is its first line; formatting it the default way
// still cost as much again, each time a library's promise read it.
Error.prepareStackTrace = (e) => `${e.name || 'Error'}: ${e.message}`;

const PROTOCOL = 2;

// version is the protocol version spoken with this locksim: 2 when its
// hello offers it, else 1 (a locksim of version 1, whose hello names only
// "protocol": 1); 0 before the hello.
let version = 0;

// Lines written in one turn of the event loop go out in one write (a
// process serving fifty clients answers many requests per turn, and a
// write per line was most of its system time); flush sends them now.
let out = [];
function write(obj) {
  if (out.length === 0) setImmediate(flush);
  out.push(JSON.stringify(obj));
}

function flush() {
  if (out.length === 0) return;
  const lines = out.join('\n') + '\n';
  out = [];
  process.stdout.write(lines);
}

function notify(event) {
  if (event.type === 'renewed' && version < 2) return; // version 1 has no renewed event
  write(event);
}

// serve(create), with a function, serves several clients in one process:
// create() makes one adapter object per client (at its hello), the hello
// reply says "clients": "many", and each request goes to the adapter of
// its "client" — what locksim does for clients of one simulated process
// (clients: {wN: {process: NAME}}).
function serve(adapterOrCreate) {
  const many = typeof adapterOrCreate === 'function';
  const adapters = new Map(); // client → adapter, with create
  let hello = null;
  // Lines are split here rather than by readline, whose per-line events
  // were a tenth of a busy process's CPU.
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let i;
    while ((i = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      onLine(line);
    }
  });
  const onLine = async (line) => {
    if (!line.trim()) return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`locksim protocol: not JSON: ${line}\n`);
      process.exit(2);
    }
    if (msg.type === 'hello') {
      const offered = Array.isArray(msg.versions) ? msg.versions : [msg.protocol];
      version = offered.includes(PROTOCOL) ? PROTOCOL : (offered.includes(1) ? 1 : 0);
      if (version === 0) {
        process.stderr.write(`locksim protocol: locksim speaks ${JSON.stringify(offered)}, this adapter ${PROTOCOL} or 1\n`);
        process.exit(2);
      }
      hello = msg;
      let adapter = adapterOrCreate;
      if (many) {
        adapter = adapterOrCreate();
        adapters.set(msg.client, adapter);
      }
      const info = await adapter.hello(msg);
      let events = info.events || [];
      if (version < 2) events = events.filter((e) => e !== 'renewed');
      const reply = { type: 'hello_ok', protocol: version, name: info.name, ops: info.ops, events, now_ms: Date.now() };
      if (many) reply.clients = 'many';
      write(reply);
      return;
    }
    if (!hello) {
      process.stderr.write(`locksim protocol: ${msg.type} before hello\n`);
      process.exit(2);
    }
    if (msg.type === 'clock') { // the process's own clocks, for locksim's clock tests
      write({ type: 'ok', id: msg.id, now_ms: Date.now(), mono_ms: performance.now() });
      return;
    }
    const adapter = many ? adapters.get(msg.client) : adapterOrCreate;
    if (!adapter) {
      write({ type: 'unknown', id: msg.id, error: `no hello from client ${JSON.stringify(msg.client)}` });
      return;
    }
    const handler = adapter[msg.type];
    if (typeof handler !== 'function') {
      write({ type: 'unknown', id: msg.id, error: `operation ${msg.type} is not supported` });
      return;
    }
    const received = Date.now();
    let reply;
    try {
      reply = await handler.call(adapter, msg, received);
    } catch (e) {
      reply = { type: 'unknown', error: String((e && e.message) || e) };
    }
    write(Object.assign({ id: msg.id }, reply));
  };
  process.stdin.on('end', async () => {
    flush();
    try {
      for (const adapter of many ? adapters.values() : [adapterOrCreate]) {
        if (adapter.close) await adapter.close();
      }
    } finally {
      flush();
      process.exit(0);
    }
  });
}

module.exports = { serve, notify, PROTOCOL };
