#!/usr/bin/env python3
"""Runs a command (its standard output discarded) and prints "USER WALL MAXRSS": the child's user
CPU time and wall time in seconds with microsecond resolution (getrusage through os.wait4, where
/usr/bin/time's %U rounds to 10 ms) and its peak RSS in KiB.

    scripts/rusage.py COMMAND [ARGS...]
"""
import os
import sys
import time

start = time.monotonic()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - start
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"rusage.py: {sys.argv[1:]} exited with {os.waitstatus_to_exitcode(status)}")
print(f"{usage.ru_utime:.6f} {wall:.6f} {usage.ru_maxrss}")
