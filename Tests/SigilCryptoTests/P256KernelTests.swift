import CSigilBignum
import Foundation
import XCTest

@testable import SigilCrypto

/// The P-256 C kernel's field operations (CSigilBignum/p256.c), MULX/ADX and portable products,
/// against Python's integers: Montgomery product a·b·2^-256 mod p, square, sum, difference and
/// half mod p. Edge values: 0, 1, p - 1, p - 2^32, limbs all ones / all zeros, carry-rippling
/// patterns, and inputs in [p, 2^256) (the kernel reduces lazily: every result is congruent and
/// below 2^256, so at most one subtraction of p from the expected value; pairs such as
/// 0 - (2^256 - 1) and (2^256 - 1) + (2^256 - 1) take the second correction of fsub/fadd).
final class P256KernelTests: XCTestCase {
    static let pHex = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
    static let p: [UInt] = [0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001]

    func hex(_ l: [UInt]) -> String { KernelLimbs.hex(l) }
    func limbs(_ v: String) -> [UInt] { KernelLimbs.limbs(v, count: 4) }
    /// v mod p for v < 2p.
    func reduce(_ v: [UInt]) -> [UInt] { KernelLimbs.reduce(v, Self.p) }
    func op(_ code: Int32, _ a: [UInt], _ b: [UInt], mulx: Bool) -> [UInt] {
        KernelLimbs.op(csigil_p256_field_op, code, a, b, mulx: mulx)
    }

    func testFieldOperationsAgainstPython() throws {
        let p = Self.p
        // R mod p (Montgomery 1) and R^2 mod p.
        let reduced = KernelLimbs.reducedInputs(
            p,
            montgomery: [
                [1, 0xFFFF_FFFF_0000_0000, UInt.max, 0xFFFF_FFFE],
                [3, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD],
            ])
        var rng = SystemRandomNumberGenerator()
        // Inputs at or above p (products only).
        var unreduced: [[UInt]] = [
            p, [0, 0x1_0000_0000, 0, p[3]] /* p + 1 */,
            [UInt.max, UInt.max, UInt.max, UInt.max], [0, 0, 0, UInt.max],
        ]
        for _ in 0..<20 {
            var v = (0..<4).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            v[3] = UInt.random(in: 0xFFFF_FFFF_0000_0002...UInt.max, using: &rng)
            unreduced.append(v)
        }
        let pairs = KernelLimbs.pairs(reduced: reduced, unreduced: unreduced)  // (a, b, both below p)
        guard let lines = try KernelLimbs.pythonFieldOps(pairs, pHex: Self.pHex, bits: 256, name: "p256-kernel")
        else {
            print("SKIPPED P256KernelTests: python3 not available")
            return
        }
        XCTAssertEqual(lines.count, pairs.count)
        if csigil_bignum_mulx_supported() == 0 {
            print("P256KernelTests: no MULX/ADX on this CPU, the portable path twice")
        }
        for (k, e) in lines.enumerated() where k < pairs.count {
            let (a, b, belowP) = pairs[k]
            for mulx in [true, false] {
                let ctx = "a=\(hex(a)) b=\(hex(b)) below p: \(belowP) mulx=\(mulx)"
                // A congruent result below 2^256 (below 2p, so at most one subtraction of p
                // from the expected value), for inputs below p and in [p, 2^256) alike. Codes 5
                // and 6: a·b - b² and a² - a·b with one reduction (p256.c's fmul_sub; a = 0 with
                // b near 2^256 takes its second addition of p·2^256).
                for code in 0..<7 {
                    XCTAssertEqual(reduce(op(Int32(code), a, b, mulx: mulx)), e[code], "op \(code) " + ctx)
                }
            }
        }
    }

