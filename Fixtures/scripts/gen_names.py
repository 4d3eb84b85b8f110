#!/usr/bin/env python3
"""Fixtures for SigilTrust name checks (Tests/SigilTrustTests/Names*Tests.swift).

Writes into Fixtures/names/:
- ip_text.json   text forms of IP addresses (hand-picked, plus 3 000 random edits of valid
                 ones) and the octets Python's `ipaddress` gives them
                 (an independent parser); Sigil's deliberate differences carry `deviation`.
- san_cases.json leaf certificates with assorted subjectAltNames and, per reference name,
                 the expected verdict (from RFC 6125 / CA/B Forum, cited in `why`) and what
                 `openssl x509 -checkhost/-checkip/-checkemail` answers.
- cn_cases.json  subject Common Names and SANs, and whether the CN repeats a SAN as CA/B
                 Forum BR §7.1.4.3 requires (expected from the BR text).
- nc_cases.json  a CA certificate with nameConstraints and a leaf below it: the expected
                 verdict (RFC 5280 §4.2.1.10, cited in `why`) and what `openssl verify` says.

Where OpenSSL's answer differs from the expected one, the case carries `deviation` (why
Sigil is stricter or differs); the generator refuses to write a case that disagrees with
OpenSSL without one. Run from anywhere: python3 Fixtures/scripts/gen_names.py
"""
import base64
import datetime
import ipaddress
import json
import os
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import NameOID, ObjectIdentifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import FIX, load_key, sign_cert, serial_for, der_to_pem  # noqa: E402

OUT = os.path.join(FIX, "names")
KEY = load_key("names-leaf", "p256")  # one key for every certificate: only names matter here
NB = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NA = datetime.datetime(2035, 1, 1, tzinfo=datetime.timezone.utc)


def dn(*pairs):
    oids = {"C": NameOID.COUNTRY_NAME, "O": NameOID.ORGANIZATION_NAME, "OU": NameOID.ORGANIZATIONAL_UNIT_NAME,
            "CN": NameOID.COMMON_NAME, "E": NameOID.EMAIL_ADDRESS}
    return x509.Name([x509.NameAttribute(oids[k], v) for k, v in pairs])


def gn(spec):
    """'DNS:x', 'IP:192.0.2.1' / 'IP:192.0.2.0/24', 'email:x', 'URI:x', 'DirName:C=US/O=X',
    'othername:1.2.3.4', 'RID:1.2.3.4'."""
    kind, _, v = spec.partition(":")
    if kind == "DNS":
        return x509.DNSName(v)
    if kind == "IP":
        return x509.IPAddress(ipaddress.ip_network(v) if "/" in v else ipaddress.ip_address(v))
    if kind == "email":
        # Without cryptography's own checks: malformed mailboxes are test input.
        return x509.RFC822Name._init_without_validation(v)
    if kind == "URI":
        return x509.UniformResourceIdentifier(v)
    if kind == "DirName":
        return x509.DirectoryName(dn(*[tuple(p.split("=", 1)) for p in v.split("/")]))
    if kind == "othername":
        return x509.OtherName(ObjectIdentifier(v), b"\x0c\x03abc")  # UTF8String "abc"
    if kind == "RID":
        return x509.RegisteredID(ObjectIdentifier(v))
    raise ValueError(spec)


def cert(subject, issuer, sans=None, ca=False, nc=None, san_critical=None):
    if san_critical is None:
        san_critical = len(subject) == 0  # RFC 5280 §4.2.1.6: critical when the subject is empty
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
         .public_key(KEY.public_key()).serial_number(serial_for(repr((subject, sans, nc))))
         .not_valid_before(NB).not_valid_after(NA)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        b = b.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName([gn(s) for s in sans]), critical=san_critical)
    if nc:
        permitted, excluded = nc
        # Built without cryptography's checks: malformed constraints are test input too.
        value = x509.NameConstraints.__new__(x509.NameConstraints)
        value._permitted_subtrees = [gn(s) for s in permitted] or None
        value._excluded_subtrees = [gn(s) for s in excluded] or None
        b = b.add_extension(value, critical=True)
    return sign_cert(b, KEY).public_bytes(serialization.Encoding.DER)


def b64(der):
    return base64.b64encode(der).decode()


