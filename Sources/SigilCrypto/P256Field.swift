import CGMP

// P-256 field reduction: p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
//
// NIST fast reduction (FIPS 186-4 appendix D.2.3 / SP 800-186; Solinas 1999; Hankerson,
// Menezes, Vanstone "Guide to ECC" algorithm 2.29). Writing the 512-bit product as 32-bit
// words c15..c0, t mod p = s1 + 2 s2 + 2 s3 + s4 + s5 - s6 - s7 - s8 - s9 where (most
// significant word first)
//   s1 = (c7, c6, c5, c4, c3, c2, c1, c0)
//   s2 = (c15, c14, c13, c12, c11, 0, 0, 0)
//   s3 = (0, c15, c14, c13, c12, 0, 0, 0)
//   s4 = (c15, c14, 0, 0, 0, c10, c9, c8)
//   s5 = (c8, c13, c15, c14, c13, c11, c10, c9)
//   s6 = (c10, c8, 0, 0, 0, c13, c12, c11)
//   s7 = (c11, c9, 0, 0, c15, c14, c13, c12)
//   s8 = (c12, 0, c10, c9, c8, c15, c14, c13)
//   s9 = (c13, 0, c11, c10, c9, 0, c15, c14)
// The sum is formed column by column in signed 64-bit accumulators (each column is a small
// signed combination of 32-bit words, so nothing overflows), then the small signed carry out
// of bit 256 is folded back with 2^256 = 2^224 - 2^192 - 2^96 + 1 (mod p).

enum P256Reduction: ECReduction {
    @inline(__always) static var limbCount: Int { 4 }

    @inline(__always)
    static func reduce(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        @inline(__always) func lo(_ i: Int) -> Int64 { Int64(t[i] & 0xFFFF_FFFF) }
        @inline(__always) func hi(_ i: Int) -> Int64 { Int64(t[i] >> 32) }
        let c0 = lo(0), c1 = hi(0), c2 = lo(1), c3 = hi(1), c4 = lo(2), c5 = hi(2), c6 = lo(3), c7 = hi(3)
        let c8 = lo(4), c9 = hi(4), c10 = lo(5), c11 = hi(5), c12 = lo(6), c13 = hi(6), c14 = lo(7), c15 = hi(7)

        var col0 = c0 + c8 + c9 - c11 - c12 - c13 - c14
        var col1 = c1 + c9 + c10 - c12 - c13 - c14 - c15
        var col2 = c2 + c10 + c11 - c13 - c14 - c15
        var col3 = c3 + 2 * (c11 + c12) + c13 - c15 - c8 - c9
        var col4 = c4 + 2 * (c12 + c13) + c14 - c9 - c10
        var col5 = c5 + 2 * (c13 + c14) + c15 - c10 - c11
        var col6 = c6 + 3 * c14 + 2 * c15 + c13 - c8 - c9
        var col7 = c7 + 3 * c15 + c8 - c10 - c11 - c12 - c13

        // Carry propagation with arithmetic shifts; the final carry is a small signed integer.
        @inline(__always) func propagate() -> Int64 {
            col1 += col0 >> 32; col0 &= 0xFFFF_FFFF
            col2 += col1 >> 32; col1 &= 0xFFFF_FFFF
            col3 += col2 >> 32; col2 &= 0xFFFF_FFFF
            col4 += col3 >> 32; col3 &= 0xFFFF_FFFF
            col5 += col4 >> 32; col4 &= 0xFFFF_FFFF
            col6 += col5 >> 32; col5 &= 0xFFFF_FFFF
            col7 += col6 >> 32; col6 &= 0xFFFF_FFFF
            let c = col7 >> 32; col7 &= 0xFFFF_FFFF
            return c
        }
        var carry = propagate()
        // Fold carry * 2^256 = carry * (2^224 - 2^192 - 2^96 + 1).
        col0 += carry; col3 -= carry; col6 -= carry; col7 += carry
        carry = propagate()  // now in {-1, 0, 1}
        r[0] = UInt(col0) | (UInt(col1) << 32)
        r[1] = UInt(col2) | (UInt(col3) << 32)
        r[2] = UInt(col4) | (UInt(col5) << 32)
        r[3] = UInt(col6) | (UInt(col7) << 32)
        finish(r, carry: carry)
    }

