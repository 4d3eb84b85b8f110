#!/usr/bin/env bash
# The differential verification campaign in one command: FuzzVerifyDiff (Sigil vs OpenSSL vs
# Go) in chunks of at most 10 minutes, every artifact replayed and classified by diffbatch
# (three-way when Go is available), one line per chunk appended to Fuzz/CAMPAIGN.md.
#
#   Fuzz/diff-campaign.sh [MINUTES]        # default 30 (the issue's final run on merged code)
#
# Builds first (under $FUZZ_LOCK, default /tmp/sigil-heavy.lock): the Go helper
# (Fuzz/oracle-go/build.sh; skipped with FUZZ_DIFF_GO=0), the diffbatch replay tool and the
# libFuzzer build (run.sh). Each chunk: `run.sh FuzzVerifyDiff SECS -fork=1 -ignore_crashes=1`
# (keeps fuzzing after a finding; artifacts in Fuzz/artifacts/FuzzVerifyDiff/), then
# `diffbatch.sh --input ARTIFACT --verbose --out Fuzz/logs/diff-campaign/` for each new artifact.
# The lines go to the end of CAMPAIGN.md, whose last section is the differential runs' table.
# Exit 0 when no chunk left an unexplained finding (an artifact diffbatch marks FINDING), else 1.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MINUTES="${1:-30}"
LOCK="${FUZZ_LOCK:-/tmp/sigil-heavy.lock}"
TARGET=FuzzVerifyDiff
ART="$HERE/artifacts/$TARGET"
OUT="$HERE/logs/diff-campaign"
mkdir -p "$ART" "$OUT"
export SIGIL_ROOT="$(dirname "$HERE")"

if [ "${FUZZ_DIFF_GO:-1}" != 0 ]; then
    if GO_BIN="$(flock "$LOCK" "$HERE/oracle-go/build.sh")"; then
        export SIGIL_ORACLE_GO="$GO_BIN"
        echo "diff-campaign: three verifiers (Sigil, OpenSSL, Go: $GO_BIN)"
    else
        echo "diff-campaign: Go helper unavailable, Sigil vs OpenSSL only" >&2
        export FUZZ_DIFF_GO=0
    fi
fi
flock "$LOCK" env FUZZ_DIFF_GO="${FUZZ_DIFF_GO:-1}" "$HERE/diffbatch.sh" --index 0 > /dev/null || { echo "diff-campaign: diffbatch build failed" >&2; exit 2; }
# The libFuzzer build, alone under the lock (run.sh then fuzzes without building).
flock "$LOCK" "$HERE/run.sh" "$TARGET" 1 > "$OUT/build.log" 2>&1
if [ ! -x "$HERE/.build-fuzz/release/$TARGET" ]; then
    tail -20 "$OUT/build.log" >&2
    echo "diff-campaign: fuzz build failed" >&2
    exit 2
fi

remaining=$(( MINUTES * 60 ))
worst=0
while [ "$remaining" -gt 0 ]; do
    secs=$(( remaining > 600 ? 600 : remaining ))
    remaining=$(( remaining - secs ))
    before=$(ls "$ART" | sort)
    start=$(date -u '+%Y-%m-%d %H:%M')
    t0=$(date +%s)
    FUZZ_NO_BUILD=1 "$HERE/run.sh" "$TARGET" "$secs" -fork=1 -ignore_crashes=1 > "$OUT/chunk.log" 2>&1
    t1=$(date +%s)
    L="$HERE/logs/$TARGET.log"
    last=$(grep -E '^#[0-9]+' "$L" | tail -1)
    execs=$(echo "$last" | grep -oE '^#[0-9]+' | tr -d '#')
    rate=$(echo "$last" | grep -oE 'exec/s: [0-9]+' | grep -oE '[0-9]+')
    cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+')
    new=$(comm -13 <(echo "$before") <(ls "$ART" | sort) | grep -v '^$' || true)
    nnew=$(echo -n "$new" | grep -c . || true)
    unexplained=0
    classes=""
    for a in $new; do
        r=$(FUZZ_NO_BUILD=1 "$HERE/diffbatch.sh" --input "$ART/$a" --verbose --out "$OUT/$a")
        echo "$r" > "$OUT/$a.txt"
        line=$(echo "$r" | head -1)
        if echo "$line" | grep -q FINDING; then
            unexplained=$(( unexplained + 1 ))
            worst=1
        fi
        classes+="$(echo "$line" | sed 's/^\[0\] //; s/|/\\|/g'); "
    done
    verdict="0"
    [ "$nnew" -gt 0 ] && verdict="$nnew artifact(s), $unexplained unexplained: ${classes%; }"
    go=no
    [ -n "${SIGIL_ORACLE_GO:-}" ] && go=yes
    echo "| $start | diff-campaign chunk (\`run.sh $TARGET $secs -fork=1 -ignore_crashes=1\`, Go $go) | $(( t1 - t0 )) | ${execs:-?} | ${rate:-?} | ${cov:-?} | $verdict |" | tee -a "$HERE/CAMPAIGN.md"
done
echo "diff-campaign: $MINUTES min done; unexplained findings: $([ $worst = 0 ] && echo none || echo 'see above')"
exit $worst
