#!/usr/bin/env python3
"""Generates Fixtures/any-values/: certificates whose only oddity is a value of an ANY-typed
field (a Name AttributeValue, algorithm parameters, an otherName value, a policy qualifier, an
x400Address) or a non-string value for an attribute type whose syntax is a string (issue 21,
milestone 2), and Fixtures/any-values/manifest.json.

Usage: python3 Fixtures/scripts/gen_any_values.py      (needs `cryptography` and `openssl`)

Each certificate is Fixtures/certs/rsa2048-leaf.der with one DER edit to its TBSCertificate,
re-signed with the rsa2048-intermediate key (common.resign, deterministic PKCS#1 v1.5), so it
chains to rsa2048-root and the edit is the only thing wrong.

For every certificate the manifest records:
- `sigil`: what Sigil's strict parser must do — `"accept"`, or the DERError.Kind name and the
  absolute byte offset, computed here from the edit (not from Sigil): `where` says whether the
  refusal comes from `Certificate(der:)` ("parse") or from decoding the extension
  ("extension": `subjectAlternativeNames()` / `certificatePolicies()`);
- `clause`: the rule (X.690 / X.520 / RFC 5280) the expectation follows;
- `openssl`: whether libcrypto's d2i_X509 decodes it (`d2i`, first error of the queue) and
  X509_get_ext_d2i decodes its subjectAltName and certificatePolicies (`reads`: all of it), and
  whether `openssl x509 -inform DER -noout -text` prints it (`text`);
- `pyca`: whether Python `cryptography` loads it and reads subject, issuer, public key,
  signature algorithm parameters and every extension, and the first error otherwise;
- `inspectWarns`: for accepted certificates, the clause `sigil inspect` must warn about
  (a string of another type than the one X.520 / RFC 5280 names), or null.

The edits are in the bytes, so re-running gives the same files (PKCS#1 v1.5 is deterministic).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CERTS, FIX, Node, load_key, oid_der, parse, resign, serialize, tlv  # noqa: E402

OUT = os.path.join(FIX, "any-values")
CASES = []

O, CN, C = "2.5.4.10", "2.5.4.3", "2.5.4.6"
PRIVATE = "1.3.6.1.4.1.55555.9"
SAN, POLICIES = "2.5.29.17", "2.5.29.32"
# Garbage that is not a series of TLVs: 0x41 ([APPLICATION 1] primitive) with length 0x42 (66
# octets) where 1 is left — X.690 §8.1.2.5: the contents of a constructed encoding are complete
# encodings.
GARBAGE = b"\x41\x42\x43"


def case(file, description, sigil, clause, where="parse", inspect_warns=None):
    def deco(fn):
        CASES.append(dict(file=file, description=description, sigil=sigil, clause=clause, where=where,
                          inspectWarns=inspect_warns, fn=fn))
        return fn
    return deco


def tbs(r):
    return r[0]


def subject(r):
    return tbs(r).children[5]


def attr(name_node, dotted):
    want = oid_der(dotted)[2:]
    for rdn in name_node.children:
        for atv in rdn.children:
            if atv[0].content == want:
                return atv
    raise KeyError(dotted)


def add_rdn(name_node, dotted, value_node):
    atv = Node(0x30, children=[Node(0x06, oid_der(dotted)[2:]), value_node])
    rdn = Node(0x31, children=[atv])
    name_node.children.append(rdn)
    return atv


def ext_value(r, dotted):
    """The parsed content (a Node) of the extension's OCTET STRING, and the OCTET STRING node."""
    want = oid_der(dotted)[2:]
    a3 = [c for c in tbs(r).children if c.tag == 0xA3][0]
    for e in a3[0].children:
        if e[0].content == want:
            octet = e.children[-1]
            return parse(octet.content), octet
    raise KeyError(dotted)


def put_ext_value(octet, value_node):
    octet.content = serialize(value_node)


# --- Name attribute values ----------------------------------------------------------------------