    /// Brings W + carry * 2^256 (carry in {-1, 0, 1}, W < 2^256) into [0, p).
    @inline(__always)
    static func finish(_ r: UnsafeMutablePointer<UInt>, carry: Int64) {
        let p: (UInt, UInt, UInt, UInt) = (0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001)
        // carry = +1: 2^256 + W - p < p (W is small after the fold); the subtraction wraps.
        // carry = -1: W - 2^256 + p, the addition wraps. Both as W + m (mod 2^256), m = -p or p.
        let neg: UInt = carry > 0 ? UInt.max : 0, pos: UInt = carry < 0 ? UInt.max : 0
        // -p mod 2^256 = 2^224 - 2^192 - 2^96 + 1 = (1, 0xFFFFFFFF00000000, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFE)
        let m0 = (p.0 & pos) | (1 & neg)
        let m1 = (p.1 & pos) | (0xFFFF_FFFF_0000_0000 & neg)
        let m2 = (p.2 & pos) | (0xFFFF_FFFF_FFFF_FFFF & neg)
        let m3 = (p.3 & pos) | (0x0000_0000_FFFF_FFFE & neg)
        var s = UInt128(r[0]) &+ UInt128(m0); r[0] = UInt(truncatingIfNeeded: s)
        s = UInt128(r[1]) &+ UInt128(m1) &+ (s &>> 64); r[1] = UInt(truncatingIfNeeded: s)
        s = UInt128(r[2]) &+ UInt128(m2) &+ (s &>> 64); r[2] = UInt(truncatingIfNeeded: s)
        r[3] = r[3] &+ m3 &+ UInt(truncatingIfNeeded: s &>> 64)
        // Now r < 2^256 < 2p: one conditional subtraction of p.
        var d = UInt128(r[0]) &- UInt128(p.0); let d0 = UInt(truncatingIfNeeded: d)
        d = UInt128(r[1]) &- UInt128(p.1) &- ((d &>> 64) & 1); let d1 = UInt(truncatingIfNeeded: d)
        d = UInt128(r[2]) &- UInt128(p.2) &- ((d &>> 64) & 1); let d2 = UInt(truncatingIfNeeded: d)
        d = UInt128(r[3]) &- UInt128(p.3) &- ((d &>> 64) & 1); let d3 = UInt(truncatingIfNeeded: d)
        let keep = UInt(truncatingIfNeeded: (d &>> 64) & 1) &- 1  // all ones when no borrow
        r[0] = (d0 & keep) | (r[0] & ~keep)
        r[1] = (d1 & keep) | (r[1] & ~keep)
        r[2] = (d2 & keep) | (r[2] & ~keep)
        r[3] = (d3 & keep) | (r[3] & ~keep)
    }
}

/// P-256 in Montgomery form, R = 2^256. -p^-1 = 1 (mod 2^64), and limb 2 of p is zero, so each
/// CIOS reduction step costs two 64x64 multiplications (by limbs 1 and 3); the one by limb 0
/// (2^64 - 1) folds to a subtraction.
enum P256Montgomery: ECMontgomeryField {
    @inline(__always) static var limbCount: Int { 4 }
    @inline(__always) static var n0: UInt { 1 }
    @inline(__always) static func modulus(_ i: Int) -> UInt {
        switch i {
        case 0: return 0xFFFF_FFFF_FFFF_FFFF
        case 1: return 0x0000_0000_FFFF_FFFF
        case 2: return 0
        default: return 0xFFFF_FFFF_0000_0001
        }
    }
    @inline(__always) static func one(_ i: Int) -> UInt {
        switch i {
        case 0: return 0x0000_0000_0000_0001
        case 1: return 0xFFFF_FFFF_0000_0000
        case 2: return 0xFFFF_FFFF_FFFF_FFFF
        default: return 0x0000_0000_FFFF_FFFE
        }
    }
    @inline(__always) static func rSquared(_ i: Int) -> UInt {
        switch i {
        case 0: return 0x0000_0000_0000_0003
        case 1: return 0xFFFF_FFFB_FFFF_FFFF
        case 2: return 0xFFFF_FFFF_FFFF_FFFE
        default: return 0x0000_0004_FFFF_FFFD
        }
    }
}

/// P-256 in Montgomery form with GMP products and a dedicated REDC: since -p^-1 = 1 mod 2^64,
/// the multiplier of each step is the low limb m itself, and
/// m p = m 2^256 - m 2^224 + m 2^192 + m 2^96 - m, so adding m p (which clears the low limb)
/// is: limb+1 gets m * 2^32 (the -m and the carry m of the low limb cancel), limb+2 gets
/// m >> 32, limb+3 and limb+4 get m * (2^64 - 2^32 + 1). (Same idea as OpenSSL's nistz256.)
enum P256MontgomeryGMP: ECFieldImpl {
    @inline(__always) static var limbCount: Int { 4 }

