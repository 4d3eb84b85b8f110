import CSigilBignum
import Foundation
import XCTest

@testable import SigilCrypto

/// The P-384 C kernel's field operations (CSigilBignum/p384.c), with and without MULX, against
/// Python's integers: Montgomery product a·b·2^-384 mod p, square, sum, difference and half
/// mod p. Edge values: 0, 1, 2, p - 1, p - 2, p - 2^32, limbs all ones / all zeros, carry-rippling
/// patterns, R mod p, R^2 mod p; products also on inputs in [p, 2^384) (the kernel's contract:
/// a congruent result below 2^384, i.e. at most one subtraction of p from the expected value).
/// Sums, differences and halves take inputs below p and must return values below p exactly.
final class P384KernelTests: XCTestCase {
    static let pHex = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff"
    static let p: [UInt] = [
        0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFE, UInt.max, UInt.max, UInt.max,
    ]

    func hex(_ l: [UInt]) -> String { KernelLimbs.hex(l) }
    func limbs(_ v: String) -> [UInt] { KernelLimbs.limbs(v, count: 6) }
    /// v mod p for v < 2p.
    func reduce(_ v: [UInt]) -> [UInt] { KernelLimbs.reduce(v, Self.p) }
    func op(_ code: Int32, _ a: [UInt], _ b: [UInt], mulx: Bool) -> [UInt] {
        KernelLimbs.op(csigil_p384_field_op, code, a, b, mulx: mulx)
    }

    func testFieldOperationsAgainstPython() throws {
        let p = Self.p
        // R mod p (Montgomery 1) and R^2 mod p.
        let reduced = KernelLimbs.reducedInputs(
            p,
            montgomery: [
                [0xFFFF_FFFF_0000_0001, 0x0000_0000_FFFF_FFFF, 1, 0, 0, 0],
                [
                    0xFFFF_FFFE_0000_0001, 0x0000_0002_0000_0000, 0xFFFF_FFFE_0000_0000, 0x0000_0002_0000_0000, 1, 0,
                ],
            ])
        var rng = SystemRandomNumberGenerator()
        // Inputs at or above p (products only).
        var unreduced: [[UInt]] = [
            p,
            [0x1_0000_0000, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFE, UInt.max, UInt.max, UInt.max] /* p + 1 */,
            [UInt.max, UInt.max, UInt.max, UInt.max, UInt.max, UInt.max],
        ]
        for _ in 0..<20 {
            var v = (0..<6).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            v[5] = UInt.max
            v[4] = UInt.max
            v[3] = UInt.max
            v[2] = UInt.max
            unreduced.append(v)
        }
        let pairs = KernelLimbs.pairs(reduced: reduced, unreduced: unreduced)  // (a, b, both below p)
        guard let lines = try KernelLimbs.pythonFieldOps(pairs, pHex: Self.pHex, bits: 384, name: "p384-kernel")
        else {
            print("SKIPPED P384KernelTests: python3 not available")
            return
        }
        XCTAssertEqual(lines.count, pairs.count)
        if csigil_bignum_mulx_supported() == 0 {
            print("P384KernelTests: no MULX/ADX on this CPU, the portable path twice")
        }
        for (k, e) in lines.enumerated() where k < pairs.count {
            let (a, b, belowP) = pairs[k]
            for mulx in [true, false] {
                let ctx = "a=\(hex(a)) b=\(hex(b)) below p: \(belowP) mulx=\(mulx)"
                if belowP {
                    // Fully reduced: every result exactly the expected value below p.
                    for code in 0..<5 {
                        XCTAssertEqual(op(Int32(code), a, b, mulx: mulx), e[code], "op \(code) " + ctx)
                    }
                } else {
                    for code in 0..<2 {
                        XCTAssertEqual(reduce(op(Int32(code), a, b, mulx: mulx)), e[code], "op \(code) " + ctx)
                    }
                }
            }
        }
    }

