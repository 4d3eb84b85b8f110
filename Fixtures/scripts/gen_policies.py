#!/usr/bin/env python3
"""Fixtures/policies: chains exercising RFC 5280 §6.1 certificate policy processing
(certificatePolicies, policyMappings, policyConstraints, inhibitAnyPolicy) and the four user
inputs of §6.1.1, with the verdict of `openssl verify -policy_check` recorded for each.

Each scenario is a directory with root.pem (the anchor), intermediates.pem and leaf.pem, and a
row of Fixtures/policies/manifest.json:
  {"name", "description", "policies": [OID...], "explicit": bool, "inhibitMap": bool,
   "inhibitAny": bool, "at": unix, "expected": "trusted"|"untrusted",
   "opensslExitCode", "opensslError", "userPolicies": [OID...] | null, "authorityPolicies": ...}
The expectation is OpenSSL's answer (`openssl verify -policy_check -policy_print ...`), never
Sigil's; Tests/SigilTrustTests/CertificatePolicyTests.swift asserts that Sigil matches it.
The openssl command line of each row is in "opensslCommand".

Also writes cve-2023-0464/: a chain of six intermediates each mapping 48 policies onto 48
others (the OpenSSL CVE-2023-0464 shape: an RFC 5280 tree would hold 48^6 nodes); Sigil must
fail it closed with its policy work budget (openssl's answer is recorded too).
"""
import datetime
import json
import os
import shutil
import subprocess
import sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import ExtendedKeyUsageOID, ObjectIdentifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import FIX, NOT_AFTER, NOT_BEFORE, der_to_pem, load_key, name, oid_der, serial_for, sign_cert, tlv  # noqa: E402

OUT = os.path.join(FIX, "policies")
AT = int(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
ANY = "2.5.29.32.0"
P1, P2, P3 = "2.999.1.1", "2.999.1.2", "2.999.1.3"
Q1, Q2 = "2.999.2.1", "2.999.2.2"
R1 = "2.999.3.1"
BR_DV = "2.23.140.1.2.1"


def policies_ext(oids, dup=False):
    if dup:  # `cryptography` may refuse duplicates: hand-encode.
        body = b"".join(tlv(0x30, oid_der(o)) for o in oids)
        return x509.UnrecognizedExtension(ObjectIdentifier("2.5.29.32"), tlv(0x30, body))
    return x509.CertificatePolicies([x509.PolicyInformation(ObjectIdentifier(o), None) for o in oids])


def mappings_ext(pairs):
    # policyMappings has no builder class in `cryptography`: hand-encoded (RFC 5280 §4.2.1.5).
    body = b"".join(tlv(0x30, oid_der(a) + oid_der(b)) for a, b in pairs)
    return x509.UnrecognizedExtension(ObjectIdentifier("2.5.29.33"), tlv(0x30, body))


def build(subject, issuer_name, key, issuer_key, label, is_ca, cps=None, maps=None, rep=None, ipm=None,
          inhibit_any=None, dup=False):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name).public_key(key.public_key())
         .serial_number(serial_for("policies:" + label)).not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER))
    if is_ca:
        b = b.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
    else:
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(label + ".policies.sigil.test")]), critical=False)
        b = b.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        b = b.add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    if issuer_key is not key or issuer_name != subject:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if cps is not None:
        b = b.add_extension(policies_ext(cps, dup), critical=False)
    if maps is not None:
        b = b.add_extension(mappings_ext(maps), critical=True)
    if rep is not None or ipm is not None:
        b = b.add_extension(x509.PolicyConstraints(require_explicit_policy=rep, inhibit_policy_mapping=ipm), critical=True)
    if inhibit_any is not None:
        b = b.add_extension(x509.InhibitAnyPolicy(inhibit_any), critical=True)
    return sign_cert(b, issuer_key)


def pem(c):
    return der_to_pem(c.public_bytes(serialization.Encoding.DER))


ROOT_KEY = load_key("policy-root", "p256")
ROOT = build(name("Sigil Policy Root"), name("Sigil Policy Root"), ROOT_KEY, ROOT_KEY, "root", True)
KEYS = [load_key("policy-ca%d" % i, "p256") for i in range(1, 4)]
SELF_KEY = load_key("policy-ca1-rollover", "p256")
LEAF_KEY = load_key("policy-leaf", "p256")


