import Foundation
import XCTest

@testable import SigilCrypto

/// Field arithmetic of the three curves against Python's big integers, on edge values (0, 1,
/// p - 1, all-ones limbs, powers of two, values that make the reductions' carries ripple) and
/// random ones. ECDSA vectors exercise the arithmetic only on "typical" values; the carry paths
/// of the reductions need these.
final class ECDSAFieldTests: XCTestCase {

    struct Results { var mul: [UInt], sqr: [UInt], add: [UInt], sub: [UInt], neg: [UInt], inv: [UInt]? }

    /// Runs the field operations on canonical inputs (encoding to and decoding from the field's
    /// internal representation, e.g. Montgomery form), returns canonical outputs.
    func compute<R: ECFieldImpl>(_: R.Type, _ curve: ECCurveData, _ a: [UInt], _ b: [UInt], inverse: Bool) -> Results {
        let n = R.limbCount
        let buf = UnsafeMutablePointer<UInt>.allocate(capacity: 2 * n + 2 + 16 * n)
        defer { buf.deallocate() }
        let f = ECFieldOps<R>(p: curve.p, scratch: buf)
        let x = buf + 2 * n + 2
        let y = x + n
        let r = y + n
        let tmp = r + n
        let out = tmp + n
        a.withUnsafeBufferPointer { f.encode(x, $0.baseAddress!) }
        b.withUnsafeBufferPointer { f.encode(y, $0.baseAddress!) }
        func get(_ v: UnsafeMutablePointer<UInt>) -> [UInt] {
            f.decode(out, v)
            return Array(UnsafeBufferPointer(start: out, count: n))
        }
        f.mul(r, x, y)
        let mul = get(r)
        f.sqr(r, x)
        let sqr = get(r)
        f.add(r, x, y)
        let add = get(r)
        f.sub(r, x, y)
        let sub = get(r)
        f.neg(r, x)
        let neg = get(r)
        var inv: [UInt]? = nil
        if inverse && !limbsIsZero(x, n) {
            f.inv(r, x, tmp)
            inv = get(r)
        }
        // Aliased forms give the same results.
        limbsCopy(r, x, n)
        f.mul(r, r, y)
        XCTAssertEqual(get(r), mul)
        limbsCopy(r, x, n)
        f.add(r, r, r)
        f.sub(r, r, x)
        XCTAssertEqual(get(r), get(x))
        return Results(mul: mul, sqr: sqr, add: add, sub: sub, neg: neg, inv: inv)
    }

    func limbs(_ v: String, _ n: Int) -> [UInt] {
        let bytes = hexBytes(v.count % 2 == 1 ? "0" + v : v)
        var out = [UInt](repeating: 0, count: n)
        for (k, byte) in bytes.reversed().enumerated() where k / 8 < n {
            out[k / 8] |= UInt(byte) << UInt((k % 8) * 8)
        }
        return out
    }

    func hex(_ l: [UInt]) -> String {
        var s = ""
        for v in l.reversed() { s += String(v, radix: 16).leftPadded(16) }
        return s
    }

