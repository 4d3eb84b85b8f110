import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// `CertificateTrust`, the SecTrust-style evaluator: the `SecTrustResultType` mapping per failure
/// kind, on every chain scenario of `Fixtures/chains/`, and the SecTrust knobs (anchors,
/// anchors-only, system anchors, host override, policies, time, chain).
final class PolicySecTrustTests: XCTestCase {
    /// The mapping, stated here from Apple's definitions (recoverable: "could be trusted with
    /// some minor change to the evaluation context, such as ignoring expired certificates or
    /// adding another anchor"; fatal: "a fundamental defect in the certificate data") — see
    /// `TrustFailureKind.isRecoverable` for the per-kind reasoning.
    static let recoverable: [TrustFailureKind: Bool] = [
        .expired: true,  // another verification time
        .notYetValid: true,  // another verification time
        .nameMismatch: true,  // another host (override) or the basic policy
        .unknownIssuer: true,  // add the missing intermediate or an anchor
        .untrustedRoot: true,  // add the root as an anchor
        .weakAlgorithm: true,  // AlgorithmPolicy.legacy
        .weakKey: true,  // AlgorithmPolicy.legacy
        .keyUsage: true,  // purpose depends on the policy
        .extendedKeyUsage: true,  // purpose depends on the policy (basic asks none)
        .maximumDepthExceeded: true,  // an option
        .invalidPolicy: true,  // the user-initial-policy-set and §6.1.1 flags are inputs
        .revocationUndetermined: true,  // give the CRL / OCSP response, or soft fail
        .certificateTransparency: true,  // SCTs by TLS/OCSP, or a newer log list, may settle it
        .badSignature: false,  // the bytes are wrong
        .malformedCertificate: false,
        .unsupportedCriticalExtension: false,  // Apple's own example of fatal
        .unsupportedAlgorithm: false,
        .notACA: false,  // the issuer certificate says it is not a CA
        .pathLengthExceeded: false,  // constraint inside a CA certificate
        .nameConstraintViolated: false,
        .nameConstraintUnsupported: false,
        .profileViolation: false,  // certificate breaks the encoding rules
        .budgetExhausted: false,  // hostile bundle: retrying cannot help
        .revoked: false,  // the CA withdrew the certificate (Apple: fatal)
    ]

    func testMappingPerFailureKind() {
        var kinds: [TrustFailureKind] = []
        var raw = 0
        while raw < 64 {
            raw += 1
            if let k = TrustFailureKind(rawValue: raw) { kinds.append(k) }
        }
        XCTAssertEqual(kinds.count, Self.recoverable.count, "every failure kind has a stated mapping")
        for k in kinds {
            XCTAssertEqual(k.isRecoverable, Self.recoverable[k], "\(k.name)")
            let f = TrustFailure(k, at: 0, "x")
            XCTAssertEqual(
                TrustResultType.forFailures([f]), Self.recoverable[k]! ? .recoverableTrustFailure : .fatalTrustFailure)
            // One fatal failure among recoverable ones makes the whole result fatal.
            XCTAssertEqual(
                TrustResultType.forFailures([TrustFailure(.expired, at: 0, "x"), f]),
                Self.recoverable[k]! ? .recoverableTrustFailure : .fatalTrustFailure)
        }
        XCTAssertTrue(TrustResultType.proceed.isTrusted)
        XCTAssertTrue(TrustResultType.unspecified.isTrusted)
        XCTAssertFalse(TrustResultType.recoverableTrustFailure.isTrusted)
        XCTAssertFalse(TrustResultType.fatalTrustFailure.isTrusted)
    }

    typealias Scenario = TestSupport.ChainScenario

    /// Manifest reason → expected result (from the mapping above, not from evaluation).
    static let expectedForReason: [String: TrustResultType] = [
        "expired": .recoverableTrustFailure, "notYetValid": .recoverableTrustFailure,
        "nameMismatch": .recoverableTrustFailure, "unknownIssuer": .recoverableTrustFailure,
        "untrustedRoot": .recoverableTrustFailure, "weakAlgorithm": .recoverableTrustFailure,
        "weakKey": .recoverableTrustFailure, "keyUsage": .recoverableTrustFailure,
        "badSignature": .fatalTrustFailure, "notCA": .fatalTrustFailure, "pathTooLong": .fatalTrustFailure,
        "unsupportedCriticalExtension": .fatalTrustFailure, "nameConstraints": .fatalTrustFailure,
    ]

