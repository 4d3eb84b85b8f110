#!/usr/bin/env python3
"""Target-specific seeds for the X.509-level fuzz targets (called by make-corpus.sh).

Usage: make-seeds.py TARGET ROOT OUTDIR

The inputs are in the formats the walks read (Fuzz/Sources/FuzzSupport/*Walk.swift):
FuzzChunks = 2-byte big-endian length + bytes, repeated.
  FuzzNames:     flags, host, email, SAN extnValue, NC extnValue, rest = subject Name
  FuzzSignature: mode 0: [0, triple, what, edits...]; mode 1: [1, keyAlg], algorithm DER,
                 key, signature, rest = message
  FuzzVerify:    options, then one chunk per certificate (DER, or 1 byte = fixture index)
  FuzzPolicy:    flags, user-set OIDs, then per certificate (anchor side first) the
                 certificatePolicies, policyMappings, policyConstraints, inhibitAnyPolicy
                 extnValue contents (empty = absent)
"""
import base64, glob, hashlib, json, os, re, sys

target, root, out = sys.argv[1], sys.argv[2], sys.argv[3]

def put(prefix, data):
    name = '%s-%s.bin' % (prefix, hashlib.sha1(data).hexdigest()[:12])
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)

def chunks(*parts):
    o = b''
    for p in parts:
        p = p[:0xFFFF]
        o += bytes([len(p) >> 8, len(p) & 0xFF]) + p
    return o

def tlv(der, pos=0):
    """(tag, header_start, content_start, end) of the TLV at pos."""
    tag = der[pos]; n = der[pos + 1]; c = pos + 2
    if n & 0x80:
        k = n & 0x7F; n = int.from_bytes(der[c:c + k], 'big'); c += k
    return tag, pos, c, c + n

def children(der, pos=0):
    _, _, c, end = tlv(der, pos)
    out = []
    while c < end:
        t = tlv(der, c); out.append(t); c = t[3]
    return out

def cert_parts(der):
    tbs, alg, sig = children(der)
    el = children(der, tbs[1])
    i = 1 if el[0][0] == 0xA0 else 0
    subject = el[i + 4]; spki = el[i + 5]
    exts = {}
    for e in el[i + 6:]:
        if e[0] != 0xA3: continue
        for ext in children(der, children(der, e[1])[0][1]):
            f = children(der, ext[1])
            oid = der[f[0][2]:f[0][3]]
            crit = len(f) == 3
            exts[oid] = (der[f[-1][2]:f[-1][3]], crit)
    keybits = children(der, spki[1])[1]
    return dict(tbs=der[tbs[1]:tbs[3]], alg=der[alg[1]:alg[3]], sig=der[sig[2] + 1:sig[3]],
                subject=der[subject[1]:subject[3]], key=der[keybits[2] + 1:keybits[3]], exts=exts)

SAN, NC = bytes.fromhex('551d11'), bytes.fromhex('551d1e')
certs_dir = os.path.join(root, 'Fixtures', 'certs')
fixtures = {os.path.basename(p): open(p, 'rb').read() for p in sorted(glob.glob(os.path.join(certs_dir, '*.der')))}
names = sorted(fixtures)

def pem_ders(path):
    text = open(path).read()
    return [base64.b64decode(re.sub(r'\s+', '', b)) for b in
            re.findall(r'-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----', text, re.S)]

if target == 'FuzzNames':
    hosts = [b'leaf.rsa2048.sigil.test', b'x.wild.rsa2048.sigil.test', b'192.0.2.10', b'2001:db8::10',
             b'www.permitted.sigil.test', b'WWW.Example.COM.', b'::ffff:192.0.2.1', b'xn--bcher-kva.example']
    emails = [b'leaf@rsa2048.sigil.test', b'user@permitted.sigil.test', b'User@Example.COM']
    nc_ca = cert_parts(fixtures['nameconstraints-ca.der'])['exts'].get(NC, (b'', True))
    n = 0
    for i, (name, der) in enumerate(fixtures.items()):
        p = cert_parts(der)
        san = p['exts'].get(SAN, (b'', False))[0]
        nc, crit = p['exts'].get(NC, nc_ca)
        flags = 2 | 4 | 8 | (1 if crit else 0)
        put('names', bytes([flags]) + chunks(hosts[i % len(hosts)], emails[i % len(emails)], san, nc) + p['subject'])
        n += 1
    for case in json.load(open(os.path.join(root, 'Fixtures', 'names', 'nc_cases.json'))):
        ca = cert_parts(base64.b64decode(case['ca'])); leaf = cert_parts(base64.b64decode(case['leaf']))
        nc, crit = ca['exts'].get(NC, (b'', True))
        san = leaf['exts'].get(SAN, (b'', False))[0]
        flags = (2 if SAN in leaf['exts'] else 0) | 4 | 8 | (1 if crit else 0)
        put('names-nc', bytes([flags]) + chunks(b'', b'', san, nc) + leaf['subject']); n += 1
    for case in json.load(open(os.path.join(root, 'Fixtures', 'names', 'san_cases.json'))):
        p = cert_parts(base64.b64decode(case['der']))
        san = p['exts'].get(SAN, (b'', False))[0]
        for chk in case.get('checks', []):
            v = chk['value'].encode()
            host, email = (v, b'') if chk['kind'] == 'host' else (b'', v)
            put('names-san', bytes([2 | 8]) + chunks(host, email, san, nc_ca[0]) + p['subject']); n += 1
    print('make-seeds: FuzzNames: %d' % n, file=sys.stderr)

