#!/usr/bin/env python3
"""Generates Fixtures/certs/: chains per key family, a name-constrained CA, unusual-but-valid
certificates and the PEM bundles. Keys come from Fixtures/keys/ (created on first run)."""
import datetime
import ipaddress
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.x509.name import _ASN1Type
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

UTC = datetime.timezone.utc
PRIVATE_ARC = "1.3.6.1.4.1.55555"   # unassigned-looking private arc used for test OIDs
UPN = ObjectIdentifier("1.3.6.1.4.1.311.20.2.3")
SCT_OID = ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")

FAMILIES = ["rsa2048", "rsa3072", "rsa4096", "p256", "p384", "p521"]

written = {}


def emit(cert, stem):
    der = write_cert(cert, stem)
    written[stem] = der
    return der


def ski_ext(key):
    return x509.SubjectKeyIdentifier.from_public_key(key.public_key())


def aki_ext(issuer_key):
    return x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key())


def base_builder(subject, issuer, pub, serial, nb=NOT_BEFORE, na=NOT_AFTER):
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(pub)
            .serial_number(serial).not_valid_before(nb).not_valid_after(na))


def make_root(key, cn, label):
    subj = name(cn)
    b = (base_builder(subj, subj, key.public_key(), serial_for(label))
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
         .add_extension(ski_ext(key), critical=False))
    return sign_cert(b, key)


def make_intermediate(key, cn, issuer_cert, issuer_key, label, path_length=0):
    b = (base_builder(name(cn), issuer_cert.subject, key.public_key(), serial_for(label))
         .add_extension(x509.BasicConstraints(ca=True, path_length=path_length), critical=True)
         .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
         .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
         .add_extension(aki_ext(issuer_key), critical=False)
         .add_extension(ski_ext(key), critical=False))
    return sign_cert(b, issuer_key)


def sct_list():
    """A plausible RFC 6962 SignedCertificateTimestampList (TLS encoding) with two SCTs, wrapped
    in an OCTET STRING as the extension value requires. The signatures are not real SCT
    signatures (no log signed these), but they are well-formed ECDSA DER."""
    log_key = load_key("sct-log-p256", "p256")
    scts = b""
    for i, ts in enumerate((1735689600000, 1735689601234)):
        log_id = hashlib.sha256(b"sigil test log %d" % i).digest()
        sig = log_key.sign(b"sct %d" % i, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
        body = (b"\x00" + log_id + struct.pack(">Q", ts) + struct.pack(">H", 0)
                + b"\x04\x03" + struct.pack(">H", len(sig)) + sig)
        scts += struct.pack(">H", len(body)) + body
    blob = struct.pack(">H", len(scts)) + scts
    return tlv(0x04, blob)


def leaf_extensions(fam, leaf_key, inter_cert, inter_key, full_aki=False):
    host = "leaf.%s.sigil.test" % fam
    san = x509.SubjectAlternativeName([
        x509.DNSName(host),
        x509.DNSName("*.wild.%s.sigil.test" % fam),
        x509.IPAddress(ipaddress.ip_address("192.0.2.10")),
        x509.IPAddress(ipaddress.ip_address("2001:db8::10")),
        x509.RFC822Name("leaf@%s.sigil.test" % fam),
        x509.UniformResourceIdentifier("https://%s/service" % host),
        x509.DirectoryName(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                                      x509.NameAttribute(NameOID.COMMON_NAME, "Directory Name " + fam)])),
        x509.OtherName(UPN, tlv(0x0C, ("upn-user@%s.sigil.test" % fam).encode())),
        x509.RegisteredID(ObjectIdentifier(PRIVATE_ARC + ".3.1")),
    ])
    if full_aki:
        aki = x509.AuthorityKeyIdentifier(
            key_identifier=x509.SubjectKeyIdentifier.from_public_key(inter_key.public_key()).digest,
            authority_cert_issuer=[x509.DirectoryName(inter_cert.issuer)],
            authority_cert_serial_number=inter_cert.serial_number)
    else:
        aki = aki_ext(inter_key)
    policies = x509.CertificatePolicies([
        x509.PolicyInformation(ObjectIdentifier(PRIVATE_ARC + ".2.1"), ["https://sigil.test/cps"]),
        x509.PolicyInformation(ObjectIdentifier(PRIVATE_ARC + ".2.2"), [
            x509.UserNotice(x509.NoticeReference("Sigil Test PKI", [1, 2]),
                            "Test certificate, no assurance whatsoever")]),
    ])
    aia = x509.AuthorityInformationAccess([
        x509.AccessDescription(x509.oid.AuthorityInformationAccessOID.OCSP,
                               x509.UniformResourceIdentifier("http://ocsp.sigil.test/%s" % fam)),
        x509.AccessDescription(x509.oid.AuthorityInformationAccessOID.CA_ISSUERS,
                               x509.UniformResourceIdentifier("http://ca.sigil.test/%s-intermediate.der" % fam)),
    ])
    crldp = x509.CRLDistributionPoints([x509.DistributionPoint(
        [x509.UniformResourceIdentifier("http://crl.sigil.test/%s.crl" % fam)], None, None, None)])
    fresh = x509.FreshestCRL([x509.DistributionPoint(
        [x509.UniformResourceIdentifier("http://crl.sigil.test/%s-delta.crl" % fam)], None, None, None)])
    return [
        (san, False),
        (x509.KeyUsage(True, False, True, False, False, False, False, False, False), True),
        (x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), False),
        (x509.BasicConstraints(ca=False, path_length=None), True),
        (ski_ext(leaf_key), False),
        (aki, False),
        (policies, False),
        (aia, False),
        (crldp, False),
        (fresh, False),
        (x509.UnrecognizedExtension(SCT_OID, sct_list()), False),
        (x509.UnrecognizedExtension(ObjectIdentifier(PRIVATE_ARC + ".1.1"),
                                    tlv(0x0C, b"sigil private extension")), False),
    ]


