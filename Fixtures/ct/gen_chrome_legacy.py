#!/usr/bin/env python3
"""Chrome CT policy for certificates issued before 15 April 2022, checked at a time of their
validity (a historical `--at`). Python `cryptography` plays the logs; the verdicts are computed
HERE from the policy text quoted below, not by Sigil. Run: python3 Fixtures/ct/gen_chrome_legacy.py
(rewrites Fixtures/ct/chrome-legacy).

GoogleChrome/CertificateTransparency ct_policy.md (747480f), "For certificates issued before
15 April 2022":

  Embedded SCTs:
  1. At least one Embedded SCT from a CT Log that was Qualified, Usable or ReadOnly at the time
     of check; and
  2. At least one Embedded SCT from a Google CT Log that was Qualified, Usable, ReadOnly, or
     Retired at the time of check; and
  3. At least one Embedded SCT from a non-Google CT Log that was Qualified, Usable, ReadOnly, or
     Retired at the time of check; and
  4. There are SCTs from at least N distinct CT Logs that were Qualified, Usable, ReadOnly, or
     Retired at the time of check, where N is defined in the following table:
       < 15 months: 2;  >= 15 and <= 27 months: 3;  > 27 and <= 39 months: 4;  > 39 months: 5

  SCTs delivered via OCSP or TLS:
  1. At least one SCT from a Google CT Log that was Qualified, Usable, or ReadOnly at the time of
     check; and
  2. At least one SCT from a non-Google CT Log that was Qualified, Usable, or ReadOnly at time of
     check.

and, for certificates issued on-or-after 15 April 2022, the rules of gen_chrome_states.py (N = 2
for <= 180 days, else 3; two distinct operators; delivered SCTs from two operators).

"Issued" is the certificate's notBefore (as for the policy's 1 May 2018 start). A Google CT Log is
one whose operator in the log list is "Google". The lifetime is notBefore through notAfter
inclusive (RFC 5280 §4.1.2.5); "k months" after notBefore is the same day and time k calendar
months later (the day clamped to the month's length). Item 4 is counted over the embedded SCTs.
Every SCT is issued one hour after notBefore and before any state change of its log."""
import calendar, datetime as dt, json, os
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from ct_sim import Log, issue_leaf, rfc3339, save_case, write_log_list

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chrome-legacy")
os.makedirs(OUT, exist_ok=True)
UTC = dt.timezone.utc
POLICY_2022 = dt.datetime(2022, 4, 15, tzinfo=UTC)

def add_months(t, k):
    m = t.month - 1 + k
    y, m = t.year + m // 12, m % 12 + 1
    return t.replace(year=y, month=m, day=min(t.day, calendar.monthrange(y, m)[1]))

def state_at(log, check):
    """The state at the time of check (before its state's timestamp: an earlier accepted one)."""
    return log.state if check >= log.since else "usable"

EARLY = dt.datetime(2019, 1, 1, tzinfo=UTC)
GA = Log("Google Argon", "Google", "usable", EARLY)
GX = Log("Google Xenon", "Google", "usable", EARLY)
GR = Log("Google Pilot retired", "Google", "retired", dt.datetime(2021, 8, 1, tzinfo=UTC))
DC = Log("DigiCert Yeti", "DigiCert", "usable", EARLY)
SE = Log("Sectigo Mammoth", "Sectigo", "usable", EARLY)
CF = Log("Cloudflare Nimbus", "Cloudflare", "usable", EARLY)
LOGS = [GA, GX, GR, DC, SE, CF]
write_log_list(os.path.join(OUT, "log_list.json"), "chrome-legacy", dt.datetime(2022, 6, 1, tzinfo=UTC), LOGS)

ca_key = ec.generate_private_key(ec.SECP256R1())
ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "CT Chrome Legacy CA")])
ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
      .serial_number(1).not_valid_before(dt.datetime(2018, 1, 1, tzinfo=UTC)).not_valid_after(dt.datetime(2034, 1, 1, tzinfo=UTC))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
open(os.path.join(OUT, "issuer.der"), "wb").write(ca.public_bytes(serialization.Encoding.DER))

CHROME_START = dt.datetime(2018, 4, 30, tzinfo=UTC)

