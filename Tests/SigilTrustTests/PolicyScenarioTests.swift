import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// The AFSecurityPolicy scenario table of `Fixtures/pinning/manifest.json`: every combination of
/// pinning mode × allowInvalidCertificates × validatesDomainName × validatesCertificateChain ×
/// pinned-certificate position (leaf, intermediate, root, unrelated, the whole chain) × chain
/// state (valid, expired, self-signed, wrong host). The expected verdict and its justification
/// were derived by `Fixtures/scripts/gen_pinning.py` from the clauses stated in
/// Docs/SecurityPolicies.md and from what the generator knows about the certificates it made —
/// not from Sigil's output. The ordinary anchors are the pinning root, as a system anchor.
final class PolicyScenarioTests: XCTestCase {
    struct Manifest: Decodable {
        let at: Double
        let domain: String
        let certificates: [String: String]
        let pins: [String: String]
        let chains: [String: Chain]
        let scenarios: [Scenario]
    }

    struct Chain: Decodable {
        let file: String
        let presented: [String]
        let why: String
    }

    struct Scenario: Decodable {
        let name: String
        let mode: String
        let allowInvalidCertificates: Bool
        let validatesDomainName: Bool
        let validatesCertificateChain: Bool
        let chain: String
        let pinned: [String]
        let position: String
        let expected: String
        let accepted: Bool
        let why: String
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("pinning")

    static func load() throws -> (Manifest, [String: Certificate], [String: [Certificate]]) {
        let m = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        var certs: [String: Certificate] = [:]
        for (name, file) in m.certificates {
            certs[name] = try Certificate(der: TestSupport.read(dir.appendingPathComponent(file).path))
        }
        var chains: [String: [Certificate]] = [:]
        for (name, c) in m.chains {
            chains[name] = try Certificate.all(from: TestSupport.read(dir.appendingPathComponent(c.file).path))
            XCTAssertEqual(chains[name], c.presented.map { certs[$0]! }, "\(name): chain file matches the manifest")
        }
        return (m, certs, chains)
    }

    static func outcomeName(_ o: SecurityPolicyEvaluation.Outcome) -> String {
        switch o {
        case .trusted: return "trusted"
        case .acceptedWithoutValidation: return "acceptedWithoutValidation"
        case .pinMatched: return "pinMatched"
        case .rejected(let r): return r.rawValue
        }
    }

    func testScenarioTable() throws {
        let (m, certs, chains) = try Self.load()
        XCTAssertEqual(m.scenarios.count, 408)
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        var counts: [String: Int] = [:]
        for s in m.scenarios {
            var policy = SecurityPolicy(
                pinningMode: PinningMode(rawValue: s.mode)!,
                pinnedCertificates: s.pinned.map { certs[$0]! }, anchors: anchors)
            policy.allowInvalidCertificates = s.allowInvalidCertificates
            policy.validatesDomainName = s.validatesDomainName
            policy.validatesCertificateChain = s.validatesCertificateChain
            let e = policy.evaluate(serverChain: chains[s.chain]!, domain: m.domain, at: m.at)
            let got = Self.outcomeName(e.outcome)
            XCTAssertEqual(got, s.expected, "\(s.name): expected \(s.expected) because \(s.why); got \(e.message)")
            XCTAssertEqual(e.isTrusted, s.accepted, s.name)
            counts[got, default: 0] += 1
            // Whenever the pins were matched after an evaluation, they were matched against the
            // validated path, which starts with the presented leaf.
            if e.matchedChainSource == .validatedPath {
                XCTAssertEqual(e.matchedChain.first, chains[s.chain]![0], s.name)
            }
            if e.outcome == .pinMatched && !(s.mode == "publicKey" && s.allowInvalidCertificates) {
                XCTAssertEqual(e.matchedChainSource, .validatedPath, s.name)
            }
        }
        print("policy scenarios: \(m.scenarios.count): \(counts.sorted { $0.key < $1.key })")
    }

    /// The same table with the pins given the other way: public-key mode with `sha256/` pins
    /// (the manifest's, computed by Python) instead of certificates gives the same verdicts.
    func testScenarioTableWithHashPins() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        for (name, pin) in m.pins {
            XCTAssertEqual(
                PublicKeyPin(pin), PublicKeyPin(certificate: certs[name]!),
                "\(name): Python and Sigil agree on the SPKI pin")
        }
        var checked = 0
        for s in m.scenarios where s.mode == "publicKey" {
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = s.pinned.map { PublicKeyPin(m.pins[$0]!)! }
            policy.allowInvalidCertificates = s.allowInvalidCertificates
            policy.validatesDomainName = s.validatesDomainName
            policy.validatesCertificateChain = s.validatesCertificateChain
            let e = policy.evaluate(serverChain: chains[s.chain]!, domain: m.domain, at: m.at)
            XCTAssertEqual(Self.outcomeName(e.outcome), s.expected, "\(s.name) (sha256 pins): \(s.why)")
            checked += 1
        }
        XCTAssertEqual(checked, 136)
    }

