#!/usr/bin/env python3
"""Fixtures for OpenSSL's TRUSTED CERTIFICATE trust settings (X509_CERT_AUX: the purposes an
anchor is trusted / rejected for). Python `cryptography` makes the certificates, the openssl CLI
the blocks (`openssl x509 -addtrust … -addreject … -trustout`, as LFS make-ca and the older
Fedora/openSUSE bundle scripts write distrusted roots). Run from anywhere:
python3 Fixtures/scripts/gen_trust_settings.py, rewrites Fixtures/trust-settings/.

root.pem (plain), leaf.pem (serverAuth + clientAuth, SAN DNS leaf.trust.sigil.test, issued by
the root), and the root as TRUSTED CERTIFICATE with:
  root-trustout.pem     -trustout with no settings (no aux written)
  root-reject-sa.pem    -addreject serverAuth
  root-reject-any.pem   -addreject anyExtendedKeyUsage
  root-trust-sa.pem     -addtrust serverAuth
  root-trust-email.pem  -addtrust emailProtection
  root-trust-any.pem    -addtrust anyExtendedKeyUsage
  root-bad-aux.pem      a hand-made block: the certificate, then 30 03 02 01 00 (not an aux)
  plain-then-reject.pem / reject-then-plain.pem: root.pem and root-reject-sa.pem in one bundle
  leaf-reject-sa.pem    the leaf itself as TRUSTED CERTIFICATE, -addreject serverAuth
  root-reissued.pem     the root's name and key, re-issued (plain); cross.pem: the root's name
                        and key cross-signed by other-root.pem; bundles reject-plus-reissued,
                        reissued-plus-reject, reject-plus-other (verdicts.json "paths": server
                        purpose, openssl's verdict and Sigil's expected one)
verdicts.json "openssl": for each anchor file and each purpose (server: -purpose sslserver
-verify_hostname; client: -purpose sslclient; none: no -purpose), openssl verify's verdict
(`openssl verify -x509_strict -attime AT -no-CApath -no-CAfile -CAfile ANCHOR leaf.pem`);
"expected": what the tests expect of Sigil — OpenSSL's verdicts but one (see below). The leaf-as-anchor file is checked with -partial_chain. The bad-aux
block is not readable by openssl at all (its verdicts are recorded as refused: Sigil fails
closed, a block OpenSSL cannot read trusts nothing). Verification time 2030-01-01 = 1893456000."""
import base64, datetime, json, os, subprocess
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "trust-settings")
NOW = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
AT = "1893456000"
HOST = "leaf.trust.sigil.test"

