import SigilDER

/// A zero-copy view of part of a certificate's (or CRL's, OCSP response's) bytes: it shares (retains) its
/// storage and records a range in it. Offsets are absolute in the certificate, so errors found
/// while decoding a span lazily still point into the original DER.
///
/// Spans are made only by Sigil's parsers, over bytes they validated: the iterators that walk
/// a span's content (names, general names) rely on it, so there is no public initializer.
public struct ByteSpan: Sendable {
    /// The certificate's whole encoding (internal: expose `bytes`, a slice of it).
    @usableFromInline let storage: [UInt8]
    // The offsets as 32 bits: a span is two words, so a value made of up to two spans (an
    // otherName, a `GeneralName`) is passed, returned and destroyed in registers. Measured
    // with callgrind: with three-word spans, every `Optional<GeneralName>` and
    // `Optional<Extension>` a caller in another module dropped went through the type's value
    // witness (`__swift_instantiateConcreteTypeFromMangledName`, then `Optional`'s generic
    // destroy: ~120 instructions each, 34 per walk of the RSA-2048 leaf). Every buffer a span
    // is made over is bounded well below 4 GiB by its parser (`Certificate.maximumSize`,
    // `CertificateList.maximumSize`, `OCSPResponse.maximumSize`; `init(unvalidated:)` checks).
    @usableFromInline let _start: UInt32
    @usableFromInline let _end: UInt32

    /// Absolute offset of the first byte.
    @inlinable public var start: Int { Int(_start) }
    /// Absolute offset one past the last byte.
    @inlinable public var end: Int { Int(_end) }

    /// A span of `storage[start..<end]`; both offsets lie within a buffer its parser bounded
    /// (at most `CertificateList.maximumSize`, far below 2^32).
    @inlinable
    init(_ storage: [UInt8], _ start: Int, _ end: Int) {
        self.storage = storage
        self._start = UInt32(truncatingIfNeeded: start)
        // Checked (a trap, never a wrong span): `start` is at most `end` at every call site.
        self._end = UInt32(end)
    }

    /// A span over all of `bytes`, which no parser has validated: for Sigil's own fuzz harness
    /// and tests, which feed arbitrary bytes to the decoders that take a span (they re-check
    /// every byte they read). Not for applications (`@_spi(SigilInternal)`). At most
    /// `UInt32.max` bytes (the offsets are 32-bit).
    @_spi(SigilInternal) public init(unvalidated bytes: [UInt8]) {
        precondition(bytes.count <= Int(UInt32.max), "ByteSpan: at most 2^32 - 1 bytes")
        self.init(bytes, 0, bytes.count)
    }

    /// Number of bytes.
    @inlinable public var count: Int { end - start }
    /// True when the span holds no byte.
    @inlinable public var isEmpty: Bool { end == start }

    /// The bytes, as a slice sharing storage (no copy).
    @inlinable public var bytes: ArraySlice<UInt8> { storage[start..<end] }

    /// A fresh array copy (allocates).
    public var array: [UInt8] { Array(storage[start..<end]) }

    /// Lowercase hex, no separators (allocates; for display).
    public var hex: String { ByteSpan.hexString(bytes) }

    /// Runs `body` over the span's bytes (offsets relative to the span). Typed throws, generic
    /// over the error: a closure that cannot fail needs no `try`.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withStorage(storage) { (buf) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: buf[start..<end]))
        }
    }

    /// Runs `body` with a reader over the span (absolute offsets), requiring it to consume all.
    @inlinable
    public func read<R>(_ body: (inout DERReader) throws(DERError) -> R) throws(DERError) -> R {
        try withStorage(storage) { (buf) throws(DERError) -> R in
            var r = DERReader(input: buf, from: start, to: end)
            let v = try body(&r)
            try r.finish()
            return v
        }
    }
}

extension ByteSpan: Equatable, Hashable {
    /// Spans compare by content.
    public static func == (a: ByteSpan, b: ByteSpan) -> Bool {
        a.count == b.count && a.bytes.elementsEqual(b.bytes)
    }

    /// Content comparison with a constant (e.g. an OID).
    public static func == (a: ByteSpan, b: [UInt8]) -> Bool {
        a.count == b.count && a.bytes.elementsEqual(b)
    }

    /// Hashes the content (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for b in bytes { hasher.combine(b) }
    }
}

/// `Array.withUnsafeBytes` is not typed-throws; this keeps the error type (`DERError`, or
/// `Never` for a closure that cannot fail) through it, by way of `withUnsafeBufferPointer`,
/// which is (a `Result` carried the value and the error out before: its wrapping and
/// unwrapping, and the copies of the value they made, showed in every decoder's profile).
@inlinable
func withStorage<R, E: Error>(_ storage: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try storage.withUnsafeBufferPointer { (buf) throws(E) -> R in try body(UnsafeRawBufferPointer(buf)) }
}

