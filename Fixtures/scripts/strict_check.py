#!/usr/bin/env python3
"""A small Python model of Sigil's strict certificate parse, used only to check the fixtures:
every malformed sample must fail with the manifest's kind at the manifest's offset, and every
valid fixture must pass. The DER rules mirror Sources/SigilDER (DERReader.readAny, the
primitive decoders, DERTime, DERString); the X.509 walk follows RFC 5280 §4.1 in field order,
validating names, times, algorithm identifiers and the extension list eagerly.

Usage: strict_check.py            (checks Fixtures/malformed/manifest.json and Fixtures/certs/*.der)
       strict_check.py FILE...    (prints the first error of each file, or OK)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.dirname(HERE)


class DERError(Exception):
    def __init__(self, kind, offset):
        super().__init__("%s at %d" % (kind, offset))
        self.kind, self.offset = kind, offset


class V:
    def __init__(self, data, tag, start, cs, end):
        self.data, self.tag, self.start, self.cs, self.end = data, tag, start, cs, end

    @property
    def content(self):
        return self.data[self.cs:self.end]


class R:
    def __init__(self, data, pos, end):
        self.data, self.pos, self.end = data, pos, end

    def at_end(self):
        return self.pos >= self.end

    def peek(self):
        return self.data[self.pos] if self.pos < self.end else None

    def read_any(self):
        d, start, p, end = self.data, self.pos, self.pos, self.end
        if p >= end:
            raise DERError("truncated", p)
        tag = d[p]
        if tag & 0x1F == 0x1F:
            raise DERError("highTagNumber", p)
        p += 1
        if p >= end:
            raise DERError("truncated", p)
        first = d[p]
        p += 1
        if first < 0x80:
            length = first
        else:
            if first == 0x80:
                raise DERError("indefiniteLength", p - 1)
            n = first & 0x7F
            if n > 4:
                raise DERError("lengthTooLong", p - 1)
            if end - p < n:
                raise DERError("truncated", p)
            if d[p] == 0:
                raise DERError("nonMinimalLength", p - 1)
            length = int.from_bytes(d[p:p + n], "big")
            if length < 0x80:
                raise DERError("nonMinimalLength", p - 1)
            p += n
        if length > end - p:
            raise DERError("truncated", start)
        self.pos = p + length
        return V(d, tag, start, p, p + length)

    def read(self, tag):
        if self.pos >= self.end:
            raise DERError("truncated", self.pos)
        if self.data[self.pos] != tag:
            raise DERError("unexpectedTag", self.pos)
        return self.read_any()

    def optional(self, tag):
        if self.pos < self.end and self.data[self.pos] == tag:
            return self.read_any()
        return None

    def finish(self):
        if self.pos < self.end:
            raise DERError("trailingData", self.pos)


def enter(v, body):
    if not v.tag & 0x20:
        raise DERError("unexpectedTag", v.start)
    r = R(v.data, v.cs, v.end)
    out = body(r)
    r.finish()
    return out


def integer(v):
    c = v.content
    if not c:
        raise DERError("emptyInteger", v.cs)
    if len(c) > 1 and ((c[0] == 0 and c[1] < 0x80) or (c[0] == 0xFF and c[1] >= 0x80)):
        raise DERError("nonMinimalInteger", v.cs)
    return int.from_bytes(c, "big", signed=True)


def boolean(v):
    c = v.content
    if len(c) != 1 or c[0] not in (0, 0xFF):
        raise DERError("invalidBoolean", v.cs)
    return c[0] == 0xFF


def bitstring(v):
    c = v.content
    if not c or c[0] > 7 or (len(c) == 1 and c[0] != 0):
        raise DERError("invalidBitString", v.cs)
    if len(c) > 1 and c[0] and c[-1] & ((1 << c[0]) - 1):
        raise DERError("invalidBitString", v.end - 1)


def oid(v):
    c = v.content
    if v.tag & 0x20 or not c:
        raise DERError("invalidObjectIdentifier", v.cs)
    at_start, n = True, 0
    for i, b in enumerate(c):
        if at_start and b == 0x80:
            raise DERError("invalidObjectIdentifier", v.cs + i)
        n += 1
        if n > 9:
            raise DERError("invalidObjectIdentifier", v.cs + i)
        at_start = not b & 0x80
        if at_start:
            n = 0
    if not at_start:
        raise DERError("invalidObjectIdentifier", v.end - 1)
    return bytes(c)


def null(v):
    if v.end != v.cs:
        raise DERError("invalidNull", v.cs)


def time(v):
    if v.tag not in (0x17, 0x18):
        raise DERError("unexpectedTag", v.start)
    s, c = v.cs, v.content
    want = 13 if v.tag == 0x17 else 15
    if len(c) != want:
        raise DERError("invalidTime", s)

    def dig(i):
        if not 0x30 <= c[i] <= 0x39:
            raise DERError("invalidTime", s + i)
        return c[i] - 0x30

    def two(i):
        return dig(i) * 10 + dig(i + 1)
    if v.tag == 0x17:
        yy = two(0)
        year, i = (1900 + yy if yy >= 50 else 2000 + yy), 2
    else:
        year, i = two(0) * 100 + two(2), 4
    month, day, hour, minute, second = two(i), two(i + 2), two(i + 4), two(i + 6), two(i + 8)
    if c[i + 10] != 0x5A:
        raise DERError("invalidTime", s + i + 10)
    if not 1 <= month <= 12:
        raise DERError("invalidTime", s + i)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    dim = 29 if month == 2 and leap else 28 if month == 2 else 30 if month in (4, 6, 9, 11) else 31
    if not 1 <= day <= dim:
        raise DERError("invalidTime", s + i + 2)
    for val, lim, off in ((hour, 24, 4), (minute, 60, 6), (second, 60, 8)):
        if val >= lim:
            raise DERError("invalidTime", s + i + off)


PRINTABLE = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?")


def string(v):
    c, s = v.content, v.cs
    if v.tag == 0x13:
        for i, b in enumerate(c):
            if b not in PRINTABLE:
                raise DERError("invalidString", s + i)
    elif v.tag == 0x16:
        for i, b in enumerate(c):
            if b >= 0x80:
                raise DERError("invalidString", s + i)
    elif v.tag == 0x14:
        pass
    elif v.tag == 0x1E:
        i = 0
        while i < len(c):
            if len(c) - i < 2 or 0xD800 <= (c[i] << 8 | c[i + 1]) <= 0xDFFF:
                raise DERError("invalidString", s + i)
            i += 2
    elif v.tag == 0x1C:
        i = 0
        while i < len(c):
            u = int.from_bytes(c[i:i + 4], "big")
            if len(c) - i < 4 or 0xD800 <= u <= 0xDFFF or u > 0x10FFFF:
                raise DERError("invalidString", s + i)
            i += 4
    elif v.tag == 0x0C:
        i = 0
        while i < len(c):
            b0 = c[i]
            if b0 < 0x80:
                i += 1
                continue
            if 0xC2 <= b0 <= 0xDF:
                need, val, mn = 1, b0 & 0x1F, 0x80
            elif 0xE0 <= b0 <= 0xEF:
                need, val, mn = 2, b0 & 0x0F, 0x800
            elif 0xF0 <= b0 <= 0xF4:
                need, val, mn = 3, b0 & 0x07, 0x10000
            else:
                raise DERError("invalidString", s + i)
            if len(c) - i <= need:
                raise DERError("invalidString", s + i)
            for k in range(1, need + 1):
                if c[i + k] & 0xC0 != 0x80:
                    raise DERError("invalidString", s + i + k)
                val = val << 6 | (c[i + k] & 0x3F)
            if val < mn or val > 0x10FFFF or 0xD800 <= val <= 0xDFFF:
                raise DERError("invalidString", s + i)
            i += need + 1
    else:
        raise DERError("unexpectedTag", v.start)


def algorithm_identifier(r):
    v = r.read(0x30)

    def body(a):
        oid(a.read(0x06))
        if not a.at_end():
            p = a.read_any()
            if p.tag == 0x05:
                null(p)
    enter(v, body)
    return v


def name(r):
    def rdns(n):
        while not n.at_end():
            def rdn(s):
                if s.at_end():
                    raise DERError("invalidName", s.pos)
                while not s.at_end():
                    def atv(a):
                        oid(a.read(0x06))
                        string(a.read_any())
                    enter(s.read(0x30), atv)
            enter(n.read(0x31), rdn)
    enter(r.read(0x30), rdns)


def tbs_certificate(t):
    version = 1
    v0 = t.optional(0xA0)
    if v0 is not None:
        def ver(r):
            return r.read(0x02)
        iv = enter(v0, ver)
        n = integer(iv)
        if n == 0:
            raise DERError("defaultValueEncoded", v0.start)
        if n not in (1, 2):
            raise DERError("invalidVersion", iv.cs)
        version = n + 1
    sv = t.read(0x02)
    serial = integer(sv)
    if len(sv.content) > 20 or serial <= 0:
        raise DERError("invalidSerialNumber", sv.start)
    alg = algorithm_identifier(t)
    name(t)

    def validity(r):
        time(r.read_any())
        time(r.read_any())
    enter(t.read(0x30), validity)
    name(t)

    def spki(r):
        algorithm_identifier(r)
        bitstring(r.read(0x03))
    enter(t.read(0x30), spki)
    for tag in (0x81, 0x82):
        u = t.optional(tag)
        if u is not None:
            if version == 1:
                raise DERError("uniqueIdentifierNotAllowed", u.start)
            bitstring(u)
    a3 = t.optional(0xA3)
    if a3 is not None:
        if version != 3:
            raise DERError("extensionsNotAllowed", a3.start)

        def outer(r):
            seq = r.read(0x30)

            def lst(e):
                if e.at_end():
                    raise DERError("emptyExtensions", seq.start)
                seen = set()
                while not e.at_end():
                    ev = e.read(0x30)

                    def one(x):
                        o = oid(x.read(0x06))
                        b = x.optional(0x01)
                        if b is not None and not boolean(b):
                            raise DERError("defaultValueEncoded", b.start)
                        x.read(0x04)
                        return o
                    o = enter(ev, one)
                    if o in seen:
                        raise DERError("duplicateExtension", ev.start)
                    seen.add(o)
            enter(seq, lst)
        enter(a3, outer)
    return alg


def certificate(data):
    top = R(data, 0, len(data))
    cv = top.read(0x30)

    def body(c):
        tbs_alg = enter(c.read(0x30), tbs_certificate)
        outer = algorithm_identifier(c)
        if data[outer.start:outer.end] != data[tbs_alg.start:tbs_alg.end]:
            raise DERError("signatureAlgorithmMismatch", outer.start)
        bitstring(c.read(0x03))
    enter(cv, body)
    top.finish()


def check(data):
    try:
        certificate(data)
        return None
    except DERError as e:
        return (e.kind, e.offset)


def main(argv):
    if argv:
        for p in argv:
            with open(p, "rb") as f:
                print(p, check(f.read()) or "OK")
        return 0
    bad = 0
    with open(os.path.join(FIX, "malformed", "manifest.json")) as f:
        manifest = json.load(f)
    for m in manifest:
        with open(os.path.join(FIX, "malformed", m["file"]), "rb") as f:
            got = check(f.read())
        if got != (m["kind"], m["offset"]):
            bad += 1
            print("MISMATCH %s: manifest %s@%d, model %s" % (m["file"], m["kind"], m["offset"], got))
    certs = os.path.join(FIX, "certs")
    for fn in sorted(os.listdir(certs)):
        if fn.endswith(".der"):
            with open(os.path.join(certs, fn), "rb") as f:
                got = check(f.read())
            if got is not None:
                bad += 1
                print("VALID FIXTURE REJECTED %s: %s" % (fn, got))
    print("strict_check: %d malformed samples, %d problems" % (len(manifest), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
