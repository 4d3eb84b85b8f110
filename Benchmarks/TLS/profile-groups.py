#!/usr/bin/env python3
"""Share of client CPU samples per frame group, for the README's "Sigil callback inside
handshakes" table. Input: `perf script` output of a `perf record -g` of tls-bench-client.

    perf record -F 4000 -g -o sigil.data Benchmarks/TLS/.build/release/tls-bench-client bench \\
        --repo . --p256-port P --rsa2048-port Q --chains rsa2048 --versions 1.3 --verifiers sigil \\
        --n 1500 --warmup 200 --rounds 2
    perf script -i sigil.data > sigil.txt && python3 Benchmarks/TLS/profile-groups.py sigil.txt

A sample counts for a group when any frame of its stack matches the group's pattern (inclusive
time); "runtime" counts samples inside the Sigil callback whose leaf is the Swift runtime,
malloc/free, memcpy/memset or the standard library's array and dictionary code.
"""
import re
import sys

GROUPS = [
    ("the Sigil callback, all of it", r"ServerTrustVerifierV12makeCallback"),
    ("  NIOSSLCertificate -> DER (toDERBytes)", r"NIOSSLCertificateC10toDERBytes"),
    ("  parse (Certificate(der:))", r"SigilX50911CertificateV3derAC"),
    ("  CertificateTrust.evaluate", r"CertificateB0V8evaluateAC10Evaluation"),
    ("    ChainVerifier.verify", r"ChainVerifierV6verify4leaf"),
    ("      signature arithmetic", r"modexp_any|MontgomeryView|p256|mul_public"),
    ("    effectiveAnchors", r"effectiveAnchorsAA0B5StoreVvg"),
    ("    VerdictCache.evaluate", r"VerdictCacheC8evaluate"),
    ("  ServerIdentity.parse under SigilNIO", r"ServerIdentityO5parse"),
    ("  Presented.validatedChain", r"PresentedO14validatedChain"),
    ("makeClientHandlers", r"makeClientHandlers7context"),
    ("  NIOSSLClientHandler.init", r"NIOSSLClientHandlerC7context14serverHostname38customVerification"),
]
RUNTIME = re.compile(
    r"^(swift_|_swift|swift::|malloc|free|_int_malloc|_int_free|cfree|__libc_malloc|__memmove|__memset|__memcmp"
    r"|tryCast|\$ss2\d_ContiguousArray|\$ss\d+_?ContiguousArrayStorage|\$sSa|\$sSD|\$ss17_NativeDictionary"
    r"|\$ss18_Dictionary)")


def samples(path):
    """Stacks (leaf first) of `perf script` output: a header line, then one indented frame a line."""
    stack = []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack
            stack = []
        elif line.startswith((" ", "\t")):
            parts = line.strip().split(None, 1)
            sym = parts[1] if len(parts) > 1 else "?"
            sym = re.sub(r"\s+\(\S+\)$", "", sym)
            stack.append(re.sub(r"\+0x[0-9a-f]+$", "", sym))
        else:
            stack = []
    if stack:
        yield stack


for path in sys.argv[1:]:
    stacks = list(samples(path))
    total = len(stacks)
    print(f"== {path}: {total} samples")
    for name, pattern in GROUPS:
        p = re.compile(pattern)
        if "ServerIdentity" in name:
            n = sum(1 for s in stacks if any(p.search(f) for f in s) and any("SigilNIO" in f for f in s))
        else:
            n = sum(1 for s in stacks if any(p.search(f) for f in s))
        print(f"{name:55s} {n:6d} {100 * n / max(total, 1):6.2f} %")
    cb = [s for s in stacks if any("ServerTrustVerifierV12makeCallback" in f for f in s)]
    rt = sum(1 for s in cb if RUNTIME.search(s[0]))
    print(f"{'runtime/malloc/memcpy as the leaf, in the callback':55s} {rt:6d} {100 * rt / max(total, 1):6.2f} %")
