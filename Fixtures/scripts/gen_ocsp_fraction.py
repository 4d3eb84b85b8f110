#!/usr/bin/env python3
"""OCSP responses whose GeneralizedTimes carry fractional seconds (X.690 §11.7 DER form
`YYYYMMDDHHMMSS.123Z`), which RFC 6960 allows (only RFC 5019 §2.2.4 and RFC 5280 for
certificates and CRLs forbid the fraction). Python `cryptography` builds a root, a leaf and
"good" / "revoked (keyCompromise)" responses signed by the root; the script then rewrites
producedAt, thisUpdate, nextUpdate and revocationTime with a `.123` fraction and signs the
ResponseData again. Run from anywhere: python3 Fixtures/scripts/gen_ocsp_fraction.py, rewrites
Fixtures/ocsp-fraction/. Checked HERE with `openssl ocsp -respin … -CAfile root.pem -issuer
root.pem -cert leaf.pem` (signature verifies, status as built, the fraction printed):
  good-frac.der     good     (Sigil, hard fail: trusted)
  revoked-frac.der  revoked  (Sigil, soft or hard fail: revoked — used to be dropped as
                              malformed, so soft fail trusted a revoked leaf)
Verification time 2025-06-02T00:00:00Z = 1748822400 (thisUpdate 2025-06-01, nextUpdate
2025-06-08); host leaf.ocsp-fraction.sigil.test."""
import datetime, os, subprocess
from cryptography import x509
from cryptography.x509 import ocsp
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ocsp-fraction")
UTC = datetime.timezone.utc
HOST = "leaf.ocsp-fraction.sigil.test"

def nm(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
def path(n): return os.path.join(OUT, n)

# A minimal DER tree: (tag, bytes) for primitives, (tag, [children]) for constructed values.
def parse(b, i=0, end=None):
    end = len(b) if end is None else end
    out = []
    while i < end:
        tag = b[i]; l = b[i + 1]; i += 2
        if l & 0x80:
            n = l & 0x7F; l = int.from_bytes(b[i:i + n], "big"); i += n
        content = b[i:i + l]
        out.append((tag, parse(content) if tag & 0x20 else content))
        i += l
    return out
def length(n):
    if n < 0x80: return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big"); return bytes([0x80 | len(b)]) + b
def ser(nodes):
    out = b""
    for tag, c in nodes:
        body = ser(c) if isinstance(c, list) else c
        out += bytes([tag]) + length(len(body)) + body
    return out
def with_fractions(nodes):
    out = []
    for tag, c in nodes:
        if isinstance(c, list): out.append((tag, with_fractions(c)))
        elif tag == 0x18 and len(c) == 15: out.append((tag, c[:14] + b".123Z"))
        else: out.append((tag, c))
    return out

rk = ec.generate_private_key(ec.SECP256R1())
root = (x509.CertificateBuilder().subject_name(nm("OCSP Fraction Root")).issuer_name(nm("OCSP Fraction Root"))
        .public_key(rk.public_key()).serial_number(1)
        .not_valid_before(datetime.datetime(2024, 1, 1, tzinfo=UTC)).not_valid_after(datetime.datetime(2034, 1, 1, tzinfo=UTC))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
lk = ec.generate_private_key(ec.SECP256R1())
leaf = (x509.CertificateBuilder().subject_name(nm(HOST)).issuer_name(nm("OCSP Fraction Root"))
        .public_key(lk.public_key()).serial_number(0x1234)
        .not_valid_before(datetime.datetime(2025, 1, 1, tzinfo=UTC)).not_valid_after(datetime.datetime(2025, 12, 1, tzinfo=UTC))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
        .add_extension(x509.AuthorityInformationAccess([x509.AccessDescription(
            x509.oid.AuthorityInformationAccessOID.OCSP, x509.UniformResourceIdentifier("http://ocsp.sigil.test/"))]),
            critical=False)
        .sign(rk, hashes.SHA256()))
os.makedirs(OUT, exist_ok=True)
for n, c in (("root.pem", root), ("leaf.pem", leaf)):
    open(path(n), "wb").write(c.public_bytes(serialization.Encoding.PEM))

def response(status, name):
    revoked = status == ocsp.OCSPCertStatus.REVOKED
    b = (ocsp.OCSPResponseBuilder().add_response(
            cert=leaf, issuer=root, algorithm=hashes.SHA1(), cert_status=status,
            this_update=datetime.datetime(2025, 6, 1, tzinfo=UTC), next_update=datetime.datetime(2025, 6, 8, tzinfo=UTC),
            revocation_time=datetime.datetime(2025, 5, 1, tzinfo=UTC) if revoked else None,
            revocation_reason=x509.ReasonFlags.key_compromise if revoked else None)
         .responder_id(ocsp.OCSPResponderEncoding.HASH, root))
    der = b.sign(rk, hashes.SHA256()).public_bytes(serialization.Encoding.DER)
    # OCSPResponse { status, [0] { SEQUENCE { responseType, OCTET STRING BasicOCSPResponse } } }
    top = parse(der)
    rb = top[0][1][1][1][0][1]          # ResponseBytes' children
    basic = parse(rb[1][1])             # BasicOCSPResponse
    data = basic[0][1][0]               # ResponseData { responderID, producedAt, responses, ... }
    assert data[1][1][0] == 0x18
    data[1][1] = (0x18, b"20250601000000Z")  # producedAt: the time of thisUpdate, not today
    tbs = with_fractions([data])
    basic[0][1][0] = tbs[0]
    basic[0][1][2] = (0x03, b"\x00" + rk.sign(ser(tbs), ec.ECDSA(hashes.SHA256())))
    rb[1] = (0x04, ser(basic))
    out = ser(top)
    assert out.count(b".123Z") == (4 if revoked else 3), name
    open(path(name), "wb").write(out)
    p = subprocess.run(["openssl", "ocsp", "-respin", path(name), "-CAfile", path("root.pem"), "-issuer", path("root.pem"),
                        "-cert", path("leaf.pem"), "-resp_text"], capture_output=True, text=True)
    text = p.stdout + p.stderr
    assert "Response verify OK" in text, text
    assert ("revoked" if revoked else ": good") in text, text
    assert "00:00:00.123 2025 GMT" in text, text

response(ocsp.OCSPCertStatus.GOOD, "good-frac.der")
response(ocsp.OCSPCertStatus.REVOKED, "revoked-frac.der")
print("ocsp-fraction: openssl verifies both responses")