    /// The products and squares of the MULX/ADCX/ADOX path (p384_mulx.h: interleaved rows and
    /// Montgomery rounds whose multiples of p are formed with shifts) and the portable one, on
    /// many operands against Python's integers: random pairs below 2^384 and below p; pairs near
    /// 2^384 (the top carry of the accumulator); low limbs that make the rounds' m extreme
    /// (A_0 = 0, 2^64 - 1, 2^32 - 1, 2^32, a multiple of 2^32: t = 0, u = 0, the carry b0);
    /// and results just below p and just below 2^384 (a·R mod p = a with R mod p, the Montgomery
    /// 1, as the second operand: final_sub's rare branch, s_5 = 2^64 - 1). Inputs below p must
    /// give exactly the expected value below p; the others a congruent value below 2^384.
    func testProductsManyOperandsAgainstPython() throws {
        var rng = SystemRandomNumberGenerator()
        func rand() -> [UInt] { (0..<6).map { _ in UInt.random(in: 0...UInt.max, using: &rng) } }
        let rModP: [UInt] = [0xFFFF_FFFF_0000_0001, 0x0000_0000_FFFF_FFFF, 1, 0, 0, 0]
        var pairs: [([UInt], [UInt], Bool)] = []
        for _ in 0..<1500 {
            var a = rand()
            var b = rand()
            pairs.append((a, b, false))
            a[5] >>= 1  // below 2^383 < p
            b[5] >>= 1
            pairs.append((a, b, true))
        }
        let ones = [UInt](repeating: UInt.max, count: 6)
        let lows: [UInt] = [0, UInt.max, 0xFFFF_FFFF, 0x1_0000_0000, 0xFFFF_FFFF_0000_0000, 0x8000_0000_8000_0000]
        for k in 0..<300 {
            var a = ones
            var b = ones
            a[Int.random(in: 0..<6, using: &rng)] = UInt.random(in: 0...UInt.max, using: &rng)
            b[Int.random(in: 0..<5, using: &rng)] = UInt.random(in: 0...UInt.max, using: &rng)
            pairs.append((a, b, false))
            var c = rand()
            c[0] = lows[k % lows.count]
            var pow2: [UInt] = [0, 0, 0, 0, 0, 0]
            let e = Int.random(in: 0..<384, using: &rng)
            pow2[e / 64] = 1 << UInt(e % 64)
            pairs.append((c, [1, 0, 0, 0, 0, 0], false))
            pairs.append((c, pow2, false))
            // Results just below p (exact) and just below 2^384 (congruent).
            var nearP = Self.p
            nearP[0] = nearP[0] - UInt.random(in: 1...0xFFFF_FFFF, using: &rng)
            pairs.append((nearP, rModP, true))
            var near2 = ones
            near2[0] = UInt.random(in: 0...UInt.max, using: &rng)
            pairs.append((near2, rModP, false))
        }
        guard let lines = try KernelLimbs.pythonFieldOps(pairs, pHex: Self.pHex, bits: 384, name: "p384-products")
        else {
            print("SKIPPED P384KernelTests: python3 not available")
            return
        }
        XCTAssertEqual(lines.count, pairs.count)
        for (k, e) in lines.enumerated() where k < pairs.count {
            let (a, b, belowP) = pairs[k]
            for mulx in [true, false] {
                let ctx = "a=\(hex(a)) b=\(hex(b)) mulx=\(mulx)"
                let prod = op(0, a, b, mulx: mulx)
                let sq = op(1, a, b, mulx: mulx)
                if belowP {
                    XCTAssertEqual(prod, e[0], "product " + ctx)
                    XCTAssertEqual(sq, e[1], "square " + ctx)
                } else {
                    XCTAssertEqual(reduce(prod), e[0], "product " + ctx)
                    XCTAssertEqual(reduce(sq), e[1], "square " + ctx)
                }
            }
        }
    }

