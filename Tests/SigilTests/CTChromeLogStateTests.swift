import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Chrome's CT policy reads each log's state at the time of check (Fixtures/ct/chrome-states,
/// made by Fixtures/ct/gen_chrome_states.py, whose verdicts come from the policy text quoted
/// there, GoogleChrome/CertificateTransparency ct_policy.md, certificates issued on or after
/// 15 April 2022): embedded SCTs need "at least one Embedded SCT from a CT Log that was
/// Qualified, Usable, or ReadOnly at the time of check", and SCTs delivered by OCSP or TLS count
/// only from such logs — a Retired log's SCTs issued before its retirement count towards the
/// embedded number, never alone and never by TLS/OCSP. And "each SCT's log operator is
/// determined to be the operator at the time of SCT issuance" (`previous_operators`): a log that
/// Alpha ran when it issued the SCT is Alpha's, not a second operator beside Alpha's own log.
final class CTChromeLogStateTests: XCTestCase {
    struct Manifest: Decodable {
        struct Case: Decodable {
            let name: String
            let certificate: String
            let checkTime: String?
            let tls: String?
            let statuses: [String]
            let chrome: Bool
        }
        let checkTime: String?
        let logList: String
        let issuer: String
        let cases: [Case]
    }

    func testLogStatesAtTheTimeOfCheckGiveThePolicyTextsVerdicts() throws {
        try Self.assertChromeVerdicts(folder: "ct/chrome-states", count: 9)
    }

    /// Every case of `folder`'s manifest (made by a generator that computes the verdicts from
    /// Chrome's policy text): the SCT statuses, the verdict, and (enforced at a system anchor)
    /// the trust result; the time of check is the case's, else the manifest's. The policy
    /// applies to every case but those named in `exempt`.
    static func assertChromeVerdicts(folder: String, count: Int, exempt: Set<String> = []) throws {
        let dir = TestSupport.fixtures.appendingPathComponent(folder)
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let m = try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
        let list = try CTLogList(json: bytes(m.logList))
        let issuer = try Certificate(der: bytes(m.issuer))
        XCTAssertEqual(m.cases.count, count)
        for c in m.cases {
            let cert = try Certificate(der: bytes(c.certificate))
            let time = try XCTUnwrap((c.checkTime ?? m.checkTime).flatMap(CTLogList.parseRFC3339), c.name)
            let checks = SCTVerifier.check(
                cert, issuer: issuer, tlsSCTList: try c.tls.map(bytes), logList: list, at: time)
            XCTAssertEqual(checks.map(\.status.rawValue), c.statuses, c.name)
            let v = CTPolicy.evaluate(cert, checks: checks, logList: list, profile: .chrome, at: time)
            XCTAssertEqual(v.compliant, c.chrome, "\(c.name): \(v.reason)")
            XCTAssertEqual(v.applies, !exempt.contains(c.name), c.name)
            // Enforced (system anchor), a non-compliant leaf is never trusted.
            let r = TrustResult.trusted(path: [cert, issuer], anchor: .system, details: TrustDetails())
            let options = CTOptions(logList: list, profile: .chrome, tlsSCTList: try c.tls.map(bytes))
            let (out, _) = r.applyingCertificateTransparency(options, at: time)
            XCTAssertEqual(out.isTrusted, c.chrome, c.name)
        }
    }

    /// The state a log is in at the time of check (`CTLog.isQualifiedUsableOrReadOnly(at:)`):
    /// retired from its timestamp on, not before; readonly counts either side of its timestamp.
    func testQualifiedUsableOrReadOnlyFollowsTheStateTimestamp() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/chrome-states")
        let list = try CTLogList(json: [UInt8](Data(contentsOf: dir.appendingPathComponent("log_list.json"))))
        func log(_ name: String) throws -> CTLog { try XCTUnwrap(list.logs.first { $0.name == name }, name) }
        let retired = try log("Gamma retired")
        let r = try XCTUnwrap(CTLogList.parseRFC3339("2026-05-01T00:00:00Z"))
        XCTAssertTrue(retired.isQualifiedUsableOrReadOnly(at: r - 1))
        XCTAssertFalse(retired.isQualifiedUsableOrReadOnly(at: r))
        let readonly = try log("Delta readonly")
        let f = try XCTUnwrap(CTLogList.parseRFC3339("2026-05-15T00:00:00Z"))
        XCTAssertTrue(readonly.isQualifiedUsableOrReadOnly(at: f - 1))
        XCTAssertTrue(readonly.isQualifiedUsableOrReadOnly(at: f + 86_400))
        XCTAssertTrue(try log("Alpha usable").isQualifiedUsableOrReadOnly(at: f))
    }

    /// `previous_operators` (v3 schema): the operator when the SCT was issued, by its
    /// millisecond timestamp against each `end_time`; a malformed history refuses the list.
    func testPreviousOperatorsDecideTheOperatorOfAnSCT() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/chrome-states")
        let json = try String(contentsOf: dir.appendingPathComponent("log_list.json"), encoding: .utf8)
        let list = try CTLogList(json: Array(json.utf8))
        let log = try XCTUnwrap(list.logs.first { $0.name == "Gamma ex-Alpha late" })
        XCTAssertEqual(log.operatorName, "Gamma")
        let end = UInt64(try XCTUnwrap(CTLogList.parseRFC3339("2026-05-01T00:00:00Z"))) * 1000
        XCTAssertEqual(log.operatorName(forSCTAt: end), "Alpha")
        XCTAssertEqual(log.operatorName(forSCTAt: end + 1), "Gamma")
        XCTAssertEqual(
            try XCTUnwrap(list.logs.first { $0.name == "Alpha usable" }).operatorName(forSCTAt: end), "Alpha")
        for bad in [
            "\"previous_operators\": {}", "\"previous_operators\": [{\"name\": \"Alpha\"}]",
            "\"previous_operators\": [{\"name\": \"Alpha\", \"end_time\": \"2026-05-01\"}]",
        ] {
            let broken = json.replacingOccurrences(
                of:
                    "\"previous_operators\": [\n      {\n       \"name\": \"Alpha\",\n       \"end_time\": \"2026-05-01T00:00:00Z\"\n      }\n     ]",
                with: bad)
            XCTAssertNotEqual(broken, json)
            XCTAssertThrowsError(try CTLogList(json: Array(broken.utf8)), bad)
        }
    }
}
