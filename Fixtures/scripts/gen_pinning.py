#!/usr/bin/env python3
"""Generates Fixtures/pinning/: certificates and presented chains for the security-policy
(AFSecurityPolicy-style pinning) and ATS tests, and Fixtures/pinning/manifest.json, a scenario
table whose expected verdicts are DERIVED HERE from the semantics stated in
Docs/SecurityPolicies.md — not copied from Sigil's output.

The PKI (all validity 2025-01-01 .. 2035-01-01 unless said, evaluated at 2030-01-01):

    root          "Sigil Pinning Root"          self-signed CA, key rsa2048-root
    intermediate  "Sigil Pinning Intermediate"  CA (pathLen 0) issued by root, key rsa2048-intermediate
    leaf          pin.sigil.test                 issued by intermediate, key chain-leaf-p256
    leaf-expired  pin.sigil.test                 same issuer and key, valid 2020-2022
    leaf-wronghost other.sigil.test              same issuer and key (a certificate the CA issued
                                                 to someone else: the "trap" certificate)
    selfsigned    pin.sigil.test                 self-signed end-entity, key chain-self-signed
    unrelated     "Sigil Unrelated CA"           self-signed CA, key chain-decoy (shares no key)

Presented chains (what a server sends; like most servers, without its root):

    chains/valid.pem       leaf, intermediate
    chains/expired.pem     leaf-expired, intermediate
    chains/selfsigned.pem  selfsigned
    chains/wronghost.pem   leaf-wronghost, intermediate

ATS samples (evaluated 2025-06-01 against the same root):

    ats-good.pem  leaf ats.sigil.test, 2025-03-01 .. 2026-03-01, serverAuth, 3 embedded SCTs, + intermediate
    ats-bad.pem   leaf "ats-bad.sigil.test" in the CN only, RSA-1024 key, SHA-1 signature, no EKU,
                  2021-01-01 .. 2024-01-01 (3 years), no SCTs, + intermediate
"""
import calendar
import datetime
import hashlib
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from gen_chains import ca, leaf, der, pem_all  # noqa: reuse the chain builders
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, ObjectIdentifier

UTC = datetime.timezone.utc
OUT = os.path.join(FIX, "pinning")
DOMAIN = "pin.sigil.test"


def d(y, m=1, day=1):
    return datetime.datetime(y, m, day, tzinfo=UTC)


def unix(y, m=1, day=1):
    return calendar.timegm((y, m, day, 0, 0, 0))


AT = unix(2030)


def spki_pin(cert_der):
    c = x509.load_der_x509_certificate(cert_der)
    spki = c.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    import base64
    return "sha256/" + base64.b64encode(hashlib.sha256(spki).digest()).decode()


