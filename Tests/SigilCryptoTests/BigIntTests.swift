import Foundation
import XCTest

@testable import SigilCrypto

/// The Montgomery layer against Python's arbitrary-precision `pow` (an independent implementation).
final class BigIntTests: XCTestCase {
    /// Runs every kernel this CPU has (GMP always; MULX/ADX where available).
    func testModPowAgainstPython() throws {
        let script = #"""
            import json, secrets
            out = []
            for bits in [64, 65, 127, 128, 129, 512, 1000, 1024, 2047, 2048, 3072, 4096]:
                for trial in range(6):
                    m = secrets.randbits(bits) | 1 | (1 << (bits - 1))
                    if trial == 0: m = (1 << bits) - 1                       # all ones
                    e = [3, 65537, 17, (1 << 64) + 1, secrets.randbits(bits) | 1 | 2, secrets.randbits(70) | 1 | (1 << 69)][trial]
                    for x in [0, 1, 2, m - 1, secrets.randbelow(m), secrets.randbelow(m)]:
                        out.append(dict(m="%x" % m, e="%x" % e, x="%x" % x, r="%x" % pow(x, e, m)))
            print(json.dumps(out))
            """#
        guard let out = runTool("/usr/bin/python3", ["-c", script]) else {
            print("SKIPPED testModPowAgainstPython: python3 not available")
            return
        }
        let cases = try JSONSerialization.jsonObject(with: out) as! [[String: String]]
        XCTAssertGreaterThan(cases.count, 400)
        func be(_ hex: String) -> [UInt8] { hexBytes(hex.count % 2 == 1 ? "0" + hex : hex) }
        for c in cases {
            let mBytes = be(c["m"]!)
            let eBytes = be(c["e"]!)
            let xBytes = be(c["x"]!)
            let expect = be(c["r"]!)
            let mod = try XCTUnwrap(
                mBytes.withUnsafeBytes { mb in eBytes.withUnsafeBytes { MontgomeryModulus(bigEndian: mb, exponent: $0) }
                })
            XCTAssertEqual(mod.modulusBigEndian, mBytes)
            XCTAssertEqual(mod.exponentBigEndian, eBytes)
            let n = mod.count
            for kernel in MontgomeryModulus.Kernel.allCases where kernel.isAvailable {
                var x = [UInt](repeating: 0, count: n)
                xBytes.withUnsafeBytes { raw in
                    x.withUnsafeMutableBufferPointer { limbsFromBigEndian(raw, $0.baseAddress!, n) }
                }
                var r = [UInt](repeating: 0, count: n)
                var scratch = [UInt](repeating: 0, count: MontgomeryModulus.scratchCount(n))
                var work = [UInt](repeating: 0, count: MontgomeryModulus.scratchCount(n))
                x.withUnsafeBufferPointer { xp in
                    r.withUnsafeMutableBufferPointer { rp in
                        scratch.withUnsafeMutableBufferPointer { sp in
                            work.withUnsafeMutableBufferPointer { wp in
                                mod.modPow(
                                    xp.baseAddress!, rp.baseAddress!, product: sp.baseAddress!, work: wp.baseAddress!,
                                    kernel: kernel)
                            }
                        }
                    }
                }
                // Export to the modulus byte length and compare with Python's result.
                let k = mBytes.count
                var got = [UInt8](repeating: 0, count: k)
                let fits = r.withUnsafeBufferPointer { rp in
                    got.withUnsafeMutableBytes { limbsToBigEndian(rp.baseAddress!, n, $0.baseAddress!, k) }
                }
                XCTAssertTrue(fits)
                let want = [UInt8](repeating: 0, count: k - expect.count) + expect
                XCTAssertEqual(
                    got, want, "\(kernel): m=\(c["m"]!.prefix(16))… e=\(c["e"]!.prefix(16)) x=\(c["x"]!.prefix(16))")
            }
        }
    }

    func testByteConversions() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b]
        var limbs = [UInt](repeating: 0xdead, count: 3)
        bytes.withUnsafeBytes { raw in
            limbs.withUnsafeMutableBufferPointer { limbsFromBigEndian(raw, $0.baseAddress!, 3) }
        }
        XCTAssertEqual(limbs, [0x0405_0607_0809_0a0b, 0x010203, 0])
        var out = [UInt8](repeating: 0xEE, count: 12)
        let ok = limbs.withUnsafeBufferPointer { lp in
            out.withUnsafeMutableBytes { limbsToBigEndian(lp.baseAddress!, 3, $0.baseAddress!, 12) }
        }
        XCTAssertTrue(ok)
        XCTAssertEqual(out, [0] + bytes)
        // Too small an output: I2OSP "integer too large".
        var short = [UInt8](repeating: 0, count: 10)
        let fits = limbs.withUnsafeBufferPointer { lp in
            short.withUnsafeMutableBytes { limbsToBigEndian(lp.baseAddress!, 3, $0.baseAddress!, 10) }
        }
        XCTAssertFalse(fits)
        // Even or empty moduli are refused.
        let three: [UInt8] = [3]
        three.withUnsafeBytes { e in
            XCTAssertNil([UInt8]([0x10, 0x00]).withUnsafeBytes { MontgomeryModulus(bigEndian: $0, exponent: e) })
            XCTAssertNil([UInt8]().withUnsafeBytes { MontgomeryModulus(bigEndian: $0, exponent: e) })
        }
    }
}
