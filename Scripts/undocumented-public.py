#!/usr/bin/env python3
"""Counts `public` (and `open`) declarations without a `///` doc comment in Swift sources.

Usage: undocumented-public.py [DIR ...]   (default: Sources; SigilCLI is skipped, it has no API)
       add -v to list them.
A declaration is documented when the nearest non-attribute line above it is a `///` line (or
the end of a `/** */` block). Extensions are not declarations here; `@_spi` ones are counted
separately (internal API). A heuristic, line-based: good enough to track the number.
"""
import os
import re
import sys

DECL = re.compile(r'^\s*(?:@[\w()., :"]+\s+)*(?:public|open)\s+(?:(?:static|class|final|override|mutating|nonisolated|convenience|required|indirect|private\(set\)|internal\(set\))\s+)*'
                  r'(?:func|var|let|init|subscript|struct|enum|class|protocol|typealias|actor|case)\b')
ATTR = re.compile(r'^\s*@[\w]')

def scan(path):
    out = []
    lines = open(path, encoding='utf-8').read().split('\n')
    for i, line in enumerate(lines):
        if not DECL.match(line) or re.match(r'^\s*(public\s+)?extension\b', line):
            continue
        spi = '@_spi' in line
        j = i - 1
        while j >= 0 and ATTR.match(lines[j]) and not lines[j].strip().startswith('///'):
            spi = spi or '@_spi' in lines[j]
            j -= 1
        prev = lines[j].strip() if j >= 0 else ''
        documented = prev.startswith('///') or prev.endswith('*/')
        out.append((path, i + 1, line.strip(), documented, spi))
    return out

def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv
    roots = args or ['Sources']
    decls = []
    for root in roots:
        for d, _, files in os.walk(root):
            if 'SigilCLI' in d:
                continue
            for f in sorted(files):
                if f.endswith('.swift'):
                    decls += scan(os.path.join(d, f))
    public = [x for x in decls if not x[4]]
    undocumented = [x for x in public if not x[3]]
    if verbose:
        for p, n, text, _, _ in undocumented:
            print(f'{p}:{n}: {text}')
    print(f'public declarations: {len(public)}, undocumented: {len(undocumented)}'
          f' ({100 * len(undocumented) // max(1, len(public))}%), @_spi: {len(decls) - len(public)}')

main()
