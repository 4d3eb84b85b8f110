#!/usr/bin/env bash
# Builds (if needed) and runs diffbatch: Sigil vs OpenSSL on N seeded mutated chains.
# Usage: Fuzz/diffbatch.sh [--seed S] [-n N] [--index I] [--verbose] [--out DIR] [--input FUZZ-INPUT]
# The standalone build (no libFuzzer, no ASan; release) lives in Fuzz/.build-standalone and is
# shared with coverage.sh's replay drivers (FUZZ_NO_BUILD=1 skips the build).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SCRATCH="$HERE/.build-standalone"
if [ "${FUZZ_NO_BUILD:-0}" != 1 ] || [ ! -x "$SCRATCH/release/diffbatch" ]; then
    mkdir -p "$HERE/logs"
    if ! swift build -c release --package-path "$HERE" --scratch-path "$SCRATCH" --product diffbatch \
            -Xswiftc -DSIGIL_FUZZ_STANDALONE -Xswiftc -parse-as-library > "$HERE/logs/diffbatch.build.log" 2>&1; then
        tail -30 "$HERE/logs/diffbatch.build.log" >&2
        echo "diffbatch: BUILD FAILED" >&2
        exit 2
    fi
fi
exec "$SCRATCH/release/diffbatch" "$@"