@case("name-o-private16-constructed.der",
      "the fuzz finding: subject O= value tagged [PRIVATE 16] constructed (f0) around the original "
      "text 'Sigil Test PKI'",
      {"kind": "invalidName", "at": "value"},
      "X.520 / RFC 5280 Appendix A.1: organizationName (X520OrganizationName) is a DirectoryString")
def _(r):
    atv = attr(subject(r), O)
    v = atv[1]
    atv.children[1] = Node(0xF0, children=None, content=v.content)
    return atv.children[1], 0


@case("name-unknown-private16-garbage.der",
      "an extra RDN of unknown type 1.3.6.1.4.1.55555.9.1 whose value is [PRIVATE 16] "
      "constructed around the text 'Sigil Diff' (not a series of TLVs)",
      {"kind": "truncated", "at": "content"},
      "X.690 §8.1.2.5: the contents of a constructed encoding are complete encodings")
def _(r):
    v = Node(0xF0, content=b"Sigil Diff")
    add_rdn(subject(r), PRIVATE + ".1", v)
    return v, 0


@case("name-cn-integer.der", "subject CN= value an INTEGER (5) instead of a string",
      {"kind": "invalidName", "at": "value"},
      "X.520 / RFC 5280 Appendix A.1: commonName (X520CommonName) is a DirectoryString")
def _(r):
    atv = attr(subject(r), CN)
    atv.children[1] = Node(0x02, b"\x05")
    return atv.children[1], 0


@case("name-cn-videotexstring.der",
      "subject CN= value retagged VideotexString (15), a string type Sigil does not decode and "
      "OpenSSL's X509_NAME does not take",
      {"kind": "invalidName", "at": "value"},
      "RFC 5280 Appendix A.1: commonName is a DirectoryString (Teletex, Printable, Universal, UTF8, BMP)")
def _(r):
    atv = attr(subject(r), CN)
    atv[1].tag = 0x15
    return atv[1], 0


@case("name-unknown-integer-nonminimal.der",
      "an extra RDN of unknown type 1.3.6.1.4.1.55555.9.2 whose value is the INTEGER 00 01 "
      "(a superfluous leading octet)",
      {"kind": "nonMinimalInteger", "at": "content"},
      "X.690 §8.3.2: an INTEGER's first nine bits are not all equal")
def _(r):
    v = Node(0x02, b"\x00\x01")
    add_rdn(subject(r), PRIVATE + ".2", v)
    return v, 0


@case("name-c-utf8string.der", "subject C= value UTF8String 'US' instead of PrintableString",
      "accept", "RFC 5280 Appendix A.1: X520countryName ::= PrintableString (SIZE (2)); "
      "other string types accepted (OpenSSL, pyca)",
      inspect_warns="RFC 5280 Appendix A.1")
def _(r):
    attr(subject(r), C)[1].tag = 0x0C
    return None, 0


@case("name-unknown-sequence.der",
      "an extra RDN of unknown type 1.3.6.1.4.1.55555.9.3 whose value is SEQUENCE { INTEGER 1, "
      "UTF8String 'x' }",
      "accept", "RFC 5280 §4.1.2.4: AttributeValue ::= ANY DEFINED BY AttributeType")
def _(r):
    v = Node(0x30, children=[Node(0x02, b"\x01"), Node(0x0C, b"x")])
    add_rdn(subject(r), PRIVATE + ".3", v)
    return None, 0


# --- Algorithm parameters -------------------------------------------------------------------------

@case("spki-unknown-algorithm-garbage-parameters.der",
      "SubjectPublicKeyInfo algorithm 1.3.6.1.4.1.55555.9.4 (unknown) with parameters "
      "SEQUENCE { 41 42 43 } (not a series of TLVs) instead of NULL",
      {"kind": "truncated", "at": "content"},
      "X.690 §8.1.2.5; RFC 5280 §4.1.1.2: parameters ANY DEFINED BY algorithm")
