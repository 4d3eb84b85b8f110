#!/usr/bin/env python3
"""Fixtures for what the 2026-12-04 review found (Python `cryptography`; run from anywhere:
python3 Fixtures/scripts/gen_review_2026_12_04.py, rewrites Fixtures/review-2026-12-04/).

1. system-roots/<case>/{root,inter,leaf}.pem: roots with the profile of real Mozilla roots that
   predate the CA/B root profile — `aki-issuer-serial` (AKI with authorityCertIssuer and serial,
   as Go Daddy / Starfield Class 2, QuoVadis Root CA 2 and 3, Certigna), `no-ski` (as TWCA
   Global Root CA), `bc-noncritical` (as ePKI Root). Each chain is checked HERE with
   `openssl verify` (default flags, which accept such roots; the script stops otherwise) at the
   time below. Expected: trusted for host leaf.example when the root is a system anchor,
   refused when it is a caller's anchor (x509-limbo's expectations for a caller's root).
2. ocsp-responder/: a root (RSA-2048), a leaf for leaf.example, and "good" OCSP responses for the
   leaf signed by a delegated responder (ocspSigning EKU, ocsp-nocheck) with an RSA-1024
   (`ocsp-1024.der`) or RSA-2048 (`ocsp-2048.der`) key. Expected under hard-fail revocation:
   the 2048-bit one is used (trusted), the 1024-bit one is not (a key the algorithm policy
   refuses on a path, BR §6.1.5; `openssl ocsp -auth_level 2` refuses it, checked HERE).

Verification time: 2026-06-01T00:00:00Z = 1780272000."""
import datetime, os, subprocess, tempfile
from cryptography import x509
from cryptography.x509 import ocsp
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa, ec

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "review-2026-12-04")
NOW = datetime.datetime(2026, 6, 1, tzinfo=datetime.timezone.utc)
AT = "1780272000"
UTC = datetime.timezone.utc

def nm(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
def pem(c): return c.public_bytes(serialization.Encoding.PEM)
def save(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data)

def builder(subj, iss, pub, days=3650, serial=None):
    return (x509.CertificateBuilder().subject_name(nm(subj)).issuer_name(nm(iss)).public_key(pub)
            .serial_number(serial or x509.random_serial_number())
            .not_valid_before(NOW - datetime.timedelta(days=30)).not_valid_after(NOW + datetime.timedelta(days=days)))

def ca_usage(): return x509.KeyUsage(True, False, False, False, False, True, True, False, False)

def intermediate_and_leaf(root_name, root_key):
    ik = ec.generate_private_key(ec.SECP256R1())
    inter = (builder("Profile Intermediate", root_name, ik.public_key())
             .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
             .add_extension(ca_usage(), critical=True)
             .add_extension(x509.SubjectKeyIdentifier.from_public_key(ik.public_key()), critical=False)
             .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()), critical=False)
             .sign(root_key, hashes.SHA256()))
    lk = ec.generate_private_key(ec.SECP256R1())
    leaf = (builder("leaf.example", "Profile Intermediate", lk.public_key(), days=90)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("leaf.example")]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(lk.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), critical=False)
            .sign(ik, hashes.SHA256()))
    return inter, leaf

def openssl_verify(d, extra=()):
    p = subprocess.run(["openssl", "verify", "-attime", AT, "-no-CApath", "-no-CAfile", "-CAfile", d + "/root.pem",
                        "-untrusted", d + "/inter.pem", "-purpose", "sslserver", "-verify_hostname", "leaf.example",
                        *extra, d + "/leaf.pem"], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()

# 1. Root profiles.
for case in ["aki-issuer-serial", "no-ski", "bc-noncritical"]:
    rk = rsa.generate_private_key(65537, 2048)
    name = "Profile Root " + case
    # Serial 1, which the AKI of `aki-issuer-serial` names (as a real root's names its own).
    b = (builder(name, name, rk.public_key(), days=7300, serial=1)
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=(case != "bc-noncritical"))
         .add_extension(ca_usage(), critical=True))
    if case != "no-ski":
        b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(rk.public_key()), critical=False)
    if case == "aki-issuer-serial":
        ski = x509.SubjectKeyIdentifier.from_public_key(rk.public_key()).digest
        b = b.add_extension(x509.AuthorityKeyIdentifier(ski, [x509.DirectoryName(nm(name))], 1), critical=False)
    root = b.sign(rk, hashes.SHA256())
    inter, leaf = intermediate_and_leaf(name, rk)
    d = os.path.join(OUT, "system-roots", case)
    save(d + "/root.pem", pem(root)); save(d + "/inter.pem", pem(inter)); save(d + "/leaf.pem", pem(leaf))
    ok, out = openssl_verify(d)
    assert ok, (case, out)
    print(f"system-roots/{case}: openssl verify: {out.splitlines()[-1]}")

# 2. Delegated OCSP responders.
d = os.path.join(OUT, "ocsp-responder")
rk = rsa.generate_private_key(65537, 2048)
root = (builder("OCSP Review Root", "OCSP Review Root", rk.public_key(), days=7300)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(ca_usage(), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
lk = ec.generate_private_key(ec.SECP256R1())
leaf = (builder("leaf.example", "OCSP Review Root", lk.public_key(), days=90)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("leaf.example")]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(lk.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
save(d + "/root.pem", pem(root)); save(d + "/leaf.pem", pem(leaf))
for bits in (1024, 2048):
    k = rsa.generate_private_key(65537, bits)
    responder = (builder(f"OCSP Responder {bits}", "OCSP Review Root", k.public_key(), days=90)
                 .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.OCSP_SIGNING]), critical=False)
                 .add_extension(x509.OCSPNoCheck(), critical=False)
                 .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
                 .sign(rk, hashes.SHA256()))
    r = (ocsp.OCSPResponseBuilder().add_response(
            cert=leaf, issuer=root, algorithm=hashes.SHA256(), cert_status=ocsp.OCSPCertStatus.GOOD,
            this_update=NOW - datetime.timedelta(hours=1), next_update=NOW + datetime.timedelta(days=3),
            revocation_time=None, revocation_reason=None)
         .responder_id(ocsp.OCSPResponderEncoding.HASH, responder).certificates([responder])
         .sign(k, hashes.SHA256()))
    save(d + f"/ocsp-{bits}.der", r.public_bytes(serialization.Encoding.DER))
    p = subprocess.run(["openssl", "ocsp", "-respin", d + f"/ocsp-{bits}.der", "-issuer", d + "/root.pem",
                        "-CAfile", d + "/root.pem", "-cert", d + "/leaf.pem", "-attime", AT, "-auth_level", "2"],
                       capture_output=True, text=True)
    verified = "Response verify OK" in (p.stdout + p.stderr)
    assert verified == (bits == 2048), (bits, p.stdout + p.stderr)
    print(f"ocsp-responder/ocsp-{bits}.der: openssl ocsp -auth_level 2: {'OK' if verified else 'refused'}")
