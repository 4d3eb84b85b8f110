"""Excluded directoryName subtrees and text that RFC 4518 StringPrep folds (RFC 5280 §7.1 compares
DirectoryString attributes after StringPrep: map, case fold, NFKC, insignificant space handling).
Sigil folds printable ASCII only, so an excluded subtree must not be escaped by a spelling only
full StringPrep folds onto it. Writes Fixtures/names-review/dn-prep-*/ and
Fixtures/names-review/stringprep.json with, per case, whether the leaf's O equals an excluded O
under StringPrep as computed HERE (Python's unicodedata: the RFC 4518 §2.2 mapping of the
characters below, str.casefold, NFKC, §2.6.1 spaces), and what Sigil must answer:
  - equal under StringPrep: excluded ("violated" when the bytes agree after ASCII folding, else
    "unsupported": Sigil cannot prove it, so it fails closed) - never trusted;
  - differing in printable-ASCII text or in attribute types: "trusted";
  - differing only in other text (beyond what Sigil folds): "unsupported" (the conservative
    rule: a wrong refusal, never a wrong trust).
Run from this directory: python3 t_dn_stringprep.py"""
import json, os, unicodedata
from mk import *
from cryptography.x509.name import _ASN1Type as T
from cryptography.x509.oid import NameOID as N

MAP_NOTHING = set([0xAD, 0x1806, 0x34F, 0x180B, 0x180C, 0x180D, 0xFFFC, 0x200B] + list(range(0xFE00, 0xFE10))
                  + list(range(0x00, 0x09)) + list(range(0x0E, 0x20)) + list(range(0x7F, 0x85)) + list(range(0x86, 0xA0)))
MAP_SPACE = set([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
                + list(range(0x2000, 0x200B)))
def prep(s):
    s = "".join("" if ord(c) in MAP_NOTHING else " " if ord(c) in MAP_SPACE else c for c in s)
    s = unicodedata.normalize("NFKC", s.casefold())
    return " ".join(s.split())

def A(oid, v, t=T.UTF8String): return x509.NameAttribute(oid, v, _type=t)
SAN = san_der(dns("www.example.com"))
# Two CAs: one excludes a non-ASCII O, the other an ASCII one.
ROOTS = {"nonascii": "évil corp", "ascii": "Evil Corp"}
roots = {k: ca(name("DN StringPrep Root " + k), nc=nc_der(excluded=[dirname(x509.Name([A(N.ORGANIZATION_NAME, e)]))]))
         for k, e in ROOTS.items()}
CASES = [
    # name, root, leaf subject RDNs before CN=leaf (the first is compared with the constraint)
    ("dn-prep-upper", "nonascii", [(N.ORGANIZATION_NAME, "ÉVIL CORP")]),
    ("dn-prep-nbsp", "nonascii", [(N.ORGANIZATION_NAME, "évil\u00a0corp")]),
    ("dn-prep-nfd", "nonascii", [(N.ORGANIZATION_NAME, "e\u0301vil corp")]),
    ("dn-prep-zwsp", "nonascii", [(N.ORGANIZATION_NAME, "év\u200bil corp")]),
    ("dn-prep-exact", "nonascii", [(N.ORGANIZATION_NAME, "évil corp")]),
    ("dn-prep-na-ascii-other", "nonascii", [(N.ORGANIZATION_NAME, "Good Corp")]),
    ("dn-prep-na-other-type", "nonascii", [(N.COUNTRY_NAME, "DE", T.PrintableString), (N.ORGANIZATION_NAME, "évil corp")]),
    ("dn-prep-fullwidth", "ascii", [(N.ORGANIZATION_NAME, "ＥＶＩＬ ＣＯＲＰ")]),
    ("dn-prep-tab", "ascii", [(N.ORGANIZATION_NAME, "Evil\tCorp")]),
    ("dn-prep-ascii-case", "ascii", [(N.ORGANIZATION_NAME, "EVIL  corp ")]),
    ("dn-prep-ascii-other", "ascii", [(N.ORGANIZATION_NAME, "Good Corp")]),
    ("dn-prep-unicode-other", "ascii", [(N.ORGANIZATION_NAME, "Müller GmbH")]),
]
printable = lambda s: all(0x20 <= ord(c) < 0x7F for c in s)
def sigil_fold(s):
    """Sigil's documented comparison (DistinguishedName.matchesForChaining): leading/trailing
    spaces dropped, inner runs of U+0020 collapsed, A-Z folded, everything else exact."""
    return " ".join(x for x in s.split(" ") if x).translate({c: c + 32 for c in range(65, 91)})
out = {}
for case, r, rdns in CASES:
    subj = x509.Name([x509.RelativeDistinguishedName([A(*x)]) for x in rdns] +
                     [x509.RelativeDistinguishedName([A(N.COMMON_NAME, "leaf")])])
    write(case, roots[r], [], leaf(subj, roots[r], SAN))
    e = ROOTS[r]
    oid, v = rdns[0][0], rdns[0][1]
    prep_equal = oid == N.ORGANIZATION_NAME and prep(v) == prep(e)
    if oid == N.ORGANIZATION_NAME and sigil_fold(v) == sigil_fold(e):
        expect = "violated"
    elif oid != N.ORGANIZATION_NAME or (printable(v) and printable(e)):
        expect = "trusted"
    else:
        expect = "unsupported"  # beyond what Sigil folds: fail closed
    assert not (prep_equal and expect == "trusted"), case  # the property under test
    out[case] = {"prepEqual": prep_equal, "expect": expect}
    print(f"{case:24} prepEqual={prep_equal!s:5} expect={expect}")
json.dump(out, open(os.path.join(OUT, "stringprep.json"), "w"), indent=1, sort_keys=True)
