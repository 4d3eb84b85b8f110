#!/usr/bin/env python3
"""EdDSA AlgorithmIdentifier edge cases (RFC 8410): an Ed25519 leaf whose key or signature
algorithm identifier carries parameters, whose outer and TBS signature algorithms differ, or
whose Ed25519 signature / Ed448 key is labelled as the other curve. Every variant is re-signed
with the root's key so that only the named defect differs; the verdicts in manifest.json are
those of `openssl verify` and of Go's crypto/x509 (eddsa_params_verify.go, Go 1.19), both run
HERE, never Sigil's; `expected` is their common verdict, and where they differ the RFC text
below decides (noted in `why`). Run: python3 Fixtures/scripts/gen_eddsa_params.py (rewrites
Fixtures/eddsa-params; needs `go` on PATH).

RFC 8410 §3: "For all of the OIDs, the parameters MUST be absent." RFC 5280 §4.1.1.2: the
signatureAlgorithm field "MUST contain the same algorithm identifier as the signature field in
the sequence tbsCertificate"."""
import datetime as dt, json, os, subprocess, tempfile
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, ed448

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "eddsa-params")
os.makedirs(OUT, exist_ok=True)
UTC = dt.timezone.utc
AT = dt.datetime(2026, 6, 1, tzinfo=UTC)
HOST = "eddsa-params.example"

# A minimal DER reader/writer (definite lengths, as every input here is DER).
def tlv(b, i):
    tag = b[i]; n = b[i + 1]; j = i + 2
    if n & 0x80:
        k = n & 0x7F; n = int.from_bytes(b[j:j + k], "big"); j += k
    return tag, j, j + n  # tag, content start, end

def children(b):
    out, i = [], 0
    while i < len(b):
        _, s, e = tlv(b, i); out.append(b[i:e]); i = e
    return out

def enc(tag, content):
    n = len(content)
    if n < 0x80: h = bytes([n])
    else:
        k = (n.bit_length() + 7) // 8; h = bytes([0x80 | k]) + n.to_bytes(k, "big")
    return bytes([tag]) + h + content

def content(b):
    _, s, e = tlv(b, 0); return b[s:e]

OID_ED25519 = bytes.fromhex("06032b6570")
OID_ED448 = bytes.fromhex("06032b6571")
NULL = bytes.fromhex("0500")
alg = lambda oid, params=b"": enc(0x30, oid + params)

root_key = ed25519.Ed25519PrivateKey.generate()
root_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "EdDSA Params Root")])
root = (x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name).public_key(root_key.public_key())
        .serial_number(1).not_valid_before(dt.datetime(2025, 1, 1, tzinfo=UTC)).not_valid_after(dt.datetime(2035, 1, 1, tzinfo=UTC))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(root_key.public_key()), critical=False)
        .sign(root_key, None))
leaf_key = ed25519.Ed25519PrivateKey.generate()
leaf = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)]))
        .issuer_name(root_name).public_key(leaf_key.public_key()).serial_number(0x4E0)
        .not_valid_before(dt.datetime(2026, 1, 1, tzinfo=UTC)).not_valid_after(dt.datetime(2026, 12, 31, tzinfo=UTC))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()), critical=False)
        .sign(root_key, None))
der = leaf.public_bytes(serialization.Encoding.DER)
tbs, outer_alg, sig = children(content(der))
fields = children(content(tbs))  # [0] version, serial, signature, issuer, validity, subject, spki, [3]
assert fields[2] == alg(OID_ED25519) and outer_alg == alg(OID_ED25519)

def build(fields, outer, signature=None):
    t = enc(0x30, b"".join(fields))
    s = root_key.sign(t) if signature is None else signature(t)
    return enc(0x30, t + outer + enc(0x03, b"\x00" + s))

def spki(algorithm, key):
    return enc(0x30, algorithm + enc(0x03, b"\x00" + key))

leaf_pub = leaf_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
ed448_pub = ed448.Ed448PrivateKey.generate().public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
def with_field(i, v):
    f = list(fields); f[i] = v; return f

