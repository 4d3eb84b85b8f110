#!/usr/bin/env python3
"""Plays several CT logs of several operators (RFC 6962 §3.2) with Python `cryptography`, issues
final certificates with embedded SCTs and SCT lists for the TLS extension / OCSP, and writes the
expected per-SCT statuses and policy verdicts (Apple, Chrome) computed HERE, from how each case
was built — independently of Sigil. Run: python3 Fixtures/ct/generate.py (rewrites Fixtures/ct/generated).

Two lists hold the logs: log_list.json in the v3 shape of the public log lists, and
apple_log_list.json in the shape of Apple's current list (valid.apple.com/ct/log_list/
current_log_list.json, schema v4/v5: "$schema", "assetVersion", "assetVersionV2", a string
"version", states carrying "timestamp" and "version", readonly logs a "final_tree_head", tiled logs
with "submission_url", "monitoring_url", "tls_only"), which also lists one tiled (static-ct-api)
log. Each case's verdicts are computed for both lists.

Log states are judged at the time of check, as Apple's policy reads (support.apple.com/103214,
"Policy requirements": SCTs from logs "once-approved or currently approved at the time of check"):
usable/qualified since T is approved from T on; readonly/retired since T was approved up to T (an
SCT issued before T counts, none after; currently approved only before T)."""
import base64, datetime as dt, hashlib, json, os, struct
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa, padding

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated")
os.makedirs(OUT, exist_ok=True)
UTC = dt.timezone.utc
CHECK = dt.datetime(2026, 6, 1, tzinfo=UTC)          # verification time
RETIRED_AT = dt.datetime(2026, 5, 1, tzinfo=UTC)
READONLY_AT = dt.datetime(2026, 5, 15, tzinfo=UTC)
USABLE_LATER = dt.datetime(2026, 7, 1, tzinfo=UTC)    # after CHECK: not yet approved then
NB = dt.datetime(2026, 4, 1, tzinfo=UTC)              # notBefore of most certificates (valid at CHECK)
SCT_EXT = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")

def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)

class Log:
    def __init__(self, name, op, state, rsa_key=False, listed=True, state_time=None, tiled=False):
        self.key = rsa.generate_private_key(65537, 2048) if rsa_key else ec.generate_private_key(ec.SECP256R1())
        self.name, self.op, self.state, self.listed = name, op, state, listed
        self.state_time = state_time or dt.datetime(2024, 1, 1, tzinfo=UTC)
        self.id = hashlib.sha256(spki(self.key)).digest()
        self.rsa = rsa_key
        self.tiled = tiled

    def sign(self, signed):
        if self.rsa:
            return 4, 1, self.key.sign(signed, padding.PKCS1v15(), hashes.SHA256())
        return 4, 3, self.key.sign(signed, ec.ECDSA(hashes.SHA256()))

    def sct(self, when, entry, tamper=False):
        """entry: ('precert', issuer_key_hash, tbs) or ('x509', der)."""
        ts = int(when.timestamp() * 1000)
        body = struct.pack(">BBQ", 0, 0, ts)
        if entry[0] == "precert":
            body += struct.pack(">H", 1) + entry[1] + struct.pack(">I", len(entry[2]))[1:] + entry[2]
        else:
            body += struct.pack(">H", 0) + struct.pack(">I", len(entry[1]))[1:] + entry[1]
        body += struct.pack(">H", 0)  # no CtExtensions
        h, s, sig = self.sign(body)
        if tamper:
            ts += 1  # the SCT claims another time than the one signed
        return bytes([0]) + self.id + struct.pack(">Q", ts) + struct.pack(">H", 0) + bytes([h, s]) + struct.pack(">H", len(sig)) + sig

def der_octet_string(b):
    n = len(b)
    if n < 0x80: return bytes([4, n]) + b
    if n < 0x100: return bytes([4, 0x81, n]) + b
    return bytes([4, 0x82]) + struct.pack(">H", n) + b

def sct_list(scts):
    body = b"".join(struct.pack(">H", len(s)) + s for s in scts)
    return struct.pack(">H", len(body)) + body

