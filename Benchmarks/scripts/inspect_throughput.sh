#!/usr/bin/env bash
# `sigil inspect --json` throughput over the system bundle × 200 (issue 24), and OpenSSL's
# `pkcs7 -print_certs -text` over the same file in the same sitting; writes a Markdown
# section (included in RESULTS.md by report.py).
#
#   Benchmarks/scripts/inspect_throughput.sh SIGIL OUT.md
set -eu
sigil=$1
out=$2
bundle=/etc/ssl/certs/ca-certificates.crt
input=$(mktemp /tmp/sigil-bundle200.XXXXXX)
trap 'rm -f "$input"' EXIT
for _ in $(seq 200); do cat "$bundle"; done > "$input"
certs=$(( $(grep -c 'BEGIN CERTIFICATE' "$bundle") * 200 ))
mb=$(( $(stat -c %s "$input") / 1000000 ))
best() {  # best user time (s) and its max RSS (KiB) of 3 runs of "$@"
    local b="" r=""
    for _ in 1 2 3; do
        read -r u m < <( { /usr/bin/time -f "%U %M" "$@" > /dev/null; } 2>&1 | tail -1)
        if [ -z "$b" ] || awk "BEGIN{exit !($u < $b)}"; then b=$u; r=$m; fi
    done
    echo "$b $r"
}
read -r one rss1 < <(best "$sigil" inspect --json "$input")
read -r wall2 < <( { /usr/bin/time -f "%e" "$sigil" inspect --json --jobs 2 "$input" > /dev/null; } 2>&1 | tail -1)
read -r wall1 < <( { /usr/bin/time -f "%e" "$sigil" inspect --json "$input" > /dev/null; } 2>&1 | tail -1)
read -r ossl osslrss < <( { /usr/bin/time -f "%U %M" sh -c \
    "openssl crl2pkcs7 -nocrl -certfile '$input' | openssl pkcs7 -print_certs -text -noout > /dev/null"; } 2>&1 | tail -1)
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "## Inspect throughput (\`sigil inspect --json\`, system bundle × 200)"
    echo
    echo "$certs certificates, $mb MB of PEM; user CPU time (best of 3) and peak RSS; OpenSSL in the same sitting"
    echo "(\`openssl crl2pkcs7 -nocrl -certfile F | openssl pkcs7 -print_certs -text -noout\`, both processes). Load average: $load."
    echo
    echo "| command | user time | certificates/s | µs/certificate | peak RSS |"
    echo "|---|---:|---:|---:|---:|"
    awk -v t="$one" -v n="$certs" -v r="$rss1" 'BEGIN{printf "| sigil inspect --json | %.2f s | %d | %.1f | %.1f MB |\n", t, n/t, t*1e6/n, r/1024}'
    awk -v t="$ossl" -v n="$certs" -v r="$osslrss" 'BEGIN{printf "| openssl pkcs7 -print_certs -text | %.2f s | %d | %.1f | %.1f MB |\n", t, n/t, t*1e6/n, r/1024}'
    echo
    awk -v a="$one" -v b="$ossl" 'BEGIN{printf "Sigil is %.0f× OpenSSL. ", b/a}'
    awk -v a="$wall1" -v b="$wall2" 'BEGIN{printf "Wall time one job %.2f s, `--jobs 2` %.2f s (%.2f×; the machine is shared, see the load average).\n", a, b, a/b}'
} > "$out"
cat "$out"