    func run<R: ECFieldImpl>(_ r: R.Type, _ curve: ECCurveData, name: String, pHex: String) throws {
        let n = R.limbCount
        let p = limbs(pHex, n)
        // Edge values: small, near p, limb patterns that maximise carries and borrows.
        var values: [[UInt]] = []
        func pMinus(_ k: UInt) -> [UInt] {
            var v = p
            var borrow = k
            for i in 0..<n where borrow != 0 {
                let (d, o) = v[i].subtractingReportingOverflow(borrow)
                v[i] = d
                borrow = o ? 1 : 0
            }
            return v
        }
        values.append([UInt](repeating: 0, count: n))
        values.append([1] + [UInt](repeating: 0, count: n - 1))
        values.append([2] + [UInt](repeating: 0, count: n - 1))
        for k: UInt in [1, 2, 3, 0x1_0000_0000] { values.append(pMinus(k)) }
        for i in 0..<n {
            var v = [UInt](repeating: 0, count: n)
            v[i] = UInt.max
            values.append(v)
            var w = [UInt](repeating: 0, count: n)
            w[i] = 1 << 63
            values.append(w)
            var u = [UInt](repeating: 0, count: n)
            u[i] = 0xFFFF_FFFF
            values.append(u)
            var z = pMinus(1)
            z[i] = 0
            values.append(z)
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var v = (0..<n).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            // Keep below p: clear the top bit of the top limb's significant part, then check.
            v[n - 1] &= p[n - 1]
            if limbsCompareArrays(v, p) >= 0 { v[n - 1] = p[n - 1] >> 1 }
            values.append(v)
        }
        values = values.filter { limbsCompareArrays($0, p) < 0 }
        var pairs: [([UInt], [UInt])] = []
        for (i, a) in values.enumerated() {
            pairs.append((a, values[(i * 7 + 3) % values.count]))
            pairs.append((a, a))
            if i < 40 { for b in values.prefix(40) { pairs.append((a, b)) } }
        }
        let script = """
            import sys
            p = int(sys.argv[1], 16)
            for line in open(sys.argv[2]):
                a, b = (int(x, 16) for x in line.split())
                inv = '%x' % pow(a, -1, p) if a else '-'
                print('%x %x %x %x %x %s' % (a * b % p, a * a % p, (a + b) % p, (a - b) % p, (-a) % p, inv))
            """
        let input = pairs.map { hex($0.0) + " " + hex($0.1) }.joined(separator: "\n") + "\n"
        // Through a file: with a pipe, writing all the input before reading the output deadlocks
        // once both pipe buffers fill.
        let inputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigil-field-\(name)-\(getpid()).txt")
        try Data(input.utf8).write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }
        guard let out = runTool("/usr/bin/env", ["python3", "-c", script, pHex, inputURL.path]) else {
            print("SKIPPED ECDSAFieldTests \(name): python3 not available")
            return
        }
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, pairs.count)
        for (k, line) in lines.enumerated() where k < pairs.count {
            let e = line.split(separator: " ").map(String.init)
            let (a, b) = pairs[k]
            let got = compute(r, curve, a, b, inverse: k % 16 == 0)  // inversion is slow in debug builds
            let ctx = "\(name) a=\(hex(a)) b=\(hex(b))"
            XCTAssertEqual(got.mul, limbs(e[0], n), "mul " + ctx)
            XCTAssertEqual(got.sqr, limbs(e[1], n), "sqr " + ctx)
            XCTAssertEqual(got.add, limbs(e[2], n), "add " + ctx)
            XCTAssertEqual(got.sub, limbs(e[3], n), "sub " + ctx)
            XCTAssertEqual(got.neg, limbs(e[4], n), "neg " + ctx)
            if e[5] != "-", got.inv != nil { XCTAssertEqual(got.inv, limbs(e[5], n), "inv " + ctx) }
        }
    }

    func testP256Field() throws {
        try run(
            P256Field.self, p256CurveData, name: "P-256",
            pHex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    }

    /// P-256 keeps values lazily reduced (below 2^256, not necessarily below p). Feed the
    /// operations internal values in [p, 2^256) directly, including the ones that take the
    /// rare second corrections of `addLazy` and `sub`, and compare with the same operations on
    /// the congruent value below p (whose results are checked against Python above).
    func testP256LazyRepresentation() {
        typealias F = P256Field
        let n = 4
        let p: [UInt] = (0..<n).map { F.modulus($0) }
        var big: [[UInt]] = [
            [UInt.max, UInt.max, UInt.max, UInt.max],
            [UInt.max - 1, UInt.max, UInt.max, UInt.max],
            p,
            [p[0] &+ 1, p[1] &+ 1, p[2], p[3]],  // p + 1 (limb 0 wraps, its carry written into limb 1)
            [0, 0, 0, 0xFFFF_FFFF_0000_0001],
            [0, 0, 0, 0xFFFF_FFFF_FFFF_FFFF],
        ]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            var v = (0..<n).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
            v[3] = UInt.random(in: 0xFFFF_FFFF_0000_0002...UInt.max, using: &rng)  // > p
            big.append(v)
        }
        let buf = UnsafeMutablePointer<UInt>.allocate(capacity: 64)
        defer { buf.deallocate() }
        let f = ECFieldOps<F>(p: p256CurveData.p, scratch: buf)
        let a = buf + 12
        let b = a + 4
        let ca = b + 4
        let cb = ca + 4
        let r1 = cb + 4
        let r2 = r1 + 4
        let o1 = r2 + 4
        let o2 = o1 + 4
        func canon(_ src: [UInt], _ dst: UnsafeMutablePointer<UInt>) {
            for i in 0..<n { dst[i] = src[i] }
            if limbsCompare(dst, p256CurveData.p, n) >= 0 { _ = limbsSub(dst, dst, p256CurveData.p, n) }
        }
        func same(_ what: String, _ x: [UInt], _ y: [UInt]) {
            f.decode(o1, r1)
            f.decode(o2, r2)
            XCTAssertTrue(
                limbsCompare(o1, p256CurveData.p, n) < 0 && limbsCompare(o2, p256CurveData.p, n) < 0, "decode canonical"
            )
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: o1, count: n)), Array(UnsafeBufferPointer(start: o2, count: n)),
                "\(what) a=\(x) b=\(y)")
        }
        let small: [[UInt]] = [[0, 0, 0, 0], [1, 0, 0, 0], [UInt.max, 0, 0, 0]]
        for x in big + small {
            for y in big + small {
                for i in 0..<n {
                    a[i] = x[i]
                    b[i] = y[i]
                }
                canon(x, ca)
                canon(y, cb)
                f.mul(r1, a, b)
                f.mul(r2, ca, cb)
                same("mul", x, y)
                f.sqr(r1, a)
                f.sqr(r2, ca)
                same("sqr", x, y)
                f.add(r1, a, b)
                f.add(r2, ca, cb)
                same("add", x, y)
                f.sub(r1, a, b)
                f.sub(r2, ca, cb)
                same("sub", x, y)
                f.neg(r1, a)
                f.neg(r2, ca)
                same("neg", x, y)
                XCTAssertEqual(f.isZero(a), limbsIsZero(ca, n))
                XCTAssertEqual(f.equal(a, b, scratch: o1), limbsCompare(ca, cb, n) == 0)
                XCTAssertTrue(f.equal(a, ca, scratch: o1))
            }
        }
        // The rare corrections, explicitly: (2^256 - 1) + (2^256 - 1) carries twice;
        // 0 - (2^256 - 1) borrows twice.
        let m: [UInt] = [UInt.max, UInt.max, UInt.max, UInt.max]
        for i in 0..<n {
            a[i] = m[i]
            b[i] = 0
        }
        f.add(r1, a, a)
        XCTAssertTrue(limbsCompare(r1, a, n) < 0)  // a real reduction happened, result < 2^256
        f.sub(r1, b, a)
        canon(m, ca)
        f.sub(r2, b, ca)
        same("0 - (2^256 - 1)", [0], m)
    }

    /// wNAF digits: odd, |d| < 2^(w-1), no two non-zero digits within w positions, and
    /// sum d_i 2^i == k (checked as P == k + N with P, N the positive and negative parts).
    func testWNAF() {
        var rng = SystemRandomNumberGenerator()
        for (n, bits) in [(4, 256), (6, 384), (9, 521)] {
            var scalars: [[UInt]] = [[UInt](repeating: 0, count: n), [1] + [UInt](repeating: 0, count: n - 1)]
            var top = [UInt](repeating: UInt.max, count: n)
            if bits % 64 != 0 { top[n - 1] = (1 << UInt(bits % 64)) - 1 }
            scalars.append(top)
            for _ in 0..<300 {
                var v = (0..<n).map { _ in UInt.random(in: 0...UInt.max, using: &rng) }
                for i in 0..<n { v[i] &= top[i] }
                scalars.append(v)
            }
            for w in [2, 5, 8] {
                for k in scalars {
                    let digits = UnsafeMutablePointer<Int8>.allocate(capacity: bits + 1)
                    defer { digits.deallocate() }
                    let len = k.withUnsafeBufferPointer {
                        ecWNAF($0.baseAddress!, n, bits: bits, window: w, into: digits)
                    }
                    XCTAssertLessThanOrEqual(len, bits + 1)
                    var pos = [UInt](repeating: 0, count: n + 2)
                    var neg = [UInt](repeating: 0, count: n + 2)
                    var lastNonZero = -w
                    for i in 0..<len where digits[i] != 0 {
                        let d = Int(digits[i])
                        XCTAssertTrue(d & 1 == 1 && abs(d) < 1 << (w - 1), "digit \(d) w \(w)")
                        XCTAssertGreaterThanOrEqual(i - lastNonZero, w, "adjacent digits, w \(w)")
                        lastNonZero = i
                        // add |d| << i into pos or neg
                        let m = UInt(abs(d))
                        let limb = i >> 6
                        let off = UInt(i & 63)
                        var add: [UInt] = [UInt](repeating: 0, count: n + 2)
                        add[limb] = m << off
                        if off > 0 && limb + 1 < n + 2 { add[limb + 1] = m >> (64 - off) }
                        if d > 0 { pos = addArrays(pos, add) } else { neg = addArrays(neg, add) }
                    }
                    XCTAssertEqual(pos, addArrays(k + [0, 0], neg), "wNAF value, w \(w), k \(k)")
                }
            }
        }
    }

    func testP384Field() throws {
        try run(
            P384Reduction.self, p384CurveData, name: "P-384",
            pHex: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff")
    }

    func testP521Field() throws {
        try run(P521Reduction.self, p521CurveData, name: "P-521", pHex: "1" + String(repeating: "f", count: 130))
    }
}

func addArrays(_ a: [UInt], _ b: [UInt]) -> [UInt] {
    var out = a
    var carry: UInt = 0
    for i in 0..<a.count {
        let (s1, o1) = a[i].addingReportingOverflow(b[i])
        let (s2, o2) = s1.addingReportingOverflow(carry)
        out[i] = s2
        carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
    }
    return out
}

func limbsCompareArrays(_ a: [UInt], _ b: [UInt]) -> Int {
    for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] {
        return a[i] < b[i] ? -1 : 1
    }
    return 0
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
