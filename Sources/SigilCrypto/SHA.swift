// SHA-1 and the SHA-2 family (FIPS 180-4), one-shot and incremental, with no heap allocation:
// state, the partial block and the digest are fixed-size inline values.
//
// Layout: a generic Merkle–Damgård core (`MDCore`) does the buffering and padding (FIPS 180-4
// §5.1) once for every function; an "engine" per block size supplies the compression function
// (generated, unrolled portable Swift in SHAPortableRounds.swift, or SHA-NI for SHA-256).

import CSigilSHA
import Synchronization

// MARK: - Digest

/// A hash output: up to 64 bytes stored inline (no allocation), `count` of them meaningful.
public struct HashDigest: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// Number of meaningful bytes (20, 28, 32, 48 or 64).
    public let count: Int

    @inlinable init(count: Int) {
        storage = (0, 0, 0, 0, 0, 0, 0, 0)
        self.count = count
    }

    /// Calls `body` with the digest bytes (exactly `count` of them).
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var copy = storage
        return try Swift.withUnsafeBytes(of: &copy) { (raw) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    /// The digest as a new array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Lower-case hexadecimal.
    public var hex: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: raw.count * 2) { out in
                for (i, b) in raw.enumerated() {
                    out[2 * i] = digits[Int(b >> 4)]
                    out[2 * i + 1] = digits[Int(b & 15)]
                }
                return raw.count * 2
            }
        }
    }

    /// Lowercase hex.
    public var description: String { hex }

    /// Digests are equal when their length and bytes are.
    public static func == (l: HashDigest, r: HashDigest) -> Bool {
        // Bytes past `count` are always zero, so comparing the whole storage is exact.
        l.count == r.count && l.storage.0 == r.storage.0 && l.storage.1 == r.storage.1
            && l.storage.2 == r.storage.2 && l.storage.3 == r.storage.3 && l.storage.4 == r.storage.4
            && l.storage.5 == r.storage.5 && l.storage.6 == r.storage.6 && l.storage.7 == r.storage.7
    }

    /// Hashes the digest bytes.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

// MARK: - Public protocol

/// What every Sigil hash function offers.
public protocol SigilHashFunction: Sendable {
    /// The algorithm this type implements.
    static var algorithm: HashAlgorithm { get }
    /// A fresh state (the FIPS 180-4 initial hash value), nothing absorbed.
    init()
    /// Absorbs more input.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything absorbed so far; the value itself is unchanged, so hashing may
    /// continue (FIPS 180-4 padding is applied to a copy).
    func finalize() -> HashDigest
}

extension SigilHashFunction {
    /// Digest size in bytes.
    public static var digestCount: Int { algorithm.digestCount }

    /// One-shot hash of raw bytes.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest {
        var h = Self()
        h.update(bytes)
        return h.finalize()
    }

    /// One-shot hash of any byte sequence (contiguous storage is hashed in place).
    @inlinable
    public static func hash<S: Sequence>(_ bytes: S) -> HashDigest where S.Element == UInt8 {
        var h = Self()
        h.update(bytes)
        return h.finalize()
    }

    /// Absorbs any byte sequence; contiguous collections are hashed in place, other sequences
    /// through a small stack buffer.
    @inlinable
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buf in
            self.update(UnsafeRawBufferPointer(buf))
        }
        if done != nil { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { tmp in
            var n = 0
            for b in bytes {
                tmp[n] = b
                n += 1
                if n == 256 {
                    self.update(UnsafeRawBufferPointer(tmp))
                    n = 0
                }
            }
            if n > 0 { self.update(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: tmp[0..<n]))) }
        }
    }
}

// MARK: - Merkle–Damgård core

@usableFromInline
protocol MDEngine {
    associatedtype Word: FixedWidthInteger & UnsignedInteger & Sendable
    /// Block size in bytes (64 or 128).
    static var blockSize: Int { get }
    /// Processes `blocks` whole blocks at `data`.
    static func compress(_ state: UnsafeMutablePointer<Word>, _ data: UnsafeRawPointer, _ blocks: Int)
}

