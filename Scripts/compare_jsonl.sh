#!/usr/bin/env bash
# Compares `sigil inspect --json` of two builds, file by file, over Fixtures/ and the system
# certificates: the output bytes and the exit status must be identical. The reference is a
# build of the branch the streaming writer replaced (whose report is cross-checked against
# openssl/pyca by Scripts/compare_inspect.py and the tests).
#
#   Scripts/compare_jsonl.sh OLD_SIGIL NEW_SIGIL
set -u
old=$1
new=$2
root=$(cd "$(dirname "$0")/.." && pwd)
files=$( (find "$root/Fixtures" -type f \( -name '*.pem' -o -name '*.der' -o -name '*.crt' -o -name '*.cer' -o -name '*.crl' \)
          ls /etc/ssl/certs/*.pem /etc/ssl/certs/ca-certificates.crt 2>/dev/null) | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0
for f in $files; do
    n=$((n + 1))
    "$old" inspect --json "$f" >"$tmp/a" 2>/dev/null
    a=$?
    "$new" inspect --json "$f" >"$tmp/b" 2>/dev/null
    b=$?
    if [ "$a" != "$b" ] || ! cmp -s "$tmp/a" "$tmp/b"; then
        bad=$((bad + 1))
        echo "differs: $f (exit $a vs $b)"
    fi
done
echo "$n files compared, $bad differ"
[ "$bad" = 0 ]
