#!/usr/bin/env python3
"""Generates Fixtures/odd/: certificates the strict parser refuses (or that carry odd but legal
content) which `sigil inspect` must still show, and Fixtures/odd/manifest.json.

Usage: python3 Fixtures/scripts/gen_odd.py [OUTDIR]       (needs `cryptography` and `openssl`)

Each certificate starts as a normal one made with Python `cryptography` (an EC P-256 CA signs
it); the oddity is then made by DER surgery on the TBSCertificate (or the outer structure), and
the TBS is signed again with the CA key, so the only thing wrong is the oddity. Explicit EC
parameters come from `openssl ec -param_enc explicit`.

For every certificate the manifest records:
- `violations`: the clauses the oddity breaks (what the inspector must warn about — the
  generator's statement of what it did, one entry per deliberate violation);
- `strictRefuses`: whether RFC 5280 / X.690 DER make the certificate invalid (the strict
  parser must refuse it; certificates with odd but legal content are `false`);
- `reference`: the fields as Python `cryptography` reads them, else `openssl x509` (see
  reference_fields.py; `sources` names the parser of each field), and whether each reads it;
- `expected`: values the generator knows by construction (the key it put in, the SAN entries
  it wrote), cross-checked here against the reference where one reads them.

Deterministic except for keys and signatures: re-running changes the bytes, not the manifest's
meaning; tests read the values from the manifest.
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec
from cryptography.x509.oid import NameOID

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_fields import reference_fields, tlv as ber_tlv, children as ber_children  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fixtures", "odd")


# --- DER helpers ----------------------------------------------------------------------------

def enc_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, content):
    return bytes([tag]) + enc_len(len(content)) + content


def split(der):
    """The child TLVs (bytes) of the constructed DER value `der`."""
    _, cs, ce, _ = ber_tlv(der, 0)
    return [der[c[1]:c[4]] for c in ber_children(der, cs, ce)]


def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray()
    for i, a in enumerate([arcs[0] * 40 + arcs[1]] + arcs[2:]):
        chunk = [a & 0x7F]
        a >>= 7
        while a:
            chunk.append(0x80 | (a & 0x7F))
            a >>= 7
        out += bytes(reversed(chunk))
    return tlv(0x06, bytes(out))


def integer(n, length=None):
    if length is None:
        length = max(1, (n.bit_length() + 8) // 8) if n >= 0 else max(1, ((-n - 1).bit_length() + 8) // 8)
    return tlv(0x02, n.to_bytes(length, "big", signed=True))


ECDSA_SHA256 = oid("1.2.840.10045.4.3.2")
ECDSA_SHA384 = oid("1.2.840.10045.4.3.3")
NULL = b"\x05\x00"

CA_KEY = ec.generate_private_key(ec.SECP256R1())
CA_NAME = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Sigil Odd CA"),
                     x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI")])
NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2035, 1, 1, tzinfo=datetime.timezone.utc)


def ca_certificate():
    ski = x509.SubjectKeyIdentifier.from_public_key(CA_KEY.public_key())
    return (x509.CertificateBuilder().subject_name(CA_NAME).issuer_name(CA_NAME)
            .public_key(CA_KEY.public_key()).serial_number(0x0DD0CA)
            .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .add_extension(ski, critical=False)
            .sign(CA_KEY, hashes.SHA256()))


def base_builder(cn, key=None, sans=("odd.sigil.test",)):
    key = key or ec.generate_private_key(ec.SECP256R1()).public_key()
    b = (x509.CertificateBuilder()
         .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn),
                                  x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI")]))
         .issuer_name(CA_NAME).public_key(key).serial_number(0x0DD1)
         .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(CA_KEY.public_key()), critical=False))
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(s) for s in sans]), critical=False)
    return b


def tbs_fields(builder):
    """The TBSCertificate's fields as a dict of DER values (version, serial, signature,
    issuer, validity, subject, spki, extensions)."""
    cert = builder.sign(CA_KEY, hashes.SHA256())
    parts = split(cert.tbs_certificate_bytes)
    names = ["version", "serial", "signature", "issuer", "validity", "subject", "spki", "extensions"]
    return dict(zip(names, parts))


def extension_list(fields):
    """The Extension TLVs of fields['extensions'] ([3] { SEQUENCE { ... } })."""
    return split(split(fields["extensions"])[0])


def with_extensions(exts):
    return tlv(0xA3, tlv(0x30, b"".join(exts)))


ORDER = ["version", "serial", "signature", "issuer", "validity", "subject", "spki",
         "issuerUID", "subjectUID", "extensions"]


def assemble(fields, outer_alg=None, tbs_header=None, sig_unused=0):
    content = b"".join(fields[k] for k in ORDER if fields.get(k) is not None)
    tbs = (tbs_header(content) if tbs_header else tlv(0x30, content))
    sig = CA_KEY.sign(tbs, ec.ECDSA(hashes.SHA256()))
    alg = outer_alg if outer_alg is not None else fields["signature"]
    bits = bytes([sig_unused]) + sig
    return tlv(0x30, tbs + alg + tlv(0x03, bits))


def explicit_spki(curve):
    """A SubjectPublicKeyInfo with explicit (specifiedCurve) parameters, from openssl."""
    with tempfile.TemporaryDirectory() as d:
        k = os.path.join(d, "k.pem")
        subprocess.run(["openssl", "ecparam", "-name", curve, "-genkey", "-noout", "-out", k], check=True)
        return subprocess.run(["openssl", "ec", "-in", k, "-pubout", "-param_enc", "explicit", "-outform", "DER"],
                              check=True, capture_output=True).stdout


def utc(text):
    return tlv(0x17, text.encode())


def gen(text):
    return tlv(0x18, text.encode())


# --- the cases ----------------------------------------------------------------------------------

CASES = []


def case(name, description, violations, strict_refuses=True, expected=None):
    def register(fn):
        CASES.append((name, description, violations, strict_refuses, expected or {}, fn))
        return fn
    return register


@case("control", "a normal certificate from the same CA (no oddity): verify trusts it", [],
      strict_refuses=False, expected={"serial": "dd1"})
def _():
    return assemble(tbs_fields(base_builder("control.odd.sigil.test")))


@case("negative-serial", "serial number -0x1234 (two's complement fedcc)", ["RFC 5280 §4.1.2.2"],
      expected={"serial": "-1234"})
def _():
    f = tbs_fields(base_builder("negative-serial.odd.sigil.test"))
    f["serial"] = integer(-0x1234)
    return assemble(f)


@case("serial-zero", "serial number 0 (tolerated by the strict parser: Mozilla roots carry it)",
      ["RFC 5280 §4.1.2.2"], strict_refuses=False, expected={"serial": "0"})
def _():
    f = tbs_fields(base_builder("serial-zero.odd.sigil.test"))
    f["serial"] = integer(0)
    return assemble(f)


@case("serial-21-octets", "a 21-octet serial number", ["RFC 5280 §4.1.2.2"],
      expected={"serial": "7f" + "11" * 20})
def _():
    f = tbs_fields(base_builder("serial-21.odd.sigil.test"))
    f["serial"] = tlv(0x02, bytes([0x7F]) + bytes([0x11]) * 20)
    return assemble(f)


@case("serial-nonminimal", "serial INTEGER with a superfluous leading 0x00 octet", ["X.690 §8.3.2"],
      expected={"serial": "1234"})
def _():
    f = tbs_fields(base_builder("serial-nonminimal.odd.sigil.test"))
    f["serial"] = tlv(0x02, b"\x00\x00\x12\x34")
    return assemble(f)


@case("sigalg-mismatch", "outer signatureAlgorithm ecdsa-with-SHA384, TBS signature ecdsa-with-SHA256",
      ["RFC 5280 §4.1.1.2"], expected={"signatureAlgorithm": "1.2.840.10045.4.3.3",
                                       "tbsSignatureAlgorithm": "1.2.840.10045.4.3.2"})
def _():
    f = tbs_fields(base_builder("sigalg-mismatch.odd.sigil.test"))
    return assemble(f, outer_alg=tlv(0x30, ECDSA_SHA384))


@case("ecdsa-null-params", "ecdsa-with-SHA256 with NULL parameters (inner and outer)", ["RFC 5758 §3.2"],
      expected={"signatureAlgorithm": "1.2.840.10045.4.3.2"})
def _():
    f = tbs_fields(base_builder("ecdsa-null.odd.sigil.test"))
    f["signature"] = tlv(0x30, ECDSA_SHA256 + NULL)
    return assemble(f)


@case("dsa-2048", "a DSA 2048-bit subject key (legal X.509; Sigil verifies no DSA)", [],
      strict_refuses=False, expected={"publicKey": {"algorithm": "dsa", "bits": 2048}})
def _():
    key = dsa.generate_private_key(2048).public_key()
    return assemble(tbs_fields(base_builder("dsa.odd.sigil.test", key=key)))


@case("dsa-1024", "a DSA 1024-bit subject key", [], strict_refuses=False,
      expected={"publicKey": {"algorithm": "dsa", "bits": 1024}})
def _():
    key = dsa.generate_private_key(1024).public_key()
    return assemble(tbs_fields(base_builder("dsa1024.odd.sigil.test", key=key)))


for _curve, _name, _bits in (("prime256v1", "P-256", 256), ("secp384r1", "P-384", 384), ("secp521r1", "P-521", 521)):
    def _make(curve=_curve, name=_name):
        def fn():
            f = tbs_fields(base_builder("explicit-%s.odd.sigil.test" % name.lower()))
            f["spki"] = explicit_spki(curve)
            return assemble(f)
        return fn
    case("ec-explicit-" + _name.lower(), "EC key with explicit parameters equal to %s (openssl -param_enc explicit)" % _name,
         ["RFC 5480 §2.1.1"], strict_refuses=False,
         expected={"publicKey": {"algorithm": "ec", "bits": _bits, "curve": _name, "parameters": "explicit"}})(_make())


@case("ec-explicit-unnamed", "EC key with explicit P-256 parameters whose b is changed: no named curve",
      ["RFC 5480 §2.1.1"], strict_refuses=False,
      expected={"publicKey": {"algorithm": "ec", "bits": 256, "parameters": "explicit"}})
def _():
    f = tbs_fields(base_builder("explicit-unnamed.odd.sigil.test"))
    spki = bytearray(explicit_spki("prime256v1"))
    b = bytes.fromhex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")
    i = spki.find(b)
    spki[i + 31] ^= 1
    f["spki"] = bytes(spki)
    return assemble(f)


@case("san-utf8-dnsname", "SAN with a dNSName holding UTF-8 (b\u00fccher.example) between valid entries",
      ["RFC 5280 §4.2.1.6"], strict_refuses=False,
      expected={"san": {"dns": ["a.odd.sigil.test", "b\u00fccher.example", "c.odd.sigil.test"], "ip": ["192.0.2.7"],
                        "email": [], "uri": []},
                "sanMalformed": ["b\u00fccher.example"]})
def _():
    f = tbs_fields(base_builder("san-utf8.odd.sigil.test", sans=None))
    san = tlv(0x30, tlv(0x82, b"a.odd.sigil.test") + tlv(0x82, "b\u00fccher.example".encode())
              + tlv(0x82, b"c.odd.sigil.test") + tlv(0x87, bytes([192, 0, 2, 7])))
    ext = tlv(0x30, oid("2.5.29.17") + tlv(0x04, san))
    f["extensions"] = with_extensions(extension_list(f) + [ext])
    return assemble(f)


@case("nonminimal-length", "the subject Name with a long-form length for a short value (30 81 xx)",
      ["X.690 §10.1"])
def _():
    f = tbs_fields(base_builder("nonminimal-length.odd.sigil.test"))
    content = f["subject"][2:]
    f["subject"] = b"\x30\x81" + bytes([len(content)]) + content
    return assemble(f)


@case("indefinite-length", "the TBSCertificate and the validity in the indefinite length form (BER)",
      ["X.690 §10.1"])
def _():
    f = tbs_fields(base_builder("indefinite.odd.sigil.test"))
    f["validity"] = b"\x30\x80" + f["validity"][2:] + b"\x00\x00"
    return assemble(f, tbs_header=lambda c: b"\x30\x80" + c + b"\x00\x00")


@case("utctime-no-seconds", "notBefore UTCTime 2501010000Z (no seconds)", ["RFC 5280 §4.1.2.5.1"],
      expected={"notBefore": "2025-01-01T00:00:00Z"})
def _():
    f = tbs_fields(base_builder("utc-noseconds.odd.sigil.test"))
    f["validity"] = tlv(0x30, utc("2501010000Z") + utc("350101000000Z"))
    return assemble(f)


@case("utctime-offset", "notBefore UTCTime 250101000000+0100 (a time zone offset)", ["RFC 5280 §4.1.2.5.1"],
      expected={"notBefore": "2024-12-31T23:00:00Z"})
def _():
    f = tbs_fields(base_builder("utc-offset.odd.sigil.test"))
    f["validity"] = tlv(0x30, utc("250101000000+0100") + utc("350101000000Z"))
    return assemble(f)


@case("generalizedtime-2025", "notBefore as GeneralizedTime for 2025 (CAs must use UTCTime before 2050; the strict parser tolerates it)",
      ["RFC 5280 §4.1.2.5"], strict_refuses=False, expected={"notBefore": "2025-01-01T00:00:00Z"})
def _():
    f = tbs_fields(base_builder("gentime-2025.odd.sigil.test"))
    f["validity"] = tlv(0x30, gen("20250101000000Z") + utc("350101000000Z"))
    return assemble(f)


@case("generalizedtime-fraction", "notAfter GeneralizedTime 20500101000000.5Z (fractional seconds)",
      ["RFC 5280 §4.1.2.5.2"], expected={"notAfter": "2050-01-01T00:00:00Z"})
def _():
    f = tbs_fields(base_builder("gentime-fraction.odd.sigil.test"))
    f["validity"] = tlv(0x30, utc("250101000000Z") + gen("20500101000000.5Z"))
    return assemble(f)


@case("version-unknown", "version field 3 (a v4 that does not exist)", ["RFC 5280 §4.1.2.1"],
      expected={"version": 4})
def _():
    f = tbs_fields(base_builder("version4.odd.sigil.test"))
    f["version"] = tlv(0xA0, integer(3))
    return assemble(f)


@case("version-v1-explicit", "version v1 encoded explicitly ([0] INTEGER 0), no extensions",
      ["X.690 §11.5"], expected={"version": 1})
def _():
    f = tbs_fields(base_builder("v1-explicit.odd.sigil.test", sans=None))
    f["version"] = tlv(0xA0, integer(0))
    f["extensions"] = None
    return assemble(f)


@case("v1-with-extensions", "no version field (v1) but extensions present", ["RFC 5280 §4.1.2.9"],
      expected={"version": 1})
def _():
    f = tbs_fields(base_builder("v1-ext.odd.sigil.test"))
    f["version"] = None
    return assemble(f)


@case("v1-with-unique-ids", "v1 certificate with issuerUniqueID and subjectUniqueID",
      ["RFC 5280 §4.1.2.8"], expected={"version": 1})
def _():
    f = tbs_fields(base_builder("v1-uid.odd.sigil.test", sans=None))
    f["version"] = None
    f["extensions"] = None
    f["issuerUID"] = tlv(0x81, b"\x00\x01\x02")
    f["subjectUID"] = tlv(0x82, b"\x00\x03\x04")
    return assemble(f)


@case("duplicate-extension", "two subjectKeyIdentifier extensions", ["RFC 5280 §4.2"])
def _():
    f = tbs_fields(base_builder("duplicate.odd.sigil.test"))
    ski = tlv(0x30, oid("2.5.29.14") + tlv(0x04, tlv(0x04, bytes(range(20)))))
    f["extensions"] = with_extensions(extension_list(f) + [ski, ski])
    return assemble(f)


@case("critical-false-explicit", "an extension with critical FALSE encoded (DER omits DEFAULT values)",
      ["X.690 §11.5"])
def _():
    f = tbs_fields(base_builder("critical-false.odd.sigil.test"))
    ski = tlv(0x30, oid("2.5.29.14") + b"\x01\x01\x00" + tlv(0x04, tlv(0x04, bytes(range(20)))))
    f["extensions"] = with_extensions(extension_list(f) + [ski])
    return assemble(f)


@case("extension-nonminimal-integer", "basicConstraints pathLenConstraint encoded 00 01 (non-minimal INTEGER)",
      ["X.690 §8.3.2"], strict_refuses=False)
def _():
    f = tbs_fields(base_builder("ext-int.odd.sigil.test"))
    bc = tlv(0x30, oid("2.5.29.19") + b"\x01\x01\xff" + tlv(0x04, tlv(0x30, b"\x01\x01\xff" + b"\x02\x02\x00\x01")))
    exts = [e for e in extension_list(f) if not e.startswith(tlv(0x30, oid("2.5.29.19"))[:2] + oid("2.5.29.19"))]
    f["extensions"] = with_extensions([bc] + exts[1:] if len(exts) == len(extension_list(f)) else [bc] + exts)
    return assemble(f)


@case("empty-extensions", "extensions field present with an empty SEQUENCE", ["RFC 5280 §4.1"])
def _():
    f = tbs_fields(base_builder("empty-ext.odd.sigil.test"))
    f["extensions"] = with_extensions([])
    return assemble(f)


@case("printablestring-underscore", "subject CN PrintableString with '_' (outside its character set)",
      ["X.680 §41"])
def _():
    f = tbs_fields(base_builder("under_score.odd.sigil.test"))
    name = tlv(0x30, tlv(0x31, tlv(0x30, oid("2.5.4.3") + tlv(0x13, b"under_score.odd.sigil.test"))))
    f["subject"] = name
    return assemble(f)


@case("rsa-params-absent-key", "rsaEncryption key with absent (not NULL) parameters (tolerated)",
      ["RFC 3279 §2.3.1"], strict_refuses=False)
def _():
    from cryptography.hazmat.primitives.asymmetric import rsa as _rsa
    key = _rsa.generate_private_key(65537, 2048).public_key()
    f = tbs_fields(base_builder("rsa-noparams.odd.sigil.test", key=key))
    spki = split(f["spki"])
    f["spki"] = tlv(0x30, tlv(0x30, oid("1.2.840.113549.1.1.1")) + spki[1])
    return assemble(f)


@case("signature-unused-bits", "signatureValue BIT STRING with 1 unused bit", ["RFC 5280 §4.1.1.3"])
def _():
    f = tbs_fields(base_builder("sig-unused.odd.sigil.test"))
    return assemble(f, sig_unused=0)  # replaced below (the unused-bit count must be set on the bytes)


@case("many-sans-long-name", "a long subject and 60 SAN entries (text layout)", [], strict_refuses=False)
def _():
    b = (x509.CertificateBuilder()
         .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "a-very-long-common-name-" + "x" * 24 + ".odd.sigil.test"),
                                  x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "An Organisational Unit With A Rather Long Name, Indeed"),
                                  x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                                  x509.NameAttribute(NameOID.LOCALITY_NAME, "Somewhere Far Away"),
                                  x509.NameAttribute(NameOID.COUNTRY_NAME, "US")]))
         .issuer_name(CA_NAME).public_key(ec.generate_private_key(ec.SECP256R1()).public_key())
         .serial_number(0x0DD2).not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
         .add_extension(x509.SubjectAlternativeName([x509.DNSName("host%02d.many.odd.sigil.test" % i) for i in range(60)]), False))
    return assemble(tbs_fields(b))


def fix_signature_unused(der):
    """Sets the unused-bits octet of the outer signature BIT STRING to 1 (last bit zero)."""
    parts = split(der)
    sig = parts[2]
    _, cs, ce, _ = ber_tlv(sig, 0)
    content = bytearray(sig[cs:ce])
    content[0] = 1
    content[-1] &= 0xFE
    return tlv(0x30, parts[0] + parts[1] + tlv(0x03, bytes(content)))


def main():
    os.makedirs(OUT, exist_ok=True)
    ca = ca_certificate()
    with open(os.path.join(OUT, "ca.pem"), "wb") as fh:
        fh.write(ca.public_bytes(serialization.Encoding.PEM))
    manifest = {"generator": "Fixtures/scripts/gen_odd.py", "ca": "ca.pem",
                "verifyAt": int(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc).timestamp()),
                "certificates": []}
    for name, description, violations, strict_refuses, expected, fn in CASES:
        der = fn()
        if name == "signature-unused-bits":
            der = fix_signature_unused(der)
        path = os.path.join(OUT, name + ".der")
        with open(path, "wb") as fh:
            fh.write(der)
        ref = reference_fields(der)
        f = ref["fields"]
        # Values known by construction must agree with the reference parser where it reads them.
        for k, v in expected.items():
            if k in f and k in ("serial", "notBefore", "notAfter", "version", "signatureAlgorithm"):
                assert f[k] == v, (name, k, f[k], v)
            if k == "publicKey" and f.get("publicKey", {}).get("bits") is not None:
                assert f["publicKey"].get("bits") == v["bits"], (name, f["publicKey"], v)
            if k == "san" and "san" in f:
                assert f["san"] == v, (name, f["san"], v)
        manifest["certificates"].append({
            "file": name + ".der", "description": description, "violations": violations,
            "strictRefuses": strict_refuses, "expected": expected, "reference": f,
            "referenceSources": ref["sources"], "pycaReads": ref["pycaError"] is None,
            "pycaError": ref["pycaError"], "opensslReads": ref["opensslReads"],
        })
        print("%-28s openssl %-3s pyca %-3s %s" % (name, "yes" if ref["opensslReads"] else "no",
                                                    "yes" if ref["pycaError"] is None else "no", description))
    with open(os.path.join(OUT, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1, ensure_ascii=False, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
