#!/usr/bin/env python3
"""Fixtures for caller text compared by its bytes (Python `cryptography`; run from anywhere:
python3 Fixtures/scripts/gen_exact_text.py, rewrites Fixtures/exact-text/).

A root (P-256) and a leaf it signs directly: serverAuth + clientAuth, subjectAltName
rfc822Name `Kim@exact.sigil.test` and dNSName `kim.exact.sigil.test`. Swift's `String ==` is
canonical equivalence, and U+212A KELVIN SIGN decomposes canonically to ASCII `K`, so
"\\u{212A}im" == "Kim" in Swift, while RFC 5280 §7.5 compares the local part exactly and a host
name must be LDH (RFC 5280 §4.2.1.6, RFC 1123). Checked HERE with `openssl verify` at the time
below (the script stops otherwise):
  -verify_email Kim@exact.sigil.test          -> OK
  -verify_email <U+212A>im@exact.sigil.test   -> refused (e-mail address mismatch)
  -verify_hostname Kim.exact.sigil.test       -> OK (DNS names match ASCII case-insensitively)
  -verify_hostname <U+212A>im.exact.sigil.test -> refused (hostname mismatch)
Also `client-kelvin.pem`: a clientAuth leaf of the same root whose subject is
O=Exact Text, CN=<U+212A>im (UTF8String), which `openssl verify -purpose sslclient` accepts:
an allow-list naming "CN=Kim,O=Exact Text" must not admit it (RFC 5280 §7.1: another name).
Tests: VerdictCacheTests.testCanonicallyEquivalentTextMisses,
VerdictCacheAndPortTests.testLastNameIsComparedByItsBytes, MutualTLSTests (allowedSubjects).

Verification time: 2030-01-01T00:00:00Z = 1893456000."""
import datetime, os, subprocess
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exact-text")
NOW = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
AT = "1893456000"
KELVIN = "\u212a"

def nm(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

def builder(subj, iss, pub, days):
    return (x509.CertificateBuilder().subject_name(nm(subj)).issuer_name(nm(iss)).public_key(pub)
            .serial_number(x509.random_serial_number())
            .not_valid_before(NOW - datetime.timedelta(days=365)).not_valid_after(NOW + datetime.timedelta(days=days)))

rk = ec.generate_private_key(ec.SECP256R1())
root = (builder("Exact Text Root", "Exact Text Root", rk.public_key(), 3650)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
lk = ec.generate_private_key(ec.SECP256R1())
leaf = (builder("kim.exact.sigil.test", "Exact Text Root", lk.public_key(), 360)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                       critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.RFC822Name("Kim@exact.sigil.test"),
                                                    x509.DNSName("kim.exact.sigil.test")]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(lk.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
ck = ec.generate_private_key(ec.SECP256R1())
client = (x509.CertificateBuilder()
          .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Exact Text"),
                                   x509.NameAttribute(NameOID.COMMON_NAME, KELVIN + "im")]))
          .issuer_name(nm("Exact Text Root")).public_key(ck.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(NOW - datetime.timedelta(days=365)).not_valid_after(NOW + datetime.timedelta(days=360))
          .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
          .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ck.public_key()), critical=False)
          .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
          .sign(rk, hashes.SHA256()))
os.makedirs(OUT, exist_ok=True)
for name, c in [("root.pem", root), ("leaf.pem", leaf), ("client-kelvin.pem", client)]:
    open(os.path.join(OUT, name), "wb").write(c.public_bytes(serialization.Encoding.PEM))

def verify(*extra, cert="leaf.pem"):
    p = subprocess.run(["openssl", "verify", "-attime", AT, "-no-CApath", "-no-CAfile", "-CAfile",
                        os.path.join(OUT, "root.pem"), *extra, os.path.join(OUT, cert)],
                       capture_output=True, text=True)
    return p.returncode == 0

checks = [
    (("-verify_email", "Kim@exact.sigil.test"), True),
    (("-verify_email", KELVIN + "im@exact.sigil.test"), False),
    (("-verify_hostname", "Kim.exact.sigil.test"), True),
    (("-verify_hostname", KELVIN + "im.exact.sigil.test"), False),
]
for args, want in checks:
    got = verify(*args)
    assert got == want, (args, got)
assert verify("-purpose", "sslclient", cert="client-kelvin.pem")
print("exact-text: openssl agrees on", len(checks) + 1, "checks")
