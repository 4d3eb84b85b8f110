// Point arithmetic on y^2 = x^3 - 3x + b over GF(p), in Jacobian coordinates
// (X, Y, Z) ~ (X/Z^2, Y/Z^3); Z = 0 is the point at infinity.
//
// Formulas from the Explicit-Formulas Database (Bernstein, Lange):
//   doubling      dbl-2001-b  (a = -3)  3M + 5S
//   addition      add-2007-bl           11M + 5S
//   mixed add     madd-2007-bl (Z2 = 1)  7M + 4S
// The exceptional cases those formulas do not cover (an input at infinity, P + P, P + (-P))
// are detected and handled explicitly: a verifier sees attacker-chosen keys and signatures,
// so u1*G and u2*Q may well collide on purpose.
//
// Not constant time (public inputs only; see ECField.swift).

struct ECArith<R: ECReduction> {
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

    @inline(__always) func isInfinity(_ a: UnsafePointer<UInt>) -> Bool { limbsIsZero(a + 2 * Self.n, Self.n) }

    /// r = 2a (Jacobian; `r` may alias `a`). Doubling infinity gives Z = 0 again.
    @inline(__always)
    func dbl(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>) {
        let n = Self.n
        let X = a, Y = a + n, Z = a + 2 * n
        let delta = T(0), gamma = T(1), beta = T(2), alpha = T(3), t4 = T(4), t5 = T(5)
        f.sqr(delta, Z)                 // delta = Z^2
        f.sqr(gamma, Y)                 // gamma = Y^2
        f.mul(beta, X, gamma)           // beta = X * gamma
        f.sub(alpha, X, delta)
        f.add(t4, X, delta)
        f.mul(alpha, alpha, t4)         // (X - delta)(X + delta)
        f.add(t4, alpha, alpha)
        f.add(alpha, t4, alpha)         // alpha = 3 (X - delta)(X + delta)
        f.add(t4, Y, Z)
        f.sqr(t4, t4)
        f.sub(t4, t4, gamma)
        f.sub(r + 2 * n, t4, delta)     // Z3 = (Y + Z)^2 - gamma - delta
        f.sqr(t4, alpha)
        f.add(t5, beta, beta)
        f.add(t5, t5, t5)               // 4 beta
        f.sub(t4, t4, t5)
        f.sub(r, t4, t5)                // X3 = alpha^2 - 8 beta
        f.sub(t5, t5, r)
        f.mul(t5, t5, alpha)            // alpha (4 beta - X3)
        f.sqr(gamma, gamma)
        f.add(gamma, gamma, gamma)
        f.add(gamma, gamma, gamma)
        f.add(gamma, gamma, gamma)      // 8 gamma^2
        f.sub(r + n, t5, gamma)         // Y3
    }

    /// r = a + (bx, by, bz) (Jacobian). `r` may alias `a`, not `b`.
    @inline(__always)
    func add(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
             _ bx: UnsafePointer<UInt>, _ by: UnsafePointer<UInt>, _ bz: UnsafePointer<UInt>) {
        let n = Self.n
        if isInfinity(a) {
            limbsCopy(r, bx, n); limbsCopy(r + n, by, n); limbsCopy(r + 2 * n, bz, n)
            return
        }
        if limbsIsZero(bz, n) {
            if r != UnsafeMutablePointer(mutating: a) { limbsCopy(r, a, 3 * n) }
            return
        }
        let X1 = a, Y1 = a + n, Z1 = a + 2 * n
        let z1z1 = T(0), z2z2 = T(1), u1 = T(2), h = T(3), s1 = T(4), rr = T(5), i = T(6), j = T(7)
        f.sqr(z1z1, Z1)
        f.sqr(z2z2, bz)
        f.mul(u1, X1, z2z2)
        f.mul(h, bx, z1z1)              // U2
        f.mul(s1, bz, z2z2)
        f.mul(s1, s1, Y1)               // S1 = Y1 Z2^3
        f.mul(rr, Z1, z1z1)
        f.mul(rr, rr, by)               // S2 = Y2 Z1^3
        f.sub(h, h, u1)                 // H = U2 - U1
        f.sub(rr, rr, s1)               // S2 - S1
        if limbsIsZero(h, n) {
            if limbsIsZero(rr, n) {
                dbl(r, a)               // same point
            } else {
                limbsSet(r + 2 * n, 0, n)  // a = -b: infinity
            }
            return
        }
        f.add(rr, rr, rr)               // r = 2 (S2 - S1)
        f.add(i, h, h)
        f.sqr(i, i)                     // I = (2H)^2
        f.mul(j, h, i)                  // J = H I
        f.mul(i, u1, i)                 // V = U1 I
        f.add(u1, Z1, bz)
        f.sqr(u1, u1)
        f.sub(u1, u1, z1z1)
        f.sub(u1, u1, z2z2)
        f.mul(r + 2 * n, u1, h)         // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        f.sqr(z1z1, rr)
        f.sub(z1z1, z1z1, j)
        f.sub(z1z1, z1z1, i)
        f.sub(r, z1z1, i)               // X3 = r^2 - J - 2V
        f.sub(i, i, r)
        f.mul(i, rr, i)
        f.mul(s1, s1, j)
        f.add(s1, s1, s1)
        f.sub(r + n, i, s1)             // Y3 = r (V - X3) - 2 S1 J
    }

