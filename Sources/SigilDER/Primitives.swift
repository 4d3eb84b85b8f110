/// A BIT STRING's content: the bytes after the unused-bits octet and the count of unused bits
/// in the last byte.
public struct DERBitString {
    /// The data bytes (a raw pointer into the reader's buffer: Sigil-internal,
    /// `@_spi(SigilInternal)`; read bits with `bit(_:)` and `bitCount`).
    @_spi(SigilInternal) public var bytes: UnsafeRawBufferPointer { _bytes }
    @usableFromInline let _bytes: UnsafeRawBufferPointer
    /// Unused bits in the last byte (0...7).
    public let unusedBits: Int
    /// Offset of the first data byte (after the unused-bits octet) in the input.
    public let offset: Int

    /// Bit `i` counting from the most significant bit of the first byte (ASN.1 NamedBitList
    /// numbering, X.680 §22). Bits past the end read as 0.
    @inlinable
    public func bit(_ i: Int) -> Bool {
        let byte = i >> 3
        guard i >= 0, byte < _bytes.count else { return false }
        if byte == _bytes.count - 1 && (7 - (i & 7)) < unusedBits { return false }
        return _bytes[byte] & (0x80 >> UInt8(i & 7)) != 0
    }

    /// A bit string over `bytes` (Sigil-internal: the fuzz harness builds references).
    @_spi(SigilInternal)
    public init(bytes: UnsafeRawBufferPointer, unusedBits: Int, offset: Int) {
        self.init(_bytes: bytes, unusedBits: unusedBits, offset: offset)
    }

    @inlinable
    init(_bytes bytes: UnsafeRawBufferPointer, unusedBits: Int, offset: Int) {
        self._bytes = bytes
        self.unusedBits = unusedBits
        self.offset = offset
    }

    /// Number of significant bits.
    @inlinable public var bitCount: Int { _bytes.count * 8 - unusedBits }
}

extension DERValue {
    /// Requires a primitive encoding (X.690 §10.2: DER never uses the constructed form of
    /// string or other primitive types).
    @inlinable
    func requirePrimitive() throws(DERError) {
        if tag.isConstructed { throw DERError(.unexpectedTag, at: start) }
    }

    /// BOOLEAN content (X.690 §11.1: one octet, 0x00 or 0xFF). Tag not checked (IMPLICIT use).
    @inlinable
    public func decodeBoolean() throws(DERError) -> Bool {
        try requirePrimitive()
        guard contentCount == 1 else { throw DERError(.invalidBoolean, at: contentStart) }
        switch _input[contentStart] {
        case 0x00: return false
        case 0xFF: return true
        default: throw DERError(.invalidBoolean, at: contentStart)
        }
    }

    /// Validates INTEGER content (X.690 §8.3.2: non-empty, minimal) and returns it (two's
    /// complement, big-endian) as a raw view into the reader's buffer. Tag not checked.
    /// Sigil-internal (`@_spi(SigilInternal)`); outside Sigil use `decodeIntegerArray()`.
    @_spi(SigilInternal) @inlinable
    public func decodeIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer { try _decodeIntegerBytes() }

    /// A copy of the INTEGER's content octets (X.690 §8.3.2: non-empty, minimal; two's
    /// complement, big-endian). Tag not checked.
    public func decodeIntegerArray() throws(DERError) -> [UInt8] { Array(try _decodeIntegerBytes()) }

    @usableFromInline
    func _decodeIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer {
        try requirePrimitive()
        let n = contentCount
        guard n > 0 else { throw DERError(.emptyInteger, at: contentStart) }
        if n > 1 {
            let a = _input[contentStart]
            let b = _input[contentStart + 1]
            if (a == 0x00 && b & 0x80 == 0) || (a == 0xFF && b & 0x80 != 0) {
                throw DERError(.nonMinimalInteger, at: contentStart)
            }
        }
        return _content
    }

