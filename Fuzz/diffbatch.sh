#!/usr/bin/env bash
# Builds (if needed) and runs diffbatch: Sigil vs OpenSSL on N seeded mutated chains.
# Usage: Fuzz/diffbatch.sh [--seed S] [-n N] [--index I] [--verbose] [--out DIR] [--input FUZZ-INPUT]
#                          [--oracle go|openssl|auto]
# --oracle go: also Go's crypto/x509 (Fuzz/oracle-go, built here; Go installed if missing) and a
# three-way table; auto (default): Go when `go` is installed; openssl: Sigil vs OpenSSL only.
# The standalone build (no libFuzzer, no ASan; release) lives in Fuzz/.build-standalone and is
# shared with coverage.sh's replay drivers (FUZZ_NO_BUILD=1 skips the build).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SCRATCH="$HERE/.build-standalone"
if [ "${FUZZ_NO_BUILD:-0}" != 1 ] || [ ! -x "$SCRATCH/release/diffbatch" ]; then
    mkdir -p "$HERE/logs"
    source "$HERE/../Scripts/stale-build-guard.sh"
    sigil_guard_scratch "$SCRATCH" "$HERE/.." "$HERE"
    if ! swift build -c release --package-path "$HERE" --scratch-path "$SCRATCH" --product diffbatch \
            -Xswiftc -DSIGIL_FUZZ_STANDALONE -Xswiftc -parse-as-library > "$HERE/logs/diffbatch.build.log" 2>&1; then
        tail -30 "$HERE/logs/diffbatch.build.log" >&2
        echo "diffbatch: BUILD FAILED" >&2
        exit 2
    fi
fi
ORACLE=auto
prev=""
for a in "$@"; do
    [ "$prev" = --oracle ] && ORACLE="$a"
    prev="$a"
done
if [ "$ORACLE" = go ] || [ "$ORACLE" = all ] || { [ "$ORACLE" = auto ] && command -v go >/dev/null 2>&1; }; then
    if GO_BIN="$("$HERE/oracle-go/build.sh")"; then
        export SIGIL_ORACLE_GO="$GO_BIN"
    elif [ "$ORACLE" != auto ]; then
        exit 2
    fi
fi
exec "$SCRATCH/release/diffbatch" "$@"
