// A thin internal layer over GMP's low-level `mpn` functions (GMP manual §8 "Low-level
// Functions"): fixed-size little-endian limb vectors, caller-owned memory, no allocation.
// GMP types never leave this module; limbs are plain `UInt` (GMP's mp_limb_t on LP64).

import CGMP

/// Bits per limb. The `mpn` layer is only used on 64-bit limbs (x86-64, arm64 Linux/Darwin).
@usableFromInline let limbBits = 64

/// Loads the big-endian unsigned integer `bytes` into `count` little-endian limbs at `out`
/// (zero-filled above). Precondition: `bytes.count <= 8 * count`.
@inline(__always)
func limbsFromBigEndian(_ bytes: UnsafeRawBufferPointer, _ out: UnsafeMutablePointer<UInt>, _ count: Int) {
    var end = bytes.count
    var i = 0
    // Whole 8-byte limbs from the end (least significant first).
    while end >= 8 {
        out[i] = UInt(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)))
        end -= 8
        i += 1
    }
    if end > 0 {
        var v: UInt = 0
        for j in 0..<end { v = (v << 8) | UInt(bytes[j]) }
        out[i] = v
        i += 1
    }
    while i < count { out[i] = 0; i += 1 }
}

/// Writes the low `byteCount` bytes of the `count`-limb integer at `limbs` as big-endian bytes.
/// Returns false when the value does not fit (I2OSP "integer too large", RFC 8017 §4.1).
@inline(__always)
func limbsToBigEndian(_ limbs: UnsafePointer<UInt>, _ count: Int, _ out: UnsafeMutableRawPointer, _ byteCount: Int) -> Bool {
    // Any non-zero byte beyond byteCount means the integer is too large.
    if byteCount < count * 8 {
        for k in byteCount..<(count * 8) where (limbs[k / 8] >> UInt((k % 8) * 8)) & 0xFF != 0 {
            return false
        }
    }
    for k in 0..<byteCount {
        // Byte k from the least significant end goes to out[byteCount - 1 - k].
        let byte: UInt8 = k / 8 < count ? UInt8(truncatingIfNeeded: limbs[k / 8] >> UInt((k % 8) * 8)) : 0
        out.storeBytes(of: byte, toByteOffset: byteCount - 1 - k, as: UInt8.self)
    }
    return true
}

/// -1, 0, 1 as a < b, a == b, a > b for two `count`-limb integers.
@inline(__always)
func compareLimbs(_ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ count: Int) -> Int {
    var i = count - 1
    while i >= 0 {
        if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        i -= 1
    }
    return 0
}

/// An odd modulus prepared for Montgomery multiplication (Montgomery 1985; the REDC loop is
/// the word-by-word form of Koç, Acar & Kaliski 1996, "SOS" variant, with carries parked in
/// the limbs it zeroes, as GMP's own mpn_redc_1 does). R = 2^(64·count).
@usableFromInline
struct MontgomeryModulus: Sendable, Hashable {
    /// Modulus limbs, little-endian, top limb non-zero.
    let limbs: [UInt]
    /// -m^-1 mod 2^64.
    let negInverse: UInt
    /// R^2 mod m, to move values into Montgomery form with one multiplication.
    let rSquared: [UInt]

    var count: Int { limbs.count }

    /// `modulus`: big-endian bytes without leading zeros, odd. Returns nil when even or empty.
    init?(bigEndian modulus: UnsafeRawBufferPointer) {
        guard let last = modulus.last, last & 1 == 1, modulus.count > 0 else { return nil }
        let n = (modulus.count + 7) / 8
        let m = [UInt](unsafeUninitializedCapacity: n) { buf, count in
            limbsFromBigEndian(modulus, buf.baseAddress!, n)
            count = n
        }
        guard m[n - 1] != 0 else { return nil }
        limbs = m

        // Newton–Hensel iteration for m0^-1 mod 2^64: x ← x(2 − m0·x) doubles the number of
        // correct low bits; m0·m0 ≡ 1 (mod 8) gives 3 to start, so 5 steps reach 96 ≥ 64.
        let m0 = m[0]
        var inv = m0
        for _ in 0..<5 { inv = inv &* (2 &- m0 &* inv) }
        negInverse = 0 &- inv

        // R^2 mod m = 2^(128·n) mod m by one division (key set-up only, not per verification).
        // Numerator (2n + 1 limbs) and quotient (n + 2) live in one temporary buffer.
        rSquared = [UInt](unsafeUninitializedCapacity: n) { r, count in
            withUnsafeTemporaryAllocation(of: UInt.self, capacity: 3 * n + 3) { tmp in
                let num = tmp.baseAddress!
                let q = num + (2 * n + 1)
                num.initialize(repeating: 0, count: 2 * n)
                num[2 * n] = 1
                m.withUnsafeBufferPointer { mp in
                    __gmpn_tdiv_qr(q, r.baseAddress!, 0, num, 2 * n + 1, mp.baseAddress!, n)
                }
            }
            count = n
        }
    }

