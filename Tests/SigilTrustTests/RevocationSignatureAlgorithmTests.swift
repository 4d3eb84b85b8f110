import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// The signature algorithm restriction (`AlgorithmPolicy.allowedSignatureAlgorithms`, the CLI's
/// `--sig-alg`) applies to revocation data as to certificates: a CRL or OCSP response signed
/// with an algorithm outside it is not used, so the status is undetermined and hard fail
/// refuses the path. Fixtures: `Fixtures/revocation/sigalg/` (`gen_revocation.py`); the
/// algorithm names and the verdicts without a restriction are openssl's, from its manifest.
final class RevocationSignatureAlgorithmTests: XCTestCase {
    struct Manifest: Decodable {
        struct Signed: Decodable {
            let file: String
            let signatureAlgorithm: String
        }
        let verificationTime: Int64
        let leafSignatureAlgorithm: String
        let crls: [Signed]
        let ocspResponses: [Signed]
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("revocation/sigalg")
    /// openssl's names → Sigil's.
    static let names: [String: SignatureAlgorithmName] = [
        "ecdsa-with-SHA256": .ecdsaWithSHA256, "ecdsa-with-SHA384": .ecdsaWithSHA384,
    ]

    func bytes(_ name: String) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(name).path) }

    func manifest() throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
    }

    func verify(_ m: Manifest, revocation: RevocationOptions, allowed: Set<SignatureAlgorithmName>?) throws
        -> TrustResult
    {
        var store = TrustStore()
        store.add(try Certificate.all(from: bytes("root.pem"))[0])
        var options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
        options.revocation = revocation
        options.algorithms.allowedSignatureAlgorithms = allowed
        return ChainVerifier(anchors: store).verify(
            leaf: try Certificate.all(from: bytes("leaf.pem"))[0], intermediates: [], options: options)
    }

    /// Each CRL and OCSP response: accepted without a restriction (openssl: OK) and with one
    /// admitting its algorithm; with a restriction to the leaf's algorithm only, a source signed
    /// otherwise is refused — undetermined, which hard fail turns into `revocationUndetermined`.
    func testRestrictionAppliesToCRLsAndOCSPResponses() throws {
        let m = try manifest()
        let leafAlg = try XCTUnwrap(Self.names[m.leafSignatureAlgorithm])
        var refused = 0
        for (signed, isCRL) in m.crls.map({ ($0, true) }) + m.ocspResponses.map({ ($0, false) }) {
            let alg = try XCTUnwrap(Self.names[signed.signatureAlgorithm], signed.signatureAlgorithm)
            let r =
                isCRL
                ? RevocationOptions(crls: try CertificateList.all(from: bytes(signed.file)), policy: .hardFail)
                : RevocationOptions(ocspResponses: [try OCSPResponse(der: bytes(signed.file))], policy: .hardFail)
            let open = try verify(m, revocation: r, allowed: nil)
            XCTAssertTrue(open.isTrusted, "\(signed.file): \(open.failures)")
            let admitted = try verify(m, revocation: r, allowed: [leafAlg, alg])
            XCTAssertTrue(admitted.isTrusted, "\(signed.file): \(admitted.failures)")
            let only = try verify(m, revocation: r, allowed: [leafAlg])
            if alg == leafAlg {
                XCTAssertTrue(only.isTrusted, "\(signed.file): \(only.failures)")
            } else {
                refused += 1
                XCTAssertFalse(only.isTrusted, signed.file)
                XCTAssertEqual(only.failures.first?.kind, .revocationUndetermined, "\(signed.file): \(only.failures)")
                XCTAssertTrue(
                    only.failures.first?.message.contains("not an allowed signature algorithm") == true,
                    "\(only.failures)")
                // Soft fail: reported, not refused.
                var soft = r
                soft.policy = .softFail
                let s = try verify(m, revocation: soft, allowed: [leafAlg])
                guard case .trusted(_, _, let details) = s else { return XCTFail("\(signed.file): \(s.failures)") }
                XCTAssertEqual(details.revocation.first?.status.name, "undetermined", signed.file)
            }
        }
        XCTAssertEqual(refused, 2)  // the SHA-384 CRL and the SHA-384 OCSP response
    }
}