def chain(label, cas, leaf_kw):
    """cas: list of dicts (build keywords) from the root down; each may say self_issued=True to
    reuse the previous CA's name with a new key (a key-rollover certificate)."""
    certs = []
    issuer_name, issuer_key = ROOT.subject, ROOT_KEY
    for i, kw in enumerate(cas):
        kw = dict(kw)
        if kw.pop("self_issued", False):
            subject, key = issuer_name, SELF_KEY
        else:
            subject, key = name("Sigil Policy CA %d" % (i + 1)), KEYS[i]
        certs.append(build(subject, issuer_name, key, issuer_key, "%s-ca%d" % (label, i + 1), True, **kw))
        issuer_name, issuer_key = subject, key
    leaf = build(name(label + ".policies.sigil.test"), issuer_name, LEAF_KEY, issuer_key, label, False, **leaf_kw)
    return certs, leaf


# (name, description, CA keywords root-down, leaf keywords, user policies, explicit, inhibitMap, inhibitAny)
SCENARIOS = [
    ("web-default", "anyPolicy CA, BR DV leaf, no user inputs: today's web PKI behaviour",
     [dict(cps=[ANY])], dict(cps=[BR_DV]), [], False, False, False),
    ("no-policies-no-requirement", "no policy extension anywhere and nothing required: valid with a NULL tree",
     [dict()], dict(), [], False, False, False),
    ("explicit-match", "CA and leaf assert P1; user set {P1}, explicit",
     [dict(cps=[P1])], dict(cps=[P1]), [P1], True, False, False),
    ("explicit-mismatch", "CA and leaf assert P1; user set {P2}, explicit: no acceptable policy",
     [dict(cps=[P1])], dict(cps=[P1]), [P2], True, False, False),
    ("mismatch-not-explicit", "as explicit-mismatch without initial-explicit-policy: valid, empty user set",
     [dict(cps=[P1])], dict(cps=[P1]), [P2], False, False, False),
    ("explicit-leaf-without-policies", "leaf has no certificatePolicies; explicit: NULL tree",
     [dict(cps=[ANY])], dict(), [], True, False, False),
    ("require-explicit-0-no-leaf-policy", "CA policyConstraints requireExplicitPolicy=0, leaf without policies",
     [dict(cps=[ANY], rep=0)], dict(), [], False, False, False),
    ("require-explicit-0-ok", "CA requireExplicitPolicy=0 with P1, leaf P1",
     [dict(cps=[P1], rep=0)], dict(cps=[P1]), [], False, False, False),
    ("require-explicit-1-null-below", "CA1 requireExplicitPolicy=1, CA2 without policies, leaf P1",
     [dict(cps=[P1], rep=1), dict()], dict(cps=[P1]), [], False, False, False),
    ("require-explicit-3-skips", "CA1 requireExplicitPolicy=3 (beyond the path), no policies below",
     [dict(cps=[P1], rep=3), dict()], dict(), [], False, False, False),
    ("require-explicit-2-reaches-leaf", "CA1 requireExplicitPolicy=2: reaches 0 at the leaf, which has no policies",
     [dict(cps=[P1], rep=2), dict(cps=[P1])], dict(), [], False, False, False),
    ("mapping-ok", "CA1 asserts P1 and maps P1→Q1; leaf asserts Q1; user {P1}, explicit",
     [dict(cps=[P1], maps=[(P1, Q1)])], dict(cps=[Q1]), [P1], True, False, False),
    ("mapping-user-inhibited", "mapping-ok with initial-policy-mapping-inhibit",
     [dict(cps=[P1], maps=[(P1, Q1)])], dict(cps=[Q1]), [P1], True, True, False),
    ("mapping-ca-inhibited", "CA1 inhibitPolicyMapping=0, CA2 maps P1→Q1, leaf Q1; explicit",
     [dict(cps=[P1], ipm=0), dict(cps=[P1], maps=[(P1, Q1)])], dict(cps=[Q1]), [P1], True, False, False),
    ("mapping-ca-inhibit-1", "CA1 inhibitPolicyMapping=1: CA2's mapping is still allowed",
     [dict(cps=[P1], ipm=1), dict(cps=[P1], maps=[(P1, Q1)])], dict(cps=[Q1]), [P1], True, False, False),
    ("mapping-under-anypolicy", "CA1 asserts anyPolicy and maps P1→Q1; leaf Q1; user {P1}, explicit",
     [dict(cps=[ANY], maps=[(P1, Q1)])], dict(cps=[Q1]), [P1], True, False, False),
    ("mapping-two-steps", "CA1 maps P1→Q1, CA2 maps Q1→R1, leaf R1; user {P1}, explicit",
     [dict(cps=[P1], maps=[(P1, Q1)]), dict(cps=[Q1], maps=[(Q1, R1)])], dict(cps=[R1]), [P1], True, False, False),
    ("mapping-one-to-many", "CA1 maps P1→Q1 and P1→Q2, leaf Q2; user {P1}, explicit",
     [dict(cps=[P1], maps=[(P1, Q1), (P1, Q2)])], dict(cps=[Q2]), [P1], True, False, False),
    ("mapping-leaf-uses-issuer-policy", "CA1 maps P1→Q1, leaf asserts P1 (no longer expected); explicit",
     [dict(cps=[P1], maps=[(P1, Q1)])], dict(cps=[P1]), [P1], True, False, False),
    ("anypolicy-mapped", "CA1 maps anyPolicy→Q1: §6.1.4 (a) rejects the path",
     [dict(cps=[P1], maps=[(ANY, Q1)])], dict(cps=[Q1]), [], False, False, False),
    ("user-inhibit-any", "CA asserts anyPolicy, leaf P1; initial-any-policy-inhibit, explicit",
     [dict(cps=[ANY])], dict(cps=[P1]), [], True, False, True),
    ("user-inhibit-any-leaf-any", "CA P1, leaf anyPolicy; initial-any-policy-inhibit, explicit",
     [dict(cps=[P1])], dict(cps=[ANY]), [P1], True, False, True),
    ("leaf-anypolicy", "CA P1, leaf anyPolicy; user {P1}, explicit",
     [dict(cps=[P1])], dict(cps=[ANY]), [P1], True, False, False),
    ("ca-inhibit-any-0", "CA1 inhibitAnyPolicy=0, CA2 anyPolicy, leaf P1; explicit",
     [dict(cps=[ANY], inhibit_any=0), dict(cps=[ANY])], dict(cps=[P1]), [], True, False, False),
    ("ca-inhibit-any-1", "CA1 inhibitAnyPolicy=1: CA2's anyPolicy still processed; explicit",
     [dict(cps=[ANY], inhibit_any=1), dict(cps=[ANY])], dict(cps=[P1]), [], True, False, False),
    ("self-issued-anypolicy", "CA1 inhibitAnyPolicy=0, then a self-issued CA1 (new key) with anyPolicy: still processed",
     [dict(cps=[ANY], inhibit_any=0), dict(cps=[ANY], self_issued=True)], dict(cps=[P1]), [], True, False, False),
    ("intersection", "CA {P1,P2}, leaf {P2,P3}; user {P2,P3}, explicit: user-constrained {P2}",
     [dict(cps=[P1, P2])], dict(cps=[P2, P3]), [P2, P3], True, False, False),
    ("duplicate-policy", "CA lists P1 twice (§4.2.1.4)",
     [dict(cps=[P1, P1], dup=True)], dict(cps=[P1]), [], False, False, False),
]


