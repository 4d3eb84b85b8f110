#!/usr/bin/env python3
"""Reference reading of a certificate's fields by independent parsers, for `sigil inspect`.

Used by Fixtures/scripts/gen_odd.py (to record expected values in Fixtures/odd/manifest.json)
and by Scripts/compare_inspect.py (to measure agreement on public corpora).

Each field comes from Python `cryptography` (pyca) when it reads it, else from `openssl x509`
(text output), else from this file's own BER walk of the raw bytes (version, serial, outer
signature algorithm, extension list). `sources` says which parser gave each field.

Conventions (those of `sigil inspect --json`):
- serial: lowercase hex of the value, no leading zeros, "-" first when negative.
- subject/issuer: RFC 4514 strings (pyca `rfc4514_string`, or openssl `-nameopt RFC2253,-esc_msb`).
- notBefore/notAfter: RFC 3339 UTC with Z.
- publicKey: algorithm rsa/rsa-pss/ec/dsa/ed25519/ed448/<oid>, bits, curve (EC).
- san: dns/ip/email/uri lists in certificate order.
- extensions: [{oid, critical}] in certificate order (duplicates included).
"""
import datetime
import re
import subprocess
import warnings

warnings.simplefilter("ignore")

try:
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, rsa, ed25519, ed448
except ImportError:  # pragma: no cover
    x509 = None

CURVE_NAMES = {"secp256r1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521",
               "prime256v1": "P-256"}
CURVE_OIDS = {"P-256": "1.2.840.10045.3.1.7", "P-384": "1.3.132.0.34", "P-521": "1.3.132.0.35"}
KEY_ALGS = {"1.2.840.113549.1.1.1": "rsa", "1.2.840.113549.1.1.10": "rsa-pss",
            "1.2.840.10045.2.1": "ec", "1.2.840.10040.4.1": "dsa", "1.3.101.112": "ed25519",
            "1.3.101.113": "ed448"}


# --- a tolerant BER walk (definite lengths of any form, indefinite lengths) -----------------

def tlv(data, pos, limit=None):
    """(tag, content_start, content_end, end) of the TLV at pos."""
    limit = len(data) if limit is None else limit
    tag = data[pos]
    first = data[pos + 1]
    p = pos + 2
    if first == 0x80:
        q = p
        while not (data[q] == 0 and data[q + 1] == 0):
            q = tlv(data, q, limit)[3]
        return tag, p, q, q + 2
    if first < 0x80:
        length = first
    else:
        n = first & 0x7F
        length = int.from_bytes(data[p:p + n], "big")
        p += n
    if p + length > limit:
        raise ValueError("truncated at %d" % pos)
    return tag, p, p + length, p + length


def children(data, start, end):
    out, p = [], start
    while p < end:
        t = tlv(data, p, end)
        out.append((t[0], p) + t[1:])
        p = t[3]
    return out


def oid_str(content):
    arcs, v = [], 0
    for b in content:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            arcs.append(v)
            v = 0
    first = arcs[0]
    a1 = 0 if first < 40 else 1 if first < 80 else 2
    return ".".join(str(a) for a in [a1, first - 40 * a1] + arcs[1:])


def raw_fields(der):
    _, cs, ce, _ = tlv(der, 0)
    cert = children(der, cs, ce)
    tbs = children(der, cert[0][2], cert[0][3])
    i, version = 0, 1
    if tbs[0][0] == 0xA0:
        inner = tlv(der, tbs[0][2])
        version = int.from_bytes(der[inner[1]:inner[2]], "big", signed=True) + 1
        i = 1
    serial = int.from_bytes(der[tbs[i][2]:tbs[i][3]], "big", signed=True)
    alg = children(der, cert[1][2], cert[1][3])
    sigalg = oid_str(der[alg[0][2]:alg[0][3]])
    spki = tbs[i + 5]
    exts = []
    for t in tbs[i + 6:]:
        if t[0] != 0xA3:
            continue
        seq = tlv(der, t[2])
        for e in children(der, seq[1], seq[2]):
            parts = children(der, e[2], e[3])
            critical = len(parts) == 3 and parts[1][0] == 0x01 and der[parts[1][2]] != 0
            exts.append({"oid": oid_str(der[parts[0][2]:parts[0][3]]), "critical": critical})
    return {"version": version, "serial": serial, "signatureAlgorithm": sigalg,
            "extensions": exts, "spki": der[spki[1]:spki[4]]}