    // MARK: named cases, each stated from the semantics

    func policy(_ mode: PinningMode, pins: [Certificate], _ anchors: TrustStore) -> SecurityPolicy {
        SecurityPolicy(pinningMode: mode, pinnedCertificates: pins, anchors: anchors)
    }

    /// The trap: pinning only a CA root with the domain check off accepts a certificate that CA
    /// issued to another domain. The safe alternatives refuse it.
    func testCARootPinningTrapAndSafeAlternatives() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let evil = chains["wronghost"]!  // other.sigil.test, issued by the same CA
        var trap = policy(.certificate, pins: [certs["root"]!], anchors)
        trap.validatesDomainName = false
        XCTAssertTrue(
            trap.evaluate(serverChain: evil, domain: m.domain, at: m.at).isTrusted,
            "the trap accepts another domain's certificate")
        XCTAssertTrue(trap.configurationWarnings(at: m.at).contains { $0.contains("only CA certificates are pinned") })
        // Safe 1: keep the domain check.
        var safe = trap
        safe.validatesDomainName = true
        XCTAssertEqual(safe.evaluate(serverChain: evil, domain: m.domain, at: m.at).rejection, .untrusted)
        XCTAssertTrue(safe.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at).isTrusted)
        // Safe 2: pin the server's own certificate: another domain's certificate from the same
        // CA does not validate to it. (Pinning the leaf *key* would not tell these two apart only
        // because the fixtures reuse one leaf key.)
        var leafPin = policy(.certificate, pins: [certs["leaf"]!], anchors)
        leafPin.validatesDomainName = false
        XCTAssertEqual(
            leafPin.evaluate(serverChain: evil, domain: m.domain, at: m.at).rejection, .pinnedEvaluationFailed)
    }

    /// The same trap in public-key mode (issue 21 §4): the root's key pinned, the domain check
    /// off, another domain's certificate from that CA accepted — now with a warning, as the
    /// certificate-mode trap has; pinning the leaf's key or keeping the domain check gets none.
    func testCAKeyPinningTrapWarns() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let evil = chains["wronghost"]!
        var trap = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        trap.pinnedPublicKeys = [PublicKeyPin(certificate: certs["root"]!)]
        trap.validatesDomainName = false
        let e = trap.evaluate(serverChain: evil, domain: m.domain, at: m.at)
        XCTAssertTrue(e.isTrusted, "the trap accepts another domain's certificate")
        XCTAssertTrue(e.warnings.contains { $0.contains("only CA keys matched the pins") }, "\(e.warnings)")
        var leafKey = trap
        leafKey.pinnedPublicKeys = [PublicKeyPin(certificate: certs["leaf"]!)]
        let l = leafKey.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertTrue(l.isTrusted)
        XCTAssertFalse(l.warnings.contains { $0.contains("only CA keys") }, "\(l.warnings)")
        var checked = trap
        checked.validatesDomainName = true
        let c = checked.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertTrue(c.isTrusted)
        XCTAssertFalse(c.warnings.contains { $0.contains("only CA keys") }, "\(c.warnings)")
    }

    /// Sigil is stricter than matching the raw list: a pinned certificate appended by an
    /// attacker to a chain that validates elsewhere is not on the validated path.
    func testAppendedPinnedCertificateIsNotMatched() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        // The server (attacker) presents a valid chain plus the pinned unrelated certificate.
        let presented = chains["valid"]! + [certs["unrelated"]!]
        for mode in [PinningMode.certificate, .publicKey] {
            let p = policy(mode, pins: [certs["unrelated"]!], anchors)
            let e = p.evaluate(serverChain: presented, domain: m.domain, at: m.at)
            XCTAssertFalse(e.isTrusted, "\(mode): appended pinned certificate must not count")
            XCTAssertFalse(e.matchedChain.contains(certs["unrelated"]!))
        }
        // With allowInvalidCertificates in public-key mode nothing is evaluated, but the
        // appended certificate is not linked to the leaf by a signature: not matched (it was,
        // as in AFNetworking, until the 2026-12-04 review: an attacker's leaf plus the real
        // server's public certificate passed the pin).
        var danger = policy(.publicKey, pins: [certs["unrelated"]!], anchors)
        danger.allowInvalidCertificates = true
        let e = danger.evaluate(serverChain: presented, domain: m.domain, at: m.at)
        XCTAssertEqual(e.rejection, .pinNotFound)
        XCTAssertEqual(e.matchedChainSource, .presented)
        XCTAssertTrue(e.warnings.contains { $0.contains("not validated") })
        // The intermediate's key, which signed the leaf, is linked: matched in the presented chain.
        var linked = policy(.publicKey, pins: [certs["intermediate"]!], anchors)
        linked.allowInvalidCertificates = true
        let ok = linked.evaluate(serverChain: presented, domain: m.domain, at: m.at)
        XCTAssertEqual(ok.outcome, .pinMatched)
        XCTAssertEqual(ok.matchedIndexes, [1])
        // Reversed (the intermediate first), nothing links past the leaf.
        let reversed = [presented[0], certs["unrelated"]!, certs["intermediate"]!]
        XCTAssertEqual(linked.evaluate(serverChain: reversed, domain: m.domain, at: m.at).rejection, .pinNotFound)
    }

    /// Recipe: development against a self-signed server. AFNetworking's way (certificate mode,
    /// allowInvalidCertificates, domain validated: the pinned re-evaluation still checks the
    /// host and dates) and Sigil's simpler way (the certificate as the only anchor, nothing
    /// allowed that is invalid).
    func testSelfSignedDevelopmentServerRecipes() throws {
        let (m, certs, chains) = try Self.load()
        let dev = chains["selfsigned"]!
        var af = policy(.certificate, pins: [certs["selfsigned"]!], TrustStore())
        af.allowInvalidCertificates = true
        XCTAssertEqual(af.evaluate(serverChain: dev, domain: m.domain, at: m.at).outcome, .pinMatched)
        XCTAssertEqual(
            af.evaluate(serverChain: dev, domain: "other.sigil.test", at: m.at).rejection, .pinnedEvaluationFailed,
            "host still checked in the pinned re-evaluation")
        XCTAssertEqual(
            af.evaluate(serverChain: dev, domain: m.domain, at: 2_100_000_000).rejection, .pinnedEvaluationFailed,
            "dates still checked in the pinned re-evaluation (2036, after notAfter)")
        let sigil = SecurityPolicy.defaultPolicy(anchors: TrustStore([TrustAnchor(certs["selfsigned"]!)]))
        XCTAssertEqual(sigil.evaluate(serverChain: dev, domain: m.domain, at: m.at).outcome, .trusted)
        XCTAssertEqual(sigil.evaluate(serverChain: dev, domain: "other.sigil.test", at: m.at).rejection, .untrusted)
        // Allowing invalid certificates without pinning while checking the domain is refused.
        var lazy = SecurityPolicy.defaultPolicy(anchors: TrustStore())
        lazy.allowInvalidCertificates = true
        XCTAssertEqual(
            lazy.evaluate(serverChain: dev, domain: m.domain, at: m.at).rejection, .domainValidationNeedsPinning)
    }

    /// Recipe: pin the intermediate (certificate mode): any leaf the intermediate issues for the
    /// domain passes, a leaf for another domain does not, an unrelated chain does not.
    func testPinTheIntermediate() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let p = policy(.certificate, pins: [certs["intermediate"]!], anchors)
        let ok = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(ok.outcome, .pinMatched)
        XCTAssertEqual(
            ok.matchedChain, [certs["leaf"]!, certs["intermediate"]!], "the path ends at the pinned intermediate")
        XCTAssertEqual(ok.matchedIndexes, [1])
        XCTAssertFalse(p.evaluate(serverChain: chains["wronghost"]!, domain: m.domain, at: m.at).isTrusted)
    }

    /// Sigil refuses `validatesDomainName` without a domain (AFNetworking would check no name).
    func testDomainRequired() throws {
        let (m, certs, chains) = try Self.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let p = SecurityPolicy.defaultPolicy(anchors: anchors)
        XCTAssertEqual(p.evaluate(serverChain: chains["valid"]!, domain: nil, at: m.at).rejection, .domainRequired)
        var basic = p
        basic.validatesDomainName = false
        XCTAssertEqual(basic.evaluate(serverChain: chains["valid"]!, domain: nil, at: m.at).outcome, .trusted)
        XCTAssertEqual(p.evaluate(serverChain: [], domain: m.domain, at: m.at).rejection, .emptyChain)
        // A pinning mode with nothing pinned fails closed.
        let empty = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        XCTAssertEqual(empty.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at).rejection, .noPins)
    }
}
