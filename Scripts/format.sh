#!/usr/bin/env bash
# Applies the repository's .swift-format (line length 120) to every Swift file, or with
# --check fails when a file is not formatted (CI runs the check; it takes a few seconds).
#
#   bash Scripts/format.sh           # rewrite files in place
#   bash Scripts/format.sh --check   # list unformatted files, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
# Symbolic links (the fuzz walks shared with the tests) are formatted at their targets.
mapfile -t files < <(git ls-files -s '*.swift' | awk '$1 != "120000" {print $4}')
if [ "${1:-}" = "--check" ]; then
    bad=0
    for f in "${files[@]}"; do
        if ! swift-format format --configuration .swift-format "$f" | cmp -s - "$f"; then
            echo "not formatted: $f"
            bad=1
        fi
    done
    if [ "$bad" -ne 0 ]; then echo "run: bash Scripts/format.sh"; exit 1; fi
    echo "format: ${#files[@]} Swift files formatted"
else
    swift-format format --in-place --configuration .swift-format "${files[@]}"
fi
