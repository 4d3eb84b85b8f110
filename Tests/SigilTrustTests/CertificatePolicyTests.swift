import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

@testable import SigilX509

/// RFC 5280 §6.1 certificate policy processing: the scenarios of `Fixtures/policies/` (generated
/// by `Fixtures/scripts/gen_policies.py`, each verdict and policy set being what
/// `openssl verify -policy_check -policy_print` answered), the CVE-2023-0464-shaped hostile chain,
/// and the tree's bound on synthetic inputs.
final class CertificatePolicyTests: XCTestCase {
    struct Manifest: Decodable {
        struct Scenario: Decodable {
            let name: String
            let description: String
            let policies: [String]
            let explicit: Bool
            let inhibitMap: Bool
            let inhibitAny: Bool
            let at: Double
            let expected: String
            let opensslError: String?
            let userPolicies: [String]?
            let authorityPolicies: [String]?
        }
        struct Hostile: Decodable {
            let name: String
            let policies: [String]
            let explicit: Bool
            let at: Double
            let opensslExitCode: Int
        }
        let scenarios: [Scenario]
        let hostile: Hostile
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("policies")

    static func manifest() throws -> Manifest {
        try JSONDecoder().decode(
            Manifest.self, from: Data(try TestSupport.read(dir.appendingPathComponent("manifest.json").path)))
    }

    static func certs(_ scenario: String, _ file: String) throws -> [Certificate] {
        try Certificate.all(
            from: try TestSupport.read(dir.appendingPathComponent(scenario).appendingPathComponent(file).path))
    }

    static func oids(_ dotted: [String]) -> [[UInt8]] { dotted.map { DERValue.objectIdentifierContent(dotted: $0)! } }

    static func verify(
        _ scenario: String, policies: [String], explicit: Bool, inhibitMap: Bool = false,
        inhibitAny: Bool = false, at: Double, maximumWork: Int? = nil,
        budget: VerificationBudget = .standard
    ) throws -> TrustResult {
        var store = TrustStore()
        for a in try certs(scenario, "root.pem") { store.add(a) }
        var options = VerificationOptions(purpose: .basic, time: at)
        if !policies.isEmpty { options.certificatePolicies.userInitialPolicySet = oids(policies) }
        options.certificatePolicies.initialExplicitPolicy = explicit
        options.certificatePolicies.initialPolicyMappingInhibit = inhibitMap
        options.certificatePolicies.initialAnyPolicyInhibit = inhibitAny
        var verifier = ChainVerifier(anchors: store)
        verifier.budget = budget
        if let w = maximumWork { verifier.budget.policyTreeWork = w }
        return verifier.verify(
            leaf: try certs(scenario, "leaf.pem")[0],
            intermediates: try certs(scenario, "intermediates.pem"), options: options)
    }

    /// Every scenario: Sigil's verdict is OpenSSL's, and so are the printed policy sets.
    func testScenariosMatchOpenSSL() throws {
        let m = try Self.manifest()
        XCTAssertGreaterThanOrEqual(m.scenarios.count, 20)
        var trusted = 0
        for s in m.scenarios {
            let r = try Self.verify(
                s.name, policies: s.policies, explicit: s.explicit, inhibitMap: s.inhibitMap,
                inhibitAny: s.inhibitAny, at: s.at)
            XCTAssertEqual(r.isTrusted, s.expected == "trusted", "\(s.name): \(s.description) → \(r.failures)")
            switch r {
            case .trusted(let path, _, let details):
                trusted += 1
                // The verifier's sets (computed lazily when the path could not fail) are the
                // eager tree's on the same path.
                var o = CertificatePolicyOptions()
                if !s.policies.isEmpty { o.userInitialPolicySet = Self.oids(s.policies) }
                o.initialExplicitPolicy = s.explicit
                o.initialPolicyMappingInhibit = s.inhibitMap
                o.initialAnyPolicyInhibit = s.inhibitAny
                var budget = 1 << 20
                let eager = PolicyTree.evaluate(
                    try path.dropLast().reversed().map { try PolicyCertificate($0) }, options: o, budget: &budget)
                if case .success(let e) = eager {
                    XCTAssertEqual(e, details.policies, s.name)
                    XCTAssertEqual(e.userConstrainedDotted, details.policies.userConstrainedDotted, s.name)
                } else {
                    XCTFail("\(s.name): eager evaluation failed")
                }
                if let auth = s.authorityPolicies {
                    XCTAssertEqual(
                        Set(details.policies.authoritiesConstrainedDotted), Set(auth),
                        "\(s.name) authorities-constrained")
                }
                if let user = s.userPolicies {
                    XCTAssertEqual(Set(details.policies.userConstrainedDotted), Set(user), "\(s.name) user-constrained")
                }
            case .untrusted(let failures):
                // OpenSSL's reasons: "no explicit policy" or "invalid or inconsistent certificate
                // policy extension" — both are Sigil's invalidPolicy.
                XCTAssertNotNil(s.opensslError, s.name)
                XCTAssertEqual(failures.first?.kind, .invalidPolicy, "\(s.name): \(failures)")
            }
        }
        XCTAssertGreaterThan(trusted, 5)
        XCTAssertLessThan(trusted, m.scenarios.count - 5)
    }

