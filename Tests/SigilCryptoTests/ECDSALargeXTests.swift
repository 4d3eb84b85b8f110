import Foundation
import XCTest

@testable import SigilCrypto

/// The last step of SEC 1 §4.1.4 without an inversion: Sigil accepts when r·Z² ≡ X (mod p) or,
/// when r + n < p, (r + n)·Z² ≡ X, i.e. when x_R mod n = r for x_R = X/Z². These signatures make
/// x_R ≥ n, so only the second comparison can accept them; both P-256 kernels (MULX/ADX and
/// portable products) are checked.
final class ECDSALargeXTests: XCTestCase {

    private func verify(_ key: ECDSAPublicKey, r: [UInt8], s: [UInt8], digest: [UInt8], mulx: Bool) -> CryptoError? {
        r.withUnsafeBytes { rb in
            s.withUnsafeBytes { sb in
                digest.withUnsafeBytes { d -> CryptoError? in
                    do throws(CryptoError) {
                        try key.verify(r: rb, s: sb, digest: d, p256UseMulx: mulx)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
        }
    }

    /// Wycheproof ecdsa_secp256r1_sha256_test.json tcId 350 ("k*G has a large x-coordinate",
    /// valid: r = x_R - n) and 351 ("r too large", invalid: the same signature with r = x_R,
    /// which is >= n).
    func testWycheproofLargeXCoordinate() throws {
        guard let data = Vectors.load("wycheproof/ecdsa_secp256r1_sha256_test.json") else { return }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var seen = Set<Int>()
        for group in try XCTUnwrap(json["testGroups"] as? [[String: Any]]) {
            let pk = try XCTUnwrap(group["publicKey"] as? [String: Any])
            for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                let id = test["tcId"] as! Int
                guard id == 350 || id == 351 else { continue }
                seen.insert(id)
                let key = try makeECKey(.p256, hexBytes(pk["uncompressed"] as! String)).get()
                let digest = HashAlgorithm.sha256.hash(hexBytes(test["msg"] as! String)).bytes
                let sig = hexBytes(test["sig"] as! String)
                for mulx in [true, false] {
                    let error = ecdsaCheck(key, sig: sig, digest: digest, p256UseMulx: mulx)
                    if id == 350 {
                        XCTAssertEqual(test["comment"] as? String, "k*G has a large x-coordinate")
                        XCTAssertNil(error, "tcId 350, mulx \(mulx)")
                    } else {
                        XCTAssertEqual(error, .malformedSignature, "tcId 351 (r >= n), mulx \(mulx)")
                    }
                }
            }
        }
        XCTAssertEqual(seen, [350, 351], "the large-x vectors are in the suite")
    }

    /// Two more signatures with x_R = n + r (r = 3 and r = 4), made with Python's integers and
    /// textbook affine formulas (independent of Sigil): R = (n + r, y) on the curve, a fixed s,
    /// e = SHA-256("Sigil: x_R >= n"), and the key Q = r^-1 (s R - e G), so that
    /// u1 G + u2 Q = R (checked in the generator). Then variations that must be rejected.
    func testGeneratedLargeXCoordinate() throws {
        let message = Array("Sigil: x_R >= n".utf8)
        let digest = HashAlgorithm.sha256.hash(message).bytes
        let s = hexBytes("1234567890abcdef1234567890abcdef")
        let cases: [(key: String, r: UInt8)] = [
            (
                "04a73465203a3c841cd501fa8e362a65c47451396741fcc03ab2aa11ae04cca8a5509f6013a5d8771982426cfaa3dbdb5842e38be96973521d9489aa2922af7ee0",
                3
            ),
            (
                "043a169785d9a95524328374760b0c9780de23222d9e81486d7364664ba96cba620b36290136e5427738d18aadb4bfa3bb3b0a0e3cfe5ff1920ebc535d93cb5545",
                4
            ),
        ]
        // n + r for r = 3: x_R itself, refused by the range check (r must be below n).
        let nPlus3 = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632554")
        for (hex, r) in cases {
            let key = try makeECKey(.p256, hexBytes(hex)).get()
            for mulx in [true, false] {
                XCTAssertNil(verify(key, r: [r], s: s, digest: digest, mulx: mulx), "r = \(r), mulx \(mulx)")
                XCTAssertEqual(verify(key, r: [r + 1], s: s, digest: digest, mulx: mulx), .badSignature, "r + 1")
                XCTAssertEqual(verify(key, r: [r], s: s + [0], digest: digest, mulx: mulx), .badSignature, "other s")
                var other = digest
                other[31] ^= 1
                XCTAssertEqual(verify(key, r: [r], s: s, digest: other, mulx: mulx), .badSignature, "other digest")
                XCTAssertEqual(
                    verify(key, r: nPlus3, s: s, digest: digest, mulx: mulx), .malformedSignature, "r = n + 3")
            }
        }
        // The two keys' signatures are not interchangeable.
        let key3 = try makeECKey(.p256, hexBytes(cases[0].key)).get()
        XCTAssertEqual(verify(key3, r: [4], s: s, digest: digest, mulx: true), .badSignature)
    }
}
