#!/usr/bin/env bash
# Line and region coverage of the library modules reached by each fuzz target's corpus.
#
# Usage: Fuzz/coverage.sh [TARGET...]          (default: every target of targets.sh)
#
# Builds the fuzz package without libFuzzer (-DSIGIL_FUZZ_STANDALONE turns each target's
# main.swift into a replay driver: FuzzSupport/FuzzStandalone.swift) and with LLVM source-based
# coverage (-profile-generate -profile-coverage-mapping), debug, in Fuzz/.build-cov; replays the
# target's corpora — committed Fuzz/corpus/T, Fuzz/corpus-work/T (what past runs found),
# Fuzz/corpus-gen/T (generated seeds) and the regression inputs — with LLVM_PROFILE_FILE;
# merges with llvm-profdata and reports per module with llvm-cov (the toolchain's, in
# /opt/swift/usr/bin). Prints one table per target and one for all targets together; the
# profiles and JSON summaries stay in Fuzz/logs/coverage/.
#
# Environment: FUZZ_NO_BUILD=1 reuses the build; FUZZ_LOCK=path wraps the build in flock.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
# shellcheck source=targets.sh
source "$HERE/targets.sh"
if [ $# -gt 0 ]; then TARGETS=("$@"); fi
TOOLS=/opt/swift/usr/bin
[ -x "$TOOLS/llvm-cov" ] || TOOLS="$(dirname "$(command -v swift)")"
SCRATCH="$HERE/.build-cov"
OUT="$HERE/logs/coverage"
LOCK=()
[ -n "${FUZZ_LOCK:-}" ] && LOCK=(flock "$FUZZ_LOCK")

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    mkdir -p "$HERE/logs"
    echo "coverage: building (debug, coverage, standalone replay drivers)..."
    source "$HERE/../Scripts/stale-build-guard.sh"
    sigil_guard_scratch "$SCRATCH" "$HERE/.." "$HERE"
    if ! "${LOCK[@]}" swift build -c debug --package-path "$HERE" --scratch-path "$SCRATCH" \
            -Xswiftc -DSIGIL_FUZZ_STANDALONE -Xswiftc -parse-as-library -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping \
            > "$HERE/logs/coverage.build.log" 2>&1; then
        grep -E "error" "$HERE/logs/coverage.build.log" | head -30 >&2
        echo "coverage: BUILD FAILED" >&2
        exit 2
    fi
fi
BIN="$SCRATCH/debug"
[ -d "$HERE/corpus-gen/${TARGETS[0]}" ] || "$HERE/make-corpus.sh" "${TARGETS[@]}" > /dev/null 2>&1

rm -rf "$OUT"; mkdir -p "$OUT"
export SWIFT_BACKTRACE=enable=no
objects=()
for t in "${TARGETS[@]}"; do
    dirs=()
    for d in "$HERE/corpus/$t" "$HERE/corpus-work/$t" "$HERE/corpus-gen/$t" "$ROOT/Fixtures/fuzz-regressions/$t"; do
        [ -d "$d" ] && dirs+=("$d")
    done
    n=$(find "${dirs[@]}" -maxdepth 1 -type f 2> /dev/null | wc -l)
    start=$(date +%s)
    LLVM_PROFILE_FILE="$OUT/$t-%p.profraw" "$BIN/$t" "${dirs[@]}" > "$OUT/$t.log" 2>&1 || echo "coverage: $t replay exited with $? (see $OUT/$t.log)" >&2
    "$TOOLS/llvm-profdata" merge -sparse "$OUT/$t"-*.profraw -o "$OUT/$t.profdata"
    "$TOOLS/llvm-cov" export -summary-only "$BIN/$t" -instr-profile="$OUT/$t.profdata" > "$OUT/$t.json"
    echo "coverage: $t: $n inputs replayed in $(( $(date +%s) - start )) s"
    objects+=("$BIN/$t")
done
"$TOOLS/llvm-profdata" merge -sparse "$OUT"/*.profdata -o "$OUT/all.profdata"
args=("${objects[0]}")
for o in "${objects[@]:1}"; do args+=(-object "$o"); done
"$TOOLS/llvm-cov" export -summary-only "${args[@]}" -instr-profile="$OUT/all.profdata" > "$OUT/all.json"

python3 - "$OUT" "${TARGETS[@]}" << 'PY'
import json, re, sys
out, targets = sys.argv[1], sys.argv[2:]
modules = ['SigilDER', 'SigilX509', 'SigilCrypto', 'SigilTrust', 'Sigil']
def summary(path):
    data = json.load(open(path))
    agg = {m: [0, 0, 0, 0] for m in modules}   # lines covered, lines, regions covered, regions
    for f in data['data'][0]['files']:
        m = re.search(r'/Sources/(Sigil[A-Za-z0-9]*)/', f['filename'])
        if not m or m.group(1) not in agg or '/Fuzz/' in f['filename'] or '/.build' in f['filename']:
            continue
        s = f['summary']
        a = agg[m.group(1)]
        a[0] += s['lines']['covered']; a[1] += s['lines']['count']
        a[2] += s['regions']['covered']; a[3] += s['regions']['count']
    return agg
def pct(c, n): return '%.1f' % (100.0 * c / n) if n else '—'
print()
print('Lines covered per module (%), by target:')
print()
print('| target | ' + ' | '.join(modules) + ' |')
print('|---|' + '---|' * len(modules))
for t in targets:
    a = summary('%s/%s.json' % (out, t))
    print('| `%s` | ' % t + ' | '.join(pct(a[m][0], a[m][1]) for m in modules) + ' |')
a = summary('%s/all.json' % out)
print()
print('All targets together:')
print()
print('| module | lines | lines covered | regions | regions covered |')
print('|---|---|---|---|---|')
for m in modules:
    l, n, r, rn = a[m]
    print('| `%s` | %d | %d (%s %%) | %d | %d (%s %%) |' % (m, n, l, pct(l, n), rn, r, pct(r, rn)))
PY
