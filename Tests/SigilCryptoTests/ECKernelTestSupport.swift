import CSigilBignum
import Foundation
import XCTest

/// Limb helpers shared by P256KernelTests and P384KernelTests: little-endian 64-bit limbs of a
/// field element, `count` limbs (4 for P-256, 6 for P-384).
enum KernelLimbs {
    /// Big-endian hex of the limbs, zero-padded to 16 digits per limb.
    static func hex(_ l: [UInt]) -> String {
        l.reversed().map { String($0, radix: 16).leftPadded(16) }.joined()
    }

    /// The limbs of a hex number (at most 16·count digits).
    static func limbs(_ v: String, count: Int) -> [UInt] {
        let s = String(repeating: "0", count: max(0, 16 * count - v.count)) + v
        var out = [UInt](repeating: 0, count: count)
        let chars = Array(s.utf8)
        for i in 0..<count {
            let chunk = String(decoding: chars[(count - 1 - i) * 16..<(count - i) * 16], as: UTF8.self)
            out[i] = UInt(chunk, radix: 16)!
        }
        return out
    }

    /// v mod p for v < 2p.
    static func reduce(_ v: [UInt], _ p: [UInt]) -> [UInt] {
        guard limbsCompareArrays(v, p) >= 0 else { return v }
        var r = v
        var borrow: UInt = 0
        for i in 0..<p.count {
            let (d1, o1) = v[i].subtractingReportingOverflow(p[i])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            r[i] = d2
            borrow = (o1 || o2) ? 1 : 0
        }
        return r
    }

    /// p - k.
    static func pMinus(_ p: [UInt], _ k: UInt) -> [UInt] {
        var v = p
        var borrow = k
        for i in 0..<p.count where borrow != 0 {
            let (d, o) = v[i].subtractingReportingOverflow(borrow)
            v[i] = d
            borrow = o ? 1 : 0
        }
        return v
    }

    /// One field operation of a kernel (csigil_p256_field_op / csigil_p384_field_op).
    static func op(
        _ fn: (Int32, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt>?, UnsafePointer<UInt>?, Int32) -> Void,
        _ code: Int32, _ a: [UInt], _ b: [UInt], mulx: Bool
    ) -> [UInt] {
        var r = [UInt](repeating: 0, count: a.count)
        a.withUnsafeBufferPointer { ap in
            b.withUnsafeBufferPointer { bp in
                r.withUnsafeMutableBufferPointer { rp in
                    fn(code, rp.baseAddress!, ap.baseAddress!, bp.baseAddress!, mulx ? 1 : 0)
                }
            }
        }
        return r
    }
}

extension KernelLimbs {
    /// Field elements below p for the field-operation tests: 0, 1, 2, p − k for small and
    /// 32-bit k, one limb all ones / only its top bit / 2^32 − 1, p − 1 with one limb cleared,
    /// R mod p and R² mod p (`montgomery`), and 150 random values.
    static func reducedInputs(_ p: [UInt], montgomery: [[UInt]]) -> [[UInt]] {
        let n = p.count
        func unit(_ k: UInt) -> [UInt] { [k] + [UInt](repeating: 0, count: n - 1) }
        var reduced: [[UInt]] = [unit(0), unit(1), unit(2)]
        for k: UInt in [1, 2, 3, 0x1_0000_0000, 0xFFFF_FFFF] { reduced.append(pMinus(p, k)) }
        for i in 0..<n {
            for limb: UInt in [UInt.max, 1 << 63, 0xFFFF_FFFF] {
                var v = [UInt](repeating: 0, count: n)
                v[i] = limb
                reduced.append(v)
            }
            var z = pMinus(p, 1)
            z[i] = 0
            reduced.append(z)
        }
        reduced += montgomery
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<150 {
            var v = (0..<n).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            if limbsCompareArrays(v, p) >= 0 { v[n - 1] = p[n - 1] >> 1 }
            reduced.append(v)
        }
        return reduced.filter { limbsCompareArrays($0, p) < 0 }
    }

    /// The (a, b, both below p) pairs: reduced inputs with each other and themselves, and the
    /// unreduced inputs (at or above p) with each other and with ten reduced ones, both ways.
    static func pairs(reduced: [[UInt]], unreduced: [[UInt]]) -> [([UInt], [UInt], Bool)] {
        var pairs: [([UInt], [UInt], Bool)] = []
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
        return pairs
    }