    @inline(__always)
    static func redc(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafePointer<UInt>) {
        var u0 = t[0], u1 = t[1], u2 = t[2], u3 = t[3], u4 = t[4], u5 = t[5], u6 = t[6], u7 = t[7]
        // Each round adds m p 2^(64 i) for m = limb i (which clears limb i), touching limbs
        // i+1...i+4 (x1...x4); `carry` comes in at x4 (left there by the previous round,
        // whose x4 was one limb lower) and goes out of x4.
        // m (2^64 - 2^32 + 1) = hi3:lo3 with shifts: lo3 = m - (m << 32) mod 2^64 and
        // hi3 = m - (m >> 32) - borrow.
        // Straight carry chains (each line: limb += addend + carry-in, carry-out to the next).
        @inline(__always) func adc(_ x: inout UInt, _ y: UInt, _ c: inout UInt) {
            let s = UInt128(x) &+ UInt128(y) &+ UInt128(c)
            x = UInt(truncatingIfNeeded: s)
            c = UInt(truncatingIfNeeded: s &>> 64)
        }
        @inline(__always) func round(_ m: UInt, _ x1: inout UInt, _ x2: inout UInt, _ x3: inout UInt, _ x4: inout UInt, _ carry: inout UInt) {
            let (lo3, b) = m.subtractingReportingOverflow(m << 32)
            let hi3 = m &- (m >> 32) &- (b ? 1 : 0)
            var c: UInt = 0
            adc(&x1, m << 32, &c)
            adc(&x2, m >> 32, &c)
            adc(&x3, lo3, &c)
            adc(&x4, hi3, &c)
            // previous step's carry enters at x4 too (x4 of this step is x5 of the last one)
            var c2: UInt = 0
            adc(&x4, carry, &c2)
            carry = c &+ c2
        }
        var carry: UInt = 0
        round(u0, &u1, &u2, &u3, &u4, &carry)
        round(u1, &u2, &u3, &u4, &u5, &carry)
        round(u2, &u3, &u4, &u5, &u6, &carry)
        round(u3, &u4, &u5, &u6, &u7, &carry)
        r[0] = u4; r[1] = u5; r[2] = u6; r[3] = u7
        finishMont(r, carry)
    }

    /// r (+ carry * 2^256) < 2p to [0, p): r - p = r + (2^256 - p) mod 2^256, and that
    /// addition carries out exactly when r >= p (an add/adc chain, which compiles better than
    /// a borrow chain).
    @inline(__always)
    static func finishMont(_ r: UnsafeMutablePointer<UInt>, _ carry: UInt) {
        let r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3]
        var c: UInt = 0
        @inline(__always) func adc(_ x: UInt, _ y: UInt) -> UInt {
            let s = UInt128(x) &+ UInt128(y) &+ UInt128(c)
            c = UInt(truncatingIfNeeded: s &>> 64)
            return UInt(truncatingIfNeeded: s)
        }
        let d0 = adc(r0, 1)
        let d1 = adc(r1, 0xFFFF_FFFF_0000_0000)
        let d2 = adc(r2, 0xFFFF_FFFF_FFFF_FFFF)
        let d3 = adc(r3, 0x0000_0000_FFFF_FFFE)
        let keep = 0 &- (c | carry)  // all ones: take r - p
        r[0] = (d0 & keep) | (r0 & ~keep)
        r[1] = (d1 & keep) | (r1 & ~keep)
        r[2] = (d2 & keep) | (r2 & ~keep)
        r[3] = (d3 & keep) | (r3 & ~keep)
    }

    @inline(__always)
    static func mul(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        __gmpn_mul_n(t, a, b, 4)
        redc(r, t)
    }
    @inline(__always)
    static func sqr(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        __gmpn_sqr(t, a, 4)
        redc(r, t)
    }
    static func encode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        P256Montgomery.encode(r, a, t)
    }
    static func decode(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        P256Montgomery.decode(r, a, t)
    }
    @inline(__always) static func setOne(_ r: UnsafeMutablePointer<UInt>) { P256Montgomery.setOne(r) }
}

extension P256MontgomeryGMP {
    @inline(__always) static func modulus(_ i: Int) -> UInt { P256Montgomery.modulus(i) }
}
extension P256Reduction {
    @inline(__always) static func modulus(_ i: Int) -> UInt { P256Montgomery.modulus(i) }
}
