#!/usr/bin/env python3
"""Fixtures/edges: adversarial chains for the checks Sigil claims (critical extensions on the
leaf, the intermediate and the root under every purpose; issuer EKU nesting; name constraints in
DNS / IP / e-mail / URI / directoryName forms, permitted and excluded, in an intermediate and in
the root; path length; keyCertSign; validity at its edges; signatures), with the verdicts of two
independent verifiers recorded in manifest.json:

- "go": Go's crypto/x509 (scripts/edges_oracle_go, standard library only) with the purpose's
  KeyUsages (ExtKeyUsageAny for "basic") and, for a server, DNSName = host.
- "openssl": `openssl verify -x509_strict -purpose P` (sslserver + -verify_hostname or
  -verify_ip, sslclient, any), or null for the purposes OpenSSL 3.0 has no equivalent of
  (codeSigning; timeStamping, whose OpenSSL purpose is stricter than RFC 5280).

The Swift side (Tests/SigilTrustTests/EdgeOracleTests.swift) asserts that Sigil never trusts a
chain an oracle refuses for a reason Sigil checks, and trusts the chains both accept unless the
case is listed there as a known stricter rule.

Every chain is root -> intermediate(s) -> leaf on P-256 keys (keys in Fixtures/keys/edges-*).
Run from anywhere: python3 Fixtures/scripts/gen_edges.py (needs cryptography, openssl, go).
"""
import datetime
import ipaddress
import json
import os
import subprocess

from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from common import FIX, HERE, load_key, name, serial_for, sign_cert, write_cert

OUT = os.path.join(FIX, "edges")
UTC = datetime.timezone.utc
NB = datetime.datetime(2025, 1, 1, tzinfo=UTC)
NA = datetime.datetime(2035, 1, 1, tzinfo=UTC)
AT = 1767225600  # 2026-01-01T00:00:00Z
UNKNOWN = x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.4.1.55555.1.1"), b"\x05\x00")

SERVER = ExtendedKeyUsageOID.SERVER_AUTH
CLIENT = ExtendedKeyUsageOID.CLIENT_AUTH
CODE = ExtendedKeyUsageOID.CODE_SIGNING
TS = ExtendedKeyUsageOID.TIME_STAMPING
ANY = ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE

KEYS = {}


def key(label):
    if label not in KEYS:
        KEYS[label] = load_key("edges-" + label, "p256")
    return KEYS[label]


def cert(stem, cn, key_label, issuer_cn, issuer_key_label, ca, *, pathlen=None, ku="default", eku=None,
         eku_critical=False, san=None, san_critical=False, nc=None, extra=(), nb=NB, na=NA, bc=True,
         subject=None, corrupt_signature=False):
    """One certificate; `extra` is a list of (extension, critical)."""
    k = key(key_label)
    ik = key(issuer_key_label)
    b = (x509.CertificateBuilder().subject_name(subject or name(cn)).issuer_name(name(issuer_cn))
         .public_key(k.public_key()).serial_number(serial_for("edges/" + stem))
         .not_valid_before(nb).not_valid_after(na)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(k.public_key()), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), critical=False))
    if bc:
        b = b.add_extension(x509.BasicConstraints(ca=ca, path_length=pathlen), critical=True)
    if ku == "default":
        ku = "ca" if ca else "ee"
    if ku == "ca":
        b = b.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    elif ku == "ee":
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
    elif ku == "sign-only":  # a CA key limited to digitalSignature: no keyCertSign
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, False, True, False, False), critical=True)
    if eku is not None:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=eku_critical)
    if san is not None:
        b = b.add_extension(x509.SubjectAlternativeName(san), critical=san_critical)
    if nc is not None:
        b = b.add_extension(nc, critical=True)
    for ext, critical in extra:
        b = b.add_extension(ext, critical=critical)
    c = sign_cert(b, ik)
    der = c.public_bytes(__import__("cryptography.hazmat.primitives.serialization",
                                    fromlist=["Encoding"]).Encoding.DER)
    if corrupt_signature:
        der = der[:-1] + bytes([der[-1] ^ 1])  # the last octet of the signature value
    write_cert(der, stem, OUT)
    return stem + ".pem"


