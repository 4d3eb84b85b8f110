import Foundation
import SigilTestSupport
import XCTest

/// `sigil verify --ct-log-list/--ct-policy/--require-ct` and `sigil inspect --ct-log-list`, run
/// as a process over Fixtures/ct/generated and ../shared/vectors/ct.
final class CTCLITests: XCTestCase {
    static let generated = TestSupport.packageRoot.appendingPathComponent("Fixtures/ct/generated").path
    /// 2026-06-01T00:00:00Z, the script's time of check: the generated certificates are valid then.
    static let at = "1780272000"

    @discardableResult
    func run(_ args: [String], exit expected: Int32, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        try runSigil(args, exit: expected, file: file, line: line).out
    }

    func g(_ name: String) -> String { Self.generated + "/" + name }

    func verify(_ cert: String, _ extra: [String]) -> [String] {
        [
            "verify", "--json", "--anchor", g("issuer.der"), "--anchors-only", "--kind", "basic", "--at", Self.at,
            "--ct-log-list", g("log_list.json"),
        ] + extra + [g(cert)]
    }

    func testVerifyEnforcesCTOnlyWhenRequiredForCustomAnchors() throws {
        // Compliant: trusted either way.
        try run(verify("d90-two-operators.der", ["--require-ct"]), exit: 0)
        // Not compliant (two logs of one operator): a custom anchor is exempt without --require-ct...
        let exempt = try run(verify("d90-one-operator.der", []), exit: 0)
        XCTAssertTrue(exempt.contains("\"enforced\":false"))
        // ...and fails with certificateTransparency with it.
        let out = try run(verify("d90-one-operator.der", ["--require-ct"]), exit: 1)
        XCTAssertTrue(out.contains("\"kind\":\"certificateTransparency\""), out)
        XCTAssertTrue(out.contains("\"status\":\"valid\""), out)
        // Chrome accepts a 400-day certificate with 3 SCTs from 3 operators; Apple does not.
        try run(verify("d400-three.der", ["--require-ct", "--ct-policy", "chrome"]), exit: 0)
        try run(verify("d400-three.der", ["--require-ct", "--ct-policy", "apple"]), exit: 1)
        // Tampered SCT: never counted.
        let t = try run(verify("d90-tampered.der", ["--require-ct"]), exit: 1)
        XCTAssertTrue(t.contains("\"status\":\"invalid\""), t)
        // --require-ct without a log list is a usage error (nothing could be checked).
        try run(
            [
                "verify", "--anchor", g("issuer.der"), "--kind", "basic", "--at", Self.at, "--require-ct",
                g("d90-two-operators.der"),
            ], exit: 2)
    }

    func testInspectListsSCTsWithTheIssuesJSON() throws {
        guard let vectors = TestSupport.vectors?.appendingPathComponent("ct").path else {
            print("SKIPPED \(#function): vectors folder not found")
            return
        }
        let out = try run(
            [
                "inspect", "--json", "--ct-log-list", vectors + "/log_list_2017.json", "--issuer",
                vectors + "/letsencryptx3.pem", vectors + "/cryptography-scts.pem",
            ], exit: 0)
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        let scts = try XCTUnwrap(object["scts"] as? [[String: Any]])
        XCTAssertEqual(scts.count, 2)
        XCTAssertEqual(scts.map { $0["status"] as? String }, ["valid", "valid"])
        XCTAssertEqual(scts[0]["log"] as? String, "Google 'Icarus' log")
        XCTAssertEqual(scts[0]["operator"] as? String, "Google")
        XCTAssertEqual(scts[0]["logId"] as? String, "KTxRllTIOWW6qlD8WAfUt2+/WHopctykwwz05UVH9Hg=")
        XCTAssertEqual(scts[0]["origin"] as? String, "embedded")
        XCTAssertEqual(scts[0]["timestamp"] as? String, "2018-09-26T20:56:33Z")
        XCTAssertEqual(Set(scts[0].keys), ["logId", "log", "operator", "timestamp", "origin", "status"])
        // Without a log list: listed, unknown-log.
        let bare = try run(["inspect", "--json", vectors + "/cryptography-scts.pem"], exit: 0)
        let o2 = try JSONSerialization.jsonObject(with: Data(bare.utf8)) as! [String: Any]
        XCTAssertEqual(
            (o2["scts"] as? [[String: Any]])?.map { $0["status"] as? String }, ["unknown-log", "unknown-log"])
        XCTAssertEqual((o2["scts"] as? [[String: Any]])?.first?["log"] as? NSNull, NSNull())
    }

    func testATSVerifiesSCTsWithALogList() throws {
        func ats(_ name: String, _ extra: [String]) -> [String] {
            [
                "ats", g(name + ".der"), "--host", name + ".example", "--anchor", g("issuer.der"), "--public-root",
                "--at", Self.at, "--json",
            ] + extra
        }
        func ctStatus(_ out: String) throws -> String? {
            let o = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
            let reqs = o["requirements"] as! [[String: Any]]
            return reqs.first { $0["id"] as? String == "certificate-transparency" }?["status"] as? String
        }
        let list = ["--ct-log-list", g("log_list.json")]
        // Two SCTs of one operator: counted they would pass (2 SCTs); verified, Apple's policy fails.
        XCTAssertEqual(try ctStatus(run(ats("d90-one-operator", []), exit: 1)), "pass")
        XCTAssertEqual(try ctStatus(run(ats("d90-one-operator", list), exit: 1)), "fail")
        XCTAssertEqual(try ctStatus(run(ats("d90-two-operators", list), exit: 1)), "pass")
        XCTAssertEqual(try ctStatus(run(ats("d90-tampered", list), exit: 1)), "fail")
    }
}