def openssl(*args, stdin=None):
    r = subprocess.run(["openssl", *args], capture_output=True, text=True)
    return r.returncode, (r.stdout + r.stderr).strip()


# ---------------------------------------------------------------------------------------------
# IP text forms

IP_TEXTS = [
    # IPv4 (RFC 3986 §3.2.2 dec-octet)
    "0.0.0.0", "192.0.2.1", "255.255.255.255", "127.0.0.1", "256.0.0.1", "1.2.3", "1.2.3.4.5",
    "01.2.3.4", "1.2.3.04", "0x7f.0.0.1", "1.2.3.4.", ".1.2.3.4", "1..2.3", "1.2.3.-4", "+1.2.3.4",
    "1.2.3.4 ", " 1.2.3.4", "1.2.3.4/32", "127.1", "2130706433", "1.2.3.١",
    # IPv6 (RFC 4291 §2.2)
    "::", "::1", "1::", "2001:db8::1", "2001:DB8::1", "2001:0db8:0000:0000:0000:0000:0000:0001",
    "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", ":::", "1:::2", ":1::2", "1::2:", "1:2:3:4:5:6:7:8::",
    "12345::1", "g::1", "::ffff:192.0.2.1", "::ffff:c000:201", "::192.0.2.1", "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4", "::ffff:01.2.3.4", "::ffff:1.2.3", "1.2.3.4::", "::1.2.3.4:5",
    "fe80::1%eth0", "[::1]", "[2001:db8::1]", "[192.0.2.1]", "[::1", "::1]",
]

# Where Sigil's parser answers differently from Python's, on purpose.
IP_SIGIL = {
    "fe80::1%eth0": (None, "zone identifiers refused: a certificate cannot name a zone"),
    "[::1]": ("00000000000000000000000000000001", "brackets accepted around IPv6 (RFC 3986 IP-literal)"),
    "[2001:db8::1]": ("20010db8000000000000000000000001", "brackets accepted around IPv6 (RFC 3986 IP-literal)"),
}


def ip_mutations(count=3000, seed=20261121):
    """Near-valid address texts (random edits of valid ones) for a differential test."""
    import random
    rng = random.Random(seed)
    alphabet = "0123456789abcdefABCDEF:.:."
    bases = []
    for _ in range(300):
        if rng.random() < 0.3:
            bases.append(str(ipaddress.IPv4Address(rng.getrandbits(32))))
        else:
            a = ipaddress.IPv6Address(rng.getrandbits(128) & ~((1 << rng.choice([0, 16, 32, 64, 96])) - 1))
            form = rng.choice(["compressed", "exploded", "mapped"])
            if form == "mapped":
                bases.append("::ffff:" + str(ipaddress.IPv4Address(rng.getrandbits(32))))
            else:
                bases.append(getattr(a, form))
    out = set()
    while len(out) < count:
        t = list(rng.choice(bases))
        for _ in range(rng.choice([1, 1, 2, 3])):
            op = rng.random()
            i = rng.randrange(len(t) + 1)
            if op < 0.35 and t:
                del t[min(i, len(t) - 1)]
            elif op < 0.7:
                t.insert(i, rng.choice(alphabet))
            elif t:
                t[min(i, len(t) - 1)] = rng.choice(alphabet)
        out.add("".join(t))
    return sorted(out)


def ip_cases():
    out = []
    for t in IP_TEXTS + ip_mutations():
        try:
            py = ipaddress.ip_address(t).packed.hex()
        except ValueError:
            py = None
        case = {"text": t, "python": py, "expected": py}
        if t in IP_SIGIL:
            case["expected"], case["deviation"] = IP_SIGIL[t]
        out.append(case)
    return out


# ---------------------------------------------------------------------------------------------
# subjectAltName matching

