#!/usr/bin/env python3
"""Generates Fixtures/review/anchor-decoy.pem: a self-signed CA (fresh P-256 key) whose subject
is byte-identical to the issuer field of Fixtures/pool/normalised-anchor/path.pem, which the real
anchor (Fixtures/pool/normalised-anchor/anchors.pem) names only under RFC 5280 §7.1. For
Tests/SigilTrustTests/AnchorLookupReviewTests.swift: the byte-identical pass of path building finds
the decoy anchor (wrong key), the §7.1 pass must still find the real one, with or without a pool.

Expected verdict, recorded by running (OpenSSL compares names the §7.1 way):
  openssl verify -attime 1893456000 -CAfile anchors.pem path.pem          -> path.pem: OK
  openssl verify -attime 1893456000 -CAfile anchor-decoy.pem path.pem     -> signature failure
Python 3.11 + cryptography >= 44. The output is committed; not run by generate.sh.
"""
import datetime
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.dirname(HERE)
UTC = datetime.timezone.utc

path = x509.load_pem_x509_certificate(open(os.path.join(FIX, "pool/normalised-anchor/path.pem"), "rb").read())
key = ec.generate_private_key(ec.SECP256R1())
issuer = path.issuer  # parsed Name keeps each attribute's string type
cert = (
    x509.CertificateBuilder()
    .subject_name(issuer)
    .issuer_name(issuer)
    .public_key(key.public_key())
    .serial_number(0x5EC0DEC0)
    .not_valid_before(datetime.datetime(2025, 1, 1, tzinfo=UTC))
    .not_valid_after(datetime.datetime(2035, 1, 1, tzinfo=UTC))
    .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    .add_extension(
        x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    .sign(key, hashes.SHA256())
)
assert cert.subject.public_bytes() == path.issuer.public_bytes()
os.makedirs(os.path.join(FIX, "review"), exist_ok=True)
with open(os.path.join(FIX, "review/anchor-decoy.pem"), "wb") as f:
    f.write(cert.public_bytes(serialization.Encoding.PEM))