/// Buffering and padding shared by every function. `State` holds 8 words (SHA-1 uses 5),
/// `buffer` one block of the largest size (128 bytes).
@usableFromInline
struct MDCore<E: MDEngine>: Sendable {
    @usableFromInline var state: (E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word)
    @usableFromInline var buffer:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        )
    @usableFromInline var buffered: Int = 0
    /// Total bytes absorbed (wraps after 2^64 bytes; FIPS 180-4 limits SHA-1/SHA-256 input to
    /// 2^64 bits anyway, and SHA-512's 128-bit length field is fed from this 64-bit count).
    @usableFromInline var total: UInt64 = 0

    @usableFromInline
    init(_ iv: (E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word)) {
        state = iv
        buffer = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    @usableFromInline
    mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var p = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        let bs = E.blockSize
        total &+= UInt64(truncatingIfNeeded: remaining)
        withUnsafeMutableBytes(of: &state) { sraw in
            let s = sraw.baseAddress!.assumingMemoryBound(to: E.Word.self)
            withUnsafeMutableBytes(of: &buffer) { braw in
                let buf = braw.baseAddress!
                if buffered > 0 {
                    let take = min(bs - buffered, remaining)
                    (buf + buffered).copyMemory(from: p, byteCount: take)
                    buffered += take
                    p += take
                    remaining -= take
                    if buffered < bs { return }
                    E.compress(s, UnsafeRawPointer(buf), 1)
                    buffered = 0
                }
                let whole = remaining / bs
                if whole > 0 {
                    E.compress(s, p, whole)
                    p += whole * bs
                    remaining -= whole * bs
                }
                if remaining > 0 {
                    buf.copyMemory(from: p, byteCount: remaining)
                    buffered = remaining
                }
            }
        }
    }

    /// FIPS 180-4 §5.1.1 / §5.1.2: append 0x80, zeros, and the message length in bits as a
    /// 64-bit (SHA-1/224/256) or 128-bit (SHA-384/512) big-endian integer.
    /// Returns the final state; `self` is not modified.
    @usableFromInline
    func finalState() -> (E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word, E.Word) {
        var s = state
        var b = buffer
        let bs = E.blockSize
        let lengthField = bs / 8  // 8 bytes for 64-byte blocks, 16 for 128-byte blocks
        withUnsafeMutableBytes(of: &s) { sraw in
            let sp = sraw.baseAddress!.assumingMemoryBound(to: E.Word.self)
            withUnsafeMutableBytes(of: &b) { braw in
                let buf = braw.baseAddress!
                var n = buffered
                buf.storeBytes(of: 0x80, toByteOffset: n, as: UInt8.self)
                n += 1
                if n > bs - lengthField {
                    (buf + n).initializeMemory(as: UInt8.self, repeating: 0, count: bs - n)
                    E.compress(sp, UnsafeRawPointer(buf), 1)
                    n = 0
                }
                (buf + n).initializeMemory(as: UInt8.self, repeating: 0, count: bs - n)
                // Length in bits: total * 8, the high part only matters for the 128-bit field.
                let lowBits = total &<< 3
                let highBits = total &>> 61
                buf.storeBytes(of: lowBits.bigEndian, toByteOffset: bs - 8, as: UInt64.self)
                if lengthField == 16 {
                    buf.storeBytes(of: highBits.bigEndian, toByteOffset: bs - 16, as: UInt64.self)
                }
                E.compress(sp, UnsafeRawPointer(buf), 1)
            }
        }
        return s
    }

    /// Writes the first `count` bytes of the big-endian serialisation of `words` words.
    @usableFromInline
    func digest(count: Int) -> HashDigest {
        var s = finalState()
        var d = HashDigest(count: count)
        withUnsafeMutableBytes(of: &s) { sraw in
            let sp = sraw.baseAddress!.assumingMemoryBound(to: E.Word.self)
            withUnsafeMutableBytes(of: &d.storage) { draw in
                let wordSize = MemoryLayout<E.Word>.size
                let words = (count + wordSize - 1) / wordSize
                for i in 0..<words {
                    var w = sp[i].bigEndian
                    Swift.withUnsafeBytes(of: &w) { wb in
                        let take = min(wordSize, count - i * wordSize)
                        (draw.baseAddress! + i * wordSize).copyMemory(from: wb.baseAddress!, byteCount: take)
                    }
                }
            }
        }
        return d
    }
}

