// Point arithmetic on y^2 = x^3 - 3x + b over GF(p), in Jacobian coordinates
// (X, Y, Z) ~ (X/Z^2, Y/Z^3); Z = 0 is the point at infinity.
//
// Formulas from the Explicit-Formulas Database (Bernstein, Lange):
//   doubling      dbl-2001-b  (a = -3)  4M + 4S here (Z3 = 2YZ)
//   addition      add-2007-bl           11M + 5S (9M + 4S with Z2^2, Z2^3 cached)
//   mixed add     madd-2007-bl (Z2 = 1)  7M + 4S
// The exceptional cases those formulas do not cover (an input at infinity, P + P, P + (-P))
// are detected and handled explicitly: a verifier sees attacker-chosen keys and signatures,
// so u1*G and u2*Q may well collide on purpose.
//
// Not constant time (public inputs only; see ECField.swift).

struct ECArith<R: ECFieldImpl> {
    let f: ECFieldOps<R>
    /// 9 field elements of temporaries (T0...T7 and a negated-y slot).
    let tmp: UnsafeMutablePointer<UInt>

    @inline(__always) static var n: Int { R.limbCount }

    /// Scratch limbs needed by `init(p:scratch:)`: the field's product buffer and temporaries.
    static var scratchLimbs: Int { (2 * n + 2) + 9 * n }

    init(p: UnsafePointer<UInt>, scratch: UnsafeMutablePointer<UInt>) {
        f = ECFieldOps<R>(p: p, scratch: scratch)
        tmp = scratch + (2 * Self.n + 2)
    }

    @inline(__always) func T(_ i: Int) -> UnsafeMutablePointer<UInt> { tmp + i * Self.n }
    /// Slot for a negated y-coordinate (used by callers, never by the formulas below).
    @inline(__always) var negY: UnsafeMutablePointer<UInt> { tmp + 8 * Self.n }

    @inline(__always) func isInfinity(_ a: UnsafePointer<UInt>) -> Bool { f.isZero(a + 2 * Self.n) }

    /// r = 2a (Jacobian; `r` may alias `a`). Doubling infinity gives Z = 0 again.
    @inline(__always)
    func dbl(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        let n = Self.n
        let X = a
        let Y = a + n
        let Z = a + 2 * n
        let delta = T(0)
        let gamma = T(1)
        let beta = T(2)
        let alpha = T(3)
        let t4 = T(4)
        let t5 = T(5)
        f.sqr(delta, Z)  // delta = Z^2
        f.sqr(gamma, Y)  // gamma = Y^2
        f.mul(beta, X, gamma)  // beta = X * gamma
        f.sub(alpha, X, delta)
        f.add(t4, X, delta)
        f.mul(alpha, alpha, t4)  // (X - delta)(X + delta)
        f.add(t4, alpha, alpha)
        f.add(alpha, t4, alpha)  // alpha = 3 (X - delta)(X + delta)
        f.mul(t4, Y, Z)
        f.add(r + 2 * n, t4, t4)  // Z3 = 2 Y Z (the EFD's (Y + Z)^2 - gamma - delta
        // trades this M for an S and 2 more additions)
        f.sqr(t4, alpha)
        f.add(t5, beta, beta)
        f.add(t5, t5, t5)  // 4 beta
        f.sub(t4, t4, t5)
        f.sub(r, t4, t5)  // X3 = alpha^2 - 8 beta
        f.sub(t5, t5, r)
        f.mul(t5, t5, alpha)  // alpha (4 beta - X3)
        f.sqr(gamma, gamma)
        f.add(gamma, gamma, gamma)
        f.add(gamma, gamma, gamma)
        f.add(gamma, gamma, gamma)  // 8 gamma^2
        f.sub(r + n, t5, gamma)  // Y3
    }