SAN_CERTS = [
    {
        "name": "dns-basic",
        "subject": [("CN", "leaf")],
        "sans": ["DNS:www.example.com", "DNS:Mixed.Example.ORG", "DNS:*.wild.example.com",
                 "DNS:xn--bcher-kva.example"],
        "checks": [
            ("host", "www.example.com", True, "RFC 6125 §6.4.1 exact match"),
            ("host", "WWW.EXAMPLE.COM", True, "RFC 6125 §6.4.1 / RFC 4343: ASCII case-insensitive"),
            ("host", "www.example.com.", True, "absolute reference name: trailing dot removed"),
            ("host", "example.com", False, "RFC 6125 §6.4.1: every label must match"),
            ("host", "a.www.example.com", False, "RFC 6125 §6.4.1"),
            ("host", "ww.example.com", False, "RFC 6125 §6.4.1"),
            ("host", "mixed.example.org", True, "case-insensitive (presented in mixed case)"),
            ("host", "a.wild.example.com", True, "RFC 6125 §6.4.3: wildcard matches one left-most label"),
            ("host", "xn--caf-dma.wild.example.com", True,
             "the wildcard label may stand for an A-label (rustls-webpki, Go, NSS)"),
            ("host", "wild.example.com", False, "RFC 6125 §6.4.3: *.example.com does not match example.com"),
            ("host", "a.b.wild.example.com", False, "RFC 6125 §6.4.3: one label only"),
            ("host", "xn--bcher-kva.example", True, "A-labels compared as ASCII"),
            ("ip", "192.0.2.1", False, "no iPAddress SAN"),
            ("email", "user@www.example.com", False, "no rfc822Name SAN"),
        ],
    },
    {
        "name": "dns-bad-wildcards",
        "subject": [("CN", "leaf")],
        "sans": ["DNS:f*.partial.example.com", "DNS:*.com", "DNS:*.co.uk", "DNS:*", "DNS:a.*.mid.example.com",
                 "DNS:*.*.double.example.com", "DNS:xn--*-x.idn.example.com", "DNS:**.stars.example.com"],
        "checks": [
            ("host", "foo.partial.example.com", False, "CA/B BR §1.6.1 Wildcard Domain Name: '*' must be the whole label"),
            ("host", "f.partial.example.com", False, "partial wildcard refused"),
            ("host", "example.com", False, "*.com: wildcard directly under a public suffix (BR §3.2.2.6)"),
            ("host", "example.co.uk", False, "*.co.uk: two-label public suffix (BR §3.2.2.6)"),
            ("host", "com", False, "'*' alone is not a wildcard domain name"),
            ("host", "a.b.mid.example.com", False, "RFC 6125 §6.4.3: wildcard only in the left-most label"),
            ("host", "a.b.double.example.com", False, "one wildcard only, left-most"),
            ("host", "xn--bliss-x.idn.example.com", False, "RFC 6125 §6.4.3 item 3: no wildcard inside an A-label"),
            ("host", "ab.stars.example.com", False, "'**' is not a wildcard label"),
        ],
    },
    {
        "name": "dns-malformed",
        "subject": [("CN", "leaf")],
        "sans": ["DNS:foo_bar.example.com", "DNS:trailing.example.com.", "DNS:empty..example.com",
                 "DNS:1.2.3.4", "DNS:-dash.example.com", "DNS:sp ace.example.com", "DNS:.lead.example.com"],
        "checks": [
            ("host", "foo_bar.example.com", False, "'_' is not an LDH character (RFC 5280 §4.2.1.6, BR §7.1.4.2.1); refused as reference too"),
            ("host", "trailing.example.com", False, "presented names are not absolute (RFC 5280 §4.2.1.6 preferred name syntax)"),
            ("host", "empty.example.com", False, "empty label"),
            ("ip", "1.2.3.4", False, "an IP in a dNSName never matches an IP identity (RFC 6125 §6.2.1)"),
            ("host", "dash.example.com", False, "label starting with '-' is not LDH"),
            ("host", "lead.example.com", False, "empty left-most label"),
        ],
    },
    {
        "name": "ip",
        "subject": [("CN", "leaf")],
        "sans": ["IP:192.0.2.1", "IP:2001:db8::1", "IP:::ffff:198.51.100.7", "DNS:192.0.2.2.example.com"],
        "checks": [
            ("ip", "192.0.2.1", True, "RFC 6125 §6.2.1 / RFC 5280 §4.2.1.6: octet comparison"),
            ("ip", "192.0.2.2", False, "different address"),
            ("ip", "2001:db8::1", True, "IPv6, octet comparison"),
            ("ip", "2001:DB8:0:0:0:0:0:1", True, "any RFC 4291 text form of the same address"),
            ("ip", "2001:db8::2", False, "different address"),
            ("ip", "198.51.100.7", False, "IPv4 never matches an IPv4-mapped IPv6 SAN (octets differ)"),
            ("ip", "::ffff:198.51.100.7", True, "the IPv4-mapped IPv6 SAN itself"),
            ("host", "192.0.2.2.example.com", True, "an ordinary DNS name"),
        ],
    },
    {
        "name": "email",
        "subject": [("CN", "leaf"), ("E", "subject@example.com")],
        "sans": ["email:User@Example.com", "email:invalid@address@example.com", "DNS:mail.example.com"],
        "checks": [
            ("email", "User@Example.com", True, "exact"),
            ("email", "User@EXAMPLE.COM", True, "domain ASCII case-insensitive"),
            ("email", "user@example.com", False, "local part case-sensitive (RFC 5321 §2.4)"),
            ("email", "subject@example.com", False, "subject emailAddress not consulted (SAN only)"),
            ("email", "invalid@address@example.com", False, "malformed mailbox never matches"),
            ("host", "example.com", False, "an rfc822Name never matches a host"),
        ],
    },
    {
        "name": "cn-only",
        "subject": [("CN", "www.example.com")],
        "sans": None,
        "checks": [
            ("host", "www.example.com", False, "no Common Name fallback (RFC 9525 §6.3; BR §7.1.4.3)"),
        ],
    },
]