A1 = Log("Alpha 1", "Alpha", "usable")
A2 = Log("Alpha 2", "Alpha", "qualified")
B1 = Log("Beta 1", "Beta", "usable")
B2 = Log("Beta RSA", "Beta", "usable", rsa_key=True)
C1 = Log("Gamma 1", "Gamma", "readonly", state_time=READONLY_AT)
R = Log("Gamma retired", "Gamma", "retired", state_time=RETIRED_AT)
P = Log("Beta pending", "Beta", "pending")
D = Log("Delta later", "Delta", "usable", state_time=USABLE_LATER)
U = Log("Unlisted", "Nobody", "usable", listed=False)
T = Log("Epsilon tiled", "Epsilon", "usable", listed=False, tiled=True)   # only in the Apple-shaped list
LOGS = [A1, A2, B1, B2, C1, R, P, D, U, T]

def rfc3339(t): return t.strftime("%Y-%m-%dT%H:%M:%SZ")

def log_entry(l, apple_shape):
    e = {"description": l.name, "log_id": base64.b64encode(l.id).decode(),
         "key": base64.b64encode(spki(l.key)).decode(), "mmd": 60 if l.tiled else 86400,
         "state": {l.state: {"timestamp": rfc3339(l.state_time)}}}
    if l.tiled:
        slug = l.name.replace(" ", "").lower()
        e["submission_url"] = "https://ct.example/%s/" % slug
        e["monitoring_url"] = "https://%s.ct.example/" % slug
        e["tls_only"] = True
    else:
        e["url"] = "https://ct.example/%s/" % l.name.replace(" ", "").lower()
    if apple_shape:
        e["state"][l.state]["version"] = "7"
        if l.state == "readonly":
            e["state"][l.state]["final_tree_head"] = {"sha256_root_hash": base64.b64encode(bytes(32)).decode(), "tree_size": 12345}
    return e

def write_list(path, apple_shape):
    ops = {}
    for l in LOGS:
        if not (l.listed or (apple_shape and l.tiled)): continue
        o = ops.setdefault(l.op, {"name": l.op, "email": ["ct@%s.example" % l.op.lower()], "logs": []})
        if apple_shape: o.setdefault("tiled_logs", [])
        o["tiled_logs" if l.tiled else "logs"].append(log_entry(l, apple_shape))
    if apple_shape:
        doc = {"$schema": "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v4.json",
               "assetVersion": 32, "assetVersionV2": 1013, "operators": list(ops.values()), "version": "7"}
    else:
        doc = {"version": "generated", "log_list_timestamp": rfc3339(CHECK), "operators": list(ops.values())}
    with open(os.path.join(OUT, path), "w") as f:
        json.dump(doc, f, indent=1)

write_list("log_list.json", False)
write_list("apple_log_list.json", True)

ca_key = ec.generate_private_key(ec.SECP256R1())
ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "CT Test CA")])
ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
      .serial_number(1).not_valid_before(dt.datetime(2024, 1, 1, tzinfo=UTC)).not_valid_after(dt.datetime(2034, 1, 1, tzinfo=UTC))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
open(os.path.join(OUT, "issuer.der"), "wb").write(ca.public_bytes(serialization.Encoding.DER))
ikh = hashlib.sha256(spki(ca)).digest() if False else hashlib.sha256(ca.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()

def builder(name, days, nb):
    key = ec.generate_private_key(ec.SECP256R1())
    return (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name + ".example")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(nb).not_valid_after(nb + dt.timedelta(seconds=days * 86400 - 1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name + ".example")]), critical=False))

# Each SCT spec: (log, origin, kind) with kind in valid | tampered | future | after-retirement
def status_of(log, kind, sct_time, listed):
    """The status the SCT must get, from how it was made (RFC 6962 §5.2) and the log's state at
    the time of check CHECK (see the module comment)."""
    if not listed(log): return "unknown-log"
    if kind == "tampered" or sct_time > CHECK: return "invalid"
    if log.state in ("pending", "rejected"): return "log-not-acceptable"
    if log.state in ("usable", "qualified"):
        return "valid" if CHECK >= log.state_time else "log-not-acceptable"
    return "valid" if sct_time < log.state_time else "log-not-acceptable"   # readonly, retired

