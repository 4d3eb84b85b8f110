#!/usr/bin/env bash
# A second platform for the library (issue 15): no other SDK or C library is installed here
# (`swift sdk list` is empty), but the toolchain ships Embedded Swift's standard library for
# bare-metal targets. This compiles SigilDER and SigilX509 to object files for three of them —
# x86_64 (64-bit, no C library), wasm32 and armv7em (32-bit `Int`: every offset and length
# computation is exercised at 32 bits) — and type-checks SigilTrust without a C library (the
# `#else` branches of SystemTrustStore.swift / WallClock.swift: no file system, no clock).
# SigilTrust cannot be code-generated in Embedded Swift yet: `any CertificateSignatureVerifier`
# and key paths are embedded restrictions. SigilCrypto needs GMP (not for these targets).
#
#   bash Scripts/build-embedded.sh       (≈ 1 min; SIGIL_LOCK=/tmp/sigil-heavy.lock to serialise)
set -euo pipefail
cd "$(dirname "$0")/.."
heavy() { if [ -n "${SIGIL_LOCK:-}" ]; then flock "$SIGIL_LOCK" "$@"; else "$@"; fi; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# -package-name: the modules share `package` declarations (SigilDER's ByteSink), as SwiftPM builds them.
EMBEDDED=(-enable-experimental-feature Embedded -wmo -parse-as-library -package-name sigil)
for target in x86_64-unknown-none-elf wasm32-unknown-none-wasm armv7em-none-none-eabi; do
    mkdir -p "$OUT/$target"
    for module in SigilDER SigilX509; do
        heavy swiftc -target "$target" "${EMBEDDED[@]}" -Osize -I "$OUT/$target" -module-name "$module" \
            -emit-module -emit-module-path "$OUT/$target/$module.swiftmodule" -c -o "$OUT/$target/$module.o" \
            $(find "Sources/$module" -name '*.swift' | sort)
        echo "build-embedded: $module for $target: ok"
    done
done
heavy swiftc -target x86_64-unknown-none-elf "${EMBEDDED[@]}" -I "$OUT/x86_64-unknown-none-elf" -module-name SigilTrust \
    -typecheck $(find Sources/SigilTrust -name '*.swift' | sort)
echo "build-embedded: SigilTrust type-checks without a C library (x86_64-unknown-none-elf)"