def make_leaf(fam, key, inter_cert, inter_key, label, full_aki=False, algorithm="auto", subject=None, **kw):
    subj = subject or name("leaf.%s.sigil.test" % fam)
    b = base_builder(subj, inter_cert.subject, key.public_key(), serial_for(label))
    for ext, crit in leaf_extensions(fam, key, inter_cert, inter_key, full_aki):
        b = b.add_extension(ext, critical=crit)
    return sign_cert(b, inter_key, algorithm, **kw)


def simple_leaf(cn, key, issuer_cert, issuer_key, label, algorithm="auto", nb=NOT_BEFORE, na=NOT_AFTER,
                serial=None, subject=None, **kw):
    """A plain end-entity certificate with a small extension set."""
    b = (base_builder(subject or name(cn), issuer_cert.subject if issuer_cert is not None else name(cn),
                      key.public_key(), serial if serial is not None else serial_for(label), nb, na)
         .add_extension(x509.SubjectAlternativeName([x509.DNSName(cn)]), critical=False)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
         .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
         .add_extension(ski_ext(key), critical=False)
         .add_extension(aki_ext(issuer_key), critical=False))
    return sign_cert(b, issuer_key, algorithm, **kw)


# --- surgery helpers ----------------------------------------------------------------------------

def der_of(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def set_sig_alg(cert_node, alg_der):
    """Replace both AlgorithmIdentifiers (TBS signature and outer signatureAlgorithm)."""
    alg = parse(alg_der)
    cert_node[0].children[2] = alg
    cert_node.children[1] = parse(alg_der)


def main():
    os.makedirs(CERTS, exist_ok=True)
    chains = {}
    # 1. Chains per family ------------------------------------------------------------------------
    for fam in FAMILIES:
        kind = fam
        rk = load_key(fam + "-root", kind)
        ik = load_key(fam + "-intermediate", kind)
        lk = load_key(fam + "-leaf", kind)
        root = make_root(rk, "Sigil Test Root %s" % fam.upper(), fam + "-root")
        inter = make_intermediate(ik, "Sigil Test Intermediate %s" % fam.upper(), root, rk, fam + "-intermediate")
        leaf = make_leaf(fam, lk, inter, ik, fam + "-leaf", full_aki=(fam == "rsa2048"))
        emit(root, fam + "-root")
        emit(inter, fam + "-intermediate")
        emit(leaf, fam + "-leaf")
        chains[fam] = (root, rk, inter, ik, leaf, lk)

    root, rk, inter, ik, leaf, lk = chains["rsa2048"]

    # 2. Name-constrained, policy-mapping CA (under the RSA-2048 root) and a leaf it issued ------
    nck = load_key("nc-ca", "rsa2048")
    dn_perm = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI")])
    dn_excl = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                         x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Forbidden")])
    nc = x509.NameConstraints(
        permitted_subtrees=[
            x509.DNSName("permitted.sigil.test"),
            x509.IPAddress(ipaddress.ip_network("192.0.2.0/24")),
            x509.IPAddress(ipaddress.ip_network("2001:db8::/32")),
            x509.RFC822Name("permitted.sigil.test"),
            x509.UniformResourceIdentifier(".permitted.sigil.test"),
            x509.DirectoryName(dn_perm),
        ],
        excluded_subtrees=[
            x509.DNSName("excluded.permitted.sigil.test"),
            x509.IPAddress(ipaddress.ip_network("192.0.2.128/25")),
            x509.IPAddress(ipaddress.ip_network("2001:db8:dead::/48")),
            x509.RFC822Name("blocked@permitted.sigil.test"),
            x509.UniformResourceIdentifier("excluded.permitted.sigil.test"),
            x509.DirectoryName(dn_excl),
        ])
    # policyMappings has no builder class in `cryptography`: hand-encoded.
    pm = tlv(0x30, tlv(0x30, oid_der(PRIVATE_ARC + ".2.1") + oid_der(PRIVATE_ARC + ".2.11"))
             + tlv(0x30, oid_der(PRIVATE_ARC + ".2.2") + oid_der(PRIVATE_ARC + ".2.12")))
    ncb = (base_builder(x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                                   x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                                   x509.NameAttribute(NameOID.COMMON_NAME, "Sigil Test Constrained CA")]),
                        root.subject, nck.public_key(), serial_for("nc-ca"))
           .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
           .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
           .add_extension(nc, critical=True)
           .add_extension(x509.CertificatePolicies([x509.PolicyInformation(ObjectIdentifier("2.5.29.32.0"), None)]), critical=False)
           .add_extension(x509.UnrecognizedExtension(ObjectIdentifier("2.5.29.33"), pm), critical=True)
           .add_extension(x509.PolicyConstraints(require_explicit_policy=0, inhibit_policy_mapping=1), critical=True)
           .add_extension(x509.InhibitAnyPolicy(0), critical=True)
           .add_extension(aki_ext(rk), critical=False)
           .add_extension(ski_ext(nck), critical=False))
    nc_ca = sign_cert(ncb, rk)
    emit(nc_ca, "nameconstraints-ca")
    ncl_key = load_key("nc-leaf", "p256")
    ncl = (base_builder(x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                                   x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test PKI"),
                                   x509.NameAttribute(NameOID.COMMON_NAME, "www.permitted.sigil.test")]),
                        nc_ca.subject, ncl_key.public_key(), serial_for("nc-leaf"))
           .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.permitted.sigil.test"),
                                                       x509.IPAddress(ipaddress.ip_address("192.0.2.20")),
                                                       x509.RFC822Name("user@permitted.sigil.test")]), critical=False)
           .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
           .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
           .add_extension(x509.CertificatePolicies([x509.PolicyInformation(ObjectIdentifier(PRIVATE_ARC + ".2.11"), None)]), critical=False)
           .add_extension(aki_ext(nck), critical=False))
    emit(sign_cert(ncl, nck, hashes.SHA256()), "nameconstraints-leaf")

    # 3. Unusual but valid -------------------------------------------------------------------------
    # v1: no version field, no extensions (built as v3 without extensions, then the [0] version
    # removed and the TBS re-signed by the RSA-2048 intermediate).
    v1k = load_key("v1-leaf", "rsa2048")
    v1 = base_builder(name("v1.sigil.test"), inter.subject, v1k.public_key(), serial_for("v1")).sign(ik, hashes.SHA256())
    node = parse(der_of(v1))
    assert node[0][0].tag == 0xA0
    del node[0].children[0]
    emit(resign(node, ik), "v1")

    # Names with every string type, many attribute types, a multi-valued RDN, domainComponent.
    nk = load_key("names-leaf", "p256")
    A = x509.NameAttribute
    rich = x509.Name([
        x509.RelativeDistinguishedName([A(NameOID.DOMAIN_COMPONENT, "test")]),
        x509.RelativeDistinguishedName([A(NameOID.DOMAIN_COMPONENT, "sigil")]),
        x509.RelativeDistinguishedName([A(NameOID.COUNTRY_NAME, "FR", _type=_ASN1Type.PrintableString)]),
        x509.RelativeDistinguishedName([A(NameOID.STATE_OR_PROVINCE_NAME, "Île-de-France", _type=_ASN1Type.UTF8String)]),
        x509.RelativeDistinguishedName([A(NameOID.LOCALITY_NAME, "Zürich Ωmega", _type=_ASN1Type.BMPString)]),
        x509.RelativeDistinguishedName([A(NameOID.STREET_ADDRESS, "1 Rue de Test", _type=_ASN1Type.UTF8String)]),
        x509.RelativeDistinguishedName([A(NameOID.POSTAL_CODE, "75001", _type=_ASN1Type.PrintableString)]),
        x509.RelativeDistinguishedName([A(NameOID.ORGANIZATION_NAME, "Sigil Teletex Org", _type=_ASN1Type.T61String)]),
        x509.RelativeDistinguishedName([A(NameOID.ORGANIZATIONAL_UNIT_NAME, "Ünits \U0001D11E", _type=_ASN1Type.UniversalString)]),
        x509.RelativeDistinguishedName([A(NameOID.ORGANIZATIONAL_UNIT_NAME, "Multi A"),
                                        A(NameOID.ORGANIZATIONAL_UNIT_NAME, "Multi B")]),
        x509.RelativeDistinguishedName([A(NameOID.TITLE, "Test Subject"),
                                        A(NameOID.GIVEN_NAME, "Ada"), A(NameOID.SURNAME, "Lovelace")]),
        x509.RelativeDistinguishedName([A(NameOID.SERIAL_NUMBER, "SN-0042", _type=_ASN1Type.PrintableString)]),
        x509.RelativeDistinguishedName([A(NameOID.USER_ID, "ada42")]),
        x509.RelativeDistinguishedName([A(NameOID.EMAIL_ADDRESS, "ada@sigil.test", _type=_ASN1Type.IA5String)]),
        x509.RelativeDistinguishedName([A(NameOID.COMMON_NAME, "名前 names.sigil.test", _type=_ASN1Type.UTF8String)]),
    ])
    emit(simple_leaf("names.sigil.test", nk, inter, ik, "names", subject=rich), "names-string-types")

    sk = load_key("serial-leaf", "p256")
    emit(simple_leaf("serial20.sigil.test", sk, inter, ik, "serial20",
                     serial=int.from_bytes(b"\x7f" + hashlib.sha256(b"serial20").digest()[:19], "big")),
         "serial-20-octets")
    emit(simple_leaf("serial-highbit.sigil.test", sk, inter, ik, "serial-highbit",
                     serial=0x8BADF00DDEADBEEF0123), "serial-leading-zero")
    emit(simple_leaf("gt2050.sigil.test", sk, inter, ik, "gt2050",
                     na=datetime.datetime(2051, 6, 30, 12, 0, 0, tzinfo=UTC)), "notafter-generalizedtime-2051")
    emit(simple_leaf("utc1999.sigil.test", sk, inter, ik, "utc1999",
                     nb=datetime.datetime(1999, 6, 15, 8, 30, 0, tzinfo=UTC)), "notbefore-utctime-1999")

    # RSA-PSS signature (explicit RSASSA-PSS-params: SHA-256, MGF1-SHA-256, salt 32).
    pk = load_key("pss-leaf", "rsa2048")
    emit(simple_leaf("pss-sig.sigil.test", pk, inter, ik, "pss-sig",
                     rsa_padding=padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)),
         "rsa-pss-signature")
    # RSASSA-PSS key: SPKI algorithm id-RSASSA-PSS (parameters absent, RFC 4055 §1.2), signed
    # with PKCS#1 v1.5 by the RSA-2048 intermediate.
    c = simple_leaf("pss-key.sigil.test", pk, inter, ik, "pss-key")
    node = parse(der_of(c))
    spki = node[0][6]
    spki.children[0] = parse(tlv(0x30, oid_der("1.2.840.113549.1.1.10")))
    emit(resign(node, ik), "rsa-pss-key")

    # EdDSA.
    e1 = load_key("ed25519-root", "ed25519")
    e1root = make_root(e1, "Sigil Test Root Ed25519", "ed25519-root")
    emit(e1root, "ed25519-root")
    e1l = load_key("ed25519-leaf", "ed25519")
    emit(simple_leaf("ed25519.sigil.test", e1l, e1root, e1, "ed25519-leaf"), "ed25519-leaf")
    emit(simple_leaf("ed25519-rsa.sigil.test", e1l, inter, ik, "ed25519-leaf-rsa"), "ed25519-leaf-rsa-issuer")
    e4 = load_key("ed448-root", "ed448")
    e4root = make_root(e4, "Sigil Test Root Ed448", "ed448-root")
    emit(e4root, "ed448-root")
    e4l = load_key("ed448-leaf", "ed448")
    emit(simple_leaf("ed448.sigil.test", e4l, e4root, e4, "ed448-leaf"), "ed448-leaf")

    # Legacy digests: built with SHA-256, algorithm identifiers swapped, signed by hand.
    lgk = load_key("legacy-leaf", "rsa2048")
    for dname, oid in (("sha1", "1.2.840.113549.1.1.5"), ("md5", "1.2.840.113549.1.1.4")):
        c = simple_leaf("%s-rsa.sigil.test" % dname, lgk, inter, ik, dname + "-rsa")
        node = parse(der_of(c))
        set_sig_alg(node, tlv(0x30, oid_der(oid) + b"\x05\x00"))
        tbs = serialize(node[0])
        node[2].content = b"\x00" + rsa_pkcs1_sign_raw(ik, tbs, dname)
        emit(serialize(node), "%s-rsa-signature" % dname)

    k1024 = load_key("rsa1024-leaf", "rsa1024")
    emit(simple_leaf("rsa1024.sigil.test", k1024, inter, ik, "rsa1024"), "rsa1024-leaf")

    p256root, p256rk, p256inter, p256ik, _, _ = chains["p256"]
    k = load_key("p256-sha512-leaf", "p256")
    emit(simple_leaf("p256-sha512.sigil.test", k, p256inter, p256ik, "p256-sha512", algorithm=hashes.SHA512()),
         "p256-ecdsa-sha512")

    # 4. Bundles -----------------------------------------------------------------------------------
    throwaway = load_key("bundle-throwaway", "p256")  # only appears in the bundle, signs nothing
    kpem = throwaway.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()).decode()
    parts = [
        "Sigil test bundle: several certificates with text around them.\n",
        "Subject: CN=leaf.rsa2048.sigil.test (leaf)\n",
        der_to_pem(written["rsa2048-leaf"]).decode(),
        "\n\n",
        "# The intermediate that issued it\n",
        der_to_pem(written["rsa2048-intermediate"]).decode(),
        "\n",
        "A throwaway private key follows (not a certificate; readers must skip it):\n",
        kpem,
        "\n",
        der_to_pem(written["p256-leaf"]).decode(),
        "   \n",
        "Root last:\n",
        der_to_pem(written["rsa2048-root"]).decode(),
        "trailing text\n",
    ]
    text = "".join(parts)
    with open(os.path.join(CERTS, "bundle.pem"), "w", newline="\n") as f:
        f.write(text)
    with open(os.path.join(CERTS, "bundle-crlf.pem"), "w", newline="\n") as f:
        f.write(text.replace("\n", "\r\n"))


if __name__ == "__main__":
    main()
