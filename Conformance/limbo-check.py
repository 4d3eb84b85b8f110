#!/usr/bin/env python3
"""Runs the x509-limbo suite against `sigil verify` and checks the result against
Conformance/limbo-exceptions.json: exit 1 on any mismatch, error or hang not listed there.

Usage: limbo-check.py SIGIL_BINARY [LIMBO_RUNNER_ARGS...]
The suite and its runner are read from ../shared (or $SIGIL_SHARED).
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
shared = os.environ.get("SIGIL_SHARED", os.path.join(os.path.dirname(root), "shared"))
runner = os.path.join(shared, "tools", "limbo", "run_limbo.py")
suite = os.path.join(shared, "vectors", "limbo", "limbo.json.xz")
if not (os.path.exists(runner) and os.path.exists(suite)):
    print(f"SKIPPED: x509-limbo suite or runner not found under {shared}")
    sys.exit(0)

binary = sys.argv[1]
extra = sys.argv[2:]
out_dir = os.environ.get("LIMBO_OUT", "/tmp")
results = os.path.join(out_dir, "sigil-limbo-results.json")
summary = os.path.join(out_dir, "sigil-limbo-summary.json")
cmd = [sys.executable, runner, "run", "--limbo", suite, "-j", str(os.cpu_count() or 2), "--timeout", "10",
       "-o", results, "--summary", summary] + extra + ["--", binary, "verify", "--anchors-only"]
proc = subprocess.run(cmd, capture_output=True, text=True)
print(proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:])
if proc.returncode != 0:
    print(proc.stderr[-2000:])
    sys.exit(1)

exceptions = json.load(open(os.path.join(here, "limbo-exceptions.json")))
s = json.load(open(summary))
bad = []
seen = set()
for m in s["mismatches"]:
    seen.add(m["id"])
    if m["id"] not in exceptions:
        bad.append(f"{m['kind']}: {m['id']} (expected {m['expected']}, got {m['actual']}): {m['context']}")
for e in s["errors"] + s["hangs"]:
    bad.append(f"error/hang: {e['id']}: {e.get('context', '')}")
for sk in s["skipped"]:
    # Nothing is skipped any more (the crl:: cases run since revocation checking landed).
    bad.append(f"unexpected skip: {sk['id']}: {sk.get('context', '')}")
stale = [k for k in exceptions if not k.startswith("_") and k not in seen]
ran = s.get("selected_testcases", 0)
if stale and ran == s.get("suite_testcases"):
    print("note: listed exceptions that now pass (remove them):", ", ".join(stale))
if bad:
    print("x509-limbo: results not in Conformance/limbo-exceptions.json:")
    for b in bad:
        print("  " + b)
    sys.exit(1)
print(f"x509-limbo: every result as expected or listed ({len(seen)} listed exceptions hit)")
