#!/usr/bin/env bash
# Runs the benchmark suite (Sigil beside swift-certificates, OpenSSL and Go's crypto/x509) and
# writes Benchmarks/RESULTS.md, Benchmarks/results.json and Benchmarks/results.svg (generated:
# never edit them by hand).
#
#   Benchmarks/run.sh                      # full suite + SHA-NI-masked SHA-256 run + memory + Go
#   Benchmarks/run.sh --filter 'Chain.*'   # a subset: arguments go to `benchmark` (main run); the
#                                          # Go peer gets the same --filter regular expression
#
# A run of a subset replaces, in results.json, the operations it measured (Sigil and all its
# peers together) and keeps the others from the runs that measured them; RESULTS.md names the
# run of each row. The SHA-NI-masked run and the memory probe belong to a full run only.
# The Go peer needs `go` (Debian golang-go, Go 1.19+; standard library only): skipped without it.
#
# The first build takes several minutes (swift-crypto, swift-certificates, package-benchmark).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
out="$here/.build/results"
rm -rf "$out"
mkdir -p "$out/main" "$out/masked"

# Incremental builds of changed Sigil sources have linked modules that disagree on a layout:
# start Sigil's part of each scratch path afresh when the sources changed.
source "$here/../Scripts/stale-build-guard.sh"
sigil_guard_scratch "$here/.build" "$here/.." "$here"

bench() {
    swift package --package-path "$here" --allow-writing-to-package-directory benchmark "$@"
}

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "== main run"
bench --format jmh --path "$out/main" --no-progress "$@"

# Go's crypto/x509 on the same fixtures and options, right after the main run (same filter).
filter=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[$i]}" in
        --filter) filter="${args[$((i + 1))]:-}" ;;
        --filter=*) filter="${args[$i]#--filter=}" ;;
    esac
done
go_json=-
if command -v go > /dev/null; then
    echo "== Go crypto/x509 peer ($(go version | cut -d' ' -f3))"
    (cd "$here/go" && go build -o "$out/gopeer" .)
    "$out/gopeer" -root "$here/.." -out "$out/go.json" -filter "$filter"
    go_json="$out/go.json"
else
    echo "== Go peer skipped: no \`go\` on PATH (apt-get install golang-go)"
fi
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"

masked_dir=-
memory=-
if [ $# -eq 0 ]; then
    # OpenSSL picks its SHA-NI code from CPUID; this mask hides the SHA extensions bit from it so
    # Sigil's portable engine can be compared with OpenSSL's non-SHA-NI assembly.
    echo "== SHA-256 with OpenSSL's SHA-NI masked"
    OPENSSL_ia32cap=":~0x20000000" bench --format jmh --path "$out/masked" --no-progress --filter 'SHA256_.*' || true
    masked_dir="$out/masked"

    echo "== memory"
    swift run --package-path "$here" -c release SigilMemory | tee "$out/memory.txt"
    memory="$out/memory.txt"

    echo "== inspect throughput"
    sigil_guard_scratch "$here/../.build" "$here/.." "$here/.."
    swift build --package-path "$here/.." -c release --product sigil
    # The binary must judge the README's main job as a fresh build does before it is timed.
    (cd "$here/.." && .build/release/sigil verify --host leaf.rsa2048.sigil.test --at 1893456000 \
        --anchor Fixtures/chains/valid-anchors-plus-system/anchors.pem \
        --intermediate Fixtures/chains/valid-anchors-plus-system/intermediates.pem \
        Fixtures/chains/valid-anchors-plus-system/leaf.pem > /dev/null) ||
        { echo "run.sh: the release sigil does not trust the README's main job: not measuring it" >&2; exit 1; }
    bash "$here/scripts/inspect_throughput.sh" "$here/../.build/release/sigil" "$out/inspect.md" || true
fi

{
    echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores visible; SHA-NI: $(grep -qw sha_ni /proc/cpuinfo && echo yes || echo no))"
    echo "Load average (1/5/15 min) at start of the main run: ${load_start}; at its end (Go peer included): ${load_end} (2 cores, shared)"
    [ -n "$filter" ] && echo "Subset: \`--filter '${filter}'\`"
    echo "Toolchain: $(swift --version 2>&1 | head -1)"
    echo "OpenSSL: $(openssl version | cut -d' ' -f1-2); swift-certificates 1.21.1; package-benchmark $(grep -A6 '"identity" : "benchmark"' Package.resolved | sed -n 's/.*"version" : "\(.*\)".*/\1/p')"
    echo "Sigil: $(git -C "$here/.." rev-parse --short HEAD)$(git -C "$here/.." diff --quiet HEAD -- Sources || echo ' (with uncommitted changes)')"
    echo "Fixtures: Fixtures/certs (rsa2048/rsa4096/p256/p384/p521 root→intermediate→leaf), Fixtures/eddsa (ed25519/ed448); system bundle /etc/ssl/certs/ca-certificates.crt ($(grep -c 'BEGIN CERTIFICATE' /etc/ssl/certs/ca-certificates.crt) certificates)"
} > "$out/meta.txt"

REPORT_FULL_RUN=$([ $# -eq 0 ] && echo 1 || echo 0) python3 "$here/scripts/report.py" "$here/RESULTS.md" "$out/main" "$masked_dir" "$memory" "$out/meta.txt" "$go_json" "$out/inspect.md"
python3 "$here/scripts/results_svg.py" "$here/results.json" "$here/results.svg"
