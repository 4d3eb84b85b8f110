import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// The cases of Fixtures/ct/generated (made by Fixtures/ct/generate.py, which plays several
/// logs of several operators and computes each expected status and verdict itself).
final class CTPolicyTests: XCTestCase {
    struct Manifest: Decodable {
        struct Case: Decodable {
            let name: String
            let certificate: String
            let lifetimeDays: Int64
            let tls: String?
            let ocsp: String?
            let statuses: [String]
            let apple: Bool
            let chrome: Bool
        }
        let checkTime: String
        let logList: String
        let issuer: String
        let cases: [Case]
    }

    func testGeneratedCasesGiveTheScriptsVerdicts() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let list = try CTLogList(json: bytes(manifest.logList))
        let issuer = try Certificate(der: bytes(manifest.issuer))
        let time = try XCTUnwrap(parseRFC3339(manifest.checkTime))
        XCTAssertGreaterThanOrEqual(manifest.cases.count, 15)
        for c in manifest.cases {
            let cert = try Certificate(der: bytes(c.certificate))
            XCTAssertEqual(CTPolicy.lifetimeDays(cert), c.lifetimeDays, c.name)
            let checks = SCTVerifier.check(
                cert, issuer: issuer, ocspSCTList: try c.ocsp.map(bytes), tlsSCTList: try c.tls.map(bytes),
                logList: list, at: time)
            XCTAssertEqual(checks.map(\.status.rawValue), c.statuses, c.name)
            let apple = CTPolicy.evaluate(cert, checks: checks, logList: list, profile: .apple, at: time)
            let chrome = CTPolicy.evaluate(cert, checks: checks, logList: list, profile: .chrome, at: time)
            XCTAssertEqual(apple.compliant, c.apple, "\(c.name) apple: \(apple.reason)")
            XCTAssertEqual(chrome.compliant, c.chrome, "\(c.name) chrome: \(chrome.reason)")
            // Without the issuer no embedded SCT is valid; without the list none is.
            let noList = SCTVerifier.check(
                cert, issuer: issuer, ocspSCTList: try c.ocsp.map(bytes), tlsSCTList: try c.tls.map(bytes),
                logList: nil, at: time)
            XCTAssertFalse(noList.contains { $0.status == .valid }, c.name)
            XCTAssertEqual(
                CTPolicy.evaluate(cert, checks: noList, logList: nil, profile: .apple, at: time).compliant,
                cert.notBefore < CTPolicy.appleStart, c.name)
        }
    }

    func testLifetimeCountsInclusiveDaysWithRemainderAsADay() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        let c = try Certificate(der: [UInt8](Data(contentsOf: dir.appendingPathComponent("d90-two-operators.der"))))
        // notBefore + 90 * 86400 - 1 s inclusive is exactly 90 days.
        XCTAssertEqual(c.notAfter - c.notBefore + 1, 90 * 86400)
        XCTAssertEqual(CTPolicy.lifetimeDays(c), 90)
    }
}

/// Enforcement: a system anchor enforces the policy, a custom one only when required; no log
/// list fails closed.
final class CTEnforcementTests: XCTestCase {
    func testSystemAnchorsEnforceAndCustomAnchorsAreExemptUnlessRequired() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        func cert(_ f: String) throws -> Certificate {
            try Certificate(der: [UInt8](Data(contentsOf: dir.appendingPathComponent(f))))
        }
        let list = try CTLogList(json: [UInt8](Data(contentsOf: dir.appendingPathComponent("log_list.json"))))
        let issuer = try cert("issuer.der")
        let time = try XCTUnwrap(parseRFC3339("2025-12-01T00:00:00Z"))
        for (name, compliant) in [("d90-two-operators.der", true), ("d90-one-operator.der", false)] {
            let leaf = try cert(name)
            for anchor in [AnchorSource.system, .custom] {
                for required in [false, true] {
                    let r = TrustResult.trusted(path: [leaf, issuer], anchor: anchor, details: TrustDetails())
                    let (out, ct) = r.applyingCertificateTransparency(
                        CTOptions(logList: list, required: required), at: time)
                    let enforced = anchor == .system || required
                    XCTAssertEqual(ct?.enforced, enforced)
                    XCTAssertEqual(out.isTrusted, compliant || !enforced, "\(name) \(anchor) \(required)")
                    if case .untrusted(let f) = out { XCTAssertEqual(f.first?.kind, .certificateTransparency) }
                }
            }
            // CT asked for with no list: never trusted through a system anchor.
            let r = TrustResult.trusted(path: [leaf, issuer], anchor: .system, details: TrustDetails())
            XCTAssertFalse(r.applyingCertificateTransparency(CTOptions(logList: nil), at: time).0.isTrusted)
        }
        // An untrusted result stays untrusted.
        let bad = TrustResult.untrusted([TrustFailure(.expired, at: 0, "x")])
        XCTAssertFalse(
            bad.applyingCertificateTransparency(CTOptions(logList: list, required: true), at: time).0.isTrusted)
    }
}
