import Foundation
import XCTest

@testable import SigilCrypto

/// The P-384 kernel's exceptional additions (CSigilBignum/p384.c: P + P must double, P + (−P) is
/// the point at infinity), reached through public-key choices that make u1·G and u2·Q meet:
/// Q = ±G or ±2G and (r, s, e) chosen so that u1 = e/s and u2 = r/s are 1 or 2 (SEC 1 §4.1.4
/// steps 4–8). Cases and verdicts from Scripts/gen_p384_exceptional.py (Python `cryptography`,
/// OpenSSL: true for a valid signature, InvalidSignature for R = infinity, step 7). Both builds
/// of the kernel are checked (with and without MULX; .ci/run's release pass runs this, "ECDSA"
/// in its name).
final class ECDSAP384ExceptionalAdditionTests: XCTestCase {
    /// (what, Q as X9.62 uncompressed, r, s, e, valid)
    static let cases: [(String, String, String, String, String, Bool)] = [
        (
            "Q=G,u1=u2=1 (G+G, mixed addition doubles)",
            "04aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab73617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
            "08d999057ba3d2d969260045c55b97f089025959a6f434d651d207d19fb96e9e4fe0e86ebe0e64f85b96a9c75295df61",
            "08d999057ba3d2d969260045c55b97f089025959a6f434d651d207d19fb96e9e4fe0e86ebe0e64f85b96a9c75295df61",
            "08d999057ba3d2d969260045c55b97f089025959a6f434d651d207d19fb96e9e4fe0e86ebe0e64f85b96a9c75295df61", true
        ),
        (
            "Q=G,u1=1,u2=2 (G+2G)",
            "04aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab73617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
            "83bd20ea3037fd0a323c9e3f2fee3ecc65ce9c881016e68343041fe163c6cdc3061164b04c6b7fc3f7e1ff98e8e2f8d2",
            "83bd20ea3037fd0a323c9e3f2fee3ecc65ce9c881016e68343041fe163c6cdc3061164b04c6b7fc3f7e1ff98e8e2f8d2", true
        ),
        (
            "Q=-G,u1=u2=1 (G-G = infinity, mixed addition)",
            "04aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7c9e821b569d9d390a26167406d6d23d6070be242d765eb831625ceec4a0f473ef59f4e30e2817e6285bce2846f15f1a0",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831", false
        ),
        (
            "Q=-G,u1=2,u2=1 (2G-G)",
            "04aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7c9e821b569d9d390a26167406d6d23d6070be242d765eb831625ceec4a0f473ef59f4e30e2817e6285bce2846f15f1a0",
            "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
            "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
            "550f94457d160a6f1d638e3de6415ae8dc3a76c5174f3730ec8b363f1071269151ebd70935f9ab5d87bca3061826ebfb", true
        ),
        (
            "Q=2G,u1=2,u2=1 (2G+2G, Jacobian addition doubles)",
            "0408d999057ba3d2d969260045c55b97f089025959a6f434d651d207d19fb96e9e4fe0e86ebe0e64f85b96a9c75295df618e80f1fa5b1b3cedb7bfe8dffd6dba74b275d875bc6cc43e904e505f256ab4255ffd43e94d39e22d61501e700a940e80",
            "138251cd52ac9298c1c8aad977321deb97e709bd0b4ca0aca55dc8ad51dcfc9d1589a1597e3a5120e1efd631c63e1835",
            "138251cd52ac9298c1c8aad977321deb97e709bd0b4ca0aca55dc8ad51dcfc9d1589a1597e3a5120e1efd631c63e1835",
            "2704a39aa5592531839155b2ee643bd72fce137a169941594abb915aa3b9f93a2b1342b2fc74a241c3dfac638c7c306a", true
        ),
        (
            "Q=-2G,u1=2,u2=1 (2G-2G = infinity, Jacobian addition)",
            "0408d999057ba3d2d969260045c55b97f089025959a6f434d651d207d19fb96e9e4fe0e86ebe0e64f85b96a9c75295df61717f0e05a4e4c312484017200292458b4d8a278a43933bc16fb1afa0da954bd9a002bc15b2c61dd29eafe190f56bf17f",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
            "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
            "0ef483a8c0dff428c8f278fcbfb8fb31973a7220405b9a0d7d49e481a6acdb4d6811775ca04cb01a05afcb8e0a019062", false
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
                try ECDSAPublicKey(curve: .p384, x963: b)
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
