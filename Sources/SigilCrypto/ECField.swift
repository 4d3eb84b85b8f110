import CGMP

// Prime-field arithmetic for the NIST curves P-256, P-384 and P-521.
//
// Representation: little-endian 64-bit limbs, a fixed count per curve (4, 6, 9), every value
// kept fully reduced in [0, p). Products go through GMP's `mpn_mul_n` / `mpn_sqr` into a
// 2n-limb scratch, then a curve-specific reduction (`ECReduction`): NIST fast reduction for
// P-256 and P-384 (FIPS 186-5 / SP 800-186 appendix, Solinas "Generalized Mersenne numbers"),
// the Mersenne fold for P-521 = 2^521 - 1.
//
// NOT constant time, on purpose: this module only *verifies* signatures, and every input of a
// verification (key, message digest, signature) is public. Branching on values is fine here;
// do not reuse this code for signing or key agreement.

/// A curve-specific reduction of a double-length product.
protocol ECReduction {
    /// Limbs of a field element.
    static var limbCount: Int { get }
    /// `r = t mod p` for `t < p^2` held in `2 * limbCount` limbs (`t` may be clobbered).
    static func reduce(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>)
}

// MARK: - Limb helpers (little-endian, fixed length)

/// `r = a + b` over `n` limbs; returns the carry (0 or 1). `r` may alias `a` or `b`.
@inline(__always)
func limbsAdd(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ n: Int) -> UInt {
    var carry: UInt = 0
    for i in 0..<n {
        let (s1, o1) = a[i].addingReportingOverflow(b[i])
        let (s2, o2) = s1.addingReportingOverflow(carry)
        r[i] = s2
        carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    }
    return carry
}

/// `r = a - b` over `n` limbs; returns the borrow (0 or 1). `r` may alias `a` or `b`.
@inline(__always)
func limbsSub(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ n: Int) -> UInt {
    var borrow: UInt = 0
    for i in 0..<n {
        let (d1, o1) = a[i].subtractingReportingOverflow(b[i])
        let (d2, o2) = d1.subtractingReportingOverflow(borrow)
        r[i] = d2
        borrow = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    }
    return borrow
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
    for i in 0..<n { r[i] = 0 }
    var j = 0
    var k = bytes.count - 1
    while k >= start {
        r[j >> 3] |= UInt(bytes[k]) << UInt((j & 7) * 8)
        j += 1
        k -= 1
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
struct ECFieldOps<R: ECReduction> {
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
        __gmpn_mul_n(t, a, b, Self.n)
        R.reduce(r, t)
    }

    /// r = a^2 mod p.
    @inline(__always)
    func sqr(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        __gmpn_sqr(t, a, Self.n)
        R.reduce(r, t)
    }

    /// r = a + b mod p (inputs reduced).
    @inline(__always)
    func add(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        let n = Self.n
        let carry = limbsAdd(r, a, b, n)
        // a + b < 2p: one subtraction of p suffices; keep it when there was a carry out of
        // the top limb or when no borrow occurred.
        let borrow = limbsSub(t, r, p, n)
        if carry != 0 || borrow == 0 { limbsCopy(r, t, n) }
    }

    /// r = a - b mod p (inputs reduced).
    @inline(__always)
    func sub(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>) {
        let n = Self.n
        if limbsSub(r, a, b, n) != 0 { _ = limbsAdd(r, r, p, n) }
    }

    /// r = -a mod p.
    @inline(__always)
    func neg(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        let n = Self.n
        if limbsIsZero(a, n) { limbsSet(r, 0, n); return }
        _ = limbsSub(r, p, a, n)
    }

    /// r = a^e mod p, `e` given as `eLimbs` limbs (left-to-right square and multiply; `r`
    /// must not alias `a`). Used for inversion (Fermat) and square roots, off the hot path.
    func pow(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ e: UnsafePointer<UInt>, _ eLimbs: Int) {
        limbsSet(r, 1, Self.n)
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