def _(r):
    alg = tbs(r).children[6][0]
    alg.children[0] = Node(0x06, oid_der(PRIVATE + ".4")[2:])
    v = Node(0x30, content=GARBAGE)
    v.children = None
    alg.children[1] = v
    return v, 0


# --- Extensions: otherName, x400Address, policy qualifier -----------------------------------------

@case("san-othername-garbage.der",
      "subjectAltName otherName (UPN) whose value [0] holds SEQUENCE { 41 42 43 } instead of a "
      "UTF8String",
      {"kind": "invalidExtension", "at": "content"},
      "X.690 §8.1.2.5; RFC 5280 §4.2.1.6: AnotherName value [0] EXPLICIT ANY", where="extension")
def _(r):
    value, octet = ext_value(r, SAN)
    other = [g for g in value.children if g.tag == 0xA0][0]
    inner = Node(0x30, content=GARBAGE)
    inner.children = None
    other.children[1].children = [inner]
    put_ext_value(octet, value)
    return (octet, value, inner), 0


@case("san-x400address-garbage.der",
      "subjectAltName with an extra x400Address [3] whose contents are 41 42 43",
      {"kind": "invalidExtension", "at": "content"},
      "X.690 §8.1.2.5; RFC 5280 §4.2.1.6: x400Address [3] ORAddress (a SEQUENCE)", where="extension")
def _(r):
    value, octet = ext_value(r, SAN)
    x400 = Node(0xA3, content=GARBAGE)
    x400.children = None
    value.children.append(x400)
    put_ext_value(octet, value)
    return (octet, value, x400), 0


@case("policy-qualifier-unknown-garbage.der",
      "certificatePolicies: a third policy 1.3.6.1.4.1.55555.2.3 with a qualifier of unknown id "
      "1.3.6.1.4.1.55555.9.5 whose value is SEQUENCE { 41 42 43 }",
      {"kind": "invalidExtension", "at": "content"},
      "X.690 §8.1.2.5; RFC 5280 §4.2.1.4: qualifier ANY DEFINED BY policyQualifierId",
      where="extension")
def _(r):
    value, octet = ext_value(r, POLICIES)
    q = Node(0x30, content=GARBAGE)
    q.children = None
    info = Node(0x30, children=[Node(0x06, oid_der(PRIVATE + ".5")[2:]), q])
    pol = Node(0x30, children=[Node(0x06, oid_der("1.3.6.1.4.1.55555.2.3")[2:]), Node(0x30, children=[info])])
    value.children.append(pol)
    put_ext_value(octet, value)
    return (octet, value, q), 0


@case("policy-qualifier-unknown-sequence.der",
      "certificatePolicies: a third policy 1.3.6.1.4.1.55555.2.3 with a qualifier of unknown id "
      "1.3.6.1.4.1.55555.9.6 whose value is SEQUENCE { UTF8String 'q' } (well formed)",
      "accept", "RFC 5280 §4.2.1.4: qualifier ANY DEFINED BY policyQualifierId", where="extension")
def _(r):
    value, octet = ext_value(r, POLICIES)
    info = Node(0x30, children=[Node(0x06, oid_der(PRIVATE + ".6")[2:]), Node(0x30, children=[Node(0x0C, b"q")])])
    pol = Node(0x30, children=[Node(0x06, oid_der("1.3.6.1.4.1.55555.2.3")[2:]), Node(0x30, children=[info])])
    value.children.append(pol)
    put_ext_value(octet, value)
    return None, 0


# --- Verdicts of the other parsers ----------------------------------------------------------------