    /// Scenarios whose certificates also carry a defect besides the manifest's main reason
    /// (stated from their descriptions in gen_chains.py): a fatal failure among the reasons
    /// makes the whole result fatal.
    static let alsoDefective: [String: String] = [
        "wildcard-partial-label-rejected":
            "SAN dNSNames f*.partial.sigil.test and *.*.sigil.test are not valid host names (profile violation)",
        "wildcard-not-leftmost-rejected": "same certificate as wildcard-partial-label-rejected",
        "ip-in-dnsname-san-rejected":
            "SAN dNSName 203.0.113.9 is an address spelled as a name, not a valid host name (profile violation)",
    ]

    func certs(_ folder: URL, _ name: String) throws -> [Certificate] {
        let bytes = try TestSupport.read(folder.appendingPathComponent(name).path)
        return bytes.isEmpty ? [] : try Certificate.all(from: bytes)
    }

    func testChainScenariosMapOntoSecTrustResults() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("chains")
        let scenarios = try TestSupport.chainScenarios()
        var byResult: [String: Int] = [:]
        for s in scenarios {
            let folder = dir.appendingPathComponent(s.scenario)
            let policy: VerificationPurpose = s.kind == "basic" ? .basic : .server(host: s.host ?? s.ip)
            var trust = CertificateTrust(
                certificates: try certs(folder, "leaf.pem") + certs(folder, "intermediates.pem"),
                policies: [policy], time: s.at, systemAnchors: TrustStore())
            trust.anchors = try certs(folder, "anchors.pem")
            trust.anchorsOnly = s.anchorsOnly
            let e = trust.evaluate()
            let expected: TrustResultType
            if s.expected == "trusted" {
                expected = .proceed  // every scenario's anchors are the caller's own
            } else if Self.alsoDefective[s.scenario] != nil {
                expected = .fatalTrustFailure
                XCTAssertTrue(e.failures.contains { $0.kind == .profileViolation }, s.scenario)
            } else {
                guard let r = s.reason, let x = Self.expectedForReason[r] else {
                    XCTFail("\(s.scenario): no reason")
                    continue
                }
                expected = x
            }
            XCTAssertEqual(e.result, expected, "\(s.scenario) (\(s.reason ?? "trusted")): \(e.failures)")
            XCTAssertEqual(e.chain.isEmpty, !expected.isTrusted, s.scenario)
            byResult[e.result.description, default: 0] += 1
        }
        XCTAssertEqual(byResult["fatalTrustFailure"].map { $0 > 5 }, true)
        print("SecTrust mapping over \(scenarios.count) chain scenarios: \(byResult.sorted { $0.key < $1.key })")
    }

    // MARK: knobs

    func rsa2048() throws -> (leaf: Certificate, intermediate: Certificate, root: Certificate, other: Certificate) {
        let folder = TestSupport.fixtures.appendingPathComponent("chains/valid-rsa2048")
        let other = try certs(TestSupport.fixtures.appendingPathComponent("chains/valid-p384"), "anchors.pem")[0]
        return (
            try certs(folder, "leaf.pem")[0], try certs(folder, "intermediates.pem")[0],
            try certs(folder, "anchors.pem")[0], other
        )
    }

    static let at2030 = 1_893_456_000.0

    func testSystemAnchorGivesUnspecifiedAndCustomGivesProceed() throws {
        let c = try rsa2048()
        var system = TrustStore()
        system.add(c.root, source: .system)
        var trust = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.server(host: "leaf.rsa2048.sigil.test")],
            time: Self.at2030, systemAnchors: system)
        var e = trust.evaluate()
        XCTAssertEqual(
            e.result, .unspecified, "no caller anchors: the system's are used; a system anchor gives unspecified")
        XCTAssertEqual(e.chain, [c.leaf, c.intermediate, c.root], "the validated chain, leaf to anchor")
        XCTAssertEqual(e.anchorSource, .system)

        // SecTrustSetAnchorCertificates with another root: only it counts (anchors-only default).
        trust.anchors = [c.other]
        e = trust.evaluate()
        XCTAssertEqual(e.result, .recoverableTrustFailure, "system roots disabled once anchors are set")
        XCTAssertTrue(e.failures.contains { $0.kind == .unknownIssuer })
        // SecTrustSetAnchorCertificatesOnly(false): anchors plus system.
        trust.anchorsOnly = false
        XCTAssertEqual(trust.evaluate().result, .unspecified)
        // The caller's own root: proceed (even when also a system root, the caller's wins).
        trust.anchors = [c.root]
        XCTAssertEqual(trust.evaluate().result, .proceed)
        trust.anchorsOnly = true
        XCTAssertEqual(trust.evaluate().result, .proceed)
    }

    /// Recipe: connecting by IP with a host override. The certificate names
    /// leaf.rsa2048.sigil.test and 192.0.2.10; the client dialled 203.0.113.7 (a load balancer).
    func testHostOverride() throws {
        let c = try rsa2048()
        var trust = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.server(host: "203.0.113.7")],
            time: Self.at2030, systemAnchors: TrustStore())
        trust.anchors = [c.root]
        var e = trust.evaluate()
        XCTAssertEqual(e.result, .recoverableTrustFailure)
        XCTAssertEqual(e.failures.first?.kind, .nameMismatch)
        trust.overrideHost("leaf.rsa2048.sigil.test")
        e = trust.evaluate()
        XCTAssertEqual(e.result, .proceed)
        trust.overrideHost("192.0.2.10")  // the address the certificate does carry
        XCTAssertEqual(trust.evaluate().result, .proceed)
    }

    func testPoliciesTimeAndInput() throws {
        let c = try rsa2048()
        var trust = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.basic],
            time: Self.at2030, systemAnchors: TrustStore())
        trust.anchors = [c.root]
        XCTAssertEqual(trust.evaluate().result, .proceed, "basic X.509: no name")
        trust.policies = [.server(host: "leaf.rsa2048.sigil.test"), .basic]
        XCTAssertEqual(trust.evaluate().result, .proceed, "all policies hold")
        trust.policies = [.server(host: "other.sigil.test"), .basic]
        XCTAssertEqual(trust.evaluate().result, .recoverableTrustFailure, "one policy fails")
        trust.policies = [.client]
        XCTAssertEqual(trust.evaluate().result, .proceed, "the fixture leaf also has clientAuth")
        trust.policies = [.server(host: "leaf.rsa2048.sigil.test")]
        trust.time = 2_200_000_000  // 2039: after notAfter (2035)
        let late = trust.evaluate()
        XCTAssertEqual(late.result, .recoverableTrustFailure)
        XCTAssertTrue(late.failures.contains { $0.kind == .expired })
        trust.certificates = []
        XCTAssertEqual(trust.evaluate().result, .fatalTrustFailure, "no certificate: malformed input")
        // Sigil's convenience initializer defaults the time to now.
        let now = CertificateTrust(certificates: [c.leaf], policies: [.basic], systemAnchors: TrustStore())
        XCTAssertEqual(now.time, Date().timeIntervalSince1970, accuracy: 60)
    }

    // MARK: one path to the verdict

    /// `SecurityPolicy` (mode none) and `ATSPolicy` evaluate through `CertificateTrust`: the same
    /// requirements give the same verdict and the same ranked failures.
    func testSecurityPolicyAndCertificateTrustAgree() throws {
        let c = try rsa2048()
        var store = TrustStore()
        store.add(c.root, source: .custom)
        for (host, time) in [
            ("leaf.rsa2048.sigil.test", Self.at2030), ("other.sigil.test", Self.at2030),
            ("other.sigil.test", 2_200_000_000.0),
        ] {
            let policy = SecurityPolicy.defaultPolicy(anchors: store)
            let e = policy.evaluate(serverChain: [c.leaf, c.intermediate], domain: host, at: time)
            let trust = CertificateTrust(
                certificates: [c.leaf, c.intermediate], policies: [.server(host: host)],
                time: time, systemAnchors: store)
            let r = trust.verify()
            XCTAssertEqual(e.isTrusted, r.isTrusted, host)
            XCTAssertEqual(e.failures, r.failures, host)
        }
        // 2039 and the wrong host: expired and nameMismatch, nameMismatch ranked first.
        let r = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.server(host: "other.sigil.test")],
            time: 2_200_000_000, systemAnchors: store
        ).verify()
        XCTAssertEqual(r.failures.map(\.kind).prefix(2), [.nameMismatch, .expired])
    }

    /// The one anchor rule (Apple's): the system's are used when anchors were never set, or
    /// with `anchorsOnly` false (SecTrustSetAnchorCertificatesOnly); anchors set — even to none —
    /// with `anchorsOnly` replace them.
    func testAnchorRule() {
        XCTAssertTrue(CertificateTrust.usesSystemAnchors(customAnchorsSet: false, anchorsOnly: true))
        XCTAssertTrue(CertificateTrust.usesSystemAnchors(customAnchorsSet: false, anchorsOnly: false))
        XCTAssertTrue(CertificateTrust.usesSystemAnchors(customAnchorsSet: true, anchorsOnly: false))
        XCTAssertFalse(CertificateTrust.usesSystemAnchors(customAnchorsSet: true, anchorsOnly: true))
    }

    /// Issue 21 §4: an anchor list set to empty (a bundled root that failed to load) with
    /// `anchorsOnly` trusts nothing. Before the fix the empty list counted as "never set" and a
    /// chain to a system root was trusted.
    func testEmptyAnchorsStayEmpty() throws {
        let c = try rsa2048()
        var system = TrustStore()
        system.add(c.root, source: .system)
        var trust = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.server(host: "leaf.rsa2048.sigil.test")],
            time: Self.at2030, systemAnchors: system)
        XCTAssertNil(trust.customAnchors)
        XCTAssertEqual(trust.evaluate().result, .unspecified, "never set: the system's")
        trust.anchors = []
        XCTAssertEqual(trust.customAnchors, [])
        let e = trust.evaluate()
        XCTAssertFalse(e.isTrusted, "set to none, anchors only: nothing is trusted")
        XCTAssertTrue(e.failures.contains { $0.kind == .unknownIssuer || $0.kind == .untrustedRoot }, "\(e.failures)")
        XCTAssertEqual(trust.effectiveAnchors.anchors.count, 0)
        trust.anchorsOnly = false
        XCTAssertEqual(trust.evaluate().result, .unspecified, "set to none, not only: the system's")
        trust.anchorsOnly = true
        trust.useSystemAnchors()
        XCTAssertEqual(trust.evaluate().result, .unspecified, "reset (SecTrustSetAnchorCertificates NULL)")
    }

    /// One ranking rule: rank first (explicit, not the raw values), then the certificate
    /// closest to the leaf; ties keep their order.
    func testSortedByRank() {
        let input = [
            TrustFailure(.unknownIssuer, at: 0, "a"), TrustFailure(.expired, at: 2, "b"),
            TrustFailure(.expired, at: 1, "c"), TrustFailure(.badSignature, at: 0, "d"),
            TrustFailure(.expired, at: 1, "e"),
        ]
        XCTAssertEqual(TrustFailure.sortedByRank(input).map(\.message), ["c", "e", "b", "d", "a"])
        XCTAssertTrue(TrustFailure.precedes(input[1], input[0]))
        XCTAssertFalse(TrustFailure.precedes(input[2], input[4]), "a tie is no precedence")
        // The stated ranking: revoked > revocationUndetermined > certificateTransparency > nameMismatch > expired > notYetValid > ... > unknownIssuer.
        let order: [TrustFailureKind] = [
            .revoked, .revocationUndetermined, .certificateTransparency, .nameMismatch, .expired, .notYetValid,
            .malformedCertificate,
            .profileViolation,
            .invalidPolicy, .nameConstraintUnsupported, .nameConstraintViolated, .unsupportedCriticalExtension,
            .extendedKeyUsage, .keyUsage, .pathLengthExceeded, .notACA, .badSignature, .weakKey,
            .weakAlgorithm, .unsupportedAlgorithm, .maximumDepthExceeded, .budgetExhausted,
            .untrustedRoot, .unknownIssuer,
        ]
        XCTAssertEqual(Set(order).count, Self.recoverable.count)
        for (a, b) in zip(order, order.dropFirst()) { XCTAssertGreaterThan(a, b, "\(a.name) outranks \(b.name)") }
    }

    /// `AlgorithmPolicy.allowedSignatureAlgorithms`: valid-p384 is signed with
    /// ecdsa-with-SHA384 and valid-rsa2048 with sha256WithRSAEncryption (`openssl x509 -text`).
    func testSignatureAlgorithmRestriction() throws {
        let folder = TestSupport.fixtures.appendingPathComponent("chains/valid-p384")
        var trust = CertificateTrust(
            certificates: try certs(folder, "leaf.pem") + certs(folder, "intermediates.pem"),
            policies: [.basic], time: Self.at2030, systemAnchors: TrustStore())
        trust.anchors = try certs(folder, "anchors.pem")
        XCTAssertTrue(trust.verify().isTrusted)
        trust.algorithms.allowedSignatureAlgorithms = [.ecdsaWithSHA384]
        XCTAssertTrue(trust.verify().isTrusted)
        trust.algorithms.allowedSignatureAlgorithms = [.ecdsaWithSHA256, .rsaWithSHA256]
        XCTAssertEqual(trust.verify().failures.first?.kind, .weakAlgorithm)
        trust.algorithms.allowedSignatureAlgorithms = []
        XCTAssertFalse(trust.verify().isTrusted, "an empty restriction accepts nothing")
        let c = try rsa2048()
        var rsa = CertificateTrust(
            certificates: [c.leaf, c.intermediate], policies: [.basic], time: Self.at2030,
            systemAnchors: TrustStore())
        rsa.anchors = [c.root]
        rsa.algorithms.allowedSignatureAlgorithms = [.rsaWithSHA256]
        XCTAssertTrue(rsa.verify().isTrusted)
        XCTAssertEqual(SignatureAlgorithmName(name: "ecdsa-with-sha384"), .ecdsaWithSHA384)
        XCTAssertNil(SignatureAlgorithmName(name: "DSA_WITH_SHA256"))
    }
}