    /// The product and the square (p256_mulx.h: the whole 512-bit product, then four
    /// Montgomery rounds on its low half, T_hi added, p subtracted once when that carried; the
    /// portable version alike) on many random operands, below p and anywhere below 2^256, and on
    /// operands that steer the rounds' corner cases: a low limb m = 2^64 - 1 in a round (its
    /// carry wraps m's register), products whose high half plus the reduced low half carries
    /// out of 2^256 (both operands near 2^256), and b = 1 or 2^k (T_hi = 0 or tiny), against
    /// Python's integers.
    func testProductsManyOperandsAgainstPython() throws {
        var rng = SystemRandomNumberGenerator()
        func rand() -> [UInt] { (0..<4).map { _ in UInt.random(in: 0...UInt.max, using: &rng) } }
        var pairs: [([UInt], [UInt], Bool)] = []
        for _ in 0..<1500 {
            var a = rand()
            var b = rand()
            pairs.append((a, b, false))
            a[3] >>= 1  // below 2^255 < p
            b[3] >>= 1
            pairs.append((a, b, true))
        }
        let ones: [UInt] = [UInt.max, UInt.max, UInt.max, UInt.max]
        for _ in 0..<200 {
            // Near 2^256 both: S + T_hi carries out of 2^256 for most of these.
            var a = ones
            var b = ones
            a[Int.random(in: 0..<4, using: &rng)] = UInt.random(in: 0...UInt.max, using: &rng)
            b[Int.random(in: 0..<3, using: &rng)] = UInt.random(in: 0...UInt.max, using: &rng)
            pairs.append((a, b, false))
            // Low limb all ones, b = 1 or a power of two: m = 2^64 - 1 in the first rounds.
            var c = rand()
            c[0] = UInt.max
            if Bool.random(using: &rng) { c[1] = UInt.max }
            var pow2: [UInt] = [0, 0, 0, 0]
            let k = Int.random(in: 0..<256, using: &rng)
            pow2[k / 64] = 1 << UInt(k % 64)
            pairs.append((c, [1, 0, 0, 0], false))
            pairs.append((c, pow2, false))
        }
        guard let lines = try KernelLimbs.pythonFieldOps(pairs, pHex: Self.pHex, bits: 256, name: "p256-products")
        else {
            print("SKIPPED P256KernelTests: python3 not available")
            return
        }
        XCTAssertEqual(lines.count, pairs.count)
        for (k, e) in lines.enumerated() where k < pairs.count {
            let (a, b, _) = pairs[k]
            for mulx in [true, false] {
                let ctx = "a=\(hex(a)) b=\(hex(b)) mulx=\(mulx)"
                XCTAssertEqual(reduce(op(0, a, b, mulx: mulx)), e[0], "product " + ctx)
                XCTAssertEqual(reduce(op(1, a, b, mulx: mulx)), e[1], "square " + ctx)
                XCTAssertEqual(reduce(op(5, a, b, mulx: mulx)), e[5], "a·b - b² " + ctx)
                XCTAssertEqual(reduce(op(6, a, b, mulx: mulx)), e[6], "a² - a·b " + ctx)
            }
        }
    }

