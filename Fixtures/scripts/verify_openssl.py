#!/usr/bin/env python3
"""Cross-checks the fixtures with OpenSSL (and `cryptography`); prints a report and exits non-zero
on an unexpected result. OpenSSL runs with -partial_chain (any
anchor may end a chain, as in Sigil), -x509_strict, -auth_level 2, -purpose sslserver. Known, documented disagreements between OpenSSL and Sigil's SPEC are
listed in OPENSSL_DIFFERS and reported, not counted as failures."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CERTS, FIX  # noqa
from cryptography import x509

warnings.simplefilter("ignore")

# Scenarios where OpenSSL 3.0's verdict differs from the SPEC's, by design.
OPENSSL_DIFFERS = {
    "wildcard-partial-label-rejected": "OpenSSL accepts a partial-label wildcard (f*.partial...)",
    "cn-only-no-san": "OpenSSL falls back to the subject CN when there is no dNSName SAN",
}

problems = 0


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, errors="replace")
    return p.returncode, (p.stdout + p.stderr).strip()


def bad(msg):
    global problems
    problems += 1
    print("PROBLEM:", msg)


def main():
    # 1. Every valid certificate parses with openssl and cryptography.
    ders = sorted(glob.glob(os.path.join(CERTS, "*.der")))
    for f in ders:
        rc, out = run(["openssl", "x509", "-inform", "DER", "-in", f, "-noout", "-text"])
        if rc:
            bad("openssl cannot parse %s: %s" % (f, out[:200]))
        try:
            c = x509.load_der_x509_certificate(open(f, "rb").read())
            c.extensions, c.public_key(), c.subject.rfc4514_string()
        except Exception as e:  # noqa
            bad("cryptography refuses %s: %s" % (f, e))
    print("certs: %d DER files parsed by openssl and cryptography" % len(ders))

    # 2. Chains of item 2 verify.
    def verify(leaf, root, inter=None, extra=()):
        args = ["openssl", "verify", *extra, "-CAfile", os.path.join(CERTS, root + ".pem")]
        if inter:
            args += ["-untrusted", os.path.join(CERTS, inter + ".pem")]
        return run(args + [os.path.join(CERTS, leaf + ".pem")])
    checks = [("%s-leaf" % f, "%s-root" % f, "%s-intermediate" % f, ()) for f in
              ("rsa2048", "rsa3072", "rsa4096", "p256", "p384", "p521")]
    for leaf in ("v1", "names-string-types", "serial-20-octets", "serial-leading-zero",
                 "notafter-generalizedtime-2051", "notbefore-utctime-1999", "rsa-pss-signature",
                 "rsa-pss-key", "ed25519-leaf-rsa-issuer", "rsa1024-leaf", "nameconstraints-ca"):
        checks.append((leaf, "rsa2048-root", "rsa2048-intermediate" if leaf != "nameconstraints-ca" else None, ()))
    checks += [("nameconstraints-leaf", "rsa2048-root", "nameconstraints-ca", ()),
               ("ed25519-leaf", "ed25519-root", None, ()), ("ed448-leaf", "ed448-root", None, ()),
               ("p256-ecdsa-sha512", "p256-root", "p256-intermediate", ()),
               ("sha1-rsa-signature", "rsa2048-root", "rsa2048-intermediate", ("-auth_level", "0")),
               ("md5-rsa-signature", "rsa2048-root", "rsa2048-intermediate", ("-auth_level", "0"))]
    for leaf, root, inter, extra in checks:
        rc, out = verify(leaf, root, inter, extra)
        if rc:
            bad("openssl verify %s: %s" % (leaf, out))
    print("certs: %d chains verified by openssl verify" % len(checks))

    # 3. Malformed samples: which are rejected by openssl asn1parse / cryptography.
    with open(os.path.join(FIX, "malformed", "manifest.json")) as f:
        manifest = json.load(f)
    rej_a = rej_c = 0
    for m in manifest:
        path = os.path.join(FIX, "malformed", m["file"])
        rc, _ = run(["openssl", "asn1parse", "-inform", "DER", "-in", path])
        rej_a += rc != 0
        try:
            c = x509.load_der_x509_certificate(open(path, "rb").read())
            c.extensions, c.public_key(), c.subject, c.issuer, c.not_valid_before_utc
        except Exception:  # noqa
            rej_c += 1
    print("malformed: %d samples; rejected by openssl asn1parse: %d, by cryptography: %d"
          % (len(manifest), rej_a, rej_c))

    # 4. Chains scenarios against openssl verify.
    with open(os.path.join(FIX, "chains", "manifest.json")) as f:
        scen = json.load(f)
    agree = 0
    for s in scen:
        d = os.path.join(FIX, "chains", s["scenario"])
        args = ["openssl", "verify", "-partial_chain", "-auth_level", "2", "-purpose", "sslserver", "-x509_strict",
                "-attime", str(s["at"]), "-CAfile", os.path.join(d, "anchors.pem")]
        if os.path.getsize(os.path.join(d, "intermediates.pem")):
            args += ["-untrusted", os.path.join(d, "intermediates.pem")]
        if "host" in s:
            args += ["-verify_hostname", s["host"]]
        if "ip" in s:
            args += ["-verify_ip", s["ip"]]
        rc, out = run(args + [os.path.join(d, "leaf.pem")])
        verdict = "trusted" if rc == 0 else "untrusted"
        if verdict == s["expected"]:
            agree += 1
        elif s["scenario"] in OPENSSL_DIFFERS:
            print("  openssl differs (documented) on %s: %s -- %s" % (s["scenario"], verdict,
                                                                      out.splitlines()[-1] if out else ""))
        else:
            bad("chain %s: expected %s, openssl says %s: %s" % (s["scenario"], s["expected"], verdict, out))
    print("chains: %d scenarios, openssl agrees on %d" % (len(scen), agree))
    print("PROBLEMS: %d" % problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
