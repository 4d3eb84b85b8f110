"""Shared helpers for the Sigil fixture generators.

Only the Python standard library and `cryptography` are used, so the generators run on a
fresh machine of the project's kind without network access.
"""
import datetime
import hashlib
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, ed448, padding, rsa
from cryptography.x509.oid import NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.dirname(HERE)
KEYS = os.path.join(FIX, "keys")
CERTS = os.path.join(FIX, "certs")

NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2035, 1, 1, tzinfo=datetime.timezone.utc)

# ---------------------------------------------------------------------------------------------
# Keys: generated once into Fixtures/keys/ (test-only, committed) and reused, so re-running
# the generators gives the same certificates (except randomised RSA-PSS signatures).

def load_key(name, kind):
    """kind: rsa1024/rsa2048/rsa3072/rsa4096, p256/p384/p521, ed25519, ed448."""
    path = os.path.join(KEYS, name + ".key.pem")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return serialization.load_pem_private_key(f.read(), password=None)
    if kind.startswith("rsa"):
        key = rsa.generate_private_key(public_exponent=65537, key_size=int(kind[3:]))
    elif kind in ("p256", "p384", "p521"):
        key = ec.generate_private_key({"p256": ec.SECP256R1(), "p384": ec.SECP384R1(),
                                       "p521": ec.SECP521R1()}[kind])
    elif kind == "ed25519":
        key = ed25519.Ed25519PrivateKey.generate()
    elif kind == "ed448":
        key = ed448.Ed448PrivateKey.generate()
    else:
        raise ValueError(kind)
    os.makedirs(KEYS, exist_ok=True)
    with open(path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return key


def hash_for(key):
    """The family's digest: SHA-256 for RSA and P-256, SHA-384 for P-384, SHA-512 for P-521."""
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return {256: hashes.SHA256(), 384: hashes.SHA384(), 521: hashes.SHA512()}[key.curve.key_size]
    if isinstance(key, (ed25519.Ed25519PrivateKey, ed448.Ed448PrivateKey)):
        return None
    return hashes.SHA256()


def sign_cert(builder, key, algorithm="auto", **kw):
    if algorithm == "auto":
        algorithm = hash_for(key)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        kw.setdefault("ecdsa_deterministic", True)
    return builder.sign(key, algorithm, **kw)


def name(cn, o="Sigil Test PKI", c="US"):
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, c),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, o),
        x509.NameAttribute(NameOID.COMMON_NAME, cn),
    ])


def serial_for(label):
    """A stable positive serial (16 octets, high bit clear) derived from a label."""
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:16], "big") >> 1


def write_cert(cert_or_der, stem, directory=None):
    directory = directory or CERTS
    os.makedirs(directory, exist_ok=True)
    der = cert_or_der if isinstance(cert_or_der, bytes) else cert_or_der.public_bytes(serialization.Encoding.DER)
    with open(os.path.join(directory, stem + ".der"), "wb") as f:
        f.write(der)
    with open(os.path.join(directory, stem + ".pem"), "wb") as f:
        f.write(der_to_pem(der))
    return der


def der_to_pem(der, label="CERTIFICATE"):
    import base64
    b = base64.b64encode(der).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (label, "\n".join(lines), label)).encode()


# ---------------------------------------------------------------------------------------------
# Minimal DER tree for byte-level surgery. A Node is either primitive (`content` bytes) or
# constructed (`children`). Serialising recomputes every length in minimal form, unless a node
# carries `len_override` (raw length octets, for deliberately bad encodings) or `raw_header`.

class Node:
    def __init__(self, tag, content=b"", children=None):
        self.tag = tag
        self.content = content
        self.children = children
        self.len_override = None   # bytes to use as the length octets
        self.tag_suffix = b""      # extra identifier octets (high-tag-number form)
        self.start = None          # filled in by serialize(): offset of the tag octet
        self.content_start = None  # offset of the first content octet

    @property
    def constructed(self):
        return self.children is not None

    def __getitem__(self, i):
        return self.children[i]

    def __repr__(self):
        return "Node(%02x, %s)" % (self.tag, len(self.children) if self.constructed else self.content.hex())


