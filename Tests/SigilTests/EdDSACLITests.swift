import Foundation
import SigilTestSupport
import XCTest

/// Issue 22: EdDSA through the command line — `sigil inspect`, `pin`, `verify` (with and without
/// `--sig-alg`) and `ats` on the OpenSSL-made chains of `Fixtures/eddsa/` (generator:
/// `Fixtures/scripts/gen_eddsa.py`, verdicts from `openssl verify` in its manifest). Expected
/// key facts and pins come from `openssl` at test time, never from Sigil.
final class EdDSACLITests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("eddsa").path
    static let at = "1893456000"

    @discardableResult
    func run(_ args: [String], exit expected: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> (
        out: String, err: String
    ) {
        try runSigil(args, exit: expected, file: file, line: line)
    }

    func f(_ alg: String, _ name: String) -> String { "\(Self.dir)/\(alg)/\(name)" }

    func host(_ alg: String) -> String { "leaf.\(alg).sigil.test" }

    /// The RFC 7469 pin (base64 SHA-256 of the DER SubjectPublicKeyInfo) as OpenSSL computes it.
    func opensslPin(_ path: String) throws -> String {
        guard
            let pin = try TestSupport.run([
                "sh", "-c",
                "openssl x509 -in '\(path)' -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | openssl base64 -A",
            ]), !pin.isEmpty
        else { throw XCTSkip("openssl not available") }
        return pin.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `openssl x509 -text` names the key algorithm ("ED25519" / "ED448"); Sigil's JSON report
    /// must say the same algorithm.
    func testInspectNamesTheKeyAlgorithmAsOpenSSLDoes() throws {
        for alg in ["ed25519", "ed448"] {
            guard let text = try TestSupport.run(["openssl", "x509", "-in", f(alg, "leaf.pem"), "-noout", "-text"])
            else { throw XCTSkip("openssl not available") }
            XCTAssertTrue(text.contains("Public Key Algorithm: \(alg.uppercased())"), text)
            XCTAssertTrue(text.contains("Signature Algorithm: \(alg.uppercased())"), text)

            let r = try run(["inspect", "--json", f(alg, "leaf.pem")], exit: 0)
            let line = try XCTUnwrap(r.out.split(separator: "\n").first)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let key = try XCTUnwrap(json["publicKey"] as? [String: Any], r.out)
            XCTAssertEqual(key["algorithm"] as? String, alg, r.out)
            XCTAssertTrue(r.out.lowercased().contains(alg), r.out)
        }
    }

    func testPinEqualsOpenSSLsSPKIHash() throws {
        for alg in ["ed25519", "ed448"] {
            let expected = try opensslPin(f(alg, "leaf.pem"))
            let r = try run(["pin", "--json", f(alg, "leaf.pem")], exit: 0)
            XCTAssertTrue(r.out.contains("\"pin\":\"sha256/\(expected)\""), "\(expected)\n\(r.out)")
        }
    }

    /// `openssl verify` said trusted (leaf) and untrusted (leaf-badsig); `--sig-alg` without
    /// ED25519/ED448 refuses the EdDSA-signed path; a public-key pin of the EdDSA leaf matches.
    func testVerifyFollowsOpenSSLAndSigAlg() throws {
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Self.dir + "/manifest.json"))) as! [String: Any]
        for alg in ["ed25519", "ed448"] {
            let m = manifest[alg] as! [String: Any]
            XCTAssertEqual(m["leaf"] as? String, "trusted")
            XCTAssertEqual(m["leaf-badsig"] as? String, "untrusted")
            let base = [
                "verify", "--host", host(alg), "--at", Self.at, "--anchor", f(alg, "root.pem"), "--anchors-only",
                "--intermediate", f(alg, "intermediate.pem"),
            ]
            try run(base + [f(alg, "leaf.pem")], exit: 0)
            try run(base + [f(alg, "leaf-badsig.pem")], exit: 1)
            let name = alg.uppercased()
            try run(base + ["--sig-alg", name, f(alg, "leaf.pem")], exit: 0)
            let refused = try run(
                base + [
                    "--sig-alg", "ECDSA_WITH_SHA256", "--sig-alg", "RSA_WITH_SHA256", "--json", f(alg, "leaf.pem"),
                ],
                exit: 1)
            XCTAssertTrue(refused.out.lowercased().contains("algorithm"), refused.out)
            let pin = try opensslPin(f(alg, "leaf.pem"))
            try run(base + ["--pin-mode", "public-key", "--pin-key", "sha256/" + pin, f(alg, "leaf.pem")], exit: 0)
            // A pin of another key (the other algorithm's leaf) does not match: refused.
            let other = try opensslPin(f(alg == "ed25519" ? "ed448" : "ed25519", "leaf.pem"))
            try run(base + ["--pin-mode", "public-key", "--pin-key", "sha256/" + other, f(alg, "leaf.pem")], exit: 1)
        }
    }

    /// Apple's ATS names RSA >= 2048 and ECC >= 256 bits keys and SHA-2 signatures only: an
    /// all-EdDSA chain fails both requirements, with the reason said, though the chain is trusted.
    func testATSSaysEdDSAIsNotAnATSKeyType() throws {
        for alg in ["ed25519", "ed448"] {
            let r = try run(
                [
                    "ats", "--host", host(alg), "--at", Self.at, "--anchor", f(alg, "root.pem"), "--anchors-only",
                    "--intermediate", f(alg, "intermediate.pem"), "--json", f(alg, "leaf.pem"),
                ], exit: 1)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], r.out)
            let reqs = try XCTUnwrap(json["requirements"] as? [[String: Any]], r.out)
            let byID = Dictionary(uniqueKeysWithValues: reqs.map { ($0["id"] as! String, $0) })
            XCTAssertEqual(byID["key-size"]?["status"] as? String, "fail", r.out)
            XCTAssertTrue((byID["key-size"]?["detail"] as? String ?? "").contains("not an ATS key type"), r.out)
            XCTAssertEqual(byID["signature-hash"]?["status"] as? String, "fail", r.out)
        }
    }
}