def current(l):
    if l.state in ("usable", "qualified"): return CHECK >= l.state_time
    if l.state in ("readonly", "retired"): return CHECK < l.state_time
    return False

def apple(days, nb, valid, has_tiled):
    """valid: list of (log, origin) of valid SCTs (each from a once or currently approved log)."""
    if nb < dt.datetime(2018, 10, 15, tzinfo=UTC): return True
    uniq = {}
    for l, o in valid: uniq.setdefault(l.id, (l, o))
    v = list(uniq.values())
    if len(v) < 2: return False
    rfc = lambda s: not has_tiled or any(not l.tiled for l, o in s)
    cur = [(l, o) for l, o in v if current(l)]
    if len(cur) >= 2 and any(o != "embedded" for l, o in cur) and rfc(v): return True
    if days > 398: return False
    need, cap = (2, 1) if days <= 180 else (3, 2)
    emb = [(l, o) for l, o in v if o == "embedded"]
    if not any(current(l) for l, o in emb): return False
    if not rfc(emb): return False
    per = {}
    for l, o in emb: per[l.op] = per.get(l.op, 0) + 1
    return sum(min(n, cap) for n in per.values()) >= need

def chrome_fine(l):
    """Qualified, Usable or ReadOnly at the time of check (Chrome's ct_policy.md): readonly at any
    time (before T it was usable), retired only before T."""
    if l.state in ("usable", "qualified"): return CHECK >= l.state_time
    if l.state == "readonly": return True
    if l.state == "retired": return CHECK < l.state_time
    return False

def chrome(days, nb, valid, has_tiled):
    """Chrome's ct_policy.md (issued on or after 15 April 2022). Embedded: "At least one Embedded
    SCT from a CT Log that was Qualified, Usable, or ReadOnly at the time of check", N distinct
    logs (Retired ones too), two operators. OCSP/TLS: "At least two SCTs from a CT Log that was
    Qualified, Usable, or ReadOnly at the time of check" of two operators."""
    if nb < dt.datetime(2018, 4, 30, tzinfo=UTC): return True
    uniq = {}
    for l, o in valid: uniq.setdefault(l.id, (l, o))
    v = list(uniq.values())
    rfc = lambda s: not has_tiled or any(not l.tiled for l, o in s)
    emb = [(l, o) for l, o in v if o == "embedded"]
    need = 2 if days <= 180 else 3
    if len(emb) >= need and len({l.op for l, o in emb}) >= 2 and any(chrome_fine(l) for l, o in emb) and rfc(emb):
        return True
    dl = [(l, o) for l, o in v if o != "embedded" and chrome_fine(l)]
    return len({l.op for l, o in dl}) >= 2 and rfc(dl)

