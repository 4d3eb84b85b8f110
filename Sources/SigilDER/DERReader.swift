/// An identifier octet (X.690 §8.1.2), low tag numbers only.
public struct DERTag: Hashable, Sendable, CustomStringConvertible {
    /// The identifier octet.
    public let rawValue: UInt8

    /// The tag with identifier octet `rawValue`.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 6 (X.690 §8.1.2.5): the value's content is a sequence of TLVs.
    @inlinable public var isConstructed: Bool { rawValue & 0x20 != 0 }
    /// Bits 8–7 (X.690 §8.1.2.2): 0 universal, 1 application, 2 context-specific, 3 private.
    @inlinable public var tagClass: UInt8 { rawValue >> 6 }
    /// Bits 5–1: the tag number (low-tag form).
    @inlinable public var number: UInt8 { rawValue & 0x1F }

    /// UNIVERSAL 1, BOOLEAN.
    @inlinable public static var boolean: DERTag { DERTag(rawValue: 0x01) }
    /// UNIVERSAL 2, INTEGER.
    @inlinable public static var integer: DERTag { DERTag(rawValue: 0x02) }
    /// UNIVERSAL 3, BIT STRING (primitive).
    @inlinable public static var bitString: DERTag { DERTag(rawValue: 0x03) }
    /// UNIVERSAL 4, OCTET STRING (primitive).
    @inlinable public static var octetString: DERTag { DERTag(rawValue: 0x04) }
    /// UNIVERSAL 5, NULL.
    @inlinable public static var null: DERTag { DERTag(rawValue: 0x05) }
    /// UNIVERSAL 6, OBJECT IDENTIFIER.
    @inlinable public static var objectIdentifier: DERTag { DERTag(rawValue: 0x06) }
    /// UNIVERSAL 10, ENUMERATED.
    @inlinable public static var enumerated: DERTag { DERTag(rawValue: 0x0A) }
    /// UNIVERSAL 12, UTF8String.
    @inlinable public static var utf8String: DERTag { DERTag(rawValue: 0x0C) }
    /// UNIVERSAL 18, NumericString.
    @inlinable public static var numericString: DERTag { DERTag(rawValue: 0x12) }
    /// UNIVERSAL 19, PrintableString.
    @inlinable public static var printableString: DERTag { DERTag(rawValue: 0x13) }
    /// UNIVERSAL 20, TeletexString (T61String).
    @inlinable public static var teletexString: DERTag { DERTag(rawValue: 0x14) }
    /// UNIVERSAL 22, IA5String.
    @inlinable public static var ia5String: DERTag { DERTag(rawValue: 0x16) }
    /// UNIVERSAL 23, UTCTime.
    @inlinable public static var utcTime: DERTag { DERTag(rawValue: 0x17) }
    /// UNIVERSAL 24, GeneralizedTime.
    @inlinable public static var generalizedTime: DERTag { DERTag(rawValue: 0x18) }
    /// UNIVERSAL 26, VisibleString.
    @inlinable public static var visibleString: DERTag { DERTag(rawValue: 0x1A) }
    /// UNIVERSAL 28, UniversalString.
    @inlinable public static var universalString: DERTag { DERTag(rawValue: 0x1C) }
    /// UNIVERSAL 30, BMPString.
    @inlinable public static var bmpString: DERTag { DERTag(rawValue: 0x1E) }
    /// UNIVERSAL 16 constructed, SEQUENCE / SEQUENCE OF.
    @inlinable public static var sequence: DERTag { DERTag(rawValue: 0x30) }
    /// UNIVERSAL 17 constructed, SET / SET OF.
    @inlinable public static var set: DERTag { DERTag(rawValue: 0x31) }

    /// `[n]` context-specific, primitive (IMPLICIT tagging of a primitive type).
    @inlinable public static func contextPrimitive(_ n: UInt8) -> DERTag { DERTag(rawValue: 0x80 | n) }
    /// `[n]` context-specific, constructed (EXPLICIT tagging, or IMPLICIT of a constructed type).
    @inlinable public static func contextConstructed(_ n: UInt8) -> DERTag { DERTag(rawValue: 0xA0 | n) }

    /// `0x` and the identifier octet in hex.
    public var description: String {
        let hex = Array("0123456789abcdef")
        return "0x" + String(hex[Int(rawValue >> 4)]) + String(hex[Int(rawValue & 0xF)])
    }
}