    /// csigil_p384_on_curve (the key validation of ECDSAPublicKey for uncompressed P-384 points),
    /// MULX and portable products: true for G, 3G, 255G, 2047G and one large multiple as Python's
    /// `cryptography` gives them, and for (x, p - y); false for each with y + 1, y - 1 or x + 1
    /// (below p) and for (0, 0).
    func testOnCurve() {
        let points: [(String, String)] = [
            (
                "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
                "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f"
            ),
            (
                "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
                "c995f7ca0b0c42837d0bbe9602a9fc998520b41c85115aa5f7684c0edc111eacc24abd6be4b5d298b65f28600a2f1df1"
            ),
            (
                "913ee585ac49138778366888055f6e18874e4ba0f45c6c0d9cdc23c662401ae27d44704af137e6fa6c679238031e49a5",
                "122fb8a51307410051adc3846990cca4ca65c8aec1f2f2231a136f3dd8a15c1e6265211771ae52c5fa62d8e7487db3b1"
            ),
            (
                "2cb001e3e8f043d01c3a3648f57a6b8b2c048d5d94ee1ad69eedf393a69f75195d2a43c22eff9bf6b960314e48914182",
                "aef6c11df450f98f482797e0124b8d441049b467ad8be4383a0962a3bc54b86ca77f691c146998f9ecef59178f9a6154"
            ),
            (
                "e50d201ae2bd3105f71cf1544f3b6d3d18150a878e4df00649cd5826e078f23b7d8d9f2d93e87ff77b173e8d6a23116b",
                "fae1c203bb768b27392e6aa32fde29a355a9374629024caac4a57ba95ff4b4c5be70b0220f0284f95f0bae5f19657715"
            ),
        ]
        let one: [UInt] = [1, 0, 0, 0, 0, 0]
        let zero: [UInt] = [0, 0, 0, 0, 0, 0]
        func onCurve(_ x: [UInt], _ y: [UInt], _ mulx: Bool) -> Bool {
            x.withUnsafeBufferPointer { xp in
                y.withUnsafeBufferPointer { csigil_p384_on_curve(xp.baseAddress!, $0.baseAddress!, mulx ? 1 : 0) != 0 }
            }
        }
        // Plain integers below p: the kernel's sum / difference work on any representation.
        func plus(_ v: [UInt], _ d: [UInt], _ sign: Int32) -> [UInt] { op(sign, v, d, mulx: false) }
        for mulx in [false, true] {
            for (xh, yh) in points {
                let x = limbs(xh)
                let y = limbs(yh)
                XCTAssertTrue(onCurve(x, y, mulx), "\(xh) mulx \(mulx)")
                XCTAssertTrue(onCurve(x, op(3, zero, y, mulx: false), mulx), "-P \(xh)")
                XCTAssertFalse(onCurve(x, plus(y, one, 2), mulx), "y + 1 \(xh)")
                XCTAssertFalse(onCurve(x, plus(y, one, 3), mulx), "y - 1 \(xh)")
                XCTAssertFalse(onCurve(plus(x, one, 2), y, mulx), "x + 1 \(xh)")
            }
            XCTAssertFalse(onCurve(zero, zero, mulx))
        }
    }