    /// A non-negative INTEGER's magnitude, big-endian, without the sign octet, as a raw view
    /// into the reader's buffer. Sigil-internal (`@_spi(SigilInternal)`); outside Sigil use
    /// `decodeUnsignedIntegerArray()`.
    @_spi(SigilInternal) @inlinable
    public func decodeUnsignedIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer {
        try _decodeUnsignedIntegerBytes()
    }

    /// A copy of a non-negative INTEGER's magnitude, big-endian, without the sign octet
    /// (X.690 §8.3; negative values throw `.integerOutOfRange`).
    public func decodeUnsignedIntegerArray() throws(DERError) -> [UInt8] { Array(try _decodeUnsignedIntegerBytes()) }

    @usableFromInline
    func _decodeUnsignedIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer {
        let bytes = try _decodeIntegerBytes()
        if bytes[0] & 0x80 != 0 { throw DERError(.integerOutOfRange, at: contentStart) }
        if bytes[0] == 0 && bytes.count > 1 { return UnsafeRawBufferPointer(rebasing: bytes[1...]) }
        return bytes
    }

    /// An INTEGER that must fit an `Int64`.
    @inlinable
    public func decodeInt64() throws(DERError) -> Int64 {
        let bytes = try _decodeIntegerBytes()
        guard bytes.count <= 8 else { throw DERError(.integerOutOfRange, at: contentStart) }
        var v: Int64 = bytes[0] & 0x80 != 0 ? -1 : 0
        for b in bytes { v = (v << 8) | Int64(b) }
        return v
    }

    /// BIT STRING content (X.690 §11.2: unused bits 0...7, 0 when empty, padding bits zero).
    @inlinable
    public func decodeBitString() throws(DERError) -> DERBitString {
        try requirePrimitive()
        guard contentCount >= 1 else { throw DERError(.invalidBitString, at: contentStart) }
        let unused = Int(_input[contentStart])
        if unused > 7 { throw DERError(.invalidBitString, at: contentStart) }
        if contentCount == 1 {
            if unused != 0 { throw DERError(.invalidBitString, at: contentStart) }
        } else if unused > 0 {
            let last = _input[end - 1]
            if last & UInt8((1 << unused) - 1) != 0 { throw DERError(.invalidBitString, at: end - 1) }
        }
        return DERBitString(
            _bytes: UnsafeRawBufferPointer(rebasing: _input[(contentStart + 1)..<end]),
            unusedBits: unused, offset: contentStart + 1)
    }

    /// OBJECT IDENTIFIER content validated (X.690 §8.19: at least one octet, every arc minimal
    /// — no leading 0x80 — and the last octet ends an arc). Returns the content octets, which is
    /// how OIDs are compared throughout.
    @inlinable
    public func decodeObjectIdentifier() throws(DERError) -> UnsafeRawBufferPointer {
        // Fast path, small enough to inline: a primitive OID of 1 to 8 octets, none with bit 8
        // set, is valid — every arc is a single octet, so none starts with 0x80 and the last
        // octet ends an arc. (Most OIDs in certificates — name attributes, id-ce and id-pkix
        // extensions, key purposes — are of this form.) The octets are read as one word when
        // eight octets from the first lie within the input (the bits beyond the content
        // masked off); everything else takes `decodeObjectIdentifierSlow`.
        let n = contentCount
        if !tag.isConstructed && n >= 1 && n <= 8 && contentStart <= _input.count &- 8 {
            let word = UInt64(littleEndian: _input.loadUnaligned(fromByteOffset: contentStart, as: UInt64.self))
            let mask: UInt64 = n == 8 ? ~0 : (1 &<< UInt64(8 &* n)) &- 1
            if word & mask & 0x8080_8080_8080_8080 == 0 { return _content }
        }
        return try decodeObjectIdentifierSlow()
    }

