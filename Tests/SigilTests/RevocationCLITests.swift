import Foundation
import SigilTestSupport
import XCTest

/// `sigil verify --crl / --ocsp-response / --revocation` on `Fixtures/revocation/` (expected
/// verdicts: `openssl verify -crl_check_all` and `openssl ocsp`, recorded in its manifest).
final class RevocationCLITests: XCTestCase {
    static let dir = TestSupport.packageRoot.appendingPathComponent("Fixtures/revocation").path

    func sigil() throws -> String { try sigilExecutable() }

    func run(_ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try sigil())
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, o)
    }

    func f(_ name: String) -> String { Self.dir + "/" + name }

    func base() throws -> [String] {
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("manifest.json"))))
            as! [String: Any]
        return [
            "verify", "--kind", "basic", "--anchors-only", "--anchor", f("root.pem"), "--intermediate", f("int.pem"),
            "--at", "\(m["verificationTime"] as! Int)", "--json",
        ]
    }

    func testCRLsAndOCSPFromTheCommandLine() throws {
        let crls = ["--crl", f("root.crl.pem"), "--crl", f("int.crl.pem")]
        var (rc, out) = try run(try base() + crls + [f("leaf-good.pem")])
        XCTAssertEqual(rc, 0, out)
        XCTAssertTrue(
            out.contains(
                #""revocation":[{"certificate":0,"status":"good","source":"crl"},{"certificate":1,"status":"good","source":"crl"}]"#
            ), out)
        (rc, out) = try run(try base() + crls + [f("leaf-revoked.pem")])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
        // Only the root's CRL: the leaf is undetermined — hard fail by default, soft on request.
        (rc, out) = try run(try base() + ["--crl", f("root.crl.pem"), f("leaf-good.pem")])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revocation undetermined","certificate":0"#), out)
        (rc, out) = try run(try base() + ["--crl", f("root.crl.pem"), "--revocation", "soft", f("leaf-good.pem")])
        XCTAssertEqual(rc, 0, out)
        XCTAssertTrue(out.contains(#"{"certificate":0,"status":"undetermined""#), out)
        (rc, out) = try run(try base() + ["--crl", f("root.crl.pem"), "--revocation", "none", f("leaf-revoked.pem")])
        XCTAssertEqual(rc, 0, out)
        // OCSP for the leaf, the root's CRL for the intermediate.
        (rc, out) = try run(
            try base() + ["--crl", f("root.crl.pem"), "--ocsp-response", f("ocsp-good.ocsp.der"), f("leaf-good.pem")])
        XCTAssertEqual(rc, 0, out)
        XCTAssertTrue(out.contains(#"{"certificate":0,"status":"good","source":"ocsp"}"#), out)
        (rc, out) = try run(
            try base() + [
                "--crl", f("root.crl.pem"), "--ocsp-response", f("ocsp-revoked.ocsp.der"), f("leaf-revoked.pem"),
            ])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
    }

    /// `--sig-alg` restricts the CRL's and OCSP response's signatures too (Fixtures/revocation/sigalg:
    /// everything is ecdsa-with-SHA256 except the "sha384" CRL and response, openssl's reading).
    func testSigAlgRestrictsRevocationData() throws {
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("sigalg/manifest.json"))))
            as! [String: Any]
        let base = [
            "verify", "--kind", "basic", "--anchors-only", "--anchor", f("sigalg/root.pem"),
            "--at", "\(m["verificationTime"] as! Int)", "--json", "--sig-alg", "ECDSA_WITH_SHA256",
        ]
        for source in [
            ["--crl", f("sigalg/root-sha384.crl.pem")], ["--ocsp-response", f("sigalg/ocsp-sha384.ocsp.der")],
        ] {
            var (rc, out) = try run(base + source + [f("sigalg/leaf.pem")])
            XCTAssertEqual(rc, 1, out)
            XCTAssertTrue(out.contains(#""kind":"revocation undetermined","certificate":0"#), out)
            (rc, out) = try run(base + ["--sig-alg", "ECDSA_WITH_SHA384"] + source + [f("sigalg/leaf.pem")])
            XCTAssertEqual(rc, 0, out)
        }
        for source in [
            ["--crl", f("sigalg/root-sha256.crl.pem")], ["--ocsp-response", f("sigalg/ocsp-sha256.ocsp.der")],
        ] {
            let (rc, out) = try run(base + source + [f("sigalg/leaf.pem")])
            XCTAssertEqual(rc, 0, out)
        }
    }

    /// `Fixtures/revocation/rules/` (verdicts: `openssl verify -crl_check_all -extended_crl
    /// -x509_strict`): a separate CRL signer whose certificate the root's CRL revokes (RFC 5280
    /// §6.3.3 (f); OpenSSL: error 54, CRL path validation error) and a nameRelativeToCRLIssuer
    /// distribution point (§4.2.1.13, §5.2.5; OpenSSL: certificate revoked), from the command line.
    func testCRLRulesFromTheCommandLine() throws {
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("rules/manifest.json"))))
            as! [String: Any]
        let base = [
            "verify", "--kind", "basic", "--anchors-only", "--anchor", f("rules/root.pem"), "--intermediate",
            f("rules/int.pem"), "--at", "\(m["verificationTime"] as! Int)", "--json",
        ]
        let signer = ["--intermediate", f("rules/int-signer.pem"), "--crl", f("rules/int-by-signer.crl.pem")]
        var (rc, out) = try run(base + signer + ["--crl", f("rules/root.crl.pem"), f("rules/leaf-good.pem")])
        XCTAssertEqual(rc, 0, out)
        (rc, out) = try run(
            base + signer + ["--crl", f("rules/root-signers-revoked.crl.pem"), f("rules/leaf-good.pem")])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revocation undetermined","certificate":0"#), out)
        (rc, out) = try run(
            base + [
                "--crl", f("rules/root.crl.pem"), "--crl", f("rules/int-rel.crl.pem"), f("rules/leaf-rel-revoked.pem"),
            ])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
    }

    /// Security-policy options with revocation and the depth limit, which the command refused
    /// together while the options lived in two types (`SecurityPolicy` had no revocation, depth,
    /// EKU or budget). Pinning the root's key: the good leaf matches; the revoked one is refused
    /// for its revocation (openssl verify -crl_check_all: error 23 at depth 0), its context
    /// carrying the CRL's reason (openssl crl -text: serial 1005, Key Compromise); --max-depth 0
    /// refuses the one-intermediate path as openssl verify -verify_depth 0 does (error 22), and
    /// --max-depth 1 accepts it as -verify_depth 1 does.
    func testSecurityPolicyWithRevocationAndDepth() throws {
        let crls = ["--crl", f("root.crl.pem"), "--crl", f("int.crl.pem")]
        let pin = ["--pin-mode", "public-key", "--pin-key", f("root.pem")]
        var (rc, out) = try run(try base() + crls + pin + [f("leaf-good.pem")])
        XCTAssertEqual(rc, 0, out)
        XCTAssertTrue(out.contains(#""outcome":"pinMatched""#), out)
        (rc, out) = try run(try base() + crls + pin + [f("leaf-revoked.pem")])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""outcome":"untrusted""#), out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
        if let text = try TestSupport.run(["openssl", "crl", "-in", f("int.crl.pem"), "-noout", "-text"]) {
            let entry = text.components(separatedBy: "Serial Number: 1005").dropFirst().first ?? ""
            XCTAssertTrue(entry.prefix(200).contains("Key Compromise"), text)
            XCTAssertTrue(out.contains(#""reason":"keyCompromise""#), out)
        }
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("manifest.json"))))
            as! [String: Any]
        let at = "\(m["verificationTime"] as! Int)"
        for depth in [0, 1] {
            (rc, out) = try run(try base() + pin + ["--max-depth", "\(depth)", f("leaf-good.pem")])
            let openssl = try TestSupport.run([
                "openssl", "verify", "-verify_depth", "\(depth)", "-CAfile", f("root.pem"), "-untrusted",
                f("int.pem"), "-attime", at, f("leaf-good.pem"),
            ])
            XCTAssertEqual(rc == 0, openssl != nil, "depth \(depth): \(out)")
            if depth == 0 { XCTAssertTrue(out.contains(#""kind":"maximum depth exceeded""#), out) }
        }
    }

    /// The review's cases through the CLI (`Fixtures/revocation/review/`): the junk-flooded
    /// indirect CRL revokes under soft fail, and a damaged block of a `--crl` bundle leaves the
    /// good CRL in force (revoked, with a warning for the block).
    func testReviewCasesFromTheCommandLine() throws {
        let r = Self.dir + "/review/"
        let common = [
            "verify", "--anchors-only", "--anchor", r + "root.pem", "--intermediate", r + "int.pem",
            "--host", "leaf.review.sigil.test", "--at", "1767225600", "--json",
        ]
        var (rc, out) = try run(
            common + [
                "--intermediate", r + "flood/authority.pem", "--crl", r + "root.crl.pem", "--crl",
                r + "flood/indirect.crl.pem", "--revocation", "soft", r + "flood/bundle.pem",
            ])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
        (rc, out) = try run(
            common + [
                "--crl", r + "root.crl.pem", "--crl", r + "bundle/int-bundle.crl.pem", r + "bundle/leaf-revoked.pem",
            ])
        XCTAssertEqual(rc, 1, out)
        XCTAssertTrue(out.contains(#""kind":"revoked","certificate":0"#), out)
    }
}
