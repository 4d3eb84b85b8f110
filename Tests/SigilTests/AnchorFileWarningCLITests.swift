import Foundation
import SigilTestSupport
import XCTest

/// `sigil verify --anchor FILE` fails closed on an anchor file it cannot use (a damaged PEM
/// block: nothing of the file becomes an anchor; a certificate that does not parse: it is left
/// out) — and says so on standard error, instead of leaving the user with a bare "not trusted".
/// Chains and verdicts: `Fixtures/eddsa/` (OpenSSL's verdicts in its manifest: the leaf is
/// trusted under its root).
final class AnchorFileWarningCLITests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("eddsa/ed25519").path

    func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "sigil-anchor-\(UUID().uuidString).pem"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func verify(anchor: String) -> [String] {
        [
            "verify", "--host", "leaf.ed25519.sigil.test", "--at", "1893456000", "--anchor", anchor,
            "--anchors-only", "--intermediate", Self.dir + "/intermediate.pem", Self.dir + "/leaf.pem",
        ]
    }

    func testUsableAnchorFileAddsWithoutWarning() throws {
        let r = try runSigil(verify(anchor: Self.dir + "/root.pem"), exit: 0)
        XCTAssertFalse(r.err.contains("--anchor"), r.err)
    }

    func testDamagedAnchorFileIsRefusedWholeAndSaidSo() throws {
        let root = try String(contentsOfFile: Self.dir + "/root.pem", encoding: .utf8)
        // The root's block with one base64 character removed from its first line: no longer a
        // whole number of quanta (RFC 4648 §3.5), so the input is damaged.
        var lines = root.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try XCTUnwrap(lines.firstIndex { !$0.hasPrefix("-----") && !$0.isEmpty })
        lines[first].removeLast()
        let path = try temporaryFile(lines.joined(separator: "\n"))
        let r = try runSigil(verify(anchor: path), exit: 1)
        XCTAssertTrue(r.err.contains("warning: --anchor \(path): 0 certificate(s) added"), r.err)
        XCTAssertTrue(r.err.contains("unusable"), r.err)
    }

    func testAnchorFileWithoutCertificatesIsSaidSo() throws {
        let path = try temporaryFile("no certificate here\n")
        let r = try runSigil(verify(anchor: path), exit: 1)
        XCTAssertTrue(r.err.contains("warning: --anchor \(path): 0 certificate(s) added"), r.err)
    }
}