    /// r = a + (qx, qy) with an affine q (never infinity). `r` may alias `a`.
    @inline(__always)
    func madd(_ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>,
              _ qx: UnsafePointer<UInt>, _ qy: UnsafePointer<UInt>) {
        let n = Self.n
        if isInfinity(a) {
            limbsCopy(r, qx, n); limbsCopy(r + n, qy, n); limbsSet(r + 2 * n, 1, n)
            return
        }
        let X1 = a, Y1 = a + n, Z1 = a + 2 * n
        let z1z1 = T(0), h = T(1), rr = T(2), hh = T(3), i = T(4), j = T(5), v = T(6), t7 = T(7)
        f.sqr(z1z1, Z1)
        f.mul(h, qx, z1z1)              // U2
        f.mul(rr, Z1, z1z1)
        f.mul(rr, rr, qy)               // S2
        f.sub(h, h, X1)                 // H = U2 - X1
        f.sub(rr, rr, Y1)               // S2 - Y1
        if limbsIsZero(h, n) {
            if limbsIsZero(rr, n) {
                dbl(r, a)
            } else {
                limbsSet(r + 2 * n, 0, n)
            }
            return
        }
        f.add(rr, rr, rr)
        f.sqr(hh, h)
        f.add(i, hh, hh)
        f.add(i, i, i)                  // I = 4 HH
        f.mul(j, h, i)                  // J = H I
        f.mul(v, X1, i)                 // V = X1 I
        f.add(t7, Z1, h)
        f.sqr(t7, t7)
        f.sub(t7, t7, z1z1)
        f.sub(r + 2 * n, t7, hh)        // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        f.sqr(t7, rr)
        f.sub(t7, t7, j)
        f.sub(t7, t7, v)
        f.sub(t7, t7, v)                // X3 = r^2 - J - 2V (kept in t7 until X1 is dead)
        f.mul(j, j, Y1)
        f.add(j, j, j)                  // 2 Y1 J
        f.sub(v, v, t7)
        f.mul(v, rr, v)
        f.sub(r + n, v, j)              // Y3 = r (V - X3) - 2 Y1 J
        limbsCopy(r, t7, n)
    }

    /// Converts Jacobian `a` (not infinity) to affine x, y. `tmp2` holds 2n limbs that do not
    /// overlap the arithmetic temporaries.
    func toAffine(_ x: UnsafeMutablePointer<UInt>, _ y: UnsafeMutablePointer<UInt>,
                  _ a: UnsafePointer<UInt>, _ tmp2: UnsafeMutablePointer<UInt>) {
        let n = Self.n
        let zi = tmp2, zi2 = tmp2 + n
        f.inv(zi, a + 2 * n, T(0))
        f.sqr(zi2, zi)
        f.mul(x, a, zi2)
        f.mul(zi2, zi2, zi)
        f.mul(y, a + n, zi2)
    }
}

/// Fills `out` with the affine odd multiples (2i+1)P, i < count, of the affine point (x, y):
/// the base-point table for the wNAF of u1. Runs once per curve.
func ecBuildAffineOddMultiples<R: ECReduction>(_: R.Type, p: UnsafePointer<UInt>, x: [UInt], y: [UInt],
                                               count: Int, into out: UnsafeMutablePointer<UInt>) {
    let n = R.limbCount
    let scratch = UnsafeMutablePointer<UInt>.allocate(capacity: ECArith<R>.scratchLimbs + 12 * n)
    defer { scratch.deallocate() }
    let arith = ECArith<R>(p: p, scratch: scratch)
    let acc = scratch + ECArith<R>.scratchLimbs, twice = acc + 3 * n, tmp2 = twice + 3 * n
    for i in 0..<n { acc[i] = x[i]; acc[n + i] = y[i] }
    limbsSet(acc + 2 * n, 1, n)
    arith.dbl(twice, acc)
    for k in 0..<count {
        if k > 0 { arith.add(acc, acc, twice, twice + n, twice + 2 * n) }
        arith.toAffine(out + 2 * n * k, out + 2 * n * k + n, acc, tmp2)
    }
}

/// Width-w non-adjacent form of the n-limb scalar k (SEC 1 does not mandate a method; this is
/// the textbook wNAF, Hankerson-Menezes-Vanstone algorithm 3.35): digits are 0 or odd with
/// |d| < 2^(w-1), least significant first, at most one non-zero digit in any w consecutive.
/// `work` holds n + 1 limbs. Returns the number of digits written (at most bits(k) + 1).
func ecWNAF(_ k: UnsafePointer<UInt>, _ n: Int, window w: Int, into out: UnsafeMutablePointer<Int8>,
            work: UnsafeMutablePointer<UInt>) -> Int {
    limbsCopy(work, k, n)
    work[n] = 0
    let m = n + 1
    let mask = UInt((1 << w) - 1), half = 1 << (w - 1)
    var len = 0
    var top = m - 1  // highest limb that may be non-zero
    while top >= 0 && work[top] == 0 { top -= 1 }
    while top >= 0 {
        var d = 0
        if work[0] & 1 != 0 {
            d = Int(work[0] & mask)
            if d >= half { d -= 1 << w }
            // k -= d: makes the low w bits zero; a negative d adds, possibly carrying upwards.
            if d > 0 {
                var borrow = UInt(d)
                var i = 0
                while borrow != 0 && i < m {
                    let (v, o) = work[i].subtractingReportingOverflow(borrow)
                    work[i] = v; borrow = o ? 1 : 0; i += 1
                }
            } else {
                var carry = UInt(-d)
                var i = 0
                while carry != 0 && i < m {
                    let (v, o) = work[i].addingReportingOverflow(carry)
                    work[i] = v; carry = o ? 1 : 0; i += 1
                }
                if top + 1 < m && work[top + 1] != 0 { top += 1 }
            }
        }
        out[len] = Int8(d)
        len += 1
        // k >>= 1, limbs 0...top.
        for i in 0..<top {
            work[i] = (work[i] >> 1) | (work[i + 1] << 63)
        }
        work[top] >>= 1
        while top >= 0 && work[top] == 0 { top -= 1 }
    }
    return len
}