def hexs(n):
    return ("-" if n < 0 else "") + format(abs(n), "x")


def rfc3339(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


# --- openssl --------------------------------------------------------------------------------

def openssl_fields(der):
    """Fields from `openssl x509` text output; None when openssl cannot read the certificate."""
    def run(*args):
        p = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout"] + list(args),
                           input=der, capture_output=True)
        return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else None
    full = run("-serial", "-subject", "-issuer", "-startdate", "-enddate", "-nameopt", "RFC2253,-esc_msb", "-text")
    if full is None:
        return None
    head, _, text = full.partition("Certificate:\n")
    out = {}
    for line in head.splitlines():
        k, _, v = line.partition("=")
        out[k.strip()] = v.strip()
    f = {}
    if "serial" in out:
        s = out["serial"]
        f["serial"] = ("-" if s.startswith("-") else "") + (s.lstrip("-").lstrip("0").lower() or "0")
    f["subject"] = out.get("subject", "")
    f["issuer"] = out.get("issuer", "")
    for k, key in (("notBefore", "notBefore"), ("notAfter", "notAfter")):
        try:
            f[key] = rfc3339(datetime.datetime.strptime(re.sub(r"\s+", " ", out[k]), "%b %d %H:%M:%S %Y GMT"))
        except (KeyError, ValueError):
            f[key] = None
    key = {}
    m = re.search(r"Public Key Algorithm: (\S+)", text)
    alg = m.group(1) if m else ""
    key["algorithm"] = {"rsaEncryption": "rsa", "rsassaPss": "rsa-pss", "id-ecPublicKey": "ec",
                        "dsaEncryption": "dsa", "ED25519": "ed25519", "ED448": "ed448"}.get(alg, alg)
    m = re.search(r"Public-Key: \((\d+) bit\)", text)
    key["bits"] = int(m.group(1)) if m else None
    m = re.search(r"NIST CURVE: (P-\d+)", text)
    if m:
        key["curve"] = m.group(1)
    f["publicKey"] = key
    san = {"dns": [], "ip": [], "email": [], "uri": []}
    m = re.search(r"X509v3 Subject Alternative Name:[^\n]*\n\s*([^\n]*)", text)
    decodable = True
    if m:
        known = ("DNS", "IP Address", "email", "URI", "DirName", "othername", "Registered ID",
                 "X400Name", "EdiPartyName")
        for entry in m.group(1).split(", "):
            kind, _, value = entry.partition(":")
            if kind not in known:
                decodable = False  # openssl could not decode the extension: it dumps the bytes
                break
            target = {"DNS": "dns", "IP Address": "ip", "email": "email", "URI": "uri"}.get(kind)
            if target and value.startswith("<invalid"):
                continue  # openssl marks a malformed entry and goes on, as sigil does
            if target:
                san[target].append(value.lower() if target == "ip" else value)
    if decodable:
        f["san"] = san
    return f


# --- pyca -----------------------------------------------------------------------------------

