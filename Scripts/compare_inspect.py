#!/usr/bin/env python3
"""Field-by-field agreement of `sigil inspect --json` with independent parsers.

Usage: python3 Scripts/compare_inspect.py [--sigil PATH] [--limbo FILE] [--no-system] [--show N]

The corpus: Fixtures/odd/*.der (odd certificates, Fixtures/scripts/gen_odd.py), Fixtures/certs
(normal ones), every distinct certificate of x509-limbo (`../shared/vectors/limbo/limbo.json.xz`
or $SIGIL_VECTORS/limbo/...), the system roots (/etc/ssl/certs), and the pyca
`cryptography_vectors` package's X.509 files when it is installed. Only certificates that
`openssl x509` reads count (the acceptance criterion: sigil must read every one of them).

For each, the fields serial, subject, issuer, notBefore, notAfter, signatureAlgorithm,
publicKey (algorithm, bits, curve), SAN entries and the extension list (OID, critical, order)
are compared with Fixtures/scripts/reference_fields.py (Python `cryptography`, else `openssl
x509`, else a raw BER walk). Prints the agreement percentage and every disagreement.
Exit status 1 when sigil fails to read an openssl-readable certificate or agreement < 99.5 %.
"""
import argparse
import base64
import concurrent.futures
import glob
import hashlib
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Fixtures", "scripts"))
from reference_fields import reference_fields  # noqa: E402

PEM = re.compile(r"-----BEGIN CERTIFICATE-----\s*(.*?)\s*-----END CERTIFICATE-----", re.S)


def corpus(args):
    seen = {}

    def add(origin, der):
        h = hashlib.sha256(der).hexdigest()
        if h not in seen:
            seen[h] = (origin, der)

    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "odd", "*.der"))):
        add("odd/" + os.path.basename(path), open(path, "rb").read())
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "certs", "*.der"))):
        add("certs/" + os.path.basename(path), open(path, "rb").read())
    vectors = os.environ.get("SIGIL_VECTORS") or os.path.join(os.path.dirname(ROOT), "shared", "vectors")
    limbo = args.limbo or os.path.join(vectors, "limbo", "limbo.json.xz")
    if os.path.exists(limbo):
        for tc in json.load(lzma.open(limbo))["testcases"]:
            pems = [tc["peer_certificate"]] + tc.get("untrusted_intermediates", []) + tc.get("trusted_certs", [])
            for p in pems:
                for body in PEM.findall(p):
                    add("limbo/" + tc["id"], base64.b64decode(re.sub(r"\s+", "", body)))
    else:
        print("no limbo suite at %s (skipped)" % limbo, file=sys.stderr)
    if not args.no_system:
        for path in sorted(glob.glob("/etc/ssl/certs/*.pem")):
            for body in PEM.findall(open(path, errors="replace").read()):
                add("system/" + os.path.basename(path), base64.b64decode(re.sub(r"\s+", "", body)))
    try:
        import cryptography_vectors  # noqa: F401
        base = os.path.join(os.path.dirname(cryptography_vectors.__file__), "x509")
        for path in glob.glob(os.path.join(base, "**", "*"), recursive=True):
            if os.path.isfile(path) and path.endswith((".pem", ".der", ".crt")):
                data = open(path, "rb").read()
                bodies = PEM.findall(data.decode("latin-1")) if b"-----BEGIN" in data else None
                if bodies is None:
                    add("pyca-vectors/" + os.path.relpath(path, base), data)
                else:
                    for b in bodies:
                        try:
                            add("pyca-vectors/" + os.path.relpath(path, base), base64.b64decode(re.sub(r"\s+", "", b)))
                        except ValueError:
                            pass
    except ImportError:
        print("cryptography_vectors not installed (skipped)", file=sys.stderr)
    return list(seen.values())


