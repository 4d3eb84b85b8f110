import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Sigil's fields against an independent parser: `Fixtures/scripts/dump_fields.py` (Python
/// `cryptography` for names, dates and extension values), run at test time on the fixtures and
/// on every system root.
final class IndependentParserTests: XCTestCase {
    static let comparedKeys = [
        "subject", "issuer", "serial", "version", "notBefore", "notAfter", "signatureAlgorithm", "publicKey",
        "subjectAltNames", "basicConstraints", "keyUsage", "extendedKeyUsage", "extensions",
        "subjectKeyIdentifier", "authorityKeyIdentifier", "sha256", "spkiSha256",
    ]

    /// Runs the reference dumper on `files`; nil (test skipped) when python3 or cryptography
    /// is missing.
    func reference(_ files: [String]) throws -> [[String: Any]]? {
        let script = TestSupport.fixtures.appendingPathComponent("scripts/dump_fields.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script] + files
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            print("SKIPPED: reference parser unavailable (python3 + cryptography): \(message)")
            return nil
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
    }

    func compare(_ files: [String], minimum: Int) throws {
        guard let expected = try reference(files) else { return }
        var mine: [[String: Any]] = []
        for file in files {
            let bytes = try TestSupport.read(file)
            for cert in try Certificate.all(from: bytes) {
                var report = CertificateReport(cert, now: 0)
                let json = report.json(
                    sha256: Fingerprint.sha256Hex(cert.der),
                    spkiSha256: Fingerprint.sha256Hex(cert.subjectPublicKeyInfo.bytes))
                XCTAssertEqual(report.problems, [], file)
                let object = try JSONSerialization.jsonObject(with: Data(json.serialized().utf8)) as! [String: Any]
                mine.append(object.merging(["_file": file]) { a, _ in a })
            }
        }
        XCTAssertEqual(mine.count, expected.count, "certificate count")
        var compared = 0
        for (a, b) in zip(mine, expected) {
            if let error = b["error"] {
                print("reference parser refused \(a["_file"]!): \(error) (not compared)")
                continue
            }
            for key in Self.comparedKeys {
                var x = a[key].map { canonical($0) } ?? "absent"
                var y = b[key].map { canonical($0) } ?? "absent"
                if key == "serial" {
                    // Sigil prints whole octets as `openssl x509 -serial` does; the reference
                    // prints the value without leading zero digits. Compare the numbers.
                    x = String(x.drop { $0 == "0" || $0 == "\"" })
                    y = String(y.drop { $0 == "0" || $0 == "\"" })
                }
                XCTAssertEqual(x, y, "\(a["_file"]!): \(key)")
            }
            compared += 1
        }
        print("compared \(compared) certificates field by field with the reference parser")
        XCTAssertGreaterThanOrEqual(compared, minimum)
    }

    func canonical(_ v: Any) -> String {
        if v is NSNull { return "null" }
        let data = try! JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    func testFixturesAgreeWithReferenceParser() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".der") }.sorted().map { dir.appendingPathComponent($0).path }
        XCTAssertGreaterThan(files.count, 20)
        try compare(files, minimum: 20)
    }

    func testSystemRootsAgreeWithReferenceParser() throws {
        let files = TestSupport.systemRootFiles()
        guard !files.isEmpty else {
            print("SKIPPED: no system roots in /etc/ssl/certs")
            return
        }
        try compare(files, minimum: 50)
    }
}
