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

module.exports = { connect };
