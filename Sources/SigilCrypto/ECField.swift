import CGMP

// Prime-field arithmetic for the NIST curves P-256, P-384 and P-521.
//
// Representation: little-endian 64-bit limbs, a fixed count per curve (4, 6, 9), values kept
// fully reduced in [0, p) (P-384, P-521) or lazily below 2^256 (P-256, `lazyReduction`).
// Each curve has its own `ECFieldImpl`, chosen by measurement (instruction counts under
// callgrind and CPU time, see the notes in each file):
//   - P-256: Montgomery form, 4x4 products written in Swift and a REDC that exploits
//     -p^-1 = 1 (mod 2^64) and the shape of p (P256Field.swift).
//   - P-384: GMP's mpn_mul_n / mpn_sqr and the NIST fast reduction (FIPS 186-4 D.2.4).
//   - P-521: GMP's mpn_mul_n / mpn_sqr and the Mersenne fold for 2^521 - 1 (FIPS 186-4 D.2.5).
// Additions and subtractions are generic (ECFieldOps), branch-free (but for corrections that
// only lazily reduced inputs can need, with probability about 2^-32), with the modulus limbs
// as compile-time constants.
//
// NOT constant time, on purpose: this module only *verifies* signatures, and every input of a
// verification (key, message digest, signature) is public. Branching on values is fine here;
// do not reuse this code for signing or key agreement.

/// One curve's field arithmetic, on n-limb values in the implementation's representation.
/// `t` is a caller-owned scratch of `2 * limbCount + 2` limbs; `r` may alias `a` or `b`.
protocol ECFieldImpl {
    static var limbCount: Int { get }
    /// Limb i of p, as a constant (so that additions compile to immediate operands).
    static func modulus(_ i: Int) -> UInt
    static func mul(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>,
        _ t: UnsafeMutablePointer<UInt>)
    static func sqr(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>)
    /// Canonical integer in [0, p) to the internal representation.
    static func encode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>)
    /// Internal representation back to the canonical integer.
    static func decode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>)
    /// The field element 1, in the internal representation.
    static func setOne(_ r: UnsafeMutablePointer<UInt>)
    /// True when values are only kept below 2^(64 n), not below p ("lazy" reduction: every
    /// operation saves its final comparison with p). Zero tests and comparisons then go
    /// through `ECFieldOps.isZero` / `equal`, and `decode` returns canonical values.
    static var lazyReduction: Bool { get }
}

extension ECFieldImpl {
    @inline(__always) static var lazyReduction: Bool { false }
}

/// A field with a special reduction of a double-length product (used with GMP's products).
protocol ECReduction: ECFieldImpl {
    /// `r = t mod p` for `t < p^2` held in `2 * limbCount` limbs (`t` may be clobbered).
    static func reduce(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>)
}

extension ECReduction {
    @inline(__always)
    static func mul(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>,
        _ t: UnsafeMutablePointer<UInt>
    ) {
        __gmpn_mul_n(t, a, b, limbCount)
        reduce(r, t)
    }
    @inline(__always)
    static func sqr(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        __gmpn_sqr(t, a, limbCount)
        reduce(r, t)
    }
    @inline(__always)
    static func encode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        limbsCopy(r, a, limbCount)
    }
    @inline(__always)
    static func decode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        limbsCopy(r, a, limbCount)
    }
    @inline(__always)
    static func setOne(_ r: UnsafeMutablePointer<UInt>) { limbsSet(r, 1, limbCount) }
}

/// A field in Montgomery form (x R mod p, R = 2^(64 n)): the implementation supplies mul/sqr
/// (a b R^-1 mod p); encoding and decoding are multiplications by R^2 and by 1.
protocol ECMontgomeryField: ECFieldImpl {
    /// Limb i of R mod p (the element 1) and of R^2 mod p (for encoding).
    static func one(_ i: Int) -> UInt
    static func rSquared(_ i: Int) -> UInt
}

extension ECMontgomeryField {
    static func encode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        let r2 = t + limbCount + 2
        for i in 0..<limbCount { r2[i] = rSquared(i) }
        mul(r, a, r2, t)
    }

    static func decode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        let one = t + limbCount + 2
        limbsSet(one, 1, limbCount)
        mul(r, a, one, t)
    }

    @inline(__always)
    static func setOne(_ r: UnsafeMutablePointer<UInt>) {
        for i in 0..<limbCount { r[i] = one(i) }
    }
}

