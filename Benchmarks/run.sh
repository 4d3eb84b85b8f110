#!/usr/bin/env bash
# Runs the benchmark suite (Sigil beside swift-certificates and OpenSSL) and writes
# Benchmarks/RESULTS.md (generated: never edit it by hand).
#
#   Benchmarks/run.sh                 # full suite + SHA-NI-masked SHA-256 run + memory
#   Benchmarks/run.sh --filter 'Parse.*'   # extra arguments go to `benchmark` (main run only)
#
# The first build takes several minutes (swift-crypto, swift-certificates, package-benchmark).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
out="$here/.build/results"
rm -rf "$out"
mkdir -p "$out/main" "$out/masked"

bench() {
    swift package --package-path "$here" --allow-writing-to-package-directory benchmark "$@"
}

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "== main run"
bench --format jmh --path "$out/main" --no-progress "$@"

# OpenSSL picks its SHA-NI code from CPUID; this mask hides the SHA extensions bit from it so
# Sigil's portable engine can be compared with OpenSSL's non-SHA-NI assembly.
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "== SHA-256 with OpenSSL's SHA-NI masked"
OPENSSL_ia32cap=":~0x20000000" bench --format jmh --path "$out/masked" --no-progress --filter 'SHA256_.*' || true

echo "== memory"
swift run --package-path "$here" -c release SigilMemory | tee "$out/memory.txt"

{
    echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores visible; SHA-NI: $(grep -qw sha_ni /proc/cpuinfo && echo yes || echo no))"
    echo "Load average (1/5/15 min) at start of the main run: ${load_start}; at its end: ${load_end} (2 cores, shared)"
    echo "Toolchain: $(swift --version 2>&1 | head -1)"
    echo "OpenSSL: $(openssl version | cut -d' ' -f1-2); swift-certificates 1.21.1; package-benchmark $(grep -A6 '"identity" : "benchmark"' Package.resolved | sed -n 's/.*"version" : "\(.*\)".*/\1/p')"
    echo "Sigil: $(git -C "$here/.." rev-parse --short HEAD)$(git -C "$here/.." diff --quiet HEAD -- Sources || echo ' (with uncommitted changes)')"
    echo "Fixtures: Fixtures/certs (rsa2048/rsa4096/p256/p384/p521 root→intermediate→leaf); system bundle /etc/ssl/certs/ca-certificates.crt ($(grep -c 'BEGIN CERTIFICATE' /etc/ssl/certs/ca-certificates.crt) certificates)"
} > "$out/meta.txt"

echo "== inspect throughput"
swift build --package-path "$here/.." -c release --product sigil
bash "$here/scripts/inspect_throughput.sh" "$here/../.build/release/sigil" "$out/inspect.md" || true

python3 "$here/scripts/report.py" "$here/RESULTS.md" "$out/main" "$out/masked" "$out/memory.txt" "$out/meta.txt" "$out/inspect.md"
