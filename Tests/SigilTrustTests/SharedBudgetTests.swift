import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// One `VerificationBudget` for the whole verification: the certificate policy work (RFC 5280
/// §6.1) and the revocation work (CRL and OCSP signatures, RFC 5280 §6.3 / RFC 6960) are charged
/// to it, as rustls-webpki's `Budget` — running out anywhere is `budgetExhausted`, never trusted,
/// whatever the revocation policy.
///
/// Independent sources: the fixtures' verdicts with the standard budget are OpenSSL's (the
/// manifests of `Fixtures/scripts/gen_policies.py` and `gen_revocation.py`); the signature counts
/// come from the fixtures' structure (a leaf ← intermediate ← root path needs two certificate
/// signatures; each CRL or OCSP response one more, a delegated responder's certificate one more).
final class SharedBudgetTests: XCTestCase {
    // MARK: policy work

    static func hostileTrust(budget: VerificationBudget) throws -> CertificateTrust {
        let h = try CertificatePolicyTests.manifest().hostile
        var trust = CertificateTrust(
            certificates: try CertificatePolicyTests.certs(h.name, "leaf.pem")
                + CertificatePolicyTests.certs(h.name, "intermediates.pem"),
            policies: [.basic], time: h.at, signatureVerifier: SigilSignatureVerifier(),
            systemAnchors: TrustStore())
        trust.anchors = try CertificatePolicyTests.certs(h.name, "root.pem")
        trust.certificatePolicies.userInitialPolicySet = CertificatePolicyTests.oids(h.policies)
        trust.certificatePolicies.initialExplicitPolicy = h.explicit
        trust.budget = budget
        return trust
    }

    /// The CVE-2023-0464-shaped chain (OpenSSL gives up on it too) exhausts the policy work of
    /// the standard budget and of a small one, through the one evaluator; the failure reports
    /// the policy work spent. With a large policy allowance the same chain validates (2.999.10.0
    /// maps down to the leaf's policy), so it is the budget, not the chain, that refuses.
    func testHostilePolicyChainExhaustsTheVerificationBudget() throws {
        XCTAssertNotEqual(try CertificatePolicyTests.manifest().hostile.opensslExitCode, 0)
        for budget in [VerificationBudget.standard, VerificationBudget(policyTreeWork: 500)] {
            let e = try Self.hostileTrust(budget: budget).evaluate()
            XCTAssertFalse(e.isTrusted)
            XCTAssertEqual(e.failures.first?.kind, .budgetExhausted, "\(e.failures)")
            let message = e.failures.map(\.message).joined(separator: " | ")
            XCTAssertTrue(message.contains("certificate policy work units"), message)
            XCTAssertTrue(message.contains("certificate policy processing exceeded"), message)
        }
        let e = try Self.hostileTrust(budget: VerificationBudget(policyTreeWork: 1 << 20)).evaluate()
        XCTAssertTrue(e.isTrusted, "\(e.failures)")
    }

    /// The policy allowance is one value for the whole verification: a benign explicit-policy
    /// path (OpenSSL: valid) fails closed with a budget of 3 units, and the other counters do
    /// not restore it.
    func testSmallPolicyAllowanceFailsClosed() throws {
        let ok = try CertificatePolicyTests.verify(
            "explicit-match", policies: ["2.999.1.1"], explicit: true, at: 1_893_456_000)
        XCTAssertTrue(ok.isTrusted, "\(ok.failures)")
        let r = try CertificatePolicyTests.verify(
            "explicit-match", policies: ["2.999.1.1"], explicit: true, at: 1_893_456_000,
            budget: VerificationBudget(
                signatureChecks: 1000, candidateVisits: 100_000,
                policyTreeWork: 3))
        XCTAssertFalse(r.isTrusted)
        XCTAssertEqual(r.failures.first?.kind, .budgetExhausted, "\(r.failures)")
    }

    // MARK: revocation work

    static let revocation = TestSupport.fixtures.appendingPathComponent("revocation")
    /// `verificationTime` of Fixtures/revocation/manifest.json.
    static let revocationTime = 1795630260.0

    func cert(_ name: String) throws -> Certificate {
        try Certificate.all(from: TestSupport.read(Self.revocation.appendingPathComponent(name).path))[0]
    }

