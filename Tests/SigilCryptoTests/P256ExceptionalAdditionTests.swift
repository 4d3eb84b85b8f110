import Foundation
import XCTest

@testable import SigilCrypto

/// The P-256 kernel's exceptional additions (CSigilBignum/p256.c: P + P must double, P + (−P) is
/// the point at infinity; with lazy reduction "zero" is 0 or p), reached through public-key
/// choices that make u1·G and u2·Q meet: Q = ±G or ±2G and (r, s, e) chosen so that u1 = e/s and
/// u2 = r/s are 1 or 2 (SEC 1 §4.1.4 steps 4–8). Verdicts from Python `cryptography` (OpenSSL):
/// `Q.verify(encode_dss_signature(r, s), e, ECDSA(Prehashed(SHA256())))` — true for a valid
/// signature, InvalidSignature for R = infinity (step 7). Both product kernels are checked.
final class P256ExceptionalAdditionTests: XCTestCase {
    /// (what, Q as X9.62 uncompressed, r, s, e, valid)
    static let cases: [(String, String, String, String, String, Bool)] = [
        (
            "Q=G,u1=u2=1 (G+G, mixed addition doubles)",
            "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
            "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978",
            "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978",
            "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978", true
        ),
        (
            "Q=G,u1=1,u2=2 (G+2G)",
            "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
            "2f65f268d3198522647bf7ca8ea5f8b2f3635b90f7d6d4c2fda0b30de373feb6",
            "2f65f268d3198522647bf7ca8ea5f8b2f3635b90f7d6d4c2fda0b30de373feb6", true
        ),
        (
            "Q=-G,u1=u2=1 (G-G = infinity, mixed addition)",
            "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a",
            "51590b7a515140d2d784c85608668fdfef8c82fd1f5be52421554a0dc3d033ed",
            "51590b7a515140d2d784c85608668fdfef8c82fd1f5be52421554a0dc3d033ed",
            "51590b7a515140d2d784c85608668fdfef8c82fd1f5be52421554a0dc3d033ed", false
        ),
        (
            "Q=-G,u1=2,u2=1 (2G-G)",
            "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a",
            "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            "d62fa3e5c258848ff179cdcac74881e4ee06fb025bd66741e942728bb131852c", true
        ),
        (
            "Q=2G,u1=2,u2=1 (2G+2G, Jacobian addition doubles)",
            "047cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc4766997807775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1",
            "e2534a3532d08fbba02dde659ee62bd0031fe2db785596ef509302446b030852",
            "e2534a3532d08fbba02dde659ee62bd0031fe2db785596ef509302446b030852",
            "c4a6946b65a11f76405bbccb3dcc57a04958cb0949938f59ad6c39c5d9a2eb53", true
        ),
        (
            "Q=-2G,u1=2,u2=1 (2G-2G = infinity, Jacobian addition)",
            "047cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978f888aaee24712fc0d6c26539608bcf244582521ac3167dd661fb4862dd878c2e",
            "8e533b6fa0bf7b4625bb30667c01fb607ef9f8b8a80fef5b300628703187b2a3",
            "8e533b6fa0bf7b4625bb30667c01fb607ef9f8b8a80fef5b300628703187b2a3",
            "1ca676e0417ef68b4b7660ccf803f6c1410cf6c3a90840316c52861d66ac3ff5", false
        ),
    ]

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = hex.utf8.makeIterator()
        while let a = it.next(), let b = it.next() {
            out.append(UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16)!)
        }
        return out
    }

    func testExceptionalAdditionsAgainstPythonCryptography() throws {
        for (what, q, r, s, e, valid) in Self.cases {
            let key = try Self.bytes(q).withUnsafeBytes { (b) throws(CryptoError) in
                try ECDSAPublicKey(curve: .p256, x963: b)
            }
            for mulx in [true, false] {
                let rb = Self.bytes(r)
                let sb = Self.bytes(s)
                let eb = Self.bytes(e)
                let error: CryptoError? = rb.withUnsafeBytes { rp in
                    sb.withUnsafeBytes { sp in
                        eb.withUnsafeBytes { ep -> CryptoError? in
                            do throws(CryptoError) {
                                try key.verify(r: rp, s: sp, digest: ep, p256UseMulx: mulx)
                                return nil
                            } catch {
                                return error
                            }
                        }
                    }
                }
                if valid {
                    XCTAssertNil(error, "\(what) mulx=\(mulx)")
                } else {
                    XCTAssertNotNil(error, "\(what) mulx=\(mulx)")
                }
            }
        }
    }
}
