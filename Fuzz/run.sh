#!/usr/bin/env bash
# Builds one fuzz target with libFuzzer + AddressSanitizer, replays its regression inputs,
# then fuzzes it for SECONDS (default 60).
#
# Usage: Fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
#
# Exit status: 0 when no finding; 1 on any finding (crash, broken invariant, leak, timeout,
# out-of-memory) or when a regression input fails; 2 on a build or usage error.
# Artifacts go to Fuzz/artifacts/TARGET/, the log to Fuzz/logs/TARGET.log.
#
# Environment:
#   FUZZ_FRESH=1       start from the seeds again (default: keep growing Fuzz/corpus-work/TARGET)
#   FUZZ_MAX_LEN=N     -max_len (default 65536)
#   FUZZ_LEAKS=0       turn leak detection off (default on: see README.md)
#   FUZZ_CONFIG=debug  build -c debug instead of -c release (slower, ~4x; exact line numbers
#                      in traces). Release keeps every precondition, bounds and overflow check.
#   FUZZ_NO_BUILD=1    use the binary already built (run-all.sh builds every target once)
#   FUZZ_BUILD_ONE=1   build only TARGET (default: every fuzz product in one `swift build`,
#                      which costs about the same: the library modules dominate)
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"

if [ $# -lt 1 ]; then
    echo "usage: $0 TARGET [SECONDS] [libFuzzer flags...]" >&2
    exit 2
fi
TARGET="$1"
SECS="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
case "$SECS" in ''|*[!0-9]*) echo "run.sh: SECONDS must be a number, got '$SECS'" >&2; exit 2 ;; esac
if [ ! -d "$HERE/Sources/$TARGET" ]; then
    echo "run.sh: no target $TARGET (expected Fuzz/Sources/$TARGET/)" >&2
    exit 2
fi

CONFIG="${FUZZ_CONFIG:-release}"
case "$CONFIG" in debug|release) ;; *) echo "run.sh: FUZZ_CONFIG must be debug or release" >&2; exit 2 ;; esac
SCRATCH="$HERE/.build-fuzz"
BIN="$SCRATCH/$CONFIG/$TARGET"
SEEDS="$HERE/corpus/$TARGET"
WORK="$HERE/corpus-work/$TARGET"
ARTIFACTS="$HERE/artifacts/$TARGET"
REGRESSIONS="$ROOT/Fixtures/fuzz-regressions/$TARGET"
LOGDIR="$HERE/logs"
LOG="$LOGDIR/$TARGET.log"
mkdir -p "$ARTIFACTS" "$LOGDIR" "$WORK"

# ---- build ---------------------------------------------------------------------------------
# `--sanitize=fuzzer` makes SwiftPM compile the executable as a library with libFuzzer's main;
# `-Xswiftc -sanitize=fuzzer,address` adds ASan and keeps the coverage instrumentation in every
# Swift module (SigilDER and swift-asn1 included). See shared/docs/TOOLING.md.
if [ "${FUZZ_NO_BUILD:-0}" != 1 ] || [ ! -x "$BIN" ]; then
    if [ "${FUZZ_BUILD_ONE:-0}" = 1 ]; then PRODUCT=(--product "$TARGET"); else PRODUCT=(); fi
    echo "run.sh: building ${PRODUCT[1]:-every fuzz target} ($CONFIG, libFuzzer + ASan)..."
    if ! swift build -c "$CONFIG" --package-path "$HERE" --scratch-path "$SCRATCH" "${PRODUCT[@]}" \
            --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address > "$LOGDIR/$TARGET.build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$LOGDIR/$TARGET.build.log" | tail -40 >&2
        echo "run.sh: BUILD FAILED for $TARGET" >&2
        exit 2
    fi
fi

# ---- environment -----------------------------------------------------------------------------
# A trap must not leave Swift's backtracer hanging; libFuzzer and ASan report instead.
export SWIFT_BACKTRACE=enable=no
if [ "${FUZZ_LEAKS:-1}" = 1 ]; then
    export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
    LEAK_FLAG=-detect_leaks=1
else
    export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
    LEAK_FLAG=-detect_leaks=0
fi

# ---- regression inputs: every past finding must still pass -----------------------------------
if [ -d "$REGRESSIONS" ]; then
    mapfile -t files < <(find "$REGRESSIONS" -type f -not -name '*.md' -not -name '.*' | sort)
    if [ ${#files[@]} -gt 0 ]; then
        if ! "$BIN" $LEAK_FLAG "${files[@]}" > "$LOGDIR/$TARGET.regressions.log" 2>&1; then
            grep -E "Fatal error|ERROR|Running:|SUMMARY" "$LOGDIR/$TARGET.regressions.log" | head -20 >&2
            echo "run.sh: VERDICT $TARGET: FAIL — a regression input under $REGRESSIONS traps again" >&2
            exit 1
        fi
        echo "run.sh: $TARGET: ${#files[@]} regression inputs pass"
    fi
fi

# ---- corpus ------------------------------------------------------------------------------------
if [ ! -d "$SEEDS" ] || [ -z "$(ls -A "$SEEDS" 2> /dev/null)" ]; then
    "$HERE/make-corpus.sh" "$TARGET" || { echo "run.sh: make-corpus failed" >&2; exit 2; }
fi
if [ "${FUZZ_FRESH:-0}" = 1 ]; then rm -rf "$WORK"; mkdir -p "$WORK"; fi

# ---- dictionary: dicts/TARGET.dict if there is one, else the DER dictionary ------------------
DICT="$HERE/dicts/$TARGET.dict"
[ -f "$DICT" ] || DICT="$HERE/dicts/der.dict"

# ---- fuzz --------------------------------------------------------------------------------------
before=$(find "$ARTIFACTS" -type f | wc -l)
echo "run.sh: fuzzing $TARGET for ${SECS}s (corpus $WORK, seeds $SEEDS)"
"$BIN" "$WORK" "$SEEDS" \
    -max_total_time="$SECS" \
    -rss_limit_mb=2048 \
    -max_len="${FUZZ_MAX_LEN:-65536}" \
    -timeout=10 \
    $LEAK_FLAG \
    -dict="$DICT" \
    -artifact_prefix="$ARTIFACTS/" \
    -print_final_stats=1 \
    "$@" > "$LOG" 2>&1
status=$?
after=$(find "$ARTIFACTS" -type f | wc -l)

# ---- report ------------------------------------------------------------------------------------
last=$(grep -E '^#[0-9]+' "$LOG" | tail -1)
execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$LOG" | grep -oE '[0-9]+$')
rate=$(grep -oE 'stat::average_exec_per_sec: +[0-9]+' "$LOG" | grep -oE '[0-9]+$')
cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+')
ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+')
corp=$(echo "$last" | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' | cut -d' ' -f2)
echo "run.sh: $TARGET: ${execs:-?} executions, ${rate:-?} exec/s, coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}"

if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    grep -E "Fatal error|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY|Test unit written" "$LOG" | head -20 >&2
    echo "run.sh: VERDICT $TARGET: FINDING (exit $status) — see $LOG and $ARTIFACTS/" >&2
    echo "run.sh: turn it into a regression: copy the artifact to $REGRESSIONS/<what>-found-<sha1 prefix>.der" >&2
    echo "run.sh: (not crash-*/leak-*/timeout-*/oom-*: the root .gitignore drops those), fix, re-run" >&2
    exit 1
fi
echo "run.sh: VERDICT $TARGET: PASS (no crash, leak, timeout or OOM in ${SECS}s)"
exit 0
