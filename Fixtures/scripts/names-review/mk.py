"""Helpers: build CA/leaf chains with exact SAN / nameConstraints bytes, run sigil/openssl/go."""
import datetime, os, subprocess, json, sys
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID, ExtensionOID, ObjectIdentifier
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

NB = datetime.datetime(2020, 1, 1)
NA = datetime.datetime(2035, 1, 1)
AT = "1700000000"
SIGIL = "/tmp/sigil-review/sigil"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "names-review")

# ---- tiny DER ----
def tlv(tag, content):
    n = len(content)
    if n < 0x80: l = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big"); l = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + l + content
def seq(*xs): return tlv(0x30, b"".join(xs))
def dns(s): return tlv(0x82, s if isinstance(s, bytes) else s.encode())
def email(s): return tlv(0x81, s if isinstance(s, bytes) else s.encode())
def uri(s): return tlv(0x86, s if isinstance(s, bytes) else s.encode())
def ip(b): return tlv(0x87, bytes(b))
def dirname(name): return tlv(0xA4, name.public_bytes())
def subtree(gn): return seq(gn)
def nc_der(permitted=None, excluded=None):
    parts = b""
    if permitted is not None: parts += tlv(0xA0, b"".join(subtree(g) for g in permitted))
    if excluded is not None: parts += tlv(0xA1, b"".join(subtree(g) for g in excluded))
    return seq(parts)
def san_der(*gns): return seq(*gns)

def name(cn=None, **kw):
    attrs = []
    for k, v in kw.items():
        attrs.append(x509.NameAttribute(getattr(NameOID, {"O":"ORGANIZATION_NAME","C":"COUNTRY_NAME","OU":"ORGANIZATIONAL_UNIT_NAME"}.get(k,k)), v))
    if cn is not None: attrs.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(attrs)

def key(): return ec.generate_private_key(ec.SECP256R1())

class Node:
    def __init__(self, cert, key): self.cert, self.key = cert, key

def build(subject, issuer, pub, signkey, ca, extra=(), eku=None, ski=True, serial=None):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer.cert.subject if issuer else subject)
         .public_key(pub).serial_number(serial or x509.random_serial_number())
         .not_valid_before(NB).not_valid_after(NA))
    if ca:
        b = b.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
    else:
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        b = b.add_extension(x509.ExtendedKeyUsage(eku or [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(pub), critical=False)
    if issuer:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False)
    for oid, der, crit in extra:
        b = b.add_extension(x509.UnrecognizedExtension(oid, der), critical=crit)
    return b.sign(signkey, hashes.SHA256())

def ca(subject, issuer=None, nc=None, nc_crit=True, extra=()):
    k = key()
    ex = list(extra)
    if nc is not None: ex.append((ExtensionOID.NAME_CONSTRAINTS, nc, nc_crit))
    c = build(subject, issuer, k.public_key(), issuer.key if issuer else k, True, ex)
    return Node(c, k)

def leaf(subject, issuer, san=None, san_crit=False, eku=None, extra=()):
    k = key()
    ex = list(extra)
    if san is not None: ex.append((ExtensionOID.SUBJECT_ALTERNATIVE_NAME, san, san_crit))
    c = build(subject, issuer, k.public_key(), issuer.key, False, ex, eku=eku)
    return Node(c, k)

def pem(c): return c.public_bytes(serialization.Encoding.PEM)

def write(case, root, inters, lf):
    d = os.path.join(OUT, case); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "root.pem"), "wb").write(pem(root.cert))
    open(os.path.join(d, "inter.pem"), "wb").write(b"".join(pem(i.cert) for i in inters))
    open(os.path.join(d, "leaf.pem"), "wb").write(pem(lf.cert))
    return d

def run(d, host=None, ipa=None, mail=None, kind="server"):
    args = [SIGIL, "verify", "--at", AT, "--anchors-only", "--anchor", d + "/root.pem", "--kind", kind]
    if os.path.getsize(d + "/inter.pem"): args += ["--intermediate", d + "/inter.pem"]
    if host: args += ["--host", host]
    if ipa: args += ["--ip", ipa]
    if mail: args += ["--email", mail]
    args.append(d + "/leaf.pem")
    p = subprocess.run(args, capture_output=True, text=True)
    s = (p.stdout + p.stderr).strip().replace("\n", " | ")
    # openssl
    oa = ["openssl", "verify", "-x509_strict", "-attime", AT, "-no-CApath", "-no-CAfile", "-CAfile", d + "/root.pem"]
    if os.path.getsize(d + "/inter.pem"): oa += ["-untrusted", d + "/inter.pem"]
    oa += ["-purpose", "sslserver" if kind == "server" else ("sslclient" if kind == "client" else "any")]
    if host: oa += ["-verify_hostname", host]
    if ipa: oa += ["-verify_ip", ipa]
    if mail: oa += ["-verify_email", mail]
    oa.append(d + "/leaf.pem")
    o = subprocess.run(oa, capture_output=True, text=True)
    os_ = "OK" if o.returncode == 0 else (o.stdout + o.stderr).strip().split("\n")[-2 if len((o.stdout+o.stderr).strip().split("\n"))>1 else -1][:120]
    # go
    ga = ["/tmp/review-names/gover", "-root", d + "/root.pem", "-inter", d + "/inter.pem", "-leaf", d + "/leaf.pem", "-kind", kind]
    if host: ga += ["-host", host]
    if ipa: ga += ["-host", ipa]
    g = subprocess.run(ga, capture_output=True, text=True)
    gs = (g.stdout + g.stderr).strip()[:160]
    return p.returncode, s[:300], os_, gs

def report(case, d, **kw):
    if "ip" in kw: kw["ipa"] = kw.pop("ip")
    rc, s, o, g = run(d, **kw)
    print(f"== {case} {kw}\n  sigil rc={rc}: {s}\n  openssl: {o}\n  go: {g}")
    return rc

def read_tlv(b, i=0):
    tag = b[i]; l = b[i+1]; j = i + 2
    if l & 0x80:
        n = l & 0x7f; l = int.from_bytes(b[j:j+n], "big"); j += n
    return tag, j, j + l  # tag, content start, end

def resign(node, issuer_key, old, new):
    """Replace bytes `old` by `new` inside the TBS of node.cert and re-sign with issuer_key."""
    from cryptography.hazmat.primitives.asymmetric import ec as _ec
    der = node.cert.public_bytes(serialization.Encoding.DER)
    _, cs, ce = read_tlv(der, 0)
    _, ts, te = read_tlv(der, cs)
    tbs_content = der[ts:te]
    assert tbs_content.count(old) == 1, tbs_content.count(old)
    tbs = tlv(0x30, tbs_content.replace(old, new))
    _, as_, ae = read_tlv(der, te)
    alg = der[te:ae]
    sig = issuer_key.sign(tbs, _ec.ECDSA(hashes.SHA256()))
    newder = seq(tbs, alg, tlv(0x03, b"\x00" + sig))
    return Node(RawCert(newder), node.key)

class RawCert:
    def __init__(self, der): self.der = der
    def public_bytes(self, enc):
        import base64
        b = base64.encodebytes(self.der).replace(b"\n", b"")
        return b"-----BEGIN CERTIFICATE-----\n" + b"\n".join(b[i:i+64] for i in range(0, len(b), 64)) + b"\n-----END CERTIFICATE-----\n"
