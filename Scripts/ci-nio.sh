#!/usr/bin/env bash
# CI for the NIO integration (package trait `NIO`): builds with the trait in its own scratch
# path (.build-nio: swift-nio-ssl vendors BoringSSL, ≈ 5 minutes to compile on 2 cores the first
# time, seconds afterwards), runs the loopback tests (SigilNIOTests), then a smoke of the CLI and
# the example against a local `openssl s_server` on 127.0.0.1 (port chosen at run time, killed
# on exit). Nothing leaves the machine. Debug only: never a release build with NIO.
#
#   bash Scripts/ci-nio.sh            (SIGIL_LOCK=/tmp/sigil-heavy.lock to serialise the build)
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=.build-nio
heavy() { if [ -n "${SIGIL_LOCK:-}" ]; then flock "$SIGIL_LOCK" "$@"; else "$@"; fi; }

start=$(date +%s)
heavy swift build --traits NIO --scratch-path "$SCRATCH" --build-tests
echo "ci-nio: build with the NIO trait took $(( $(date +%s) - start )) s"
heavy swift test --traits NIO --scratch-path "$SCRATCH" --skip-build --filter SigilNIOTests

BIN="$SCRATCH/debug"
F=Fixtures/tls
TMP=$(mktemp -d)
SERVER_PID=""
cleanup() { if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi; rm -rf "$TMP"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve() { # serve CERT [s_server options...]
    local cert=$1; shift
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    PORT=$(free_port)
    openssl s_server -accept "127.0.0.1:$PORT" -cert "$F/$cert.pem" -key "$F/$cert.key" -cert_chain "$F/int.pem" -quiet "$@" >/dev/null 2>&1 </dev/null &
    SERVER_PID=$!
    for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0; sleep 0.05; done
    echo "ci-nio: s_server did not start"; exit 1
}
passed=0; failed=0
check() { # check NAME EXPECTED_STATUS COMMAND...
    local name=$1 want=$2; shift 2
    set +e; "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?; set -e
    if [ "$got" = "$want" ]; then passed=$((passed + 1)); echo "ok   $name"
    else failed=$((failed + 1)); echo "FAIL $name (exit $got, expected $want)"; cat "$TMP/out" "$TMP/err" | head -20; fi
}

serve leaf
check "fetch prints the served chain" 0 "$BIN/sigil" fetch "127.0.0.1:$PORT" --sni sigil.test --out "$TMP/chain.pem"
check "fetch == leaf.pem + int.pem" 0 sh -c "cat $F/leaf.pem $F/int.pem | cmp - $TMP/chain.pem"
check "fetch == openssl s_client -showcerts" 0 sh -c "echo | openssl s_client -connect 127.0.0.1:$PORT -servername sigil.test -showcerts 2>/dev/null | sed -n '/BEGIN CERT/,/END CERT/p' | cmp - $TMP/chain.pem"
check "verify --connect trusted" 0 "$BIN/sigil" verify --connect "127.0.0.1:$PORT" --sni sigil.test --anchor "$F/root.pem" --anchors-only
check "verify --connect wrong host" 1 "$BIN/sigil" verify --connect "127.0.0.1:$PORT" --host other.test --anchor "$F/root.pem" --anchors-only
PIN=$(sh -c "openssl x509 -in $F/int.pem -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64")
BADPIN=$(sh -c "openssl x509 -in $F/rogue-root.pem -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64")
check "verify --connect pin match" 0 "$BIN/sigil" verify --connect "127.0.0.1:$PORT" --host sigil.test --anchor "$F/root.pem" --anchors-only --pin-mode public-key --pin-key "sha256/$PIN"
check "verify --connect pin mismatch" 1 "$BIN/sigil" verify --connect "127.0.0.1:$PORT" --host sigil.test --anchor "$F/root.pem" --anchors-only --pin-mode public-key --pin-key "sha256/$BADPIN"
check "verify --connect unreachable → 3" 3 "$BIN/sigil" verify --connect "127.0.0.1:$(free_port)" --anchor "$F/root.pem"
serve leaf -www
check "example: pinned GET" 0 "$BIN/pinned-https-get" "https://localhost:$PORT/" "sha256/$PIN" "$F/root.pem"
check "example: wrong pin refused" 1 env SWIFT_BACKTRACE=enable=no "$BIN/pinned-https-get" "https://localhost:$PORT/" "sha256/$BADPIN" "$F/root.pem"
serve leaf-ats -tls1_3
check "ats TLS-1.3-only server" 0 sh -c "'$BIN/sigil' ats 'https://127.0.0.1:$PORT' --host sigil.test --anchor '$F/root.pem' --anchors-only --at 1740000000 > '$TMP/ats.txt'"
check "ats: TLSv1.3 PASS" 0 sh -c "grep -A1 '^TLSv1.3\$' '$TMP/ats.txt' | head -2 | grep -q 'Result : PASS'"
check "ats: TLSv1.2 FAIL" 0 sh -c "grep -A1 '^TLSv1.2 with ATS forward-secrecy cipher suites\$' '$TMP/ats.txt' | grep -q 'Result : FAIL'"

echo "ci-nio smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
