#!/usr/bin/env bash
# Builds Fuzz/.build-go/oracle-go (Go's crypto/x509 verifier for the differential oracle).
# Installs Go (Debian's golang-go, Go 1.19; ≈ 12 s here) when `go` is missing and we are root.
# Standard library only: a go.mod with no require, GOTOOLCHAIN=local, GOPROXY=off, no network.
# Prints the binary's path; exit 2 when Go is unavailable or the build fails.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/../.build-go"
BIN="$OUT/oracle-go"
if ! command -v go >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "oracle-go: installing golang-go..." >&2
        (apt-get install -y golang-go >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y golang-go >/dev/null 2>&1; }) \
            || { echo "oracle-go: apt-get install golang-go failed" >&2; exit 2; }
    else
        echo "oracle-go: no 'go' in PATH (apt-get install -y golang-go)" >&2
        exit 2
    fi
fi
mkdir -p "$OUT"
if [ -x "$BIN" ] && [ "$BIN" -nt "$HERE/main.go" ] && [ "$BIN" -nt "$HERE/go.mod" ]; then
    echo "$BIN"
    exit 0
fi
export GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod GO111MODULE=on
export GOCACHE="${GOCACHE:-$OUT/cache}" GOPATH="${GOPATH:-$OUT/gopath}"
if ! (cd "$HERE" && go build -trimpath -o "$BIN" .) >&2; then
    echo "oracle-go: BUILD FAILED" >&2
    exit 2
fi
echo "$BIN"
