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
            let statusesAppleList: [String]
            let appleAppleList: Bool
            let chromeAppleList: Bool
        }
        let checkTime: String
        let logList: String
        let appleLogList: String
        let issuer: String
        let cases: [Case]
    }

    func testGeneratedCasesGiveTheScriptsVerdicts() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let list = try CTLogList(json: bytes(manifest.logList))
        // The same logs in the shape of Apple's current list (schema v4/v5), plus one tiled log.
        let appleList = try CTLogList(json: bytes(manifest.appleLogList))
        XCTAssertEqual(appleList.logs.count, list.logs.count + 1)
        XCTAssertTrue(appleList.hasTiledLogs)
        XCTAssertFalse(list.hasTiledLogs)
        XCTAssertEqual(appleList.version, "7")
        let issuer = try Certificate(der: bytes(manifest.issuer))
        let time = try XCTUnwrap(CTLogList.parseRFC3339(manifest.checkTime))
        XCTAssertGreaterThanOrEqual(manifest.cases.count, 22)
        for c in manifest.cases {
            let cert = try Certificate(der: bytes(c.certificate))
            XCTAssertEqual(CTPolicy.lifetimeDays(cert), c.lifetimeDays, c.name)
            for (l, statuses, appleOK, chromeOK, which) in [
                (list, c.statuses, c.apple, c.chrome, "v3"),
                (appleList, c.statusesAppleList, c.appleAppleList, c.chromeAppleList, "Apple"),
            ] {
                let checks = SCTVerifier.check(
                    cert, issuer: issuer, ocspSCTList: try c.ocsp.map(bytes), tlsSCTList: try c.tls.map(bytes),
                    logList: l, at: time)
                XCTAssertEqual(checks.map(\.status.rawValue), statuses, "\(c.name) \(which)")
                let apple = CTPolicy.evaluate(cert, checks: checks, logList: l, profile: .apple, at: time)
                let chrome = CTPolicy.evaluate(cert, checks: checks, logList: l, profile: .chrome, at: time)
                XCTAssertEqual(apple.compliant, appleOK, "\(c.name) \(which) apple: \(apple.reason)")
                XCTAssertEqual(chrome.compliant, chromeOK, "\(c.name) \(which) chrome: \(chrome.reason)")
            }
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

    /// "Currently approved" follows the state's timestamp (Apple's policy: approved "at the
    /// time of check"): a log usable since T is not approved before T; a readonly or retired one
    /// since T was approved up to T and counts SCTs issued before T only.
    func testApprovalFollowsTheStateTimestamp() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        let list = try CTLogList(json: [UInt8](Data(contentsOf: dir.appendingPathComponent("apple_log_list.json"))))
        func log(_ name: String) throws -> CTLog { try XCTUnwrap(list.logs.first { $0.name == name }, name) }
        let later = try log("Delta later")  // usable since 2026-07-01
        let t = try XCTUnwrap(CTLogList.parseRFC3339("2026-07-01T00:00:00Z"))
        XCTAssertFalse(later.isCurrentlyApproved(at: t - 1))
        XCTAssertTrue(later.isCurrentlyApproved(at: t))
        XCTAssertFalse(later.acceptsSCT(issuedAt: t - 100, at: t - 1))
        XCTAssertTrue(later.acceptsSCT(issuedAt: t - 100, at: t))
        let readonly = try log("Gamma 1")  // readonly since 2026-05-15
        let r = try XCTUnwrap(CTLogList.parseRFC3339("2026-05-15T00:00:00Z"))
        XCTAssertTrue(readonly.isCurrentlyApproved(at: r - 1))
        XCTAssertFalse(readonly.isCurrentlyApproved(at: r))
        XCTAssertTrue(readonly.acceptsSCT(issuedAt: r - 1, at: r + 1000))
        XCTAssertFalse(readonly.acceptsSCT(issuedAt: r, at: r + 1000))
        let pending = try log("Beta pending")
        XCTAssertFalse(pending.isCurrentlyApproved(at: t))
        XCTAssertFalse(pending.acceptsSCT(issuedAt: 0, at: t))
        // The tiled log is read from `tiled_logs` of the Apple-shaped list.
        XCTAssertTrue(try log("Epsilon tiled").isTiled)
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
        let time = try XCTUnwrap(CTLogList.parseRFC3339("2026-06-01T00:00:00Z"))
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

/// RFC 6962 §3.1–3.2: a precertificate issued by a Precertificate Signing Certificate. The
/// script (Fixtures/ct/generate.py) builds the precert_entry as a log does — issuer and AKI
/// changed to the CA's, issuer_key_hash of the CA that certified the signing certificate — and
/// the final certificate from the CA.
final class CTPrecertificateSigningTests: XCTestCase {
    struct Manifest: Decodable {
        struct PSC: Decodable {
            let certificate: String
            let signingCertificate: String
            let precertificate: String
            let statusesWithCA: [String]
            let statusesWithSigningCertificate: [String]
            let apple: Bool
        }
        let checkTime: String
        let logList: String
        let issuer: String
        let precertificateSigning: PSC
    }

    func testSCTsVerifyAgainstTheCAThatCertifiedTheSigningCertificate() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let m = try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
        let p = m.precertificateSigning
        let list = try CTLogList(json: bytes(m.logList))
        let ca = try Certificate(der: bytes(m.issuer))
        let psc = try Certificate(der: bytes(p.signingCertificate))
        let final = try Certificate(der: bytes(p.certificate))
        let time = try XCTUnwrap(CTLogList.parseRFC3339(m.checkTime))
        XCTAssertTrue(SCTVerifier.isPrecertificateSigningCertificate(psc))
        XCTAssertFalse(SCTVerifier.isPrecertificateSigningCertificate(ca))
        let withCA = SCTVerifier.check(final, issuer: ca, logList: list, at: time)
        XCTAssertEqual(withCA.map(\.status.rawValue), p.statusesWithCA)
        XCTAssertEqual(
            CTPolicy.evaluate(final, checks: withCA, logList: list, profile: .apple, at: time).compliant, p.apple)
        XCTAssertEqual(
            SCTVerifier.check(final, issuer: psc, logList: list, at: time).map(\.status.rawValue),
            p.statusesWithSigningCertificate)
        // The precertificate itself (poison extension, issued by the signing certificate) is not
        // what a client verifies; it has no SCTs.
        let pre = try Certificate(der: bytes(p.precertificate))
        XCTAssertTrue(SCTVerifier.check(pre, issuer: psc, logList: list, at: time).isEmpty)
    }
}
