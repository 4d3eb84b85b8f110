import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Review of the thin trust layer (issue 11): anchors are looked up by raw subject bytes in the
/// first pass of path building and under RFC 5280 §7.1 only in the second, and the host is parsed
/// once when set. Certificates: `Fixtures/pool/normalised-anchor` (the intermediate names its
/// anchor only under §7.1) and `Fixtures/review/anchor-decoy.pem`
/// (`Fixtures/scripts/gen_review_anchor_decoy.py`: a self-signed CA, another key, whose subject
/// is byte-identical to the intermediate's issuer field). Expected verdicts are OpenSSL's
/// (`openssl verify -attime 1893456000`, which compares names the §7.1 way):
/// path.pem with anchors.pem → OK; with anchor-decoy.pem alone → error 20; with both → OK;
/// leaf.pem with `-purpose sslserver -verify_hostname leaf.pool.sigil.test` → OK, with
/// `other.pool.sigil.test` → error 62 (hostname mismatch).
final class AnchorLookupReviewTests: XCTestCase {
    static let at = 1_893_456_000.0
    static let host = "leaf.pool.sigil.test"

    struct Certs {
        let leaf: Certificate
        let intermediate: Certificate
        let anchor: Certificate
        let decoy: Certificate
    }

    func load() throws -> Certs {
        let dir = TestSupport.fixtures.appendingPathComponent("pool/normalised-anchor")
        func one(_ url: URL) throws -> Certificate {
            try XCTUnwrap(try Certificate.all(from: TestSupport.read(url.path)).first)
        }
        let c = Certs(
            leaf: try one(dir.appendingPathComponent("leaf.pem")),
            intermediate: try one(dir.appendingPathComponent("path.pem")),
            anchor: try one(dir.appendingPathComponent("anchors.pem")),
            decoy: try one(TestSupport.fixtures.appendingPathComponent("review/anchor-decoy.pem")))
        // The premises: the real anchor matches only under §7.1, the decoy byte for byte.
        XCTAssertNotEqual(c.intermediate.issuer.encoded, c.anchor.subject.encoded)
        XCTAssertTrue(c.intermediate.issuer.matchesForChaining(c.anchor.subject))
        XCTAssertEqual(c.intermediate.issuer.encoded, c.decoy.subject.encoded)
        return c
    }

    func verify(_ leaf: Certificate, _ pool: [Certificate], anchors: [Certificate], kind: ValidationKind = .basic)
        -> TrustResult
    {
        let verifier = ChainVerifier(anchors: TrustStore(anchors.map { TrustAnchor($0) }))
        return verifier.verify(leaf: leaf, intermediates: pool, options: VerificationOptions(kind: kind, time: Self.at))
    }

    /// No intermediates at all: the only candidate is an anchor named under §7.1, which the
    /// byte-identical first pass cannot find (OpenSSL: OK).
    func testAnchorMatchingOnlyUnderNormalisationWithEmptyPool() throws {
        let c = try load()
        let r = verify(c.intermediate, [], anchors: [c.anchor])
        XCTAssertTrue(r.isTrusted, "\(r.failures)")
    }

    /// A byte-identical anchor with another key is tried first (pass 1) and fails; the §7.1 pass
    /// must still find the real anchor, whatever the order in the store (OpenSSL: OK with both).
    func testByteIdenticalDecoyAnchorDoesNotHideTheRealOne() throws {
        let c = try load()
        for anchors in [[c.decoy, c.anchor], [c.anchor, c.decoy]] {
            let r = verify(c.intermediate, [], anchors: anchors)
            XCTAssertTrue(r.isTrusted, "\(r.failures)")
            if case .trusted(let path, _, _) = r { XCTAssertEqual(path.last, c.anchor) }
        }
        // The decoy alone does not verify the intermediate (OpenSSL: error 20).
        XCTAssertFalse(verify(c.intermediate, [], anchors: [c.decoy]).isTrusted)
    }

    /// The same decoy sent by the peer as an intermediate, and also configured as an anchor (one
    /// certificate in two roles): neither role may make it the intermediate's issuer.
    func testDecoyAsIntermediateAndAnchor() throws {
        let c = try load()
        let full = verify(c.leaf, [c.decoy, c.intermediate, c.decoy], anchors: [c.decoy, c.anchor], kind: .server)
        XCTAssertTrue(full.isTrusted, "\(full.failures)")
        if case .trusted(let path, _, _) = full { XCTAssertEqual(path, [c.leaf, c.intermediate, c.anchor]) }
        let without = verify(c.leaf, [c.decoy, c.intermediate], anchors: [c.decoy], kind: .server)
        XCTAssertFalse(without.isTrusted)
    }

    /// `host` is parsed once when set: changing it must change the verdict (OpenSSL: OK for
    /// leaf.pool.sigil.test, hostname mismatch for other.pool.sigil.test).
    func testChangingHostIsHonoured() throws {
        let c = try load()
        let verifier = ChainVerifier(anchors: TrustStore([TrustAnchor(c.anchor)]))
        var options = VerificationOptions(kind: .server, time: Self.at, host: "other.pool.sigil.test")
        options.host = Self.host
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: options).isTrusted)
        var copy = options
        copy.host = "other.pool.sigil.test"
        let r = verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy)
        XCTAssertFalse(r.isTrusted)
        XCTAssertTrue(r.failures.contains { $0.kind == .nameMismatch }, "\(r.failures)")
        // The copy made before the change keeps its own host.
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: options).isTrusted)
        copy.host = nil
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy).isTrusted)
        copy.host = "not a host name"
        XCTAssertFalse(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy).isTrusted)
    }
}
