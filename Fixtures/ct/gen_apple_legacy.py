#!/usr/bin/env python3
"""Apple's CT policy for certificates with a notBefore before 21 April 2021 (the month-based
table), and the day-based table from that date, checked at a time of their validity (a
historical `--at`). Python `cryptography` plays the logs; the verdicts are computed HERE from the
policy text quoted below, not by Sigil. Run: python3 Fixtures/ct/gen_apple_legacy.py (rewrites
Fixtures/ct/apple-legacy).

Apple, "Apple's Certificate Transparency policy" (support.apple.com/HT205280, text of 2021-2023;
support.apple.com/103214 today keeps only the second table):

  Apple's policy requires at least two Signed Certificate Timestamps (SCT) issued from a CT log
  - once-approved or currently approved at the time of check - and either:
  - At least two SCTs from currently approved CT logs with one SCT presented via TLS extension
    or OCSP Stapling; or
  - At least one embedded SCT from a currently approved log and at least the number of SCTs from
    once or currently approved logs, based on validity period as detailed in the table below.

  For certificates with a notBefore value greater than or equal to April 21, 2021
  (2021-04-21T00:00:00Z), the Number of embedded SCTs based on certificate lifetime:
    180 days or less: 2 SCTs from separate logs, at most 1 per log operator counting;
    181 to 398 days: 3, at most 2 per log operator counting.
  For certificates with a notBefore value less than April 21, 2021 (2021-04-21T00:00:00Z):
    Less than 15 months: 2;  15 to 27 months: 3;  27 to 39 months: 4;  More than 39 months: 5
    (SCTs from separate logs; no per-operator maximum).

The lifetime is notBefore through notAfter inclusive (RFC 5280 §4.1.2.5), days of 86 400 s with
any remainder one more day; "k months" after notBefore is the same day and time k calendar months
later (the day clamped), exactly 27 months counting as "15 to 27" (no case sits on it). A log in
state usable is currently approved from its state's timestamp on; a retired log is once-approved
(its SCTs, issued before it retired, count) and currently approved only before its timestamp.
Every SCT is issued one hour after notBefore."""
import calendar, datetime as dt, json, os
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from ct_sim import Log, issue_leaf, rfc3339, save_case, write_log_list

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "apple-legacy")
os.makedirs(OUT, exist_ok=True)
UTC = dt.timezone.utc
D = lambda *a: dt.datetime(*a, tzinfo=UTC)
DAY = dt.timedelta(days=1)
SEC = dt.timedelta(seconds=1)
APRIL_2021 = D(2021, 4, 21)

def add_months(t, k):
    m = t.month - 1 + k
    y, m = t.year + m // 12, m % 12 + 1
    return t.replace(year=y, month=m, day=min(t.day, calendar.monthrange(y, m)[1]))

EARLY = D(2018, 1, 1)
GA = Log("Google Argon", "Google", "usable", EARLY)
GX = Log("Google Xenon", "Google", "usable", EARLY)
GR = Log("Google Pilot retired", "Google", "retired", D(2020, 9, 1))
DC = Log("DigiCert Yeti", "DigiCert", "usable", EARLY)
SE = Log("Sectigo Mammoth", "Sectigo", "usable", EARLY)
CF = Log("Cloudflare Nimbus", "Cloudflare", "usable", EARLY)
LOGS = [GA, GX, GR, DC, SE, CF]
write_log_list(os.path.join(OUT, "log_list.json"), "apple-legacy", D(2022, 6, 1), LOGS)

ca_key = ec.generate_private_key(ec.SECP256R1())
ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "CT Apple Legacy CA")])
ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
      .serial_number(1).not_valid_before(D(2018, 1, 1)).not_valid_after(D(2034, 1, 1))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
open(os.path.join(OUT, "issuer.der"), "wb").write(ca.public_bytes(serialization.Encoding.DER))

def current(l, check):
    return check >= l.since if l.state == "usable" else check < l.since