    /// r = a + (bx, by, bz) (Jacobian). `r` may alias `a`, not `b`. `bzPowers`, when given,
    /// holds bz^2 and bz^3 (cached with a table entry: saves 1M + 1S per addition).
    @inline(__always)
    func add(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
        _ bx: UnsafePointer<UInt>, _ by: UnsafePointer<UInt>, _ bz: UnsafePointer<UInt>,
        bzPowers: (UnsafePointer<UInt>, UnsafePointer<UInt>)? = nil
    ) {
        let n = Self.n
        if isInfinity(a) {
            limbsCopy(r, bx, n)
            limbsCopy(r + n, by, n)
            limbsCopy(r + 2 * n, bz, n)
            return
        }
        if f.isZero(bz) {
            if r != UnsafeMutablePointer(mutating: a) { limbsCopy(r, a, 3 * n) }
            return
        }
        let X1 = a
        let Y1 = a + n
        let Z1 = a + 2 * n
        let z1z1 = T(0)
        let u1 = T(2)
        let h = T(3)
        let s1 = T(4)
        let rr = T(5)
        let i = T(6)
        let j = T(7)
        let z2z2: UnsafePointer<UInt>
        f.sqr(z1z1, Z1)
        if let (zz, zzz) = bzPowers {
            z2z2 = zz
            f.mul(s1, zzz, Y1)  // S1 = Y1 Z2^3
        } else {
            f.sqr(T(1), bz)
            z2z2 = UnsafePointer(T(1))
            f.mul(s1, bz, z2z2)
            f.mul(s1, s1, Y1)  // S1 = Y1 Z2^3
        }
        f.mul(u1, X1, z2z2)
        f.mul(h, bx, z1z1)  // U2
        f.mul(rr, Z1, z1z1)
        f.mul(rr, rr, by)  // S2 = Y2 Z1^3
        f.sub(h, h, u1)  // H = U2 - U1
        f.sub(rr, rr, s1)  // S2 - S1
        if f.isZero(h) {
            if f.isZero(rr) {
                dbl(r, a)  // same point
            } else {
                limbsSet(r + 2 * n, 0, n)  // a = -b: infinity
            }
            return
        }
        f.add(rr, rr, rr)  // r = 2 (S2 - S1)
        f.add(i, h, h)
        f.sqr(i, i)  // I = (2H)^2
        f.mul(j, h, i)  // J = H I
        f.mul(i, u1, i)  // V = U1 I
        f.add(u1, Z1, bz)
        f.sqr(u1, u1)
        f.sub(u1, u1, z1z1)
        f.sub(u1, u1, z2z2)
        f.mul(r + 2 * n, u1, h)  // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        f.sqr(z1z1, rr)
        f.sub(z1z1, z1z1, j)
        f.sub(z1z1, z1z1, i)
        f.sub(r, z1z1, i)  // X3 = r^2 - J - 2V
        f.sub(i, i, r)
        f.mul(i, rr, i)
        f.mul(s1, s1, j)
        f.add(s1, s1, s1)
        f.sub(r + n, i, s1)  // Y3 = r (V - X3) - 2 S1 J
    }

    /// r = a + (qx, qy) with an affine q (never infinity). `r` may alias `a`.
    @inline(__always)
    func madd(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
        _ qx: UnsafePointer<UInt>, _ qy: UnsafePointer<UInt>
    ) {
        let n = Self.n
        if isInfinity(a) {
            limbsCopy(r, qx, n)
            limbsCopy(r + n, qy, n)
            f.setOne(r + 2 * n)
            return
        }
        let X1 = a
        let Y1 = a + n
        let Z1 = a + 2 * n
        let z1z1 = T(0)
        let h = T(1)
        let rr = T(2)
        let hh = T(3)
        let i = T(4)
        let j = T(5)
        let v = T(6)
        let t7 = T(7)
        f.sqr(z1z1, Z1)
        f.mul(h, qx, z1z1)  // U2
        f.mul(rr, Z1, z1z1)
        f.mul(rr, rr, qy)  // S2
        f.sub(h, h, X1)  // H = U2 - X1
        f.sub(rr, rr, Y1)  // S2 - Y1
        if f.isZero(h) {
            if f.isZero(rr) {
                dbl(r, a)
            } else {
                limbsSet(r + 2 * n, 0, n)
            }
            return
        }
        f.add(rr, rr, rr)
        f.sqr(hh, h)
        f.add(i, hh, hh)
        f.add(i, i, i)  // I = 4 HH
        f.mul(j, h, i)  // J = H I
        f.mul(v, X1, i)  // V = X1 I
        f.add(t7, Z1, h)
        f.sqr(t7, t7)
        f.sub(t7, t7, z1z1)
        f.sub(r + 2 * n, t7, hh)  // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        f.sqr(t7, rr)
        f.sub(t7, t7, j)
        f.sub(t7, t7, v)
        f.sub(t7, t7, v)  // X3 = r^2 - J - 2V (kept in t7 until X1 is dead)
        f.mul(j, j, Y1)
        f.add(j, j, j)  // 2 Y1 J
        f.sub(v, v, t7)
        f.mul(v, rr, v)
        f.sub(r + n, v, j)  // Y3 = r (V - X3) - 2 Y1 J
        limbsCopy(r, t7, n)
    }
}