// MARK: - Limb helpers (little-endian, fixed length)

// Carry chains go through UInt128 so LLVM emits add/adc (sub/sbb) sequences without
// branches; with `n` a constant after specialisation the loops unroll completely.
//
// The conversions between UInt and UInt128 use the stdlib's underscored members: the
// documented generic initialisers (`UInt128(x)`, `UInt(truncatingIfNeeded:)`, `&>> 64`)
// compile to the same instructions in release builds, but in debug builds each goes through
// generic BinaryInteger code and made the test suite 4x slower.

@inline(__always) func wide(_ x: UInt) -> UInt128 { UInt128(_low: UInt64(_truncatingBits: x._lowWord), _high: 0) }
@inline(__always) func low(_ x: UInt128) -> UInt { UInt(_truncatingBits: x._low._lowWord) }
@inline(__always) func high(_ x: UInt128) -> UInt { UInt(_truncatingBits: x._high._lowWord) }

/// `r = a + b` over `n` limbs; returns the carry (0 or 1). `r` may alias `a` or `b`.
@inline(__always)
func limbsAdd(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ n: Int) -> UInt {
    var carry: UInt128 = 0
    for i in 0..<n {
        let s = wide(a[i]) &+ wide(b[i]) &+ carry
        r[i] = low(s)
        carry = wide(high(s))
    }
    return low(carry)
}

/// `r = a - b` over `n` limbs; returns the borrow (0 or 1). `r` may alias `a` or `b`.
@inline(__always)
func limbsSub(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ n: Int) -> UInt {
    var borrow: UInt128 = 0
    for i in 0..<n {
        let d = wide(a[i]) &- wide(b[i]) &- borrow
        r[i] = low(d)
        borrow = wide(high(d) & 1)
    }
    return low(borrow)
}

/// `r = mask ? a : r` per limb, without branches (`mask` is all ones or zero).
@inline(__always)
func limbsSelect(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, mask: UInt, _ n: Int) {
    for i in 0..<n { r[i] = (a[i] & mask) | (r[i] & ~mask) }
}

/// Compares `a` and `b` as `n`-limb numbers: -1, 0 or 1.
@inline(__always)
func limbsCompare(_ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ n: Int) -> Int {
    var i = n - 1
    while i >= 0 {
        if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        i -= 1
    }
    return 0
}

@inline(__always)
func limbsIsZero(_ a: UnsafePointer<UInt>, _ n: Int) -> Bool {
    var acc: UInt = 0
    for i in 0..<n { acc |= a[i] }
    return acc == 0
}

@inline(__always)
func limbsCopy(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ n: Int) {
    for i in 0..<n { r[i] = a[i] }
}

@inline(__always)
func limbsSet(_ r: UnsafeMutablePointer<UInt>, _ v: UInt, _ n: Int) {
    r[0] = v
    for i in 1..<n { r[i] = 0 }
}

/// Big-endian unsigned bytes to `n` limbs. Returns false (and leaves `r` unspecified) if the
/// value does not fit in `n` limbs; leading zero bytes are allowed.
func limbsFromBigEndian(_ r: UnsafeMutablePointer<UInt>, _ n: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var start = 0
    while start < bytes.count && bytes[start] == 0 { start += 1 }
    let significant = bytes.count - start
    if significant > 8 * n { return false }
    // Whole 8-byte limbs from the end (least significant first), then the 1-7 leading bytes:
    // ceil(significant / 8) <= n limbs, the rest zero. (Byte by byte before 2026-12: ~0.4 % of
    // a P-256 certificate signature verification, five 32-byte integers per call.)
    var end = bytes.count
    var i = 0
    while end - start >= 8 {
        r[i] = UInt(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)))
        end -= 8
        i += 1
    }
    if end > start {
        var v: UInt = 0
        for k in start..<end { v = (v << 8) | UInt(bytes[k]) }
        r[i] = v
        i += 1
    }
    while i < n {
        r[i] = 0
        i += 1
    }
    return true
}