    /// Today's behaviour is kept: the default options (any policy, nothing explicit) accept a
    /// chain whose policies do not meet at all.
    func testDefaultOptionsDoNotRequirePolicies() throws {
        let m = try Self.manifest()
        for name in [
            "explicit-mismatch", "explicit-leaf-without-policies", "mapping-user-inhibited", "user-inhibit-any",
        ] {
            let s = try XCTUnwrap(m.scenarios.first { $0.name == name })
            XCTAssertEqual(s.expected, "untrusted")
            XCTAssertTrue(try Self.verify(name, policies: [], explicit: false, at: s.at).isTrusted, name)
        }
    }

    /// CVE-2023-0464 shape: six intermediates each mapping 48 policies onto 48 others (an RFC
    /// tree of 48^6 nodes; OpenSSL 3.0.19 gives up too). Sigil must fail closed with its budget —
    /// asserted on the failure kind, not on a time.
    func testHostileMappingChainFailsClosedOnBudget() throws {
        let h = try Self.manifest().hostile
        XCTAssertNotEqual(h.opensslExitCode, 0)
        let r = try Self.verify(h.name, policies: h.policies, explicit: h.explicit, at: h.at)
        XCTAssertFalse(r.isTrusted)
        XCTAssertTrue(r.failures.contains { $0.kind == .budgetExhausted }, "\(r.failures)")
        XCTAssertTrue(r.failures.contains { $0.message.contains("certificate policy processing") }, "\(r.failures)")
        // Without an explicit requirement the budget still binds: the tree is built either way.
        let r2 = try Self.verify(h.name, policies: [], explicit: false, at: h.at)
        XCTAssertTrue(r2.failures.contains { $0.kind == .budgetExhausted }, "\(r2.failures)")
        // With enough budget the same chain is valid (policy 2.999.10.0 maps down to the leaf's).
        let r3 = try Self.verify(h.name, policies: h.policies, explicit: true, at: h.at, maximumWork: 1 << 20)
        XCTAssertTrue(r3.isTrusted, "\(r3.failures)")
    }

    // MARK: the tree on synthetic input

    static func span(_ dotted: String) -> ByteSpan {
        let b = DERValue.objectIdentifierContent(dotted: dotted)!
        return ByteSpan(b, 0, b.count)
    }

    /// N policies per certificate, each mapped onto all N of the next certificate, `depth` CAs.
    static func exponential(n: Int, depth: Int) -> [PolicyCertificate] {
        var path: [PolicyCertificate] = []
        for level in 0..<depth {
            let mine = (0..<n).map { span("2.999.\(level).\($0)") }
            let next = (0..<n).map { span("2.999.\(level + 1).\($0)") }
            var maps: [(issuer: ByteSpan, subject: ByteSpan)] = []
            for a in mine { for b in next { maps.append((a, b)) } }
            path.append(PolicyCertificate(policies: mine, mappings: maps))
        }
        path.append(PolicyCertificate(policies: [span("2.999.\(depth).0")]))
        return path
    }

    func testExponentialMappingsExhaustTheDefaultBudget() {
        // 100 policies mapped all-to-all over 8 CAs: 10^16 nodes in an RFC tree.
        let path = Self.exponential(n: 100, depth: 8)
        var budget = VerificationBudget.defaultPolicyTreeWork
        var o = CertificatePolicyOptions()
        o.initialExplicitPolicy = true
        switch PolicyTree.evaluate(path, options: o, budget: &budget) {
        case .success: XCTFail("must exhaust the budget")
        case .failure(let f): XCTAssertEqual(f.kind, .budgetExhausted)
        }
        XCTAssertLessThan(budget, 0)
    }

    func testDAGStaysLinear() {
        // 8 policies all-to-all over 6 CAs: an RFC tree would hold 8^6 = 262 144 leaves; the DAG
        // costs a few thousand units, and the result is the RFC's.
        let path = Self.exponential(n: 8, depth: 6)
        var budget = 10_000
        var o = CertificatePolicyOptions()
        o.userInitialPolicySet = [DERValue.objectIdentifierContent(dotted: "2.999.0.3")!]
        o.initialExplicitPolicy = true
        guard case .success(let p) = PolicyTree.evaluate(path, options: o, budget: &budget) else {
            return XCTFail("valid")
        }
        XCTAssertGreaterThan(budget, 0)
        XCTAssertEqual(p.authoritiesConstrainedDotted.count, 8)  // every root-domain policy reaches the leaf
        XCTAssertEqual(p.userConstrainedDotted, ["2.999.0.3"])
        // The same with initial-policy-mapping-inhibit: nothing survives the first mapping.
        o.initialPolicyMappingInhibit = true
        budget = 10_000
        guard case .failure(let f) = PolicyTree.evaluate(path, options: o, budget: &budget) else {
            return XCTFail("invalid")
        }
        XCTAssertEqual(f.kind, .noExplicitPolicy)
    }