/// One parsed TLV: its tag and where its header and content lie in the reader's input.
/// Offsets are absolute (from the start of the input), so they can be stored and used later
/// against the same bytes.
public struct DERValue {
    /// The identifier octet.
    public let tag: DERTag
    /// Offset of the identifier octet.
    public let start: Int
    /// Offset of the first content octet.
    public let contentStart: Int
    /// Offset one past the last content octet.
    public let end: Int
    /// The whole input the offsets refer to (a raw pointer, valid only while the reader's
    /// buffer is: Sigil-internal, `@_spi(SigilInternal)`; use `content` and `encoded`).
    @_spi(SigilInternal) public var input: UnsafeRawBufferPointer { _input }
    @usableFromInline let _input: UnsafeRawBufferPointer
    @usableFromInline let depth: Int

    @inlinable
    init(tag: DERTag, start: Int, contentStart: Int, end: Int, input: UnsafeRawBufferPointer, depth: Int) {
        self.tag = tag
        self.start = start
        self.contentStart = contentStart
        self.end = end
        self._input = input
        self.depth = depth
    }

    /// Number of content octets.
    @inlinable public var contentCount: Int { end - contentStart }

    /// The content octets, without copying: a raw view valid only while the reader's buffer is
    /// (Sigil-internal, `@_spi(SigilInternal)`; outside Sigil use `contentBytes`).
    @_spi(SigilInternal) @inlinable public var content: UnsafeRawBufferPointer { _content }
    /// True when `DERReader.enter(_:_:)` may enter this value: its content one level deeper
    /// is within `DERReader.maximumDepth` (Sigil-internal, for readers that match a whole
    /// known encoding instead of entering it).
    @_spi(SigilInternal) @inlinable public var contentIsWithinNestingLimit: Bool {
        depth &+ 1 <= DERReader.maximumDepth
    }

    /// The whole encoding (header and content), without copying: a raw view valid only while the
    /// reader's buffer is (Sigil-internal, `@_spi(SigilInternal)`; outside Sigil use `encodedBytes`).
    @_spi(SigilInternal) @inlinable public var encoded: UnsafeRawBufferPointer { _encoded }

    /// A copy of the content octets: safe to keep after the reader's buffer is gone.
    public var contentBytes: [UInt8] { Array(_content) }

    /// A copy of the whole encoding (header and content): safe to keep after the reader's buffer
    /// is gone.
    public var encodedBytes: [UInt8] { Array(_encoded) }

    @usableFromInline var _content: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: _input[contentStart..<end])
    }

    @usableFromInline var _encoded: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: _input[start..<end])
    }
}

/// A cursor over DER-encoded bytes. Every `read…` consumes one value from the front and hands
/// back views into the same memory; nothing is copied and nothing is allocated.
///
/// Strict DER (X.690 §10): definite lengths in minimal form, at most 4 length octets, lengths
/// within the remaining input, low tag numbers only (X.509 never needs the high-tag form).
public struct DERReader {
    /// Maximum nesting of constructed values. Certificates nest about 8 deep; 32 leaves room for
    /// odd but legitimate structures and bounds recursion on hostile input.
    public static let maximumDepth = 32

    /// The buffer being read (raw pointer: Sigil-internal, `@_spi(SigilInternal)`).
    @_spi(SigilInternal) public var input: UnsafeRawBufferPointer { _input }
    @usableFromInline let _input: UnsafeRawBufferPointer
    /// Offset of the next unread octet. Internal setter: only `read…` methods move it.
    @inlinable public var position: Int { _position }
    @usableFromInline var _position: Int
    /// Offset one past the last octet this reader may read (absolute, like `position`).
    public let end: Int
    @usableFromInline let depth: Int

    /// A reader over the whole of `input`.
    @inlinable
    public init(_ input: UnsafeRawBufferPointer) {
        self._input = input
        self._position = 0
        self.end = input.count
        self.depth = 0
    }

    /// A reader over `input[from..<to]`, offsets still counted from the start of `input`.
    @inlinable
    public init(input: UnsafeRawBufferPointer, from: Int, to: Int, depth: Int = 0) {
        precondition(from >= 0 && from <= to && to <= input.count)
        self._input = input
        self._position = from
        self.end = to
        self.depth = depth
    }

    /// A reader over the content of a value another reader returned, whose offsets satisfy
    /// `init(input:from:to:depth:)`'s precondition by construction (a `DERValue` is only made
    /// by the readers, over their own input): `enter` takes it for every nesting level.
    @inlinable
    init(unchecked input: UnsafeRawBufferPointer, from: Int, to: Int, depth: Int) {
        self._input = input
        self._position = from
        self.end = to
        self.depth = depth
    }

    /// True when nothing is left to read.
    @inlinable public var isAtEnd: Bool { position >= end }
    /// Octets left to read.
    @inlinable public var remaining: Int { end - position }

    /// The tag of the next value, if any, without consuming it.
    @inlinable
    public func peekTag() -> DERTag? {
        position < end ? DERTag(rawValue: _input[position]) : nil
    }

