// ioredis connections as locksim's runner configures its own: through the
// client's proxied address, named for node observation (CLIENT SETNAME),
// every command bounded by the hello's timeout_ms, never retried or
// resent after a reconnect (a retried SET would make an unknown outcome
// look definite).
'use strict';

const Redis = require('ioredis');

// A timeoutMs of null leaves commands without a timeout (ioredis's default);
// the connect timeout is then the library's own default too.
function connect(node, timeoutMs) {
  const [host, port] = splitAddr(node.addr);
  const bounded = timeoutMs !== null && timeoutMs !== undefined;
  const client = new Redis({
    host, port,
    connectionName: node.conn_name || undefined,
    commandTimeout: bounded ? Math.max(1, Math.round(timeoutMs)) : undefined,
    connectTimeout: bounded ? Math.max(50, Math.round(timeoutMs)) : undefined,
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
