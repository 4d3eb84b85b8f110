#!/usr/bin/env bash
# Allocation gate for Sigil's parse and verify paths: runs the Sigil benchmarks that have a
# static threshold file in Benchmarks/Thresholds/ and checks their malloc counts (p90 of
# package-benchmark's `mallocCountTotal`, per operation) against it.
#
# A separate script, not part of `swift test`: the benchmark package takes several minutes to
# build from clean (swift-crypto, swift-certificates), which is too slow for every CI run of
# the library. Run it in a nightly/perf job or before merging performance-sensitive work.
#
# Exit status: 0 = allocations as recorded (or fewer: then lower the numbers in
# Thresholds/*.p90.json, they are ceilings), 2 = a regression (more allocations),
# 1 = the check itself failed (build error, benchmark crash).
#
# The files hold only `mallocCountTotal`, so wall-clock noise never fails the gate. Zero is the
# design goal for parsing ("no heap allocation on the happy path", DESIGN.md habit 3).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
names=$(ls Thresholds/*.p90.json | sed -E 's|Thresholds/SigilBenchmarks\.(.*)\.p90\.json|\1|' | paste -sd'|')
filter="^(${names})\$"
echo "checking: ${names//|/ }"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift package --package-path "$here" --disable-sandbox benchmark thresholds check \
    --path "$here/Thresholds" --filter "$filter" --no-progress 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Through `swift package` every non-equal outcome exits 1 (the tool's own codes are 2 for a
# regression and 4 for an improvement), so read its verdict line.
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "allocations: REGRESSION (more allocations than recorded, see above)"
    exit 2
elif grep -q "is BETTER than the defined thresholds" "$log"; then
    echo "allocations: fewer than recorded (improvement) — lower the ceilings in Thresholds/"
    exit 0
elif grep -q "is EQUAL to the defined thresholds" "$log"; then
    echo "allocations: as recorded"
    exit 0
fi
echo "allocations: check did not complete (status $status)"
exit 1