def printable_name(cn):
    """`name(cn)` with every attribute a PrintableString (name() makes O and CN UTF8Strings)."""
    from cryptography.x509.name import _ASN1Type
    p = _ASN1Type.PrintableString
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US", _type=p),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI", _type=p),
        x509.NameAttribute(NameOID.COMMON_NAME, cn, _type=p),
    ])


def dns(*names):
    return [x509.DNSName(n) for n in names]


def main():
    os.makedirs(OUT, exist_ok=True)
    root = cert("root", "Edges Root", "root", "Edges Root", "root", ca=True)
    inter = cert("int", "Edges CA", "int", "Edges Root", "root", ca=True)
    host = "leaf.edges.test"
    cases = []

    def add(case_id, leaf, purpose, *, host=host, intermediates=(inter,), root_=root, at=AT, note=""):
        cases.append({"id": case_id, "root": root_, "intermediates": list(intermediates), "leaf": leaf,
                      "at": at, "purpose": purpose, "host": host if purpose == "server" else None,
                      "note": note})

    purposes = ["server", "client", "codeSigning", "timeStamping", "basic"]
    # A leaf without extKeyUsage (any purpose, RFC 5280 §4.2.1.12) so that only the tested
    # property decides.
    base = cert("leaf", host, "leaf", "Edges CA", "int", ca=False, san=dns(host))
    for p in purposes:
        add("baseline-" + p, base, p, note="control: trusted by every verifier")

    # RFC 5280 §4.2: an unrecognised critical extension fails the certificate, wherever it is.
    crit_leaf = cert("leaf-unknown-critical", host, "leaf", "Edges CA", "int", ca=False, san=dns(host),
                     extra=[(UNKNOWN, True)])
    crit_int = cert("int-unknown-critical", "Edges CA", "int", "Edges Root", "root", ca=True,
                    extra=[(UNKNOWN, True)])
    crit_root = cert("root-unknown-critical", "Edges Root", "root", "Edges Root", "root", ca=True,
                     extra=[(UNKNOWN, True)])
    noncrit_int = cert("int-unknown-noncritical", "Edges CA", "int", "Edges Root", "root", ca=True,
                       extra=[(UNKNOWN, False)])
    # Extensions Sigil reads but does not process when critical (AIA, CRLDP must be
    # non-critical; an issuerAltName it never reads).
    aia = x509.AuthorityInformationAccess([x509.AccessDescription(
        x509.oid.AuthorityInformationAccessOID.CA_ISSUERS, x509.UniformResourceIdentifier("http://x.test/ca"))])
    crit_aia_int = cert("int-aia-critical", "Edges CA", "int", "Edges Root", "root", ca=True, extra=[(aia, True)])
    ian = x509.IssuerAlternativeName(dns("ca.edges.test"))
    crit_ian_leaf = cert("leaf-ian-critical", host, "leaf", "Edges CA", "int", ca=False, san=dns(host),
                         extra=[(ian, True)])
    for p in purposes:
        add("unknown-critical-leaf-" + p, crit_leaf, p)
        add("unknown-critical-int-" + p, base, p, intermediates=[crit_int])
        add("unknown-critical-root-" + p, base, p, root_=crit_root)
        add("unknown-noncritical-int-" + p, base, p, intermediates=[noncrit_int], note="control")
        add("aia-critical-int-" + p, base, p, intermediates=[crit_aia_int])
        add("ian-critical-leaf-" + p, crit_ian_leaf, p)

    # Issuer EKU nesting (Go: every certificate carrying an EKU must allow the usage).
    def int_eku(label, eku):
        return cert("int-eku-" + label, "Edges CA", "int", "Edges Root", "root", ca=True, eku=eku)

    def leaf_eku(label, eku):
        return cert("leaf-eku-" + label, host, "leaf", "Edges CA", "int", ca=False, san=dns(host), eku=eku)

    i_server, i_client, i_code, i_ts, i_any = (int_eku("server", [SERVER]), int_eku("client", [CLIENT]),
                                              int_eku("code", [CODE]), int_eku("ts", [TS]), int_eku("any", [ANY]))
    l_server, l_client, l_code, l_ts, l_any, l_all = (
        leaf_eku("server", [SERVER]), leaf_eku("client", [CLIENT]), leaf_eku("code", [CODE]),
        leaf_eku("ts", [TS]), leaf_eku("any", [ANY]), leaf_eku("all", [SERVER, CLIENT, CODE, TS]))
    for ilabel, icert in (("server", i_server), ("client", i_client), ("code", i_code), ("ts", i_ts),
                          ("any", i_any)):
        for p in purposes:
            add("eku-int-%s-leaf-all-%s" % (ilabel, p), l_all, p, intermediates=[icert])
    for llabel, lcert in (("server", l_server), ("client", l_client), ("code", l_code), ("ts", l_ts),
                          ("any", l_any)):
        for p in purposes:
            add("eku-leaf-%s-%s" % (llabel, p), lcert, p)
    root_eku = cert("root-eku-client", "Edges Root", "root", "Edges Root", "root", ca=True, eku=[CLIENT])
    for p in purposes:
        add("eku-root-client-" + p, l_all, p, root_=root_eku)

    # Name constraints (RFC 5280 §4.2.1.10), in the intermediate unless said otherwise.
    def nc_int(label, permitted=None, excluded=None, issuer_root=True):
        return cert("int-nc-" + label, "Edges CA", "int", "Edges Root", "root", ca=True,
                    nc=x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=excluded))

    def nc_leaf(label, san, cn=host, subject=None):
        return cert("leaf-nc-" + label, cn, "leaf", "Edges CA", "int", ca=False, san=san, subject=subject)

    net = ipaddress.ip_network
    ip = ipaddress.ip_address
    nc_cases = [
        # (id, intermediate, leaf, purpose, host)
        ("nc-dns-permitted-outside", nc_int("perm-allowed", permitted=dns("allowed.test")),
         nc_leaf("evil", dns("evil.test")), "server", "evil.test"),
        ("nc-dns-permitted-inside", nc_int("perm-allowed", permitted=dns("allowed.test")),
         nc_leaf("www-allowed", dns("www.allowed.test")), "server", "www.allowed.test"),
        ("nc-dns-permitted-inside-basic-other-san-outside", nc_int("perm-allowed", permitted=dns("allowed.test")),
         nc_leaf("mixed", dns("www.allowed.test", "evil.test")), "server", "www.allowed.test"),
        ("nc-dns-excluded-inside", nc_int("excl-evil", excluded=dns("evil.test")),
         nc_leaf("www-evil", dns("www.evil.test")), "server", "www.evil.test"),
        ("nc-dns-excluded-case", nc_int("excl-evil-upper", excluded=dns("EVIL.Test")),
         nc_leaf("www-evil-upper", dns("www.eviL.tesT")), "server", "www.evil.test"),
        ("nc-dns-excluded-case-basic", nc_int("excl-evil-upper", excluded=dns("EVIL.Test")),
         nc_leaf("www-evil-upper", dns("www.eviL.tesT")), "basic", None),
        ("nc-dns-permitted-case", nc_int("perm-allowed-upper", permitted=dns("ALLOWED.test")),
         nc_leaf("www-allowed", dns("www.allowed.test")), "server", "www.allowed.test"),
        ("nc-dns-leading-dot-apex", nc_int("perm-dot-allowed", permitted=dns(".allowed.test")),
         nc_leaf("allowed-apex", dns("allowed.test")), "server", "allowed.test"),
        ("nc-dns-leading-dot-sub", nc_int("perm-dot-allowed", permitted=dns(".allowed.test")),
         nc_leaf("www-allowed", dns("www.allowed.test")), "server", "www.allowed.test"),
        ("nc-dns-suffix-not-label", nc_int("perm-allowed", permitted=dns("allowed.test")),
         nc_leaf("notallowed", dns("notallowed.test")), "server", "notallowed.test"),
        ("nc-dns-permitted-ip-unconstrained", nc_int("perm-allowed", permitted=dns("allowed.test")),
         nc_leaf("allowed-and-ip", dns("www.allowed.test") + [x509.IPAddress(ip("10.0.0.1"))]), "server",
         "www.allowed.test"),
        ("nc-ip-excluded-inside", nc_int("excl-10", excluded=[x509.IPAddress(net("10.0.0.0/8"))]),
         nc_leaf("ip-10", [x509.IPAddress(ip("10.1.2.3"))]), "server", "10.1.2.3"),
        ("nc-ip-excluded-inside-basic", nc_int("excl-10", excluded=[x509.IPAddress(net("10.0.0.0/8"))]),
         nc_leaf("ip-10-and-dns", dns(host) + [x509.IPAddress(ip("10.1.2.3"))]), "basic", None),
        ("nc-ip-excluded-inside-by-name", nc_int("excl-10", excluded=[x509.IPAddress(net("10.0.0.0/8"))]),
         nc_leaf("ip-10-and-dns", dns(host) + [x509.IPAddress(ip("10.1.2.3"))]), "server", host),
        ("nc-ip-permitted-outside", nc_int("perm-192", permitted=[x509.IPAddress(net("192.168.0.0/16"))]),
         nc_leaf("ip-10-and-dns", dns(host) + [x509.IPAddress(ip("10.1.2.3"))]), "server", host),
        ("nc-ip-permitted-inside", nc_int("perm-192", permitted=[x509.IPAddress(net("192.168.0.0/16"))]),
         nc_leaf("ip-192", [x509.IPAddress(ip("192.168.1.1"))]), "server", "192.168.1.1"),
        ("nc-ipv6-excluded-inside", nc_int("excl-v6", excluded=[x509.IPAddress(net("2001:db8::/32"))]),
         nc_leaf("ipv6", [x509.IPAddress(ip("2001:db8::1"))]), "server", "2001:db8::1"),
        ("nc-email-permitted-outside", nc_int("perm-mail", permitted=[x509.RFC822Name("allowed.test")]),
         nc_leaf("mail-evil", [x509.RFC822Name("a@evil.test")]), "basic", None),
        ("nc-email-excluded-inside", nc_int("excl-mail", excluded=[x509.RFC822Name("evil.test")]),
         nc_leaf("mail-evil-and-dns", dns(host) + [x509.RFC822Name("a@evil.test")]), "server", host),
        ("nc-email-excluded-mailbox", nc_int("excl-mailbox", excluded=[x509.RFC822Name("a@evil.test")]),
         nc_leaf("mail-evil-and-dns", dns(host) + [x509.RFC822Name("a@evil.test")]), "server", host),
        ("nc-uri-excluded-inside", nc_int("excl-uri", excluded=[x509.UniformResourceIdentifier(".evil.test")]),
         nc_leaf("uri-evil", dns(host) + [x509.UniformResourceIdentifier("https://x.evil.test/p")]), "server", host),
        ("nc-uri-permitted-outside", nc_int("perm-uri", permitted=[x509.UniformResourceIdentifier("allowed.test")]),
         nc_leaf("uri-evil", dns(host) + [x509.UniformResourceIdentifier("https://x.evil.test/p")]), "server",
         host),
        ("nc-dirname-excluded-inside", nc_int("excl-dn", excluded=[x509.DirectoryName(name(host))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dirname-permitted-outside",
         nc_int("perm-dn", permitted=[x509.DirectoryName(name("other", o="Other Org"))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        # directoryName constraints compared as RFC 5280 §7.1 says (RFC 4518 caseIgnoreMatch
        # after string preparation: case and the string type do not matter), and as prefixes.
        ("nc-dirname-excluded-case",
         nc_int("excl-dn-upper", excluded=[x509.DirectoryName(name(host.upper(), o="SIGIL TEST PKI"))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dirname-excluded-printable",
         nc_int("excl-dn-printable", excluded=[x509.DirectoryName(printable_name(host))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dirname-excluded-spaces",
         nc_int("excl-dn-spaces", excluded=[x509.DirectoryName(name(host, o="  Sigil   Test PKI "))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dirname-excluded-prefix",
         nc_int("excl-dn-prefix", excluded=[x509.DirectoryName(x509.Name([
             x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
             x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI")]))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dirname-permitted-prefix",
         nc_int("perm-dn-prefix", permitted=[x509.DirectoryName(x509.Name([
             x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
             x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI")]))]),
         nc_leaf("plain-dn", dns(host)), "server", host),
        ("nc-dns-excluded-cn-only", nc_int("excl-evil", excluded=dns("evil.test")),
         nc_leaf("cn-evil-no-san", None, cn="www.evil.test"), "basic", None),
    ]
    for case_id, i, l, p, h in nc_cases:
        add(case_id, l, p, host=h, intermediates=[i])
    # Name constraints in the anchor itself (Go and OpenSSL apply them).
    root_nc = cert("root-nc-allowed", "Edges Root", "root", "Edges Root", "root", ca=True,
                   nc=x509.NameConstraints(permitted_subtrees=dns("allowed.test"), excluded_subtrees=None))
    add("nc-root-permitted-outside", nc_leaf("evil", dns("evil.test")), "server", host="evil.test", root_=root_nc)
    add("nc-root-permitted-outside-basic", nc_leaf("evil", dns("evil.test")), "basic", root_=root_nc)
    add("nc-root-permitted-inside", nc_leaf("www-allowed", dns("www.allowed.test")), "server",
        host="www.allowed.test", root_=root_nc)

    # Path length (RFC 5280 §4.2.1.9, §6.1.4 (l), (m)).
    root_pl0 = cert("root-pathlen0", "Edges Root", "root", "Edges Root", "root", ca=True, pathlen=0)
    int_pl0 = cert("int-pathlen0", "Edges CA", "int", "Edges Root", "root", ca=True, pathlen=0)
    int2 = cert("int2", "Edges CA 2", "int2", "Edges CA", "int", ca=True)
    leaf2 = cert("leaf-under-int2", host, "leaf", "Edges CA 2", "int2", ca=False, san=dns(host))
    for p in ("server", "basic", "codeSigning"):
        add("pathlen-root0-one-int-" + p, base, p, root_=root_pl0)
        add("pathlen-int0-two-ints-" + p, leaf2, p, intermediates=[int_pl0, int2])
        add("pathlen-int-none-two-ints-" + p, leaf2, p, intermediates=[inter, int2], note="control")

    # keyUsage keyCertSign and basicConstraints on the intermediate (§4.2.1.3, §4.2.1.9, §6.1.4 (k), (n)).
    int_ku = cert("int-ku-no-certsign", "Edges CA", "int", "Edges Root", "root", ca=True, ku="sign-only")
    int_noku = cert("int-no-ku", "Edges CA", "int", "Edges Root", "root", ca=True, ku=None)
    int_notca = cert("int-ca-false", "Edges CA", "int", "Edges Root", "root", ca=False, ku="ca")
    int_nobc = cert("int-no-bc", "Edges CA", "int", "Edges Root", "root", ca=True, bc=False, ku="ca")
    root_ku = cert("root-ku-no-certsign", "Edges Root", "root", "Edges Root", "root", ca=True, ku="sign-only")
    for p in ("server", "client", "basic", "codeSigning", "timeStamping"):
        add("ku-int-no-certsign-" + p, base, p, intermediates=[int_ku])
        add("ku-int-absent-" + p, base, p, intermediates=[int_noku], note="control: keyUsage absent allows all")
        add("bc-int-ca-false-" + p, base, p, intermediates=[int_notca])
        add("bc-int-absent-" + p, base, p, intermediates=[int_nobc])
        add("ku-root-no-certsign-" + p, base, p, root_=root_ku)

    # Validity at its edges (§4.1.2.5: notBefore and notAfter inclusive).
    t0 = datetime.datetime(2026, 1, 1, tzinfo=UTC)
    ts = int(t0.timestamp())
    leaf_nb = cert("leaf-nb-at", host, "leaf", "Edges CA", "int", ca=False, san=dns(host), nb=t0)
    leaf_na = cert("leaf-na-at", host, "leaf", "Edges CA", "int", ca=False, san=dns(host), na=t0)
    int_na = cert("int-na-at", "Edges CA", "int", "Edges Root", "root", ca=True, na=t0)
    root_na = cert("root-na-at", "Edges Root", "root", "Edges Root", "root", ca=True, na=t0)
    for p in ("server", "basic"):
        add("validity-leaf-nb-eq-" + p, leaf_nb, p, at=ts)
        add("validity-leaf-nb-minus1-" + p, leaf_nb, p, at=ts - 1)
        add("validity-leaf-na-eq-" + p, leaf_na, p, at=ts)
        add("validity-leaf-na-plus1-" + p, leaf_na, p, at=ts + 1)
        add("validity-int-na-plus1-" + p, base, p, intermediates=[int_na], at=ts + 1)
        add("validity-root-na-plus1-" + p, base, p, root_=root_na, at=ts + 1)
        add("validity-root-na-eq-" + p, base, p, root_=root_na, at=ts)

    # Signatures: the only intermediate with a broken signature; a broken twin beside the good
    # one (the good path is legitimately trusted); a leaf signed by another key under the same name.
    int_bad = cert("int-bad-signature", "Edges CA", "int", "Edges Root", "root", ca=True, corrupt_signature=True)
    leaf_other = cert("leaf-signed-by-other-key", host, "leaf", "Edges CA", "other", ca=False, san=dns(host))
    for p in ("server", "basic"):
        add("sig-int-bad-" + p, base, p, intermediates=[int_bad])
        add("sig-int-bad-twin-first-" + p, base, p, intermediates=[int_bad, inter], note="control")
        add("sig-leaf-other-key-" + p, leaf_other, p)

    manifest = {"at": AT, "cases": cases}
    path = os.path.join(OUT, "manifest.json")
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
    if os.environ.get("EDGES_SKIP_GO"):  # certificates and OpenSSL verdicts only (a first look)
        go = "".join(json.dumps({"id": c["id"], "go": "skipped"}) + "\n" for c in cases)
    else:
        go = subprocess.run(["go", "run", ".", path], cwd=os.path.join(HERE, "edges_oracle_go"),
                            capture_output=True, text=True, check=True).stdout
    go_verdicts = {}
    for line in go.splitlines():
        r = json.loads(line)
        go_verdicts[r["id"]] = r["go"]
    for c in cases:
        g = go_verdicts[c["id"]]
        c["go"] = g == "ok"
        c["goMessage"] = g
        c["openssl"], c["opensslMessage"] = openssl_verify(c)
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("edges: %d cases" % len(cases))


def openssl_verify(c):
    purpose = {"server": "sslserver", "client": "sslclient", "basic": "any"}.get(c["purpose"])
    if purpose is None:
        return None, None
    args = ["openssl", "verify", "-x509_strict", "-purpose", purpose, "-attime", str(c["at"]),
            "-CAfile", os.path.join(OUT, c["root"])]
    for i in c["intermediates"]:
        args += ["-untrusted", os.path.join(OUT, i)]
    if c["purpose"] == "server":
        try:
            ipaddress.ip_address(c["host"])
            args += ["-verify_ip", c["host"]]
        except ValueError:
            args += ["-verify_hostname", c["host"]]
    args.append(os.path.join(OUT, c["leaf"]))
    r = subprocess.run(args, capture_output=True, text=True)
    msg = (r.stdout + r.stderr).strip().splitlines()
    return r.returncode == 0, " | ".join(l for l in msg if "error" in l or "OK" in l)[:300]


if __name__ == "__main__":
    main()
