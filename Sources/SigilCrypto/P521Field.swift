// P-521 field reduction: p = 2^521 - 1, a Mersenne prime.
//
// For t < p^2 < 2^1042: t = H * 2^521 + L with L < 2^521, and 2^521 = 1 (mod p), so
// t = H + L (mod p) with H + L < 2^522; one more fold of bit 521 and a check for the value p
// itself give the canonical result (FIPS 186-4 appendix D.2.5).

enum P521Reduction: ECReduction {
    @inline(__always) static var limbCount: Int { 9 }

    @inline(__always)
    static func reduce(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>) {
        // H = t >> 521 = limbs 8...17 shifted right by 9 (t[17] is 0 for reduced inputs, but
        // the scratch holds 18 limbs so reading it is safe).
        var carry: UInt128 = 0
        for i in 0..<9 {
            let h = (t[8 + i] >> 9) | (t[9 + i] << 55)
            let l = i == 8 ? t[8] & 0x1FF : t[i]
            let s = wide(l) &+ wide(h) &+ carry
            r[i] = low(s)
            carry = wide(high(s))
        }
        // r < 2^522: fold bit 521 back in. H + L <= 2^522 - 2, so when bit 521 is set the low
        // part is at most 2^521 - 2 and adding 1 stays below 2^521.
        var c = wide(r[8] >> 9)
        r[8] &= 0x1FF
        for i in 0..<9 {
            let s = wide(r[i]) &+ c
            r[i] = low(s)
            c = wide(high(s))
        }
        // The value p itself (all 521 bits set) is 0.
        if r[8] == 0x1FF {
            var all = true
            for j in 0..<8 where r[j] != UInt.max {
                all = false
                break
            }
            if all { for j in 0..<9 { r[j] = 0 } }
        }
    }
}

extension P521Reduction {
    @inline(__always) static func modulus(_ i: Int) -> UInt { i == 8 ? 0x1FF : UInt.max }
}