    /// `decodeObjectIdentifier` in full: the tag, the length, then the octets.
    @usableFromInline
    func decodeObjectIdentifierSlow() throws(DERError) -> UnsafeRawBufferPointer {
        try requirePrimitive()
        guard contentCount > 0 else { throw DERError(.invalidObjectIdentifier, at: contentStart) }
        if DERValue.objectIdentifierOctetsValid(_input, from: contentStart, to: end) { return _content }
        // Invalid (or content within the input's first eight octets, which the word-wise check
        // does not load): the octet-by-octet check decides and reports the first offending
        // offset. `run` counts the octets of the current arc read so far (0 at an arc's start).
        var run = 0
        var i = contentStart
        while i < end {
            let b = _input[i]
            if run == 0 && b == 0x80 { throw DERError(.invalidObjectIdentifier, at: i) }
            run &+= 1
            // Arcs above 2^63 are not used by anything real; bound them (9 octets × 7 bits).
            if run > 9 { throw DERError(.invalidObjectIdentifier, at: i) }
            if b < 0x80 { run = 0 }
            i &+= 1
        }
        if run != 0 { throw DERError(.invalidObjectIdentifier, at: end - 1) }
        return _content
    }

    /// True when `input[from..<to]` (at least one octet) is valid OBJECT IDENTIFIER content
    /// (X.690 §8.19.2): no subidentifier starts with 0x80 (each is minimal), the last octet
    /// ends one (bit 8 clear), and — Sigil's bound, as the octet loop of
    /// `decodeObjectIdentifierSlow` — none is longer than 9 octets. Eight octets at a time: per
    /// word, the octets with bit 8 set (continuations) and those that start a subidentifier
    /// (whose predecessor is no continuation) as bit masks, 0x80 octets found exactly
    /// (`~(((x & 0x7F…) + 0x7F…) | x | 0x7F…)` marks the zero octets of `x` without
    /// borrows between them), the run of continuations carried from word to word. False also
    /// when the content ends within the input's first eight octets (the last word is loaded
    /// ending at `to`): the caller then checks octet by octet, which decides either way.
    @inlinable @inline(__always)
    static func objectIdentifierOctetsValid(_ input: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        guard from < to, to >= 8, to <= input.count, from >= 0 else { return false }
        var k = from
        var carry: UInt64 = 0  // 0x80 when the octet before `k` is a continuation
        var run = 0  // continuations since the last octet that ended a subidentifier
        while k < to {
            let m = Swift.min(8, to &- k)
            let w: UInt64
            let valid: UInt64
            if m == 8 {
                w = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: k, as: UInt64.self))
                valid = ~0
            } else {
                // The last `m` octets as the low octets of the word that ends at `to`.
                let last = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: to &- 8, as: UInt64.self))
                w = last &>> UInt64(8 &* (8 &- m))
                valid = (1 &<< UInt64(8 &* m)) &- 1
            }
            let cont = w & high & valid
            let starts = ~((cont &<< 8) | carry) & high & valid
            let x = w ^ high
            let is80 = ~(((x & low) &+ low) | x | low)
            if is80 & starts != 0 { return false }
            let ends = ~cont & high & valid
            if ends == 0 {
                run &+= m
                if run > 8 { return false }
            } else {
                if run &+ ends.trailingZeroBitCount &>> 3 > 8 { return false }
                run = m &- 1 &- ((63 &- ends.leadingZeroBitCount) &>> 3)
            }
            carry = (cont &>> UInt64(8 &* (m &- 1))) & 0x80
            k &+= m
        }
        return run == 0
    }

    /// NULL (X.690 §8.8: no content).
    @inlinable
    public func decodeNull() throws(DERError) {
        try requirePrimitive()
        if contentCount != 0 { throw DERError(.invalidNull, at: contentStart) }
    }
}

extension DERReader {
    /// Reads a BOOLEAN (X.690 §11.1: DER TRUE is 0xFF).
    @inlinable
    public mutating func readBoolean() throws(DERError) -> Bool {
        try read(.boolean).decodeBoolean()
    }

    /// BOOLEAN DEFAULT FALSE: absent means false; an explicit FALSE breaks X.690 §11.5.
    @inlinable
    public mutating func readBooleanDefaultFalse() throws(DERError) -> Bool {
        guard let v = try readOptional(.boolean) else { return false }
        let b = try v.decodeBoolean()
        if !b { throw DERError(.defaultValueEncoded, at: v.start) }
        return true
    }

