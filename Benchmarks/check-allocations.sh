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
# Thresholds/*.p90.json, they are ceilings), 2 = a regression (more allocations).
#
# The files hold only `mallocCountTotal`, so wall-clock noise never fails the gate. Zero is the
# design goal for parsing ("no heap allocation on the happy path", DESIGN.md habit 3).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
names=$(ls Thresholds/*.p90.json | sed -E 's|Thresholds/SigilBenchmarks\.(.*)\.p90\.json|\1|' | paste -sd'|')
filter="^(${names})\$"
echo "checking: ${names//|/ }"
swift package --package-path "$here" --disable-sandbox benchmark thresholds check \
    --path "$here/Thresholds" --filter "$filter" --no-progress
status=$?
case $status in
    0) echo "allocations: as recorded" ;;
    4) echo "allocations: fewer than recorded (improvement) — lower the ceilings in Thresholds/"; status=0 ;;
    *) echo "allocations: REGRESSION (status $status)" ;;
esac
exit $status