    /// Like `peekTag()`, but reports the high-tag-number form as the error it is.
    @inlinable
    public func peekTagChecked() throws(DERError) -> DERTag? {
        guard position < end else { return nil }
        if _input[position] & 0x1F == 0x1F { throw DERError(.highTagNumber, at: position) }
        return DERTag(rawValue: _input[position])
    }

    /// Reads the next TLV of any tag.
    @inlinable @inline(__always)
    public mutating func readAny() throws(DERError) -> DERValue {
        let start = position
        var p = position
        guard p < end else { throw DERError(.truncated, at: p) }
        let tagByte = _input[p]
        if tagByte & 0x1F == 0x1F { throw DERError(.highTagNumber, at: p) }
        // [UNIVERSAL 0], primitive or constructed, is no value: X.680 §8.6 reserves it for the
        // encoding rules, and X.690 §8.1.5 uses it only as end-of-contents octets of the
        // indefinite form, which DER never has (§10.1). Found by fuzzing (FuzzDER).
        if tagByte & 0xDF == 0 { throw DERError(.unexpectedTag, at: p) }
        p &+= 1
        guard p < end else { throw DERError(.truncated, at: p) }
        let first = _input[p]
        p &+= 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else {
            if first == 0x80 { throw DERError(.indefiniteLength, at: p - 1) }
            let n = Int(first & 0x7F)
            if n > 4 { throw DERError(.lengthTooLong, at: p - 1) }
            guard end &- p >= n else { throw DERError(.truncated, at: p) }
            if _input[p] == 0 { throw DERError(.nonMinimalLength, at: p - 1) }
            // At most four octets: below 2^32, no overflow.
            length = 0
            for i in 0..<n { length = (length &<< 8) | Int(_input[p &+ i]) }
            if length < 0x80 { throw DERError(.nonMinimalLength, at: p - 1) }
            p &+= n
        }
        guard length <= end &- p else { throw DERError(.truncated, at: start) }
        _position = p &+ length
        return DERValue(
            tag: DERTag(rawValue: tagByte), start: start, contentStart: p,
            end: p &+ length, input: _input, depth: depth)
    }

    /// Reads the next value, which must carry `tag`.
    ///
    /// Inlined fast path for the common case, a short-form length (X.690 §8.1.3.4: one length
    /// octet below 0x80) whose content lies within the input: it returns only where
    /// `readSlow(_:)` — the full reader, every check and every error — would return the same
    /// value; anything else (a long-form length, any error) is left to that one.
    @inlinable @inline(__always)
    public mutating func read(_ tag: DERTag) throws(DERError) -> DERValue {
        if let v = readShortForm(tag) { return v }
        return try readSlow(tag)
    }

    /// The fast path of `read(_:)` and `readOptional(_:)`: the next value when it carries `tag`
    /// (neither of the high-tag form nor [UNIVERSAL 0]) with a short-form length whose content
    /// lies within the input — exactly the values the full readers would return; nil (nothing
    /// consumed) in every other case, which the full readers then decide.
    @inlinable @inline(__always)
    mutating func readShortForm(_ tag: DERTag) -> DERValue? {
        let p = _position
        let t = tag.rawValue
        // `t` is a constant at almost every call site: the two tag checks fold away.
        // Wrapping arithmetic here and below: 0 <= position <= end <= input.count always holds
        // (the initialisers check it, every read keeps it), so no sum or difference of these
        // offsets and a few octets can overflow; the overflow checks were a third of each read.
        guard t & 0x1F != 0x1F, t & 0xDF != 0, p < end &- 1, _input[p] == t else { return nil }
        let first = _input[p &+ 1]
        guard first < 0x80, Int(first) <= end &- p &- 2 else { return nil }
        let e = p &+ 2 &+ Int(first)
        _position = e
        return DERValue(tag: tag, start: p, contentStart: p &+ 2, end: e, input: _input, depth: depth)
    }

