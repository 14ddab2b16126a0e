#!/usr/bin/python3
"""Runs a lock client process that is slow to run again after each thaw,
for locksim's tests of issue 32 (a SIGCONT sent on time is not a process
running on time):

    slow_thaw.py SECONDS SCRIPT [ARG...]

runs the Python script SCRIPT with its arguments in this interpreter, after
installing a SIGCONT handler that sleeps SECONDS: after every SIGCONT the
script does nothing for that long (it reads no request, answers nothing),
as a process a loaded machine leaves unscheduled would.
"""
import runpy
import signal
import sys
import time

delay = float(sys.argv[1])
signal.signal(signal.SIGCONT, lambda signum, frame: time.sleep(delay))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