    /// Scratch limbs `modPow` needs.
    static func scratchCount(_ n: Int) -> Int { 5 * n + 2 }

    /// r = REDC(t) = t · R^-1 mod m, fully reduced. `t` (2n limbs) is destroyed; `r` must not
    /// overlap `t`. Precondition: t < m·R (true for products of reduced values).
    @inline(__always)
    func redc(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>, _ m: UnsafePointer<UInt>) {
        let n = count
        for i in 0..<n {
            let q = t[i] &* negInverse           // makes limb i of t + q·m·2^(64i) zero
            let carry = __gmpn_addmul_1(t + i, m, n, q)
            t[i] = carry                          // park the carry (it belongs at limb i + n)
        }
        let top = __gmpn_add_n(r, t + n, t, n)
        // Result < 2m: one conditional subtraction reduces it.
        if top != 0 || compareLimbs(r, m, n) >= 0 {
            _ = __gmpn_sub_n(r, r, m, n)
        }
    }

    /// r = a · b · R^-1 mod m (a == b uses the squaring routine). `t`: 2n limbs of scratch.
    @inline(__always)
    func mul(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>,
             _ t: UnsafeMutablePointer<UInt>, _ m: UnsafePointer<UInt>) {
        if a == b {
            __gmpn_sqr(t, a, count)
        } else {
            __gmpn_mul_n(t, a, b, count)
        }
        redc(r, t, m)
    }

    /// out = x^e mod m for an odd exponent e ≥ 3 (given as little-endian limbs, top limb
    /// non-zero) and x < m (n limbs). Left-to-right square-and-multiply in Montgomery form;
    /// public exponents only, so no constant-time concern. `scratch`: `scratchCount(n)` limbs.
    ///
    /// The last step multiplies by x in *ordinary* form, which both applies the exponent's
    /// low bit (always 1: e is odd) and leaves Montgomery form: Mont(x^(e-1)·R, x) = x^e.
    /// For e = 65537 that is 1 + 16 + 1 multiplications.
    func modPow(_ x: UnsafePointer<UInt>, exponent e: [UInt], _ out: UnsafeMutablePointer<UInt>,
                scratch: UnsafeMutablePointer<UInt>) {
        let n = count
        let t = scratch                 // 2n + 2
        let xm = scratch + (2 * n + 2)  // n: x·R mod m
        let acc = xm + n                // n
        limbs.withUnsafeBufferPointer { mb in
            rSquared.withUnsafeBufferPointer { r2 in
                let m = mb.baseAddress!
                mul(xm, x, r2.baseAddress!, t, m)            // x·R mod m
                acc.update(from: xm, count: n)
                let topLimb = e.count - 1
                let topBit = limbBits - 1 - e[topLimb].leadingZeroBitCount
                // Bits below the top one, down to bit 1; bit 0 is handled by the final step.
                var limb = topLimb
                var bit = topBit - 1
                while limb >= 0 {
                    while bit >= 0 {
                        if limb == 0 && bit == 0 { break }
                        mul(acc, acc, acc, t, m)
                        if (e[limb] >> UInt(bit)) & 1 == 1 { mul(acc, acc, xm, t, m) }
                        bit -= 1
                    }
                    if limb == 0 { break }
                    limb -= 1
                    bit = limbBits - 1
                }
                // Bit 0 (= 1): square, then multiply by ordinary x to leave Montgomery form.
                mul(acc, acc, acc, t, m)
                mul(out, acc, x, t, m)
            }
        }
    }
}
