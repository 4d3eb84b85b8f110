#!/usr/bin/env python3
"""Prints the cases of Tests/SigilCryptoTests/ECDSAExceptionalAdditionTests.swift for P-256 or P-384: keys
Q = ±G, ±2G and (r, s, e) chosen so that u1 = e/s and u2 = r/s are 1 or 2 (SEC 1 §4.1.4), which
make the two halves of u1·G + u2·Q meet (P + P doubles, P + (−P) is infinity). Each verdict is
Python `cryptography`'s (OpenSSL): verify(encode_dss_signature(r, s), e, ECDSA(Prehashed(SHA-256
or SHA-384))).

    python3 Scripts/gen_ec_exceptional.py p256
    python3 Scripts/gen_ec_exceptional.py p384
"""
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

CURVES = {
    "p256": (0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551, ec.SECP256R1(), hashes.SHA256(), 32),
    "p384": (0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
             ec.SECP384R1(), hashes.SHA384(), 48),
}
if len(sys.argv) != 2 or sys.argv[1] not in CURVES:
    sys.exit("usage: gen_ec_exceptional.py p256|p384")
N, CURVE, HASH, SIZE = CURVES[sys.argv[1]]


def point(k):
    """k·G for k mod n (negative allowed) via cryptography."""
    return ec.derive_private_key(k % N, CURVE).public_key()


def case(what, qk, u1, u2):
    q = point(qk)
    rk = (u1 + u2 * qk) % N
    r = (point(rk).public_numbers().x if rk else point(3).public_numbers().x) % N
    s = r * pow(u2, -1, N) % N
    e = u1 * s % N
    try:
        q.verify(utils.encode_dss_signature(r, s), e.to_bytes(SIZE, "big"), ec.ECDSA(utils.Prehashed(HASH)))
        valid = True
    except InvalidSignature:
        valid = False
    x963 = q.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex()
    return f'        (\n            "{what}",\n            "{x963}",\n            "{r:0{2 * SIZE}x}",\n            "{s:0{2 * SIZE}x}",\n            "{e:0{2 * SIZE}x}", {"true" if valid else "false"}\n        ),'


print(case("Q=G,u1=u2=1 (G+G, mixed addition doubles)", 1, 1, 1))
print(case("Q=G,u1=1,u2=2 (G+2G)", 1, 1, 2))
print(case("Q=-G,u1=u2=1 (G-G = infinity, mixed addition)", -1, 1, 1))
print(case("Q=-G,u1=2,u2=1 (2G-G)", -1, 2, 1))
print(case("Q=2G,u1=2,u2=1 (2G+2G, Jacobian addition doubles)", 2, 2, 1))
print(case("Q=-2G,u1=2,u2=1 (2G-2G = infinity, Jacobian addition)", -2, 2, 1))
