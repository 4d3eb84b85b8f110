import Foundation
import XCTest

@testable import SigilCrypto

/// The C kernels' exceptional additions (CSigilBignum/p256.c and p384.c: P + P must double,
/// P + (−P) is the point at infinity; with P-256's lazy reduction "zero" is 0 or p), reached
/// through public-key choices that make u1·G and u2·Q meet: Q = ±G or ±2G and (r, s, e) chosen so
/// that u1 = e/s and u2 = r/s are 1 or 2 (SEC 1 §4.1.4 steps 4–8). Cases and verdicts from
/// Scripts/gen_ec_exceptional.py (Python `cryptography`, OpenSSL: true for a valid signature,
/// InvalidSignature for R = infinity, step 7). Both product paths of each kernel are checked (with
/// and without MULX; the inlined MULX/ADX asm exists only in optimised builds: .ci/run's release
/// pass runs this, "ECDSA" in its name).
final class ECDSAExceptionalAdditionTests: XCTestCase {
    /// (what, Q as X9.62 uncompressed, r, s, e, valid)
    typealias Case = (String, String, String, String, String, Bool)

    /// `python3 Scripts/gen_ec_exceptional.py p256`
    static let p256Cases: [Case] = [
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
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c", false
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
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
            "5ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c",
            "bd97c9a34c66148991efdf2a3a97e2cbcd8d6e43df5b530bf682cc378dcffad8", false
        ),
    ]

    /// `python3 Scripts/gen_ec_exceptional.py p384`
    static let p384Cases: [Case] = [
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

    func check(_ curve: ECCurve, _ cases: [Case]) throws {
        for (what, q, r, s, e, valid) in cases {
            let key = try Self.bytes(q).withUnsafeBytes { (b) throws(CryptoError) in
                try ECDSAPublicKey(curve: curve, x963: b)
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
                    XCTAssertNil(error, "\(curve) \(what) mulx=\(mulx)")
                } else {
                    XCTAssertNotNil(error, "\(curve) \(what) mulx=\(mulx)")
                }
            }
        }
    }

    func testP256ExceptionalAdditionsAgainstPythonCryptography() throws {
        try check(.p256, Self.p256Cases)
    }

    func testP384ExceptionalAdditionsAgainstPythonCryptography() throws {
        try check(.p384, Self.p384Cases)
    }
}
