import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// The path builder's work budget on hostile inputs: limbo's pathological chains (100
/// intermediates sharing subject and/or key, no anchor) validated under the basic kind, where
/// no profile rule cuts the search short.
final class PathBuildingBudgetTests: XCTestCase {
    final class CountingVerifier: CertificateSignatureVerifier, @unchecked Sendable {
        let inner = SigilSignatureVerifier()
        let lock = NSLock()
        var calls = 0
        func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
            lock.lock(); calls += 1; lock.unlock()
            return inner.verifySignature(of: certificate, issuer: issuer)
        }
    }

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
                let result = chain.verify(leaf: leaf, intermediates: pool,
                                          options: VerificationOptions(kind: .basic, time: 1_700_000_000))
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
                print("\(c.id) [\(type(of: verifier))]: \(calls) signature checks, \(String(format: "%.1f", elapsed * 1000)) ms, \(result.failures.first?.kind.name ?? "")")
            }
        }
    }
}