CASES = {
    "leaf": build(fields, outer_alg),
    # RFC 8410 §3: parameters MUST be absent — in the key's AlgorithmIdentifier...
    "spki-null-params": build(with_field(6, spki(alg(OID_ED25519, NULL), leaf_pub)), outer_alg),
    # ...and in the signature's (TBS and outer alike).
    "sigalg-null-params": build(with_field(2, alg(OID_ED25519, NULL)), alg(OID_ED25519, NULL)),
    # RFC 5280 §4.1.1.2: outer Ed448, TBS Ed25519 (the signature is a valid Ed25519 one).
    "outer-ed448": build(fields, alg(OID_ED448)),
    # Both say Ed448; the signature is the root's Ed25519 signature (64 bytes) of the TBS.
    "sigalg-ed448-both": build(with_field(2, alg(OID_ED448)), alg(OID_ED448)),
    # An Ed448 public key (57 bytes) labelled id-Ed25519.
    "spki-ed448-key-as-ed25519": build(with_field(6, spki(alg(OID_ED25519), ed448_pub)), outer_alg),
    # The leaf's Ed25519 key labelled id-Ed448.
    "spki-ed25519-key-as-ed448": build(with_field(6, spki(alg(OID_ED448), leaf_pub)), outer_alg),
}

# Where OpenSSL 3.0 and Go 1.19 disagree, what decides.
SPLIT = {
    # OpenSSL accepts NULL parameters in an Ed25519 signature algorithm; Go refuses them.
    "sigalg-null-params": "RFC 8410 §3: \"For all of the OIDs, the parameters MUST be absent.\" (Go refuses; OpenSSL 3.0 does not check a signature algorithm's parameters)",
    # Go 1.19 has no Ed448: it parses the leaf's key as an unknown algorithm and never looks at
    # it; OpenSSL cannot decode a 32-octet Ed448 key.
    "spki-ed25519-key-as-ed448": "RFC 8032 §5.2.2 / RFC 8410 §4: an Ed448 public key is 57 octets; this one is 32 (OpenSSL refuses the key; Go 1.19 has no Ed448 and ignores the leaf's key)",
}
pem = lambda d: "-----BEGIN CERTIFICATE-----\n" + "\n".join(
    __import__("base64").b64encode(d).decode()[i:i + 64] for i in range(0, len(__import__("base64").b64encode(d)), 64)) + "\n-----END CERTIFICATE-----\n"
open(os.path.join(OUT, "root.der"), "wb").write(root.public_bytes(serialization.Encoding.DER))
manifest = {"at": int(AT.timestamp()), "host": HOST, "openssl": subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip(), "cases": {}}
with tempfile.TemporaryDirectory() as tmp:
    rp = os.path.join(tmp, "root.pem"); open(rp, "w").write(pem(root.public_bytes(serialization.Encoding.DER)))
    for name, d in CASES.items():
        open(os.path.join(OUT, name + ".der"), "wb").write(d)
        lp = os.path.join(tmp, name + ".pem"); open(lp, "w").write(pem(d))
        r = subprocess.run(["openssl", "verify", "-CAfile", rp, "-attime", str(int(AT.timestamp())),
                            "-purpose", "sslserver", "-verify_hostname", HOST, lp], capture_output=True, text=True)
        ok = r.returncode == 0 and r.stdout.strip().endswith(": OK")
        g = subprocess.run(["go", "run", os.path.join(HERE, "eddsa_params_verify.go"), os.path.join(OUT, "root.der"),
                            os.path.join(OUT, name + ".der"), str(int(AT.timestamp())), HOST],
                           capture_output=True, text=True).stdout.strip()
        c = {"openssl": "trusted" if ok else "untrusted", "go": g.split(":")[0]}
        if c["openssl"] == c["go"]:
            c["expected"] = c["go"]
        else:
            # Two cases split them, and the RFC text sides with the refusal in both.
            c["expected"] = "untrusted"
            c["why"] = SPLIT[name]
        manifest["cases"][name] = c
        print("%-28s openssl=%-9s go=%s" % (name, c["openssl"], g[:110]))
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1, sort_keys=True)
