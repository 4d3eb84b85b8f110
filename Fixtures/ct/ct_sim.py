"""Shared by gen_chrome_states.py and gen_chrome_legacy.py: Python `cryptography` playing CT logs
(RFC 6962 §3.2 SCTs over precert or x509 entries), writing a v3 log list, and embedding SCTs in
a certificate (§3.3). The verdicts are computed by each script from its policy text, never here."""
import base64, hashlib, json, os, struct
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

SCT_EXT = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")

def spki(pub):
    return pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)

def rfc3339(t): return t.strftime("%Y-%m-%dT%H:%M:%SZ")

class Log:
    def __init__(self, name, op, state, since, previous=()):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.name, self.op, self.state, self.since = name, op, state, since
        self.previous = list(previous)  # (operator name, end_time): operated by it until end_time
        self.id = hashlib.sha256(spki(self.key.public_key())).digest()

    def sct(self, entry, at):
        """RFC 6962 §3.2: digitally-signed struct over version, signature_type, timestamp (ms),
        entry_type and the entry ('precert', issuer_key_hash, tbs) or ('x509', der), then
        CtExtensions (empty)."""
        ts = int(at.timestamp() * 1000)
        body = struct.pack(">BBQ", 0, 0, ts)
        if entry[0] == "precert":
            body += struct.pack(">H", 1) + entry[1] + struct.pack(">I", len(entry[2]))[1:] + entry[2]
        else:
            body += struct.pack(">H", 0) + struct.pack(">I", len(entry[1]))[1:] + entry[1]
        body += struct.pack(">H", 0)
        sig = self.key.sign(body, ec.ECDSA(hashes.SHA256()))
        return bytes([0]) + self.id + struct.pack(">Q", ts) + b"\x00\x00" + bytes([4, 3]) + struct.pack(">H", len(sig)) + sig

def write_log_list(path, version, timestamp, logs):
    ops = {}
    for l in logs:
        o = ops.setdefault(l.op, {"name": l.op, "email": ["ct@%s.example" % l.op.lower()], "logs": []})
        o["logs"].append({"description": l.name, "log_id": base64.b64encode(l.id).decode(),
                          "key": base64.b64encode(spki(l.key.public_key())).decode(), "mmd": 86400,
                          "url": "https://ct.example/%s/" % l.name.replace(" ", "").lower(),
                          "state": {l.state: {"timestamp": rfc3339(l.since)}}})
        if l.previous:
            o["logs"][-1]["previous_operators"] = [{"name": n, "end_time": rfc3339(e)} for n, e in l.previous]
    with open(path, "w") as f:
        json.dump({"version": version, "log_list_timestamp": rfc3339(timestamp), "operators": list(ops.values())}, f, indent=1)

def sct_list(scts):
    """SignedCertificateTimestampList (§3.3): 16-bit lengths."""
    body = b"".join(struct.pack(">H", len(s)) + s for s in scts)
    return struct.pack(">H", len(body)) + body

def issue(builder, ca_key, embedded, tls, at):
    """Signs `builder` with `ca_key`, embedding an SCT of each log of `embedded` (issued at `at`)
    over the precertificate; returns the DER and the TLS SCT list of the logs of `tls` (or None)."""
    ikh = hashlib.sha256(spki(ca_key.public_key())).digest()
    tbs = builder.sign(ca_key, hashes.SHA256()).tbs_certificate_bytes
    if embedded:
        lst = sct_list([l.sct(("precert", ikh, tbs), at) for l in embedded])
        # OCTET STRING header, DER (minimal) length.
        n = len(lst)
        ext = bytes([4, n]) if n < 0x80 else bytes([4, 0x81, n]) if n < 0x100 else bytes([4, 0x82]) + struct.pack(">H", n)
        cert = builder.add_extension(x509.UnrecognizedExtension(SCT_EXT, ext + lst), critical=False).sign(ca_key, hashes.SHA256())
        assert cert.tbs_precertificate_bytes == tbs
    else:
        cert = builder.sign(ca_key, hashes.SHA256())
    der = cert.public_bytes(serialization.Encoding.DER)
    return der, (sct_list([l.sct(("x509", der), at) for l in tls]) if tls else None)

def issue_leaf(name, ca_name, ca_key, nb, na, embedded, tls):
    """A P-256 leaf `name`.example (CN and SAN) issued by `ca_name` from `nb` to `na`, with an
    SCT of each log of `embedded` and a TLS SCT list of the logs of `tls` (see `issue`), the
    SCTs issued one hour after notBefore."""
    import datetime as _dt
    from cryptography.x509.oid import NameOID
    key = ec.generate_private_key(ec.SECP256R1())
    b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name + ".example")]))
         .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(nb).not_valid_after(na)
         .add_extension(x509.SubjectAlternativeName([x509.DNSName(name + ".example")]), critical=False))
    return issue(b, ca_key, embedded, tls, nb + _dt.timedelta(hours=1))

def save_case(out, name, der, tls_list, entry):
    """Writes the case's certificate (and TLS SCT list) under `out`; returns `entry` naming them."""
    open(os.path.join(out, name + ".der"), "wb").write(der)
    entry = dict(entry, name=name, certificate=name + ".der")
    if tls_list:
        open(os.path.join(out, name + ".tls.bin"), "wb").write(tls_list)
        entry["tls"] = name + ".tls.bin"
    return entry