// MARK: - SHA-256 engine selection

/// The compression engines available for SHA-224/SHA-256.
public enum SHA256Implementation: UInt8, Sendable, CaseIterable {
    /// Portable Swift (FIPS 180-4 §6.2.2), every CPU.
    case portable = 0
    /// x86 SHA extensions (SHA-NI), when the CPU has them.
    case shaExtensions = 1
}

/// 0 = portable, 1 = SHA-NI. Chosen once from CPUID on first use; tests and benchmarks may force
/// the portable engine.
private let sha256EngineChoice = Atomic<UInt8>(csigil_sha256_ni_supported() != 0 ? 1 : 0)

@usableFromInline
enum SHA256Engine: MDEngine {
    @usableFromInline typealias Word = UInt32
    @usableFromInline static var blockSize: Int { 64 }

    @usableFromInline
    static func compress(_ state: UnsafeMutablePointer<UInt32>, _ data: UnsafeRawPointer, _ blocks: Int) {
        if sha256EngineChoice.load(ordering: .relaxed) == 1 {
            csigil_sha256_ni_blocks(state, data, blocks)
        } else {
            compressPortable(state, data, blocks)
        }
    }
}

@usableFromInline
enum SHA512Engine: MDEngine {
    @usableFromInline typealias Word = UInt64
    @usableFromInline static var blockSize: Int { 128 }
    @usableFromInline
    static func compress(_ state: UnsafeMutablePointer<UInt64>, _ data: UnsafeRawPointer, _ blocks: Int) {
        compressPortable(state, data, blocks)
    }
}

@usableFromInline
enum SHA1Engine: MDEngine {
    @usableFromInline typealias Word = UInt32
    @usableFromInline static var blockSize: Int { 64 }
    @usableFromInline
    static func compress(_ state: UnsafeMutablePointer<UInt32>, _ data: UnsafeRawPointer, _ blocks: Int) {
        compressPortable(state, data, blocks)
    }
}

// FIPS 180-4 §4.1 functions.
@inline(__always) func rotl32(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &<< n) | (x &>> (32 &- n)) }
@inline(__always) func rotr32(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }
@inline(__always) func rotr64(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &>> n) | (x &<< (64 &- n)) }
@inline(__always) func ch<T: FixedWidthInteger>(_ x: T, _ y: T, _ z: T) -> T { z ^ (x & (y ^ z)) }
@inline(__always) func maj<T: FixedWidthInteger>(_ x: T, _ y: T, _ z: T) -> T { (x & y) | (z & (x | y)) }
// Σ0, Σ1 in the textbook form: the three rotations are independent, so the latency on the
// round's dependency chain is one rotation and two XORs (the nested form saves register copies
// but serialises five operations).
@inline(__always) func bsig0_256(_ x: UInt32) -> UInt32 { rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22) }
@inline(__always) func bsig1_256(_ x: UInt32) -> UInt32 { rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25) }
@inline(__always) func ssig0_256(_ x: UInt32) -> UInt32 { rotr32(x, 7) ^ rotr32(x, 18) ^ (x &>> 3) }
@inline(__always) func ssig1_256(_ x: UInt32) -> UInt32 { rotr32(x, 17) ^ rotr32(x, 19) ^ (x &>> 10) }
@inline(__always) func bsig0_512(_ x: UInt64) -> UInt64 { rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39) }
@inline(__always) func bsig1_512(_ x: UInt64) -> UInt64 { rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41) }
@inline(__always) func ssig0_512(_ x: UInt64) -> UInt64 { rotr64(x, 1) ^ rotr64(x, 8) ^ (x &>> 7) }
@inline(__always) func ssig1_512(_ x: UInt64) -> UInt64 { rotr64(x, 19) ^ rotr64(x, 61) ^ (x &>> 6) }