    /// Python's integers for every pair: per pair the Montgomery product a·b·2^-bits mod p, the
    /// square, sum, difference and half mod p, as limbs (the independent oracle). Nil when
    /// python3 is not available.
    static func pythonFieldOps(_ pairs: [([UInt], [UInt], Bool)], pHex: String, bits: Int, name: String) throws
        -> [[[UInt]]]?
    {
        let script = """
            import sys
            p = int(sys.argv[1], 16)
            rinv = pow(2**\(bits), -1, p)
            for line in open(sys.argv[2]):
                a, b = (int(x, 16) for x in line.split())
                print('%x %x %x %x %x %x %x' % (a * b * rinv % p, a * a * rinv % p, (a + b) % p, (a - b) % p,
                                               a * pow(2, -1, p) % p, (a * b - b * b) * rinv % p,
                                               (a * a - a * b) * rinv % p))
            """
        let input = pairs.map { hex($0.0) + " " + hex($0.1) }.joined(separator: "\n") + "\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-\(name)-\(getpid()).txt")
        try Data(input.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        guard let out = runTool("/usr/bin/env", ["python3", "-c", script, pHex, url.path]) else { return nil }
        let n = pairs.first?.0.count ?? 0
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: " ").map { limbs(String($0), count: n) }
        }
    }
}

extension KernelLimbs {
    /// A kernel's wNAF (`csigil_p256_wnaf` / `csigil_p384_wnaf`, scalars of `n` limbs, at most
    /// 64·n + 1 digits): digits odd, |d| < 2^(w-1), non-zero digits at least w apart, and
    /// sum d_i 2^i == k, for the windows the kernels use (5 for Q; 12 for P-256's G and for
    /// P-384's) and others, on edge and random scalars below 2^(64·n).
    static func checkWNAF(
        _ wnaf: (UnsafeMutablePointer<Int16>?, UnsafePointer<UInt>?, Int32) -> Int, limbs n: Int
    ) {
        var rng = SystemRandomNumberGenerator()
        var top = [UInt](repeating: 0, count: n)
        top[n - 1] = 1 << 63
        var scalars: [[UInt]] = [
            [UInt](repeating: 0, count: n), [1] + [UInt](repeating: 0, count: n - 1),
            [UInt](repeating: UInt.max, count: n), top, (0..<n).map { $0 & 1 == 0 ? UInt.max : 0 },
        ]
        for _ in 0..<300 { scalars.append((0..<n).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }) }
        let maxDigits = 64 * n + 1
        // sum d_i 2^i as positive and negative parts, n + 2 limbs each (k < 2^(64n) may need
        // digit 64n).
        let wide = n + 2
        var digits = [Int16](repeating: 0, count: maxDigits)
        for w in [2, 5, 8, 10, 12] {
            for k in scalars {
                let len = digits.withUnsafeMutableBufferPointer { d in
                    k.withUnsafeBufferPointer { wnaf(d.baseAddress!, $0.baseAddress!, Int32(w)) }
                }
                XCTAssertLessThanOrEqual(len, maxDigits)
                var pos = [UInt](repeating: 0, count: wide)
                var neg = [UInt](repeating: 0, count: wide)
                var last = -w
                for i in 0..<maxDigits where digits[i] != 0 {
                    XCTAssertLessThan(i, len)
                    let d = Int(digits[i])
                    XCTAssertTrue(d & 1 == 1 && abs(d) < 1 << (w - 1), "digit \(d) w \(w)")
                    XCTAssertGreaterThanOrEqual(i - last, w, "digits too close, w \(w)")
                    last = i
                    let m = UInt(abs(d))
                    var add = [UInt](repeating: 0, count: wide)
                    add[i >> 6] = m << UInt(i & 63)
                    if i & 63 > 0 { add[(i >> 6) + 1] = m >> UInt(64 - (i & 63)) }
                    var carry: UInt = 0
                    for j in 0..<wide {
                        let (s1, o1) = (d > 0 ? pos[j] : neg[j]).addingReportingOverflow(add[j])
                        let (s2, o2) = s1.addingReportingOverflow(carry)
                        if d > 0 { pos[j] = s2 } else { neg[j] = s2 }
                        carry = (o1 || o2) ? 1 : 0
                    }
                }
                // pos == k + neg
                var sum = [UInt](repeating: 0, count: wide)
                var carry: UInt = 0
                let kw = k + [0, 0]
                for j in 0..<wide {
                    let (s1, o1) = kw[j].addingReportingOverflow(neg[j])
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    sum[j] = s2
                    carry = (o1 || o2) ? 1 : 0
                }
                XCTAssertEqual(pos, sum, "wNAF value, w \(w), k \(hex(k))")
            }
        }
    }
}