def openssl(d, user, explicit, inhibit_map, inhibit_any):
    cmd = ["openssl", "verify", "-CAfile", "root.pem", "-untrusted", "intermediates.pem", "-attime", str(AT),
           "-policy_check", "-policy_print"]
    # No user policy means any-policy (RFC 5280 §6.1.1 (c)); OpenSSL 3.0 reads an absent
    # -policy as an empty user set when an explicit policy is required, so say anyPolicy.
    for p in user or [ANY]:
        cmd += ["-policy", p]
    if explicit:
        cmd.append("-explicit_policy")
    if inhibit_map:
        cmd.append("-inhibit_map")
    if inhibit_any:
        cmd.append("-inhibit_any")
    cmd.append("leaf.pem")
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    err = None
    for line in out.splitlines():
        if line.startswith("error "):
            err = line.split(":", 2)[-1].strip() if ":" in line else line
            break
    return p.returncode, err, out, " ".join(cmd)


def printed_sets(out):
    """OpenSSL's -policy_print: 'Authority Policies:' / 'User Policies:' blocks of 'Policy: OID'."""
    sets, cur = {}, None
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("Authority Policies") or s.startswith("User Policies"):
            cur = "auth" if s.startswith("Authority") else "user"
            sets[cur] = [] if "<empty>" not in s else []
        elif s.startswith("Policy:") and cur:
            sets[cur].append(s.split(":", 1)[1].strip())
    return sets


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    with open(os.path.join(OUT, "root.pem"), "wb") as f:
        f.write(pem(ROOT))
    manifest = []
    for (nm, desc, cas, leaf_kw, user, explicit, imap, iany) in SCENARIOS:
        d = os.path.join(OUT, nm)
        os.makedirs(d)
        cas_certs, leaf = chain(nm, cas, leaf_kw)
        with open(os.path.join(d, "root.pem"), "wb") as f:
            f.write(pem(ROOT))
        with open(os.path.join(d, "intermediates.pem"), "wb") as f:
            f.write(b"".join(pem(c) for c in reversed(cas_certs)))
        with open(os.path.join(d, "leaf.pem"), "wb") as f:
            f.write(pem(leaf))
        rc, err, out, cmd = openssl(d, user, explicit, imap, iany)
        sets = printed_sets(out) if rc == 0 else {}
        manifest.append({"name": nm, "description": desc, "policies": user, "explicit": explicit,
                         "inhibitMap": imap, "inhibitAny": iany, "at": AT,
                         "expected": "trusted" if rc == 0 else "untrusted",
                         "opensslExitCode": rc, "opensslError": err, "opensslCommand": cmd,
                         "userPolicies": sets.get("user"), "authorityPolicies": sets.get("auth")})
        print("%-36s %s%s" % (nm, "trusted" if rc == 0 else "untrusted", "" if rc == 0 else " (" + str(err) + ")"))

    # CVE-2023-0464 shape: 6 intermediates, each asserting 48 policies and mapping each of the
    # previous 48 onto each of its own 48 (2 304 mappings per certificate).
    n, depth = 48, 6
    d = os.path.join(OUT, "cve-2023-0464")
    os.makedirs(d)
    sets = [["2.999.%d.%d" % (10 + level, k) for k in range(n)] for level in range(depth + 1)]
    cas = []
    for level in range(depth):
        cas.append(dict(cps=sets[level], maps=[(a, b) for a in sets[level] for b in sets[level + 1]]))
    KEYS.extend(load_key("policy-ca%d" % i, "p256") for i in range(4, depth + 1))
    cas_certs, leaf = chain("cve-2023-0464", cas, dict(cps=[sets[depth][0]]))
    with open(os.path.join(d, "root.pem"), "wb") as f:
        f.write(pem(ROOT))
    with open(os.path.join(d, "intermediates.pem"), "wb") as f:
        f.write(b"".join(pem(c) for c in reversed(cas_certs)))
    with open(os.path.join(d, "leaf.pem"), "wb") as f:
        f.write(pem(leaf))
    rc, err, out, cmd = openssl(d, [sets[0][0]], True, False, False)
    hostile = {"name": "cve-2023-0464", "policiesPerCertificate": n, "intermediates": depth,
               "policies": [sets[0][0]], "explicit": True, "at": AT,
               "opensslExitCode": rc, "opensslError": err, "opensslCommand": cmd,
               "expected": "untrusted (Sigil: policy work budget exhausted, fail closed)"}
    print("%-36s openssl rc=%d %s" % ("cve-2023-0464", rc, err))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"scenarios": manifest, "hostile": hostile}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
