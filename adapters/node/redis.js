// ioredis connections as locksim's runner configures its own: through the
// client's proxied address, named for node observation (CLIENT SETNAME),
// every command bounded by the hello's timeout_ms, never retried or
// resent after a reconnect (a retried SET would make an unknown outcome
// look definite).
'use strict';

const Redis = require('ioredis');

function connect(node, timeoutMs) {
  const [host, port] = splitAddr(node.addr);
  const client = new Redis({
    host, port,
    connectionName: node.conn_name || undefined,
    commandTimeout: Math.max(1, Math.round(timeoutMs)),
    connectTimeout: Math.max(50, Math.round(timeoutMs)),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableReadyCheck: false,
    retryStrategy: () => 10,
    lazyConnect: false,
  });
  client.on('error', () => {}); // each command reports its own failure
  return client;
}

function splitAddr(addr) {
  const i = addr.lastIndexOf(':');
  return [addr.slice(0, i), Number(addr.slice(i + 1))];
}

// ready resolves once every client is connected (or after limitMs): a
// process should be connected before it answers its hello, so that its
// first acquire does not pay for a TCP handshake through the proxy
// (locksim warms its own connections the same way).
function ready(clients, limitMs) {
  return Promise.race([
    Promise.all(clients.map((c) => (c.status === 'ready' ? null : new Promise((res) => c.once('ready', res))))),
    new Promise((res) => setTimeout(res, limitMs).unref()),
  ]);
}

module.exports = { connect, ready };
