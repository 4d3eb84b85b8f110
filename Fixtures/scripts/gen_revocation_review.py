#!/usr/bin/env python3
"""Fixtures/revocation/review/: the revocation cases an independent review found (2026-12-03),
built with Python `cryptography` (P-256 throughout), verification time 2026-01-01T00:00:00Z.

- flood/: an indirect CRL (RFC 5280 §5.2.5, IDP indirectCRL) signed by a separate CRL issuer
  "CRL Authority" (issued by the root, cRLSign) revokes leaf 0x4004 (certificateIssuer = the
  intermediate). The peer's bundle (`bundle.pem`) is the leaf followed by four self-signed junk
  certificates named "CRL Authority" (no CA key needed to make them); the real authority is the
  caller's (`authority.pem`). Expected: revoked, under hard and soft fail (§6.3.3 (f): the CRL
  issuer's path is found and validated; junk of the same name is no reason to skip it).
- selfvouch/: a leaf (0x3003) that carries id-kp-OCSPSigning signs a "good" OCSP response about
  itself (responderID by name, the leaf included). RFC 6960 §4.2.2.2 delegates to a responder the
  CA authorised, §4.2.2.2.1 leaves the responder's own status to local policy: a key vouching for
  itself is refused, so the leaf's status is undetermined (nothing else covers it).
- bundle/: `int-bundle.crl.pem` holds the intermediate's CRL revoking leaf 0x1002 and a damaged
  block (an empty SEQUENCE labelled X509 CRL); `sigil verify --crl` keeps the good CRL: revoked.

Run: python3 Fixtures/scripts/gen_revocation_review.py (rewrites the directory, new keys).
"""
import datetime as dt
import json
import os
import shutil

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509 import ocsp
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "revocation", "review")
UTC = dt.timezone.utc
NB, NA = dt.datetime(2025, 1, 1, tzinfo=UTC), dt.datetime(2030, 1, 1, tzinfo=UTC)
AT = dt.datetime(2026, 1, 1, tzinfo=UTC)
URI, DN = x509.UniformResourceIdentifier, (lambda cn: x509.DirectoryName(name(cn)))


def key():
    return ec.generate_private_key(ec.SECP256R1())


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def cert(subject, skey, issuer, ikey, serial=None, ca=False, ku=None, eku=None, cdp=None, aki=True):
    b = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
         .public_key(skey.public_key()).serial_number(serial or x509.random_serial_number())
         .not_valid_before(NB).not_valid_after(NA)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    flags = dict(digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
                 key_agreement=False, key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False)
    flags.update(ku or dict(digital_signature=True, key_cert_sign=ca, crl_sign=ca))
    b = b.add_extension(x509.KeyUsage(**flags), critical=True)
    if eku:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
    b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(skey.public_key()), critical=False)
    if aki:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ikey.public_key()), critical=False)
    if cdp:
        b = b.add_extension(x509.CRLDistributionPoints(cdp), critical=False)
    if subject.startswith("leaf"):
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName("leaf.review.sigil.test")]), critical=False)
    return b.sign(ikey, hashes.SHA256())


def crl(issuer, ikey, revoked=(), extra=()):
    b = (x509.CertificateRevocationListBuilder().issuer_name(name(issuer))
         .last_update(AT - dt.timedelta(days=1)).next_update(AT + dt.timedelta(days=30))
         .add_extension(x509.CRLNumber(1), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ikey.public_key()), critical=False))
    for e, c in extra:
        b = b.add_extension(e, critical=c)
    for serial, exts in revoked:
        rb = (x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(AT - dt.timedelta(days=10))
              .add_extension(x509.CRLReason(x509.ReasonFlags.key_compromise), critical=False))
        for e, c in exts:
            rb = rb.add_extension(e, critical=c)
        b = b.add_revoked_certificate(rb.build())
    return b.sign(ikey, hashes.SHA256())


