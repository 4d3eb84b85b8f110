import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// The path builder's work budget on hostile inputs: limbo's pathological chains (100
/// intermediates sharing subject and/or key, no anchor) validated under the basic kind, where
/// no profile rule cuts the search short.
final class PathBuildingBudgetTests: XCTestCase {
    /// Always "valid": the worst case for a path builder (every same-subject candidate chains).
    final class AlwaysValid: CertificateSignatureVerifier, @unchecked Sendable {
        var calls = 0
        func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
            calls += 1
            return .valid
        }
    }

    struct Case: Decodable {
        let id: String
        let trusted_certs: [String]
        let untrusted_intermediates: [String]
        let peer_certificate: String
    }

    static func limboCases(prefix: String) throws -> [Case]? {
        guard let data = try TestSupport.limboSuiteJSON() else { return nil }
        struct Suite: Decodable { let testcases: [Case] }
        return try JSONDecoder().decode(Suite.self, from: data).testcases.filter { $0.id.hasPrefix(prefix) }
    }

    func pem(_ s: String) throws -> Certificate { try Certificate.all(from: Array(s.utf8))[0] }

    func testPathologicalChainsStayWithinBudget() throws {
        guard let cases = try Self.limboCases(prefix: "pathological::pathological-chain") else {
            print("SKIPPED: x509-limbo suite not found (../shared/vectors or $SIGIL_VECTORS)")
            return
        }
        XCTAssertEqual(cases.count, 4)
        for c in cases {
            let leaf = try pem(c.peer_certificate)
            let pool = try c.untrusted_intermediates.map(pem)
            var store = TrustStore()
            for a in c.trusted_certs { store.add(try pem(a)) }
            for verifier in [CountingVerifier() as CertificateSignatureVerifier, AlwaysValid()] {
                let chain = ChainVerifier(anchors: store, signatureVerifier: verifier)
                let start = Date()
                let result = chain.verify(
                    leaf: leaf, intermediates: pool,
                    options: VerificationOptions(purpose: .basic, time: 1_700_000_000))
                let elapsed = Date().timeIntervalSince(start)
                XCTAssertFalse(result.isTrusted, c.id)
                if verifier is AlwaysValid {
                    // Pure path-building work (no cryptography): bounded by the visit budget.
                    // With real signatures the bound is the signature budget below; the release
                    // CLI runs each of these cases in well under 0.2 s (see the limbo run).
                    XCTAssertLessThan(elapsed, 1.0, "\(c.id) took \(elapsed) s")
                }
                let calls = (verifier as? CountingVerifier)?.calls ?? (verifier as! AlwaysValid).calls
                XCTAssertLessThanOrEqual(calls, ChainVerifier.maximumSignatureChecks, c.id)
                print(
                    "\(c.id) [\(type(of: verifier))]: \(calls) signature checks, \(String(format: "%.1f", elapsed * 1000)) ms, \(result.failures.first?.kind.name ?? "")"
                )
            }
        }
    }

    /// One budget for the whole verification: limbo's name-constraint DoS chains (thousands of
    /// constraints × thousands of names, far beyond the 250 000 comparisons of the single
    /// budget) fail closed as `budgetExhausted`, quickly.
    func testNameConstraintDoSExhaustsTheOneBudget() throws {
        guard let cases = try Self.limboCases(prefix: "pathological::nc-dos") else {
            print("SKIPPED: x509-limbo suite not found (../shared/vectors or $SIGIL_VECTORS)")
            return
        }
        XCTAssertEqual(cases.count, 3)
        for c in cases {
            var store = TrustStore()
            for a in c.trusted_certs { store.add(try pem(a)) }
            let start = Date()
            let result = ChainVerifier(anchors: store, signatureVerifier: AlwaysValid())
                .verify(
                    leaf: try pem(c.peer_certificate), intermediates: try c.untrusted_intermediates.map(pem),
                    options: VerificationOptions(purpose: .basic, time: 1_700_000_000))
            XCTAssertFalse(result.isTrusted, c.id)
            XCTAssertEqual(
                result.failures.first { $0.kind == .budgetExhausted }?.kind, .budgetExhausted,
                "\(c.id): \(result.failures)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2.0, c.id)
        }
    }

    /// The verifier's budget is the one the name-constraint checks charge: a chain limbo
    /// expects to validate (rfc5280::nc::permitted-dns-match) does with the standard budget,
    /// and exhausts a budget of one comparison.
    func testNameConstraintComparisonsComeOutOfTheVerifierBudget() throws {
        guard
            let c = try Self.limboCases(prefix: "rfc5280::nc::permitted-dns-match")?.first(where: {
                $0.id == "rfc5280::nc::permitted-dns-match"
            })
        else {
            print("SKIPPED: x509-limbo suite not found (../shared/vectors or $SIGIL_VECTORS)")
            return
        }
        var store = TrustStore()
        for a in c.trusted_certs { store.add(try pem(a)) }
        var verifier = ChainVerifier(anchors: store)
        let leaf = try pem(c.peer_certificate)
        let options = VerificationOptions(purpose: .server(host: "example.com"), time: 1_700_000_000)
        XCTAssertTrue(verifier.verify(leaf: leaf, intermediates: [], options: options).isTrusted)
        verifier.budget.nameConstraintComparisons = 1
        let r = verifier.verify(leaf: leaf, intermediates: [], options: options)
        XCTAssertFalse(r.isTrusted)
        XCTAssertTrue(r.failures.contains { $0.kind == .budgetExhausted }, "\(r.failures)")
    }
}