/// `n` limbs to exactly `count` big-endian bytes (the value must fit).
func limbsToBigEndian(_ a: UnsafePointer<UInt>, _ n: Int, _ out: UnsafeMutableRawBufferPointer) {
    let count = out.count
    for k in 0..<count {
        let j = count - 1 - k  // byte index from the least significant end
        let limb = j >> 3
        out[k] = limb < n ? UInt8(truncatingIfNeeded: a[limb] >> UInt((j & 7) * 8)) : 0
    }
}

// MARK: - Field operations

/// Field arithmetic mod `p` with a curve-specific reduction. Holds pointers only: the modulus
/// (a constant of the curve) and a `2n + 2`-limb product scratch owned by the caller.
struct ECFieldOps<R: ECFieldImpl> {
    let p: UnsafePointer<UInt>
    let t: UnsafeMutablePointer<UInt>

    @inline(__always) static var n: Int { R.limbCount }

    @inline(__always)
    init(p: UnsafePointer<UInt>, scratch: UnsafeMutablePointer<UInt>) {
        self.p = p
        self.t = scratch
    }

    /// r = a * b mod p. `r` may alias `a` or `b` (the product goes to the scratch first).
    @inline(__always)
    func mul(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        R.mul(r, a, b, t)
    }

    /// r = a^2 mod p.
    @inline(__always)
    func sqr(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        R.sqr(r, a, t)
    }