// MARK: - The hash functions

/// SHA-256 (FIPS 180-4 §6.2).
public struct SHA256: SigilHashFunction {
    /// The digest type.
    public typealias Digest = HashDigest
    /// The algorithm this type computes.
    public static var algorithm: HashAlgorithm { .sha256 }
    @usableFromInline var core: MDCore<SHA256Engine>

    /// A fresh state: the initial hash value of FIPS 180-4 §5.3.3.
    public init() {
        core = MDCore(
            (
                0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
                0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
            ))
    }
    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }
    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest { core.digest(count: 32) }

    /// One-shot SHA-256 of raw bytes. With the SHA-NI engine this is one C call that compresses
    /// the whole blocks in place and pads on its stack (no buffering, the state never leaves it);
    /// otherwise the incremental path. Both give the FIPS 180-4 digest (`SHATests` runs the
    /// NIST vectors through each engine and this entry).
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest {
        if sha256EngineChoice.load(ordering: .relaxed) == 1 {
            var d = HashDigest(count: 32)
            withUnsafeMutableBytes(of: &d.storage) { out in
                csigil_sha256_ni_oneshot(
                    bytes.baseAddress, bytes.count, out.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            return d
        }
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// One-shot SHA-256 of a byte sequence: contiguous storage goes through `hash(_:)` above.
    public static func hash<S: Sequence>(_ bytes: S) -> HashDigest where S.Element == UInt8 {
        if let d = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return d }
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// The engine currently used for SHA-224/SHA-256 compression (process-wide).
    public static var implementation: SHA256Implementation {
        SHA256Implementation(rawValue: sha256EngineChoice.load(ordering: .relaxed)) ?? .portable
    }

    /// Whether this CPU offers the SHA extensions.
    public static var hardwareAccelerationAvailable: Bool { csigil_sha256_ni_supported() != 0 }

    /// Selects the engine (process-wide). Asking for `.shaExtensions` on a CPU without them
    /// keeps the portable engine; the return value is the engine now active.
    @discardableResult
    public static func setImplementation(_ wanted: SHA256Implementation) -> SHA256Implementation {
        let value: UInt8 = (wanted == .shaExtensions && hardwareAccelerationAvailable) ? 1 : 0
        sha256EngineChoice.store(value, ordering: .relaxed)
        return implementation
    }
}

/// SHA-224 (FIPS 180-4 §6.3): SHA-256 with another IV, truncated to 28 bytes.
public struct SHA224: SigilHashFunction {
    /// The digest type.
    public typealias Digest = HashDigest
    /// The algorithm this type computes.
    public static var algorithm: HashAlgorithm { .sha224 }
    @usableFromInline var core: MDCore<SHA256Engine>

    /// A fresh state: the initial hash value of FIPS 180-4 §5.3.2.
    public init() {
        core = MDCore(
            (
                0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939,
                0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4
            ))
    }
    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }
    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest { core.digest(count: 28) }
}

/// SHA-512 (FIPS 180-4 §6.4).
public struct SHA512: SigilHashFunction {
    /// The digest type.
    public typealias Digest = HashDigest
    /// The algorithm this type computes.
    public static var algorithm: HashAlgorithm { .sha512 }
    @usableFromInline var core: MDCore<SHA512Engine>

    /// A fresh state: the initial hash value of FIPS 180-4 §5.3.5.
    public init() {
        core = MDCore(
            (
                0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
                0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179
            ))
    }
    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }
    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest { core.digest(count: 64) }
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 with another IV, truncated to 48 bytes.
public struct SHA384: SigilHashFunction {
    /// The digest type.
    public typealias Digest = HashDigest
    /// The algorithm this type computes.
    public static var algorithm: HashAlgorithm { .sha384 }
    @usableFromInline var core: MDCore<SHA512Engine>

    /// A fresh state: the initial hash value of FIPS 180-4 §5.3.4.
    public init() {
        core = MDCore(
            (
                0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
                0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4
            ))
    }
    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }
    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest { core.digest(count: 48) }
}