def nm(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
def path(n): return os.path.join(OUT, n)
def write(n, data): open(path(n), "wb").write(data)

def ca(subject, issuer, key, signer, before, after, aki_key=None):
    """A CA certificate (basicConstraints CA, keyCertSign + cRLSign, SKI; AKI when issued by
    another key), valid from NOW - before days to NOW + after days."""
    b = (x509.CertificateBuilder().subject_name(nm(subject)).issuer_name(nm(issuer)).public_key(key.public_key())
         .serial_number(x509.random_serial_number())
         .not_valid_before(NOW - datetime.timedelta(days=before)).not_valid_after(NOW + datetime.timedelta(days=after))
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    if aki_key is not None:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(aki_key.public_key()), critical=False)
    return b.sign(signer, hashes.SHA256())

rk = ec.generate_private_key(ec.SECP256R1())
root = ca("Trust Settings Root", "Trust Settings Root", rk, rk, 365, 3650)
lk = ec.generate_private_key(ec.SECP256R1())
leaf = (x509.CertificateBuilder().subject_name(nm(HOST)).issuer_name(nm("Trust Settings Root"))
        .public_key(lk.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(NOW - datetime.timedelta(days=30)).not_valid_after(NOW + datetime.timedelta(days=300))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                       critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(lk.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(rk.public_key()), critical=False)
        .sign(rk, hashes.SHA256()))
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT): os.remove(path(f))
write("root.pem", root.public_bytes(serialization.Encoding.PEM))
write("leaf.pem", leaf.public_bytes(serialization.Encoding.PEM))

def trustout(src, dst, *args):
    subprocess.run(["openssl", "x509", "-in", path(src), *args, "-trustout", "-out", path(dst)], check=True)

trustout("root.pem", "root-trustout.pem")
trustout("root.pem", "root-reject-sa.pem", "-addreject", "serverAuth")
trustout("root.pem", "root-reject-any.pem", "-addreject", "anyExtendedKeyUsage")
trustout("root.pem", "root-trust-sa.pem", "-addtrust", "serverAuth")
trustout("root.pem", "root-trust-email.pem", "-addtrust", "emailProtection")
trustout("root.pem", "root-trust-any.pem", "-addtrust", "anyExtendedKeyUsage")
trustout("leaf.pem", "leaf-reject-sa.pem", "-addreject", "serverAuth")
der = root.public_bytes(serialization.Encoding.DER) + bytes([0x30, 0x03, 0x02, 0x01, 0x00])
b64 = base64.encodebytes(der).decode().replace("\n", "")
write("root-bad-aux.pem", ("-----BEGIN TRUSTED CERTIFICATE-----\n" + "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
                           + "\n-----END TRUSTED CERTIFICATE-----\n").encode())
# Other certificates of the root's name and key: a re-issued copy (another serial and validity)
# and a cross-signature by another root. A distrust of the root must cover them (review of
# 2026-12-06: a path through either went around the rejected copy).
reissued = ca("Trust Settings Root", "Trust Settings Root", rk, rk, 200, 3000)
ok_ = ec.generate_private_key(ec.SECP256R1())
other = ca("Other Root", "Other Root", ok_, ok_, 365, 3650)
cross = ca("Trust Settings Root", "Other Root", rk, ok_, 300, 2000, aki_key=ok_)
write("root-reissued.pem", reissued.public_bytes(serialization.Encoding.PEM))
write("other-root.pem", other.public_bytes(serialization.Encoding.PEM))
write("cross.pem", cross.public_bytes(serialization.Encoding.PEM))
write("reject-plus-reissued.pem", open(path("root-reject-sa.pem"), "rb").read() + open(path("root-reissued.pem"), "rb").read())
write("reissued-plus-reject.pem", open(path("root-reissued.pem"), "rb").read() + open(path("root-reject-sa.pem"), "rb").read())
write("reject-plus-other.pem", open(path("root-reject-sa.pem"), "rb").read() + open(path("other-root.pem"), "rb").read())
write("plain-then-reject.pem", open(path("root.pem"), "rb").read() + open(path("root-reject-sa.pem"), "rb").read())
write("reject-then-plain.pem", open(path("root-reject-sa.pem"), "rb").read() + open(path("root.pem"), "rb").read())

# The first TRUSTED block really carries the aux we asked for (not a silent no-op).
assert b"TRUSTED CERTIFICATE" in open(path("root-reject-sa.pem"), "rb").read()

PATHS = [  # (anchors file, intermediates file or None): server purpose only
    ("reject-plus-reissued.pem", None), ("reissued-plus-reject.pem", None), ("reject-plus-other.pem", "cross.pem"),
    ("other-root.pem", "cross.pem"),
]
PURPOSES = {"server": ["-purpose", "sslserver", "-verify_hostname", HOST], "client": ["-purpose", "sslclient"],
            "none": []}
def openssl(anchor, purpose, partial=False):
    p = subprocess.run(["openssl", "verify", "-x509_strict", "-attime", AT, "-no-CApath", "-no-CAfile",
                        "-CAfile", path(anchor), *(["-partial_chain"] if partial else []), *PURPOSES[purpose],
                        path("leaf.pem")], capture_output=True, text=True)
    return p.returncode == 0

verdicts = {}
for anchor in ["root.pem", "root-trustout.pem", "root-reject-sa.pem", "root-reject-any.pem", "root-trust-sa.pem",
               "root-trust-email.pem", "root-trust-any.pem", "plain-then-reject.pem", "reject-then-plain.pem",
               "leaf-reject-sa.pem", "root-bad-aux.pem"]:
    verdicts[anchor] = {}
    for purpose in PURPOSES:
        verdicts[anchor][purpose] = openssl(anchor, purpose, partial=anchor.startswith("leaf"))
# What the recorded OpenSSL verdicts must show (else this OpenSSL reads trust settings another way).
assert verdicts["root.pem"] == {"server": True, "client": True, "none": True}
assert verdicts["root-reject-sa.pem"] == {"server": False, "client": True, "none": True}
assert verdicts["root-reject-any.pem"] == {"server": False, "client": False, "none": False}
assert verdicts["root-trust-sa.pem"]["server"] and not verdicts["root-trust-sa.pem"]["client"]
assert not any(verdicts["root-trust-email.pem"].values())
assert verdicts["leaf-reject-sa.pem"]["client"] and not verdicts["leaf-reject-sa.pem"]["server"]
assert not any(verdicts["root-bad-aux.pem"].values())
paths = []
for anchors, inter in PATHS:
    p = subprocess.run(["openssl", "verify", "-x509_strict", "-attime", AT, "-no-CApath", "-no-CAfile", "-CAfile",
                        path(anchors), *(["-untrusted", path(inter)] if inter else []), *PURPOSES["server"],
                        path("leaf.pem")], capture_output=True, text=True)
    paths.append({"anchors": anchors, "intermediates": inter, "openssl": p.returncode == 0,
                  # Sigil: refused whenever a certificate of the rejected root's name and key is on
                  # the path, whatever order the store lists them in (OpenSSL refuses at the store
                  # copy it finds first: order-dependent for the re-issued copy).
                  "expected": anchors == "other-root.pem"})
# OpenSSL refuses the cross-signed path and the rejected-first store; trusts the other order.
assert [c["openssl"] for c in paths] == [False, True, False, True], paths

# Sigil's expectations: OpenSSL's, but for one deliberate difference. With the same root
# given twice, plain first and rejected for serverAuth after, OpenSSL keeps the first copy
# and trusts it for servers; Sigil keeps the distrust whatever the order (TrustStore.add:
# both copies' settings combined).
assert verdicts["plain-then-reject.pem"]["server"] and not verdicts["reject-then-plain.pem"]["server"]
expected = json.loads(json.dumps(verdicts))
expected["plain-then-reject.pem"]["server"] = False
json.dump({"at": int(AT), "host": HOST, "openssl": verdicts, "expected": expected, "paths": paths},
          open(path("verdicts.json"), "w"), indent=1, sort_keys=True)
print(json.dumps(verdicts, sort_keys=True))