def parse(data, constructed_tags_only=True):
    """Parse DER into a Node tree. Constructed (bit 0x20) values are parsed recursively;
    OCTET STRING / BIT STRING contents are left as bytes."""
    nodes, pos = _parse_seq(data, 0, len(data))
    if pos != len(data):
        raise ValueError("trailing data")
    return nodes[0] if len(nodes) == 1 else nodes


def _parse_seq(data, pos, end):
    out = []
    while pos < end:
        tag = data[pos]
        pos += 1
        first = data[pos]
        pos += 1
        if first < 0x80:
            length = first
        else:
            n = first & 0x7F
            length = int.from_bytes(data[pos:pos + n], "big")
            pos += n
        content = data[pos:pos + length]
        if tag & 0x20:
            children, _ = _parse_seq(data, pos, pos + length)
            out.append(Node(tag, children=children))
        else:
            out.append(Node(tag, content=bytes(content)))
        pos += length
    return out, pos


def enc_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def serialize(node, base=0):
    """Serialise `node`, recording start/content_start offsets (absolute, from `base`)."""
    node.start = base
    if node.constructed:
        parts = [serialize(c, 0) for c in node.children]
        body = b"".join(parts)
        lenb = node.len_override if node.len_override is not None else enc_len(len(body))
        node.content_start = base + 1 + len(node.tag_suffix) + len(lenb)
        pos = node.content_start
        for c, p in zip(node.children, parts):
            _shift(c, pos)
            pos += len(p)
    else:
        body = node.content
        lenb = node.len_override if node.len_override is not None else enc_len(len(body))
        node.content_start = base + 1 + len(node.tag_suffix) + len(lenb)
    return bytes([node.tag]) + node.tag_suffix + lenb + body


def _shift(node, delta):
    node.start += delta
    node.content_start += delta
    if node.constructed:
        for c in node.children:
            _shift(c, delta)


def tlv(tag, content):
    return bytes([tag]) + enc_len(len(content)) + content


def oid_der(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray()
    for v in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
        tmp = [v & 0x7F]
        v >>= 7
        while v:
            tmp.append(0x80 | (v & 0x7F))
            v >>= 7
        out += bytes(reversed(tmp))
    return tlv(0x06, bytes(out))


def resign(cert_node, key, algorithm="auto", pss=None):
    """Re-sign a Certificate Node after its TBS was edited: replaces the signature BIT STRING.
    The signatureAlgorithm elements are left as they are (callers keep them consistent)."""
    tbs = serialize(cert_node[0])
    cert_node[2].content = b"\x00" + raw_sign(key, tbs, algorithm, pss)
    return serialize(cert_node)


def raw_sign(key, data, algorithm="auto", pss=None):
    if algorithm == "auto":
        algorithm = hash_for(key)
    if isinstance(key, rsa.RSAPrivateKey):
        pad = pss if pss is not None else padding.PKCS1v15()
        return key.sign(data, pad, algorithm)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(data, ec.ECDSA(algorithm, deterministic_signing=True))
    return key.sign(data)


def rsa_pkcs1_sign_raw(key, data, digest_name):
    """PKCS#1 v1.5 signature built by hand (EMSA-PKCS1-v1_5 DigestInfo + raw RSA private op),
    for digests that the library may refuse to sign with (MD5)."""
    prefixes = {
        "md5": bytes.fromhex("3020300c06082a864886f70d020505000410"),
        "sha1": bytes.fromhex("3021300906052b0e03021a05000414"),
    }
    digest = hashlib.new(digest_name, data).digest()
    t = prefixes[digest_name] + digest
    k = (key.key_size + 7) // 8
    em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    nums = key.private_numbers()
    s = pow(int.from_bytes(em, "big"), nums.d, nums.public_numbers.n)
    return s.to_bytes(k, "big")
