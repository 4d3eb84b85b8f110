/// Where the text renderers (`DERTime.appendRFC3339`, `DERValue.appendDottedObjectIdentifier`,
/// `DistinguishedName.appendRFC4514`, …) append their bytes: a `[UInt8]`, or a ``ByteOutput``.
/// Each renderer is written once, generic over the sink, and specialised for both.
package protocol ByteSink {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends the bytes of `bytes`.
    mutating func append(bytes: UnsafeRawBufferPointer)
    /// Bytes appended so far.
    var count: Int { get }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    package mutating func append(bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }
}

/// A growable byte buffer addressed through a raw pointer: an append is a capacity check and
/// a store or `memcpy`, without the uniqueness check and the generic copy an `Array` append
/// pays (the bulk `inspect --json` writer appends tens of small pieces per certificate).
///
/// It does not own its memory: the owner (``JSONWriter``'s storage in `Sigil`) allocates it with
/// ``init(capacity:)`` and calls ``deallocate()`` once. Copies of a `ByteOutput` alias the same
/// memory; only the one mutated last is valid (the owner keeps exactly one).
@_spi(SigilInternal)
public struct ByteOutput: ByteSink {
    /// The first byte (capacity ≥ 16, so never dangling).
    public private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    public var count: Int
    /// Bytes allocated.
    public private(set) var capacity: Int

    /// An empty buffer with room for at least `capacity` bytes.
    public init(capacity: Int) {
        let c = max(capacity, 16)
        base = .allocate(capacity: c)
        count = 0
        self.capacity = c
    }

    /// Frees the memory; the buffer must not be used afterwards.
    public func deallocate() { base.deallocate() }

    /// The bytes written.
    @inlinable
    public var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Room for `n` more bytes: where they go (the caller writes them, then adds `n` to `count`).
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(capacity - count < n) { grow(n) }
        return base + count
    }

    /// Grows to at least `count + n` bytes (doubling), keeping what is written.
    @usableFromInline
    mutating func grow(_ n: Int) {
        let c = max(capacity * 2, count + n)
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        p.update(from: base, count: count)
        base.deallocate()
        base = p
        capacity = c
    }

    /// Makes room for `capacity` bytes in all.
    public mutating func reserveCapacity(_ capacity: Int) {
        if capacity > self.capacity { grow(capacity - count) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    @inlinable @inline(__always)
    public mutating func append(bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        if n == 0 { return }
        let d = UnsafeMutableRawPointer(reserve(n))
        let s = bytes.baseAddress!
        // Most pieces are short (a key, a name attribute, a few digits): two overlapping
        // loads and stores cover 4 to 16 bytes, four 17 to 32, without a call to memcpy.
        if n > 16 && n <= 32 {
            let a = s.loadUnaligned(as: UInt64.self)
            let b = s.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = s.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let e = s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            d.storeBytes(of: a, as: UInt64.self)
            d.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            d.storeBytes(of: c, toByteOffset: n - 16, as: UInt64.self)
            d.storeBytes(of: e, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 8 && n <= 16 {
            let x = s.loadUnaligned(as: UInt64.self)
            let y = s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            d.storeBytes(of: x, as: UInt64.self)
            d.storeBytes(of: y, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let x = s.loadUnaligned(as: UInt32.self)
            let y = s.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            d.storeBytes(of: x, as: UInt32.self)
            d.storeBytes(of: y, toByteOffset: n - 4, as: UInt32.self)
        } else if n < 4 {
            for i in 0..<n {
                d.storeBytes(of: s.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            }
        } else {
            d.copyMemory(from: s, byteCount: n)
        }
        count += n
    }

    /// Appends ASCII known at compile time.
    @inlinable @inline(__always)
    public mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Forgets the last `n` bytes.
    @inlinable
    public mutating func removeLast(_ n: Int = 1) {
        precondition(n >= 0 && n <= count)
        count -= n
    }

    /// The last byte, nil when empty.
    @inlinable
    public var last: UInt8? { count == 0 ? nil : base[count - 1] }
}