CASES = [
    ("d90-two-operators", 90, NB, [(A1, "embedded", "valid"), (B1, "embedded", "valid")]),
    ("d90-one-operator", 90, NB, [(A1, "embedded", "valid"), (A2, "embedded", "valid")]),
    ("d200-three", 200, NB, [(A1, "embedded", "valid"), (A2, "embedded", "valid"), (B1, "embedded", "valid")]),
    ("d200-two", 200, NB, [(A1, "embedded", "valid"), (B1, "embedded", "valid")]),
    ("d400-three", 400, NB, [(A1, "embedded", "valid"), (B1, "embedded", "valid"), (C1, "embedded", "valid")]),
    ("d90-tampered", 90, NB, [(A1, "embedded", "valid"), (B1, "embedded", "tampered")]),
    ("d90-future", 90, NB, [(A1, "embedded", "valid"), (B1, "embedded", "future")]),
    ("d90-retired-before", 90, NB, [(A1, "embedded", "valid"), (R, "embedded", "valid")]),
    ("d90-retired-after", 90, dt.datetime(2026, 5, 10, tzinfo=UTC), [(A1, "embedded", "valid"), (R, "embedded", "after-retirement")]),
    # Readonly since READONLY_AT: its SCTs from before count as once approved, but it is not
    # currently approved at CHECK — so it cannot be the one embedded SCT from a current log.
    ("d90-readonly-plus-usable", 90, NB, [(A1, "embedded", "valid"), (C1, "embedded", "valid")]),
    ("d90-readonly-and-retired-only", 90, NB, [(C1, "embedded", "valid"), (R, "embedded", "valid")]),
    ("d90-readonly-after", 90, dt.datetime(2026, 5, 20, tzinfo=UTC), [(A1, "embedded", "valid"), (C1, "embedded", "valid"), (B1, "embedded", "valid")]),
    # Usable only from USABLE_LATER (after CHECK): not approved at the time of check.
    ("d90-usable-later", 90, NB, [(A1, "embedded", "valid"), (D, "embedded", "valid")]),
    # A tiled log (only in the Apple-shaped list) with an RFC 6962 one, and tiled alone + TLS.
    ("d90-tiled-plus-rfc6962", 90, NB, [(A1, "embedded", "valid"), (T, "embedded", "valid")]),
    ("d90-tiled-tls", 90, NB, [(T, "tls", "valid"), (A1, "tls", "valid")]),
    ("d90-unknown-log", 90, NB, [(A1, "embedded", "valid"), (U, "embedded", "valid")]),
    ("d90-pending-log", 90, NB, [(A1, "embedded", "valid"), (P, "embedded", "valid")]),
    ("d90-rsa-log", 90, NB, [(A1, "embedded", "valid"), (B2, "embedded", "valid")]),
    ("d90-tls-only", 90, NB, [(A1, "tls", "valid"), (B1, "tls", "valid")]),
    ("d90-embedded-plus-ocsp", 90, NB, [(A1, "embedded", "valid"), (B1, "ocsp", "valid")]),
    ("d200-duplicate-log", 200, NB, [(A1, "embedded", "valid"), (A1, "embedded", "valid"), (B1, "embedded", "valid")]),
    ("pre-2018-no-scts", 90, dt.datetime(2018, 6, 1, tzinfo=UTC), []),
]

manifest = {"checkTime": rfc3339(CHECK), "logList": "log_list.json", "appleLogList": "apple_log_list.json",
            "issuer": "issuer.der", "cases": []}
for name, days, nb, specs in CASES:
    b = builder(name, days, nb)
    when = lambda kind: CHECK + dt.timedelta(days=1) if kind == "future" else nb + dt.timedelta(hours=1)
    pre = b.sign(ca_key, hashes.SHA256())
    tbs = pre.tbs_certificate_bytes
    emb = [l.sct(when(k), ("precert", ikh, tbs), tamper=(k == "tampered")) for l, o, k in specs if o == "embedded"]
    if emb:
        final = b.add_extension(x509.UnrecognizedExtension(SCT_EXT, der_octet_string(sct_list(emb))), critical=False).sign(ca_key, hashes.SHA256())
        assert final.tbs_precertificate_bytes == tbs
    else:
        final = pre
    der = final.public_bytes(serialization.Encoding.DER)
    open(os.path.join(OUT, name + ".der"), "wb").write(der)
    entry = {"name": name, "certificate": name + ".der", "lifetimeDays": days}
    for origin in ("tls", "ocsp"):
        lst = [l.sct(when(k), ("x509", der), tamper=(k == "tampered")) for l, o, k in specs if o == origin]
        if lst:
            open(os.path.join(OUT, "%s.%s.bin" % (name, origin)), "wb").write(sct_list(lst))
            entry[origin] = "%s.%s.bin" % (name, origin)
    order = [s for s in specs if s[1] == "embedded"] + [s for s in specs if s[1] == "ocsp"] + [s for s in specs if s[1] == "tls"]
    for suffix, listed, has_tiled in (("", lambda l: l.listed, False), ("AppleList", lambda l: l.listed or l.tiled, True)):
        st = [status_of(l, k, when(k), listed) for l, o, k in order]
        valid = [(l, o) for (l, o, k), x in zip(order, st) if x == "valid"]
        entry["statuses" + suffix] = st
        entry["apple" + suffix] = apple(days, nb, valid, has_tiled)
        entry["chrome" + suffix] = chrome(days, nb, valid, has_tiled)
    manifest["cases"].append(entry)
