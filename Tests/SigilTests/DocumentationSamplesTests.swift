import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// The code samples of the DocC catalog (Sources/Sigil/Sigil.docc) and of the doc comments that
/// carry one, copied verbatim into functions here so that they keep compiling against the
/// current API; each is then run on a fixture chain and its outcome checked. (The SwiftNIO
/// samples of TLSRecipes.md are the ones Tests/SigilNIOTests/RecipesTests.swift runs.)
/// Fixture: Fixtures/chains/valid-rsa2048 (leaf `leaf.rsa2048.sigil.test`, one intermediate,
/// its root; valid in 2030), made by openssl (Fixtures/chains/README).
final class DocumentationSamplesTests: XCTestCase {
    static let at2030 = 1_893_456_000.0

    func chain() throws -> (leaf: Certificate, intermediate: Certificate, root: Certificate) {
        let folder = TestSupport.fixtures.appendingPathComponent("chains/valid-rsa2048")
        func one(_ name: String) throws -> Certificate {
            try Certificate.all(from: TestSupport.read(folder.appendingPathComponent(name).path))[0]
        }
        return (try one("leaf.pem"), try one("intermediates.pem"), try one("anchors.pem"))
    }

    // MARK: Sigil.md (overview)

    /// Sigil.md's sample, verbatim except that it returns what it prints.
    func overviewSample(_ presented: [Certificate]) -> String {
        let trust = CertificateTrust(
            certificates: presented,  // leaf first
            policies: [.server(host: "api.example.com")])  // now, system roots
        switch trust.verify() {
        case .trusted(let path, let anchor, _):
            return "trusted via a \(anchor) anchor: \(path.map(\.subject.rfc4514String))"
        case .untrusted(let failures):
            return "not trusted: \(failures.first!)"  // ranked: the most informative first
        }
    }

    func testOverviewSample() throws {
        let c = try chain()
        // The fixture's root is in no system store, and the name is not the leaf's.
        XCTAssertTrue(overviewSample([c.leaf, c.intermediate]).hasPrefix("not trusted: "))
        // What the sample relies on, with the fixture's root as the caller's anchor and its name:
        // the path runs leaf → anchor and the anchor source is reported.
        var trust = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.server(host: "leaf.rsa2048.sigil.test")],
            time: Self.at2030)
        trust.anchors = [c.root]
        guard case .trusted(let path, let anchor, _) = trust.verify() else { return XCTFail("\(trust.verify())") }
        XCTAssertEqual(path, [c.leaf, c.intermediate, c.root])
        XCTAssertEqual(anchor, .custom)
        // The sample's own host: refused, and the first (highest-ranked) failure is the name.
        trust.overrideHost("api.example.com")
        XCTAssertEqual(trust.verify().failures.first?.kind, .nameMismatch)
    }

    // MARK: TLSRecipes.md (without a TLS stack)

    /// TLSRecipes.md, "Without a TLS stack", verbatim.
    func verifyServer(_ presentedDER: [[UInt8]], host: String) -> Bool {
        guard let chain = try? presentedDER.map({ try Certificate(der: $0) }) else { return false }
        let trust = CertificateTrust(certificates: chain, policies: [.server(host: host)])
        return trust.verify().isTrusted
    }

    func testVerifyServerSample() throws {
        let c = try chain()
        // System roots only: the fixture's private root is not among them.
        XCTAssertFalse(verifyServer([c.leaf.der, c.intermediate.der], host: "leaf.rsa2048.sigil.test"))
        // A certificate that does not parse refuses the chain (a truncated leaf).
        XCTAssertFalse(
            verifyServer([Array(c.leaf.der.dropLast()), c.intermediate.der], host: "leaf.rsa2048.sigil.test"))
        XCTAssertFalse(verifyServer([], host: "leaf.rsa2048.sigil.test"))
    }

    // MARK: CertificateTrust's doc comment (SecTrust equivalents)

    func testCertificateTrustDocComment() throws {
        let c = try chain()
        let presented = [c.leaf, c.intermediate]
        let now = Self.at2030
        let companyRoot = c.root
        var used: [Certificate] = []
        func use(_ chain: [Certificate]) { used = chain }
        // Verbatim from the comment, but for the host (the fixture's name):
        var trust = CertificateTrust(
            certificates: presented, policies: [.server(host: "leaf.rsa2048.sigil.test")],
            time: now, signatureVerifier: SigilSignatureVerifier(),
            systemAnchors: .system())
        trust.anchors = [companyRoot]  // SecTrustSetAnchorCertificates
        trust.anchorsOnly = false  // SecTrustSetAnchorCertificatesOnly(trust, false)
        let evaluation = trust.evaluate()  // SecTrustEvaluate
        if evaluation.result.isTrusted { use(evaluation.chain) }
        XCTAssertEqual(used, [c.leaf, c.intermediate, c.root])
        XCTAssertEqual(
            evaluation.result, .proceed, "a caller's anchor gives proceed (SecTrust's kSecTrustResultProceed)")
    }
}