def pyca_fields(der):
    """Fields from Python `cryptography`; fields it refuses are left out."""
    f = {}
    try:
        cert = x509.load_der_x509_certificate(der)
    except Exception as e:  # noqa: BLE001
        return f, "%s: %s" % (type(e).__name__, e)
    for key, get in (("subject", lambda: cert.subject.rfc4514_string()),
                     ("issuer", lambda: cert.issuer.rfc4514_string()),
                     ("notBefore", lambda: rfc3339(cert.not_valid_before_utc)),
                     ("notAfter", lambda: rfc3339(cert.not_valid_after_utc)),
                     ("serial", lambda: hexs(cert.serial_number))):
        try:
            f[key] = get()
        except Exception:  # noqa: BLE001
            pass
    try:
        k = cert.public_key()
        if isinstance(k, rsa.RSAPublicKey):
            # pyca reads RSASSA-PSS keys as RSA keys: the SPKI OID says which (raw walk below)
            f["publicKey"] = {"algorithm": "rsa", "bits": k.key_size}
        elif isinstance(k, ec.EllipticCurvePublicKey):
            f["publicKey"] = {"algorithm": "ec", "bits": k.curve.key_size}
            if k.curve.name in CURVE_NAMES:
                f["publicKey"]["curve"] = CURVE_NAMES[k.curve.name]
        elif isinstance(k, dsa.DSAPublicKey):
            f["publicKey"] = {"algorithm": "dsa", "bits": k.key_size}
        elif isinstance(k, ed25519.Ed25519PublicKey):
            f["publicKey"] = {"algorithm": "ed25519", "bits": 256}
        elif isinstance(k, ed448.Ed448PublicKey):
            f["publicKey"] = {"algorithm": "ed448", "bits": 456}
    except Exception:  # noqa: BLE001
        pass
    try:
        san = {"dns": [], "ip": [], "email": [], "uri": []}
        try:
            v = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
            san["dns"] = v.get_values_for_type(x509.DNSName)
            san["ip"] = [str(a) for a in v.get_values_for_type(x509.IPAddress)]
            san["email"] = v.get_values_for_type(x509.RFC822Name)
            san["uri"] = v.get_values_for_type(x509.UniformResourceIdentifier)
        except x509.ExtensionNotFound:
            pass
        f["san"] = san
    except Exception:  # noqa: BLE001
        pass
    return f, None


FIELDS = ["serial", "subject", "issuer", "notBefore", "notAfter", "signatureAlgorithm",
          "publicKey", "san", "extensions"]


def reference_fields(der, use_openssl=True):
    """{fields, sources, pycaError, opensslReads} for one DER certificate."""
    fields, sources = {}, {}
    pyca, pyca_error = pyca_fields(der) if x509 else ({}, "cryptography not installed")
    for k, v in pyca.items():
        fields[k], sources[k] = v, "pyca"
    ossl = openssl_fields(der) if use_openssl else None
    if ossl:
        for k, v in ossl.items():
            if k not in fields and v is not None:
                fields[k], sources[k] = v, "openssl"
    try:
        raw = raw_fields(der)
        if "serial" not in fields:
            fields["serial"], sources["serial"] = hexs(raw["serial"]), "raw"
        fields["signatureAlgorithm"], sources["signatureAlgorithm"] = raw["signatureAlgorithm"], "raw"
        fields["extensions"], sources["extensions"] = raw["extensions"], "raw"
        fields["version"], sources["version"] = raw["version"], "raw"
        if "publicKey" in fields and fields["publicKey"].get("algorithm") == "rsa":
            _, cs, ce, _ = tlv(raw["spki"], 0)
            alg = children(raw["spki"], cs, ce)[0]
            a = children(raw["spki"], alg[2], alg[3])[0]
            if oid_str(raw["spki"][a[2]:a[3]]) == "1.2.840.113549.1.1.10":
                fields["publicKey"] = dict(fields["publicKey"], algorithm="rsa-pss")
        if "publicKey" in fields and fields["publicKey"].get("algorithm") not in KEY_ALGS.values():
            # an algorithm neither parser names: its OID, as sigil reports it
            spki = raw["spki"]
            _, cs, ce, _ = tlv(spki, 0)
            alg = children(spki, cs, ce)[0]
            a = children(spki, alg[2], alg[3])[0]
            oid = oid_str(spki[a[2]:a[3]])
            fields["publicKey"] = {"algorithm": KEY_ALGS.get(oid, oid), "bits": fields["publicKey"].get("bits")}
    except Exception:  # noqa: BLE001
        pass
    return {"fields": fields, "sources": sources, "pycaError": pyca_error, "opensslReads": ossl is not None}