def sct_list(n):
    """n well-formed (not log-signed) v1 SCTs in a SignedCertificateTimestampList."""
    log_key = load_key("sct-log-p256", "p256")
    scts = b""
    for i in range(n):
        log_id = hashlib.sha256(b"sigil pinning test log %d" % i).digest()
        sig = log_key.sign(b"pin sct %d" % i, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
        body = (b"\x00" + log_id + struct.pack(">Q", 1740787200000 + i) + struct.pack(">H", 0)
                + b"\x04\x03" + struct.pack(">H", len(sig)) + sig)
        scts += struct.pack(">H", len(body)) + body
    return tlv(0x04, struct.pack(">H", len(scts)) + scts)


def write(stem, certs):
    with open(os.path.join(OUT, stem + ".pem"), "wb") as f:
        f.write(pem_all(certs))
    if len(certs) == 1:
        with open(os.path.join(OUT, stem + ".der"), "wb") as f:
            f.write(der(certs[0]))


# ---------------------------------------------------------------------------------------------
# The semantics (Docs/SecurityPolicies.md, "evaluateServerTrust clause by clause"), applied to
# facts about the fixtures that this generator knows because it built them.

CHAINS = {
    # presented: what the server sends. ordinary[dc]: does the chain validate against the
    # ordinary anchors {root} with the SSL policy for DOMAIN (dc=True) or the basic X.509 policy
    # (dc=False)? path: the validated path (leaf .. anchor) when it does.
    "valid": {"presented": ["leaf", "intermediate"], "ordinary": {True: True, False: True},
              "path": ["leaf", "intermediate", "root"],
              "why": "valid chain for pin.sigil.test"},
    "expired": {"presented": ["leaf-expired", "intermediate"], "ordinary": {True: False, False: False},
                "path": None, "why": "leaf expired in 2022; every evaluation checks dates"},
    "selfsigned": {"presented": ["selfsigned"], "ordinary": {True: False, False: False},
                   "path": None, "why": "self-signed leaf is not an ordinary anchor"},
    "wronghost": {"presented": ["leaf-wronghost", "intermediate"], "ordinary": {True: False, False: True},
                  "path": ["leaf-wronghost", "intermediate", "root"],
                  "why": "leaf is for other.sigil.test: fails the SSL policy for pin.sigil.test, passes basic X.509"},
}

# Positions of the pinned certificate(s), per chain (the self-signed chain has one certificate:
# it is leaf and root at once, so only "leaf" and "unrelated" apply).
POSITIONS = {
    "valid": {"leaf": ["leaf"], "intermediate": ["intermediate"], "root": ["root"], "unrelated": ["unrelated"],
              "whole": ["leaf", "intermediate", "root"]},
    "expired": {"leaf": ["leaf-expired"], "intermediate": ["intermediate"], "root": ["root"],
                "unrelated": ["unrelated"], "whole": ["leaf-expired", "intermediate", "root"]},
    "wronghost": {"leaf": ["leaf-wronghost"], "intermediate": ["intermediate"], "root": ["root"],
                  "unrelated": ["unrelated"], "whole": ["leaf-wronghost", "intermediate", "root"]},
    "selfsigned": {"leaf": ["selfsigned"], "unrelated": ["unrelated"]},
}

ISSUER = {"leaf": "intermediate", "leaf-expired": "intermediate", "leaf-wronghost": "intermediate",
          "intermediate": "root", "root": None, "selfsigned": None, "unrelated": None}

KEY = {"leaf": "chain-leaf-p256", "leaf-expired": "chain-leaf-p256", "leaf-wronghost": "chain-leaf-p256",
       "intermediate": "rsa2048-intermediate", "root": "rsa2048-root", "selfsigned": "chain-self-signed",
       "unrelated": "chain-decoy"}


def pinned_path(chain, pins, dc):
    """Certificate mode's re-evaluation with the pinned certificates as the ONLY anchors: walk
    from the leaf up the issuer links (through presented certificates or pinned ones) and stop at
    the first pinned certificate; None when no pinned certificate is reached or the chain fails
    the policy (dates: the expired chain; host: the wrong-host chain under the SSL policy)."""
    c = CHAINS[chain]
    if chain == "expired":
        return None           # the expired leaf fails every evaluation, whatever the anchor
    if chain == "wronghost" and dc:
        return None           # name mismatch under the SSL policy, whatever the anchor
    path = []
    cur = c["presented"][0]
    while cur is not None:
        path.append(cur)
        if cur in pins:
            return path
        cur = ISSUER[cur]     # the issuer is presented or (root) only available if pinned
        if cur == "root" and "root" not in pins:
            return None       # the root is not presented and not an anchor: unknown issuer
    return None               # reached a self-signed certificate that is not pinned


def expected(mode, allow_invalid, dc, vcc, chain, position):
    """The verdict and the clause that decides it."""
    pins = POSITIONS[chain][position]
    c = CHAINS[chain]
    # Clause 1 (AFNetworking): a domain is given, invalid certificates are allowed and the
    # domain must be validated, but nothing is pinned (mode none counts as nothing pinned).
    if allow_invalid and dc and mode == "none":
        return "domainValidationNeedsPinning", "allowInvalid + validatesDomainName without pinning is refused (clause 1)"
    ordinary = c["ordinary"][dc]
    policy = "SSL(%s)" % DOMAIN if dc else "basic X.509"
    if mode == "none":
        if allow_invalid:
            return "acceptedWithoutValidation", "mode none + allowInvalid: accepted whatever the chain (clause 3)"
        if ordinary:
            return "trusted", "mode none: %s validates under %s (clause 3)" % (c["why"], policy)
        return "untrusted", "mode none: %s under %s (clause 3)" % (c["why"], policy)
    if not ordinary and not allow_invalid:
        return "untrusted", "ordinary evaluation fails (%s, %s) and invalid certificates are not allowed (clause 4)" % (c["why"], policy)
    if mode == "certificate":
        path = pinned_path(chain, pins, dc)
        if path is None:
            if chain == "expired" or (chain == "wronghost" and dc):
                reason = c["why"]
            else:
                reason = "no pinned certificate is reached from the leaf"
            return "pinnedEvaluationFailed", ("re-evaluation with only %s as anchors under %s fails: %s (clause 5)"
                                              % ("+".join(pins), policy, reason))
        if vcc and any(p not in pins for p in path):
            return "chainNotFullyPinned", "validatesCertificateChain: validated path %s has unpinned certificates (clause 5)" % "/".join(path)
        return "pinMatched", "validated path %s ends at pinned %s (clause 5)" % ("/".join(path), path[-1])
    # public key
    matched = c["presented"] if allow_invalid else c["path"]
    source = "presented chain (allowInvalid: nothing evaluated)" if allow_invalid else "validated path"
    pin_keys = {KEY[p] for p in pins}
    hits = [m for m in matched if KEY[m] in pin_keys]
    if not hits:
        return "pinNotFound", "no key of the %s %s is pinned (%s) (clause 6)" % (source, "/".join(matched), "+".join(pins))
    if vcc and len(hits) != len(matched):
        return "chainNotFullyPinned", "validatesCertificateChain: not every key of the %s %s is pinned (clause 6)" % (source, "/".join(matched))
    return "pinMatched", "pinned key of %s found in the %s %s (clause 6)" % (hits[0], source, "/".join(matched))


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(os.path.join(OUT, "chains"), exist_ok=True)
    rk = load_key("rsa2048-root", "rsa2048")
    ik = load_key("rsa2048-intermediate", "rsa2048")
    lk = load_key("chain-leaf-p256", "p256")
    sk = load_key("chain-self-signed", "p256")
    uk = load_key("chain-decoy", "p256")

    root = ca(rk, "Sigil Pinning Root", label="pin-root")
    inter = ca(ik, "Sigil Pinning Intermediate", root, rk, path_length=0, label="pin-intermediate")
    certs = {
        "root": root,
        "intermediate": inter,
        "leaf": leaf(lk, DOMAIN, inter, ik, label="pin-leaf"),
        "leaf-expired": leaf(lk, DOMAIN, inter, ik, nb=d(2020), na=d(2022), label="pin-leaf-expired"),
        "leaf-wronghost": leaf(lk, "other.sigil.test", inter, ik, label="pin-leaf-wronghost"),
        "selfsigned": leaf(sk, DOMAIN, None, None, self_signed=True, label="pin-selfsigned"),
        "unrelated": ca(uk, "Sigil Unrelated CA", label="pin-unrelated"),
    }
    for stem, c in certs.items():
        write(stem, [c])
    for chain, facts in CHAINS.items():
        with open(os.path.join(OUT, "chains", chain + ".pem"), "wb") as f:
            f.write(pem_all([certs[n] for n in facts["presented"]]))

    # ATS samples.
    sct_oid = ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")
    good = leaf(lk, "ats.sigil.test", inter, ik, nb=d(2025, 3, 1), na=d(2026, 3, 1), label="ats-good",
                extra=[(x509.UnrecognizedExtension(sct_oid, sct_list(3)), False)])
    write("ats-good", [good, inter])
    weak = load_key("rsa1024-leaf", "rsa1024")
    b = (x509.CertificateBuilder().subject_name(name("ats-bad.sigil.test")).issuer_name(inter.subject)
         .public_key(weak.public_key()).serial_number(serial_for("ats-bad"))
         .not_valid_before(d(2021)).not_valid_after(d(2024))
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(weak.public_key()), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), critical=False))
    bad = sign_cert(b, ik)
    # Re-sign with SHA-1 (sha1WithRSAEncryption in both AlgorithmIdentifiers).
    tree = parse(der(bad))
    sha1rsa = parse(tlv(0x30, oid_der("1.2.840.113549.1.1.5") + b"\x05\x00"))
    tree.children[0].children[2] = sha1rsa
    tree.children[1] = parse(tlv(0x30, oid_der("1.2.840.113549.1.1.5") + b"\x05\x00"))
    tbs = serialize(tree[0])
    tree[2].content = b"\x00" + rsa_pkcs1_sign_raw(ik, tbs, "sha1")
    bad_der = serialize(tree)
    write("ats-bad", [bad_der, inter])

    pins = {n: spki_pin(der(c)) for n, c in certs.items()}
    scenarios = []
    for mode in ("none", "certificate", "publicKey"):
        for ai in (False, True):
            for dc in (True, False):
                for vcc in (False, True):
                    for chain in CHAINS:
                        for pos in POSITIONS[chain]:
                            verdict, why = expected(mode, ai, dc, vcc, chain, pos)
                            scenarios.append({
                                "name": "%s/%s/%s/%s/%s/%s" % (mode, "allowInvalid" if ai else "strict",
                                                               "domain" if dc else "noDomain",
                                                               "wholeChain" if vcc else "anyPin", chain, pos),
                                "mode": mode, "allowInvalidCertificates": ai, "validatesDomainName": dc,
                                "validatesCertificateChain": vcc, "chain": chain, "pinned": POSITIONS[chain][pos],
                                "position": pos, "expected": verdict,
                                "accepted": verdict in ("trusted", "acceptedWithoutValidation", "pinMatched"),
                                "why": why,
                            })
    manifest = {
        "at": AT, "domain": DOMAIN, "ordinaryAnchors": ["root"],
        "certificates": {n: n + ".der" for n in certs},
        "pins": pins,
        "chains": {n: {"file": "chains/%s.pem" % n, "presented": f["presented"], "why": f["why"]}
                   for n, f in CHAINS.items()},
        "ats": {"at": unix(2025, 6, 1), "good": "ats-good.pem", "goodHost": "ats.sigil.test",
                "bad": "ats-bad.pem", "badHost": "ats-bad.sigil.test"},
        "scenarios": scenarios,
    }
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    accepted = sum(1 for s in scenarios if s["accepted"])
    print("pinning: %d certificates, %d scenarios (%d accepted)" % (len(certs), len(scenarios), accepted))


if __name__ == "__main__":
    main()
