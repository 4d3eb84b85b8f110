import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// `TrustStore.loading(file:)` and `TrustStore.system()` read through the streaming reader
/// (`ObjectStream`): the anchors are those of the whole-input reader (`add(contentsOf:)`),
/// concatenated DER is read object by object, and a damaged file adds nothing (fail closed).
final class TrustStoreStreamingTests: XCTestCase {
    func temp(_ name: String, _ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-store-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func bundle() throws -> [UInt8] {
        let system = "/etc/ssl/certs/ca-certificates.crt"
        if FileManager.default.fileExists(atPath: system) { return try TestSupport.read(system) }
        return try TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/bundle.pem").path)
    }

    func testStreamedBundleMatchesTheWholeInputReader() throws {
        let pem = try bundle()
        var reference = TrustStore()
        let added = reference.add(contentsOf: pem)
        XCTAssertGreaterThan(added, 10)
        // PEM, three copies (duplicates collapse), and the same certificates as concatenated DER.
        let certs = try PEM.certificatesDER(in: pem).certificates
        for (name, bytes) in [("three.pem", pem + pem + pem), ("all.der", Array(certs.joined()))] {
            let store = try XCTUnwrap(TrustStore.loading(file: try temp(name, bytes)), name)
            XCTAssertEqual(store.count, reference.count, name)
            XCTAssertEqual(store.skippedCount, 0, name)
            XCTAssertEqual(
                Set(store.anchors.map(\.certificate.der)), Set(reference.anchors.map(\.certificate.der)), name)
        }
        // SSL_CERT_FILE pointing at the generated bundle.
        let system = TrustStore.system(environment: ["SSL_CERT_FILE": try temp("env.pem", pem + pem)])
        XCTAssertEqual(system.count, reference.count)
        XCTAssertTrue(system.anchors.allSatisfy { $0.source == .system })
    }

    func testDamagedOrUnreadableInputsAddNothing() throws {
        let pem = try bundle()
        let certs = try PEM.certificatesDER(in: pem).certificates
        let good = PEM.encode(certs[0])
        let bad = good.replacingOccurrences(of: "\n-----END", with: "!\n-----END")
        // A malformed block anywhere: the file adds no anchor (as add(contentsOf:) decides).
        for text in [good + bad, bad + good, good + "-----BEGIN CERTIFICATE-----\nAAAA\n"] {
            let store = try XCTUnwrap(TrustStore.loading(file: try temp("bad.pem", Array(text.utf8))))
            XCTAssertEqual(store.count, 0, text)
            XCTAssertEqual(store.skippedCount, 1)
            var whole = TrustStore()
            XCTAssertEqual(whole.add(contentsOf: Array(text.utf8)), 0)
        }
        // No certificate at all; a certificate that does not parse (skipped, counted).
        let none = try XCTUnwrap(TrustStore.loading(file: try temp("none.pem", Array("just text\n".utf8))))
        XCTAssertEqual(none.count, 0)
        XCTAssertEqual(none.skippedCount, 1)
        let broken = Array(certs[0].dropLast(10))  // truncated DER
        let mixed = try XCTUnwrap(
            TrustStore.loading(file: try temp("mixed.pem", Array((PEM.encode(broken) + good).utf8))))
        XCTAssertEqual(mixed.count, 1)
        XCTAssertEqual(mixed.skippedCount, 1)
        // Missing files and directories cannot be read.
        XCTAssertNil(TrustStore.loading(file: "/nonexistent/sigil-anchors.pem"))
        XCTAssertNil(TrustStore.loading(file: FileManager.default.temporaryDirectory.path))
        // An object over the per-certificate limit (1 MiB) is refused without reading it whole.
        var huge: [UInt8] = [0x30, 0x84, 0x00, 0x20, 0x00, 0x00]
        huge += [UInt8](repeating: 0, count: 64)
        let large = try XCTUnwrap(TrustStore.loading(file: try temp("huge.der", huge)))
        XCTAssertEqual(large.count, 0)
        XCTAssertEqual(large.skippedCount, 1)
    }
}
