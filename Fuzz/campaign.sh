#!/usr/bin/env bash
# A fuzzing campaign: every target in turn, one at a time, each with an equal share of HOURS.
#
# Usage: Fuzz/campaign.sh HOURS [TARGET...]      (e.g. 0.5; default: every target of targets.sh)
#
# One build (as run-all.sh), then per target: run.sh TARGET SHARE (regressions replayed first;
# the working corpus Fuzz/corpus-work/T keeps growing across campaigns), then
# `-merge=1 Fuzz/corpus/T Fuzz/corpus-work/T Fuzz/corpus-gen/T`: inputs (found, or generated
# seeds) that add coverage go into the committed, minimized corpus (commit it to keep them;
# inputs are cut at FUZZ_MERGE_MAX_LEN, default 8192 bytes, to keep the repository small).
# Appends one dated line per target to Fuzz/CAMPAIGN.md: seconds, executions, exec/s, edges,
# features, working corpus, committed corpus (files / size), findings (Fuzz/artifacts/T).
#
# Environment: FUZZ_LOCK=path runs the build and each target's fuzzing under `flock path`
# (shared machines: the campaign then waits its turn between targets; or wrap a whole chunk of
# targets: `flock path Fuzz/campaign.sh 0.05 T1 T2 T3`); FUZZ_NO_BUILD=1 as run.sh.
# Exit status: 0 when no target had a finding, 1 otherwise, 2 on a build error.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 1 ]; then echo "usage: $0 HOURS [TARGET...]" >&2; exit 2; fi
HOURS="$1"; shift
# shellcheck source=targets.sh
source "$HERE/targets.sh"
if [ $# -gt 0 ]; then TARGETS=("$@"); fi
SHARE=$(python3 -c "import sys; print(max(10, int(float(sys.argv[1]) * 3600 / int(sys.argv[2]))))" "$HOURS" "${#TARGETS[@]}") \
    || { echo "campaign: HOURS must be a number" >&2; exit 2; }
LOCK=()
[ -n "${FUZZ_LOCK:-}" ] && LOCK=(flock "$FUZZ_LOCK")
CONFIG="${FUZZ_CONFIG:-release}"
LOG="$HERE/CAMPAIGN.md"

"$HERE/make-corpus.sh" "${TARGETS[@]}" > /dev/null || { echo "campaign: make-corpus failed" >&2; exit 2; }
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    mkdir -p "$HERE/logs"
    echo "campaign: building every fuzz target ($CONFIG)..."
    source "$HERE/../Scripts/stale-build-guard.sh"
    sigil_guard_scratch "$HERE/.build-fuzz" "$HERE/.." "$HERE"
    if ! "${LOCK[@]}" swift build -c "$CONFIG" --package-path "$HERE" --scratch-path "$HERE/.build-fuzz" \
            --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address > "$HERE/logs/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$HERE/logs/build.log" | tail -30 >&2
        echo "campaign: BUILD FAILED" >&2
        exit 2
    fi
fi
export FUZZ_NO_BUILD=1

if [ ! -f "$LOG" ]; then
    cat > "$LOG" << 'MD'
# Fuzzing campaigns

One line per target per campaign, appended by `Fuzz/campaign.sh HOURS` (release + ASan + leak
detection, 2 shared cores). Executions and exec/s are libFuzzer's final stats; edges and
features its last status line; "corpus" the working corpus (Fuzz/corpus-work/T) after the run
and the committed one (Fuzz/corpus/T) after `-merge=1`. Goal over time: ≥ 10⁸ executions per
target without a finding.

| date (UTC) | target | seconds | executions | exec/s | edges | features | working corpus | committed corpus | findings |
|---|---|---|---|---|---|---|---|---|---|
MD
fi

worst=0
for t in "${TARGETS[@]}"; do
    echo "==== campaign: $t, ${SHARE}s ===="
    before=$(find "$HERE/artifacts/$t" -type f 2> /dev/null | wc -l)
    "${LOCK[@]}" "$HERE/run.sh" "$t" "$SHARE" > "$HERE/logs/$t.campaign.out" 2>&1
    rc=$?
    tail -3 "$HERE/logs/$t.campaign.out"
    after=$(find "$HERE/artifacts/$t" -type f 2> /dev/null | wc -l)
    L="$HERE/logs/$t.log"
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$L" | grep -oE '[0-9]+$')
    rate=$(grep -oE 'stat::average_exec_per_sec: +[0-9]+' "$L" | grep -oE '[0-9]+$')
    last=$(grep -E '^#[0-9]+' "$L" | tail -1)
    cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+')
    ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+')
    corp=$(echo "$last" | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' | cut -d' ' -f2)
    # Keep what the run found: merge into the committed, minimized corpus.
    mkdir -p "$HERE/corpus/$t"
    # Not under FUZZ_LOCK: a merge takes seconds, and waiting for the lock a second time per
    # target doubled a campaign's wall time on the shared machine.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$HERE/.build-fuzz/$CONFIG/$t" -merge=1 \
        -rss_limit_mb=2048 -max_len="${FUZZ_MERGE_MAX_LEN:-8192}" -timeout=10 \
        "$HERE/corpus/$t" "$HERE/corpus-work/$t" "$HERE/corpus-gen/$t" > "$HERE/logs/$t.merge.log" 2>&1 \
        || echo "campaign: merge of $t failed (see logs/$t.merge.log)" >&2
    committed="$(find "$HERE/corpus/$t" -type f | wc -l) files / $(( $(find "$HERE/corpus/$t" -type f -exec cat {} + | wc -c) / 1024 )) KiB"
    if [ $rc -eq 0 ] && [ "$after" -eq "$before" ]; then findings=0
    else findings="$(( after - before )) artifact(s), exit $rc"; [ $worst -lt 1 ] && worst=1; fi
    [ $rc -ge 2 ] && worst=2
    echo "| $(date -u '+%Y-%m-%d %H:%M') | \`$t\` | $SHARE | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} | $committed | $findings |" >> "$LOG"
done
echo "campaign: done; see $LOG"
exit $worst
