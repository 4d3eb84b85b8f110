import CGMP
import CSigilBignum
import Foundation
import Synchronization
import XCTest

@testable import SigilCrypto

/// The MULX/ADX Montgomery kernels (CSigilBignum) against the GMP path, operation by operation,
/// on random operands for every modulus size from 1 to 80 limbs and the RSA sizes up to 16384
/// bits. (BigIntTests checks whole exponentiations of both kernels against Python.)
final class MontgomeryKernelTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SplitMix {
        var s: UInt64
        mutating func next() -> UInt {
            s &+= 0x9E37_79B9_7F4A_7C15
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt(z ^ (z >> 31))
        }
    }

    func testKernelsAgreeWithGMP() throws {
        guard MontgomeryModulus.Kernel.mulx.isAvailable else {
            print("SKIPPED testKernelsAgreeWithGMP: no BMI2/ADX on this CPU")
            return
        }
        var rng = SplitMix(s: 0x5167_11)
        let sizes = Array(1...80) + [96, 128, 192, 256]
        for n in sizes {
            for trial in 0..<12 {
                // Modulus: random odd with the top bit set; special shapes on some trials.
                var mBytes = [UInt8](repeating: 0, count: 8 * n)
                for i in 0..<mBytes.count { mBytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
                if trial == 0 { mBytes = [UInt8](repeating: 0xFF, count: 8 * n) }  // 2^k − 1
                if trial == 1 { for i in 1..<mBytes.count { mBytes[i] = 0 } }  // 2^(k−1) + 1
                if trial == 2 { mBytes[0] = 1 } else { mBytes[0] |= 0x80 }  // short top limb
                mBytes[mBytes.count - 1] |= 1
                let e: [UInt8] = [1, 0, 1]
                let mod = try XCTUnwrap(
                    mBytes.withUnsafeBytes { mb in e.withUnsafeBytes { MontgomeryModulus(bigEndian: mb, exponent: $0) }
                    })
                XCTAssertEqual(mod.count, n)
                let m = mod.storage  // m | e
                // Operands below m: random with the top limb shrunk, and m − 1 (the largest).
                func operand(_ kind: Int) -> [UInt] {
                    if kind == 0 {
                        var v = Array(m[0..<n])
                        v[0] -= 1
                        return v
                    }
                    var v = (0..<n).map { _ in rng.next() }
                    v[n - 1] = v[n - 1] % m[n - 1]
                    return v
                }
                for kind in 0..<3 {
                    let a = operand(kind)
                    let b = operand(kind == 0 ? 1 : 2)
                    for square in [false, true] {
                        var want = [UInt](repeating: 0, count: n)
                        var got = want
                        var gotAlias = a
                        var t = [UInt](repeating: 0xAAAA, count: 2 * n)
                        m.withUnsafeBufferPointer { mp in
                            a.withUnsafeBufferPointer { ap in
                                b.withUnsafeBufferPointer { bp in
                                    let bb = square ? ap.baseAddress! : bp.baseAddress!
                                    t.withUnsafeMutableBufferPointer { tp in
                                        want.withUnsafeMutableBufferPointer {
                                            mod.mul(
                                                $0.baseAddress!, ap.baseAddress!, bb, tp.baseAddress!, mp.baseAddress!,
                                                .gmp)
                                        }
                                        got.withUnsafeMutableBufferPointer {
                                            mod.mul(
                                                $0.baseAddress!, ap.baseAddress!, bb, tp.baseAddress!, mp.baseAddress!,
                                                .mulx)
                                        }
                                        // In place (r == a), as modPow uses it.
                                        gotAlias.withUnsafeMutableBufferPointer { gp in
                                            let g = gp.baseAddress!
                                            if square {
                                                csigil_mont_sqr_mulx(
                                                    g, g, mp.baseAddress!, n, mod.negInverse, tp.baseAddress!)
                                            } else {
                                                csigil_mont_mul_mulx(
                                                    g, g, bp.baseAddress!, mp.baseAddress!, n, mod.negInverse,
                                                    tp.baseAddress!)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        XCTAssertEqual(got, want, "n=\(n) trial=\(trial) kind=\(kind) square=\(square)")
                        XCTAssertEqual(gotAlias, want, "in place: n=\(n) trial=\(trial) kind=\(kind) square=\(square)")
                    }
                }
            }
        }
    }
}

/// The AVX-512 IFMA exponentiation (CSigilBignum/rsa_ifma.c) against GMP's `mpn` path, whole
/// exponentiations on every modulus size the kernel takes (1...64 limbs) and just above (65, 80:
/// the fallback), with the extreme shapes: m = 2^k − 1 (every limb all ones), m = 2^(k−1) + 1,
/// a short top limb; x = 0, 1, 2, m − 1 and random; e = 3, 65537, a 64-bit and a 128-bit odd e.
final class IFMAKernelTests: XCTestCase {
    func testIFMAAgreesWithGMP() throws {
        guard MontgomeryModulus.Kernel.ifma.isAvailable else {
            print("SKIPPED testIFMAAgreesWithGMP: no AVX-512 IFMA on this CPU")
            return
        }
        var rng = MontgomeryKernelTests.SplitMix(s: 0x1F3A_52)
        func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        for n in Array(1...66) + [80] {
            for trial in 0..<8 {
                var mBytes = randomBytes(8 * n)
                if trial == 0 { mBytes = [UInt8](repeating: 0xFF, count: 8 * n) }  // 2^k − 1
                if trial == 1 { for i in 1..<mBytes.count { mBytes[i] = 0 } }  // 2^(k−1) + 1
                if trial == 2 { mBytes[0] = 1 } else { mBytes[0] |= 0x80 }  // short top limb
                mBytes[mBytes.count - 1] |= 1
                var e: [UInt8] = [1, 0, 1]
                if trial % 4 == 1 { e = [3] }
                if trial % 4 == 2 {
                    e = randomBytes(8)
                    e[0] |= 0x80
                    e[7] |= 1
                }
                if trial % 4 == 3 {
                    e = randomBytes(16)
                    e[0] |= 0x80
                    e[15] |= 1
                }
                let mod = try XCTUnwrap(
                    mBytes.withUnsafeBytes { mb in e.withUnsafeBytes { MontgomeryModulus(bigEndian: mb, exponent: $0) }
                    })
                let m = Array(mod.storage[0..<n])
                var xs: [[UInt]] = [[UInt](repeating: 0, count: n), [1] + [UInt](repeating: 0, count: n - 1)]
                xs.append([2] + [UInt](repeating: 0, count: n - 1))
                var mMinus1 = m
                mMinus1[0] -= 1  // m is odd
                xs.append(mMinus1)
                for _ in 0..<2 {
                    var v = (0..<n).map { _ in rng.next() }
                    v[n - 1] = v[n - 1] % m[n - 1]
                    xs.append(v)
                }
                for x in xs {
                    func run(_ kernel: MontgomeryModulus.Kernel) -> [UInt] {
                        var r = [UInt](repeating: 0xAAAA, count: n)
                        var t = [UInt](repeating: 0x5555, count: MontgomeryModulus.scratchCount(n))
                        var w = [UInt](repeating: 0x5555, count: MontgomeryModulus.scratchCount(n))
                        x.withUnsafeBufferPointer { xp in
                            r.withUnsafeMutableBufferPointer { rp in
                                t.withUnsafeMutableBufferPointer { tp in
                                    w.withUnsafeMutableBufferPointer { wp in
                                        mod.modPow(
                                            xp.baseAddress!, rp.baseAddress!, product: tp.baseAddress!,
                                            work: wp.baseAddress!, kernel: kernel)
                                    }
                                }
                            }
                        }
                        return r
                    }
                    XCTAssertEqual(run(.ifma), run(.gmp), "n=\(n) trial=\(trial) x=\(x.prefix(2))")
                }
            }
        }
    }

    /// The kernel's single almost-Montgomery multiplication and squaring (rsa_ifma.c's amm and
    /// ams) on operands below 2m, the range the exponentiation feeds them (their results are
    /// below 2m, not reduced): on every size the kernel takes (1...64 limbs, V = 1...10 vectors),
    /// moduli with every limb all ones, 2^(k−1) + 1, a short top limb (a modulus much smaller
    /// than the n limbs) and random, operands 2m − 1, 2m − 2, m, m − 1, 0, 1 and random below 2m.
    /// Each result is checked with GMP: below 2m, and out·R ≡ a·b (mod m), R = 2^(416V).
    func testIFMASquareAndMultiplyAgainstGMP() throws {
        guard MontgomeryModulus.Kernel.ifma.isAvailable else {
            print("SKIPPED testIFMASquareAndMultiplyAgainstGMP: no AVX-512 IFMA on this CPU")
            return
        }
        var rng = MontgomeryKernelTests.SplitMix(s: 0xA35_0F1A)
        /// x mod m (x: any length, m: n limbs with a non-zero top limb).
        func mod(_ x: [UInt], _ m: [UInt]) -> [UInt] {
            let n = m.count
            if x.count < n { return x + [UInt](repeating: 0, count: n - x.count) }
            var q = [UInt](repeating: 0, count: x.count - n + 1)
            var r = [UInt](repeating: 0, count: n)
            x.withUnsafeBufferPointer { xp in
                m.withUnsafeBufferPointer { mp in
                    q.withUnsafeMutableBufferPointer { qp in
                        r.withUnsafeMutableBufferPointer { rp in
                            __gmpn_tdiv_qr(
                                qp.baseAddress!, rp.baseAddress!, 0, xp.baseAddress!, x.count, mp.baseAddress!, n)
                        }
                    }
                }
            }
            return r
        }
        func mul(_ a: [UInt], _ b: [UInt]) -> [UInt] {
            var p = [UInt](repeating: 0, count: a.count + b.count)
            a.withUnsafeBufferPointer { ap in
                b.withUnsafeBufferPointer { bp in
                    p.withUnsafeMutableBufferPointer {
                        if a.count >= b.count {
                            _ = __gmpn_mul($0.baseAddress!, ap.baseAddress!, a.count, bp.baseAddress!, b.count)
                        } else {
                            _ = __gmpn_mul($0.baseAddress!, bp.baseAddress!, b.count, ap.baseAddress!, a.count)
                        }
                    }
                }
            }
            return p
        }
        func less(_ a: [UInt], _ b: [UInt]) -> Bool {  // same length
            for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] { return a[i] < b[i] }
            return false
        }
        var checked = 0
        for n in 1...64 {
            let v = csigil_rsa_ifma_vectors(n)
            XCTAssertGreaterThan(v, 0)
            // R = 2^(416v) mod m, from its limbs (416v = 64·(13v/2) + 32·(v mod 2)).
            var rBits = [UInt](repeating: 0, count: 13 * v / 2 + 1)
            rBits[13 * v / 2] = v % 2 == 0 ? 1 : 1 << 32
            for trial in 0..<12 {
                var m = (0..<n).map { _ in rng.next() }
                if trial == 0 { m = [UInt](repeating: .max, count: n) }  // 2^k − 1
                if trial == 1 {  // 2^(k−1) + 1
                    m = [1] + [UInt](repeating: 0, count: n - 1)
                    m[n - 1] |= 1 << 63
                }
                if trial == 2 { m[n - 1] = 1 + rng.next() % 7 }  // short top limb
                if trial == 3 && n > 1 {
                    m[n - 1] = 0
                    m[n - 2] |= 1 << 63
                }  // a modulus of n − 1 limbs
                if trial >= 4 { m[n - 1] |= 1 << 63 }
                m[0] |= 1
                let mTrim = Array(m[0..<(m.lastIndex { $0 != 0 }! + 1)])
                let rMod = mod(rBits, mTrim)
                // 2m, m − 1 in n + 1 limbs.
                var twoM = m + [0]
                var carry: UInt = 0
                for i in 0...n {
                    let w = twoM[i]
                    twoM[i] = (w << 1) | carry
                    carry = w >> 63
                }
                let minus = KernelLimbs.pMinus
                func randomBelowTwoM() -> [UInt] {
                    var x = (0...n).map { _ in rng.next() }
                    // Reduce the top limbs below 2m's, then below 2m exactly.
                    let top = twoM.lastIndex { $0 != 0 }!
                    for i in stride(from: top + 1, through: n, by: 1) { x[i] = 0 }
                    x[top] = twoM[top] == 0 ? 0 : x[top] % twoM[top]
                    return x
                }
                var operands: [[UInt]] = [
                    minus(twoM, 1), minus(twoM, 2), m + [0], minus(m + [0], 1), [UInt](repeating: 0, count: n + 1),
                    [1] + [UInt](repeating: 0, count: n),
                ]
                for _ in 0..<6 { operands.append(randomBelowTwoM()) }
                for (ia, a) in operands.enumerated() {
                    XCTAssertTrue(less(a, twoM))
                    for square in [true, false] {
                        let b = square ? a : operands[(ia * 7 + trial) % operands.count]
                        var out = [UInt](repeating: 0xAAAA, count: n + 1)
                        m.withUnsafeBufferPointer { mp in
                            a.withUnsafeBufferPointer { ap in
                                b.withUnsafeBufferPointer { bp in
                                    out.withUnsafeMutableBufferPointer {
                                        csigil_rsa_ifma_mont_test(
                                            $0.baseAddress!, ap.baseAddress!, bp.baseAddress!, mp.baseAddress!, n,
                                            square ? 1 : 0)
                                    }
                                }
                            }
                        }
                        XCTAssertTrue(
                            less(out, twoM), "n=\(n) trial=\(trial) operand=\(ia) square=\(square): not below 2m")
                        XCTAssertEqual(
                            mod(mul(out, rMod), mTrim), mod(mul(a, b), mTrim),
                            "n=\(n) trial=\(trial) operand=\(ia) square=\(square)")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, 64 * 12 * 12 * 2)
    }

    /// IFMASquareCache under contention and eviction: 12 moduli (more than the 8 entries) used
    /// from 4 threads at once, each result checked against the GMP kernel.
    func testSquareCacheConcurrent() throws {
        guard MontgomeryModulus.Kernel.ifma.isAvailable else {
            print("SKIPPED testSquareCacheConcurrent: no AVX-512 IFMA on this CPU")
            return
        }
        var rng = MontgomeryKernelTests.SplitMix(s: 0xCAC4E)
        var cases: [(MontgomeryModulus, [UInt], [UInt])] = []
        for i in 0..<12 {
            let n = [16, 32, 48, 64][i % 4]
            var mBytes = (0..<(8 * n)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            mBytes[0] |= 0x80
            mBytes[mBytes.count - 1] |= 1
            let e: [UInt8] = [1, 0, 1]
            let mod = try XCTUnwrap(
                mBytes.withUnsafeBytes { mb in e.withUnsafeBytes { MontgomeryModulus(bigEndian: mb, exponent: $0) } })
            var x = (0..<n).map { _ in rng.next() }
            x[n - 1] %= mod.storage[n - 1]
            cases.append((mod, x, IFMAKernelTests.power(mod, x, .gmp)))
        }
        let fixed = cases
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for round in 0..<20 {
                let (mod, x, want) = fixed[(t * 5 + round * 7) % fixed.count]
                if IFMAKernelTests.power(mod, x, .ifma) != want { failures.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
    }

    static func power(_ mod: MontgomeryModulus, _ x: [UInt], _ kernel: MontgomeryModulus.Kernel) -> [UInt] {
        let n = mod.count
        var r = [UInt](repeating: 0, count: n)
        var t = [UInt](repeating: 0, count: MontgomeryModulus.scratchCount(n))
        var w = [UInt](repeating: 0, count: MontgomeryModulus.scratchCount(n))
        x.withUnsafeBufferPointer { xp in
            r.withUnsafeMutableBufferPointer { rp in
                t.withUnsafeMutableBufferPointer { tp in
                    w.withUnsafeMutableBufferPointer { wp in
                        mod.modPow(
                            xp.baseAddress!, rp.baseAddress!, product: tp.baseAddress!, work: wp.baseAddress!,
                            kernel: kernel)
                    }
                }
            }
        }
        return r
    }
}
