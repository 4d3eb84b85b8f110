#!/bin/sh
# Builds the DocC archive of the library products (module Sigil, which re-exports SigilDER,
# SigilX509, SigilCrypto and SigilTrust) from Sources/Sigil/Sigil.docc, without a package
# plugin: swift build, then swift-symbolgraph-extract, then docc convert (both ship with the
# toolchain). SigilNIO's types join the archive when a build with the NIO trait is at hand:
# SIGIL_NIO_SCRATCH names its scratch path (CI: .build-nio, which Scripts/ci-nio.sh built, so
# BoringSSL compiles once per run); its symbol graph is extracted from there.
#
# Usage: Scripts/build-docs.sh [OUTPUT]      (default: .build/docs/Sigil.doccarchive)
#   DOCC_FLAGS="--warnings-as-errors" Scripts/build-docs.sh    fails on any broken link
#   DOCC_FLAGS="--transform-for-static-hosting" ...             for a static web server
# On the shared machine wrap it: flock /tmp/sigil-heavy.lock Scripts/build-docs.sh
# Preview: python3 -m http.server -d OUTPUT after --transform-for-static-hosting, open
# /documentation/sigil.
set -eu
cd "$(dirname "$0")/.."
OUT="${1:-.build/docs/Sigil.doccarchive}"
BIN_DIR="$(dirname "$(command -v swift)")"
swift build --target Sigil
BIN="$(swift build --show-bin-path)"
SG="$(dirname "$OUT")/symbol-graphs"
rm -rf "$SG" "$OUT"
mkdir -p "$SG"
TRIPLE="$(swift -print-target-info | sed -n 's/.*"triple": "\([^"]*\)".*/\1/p' | head -n 1)"
# Every in-repo C target (CSigilSHA, CSigilBignum, CSigilBase64, ...): its generated module map.
# (Build paths hold no blanks: the list is split on them.)
C_MAPS=""
for m in "$BIN"/CSigil*.build/module.modulemap; do C_MAPS="$C_MAPS -Xcc -fmodule-map-file=$m"; done
# shellcheck disable=SC2086
"$BIN_DIR/swift-symbolgraph-extract" -module-name Sigil -target "$TRIPLE" \
    -I "$BIN/Modules" -I Sources/CGMP $C_MAPS \
    -minimum-access-level public \
    -experimental-allowed-reexported-modules=SigilDER,SigilX509,SigilCrypto,SigilTrust \
    -output-dir "$SG"
if [ -n "${SIGIL_NIO_SCRATCH:-}" ]; then
    NIO_BIN="$(cd "$(swift build --traits NIO --scratch-path "$SIGIL_NIO_SCRATCH" --show-bin-path)" && pwd -P)"
    [ -f "$NIO_BIN/Modules/SigilNIO.swiftmodule" ] || {
        echo "build-docs: no SigilNIO module in $NIO_BIN (run Scripts/ci-nio.sh first)" >&2
        exit 1
    }
    # Every C module SigilNIO's dependencies bring (BoringSSL, NIO's shims): their module maps
    # and headers, as the build saw them.
    set --
    for m in "$NIO_BIN"/*.build/module.modulemap "$SIGIL_NIO_SCRATCH"/checkouts/*/Sources/*/include/module.modulemap; do
        [ -f "$m" ] && set -- "$@" -Xcc "-fmodule-map-file=$m"
    done
    for d in "$SIGIL_NIO_SCRATCH"/checkouts/*/Sources/*/include; do
        [ -d "$d" ] && set -- "$@" -Xcc "-I$d"
    done
    "$BIN_DIR/swift-symbolgraph-extract" -module-name SigilNIO -target "$TRIPLE" \
        -I "$NIO_BIN/Modules" -I Sources/CGMP "$@" -minimum-access-level public -output-dir "$SG"
fi
# shellcheck disable=SC2086
"$BIN_DIR/docc" convert Sources/Sigil/Sigil.docc --additional-symbol-graph-dir "$SG" \
    --fallback-display-name Sigil --fallback-bundle-identifier org.sigil.Sigil \
    --output-path "$OUT" ${DOCC_FLAGS:-}
echo "DocC archive: $OUT"
