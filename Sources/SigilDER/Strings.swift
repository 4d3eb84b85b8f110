/// A character string value: its universal tag and content octets. Validation and decoding to
/// Unicode scalars happen without allocating.
///
/// Encodings (X.680 §41, X.690 §8.23):
/// - UTF8String: well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF).
/// - PrintableString: A–Z a–z 0–9 space ' ( ) + , - . / : = ?
/// - IA5String: 7-bit.
/// - VisibleString: 0x20–0x7E.
/// - NumericString: digits and space.
/// - BMPString: UCS-2 big-endian, even length, no surrogate code units.
/// - UniversalString: UCS-4 big-endian, length a multiple of 4, valid scalars.
/// - TeletexString (T61String): read as Latin-1, byte for byte, as browsers do.
public struct DERString {
    /// The string type (one of the universal string tags).
    public let tag: DERTag
    /// The content octets (a view into the reader's buffer).
    public let bytes: UnsafeRawBufferPointer
    /// Offset of the first content octet in the input (for errors).
    public let offset: Int

    /// A string of type `tag` over `bytes`, not validated (see `init(_:)` for the validating one).
    /// Sigil-internal (`@_spi(SigilInternal)`): every other reader goes through `init(_:)`.
    @_spi(SigilInternal) @inlinable
    public init(tag: DERTag, bytes: UnsafeRawBufferPointer, offset: Int) {
        self.init(_tag: tag, bytes: bytes, offset: offset)
    }

    @usableFromInline
    init(_tag tag: DERTag, bytes: UnsafeRawBufferPointer, offset: Int) {
        self.tag = tag
        self.bytes = bytes
        self.offset = offset
    }

    /// The string value held by `value`, validated; `.unexpectedTag` if it is not a string type.
    @inlinable
    public init(_ value: DERValue) throws(DERError) {
        guard DERString.isStringTag(value.tag) else { throw DERError(.unexpectedTag, at: value.start) }
        self.init(_tag: value.tag, bytes: value._content, offset: value.contentStart)
        try validate()
    }

    /// True for the character string types this decoder knows.
    @inlinable
    public static func isStringTag(_ tag: DERTag) -> Bool {
        switch tag {
        case .utf8String, .printableString, .ia5String, .visibleString, .numericString,
            .bmpString, .universalString, .teletexString:
            return true
        default:
            return false
        }
    }

    /// PrintableString's character set (X.680 §41.4), plus two tolerated characters.
    /// Tolerated deviation: `*` and `&` appear in PrintableStrings of real certificates (wildcard
    /// Common Names written with the wrong string type; Go's crypto/x509 accepts both for that
    /// reason). Names are never used for identity matching, so accepting them is harmless.
    @inlinable
    public static func isPrintable(_ c: UInt8) -> Bool {
        switch c {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: return true
        case 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F: return true
        case 0x2A, 0x26: return true  // tolerated: '*', '&'
        default: return false
        }
    }

    /// 1 when `isPrintable(c)`, else 0: a bit of a 128-bit map (the set is 7-bit).
    @inlinable @inline(__always)
    public static func printableBit(_ c: UInt8) -> UInt64 {
        let low: UInt64 = 0xA7FF_FFC1_0000_0000  // 0x20 ' ( ) * + , - . / 0–9 : = ? and &
        let high: UInt64 = 0x07FF_FFFE_07FF_FFFE  // A–Z, a–z
        let word = c < 0x40 ? low : (c < 0x80 ? high : 0)
        return (word >> UInt64(c & 63)) & 1
    }