def write(path, objs):
    objs = objs if isinstance(objs, list) else [objs]
    with open(os.path.join(OUT, path), "wb") as f:
        f.write(b"".join(o.public_bytes(serialization.Encoding.PEM) for o in objs))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for d in ("flood", "selfvouch", "bundle"):
        os.makedirs(os.path.join(OUT, d))
    rk, ik, lk = key(), key(), key()
    root = cert("Review Root", rk, "Review Root", rk, ca=True, aki=False)
    inter = cert("Review Int", ik, "Review Root", rk, ca=True)
    write("root.pem", root)
    write("int.pem", inter)
    write("root.crl.pem", crl("Review Root", rk))

    # flood/
    ak = key()
    authority = cert("CRL Authority", ak, "Review Root", rk, ku=dict(crl_sign=True, digital_signature=True))
    point = "http://crl.review.sigil.test/indirect.crl"
    leaf = cert("leaf-flood", lk, "Review Int", ik, serial=0x4004, eku=[ExtendedKeyUsageOID.SERVER_AUTH],
                cdp=[x509.DistributionPoint([URI(point)], None, None, [DN("CRL Authority")])])
    idp = x509.IssuingDistributionPoint(
        full_name=[URI(point)], relative_name=None, only_contains_user_certs=False, only_contains_ca_certs=False,
        only_some_reasons=None, indirect_crl=True, only_contains_attribute_certs=False)
    write("flood/authority.pem", authority)
    write("flood/indirect.crl.pem", crl("CRL Authority", ak, revoked=[
        (0x4004, [(x509.CertificateIssuer([DN("Review Int")]), True)])], extra=[(idp, True)]))
    junk = []
    for _ in range(4):
        k = key()
        junk.append(cert("CRL Authority", k, "CRL Authority", k, aki=False, ku=dict(crl_sign=True, digital_signature=True)))
    write("flood/leaf.pem", leaf)
    write("flood/bundle.pem", [leaf] + junk)

    # selfvouch/
    selfleaf = cert("leaf-selfvouch", lk, "Review Int", ik, serial=0x3003,
                    eku=[ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.OCSP_SIGNING])
    write("selfvouch/leaf.pem", selfleaf)
    resp = (ocsp.OCSPResponseBuilder()
            .add_response(cert=selfleaf, issuer=inter, algorithm=hashes.SHA1(), cert_status=ocsp.OCSPCertStatus.GOOD,
                          this_update=AT - dt.timedelta(hours=1), next_update=AT + dt.timedelta(days=3),
                          revocation_time=None, revocation_reason=None)
            .responder_id(ocsp.OCSPResponderEncoding.NAME, selfleaf).certificates([selfleaf])
            .sign(lk, hashes.SHA256()))
    with open(os.path.join(OUT, "selfvouch/self.ocsp.der"), "wb") as f:
        f.write(resp.public_bytes(serialization.Encoding.DER))

    # bundle/
    revoked = cert("leaf-revoked", lk, "Review Int", ik, serial=0x1002, eku=[ExtendedKeyUsageOID.SERVER_AUTH])
    write("bundle/leaf-revoked.pem", revoked)
    good = crl("Review Int", ik, revoked=[(0x1002, [])]).public_bytes(serialization.Encoding.PEM)
    damaged = b"-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n"
    with open(os.path.join(OUT, "bundle/int-bundle.crl.pem"), "wb") as f:
        f.write(good + damaged)

    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"verificationTime": int(AT.timestamp()), "host": "leaf.review.sigil.test",
                   "flood": {"expected": "revoked", "rule": "RFC 5280 §6.3.3 (f)"},
                   "selfvouch": {"expected": "undetermined", "rule": "RFC 6960 §4.2.2.2, §4.2.2.2.1"},
                   "bundle": {"expected": "revoked", "rule": "a damaged block leaves the other CRLs in force"}},
                  f, indent=1)


if __name__ == "__main__":
    main()