# Where `openssl x509 -check*` answers differently, and why Sigil is right to.
SAN_DEVIATIONS = {
    ("email", "invalid@address@example.com"): "OpenSSL compares bytes without checking mailbox syntax",
    ("dns-basic", "www.example.com."): "OpenSSL keeps the root dot of an absolute reference; Go and rustls-webpki drop it, as Sigil does",
    ("dns-bad-wildcards", "foo.partial.example.com"): "OpenSSL allows partial wildcards unless X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS",
    ("dns-bad-wildcards", "f.partial.example.com"): "OpenSSL allows partial wildcards unless X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS",
    ("dns-bad-wildcards", "example.co.uk"): "OpenSSL only requires two labels after the wildcard; no public-suffix list",
    ("dns-malformed", "foo_bar.example.com"): "OpenSSL compares bytes without checking LDH syntax",
    ("dns-malformed", "lead.example.com"): "OpenSSL skips a leading '.' in presented names (subdomain match)",
    ("cn-only", "www.example.com"): "OpenSSL falls back to the CN when there is no dNSName SAN",
}


def openssl_check(pem_path, kind, value):
    flag = {"host": "-checkhost", "ip": "-checkip", "email": "-checkemail"}[kind]
    code, out = openssl("x509", "-in", pem_path, "-noout", flag, value)
    if "does match" in out:
        return True
    if "does NOT match" in out:
        return False
    return None  # OpenSSL refused the reference itself


def san_cases(tmp):
    out = []
    for c in SAN_CERTS:
        subject = dn(*c["subject"])
        der = cert(subject, subject, c["sans"])
        path = os.path.join(tmp, c["name"] + ".pem")
        with open(path, "wb") as f:
            f.write(der_to_pem(der))
        checks = []
        for kind, value, expected, why in c["checks"]:
            o = openssl_check(path, kind, value)
            entry = {"kind": kind, "value": value, "expected": expected, "openssl": o, "why": why}
            dev = SAN_DEVIATIONS.get((c["name"], value))
            if dev:
                entry["deviation"] = dev
            if o is not None and o != expected and not dev:
                sys.exit("san case %s %s: OpenSSL says %s, expected %s, and no deviation recorded" % (c["name"], value, o, expected))
            checks.append(entry)
        out.append({"name": c["name"], "sans": c["sans"], "der": b64(der), "checks": checks})
    return out


# ---------------------------------------------------------------------------------------------
# Name constraints: (name, permitted, excluded, leaf subject, leaf SANs, expected, why, deviation)

