#!/usr/bin/env python3
"""Independent reference dump of certificate fields, for comparing Sigil's parser against.

Usage: dump_fields.py FILE...

Each FILE is DER (one certificate) or PEM (any number of CERTIFICATE blocks, other blocks and
text ignored; CRLF tolerated), detected by content. For every certificate one JSON object is
printed per line, in file order. Names, dates and decoded extension values come from Python
`cryptography`; version, serial, the extension list (OID, criticality, order), the
SubjectPublicKeyInfo (algorithm, bits, hash) are read from the raw bytes, so they are reported
exactly as encoded. If `cryptography` refuses a certificate, `{"error": "..."}` is printed.

Conventions (also in Fixtures/README.md):
- serial: lowercase hex of the INTEGER value, no leading zeros ("0" for zero), "-" if negative.
- notBefore/notAfter: RFC 3339 UTC with Z; *Unix: integer seconds.
- publicKey.algorithm: rsa, rsa-pss, ec, ed25519, ed448, or the dotted OID for anything else;
  bits: RSA modulus bit length, EC curve size (256/384/521), EdDSA public key octets x 8
  (Ed25519 256, Ed448 456); curve only for EC (P-256/P-384/P-521, else the dotted OID).
- subjectAltNames: always an object with dns/ip/email/uri lists (empty when absent); other
  GeneralName forms are not listed.
- basicConstraints, keyUsage, extendedKeyUsage, subjectKeyIdentifier, authorityKeyIdentifier:
  null when the extension is absent (authorityKeyIdentifier also null when it has no keyid).
"""
import base64
import hashlib
import json
import re
import sys
import warnings

from cryptography import x509

# Some real roots have non-positive serials; cryptography warns about them. Not our business here.
warnings.simplefilter("ignore")