    /// The next value when it carries `tag` (neither of the high-tag form nor [UNIVERSAL 0])
    /// with a long-form length of one or two octets in DER's minimal form (X.690 §8.1.3.5,
    /// §10.1) whose content lies within the input: 0x81 L with L ≥ 0x80 (below, the short form
    /// was due), 0x82 H L with H ≠ 0 (else one octet would do) — exactly the values `readAny`
    /// returns for those encodings; nil (nothing consumed) in every other case (another tag,
    /// 0x80, three or four length octets, a non-minimal or truncated length), which the full
    /// reader then decides. The first step of `readSlow(_:)`: the certificate, TBS, SPKI and
    /// extension-list headers take it without the full reader's error paths.
    @inlinable @inline(__always)
    mutating func readTwoOctetForm(_ tag: DERTag) -> DERValue? {
        let p = _position
        let t = tag.rawValue
        guard t & 0x1F != 0x1F, t & 0xDF != 0, p < end &- 2, _input[p] == t else { return nil }
        let first = _input[p &+ 1]
        let length: Int
        let contentStart: Int
        if first == 0x81 {
            length = Int(_input[p &+ 2])
            guard length >= 0x80 else { return nil }
            contentStart = p &+ 3
        } else if first == 0x82 {
            guard p < end &- 3 else { return nil }
            let high = _input[p &+ 2]
            guard high != 0 else { return nil }
            length = Int(high) << 8 | Int(_input[p &+ 3])
            contentStart = p &+ 4
        } else {
            return nil
        }
        guard length <= end &- contentStart else { return nil }
        let e = contentStart &+ length
        _position = e
        return DERValue(tag: tag, start: p, contentStart: contentStart, end: e, input: _input, depth: depth)
    }

    /// `read(_:)` in full (every length form, every error).
    @inlinable @inline(never)
    mutating func readSlow(_ tag: DERTag) throws(DERError) -> DERValue {
        if let v = readTwoOctetForm(tag) { return v }
        guard position < end else { throw DERError(.truncated, at: position) }
        let b = _input[position]
        if b != tag.rawValue {
            // Report the high-tag form as such wherever a tag is examined.
            if b & 0x1F == 0x1F { throw DERError(.highTagNumber, at: position) }
            throw DERError(.unexpectedTag, at: position)
        }
        return try readAny()
    }

    /// Reads the next value if it carries `tag`; otherwise consumes nothing and returns nil.
    ///
    /// Inlined fast path as `read(_:)`'s (`readShortForm(_:)`); everything else goes to
    /// `readOptionalSlow(_:)`.
    @inlinable @inline(__always)
    public mutating func readOptional(_ tag: DERTag) throws(DERError) -> DERValue? {
        if let v = readShortForm(tag) { return v }
        // The field absent (the usual case of an optional field, e.g. an extension's `critical`):
        // nothing left, or a next octet that is another tag and not of the high-tag form —
        // where `readOptionalSlow(_:)` answers nil too. Everything else is left to it.
        let p = _position
        if p >= end { return nil }
        let b = _input[p]
        if b != tag.rawValue && b & 0x1F != 0x1F { return nil }
        return try readOptionalSlow(tag)
    }

    /// `readOptional(_:)` in full.
    @inlinable @inline(never)
    mutating func readOptionalSlow(_ tag: DERTag) throws(DERError) -> DERValue? {
        guard position < end else { return nil }
        if _input[position] & 0x1F == 0x1F { throw DERError(.highTagNumber, at: position) }
        guard _input[position] == tag.rawValue else { return nil }
        return try readAny()
    }

    /// Reads a constructed value with `tag` and runs `body` over its content; fails with
    /// `.trailingData` if `body` leaves bytes unread. This is the only way the parsers in this
    /// package enter a nested value.
    ///
    /// Inlined (with `enterOptional` and the static `enter`) so that the closure's body is
    /// compiled into the caller: called, every nesting level cost a function's prologue, the
    /// readers spilled to the stack and a typed-error check on the way out (callgrind, the
    /// extension decoders).
    @inlinable @inline(__always)
    public mutating func enter<T>(_ tag: DERTag, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError) -> T
    {
        let value = try read(tag)
        return try DERReader.enter(value, body)
    }

    /// Like `enter(_:_:)`, but only when the next value carries `tag`.
    @inlinable @inline(__always)
    public mutating func enterOptional<T>(_ tag: DERTag, _ body: (inout DERReader) throws(DERError) -> T)
        throws(DERError) -> T?
    {
        guard let value = try readOptional(tag) else { return nil }
        return try DERReader.enter(value, body)
    }

    /// Runs `body` over the content of an already-read constructed value, requiring that it
    /// consume everything.
    @inlinable @inline(__always)
    public static func enter<T>(_ value: DERValue, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError)
        -> T
    {
        if !value.tag.isConstructed { throw DERError(.unexpectedTag, at: value.start) }
        if value.depth + 1 > DERReader.maximumDepth { throw DERError(.nestingTooDeep, at: value.start) }
        var inner = DERReader(unchecked: value._input, from: value.contentStart, to: value.end, depth: value.depth + 1)
        let result = try body(&inner)
        if !inner.isAtEnd { throw DERError(.trailingData, at: inner.position) }
        return result
    }

    /// Fails with `.trailingData` if anything is left.
    @inlinable
    public func finish() throws(DERError) {
        if position < end { throw DERError(.trailingData, at: position) }
    }

    /// Skips the next value, whatever it is.
    @inlinable
    public mutating func skip() throws(DERError) {
        _ = try readAny()
    }
}
