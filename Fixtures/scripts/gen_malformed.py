#!/usr/bin/env python3
"""Generates Fixtures/malformed/: invalid certificates, each a valid fixture from Fixtures/certs/
with exactly one defect, and malformed/manifest.json listing kind (a DERError.Kind case name)
and the absolute byte offset at which Sigil's strict parser is expected to report it.

Every enclosing length is recomputed after the edit (see common.serialize), so the defect is the
only thing wrong. Signatures are not re-computed (the samples are for the parser)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CERTS, FIX, Node, enc_len, oid_der, parse, serialize, tlv  # noqa

OUT = os.path.join(FIX, "malformed")
SAMPLES = []


def sample(file, kind, base, location, description):
    def deco(fn):
        SAMPLES.append(dict(file=file, kind=kind, base=base, location=location,
                            description=description, fn=fn))
        return fn
    return deco


def load(base):
    with open(os.path.join(CERTS, base + ".der"), "rb") as f:
        return f.read()


# TBS children of a v3 certificate: 0 version, 1 serial, 2 signature, 3 issuer, 4 validity,
# 5 subject, 6 spki, 7 [3] extensions.  v1 (no version): everything one lower.
def tbs(r):
    return r[0]


def exts(r):
    t = tbs(r)
    a3 = [c for c in t.children if c.tag == 0xA3][0]
    return a3[0].children


def ext(r, dotted):
    want = oid_der(dotted)[2:]
    for e in exts(r):
        if e[0].content == want:
            return e
    raise KeyError(dotted)


def attr_value(name_node, dotted):
    """The AttributeValue node of the first attribute with type `dotted` in a Name."""
    want = oid_der(dotted)[2:]
    for rdn in name_node.children:
        for atv in rdn.children:
            if atv[0].content == want:
                return atv[1]
    raise KeyError(dotted)


SAN, KU, BC, EKU = "2.5.29.17", "2.5.29.15", "2.5.29.19", "2.5.29.37"
CN, C, ST, L, EMAIL = "2.5.4.3", "2.5.4.6", "2.5.4.8", "2.5.4.7", "1.2.840.113549.1.9.1"
LEAF = "rsa2048-leaf"


def ser(r):
    return serialize(r)

# --- truncated ----------------------------------------------------------------------------------

@sample("truncated-half.der", "truncated", LEAF, "certificate",
        "file cut at half its length: the certificate SEQUENCE's length runs past the end")
def _(r):
    d = ser(r)
    return d[:len(d) // 2], 0


@sample("truncated-last-byte.der", "truncated", LEAF, "signatureValue",
        "last byte of the file removed: the certificate SEQUENCE's length runs past the end")
def _(r):
    d = ser(r)
    return d[:-1], 0


@sample("truncated-extensions-overrun.der", "truncated", LEAF, "tbsCertificate.extensions",
        "[3] extensions declares 1 octet more than the TBSCertificate holds (TBS and outer lengths consistent)")
def _(r):
    a3 = tbs(r).children[7]
    body = serialize(a3)  # to measure
    clen = len(body) - a3.content_start
    a3.len_override = enc_len(clen + 1)
    d = ser(r)
    return d, a3.start


@sample("truncated-signature-overrun.der", "truncated", LEAF, "signatureValue",
        "signature BIT STRING declares 5 octets more than the certificate holds")
def _(r):
    sig = r[2]
    sig.len_override = enc_len(len(sig.content) + 5)
    d = ser(r)
    return d, sig.start

# --- indefiniteLength --------------------------------------------------------------------------

@sample("indefinite-length-tbs.der", "indefiniteLength", LEAF, "tbsCertificate",
        "TBSCertificate encoded with indefinite length (30 80 ... 00 00)")
def _(r):
    t = tbs(r)
    t.len_override = b"\x80"
    t.children.append(Node(0x00, b""))
    d = ser(r)
    return d, t.start + 1


@sample("indefinite-length-subject.der", "indefiniteLength", LEAF, "tbsCertificate.subject",
        "subject Name encoded with indefinite length (30 80 ... 00 00)")
def _(r):
    s = tbs(r).children[5]
    s.len_override = b"\x80"
    s.children.append(Node(0x00, b""))
    d = ser(r)
    return d, s.start + 1

# --- nonMinimalLength -------------------------------------------------------------------------------

@sample("nonminimal-length-81-serial.der", "nonMinimalLength", LEAF, "tbsCertificate.serialNumber",
        "serial INTEGER length written 81 11 instead of 11")
def _(r):
    s = tbs(r).children[1]
    s.len_override = b"\x81" + bytes([len(s.content)])
    d = ser(r)
    return d, s.start + 1


@sample("nonminimal-length-82-validity.der", "nonMinimalLength", LEAF, "tbsCertificate.validity",
        "Validity SEQUENCE length written 82 00 1e instead of 1e")
def _(r):
    v = tbs(r).children[4]
    v.len_override = b"\x82\x00" + bytes([len(serialize(v)) - 2])
    d = ser(r)
    return d, v.start + 1


@sample("nonminimal-length-outer.der", "nonMinimalLength", LEAF, "certificate",
        "certificate SEQUENCE length written with 3 octets (83 00 xx xx)")
def _(r):
    n = len(serialize(r)) - 4
    r.len_override = b"\x83\x00" + n.to_bytes(2, "big")
    d = ser(r)
    return d, 1


@sample("nonminimal-length-82-short-extension.der", "nonMinimalLength", LEAF, "tbsCertificate.extensions.basicConstraints",
        "basicConstraints extnValue OCTET STRING length written 82 00 NN although NN < 128")
def _(r):
    o = ext(r, BC).children[-1]
    o.len_override = b"\x82\x00" + bytes([len(o.content)])
    d = ser(r)
    return d, o.start + 1

# --- lengthTooLong -------------------------------------------------------------------------------

@sample("length-too-long-tbs.der", "lengthTooLong", LEAF, "tbsCertificate",
        "TBSCertificate length written with 5 octets (85 00 00 00 NN NN)")
def _(r):
    t = tbs(r)
    n = len(serialize(t)) - 4
    t.len_override = b"\x85\x00\x00\x00" + n.to_bytes(2, "big")
    d = ser(r)
    return d, t.start + 1

# --- highTagNumber -------------------------------------------------------------------------------

# highTagNumber is reported by DERReader.readAny, i.e. where the grammar reads "any value" (a
# CHOICE or ANY: Time, AttributeValue, AlgorithmIdentifier parameters). Where one specific tag
# is expected, DERReader.read compares the identifier octet first and reports unexpectedTag.

@sample("high-tag-notbefore.der", "highTagNumber", LEAF, "tbsCertificate.validity.notBefore",
        "notBefore Time (a CHOICE) with identifier octets 1f 20 (universal, high-tag-number form)")
def _(r):
    t = tbs(r).children[4][0]
    t.tag = 0x1F
    t.tag_suffix = b"\x20"
    d = ser(r)
    return d, t.start


@sample("high-tag-subject-attribute-value.der", "highTagNumber", LEAF, "tbsCertificate.subject",
        "subject commonName AttributeValue (ANY) with identifier octets 1f 20")
def _(r):
    v = attr_value(tbs(r).children[5], CN)
    v.tag = 0x1F
    v.tag_suffix = b"\x20"
    d = ser(r)
    return d, v.start


@sample("high-tag-algorithm-parameters.der", "highTagNumber", LEAF, "tbsCertificate.signature",
        "signature AlgorithmIdentifier parameters (ANY) with identifier octets 9f 40 ([64] context, high-tag form) instead of NULL; same change in the outer signatureAlgorithm")
def _(r):
    for alg in (tbs(r).children[2], r[1]):
        n = alg[1]
        n.tag = 0x9F
        n.tag_suffix = b"\x40"
    d = ser(r)
    return d, tbs(r).children[2][1].start

# --- unexpectedTag ----------------------------------------------------------------------------------

@sample("unexpected-tag-serial-octetstring.der", "unexpectedTag", LEAF, "tbsCertificate.serialNumber",
        "serial INTEGER retagged as OCTET STRING (04)")
def _(r):
    s = tbs(r).children[1]
    s.tag = 0x04
    d = ser(r)
    return d, s.start


@sample("unexpected-tag-validity-set.der", "unexpectedTag", LEAF, "tbsCertificate.validity",
        "Validity SEQUENCE retagged as SET (31)")
def _(r):
    v = tbs(r).children[4]
    v.tag = 0x31
    d = ser(r)
    return d, v.start


@sample("unexpected-tag-notbefore-integer.der", "unexpectedTag", LEAF, "tbsCertificate.validity.notBefore",
        "notBefore UTCTime retagged as INTEGER (02)")
def _(r):
    t = tbs(r).children[4][0]
    t.tag = 0x02
    d = ser(r)
    return d, t.start


@sample("unexpected-tag-spki-octetstring.der", "unexpectedTag", "p256-leaf", "tbsCertificate.subjectPublicKeyInfo",
        "subjectPublicKey BIT STRING retagged as OCTET STRING (04)")
def _(r):
    b = tbs(r).children[6][1]
    b.tag = 0x04
    d = ser(r)
    return d, b.start

# --- trailingData -------------------------------------------------------------------------------

@sample("trailing-byte-after-certificate.der", "trailingData", LEAF, "after certificate",
        "one 0x00 octet appended after the certificate SEQUENCE")
def _(r):
    d = ser(r)
    return d + b"\x00", len(d)


@sample("trailing-sequence-after-certificate.der", "trailingData", "p256-leaf", "after certificate",
        "an empty SEQUENCE (30 00) appended after the certificate")
def _(r):
    d = ser(r)
    return d + b"\x30\x00", len(d)


@sample("trailing-element-in-validity.der", "trailingData", LEAF, "tbsCertificate.validity",
        "a third UTCTime inside Validity")
def _(r):
    v = tbs(r).children[4]
    extra = Node(0x17, b"360101000000Z")
    v.children.append(extra)
    d = ser(r)
    return d, extra.start


@sample("trailing-element-in-tbs.der", "trailingData", LEAF, "tbsCertificate",
        "a NULL (05 00) after [3] extensions inside TBSCertificate")
def _(r):
    extra = Node(0x05, b"")
    tbs(r).children.append(extra)
    d = ser(r)
    return d, extra.start


@sample("trailing-element-in-extension.der", "trailingData", LEAF, "tbsCertificate.extensions.keyUsage",
        "a NULL (05 00) after extnValue inside the keyUsage Extension SEQUENCE")
def _(r):
    extra = Node(0x05, b"")
    ext(r, KU).children.append(extra)
    d = ser(r)
    return d, extra.start

# --- nonMinimalInteger --------------------------------------------------------------------------

@sample("nonminimal-integer-serial-00.der", "nonMinimalInteger", LEAF, "tbsCertificate.serialNumber",
        "serial with a superfluous leading 0x00 (next octet < 0x80)")
def _(r):
    s = tbs(r).children[1]
    assert s.content[0] < 0x80
    s.content = b"\x00" + s.content
    d = ser(r)
    return d, s.content_start


@sample("nonminimal-integer-serial-ff.der", "nonMinimalInteger", "serial-leading-zero", "tbsCertificate.serialNumber",
        "serial 00 8b ad ... rewritten ff 8b ad ...: a superfluous leading 0xFF (next octet >= 0x80)")
def _(r):
    s = tbs(r).children[1]
    assert s.content[0] == 0 and s.content[1] >= 0x80
    s.content = b"\xff" + s.content[1:]
    d = ser(r)
    return d, s.content_start


@sample("nonminimal-integer-version.der", "nonMinimalInteger", LEAF, "tbsCertificate.version",
        "version INTEGER encoded 00 02 instead of 02")
def _(r):
    i = tbs(r).children[0][0]
    i.content = b"\x00\x02"
    d = ser(r)
    return d, i.content_start

@sample("empty-integer-serial.der", "emptyInteger", LEAF, "tbsCertificate.serialNumber",
        "serial INTEGER with no content octets (02 00); extra kind beyond the brief's list")
def _(r):
    s = tbs(r).children[1]
    s.content = b""
    d = ser(r)
    return d, s.content_start


# --- invalidBoolean ----------------------------------------------------------------------------------

@sample("invalid-boolean-critical-01.der", "invalidBoolean", LEAF, "tbsCertificate.extensions.keyUsage",
        "keyUsage critical BOOLEAN content 0x01 instead of 0xFF")
def _(r):
    b = ext(r, KU)[1]
    assert b.tag == 0x01
    b.content = b"\x01"
    d = ser(r)
    return d, b.content_start


@sample("invalid-boolean-critical-two-octets.der", "invalidBoolean", LEAF, "tbsCertificate.extensions.basicConstraints",
        "basicConstraints critical BOOLEAN with two content octets (00 ff)")
def _(r):
    b = ext(r, BC)[1]
    b.content = b"\x00\xff"
    d = ser(r)
    return d, b.content_start

# --- defaultValueEncoded -----------------------------------------------------------------------------

@sample("default-critical-false.der", "defaultValueEncoded", LEAF, "tbsCertificate.extensions.subjectAltName",
        "subjectAltName Extension with critical explicitly FALSE (01 01 00)")
def _(r):
    e = ext(r, SAN)
    b = Node(0x01, b"\x00")
    e.children.insert(1, b)
    d = ser(r)
    return d, b.start


@sample("explicit-v1-version.der", "defaultValueEncoded", "v1", "tbsCertificate.version",
        "v1 certificate with the DEFAULT version written explicitly ([0] { INTEGER 0 })")
def _(r):
    v = Node(0xA0, children=[Node(0x02, b"\x00")])
    tbs(r).children.insert(0, v)
    d = ser(r)
    return d, v.start

# --- invalidBitString --------------------------------------------------------------------------

@sample("bitstring-unused-8-signature.der", "invalidBitString", LEAF, "signatureValue",
        "signature BIT STRING with unused-bits octet 8")
def _(r):
    s = r[2]
    s.content = b"\x08" + s.content[1:]
    d = ser(r)
    return d, s.content_start


@sample("bitstring-nonzero-padding-signature.der", "invalidBitString", LEAF, "signatureValue",
        "signature BIT STRING with 1 unused bit that is set in the last octet")
def _(r):
    s = r[2]
    s.content = b"\x01" + s.content[1:-1] + bytes([s.content[-1] | 1])
    d = ser(r)
    return d, s.content_start + len(s.content) - 1


@sample("bitstring-empty-unused-nonzero.der", "invalidBitString", LEAF, "signatureValue",
        "signature BIT STRING holding only an unused-bits octet of 3 (must be 0 when empty)")
def _(r):
    s = r[2]
    s.content = b"\x03"
    d = ser(r)
    return d, s.content_start


@sample("bitstring-unused-8-spki.der", "invalidBitString", "p256-leaf", "tbsCertificate.subjectPublicKeyInfo",
        "subjectPublicKey BIT STRING with unused-bits octet 8")
def _(r):
    b = tbs(r).children[6][1]
    b.content = b"\x08" + b.content[1:]
    d = ser(r)
    return d, b.content_start

# --- invalidObjectIdentifier --------------------------------------------------------------------

def insert_80(oid_node, arc_index=1):
    """Insert 0x80 at the start of the arc that begins at content index `arc_index`."""
    oid_node.content = oid_node.content[:arc_index] + b"\x80" + oid_node.content[arc_index:]


@sample("oid-leading-80-signature-algorithm.der", "invalidObjectIdentifier", LEAF, "tbsCertificate.signature",
        "signature algorithm OID with an arc starting 0x80 (in both TBS signature and outer signatureAlgorithm, so they still match)")
def _(r):
    a = tbs(r).children[2][0]
    insert_80(a)
    insert_80(r[1][0])
    d = ser(r)
    return d, a.content_start + 1


@sample("oid-leading-80-extension.der", "invalidObjectIdentifier", LEAF, "tbsCertificate.extensions.keyUsage",
        "keyUsage extnID 55 1d 0f rewritten 55 80 1d 0f")
def _(r):
    o = ext(r, KU)[0]
    insert_80(o)
    d = ser(r)
    return d, o.content_start + 1


@sample("oid-leading-80-spki.der", "invalidObjectIdentifier", "p256-leaf", "tbsCertificate.subjectPublicKeyInfo",
        "SPKI algorithm id-ecPublicKey 2a 86 48 ... rewritten 2a 80 86 48 ...")
def _(r):
    o = tbs(r).children[6][0][0]
    insert_80(o)
    d = ser(r)
    return d, o.content_start + 1


@sample("oid-unterminated-extension.der", "invalidObjectIdentifier", LEAF, "tbsCertificate.extensions.basicConstraints",
        "basicConstraints extnID 55 1d 13 rewritten 55 1d 93: the last octet does not end an arc")
def _(r):
    o = ext(r, BC)[0]
    o.content = o.content[:-1] + bytes([o.content[-1] | 0x80])
    d = ser(r)
    return d, o.content_start + len(o.content) - 1


@sample("oid-leading-80-subject-attribute.der", "invalidObjectIdentifier", LEAF, "tbsCertificate.subject",
        "subject CN attribute type 55 04 03 rewritten 55 80 04 03")
def _(r):
    subj = tbs(r).children[5]
    want = oid_der(CN)[2:]
    for rdn in subj.children:
        for atv in rdn.children:
            if atv[0].content == want:
                insert_80(atv[0])
                d = ser(r)
                return d, atv[0].content_start + 1

# --- invalidNull -------------------------------------------------------------------------------

@sample("null-with-content-signature-algorithm.der", "invalidNull", LEAF, "tbsCertificate.signature",
        "sha256WithRSAEncryption parameters NULL with one content octet (05 01 00), in both algorithm identifiers")
def _(r):
    n = tbs(r).children[2][1]
    assert n.tag == 0x05
    n.content = b"\x00"
    r[1][1].content = b"\x00"
    d = ser(r)
    return d, n.content_start


@sample("null-with-content-spki.der", "invalidNull", LEAF, "tbsCertificate.subjectPublicKeyInfo",
        "rsaEncryption SPKI parameters NULL with one content octet (05 01 00)")
def _(r):
    n = tbs(r).children[6][0][1]
    assert n.tag == 0x05
    n.content = b"\x00"
    d = ser(r)
    return d, n.content_start

# --- invalidTime ----------------------------------------------------------------------------------

def time_sample(file, which, value, offset_in_content, description, base=LEAF, tag=None):
    @sample(file, "invalidTime", base, "tbsCertificate.validity." + which, description)
    def _(r):
        t = tbs(r).children[4][0 if which == "notBefore" else 1]
        t.content = value
        if tag is not None:
            t.tag = tag
        d = ser(r)
        return d, t.content_start + offset_in_content


time_sample("utctime-no-seconds.der", "notBefore", b"2501010000Z", 0, "notBefore UTCTime without seconds (11 characters)")
time_sample("utctime-fractional-seconds.der", "notBefore", b"250101000000.5Z", 0, "notBefore UTCTime with fractional seconds")
time_sample("utctime-month-13.der", "notAfter", b"351301000000Z", 2, "notAfter UTCTime month 13 (offset: first month digit)")
time_sample("utctime-feb-30.der", "notBefore", b"250230000000Z", 4, "notBefore UTCTime 2025-02-30 (offset: first day digit)")
time_sample("utctime-feb-29-nonleap.der", "notAfter", b"350229000000Z", 4, "notAfter UTCTime 2035-02-29, 2035 not a leap year (offset: first day digit)")
time_sample("utctime-missing-z.der", "notBefore", b"2501010000000", 12, "notBefore UTCTime with 13 characters but the final Z replaced by 0 (offset: that octet)")
time_sample("utctime-hour-24.der", "notBefore", b"250101240000Z", 6, "notBefore UTCTime hour 24 (offset: first hour digit)")
time_sample("utctime-timezone-offset.der", "notBefore", b"250101000000+0000", 0, "notBefore UTCTime with +0000 instead of Z (17 characters: wrong length)")
time_sample("generalizedtime-missing-z.der", "notAfter", b"205106301200000", 14, "notAfter GeneralizedTime with the Z replaced by 0 (offset: that octet)", base="notafter-generalizedtime-2051")
time_sample("generalizedtime-fractional-seconds.der", "notAfter", b"20510630120000.5Z", 0, "notAfter GeneralizedTime with fractional seconds (wrong length)", base="notafter-generalizedtime-2051")
time_sample("utctime-letter-in-year.der", "notBefore", b"2A0101000000Z", 1, "notBefore UTCTime with a non-digit in the year (offset: that octet)")

# --- invalidString -----------------------------------------------------------------------------------

@sample("printablestring-at-sign.der", "invalidString", LEAF, "tbsCertificate.subject",
        "subject countryName PrintableString 'US' rewritten 'U@'")
def _(r):
    v = attr_value(tbs(r).children[5], C)
    assert v.tag == 0x13
    v.content = b"U@"
    d = ser(r)
    return d, v.content_start + 1


# ('*' and '&' are tolerated in PrintableString, as Go does, for old wildcard CNs; '<' is not.)
@sample("printablestring-lessthan-issuer.der", "invalidString", LEAF, "tbsCertificate.issuer",
        "issuer countryName PrintableString 'US' rewritten '<S'")
def _(r):
    v = attr_value(tbs(r).children[3], C)
    v.content = b"<S"
    d = ser(r)
    return d, v.content_start


@sample("utf8-overlong.der", "invalidString", LEAF, "tbsCertificate.subject",
        "subject commonName UTF8String with an overlong NUL (c0 80) after 'leaf'")
def _(r):
    v = attr_value(tbs(r).children[5], CN)
    assert v.tag == 0x0C
    v.content = v.content[:4] + b"\xc0\x80" + v.content[4:]
    d = ser(r)
    return d, v.content_start + 4


@sample("utf8-lone-ff.der", "invalidString", "names-string-types", "tbsCertificate.subject",
        "subject stateOrProvinceName UTF8String with its third octet replaced by 0xFF")
def _(r):
    v = attr_value(tbs(r).children[5], ST)
    assert v.tag == 0x0C
    v.content = v.content[:2] + b"\xff" + v.content[3:]
    d = ser(r)
    return d, v.content_start + 2


@sample("bmpstring-surrogate.der", "invalidString", "names-string-types", "tbsCertificate.subject",
        "subject localityName BMPString whose second code unit is a lone surrogate (d8 00)")
def _(r):
    v = attr_value(tbs(r).children[5], L)
    assert v.tag == 0x1E
    v.content = v.content[:2] + b"\xd8\x00" + v.content[4:]
    d = ser(r)
    return d, v.content_start + 2


@sample("bmpstring-odd-length.der", "invalidString", "names-string-types", "tbsCertificate.subject",
        "subject localityName BMPString with one extra octet (odd length; offset: the incomplete unit)")
def _(r):
    v = attr_value(tbs(r).children[5], L)
    v.content = v.content + b"\x00"
    d = ser(r)
    return d, v.content_start + len(v.content) - 1


@sample("ia5string-high-bit.der", "invalidString", "names-string-types", "tbsCertificate.subject",
        "subject emailAddress IA5String with an octet 0xE9 (8-bit) in place of its first character")
def _(r):
    v = attr_value(tbs(r).children[5], EMAIL)
    assert v.tag == 0x16
    v.content = b"\xe9" + v.content[1:]
    d = ser(r)
    return d, v.content_start

# --- invalidVersion ----------------------------------------------------------------------------------

@sample("version-4.der", "invalidVersion", LEAF, "tbsCertificate.version",
        "version [0] INTEGER 3 (v4)")
def _(r):
    i = tbs(r).children[0][0]
    i.content = b"\x03"
    d = ser(r)
    return d, i.content_start


@sample("version-negative.der", "invalidVersion", LEAF, "tbsCertificate.version",
        "version [0] INTEGER -1")
def _(r):
    i = tbs(r).children[0][0]
    i.content = b"\xff"
    d = ser(r)
    return d, i.content_start

# --- signatureAlgorithmMismatch --------------------------------------------------------------

@sample("signature-algorithm-mismatch-sha384.der", "signatureAlgorithmMismatch", LEAF, "signatureAlgorithm",
        "outer signatureAlgorithm sha384WithRSAEncryption, TBS signature sha256WithRSAEncryption")
def _(r):
    r.children[1] = parse(tlv(0x30, oid_der("1.2.840.113549.1.1.12") + b"\x05\x00"))
    d = ser(r)
    return d, r[1].start


@sample("signature-algorithm-mismatch-params.der", "signatureAlgorithmMismatch", LEAF, "signatureAlgorithm",
        "outer signatureAlgorithm sha256WithRSAEncryption without the NULL parameters, TBS with them (not byte-identical)")
def _(r):
    r.children[1] = parse(tlv(0x30, oid_der("1.2.840.113549.1.1.11")))
    d = ser(r)
    return d, r[1].start


@sample("signature-algorithm-mismatch-ecdsa.der", "signatureAlgorithmMismatch", "p256-leaf", "signatureAlgorithm",
        "outer signatureAlgorithm ecdsa-with-SHA384, TBS signature ecdsa-with-SHA256")
def _(r):
    r.children[1] = parse(tlv(0x30, oid_der("1.2.840.10045.4.3.3")))
    d = ser(r)
    return d, r[1].start

# --- extensionsNotAllowed / uniqueIdentifierNotAllowed -----------------------------------------

def basic_constraints_ext():
    return parse(tlv(0x30, oid_der(BC) + tlv(0x01, b"\xff") + tlv(0x04, tlv(0x30, b""))))


@sample("v1-with-extensions.der", "extensionsNotAllowed", "v1", "tbsCertificate.extensions",
        "v1 certificate (no version field) carrying [3] extensions with basicConstraints")
def _(r):
    a3 = Node(0xA3, children=[Node(0x30, children=[basic_constraints_ext()])])
    tbs(r).children.append(a3)
    d = ser(r)
    return d, a3.start


@sample("v2-with-extensions.der", "extensionsNotAllowed", "v1", "tbsCertificate.extensions",
        "v2 certificate ([0] INTEGER 1) carrying [3] extensions")
def _(r):
    tbs(r).children.insert(0, Node(0xA0, children=[Node(0x02, b"\x01")]))
    a3 = Node(0xA3, children=[Node(0x30, children=[basic_constraints_ext()])])
    tbs(r).children.append(a3)
    d = ser(r)
    return d, a3.start


@sample("v1-issuer-unique-id.der", "uniqueIdentifierNotAllowed", "v1", "tbsCertificate.issuerUniqueID",
        "v1 certificate with issuerUniqueID [1] (81 03 00 ab cd)")
def _(r):
    u = Node(0x81, b"\x00\xab\xcd")
    tbs(r).children.append(u)
    d = ser(r)
    return d, u.start


@sample("v1-subject-unique-id.der", "uniqueIdentifierNotAllowed", "v1", "tbsCertificate.subjectUniqueID",
        "v1 certificate with subjectUniqueID [2] (82 02 00 01)")
def _(r):
    u = Node(0x82, b"\x00\x01")
    tbs(r).children.append(u)
    d = ser(r)
    return d, u.start

# --- duplicateExtension / emptyExtensions -----------------------------------------------------

@sample("duplicate-extension-san.der", "duplicateExtension", LEAF, "tbsCertificate.extensions",
        "subjectAltName extension appended a second time at the end of the list")
def _(r):
    dup = parse(serialize(ext(r, SAN)))
    exts(r).append(dup)
    d = ser(r)
    return d, dup.start


@sample("duplicate-extension-adjacent-keyusage.der", "duplicateExtension", "p256-leaf", "tbsCertificate.extensions",
        "keyUsage extension repeated immediately after itself")
def _(r):
    e = ext(r, KU)
    lst = exts(r)
    dup = parse(serialize(e))
    lst.insert(lst.index(e) + 1, dup)
    d = ser(r)
    return d, dup.start


@sample("empty-extensions.der", "emptyExtensions", LEAF, "tbsCertificate.extensions",
        "[3] { SEQUENCE {} }: extensions present but empty")
def _(r):
    a3 = tbs(r).children[7]
    inner = Node(0x30, children=[])
    a3.children = [inner]
    d = ser(r)
    return d, inner.start

# --- invalidSerialNumber -----------------------------------------------------------------------

@sample("serial-21-octets.der", "invalidSerialNumber", LEAF, "tbsCertificate.serialNumber",
        "serial INTEGER of 21 content octets (minimal, positive)")
def _(r):
    s = tbs(r).children[1]
    s.content = b"\x01" + bytes(range(2, 22))
    d = ser(r)
    return d, s.start


@sample("serial-negative.der", "invalidSerialNumber", LEAF, "tbsCertificate.serialNumber",
        "serial INTEGER negative (content 85 ..., minimal two's complement)")
def _(r):
    s = tbs(r).children[1]
    s.content = b"\x85" + s.content[1:]
    d = ser(r)
    return d, s.start


# No serial-zero sample: Sigil's parser accepts serial 0 because 8 Mozilla roots carry it
# (Go Daddy Class 2, Starfield Class 2, ...); the trust policy refuses it on non-anchor
# certificates instead (see Certificate.parseTBS and SigilTrust Checks.commonFailures).


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".der"):
            os.remove(os.path.join(OUT, f))
    manifest = []
    seen = set()
    for s in SAMPLES:
        assert s["file"] not in seen, s["file"]
        seen.add(s["file"])
        base = load(s["base"])
        root = parse(base)
        data, offset = s["fn"](root)
        assert data != base
        with open(os.path.join(OUT, s["file"]), "wb") as f:
            f.write(data)
        manifest.append({"file": s["file"], "kind": s["kind"], "offset": offset,
                         "description": s["description"], "base": "certs/%s.der" % s["base"],
                         "location": s["location"]})
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("malformed: %d samples, %d kinds" % (len(manifest), len({m["kind"] for m in manifest})))


if __name__ == "__main__":
    main()