    /// Reads an INTEGER and returns its minimal two's-complement content octets (X.690 §8.3)
    /// as a raw view into the buffer. Sigil-internal (`@_spi(SigilInternal)`); outside Sigil use
    /// `read(.integer).decodeIntegerArray()`.
    @_spi(SigilInternal) @inlinable
    public mutating func readIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer {
        try read(.integer)._decodeIntegerBytes()
    }

    /// Reads a non-negative INTEGER and returns its magnitude without the sign octet, as a raw
    /// view into the buffer. Sigil-internal (`@_spi(SigilInternal)`); outside Sigil use
    /// `read(.integer).decodeUnsignedIntegerArray()`.
    @_spi(SigilInternal) @inlinable
    public mutating func readUnsignedIntegerBytes() throws(DERError) -> UnsafeRawBufferPointer {
        try read(.integer)._decodeUnsignedIntegerBytes()
    }

    /// Reads an INTEGER that fits in 64 bits.
    @inlinable
    public mutating func readInt64() throws(DERError) -> Int64 {
        try read(.integer).decodeInt64()
    }

    /// Reads a primitive BIT STRING (X.690 §11.2 checked: unused bits 0...7, zero padding).
    @inlinable
    public mutating func readBitString() throws(DERError) -> DERBitString {
        try read(.bitString).decodeBitString()
    }

    /// Reads an OCTET STRING; its octets are the returned value's `content`.
    @inlinable
    public mutating func readOctetString() throws(DERError) -> DERValue {
        let v = try read(.octetString)
        return v
    }

    /// Reads a NULL (empty content).
    @inlinable
    public mutating func readNull() throws(DERError) {
        try read(.null).decodeNull()
    }

    /// Reads an OBJECT IDENTIFIER and returns its validated content octets.
    @inlinable
    public mutating func readObjectIdentifier() throws(DERError) -> UnsafeRawBufferPointer {
        try read(.objectIdentifier).decodeObjectIdentifier()
    }
}

extension DERValue {
    /// Byte-wise equality of two buffers (used for OIDs and raw encodings).
    @inlinable
    public static func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = a.count
        guard n == b.count else { return false }
        // Words rather than octets (OIDs, algorithm identifiers and names are compared here):
        // eight octets at a time, the last word overlapping the one before; four-octet words
        // (two, overlapping) from four octets; the octets themselves below that.
        if n >= 8 {
            var i = 0
            while i < n &- 8 {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                {
                    return false
                }
                i &+= 8
            }
            return a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        if n >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        }
        var i = 0
        while i < n {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }
}

/// The former free-function spelling of `DERValue.bytesEqual(_:_:)`.
@available(*, deprecated, renamed: "DERValue.bytesEqual(_:_:)")
@inlinable
public func derBytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    DERValue.bytesEqual(a, b)
}

extension DERValue {
    /// Byte-wise equality of a buffer with a constant.
    @inlinable
    public static func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        b.withUnsafeBytes { DERValue.bytesEqual(a, $0) }
    }
}

/// The former free-function spelling of `DERValue.bytesEqual(_:_:)`.
@available(*, deprecated, renamed: "DERValue.bytesEqual(_:_:)")
@inlinable
public func derBytesEqual(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
    DERValue.bytesEqual(a, b)
}

