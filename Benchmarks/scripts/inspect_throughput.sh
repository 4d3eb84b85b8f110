#!/usr/bin/env bash
# `sigil inspect --json` throughput over the system bundle × 200 (issue 24): one job and
# `--jobs 2`, OpenSSL's `pkcs7 -print_certs -text` and a minimal Python `cryptography` loop
# (scripts/inspect_pyca.py) over the same file in the same sitting; with INSPECT_1GB=1 also a
# 1 GB PEM file (generated in /tmp, deleted afterwards) from the file and from standard input,
# with peak RSS. Writes a Markdown section (included in RESULTS.md by report.py).
#
#   Benchmarks/scripts/inspect_throughput.sh SIGIL OUT.md
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sigil=$1
out=$2
bundle=/etc/ssl/certs/ca-certificates.crt
input=$(mktemp /tmp/sigil-bundle200.XXXXXX)
big=""
trap 'rm -f "$input" ${big:+"$big"}' EXIT
for _ in $(seq 200); do cat "$bundle"; done > "$input"
per=$(grep -c 'BEGIN CERTIFICATE' "$bundle")
certs=$(( per * 200 ))
mb=$(( $(stat -c %s "$input") / 1000000 ))
best() {  # best user time (s), its wall time (s) and max RSS (KiB) of 3 runs of "$@"
    local b="" e="" r=""
    for _ in 1 2 3; do
        read -r u w m < <( { /usr/bin/time -f "%U %e %M" "$@" > /dev/null; } 2>&1 | tail -1)
        if [ -z "$b" ] || awk "BEGIN{exit !($u < $b)}"; then b=$u; e=$w; r=$m; fi
    done
    echo "$b $e $r"
}
bestwall() {  # best wall time (s), its user time (s) and max RSS (KiB) of 3 runs of "$@"
    local b="" u="" r=""
    for _ in 1 2 3; do
        read -r x w m < <( { /usr/bin/time -f "%U %e %M" "$@" > /dev/null; } 2>&1 | tail -1)
        if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then b=$w; u=$x; r=$m; fi
    done
    echo "$b $u $r"
}
load=$(cut -d' ' -f1-3 /proc/loadavg)
read -r one wall1 rss1 < <(best "$sigil" inspect --json "$input")
read -r wall1b _ _ < <(bestwall "$sigil" inspect --json "$input")
read -r wall2 user2 rss2 < <(bestwall "$sigil" inspect --json --jobs 2 "$input")
read -r ossl osslrss < <( { /usr/bin/time -f "%U %M" sh -c \
    "openssl crl2pkcs7 -nocrl -certfile '$input' | openssl pkcs7 -print_certs -text -noout > /dev/null"; } 2>&1 | tail -1)
read -r pyca pycarss < <( { /usr/bin/time -f "%U %M" python3 "$here/inspect_pyca.py" "$input" > /dev/null; } 2>&1 | tail -1)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "## Inspect throughput (\`sigil inspect --json\`, system bundle × 200)"
    echo
    echo "$certs certificates, $mb MB of PEM; user CPU time (best of 3) and peak RSS; OpenSSL in the same sitting"
    echo "(\`openssl crl2pkcs7 -nocrl -certfile F | openssl pkcs7 -print_certs -text -noout\`, both processes) and a minimal"
    echo "Python \`cryptography\` loop (\`Benchmarks/scripts/inspect_pyca.py F\`: fewer fields, JSON Lines). \`--jobs 2\`: wall time"
    echo "(best of 3), the user time of that run beside it. Load average: $load at the start, $load_end at the end."
    echo
    echo "| command | user time | certificates/s | µs/certificate | peak RSS |"
    echo "|---|---:|---:|---:|---:|"
    awk -v t="$one" -v n="$certs" -v r="$rss1" 'BEGIN{printf "| sigil inspect --json | %.2f s | %d | %.1f | %.1f MB |\n", t, n/t, t*1e6/n, r/1024}'
    awk -v t="$wall2" -v u="$user2" -v n="$certs" -v r="$rss2" 'BEGIN{printf "| sigil inspect --json --jobs 2 (wall) | %.2f s (wall %.2f s) | %d | %.1f | %.1f MB |\n", u, t, n/t, t*1e6/n, r/1024}'
    awk -v t="$ossl" -v n="$certs" -v r="$osslrss" 'BEGIN{printf "| openssl pkcs7 -print_certs -text | %.2f s | %d | %.1f | %.1f MB |\n", t, n/t, t*1e6/n, r/1024}'
    awk -v t="$pyca" -v n="$certs" -v r="$pycarss" 'BEGIN{printf "| python3 inspect_pyca.py (cryptography) | %.2f s | %d | %.1f | %.1f MB |\n", t, n/t, t*1e6/n, r/1024}'
    echo
    awk -v a="$one" -v b="$ossl" -v c="$pyca" 'BEGIN{printf "Sigil (one core, user time) is %.0f× OpenSSL and %.0f× the pyca loop. ", b/a, c/a}'
    awk -v a="$wall1b" -v b="$wall2" 'BEGIN{printf "Wall time one job %.2f s, `--jobs 2` %.2f s (%.2f×; the machine is shared, see the load average).\n", a, b, a/b}'
} > "$out"
if [ "${INSPECT_1GB:-0}" = 1 ]; then
    big=$(mktemp /tmp/sigil-1gb.XXXXXX)
    copies=$(( 1000000000 / $(stat -c %s "$bundle") + 1 ))
    for _ in $(seq "$copies"); do cat "$bundle"; done > "$big"
    n=$(( per * copies ))
    size=$(( $(stat -c %s "$big") / 1000000 ))
    row() {  # label, then the command (its standard output discarded)
        local label=$1
        shift
        read -r u w m < <( { /usr/bin/time -f "%U %e %M" "$@"; } 2>&1 | tail -1)
        awk -v l="$label" -v u="$u" -v w="$w" -v m="$m" -v n="$n" \
            'BEGIN{printf "| %s | %.1f s | %.1f s | %d | %.1f MB |\n", l, w, u, n/w, m/1024}'
    }
    {
        echo
        echo "A $size MB PEM file ($n certificates: the bundle × $copies, in /tmp, deleted afterwards), wall time and peak RSS (\`/usr/bin/time -f '%U %e %M'\`):"
        echo
        echo "| input | wall | user | certificates/s (wall) | peak RSS |"
        echo "|---|---:|---:|---:|---:|"
        row "\`sigil inspect --json FILE\`" sh -c "'$sigil' inspect --json '$big' > /dev/null"
        row "\`sigil inspect --json - < FILE\`" sh -c "'$sigil' inspect --json - < '$big' > /dev/null"
        row "\`sigil inspect --json --jobs 2 FILE\`" sh -c "'$sigil' inspect --json --jobs 2 '$big' > /dev/null"
        row "\`cat FILE \\| sigil inspect --json --jobs 2 -\`" sh -c "cat '$big' | '$sigil' inspect --json --jobs 2 - > /dev/null"
    } >> "$out"
    rm -f "$big"
fi
cat "$out"