LEAF = [("CN", "leaf")]
NC_CASES = [
    # dNSName (RFC 5280 §4.2.1.10: "adding zero or more labels to the left-hand side")
    ("dns-permit-sub", ["DNS:example.com"], [], LEAF, ["DNS:www.example.com"], "satisfied", "zero or more labels added", None),
    ("dns-permit-self", ["DNS:example.com"], [], LEAF, ["DNS:example.com"], "satisfied", "zero labels added", None),
    ("dns-permit-label-boundary", ["DNS:example.com"], [], LEAF, ["DNS:badexample.com"], "violated",
     "labels, not characters: host1.example.com is not in host.example.com", None),
    ("dns-permit-other", ["DNS:example.com"], [], LEAF, ["DNS:www.example.org"], "violated", "outside the subtree", None),
    ("dns-permit-one-bad", ["DNS:example.com"], [], LEAF, ["DNS:www.example.com", "DNS:evil.com"], "violated",
     "every name must be permitted", None),
    ("dns-permit-case", ["DNS:EXAMPLE.com"], [], LEAF, ["DNS:Www.Example.COM"], "satisfied", "case-insensitive", None),
    ("dns-permit-dot-apex", ["DNS:.example.com"], [], LEAF, ["DNS:example.com"], "malformedConstraint",
     "leading-dot dNSName constraint is not RFC 5280 syntax", "RFC 5280 has no leading-period dNSName constraint (x509-limbo rfc5280::nc::invalid-dnsname-leading-period): Sigil fails closed; OpenSSL reads it as subdomains-only"),
    ("dns-permit-dot-sub", ["DNS:.example.com"], [], LEAF, ["DNS:a.example.com"], "malformedConstraint",
     "leading-dot dNSName constraint is not RFC 5280 syntax", "RFC 5280 has no leading-period dNSName constraint (x509-limbo rfc5280::nc::invalid-dnsname-leading-period): Sigil fails closed; OpenSSL reads it as subdomains-only"),
    ("dns-exclude-deep", ["DNS:example.com"], ["DNS:bad.example.com"], LEAF, ["DNS:a.b.bad.example.com"], "violated",
     "excluded wins over permitted", None),
    ("dns-exclude-dot-apex", [], ["DNS:.example.com"], LEAF, ["DNS:example.com"], "malformedConstraint",
     "leading-dot dNSName constraint is not RFC 5280 syntax", "RFC 5280 has no leading-period dNSName constraint (x509-limbo rfc5280::nc::invalid-dnsname-leading-period): Sigil fails closed; OpenSSL reads it as subdomains-only"),
    ("dns-empty-permits-all", ["DNS:"], [], LEAF, ["DNS:anything.example"], "satisfied", "empty constraint matches every name", None),
    ("dns-empty-excludes-all", [], ["DNS:"], LEAF, ["DNS:anything.example"], "violated", "empty constraint matches every name", None),
    ("dns-other-type", ["DNS:example.com"], [], LEAF, ["IP:192.0.2.1"], "satisfied", "no dNSName in the certificate", None),
    ("dns-wildcard-permit", ["DNS:example.com"], [], LEAF, ["DNS:*.example.com"], "satisfied",
     "every name *.example.com matches is in example.com", None),
    ("dns-wildcard-permit-narrow", ["DNS:a.example.com"], [], LEAF, ["DNS:*.example.com"], "violated",
     "*.example.com also matches b.example.com (limbo cve-2025-61727-nc-permits-variant)", None),
    ("dns-wildcard-exclude", [], ["DNS:a.example.com"], LEAF, ["DNS:*.example.com"], "violated",
     "*.example.com could match the excluded a.example.com (CVE-2025-61727)",
     "OpenSSL compares the wildcard text literally"),
    ("dns-wildcard-exclude-deeper", [], ["DNS:a.b.example.com"], LEAF, ["DNS:*.example.com"], "satisfied",
     "*.example.com cannot match a.b.example.com or below", None),
    ("dns-malformed-constraint", ["DNS:*.example.com"], [], LEAF, ["DNS:a.example.com"], "malformedConstraint",
     "a dNSName constraint is a name, not a pattern (limbo invalid-dnsname-wildcard)", None),
    ("dns-malformed-name", ["DNS:example.com"], [], LEAF, ["DNS:foo_bar.example.com"], "violated",
     "a constrained name that is not a valid DNS name fails",
     "OpenSSL does not check the syntax of constrained names"),
    ("dns-cn-ignored", ["DNS:example.com"], [], [("CN", "www.evil.com")], ["IP:192.0.2.1"], "satisfied",
     "the Common Name is not a DNS name for Sigil (never used to match a host)",
     "OpenSSL checks a host-like CN against dNSName constraints when the SAN has no dNSName"),
    # iPAddress (RFC 5280 §4.2.1.10: CIDR address and mask)
    ("ip-permit-in", ["IP:192.0.2.0/24"], [], LEAF, ["IP:192.0.2.7"], "satisfied", "inside 192.0.2.0/24", None),
    ("ip-permit-out", ["IP:192.0.2.0/24"], [], LEAF, ["IP:192.0.3.1"], "violated", "outside", None),
    ("ip-permit-family", ["IP:192.0.2.0/24"], [], LEAF, ["IP:2001:db8::1"], "violated",
     "an IPv6 name is outside IPv4-only permitted subtrees", None),
    ("ip-permit-v6", ["IP:2001:db8::/32"], [], LEAF, ["IP:2001:db8:1::1"], "satisfied", "inside 2001:db8::/32", None),
    ("ip-permit-any", ["IP:0.0.0.0/0"], [], LEAF, ["IP:8.8.8.8"], "satisfied", "/0 permits every IPv4 address", None),
    ("ip-exclude-wins", ["IP:10.0.0.0/8"], ["IP:10.0.0.0/8"], LEAF, ["IP:10.1.1.1"], "violated", "excluded wins", None),
    ("ip-exclude-mapped", [], ["IP:192.0.2.0/24"], LEAF, ["IP:::ffff:192.0.2.1"], "violated",
     "an IPv4-mapped IPv6 address reaches the excluded IPv4 host",
     "OpenSSL compares address families by length only"),
    # rfc822Name (RFC 5280 §4.2.1.10: mailbox, host, or .domain)
    ("email-host", ["email:example.com"], [], LEAF, ["email:user@example.com"], "satisfied", "all mailboxes at the host", None),
    ("email-host-not-sub", ["email:example.com"], [], LEAF, ["email:user@mail.example.com"], "violated",
     "a host constraint does not cover subdomains", None),
    ("email-domain", ["email:.example.com"], [], LEAF, ["email:user@mail.example.com"], "satisfied", "'.domain': hosts below", None),
    ("email-domain-not-apex", ["email:.example.com"], [], LEAF, ["email:user@example.com"], "violated",
     "'.domain' does not cover the domain itself", None),
    ("email-mailbox-case", ["email:user@example.com"], [], LEAF, ["email:User@example.com"], "violated",
     "the local part is case-sensitive", None),
    ("email-mailbox-domain-case", ["email:user@example.com"], [], LEAF, ["email:user@EXAMPLE.com"], "satisfied",
     "the domain is case-insensitive", None),
    ("email-subject-attr", [], ["email:example.com"], [("CN", "leaf"), ("E", "user@example.com")], ["DNS:x.example.org"],
     "violated", "emailAddress in the subject is checked against rfc822Name constraints", None),
    # The host rule holds for excluded subtrees too (RFC 5280 §4.2.1.10: "example.com" is "any
    # mail address at the host", ".example.com" "all the Internet mail addresses in the domain
    # "example.com", but not Internet mail addresses on the host "example.com"").
    ("email-exclude-sub", [], ["email:example.com"], LEAF, ["email:user@sub.example.com"], "satisfied",
     "an excluded host excludes that host only, not its subdomains", None),
    ("email-exclude-host", [], ["email:example.com"], LEAF, ["email:user@example.com"], "violated",
     "an excluded host excludes every mailbox at it", None),
    ("email-exclude-domain-sub", [], ["email:.example.com"], LEAF, ["email:user@mail.example.com"], "violated",
     "an excluded '.domain' excludes the hosts below it", None),
    ("email-exclude-domain-apex", [], ["email:.example.com"], LEAF, ["email:user@example.com"], "satisfied",
     "an excluded '.domain' does not exclude the host itself", None),
    ("email-malformed-constraint", ["email:a@b@example.com"], [], LEAF, ["email:user@example.com"], "malformedConstraint",
     "limbo invalid-email-address", None),
    # uniformResourceIdentifier (RFC 5280 §4.2.1.10: host part; host or .domain)
    ("uri-domain", ["URI:.example.com"], [], LEAF, ["URI:https://www.example.com/path"], "satisfied", "'.domain': hosts below", None),
    ("uri-host-exact", ["URI:example.com"], [], LEAF, ["URI:https://www.example.com/"], "violated",
     "a host constraint names exactly one host", None),
    ("uri-host-port", ["URI:example.com"], [], LEAF, ["URI:https://example.com:8443/x?q#f"], "satisfied",
     "the port, path, query and fragment are not part of the host", None),
    ("uri-userinfo", ["URI:example.com"], [], LEAF, ["URI:https://user@example.com/"], "violated",
     "URIs with userinfo are refused when URI constraints exist (no reason to be in a certificate)", None),
    ("uri-no-authority", ["URI:.example.com"], [], LEAF, ["URI:urn:isbn:0451450523"], "violated",
     "a URI without host cannot satisfy a URI constraint", None),
    ("uri-ip-host", ["URI:example.com"], [], LEAF, ["URI:https://192.0.2.1/"], "violated", "an IP host is not a domain", None),
    # URI host rule in excluded subtrees (RFC 5280 §4.2.1.10: "When the constraint does not
    # begin with a period, it specifies a host"; ".example.com" "is not satisfied by example.com").
    ("uri-exclude-sub", [], ["URI:example.com"], LEAF, ["URI:https://a.example.com/"], "satisfied",
     "an excluded host excludes that host only", None),
    ("uri-exclude-host", [], ["URI:example.com"], LEAF, ["URI:https://example.com/x"], "violated",
     "an excluded host excludes URIs at that host", None),
    ("uri-exclude-domain-sub", [], ["URI:.example.com"], LEAF, ["URI:https://my.host.example.com/"], "violated",
     "an excluded '.domain' excludes hosts below it (RFC example my.host.example.com)", None),
    ("uri-exclude-domain-apex", [], ["URI:.example.com"], LEAF, ["URI:https://example.com/"], "satisfied",
     "an excluded '.domain' does not exclude the host example.com", None),
    ("uri-domain-not-apex", ["URI:.example.com"], [], LEAF, ["URI:https://example.com/"], "violated",
     "'.domain' does not permit the host example.com (RFC text)", None),
    # directoryName (RFC 5280 §4.2.1.10 / §7.1)
    ("dn-permit-prefix", ["DirName:C=US/O=Example"], [], [("C", "US"), ("O", "Example"), ("CN", "leaf")], ["DNS:a.example"],
     "satisfied", "the constraint's RDNs are a prefix of the subject's", None),
    ("dn-permit-other", ["DirName:C=US/O=Example"], [], [("C", "US"), ("O", "Other"), ("CN", "leaf")], ["DNS:a.example"],
     "violated", "not a prefix", None),
    ("dn-permit-case", ["DirName:C=US/O=Example"], [], [("C", "US"), ("O", "EXAMPLE"), ("CN", "leaf")], ["DNS:a.example"],
     "satisfied", "RFC 5280 §7.1 caseIgnoreMatch", None),
    ("dn-exclude", [], ["DirName:C=US/O=Evil"], [("C", "US"), ("O", "Evil"), ("OU", "x")], ["DNS:a.example"],
     "violated", "subject below an excluded name", None),
    ("dn-san-dirname", ["DirName:C=US/O=Example"], [], [("C", "US"), ("O", "Example"), ("CN", "leaf")],
     ["DirName:C=US/O=Other"], "violated", "directoryName SANs are constrained too", None),
    ("dn-empty-subject", ["DirName:C=US/O=Example"], [], [], ["DNS:a.example"], "satisfied",
     "§4.2.1.10: directoryName constraints apply to the subject 'when the certificate includes a non-empty subject field'", None),
    # forms Sigil does not evaluate
    ("othername-present", [], ["othername:1.3.6.1.4.1.99999.1"], LEAF, ["othername:1.3.6.1.4.1.99999.1"], "unsupported",
     "fail closed on a constrained form Sigil cannot evaluate (limbo nc-forbids-othername)", None),
    ("othername-absent", [], ["othername:1.3.6.1.4.1.99999.1"], LEAF, ["DNS:a.example"], "satisfied",
     "irrelevant when the certificate has no such name (limbo nc-forbids-othername-noop)", None),
]