    /// r = a + b mod p (inputs reduced). Branch-free: the data-dependent branches of the
    /// obvious version mispredict about half the time and cost more than the arithmetic.
    /// Inputs are read into locals before `r` is written (aliasing allowed, and LLVM keeps
    /// the limbs in registers); the modulus limbs are constants.
    @inline(__always)
    func add(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        if R.lazyReduction {
            addLazy(r, a, b)
            return
        }
        let n = Self.n
        var sum: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        var dif: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &sum) { sRaw in
            withUnsafeMutableBytes(of: &dif) { dRaw in
                let x = sRaw.baseAddress!.assumingMemoryBound(to: UInt.self)
                let y = dRaw.baseAddress!.assumingMemoryBound(to: UInt.self)
                var carry: UInt128 = 0
                for i in 0..<n {
                    let s = wide(a[i]) &+ wide(b[i]) &+ carry
                    x[i] = low(s)
                    carry = wide(high(s))
                }
                // a + b < 2p: subtract p once, as the addition of 2^(64 n) - p (an add/adc
                // chain compiles better than a borrow chain). That addition carries out
                // exactly when a + b >= p; keep it then, or when a + b itself carried out.
                var c2: UInt128 = 0
                for i in 0..<n {
                    let negP = i == 0 ? 0 &- R.modulus(0) : ~R.modulus(i)  // p is odd: limb 0 != 0
                    let d = wide(x[i]) &+ wide(negP) &+ c2
                    y[i] = low(d)
                    c2 = wide(high(d))
                }
                let mask = 0 &- (low(carry) | low(c2))
                for i in 0..<n { r[i] = (y[i] & mask) | (x[i] & ~mask) }
            }
        }
    }

    /// Lazy a + b for inputs below 2^(64 n) (requires p > 2^(64 n - 1)): when the sum carries
    /// out, subtract p by adding 2^(64 n) - p; if that carries out again (sum >= 2^(64 n) + p,
    /// which needs both inputs near 2^(64 n): rare), subtract p once more. The result is below
    /// 2^(64 n) and congruent to a + b.
    @inline(__always)
    func addLazy(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        let n = Self.n
        var sum: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &sum) { sRaw in
            let x = sRaw.baseAddress!.assumingMemoryBound(to: UInt.self)
            var carry: UInt128 = 0
            for i in 0..<n {
                let s = wide(a[i]) &+ wide(b[i]) &+ carry
                x[i] = low(s)
                carry = wide(high(s))
            }
            let mask = 0 &- low(carry)
            var c2: UInt128 = 0
            for i in 0..<n {
                let negP = i == 0 ? 0 &- R.modulus(0) : ~R.modulus(i)
                let d = wide(x[i]) &+ wide(negP & mask) &+ c2
                x[i] = low(d)
                c2 = wide(high(d))
            }
            if c2 != 0 {
                var c3: UInt128 = 0
                for i in 0..<n {
                    let negP = i == 0 ? 0 &- R.modulus(0) : ~R.modulus(i)
                    let d = wide(x[i]) &+ wide(negP) &+ c3
                    x[i] = low(d)
                    c3 = wide(high(d))
                }
            }
            for i in 0..<n { r[i] = x[i] }
        }
    }

    /// r = a - b mod p: add p back when the subtraction borrowed. Lazy inputs (below 2^(64 n))
    /// can leave a - b + p still negative (b >= p + a: rare); then p is added once more.
    @inline(__always)
    func sub(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        let n = Self.n
        var dif: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &dif) { dRaw in
            let x = dRaw.baseAddress!.assumingMemoryBound(to: UInt.self)
            var borrow: UInt128 = 0
            for i in 0..<n {
                let d = wide(a[i]) &- wide(b[i]) &- borrow
                x[i] = low(d)
                borrow = wide(high(d) & 1)
            }
            let mask = 0 &- low(borrow)
            var carry: UInt128 = 0
            for i in 0..<n {
                let s = wide(x[i]) &+ wide(R.modulus(i) & mask) &+ carry
                x[i] = low(s)
                carry = wide(high(s))
            }
            if R.lazyReduction && borrow != 0 && carry == 0 {
                carry = 0
                for i in 0..<n {
                    let s = wide(x[i]) &+ wide(R.modulus(i)) &+ carry
                    x[i] = low(s)
                    carry = wide(high(s))
                }
            }
            for i in 0..<n { r[i] = x[i] }
        }
    }

    @inline(__always) func encode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) { R.encode(r, a, t) }
    @inline(__always) func decode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        R.decode(r, a, t)
        canonicalize(r)
    }
    @inline(__always) func setOne(_ r: UnsafeMutablePointer<UInt>) { R.setOne(r) }

    /// r = -a mod p.
    @inline(__always)
    func neg(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        let n = Self.n
        if R.lazyReduction {
            // 0 - a through `sub`, which handles a >= p.
            withUnsafeTemporaryAllocation(of: UInt.self, capacity: n) { z in
                limbsSet(z.baseAddress!, 0, n)
                sub(r, z.baseAddress!, a)
            }
            return
        }
        if limbsIsZero(a, n) {
            limbsSet(r, 0, n)
            return
        }
        _ = limbsSub(r, p, a, n)
    }

    /// a = 0 (mod p). With lazy reduction zero has two representations, 0 and p.
    @inline(__always)
    func isZero(_ a: UnsafePointer<UInt>) -> Bool {
        let n = Self.n
        if limbsIsZero(a, n) { return true }
        return R.lazyReduction && limbsCompare(a, p, n) == 0
    }

    /// Brings a lazily reduced value into [0, p) (one subtraction: it is below 2^(64 n) < 2p).
    @inline(__always)
    func canonicalize(_ a: UnsafeMutablePointer<UInt>) {
        guard R.lazyReduction else { return }
        if limbsCompare(a, p, Self.n) >= 0 { _ = limbsSub(a, a, p, Self.n) }
    }

    /// a = b (mod p). `scratch` holds 2n limbs.
    func equal(_ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, scratch: UnsafeMutablePointer<UInt>) -> Bool {
        let n = Self.n
        limbsCopy(scratch, a, n)
        limbsCopy(scratch + n, b, n)
        canonicalize(scratch)
        canonicalize(scratch + n)
        return limbsCompare(scratch, scratch + n, n) == 0
    }

    /// r = a^e mod p, `e` given as `eLimbs` limbs (left-to-right square and multiply; `r`
    /// must not alias `a`). Used for inversion (Fermat) and square roots, off the hot path.
    func pow(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ e: UnsafePointer<UInt>, _ eLimbs: Int) {
        R.setOne(r)
        var i = eLimbs * 64 - 1
        while i >= 0 {
            sqr(r, r)
            if (e[i >> 6] >> UInt(i & 63)) & 1 != 0 { mul(r, r, a) }
            i -= 1
        }
    }

    /// r = a^(p-2) = a^-1 mod p (Fermat; a != 0). `r` must not alias `a`; `tmp` holds n limbs.
    func inv(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ tmp: UnsafeMutablePointer<UInt>) {
        let n = Self.n
        limbsCopy(tmp, p, n)
        // p is odd and > 2, so p - 2 never borrows past limb 0.
        tmp[0] -= 2
        pow(r, a, tmp, n)
    }
}
