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
        func pMinus(_ k: UInt) -> [UInt] { KernelLimbs.pMinus(p, k) }
        var reduced: [[UInt]] = [[0, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0]]
        for k: UInt in [1, 2, 3, 0x1_0000_0000, 0xFFFF_FFFF] { reduced.append(pMinus(k)) }
        for i in 0..<4 {
            var v = [UInt](repeating: 0, count: 4)
            v[i] = UInt.max
            reduced.append(v)
            var w = [UInt](repeating: 0, count: 4)
            w[i] = 1 << 63
            reduced.append(w)
            var u = [UInt](repeating: 0, count: 4)
            u[i] = 0xFFFF_FFFF
            reduced.append(u)
            var z = pMinus(1)
            z[i] = 0
            reduced.append(z)
        }
        // R mod p (Montgomery 1) and R^2 mod p.
        reduced.append([1, 0xFFFF_FFFF_0000_0000, UInt.max, 0xFFFF_FFFE])
        reduced.append([3, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<150 {
            var v = (0..<4).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            if limbsCompareArrays(v, p) >= 0 { v[3] = p[3] >> 1 }
            reduced.append(v)
        }
        reduced = reduced.filter { limbsCompareArrays($0, p) < 0 }
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
        var pairs: [([UInt], [UInt], Bool)] = []  // (a, b, both below p)
        for (i, a) in reduced.enumerated() {
            pairs.append((a, reduced[(i * 7 + 3) % reduced.count], true))
            pairs.append((a, a, true))
            if i < 30 { for b in reduced.prefix(30) { pairs.append((a, b, true)) } }
        }
        for a in unreduced {
            for b in unreduced + reduced.prefix(10) {
                pairs.append((a, b, false))
                pairs.append((b, a, false))
            }
        }
        let script = """
            import sys
            p = int(sys.argv[1], 16)
            rinv = pow(2**256, -1, p)
            for line in open(sys.argv[2]):
                a, b = (int(x, 16) for x in line.split())
                print('%x %x %x %x %x' % (a * b * rinv % p, a * a * rinv % p, (a + b) % p, (a - b) % p,
                                         a * pow(2, -1, p) % p))
            """
        let input = pairs.map { hex($0.0) + " " + hex($0.1) }.joined(separator: "\n") + "\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-p256-kernel-\(getpid()).txt")
        try Data(input.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        guard let out = runTool("/usr/bin/env", ["python3", "-c", script, Self.pHex, url.path]) else {
            print("SKIPPED P256KernelTests: python3 not available")
            return
        }
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, pairs.count)
        if csigil_bignum_mulx_supported() == 0 {
            print("P256KernelTests: no MULX/ADX on this CPU, the portable path twice")
        }
        for (k, line) in lines.enumerated() where k < pairs.count {
            let e = line.split(separator: " ").map { limbs(String($0)) }
            let (a, b, belowP) = pairs[k]
            for mulx in [true, false] {
                let ctx = "a=\(hex(a)) b=\(hex(b)) below p: \(belowP) mulx=\(mulx)"
                // A congruent result below 2^256 (below 2p, so at most one subtraction of p
                // from the expected value), for inputs below p and in [p, 2^256) alike.
                for code in 0..<5 {
                    XCTAssertEqual(reduce(op(Int32(code), a, b, mulx: mulx)), e[code], "op \(code) " + ctx)
                }
            }
        }
    }

    /// The static table of G (CSigilBignum/p256_gtable.h, written by Scripts/gen_ec_gtable.py p256
    /// with Python integers) against two independent sources: Sigil's generic point arithmetic
    /// (ecBuildAffineOddMultiples, Jacobian additions and one batched inversion: other code,
    /// other formulas) for every entry, and multiples of G from Python's `cryptography`
    /// (OpenSSL) for 3G, 255G and 511G.
    func testStaticGeneratorTable() {
        var count = 0
        var window: Int32 = 0
        let table = csigil_p256_gtable(&count, &window)!
        XCTAssertEqual(window, 10)
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

    /// The kernel's wNAF (csigil_p256_wnaf): digits odd, |d| < 2^(w-1), non-zero digits at least
    /// w apart, and sum d_i 2^i == k, for the windows the kernel uses (5 for Q, 10 for G) and
    /// others, on edge and random scalars below 2^256.
    func testKernelWNAF() {
        var rng = SystemRandomNumberGenerator()
        var scalars: [[UInt]] = [
            [0, 0, 0, 0], [1, 0, 0, 0], [UInt.max, UInt.max, UInt.max, UInt.max],
            [0, 0, 0, 1 << 63], [UInt.max, 0, UInt.max, 0],
        ]
        for _ in 0..<300 { scalars.append((0..<4).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }) }
        var digits = [Int16](repeating: 0, count: 257)
        for w in [2, 5, 8, 10, 12] {
            for k in scalars {
                let len = digits.withUnsafeMutableBufferPointer { d in
                    k.withUnsafeBufferPointer { csigil_p256_wnaf(d.baseAddress!, $0.baseAddress!, Int32(w)) }
                }
                XCTAssertLessThanOrEqual(len, 257)
                // sum d_i 2^i as positive and negative parts, 5 limbs each (k < 2^256 may
                // need digit 256).
                var pos = [UInt](repeating: 0, count: 6)
                var neg = [UInt](repeating: 0, count: 6)
                var last = -w
                for i in 0..<257 where digits[i] != 0 {
                    XCTAssertLessThan(i, len)
                    let d = Int(digits[i])
                    XCTAssertTrue(d & 1 == 1 && abs(d) < 1 << (w - 1), "digit \(d) w \(w)")
                    XCTAssertGreaterThanOrEqual(i - last, w, "digits too close, w \(w)")
                    last = i
                    let m = UInt(abs(d))
                    var add = [UInt](repeating: 0, count: 6)
                    add[i >> 6] = m << UInt(i & 63)
                    if i & 63 > 0 { add[(i >> 6) + 1] = m >> UInt(64 - (i & 63)) }
                    var carry: UInt = 0
                    for j in 0..<6 {
                        let (s1, o1) = (d > 0 ? pos[j] : neg[j]).addingReportingOverflow(add[j])
                        let (s2, o2) = s1.addingReportingOverflow(carry)
                        if d > 0 { pos[j] = s2 } else { neg[j] = s2 }
                        carry = (o1 || o2) ? 1 : 0
                    }
                }
                // pos == k + neg
                var sum = [UInt](repeating: 0, count: 6)
                var carry: UInt = 0
                let k6 = k + [0, 0]
                for j in 0..<6 {
                    let (s1, o1) = k6[j].addingReportingOverflow(neg[j])
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    sum[j] = s2
                    carry = (o1 || o2) ? 1 : 0
                }
                XCTAssertEqual(pos, sum, "wNAF value, w \(w), k \(hex(k))")
            }
        }
    }
}
