#!/usr/bin/env python3
"""Generates Fixtures/chains/<scenario>/{leaf,intermediates,anchors}.pem and
Fixtures/chains/manifest.json for trust-evaluation tests.

Each scenario: the leaf, the intermediates a peer would present (possibly none, shuffled, or with
junk), the caller's anchors, the evaluation time `at` (Unix seconds), the expected verdict and,
when untrusted, the main reason. `host` = SSL server policy with that DNS name, `ip` = server
policy with that IP address, neither = basic X.509 policy (chain only). Reason names are
descriptive (camelCase); map them onto Sigil's trust-failure enum."""
import calendar
import datetime
import ipaddress
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import ExtendedKeyUsageOID, ObjectIdentifier

UTC = datetime.timezone.utc
CHAINS = os.path.join(FIX, "chains")


def d(y, m=1, day=1):
    return datetime.datetime(y, m, day, tzinfo=UTC)


def unix(y, m=1, day=1):
    return calendar.timegm((y, m, day, 0, 0, 0))


AT = unix(2030, 1, 1)  # default evaluation time: inside every ordinary fixture's validity


def ski(key):
    return x509.SubjectKeyIdentifier.from_public_key(key.public_key())


def aki(key):
    return x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key())


def ca(key, cn, issuer=None, issuer_key=None, nb=NOT_BEFORE, na=NOT_AFTER, path_length=None,
       bc=True, ca_flag=True, ku_cert_sign=True, extra=(), label=None):
    """A CA certificate (self-signed when issuer is None)."""
    subj = name(cn)
    issuer_name = issuer.subject if issuer is not None else subj
    ik = issuer_key if issuer_key is not None else key
    b = (x509.CertificateBuilder().subject_name(subj).issuer_name(issuer_name).public_key(key.public_key())
         .serial_number(serial_for(label or ("ca:" + cn + str(nb) + str(na) + str(issuer_name))))
         .not_valid_before(nb).not_valid_after(na))
    if bc:
        b = b.add_extension(x509.BasicConstraints(ca=ca_flag, path_length=path_length if ca_flag else None), critical=True)
    b = b.add_extension(x509.KeyUsage(True, False, False, False, False, ku_cert_sign, ku_cert_sign, False, False), critical=True)
    b = b.add_extension(ski(key), critical=False)
    if issuer is not None:
        b = b.add_extension(aki(ik), critical=False)
    for e, crit in extra:
        b = b.add_extension(e, critical=crit)
    return sign_cert(b, ik)


def leaf(key, cn, issuer, issuer_key, sans=None, nb=NOT_BEFORE, na=NOT_AFTER, eku=(ExtendedKeyUsageOID.SERVER_AUTH,),
         extra=(), self_signed=False, algorithm="auto", label=None, no_san=False):
    subj = name(cn)
    b = (x509.CertificateBuilder().subject_name(subj)
         .issuer_name(subj if self_signed else issuer.subject).public_key(key.public_key())
         .serial_number(serial_for(label or ("leaf:" + cn + str(nb) + str(na))))
         .not_valid_before(nb).not_valid_after(na))
    if not no_san:
        gn = []
        for s in (sans if sans is not None else [cn]):
            try:
                gn.append(x509.IPAddress(ipaddress.ip_address(s)))
            except ValueError:
                gn.append(x509.DNSName(s))
        b = b.add_extension(x509.SubjectAlternativeName(gn), critical=False)
    b = (b.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True))
    if eku:
        b = b.add_extension(x509.ExtendedKeyUsage(list(eku)), critical=False)
    b = b.add_extension(ski(key), critical=False)
    if not self_signed:
        b = b.add_extension(aki(issuer_key), critical=False)
    for e, crit in extra:
        b = b.add_extension(e, critical=crit)
    return sign_cert(b, key if self_signed else issuer_key, algorithm)


def der(c):
    return c if isinstance(c, bytes) else c.public_bytes(serialization.Encoding.DER)


def pem_all(certs):
    return b"".join(der_to_pem(der(c)) for c in certs)


def load_cert(stem):
    with open(os.path.join(CERTS, stem + ".der"), "rb") as f:
        return f.read()


MANIFEST = []


