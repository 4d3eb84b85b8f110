#!/usr/bin/env python3
"""Generates Fixtures/tls/: chains and keys served by the SigilNIO loopback tests
(openssl s_server and a NIO server on 127.0.0.1) and by Scripts/ci-nio.sh.

  root  -> int  -> leaf            DNS:sigil.test, DNS:localhost (no IP SAN: connecting to
                                   127.0.0.1 needs the host override), serverAuth
  root  -> int  -> leaf-expired    same names, expired 2021-01-01
  root  -> int  -> leaf-ats        same names, 2025-01-01 .. 2025-12-31 (ATS validity ≤ 398
                                   days; check it with --at inside that year)
  root  -> int  -> leaf-ats-rsa    the same with an RSA-2048 key (RSA key exchange, i.e. cipher
                                   suites without forward secrecy, needs an RSA certificate)
  rogue-root -> rogue-leaf         DNS:sigil.test, serverAuth: another trusted CA mis-issuing
                                   (the appended-pinned-certificate attack serves
                                   rogue-leaf + int: int is pinned but not on the valid path)
  root  -> int  -> client          clientAuth, email:alice@sigil.test, CN=alice
  root  -> int  -> client-expired  clientAuth, expired
  root  -> int  -> client-server   serverAuth only (wrong purpose for a client)
  rogue-root -> client-unknown     clientAuth, from an unknown CA

EC P-256 keys (fast handshakes). Valid certificates run 2025-01-01 .. 2045-01-01 (the
tests do not rot; the server profile in Sigil does not cap validity, ATS does and says so).
Run from the repository root: python3 Fixtures/scripts/gen-tls.py
"""
import datetime, os
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tls")
os.makedirs(OUT, exist_ok=True)
D = datetime.datetime
GOOD = (D(2025, 1, 1), D(2045, 1, 1))
EXPIRED = (D(2020, 1, 1), D(2021, 1, 1))


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sigil Test"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def key():
    return ec.generate_private_key(ec.SECP256R1())


def ski(k):
    return x509.SubjectKeyIdentifier.from_public_key(k.public_key())


def make(cn, k, issuer=None, ca=False, sans=(), eku=None, validity=GOOD, key_encipherment=False):
    ik, icert = issuer if issuer else (k, None)
    b = (x509.CertificateBuilder()
         .subject_name(name(cn))
         .issuer_name(icert.subject if icert else name(cn))
         .public_key(k.public_key())
         .serial_number(x509.random_serial_number())
         .not_valid_before(validity[0]).not_valid_after(validity[1])
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(ski(k), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), critical=False))
    if ca:
        b = b.add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                          data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                          crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
    else:
        b = b.add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=key_encipherment,
                                          data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                          crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName(list(sans)), critical=False)
    if eku:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
    return b.sign(ik, hashes.SHA256())


def save(stem, cert, k=None):
    with open(os.path.join(OUT, stem + ".pem"), "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(OUT, stem + ".der"), "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.DER))
    if k is not None:
        with open(os.path.join(OUT, stem + ".key"), "wb") as f:
            f.write(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))


server_names = [x509.DNSName("sigil.test"), x509.DNSName("localhost")]
SA, CA_ = [ExtendedKeyUsageOID.SERVER_AUTH], [ExtendedKeyUsageOID.CLIENT_AUTH]

rk = key(); root = make("Sigil Test Root", rk, ca=True); save("root", root, rk)
ik = key(); inter = make("Sigil Test Intermediate", ik, (rk, root), ca=True); save("int", inter, ik)
lk = key(); save("leaf", make("sigil.test", lk, (ik, inter), sans=server_names, eku=SA), lk)
ek = key(); save("leaf-expired", make("sigil.test", ek, (ik, inter), sans=server_names, eku=SA, validity=EXPIRED), ek)
ak = key(); save("leaf-ats", make("sigil.test", ak, (ik, inter), sans=server_names, eku=SA, validity=(D(2025, 1, 1), D(2025, 12, 31))), ak)
rsak = rsa.generate_private_key(public_exponent=65537, key_size=2048)
save("leaf-ats-rsa", make("sigil.test", rsak, (ik, inter), sans=server_names, eku=SA, validity=(D(2025, 1, 1), D(2025, 12, 31)), key_encipherment=True), rsak)
gk = key(); rogue = make("Rogue Test Root", gk, ca=True); save("rogue-root", rogue, gk)
xk = key(); save("rogue-leaf", make("sigil.test", xk, (gk, rogue), sans=server_names, eku=SA), xk)
ck = key(); save("client", make("alice", ck, (ik, inter), sans=[x509.RFC822Name("alice@sigil.test")], eku=CA_), ck)
cek = key(); save("client-expired", make("bob", cek, (ik, inter), sans=[x509.RFC822Name("bob@sigil.test")], eku=CA_, validity=EXPIRED), cek)
csk = key(); save("client-server", make("carol", csk, (ik, inter), sans=[x509.RFC822Name("carol@sigil.test")], eku=SA), csk)
cuk = key(); save("client-unknown", make("mallory", cuk, (gk, rogue), sans=[x509.RFC822Name("mallory@sigil.test")], eku=CA_), cuk)
print("wrote", OUT)
