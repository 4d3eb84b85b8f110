import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
import XCTest

/// What the 2026-12-04 review found (fixtures from Fixtures/scripts/gen_review_2026_12_04.py,
/// each chain checked there with `openssl verify` / `openssl ocsp -auth_level 2`).
///
/// 1. Roots of the system store with a profile older than the CA/B root profile (AKI with
///    authorityCertIssuer and serial, no SKI, a non-critical basicConstraints — as Go Daddy and
///    Starfield Class 2, QuoVadis Root CA 2 and 3, Certigna, TWCA Global Root CA and ePKI Root,
///    all in the Mozilla store) could never anchor a server chain: Sigil refused the root. They
///    are now accepted as system anchors (OpenSSL and Go accept them), and still refused as a
///    caller's anchors (x509-limbo's expectation for such roots).
/// 2. A delegated OCSP responder's key was not held to the algorithm policy: a "good" response
///    signed with a 1024-bit responder key was relied on under hard-fail revocation.
final class ReviewAnchorsAndResponderTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("review-2026-12-04")
    static let at = 1_780_272_000.0

    func certs(_ path: String) throws -> [Certificate] {
        try Certificate.all(from: TestSupport.read(Self.dir.appendingPathComponent(path).path))
    }

    func testOldProfileRootsAnchorChainsAsSystemAnchorsOnly() throws {
        for name in ["aki-issuer-serial", "no-ski", "bc-noncritical"] {
            let root = try certs("system-roots/\(name)/root.pem")[0]
            let inter = try certs("system-roots/\(name)/inter.pem")[0]
            let leaf = try certs("system-roots/\(name)/leaf.pem")[0]
            let options = VerificationOptions(purpose: .server(host: "leaf.example"), time: Self.at)
            var system = TrustStore()
            system.add(root, source: .system)
            let trusted = ChainVerifier(anchors: system).verify(leaf: leaf, intermediates: [inter], options: options)
            XCTAssertTrue(trusted.isTrusted, "\(name) as a system anchor: \(trusted)")
            var custom = TrustStore()
            custom.add(root, source: .custom)
            let refused = ChainVerifier(anchors: custom).verify(leaf: leaf, intermediates: [inter], options: options)
            XCTAssertEqual(refused.failures.first?.kind, .profileViolation, "\(name) as a caller's anchor: \(refused)")
            XCTAssertEqual(refused.failures.first?.certificateIndex, 2, "\(name): the root is the one refused")
        }
    }

    func testDelegatedResponderKeyIsHeldToTheAlgorithmPolicy() throws {
        func f(_ n: String) -> String { Self.dir.appendingPathComponent("ocsp-responder/" + n).path }
        let base = [
            "verify", f("leaf.pem"), "--anchor", f("root.pem"), "--anchors-only", "--host", "leaf.example", "--at",
            "1780272000", "--revocation", "hard",
        ]
        let good = try runSigil(base + ["--ocsp-response", f("ocsp-2048.der")], exit: 0)
        XCTAssertTrue(good.out.contains("good"), good.out)
        let weak = try runSigil(base + ["--ocsp-response", f("ocsp-1024.der")], exit: 1)
        XCTAssertTrue((weak.out + weak.err).contains("1024 bits"), weak.out + weak.err)
    }
}
