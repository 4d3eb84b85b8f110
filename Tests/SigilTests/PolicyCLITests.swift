import Foundation
import SigilTestSupport
import XCTest

/// `sigil pin`, `sigil ats` and the security-policy options of `sigil verify`, run as a process
/// (skipped when the `sigil` executable has not been built next to the test bundle).
final class PolicyCLITests: XCTestCase {
    static let pinning = TestSupport.packageRoot.appendingPathComponent("Fixtures/pinning").path
    static let at = "1893456000"

    @discardableResult
    func run(_ args: [String], exit expected: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> (
        out: String, err: String
    ) {
        try runSigil(args, exit: expected, file: file, line: line)
    }

    func f(_ name: String) -> String { Self.pinning + "/" + name }

    var base: [String] { ["--anchor", f("root.pem"), "--anchors-only", "--at", Self.at] }

    func testPin() throws {
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("manifest.json"))))
            as! [String: Any]
        let pins = manifest["pins"] as! [String: String]
        let r = try run(["pin", f("chains/valid.pem"), f("root.der")], exit: 0)
        XCTAssertTrue(r.out.contains(pins["leaf"]!))
        XCTAssertTrue(r.out.contains(pins["intermediate"]!))
        XCTAssertTrue(r.out.contains(pins["root"]!))
        XCTAssertTrue(r.out.contains("CN=Sigil Pinning Root"))
        let j = try run(["pin", "--json", f("leaf.der")], exit: 0)
        XCTAssertTrue(j.out.contains("\"pin\":\"\(pins["leaf"]!)\""))
        try run(["pin", f("manifest.json")], exit: 1)
        try run(["pin", f("missing.pem")], exit: 2)
    }

    /// `pin` and `ats` read certificates through the streaming reader, standard input included:
    /// a PEM bundle with a `PUBLIC KEY` block (made by openssl from the root) on standard input
    /// gives the manifest's pins; concatenated DER on standard input too; `ats` takes its chain
    /// from standard input.
    func testPinAndATSFromStandardInput() throws {
        let sigil = try sigilExecutable()
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: f("manifest.json"))))
            as! [String: Any]
        let pins = manifest["pins"] as! [String: String]
        guard let publicKey = try TestSupport.run(["openssl", "x509", "-in", f("root.pem"), "-pubkey", "-noout"]) else {
            throw XCTSkip("openssl is not installed")
        }
        let chain = try TestSupport.read(f("chains/valid.pem"))
        let pemInput = try TestSupport.temporaryFile("pin-input.pem", chain + Array(publicKey.utf8), area: "pin")
        let r = try TestSupport.runMeasured(sigil, ["pin", "-"], stdinFile: pemInput)
        XCTAssertEqual(r.status, 0, r.err)
        let out = String(decoding: r.out, as: UTF8.self)
        for name in ["leaf", "intermediate", "root"] { XCTAssertTrue(out.contains(pins[name]!), name) }
        XCTAssertTrue(out.contains("- [public key]"), out)
        let derInput = try TestSupport.temporaryFile(
            "pin-input.der",
            try TestSupport.read(f("leaf.der")) + TestSupport.read(f("intermediate.der")), area: "pin")
        let der = try TestSupport.runMeasured(sigil, ["pin", "--json", "-"], stdinFile: derInput)
        XCTAssertEqual(der.status, 0, der.err)
        let derOut = String(decoding: der.out, as: UTF8.self)
        XCTAssertTrue(derOut.contains(pins["leaf"]!) && derOut.contains(pins["intermediate"]!), derOut)
        let ats = try TestSupport.runMeasured(
            sigil, ["ats", "-", "--host", "pin.sigil.test"] + base, stdinFile: f("chains/valid.pem"))
        let file = try TestSupport.runMeasured(
            sigil, ["ats", f("chains/valid.pem"), "--host", "pin.sigil.test"] + base)
        XCTAssertEqual(ats.status, file.status, ats.err)
        XCTAssertEqual(ats.out, file.out)
    }

    /// Issue 21 §4: anchors-only with no anchor is a usage error (it printed "trusted (anchor:
    /// system)" before); --ip takes an IP address only; --kind server with no name says, in text
    /// and JSON, that no name was checked.
    func testAnchorsOnlyIPAndUncheckedName() throws {
        let valid = f("chains/valid.pem")
        let noAnchor = try run(
            ["verify", valid, "--anchors-only", "--at", Self.at, "--host", "pin.sigil.test"], exit: 2)
        XCTAssertTrue(noAnchor.err.contains("--anchors-only needs at least one --anchor"), noAnchor.err)
        XCTAssertFalse(noAnchor.out.contains("trusted"))
        try run(["ats", valid, "--anchors-only", "--host", "pin.sigil.test"], exit: 2)
        let dnsAsIP = try run(["verify", valid] + base + ["--ip", "pin.sigil.test"], exit: 2)
        XCTAssertTrue(dnsAsIP.err.contains("is not an IP address"), dnsAsIP.err)
        // A name: no warning.
        let named = try run(["verify", valid] + base + ["--host", "pin.sigil.test"], exit: 0)
        XCTAssertFalse(named.out.contains("no name was checked"))
        XCTAssertFalse(named.err.contains("no name was checked"))
        // No name: trusted, but said.
        let unnamed = try run(["verify", valid] + base, exit: 0)
        XCTAssertTrue(unnamed.out.contains("trusted (anchor: custom) — no name was checked"), unnamed.out)
        XCTAssertTrue(unnamed.err.contains("no name was checked"), unnamed.err)
        let j = try run(["verify", valid, "--json"] + base, exit: 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["nameChecked"] as? Bool, false)
        XCTAssertTrue(((object["warnings"] as? [String]) ?? []).contains { $0.contains("no name was checked") })
        let jn = try run(["verify", valid, "--json"] + base + ["--host", "pin.sigil.test"], exit: 0)
        let named2 = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(jn.out.utf8)) as? [String: Any])
        XCTAssertEqual(named2["nameChecked"] as? Bool, true)
        XCTAssertNil(named2["warnings"])
    }

    func testVerifyPolicyOptions() throws {
        let valid = f("chains/valid.pem")
        let host = ["--host", "pin.sigil.test"]
        // Existing behaviour unchanged.
        try run(["verify", valid] + base + host, exit: 0)
        try run(["verify", f("chains/wronghost.pem")] + base + host, exit: 1)
        // Certificate mode: pin the intermediate (file) or a directory holding the root.
        let r = try run(
            ["verify", valid] + base + host + ["--pin-mode", "certificate", "--pin-cert", f("intermediate.der")],
            exit: 0)
        XCTAssertTrue(r.out.contains("<- pinned"))
        try run(
            ["verify", valid] + base + host + ["--pin-mode", "certificate", "--pin-cert", f("unrelated.pem")], exit: 1)
        try run(
            ["verify", valid] + base + host + [
                "--pin-mode", "certificate", "--pin-cert", Self.pinning + "/chains", "--validate-whole-chain",
            ], exit: 0)
        // Public-key mode: a sha256 pin, or a certificate file whose key is pinned.
        let pin = try run(["pin", f("root.der")], exit: 0).out.split(separator: " ").last { $0.hasPrefix("sha256/") }!
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try run(["verify", valid] + base + host + ["--pin-mode", "public-key", "--pin-key", pin], exit: 0)
        // The root's key pinned with the domain check off: warned, like the certificate-mode trap.
        let keyTrap = try run(
            ["verify", f("chains/wronghost.pem")] + base + host + [
                "--pin-mode", "public-key", "--pin-key", pin, "--no-domain-check",
            ], exit: 0)
        XCTAssertTrue(keyTrap.err.contains("only CA keys matched the pins"), keyTrap.err)
        try run(
            ["verify", valid] + base + host + ["--pin-mode", "public-key", "--pin-key", f("unrelated.der")], exit: 1)
        // The trap, and its safe alternative.
        let trap =
            ["verify", f("chains/wronghost.pem")] + base + host + [
                "--pin-mode", "certificate", "--pin-cert", f("root.der"),
            ]
        let t = try run(trap + ["--no-domain-check"], exit: 0)
        XCTAssertTrue(t.err.contains("only CA certificates are pinned"))
        try run(trap, exit: 1)
        // --allow-invalid is loud; without pinning and with the domain check it is refused.
        let self_ =
            ["verify", f("chains/selfsigned.pem"), "--anchor", f("unrelated.pem"), "--anchors-only", "--at", Self.at]
            + host
        let a = try run(self_ + ["--allow-invalid"], exit: 1)
        XCTAssertTrue(a.err.contains("WARNING"))
        XCTAssertTrue(a.out.contains("domainValidationNeedsPinning"))
        try run(self_ + ["--allow-invalid", "--pin-mode", "certificate", "--pin-cert", f("selfsigned.der")], exit: 0)
        // JSON.
        let j = try run(
            ["verify", valid, "--json"] + base + host + ["--pin-mode", "certificate", "--pin-cert", f("root.der")],
            exit: 0)
        let o = try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as! [String: Any]
        XCTAssertEqual(o["outcome"] as? String, "pinMatched")
        XCTAssertEqual(o["matchedAgainst"] as? String, "validatedPath")
    }

    /// `--policy`, `--explicit-policy`, `--inhibit-policy-mapping`, `--inhibit-any-policy` on a
    /// Fixtures/policies chain (verdicts recorded from `openssl verify -policy_check` by
    /// gen_policies.py), and the policy sets in `--json`.
    func testVerifyCertificatePolicies() throws {
        let dir = TestSupport.packageRoot.appendingPathComponent("Fixtures/policies/mapping-ok").path
        let args = [
            "verify", dir + "/leaf.pem", "--kind", "basic", "--anchors-only", "--anchor", dir + "/root.pem",
            "--intermediate", dir + "/intermediates.pem", "--at", Self.at,
        ]
        let ok = try run(args + ["--policy", "2.999.1.1", "--explicit-policy", "--json"], exit: 0)
        let json = try JSONSerialization.jsonObject(with: Data(ok.out.utf8)) as! [String: Any]
        let sets = json["policies"] as! [String: Any]
        XCTAssertEqual(sets["userConstrained"] as? [String], ["2.999.1.1"])
        XCTAssertEqual(sets["authoritiesConstrained"] as? [String], ["2.999.1.1"])
        XCTAssertEqual(sets["explicitPolicyRequired"] as? Bool, true)
        let bad = try run(
            args + ["--policy", "2.999.1.1", "--explicit-policy", "--inhibit-policy-mapping", "--json"], exit: 1)
        XCTAssertTrue(bad.out.contains("invalid policy"), bad.out)
        try run(args + ["--policy", "2.999.1.2", "--explicit-policy"], exit: 1)
        try run(args + ["--policy", "2.999.1.2"], exit: 0)  // not explicit: valid, empty user set
        try run(args + ["--inhibit-any-policy", "--explicit-policy"], exit: 0)  // CA1 asserts P1 itself
        try run(args + ["--policy", "not-an-oid"], exit: 2)
    }

    func testVerifyPolicyUsageErrors() throws {
        let valid = f("chains/valid.pem")
        let host = ["--host", "pin.sigil.test"]
        try run(["verify", valid] + base + host + ["--pin-cert", f("root.der")], exit: 2)  // no mode
        try run(["verify", valid] + base + host + ["--pin-mode", "public-key"], exit: 2)  // nothing pinned
        try run(["verify", valid] + base + host + ["--pin-mode", "certificate", "--pin-key", f("root.der")], exit: 2)
        try run(["verify", valid] + base + host + ["--validate-whole-chain"], exit: 2)
        try run(["verify", valid] + base + ["--pin-mode", "certificate", "--pin-cert", f("root.der")], exit: 2)  // no host
        try run(["verify", valid] + base + host + ["--pin-mode", "public-key", "--pin-key", "sha256/AAAA"], exit: 2)
        try run(["verify", valid] + base + host + ["--pin-mode", "certificate", "--pin-cert", f("nope.der")], exit: 2)
        try run(
            ["verify", valid] + base + host + ["--pin-mode", "certificate", "--pin-cert", f("manifest.json")], exit: 2)
        try run(["verify", valid] + base + host + ["--pin-mode", "bogus"], exit: 2)
        try run(["verify", valid] + base + host + ["--allow-invalid", "--kind", "client"], exit: 2)
    }

    func testATS() throws {
        let good = try run(
            [
                "ats", f("ats-good.pem"), "--host", "ats.sigil.test", "--anchor", f("root.pem"), "--anchors-only",
                "--public-root", "--at", "1748736000",
            ], exit: 0)
        XCTAssertTrue(good.out.contains("TLS  TLS 1.2 or later"))
        let bad = try run(
            [
                "ats", f("ats-bad.pem"), "--host", "ats-bad.sigil.test", "--anchor", f("root.pem"), "--anchors-only",
                "--at", "1748736000", "--json",
            ], exit: 1)
        let o = try JSONSerialization.jsonObject(with: Data(bad.out.utf8)) as! [String: Any]
        let reqs = o["requirements"] as! [[String: Any]]
        let sig = reqs.first { $0["id"] as? String == "signature-hash" }!
        XCTAssertEqual(sig["status"] as? String, "fail")
        XCTAssertEqual(
            (sig["offending"] as! [[String: Any]]).first?["subject"] as? String,
            "CN=ats-bad.sigil.test,O=Sigil Test PKI,C=US")
        try run(["ats", f("ats-good.pem")], exit: 2)  // --host is required
    }

    /// `--sig-alg` restricts the signature algorithms on the path (the pinning chain is signed
    /// with sha256WithRSAEncryption throughout, per `openssl x509 -text`).
    func testSignatureAlgorithmRestriction() throws {
        let valid = f("chains/valid.pem")
        let host = ["--host", "pin.sigil.test"]
        try run(["verify", valid] + base + host + ["--sig-alg", "RSA_WITH_SHA256"], exit: 0)
        try run(
            ["verify", valid] + base + host + ["--sig-alg", "ecdsa-with-sha256", "--sig-alg", "RSA_WITH_SHA256"],
            exit: 0)
        let r = try run(["verify", "--json", valid] + base + host + ["--sig-alg", "ECDSA_WITH_SHA256"], exit: 1)
        XCTAssertTrue(r.out.contains("\"kind\":\"weak algorithm\""), r.out)
        // Names Sigil does not verify narrow to nothing: refused, with a warning.
        let u = try run(["verify", valid] + base + host + ["--sig-alg", "DSA_WITH_SHA256"], exit: 1)
        XCTAssertTrue(u.err.contains("DSA_WITH_SHA256"), u.err)
    }
}
