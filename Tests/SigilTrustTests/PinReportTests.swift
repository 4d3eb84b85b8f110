import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Report-only pin sets, RFC 7469 §3 pin-failure reports and the JSON pin configuration, on the
/// pinning fixtures. Expected verdicts come from `Fixtures/pinning/manifest.json` (derived by
/// `Fixtures/scripts/gen_pinning.py` from the policy clauses, pins hashed by Python), the report
/// shape from the text of RFC 7469 §3, parsed with Foundation's `JSONSerialization`.
final class PinReportTests: XCTestCase {
    typealias M = PolicyScenarioTests

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var reports: [PinFailureReport] = []
        func add(_ r: PinFailureReport) {
            lock.lock()
            reports.append(r)
            lock.unlock()
        }
    }

    func scenario(
        _ m: M.Manifest, mode: String, invalid: Bool, domain: Bool, whole: Bool, chain: String, position: String
    ) -> M.Scenario? {
        m.scenarios.first {
            $0.mode == mode && $0.allowInvalidCertificates == invalid && $0.validatesDomainName == domain
                && $0.validatesCertificateChain == whole && $0.chain == chain && $0.position == position
        }
    }

    /// Every public-key row of the scenario table, with its pins as a `PinSet` for the domain,
    /// enforced and report-only. Enforced: the table's verdict, and a report exactly when it is
    /// untrusted / pinNotFound / chainNotFullyPinned. Report-only: the verdict of the same row in
    /// mode none (the pins ignored — never more trusted than that), and a report exactly when
    /// the strict public-key row (evaluation required) does not match.
    func testReportOnlyVersusEnforceOnTheScenarioTable() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        var checked = 0
        var reportedOnly = 0
        for s in m.scenarios where s.mode == "publicKey" {
            let pins = s.pinned.map { PublicKeyPin(m.pins[$0]!)! }
            let none = try XCTUnwrap(
                scenario(
                    m, mode: "none", invalid: s.allowInvalidCertificates, domain: s.validatesDomainName,
                    whole: s.validatesCertificateChain, chain: s.chain, position: s.position))
            let strict = try XCTUnwrap(
                scenario(
                    m, mode: "publicKey", invalid: false, domain: s.validatesDomainName,
                    whole: s.validatesCertificateChain, chain: s.chain, position: s.position))
            let ordinaryStrict = try XCTUnwrap(
                scenario(
                    m, mode: "none", invalid: false, domain: s.validatesDomainName,
                    whole: s.validatesCertificateChain, chain: s.chain, position: s.position))
            for enforced in [true, false] {
                let box = Box()
                var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
                policy.pinSets = [PinSet(domain: m.domain, pins: pins, enforced: enforced)]
                policy.allowInvalidCertificates = s.allowInvalidCertificates
                policy.validatesDomainName = s.validatesDomainName
                policy.validatesCertificateChain = s.validatesCertificateChain
                policy.pinFailureReporter = { box.add($0) }
                let e = policy.evaluate(serverChain: chains[s.chain]!, domain: m.domain, port: 443, at: m.at)
                let name = "\(s.name) \(enforced ? "enforced" : "report-only")"
                let expected = enforced ? s.expected : none.expected
                XCTAssertEqual(M.outcomeName(e.outcome), expected, name + ": " + e.message)
                let wantReport =
                    enforced
                    ? ["untrusted", "pinNotFound", "chainNotFullyPinned"].contains(s.expected)
                    : none.expected != "domainValidationNeedsPinning" && strict.expected != "pinMatched"
                XCTAssertEqual(e.pinFailureReport != nil, wantReport, name)
                XCTAssertEqual(box.reports.count, wantReport ? 1 : 0, name + ": the sink gets each report once")
                if let r = e.pinFailureReport {
                    XCTAssertEqual(box.reports.first, r, name)
                    XCTAssertEqual(r.enforced, enforced, name)
                    XCTAssertEqual(r.servedCertificateChain, chains[s.chain]!, name)
                    // The validated path (leaf … root) exactly when the ordinary evaluation
                    // trusts the chain; else none (fail closed: nothing matched).
                    let validated =
                        ordinaryStrict.expected == "trusted"
                        ? m.chains[s.chain]!.presented.map { certs[$0]! } + [certs["root"]!] : []
                    XCTAssertEqual(r.validatedCertificateChain, validated, name)
                    var distinct: [PublicKeyPin] = []
                    for p in pins where !distinct.contains(p) { distinct.append(p) }
                    XCTAssertEqual(r.knownPins, distinct, name)
                    if !enforced { reportedOnly += 1 }
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 272)
        XCTAssertGreaterThan(reportedOnly, 0)
    }

    /// The named case of the brief: report-only on the valid chain with an unrelated key pinned
    /// is trusted (and reported); enforced it is refused. Report-only on an expired chain stays
    /// untrusted even when its leaf's key is pinned.
    func testReportOnlyNeverTrustsMore() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        let unrelated = PublicKeyPin(m.pins["unrelated"]!)!
        p.pinSets = [PinSet(domain: m.domain, pins: [unrelated], enforced: false)]
        let ro = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(ro.outcome, .trusted)
        XCTAssertNotNil(ro.pinFailureReport)
        XCTAssertTrue(ro.warnings.contains { $0.contains("report-only") })
        p.pinSets[0].enforced = true
        XCTAssertEqual(p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at).rejection, .pinNotFound)

        p.pinSets = [PinSet(domain: m.domain, pins: [PublicKeyPin(m.pins["leaf-expired"]!)!], enforced: false)]
        let expired = p.evaluate(serverChain: chains["expired"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(expired.rejection, .untrusted)
        XCTAssertEqual(expired.pinFailureReport?.validatedCertificateChain, [], "no validated path: not a match")
        // allowInvalidCertificates with the domain checked needs pins that protect (clause 1):
        // report-only pins do not count.
        p.allowInvalidCertificates = true
        let c1 = p.evaluate(serverChain: chains["selfsigned"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(c1.rejection, .domainValidationNeedsPinning)
        XCTAssertNil(c1.pinFailureReport)
    }

    /// Expired sets are neither enforced nor reported (RFC 7469 §2.3.3); certificate mode makes
    /// no report; matching pins make none.
    func testNoReportCases() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let unrelated = PublicKeyPin(m.pins["unrelated"]!)!
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        p.pinFailureReporter = { _ in XCTFail("no report expected") }
        for enforced in [true, false] {
            p.pinSets = [PinSet(domain: m.domain, pins: [unrelated], expires: m.at - 1, enforced: enforced)]
            let e = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, port: 443, at: m.at)
            XCTAssertEqual(e.outcome, .trusted)
            XCTAssertNil(e.pinFailureReport)
        }
        p.pinSets = [PinSet(domain: m.domain, pins: [PublicKeyPin(m.pins["intermediate"]!)!], enforced: false)]
        XCTAssertNil(p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at).pinFailureReport)
        var c = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certs["unrelated"]!], anchors: anchors)
        c.pinFailureReporter = { _ in XCTFail("certificate mode makes no report") }
        let e = c.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(e.rejection, .pinnedEvaluationFailed)
        XCTAssertNil(e.pinFailureReport)
    }

    /// The three-argument `evaluate` — the route SigilNIO's verifier takes — hands the report to
    /// the sink too, with the port unknown (null): the flag and the sink need no SigilNIO code.
    func testThreeArgumentEvaluateReportsThroughTheSink() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        let box = Box()
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        p.pinSets = [PinSet(domain: m.domain, pins: [PublicKeyPin(m.pins["unrelated"]!)!], enforced: false)]
        p.pinFailureReporter = { box.add($0) }
        let e = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(e.outcome, .trusted)
        XCTAssertEqual(box.reports.count, 1)
        XCTAssertEqual(box.reports.first, e.pinFailureReport)
        XCTAssertNil(box.reports.first?.port)
        XCTAssertFalse(box.reports.first?.enforced ?? true)
    }

    // MARK: RFC 7469 §3 shape

    static func pemToDER(_ pem: String) throws -> Data {
        let lines = pem.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "-----BEGIN CERTIFICATE-----")
        XCTAssertEqual(lines.last, "-----END CERTIFICATE-----")
        return try XCTUnwrap(Data(base64Encoded: lines.dropFirst().dropLast().joined()))
    }

    func fixtureDER(_ name: String) throws -> Data {
        try Data(contentsOf: M.dir.appendingPathComponent(name + ".der"))
    }

    /// Field by field against RFC 7469 §3: exactly the nine members; `date-time` and
    /// `effective-expiration-date` RFC 3339 date-times (checked with Foundation's ISO 8601
    /// parser); `port` an integer or null; `include-subdomains` a JSON boolean; the chains
    /// arrays of PEM strings (RFC 7468) decoding to the fixture files' DER; `known-pins` strings
    /// `pin-sha256="<base64>"` with the manifest's (Python) digests.
    func testReportJSONShape() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        let known = ["unrelated", "selfsigned"]
        let expiry = m.at + 86_400 * 365 + 0.75  // fraction dropped in the report
        p.pinSets = [
            PinSet(
                domain: "Sigil.Test", includesSubdomains: true, pins: known.map { PublicKeyPin(m.pins[$0]!)! },
                expires: expiry, enforced: false)
        ]
        let e = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, port: 8443, at: m.at + 0.5)
        XCTAssertEqual(e.outcome, .trusted)
        let report = try XCTUnwrap(e.pinFailureReport)
        let object = try JSONSerialization.jsonObject(with: Data(report.jsonText.utf8), options: [])
        let j = try XCTUnwrap(object as? [String: Any])
        XCTAssertEqual(
            Set(j.keys),
            [
                "date-time", "hostname", "port", "effective-expiration-date", "include-subdomains", "noted-hostname",
                "served-certificate-chain", "validated-certificate-chain", "known-pins",
            ])
        let iso = ISO8601DateFormatter()
        let dateTime = try XCTUnwrap(j["date-time"] as? String)
        XCTAssertEqual(iso.date(from: dateTime)?.timeIntervalSince1970, m.at)
        XCTAssertEqual(dateTime, "2030-01-01T00:00:00Z")
        XCTAssertEqual(j["hostname"] as? String, m.domain)
        XCTAssertEqual(j["port"] as? Int, 8443)
        let exp = try XCTUnwrap(j["effective-expiration-date"] as? String)
        XCTAssertEqual(iso.date(from: exp)?.timeIntervalSince1970, (expiry).rounded(.down))
        XCTAssertEqual(j["include-subdomains"] as? Bool, true)
        XCTAssertTrue(report.jsonText.contains("\"include-subdomains\":true"), "a JSON boolean, not 1 or \"true\"")
        XCTAssertTrue(report.jsonText.contains("\"port\":8443,"), "an integer")
        XCTAssertEqual(j["noted-hostname"] as? String, "Sigil.Test", "the domain as configured")
        let served = try XCTUnwrap(j["served-certificate-chain"] as? [String])
        XCTAssertEqual(try served.map(Self.pemToDER), [try fixtureDER("leaf"), try fixtureDER("intermediate")])
        let validated = try XCTUnwrap(j["validated-certificate-chain"] as? [String])
        XCTAssertEqual(
            try validated.map(Self.pemToDER),
            [try fixtureDER("leaf"), try fixtureDER("intermediate"), try fixtureDER("root")])
        let pins = try XCTUnwrap(j["known-pins"] as? [String])
        XCTAssertEqual(pins, known.map { "pin-sha256=\"" + m.pins[$0]!.dropFirst("sha256/".count) + "\"" })

        // Unknown port, no expiry: both null (present, not omitted); no validated path: [].
        p.pinSets = [PinSet(domain: m.domain, pins: known.map { PublicKeyPin(m.pins[$0]!)! })]
        let refused = p.evaluate(serverChain: chains["wronghost"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(refused.rejection, .untrusted)
        let r2 = try XCTUnwrap(refused.pinFailureReport)
        let j2 = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(r2.jsonText.utf8), options: [.fragmentsAllowed])
                as? [String: Any])
        XCTAssertTrue(j2["port"] is NSNull)
        XCTAssertTrue(j2["effective-expiration-date"] is NSNull)
        XCTAssertEqual(j2["include-subdomains"] as? Bool, false)
        XCTAssertEqual(j2["noted-hostname"] as? String, m.domain)
        XCTAssertEqual((j2["validated-certificate-chain"] as? [String])?.count, 0)
        XCTAssertEqual(
            try (j2["served-certificate-chain"] as? [String] ?? []).map(Self.pemToDER),
            [try fixtureDER("leaf-wronghost"), try fixtureDER("intermediate")])
        XCTAssertTrue(r2.enforced)
    }

    /// A parent domain's set with subdomains applies to a child; without it, it does not (and
    /// public-key mode with nothing pinned for the name refuses it, fail closed).
    func testSubdomainMatching() throws {
        let (m, certs, chains) = try M.load()
        var anchors = TrustStore()
        anchors.add(certs["root"]!, source: .system)
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
        let pins = [PublicKeyPin(m.pins["unrelated"]!)!, PublicKeyPin(m.pins["selfsigned"]!)!]
        p.pinSets = [PinSet(domain: "sigil.test", includesSubdomains: true, pins: pins, enforced: false)]
        let child = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(child.outcome, .trusted)
        XCTAssertEqual(child.pinFailureReport?.notedHostname, "sigil.test")
        XCTAssertEqual(child.pinFailureReport?.hostname, m.domain)
        XCTAssertEqual(child.pinFailureReport?.includeSubdomains, true)
        p.pinSets[0].includesSubdomains = false
        let notCovered = p.evaluate(serverChain: chains["valid"]!, domain: m.domain, at: m.at)
        XCTAssertEqual(notCovered.rejection, .noPins)
        XCTAssertNil(notCovered.pinFailureReport)
    }

    // MARK: configuration file

    func config(_ text: String) throws(PinConfigurationError) -> PinConfiguration {
        try PinConfiguration(json: Array(text.utf8))
    }

    func testConfigurationParses() throws {
        let (m, _, _) = try M.load()
        let leaf = m.pins["leaf"]!
        let backup = m.pins["unrelated"]!
        let c = try config(
            """
            {"pin-sets": [
              {"domain": "pin.sigil.test", "pins": ["\(leaf)", "\(backup)"]},
              {"domain": "Sigil.Test", "include-subdomains": true, "pins": ["\(backup)", "\(leaf)"],
               "expires": "2031-01-01T00:00:00Z", "enforce": false}
            ]}
            """)
        XCTAssertEqual(c.pinSets.count, 2)
        XCTAssertEqual(
            c.pinSets[0], PinSet(domain: "pin.sigil.test", pins: [PublicKeyPin(leaf)!, PublicKeyPin(backup)!]))
        XCTAssertEqual(c.pinSets[1].domain, "Sigil.Test")
        XCTAssertTrue(c.pinSets[1].includesSubdomains)
        XCTAssertFalse(c.pinSets[1].enforced)
        // 2031-01-01T00:00:00Z, independently: Foundation's ISO 8601 parser.
        XCTAssertEqual(
            c.pinSets[1].expires, ISO8601DateFormatter().date(from: "2031-01-01T00:00:00Z")!.timeIntervalSince1970)
    }

    func testConfigurationErrors() throws {
        let (m, _, _) = try M.load()
        let a = m.pins["leaf"]!
        let b = m.pins["unrelated"]!
        func fails(_ text: String, _ expected: PinConfigurationError, line: UInt = #line) {
            XCTAssertThrowsError(try config(text), line: line) { error in
                XCTAssertEqual(error as? PinConfigurationError, expected, line: line)
                XCTAssertFalse("\(error)".isEmpty, line: line)
            }
        }
        func set(_ members: String) -> String { "{\"pin-sets\": [{\(members)}]}" }
        let pins = "\"pins\": [\"\(a)\", \"\(b)\"]"
        // Not JSON / not strict JSON.
        XCTAssertThrowsError(try config("")) { XCTAssertTrue(String(describing: $0).contains("JSON")) }
        for bad in ["{\"pin-sets\": [],}", "{\"pin-sets\": []} x", "{\"pin-sets\": [], \"pin-sets\": []}"] {
            XCTAssertThrowsError(try config(bad)) { error in
                guard case .json? = error as? PinConfigurationError else { return XCTFail("\(bad): \(error)") }
            }
        }
        fails("[]", .wrongType(path: "$", expected: "an object"))
        fails("{}", .missingKey(path: "$", key: "pin-sets"))
        fails("{\"pin-sets\": {}}", .wrongType(path: "$.pin-sets", expected: "an array"))
        fails("{\"pin-sets\": []}", .noPinSets)
        fails("{\"pin-sets\": [], \"pinsets\": []}", .unknownKey(path: "$", key: "pinsets"))
        fails("{\"pin-sets\": [1]}", .wrongType(path: "$.pin-sets[0]", expected: "an object"))
        fails(set(pins), .missingKey(path: "$.pin-sets[0]", key: "domain"))
        fails(set("\"domain\": \"a.test\""), .missingKey(path: "$.pin-sets[0]", key: "pins"))
        fails(set("\"domain\": 1, " + pins), .wrongType(path: "$.pin-sets[0].domain", expected: "a string"))
        fails(
            set("\"domain\": \"a.test\", \"enforced\": false, " + pins),
            .unknownKey(path: "$.pin-sets[0]", key: "enforced"))
        for d in [
            "*.a.test", "192.0.2.1", "::1", "a.test.", "", "-a.test", "a..test", "ä.test", "a_b.test",
            String(repeating: "a", count: 64) + ".test",
        ] {
            fails(set("\"domain\": \"\(d)\", " + pins), .invalidDomain(path: "$.pin-sets[0].domain", domain: d))
        }
        fails(
            set("\"domain\": \"test\", \"include-subdomains\": true, " + pins),
            .subdomainsOfTopLevelDomain(path: "$.pin-sets[0].include-subdomains", domain: "test"))
        fails(
            set("\"domain\": \"a.test\", \"include-subdomains\": \"yes\", " + pins),
            .wrongType(path: "$.pin-sets[0].include-subdomains", expected: "true or false"))
        fails(
            set("\"domain\": \"a.test\", \"enforce\": 0, " + pins),
            .wrongType(path: "$.pin-sets[0].enforce", expected: "true or false"))
        fails(
            set("\"domain\": \"a.test\", \"pins\": \"\(a)\""),
            .wrongType(path: "$.pin-sets[0].pins", expected: "an array"))
        fails(
            set("\"domain\": \"a.test\", \"pins\": [\"\(a)\"]"),
            .noBackupPin(path: "$.pin-sets[0].pins", domain: "a.test"))
        fails(set("\"domain\": \"a.test\", \"pins\": []"), .noBackupPin(path: "$.pin-sets[0].pins", domain: "a.test"))
        fails(
            set("\"domain\": \"a.test\", \"pins\": [\"\(a)\", \"\(a)\"]"),
            .duplicatePin(path: "$.pin-sets[0].pins[1]", pin: a))
        let pinSha = "pin-sha256=\"" + a.dropFirst(7) + "\""
        fails(
            set("\"domain\": \"a.test\", \"pins\": [\"\(a)\", \(String(reflecting: pinSha))]"),
            .invalidPin(path: "$.pin-sets[0].pins[1]", pin: pinSha))
        fails(
            set("\"domain\": \"a.test\", \"pins\": [\"\(a)\", 7]"),
            .wrongType(path: "$.pin-sets[0].pins[1]", expected: "a string"))
        for e in [
            "2031-01-01", "2031-01-01T00:00:00.5Z", "2031-01-01T00:00:00+00:00", "2031-02-30T00:00:00Z",
            "2031-01-01t00:00:00z", "2031-01-01T24:00:00Z",
        ] {
            fails(
                set("\"domain\": \"a.test\", \"expires\": \"\(e)\", " + pins),
                .invalidExpiry(path: "$.pin-sets[0].expires", value: e))
        }
        fails(
            set("\"domain\": \"a.test\", \"expires\": 1, " + pins),
            .wrongType(path: "$.pin-sets[0].expires", expected: "a string"))
        fails(
            "{\"pin-sets\": [{\"domain\": \"a.test\", \(pins)}, {\"domain\": \"A.TEST\", \(pins)}]}",
            .duplicateDomain(path: "$.pin-sets[1].domain", domain: "A.TEST"))
    }

    /// Random edits of a valid document never crash or hang: each either parses (and then every
    /// set has a DNS-name domain and at least two distinct pins) or throws a typed error.
    func testConfigurationMutationsNeverCrash() throws {
        let (m, _, _) = try M.load()
        let doc = Array(
            """
            {"pin-sets": [{"domain": "pin.sigil.test", "include-subdomains": true, "enforce": false,
              "expires": "2031-01-01T00:00:00Z", "pins": ["\(m.pins["leaf"]!)", "\(m.pins["unrelated"]!)"]}]}
            """.utf8)
        XCTAssertNoThrow(try PinConfiguration(json: doc))
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("{}[]\",:. -_0123456789abcdefAZtrue/=+\\".utf8) + [0x00, 0xC3, 0xFF]
        var parsed = 0
        for _ in 0..<3000 {
            var d = doc
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<d.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: d[at] = alphabet.randomElement(using: &rng)!
                case 1: d.remove(at: at)
                default: d.insert(alphabet.randomElement(using: &rng)!, at: at)
                }
                if d.isEmpty { d = [0x20] }
            }
            do {
                let c = try PinConfiguration(json: d)
                for set in c.pinSets {
                    XCTAssertTrue(
                        set.domain.utf8.allSatisfy {
                            $0 == 0x2D || $0 == 0x2E || (0x30...0x39).contains($0)
                                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                        }
                            && !set.domain.hasSuffix("."), set.domain)
                    XCTAssertGreaterThanOrEqual(Set(set.pins).count, 2)
                }
                parsed += 1
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
        print("pin configuration mutations: \(parsed) of 3000 still parse")
    }
}