elif target == 'FuzzSignature':
    n = 0
    for t in range(48):
        for what in range(4):
            put('sig-mut', bytes([0, t, what])); n += 1
            put('sig-mut', bytes([0, t, what, 0, 0, 7, 0x41, 3, 0, 9, 0x80])); n += 1
    key_index = lambda p: 0
    for name, der in fixtures.items():
        for suffix_from, suffix_to in (('-leaf.der', '-intermediate.der'), ('-intermediate.der', '-root.der'), ('-root.der', '-root.der')):
            if not name.endswith(suffix_from): continue
            issuer = name[:-len(suffix_from)] + suffix_to
            if issuer not in fixtures: continue
            c, i = cert_parts(der), cert_parts(fixtures[issuer])
            ka = 2 if name.startswith('p256') else 3 if name.startswith('p384') else 4 if name.startswith('p521') else 0
            put('sig-raw', bytes([1, ka]) + chunks(c['alg'], i['key'], c['sig']) + c['tbs']); n += 1
            put('sig-raw', bytes([1, ka]) + chunks(c['alg'], i['key'], c['sig'][:-1]) + c['tbs'][:64]); n += 1
    print('make-seeds: FuzzSignature: %d' % n, file=sys.stderr)

elif target == 'FuzzVerify':
    n = 0
    for kind in ('rsa2048', 'rsa3072', 'rsa4096', 'p256', 'p384', 'p521'):
        leaf, inter = fixtures.get(kind + '-leaf.der'), fixtures.get(kind + '-intermediate.der')
        if not leaf or not inter: continue
        for opt in (0, 1 << 2, 2, 0x83):
            put('verify-der', bytes([opt]) + chunks(leaf, inter)); n += 1
        li, ii = names.index(kind + '-leaf.der'), names.index(kind + '-intermediate.der')
        put('verify-idx', bytes([0]) + chunks(bytes([li]), bytes([ii]))); n += 1
        put('verify-idx', bytes([2]) + chunks(bytes([li]), bytes([ii]), bytes([ii]), bytes([li]))); n += 1
    for d in sorted(glob.glob(os.path.join(root, 'Fixtures', 'chains', '*'))):
        if not os.path.isdir(d): continue
        leaf = pem_ders(os.path.join(d, 'leaf.pem')) if os.path.exists(os.path.join(d, 'leaf.pem')) else []
        inters = pem_ders(os.path.join(d, 'intermediates.pem')) if os.path.exists(os.path.join(d, 'intermediates.pem')) else []
        anchors = pem_ders(os.path.join(d, 'anchors.pem')) if os.path.exists(os.path.join(d, 'anchors.pem')) else []
        if leaf:
            put('verify-chain', bytes([2]) + chunks(*(leaf[:1] + inters[:20] + anchors[:2]))); n += 1
    print('make-seeds: FuzzVerify: %d' % n, file=sys.stderr)
elif target == 'FuzzPolicy':
    n = 0
    POLICY_OIDS = [bytes.fromhex(h) for h in ('551d20', '551d21', '551d24', '551d36')]
    pdir = os.path.join(root, 'Fixtures', 'policies')
    manifest = json.load(open(os.path.join(pdir, 'manifest.json'))) if os.path.exists(os.path.join(pdir, 'manifest.json')) else {'scenarios': []}
    def oid_tlv(dotted):
        arcs = [int(a) for a in dotted.split('.')]
        body = bytearray()
        for v in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
            t = [v & 0x7F]; v >>= 7
            while v: t.append(0x80 | (v & 0x7F)); v >>= 7
            body += bytes(reversed(t))
        return bytes([6, len(body)]) + bytes(body)
    for s in manifest['scenarios']:
        d = os.path.join(pdir, s['name'])
        certs = list(reversed(pem_ders(os.path.join(d, 'intermediates.pem')))) + pem_ders(os.path.join(d, 'leaf.pem'))
        parts = []
        for der in certs:
            exts = cert_parts(der)['exts']
            parts += [exts.get(o, (b'', False))[0] for o in POLICY_OIDS]
        user = b''.join(oid_tlv(o) for o in s['policies'])
        flags = (1 if s['explicit'] else 0) | (2 if s['inhibitMap'] else 0) | (4 if s['inhibitAny'] else 0) | (0 if s['policies'] else 8)
        put('policy', bytes([flags]) + chunks(user, *parts)); n += 1
    # Qualifier-bearing certificatePolicies from the other fixtures (CPS, user notices).
    for name_ in names:
        v = cert_parts(fixtures[name_])['exts'].get(POLICY_OIDS[0])
        if v:
            put('policy-cp', bytes([8]) + chunks(b'', v[0], b'', b'', b'')); n += 1
    print('make-seeds: FuzzPolicy: %d' % n, file=sys.stderr)