def sigil_reports(sigil, ders):
    """sha256 -> sigil's JSON object, for every certificate sigil reads."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, der in enumerate(ders):
            p = os.path.join(d, "%06d.der" % i)
            with open(p, "wb") as fh:
                fh.write(der)
            paths.append(p)
        for i in range(0, len(paths), 400):
            r = subprocess.run([sigil, "inspect", "--json"] + paths[i:i + 400], capture_output=True)
            for line in r.stdout.decode("utf-8", "replace").splitlines():
                if line.strip():
                    o = json.loads(line)
                    out[o["sha256"]] = o
    return out


def normalise_serial(s):
    neg = s.startswith("-")
    return ("-" if neg else "") + (s.lstrip("-").lstrip("0") or "0")


def compare(mine, ref):
    """[(field, agree, sigil value, reference value)] for the fields the reference has."""
    out = []

    def one(field, a, b):
        out.append((field, a == b, a, b))

    if "serial" in ref:
        one("serial", normalise_serial(mine["serial"]), normalise_serial(ref["serial"]))
    for k in ("subject", "issuer", "notBefore", "notAfter", "signatureAlgorithm"):
        if k in ref and ref[k] is not None:
            one(k, mine.get(k), ref[k])
    if "publicKey" in ref:
        pk, rk = mine["publicKey"], ref["publicKey"]
        one("publicKey.algorithm", pk.get("algorithm"), rk.get("algorithm"))
        if rk.get("bits") is not None:
            one("publicKey.bits", pk.get("bits"), rk.get("bits"))
        if rk.get("curve") is not None:
            one("publicKey.curve", pk.get("curve"), rk.get("curve"))
    if "san" in ref:
        s = mine["subjectAltNames"]
        for k in ("dns", "ip", "email", "uri"):
            one("san." + k, s.get(k, []), ref["san"].get(k, []))
    if "extensions" in ref:
        one("extensions", mine["extensions"], ref["extensions"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", default=os.path.join(ROOT, ".build", "release", "sigil"))
    ap.add_argument("--limbo")
    ap.add_argument("--no-system", action="store_true")
    ap.add_argument("--show", type=int, default=40, help="disagreements to print")
    ap.add_argument("--jobs", type=int, default=2, help="reference parser processes")
    args = ap.parse_args()
    if not os.path.exists(args.sigil):
        args.sigil = os.path.join(ROOT, ".build", "debug", "sigil")
    certs = corpus(args)
    refs = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for (origin, der), r in zip(certs, pool.map(reference_fields, [der for _, der in certs], chunksize=64)):
            if r["opensslReads"]:
                refs.append((origin, der, r))
    mine = sigil_reports(args.sigil, [der for _, der, _ in refs])
    unread, fields, agreed, disagreements = [], 0, 0, []
    pyca_refused = sum(1 for _, _, r in refs if r["pycaError"])
    for origin, der, r in refs:
        m = mine.get(hashlib.sha256(der).hexdigest())
        if m is None:
            unread.append(origin)
            continue
        for field, ok, a, b in compare(m, r["fields"]):
            fields += 1
            if ok:
                agreed += 1
            else:
                disagreements.append((origin, field, a, b, r["sources"].get(field.split(".")[0].replace("san", "san"))))
    pct = 100.0 * agreed / fields if fields else 0.0
    print("certificates: %d distinct, %d read by openssl x509 (%d of them refused by pyca, compared with openssl there)"
          % (len(certs), len(refs), pyca_refused))
    print("sigil inspect read %d of %d (%d not read)" % (len(refs) - len(unread), len(refs), len(unread)))
    for o in unread[:args.show]:
        print("  NOT READ: %s" % o)
    print("fields compared: %d, agreeing: %d (%.3f %%)" % (fields, agreed, pct))
    by_field = {}
    for d in disagreements:
        by_field[d[1]] = by_field.get(d[1], 0) + 1
    if by_field:
        print("disagreements by field: " + ", ".join("%s %d" % kv for kv in sorted(by_field.items())))
    for origin, field, a, b, source in disagreements[:args.show]:
        print("  DIFF %s %s: sigil %s / %s %s" % (origin, field, json.dumps(a, ensure_ascii=False)[:160], source,
                                                  json.dumps(b, ensure_ascii=False)[:160]))
    sys.exit(0 if not unread and pct >= 99.5 else 1)


if __name__ == "__main__":
    main()
