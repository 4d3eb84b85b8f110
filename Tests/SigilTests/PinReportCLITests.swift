import Foundation
import SigilTestSupport
import XCTest

/// `sigil verify --pin-report-only / --pin-report / --pin-config`, run as a process: exit codes,
/// the report file (RFC 7469 §3, parsed with JSONSerialization, chains compared with the
/// fixtures' DER) and the configuration loader's usage errors. Pins are the manifest's
/// (computed by Python in Fixtures/scripts/gen_pinning.py).
final class PinReportCLITests: XCTestCase {
    typealias P = PolicyCLITests
    var cli: PinReportCLITests { self }

    @discardableResult
    func run(_ args: [String], exit expected: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> (
        out: String, err: String
    ) {
        try runSigil(args, exit: expected, file: file, line: line)
    }

    func f(_ name: String) -> String { P.pinning + "/" + name }
    var base: [String] { ["--anchor", f("root.pem"), "--anchors-only", "--at", P.at, "--host", "pin.sigil.test"] }

    var pins: [String: String] {
        get throws {
            let m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("manifest.json"))))
            return (m as! [String: Any])["pins"] as! [String: String]
        }
    }

    func temp(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-pinreport-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    func der(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: f(name + ".der"))) }

    func pemToDER(_ pem: String) throws -> Data {
        let lines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        return try XCTUnwrap(Data(base64Encoded: lines.joined()))
    }

    func readReport(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    func testReportOnlyExitCodesAndReportFile() throws {
        _ = try sigilExecutable()
        let pins = try self.pins
        let valid = f("chains/valid.pem")
        let report = temp("report.json")
        // Enforced: an unrelated key pinned refuses the valid chain.
        try cli.run(["verify", valid] + base + ["--pin-key", pins["unrelated"]!, "--pin-mode", "public-key"], exit: 1)
        // Report-only: trusted (exit 0) and the report written.
        let ro = try cli.run(
            ["verify", valid] + base + ["--pin-key", pins["unrelated"]!, "--pin-report-only", "--pin-report", report],
            exit: 0)
        XCTAssertTrue(ro.err.contains("report-only"), ro.err)
        let j = try readReport(report)
        XCTAssertEqual(j["hostname"] as? String, "pin.sigil.test")
        XCTAssertEqual(j["noted-hostname"] as? String, "pin.sigil.test")
        XCTAssertEqual(j["date-time"] as? String, "2030-01-01T00:00:00Z")
        XCTAssertTrue(j["port"] is NSNull, "a chain from files has no port")
        XCTAssertTrue(j["effective-expiration-date"] is NSNull, "pins without expiry")
        XCTAssertEqual(j["include-subdomains"] as? Bool, false)
        XCTAssertEqual(
            try (j["served-certificate-chain"] as? [String] ?? []).map(pemToDER),
            [try der("leaf"), try der("intermediate")])
        XCTAssertEqual(
            try (j["validated-certificate-chain"] as? [String] ?? []).map(pemToDER),
            [try der("leaf"), try der("intermediate"), try der("root")])
        XCTAssertEqual(j["known-pins"] as? [String], ["pin-sha256=\"" + pins["unrelated"]!.dropFirst(7) + "\""])
        XCTAssertEqual(j.count, 9)

        // Matching pins: trusted and no file.
        let none = temp("none.json")
        try cli.run(
            ["verify", valid] + base + ["--pin-key", pins["intermediate"]!, "--pin-report-only", "--pin-report", none],
            exit: 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))

        // Report-only never makes an untrusted chain trusted: exit 1, and reported (no validated path).
        let bad = temp("bad.json")
        try cli.run(
            ["verify", f("chains/wronghost.pem")] + base + [
                "--pin-key", pins["leaf-wronghost"]!, "--pin-report-only", "--pin-report", bad,
            ], exit: 1)
        XCTAssertEqual((try readReport(bad)["validated-certificate-chain"] as? [String])?.count, 0)

        // Enforced failures are reported too.
        let enforced = temp("enforced.json")
        try cli.run(
            ["verify", valid] + base + [
                "--pin-mode", "public-key", "--pin-key", pins["unrelated"]!, "--pin-report", enforced,
            ], exit: 1)
        XCTAssertEqual(try readReport(enforced)["hostname"] as? String, "pin.sigil.test")

        // JSON output carries the report.
        let js = try cli.run(
            ["verify", valid, "--json"] + base + ["--pin-key", pins["unrelated"]!, "--pin-report-only"], exit: 0)
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(js.out.utf8)) as? [String: Any])
        XCTAssertEqual(out["trusted"] as? Bool, true)
        XCTAssertNotNil(out["pinFailureReport"] as? [String: Any])

        // An unwritable report file: the verdict still printed, exit 2.
        try cli.run(
            ["verify", valid] + base + [
                "--pin-key", pins["unrelated"]!, "--pin-report-only", "--pin-report", "/nonexistent-dir/r.json",
            ], exit: 2)
    }

    func testPinConfig() throws {
        _ = try sigilExecutable()
        let pins = try self.pins
        let valid = f("chains/valid.pem")
        func write(_ text: String, _ name: String) throws -> String {
            let path = temp(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        func config(enforce: Bool, first: String, domain: String = "sigil.test", expires: String? = nil) -> String {
            """
            {"pin-sets": [{"domain": "\(domain)", "include-subdomains": true, "enforce": \(enforce),
              \(expires.map { "\"expires\": \"\($0)\"," } ?? "")
              "pins": ["\(pins[first]!)", "\(pins["selfsigned"]!)"]}]}
            """
        }
        // Enforced, matching (the intermediate's key) and not (an unrelated key).
        try cli.run(
            ["verify", valid] + base + [
                "--pin-config", try write(config(enforce: true, first: "intermediate"), "ok.json"),
            ], exit: 0)
        let mismatch = try write(config(enforce: true, first: "unrelated"), "mismatch.json")
        let report = temp("cfg-report.json")
        try cli.run(["verify", valid] + base + ["--pin-config", mismatch, "--pin-report", report], exit: 1)
        let j = try readReport(report)
        XCTAssertEqual(j["noted-hostname"] as? String, "sigil.test")
        XCTAssertEqual(j["include-subdomains"] as? Bool, true)
        XCTAssertEqual(
            j["known-pins"] as? [String],
            ["unrelated", "selfsigned"].map { "pin-sha256=\"" + pins[$0]!.dropFirst(7) + "\"" })
        // --pin-report-only overrides "enforce": true.
        try cli.run(["verify", valid] + base + ["--pin-config", mismatch, "--pin-report-only"], exit: 0)
        // "enforce": false in the file.
        try cli.run(
            ["verify", valid] + base + [
                "--pin-config", try write(config(enforce: false, first: "unrelated"), "ro.json"),
            ], exit: 0)
        // Expired: not enforced, not reported; the expiry appears in reports while in force.
        let expiredReport = temp("expired-report.json")
        try cli.run(
            ["verify", valid] + base + [
                "--pin-config",
                try write(config(enforce: true, first: "unrelated", expires: "2029-12-31T23:59:59Z"), "exp.json"),
                "--pin-report", expiredReport,
            ], exit: 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: expiredReport))
        let future = temp("future-report.json")
        try cli.run(
            ["verify", valid] + base + [
                "--pin-config",
                try write(config(enforce: true, first: "unrelated", expires: "2031-06-01T12:00:00Z"), "fut.json"),
                "--pin-report", future,
            ], exit: 1)
        XCTAssertEqual(try readReport(future)["effective-expiration-date"] as? String, "2031-06-01T12:00:00Z")
        // A domain the file does not list is not pinned (ordinary evaluation), as in TrustKit.
        let other = try cli.run(
            ["verify", valid] + base + [
                "--pin-config",
                try write(config(enforce: true, first: "unrelated", domain: "example.org"), "other.json"),
            ],
            exit: 0)
        XCTAssertTrue(other.err.contains("no pin set"), other.err)

        // RFC 7469 §2.3.2/§2.3.3: a report-only or expired set for the exact host does not
        // lift an enforced parent set (the parent's pins do not match: refused).
        for (child, name) in [
            ("\"enforce\": false,", "child-ro.json"), ("\"expires\": \"2029-12-31T23:59:59Z\",", "child-exp.json"),
        ] {
            let text = """
                {"pin-sets": [
                  {"domain": "sigil.test", "include-subdomains": true,
                   "pins": ["\(pins["unrelated"]!)", "\(pins["selfsigned"]!)"]},
                  {"domain": "pin.sigil.test", \(child)
                   "pins": ["\(pins["leaf"]!)", "\(pins["selfsigned"]!)"]}]}
                """
            let out = try cli.run(["verify", valid] + base + ["--pin-config", try write(text, name)], exit: 1)
            XCTAssertTrue(out.err.contains("sigil.test") || out.out.contains("sigil.test"), out.out + out.err)
        }
        // Nor does it lift --pin-key pins (global, enforced): an unrelated --pin-key refuses
        // beside an expired or report-only set that would match (review, 2026-12-04); with
        // --pin-report-only everything is report-only and the verdict is the ordinary one.
        for (child, name) in [
            ("\"enforce\": false,", "only-ro.json"), ("\"expires\": \"2029-12-31T23:59:59Z\",", "only-exp.json"),
        ] {
            let text = """
                {"pin-sets": [{"domain": "pin.sigil.test", \(child)
                   "pins": ["\(pins["leaf"]!)", "\(pins["selfsigned"]!)"]}]}
                """
            let config = try write(text, name)
            try cli.run(["verify", valid] + base + ["--pin-config", config, "--pin-key", pins["unrelated"]!], exit: 1)
            try cli.run(
                ["verify", valid] + base + [
                    "--pin-config", config, "--pin-key", pins["unrelated"]!, "--pin-report-only",
                ],
                exit: 0)
        }
        // Report-only --pin-key pins need a domain to be a pin set for, --pin-config or not:
        // without one they would silently stay enforced global pins.
        try cli.run(
            [
                "verify", valid, "--anchor", f("root.pem"), "--anchors-only", "--at", P.at, "--no-domain-check",
                "--pin-key", pins["unrelated"]!, "--pin-config", mismatch, "--pin-report-only",
            ], exit: 2)

        // Bad files and combinations: usage errors (exit 2).
        let broken = try cli.run(
            ["verify", valid] + base + [
                "--pin-config", try write("{\"pin-sets\": [{\"domain\": \"a.test\"}]}", "broken.json"),
            ],
            exit: 2)
        XCTAssertTrue(broken.err.contains("$.pin-sets[0]: missing \"pins\""), broken.err)
        try cli.run(["verify", valid] + base + ["--pin-config", f("missing.json")], exit: 2)
        try cli.run(
            ["verify", valid] + base + [
                "--pin-config", mismatch, "--pin-mode", "certificate", "--pin-cert", f("root.der"),
            ], exit: 2)
        try cli.run(["verify", valid] + base + ["--pin-report-only"], exit: 2)  // nothing pinned
        try cli.run(["verify", valid] + base + ["--pin-report", report], exit: 2)  // no key pins
        try cli.run(
            [
                "verify", valid, "--anchor", f("root.pem"), "--anchors-only", "--at", P.at, "--ip", "192.0.2.1",
                "--pin-key", pins["leaf"]!, "--pin-report-only",
            ], exit: 2)  // RFC 7469: DNS names only
    }
}
