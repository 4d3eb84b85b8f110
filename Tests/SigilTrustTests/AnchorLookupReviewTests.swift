import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
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

    func verify(
        _ leaf: Certificate, _ pool: [Certificate], anchors: [Certificate], purpose: VerificationPurpose = .basic
    )
        -> TrustResult
    {
        let verifier = ChainVerifier(anchors: TrustStore(anchors.map { TrustAnchor($0) }))
        return verifier.verify(
            leaf: leaf, intermediates: pool, options: VerificationOptions(purpose: purpose, time: Self.at))
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
        let full = verify(
            c.leaf, [c.decoy, c.intermediate, c.decoy], anchors: [c.decoy, c.anchor], purpose: .server(host: nil))
        XCTAssertTrue(full.isTrusted, "\(full.failures)")
        if case .trusted(let path, _, _) = full { XCTAssertEqual(path, [c.leaf, c.intermediate, c.anchor]) }
        let without = verify(c.leaf, [c.decoy, c.intermediate], anchors: [c.decoy], purpose: .server(host: nil))
        XCTAssertFalse(without.isTrusted)
    }

    /// `host` is parsed once when set: changing it must change the verdict (OpenSSL: OK for
    /// leaf.pool.sigil.test, hostname mismatch for other.pool.sigil.test).
    func testChangingHostIsHonoured() throws {
        let c = try load()
        let verifier = ChainVerifier(anchors: TrustStore([TrustAnchor(c.anchor)]))
        var options = VerificationOptions(purpose: .server(host: "other.pool.sigil.test"), time: Self.at)
        options.purpose = .server(host: Self.host)
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: options).isTrusted)
        var copy = options
        copy.purpose = .server(host: "other.pool.sigil.test")
        let r = verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy)
        XCTAssertFalse(r.isTrusted)
        XCTAssertTrue(r.failures.contains { $0.kind == .nameMismatch }, "\(r.failures)")
        // The copy made before the change keeps its own host.
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: options).isTrusted)
        copy.purpose = .server(host: nil)
        XCTAssertTrue(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy).isTrusted)
        copy.purpose = .server(host: "not a host name")
        XCTAssertFalse(verifier.verify(leaf: c.leaf, intermediates: [c.intermediate], options: copy).isTrusted)
    }

    /// The fact block keeps the key size in 16 bits: a leaf RSA key of 65 544 bits (a multiple
    /// of 8, BR §6.1.5; the leaf's key is never used by path validation) must not be read as a
    /// 65 535-bit one. `Fixtures/review/large-rsa` (`gen_review_large_rsa_leaf.py`); OpenSSL:
    /// `openssl verify -attime 1893456000 -purpose sslserver -verify_hostname
    /// large-rsa.sigil.test -CAfile root.pem leaf.pem` → OK.
    func testLeafKeyAbove16BitsKeepsItsSize() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("review/large-rsa")
        let root = try XCTUnwrap(
            try Certificate.all(from: TestSupport.read(dir.appendingPathComponent("root.pem").path)).first)
        let leaf = try XCTUnwrap(
            try Certificate.all(from: TestSupport.read(dir.appendingPathComponent("leaf.pem").path)).first)
        XCTAssertEqual(leaf.publicKeyBitCount, 65544)
        let verifier = ChainVerifier(anchors: TrustStore([TrustAnchor(root)]))
        let r = verifier.verify(
            leaf: leaf, intermediates: [],
            options: VerificationOptions(purpose: .server(host: "large-rsa.sigil.test"), time: Self.at))
        // Sigil's own RSA code refuses moduli above 16 384 bits (`RSAPublicKey.maximumModulusBits`),
        // so the leaf's key does not decode: that is the one failure, not a "weak key".
        XCTAssertFalse(r.failures.contains { $0.kind == .weakKey }, "\(r.failures)")
        XCTAssertEqual(r.failures.map(\.kind), [.malformedCertificate], "\(r.failures)")
        // With a signature verifier that accepts the key (as OpenSSL does), the chain is trusted.
        let lenient = ChainVerifier(
            anchors: TrustStore([TrustAnchor(root)]), signatureVerifier: AcceptingLeafKeys())
        let l = lenient.verify(
            leaf: leaf, intermediates: [],
            options: VerificationOptions(purpose: .server(host: "large-rsa.sigil.test"), time: Self.at))
        XCTAssertTrue(l.isTrusted, "\(l.failures)")
    }
}

/// Sigil's verifier, except that every leaf key is taken as valid.
final class AcceptingLeafKeys: CertificateSignatureVerifier, @unchecked Sendable {
    let inner = SigilSignatureVerifier()
    func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
        inner.verifySignature(of: certificate, issuer: issuer)
    }
    func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool { true }
}
