#!/usr/bin/env python3
"""A minimal Python `cryptography` (pyca) loop over a PEM bundle, the peer of
`sigil inspect --json` in Benchmarks/scripts/inspect_throughput.sh: for every certificate,
one JSON line with fewer fields than Sigil's report (subject, issuer, serial, validity,
signature algorithm OID, key type and size, SAN DNS names, extension OIDs and criticality,
SHA-256 of the certificate and of its SubjectPublicKeyInfo).

Usage: inspect_pyca.py FILE > out.jsonl
"""
import hashlib
import json
import sys
import warnings

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

ENC = serialization.Encoding
PUB = serialization.PublicFormat


def report(c):
    key = c.public_key()
    spki = key.public_bytes(ENC.DER, PUB.SubjectPublicKeyInfo)
    bits = key.key_size if isinstance(key, (rsa.RSAPublicKey, ec.EllipticCurvePublicKey)) else None
    try:
        san = c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value.get_values_for_type(x509.DNSName)
    except x509.ExtensionNotFound:
        san = []
    return {
        "subject": c.subject.rfc4514_string(),
        "issuer": c.issuer.rfc4514_string(),
        "serial": format(c.serial_number, "x"),
        "notBefore": c.not_valid_before_utc.isoformat(),
        "notAfter": c.not_valid_after_utc.isoformat(),
        "signatureAlgorithm": c.signature_algorithm_oid.dotted_string,
        "publicKey": {"type": type(key).__name__, "bits": bits},
        "dns": san,
        "extensions": [{"oid": e.oid.dotted_string, "critical": e.critical} for e in c.extensions],
        "sha256": hashlib.sha256(c.public_bytes(ENC.DER)).hexdigest(),
        "spkiSha256": hashlib.sha256(spki).hexdigest(),
    }


def main():
    # Old roots with a zero serial number draw a deprecation warning per access.
    warnings.simplefilter("ignore")
    out = sys.stdout
    with open(sys.argv[1], "rb") as f:
        certs = x509.load_pem_x509_certificates(f.read())
    for c in certs:
        out.write(json.dumps(report(c), separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
