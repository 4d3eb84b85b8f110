import Foundation
import SigilTestSupport
import XCTest

/// `sigil verify --kind code-signing` and `--kind eku --purpose-eku OID` against the verdicts of
/// Go's crypto/x509 and `openssl verify -x509_strict -purpose` recorded by
/// Fixtures/scripts/gen_purposes.py (Fixtures/purposes/manifest.json); and the security-policy
/// options together with `--ct-log-list` (CT runs inside `SecurityPolicy`'s ordinary
/// evaluation) and `--json`'s `pinMode` (the mode the policy ran in).
final class PurposeCLITests: XCTestCase {
    static let purposes = TestSupport.fixtures.appendingPathComponent("purposes").path

    func testPurposesAgreeWithGoAndOpenSSL() throws {
        _ = try sigilExecutable()
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.purposes + "/manifest.json"))
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let at = try XCTUnwrap(manifest["at"] as? Int)
        let cases = try XCTUnwrap(manifest["cases"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 14)
        var trusted = 0
        for c in cases {
            let leaf = Self.purposes + "/" + (c["leaf"] as! String)
            let intermediate = Self.purposes + "/" + (c["intermediate"] as! String)
            let kind = c["kind"] as! String
            var args = [
                "verify", "--json", "--anchor", Self.purposes + "/root.pem", "--anchors-only", "--intermediate",
                intermediate, "--at", String(at), "--kind", kind,
            ]
            if let eku = c["purposeEKU"] as? String { args += ["--purpose-eku", eku] }
            let go = c["go"] as! Bool
            let id = "\(c["leaf"]!) --kind \(kind)"
            // Every chain is valid for some purpose (`openssl verify -x509_strict -purpose any`).
            XCTAssertEqual(c["opensslChain"] as? Bool, true, id)
            if let openssl = c["openssl"] as? Bool { XCTAssertEqual(openssl, go, "the two oracles disagree: \(id)") }
            let r = try runSigil(args + [leaf], exit: go ? 0 : 1)
            if go {
                trusted += 1
            } else {
                XCTAssertTrue(r.out.contains("\"kind\":\"extended key usage\""), "\(id): \(r.out)")
            }
        }
        XCTAssertGreaterThan(trusted, 0)
        XCTAssertLessThan(trusted, cases.count)
    }

    func testPurposeUsageErrors() throws {
        let leaf = Self.purposes + "/leaf-codesign--int-noeku.pem"
        let base = ["verify", "--anchor", Self.purposes + "/root.pem", "--anchors-only", leaf]
        try runSigil(base + ["--kind", "eku"], exit: 2)  // no --purpose-eku
        try runSigil(base + ["--kind", "eku", "--purpose-eku", "timeStamping"], exit: 2)  // not dotted
        try runSigil(base + ["--kind", "code-signing", "--purpose-eku", "1.3.6.1.5.5.7.3.3"], exit: 2)
        try runSigil(base + ["--kind", "code-signing", "--host", "a.test"], exit: 2)
        try runSigil(base + ["--kind", "code-signing", "--pin-mode", "public-key", "--pin-key", leaf], exit: 2)
    }

    // MARK: - Security-policy options with CT, and the pin mode reported

    static let ct = TestSupport.fixtures.appendingPathComponent("ct/generated").path
    /// 2026-06-01T00:00:00Z, the CT fixtures' time of check (CTCLITests).
    static let ctAt = "1780272000"

    func ctPinned(_ cert: String, _ extra: [String], pin: String = ct + "/issuer.der") -> [String] {
        [
            "verify", "--json", "--anchor", Self.ct + "/issuer.der", "--anchors-only", "--kind", "basic", "--at",
            Self.ctAt, "--ct-log-list", Self.ct + "/log_list.json", "--pin-mode", "public-key", "--pin-key", pin,
        ] + extra + [Self.ct + "/" + cert]
    }

    func testCTLogListCombinesWithPinOptions() throws {
        // Compliant (two operators, Fixtures/ct's generator): trusted, pins matched, CT reported.
        let ok = try runSigil(ctPinned("d90-two-operators.der", ["--require-ct"]), exit: 0).out
        XCTAssertTrue(ok.contains("\"outcome\":\"pinMatched\""), ok)
        XCTAssertTrue(ok.contains("\"certificateTransparency\":{\"compliant\":true,\"enforced\":true"), ok)
        // Not compliant (two logs of one operator) and required: refused by CT though the pin matches.
        let bad = try runSigil(ctPinned("d90-one-operator.der", ["--require-ct"]), exit: 1).out
        XCTAssertTrue(bad.contains("\"kind\":\"certificateTransparency\""), bad)
        // Not required, custom anchor: exempt, reported as not enforced.
        let exempt = try runSigil(ctPinned("d90-one-operator.der", []), exit: 0).out
        XCTAssertTrue(exempt.contains("\"certificateTransparency\":{\"compliant\":false,\"enforced\":false"), exempt)
        // And the pins still decide: an unrelated pin refuses the compliant chain.
        try runSigil(ctPinned("d90-two-operators.der", ["--require-ct"], pin: Self.purposes + "/root.pem"), exit: 1)
    }

    func testJSONPinModeIsTheModeUsed() throws {
        let pinning = PolicyCLITests.pinning
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-purpose-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("other.json")
        try Data(
            #"{"pin-sets": [{"domain": "example.org", "pins": ["sha256/\#(String(repeating: "A", count: 43))=", "sha256/\#(String(repeating: "B", count: 42))A="]}]}"#
                .utf8
        ).write(to: config)
        let base = [
            "verify", "--json", pinning + "/chains/valid.pem", "--anchor", pinning + "/root.pem", "--anchors-only",
            "--at", PolicyCLITests.at, "--host", "pin.sigil.test",
        ]
        // The file pins another domain only: ordinary evaluation, reported as mode none.
        let r = try runSigil(base + ["--pin-config", config.path], exit: 0)
        XCTAssertTrue(r.out.contains("\"pinMode\":\"none\""), r.out)
        XCTAssertTrue(r.err.contains("no pin set"), r.err)
        // Pins given for this host: public-key.
        let keyed = try runSigil(base + ["--pin-mode", "public-key", "--pin-key", pinning + "/root.pem"], exit: 0).out
        XCTAssertTrue(keyed.contains("\"pinMode\":\"public-key\""), keyed)
    }
}