elif target == 'FuzzVerifyDiff':
    # DiffBytes: first byte picks the mutation count ([0,1,1,1,2,2,2,3,3,4,5,6][b % 12]), then
    # per mutation: op (% 19), certificate (% chain length), parameters.
    n = 0
    put('diff-baseline', bytes([0])); n += 1
    for op in range(19):
        for cert in range(3):
            for params in (b'\x00\x00\x00\x00', b'\x01\x01\x05\x01', b'\x02\x21\x03\x00', b'\x07\x2a\x11\x01'):
                put('diff-op%02d' % op, bytes([1, op, cert]) + params); n += 1
    for a, b in ((16, 11), (17, 3), (5, 14), (12, 13)):
        put('diff-pair', bytes([4, a, 1, 0, 1, 0, b, 2, 1, 3, 0])); n += 1
    print('make-seeds: FuzzVerifyDiff: %d' % n, file=sys.stderr)
elif target == 'FuzzSecurityPolicy':
    # config (mode & 3, allowInvalid 4, !validatesDomainName 8, validatesChain 16), domain,
    # time, [n pinned certs, chunks], [n key pins, chunks], [n pin sets, chunks], chain chunks.
    n = 0
    for kind, dom in (('rsa2048', 1), ('p256', 2), ('p384', 3)):
        if kind + '-leaf.der' not in names: continue
        li, ii, ri = names.index(kind + '-leaf.der'), names.index(kind + '-intermediate.der'), names.index(kind + '-root.der')
        chain = chunks(bytes([li]), bytes([ii]))
        for config in (0, 1, 2, 4, 5, 6, 8, 0x11, 0x12, 0x16, 0x0C):
            pinned = bytes([2]) + chunks(bytes([ri]), bytes([ii]))
            keys = bytes([2]) + chunks(bytes([li]), bytes([ri]))
            sets = bytes([1]) + chunks(bytes([1, dom, ii, li]))
            put('policy', bytes([config, dom, 0]) + pinned + keys + sets + chain); n += 1
            put('policy-nosets', bytes([config, dom, 1]) + pinned + keys + bytes([0]) + chain); n += 1
        put('policy-der', bytes([2, dom, 0, 0, 1]) + chunks(fixtures[kind + '-leaf.der']) + bytes([0]) +
            chunks(fixtures[kind + '-leaf.der'], fixtures[kind + '-intermediate.der'])); n += 1
        put('policy-text', bytes([2, dom, 0, 0, 1]) + chunks(b'sha256/' + base64.b64encode(hashlib.sha256(b'x').digest())) + bytes([0]) + chain); n += 1
    print('make-seeds: FuzzSecurityPolicy: %d' % n, file=sys.stderr)
elif target == 'FuzzTrustStore':
    # mode (1: symlink, 2: subdirectory), then files: name byte + content (1 byte: fixture b as
    # PEM, 2 bytes: fixture b as DER, else raw).
    n = 0
    bundle = open(os.path.join(root, 'Fixtures', 'certs', 'bundle.pem'), 'rb').read()
    crlf = open(os.path.join(root, 'Fixtures', 'certs', 'bundle-crlf.pem'), 'rb').read()
    leaf = fixtures.get('p256-leaf.der', b'')
    for mode in range(4):
        put('store', bytes([mode]) + chunks(bytes([0, 3]), bytes([1, 5]), bytes([2, 0, 7]), bytes([3]) + bundle)); n += 1
        put('store-raw', bytes([mode]) + chunks(bytes([4]) + crlf, bytes([5]) + leaf, bytes([6]) + b'not a certificate',
                                                 bytes([7, 9]), bytes([8, 2]), bytes([9]) + leaf[:100], bytes([10, 11]))); n += 1
    put('store-empty', bytes([0]) + chunks(bytes([2]))); n += 1
    put('store-mixed', bytes([1]) + chunks(bytes([3]) + bundle + b'-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n')); n += 1
    print('make-seeds: FuzzTrustStore: %d' % n, file=sys.stderr)
else:
    sys.exit('make-seeds: no seeds for %s' % target)