def within_br_lifetime(nb, na):
    """The longest lifetime a publicly-trusted TLS certificate could have when issued at nb: 825
    days from 2018-03-01 (BR §6.3.2, ballot 193), 39 months from 2015-04-01, 60 months from
    2012-07-01 (BR 1.0 §9.4), 120 months before (Chrome's bound for older certificates)."""
    end = na + dt.timedelta(seconds=1)
    if nb >= dt.datetime(2018, 3, 1, tzinfo=UTC):
        return -(-(end - nb) // dt.timedelta(days=1)) <= 825
    months = 39 if nb >= dt.datetime(2015, 4, 1, tzinfo=UTC) else 60 if nb >= dt.datetime(2012, 7, 1, tzinfo=UTC) else 120
    return end <= add_months(nb, months)

def chrome(nb, na, check, embedded, delivered):
    """The policy text above over the logs of the valid SCTs (one per log), by origin. "All TLS
    certificates issued on-or-after 1 May 2018 are required to be CT Compliant" (Sigil starts on
    30 April): issuance is the certificate's notBefore, believed only for a lifetime the BRs
    allowed then (a backdated certificate valid for longer is judged by the policy)."""
    if nb < CHROME_START and within_br_lifetime(nb, na):
        return True
    fine = lambda l: state_at(l, check) in ("qualified", "usable", "readonly")
    counted = lambda l: state_at(l, check) in ("qualified", "usable", "readonly", "retired")
    google = lambda l: l.op == "Google"
    emb = list({l.id: l for l in embedded if counted(l)}.values())
    dl = list({l.id: l for l in delivered if fine(l)}.values())
    end = na + dt.timedelta(seconds=1)  # lifetime notBefore..notAfter inclusive
    if nb >= POLICY_2022:
        days = -(-(end - nb) // dt.timedelta(days=1))
        n = 2 if days <= 180 else 3
        if any(fine(l) for l in emb) and len(emb) >= n and len({l.op for l in emb}) >= 2:
            return True
        return len({l.op for l in dl}) >= 2
    if end < add_months(nb, 15): n = 2
    elif end <= add_months(nb, 27): n = 3
    elif end <= add_months(nb, 39): n = 4
    else: n = 5
    if (any(fine(l) for l in emb) and any(google(l) for l in emb) and any(not google(l) for l in emb)
            and len(emb) >= n):
        return True
    return any(google(l) for l in dl) and any(not google(l) for l in dl)

D = lambda *a: dt.datetime(*a, tzinfo=UTC)
DAY = dt.timedelta(days=1)
SEC = dt.timedelta(seconds=1)
N21 = D(2021, 6, 1)
CASES = [
    # name, notBefore, notAfter, time of check, embedded logs, TLS logs
    # No Google log: the 2022 rules (two operators) would pass; the older rules need a Google log.
    ("emb-two-non-google-90d", N21, N21 + 90 * DAY - SEC, D(2021, 7, 1), [DC, SE], []),
    ("emb-google-plus-other-90d", N21, N21 + 90 * DAY - SEC, D(2021, 7, 1), [GA, DC], []),
    # Two Google logs: no non-Google log.
    ("emb-two-google-90d", N21, N21 + 90 * DAY - SEC, D(2021, 7, 1), [GA, GX], []),
    # A Google log retired at the time of check still counts for items 2 and 4 (SCT before it retired).
    ("emb-google-retired-plus-other-90d", N21, N21 + 90 * DAY - SEC, D(2021, 8, 15), [GR, DC], []),
    # 200 days: under 15 months, N = 2 (the 2022 rules want 3 above 180 days).
    ("emb-google-plus-other-200d", N21, N21 + 200 * DAY - SEC, D(2021, 7, 1), [GA, DC], []),
    # One day short of 15 months: N = 2. Exactly 15 months: N = 3.
    ("emb-two-15mo-less-a-day", D(2020, 1, 15), add_months(D(2020, 1, 15), 15) - DAY, D(2020, 6, 1), [GA, DC], []),
    ("emb-two-15mo", D(2020, 1, 15), add_months(D(2020, 1, 15), 15), D(2020, 6, 1), [GA, DC], []),
    ("emb-three-15mo", D(2020, 1, 15), add_months(D(2020, 1, 15), 15), D(2020, 6, 1), [GA, DC, SE], []),
    # Over 27 months: N = 4.
    ("emb-three-28mo", D(2019, 1, 15), add_months(D(2019, 1, 15), 28), D(2019, 6, 1), [GA, DC, SE], []),
    ("emb-four-28mo", D(2019, 1, 15), add_months(D(2019, 1, 15), 28), D(2019, 6, 1), [GA, DC, SE, CF], []),
    # Over 39 months: N = 5.
    ("emb-four-40mo", D(2019, 1, 15), add_months(D(2019, 1, 15), 40), D(2019, 6, 1), [GA, DC, SE, CF], []),
    # Delivered by TLS: a Google and a non-Google log, each Qualified/Usable/ReadOnly now.
    ("tls-two-non-google", N21, N21 + 90 * DAY - SEC, D(2021, 7, 1), [], [DC, SE]),
    ("tls-google-plus-other", N21, N21 + 90 * DAY - SEC, D(2021, 7, 1), [], [GA, DC]),
    ("tls-google-retired-plus-other", N21, N21 + 90 * DAY - SEC, D(2021, 8, 15), [], [GR, DC]),
    # Dated before CT enforcement (30 April 2018): exempt with a lifetime the BRs allowed then
    # (39 months), judged by the policy when backdated with a longer one (no SCTs: not compliant).
    ("pre-2018-39mo-no-scts", D(2018, 1, 1), add_months(D(2018, 1, 1), 39) - DAY, D(2019, 6, 1), [], []),
    ("backdated-2018-12y-no-scts", D(2018, 1, 1), D(2030, 1, 1), D(2026, 6, 1), [], []),
    ("backdated-2018-12y-google-plus-other", D(2018, 1, 1), D(2030, 1, 1), D(2026, 6, 1), [GA, DC, SE, CF, GX], []),
    # The boundary: issued one second before 15 April 2022 (older rules), or on it (2022 rules).
    ("emb-two-non-google-issued-2022-04-14", POLICY_2022 - SEC, POLICY_2022 + 89 * DAY, D(2022, 6, 1), [DC, SE], []),
    ("emb-two-non-google-issued-2022-04-15", POLICY_2022, POLICY_2022 + 90 * DAY - SEC, D(2022, 6, 1), [DC, SE], []),
]
manifest = {"logList": "log_list.json", "issuer": "issuer.der", "cases": []}
for name, nb, na, check, emb, tls in CASES:
    der, tls_list = issue_leaf(name, ca_name, ca_key, nb, na, emb, tls)
    manifest["cases"].append(save_case(OUT, name, der, tls_list, {
        "checkTime": rfc3339(check), "chrome": chrome(nb, na, check, emb, tls),
        "statuses": ["valid"] * (len(emb) + len(tls))}))
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print("\n".join("%-40s chrome=%s" % (c["name"], c["chrome"]) for c in manifest["cases"]))