def openssl_verdict(der):
    """d2i_X509 through libcrypto (ctypes) with its error queue, then X509_get_ext_d2i of
    subjectAltName and certificatePolicies (decoded only on demand by OpenSSL); and whether
    `openssl x509 -text` prints it."""
    import ctypes
    import ctypes.util
    lib = ctypes.CDLL(ctypes.util.find_library("crypto"))
    lib.d2i_X509.restype = ctypes.c_void_p
    lib.d2i_X509.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_long]
    lib.X509_get_ext_d2i.restype = ctypes.c_void_p
    lib.X509_get_ext_d2i.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    lib.ERR_get_error.restype = ctypes.c_ulong
    lib.ERR_error_string_n.argtypes = [ctypes.c_ulong, ctypes.c_char_p, ctypes.c_size_t]
    lib.X509_free.argtypes = [ctypes.c_void_p]

    def first_error():
        out = None
        while True:
            e = lib.ERR_get_error()
            if not e:
                return out
            b = ctypes.create_string_buffer(256)
            lib.ERR_error_string_n(e, b, 256)
            out = out or b.value.decode()

    first_error()
    buf = ctypes.c_char_p(der)
    x = lib.d2i_X509(None, ctypes.byref(buf), len(der))
    verdict = {"d2i": bool(x), "error": None if x else first_error()}
    if x:
        for label, nid in (("subjectAltName", 85), ("certificatePolicies", 89)):
            crit = ctypes.c_int(0)
            v = lib.X509_get_ext_d2i(x, nid, ctypes.byref(crit), None)
            # -1: absent; -2: more than one; otherwise NULL means the value did not decode.
            if not v and crit.value not in (-1,):
                verdict["error"] = "%s does not decode: %s" % (label, first_error())
        lib.X509_free(ctypes.c_void_p(x))
    with tempfile.NamedTemporaryFile(suffix=".der") as f:
        f.write(der)
        f.flush()
        p = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-text", "-in", f.name],
                           capture_output=True, text=True)
    verdict["text"] = p.returncode == 0
    verdict["reads"] = verdict["d2i"] and verdict["error"] is None
    return verdict


def pyca_verdict(der):
    try:
        from cryptography import x509
    except ImportError:
        return {"reads": None, "error": "cryptography not installed"}
    step = "load"
    try:
        c = x509.load_der_x509_certificate(der)
        step = "subject"
        c.subject.rfc4514_string()
        step = "issuer"
        c.issuer.rfc4514_string()
        step = "signature algorithm parameters"
        c.signature_algorithm_parameters  # noqa: B018
        step = "public key"
        c.public_key()
        step = "extensions"
        for e in c.extensions:
            e.value  # noqa: B018
        return {"reads": True, "error": None}
    except Exception as e:  # noqa: BLE001
        return {"reads": False, "error": "%s: %s: %s" % (step, type(e).__name__, str(e).splitlines()[0] if str(e) else "")}


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".der"):
            os.remove(os.path.join(OUT, f))
    key = load_key("rsa2048-intermediate", "rsa2048")
    with open(os.path.join(CERTS, "rsa2048-leaf.der"), "rb") as f:
        base = f.read()
    manifest = []
    for c in CASES:
        r = parse(base)
        target, _ = c["fn"](r)
        der = resign(r, key)
        expected = c["sigil"]
        if expected != "accept":
            if isinstance(target, tuple):  # inside an extension value
                octet, value, inner = target
                serialize(r)
                serialize(value)
                node_start = octet.content_start + inner.start
                content_off = inner.content_start - inner.start
            else:
                serialize(r)
                node_start = target.start
                content_off = target.content_start - target.start
            offset = node_start + (content_off if expected["at"] == "content" else 0)
            expected = {"kind": expected["kind"], "offset": offset}
        with open(os.path.join(OUT, c["file"]), "wb") as f:
            f.write(der)
        entry = {"file": c["file"], "description": c["description"], "sigil": expected, "where": c["where"],
                 "clause": c["clause"], "inspectWarns": c["inspectWarns"],
                 "openssl": openssl_verdict(der), "pyca": pyca_verdict(der)}
        manifest.append(entry)
        print("%-45s sigil %-28s openssl %-3s pyca %-3s" % (
            c["file"], expected if expected == "accept" else "%s@%d" % (expected["kind"], expected["offset"]),
            "yes" if entry["openssl"]["reads"] else "no", "yes" if entry["pyca"]["reads"] else "no"))
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
