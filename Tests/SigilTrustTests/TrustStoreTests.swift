import Foundation
import Sigil
import SigilTestSupport
import XCTest

final class TrustStoreTests: XCTestCase {
    /// The Debian bundle, loaded the way `TrustStore.system()` finds it, holds as many roots as
    /// openssl counts in it, and nothing is skipped.
    func testSystemStoreMatchesOpenSSLCount() throws {
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        guard FileManager.default.fileExists(atPath: bundle) else {
            print("SKIPPED: \(bundle) absent")
            return
        }
        let store = TrustStore.system(environment: [:])
        let text = try String(contentsOfFile: bundle, encoding: .utf8)
        let blocks = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        XCTAssertEqual(store.count, blocks)
        XCTAssertEqual(store.skippedCount, 0)
        let notSystem = store.anchors.filter { $0.source != .system }
        XCTAssertTrue(
            notSystem.isEmpty,
            "\(notSystem.count) anchors not marked system: \(notSystem.prefix(2).map { ($0.source, $0.certificate.subject.rfc4514String) })"
        )
    }

    /// SSL_CERT_FILE wins over the usual locations; unparseable entries are skipped and counted,
    /// never fatal.
    func testSSLCertFileOverrideAndSkippedEntries() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-store-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try String(
            contentsOf: TestSupport.fixtures.appendingPathComponent("certs/p256-root.pem"), encoding: .utf8)
        // A second block whose base64 is valid but whose DER is not a certificate.
        let junk = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n"
        let file = dir.appendingPathComponent("bundle.pem")
        try (good + "\n" + junk).write(to: file, atomically: true, encoding: .utf8)
        let store = TrustStore.system(environment: ["SSL_CERT_FILE": file.path])
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store.skippedCount, 1)
        XCTAssertEqual(
            store.anchors.first?.certificate.subject.rfc4514String, "CN=Sigil Test Root P256,O=Sigil Test PKI,C=US")

        // SSL_CERT_DIR: every file of the directory.
        let certDir = dir.appendingPathComponent("certs")
        try FileManager.default.createDirectory(at: certDir, withIntermediateDirectories: true)
        for name in ["p256-root", "p384-root", "rsa2048-root"] {
            try FileManager.default.copyItem(
                at: TestSupport.fixtures.appendingPathComponent("certs/\(name).pem"),
                to: certDir.appendingPathComponent("\(name).pem"))
        }
        try "not a certificate".write(to: certDir.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        // A DER certificate in the directory is not read: PEM only, as OpenSSL's (`-CApath`)
        // and Go's directory lookups read them (review, 2026-12-06).
        try FileManager.default.copyItem(
            at: TestSupport.fixtures.appendingPathComponent("certs/p521-root.der"),
            to: certDir.appendingPathComponent("3a5f0c11.0"))
        // A file holding no certificate (the README; a CRL `<hash>.r0` of a hashed directory) is
        // not an unusable entry; a damaged PEM block is.
        var damaged = try String(
            contentsOf: TestSupport.fixtures.appendingPathComponent("certs/ed448-root.pem"), encoding: .utf8)
        damaged = damaged.replacingOccurrences(of: "-----END CERTIFICATE-----", with: "-----END X509 CRL-----")
        try damaged.write(to: certDir.appendingPathComponent("damaged.pem"), atomically: true, encoding: .utf8)
        let fromDir = TrustStore.system(environment: ["SSL_CERT_DIR": certDir.path])
        XCTAssertEqual(fromDir.count, 3)
        XCTAssertEqual(fromDir.skippedCount, 1, "the damaged block only")
        // SSL_CERT_DIR is a ':'-separated list (OpenSSL, Go); a missing directory adds nothing.
        let second = dir.appendingPathComponent("certs2")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestSupport.fixtures.appendingPathComponent("certs/ed25519-root.pem"),
            to: second.appendingPathComponent("ed25519-root.pem"))
        let both = TrustStore.system(environment: ["SSL_CERT_DIR": "/nonexistent-sigil:\(certDir.path):\(second.path)"])
        XCTAssertEqual(both.count, 4)
        XCTAssertTrue(both.anchors.allSatisfy { $0.source == .system })
    }

    /// The same certificate added twice is one anchor; the first source is kept.
    func testDuplicatesCollapseAndSourcesAreKept() throws {
        let root = try Certificate.all(
            from: TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/p256-root.der").path))[0]
        var store = TrustStore()
        store.add(root, source: .custom)
        store.add(root, source: .system)
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store.anchors[0].source, .custom)
        XCTAssertTrue(store.contains(root))
    }
}
