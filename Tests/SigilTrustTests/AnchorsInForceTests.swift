@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// `CertificateTrust` remembers its merged anchor store across evaluations (`anchorsInForce()`):
/// every change to the caller's anchors, to `anchorsOnly` or to the system store — a new store,
/// or the same store changed in place — must give the verdict of a fresh evaluation, never the
/// remembered store's. The chain is `Fixtures/certs/rsa2048-*` (made by openssl, trusted under
/// its own root: `openssl verify -CAfile rsa2048-root.pem -untrusted rsa2048-intermediate.pem`),
/// judged at 2030-01-01 under RFC 5280 (`.basic`).
final class AnchorsInForceTests: XCTestCase {
    func cert(_ name: String) throws -> Certificate {
        try Certificate(der: TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/\(name)").path))
    }

    func testEveryChangeOfTheAnchorsIsSeen() throws {
        let root = try cert("rsa2048-root.der")
        let otherRoot = try cert("p256-root.der")
        var withRoot = TrustStore()
        withRoot.add(otherRoot, source: .system)
        withRoot.add(root, source: .system)
        var withoutRoot = TrustStore()
        withoutRoot.add(otherRoot, source: .system)

        var options = VerificationOptions(purpose: .basic, time: 1_893_456_000)
        options.anchors = [root]
        options.anchorsOnly = false
        var trust = CertificateTrust(
            certificates: [try cert("rsa2048-leaf.der"), try cert("rsa2048-intermediate.der")], options: options,
            systemAnchors: withoutRoot, signatureVerifier: SigilSignatureVerifier())
        func verdict(_ t: CertificateTrust, _ line: UInt = #line) -> AnchorSource? {
            let e = t.evaluate()
            // The same verdict as a fresh trust object with the same inputs (nothing remembered).
            let fresh = CertificateTrust(
                certificates: t.certificates, options: t.options, systemAnchors: t.systemAnchors,
                signatureVerifier: SigilSignatureVerifier())
            XCTAssertEqual(e.anchorSource, fresh.evaluate().anchorSource, line: line)
            XCTAssertEqual(e.result == .unspecified || e.result == .proceed, e.anchorSource != nil, line: line)
            return e.anchorSource
        }
        XCTAssertEqual(verdict(trust), .custom)
        XCTAssertEqual(verdict(trust), .custom)  // remembered
        trust.anchors = [otherRoot]  // the caller's anchors changed: no anchor for this chain
        XCTAssertNil(verdict(trust))
        trust.anchors = [root]
        XCTAssertEqual(verdict(trust), .custom)
        trust.anchorsOnly = true  // the system store no longer counts; the caller's root still does
        XCTAssertEqual(verdict(trust), .custom)
        trust.anchors = [otherRoot]
        XCTAssertNil(verdict(trust))
        // The root from the system store only (the caller's anchors lack it, anchorsOnly false).
        trust.anchorsOnly = false
        trust.systemAnchors = withRoot
        XCTAssertEqual(verdict(trust), .system)
        trust.systemAnchors = withoutRoot
        XCTAssertNil(verdict(trust))
        // The same stored system store changed in place: a new generation, seen at once.
        trust.systemAnchors.add(root, source: .system)
        XCTAssertEqual(verdict(trust), .system)
        // A copy changed apart from the original shares the memo, never its store.
        var copy = trust
        copy.systemAnchors = withoutRoot
        XCTAssertNil(verdict(copy))
        XCTAssertEqual(verdict(trust), .system)
        XCTAssertNil(verdict(copy))
    }
}