    /// Checks the content against the character set and encoding of the type.
    @inlinable
    public func validate() throws(DERError) {
        switch tag {
        case .printableString:
            // Every octet tested against `isPrintable`'s set as a bitmap (octets 0x00–0x3F, then
            // 0x40–0x7F; none above), without a branch per octet; the octet loop finds the
            // offender. (`DERStringTests` checks the bitmap against `isPrintable`.)
            var all: UInt64 = 1
            for i in 0..<bytes.count { all &= DERString.printableBit(bytes[i]) }
            if all != 0 { return }
            for i in 0..<bytes.count where !DERString.isPrintable(bytes[i]) {
                throw DERError(.invalidString, at: offset + i)
            }
        case .ia5String:
            // Eight octets at a time while all are 7-bit; the octet loop finds the offender.
            var start = 0
            while bytes.count - start >= 8
                && bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                start += 8
            }
            // The tail (fewer than eight octets, when every word before was clean) as one word
            // overlapping the last one checked; otherwise the octet loop finds the offender.
            if start == bytes.count
                || (start >= 8 && bytes.count - start < 8
                    && bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
                        & 0x8080_8080_8080_8080 == 0)
            {
                return
            }
            for i in start..<bytes.count where bytes[i] >= 0x80 { throw DERError(.invalidString, at: offset + i) }
        case .visibleString:
            for i in 0..<bytes.count where bytes[i] < 0x20 || bytes[i] > 0x7E {
                throw DERError(.invalidString, at: offset + i)
            }
        case .numericString:
            for i in 0..<bytes.count where !(bytes[i] == 0x20 || (bytes[i] >= 0x30 && bytes[i] <= 0x39)) {
                throw DERError(.invalidString, at: offset + i)
            }
        case .teletexString:
            break  // every octet is a Latin-1 character
        case .utf8String, .bmpString, .universalString:
            var it = makeScalarIterator()
            if tag == .utf8String {
                // ASCII prefix (almost every name value): 7-bit bytes are whole scalars, so
                // skip them eight at a time and let the strict decoder start at the first
                // byte with the high bit set.
                let n = bytes.count
                var i = 0
                while n - i >= 8 {
                    if bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
                    i += 8
                }
                // The tail of an all-ASCII string as one word overlapping the last one checked.
                if i == n
                    || (i >= 8 && n - i < 8
                        && bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0)
                {
                    return
                }
                while i < n && bytes[i] < 0x80 { i += 1 }
                if i == n { return }
                it.i = i
            }
            while true {
                switch it.nextResult() {
                case .scalar: continue
                case .end: return
                case .error(let at): throw DERError(.invalidString, at: offset + at)
                }
            }
        default:
            throw DERError(.unexpectedTag, at: offset)
        }
    }

    /// The value as Unicode scalars, decoded lazily.
    @inlinable
    public func makeScalarIterator() -> ScalarIterator { ScalarIterator(tag: tag, bytes: bytes) }

    /// Decodes the content to Unicode scalars; malformed input ends the sequence early with an
    /// error position (validated strings never produce one).
    public struct ScalarIterator: IteratorProtocol {
        /// One decoding step: a scalar, the end, or the offset of malformed content.
        public enum Step {
            /// The next Unicode scalar of the string.
            case scalar(Unicode.Scalar)
            /// The string's content is exhausted.
            case end
            /// The content is malformed for the string type at this offset within it (never produced
            /// for a string the reader has validated).
            case error(Int)
        }
        @usableFromInline let tag: DERTag
        @usableFromInline let bytes: UnsafeRawBufferPointer
        @usableFromInline var i = 0

        @inlinable init(tag: DERTag, bytes: UnsafeRawBufferPointer) {
            self.tag = tag
            self.bytes = bytes
        }

        /// The next scalar; nil at the end or at malformed content.
        @inlinable
        public mutating func next() -> Unicode.Scalar? {
            if case .scalar(let s) = nextResult() { return s }
            return nil
        }

        /// The next step, distinguishing the end from malformed content.
        @inlinable
        public mutating func nextResult() -> Step {
            let n = bytes.count
            guard i < n else { return .end }
            switch tag {
            case .bmpString:
                guard n - i >= 2 else { return .error(i) }
                let u = UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
                guard let s = Unicode.Scalar(u) else { return .error(i) }  // surrogates
                i += 2
                return .scalar(s)
            case .universalString:
                guard n - i >= 4 else { return .error(i) }
                let u =
                    UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8
                    | UInt32(bytes[i + 3])
                guard let s = Unicode.Scalar(u) else { return .error(i) }
                i += 4
                return .scalar(s)
            case .utf8String:
                return nextUTF8()
            default:
                // Single-byte sets; Teletex is read as Latin-1.
                let b = bytes[i]
                i += 1
                return .scalar(Unicode.Scalar(b))
            }
        }

        /// Strict UTF-8 (RFC 3629 §4): shortest form, no surrogates, at most U+10FFFF.
        @inlinable
        mutating func nextUTF8() -> Step {
            let n = bytes.count
            let start = i
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                return .scalar(Unicode.Scalar(b0))
            }
            var need: Int
            var value: UInt32
            var minimum: UInt32
            switch b0 {
            case 0xC2...0xDF:
                need = 1
                value = UInt32(b0 & 0x1F)
                minimum = 0x80
            case 0xE0...0xEF:
                need = 2
                value = UInt32(b0 & 0x0F)
                minimum = 0x800
            case 0xF0...0xF4:
                need = 3
                value = UInt32(b0 & 0x07)
                minimum = 0x10000
            default: return .error(start)
            }
            guard n - i > need else { return .error(start) }
            var k = 1
            while k <= need {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return .error(i + k) }
                value = value << 6 | UInt32(c & 0x3F)
                k += 1
            }
            guard value >= minimum, value <= 0x10FFFF, let s = Unicode.Scalar(value) else { return .error(start) }
            i += need + 1
            return .scalar(s)
        }
    }

    /// The value as a Swift `String` (allocates; for display).
    public var string: String {
        // ASCII content in a one-byte-per-character type (or UTF-8) is its own UTF-8: one copy
        // instead of a scalar-by-scalar append.
        if tag != .bmpString && tag != .universalString && !bytes.contains(where: { $0 >= 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var s = String.UnicodeScalarView()
        var it = makeScalarIterator()
        while let c = it.next() { s.append(c) }
        return String(s)
    }
}

extension DERValue {
    /// The common case of a Name's validation (`DistinguishedName.validate` in SigilX509),
    /// decided over the raw octets without nested readers: true only when this value's content
    /// is a series of RDNs (RFC 5280 §4.1.2.4), each a non-empty `SET` of
    /// `AttributeTypeAndValue` `SEQUENCE`s holding a valid OBJECT IDENTIFIER (X.690 §8.19.2, the
    /// rule of `decodeObjectIdentifier()`) and a value of one of `DERString`'s types whose
    /// content `DERString.validate()` accepts, every length a minimal short, one- or two-octet
    /// form (X.690 §10.1) ending within its container, and each container exactly filled —
    /// that is, only where the full validator, with its readers, accepts the name (nesting
    /// included: the attribute values lie three levels below this value). false says nothing:
    /// the caller then runs the full validator, which decides and reports the error. A value of
    /// any other type (an attribute with `ANY` syntax) is left to that validator too.
    /// Sigil-internal.
    @_spi(SigilInternal) public func isValidStringRDNSequence() -> Bool {
        // RDN SET (depth + 1), attribute SEQUENCE (+ 2), value inside it (+ 3): `DERReader.enter`
        // refuses a reader deeper than `maximumDepth`.
        guard depth + 3 <= DERReader.maximumDepth, tag.rawValue == 0x30 else { return false }
        let b = _input
        var p = contentStart
        let e = end
        while p < e {
            // The usual RDN, one attribute with a 2.5.4.x type (X.520) and short lengths:
            // `31 L1 30 L2 06 03 55 04 x T L3 value`, L1 = L2 + 2 = L3 + 9 < 0x80, x < 0x80, T a
            // string tag — exactly what the walk below accepts for these octets, read from one
            // word and three octets instead of header by header.
            if e &- p >= 11, let base = b.baseAddress {
                let w = UInt64(littleEndian: (base + p).loadUnaligned(as: UInt64.self))
                let l1 = Int(truncatingIfNeeded: (w &>> 8) & 0xFF)
                let l2 = Int(truncatingIfNeeded: (w &>> 24) & 0xFF)
                let x = b[p &+ 8]
                let t = DERTag(rawValue: b[p &+ 9])
                let l3 = Int(b[p &+ 10])
                // Octets 0, 2, 4–7 (little-endian): 31 · 30 · 06 03 55 04.
                if w & 0xFFFF_FFFF_00FF_00FF == 0x0455_0306_0030_0031, l1 < 0x80, l1 == l2 &+ 2, l2 == l3 &+ 7,
                    x < 0x80, l3 <= e &- p &- 11, DERString.isStringTag(t)
                {
                    let start = p &+ 11
                    let s = DERString(
                        _tag: t, bytes: UnsafeRawBufferPointer(rebasing: b[start..<(start &+ l3)]), offset: start)
                    guard (try? s.validate()) != nil else { return false }
                    p = start &+ l3
                    continue
                }
            }
            guard b[p] == 0x31, let set = DERValue.minimalHeader(b, p &+ 1, e), set.0 < set.1 else { return false }
            var q = set.0
            let setEnd = set.1
            while q < setEnd {
                guard b[q] == 0x30, let atv = DERValue.minimalHeader(b, q &+ 1, setEnd) else { return false }
                let atvEnd = atv.1
                let o = atv.0
                guard o < atvEnd, b[o] == 0x06, let oid = DERValue.minimalHeader(b, o &+ 1, atvEnd),
                    DERValue.isValidOIDContent(b, oid.0, oid.1)
                else { return false }
                let v = oid.1
                guard v < atvEnd else { return false }
                let t = DERTag(rawValue: b[v])
                guard DERString.isStringTag(t), let value = DERValue.minimalHeader(b, v &+ 1, atvEnd), value.1 == atvEnd
                else { return false }
                let s = DERString(
                    _tag: t, bytes: UnsafeRawBufferPointer(rebasing: b[value.0..<value.1]), offset: value.0)
                guard (try? s.validate()) != nil else { return false }
                q = atvEnd
            }
            p = setEnd
        }
        return true
    }

    /// The content range of a TLV whose length octets start at `i`, when they are a minimal
    /// short form, `0x81 L` (L ≥ 0x80) or `0x82 H L` (H ≠ 0) and the content ends by `limit`;
    /// nil otherwise (the full reader decides those).
    /// Sigil-internal (`@_spi(SigilInternal)`: SigilX509's extension-list walk).
    @_spi(SigilInternal) @inlinable @inline(__always)
    public static func minimalHeader(_ b: UnsafeRawBufferPointer, _ i: Int, _ limit: Int) -> (Int, Int)? {
        guard i < limit else { return nil }
        let first = b[i]
        let length: Int
        let start: Int
        if first < 0x80 {
            length = Int(first)
            start = i &+ 1
        } else if first == 0x81 {
            guard i &+ 1 < limit else { return nil }
            length = Int(b[i &+ 1])
            guard length >= 0x80 else { return nil }
            start = i &+ 2
        } else if first == 0x82 {
            guard i &+ 2 < limit, b[i &+ 1] != 0 else { return nil }
            length = Int(b[i &+ 1]) << 8 | Int(b[i &+ 2])
            start = i &+ 3
        } else {
            return nil
        }
        guard length <= limit &- start else { return nil }
        return (start, start &+ length)
    }

    /// `decodeObjectIdentifier()`'s rule on the content `b[start..<end]`: not empty, no arc
    /// starting with 0x80, no arc longer than 9 octets, the last octet ending an arc.
    @inline(__always)
    @_spi(SigilInternal) @inlinable
    public static func isValidOIDContent(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        var run = 0
        var i = start
        while i < end {
            let c = b[i]
            if run == 0 && c == 0x80 { return false }
            run &+= 1
            if run > 9 { return false }
            if c < 0x80 { run = 0 }
            i &+= 1
        }
        return run == 0
    }
}