def scenario(name_, leaf_cert, intermediates, anchors, expected, reason=None, host=None, ip=None,
             at=AT, anchors_only=True, description="", kind="server"):
    path = os.path.join(CHAINS, name_)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "leaf.pem"), "wb") as f:
        f.write(pem_all([leaf_cert]))
    with open(os.path.join(path, "intermediates.pem"), "wb") as f:
        f.write(pem_all(intermediates))
    with open(os.path.join(path, "anchors.pem"), "wb") as f:
        f.write(pem_all(anchors))
    entry = {"scenario": name_}
    if host is not None:
        entry["host"] = host
    if ip is not None:
        entry["ip"] = ip
    entry.update({"kind": kind, "at": at, "anchorsOnly": anchors_only, "expected": expected})
    if reason:
        entry["reason"] = reason
    entry["description"] = description
    MANIFEST.append(entry)


def main():
    if os.path.isdir(CHAINS):
        for e in os.listdir(CHAINS):
            p = os.path.join(CHAINS, e)
            if os.path.isdir(p):
                shutil.rmtree(p)
    os.makedirs(CHAINS, exist_ok=True)

    # The ordinary fixture chains from Fixtures/certs.
    fam = {f: [load_cert("%s-%s" % (f, lvl)) for lvl in ("root", "intermediate", "leaf")]
           for f in ("rsa2048", "rsa4096", "p256", "p384", "p521")}
    R, I, L = fam["rsa2048"]
    rk, ik = load_key("rsa2048-root", "rsa2048"), load_key("rsa2048-intermediate", "rsa2048")
    root_c = x509.load_der_x509_certificate(R)
    inter_c = x509.load_der_x509_certificate(I)
    pk = load_key("chain-leaf-p256", "p256")   # one leaf key for the many generated leaves

    for f, host in (("rsa2048", None), ("rsa4096", None), ("p256", None), ("p384", None), ("p521", None)):
        r, i, l = fam[f]
        scenario("valid-%s" % f, l, [i], [r], "trusted", host="leaf.%s.sigil.test" % f,
                 description="%s root -> intermediate -> leaf, host matches the first dNSName SAN" % f)
    scenario("valid-basic-policy", L, [I], [R], "trusted", kind="basic",
             description="basic X.509 policy (no host): chain only")
    scenario("valid-anchors-plus-system", L, [I], [R], "trusted", host="leaf.rsa2048.sigil.test",
             anchors_only=False, description="custom anchor added to the system roots")
    scenario("valid-intermediate-as-anchor", L, [], [I], "trusted", host="leaf.rsa2048.sigil.test",
             description="the intermediate itself is the anchor; no root supplied anywhere")
    scenario("valid-leaf-only-intermediate-missing", L, [], [R], "untrusted", "unknownIssuer",
             host="leaf.rsa2048.sigil.test",
             description="peer sent no intermediate; anchor is the root: the path cannot be built (no AIA fetching)")
    other_root = fam["p384"][0]
    scenario("untrusted-root-not-anchor", L, [I], [other_root], "untrusted", "unknownIssuer",
             host="leaf.rsa2048.sigil.test", description="complete chain but its root is not among the anchors")
    scenario("untrusted-root-presented-not-anchor", L, [I, R], [other_root], "untrusted", "untrustedRoot",
             host="leaf.rsa2048.sigil.test",
             description="peer also presents its self-signed root, which is not an anchor: self-signed is not trusted")
    scenario("untrusted-anchors-only-false-unknown-root", L, [I, R], [other_root], "untrusted", "untrustedRoot",
             host="leaf.rsa2048.sigil.test", anchors_only=False,
             description="anchors plus system roots, none of which issued this chain")

    # --- time -----------------------------------------------------------------------------------
    scenario("expired-leaf", der(leaf(pk, "expired.sigil.test", inter_c, ik, nb=d(2020), na=d(2022))),
             [I], [R], "untrusted", "expired", host="expired.sigil.test",
             description="leaf valid 2020-2022, evaluated 2030")
    scenario("not-yet-valid-leaf", der(leaf(pk, "future.sigil.test", inter_c, ik, nb=d(2040), na=d(2045))),
             [I], [R], "untrusted", "notYetValid", host="future.sigil.test",
             description="leaf valid 2040-2045, evaluated 2030")
    old_inter = ca(ik, "Sigil Test Intermediate RSA2048", root_c, rk, nb=d(2020), na=d(2022), path_length=0)
    ok_leaf = der(leaf(pk, "inter-time.sigil.test", inter_c, ik))
    scenario("expired-intermediate", ok_leaf, [old_inter], [R], "untrusted", "expired",
             host="inter-time.sigil.test",
             description="intermediate (same name and key as the fixture one) valid 2020-2022; leaf valid")
    fut_inter = ca(ik, "Sigil Test Intermediate RSA2048", root_c, rk, nb=d(2040), na=d(2045), path_length=0)
    scenario("not-yet-valid-intermediate", ok_leaf, [fut_inter], [R], "untrusted", "notYetValid",
             host="inter-time.sigil.test", description="intermediate valid 2040-2045")
    old_root = ca(rk, "Sigil Test Root RSA2048", nb=d(2020), na=d(2022))
    scenario("expired-root", L, [I], [old_root], "untrusted", "expired", host="leaf.rsa2048.sigil.test",
             description="the anchor (same name and key as the fixture root) expired in 2022. Note: RFC 5280 "
                         "treats an anchor as key+name only; OpenSSL, Go and Apple reject an expired anchor certificate")
    fut_root = ca(rk, "Sigil Test Root RSA2048", nb=d(2040), na=d(2045))
    scenario("not-yet-valid-root", L, [I], [fut_root], "untrusted", "notYetValid", host="leaf.rsa2048.sigil.test",
             description="anchor certificate valid 2040-2045")
    # A 2000-2010 chain checked at 2005 (past time) and at 2030.
    prk = load_key("past-root", "rsa2048")
    pik = load_key("past-intermediate", "rsa2048")
    proot = ca(prk, "Sigil Past Root", nb=d(2000), na=d(2020))
    pint = ca(pik, "Sigil Past Intermediate", proot, prk, nb=d(2000), na=d(2015), path_length=0)
    pleaf = der(leaf(pk, "past.sigil.test", pint, pik, nb=d(2001), na=d(2010)))
    scenario("past-time-valid", pleaf, [pint], [proot], "trusted", host="past.sigil.test", at=unix(2005, 6, 1),
             description="chain of 2000-2010 evaluated at 2005-06-01 (a time given by the caller)")
    scenario("past-time-now-expired", pleaf, [pint], [proot], "untrusted", "expired", host="past.sigil.test",
             description="the same chain evaluated at 2030")
    scenario("past-time-before-leaf", pleaf, [pint], [proot], "untrusted", "notYetValid", host="past.sigil.test",
             at=unix(2000, 6, 1), description="the same chain evaluated at 2000-06-01, before the leaf's notBefore")

    # --- names ---------------------------------------------------------------------------------
    scenario("wrong-host", L, [I], [R], "untrusted", "nameMismatch", host="other.sigil.test",
             description="host not in the SAN")
    scenario("wrong-host-parent-domain", L, [I], [R], "untrusted", "nameMismatch", host="rsa2048.sigil.test",
             description="host is the parent domain of the SAN name")
    wl = der(leaf(pk, "wild.sigil.test", inter_c, ik, sans=["*.wild.sigil.test", "exact.sigil.test"]))
    for sc, host, exp in (("wildcard-match", "mail.wild.sigil.test", "trusted"),
                          ("wildcard-match-uppercase-host", "MAIL.Wild.Sigil.TEST", "trusted"),
                          ("wildcard-no-match-two-labels", "a.b.wild.sigil.test", "untrusted"),
                          ("wildcard-no-match-bare-domain", "wild.sigil.test", "untrusted"),
                          ("wildcard-exact-second-san", "exact.sigil.test", "trusted")):
        scenario(sc, wl, [I], [R], exp, None if exp == "trusted" else "nameMismatch", host=host,
                 description="leaf SAN dNSName *.wild.sigil.test, exact.sigil.test; host %s" % host)
    pw = der(leaf(pk, "partial.sigil.test", inter_c, ik, sans=["f*.partial.sigil.test", "*.*.sigil.test"]))
    scenario("wildcard-partial-label-rejected", pw, [I], [R], "untrusted", "nameMismatch",
             host="foo.partial.sigil.test",
             description="SAN f*.partial.sigil.test: the wildcard must be the whole left-most label (SPEC); "
                         "OpenSSL accepts partial-label wildcards, Sigil must not")
    scenario("wildcard-not-leftmost-rejected", pw, [I], [R], "untrusted", "nameMismatch",
             host="a.b.sigil.test", description="SAN *.*.sigil.test: only one wildcard, left-most label only")
    cn_only = der(leaf(pk, "cn-only.sigil.test", inter_c, ik, no_san=True))
    scenario("cn-only-no-san", cn_only, [I], [R], "untrusted", "nameMismatch", host="cn-only.sigil.test",
             description="host equals the subject CN but there is no SAN: the CN is not used (RFC 6125 / CA/B)")
    scenario("ip-san-v4", L, [I], [R], "trusted", ip="192.0.2.10", description="iPAddress SAN 192.0.2.10")
    scenario("ip-san-v6", L, [I], [R], "trusted", ip="2001:db8::10", description="iPAddress SAN 2001:db8::10")
    scenario("ip-san-mismatch", L, [I], [R], "untrusted", "nameMismatch", ip="192.0.2.11",
             description="connected to 192.0.2.11, SAN holds 192.0.2.10")
    dnsip = der(leaf(pk, "dns-ip.sigil.test", inter_c, ik, sans=["192.0.2.55"], label="dnsip"))
    scenario("ip-as-host-needs-ip-san", dnsip, [I], [R], "trusted", ip="192.0.2.55",
             description="leaf with only an iPAddress SAN, checked as IP")
    # A dNSName SAN spelled like an IP address must not satisfy an IP check.
    b = (x509.CertificateBuilder().subject_name(name("203.0.113.9")).issuer_name(inter_c.subject)
         .public_key(pk.public_key()).serial_number(serial_for("ip-in-dnsname"))
         .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
         .add_extension(x509.SubjectAlternativeName([x509.DNSName("203.0.113.9")]), critical=False)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
         .add_extension(aki(ik), critical=False))
    scenario("ip-in-dnsname-san-rejected", der(sign_cert(b, ik)), [I], [R], "untrusted", "nameMismatch",
             ip="203.0.113.9", description="the address appears only as a dNSName SAN (and CN): an IP check needs an iPAddress SAN")

    # --- CA rules ---------------------------------------------------------------------------------
    nk = load_key("chain-nonca-intermediate", "p256")
    nonca = ca(nk, "Sigil Not A CA", root_c, rk, ca_flag=False)
    scenario("non-ca-intermediate", der(leaf(pk, "nonca.sigil.test", nonca, nk)), [nonca], [R], "untrusted", "notCA",
             host="nonca.sigil.test", description="issuer has basicConstraints cA=FALSE")
    nobc = ca(nk, "Sigil No BasicConstraints", root_c, rk, bc=False)
    scenario("no-basic-constraints-intermediate", der(leaf(pk, "nobc.sigil.test", nobc, nk)), [nobc], [R],
             "untrusted", "notCA", host="nobc.sigil.test", description="v3 issuer without basicConstraints")
    noku = ca(nk, "Sigil CA Without keyCertSign", root_c, rk, ku_cert_sign=False)
    scenario("intermediate-without-keycertsign", der(leaf(pk, "noku.sigil.test", noku, nk)), [noku], [R],
             "untrusted", "keyUsage", host="noku.sigil.test",
             description="issuer is cA=TRUE but its keyUsage lacks keyCertSign")
    # pathLen: root -> I1 (pathLen 0) -> I2 (CA) -> leaf violates; with pathLen 1 it is fine.
    k1 = load_key("chain-pathlen-i1", "p256")
    k2 = load_key("chain-pathlen-i2", "p256")
    i1 = ca(k1, "Sigil PathLen Top", root_c, rk, path_length=0, label="pl-i1-0")
    i2 = ca(k2, "Sigil PathLen Bottom", i1, k1, path_length=0, label="pl-i2-under0")
    scenario("pathlen-0-violated", der(leaf(pk, "pathlen.sigil.test", i2, k2)), [i2, i1], [R], "untrusted",
             "pathTooLong", host="pathlen.sigil.test",
             description="root -> I1 (pathLen 0) -> I2 (CA) -> leaf: I1 may only sign end entities")
    i1b = ca(k1, "Sigil PathLen Top", root_c, rk, path_length=1, label="pl-i1-1")
    i2b = ca(k2, "Sigil PathLen Bottom", i1b, k1, path_length=0, label="pl-i2-under1")
    scenario("pathlen-1-ok", der(leaf(pk, "pathlen.sigil.test", i2b, k2)), [i2b, i1b], [R], "trusted",
             host="pathlen.sigil.test", description="the same shape with pathLen 1 on I1: valid")
    # Shuffled intermediates with junk and a decoy that has the right name but another key.
    dk = load_key("chain-decoy", "p256")
    decoy = ca(dk, "Sigil PathLen Bottom", i1b, k1, path_length=0, label="decoy")
    junk = [load_cert("p384-intermediate"), load_cert("ed25519-root"), load_cert("rsa4096-root")]
    scenario("shuffled-intermediates-with-junk", der(leaf(pk, "pathlen.sigil.test", i2b, k2)),
             [junk[0], decoy, i1b, junk[1], i2b, junk[2]], [R], "trusted", host="pathlen.sigil.test",
             description="intermediates out of order, unrelated certificates, and a decoy CA with the issuer's "
                         "exact subject name but a different key (its signature check fails)")

    # Cross-signed root with one expired path (the Let's Encrypt / DST Root CA X3 shape).
    newk = load_key("chain-new-root", "p256")
    oldk = load_key("chain-old-root", "p256")
    new_root = ca(newk, "Sigil New Root", label="new-root")
    old_root2 = ca(oldk, "Sigil Old Root", nb=d(2015), na=d(2028), label="old-root")
    cross = ca(newk, "Sigil New Root", old_root2, oldk, nb=d(2020), na=d(2032), label="cross")
    xik = load_key("chain-cross-intermediate", "p256")
    xi = ca(xik, "Sigil Cross Intermediate", new_root, newk, path_length=0, label="cross-int")
    xl = der(leaf(pk, "cross.sigil.test", xi, xik))
    scenario("cross-signed-new-root-anchor", xl, [xi, cross], [old_root2, new_root], "trusted",
             host="cross.sigil.test",
             description="peer sends leaf, intermediate and the new root cross-signed by the old root (expired 2028); "
                         "anchors hold both roots: the path ending at the self-signed new root is valid")
    scenario("cross-signed-only-old-root-anchor", xl, [xi, cross], [old_root2], "untrusted", "expired",
             host="cross.sigil.test", description="only the expired old root is an anchor: the only path ends there")
    scenario("cross-signed-old-root-before-expiry", xl, [xi, cross], [old_root2], "trusted",
             host="cross.sigil.test", at=unix(2026, 1, 1),
             description="same as above evaluated at 2026, when the old root was still valid")

    # Self-signed leaf.
    sk = load_key("chain-self-signed", "p256")
    ssl = der(leaf(sk, "self.sigil.test", None, None, self_signed=True))
    scenario("self-signed-leaf-not-anchor", ssl, [], [R], "untrusted", "untrustedRoot", host="self.sigil.test",
             description="self-signed end-entity certificate, not an anchor: self-signed never means trusted")
    scenario("self-signed-leaf-is-anchor", ssl, [], [ssl], "trusted", host="self.sigil.test",
             description="the same certificate supplied as the caller's anchor (a pinned self-signed server)")

    # Extensions, signatures, algorithms.
    unk = x509.UnrecognizedExtension(ObjectIdentifier("1.3.6.1.4.1.55555.9.9"), tlv(0x05, b""))
    scenario("unknown-critical-extension-leaf", der(leaf(pk, "crit.sigil.test", inter_c, ik, extra=[(unk, True)])),
             [I], [R], "untrusted", "unsupportedCriticalExtension", host="crit.sigil.test",
             description="leaf carries an unknown private extension marked critical")
    uk = load_key("chain-critical-intermediate", "p256")
    ci = ca(uk, "Sigil Critical Intermediate", root_c, rk, path_length=0, extra=[(unk, True)])
    scenario("unknown-critical-extension-intermediate", der(leaf(pk, "crit2.sigil.test", ci, uk)), [ci], [R],
             "untrusted", "unsupportedCriticalExtension", host="crit2.sigil.test",
             description="intermediate carries an unknown critical extension")
    scenario("unknown-noncritical-extension-ok",
             der(leaf(pk, "noncrit.sigil.test", inter_c, ik, extra=[(unk, False)])), [I], [R], "trusted",
             host="noncrit.sigil.test", description="the same unknown extension, non-critical: ignored")
    tampered = bytearray(L)
    tampered[-10] ^= 0x01
    scenario("tampered-signature-leaf", bytes(tampered), [I], [R], "untrusted", "badSignature",
             host="leaf.rsa2048.sigil.test", description="one bit of the leaf's signature flipped")
    tbs_t = bytearray(L)
    pos = L.find(b"leaf.rsa2048.sigil.test")
    tbs_t[pos] = ord("l") ^ 0x20  # 'L'
    scenario("tampered-tbs-leaf", bytes(tbs_t), [I], [R], "untrusted", "badSignature",
             host="leaf.rsa2048.sigil.test",
             description="one byte of the leaf's subject changed after signing (first 'l' of the CN -> 'L')")
    ti = bytearray(I)
    ti[-5] ^= 0x80
    scenario("tampered-signature-intermediate", L, [bytes(ti)], [R], "untrusted", "badSignature",
             host="leaf.rsa2048.sigil.test", description="one bit of the intermediate's signature flipped")
    scenario("sha1-signature-rejected", load_cert("sha1-rsa-signature"), [I], [R], "untrusted", "weakAlgorithm",
             host="sha1-rsa.sigil.test", description="leaf signed with sha1WithRSAEncryption")
    scenario("md5-signature-rejected", load_cert("md5-rsa-signature"), [I], [R], "untrusted", "weakAlgorithm",
             host="md5-rsa.sigil.test", description="leaf signed with md5WithRSAEncryption")
    scenario("rsa1024-key-rejected", load_cert("rsa1024-leaf"), [I], [R], "untrusted", "weakKey",
             host="rsa1024.sigil.test", description="leaf has an RSA-1024 key")
    scenario("eku-client-only", der(leaf(pk, "client.sigil.test", inter_c, ik, eku=(ExtendedKeyUsageOID.CLIENT_AUTH,))),
             [I], [R], "untrusted", "keyUsage", host="client.sigil.test",
             description="leaf EKU is clientAuth only; SSL server policy needs serverAuth")
    scenario("eku-absent-ok", der(leaf(pk, "noeku.sigil.test", inter_c, ik, eku=())), [I], [R], "trusted",
             host="noeku.sigil.test", description="no EKU extension: any usage (RFC 5280 §4.2.1.12)")

    # A loop with no anchor: two CAs that certify each other. Must terminate, untrusted.
    la, lb = load_key("chain-loop-a", "p256"), load_key("chain-loop-b", "p256")
    la_self = ca(la, "Sigil Loop A", label="loop-a-self")
    lb_by_a = ca(lb, "Sigil Loop B", la_self, la, label="loop-b")
    lb_c = x509.load_der_x509_certificate(der(lb_by_a))
    la_by_b = ca(la, "Sigil Loop A", lb_c, lb, label="loop-a")
    loop_leaf = der(leaf(pk, "loop.sigil.test", lb_c, lb))
    scenario("loop-without-anchor", loop_leaf, [lb_by_a, la_by_b], [R], "untrusted", "unknownIssuer",
             host="loop.sigil.test", description="B signed by A, A signed by B, no anchor: the builder must stop")

    # Name constraints (a CA with only nameConstraints, so no policy processing is involved).
    nck = load_key("chain-nc-ca", "p256")
    nc = x509.NameConstraints(permitted_subtrees=[x509.DNSName("ok.sigil.test")],
                              excluded_subtrees=[x509.DNSName("bad.ok.sigil.test")])
    ncca = ca(nck, "Sigil Name Constrained CA", root_c, rk, path_length=0, extra=[(nc, True)])
    scenario("name-constraints-permitted", der(leaf(pk, "www.ok.sigil.test", ncca, nck)), [ncca], [R], "trusted",
             host="www.ok.sigil.test", description="CA permits ok.sigil.test, leaf www.ok.sigil.test")
    scenario("name-constraints-excluded", der(leaf(pk, "x.bad.ok.sigil.test", ncca, nck)), [ncca], [R],
             "untrusted", "nameConstraints", host="x.bad.ok.sigil.test",
             description="leaf name in the excluded subtree bad.ok.sigil.test")
    scenario("name-constraints-outside", der(leaf(pk, "www.other.sigil.test", ncca, nck)), [ncca], [R],
             "untrusted", "nameConstraints", host="www.other.sigil.test",
             description="leaf name outside the permitted subtree")

    with open(os.path.join(CHAINS, "manifest.json"), "w") as f:
        json.dump(MANIFEST, f, indent=1)
        f.write("\n")
    print("chains: %d scenarios" % len(MANIFEST))


if __name__ == "__main__":
    main()
