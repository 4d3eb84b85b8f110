#!/usr/bin/env python3
"""Counts public API declarations without a `///` doc comment in Swift sources.

Usage: undocumented-public.py [-v] [DIR ...]   (default: Sources; SigilCLI is skipped, it has no
       API). -v lists them as path:line: text. Exit status 0 always (a report, not a gate).
       undocumented-public.py --symbol-graph FILE.symbols.json [-v]: the compiler's view instead
       (public symbols declared in Sources/ without a doc comment), to cross-check this scan;
       Scripts/build-docs.sh writes .build/docs/symbol-graphs/Sigil.symbols.json. Symbols that
       implement a protocol requirement (makeIterator, ==, hash(into:) ...) inherit the
       requirement's comment there and so do not count, while this scan counts them.

What counts as a public declaration (what DocC shows):
- a `public`/`open` func, var, let, init, subscript, type, typealias, protocol or case;
- a member without an access modifier of a `public extension`;
- every `case` of a public enum and every requirement of a public protocol (they are public
  without the keyword).
Declarations inside function/accessor bodies, members of non-public types and `@_spi`
declarations (or members of `@_spi` types/extensions) are not API; `@_spi` ones are counted
separately. The scan follows braces after removing comments and string literals, so it is
exact for ordinary formatting; it treats every `#if` branch as compiled. Not seen: the cases of
an enum declared on one line (`enum E { case a, b }`).
A declaration is documented when the nearest line above it that is neither an attribute nor
blank is a `///` line or the end of a `/** */` block (a blank line breaks the attachment).
"""
import os
import re
import sys

MODS = r'(?:static|class|final|override|mutating|nonmutating|nonisolated(?:\(unsafe\))?|convenience|required|indirect|lazy|weak|unowned|dynamic|consuming|borrowing|(?:private|fileprivate|internal|package)\(set\))'
KINDS = r'(?:func|var|let|init\??!?|subscript|struct|enum|class|protocol|typealias|actor|case|associatedtype|macro)'
ATTRS = r'(?:@\w+(?:\([^)]*\))?\s+)*'
ACCESS_DECL = re.compile(r'^\s*' + ATTRS + r'(public|open|internal|fileprivate|private|package)\s+(?:' + MODS + r'\s+)*(' + KINDS + r'|extension)(?!\w)')
PLAIN_DECL = re.compile(r'^\s*' + ATTRS + r'(?:' + MODS + r'\s+)*(' + KINDS + r'|extension)(?!\w)')
TYPE_KINDS = {'struct', 'enum', 'class', 'protocol', 'actor', 'extension'}
ATTR_LINE = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s*)+$')  # a line of attributes only


def strip(text):
    """Blanks comments and string literal contents (keeps newlines and length)."""
    out = list(text)
    i, n = 0, len(text)
    def blank(a, b):
        for k in range(a, b):
            if out[k] != '\n':
                out[k] = ' '
    while i < n:
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            blank(i, j); i = j
        elif text.startswith('/*', i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith('/*', j): depth += 1; j += 2
                elif text.startswith('*/', j): depth -= 1; j += 2
                else: j += 1
            blank(i, j); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            blank(i + 1, j - 1); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == '\\' else 1
            blank(i + 1, j); i = j + 1
        else:
            i += 1
    return ''.join(out)


def scan(path):
    raw = open(path, encoding='utf-8').read()
    lines = raw.split('\n')
    code = strip(raw).split('\n')
    out = []
    # scope stack entries: (kind, public, spi, members_public_by_default)
    stack = [('file', True, False, False)]
    pending = None  # scope to open at the next '{'
    for i, line in enumerate(code):
        top = stack[-1]
        in_decl_scope = top[0] in ('file', 'type', 'enum', 'protocol', 'extension')
        m = ACCESS_DECL.match(line) if in_decl_scope else None
        p = PLAIN_DECL.match(line) if in_decl_scope and not m else None
        attrs_spi = '@_spi' in line
        j = i - 1
        while j >= 0 and ATTR_LINE.match(code[j]):
            attrs_spi = attrs_spi or '@_spi' in code[j]
            j -= 1
        kind = None
        if m:
            access, kind = m.group(1), m.group(2)
            is_public = access in ('public', 'open') and (top[1] or top[0] == 'extension')
        elif p:
            kind = p.group(1)
            is_public = top[1] and (top[0] == 'enum' and kind == 'case'
                                    or top[0] == 'protocol' and kind not in TYPE_KINDS and kind != 'case'
                                    or top[3] and kind not in ('case', 'extension'))
        if kind:
            spi = top[2] or attrs_spi
            if kind in TYPE_KINDS:
                scope_kind = kind if kind in ('enum', 'protocol', 'extension') else 'type'
                ext_public = kind == 'extension' and m is not None and m.group(1) == 'public'
                ext_visible = m is None or m.group(1) in ('public', 'open')
                pending = (scope_kind, is_public or (kind == 'extension' and ext_visible), spi, ext_public)
            if kind != 'extension' and is_public:
                prev = lines[j].strip() if j >= 0 else ''
                documented = prev.startswith('///') or prev.endswith('*/')
                out.append((path, i + 1, lines[i].strip(), documented, spi))
        for ch in line:
            if ch == '{':
                if pending:
                    stack.append(pending); pending = None
                else:
                    stack.append(('body', False, stack[-1][2], False))
            elif ch == '}':
                if len(stack) > 1:
                    stack.pop()
    return out


def symbol_graph(path, verbose):
    import json
    graph = json.load(open(path, encoding='utf-8'))
    seen, missing, total = set(), [], 0
    for s in graph['symbols']:
        uri = s.get('location', {}).get('uri', '')
        if '/Sources/' not in uri or s.get('accessLevel') not in ('public', 'open'):
            continue
        key = (uri, s['location']['position']['line'], '.'.join(s['pathComponents']))
        if key in seen:
            continue
        seen.add(key)
        total += 1
        if not s.get('docComment'):
            missing.append(f"Sources/{uri.split('/Sources/')[-1]}:{key[1] + 1}: {s['kind']['identifier']} {key[2]}")
    if verbose:
        print('\n'.join(sorted(missing)))
    print(f'symbol graph: public symbols declared in Sources/: {total}, without a doc comment: {len(missing)}')


def main():
    if '--symbol-graph' in sys.argv:
        symbol_graph(sys.argv[sys.argv.index('--symbol-graph') + 1], '-v' in sys.argv)
        return
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv
    roots = args or ['Sources']
    decls = []
    for root in roots:
        for d, _, files in sorted(os.walk(root)):
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