KU_NAMES = ["digitalSignature", "contentCommitment", "keyEncipherment", "dataEncipherment",
            "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]

PEM_RE = re.compile(rb"-----BEGIN CERTIFICATE-----\r?\n(.*?)-----END CERTIFICATE-----", re.S)

CURVES = {"1.2.840.10045.3.1.7": ("P-256", 256), "1.3.132.0.34": ("P-384", 384),
          "1.3.132.0.35": ("P-521", 521)}
KEY_ALGS = {"1.2.840.113549.1.1.1": "rsa", "1.2.840.113549.1.1.10": "rsa-pss",
            "1.2.840.10045.2.1": "ec", "1.3.101.112": "ed25519", "1.3.101.113": "ed448"}


# --- raw DER reading ------------------------------------------------------------------------------

def tlv(data, pos):
    """(tag, content_start, end) of the TLV at pos; raises on anything not well formed."""
    tag = data[pos]
    if tag & 0x1F == 0x1F:
        raise ValueError("high tag number at %d" % pos)
    first = data[pos + 1]
    p = pos + 2
    if first < 0x80:
        length = first
    else:
        n = first & 0x7F
        if n == 0 or n > 4:
            raise ValueError("bad length at %d" % (pos + 1))
        length = int.from_bytes(data[p:p + n], "big")
        p += n
    if p + length > len(data):
        raise ValueError("truncated at %d" % pos)
    return tag, p, p + length


def children(data, start, end):
    out = []
    p = start
    while p < end:
        t, cs, e = tlv(data, p)
        out.append((t, p, cs, e))
        p = e
    if p != end:
        raise ValueError("trailing data")
    return out


def oid_str(content):
    arcs = []
    v = 0
    for b in content:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            arcs.append(v)
            v = 0
    first = arcs[0]
    a1 = 0 if first < 40 else 1 if first < 80 else 2
    return ".".join(str(a) for a in [a1, first - 40 * a1] + arcs[1:])


def raw_fields(der):
    _, cs, ce = tlv(der, 0)
    cert = children(der, cs, ce)
    t, tstart, tcs, tend = cert[0]
    tbs = children(der, tcs, tend)
    i = 0
    version = 1
    if tbs[0][0] == 0xA0:
        _, _, vcs, vend = tbs[0]
        _, ics, iend = tlv(der, vcs)
        version = int.from_bytes(der[ics:iend], "big", signed=True) + 1
        i = 1
    _, _, scs, send = tbs[i]
    serial = int.from_bytes(der[scs:send], "big", signed=True)
    spki = tbs[i + 5]
    exts = []
    for t, s, c, e in tbs[i + 6:]:
        if t != 0xA3:
            continue
        _, seqc, seqe = tlv(der, c)
        for _, es, ec, ee in children(der, seqc, seqe):
            parts = children(der, ec, ee)
            oid = oid_str(der[parts[0][2]:parts[0][3]])
            critical = False
            if len(parts) == 3 and parts[1][0] == 0x01:
                critical = der[parts[1][2]] != 0
            exts.append({"oid": oid, "critical": critical})
    return version, serial, der[spki[1]:spki[3]], exts


def spki_info(spki):
    _, cs, ce = tlv(spki, 0)
    (at, _, acs, ae), (bt, _, bcs, be) = children(spki, cs, ce)
    alg_parts = children(spki, acs, ae)
    oid = oid_str(spki[alg_parts[0][2]:alg_parts[0][3]])
    name = KEY_ALGS.get(oid, oid)
    info = {"algorithm": name}
    key = spki[bcs + 1:be]
    if name in ("rsa", "rsa-pss"):
        _, rcs, rce = tlv(key, 0)
        mod = children(key, rcs, rce)[0]
        info["bits"] = int.from_bytes(key[mod[2]:mod[3]], "big").bit_length()
    elif name == "ec":
        curve = None
        if len(alg_parts) > 1 and alg_parts[1][0] == 0x06:
            curve = oid_str(spki[alg_parts[1][2]:alg_parts[1][3]])
        if curve in CURVES:
            info["bits"] = CURVES[curve][1]
            info["curve"] = CURVES[curve][0]
        else:
            info["bits"] = ((len(key) - 1) // 2) * 8
            info["curve"] = curve
    else:
        info["bits"] = len(key) * 8
    return info


# --- per certificate --------------------------------------------------------------------------------

def hexs(n):
    return ("-" if n < 0 else "") + format(abs(n), "x")


def rfc3339(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def ext_value(cert, cls):
    try:
        return cert.extensions.get_extension_for_class(cls).value
    except x509.ExtensionNotFound:
        return None


def dump(der):
    version, serial, spki, exts = raw_fields(der)
    cert = x509.load_der_x509_certificate(der)
    nb, na = cert.not_valid_before_utc, cert.not_valid_after_utc
    cert.extensions  # decode all now, so a refusal is reported as an error
    san = {"dns": [], "ip": [], "email": [], "uri": []}
    v = ext_value(cert, x509.SubjectAlternativeName)
    if v is not None:
        san["dns"] = v.get_values_for_type(x509.DNSName)
        san["ip"] = [str(a) for a in v.get_values_for_type(x509.IPAddress)]
        san["email"] = v.get_values_for_type(x509.RFC822Name)
        san["uri"] = v.get_values_for_type(x509.UniformResourceIdentifier)
    bc = ext_value(cert, x509.BasicConstraints)
    if bc is not None:
        bc_out = {"ca": bc.ca}
        if bc.path_length is not None:
            bc_out["pathLen"] = bc.path_length
    else:
        bc_out = None
    ku = ext_value(cert, x509.KeyUsage)
    ku_out = None
    if ku is not None:
        flags = [ku.digital_signature, ku.content_commitment, ku.key_encipherment,
                 ku.data_encipherment, ku.key_agreement, ku.key_cert_sign, ku.crl_sign,
                 ku.key_agreement and ku.encipher_only, ku.key_agreement and ku.decipher_only]
        ku_out = [n for n, f in zip(KU_NAMES, flags) if f]
    eku = ext_value(cert, x509.ExtendedKeyUsage)
    ski = ext_value(cert, x509.SubjectKeyIdentifier)
    aki = ext_value(cert, x509.AuthorityKeyIdentifier)
    return {
        "subject": cert.subject.rfc4514_string(),
        "issuer": cert.issuer.rfc4514_string(),
        "serial": hexs(serial),
        "notBefore": rfc3339(nb),
        "notAfter": rfc3339(na),
        "notBeforeUnix": int(nb.timestamp()),
        "notAfterUnix": int(na.timestamp()),
        "version": version,
        "signatureAlgorithm": cert.signature_algorithm_oid.dotted_string,
        "publicKey": spki_info(spki),
        "subjectAltNames": san,
        "basicConstraints": bc_out,
        "keyUsage": ku_out,
        "extendedKeyUsage": [o.dotted_string for o in eku] if eku is not None else None,
        "extensions": exts,
        "subjectKeyIdentifier": ski.digest.hex() if ski is not None else None,
        "authorityKeyIdentifier": aki.key_identifier.hex() if aki is not None and aki.key_identifier is not None else None,
        "sha256": hashlib.sha256(der).hexdigest(),
        "spkiSha256": hashlib.sha256(spki).hexdigest(),
    }


def certificates(data):
    if b"-----BEGIN" in data:
        for m in PEM_RE.finditer(data):
            body = re.sub(rb"\s+", b"", m.group(1))
            yield base64.b64decode(body)
    elif data.strip():
        yield data
    # an empty (or blank) file holds no certificate: nothing is printed


def main(paths):
    out = sys.stdout
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        for der in certificates(data):
            try:
                obj = dump(der)
            except Exception as e:  # noqa: BLE001 - any refusal is reported, not raised
                obj = {"error": "%s: %s" % (type(e).__name__, e)}
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: dump_fields.py FILE...")
    main(sys.argv[1:])
