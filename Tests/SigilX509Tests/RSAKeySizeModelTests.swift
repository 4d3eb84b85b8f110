import Foundation
@_spi(SigilInternal) import SigilDER
import SigilTestSupport
import XCTest

@testable @_spi(SigilInternal) import SigilX509

/// `Certificate.publicKeyBitCount` for RSA keys (`rsaPublicKeyRanges`, in place) against the
/// views it stands in for, `rsaPublicKey()?.bitCount` (RFC 8017 §A.1.1), on the RSA fixture
/// certificates and every one-octet change of their key bits that still parses.
final class RSAKeySizeModelTests: XCTestCase {
    func testKeySizeAgreesWithTheKeyDecoding() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        var keys = 0
        var compared = 0
        for f in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where f.hasSuffix(".der") {
            let der = try TestSupport.read(dir.appendingPathComponent(f).path)
            guard let c = try? Certificate(der: der) else { continue }
            switch c.publicKeyAlgorithm {
            case .rsa, .rsaPSS: break
            default: continue
            }
            keys += 1
            XCTAssertEqual(c.publicKeyBitCount, (try? c.rsaPublicKey())??.bitCount, f)
            XCTAssertNotNil(c.publicKeyBitCount, f)
            let key = c.publicKeyBytes
            // The key's header and first octets of the modulus, and its last octets (exponent).
            let positions =
                Array(key.start..<min(key.end, key.start + 12)) + Array(max(key.start, key.end - 8)..<key.end)
            for i in positions {
                for v: UInt8 in [0x00, 0x01, 0x02, 0x30, 0x7F, 0x80, 0x81, 0x82, 0xFF, der[i] ^ 0x80, der[i] &+ 1] {
                    var m = der
                    m[i] = v
                    guard let mc = try? Certificate(der: m) else { continue }
                    XCTAssertEqual(mc.publicKeyBitCount, (try? mc.rsaPublicKey())??.bitCount, "\(f) [\(i)] = \(v)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(keys, 3)
        XCTAssertGreaterThan(compared, 100)
    }

    /// The raw-octet decoding of RSAPublicKey (`plainRSAPublicKeyRanges`) against the readers
    /// (`rsaPublicKeyRangesWithReaders`, RFC 8017 §A.1.1 with X.690 §8.3 minimal integers), on
    /// every RSA fixture key and every one-octet change, deletion and truncation of its
    /// header octets and last octets: where the fast path answers, the readers decode the same
    /// ranges.
    func testRawKeyDecodingAgreesWithTheReaders() throws {
        func readers(_ k: [UInt8]) -> ((Int, Int), (Int, Int))? {
            k.withUnsafeBytes { b in try? Certificate.rsaPublicKeyRangesWithReaders(b, 0, b.count) }
        }
        func plain(_ k: [UInt8]) -> ((Int, Int), (Int, Int))? {
            k.withUnsafeBytes { b in Certificate.plainRSAPublicKeyRanges(b, 0, b.count) }
        }
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        var keys: [[UInt8]] = [
            // Hand-made: a short modulus without sign octet, one with a non-minimal 00, zero.
            [0x30, 0x06, 0x02, 0x01, 0x7F, 0x02, 0x01, 0x03],
            [0x30, 0x07, 0x02, 0x02, 0x00, 0x7F, 0x02, 0x01, 0x03],
            [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x03],
            [0x30, 0x07, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x03],
        ]
        for f in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where f.hasSuffix(".der") {
            guard let c = try? Certificate(der: TestSupport.read(dir.appendingPathComponent(f).path)) else { continue }
            if case .rsa = c.publicKeyAlgorithm { keys.append(Array(c.publicKeyBytes.bytes)) }
        }
        XCTAssertGreaterThan(keys.count, 6)
        XCTAssertNil(plain(keys[1]))
        XCTAssertNil(readers(keys[1]))
        XCTAssertNil(readers(keys[2]))
        XCTAssertEqual(plain(keys[3]).map { "\($0)" }, "((5, 6), (8, 9))")
        var fast = 0
        var compared = 0
        for key in keys {
            let positions = Array(0..<min(key.count, 12)) + Array(max(0, key.count - 8)..<key.count)
            var variants: [[UInt8]] = [key]
            for i in Set(positions) {
                for v: UInt8 in [0x00, 0x01, 0x02, 0x30, 0x7F, 0x80, 0x81, 0x82, 0xFF, key[i] ^ 0x80, key[i] &+ 1]
                where v != key[i] {
                    var m = key
                    m[i] = v
                    variants.append(m)
                }
                variants.append(Array(key[..<i]))
                variants.append(Array(key[..<i]) + Array(key[(i + 1)...]))
            }
            for m in variants {
                compared += 1
                guard let p = plain(m) else { continue }
                fast += 1
                XCTAssertEqual(readers(m).map { "\($0)" }, "\(p)", "\(m.prefix(16))")
            }
        }
        XCTAssertGreaterThan(fast, keys.count)
        XCTAssertGreaterThan(compared, 1_000)
    }
}
