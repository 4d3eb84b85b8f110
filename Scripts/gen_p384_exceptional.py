#!/usr/bin/env python3
"""Prints the cases of Tests/SigilCryptoTests/ECDSAP384ExceptionalAdditionTests.swift: P-384 keys
Q = ±G, ±2G and (r, s, e) chosen so that u1 = e/s and u2 = r/s are 1 or 2 (SEC 1 §4.1.4), which
make the two halves of u1·G + u2·Q meet (P + P doubles, P + (−P) is infinity). Each verdict is
Python `cryptography`'s (OpenSSL): verify(encode_dss_signature(r, s), e, ECDSA(Prehashed(SHA384))).

    python3 Scripts/gen_p384_exceptional.py
"""
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973
CURVE = ec.SECP384R1()


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
        q.verify(utils.encode_dss_signature(r, s), e.to_bytes(48, "big"), ec.ECDSA(utils.Prehashed(hashes.SHA384())))
        valid = True
    except InvalidSignature:
        valid = False
    x963 = q.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex()
    return f'        (\n            "{what}",\n            "{x963}",\n            "{r:096x}",\n            "{s:096x}",\n            "{e:096x}", {"true" if valid else "false"}\n        ),'


print(case("Q=G,u1=u2=1 (G+G, mixed addition doubles)", 1, 1, 1))
print(case("Q=G,u1=1,u2=2 (G+2G)", 1, 1, 2))
print(case("Q=-G,u1=u2=1 (G-G = infinity, mixed addition)", -1, 1, 1))
print(case("Q=-G,u1=2,u2=1 (2G-G)", -1, 2, 1))
print(case("Q=2G,u1=2,u2=1 (2G+2G, Jacobian addition doubles)", 2, 2, 1))
print(case("Q=-2G,u1=2,u2=1 (2G-2G = infinity, Jacobian addition)", -2, 2, 1))