    /// The budget is shared: a verification that spends it on one path cannot start afresh on
    /// the next; a tiny budget fails the simplest policy path closed.
    func testTinyBudgetFailsClosed() throws {
        let r = try Self.verify(
            "explicit-match", policies: ["2.999.1.1"], explicit: true, at: 1_893_456_000, maximumWork: 3)
        XCTAssertFalse(r.isTrusted)
        XCTAssertEqual(r.failures.first { $0.kind == .budgetExhausted }?.kind, .budgetExhausted, "\(r.failures)")
    }

    func testRFCStructuralRules() {
        var budget = 1000
        let p1 = Self.span("2.999.1.1")
        let any = ByteSpan(OID.anyPolicy, 0, OID.anyPolicy.count)
        // §4.2.1.4: duplicate policy.
        if case .failure(let f) = PolicyTree.evaluate(
            [PolicyCertificate(policies: [p1, p1])], options: .init(), budget: &budget)
        {
            XCTAssertEqual(f.kind, .duplicatePolicy)
            XCTAssertEqual(f.policy, DERValue.objectIdentifierContent(dotted: "2.999.1.1"))
        } else {
            XCTFail("duplicate")
        }
        // §6.1.4 (a): anyPolicy as subjectDomainPolicy in an intermediate.
        let ca = PolicyCertificate(policies: [p1], mappings: [(p1, any)])
        if case .failure(let f) = PolicyTree.evaluate(
            [ca, PolicyCertificate(policies: [p1])], options: .init(), budget: &budget)
        {
            XCTAssertEqual(f.kind, .anyPolicyMapped)
            XCTAssertEqual(f.certificate, 0)
        } else {
            XCTFail("anyPolicy mapped")
        }
        // An empty path (the leaf is the anchor): the tree is the root anyPolicy node.
        if case .success(let s) = PolicyTree.evaluate([], options: .init(), budget: &budget) {
            XCTAssertEqual(s.authoritiesConstrainedDotted, ["2.5.29.32.0"])
        } else {
            XCTFail("empty path")
        }
    }

    /// The policy inputs reach the SecTrust-style evaluator.
    func testCertificateTrustCarriesPolicyOptions() throws {
        let root = try Self.certs("explicit-match", "root.pem")
        let chain = try Self.certs("explicit-match", "leaf.pem") + Self.certs("explicit-match", "intermediates.pem")
        var trust = CertificateTrust(
            certificates: chain, policies: [.basic], time: 1_893_456_000,
            signatureVerifier: SigilSignatureVerifier(), systemAnchors: TrustStore())
        trust.anchors = root
        trust.certificatePolicies.userInitialPolicySet = Self.oids(["2.999.1.1"])
        trust.certificatePolicies.initialExplicitPolicy = true
        let ok = trust.evaluate()
        XCTAssertTrue(ok.isTrusted, "\(ok.failures)")
        XCTAssertEqual(ok.policies.userConstrainedDotted, ["2.999.1.1"])
        trust.certificatePolicies.userInitialPolicySet = Self.oids(["2.999.1.2"])
        let bad = trust.evaluate()
        XCTAssertFalse(bad.isTrusted)
        XCTAssertEqual(bad.failures.first?.kind, .invalidPolicy)
        XCTAssertEqual(bad.result, .recoverableTrustFailure)
    }

    /// The decoders return views of the certificate (zero-copy) and the tree's input.
    func testDecodingPolicyExtensions() throws {
        let ca = try Self.certs("mapping-ca-inhibited", "intermediates.pem")
        // intermediates.pem lists CA2 (maps P1→Q1) then CA1 (inhibitPolicyMapping 0).
        let ca2 = try PolicyCertificate(ca[0])
        let ca1 = try PolicyCertificate(ca[1])
        XCTAssertEqual(ca2.mappings?.count, 1)
        XCTAssertEqual(
            ca2.mappings?.first.map { [$0.issuer, $0.subject] }, [Self.span("2.999.1.1"), Self.span("2.999.2.1")])
        XCTAssertEqual(ca1.inhibitPolicyMapping, 0)
        XCTAssertNil(ca1.requireExplicitPolicy)
        XCTAssertEqual(ca1.policies, [Self.span("2.999.1.1")])
        XCTAssertTrue(ca1.policies?.first?.storage == ca[1].der, "a view into the certificate's bytes")
        let anyCA = try Self.certs("ca-inhibit-any-0", "intermediates.pem")
        XCTAssertEqual(try PolicyCertificate(anyCA[1]).inhibitAnyPolicy, 0)
    }
}