    /// The static table of G (CSigilBignum/p384_gtable.h, written by Scripts/gen_ec_gtable.py p384
    /// with Python integers) against Sigil's generic point arithmetic (ecBuildAffineOddMultiples
    /// over P384Reduction: other code, other field representation) for every entry, and against
    /// multiples of G from Python's `cryptography` (OpenSSL) for 3G, 255G, 511G and 2047G.
    func testStaticGeneratorTable() {
        var count = 0
        var window: Int32 = 0
        let table = csigil_p384_gtable(&count, &window)!
        XCTAssertEqual(window, 12)
        XCTAssertEqual(count, 1 << (Int(window) - 2))
        let c = p384CurveData
        let gx: [UInt] = [
            0x3a54_5e38_7276_0ab7, 0x5502_f25d_bf55_296c, 0x59f7_41e0_8254_2a38, 0x6e1d_3b62_8ba7_9b98,
            0x8eb1_c71e_f320_ad74, 0xaa87_ca22_be8b_0537,
        ]
        let gy: [UInt] = [
            0x7a43_1d7c_90ea_0e5f, 0x0a60_b1ce_1d7e_819d, 0xe9da_3113_b5f0_b8c0, 0xf8f4_1dbd_289a_147c,
            0x5d9e_98bf_9292_dc29, 0x3617_de4a_9626_2c6f,
        ]
        let mine = UnsafeMutablePointer<UInt>.allocate(capacity: count * 12)
        defer { mine.deallocate() }
        ecBuildAffineOddMultiples(P384Reduction.self, p: c.p, x: gx, y: gy, count: count, into: mine)
        var scratch = [UInt](repeating: 0, count: 24)
        scratch.withUnsafeMutableBufferPointer { t in
            let f = ECFieldOps<P384Reduction>(p: c.p, scratch: t.baseAddress!)
            for k in 0..<2 * count { f.canonicalize(mine + 6 * k) }
        }
        let one: [UInt] = [1, 0, 0, 0, 0, 0]
        for k in 0..<count {
            // Out of the table's Montgomery form: multiply by the plain 1.
            let tx = op(0, Array(UnsafeBufferPointer(start: table + 12 * k, count: 6)), one, mulx: false)
            let ty = op(0, Array(UnsafeBufferPointer(start: table + 12 * k + 6, count: 6)), one, mulx: false)
            XCTAssertEqual(
                tx + ty, Array(UnsafeBufferPointer(start: mine + 12 * k, count: 12)), "entry \(k): \(2 * k + 1)G")
        }
        // Affine coordinates from `cryptography` (derive_private_key(k).public_key()).
        let known: [(Int, String, String)] = [
            (
                3,
                "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
                "c995f7ca0b0c42837d0bbe9602a9fc998520b41c85115aa5f7684c0edc111eacc24abd6be4b5d298b65f28600a2f1df1"
            ),
            (
                255,
                "913ee585ac49138778366888055f6e18874e4ba0f45c6c0d9cdc23c662401ae27d44704af137e6fa6c679238031e49a5",
                "122fb8a51307410051adc3846990cca4ca65c8aec1f2f2231a136f3dd8a15c1e6265211771ae52c5fa62d8e7487db3b1"
            ),
            (
                511,
                "c6c1a4d9a80691ad8e228e86b9795dc1f183e5baf989538c30244f6bca2e2c444880c742cf593f78ca328ab02adc6965",
                "189726ee24329acf053f05f8518b21ef9724130d178ef93c09d0b8ac8ceb79b04f957297600c7c73daf956cc8e87b4b0"
            ),
            (
                2047,  // the last entry of the width-12 table
                "2cb001e3e8f043d01c3a3648f57a6b8b2c048d5d94ee1ad69eedf393a69f75195d2a43c22eff9bf6b960314e48914182",
                "aef6c11df450f98f482797e0124b8d441049b467ad8be4383a0962a3bc54b86ca77f691c146998f9ecef59178f9a6154"
            ),
        ]
        for (m, x, y) in known {
            let e = table + 12 * (m >> 1)
            let ex = op(0, Array(UnsafeBufferPointer(start: e, count: 6)), one, mulx: false)
            let ey = op(0, Array(UnsafeBufferPointer(start: e + 6, count: 6)), one, mulx: false)
            XCTAssertEqual(hex(ex), x, "\(m)G x")
            XCTAssertEqual(hex(ey), y, "\(m)G y")
        }
    }

    /// The kernel's wNAF (csigil_p384_wnaf): digits odd, |d| < 2^(w-1), non-zero digits at least
    /// w apart, and sum d_i 2^i == k, for windows 5 (Q) and 12 (G) and others, on edge and random
    /// scalars below 2^384.
    func testKernelWNAF() {
        KernelLimbs.checkWNAF({ csigil_p384_wnaf($0, $1, $2) }, limbs: 6)
    }
}