# A precertificate issued by a Precertificate Signing Certificate (RFC 6962 §3.1: directly
# certified by the CA, EKU 1.3.6.1.4.1.11129.2.4.4). The log builds the precert_entry as §3.2
# says: the TBS with the poison removed and its issuer and authority key identifier changed to
# those of the CA that issues the final certificate, and issuer_key_hash = SHA-256 of THAT CA's
# key (the issuer of the signing certificate). The final certificate then carries the same TBS
# plus the SCT list, so a client checks it against the final certificate's issuer (the CA). The
# signing certificate offered as the issuer does not give that key: its SCTs are issuer-unknown.
PSC_EKU = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.4")
POISON = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.3")
psc_key = ec.generate_private_key(ec.SECP256R1())
psc_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "CT Test Precertificate Signing")])
psc = (x509.CertificateBuilder().subject_name(psc_name).issuer_name(ca_name).public_key(psc_key.public_key())
       .serial_number(2).not_valid_before(dt.datetime(2024, 1, 1, tzinfo=UTC)).not_valid_after(dt.datetime(2034, 1, 1, tzinfo=UTC))
       .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
       .add_extension(x509.ExtendedKeyUsage([PSC_EKU]), critical=False).sign(ca_key, hashes.SHA256()))
open(os.path.join(OUT, "psc.der"), "wb").write(psc.public_bytes(serialization.Encoding.DER))
leaf_key = ec.generate_private_key(ec.SECP256R1())
serial = x509.random_serial_number()
def psc_builder(issuer_name, issuer_pub):
    return (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "psc.example")]))
            .issuer_name(issuer_name).public_key(leaf_key.public_key()).serial_number(serial)
            .not_valid_before(NB).not_valid_after(NB + dt.timedelta(seconds=90 * 86400 - 1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("psc.example")]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_pub), critical=False))
precert = (psc_builder(psc_name, psc_key.public_key())
           .add_extension(x509.UnrecognizedExtension(POISON, b"\x05\x00"), critical=True).sign(psc_key, hashes.SHA256()))
open(os.path.join(OUT, "psc-precert.der"), "wb").write(precert.public_bytes(serialization.Encoding.DER))
# §3.2: issuer and AKI changed to the CA's, poison removed (built directly rather than edited).
entry_tbs = psc_builder(ca_name, ca_key.public_key()).sign(ca_key, hashes.SHA256()).tbs_certificate_bytes
when_psc = NB + dt.timedelta(hours=1)
psc_scts = [l.sct(when_psc, ("precert", ikh, entry_tbs)) for l in (A1, B1)]
final_psc = (psc_builder(ca_name, ca_key.public_key())
             .add_extension(x509.UnrecognizedExtension(SCT_EXT, der_octet_string(sct_list(psc_scts))), critical=False)
             .sign(ca_key, hashes.SHA256()))
assert final_psc.tbs_precertificate_bytes == entry_tbs
open(os.path.join(OUT, "psc-final.der"), "wb").write(final_psc.public_bytes(serialization.Encoding.DER))
manifest["precertificateSigning"] = {
    "certificate": "psc-final.der", "signingCertificate": "psc.der", "precertificate": "psc-precert.der",
    "statusesWithCA": ["valid", "valid"], "statusesWithSigningCertificate": ["issuer-unknown", "issuer-unknown"], "apple": True}

with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print("\n".join("%-30s apple=%-5s chrome=%-5s %s | apple list: apple=%-5s chrome=%-5s %s" % (
    c["name"], c["apple"], c["chrome"], c["statuses"], c["appleAppleList"], c["chromeAppleList"], c["statusesAppleList"])
    for c in manifest["cases"]))
