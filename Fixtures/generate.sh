#!/bin/sh
# Regenerates every Sigil test fixture. Needs only python3 with `cryptography` (and openssl for
# the optional --verify step). Keys in Fixtures/keys/ are reused (created if missing), so the
# output is stable except RSA-PSS signatures, which are randomised.
#
#   Fixtures/generate.sh            generate certs, chains, malformed samples, expected dumps
#   Fixtures/generate.sh --verify   ... and cross-check everything (strict model + openssl)
set -eu
cd "$(dirname "$0")"
export PYTHONDONTWRITEBYTECODE=1
python3 scripts/gen_certs.py
python3 scripts/gen_chains.py
python3 scripts/gen_malformed.py
python3 scripts/gen_expected.py
python3 scripts/gen_names.py      # Fixtures/names: SAN / name-constraint cases (OpenSSL recorded)
python3 scripts/gen_pinning.py    # Fixtures/pinning: pinning scenario table, ATS samples
python3 scripts/gen_policies.py   # Fixtures/policies: RFC 5280 §6.1 policy chains (OpenSSL recorded)
python3 scripts/gen_revocation.py # Fixtures/revocation: CRLs, OCSP responses (openssl ca/crl/ocsp; verdicts recorded)
python3 scripts/gen_purposes.py   # Fixtures/purposes: code-signing / EKU purposes (Go and OpenSSL verdicts recorded)
if [ "${1:-}" = "--verify" ]; then
    python3 scripts/strict_check.py
    python3 scripts/verify_openssl.py
fi