extension DERValue {
    /// Renders OID content octets in dotted-decimal form (allocates; for display).
    public static func dottedObjectIdentifier(_ content: UnsafeRawBufferPointer) -> String {
        // Built as ASCII bytes, then one String (appending Strings arc by arc cost more than the
        // rest of an inspection report's extension list).
        var out: [UInt8] = []
        out.reserveCapacity(content.count * 3 + 4)
        DERValue.appendDottedObjectIdentifier(content, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// The former free-function spelling of `DERValue.dottedObjectIdentifier(_:)`.
@available(*, deprecated, renamed: "DERValue.dottedObjectIdentifier(_:)")
public func objectIdentifierDottedString(_ content: UnsafeRawBufferPointer) -> String {
    DERValue.dottedObjectIdentifier(content)
}

extension DERValue {
    /// Appends the dotted-decimal form of OID content octets (what `objectIdentifierDottedString`
    /// returns) to `out` as ASCII, without an intermediate String.
    public static func appendDottedObjectIdentifier(_ content: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        appendDottedObjectIdentifier(content, into: &out)
    }

    /// ``appendDottedObjectIdentifier(_:to:)`` into a ``ByteOutput`` (the bulk JSON writer's buffer).
    @_spi(SigilInternal)
    public static func appendDottedObjectIdentifier(_ content: UnsafeRawBufferPointer, to out: inout ByteOutput) {
        appendDottedObjectIdentifier(content, into: &out)
    }

    package static func appendDottedObjectIdentifier<S: ByteSink>(_ content: UnsafeRawBufferPointer, into out: inout S)
    {
        if content.count == 3 && content[0] == 0x55 && content[1] == 0x1D && content[2] < 0x80 {
            // id-ce 2.5.29.x (RFC 5280 §4.2.1, the standard extensions): 40 × 2 + 5 = 0x55,
            // 29 = 0x1D, and one octet arc below 128.
            let prefix: StaticString = "2.5.29."
            prefix.withUTF8Buffer { out.append(bytes: UnsafeRawBufferPointer($0)) }
            appendDecimal(UInt64(content[2]), to: &out)
            return
        }
        var arc: UInt64 = 0
        var first = true
        for b in content {
            arc = (arc << 7) | UInt64(b & 0x7F)
            if b & 0x80 == 0 {
                if first {
                    // X.690 §8.19.4: the first octet(s) encode 40 × arc1 + arc2.
                    let (a1, a2): (UInt64, UInt64) = arc < 40 ? (0, arc) : arc < 80 ? (1, arc - 40) : (2, arc - 80)
                    appendDecimal(a1, to: &out)
                    out.append(0x2E)
                    appendDecimal(a2, to: &out)
                    first = false
                } else {
                    out.append(0x2E)
                    appendDecimal(arc, to: &out)
                }
                arc = 0
            }
        }
    }
}

/// The former free-function spelling of `DERValue.appendDottedObjectIdentifier(_:to:)`.
@available(*, deprecated, renamed: "DERValue.appendDottedObjectIdentifier(_:to:)")
public func appendObjectIdentifierDotted(_ content: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    DERValue.appendDottedObjectIdentifier(content, to: &out)
}

/// Appends `v` in decimal ASCII.
@inline(__always)
func appendDecimal<S: ByteSink>(_ v: UInt64, to out: inout S) {
    if v < 10 {
        out.append(0x30 + UInt8(v))
        return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes ≥ 20 digits
    var m = v
    withUnsafeMutableBytes(of: &digits) { d in
        var n = 0
        repeat {
            d[23 - n] = UInt8(48 + m % 10)
            m /= 10
            n += 1
        } while m > 0
        out.append(bytes: UnsafeRawBufferPointer(rebasing: d[(24 - n)...]))
    }
}

extension DERValue {
    /// Encodes a dotted-decimal OID into content octets; nil if malformed.
    public static func objectIdentifierContent(dotted: String) -> [UInt8]? {
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard let v = UInt64(part) else { return nil }
            arcs.append(v)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        var out: [UInt8] = []
        func put(_ value: UInt64) {
            var v = value
            var tmp: [UInt8] = [UInt8(v & 0x7F)]
            v >>= 7
            while v > 0 {
                tmp.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(contentsOf: tmp.reversed())
        }
        let (firstSum, overflow) = (arcs[0] * 40).addingReportingOverflow(arcs[1])
        guard !overflow else { return nil }
        put(firstSum)
        for a in arcs.dropFirst(2) { put(a) }
        return out
    }
}

/// The former free-function spelling of `DERValue.objectIdentifierContent(dotted:)`.
@available(*, deprecated, renamed: "DERValue.objectIdentifierContent(dotted:)")
public func objectIdentifierContent(dotted: String) -> [UInt8]? {
    DERValue.objectIdentifierContent(dotted: dotted)
}
