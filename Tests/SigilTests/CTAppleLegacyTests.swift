import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Apple's CT policy by notBefore (Fixtures/ct/apple-legacy, made by
/// Fixtures/ct/gen_apple_legacy.py, whose verdicts come from the policy text quoted there): before
/// 21 April 2021 the month-based table (2, 3, 4, 5 SCTs from separate logs, no per-operator
/// maximum), from that date the day-based one (2 for ≤ 180 days, 3 for ≤ 398, at most 1 / 2 per
/// operator counting). Before the older table was implemented, Sigil judged every certificate by
/// the 2021 table: `emb-three-15mo-2020` and `emb-two-13mo-2020` were refused (over 398 days / 3
/// needed), `emb-two-same-operator-200d-2020` too (per-operator maximum).
final class CTAppleLegacyTests: XCTestCase {
    struct Manifest: Decodable {
        struct Case: Decodable {
            let name: String
            let certificate: String
            let checkTime: String
            let tls: String?
            let statuses: [String]
            let apple: Bool
            let required: Int?
        }
        let logList: String
        let issuer: String
        let cases: [Case]
    }

    func testVerdictsFollowTheTableOfTheCertificatesNotBefore() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/apple-legacy")
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let m = try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
        let list = try CTLogList(json: bytes(m.logList))
        let issuer = try Certificate(der: bytes(m.issuer))
        XCTAssertEqual(m.cases.count, 16)
        XCTAssertEqual(Set(m.cases.map(\.apple)), [true, false], "the table holds both verdicts")
        for c in m.cases {
            let cert = try Certificate(der: bytes(c.certificate))
            let time = try XCTUnwrap(CTLogList.parseRFC3339(c.checkTime), c.name)
            let tls = try c.tls.map(bytes)
            let checks = SCTVerifier.check(cert, issuer: issuer, tlsSCTList: tls, logList: list, at: time)
            XCTAssertEqual(checks.map(\.status.rawValue), c.statuses, c.name)
            let v = CTPolicy.evaluate(cert, checks: checks, logList: list, profile: .apple, at: time)
            XCTAssertTrue(v.applies, c.name)
            XCTAssertEqual(v.compliant, c.apple, "\(c.name): \(v.reason)")
            XCTAssertEqual(CTPolicy.appleEmbeddedRequirement(cert)?.required, c.required, c.name)
            XCTAssertEqual(ATSReport.requiredSCTs(cert), c.required ?? 3, c.name)
            // Enforced at a system anchor: a non-compliant leaf is never trusted.
            let r = TrustResult.trusted(path: [cert, issuer], anchor: .system, details: TrustDetails())
            let (out, _) = r.applyingCertificateTransparency(
                CTOptions(logList: list, profile: .apple, tlsSCTList: tls), at: time)
            XCTAssertEqual(out.isTrusted, c.apple, c.name)
        }
    }
}
