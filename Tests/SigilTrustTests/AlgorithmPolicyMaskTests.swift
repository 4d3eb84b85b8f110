import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// `AlgorithmPolicy.allowedDigests` and `allowedCurves` are kept as bit masks (the checks test
/// a bit instead of hashing into a `Set`): the public `Set` view must give back exactly what
/// was set, the defaults must be the documented ones, and the checks must follow the sets.
/// The chains are `Fixtures/certs` (openssl: rsa2048-* signed sha256WithRSAEncryption, p384-*
/// ecdsa-with-SHA384 with secp384r1 keys, as `openssl x509 -text` shows).
final class AlgorithmPolicyMaskTests: XCTestCase {
    /// Every subset of `all`, stored through `write` and read back through `read`; `allows`
    /// must answer as the set's `contains`, and equal sets must give equal, equally hashed policies.
    func checkEverySubset<T: Hashable>(
        _ all: [T], write: (inout AlgorithmPolicy, Set<T>) -> Void, read: (AlgorithmPolicy) -> Set<T>,
        allows: (AlgorithmPolicy, T) -> Bool
    ) {
        for bits in 0..<(1 << all.count) {
            let set = Set(all.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
            var p = AlgorithmPolicy()
            write(&p, set)
            XCTAssertEqual(read(p), set)
            for x in all { XCTAssertEqual(allows(p, x), set.contains(x), "\(x) in \(set)") }
            // Equal sets give equal policies (the verdict cache keys on the options).
            var q = AlgorithmPolicy()
            write(&q, Set(set.reversed()))
            XCTAssertEqual(p, q)
            XCTAssertEqual(p.hashValue, q.hashValue)
        }
    }

    func testSetViewRoundTripsEverySubset() {
        checkEverySubset(
            DigestAlgorithm.allCases, write: { $0.allowedDigests = $1 }, read: { $0.allowedDigests },
            allows: { $0.allows($1) })
        checkEverySubset(
            [NamedCurve.p256, .p384, .p521, .other], write: { $0.allowedCurves = $1 }, read: { $0.allowedCurves },
            allows: { $0.allows($1) })
        // In-place mutation through the view (get, insert, set).
        var p = AlgorithmPolicy()
        p.allowedDigests.insert(.sha1)
        XCTAssertEqual(p.allowedDigests, [.sha1, .sha256, .sha384, .sha512])
        p.allowedCurves.remove(.p521)
        XCTAssertEqual(p.allowedCurves, [.p256, .p384])
    }

    func testDefaultsAreTheDocumentedOnes() {
        XCTAssertEqual(AlgorithmPolicy().allowedDigests, [.sha256, .sha384, .sha512])
        XCTAssertEqual(AlgorithmPolicy().allowedCurves, [.p256, .p384, .p521])
        XCTAssertEqual(AlgorithmPolicy.standard, AlgorithmPolicy())
        XCTAssertEqual(AlgorithmPolicy.legacy.allowedDigests, [.sha1, .sha224, .sha256, .sha384, .sha512])
        XCTAssertNotEqual(AlgorithmPolicy.legacy, AlgorithmPolicy.standard)
    }

    func verify(_ family: String, _ algorithms: AlgorithmPolicy) throws -> TrustResult {
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        func cert(_ name: String) throws -> Certificate {
            try Certificate(der: TestSupport.read(dir.appendingPathComponent("\(family)-\(name).der").path))
        }
        var store = TrustStore()
        store.add(try cert("root"))
        var options = VerificationOptions(purpose: .server(host: "leaf.\(family).sigil.test"), time: 1_893_456_000)
        options.algorithms = algorithms
        return ChainVerifier(anchors: store).verify(
            leaf: try cert("leaf"), intermediates: [try cert("intermediate")], options: options)
    }

    func expectRefused(
        _ family: String, _ p: AlgorithmPolicy, _ kind: TrustFailureKind, line: UInt = #line
    ) throws {
        let r = try verify(family, p)
        XCTAssertFalse(r.isTrusted, line: line)
        XCTAssertEqual(r.failures.first?.kind, kind, "\(r.failures)", line: line)
    }

    func testChecksFollowTheDigestSet() throws {
        XCTAssertTrue(try verify("rsa2048", .standard).isTrusted)
        var p = AlgorithmPolicy()
        p.allowedDigests = [.sha384, .sha512]
        try expectRefused("rsa2048", p, .weakAlgorithm)
        p.allowedDigests.insert(.sha256)
        XCTAssertTrue(try verify("rsa2048", p).isTrusted)
        // SHA-384 (the P-384 chain's digest) alone.
        p.allowedDigests = [.sha384]
        XCTAssertTrue(try verify("p384", p).isTrusted)
        XCTAssertFalse(try verify("rsa2048", p).isTrusted)
    }

    func testChecksFollowTheCurveSet() throws {
        XCTAssertTrue(try verify("p384", .standard).isTrusted)
        var p = AlgorithmPolicy()
        p.allowedCurves = [.p256, .p521]
        try expectRefused("p384", p, .unsupportedAlgorithm)
        p.allowedCurves = [.p384]
        XCTAssertTrue(try verify("p384", p).isTrusted)
        // RSA keys are not judged by the curve set.
        p.allowedCurves = []
        XCTAssertTrue(try verify("rsa2048", p).isTrusted)
        XCTAssertFalse(try verify("p384", p).isTrusted)
    }
}
