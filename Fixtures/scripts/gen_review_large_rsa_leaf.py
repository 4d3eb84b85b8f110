#!/usr/bin/env python3
"""Generates Fixtures/review/large-rsa/{root,leaf}.pem: a P-256 root and a server leaf whose RSA
public key has a 65 544-bit modulus (a multiple of 8 above 65 535: not a usable key, but the leaf's
key is never used by path validation). For Tests/SigilTrustTests/AnchorLookupReviewTests.swift: the
per-certificate fact block keeps the key size in 16 bits, which must not turn this key into a
"65 535-bit, not a multiple of 8" key (BR §6.1.5).

Expected verdict, recorded by running
  openssl verify -attime 1893456000 -purpose sslserver -verify_hostname large-rsa.sigil.test \
      -CAfile root.pem leaf.pem                                      -> leaf.pem: OK
Python 3.11 + cryptography >= 44. The output is committed; not run by generate.sh.
"""
import datetime
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import parse, resign, serialize, tlv, oid_der, der_to_pem  # noqa: E402

OUT = os.path.join(os.path.dirname(HERE), "review", "large-rsa")
UTC = datetime.timezone.utc
NB = datetime.datetime(2025, 1, 1, tzinfo=UTC)
NA = datetime.datetime(2035, 1, 1, tzinfo=UTC)


def nm(cn):
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


root_key = ec.generate_private_key(ec.SECP256R1())
root = (x509.CertificateBuilder().subject_name(nm("Sigil Review Root")).issuer_name(nm("Sigil Review Root"))
        .public_key(root_key.public_key()).serial_number(0x1001).not_valid_before(NB).not_valid_after(NA)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(root_key.public_key()), critical=False)
        .sign(root_key, hashes.SHA256()))
placeholder = ec.generate_private_key(ec.SECP256R1())
leaf = (x509.CertificateBuilder().subject_name(nm("large-rsa.sigil.test")).issuer_name(root.subject)
        .public_key(placeholder.public_key()).serial_number(0x1002).not_valid_before(NB).not_valid_after(NA)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("large-rsa.sigil.test")]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()), critical=False)
        .sign(root_key, hashes.SHA256()))

# The SubjectPublicKeyInfo replaced by rsaEncryption with n = 2^65543 + 2^64 + 1 (65 544 bits).
bits = 65544
n = (1 << (bits - 1)) | (1 << 64) | 1
rsa_key = tlv(0x30, tlv(0x02, b"\x00" + n.to_bytes(bits // 8, "big")) + tlv(0x02, b"\x01\x00\x01"))
spki = tlv(0x30, tlv(0x30, oid_der("1.2.840.113549.1.1.1") + b"\x05\x00") + tlv(0x03, b"\x00" + rsa_key))
node = parse(leaf.public_bytes(serialization.Encoding.DER))
node[0].children[6] = parse(spki)
der = resign(node, root_key, hashes.SHA256())
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "root.pem"), "wb") as f:
    f.write(root.public_bytes(serialization.Encoding.PEM))
with open(os.path.join(OUT, "leaf.pem"), "wb") as f:
    f.write(der_to_pem(der))
