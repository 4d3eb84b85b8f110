#!/bin/sh
# Builds the DocC archive of the library products (module Sigil, which re-exports SigilDER,
# SigilX509, SigilCrypto and SigilTrust) from Sources/Sigil/Sigil.docc, without a package
# plugin: swift build, then swift-symbolgraph-extract, then docc convert (both ship with the
# toolchain). SigilNIO is not included (it needs the NIO trait build; its types are named in
# the TLS recipes article as code).
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
"$BIN_DIR/swift-symbolgraph-extract" -module-name Sigil -target "$TRIPLE" \
    -I "$BIN/Modules" -I Sources/CGMP \
    -Xcc "-fmodule-map-file=$BIN/CSigilSHA.build/module.modulemap" \
    -Xcc "-fmodule-map-file=$BIN/CSigilBignum.build/module.modulemap" \
    -minimum-access-level public \
    -experimental-allowed-reexported-modules=SigilDER,SigilX509,SigilCrypto,SigilTrust \
    -output-dir "$SG"
# shellcheck disable=SC2086
"$BIN_DIR/docc" convert Sources/Sigil/Sigil.docc --additional-symbol-graph-dir "$SG" \
    --fallback-display-name Sigil --fallback-bundle-identifier org.sigil.Sigil \
    --output-path "$OUT" ${DOCC_FLAGS:-}
echo "DocC archive: $OUT"
