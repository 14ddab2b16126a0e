// locksim's lock client protocol, version 1 (docs/protocol.md), for Node.js.
//
// serve(adapter) reads JSON Lines requests from stdin and writes one reply
// line per request to stdout. adapter.hello(msg) is called once with the
// hello message ({client, nodes: [{name, addr, conn_name}], ttl_ms,
// timeout_ms, seed, options, probe}) and returns {name, ops}; then
// adapter.acquire/release/extend/valid(msg) are called for each request and
// resolve to a reply body ({type: "ok", token, fence, validity_ms, nodes},
// {type: "not-acquired"}, {type: "not-held"}, {type: "unknown", error}).
// A handler that throws gives "unknown" with the error's text: the outcome
// of a call that failed in an unexpected way is not known. notify(event)
// writes an unsolicited event such as {type: "lost", key, token}. The
// optional clock request is answered here: the process's wall clock and
// monotonic clock as it reads them (libfaketime's faults show there).
// stdout carries only protocol lines: log to stderr.
'use strict';

const readline = require('readline');

// A refused acquire is an exception in most libraries (node-redlock's
// LockError): capturing a stack trace for each was a tenth of the
// process's CPU under contention, and nobody reads them here.
Error.stackTraceLimit = 0;

const PROTOCOL = 1;

function write(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function notify(event) {
  write(event);
}

function serve(adapter) {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  let hello = null;
  rl.on('line', async (line) => {
    if (!line.trim()) return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`locksim protocol: not JSON: ${line}\n`);
      process.exit(2);
    }
    if (msg.type === 'hello') {
      if (msg.protocol !== PROTOCOL) {
        process.stderr.write(`locksim protocol: locksim speaks ${msg.protocol}, this adapter ${PROTOCOL}\n`);
        process.exit(2);
      }
      hello = msg;
      const info = await adapter.hello(msg);
      write({ type: 'hello_ok', protocol: PROTOCOL, name: info.name, ops: info.ops, events: info.events || [], now_ms: Date.now() });
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
  });
  rl.on('close', async () => {
    try {
      if (adapter.close) await adapter.close();
    } finally {
      process.exit(0);
    }
  });
}

module.exports = { serve, notify, PROTOCOL };
