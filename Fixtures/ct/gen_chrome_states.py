#!/usr/bin/env python3
"""Chrome CT policy cases where a log's state at the time of check decides (Python
`cryptography` plays the logs; the verdicts are computed HERE from the policy text, not by
Sigil). Run: python3 Fixtures/ct/gen_chrome_states.py (rewrites Fixtures/ct/chrome-states).

The Chrome Certificate Transparency Policy (GoogleChrome/CertificateTransparency ct_policy.md,
"For certificates issued on-or-after 15 April 2022"):

  Embedded SCTs:
  1. At least one Embedded SCT from a CT Log that was Qualified, Usable, or ReadOnly at the time
     of check; and
  2. There are Embedded SCTs from at least N distinct CT Logs that were Qualified, Usable,
     ReadOnly, or Retired at the time of check [N = 2 for <= 180 days, 3 above]; and
  3. Among the SCTs satisfying requirements 1 and 2, at least two SCTs must be issued from
     distinct CT Log Operators as recognized by Chrome.

  SCTs delivered via OCSP or TLS:
  1. At least two SCTs from a CT Log that was Qualified, Usable, or ReadOnly at the time of
     check; and
  2. Among the SCTs satisfying requirement 1, at least two SCTs must be issued from distinct CT
     Log Operators as recognized by Chrome.

  "In order to contribute to a certificate's CT Compliance, an SCT must have been issued before
  the Log's Retired timestamp, if one exists."

  "Log Operator uniqueness is defined as having separate entries within the operators section
  of log_list.json. In the rare situation that a CT Log changes operators during its lifetime,
  CT logs in the v3 log list schema optionally contain an list of previous_operators,
  accompanied by the final timestamp that this log was operated by the previous operator. [...]
  each SCT's log operator is determined to be the operator at the time of SCT issuance, by
  comparing the SCT timestamp against the previous_operators timestamps, if present."

A log retired (or made readonly) at T is in that state from T on; before T it was in an earlier,
accepted state (Qualified -> Usable -> ReadOnly -> Retired). Every SCT here is issued before
any state change, so each one is valid; only the states at the time of check differ."""
import datetime as dt, json, os
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
import ct_sim
from ct_sim import issue, save_case, write_log_list

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chrome-states")
os.makedirs(OUT, exist_ok=True)
UTC = dt.timezone.utc
CHECK = dt.datetime(2026, 6, 1, tzinfo=UTC)
NB = dt.datetime(2026, 4, 1, tzinfo=UTC)
SCT_AT = NB + dt.timedelta(hours=1)

class Log(ct_sim.Log):
    def operator_of_sct(self):
        """Who operated the log when it issued the SCTs here (all at SCT_AT)."""
        for name, end in sorted(self.previous, key=lambda p: p[1]):
            if SCT_AT <= end: return name
        return self.op

    def chrome_state_at_check(self):
        """The state the log is in at CHECK (the list gives the current state and since when)."""
        return self.state if CHECK >= self.since else "usable"

EARLY = dt.datetime(2024, 1, 1, tzinfo=UTC)
A1 = Log("Alpha usable", "Alpha", "usable", EARLY)
B1 = Log("Beta usable", "Beta", "usable", EARLY)
GR = Log("Gamma retired", "Gamma", "retired", dt.datetime(2026, 5, 1, tzinfo=UTC))
BR = Log("Beta retired", "Beta", "retired", dt.datetime(2026, 5, 2, tzinfo=UTC))
DR = Log("Delta readonly", "Delta", "readonly", dt.datetime(2026, 5, 15, tzinfo=UTC))
# Logs that changed operator: run by Alpha until after the SCTs were issued (they count as
# Alpha's), or until before (they count as their current operator's).
GA = Log("Gamma ex-Alpha late", "Gamma", "usable", EARLY, previous=[("Alpha", dt.datetime(2026, 5, 1, tzinfo=UTC))])
DA = Log("Delta ex-Alpha early", "Delta", "usable", EARLY, previous=[("Alpha", dt.datetime(2026, 3, 1, tzinfo=UTC))])
LOGS = [A1, B1, GR, BR, DR, GA, DA]

write_log_list(os.path.join(OUT, "log_list.json"), "chrome-states", CHECK, LOGS)

ca_key = ec.generate_private_key(ec.SECP256R1())
ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "CT Chrome States CA")])
ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
      .serial_number(1).not_valid_before(EARLY).not_valid_after(dt.datetime(2034, 1, 1, tzinfo=UTC))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
open(os.path.join(OUT, "issuer.der"), "wb").write(ca.public_bytes(serialization.Encoding.DER))

def chrome(days, embedded, delivered):
    """The policy text above, over the logs of valid SCTs (one per log), by origin."""
    fine = lambda l: l.chrome_state_at_check() in ("qualified", "usable", "readonly")
    counted = lambda l: l.chrome_state_at_check() in ("qualified", "usable", "readonly", "retired")
    n = 2 if days <= 180 else 3
    emb = list({l.id: l for l in embedded if counted(l)}.values())
    if any(fine(l) for l in emb) and len(emb) >= n and len({l.operator_of_sct() for l in emb}) >= 2:
        return True
    dl = list({l.id: l for l in delivered if fine(l)}.values())
    return len(dl) >= 2 and len({l.operator_of_sct() for l in dl}) >= 2

CASES = [
    # Every embedded SCT from a log retired at the time of check (two operators): requirement 1 fails.
    ("embedded-retired-only", [GR, BR], []),
    # One of them from a usable log: compliant.
    ("embedded-retired-plus-usable", [GR, B1], []),
    # A readonly log satisfies requirement 1.
    ("embedded-retired-plus-readonly", [GR, DR], []),
    # TLS: a retired log's SCT does not count; a readonly one does.
    ("tls-retired-plus-usable", [], [GR, B1]),
    ("tls-readonly-plus-usable", [], [DR, A1]),
    ("tls-two-usable", [], [A1, B1]),
    # previous_operators: an SCT issued while Alpha ran the log is Alpha's (one operator with A1)...
    ("embedded-alpha-plus-ex-alpha-late", [A1, GA], []),
    ("tls-alpha-plus-ex-alpha-late", [], [A1, GA]),
    # ...one issued after Alpha handed it over is the current operator's (two operators).
    ("embedded-alpha-plus-ex-alpha-early", [A1, DA], []),
]
manifest = {"checkTime": ct_sim.rfc3339(CHECK), "logList": "log_list.json", "issuer": "issuer.der", "cases": []}
for name, emb, tls in CASES:
    key = ec.generate_private_key(ec.SECP256R1())
    b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name + ".example")]))
         .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(NB).not_valid_after(NB + dt.timedelta(seconds=90 * 86400 - 1))
         .add_extension(x509.SubjectAlternativeName([x509.DNSName(name + ".example")]), critical=False))
    der, tls_list = issue(b, ca_key, emb, tls, SCT_AT)
    manifest["cases"].append(save_case(OUT, name, der, tls_list, {
        "chrome": chrome(90, emb, tls), "statuses": ["valid"] * (len(emb) + len(tls))}))
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print("\n".join("%-32s chrome=%s" % (c["name"], c["chrome"]) for c in manifest["cases"]))