    /// The static table of G (CSigilBignum/p256_gtable.h, written by Scripts/gen_ec_gtable.py p256
    /// with Python integers) against two independent sources: Sigil's generic point arithmetic
    /// (ecBuildAffineOddMultiples, Jacobian additions and one batched inversion: other code,
    /// other formulas) for every entry, and multiples of G from Python's `cryptography`
    /// (OpenSSL) for 3G, 255G, 511G and the last entry, 2047G.
    func testStaticGeneratorTable() {
        var count = 0
        var window: Int32 = 0
        let table = csigil_p256_gtable(&count, &window)!
        XCTAssertEqual(window, 12)
        XCTAssertEqual(count, 1 << (Int(window) - 2))
        let c = p256CurveData
        let gx: [UInt] = [0xf4a1_3945_d898_c296, 0x7703_7d81_2deb_33a0, 0xf8bc_e6e5_63a4_40f2, 0x6b17_d1f2_e12c_4247]
        let gy: [UInt] = [0xcbb6_4068_37bf_51f5, 0x2bce_3357_6b31_5ece, 0x8ee7_eb4a_7c0f_9e16, 0x4fe3_42e2_fe1a_7f9b]
        let mine = UnsafeMutablePointer<UInt>.allocate(capacity: count * 8)
        defer { mine.deallocate() }
        ecBuildAffineOddMultiples(P256Field.self, p: c.p, x: gx, y: gy, count: count, into: mine)
        var scratch = [UInt](repeating: 0, count: 16)
        scratch.withUnsafeMutableBufferPointer { t in
            let f = ECFieldOps<P256Field>(p: c.p, scratch: t.baseAddress!)
            for k in 0..<2 * count { f.canonicalize(mine + 4 * k) }
        }
        for k in 0..<count {
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: table + 8 * k, count: 8)),
                Array(UnsafeBufferPointer(start: mine + 8 * k, count: 8)), "entry \(k): \(2 * k + 1)G")
        }
        // Affine coordinates from `cryptography` (derive_private_key(k).public_key()), decoded
        // from the table's Montgomery form.
        let known: [(Int, String, String)] = [
            (
                3, "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
                "8734640c4998ff7e374b06ce1a64a2ecd82ab036384fb83d9a79b127a27d5032"
            ),
            (
                255, "f44b39759a2e6db723a6f90249972dfd08e95380f1fca470eacd1d03e5edf214",
                "befafccf223ca065f0a0db4eea93ff06a2116fca81f7a4a9436a8d917a02dede"
            ),
            (
                511, "55a02d9988e3ddd94aea497e799dd9424e89e19e2fab423b0a5dc09b219329b6",
                "4a629cffe278693b940306217000fb3d007dfa0f83aa49d8dfc8ff38386e4404"
            ),
            (
                2047, "1e87ecce88a0bc36fd3ad836c5be29b12c179e234fd19ac4677df7b12d0a9c6a",
                "672856399de39c325e7c46443beda646e028121f47825a2a878b577599087a17"
            ),
        ]
        let one: [UInt] = [1, 0, 0, 0]
        for (m, x, y) in known {
            let e = table + 8 * (m >> 1)
            let ex = op(0, Array(UnsafeBufferPointer(start: e, count: 4)), one, mulx: false)
            let ey = op(0, Array(UnsafeBufferPointer(start: e + 4, count: 4)), one, mulx: false)
            XCTAssertEqual(hex(ex), x, "\(m)G x")
            XCTAssertEqual(hex(ey), y, "\(m)G y")
        }
    }

    /// csigil_p256_on_curve (the key validation of ECDSAPublicKey for uncompressed P-256 points),
    /// MULX and portable products: true for G, 3G, 255G, 511G and 2047G as Python's
    /// `cryptography` gives them, false for each with y + 1, y - 1 or x + 1 (below p) and for
    /// (0, 0); and (x, p - y) is on the curve too.
    func testOnCurve() {
        let points: [(String, String)] = [
            (
                "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
                "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
            ),
            (
                "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
                "8734640c4998ff7e374b06ce1a64a2ecd82ab036384fb83d9a79b127a27d5032"
            ),
            (
                "f44b39759a2e6db723a6f90249972dfd08e95380f1fca470eacd1d03e5edf214",
                "befafccf223ca065f0a0db4eea93ff06a2116fca81f7a4a9436a8d917a02dede"
            ),
            (
                "55a02d9988e3ddd94aea497e799dd9424e89e19e2fab423b0a5dc09b219329b6",
                "4a629cffe278693b940306217000fb3d007dfa0f83aa49d8dfc8ff38386e4404"
            ),
            (
                "1e87ecce88a0bc36fd3ad836c5be29b12c179e234fd19ac4677df7b12d0a9c6a",
                "672856399de39c325e7c46443beda646e028121f47825a2a878b577599087a17"
            ),
        ]
        let one: [UInt] = [1, 0, 0, 0]
        func onCurve(_ x: [UInt], _ y: [UInt], _ mulx: Bool) -> Bool {
            x.withUnsafeBufferPointer { xp in
                y.withUnsafeBufferPointer { csigil_p256_on_curve(xp.baseAddress!, $0.baseAddress!, mulx ? 1 : 0) != 0 }
            }
        }
        // Plain integers below p: v + 1 and v - 1 with the kernel's sum / difference, which
        // work on any representation (op 2, 3 on plain values: (v + 1) mod p).
        func plus(_ v: [UInt], _ d: [UInt], _ sign: Int32) -> [UInt] {
            reduce(op(sign, v, d, mulx: false))
        }
        for mulx in [false, true] {
            for (xh, yh) in points {
                let x = limbs(xh)
                let y = limbs(yh)
                XCTAssertTrue(onCurve(x, y, mulx), "\(xh) mulx \(mulx)")
                XCTAssertTrue(onCurve(x, reduce(op(3, [0, 0, 0, 0], y, mulx: false)), mulx), "-P \(xh)")
                XCTAssertFalse(onCurve(x, plus(y, one, 2), mulx), "y + 1 \(xh)")
                XCTAssertFalse(onCurve(x, plus(y, one, 3), mulx), "y - 1 \(xh)")
                XCTAssertFalse(onCurve(plus(x, one, 2), y, mulx), "x + 1 \(xh)")
            }
            XCTAssertFalse(onCurve([0, 0, 0, 0], [0, 0, 0, 0], mulx))
        }
    }

    /// The kernel's wNAF (csigil_p256_wnaf): digits odd, |d| < 2^(w-1), non-zero digits at least
    /// w apart, and sum d_i 2^i == k, for the windows the kernel uses (5 for Q, 12 for G) and
    /// others, on edge and random scalars below 2^256.
    func testKernelWNAF() {
        KernelLimbs.checkWNAF({ csigil_p256_wnaf($0, $1, $2) }, limbs: 4)
    }
}
