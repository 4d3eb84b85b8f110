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
}
