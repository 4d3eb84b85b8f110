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
        let p0: UInt = 0xFFFF_FFFF_FFFF_FFFF, p1: UInt = 0x0000_0000_FFFF_FFFF
        let p2: UInt = 0, p3: UInt = 0xFFFF_FFFF_0000_0001
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 8) { buf in
            let pp = buf.baseAddress!, tmp = pp + 4
            pp[0] = p0; pp[1] = p1; pp[2] = p2; pp[3] = p3
            if carry > 0 {
                // 2^256 + W - p < p here (W is small after the fold), and the subtraction wraps.
                _ = limbsSub(r, r, pp, 4)
            } else if carry < 0 {
                _ = limbsAdd(r, r, pp, 4)
            }
            if limbsSub(tmp, r, pp, 4) == 0 { limbsCopy(r, tmp, 4) }
        }
    }
}