def openssl_verify(tmp, root, leaf):
    rp, lp = os.path.join(tmp, "root.pem"), os.path.join(tmp, "leaf.pem")
    with open(rp, "wb") as f:
        f.write(der_to_pem(root))
    with open(lp, "wb") as f:
        f.write(der_to_pem(leaf))
    code, out = openssl("verify", "-CAfile", rp, lp)
    lines = [l for l in out.splitlines() if l.startswith("error ")]
    return code == 0, lines[0].split(": ", 1)[-1] if lines else out


def nc_cases(tmp):
    out = []
    root_name = dn(("C", "US"), ("O", "Sigil Names"), ("CN", "NC root"))
    for name, permitted, excluded, subject, sans, expected, why, deviation in NC_CASES:
        root = cert(root_name, root_name, ca=True, nc=(permitted, excluded))
        leaf = cert(dn(*subject), root_name, sans)
        ok, msg = openssl_verify(tmp, root, leaf)
        if ok != (expected == "satisfied") and not deviation:
            sys.exit("nc case %s: openssl %s (%s), expected %s, and no deviation recorded" % (name, ok, msg, expected))
        case = {"name": name, "ca": b64(root), "leaf": b64(leaf), "expected": expected, "why": why,
                "openssl": "accept" if ok else "reject: " + msg}
        if deviation:
            case["deviation"] = deviation
        out.append(case)
    # Work limit: 300 permitted names against 300 SANs that each match only the last one
    # (90 000 comparisons > 65 536).
    many_nc = ["DNS:n%d.example.com" % i for i in range(300)]
    root = cert(root_name, root_name, ca=True, nc=(many_nc, []))
    leaf = cert(dn(*LEAF), root_name, ["DNS:x%d.n299.example.com" % i for i in range(300)])
    ok, msg = openssl_verify(tmp, root, leaf)
    out.append({"name": "budget-exceeded", "ca": b64(root), "leaf": b64(leaf), "expected": "unsupported",
                "why": "bounded work: beyond the comparison limit Sigil refuses",
                "openssl": "accept" if ok else "reject: " + msg,
                "deviation": "OpenSSL's limit is higher (2^20 name x constraint pairs)"})
    return out