    func revocationTrust(leaf: String, revocation: RevocationOptions, signatureChecks: Int) throws -> CertificateTrust {
        var trust = CertificateTrust(
            certificates: [try cert(leaf), try cert("int.pem")], policies: [.basic],
            time: Self.revocationTime, signatureVerifier: SigilSignatureVerifier(),
            systemAnchors: TrustStore())
        trust.anchors = [try cert("root.pem")]
        trust.options.revocation = revocation
        trust.budget = VerificationBudget(signatureChecks: signatureChecks)
        return trust
    }

    func crls(_ names: [String]) throws -> [CertificateList] {
        try names.flatMap {
            try CertificateList.all(from: TestSupport.read(Self.revocation.appendingPathComponent($0).path))
        }
    }

    /// Scenario "good" (OpenSSL `-crl_check_all`: OK): two certificate signatures and two CRL
    /// signatures (int.crl for the leaf, root.crl for the intermediate). Four checks suffice;
    /// with three the CRL check runs out — `budgetExhausted` under hard fail and under soft
    /// fail alike (a peer must not skip revocation by spending the budget first).
    func testCRLSignaturesComeOutOfTheVerificationBudget() throws {
        let crls = try crls(["root.crl.pem", "int.crl.pem"])
        for policy in [RevocationOptions.Policy.hardFail, .softFail] {
            let r = RevocationOptions(crls: crls, policy: policy)
            let enough = try revocationTrust(leaf: "leaf-good.pem", revocation: r, signatureChecks: 4).evaluate()
            XCTAssertTrue(enough.isTrusted, "\(policy): \(enough.failures)")
            for n in [2, 3] {
                let e = try revocationTrust(leaf: "leaf-good.pem", revocation: r, signatureChecks: n).evaluate()
                XCTAssertFalse(e.isTrusted, "\(policy) \(n)")
                XCTAssertEqual(e.failures.first?.kind, .budgetExhausted, "\(policy) \(n): \(e.failures)")
                XCTAssertTrue(
                    e.failures.contains { $0.message.contains("revocation checking ran out") }, "\(e.failures)")
            }
        }
    }

    /// OCSP: a response signed by the issuer costs one signature check, one signed by a
    /// delegated responder two (the responder certificate's and the response's).
    func testOCSPSignaturesComeOutOfTheVerificationBudget() throws {
        for (response, cost) in [("ocsp-good.ocsp.der", 1), ("ocsp-delegated.ocsp.der", 2)] {
            var r = RevocationOptions(
                ocspResponses: [
                    try OCSPResponse(der: TestSupport.read(Self.revocation.appendingPathComponent(response).path))
                ],
                policy: .softFail)
            r.scope = .leafOnly
            let enough = try revocationTrust(leaf: "leaf-good.pem", revocation: r, signatureChecks: 2 + cost).evaluate()
            XCTAssertTrue(enough.isTrusted, "\(response): \(enough.failures)")
            guard case .trusted(_, _, let details) = enough.trustResult else { continue }
            XCTAssertEqual(
                details.revocation, [CertificateRevocationStatus(certificateIndex: 0, status: .good, source: .ocsp)])
            let short = try revocationTrust(leaf: "leaf-good.pem", revocation: r, signatureChecks: 2 + cost - 1)
                .evaluate()
            XCTAssertFalse(short.isTrusted, response)
            XCTAssertEqual(short.failures.first?.kind, .budgetExhausted, "\(response): \(short.failures)")
        }
    }

    /// A separate CRL signer's own path validation (scenario "separate-crl-signer", OpenSSL
    /// `-extended_crl`: OK) is charged to the same budget: with only the path's own signature
    /// checks left nothing remains for it, and the verification fails closed.
    func testSeparateCRLSignerPathIsChargedToTheBudget() throws {
        let r = RevocationOptions(crls: try crls(["root.crl.pem", "int-wrongkey.crl.pem"]), policy: .softFail)
        func trust(_ n: Int) throws -> CertificateTrust {
            var t = try revocationTrust(leaf: "leaf-good.pem", revocation: r, signatureChecks: n)
            t.certificates.append(try cert("evil-int.pem"))
            return t
        }
        XCTAssertTrue(try trust(100).evaluate().isTrusted)
        let e = try trust(3).evaluate()
        XCTAssertFalse(e.isTrusted)
        XCTAssertEqual(e.failures.first?.kind, .budgetExhausted, "\(e.failures)")
    }
}
