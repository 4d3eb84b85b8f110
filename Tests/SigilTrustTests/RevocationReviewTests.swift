import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// The revocation cases of the 2026-12-03 review (`Fixtures/revocation/review/`, made by
/// `Fixtures/scripts/gen_revocation_review.py` with Python `cryptography`; the expected verdicts
/// are the RFC rules its docstring and manifest name). Each failed before the fix it guards: the
/// flood and the self-vouching responder were trusted under soft fail / with a "good" OCSP answer.
final class RevocationReviewTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("revocation/review")
    func bytes(_ name: String) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(name).path) }
    func certs(_ name: String) throws -> [Certificate] { try Certificate.all(from: bytes(name)) }
    func cert(_ name: String) throws -> Certificate { try certs(name)[0] }
    func crls(_ names: [String]) throws -> [CertificateList] {
        try names.flatMap { try CertificateList.all(from: bytes($0)) }
    }
    let time = 1_767_225_600.0  // 2026-01-01T00:00:00Z (the manifest's verificationTime)

    func verifier() throws -> ChainVerifier {
        var store = TrustStore()
        store.add(try cert("root.pem"))
        return ChainVerifier(anchors: store)
    }

    /// RFC 5280 §6.3.3 (f): an indirect CRL's issuer is found among the certificates however
    /// many junk certificates of its name the peer sends first (the budget bounds the work). It
    /// revokes the leaf under hard and under soft fail; with four junk certificates it used to
    /// be "undetermined" (a per-CRL count of four candidates), which soft fail trusted.
    func testJunkCertificatesNamedLikeTheCRLIssuerDoNotHideItsCRL() throws {
        let bundle = try certs("flood/bundle.pem")
        XCTAssertEqual(bundle.count, 5)
        let leaf = bundle[0]
        let junk = Array(bundle.dropFirst())
        for j in junk { XCTAssertEqual(j.subject.rfc4514String, "CN=CRL Authority") }
        let authority = try cert("flood/authority.pem")
        let int = try cert("int.pem")
        let v = try verifier()
        for count in [0, 4, 12] {
            let presented = (0..<count).map { junk[$0 % junk.count] }
            for policy in [RevocationOptions.Policy.hardFail, .softFail] {
                var options = VerificationOptions(purpose: .server(host: "leaf.review.sigil.test"), time: time)
                options.revocation = RevocationOptions(
                    crls: try crls(["root.crl.pem", "flood/indirect.crl.pem"]), policy: policy)
                // The peer's certificates first, then the caller's (as `sigil verify` pools them).
                let result = v.verify(leaf: leaf, intermediates: presented + [int, authority], options: options)
                XCTAssertEqual(result.failures.first?.kind, .revoked, "\(count) junk, \(policy): \(result)")
            }
        }
        // Control: without the authority the CRL's signer is unknown: undetermined (hard fail).
        var options = VerificationOptions(purpose: .server(host: "leaf.review.sigil.test"), time: time)
        options.revocation = RevocationOptions(crls: try crls(["root.crl.pem", "flood/indirect.crl.pem"]))
        let result = v.verify(leaf: leaf, intermediates: junk + [int], options: options)
        XCTAssertEqual(result.failures.first?.kind, .revocationUndetermined, "\(result)")
    }

    /// RFC 6960 §4.2.2.2 / §4.2.2.2.1: a leaf that carries id-kp-OCSPSigning signs "good" about
    /// itself; the response is not used (undetermined under hard fail; trusted before the fix).
    func testAResponderDoesNotVouchForItsOwnKey() throws {
        let leaf = try cert("selfvouch/leaf.pem")
        let der = try bytes("selfvouch/self.ocsp.der")
        let response = try OCSPResponse(der: der)
        let status = response.status(
            of: leaf, issuer: try cert("int.pem"), at: time, verifier: SigilSignatureVerifier())
        guard case .undetermined(let why) = status else { return XCTFail("\(status)") }
        XCTAssertTrue(why.contains("cannot vouch for itself"), why)
        var options = VerificationOptions(purpose: .server(host: "leaf.review.sigil.test"), time: time)
        options.revocation = RevocationOptions(crls: try crls(["root.crl.pem"]), ocspResponses: [response])
        let result = try verifier().verify(leaf: leaf, intermediates: [try cert("int.pem")], options: options)
        XCTAssertEqual(result.failures.first?.kind, .revocationUndetermined, "\(result)")
    }

    /// `CertificateList.each(from:)`: a damaged block is its own failure; `all(from:)` throws.
    func testADamagedBlockLeavesTheOtherCRLsOfTheBundle() throws {
        let data = try bytes("bundle/int-bundle.crl.pem")
        let each = try CertificateList.each(from: data)
        XCTAssertEqual(each.count, 2)
        let first = try each[0].get()
        XCTAssertEqual(first.issuer.rfc4514String, "CN=Review Int")
        guard case .failure = each[1] else { return XCTFail("the empty SEQUENCE parsed") }
        XCTAssertThrowsError(try CertificateList.all(from: data))
        var options = VerificationOptions(purpose: .server(host: "leaf.review.sigil.test"), time: time)
        options.revocation = RevocationOptions(crls: try crls(["root.crl.pem"]) + [first])
        let result = try verifier().verify(
            leaf: try cert("bundle/leaf-revoked.pem"), intermediates: [try cert("int.pem")], options: options)
        XCTAssertEqual(result.failures.first?.kind, .revoked, "\(result)")
    }
}