# ---------------------------------------------------------------------------------------------
# CA/B Forum BR §7.1.4.3: a subject CN must repeat a SAN value (expected from the BR text)

CN_CASES = [
    ("cn-copy-dns", ["www.example.com"], ["DNS:www.example.com", "DNS:example.com"], True, "character-for-character copy of a dNSName"),
    ("cn-copy-wildcard", ["*.example.com"], ["DNS:*.example.com"], True, "Wildcard Domain Name copied"),
    ("cn-none", [], ["DNS:www.example.com"], True, "the CN is optional"),
    ("cn-case", ["WWW.example.com"], ["DNS:www.example.com"], False, "not a character-for-character copy"),
    ("cn-not-in-san", ["other.example.com"], ["DNS:www.example.com"], False, "not one of the SAN values"),
    ("cn-two", ["www.example.com", "www.example.com"], ["DNS:www.example.com"], False, "exactly one entry"),
    ("cn-ipv4", ["192.0.2.1"], ["IP:192.0.2.1"], True, "RFC 3986 §3.2.2 IPv4 text"),
    ("cn-ipv4-zeros", ["192.000.002.001"], ["IP:192.0.2.1"], False, "leading zeros are not the RFC 3986 form"),
    ("cn-ipv6", ["2001:db8::1"], ["IP:2001:db8::1"], True, "RFC 5952 §4 text"),
    ("cn-ipv6-long", ["2001:db8:0:0:0:0:0:1"], ["IP:2001:db8::1"], False, "RFC 5952 §4.2: '::' must be used"),
    ("cn-no-san", ["www.example.com"], None, False, "nothing to repeat"),
]


def cn_cases():
    out = []
    for name, cns, sans, expected, why in CN_CASES:
        subject = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US")] +
                            [x509.NameAttribute(NameOID.COMMON_NAME, cn) for cn in cns])
        out.append({"name": name, "der": b64(cert(subject, subject, sans)), "expected": expected, "why": why})
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = {
            "ip_text.json": ip_cases(),
            "san_cases.json": san_cases(tmp),
            "nc_cases.json": nc_cases(tmp),
            "cn_cases.json": cn_cases(),
        }
    for fname, value in data.items():
        with open(os.path.join(OUT, fname), "w") as f:
            json.dump(value, f, indent=1)
            f.write("\n")
        print("wrote", fname, len(value))


if __name__ == "__main__":
    main()