def required(nb, na):
    """(SCTs from separate logs, per-operator maximum or None), or None: not allowed."""
    end = na + SEC
    if nb >= APRIL_2021:
        days = -(-(end - nb) // DAY)
        return (2, 1) if days <= 180 else (3, 2) if days <= 398 else None
    if end < add_months(nb, 15): return (2, None)
    if end <= add_months(nb, 27): return (3, None)
    if end <= add_months(nb, 39): return (4, None)
    return (5, None)

def apple(nb, na, check, embedded, delivered):
    """The policy text above over the logs of the valid SCTs (one per log), by origin. Every
    case is issued after 15 October 2018, so none is exempt."""
    emb = list({l.id: l for l in embedded}.values())
    dl = list({l.id: l for l in delivered if l.id not in {e.id for e in emb}}.values())
    if len(emb) + len(dl) < 2:
        return False
    now = [l for l in emb + dl if current(l, check)]
    if len(now) >= 2 and any(current(l, check) for l in dl):
        return True
    if not any(current(l, check) for l in emb):
        return False
    need = required(nb, na)
    if need is None:
        return False
    n, cap = need
    per_op = {}
    for l in emb:
        per_op[l.op] = per_op.get(l.op, 0) + 1
    return sum(min(c, cap) if cap else c for c in per_op.values()) >= n

N20 = D(2020, 6, 1)
CASES = [
    # name, notBefore, notAfter, time of check, embedded logs, TLS logs
    # 200 days before 21 April 2021: under 15 months, 2 from separate logs (the 2021 table: 3).
    ("emb-two-200d-2020", N20, N20 + 200 * DAY - SEC, D(2020, 7, 1), [GA, DC], []),
    # No per-operator maximum in the older table: two Google logs count as two.
    ("emb-two-same-operator-200d-2020", N20, N20 + 200 * DAY - SEC, D(2020, 7, 1), [GA, GX], []),
    ("emb-one-200d-2020", N20, N20 + 200 * DAY - SEC, D(2020, 7, 1), [DC], []),
    # 13 months (396 days): 2 (the 2021 table: 3).
    ("emb-two-13mo-2020", D(2020, 1, 15), add_months(D(2020, 1, 15), 13) - SEC, D(2020, 6, 1), [GA, DC], []),
    # 15 months and more: 3 (the 2021 table refuses any lifetime over 398 days).
    ("emb-two-15mo-2020", D(2020, 1, 15), add_months(D(2020, 1, 15), 15), D(2020, 6, 1), [GA, DC], []),
    ("emb-three-15mo-2020", D(2020, 1, 15), add_months(D(2020, 1, 15), 15), D(2020, 6, 1), [GA, DC, SE], []),
    ("emb-three-26mo-2019", D(2019, 1, 15), add_months(D(2019, 1, 15), 26), D(2019, 6, 1), [GA, DC, SE], []),
    # Over 27 months: 4; over 39 months: 5.
    ("emb-three-28mo-2019", D(2019, 1, 15), add_months(D(2019, 1, 15), 28), D(2019, 6, 1), [GA, DC, SE], []),
    ("emb-four-28mo-2019", D(2019, 1, 15), add_months(D(2019, 1, 15), 28), D(2019, 6, 1), [GA, DC, SE, CF], []),
    ("emb-four-40mo-2019", D(2019, 1, 15), add_months(D(2019, 1, 15), 40), D(2019, 6, 1), [GA, DC, SE, CF], []),
    ("emb-five-40mo-2019", D(2019, 1, 15), add_months(D(2019, 1, 15), 40), D(2019, 6, 1), [GA, GX, DC, SE, CF], []),
    # A once-approved (retired) log counts towards the number; one embedded SCT from a
    # currently approved log is still needed.
    ("emb-retired-plus-usable-200d-2020", N20, N20 + 200 * DAY - SEC, D(2020, 10, 1), [GR, DC], []),
    # The boundary: one second before 21 April 2021 (older table) and on it (2021 table).
    ("emb-two-200d-issued-2021-04-20", APRIL_2021 - SEC, APRIL_2021 + 199 * DAY, D(2021, 6, 1), [GA, DC], []),
    ("emb-two-200d-issued-2021-04-21", APRIL_2021, APRIL_2021 + 200 * DAY - SEC, D(2021, 6, 1), [GA, DC], []),
    ("emb-three-200d-issued-2021-04-21", APRIL_2021, APRIL_2021 + 200 * DAY - SEC, D(2021, 6, 1), [GA, GX, DC], []),
    # Delivered by TLS: two from currently approved logs, one delivered, whatever the lifetime.
    ("tls-two-15mo-2020", D(2020, 1, 15), add_months(D(2020, 1, 15), 15), D(2020, 6, 1), [], [GA, DC]),
]
manifest = {"logList": "log_list.json", "issuer": "issuer.der", "cases": []}
for name, nb, na, check, emb, tls in CASES:
    der, tls_list = issue_leaf(name, ca_name, ca_key, nb, na, emb, tls)
    need = required(nb, na)
    manifest["cases"].append(save_case(OUT, name, der, tls_list, {
        "checkTime": rfc3339(check), "apple": apple(nb, na, check, emb, tls),
        "required": need[0] if need else None, "statuses": ["valid"] * (len(emb) + len(tls))}))
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print("\n".join("%-40s apple=%s required=%s" % (c["name"], c["apple"], c["required"]) for c in manifest["cases"]))
