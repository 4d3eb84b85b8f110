#!/usr/bin/env bash
# Builds the generated seed corpora under Fuzz/corpus-gen/<target>/ (scratch, gitignored) from:
#   - Fuzz/seeds/*.der                  (a few tiny certificates, keys, a CSR: committed)
#   - Fixtures/**/*.der                 (the project's fixtures, when present)
#   - Fixtures/fuzz-regressions/<t>/*   (every past finding of that target)
#   - /etc/ssl/certs/*.pem              (system roots, converted with openssl x509 -outform DER)
#   - ../shared/vectors (if present, needs python3): a sample of x509-limbo certificates and
#     CRLs, and Wycheproof ECDSA signatures / public keys (DER, many deliberately malformed)
#   - the hand-made snippets below (edge cases of each DER rule)
#
# That is the corpus of the DER-input targets (FuzzDER, FuzzDifferentialDER, FuzzCertificate,
# FuzzCRL, FuzzOCSP: the limbo CRLs and Fixtures/revocation's OCSP responses are in it).
# FuzzPEM gets PEM text instead (Fixtures/**/*.pem, system PEM files, hand-made PEM edge cases);
# FuzzNames, FuzzSignature, FuzzVerify and FuzzPolicy read structured inputs, made from the fixtures by
# make-seeds.py (python3). Every target also gets its regression inputs.
#
# The committed, minimized corpora of Fuzz/corpus/<target>/ (libFuzzer -merge=1 of past
# campaigns) are not touched here: run.sh fuzzes from both.
#
# Usage: Fuzz/make-corpus.sh [TARGET...]     (default: every target in run-all.sh)
# Environment: FUZZ_SHARED=path to shared/ (default: ../shared beside the repository).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
SHARED="${FUZZ_SHARED:-$(dirname "$ROOT")/shared}"
# shellcheck source=targets.sh
source "$HERE/targets.sh"
if [ $# -gt 0 ]; then TARGETS=("$@"); fi

# ---- hand-made snippets: name and hex, one per line --------------------------------------
SNIPPETS='
bool-true            0101ff
bool-false           010100
bool-bad             010101
int-zero             020100
int-neg1             0201ff
int-128              02020080
int-nonminimal       02020001
int-nonminimal-neg   0202ff80
int-empty            0200
int-9-bytes          0209008000000000000000
bitstring-empty      030100
bitstring-ku         030205a0
bitstring-badpad     030207ff
bitstring-unused8    03020800
null                 0500
null-content         050100
oid-sha256rsa        06092a864886f70d01010b
oid-first-arc-2-999  0603883703
oid-leading-80       0603808001
oid-9-octet-arc      060a2aff ffffffffffffff7f
oid-10-octet-arc     060b2a81 8080808080808080 01
utctime              170d3235303130313030303030305a
utctime-leap         170d3939313233313233353936305a
utctime-feb29-bad    170d3235303232393030303030305a
gentime              180f32303530303130313030303030305a
gentime-fraction     181132303234303130313030303030302e355a
gentime-year0        180f30303030303130313030303030305a
printable            130a4578616d706c6520436f
printable-bad        1301 2a
utf8                 0c03c3a961
utf8-overlong        0c02c0af
utf8-surrogate       0c03eda080
ia5                  160461406578
visible              1a0161
numeric              12033132 20
bmp                  1e0400e90041
bmp-surrogate        1e02d800
universal            1c0400010000
teletex              1402e9ff
octet-with-der       0405300301 01ff
bitstring-with-der   0306003003 020105
seq-nested           3009 3007 a003 020102 0500
set-of               3106 0201 01 020102
ctx-implicit         8203 616263
len-nonminimal       30 8103 020100
len-5-octets         30 850000000001 00
indefinite           3080 0000
high-tag             9f1f00
high-tag-2           bf810003 020101
eoc-in-seq           3002 0000
trailing             3000 00
'

unhex() { # hex string -> bytes on stdout (no xxd needed)
    local hex="$1" esc="" i
    for ((i = 0; i < ${#hex}; i += 2)); do esc+="\\x${hex:i:2}"; done
    printf '%b' "$esc"
}

write_snippets() { # dir
    local dir="$1" name hex
    while read -r name hex; do
        [ -z "${name:-}" ] && continue
        hex="${hex// /}"
        unhex "$hex" > "$dir/snippet-$name.der"
    done <<< "$SNIPPETS"
    # Long-form length: SEQUENCE (128) { OCTET STRING (125) }.
    { printf '\x30\x81\x80\x04\x81\x7d'; head -c 125 /dev/zero; } > "$dir/snippet-len-long.der"
    # 40 nested SEQUENCEs (past Sigil's depth limit of 32, within swift-asn1's 50) and 31.
    local n inner
    for n in 31 32 33 40; do
        inner=""
        for ((i = 0; i < n; i++)); do inner="30$(printf '%02x' $((${#inner} / 2)))$inner"; done
        unhex "$inner" > "$dir/snippet-nested-$n.der"
    done
}

system_certs() { # dir
    local dir="$1" f
    command -v openssl > /dev/null || { echo "make-corpus: no openssl, skipping system certificates" >&2; return 0; }
    for f in /etc/ssl/certs/*.pem; do
        [ -e "$f" ] || continue
        openssl x509 -in "$f" -outform DER -out "$dir/system-$(basename "$f" .pem).der" 2> /dev/null || true
    done
}

shared_vectors() { # dir
    local dir="$1"
    [ -d "$SHARED/vectors" ] || { echo "make-corpus: no $SHARED/vectors, skipping limbo/wycheproof" >&2; return 0; }
    command -v python3 > /dev/null || { echo "make-corpus: no python3, skipping limbo/wycheproof" >&2; return 0; }
    python3 - "$SHARED/vectors" "$dir" << 'PY'
import base64, glob, hashlib, json, lzma, os, re, sys
vectors, out = sys.argv[1], sys.argv[2]
def put(prefix, der):
    name = '%s-%s.der' % (prefix, hashlib.sha1(der).hexdigest()[:12])
    with open(os.path.join(out, name), 'wb') as f:
        f.write(der)
pem = re.compile(r'-----BEGIN ([A-Z0-9 ]+)-----\s*(.*?)\s*-----END \1-----', re.S)
limbo = os.path.join(vectors, 'limbo', 'limbo.json.xz')
if os.path.exists(limbo):
    cases = json.load(lzma.open(limbo))['testcases']
    seen, n = set(), 0
    for i, tc in enumerate(cases):
        if i % 40:          # a sample: every 40th testcase, all of its certificates and CRLs
            continue
        text = json.dumps(tc)
        for kind, body in pem.findall(text.replace('\\n', '\n')):
            der = base64.b64decode(re.sub(r'\s+', '', body))
            if der not in seen and 'PRIVATE' not in kind:
                seen.add(der); put('limbo', der); n += 1
    print('make-corpus: %d limbo certificates/CRLs' % n, file=sys.stderr)
n = 0
for path in sorted(glob.glob(os.path.join(vectors, 'wycheproof', 'ecdsa_*.json')))[:2]:
    data = json.load(open(path))
    for g in data.get('testGroups', []):
        for key in ('publicKeyDer', 'keyDer'):
            if isinstance(g.get(key), str):
                put('wycheproof-key', bytes.fromhex(g[key])); n += 1
        for t in g.get('tests', [])[::5]:
            if isinstance(t.get('sig'), str):
                put('wycheproof-sig', bytes.fromhex(t['sig'])); n += 1
print('make-corpus: %d wycheproof keys/signatures' % n, file=sys.stderr)
PY
}

pem_seeds() { # dir
    local dir="$1" f
    find "$ROOT/Fixtures" -name '*.pem' -not -path '*/fuzz-regressions/*' -print0 |
        while IFS= read -r -d '' f; do cp "$f" "$dir/fixture-$(echo "$f" | sha1sum | cut -c1-12).pem"; done
    local n=0
    for f in /etc/ssl/certs/*.pem; do
        [ -e "$f" ] || continue
        n=$((n + 1)); [ $((n % 8)) -eq 0 ] || continue   # a sample of the system roots
        cp -L "$f" "$dir/system-$(basename "$f")" 2> /dev/null || true
    done
    local cert
    cert="$(head -c 2000 "$ROOT/Fixtures/certs/p256-leaf.pem" 2> /dev/null || true)"
    printf -- '-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n' > "$dir/pem-tiny"
    printf -- '-----BEGIN CERTIFICATE-----\r\nMAA=\r\n-----END CERTIFICATE-----\r\n' > "$dir/pem-crlf"
    printf -- '-----BEGIN X509 CERTIFICATE-----\nMAA=\n-----END X509 CERTIFICATE-----\n' > "$dir/pem-x509"
    printf -- '-----BEGIN TRUSTED CERTIFICATE-----\nMAAwAA==\n-----END TRUSTED CERTIFICATE-----\n' > "$dir/pem-trusted"
    printf -- '-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\ntext\n%s\n' "$cert" > "$dir/pem-skipped"
    printf -- '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\nMAA=\n-----END CERTIFICATE-----\n' > "$dir/pem-header"
    printf -- '-----BEGIN CERTIFICATE-----\nMA=A\n-----END CERTIFICATE-----\n' > "$dir/pem-bad-padding"
    printf -- '-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE----- \t\n' > "$dir/pem-trailing-space"
    printf -- '-----BEGIN CERTIFICATE-----\nMAA=\n' > "$dir/pem-unterminated"
    printf -- '-----BEGIN CERTIFICATE-----\nMAA=\n-----END X509 CERTIFICATE-----\n' > "$dir/pem-label-mismatch"
}

for target in "${TARGETS[@]}"; do
    dir="$HERE/corpus-gen/$target"
    rm -rf "$dir"
    mkdir -p "$dir"
    case "$target" in
        FuzzPEM)
            pem_seeds "$dir"
            cp "$HERE"/seeds/*.der "$dir"/ 2> /dev/null || true
            ;;
        FuzzNames|FuzzSignature|FuzzVerify|FuzzPolicy|FuzzVerifyDiff|FuzzSecurityPolicy|FuzzTrustStore)
            command -v python3 > /dev/null || { echo "make-corpus: $target needs python3" >&2; exit 1; }
            python3 "$HERE/make-seeds.py" "$target" "$ROOT" "$dir"
            ;;
    esac
    if [ -d "$ROOT/Fixtures/fuzz-regressions/$target" ]; then
        find "$ROOT/Fixtures/fuzz-regressions/$target" -type f -not -name '*.md' -exec cp {} "$dir"/ \;
    fi
    case "$target" in FuzzPEM|FuzzNames|FuzzSignature|FuzzVerify|FuzzPolicy|FuzzVerifyDiff|FuzzSecurityPolicy|FuzzTrustStore)
        echo "make-corpus: $target: $(find "$dir" -type f | wc -l) seeds, $(du -sh "$dir" | cut -f1)"
        continue ;;
    esac
    # The DER corpus is the same for every DER-input target: made once per invocation (the
    # openssl conversions and the limbo sample dominate), then copied.
    if [ -z "${der_pool:-}" ]; then
        der_pool="$(mktemp -d)"
        trap 'rm -rf "$der_pool"' EXIT
        cp "$HERE"/seeds/*.der "$der_pool"/ 2> /dev/null || true
        if [ -d "$ROOT/Fixtures" ]; then
            find "$ROOT/Fixtures" -name '*.der' -not -path '*/fuzz-regressions/*' -print0 |
                while IFS= read -r -d '' f; do cp "$f" "$der_pool/fixture-$(echo "$f" | sha1sum | cut -c1-12).der"; done
        fi
        write_snippets "$der_pool"
        system_certs "$der_pool"
        shared_vectors "$der_pool"
    fi
    cp "$der_pool"/* "$dir"/
    if [ -d "$ROOT/Fixtures/fuzz-regressions/$target" ]; then
        find "$ROOT/Fixtures/fuzz-regressions/$target" -type f -not -name '*.md' -exec cp {} "$dir"/ \;
    fi
    echo "make-corpus: $target: $(find "$dir" -type f | wc -l) seeds, $(du -sh "$dir" | cut -f1)"
done
