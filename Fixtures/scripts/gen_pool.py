#!/usr/bin/env python3
"""Generates Fixtures/pool/<scenario>/{leaf,intermediates,anchors,path}.pem and
Fixtures/pool/manifest.json: path building among many untrusted intermediates (the pool a TLS
peer sends), for Tests/SigilTrustTests/CandidatePoolTests.swift.

Expected verdicts are OpenSSL's, recorded here by running
`openssl verify -x509_strict -purpose sslserver -attime AT -CAfile anchors.pem -untrusted X leaf.pem`
(OpenSSL compares names in the RFC 5280 §7.1 way: its canonical encoding lowercases ASCII,
trims and collapses white space, and ignores the string type):

- `openssl` is the verdict with the pool as given ("OK" or OpenSSL's error line);
- `opensslPath` is the verdict with only the intermediates of `path.pem` (the path Sigil must
  find: leaf's issuer first, the anchor excluded) — OpenSSL does not backtrack among
  same-name candidates, so for the decoy scenarios this is the independent statement that a
  valid path exists in the pool.

Fresh P-256 keys each run (the output is committed; the script is not run by generate.sh).
Python 3.11 + cryptography ≥ 44, openssl 3.
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.name import _ASN1Type
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "pool")
UTC = datetime.timezone.utc
NB = datetime.datetime(2025, 1, 1, tzinfo=UTC)
NA = datetime.datetime(2035, 1, 1, tzinfo=UTC)
AT = 1893456000  # 2030-01-01T00:00:00Z
HOST = "leaf.pool.sigil.test"

serial = [0x5100]


def next_serial():
    serial[0] += 1
    return serial[0]


def key():
    return ec.generate_private_key(ec.SECP256R1())


def name(cn, org="Sigil Test PKI", t=_ASN1Type.PrintableString):
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US", _type=_ASN1Type.PrintableString),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, org, _type=t),
        x509.NameAttribute(NameOID.COMMON_NAME, cn, _type=t),
    ])


def ski_of(k):
    return x509.SubjectKeyIdentifier.from_public_key(k.public_key())


def ca(k, subject, issuer_name, issuer_key, ski=None, aki_key=None, na=NA):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name)
         .public_key(k.public_key()).serial_number(next_serial())
         .not_valid_before(NB).not_valid_after(na)
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
         .add_extension(ski or ski_of(k), critical=False))
    if aki_key is not None:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(aki_key.public_key()), critical=False)
    return b.sign(issuer_key, hashes.SHA256())


def leaf(k, issuer_name, issuer_key, aki_ski=None):
    b = (x509.CertificateBuilder().subject_name(name(HOST)).issuer_name(issuer_name)
         .public_key(k.public_key()).serial_number(next_serial())
         .not_valid_before(NB).not_valid_after(NA)
         .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
         .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
         .add_extension(ski_of(k), critical=False))
    if aki_ski is not None:
        b = b.add_extension(x509.AuthorityKeyIdentifier(aki_ski.digest, None, None), critical=False)
    return b.sign(issuer_key, hashes.SHA256())


def pem(certs):
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)


def der(c):
    return c.public_bytes(serialization.Encoding.DER)


def tamper(c):
    """The certificate with the last octet of its signature changed (signature no longer verifies)."""
    b = bytearray(der(c))
    b[-1] ^= 0x01
    return x509.load_der_x509_certificate(bytes(b))


def openssl_verify(anchors, untrusted, lf):
    with tempfile.TemporaryDirectory() as t:
        paths = {}
        for n, certs in (("a", anchors), ("u", untrusted), ("l", [lf])):
            paths[n] = os.path.join(t, n + ".pem")
            with open(paths[n], "wb") as f:
                f.write(pem(certs))
        cmd = ["openssl", "verify", "-x509_strict", "-purpose", "sslserver", "-attime", str(AT),
               "-verify_hostname", HOST, "-CAfile", paths["a"]]
        if untrusted:
            cmd += ["-untrusted", paths["u"]]
        p = subprocess.run(cmd + [paths["l"]], capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip().endswith(": OK"):
            return "OK"
        lines = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("error")]
        return lines[0].split(": ", 1)[1] if lines else (p.stdout + p.stderr).strip()


scenarios = []


def scenario(sid, description, lf, pool, anchors, path):
    d = os.path.join(OUT, sid)
    os.makedirs(d)
    for n, certs in (("leaf", [lf]), ("intermediates", pool), ("anchors", anchors), ("path", path)):
        with open(os.path.join(d, n + ".pem"), "wb") as f:
            f.write(pem(certs))
    scenarios.append({
        "scenario": sid, "description": description, "at": AT, "host": HOST,
        "poolSize": len(pool),
        "openssl": openssl_verify(anchors, pool, lf),
        "opensslPath": openssl_verify(anchors, path, lf),
    })


def unrelated(root, root_key, n, tag):
    """`n` valid CAs under the root with subjects no certificate here is issued by."""
    out = []
    for i in range(n):
        k = key()
        out.append(ca(k, name(f"Sigil Pool Unrelated {tag} {i:04d}"), root.subject, root_key, aki_key=root_key))
    return out


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    root_key = key()
    root_name = name("Sigil Pool Root")
    root = ca(root_key, root_name, root_name, root_key)

    # 1. The leaf names its issuer with other case, spacing and string types than the
    #    issuer's own subject (RFC 5280 §7.1 match, bytes differ), among unrelated CAs.
    ik = key()
    inter = ca(ik, name("Sigil Pool Normalised CA"), root.subject, root_key, aki_key=root_key)
    spelled = name("  sigil POOL   normalised ca ", org="SIGIL test  PKI", t=_ASN1Type.UTF8String)
    lk = key()
    lf = leaf(lk, spelled, ik, aki_ski=ski_of(ik))
    pool = unrelated(root, root_key, 20, "A") + [inter]
    scenario("normalised-issuer", "leaf's issuer = intermediate's subject only under RFC 5280 §7.1 "
             "(UTF8String, other case and spaces vs PrintableString); 20 unrelated CAs before it",
             lf, pool, [root], [inter])

    # 2. Same, plus a decoy whose subject is byte-identical to the leaf's issuer field (other
    #    key): the byte-identical candidate fails, the §7.1 one must still be tried.
    dk = key()
    decoy = ca(dk, spelled, root.subject, root_key, aki_key=root_key)
    scenario("normalised-issuer-after-raw-decoy", "as normalised-issuer, plus a CA whose subject is "
             "byte-identical to the leaf's issuer field but with another key (bad signature)",
             lf, [decoy] + unrelated(root, root_key, 5, "B") + [inter], [root], [inter])

    # 2b. The §7.1-matching intermediate has expired: the failure reported must be that, not
    #     "no issuer" (what the byte-identical search alone would conclude).
    ek = key()
    expired = ca(ek, name("Sigil Pool Normalised CA"), root.subject, root_key, aki_key=root_key,
                 na=datetime.datetime(2029, 1, 1, tzinfo=UTC))
    lf_e = leaf(key(), spelled, ek, aki_ski=ski_of(ek))
    scenario("normalised-issuer-expired", "as normalised-issuer, the intermediate expired in 2029",
             lf_e, unrelated(root, root_key, 5, "C") + [expired], [root], [expired])

    # 2c. The anchor is the one matched only under §7.1: the intermediate names the root with
    #     other case, spacing and string types than the root's own subject.
    ak = key()
    root_spelled = name(" SIGIL pool  ROOT", org="sigil TEST pki ", t=_ASN1Type.UTF8String)
    inter_a = ca(ak, name("Sigil Pool Anchor-Normalised CA"), root_spelled, root_key, aki_key=root_key)
    lf_a = leaf(key(), inter_a.subject, ak, aki_ski=ski_of(ak))
    scenario("normalised-anchor", "intermediate's issuer = the anchor's subject only under RFC 5280 §7.1; "
             "5 unrelated CAs before it", lf_a, unrelated(root, root_key, 5, "D") + [inter_a], [root], [inter_a])

    # 3. Near-duplicates: 60 CAs with the real intermediate's subject, each its own key and
    #    SKI; the real one last. The leaf's AKI names the real one.
    tk = key()
    twin_name = name("Sigil Pool Twin CA")
    real = ca(tk, twin_name, root.subject, root_key, aki_key=root_key)
    twins = [ca(key(), twin_name, root.subject, root_key, aki_key=root_key) for _ in range(60)]
    lf3 = leaf(key(), twin_name, tk, aki_ski=ski_of(tk))
    scenario("near-duplicates", "60 CAs with the intermediate's subject and their own keys, then the real one",
             lf3, twins + [real], [root], [real])

    # 4. Hostile near-duplicates: the 60 twins also claim the real intermediate's SKI (an
    #    extension value anyone can write), so AKI ordering cannot single it out.
    fake_ski = ski_of(tk)
    twins_same_ski = [ca(key(), twin_name, root.subject, root_key, ski=fake_ski, aki_key=root_key) for _ in range(60)]
    scenario("near-duplicates-same-ski", "60 CAs with the intermediate's subject and SKI but other keys, then the real one",
             lf3, twins_same_ski + [real], [root], [real])

    # 5. Duplicates, a copy of the leaf and a copy of the anchor in the pool.
    scenario("duplicates-leaf-and-anchor-copies", "the intermediate three times, a copy of the leaf and of the root",
             lf3, [real, real, lf3, root, real], [root], [real])
    # 6. As 5 with the intermediate's signature broken: untrusted either way.
    bad = tamper(real)
    scenario("duplicates-tampered-intermediate", "a tampered intermediate three times, copies of the leaf and root",
             lf3, [bad, bad, lf3, root, bad], [root], [bad])
    scenario("single-tampered-intermediate", "the tampered intermediate of duplicates-tampered-intermediate alone",
             lf3, [bad], [root], [bad])

    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(scenarios, f, indent=1)
        f.write("\n")
    for s in scenarios:
        print(f'{s["scenario"]}: pool {s["poolSize"]}: openssl {s["openssl"]}; path only {s["opensslPath"]}')


if __name__ == "__main__":
    main()
