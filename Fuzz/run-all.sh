#!/usr/bin/env bash
# Runs every fuzz target in turn (never concurrently): one `swift build` of every fuzz
# product, then per target: replay its regression inputs, fuzz for SECONDS (default 45).
# Meant for CI.
#
# Usage: Fuzz/run-all.sh [SECONDS]
# Exit status: 0 when every target passes; 1 if any target had a finding; 2 if any build failed.
# A failing target does not stop the others: the summary lists them all.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SECS="${1:-45}"
# shellcheck source=targets.sh
source "$HERE/targets.sh"

# Fresh seeds each time (cheap), so a CI run never depends on a stale corpus.
"$HERE/make-corpus.sh" "${TARGETS[@]}" || { echo "run-all: make-corpus failed" >&2; exit 2; }

# One build of every product (libFuzzer + ASan): the library modules are compiled once.
CONFIG="${FUZZ_CONFIG:-release}"
mkdir -p "$HERE/logs"
echo "run-all: building every fuzz target ($CONFIG)..."
source "$HERE/../Scripts/stale-build-guard.sh"
sigil_guard_scratch "$HERE/.build-fuzz" "$HERE/.." "$HERE"
if ! swift build -c "$CONFIG" --package-path "$HERE" --scratch-path "$HERE/.build-fuzz" \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address > "$HERE/logs/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$HERE/logs/build.log" | tail -40 >&2
    echo "run-all: BUILD FAILED" >&2
    exit 2
fi
export FUZZ_NO_BUILD=1

worst=0
summary=()
for target in "${TARGETS[@]}"; do
    echo "==== $target ===="
    "$HERE/run.sh" "$target" "$SECS"
    rc=$?
    case $rc in
        0) summary+=("PASS     $target") ;;
        1) summary+=("FINDING  $target"); [ $worst -lt 1 ] && worst=1 ;;
        *) summary+=("BUILD/USAGE ERROR $target"); worst=2 ;;
    esac
done

echo "==== fuzz summary (${SECS}s per target) ===="
printf '%s\n' "${summary[@]}"
if [ $worst -eq 0 ]; then
    echo "fuzz: ${#TARGETS[@]} passed, 0 failed"
else
    failed=$(printf '%s\n' "${summary[@]}" | grep -vc '^PASS')
    echo "fuzz: $(( ${#TARGETS[@]} - failed )) passed, $failed failed"
fi
exit $worst
