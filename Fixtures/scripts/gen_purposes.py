#!/usr/bin/env python3
"""Fixtures/purposes: chains for `sigil verify --kind code-signing` and `--kind eku`
(VerificationPurpose.codeSigning / .extendedKeyUsage), with the verdicts of two independent
verifiers recorded in manifest.json:

- "go": Go's crypto/x509 (scripts/purpose_oracle_go) with KeyUsages = [codeSigning] or
  [timeStamping]: the requested EKU of the leaf and of every certificate that carries an
  extKeyUsage (absent = any purpose, RFC 5280 §4.2.1.12).
- "openssl": `openssl verify -x509_strict -purpose P` where OpenSSL 3.0 has a purpose with the
  same meaning, else null. OpenSSL 3.0 has no code-signing purpose; `timestampsign` is
  stricter than RFC 5280 (the leaf's extKeyUsage must be present, critical and timeStamping
  only, RFC 3161 §2.3) and does not look at the CAs' extKeyUsage, so it is recorded only for
  the leaves where both rules give the same answer. `-purpose any` checks the chain itself
  (every chain here is valid for some purpose).

Run from anywhere: python3 Fixtures/scripts/gen_purposes.py (needs cryptography, openssl, go).
"""
import datetime
import json
import os
import subprocess

from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

from common import FIX, HERE, NOT_AFTER, NOT_BEFORE, load_key, name, serial_for, sign_cert, write_cert

OUT = os.path.join(FIX, "purposes")
AT = 1767225600  # 2026-01-01T00:00:00Z, inside every validity period

CODE = ExtendedKeyUsageOID.CODE_SIGNING
TS = ExtendedKeyUsageOID.TIME_STAMPING
SERVER = ExtendedKeyUsageOID.SERVER_AUTH
INT_NAMES = {"int-noeku": "Purposes CA (no EKU)", "int-server": "Purposes CA (serverAuth)",
             "int-code": "Purposes CA (codeSigning)"}


def cert(stem, subject, key, issuer_name, issuer_key, ca, eku=None, eku_critical=False):
    b = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer_name))
         .public_key(key.public_key()).serial_number(serial_for("purposes/" + stem))
         .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
                        critical=False))
    if ca:
        b = b.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                            critical=True)
    else:
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False),
                            critical=True)
    if eku is not None:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=eku_critical)
    c = sign_cert(b, issuer_key)
    write_cert(c, stem, OUT)
    return os.path.join(OUT, stem + ".pem")


def main():
    root_key = load_key("purposes-root", "p256")
    int_key = load_key("purposes-int", "p256")
    leaf_key = load_key("purposes-leaf", "p256")
    root = cert("root", "Purposes Root", root_key, "Purposes Root", root_key, ca=True)
    ints = {
        stem: cert(stem, INT_NAMES[stem], int_key, "Purposes Root", root_key, ca=True, eku=eku)
        for stem, eku in (("int-noeku", None), ("int-server", [SERVER]), ("int-code", [CODE]))
    }
    leaves = {
        "codesign": dict(eku=[CODE]),
        "server": dict(eku=[SERVER]),
        "noeku": dict(eku=None),
        "timestamp": dict(eku=[TS], eku_critical=True),
        "code-and-ts": dict(eku=[CODE, TS]),
    }
    # (leaf, intermediate): every leaf under the EKU-less CA, the code-signing leaf under the
    # other two (issuer EKU nesting).
    pairs = [(l, "int-noeku") for l in leaves] + [("codesign", "int-server"), ("codesign", "int-code")]
    cases = []
    for leaf, inter in pairs:
        stem = "leaf-%s--%s" % (leaf, inter)
        path = cert(stem, "Purposes leaf %s (%s)" % (leaf, inter), leaf_key, INT_NAMES[inter], int_key,
                    ca=False, **leaves[leaf])
        for kind, eku_name, openssl_purpose in (("code-signing", "codeSigning", None),
                                                ("eku", "timeStamping", "timestampsign")):
            go = subprocess.run(["go", "run", ".", root, ints[inter], path, str(AT), eku_name],
                                cwd=os.path.join(HERE, "purpose_oracle_go"), capture_output=True, text=True,
                                check=True).stdout.strip()
            openssl = None
            # timestampsign agrees with RFC 5280 only for a leaf whose EKU is critical and
            # timeStamping alone (trusted by both) or present without timeStamping (refused by
            # both), under a CA without EKU.
            if openssl_purpose and inter == "int-noeku" and leaf in ("timestamp", "codesign", "server"):
                openssl = openssl_verify(root, ints[inter], path, openssl_purpose)
            cases.append({
                "leaf": os.path.basename(path), "intermediate": ints[inter].split("/")[-1], "kind": kind,
                "purposeEKU": "1.3.6.1.5.5.7.3.8" if kind == "eku" else None,
                "go": go == "ok", "goMessage": go,
                "openssl": openssl,
                "opensslChain": openssl_verify(root, ints[inter], path, "any"),
            })
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"at": AT, "root": "root.pem", "cases": cases}, f, indent=1)
        f.write("\n")
    print("purposes: %d cases" % len(cases))


def openssl_verify(root, inter, leaf, purpose):
    r = subprocess.run(["openssl", "verify", "-x509_strict", "-purpose", purpose, "-attime", str(AT),
                        "-CAfile", root, "-untrusted", inter, leaf], capture_output=True, text=True)
    return r.returncode == 0


if __name__ == "__main__":
    main()
