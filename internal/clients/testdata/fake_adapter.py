#!/usr/bin/python3
"""A lock client process that misbehaves on purpose, for locksim's tests of
the protocol's failure rules. argv[1] chooses how it answers an acquire:

  garbage   writes a line that is not JSON
  badtype   replies with a type the protocol does not have
  exit      writes to stderr and exits with status 3
  silent    never replies
  ok        grants (token "t1"), so the process works at all
  stubborn  grants like ok, but ignores SIGHUP, SIGINT and SIGTERM and
            lives on after its stdin closes: only SIGKILL ends it
  nomodule  exits at once, as a Python adapter does whose interpreter
            lacks a module it imports (ModuleNotFoundError on stderr)
  renews    speaks protocol version 2: its hello lists the renewed event,
            and it grants like ok, naming the lock key "fake:<key>", then
            sends one renewed event (ok) for the lease
"""
import json
import signal
import sys
import time

mode = sys.argv[1]
if mode == "nomodule":
    sys.stderr.write("Traceback (most recent call last):\n  File \"adapter.py\", line 1, in <module>\n"
                     "ModuleNotFoundError: No module named 'redis'\n")
    sys.exit(1)
if mode == "stubborn":
    for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_IGN)
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        hello = {"type": "hello_ok", "protocol": 1, "name": "fake " + mode,
                 "ops": ["acquire", "release"], "now_ms": time.time() * 1000}
        if mode == "renews" and 2 in (msg.get("versions") or []):
            hello["protocol"], hello["events"] = 2, ["renewed"]
        print(json.dumps(hello), flush=True)
        continue
    if mode == "garbage":
        print("this is not json", flush=True)
    elif mode == "badtype":
        print(json.dumps({"type": "granted", "id": msg["id"]}), flush=True)
    elif mode == "exit":
        sys.stderr.write("fake adapter: giving up on %s\n" % msg["type"])
        sys.exit(3)
    elif mode == "silent":
        pass
    elif mode == "renews" and msg["type"] == "acquire":
        n += 1
        print(json.dumps({"type": "ok", "id": msg["id"], "token": "t%d" % n, "lock_key": "fake:" + msg["key"]}), flush=True)
        print(json.dumps({"type": "renewed", "key": msg["key"], "token": "t%d" % n, "result": "ok", "took_ms": 1.5}), flush=True)
    else:
        n += 1
        print(json.dumps({"type": "ok", "id": msg["id"], "token": "t%d" % n}), flush=True)
if mode == "stubborn":
    while True:
        time.sleep(3600)
