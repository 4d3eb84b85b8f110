import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// `sha256/` SPKI pins, per-domain pin sets (subdomains, expiry, backup-pin warning) and the
/// certificate directory loader.
final class PolicyPinTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("pinning")
    static let at = 1_893_456_000.0  // 2030-01-01

    func cert(_ name: String) throws -> Certificate {
        try Certificate(der: TestSupport.read(Self.dir.appendingPathComponent(name + ".der").path))
    }

    func chain(_ name: String) throws -> [Certificate] {
        try Certificate.all(from: TestSupport.read(Self.dir.appendingPathComponent("chains/\(name).pem").path))
    }

    var anchors: TrustStore {
        get throws {
            var s = TrustStore()
            s.add(try cert("root"), source: .system)
            return s
        }
    }

    func testPinSyntax() throws {
        // RFC 7469 Appendix A style known answer: SHA-256 of an empty input is
        // 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=, a well-formed pin (of no real key).
        let empty = PublicKeyPin("sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        XCTAssertNotNil(empty)
        XCTAssertEqual(empty, PublicKeyPin(subjectPublicKeyInfo: [UInt8]()))
        XCTAssertEqual(empty?.description, "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        XCTAssertNotNil(PublicKeyPin("SHA256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="), "prefix case-insensitive")
        for bad in [
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",  // no prefix
            "sha1/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",  // other hash
            "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU",  // padding missing
            "sha256/47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=",  // base64url
            "sha256/ 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuF=",  // space
            "sha256/AAAA", "sha256/", "",
        ] {
            XCTAssertNil(PublicKeyPin(bad), bad)
        }
        XCTAssertNil(PublicKeyPin(sha256: [1, 2, 3]))
        // A certificate's pin is the SHA-256 of its SPKI (cross-checked with Python in the
        // scenario tests); SPKI and certificate forms agree.
        let leaf = try cert("leaf")
        XCTAssertEqual(
            PublicKeyPin(certificate: leaf), PublicKeyPin(subjectPublicKeyInfo: leaf.subjectPublicKeyInfo.array))
        XCTAssertTrue(
            PublicKeyPin(certificate: leaf).matches(try cert("leaf-expired")), "same key, renewed certificate")
        XCTAssertFalse(PublicKeyPin(certificate: leaf).matches(try cert("intermediate")))
    }

    /// Round trip and mutations: a parsed pin always prints back as its input (canonical form
    /// only), random edits never crash and are refused unless they are another canonical pin.
    func testPinParsingRoundTripAndMutations() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ .".utf8)
        for _ in 0..<500 {
            let digest = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let pin = PublicKeyPin(sha256: digest)!
            XCTAssertEqual(PublicKeyPin(pin.description), pin)
            var text = Array(pin.description.utf8)
            let i = Int.random(in: 0..<text.count, using: &rng)
            text[i] = alphabet.randomElement(using: &rng)!
            let mutated = String(decoding: text, as: UTF8.self)
            if let p = PublicKeyPin(mutated) {
                XCTAssertEqual(
                    String(p.description.dropFirst(7)), String(mutated.dropFirst(7)),
                    "accepted only as a canonical pin: \(mutated)")
            }
        }
    }

    func testPinSetDomainMatching() {
        let pins = [PublicKeyPin(sha256: Array(repeating: 1, count: 32))!]
        let exact = PinSet(domain: "api.sigil.test", pins: pins)
        XCTAssertTrue(exact.applies(to: "api.sigil.test"))
        XCTAssertTrue(exact.applies(to: "API.Sigil.Test."))
        XCTAssertFalse(exact.applies(to: "a.api.sigil.test"))
        XCTAssertFalse(exact.applies(to: "xapi.sigil.test"))
        let subs = PinSet(domain: "sigil.test", includesSubdomains: true, pins: pins)
        XCTAssertTrue(subs.applies(to: "sigil.test"))
        XCTAssertTrue(subs.applies(to: "a.b.sigil.test"))
        XCTAssertFalse(subs.applies(to: "evilsigil.test"), "a suffix is not a subdomain")
        XCTAssertFalse(subs.applies(to: "sigil.test.evil"))
        // Most specific wins: the exact set over the parent, the longer parent over the shorter.
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: TrustStore())
        let deeper = PinSet(domain: "b.sigil.test", includesSubdomains: true, pins: pins)
        p.pinSets = [subs, exact, deeper]
        XCTAssertEqual(p.pinSets(for: "api.sigil.test", at: Self.at).enforced?.domain, "api.sigil.test")
        XCTAssertEqual(p.pinSets(for: "x.b.sigil.test", at: Self.at).enforced?.domain, "b.sigil.test")
        XCTAssertEqual(p.pinSets(for: "x.sigil.test", at: Self.at).enforced?.domain, "sigil.test")
        XCTAssertTrue(p.pinSets(for: "other.test", at: Self.at).isEmpty)
        XCTAssertTrue(p.pinSets(for: nil, at: Self.at).isEmpty)
        // A trailing dot does not make a parent look longer than the exact name.
        p.pinSets = [PinSet(domain: "sigil.test...", includesSubdomains: true, pins: pins), exact]
        XCTAssertEqual(p.pinSets(for: "api.sigil.test", at: Self.at).enforced?.domain, "api.sigil.test")
    }

    /// RFC 7469: a host stays a Known Pinned Host while any unexpired enforced policy applies to
    /// it (its own, or a parent's with includeSubDomains); a report-only policy is never enforced
    /// (§2.3.2) and an expired one no longer noted (§2.3.3), so neither lifts an enforced parent.
    /// The expected outcomes follow from that text: with the parent's (non-matching) pins in
    /// force the valid chain is refused; with the child's own enforced set (matching) it passes.
    func testReportOnlyOrExpiredChildSetDoesNotLiftAnEnforcedParent() throws {
        let valid = try chain("valid")
        let leafPin = PublicKeyPin(certificate: try cert("leaf"))
        let unrelatedPin = PublicKeyPin(certificate: try cert("unrelated"))
        let host = "pin.sigil.test"
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: try anchors)
        let parent = PinSet(domain: "sigil.test", includesSubdomains: true, pins: [unrelatedPin, unrelatedPin])
        // The parent alone refuses (its pins do not match).
        p.pinSets = [parent]
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: host, at: Self.at).rejection, .pinNotFound)
        // A report-only set for the exact host, with the matching pin: the parent still decides.
        let reportOnlyChild = PinSet(domain: host, pins: [leafPin, unrelatedPin], enforced: false)
        for order in [[parent, reportOnlyChild], [reportOnlyChild, parent]] {
            p.pinSets = order
            let e = p.evaluate(serverChain: valid, domain: host, at: Self.at)
            XCTAssertEqual(e.rejection, .pinNotFound, "report-only child lifted the enforced parent")
            XCTAssertEqual(e.pinFailureReport?.notedHostname, "sigil.test")
            XCTAssertEqual(e.pinFailureReport?.enforced, true)
            let sets = p.pinSets(for: host, at: Self.at)
            XCTAssertEqual(sets.enforced?.domain, "sigil.test")
            XCTAssertEqual(sets.reportOnly?.domain, host)
        }
        // An expired set for the exact host, with the matching pin: the parent still decides.
        let expiredChild = PinSet(domain: host, pins: [leafPin, unrelatedPin], expires: Self.at - 1)
        p.pinSets = [expiredChild, parent]
        let late = p.evaluate(serverChain: valid, domain: host, at: Self.at)
        XCTAssertEqual(late.rejection, .pinNotFound, "expired child lifted the enforced parent")
        XCTAssertEqual(p.pinSets(for: host, at: Self.at).expired.map(\.domain), [host])
        // The exact host's own enforced set takes precedence (congruent over superdomain match).
        p.pinSets = [parent, PinSet(domain: host, pins: [leafPin, unrelatedPin])]
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: host, at: Self.at).outcome, .pinMatched)
        // An expired parent with a report-only child: nothing enforced, ordinary evaluation,
        // the child's pins reported when they fail.
        p.pinSets = [
            PinSet(domain: "sigil.test", includesSubdomains: true, pins: [leafPin], expires: Self.at - 1),
            PinSet(domain: host, pins: [unrelatedPin, unrelatedPin], enforced: false),
        ]
        let ro = p.evaluate(serverChain: valid, domain: host, at: Self.at)
        XCTAssertEqual(ro.outcome, .trusted)
        XCTAssertEqual(ro.pinFailureReport?.enforced, false)
        XCTAssertEqual(ro.pinFailureReport?.notedHostname, host)
        // Global pins are pins in force too: a report-only or expired set for the host does not
        // lift them (found by review, 2026-12-04: an expired set switched a refusing global pin
        // off); only an enforced set replaces them.
        p.pinnedPublicKeys = [unrelatedPin]
        for set in [
            PinSet(domain: host, pins: [leafPin, unrelatedPin], enforced: false),
            PinSet(domain: host, pins: [leafPin, unrelatedPin], expires: Self.at - 1),
        ] {
            p.pinSets = [set]
            let e = p.evaluate(serverChain: valid, domain: host, at: Self.at)
            XCTAssertEqual(e.rejection, .pinNotFound, "\(set) lifted the global pins")
            XCTAssertEqual(e.pinFailureReport?.enforced, true)
        }
        p.pinSets = [PinSet(domain: host, pins: [leafPin, unrelatedPin])]
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: host, at: Self.at).outcome, .pinMatched)
    }

    func testPinSetsDecideForTheirDomain() throws {
        let valid = try chain("valid")
        let leafPin = PublicKeyPin(certificate: try cert("leaf"))
        let unrelatedPin = PublicKeyPin(certificate: try cert("unrelated"))
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: try anchors)
        // A global pin that matches, but the domain's own set (which does not) replaces it.
        p.pinnedPublicKeys = [leafPin]
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at).outcome, .pinMatched)
        p.pinSets = [PinSet(domain: "sigil.test", includesSubdomains: true, pins: [unrelatedPin, unrelatedPin])]
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at).rejection, .pinNotFound)
        // Without includeSubdomains the set does not apply to pin.sigil.test: global pins again.
        p.pinSets[0].includesSubdomains = false
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at).outcome, .pinMatched)
        // A set with the right pin plus a backup.
        p.pinSets = [
            PinSet(domain: "pin.sigil.test", pins: [unrelatedPin, PublicKeyPin(certificate: try cert("intermediate"))])
        ]
        let ok = p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at)
        XCTAssertEqual(ok.outcome, .pinMatched)
        XCTAssertEqual(ok.matchedIndexes, [1])
    }

    func testPinSetExpiry() throws {
        let valid = try chain("valid")
        let unrelatedPin = PublicKeyPin(certificate: try cert("unrelated"))
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: try anchors)
        p.pinSets = [PinSet(domain: "pin.sigil.test", pins: [unrelatedPin], expires: Self.at + 1)]
        // Before expiry the (non-matching) pins are enforced.
        XCTAssertEqual(p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at).rejection, .pinNotFound)
        // After expiry: not enforced, ordinary evaluation decides (valid chain: trusted) ...
        let late = p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at + 2)
        XCTAssertEqual(late.outcome, .trusted)
        XCTAssertTrue(late.warnings.contains { $0.contains("expired") })
        // ... and an invalid chain is still refused: expiry lifts the pins, not the validation.
        XCTAssertEqual(
            p.evaluate(serverChain: try chain("expired"), domain: "pin.sigil.test", at: Self.at + 2).rejection,
            .untrusted)
        // With allowInvalidCertificates and the domain check, an expired set leaves nothing
        // pinned: clause 1 refuses.
        p.allowInvalidCertificates = true
        XCTAssertEqual(
            p.evaluate(serverChain: valid, domain: "pin.sigil.test", at: Self.at + 2).rejection,
            .domainValidationNeedsPinning)
    }

    func testBackupPinWarnings() throws {
        let leafPin = PublicKeyPin(certificate: try cert("leaf"))
        let interPin = PublicKeyPin(certificate: try cert("intermediate"))
        let spare = PublicKeyPin(sha256: Array(repeating: 7, count: 32))!
        XCTAssertTrue(
            PinSet(domain: "a.test", pins: [leafPin]).warnings(at: Self.at).contains { $0.contains("no backup pin") })
        XCTAssertTrue(
            PinSet(domain: "a.test", pins: [leafPin, leafPin]).warnings(at: Self.at).contains {
                $0.contains("no backup pin")
            },
            "the same pin twice is not a backup")
        XCTAssertEqual(PinSet(domain: "a.test", pins: [leafPin, spare]).warnings(at: Self.at), [])
        // Both pins are keys served today: neither is a backup kept offline.
        let served = try chain("valid")
        XCTAssertTrue(
            PinSet(domain: "a.test", pins: [leafPin, interPin]).warnings(at: Self.at, servedChain: served)
                .contains { $0.contains("none is a backup") })
        XCTAssertEqual(PinSet(domain: "a.test", pins: [leafPin, spare]).warnings(at: Self.at, servedChain: served), [])
        XCTAssertTrue(
            PinSet(domain: "a.test", pins: [leafPin, spare], expires: 0).warnings(at: Self.at).contains {
                $0.contains("expired")
            })
        var p = SecurityPolicy(pinningMode: .publicKey, anchors: TrustStore())
        p.pinSets = [PinSet(domain: "a.test", pins: [leafPin])]
        XCTAssertTrue(p.configurationWarnings(at: Self.at).contains { $0.contains("no backup pin") })
    }

    func testDirectoryLoader() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-pins-\(getpid())")
        try? FileManager.default.removeItem(at: tmp)
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let fm = FileManager.default
        func copy(_ from: String, _ to: String) throws {
            try fm.copyItem(at: Self.dir.appendingPathComponent(from), to: tmp.appendingPathComponent(to))
        }
        try copy("leaf.der", "a-leaf.cer")  // DER with .cer, as AFNetworking bundles them
        try copy("intermediate.pem", "b-inter.CRT")  // PEM with .crt, upper-case extension
        try copy("root.der", "c-root.der")
        try copy("chains/valid.pem", "d-bundle.pem")  // two certificates in one file
        try copy("unrelated.der", "e-ignored.txt")  // not a certificate extension: ignored
        try Data("not a certificate".utf8).write(to: tmp.appendingPathComponent("f-junk.cer"))
        try fm.createDirectory(at: tmp.appendingPathComponent("g-sub.pem"), withIntermediateDirectories: true)
        let loaded = try XCTUnwrap(CertificateFiles.load(directory: tmp.path))
        XCTAssertEqual(
            loaded.certificates,
            [try cert("leaf"), try cert("intermediate"), try cert("root"), try cert("leaf"), try cert("intermediate")])
        XCTAssertEqual(loaded.skipped.map { ($0.file as NSString).lastPathComponent }, ["f-junk.cer"])
        XCTAssertEqual(loaded.files.count, 4)
        XCTAssertEqual(SecurityPolicy.certificates(inDirectory: tmp.path).count, 5)
        XCTAssertNil(CertificateFiles.load(directory: tmp.appendingPathComponent("missing").path))
        // A policy pinning the directory's certificates (duplicates are harmless).
        var p = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: loaded.certificates, anchors: try anchors)
        p.validatesCertificateChain = true
        XCTAssertEqual(
            p.evaluate(serverChain: try chain("valid"), domain: "pin.sigil.test", at: Self.at).outcome, .pinMatched)
        // AFNetworking-style DER data.
        let fromData = try SecurityPolicy(
            pinningMode: .certificate, pinnedCertificateData: [try cert("intermediate").der], anchors: try anchors)
        XCTAssertEqual(
            fromData.evaluate(serverChain: try chain("valid"), domain: "pin.sigil.test", at: Self.at).outcome,
            .pinMatched)
        XCTAssertThrowsError(
            try SecurityPolicy(pinningMode: .certificate, pinnedCertificateData: [[0x30, 0x00]], anchors: TrustStore()))
    }

    func testDefaultPolicyAndWarnings() throws {
        let d = SecurityPolicy.defaultPolicy(anchors: TrustStore())
        XCTAssertEqual(d.pinningMode, .none)
        XCTAssertFalse(d.allowInvalidCertificates)
        XCTAssertTrue(d.validatesDomainName)
        XCTAssertFalse(d.validatesCertificateChain)
        XCTAssertEqual(d.configurationWarnings(at: Self.at), [])
        var ignored = d
        ignored.pinSets = [PinSet(domain: "a.test", pins: [PublicKeyPin(sha256: Array(repeating: 1, count: 32))!])]
        XCTAssertTrue(ignored.configurationWarnings(at: Self.at).contains { $0.contains("not enforced") })
        ignored.pinningMode = .certificate
        ignored.pinnedCertificates = [try cert("leaf")]
        XCTAssertTrue(ignored.configurationWarnings(at: Self.at).contains { $0.contains("publicKey mode only") })
        var loud = d
        loud.allowInvalidCertificates = true
        loud.pinningMode = .publicKey
        XCTAssertTrue(loud.configurationWarnings(at: Self.at).contains { $0.contains("nothing is evaluated") })
        XCTAssertTrue(loud.configurationWarnings(at: Self.at).contains { $0.contains("nothing pinned") })
        // The outermost overload uses the current time: the 2025-2035 chain is valid today
        // (until 2035) — evaluated against the pinning root.
        var now = SecurityPolicy.defaultPolicy(anchors: try anchors)
        now.validatesDomainName = true
        XCTAssertEqual(now.evaluate(serverChain: try chain("valid"), domain: "pin.sigil.test").outcome, .trusted)
    }
}