/// SHA-1 (FIPS 180-4 §6.1). Only for recognising legacy signatures and for test vectors:
/// SHA-1 is not collision resistant.
public struct SHA1: SigilHashFunction {
    /// The digest type.
    public typealias Digest = HashDigest
    /// The algorithm this type computes.
    public static var algorithm: HashAlgorithm { .sha1 }
    @usableFromInline var core: MDCore<SHA1Engine>

    /// A fresh state: the initial hash value of FIPS 180-4 §5.3.1 (the last three words are
    /// unused padding of the 8-word state).
    public init() {
        core = MDCore((0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0, 0, 0, 0))
    }
    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }
    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest { core.digest(count: 20) }
}

// MARK: - Algorithm-selected hashing

/// An incremental hash whose algorithm is chosen at run time (no existential, no allocation).
public struct IncrementalHash: Sendable {
    @usableFromInline enum Box: Sendable {
        case sha1(SHA1)
        case sha224(SHA224)
        case sha256(SHA256)
        case sha384(SHA384)
        case sha512(SHA512)
    }
    @usableFromInline var box: Box
    /// The algorithm chosen.
    public let algorithm: HashAlgorithm

    /// A fresh state of `algorithm`.
    public init(_ algorithm: HashAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha1: box = .sha1(SHA1())
        case .sha224: box = .sha224(SHA224())
        case .sha256: box = .sha256(SHA256())
        case .sha384: box = .sha384(SHA384())
        case .sha512: box = .sha512(SHA512())
        }
    }

    /// Absorbs `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch box {
        case .sha1(var h):
            h.update(bytes)
            box = .sha1(h)
        case .sha224(var h):
            h.update(bytes)
            box = .sha224(h)
        case .sha256(var h):
            h.update(bytes)
            box = .sha256(h)
        case .sha384(var h):
            h.update(bytes)
            box = .sha384(h)
        case .sha512(var h):
            h.update(bytes)
            box = .sha512(h)
        }
    }

    /// The digest of everything absorbed (padding per FIPS 180-4 §5.1); the state is not changed.
    public func finalize() -> HashDigest {
        switch box {
        case .sha1(let h): return h.finalize()
        case .sha224(let h): return h.finalize()
        case .sha256(let h): return h.finalize()
        case .sha384(let h): return h.finalize()
        case .sha512(let h): return h.finalize()
        }
    }
}

extension HashAlgorithm {
    /// One-shot hash of `bytes` with this algorithm.
    public func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest {
        switch self {
        case .sha1: return SHA1.hash(bytes)
        case .sha224: return SHA224.hash(bytes)
        case .sha256: return SHA256.hash(bytes)
        case .sha384: return SHA384.hash(bytes)
        case .sha512: return SHA512.hash(bytes)
        }
    }

    /// One-shot hash of a byte sequence with this algorithm.
    public func hash<S: Sequence>(_ bytes: S) -> HashDigest where S.Element == UInt8 {
        if let d = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return d }
        var h = IncrementalHash(self)
        let done: Void? = bytes.withContiguousStorageIfAvailable { h.update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            let a = Array(bytes)
            a.withUnsafeBytes { h.update($0) }
        }
        return h.finalize()
    }
}
