#!/usr/bin/env bash
# Sourced by the scripts that build Sigil into a scratch path they keep between runs (the
# benchmarks, the TLS benchmark, the fuzz builds):
#
#   source "$ROOT/Scripts/stale-build-guard.sh"
#   sigil_guard_scratch SCRATCH_DIR ROOT     # before `swift build`
#
# Why: an incremental release build of this repository has produced a `sigil` whose modules
# disagreed on a struct's layout (seen 2026-12-03: `.build/release` built at 08:28, 12:34 and
# 14:12 that day; SigilTrust's `AlgorithmPolicy` changed its private stored properties in
# between; SigilCLI's and SigilCrypto's objects were still those of 08:28, and the README's main
# job answered "path building budget exhausted: gave up after 0 signature checks" — the budget
# read from the wrong offsets — where a fresh build trusts the chain; reproduced in a clone by
# building f546644, then 3d9b78e: SigilDER … Sigil recompiled, SigilCLI not). It is the
# toolchain's known bug swiftlang/swift#89636 (open; fix proposed in swiftlang/swift#90266): a
# private stored property changes a non-resilient struct's layout but not the module's
# fingerprint, and a client that reaches the module through a re-exporting one (`Sigil`'s
# `@_exported import SigilTrust`) is not recompiled. A benchmark or a fuzzer built that way
# measures or tests code that does not exist. (CI builds a fresh clone: not affected.)
#
# So: the scratch path records a fingerprint of the sources it was built from (the root
# package's Sources/, Package.swift, and the calling package's own Sources/ and Package.swift:
# committed, staged, modified and untracked files alike). When the fingerprint differs, the
# compiler outputs of every target of this repository are removed (Sigil*, CSigil*, CGMP, the
# benchmark, fuzz and example targets), so they are compiled afresh; third-party products
# (BoringSSL, swift-crypto, package-benchmark) are kept — they do not change with Sigil.
sigil_sources_fingerprint() {
    local root="$1" pkg="$2" d
    {
        for d in "$root" "$pkg"; do
            git -C "$d" ls-files -s -- Sources Package.swift 2> /dev/null
            git -C "$d" diff HEAD -- Sources Package.swift 2> /dev/null
            git -C "$d" ls-files -o --exclude-standard -z -- Sources 2> /dev/null |
                (cd "$d" && xargs -0 -r sha1sum)
        done
    } | sha1sum | cut -d' ' -f1
}

sigil_guard_scratch() {
    local scratch="$1" root="$2" pkg="${3:-$PWD}"
    local stamp="$scratch/.sigil-sources-fingerprint" now old=""
    now="$(sigil_sources_fingerprint "$root" "$pkg")"
    [ -f "$stamp" ] && old="$(cat "$stamp")"
    if [ -d "$scratch" ] && [ "$old" != "$now" ]; then
        echo "== sources changed since the last build in $scratch: removing Sigil's build products (stale-build-guard.sh)" >&2
        # The compiler's outputs only (objects, modules, dependency files): SwiftPM's own files
        # in those directories (output file maps, source lists) stay, or the next build fails to
        # find them ("unable to load output file map"); a missing output makes llbuild re-run
        # the command that writes it.
        find "$scratch" -mindepth 2 -maxdepth 3 -type d \( \
            -name 'Sigil*.build' -o -name 'CSigil*.build' -o -name 'CGMP.build' -o -name 'COpenSSL*.build' \
            -o -name 'Fuzz*.build' -o -name 'diffbatch*.build' -o -name 'TLSBench*.build' \
            -o -name 'tls-bench-*.build' -o -name 'PinnedHTTPSGet*.build' \) -print0 |
            xargs -0 -r -I{} find {} -type f \( -name '*.o' -o -name '*.swiftmodule' -o -name '*.swiftdoc' \
                -o -name '*.swiftsourceinfo' -o -name '*.swiftdeps' -o -name '*.d' -o -name '*.dia' \
                -o -name '*.abi.json' \) -delete
        find "$scratch" -mindepth 3 -maxdepth 4 -path '*/Modules/*' \( \
            -name 'Sigil*' -o -name 'CSigil*' -o -name 'CGMP*' -o -name 'Fuzz*' -o -name 'TLSBench*' \) \
            -exec rm -rf {} +
    fi
    mkdir -p "$scratch"
    echo "$now" > "$stamp"
}