let hexDigitBytes: [UInt8] = Array("0123456789abcdef".utf8)

extension ByteSpan {
    /// Lowercase hex of bytes (allocates; for display). Built as UTF-8 bytes, then one String:
    /// appending Characters one by one cost more than the rest of a report.
    public static func hexString<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(hexDigitBytes[Int(b >> 4)])
            out.append(hexDigitBytes[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The former free-function spelling of `ByteSpan.hexString(_:)`.
@available(*, deprecated, renamed: "ByteSpan.hexString(_:)")
public func hexString<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    ByteSpan.hexString(bytes)
}

/// One element's TLV in a list being iterated: its identifier octet and absolute offsets.
@usableFromInline
struct ElementTLV {
    @usableFromInline let tag: UInt8
    @usableFromInline let start: Int
    @usableFromInline let contentStart: Int
    @usableFromInline let end: Int

    @inlinable
    init(tag: UInt8, start: Int, contentStart: Int, end: Int) {
        self.tag = tag
        self.start = start
        self.contentStart = contentStart
        self.end = end
    }
}

/// A position in a validated list (the content span of a SEQUENCE OF): the concrete cursor
/// the list iterators (`GeneralNames`, `AccessDescriptions`, `ObjectIdentifierList`,
/// `GeneralSubtrees`) step with. Everything is inlinable so that an iterator's `next()` is
/// compiled into the caller's loop: no stored closure, no generic element type, no indirect
/// return. Each step reads the element's header with the strict reader (bounds-checked), so
/// even a span that was somehow not validated cannot lead outside its bytes; a malformed
/// element ends the iteration.
@usableFromInline
struct ListCursor {
    @usableFromInline let storage: [UInt8]
    @usableFromInline var position: Int
    @usableFromInline let end: Int

    @inlinable
    init(_ list: ByteSpan) {
        storage = list.storage
        position = list.start
        end = list.end
    }

    /// A cursor over the content of the TLV that `span` holds (a validated SEQUENCE or SET
    /// encoding, e.g. a name's): empty when its header does not read.
    @inlinable
    init(contentOf span: ByteSpan) {
        storage = span.storage
        let h = ListCursor.header(span.storage, span.start, span.end)
        position = h?.contentStart ?? span.end
        end = h?.end ?? span.end
    }

    /// The next element's TLV, or nil at the end (or at a malformed element, which validated
    /// lists never have: the rest is then skipped).
    @inlinable @inline(__always)
    mutating func next() -> ElementTLV? {
        let tlv = ListCursor.header(storage, position, end)
        position = tlv?.end ?? end
        return tlv
    }

    /// The TLV header at `p`, within `p..<e` of `storage`: the list was validated by the strict
    /// reader when it was parsed, so only what memory safety needs is checked again here —
    /// every octet read lies before `e`, `e` within the storage, and the length within `e` —
    /// not DER's minimality rules. (The octets are read unchecked: each index is below `e`,
    /// which the first guard bounds by the buffer's count.)
    @inlinable @inline(__always)
    static func header(_ storage: [UInt8], _ p: Int, _ e: Int) -> ElementTLV? {
        storage.withUnsafeBufferPointer { b -> ElementTLV? in
            guard p >= 0, e <= b.count, e - p >= 2 else { return nil }
            let tag = b[p]
            var length = Int(b[p + 1])
            var c = p + 2
            if length >= 0x80 {
                let n = length & 0x7F
                guard n >= 1, n <= 4, e - c >= n else { return nil }
                length = 0
                for i in 0..<n { length = length << 8 | Int(b[c + i]) }
                c += n
            }
            guard length <= e - c else { return nil }
            return ElementTLV(tag: tag, start: p, contentStart: c, end: c + length)
        }
    }
}

extension ListCursor {
    /// The first TLV inside the constructed element `e` (bounds-checked as `header`).
    @inlinable @inline(__always)
    static func first(in e: ElementTLV, storage: [UInt8]) -> ElementTLV? {
        header(storage, e.contentStart, e.end)
    }

    /// The two TLVs that make up the constructed element `e`, which must hold exactly them
    /// (bounds-checked as `header`).
    @inlinable @inline(__always)
    static func pair(in e: ElementTLV, storage: [UInt8]) -> (ElementTLV, ElementTLV)? {
        guard let v = header(storage, e.contentStart, e.end), let w = header(storage, v.end, e.end), w.end == e.end
        else { return nil }
        return (v, w)
    }
}
