import Foundation
import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// `TrustStore.loading(file:)` and `TrustStore.system()` read through the streaming reader
/// (`ObjectStream`): the anchors are those of the whole-input reader (`add(contentsOf:)`),
/// concatenated DER is read object by object, and a damaged file adds nothing (fail closed).
final class TrustStoreStreamingTests: XCTestCase {
    func temp(_ name: String, _ bytes: [UInt8]) throws -> String {
        try TestSupport.temporaryFile(name, bytes, area: "store")
    }

    func bundle() throws -> [UInt8] { try TestSupport.caBundle() }

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
        // A block of another label whose body is damaged (a line of 58 characters before the
        // last one: RFC 7468 §3 lines are 64 characters but the last; FuzzTrustStore's finding):
        // both readers judge the file the same way.
        let key =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFg3LwKJlIOQi/6Dh\n"
            + "nAvrMxQYABvpM+BlCQf/jkaMJRShRANCAASe28agRAD2aaYTxZcligMSmH\n"
            + "qwm6s7DNCqQEr0TmE00sjZHqLqUDEtuoFtc6shz2e3ESWu/ZnxvU0mQv\n-----END PRIVATE KEY-----\n"
        for text in [good + key + good, key + good, good + key] {
            var whole = TrustStore()
            whole.add(contentsOf: Array(text.utf8))
            let store = try XCTUnwrap(TrustStore.loading(file: try temp("key.pem", Array(text.utf8))))
            XCTAssertEqual(store.anchors.map(\.certificate.der), whole.anchors.map(\.certificate.der), text)
            XCTAssertEqual(store.count, 0, "a damaged block anywhere adds nothing: \(text)")
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

    /// A block of another label over the per-object limit (`Certificate.maximumSize`, 1 MiB of
    /// DER, the streaming reader's default): the streaming reader refuses the input, so the
    /// whole-input reader (`PEM.decodeBlocks`, `add(contentsOf:)`) must too, rather than skip
    /// the block and add the certificates around it. At exactly the limit both skip the block.
    /// The PEM text is Foundation's base64 (64-character CRLF lines), not Sigil's encoder.
    func testOversizedBlockOfAnotherLabelFailsBothReaders() throws {
        let good = PEM.encode(try PEM.certificatesDER(in: try bundle()).certificates[0])
        func block(_ n: Int) -> String {
            let body = Data((0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            return "-----BEGIN X509 CRL-----\r\n" + body.base64EncodedString(options: .lineLength64Characters)
                + "\r\n-----END X509 CRL-----\r\n"
        }
        for (n, read) in [(Certificate.maximumSize, true), (Certificate.maximumSize + 1, false)] {
            let text = Array((good + block(n) + good).utf8)
            var whole = TrustStore()
            XCTAssertEqual(whole.add(contentsOf: text), read ? 2 : 0, "\(n)")
            let streamed = try XCTUnwrap(TrustStore.loading(file: try temp("big-crl.pem", text)))
            XCTAssertEqual(streamed.count, read ? 1 : 0, "\(n)")  // the two copies collapse
            XCTAssertEqual(whole.count, streamed.count, "\(n)")
            if !read {
                XCTAssertThrowsError(try PEM.decodeBlocks(text)) { e in
                    XCTAssertEqual((e as? DERError)?.kind, .tooLarge)
                }
                XCTAssertEqual(streamed.skippedCount, 1)
            } else {
                XCTAssertEqual(try PEM.decodeBlocks(text).skippedBlocks, 1)
            }
        }
    }

    /// The file-descriptor reader (standard input for the CLI): a pipe fed by another thread
    /// gives the anchors of the whole-input reader; the writer is never held whole in memory
    /// by the reader. A directory is refused before the body sees anything.
    func testFileDescriptorReaderOverAPipe() throws {
        let pem = try bundle()
        var reference = TrustStore()
        let referenceAdded = reference.add(contentsOf: pem)
        XCTAssertGreaterThan(referenceAdded, 10)
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(pem + pem))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var store = TrustStore()
        let added = FileInput.withObjectStream(fileDescriptor: pipe.fileHandleForReading.fileDescriptor) {
            store.add(from: &$0)
        }
        XCTAssertEqual(added, 2 * referenceAdded)
        XCTAssertEqual(store.count, reference.count)
        XCTAssertEqual(Set(store.anchors.map(\.certificate.der)), Set(reference.anchors.map(\.certificate.der)))
        var ran = false
        XCTAssertNil(FileInput.withObjectStream(FileManager.default.temporaryDirectory.path) { _ in ran = true })
        XCTAssertFalse(ran)
    }
}
