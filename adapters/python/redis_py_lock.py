#!/usr/bin/python3
"""redis-py's Lock (Debian's python3-redis, 4.3.4) as a locksim lock client
process, speaking locksim's JSON Lines protocol, version 2
(docs/protocol.md; it answers version 1 to a locksim that offers only that).

    algorithm: process
    process: {command: [/usr/bin/python3, adapters/python/redis_py_lock.py],
              traits: [single-node]}

One redis.Redis client (node n1, through this client's proxy), named for
node observation (client_name), every command bounded by the hello's
timeout_ms (socket_timeout) and never retried. One acquire is one attempt
(blocking=False): locksim retries with the scenario's retry_delay.

How the answers are sorted:
  - acquire: True -> ok (the token is the library's own, uuid1().hex;
    lock_key is the key itself: redis-py's Lock stores its token under the
    name it is given); False -> not-acquired (SET NX answered nil); a redis
    error -> unknown.
  - release: Lock.release() runs the library's compare-and-delete Lua
    script (delete only while the key holds our token): ok; a
    LockNotOwnedError -> not-held; a redis error -> unknown. So its release
    is safe against deleting another holder's lock, like locksim's `safe`.
  - extend: Lock.extend(ttl, replace_ttl=True): ok; LockNotOwnedError ->
    not-held.
  - valid: Lock.owned() (GET and compare with our token); options
    {valid: false} leaves it out, as a caller that never asks.

redis-py's Lock never renews on its own (extend() is the caller's), so the
adapter sends no renewed events.
"""

import json
import sys
import time

import redis
from redis.exceptions import LockNotOwnedError

PROTOCOL = 2


def write(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Adapter:
    def __init__(self):
        self.client = None
        self.ttl = 1.0
        self.held = {}  # token -> Lock

    def hello(self, msg):
        self.ttl = max(0.001, msg["ttl_ms"] / 1000.0)
        timeout = max(0.001, msg.get("timeout_ms", 1000) / 1000.0)
        if not msg.get("probe"):
            node = msg["nodes"][0]
            host, port = node["addr"].rsplit(":", 1)
            self.client = redis.Redis(
                host=host, port=int(port), client_name=node.get("conn_name") or None,
                socket_timeout=timeout, socket_connect_timeout=timeout,
                retry_on_timeout=False)
            try:
                # Connected before the hello is answered, so the first
                # acquire pays for no TCP handshake through the proxy.
                self.client.ping()
            except redis.RedisError:
                pass
        ops = ["acquire", "release", "extend", "valid"]
        if (msg.get("options") or {}).get("valid") is False:
            ops.remove("valid")  # run as a caller that never asks owned()
        return {"name": "redis-py %s Lock" % redis.__version__, "ops": ops}

    def acquire(self, msg, received):
        lk = self.client.lock(msg["key"], timeout=self.ttl, blocking=False, thread_local=False)
        if not lk.acquire(blocking=False):
            return {"type": "not-acquired"}
        token = lk.local.token.decode()
        self.held[token] = lk
        return {"type": "ok", "token": token, "lock_key": msg["key"],
                "validity_ms": (self.ttl - (time.time() - received)) * 1000.0}

    def lock_of(self, msg):
        lk = self.held.get(msg["token"])
        if lk is None:
            lk = self.client.lock(msg["key"], timeout=self.ttl, thread_local=False)
            lk.local.token = msg["token"].encode()
        return lk

    def release(self, msg, received):
        lk = self.lock_of(msg)
        self.held.pop(msg["token"], None)
        try:
            lk.release()
        except LockNotOwnedError as e:
            return {"type": "not-held", "error": str(e)}
        return {"type": "ok"}

    def extend(self, msg, received):
        lk = self.lock_of(msg)
        try:
            lk.extend(self.ttl, replace_ttl=True)
        except LockNotOwnedError as e:
            return {"type": "not-held", "error": str(e)}
        return {"type": "ok", "validity_ms": (self.ttl - (time.time() - received)) * 1000.0}

    def valid(self, msg, received):
        return {"type": "ok", "valid": bool(self.lock_of(msg).owned())}


def main():
    adapter = Adapter()
    hello = False
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            sys.stderr.write("locksim protocol: not JSON: %r\n" % line)
            return 2
        if msg.get("type") == "hello":
            offered = msg.get("versions") or [msg.get("protocol")]
            version = PROTOCOL if PROTOCOL in offered else (1 if 1 in offered else 0)
            if not version:
                sys.stderr.write("locksim protocol: locksim speaks %r, this adapter %d or 1\n" % (offered, PROTOCOL))
                return 2
            info = adapter.hello(msg)
            write({"type": "hello_ok", "protocol": version, "name": info["name"],
                   "ops": info["ops"], "now_ms": time.time() * 1000.0})
            hello = True
            continue
        if not hello:
            sys.stderr.write("locksim protocol: %s before hello\n" % msg.get("type"))
            return 2
        received = time.time()
        if msg.get("type") == "clock":  # the process's own clocks
            write({"type": "ok", "id": msg.get("id"), "now_ms": received * 1000.0,
                   "mono_ms": time.monotonic() * 1000.0})
            continue
        handler = getattr(adapter, msg.get("type", ""), None) if msg.get("type") in ("acquire", "release", "extend", "valid") else None
        if handler is None:
            reply = {"type": "unknown", "error": "operation %s is not supported" % msg.get("type")}
        else:
            try:
                reply = handler(msg, received)
            except Exception as e:  # a redis error: the outcome is not known
                reply = {"type": "unknown", "error": "%s: %s" % (type(e).__name__, e)}
        reply["id"] = msg.get("id")
        write(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