/// Fills `out` with the affine odd multiples (2i+1)P, i < count, of the affine point (x, y),
/// in the field's internal representation: the base-point table for the wNAF of u1. Runs once
/// per curve; one field inversion for the whole table (Montgomery's simultaneous inversion
/// trick, HMV algorithm 2.26), so first use costs about as much as a few verifications.
func ecBuildAffineOddMultiples<R: ECFieldImpl>(
    _: R.Type, p: UnsafePointer<UInt>, x: [UInt], y: [UInt],
    count: Int, into out: UnsafeMutablePointer<UInt>
) {
    let n = R.limbCount
    let scratch = UnsafeMutablePointer<UInt>.allocate(capacity: ECArith<R>.scratchLimbs + (7 + 4 * count) * n)
    defer { scratch.deallocate() }
    let arith = ECArith<R>(p: p, scratch: scratch)
    let f = arith.f
    let twice = scratch + ECArith<R>.scratchLimbs
    let inv = twice + 3 * n
    let zi = inv + n
    let zi2 = zi + n
    let tmp = zi2 + n
    let jac = tmp + n  // count Jacobian points
    let prefix = jac + 3 * n * count  // count running products of the Z coordinates
    x.withUnsafeBufferPointer { f.encode(jac, $0.baseAddress!) }
    y.withUnsafeBufferPointer { f.encode(jac + n, $0.baseAddress!) }
    f.setOne(jac + 2 * n)
    arith.dbl(twice, jac)
    limbsCopy(prefix, jac + 2 * n, n)
    for k in 1..<count {
        let pt = jac + 3 * n * k
        limbsCopy(pt, pt - 3 * n, 3 * n)
        arith.add(pt, pt, twice, twice + n, twice + 2 * n)
        f.mul(prefix + n * k, prefix + n * (k - 1), pt + 2 * n)
    }
    // inv = 1 / (Z_0 ... Z_{count-1}); walking down, 1/Z_k = inv * (Z_0 ... Z_{k-1}), then
    // inv *= Z_k. (No Z is zero: (2i+1)P is never infinity for i < count << n.)
    f.inv(inv, prefix + n * (count - 1), tmp)
    var k = count - 1
    while k >= 0 {
        let pt = jac + 3 * n * k
        if k > 0 {
            f.mul(zi, inv, prefix + n * (k - 1))
            f.mul(inv, inv, pt + 2 * n)
        } else {
            limbsCopy(zi, inv, n)
        }
        f.sqr(zi2, zi)
        f.mul(out + 2 * n * k, pt, zi2)  // x = X / Z^2
        f.mul(zi2, zi2, zi)
        f.mul(out + 2 * n * k + n, pt + n, zi2)  // y = Y / Z^3
        k -= 1
    }
}

/// Width-w non-adjacent form of the n-limb scalar k < 2^bits (SEC 1 does not mandate a
/// method; this is the textbook wNAF, Hankerson-Menezes-Vanstone algorithm 3.35, computed by
/// reading windows of bits in place with a carry, as libsecp256k1 does, instead of shifting
/// the whole number once per bit): digits are 0 or odd with |d| < 2^(w-1), least significant
/// first, at most one non-zero digit in any w consecutive ones. `out` must hold bits + 1
/// digits. Returns the number of digits up to the last non-zero one (0 for k = 0).
func ecWNAF(_ k: UnsafePointer<UInt>, _ n: Int, bits: Int, window w: Int, into out: UnsafeMutablePointer<Int8>) -> Int {
    @inline(__always) func bitsAt(_ pos: Int, _ count: Int) -> UInt {
        let limb = pos >> 6
        let off = pos & 63
        var v: UInt = limb < n ? k[limb] >> UInt(off) : 0
        if off + count > 64 && limb + 1 < n { v |= k[limb + 1] << UInt(64 - off) }
        return v & ((1 << UInt(count)) - 1)
    }
    let len = bits + 1  // k < 2^bits: the wNAF has at most bits + 1 digits, so no carry is left
    for i in 0..<len { out[i] = 0 }
    var carry: UInt = 0
    var pos = 0
    var last = -1
    while pos < len {
        if bitsAt(pos, 1) == carry {
            pos += 1
            continue
        }
        let now = min(w, len - pos)
        var word = Int(bitsAt(pos, now) &+ carry)
        carry = UInt((word >> (w - 1)) & 1)
        word -= Int(carry) << w
        out[pos] = Int8(word)
        last = pos
        pos += now
    }
    return last + 1
}
