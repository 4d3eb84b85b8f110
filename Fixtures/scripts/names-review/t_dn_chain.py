"""A multi-valued RDN spelt two ways on the two sides of one chaining link: the intermediate's
subject is O=Evil (UTF8String) + OU=xxxxxx, the leaf's issuer field the same attributes with O
as a BMPString, so DER sorts the SET the other way. RFC 5280 §7.1 matches RDNs as sets: the
leaf chains to the intermediate. Writes Fixtures/names-review/dn-mv-chain/ and checks the
chain with `openssl verify` (which canonicalises names) at the generator's time.
Run from this directory: python3 t_dn_chain.py"""
import subprocess
from mk import *
from cryptography.x509.name import _ASN1Type as T
from cryptography.x509.oid import NameOID as N
def A(oid, v, t): return x509.NameAttribute(oid, v, _type=t)
inter_subject = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATION_NAME, "Evil", T.UTF8String), A(N.ORGANIZATIONAL_UNIT_NAME, "xxxxxx", T.UTF8String)])])
leaf_issuer = x509.Name([x509.RelativeDistinguishedName([A(N.ORGANIZATION_NAME, "Evil", T.BMPString), A(N.ORGANIZATIONAL_UNIT_NAME, "xxxxxx", T.UTF8String)])])
assert inter_subject.public_bytes() != leaf_issuer.public_bytes()
root = ca(name("DN Chain Root"))
inter = ca(inter_subject, root)
# The leaf, issued by `inter`, but naming it with the other spelling.
k = key()
b = (x509.CertificateBuilder().subject_name(name("leaf")).issuer_name(leaf_issuer).public_key(k.public_key())
     .serial_number(x509.random_serial_number()).not_valid_before(NB).not_valid_after(NA)
     .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
     .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
     .add_extension(x509.SubjectKeyIdentifier.from_public_key(k.public_key()), critical=False)
     .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(inter.key.public_key()), critical=False)
     .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.example.com")]), critical=False))
lf = Node(b.sign(inter.key, hashes.SHA256()), k)
d = write("dn-mv-chain", root, [inter], lf)
p = subprocess.run(["openssl", "verify", "-attime", AT, "-no-CApath", "-no-CAfile", "-CAfile", d + "/root.pem",
                    "-untrusted", d + "/inter.pem", "-verify_hostname", "www.example.com", d + "/leaf.pem"],
                   capture_output=True, text=True)
print("openssl verify:", (p.stdout + p.stderr).strip().splitlines()[-1])
assert p.returncode == 0
