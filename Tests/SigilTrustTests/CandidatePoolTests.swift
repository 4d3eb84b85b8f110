import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// Path building among the untrusted intermediates a peer sends (CandidatePool.swift): the
/// scenarios of `Fixtures/pool/` (made by `Fixtures/scripts/gen_pool.py`, verdicts from
/// `openssl verify` recorded in its manifest). `opensslPath` is OpenSSL's verdict on the path
/// alone: where it is "OK", a valid path exists in the pool and Sigil must find it — exactly that
/// path — whatever decoys come before it (OpenSSL itself does not backtrack among same-name
/// candidates, so its verdict on the whole pool can be a signature failure).
final class CandidatePoolTests: XCTestCase {
    struct Scenario: Decodable {
        let scenario: String
        let description: String
        let at: Double
        let host: String
        let poolSize: Int
        let openssl: String
        let opensslPath: String
    }

    /// OpenSSL's error lines → Sigil's failure kinds.
    static let reasons: [String: TrustFailureKind] = [
        "certificate signature failure": .badSignature, "certificate has expired": .expired,
    ]

    struct Loaded {
        let s: Scenario
        let leaf: Certificate
        let pool: [Certificate]
        let anchors: [Certificate]
        let path: [Certificate]
    }

    func load() throws -> [String: Loaded] {
        let dir = TestSupport.fixtures.appendingPathComponent("pool")
        let manifest = try Data(contentsOf: dir.appendingPathComponent("manifest.json"))
        var out: [String: Loaded] = [:]
        for s in try JSONDecoder().decode([Scenario].self, from: manifest) {
            func certs(_ name: String) throws -> [Certificate] {
                try Certificate.all(
                    from: TestSupport.read(dir.appendingPathComponent(s.scenario).appendingPathComponent(name).path))
            }
            let l = Loaded(
                s: s, leaf: try certs("leaf.pem")[0], pool: try certs("intermediates.pem"),
                anchors: try certs("anchors.pem"), path: try certs("path.pem"))
            XCTAssertEqual(l.pool.count, s.poolSize, s.scenario)
            out[s.scenario] = l
        }
        return out
    }

    func verify(_ l: Loaded, pool: [Certificate]? = nil) -> (TrustResult, Int) {
        let counter = CountingVerifier()
        let verifier = ChainVerifier(anchors: TrustStore(l.anchors.map { TrustAnchor($0) }), signatureVerifier: counter)
        let r = verifier.verify(
            leaf: l.leaf, intermediates: pool ?? l.pool,
            options: VerificationOptions(purpose: .server(host: l.s.host), time: l.s.at))
        return (r, counter.calls)
    }

    func testEveryScenarioAgainstOpenSSL() throws {
        let all = try load()
        XCTAssertEqual(all.count, 9)
        for (id, l) in all.sorted(by: { $0.key < $1.key }) {
            let (r, calls) = verify(l)
            XCTAssertLessThanOrEqual(calls, ChainVerifier.maximumSignatureChecks, id)
            if l.s.opensslPath == "OK" {
                guard case .trusted(let path, let anchor, _) = r else {
                    XCTFail("\(id): \(l.s.description) → \(r.failures)")
                    continue
                }
                // The path OpenSSL validated: leaf, the intermediate(s) of path.pem, the anchor
                // (a pool copy of the anchor or of an intermediate is never an extra step).
                XCTAssertEqual(path, [l.leaf] + l.path + l.anchors, id)
                XCTAssertEqual(anchor, .custom, id)
            } else {
                XCTAssertFalse(r.isTrusted, id)
                let kind = try XCTUnwrap(Self.reasons[l.s.opensslPath], "\(id): \(l.s.opensslPath)")
                // The main failure is OpenSSL's, not "no issuer" (the §7.1 pass replaces what the
                // byte-identical pass noted).
                XCTAssertEqual(r.failures.first?.kind, kind, "\(id): \(r.failures)")
                XCTAssertFalse(r.failures.contains { $0.kind == .unknownIssuer }, "\(id): \(r.failures)")
            }
            // Where OpenSSL accepts the pool as given, Sigil does too.
            if l.s.openssl == "OK" { XCTAssertTrue(r.isTrusted, id) }
        }
    }

    /// RFC 5280 §7.1: the leaf's issuer field (UTF8String, other case, extra spaces) differs
    /// from the intermediate's subject (PrintableString) byte for byte; the intermediate is
    /// still found, also when a certificate whose subject is byte-identical to the issuer field
    /// (another key: bad signature) is tried first; likewise an anchor named in another
    /// spelling by the intermediate.
    func testIssuerMatchingOnlyUnderNormalisationIsFound() throws {
        let all = try load()
        for id in ["normalised-issuer", "normalised-issuer-after-raw-decoy"] {
            let l = try XCTUnwrap(all[id])
            XCTAssertNotEqual(l.leaf.issuer.encoded, l.path[0].subject.encoded, id)
            XCTAssertTrue(l.leaf.issuer.matchesForChaining(l.path[0].subject), id)
            let (r, _) = verify(l)
            XCTAssertTrue(r.isTrusted, "\(id): \(r.failures)")
        }
        // The same for the anchor: the intermediate names it in another spelling.
        let a = try XCTUnwrap(all["normalised-anchor"])
        XCTAssertNotEqual(a.path[0].issuer.encoded, a.anchors[0].subject.encoded)
        XCTAssertTrue(a.path[0].issuer.matchesForChaining(a.anchors[0].subject))
        XCTAssertTrue(verify(a).0.isTrusted, "\(verify(a).0.failures)")
        XCTAssertTrue(verify(a, pool: a.path).0.isTrusted)
        // The decoy really is byte-identical and really fails.
        let d = try XCTUnwrap(all["normalised-issuer-after-raw-decoy"])
        XCTAssertEqual(d.pool[0].subject.encoded, d.leaf.issuer.encoded)
        let (r, _) = verify(d, pool: [d.pool[0]])
        XCTAssertEqual(r.failures.first?.kind, .badSignature, "\(r.failures)")
    }

    /// 60 CAs share the intermediate's subject and (hostile) its SKI, each with its own key:
    /// every one is a candidate, the right one is found, within the signature budget; with a
    /// budget smaller than the decoys it fails closed.
    func testNearDuplicatesStayWithinBudget() throws {
        let l = try XCTUnwrap(try load()["near-duplicates-same-ski"])
        let (r, calls) = verify(l)
        XCTAssertTrue(r.isTrusted, "\(r.failures)")
        XCTAssertGreaterThan(calls, 60)  // each decoy's signature was checked
        XCTAssertLessThanOrEqual(calls, ChainVerifier.maximumSignatureChecks)

        var verifier = ChainVerifier(
            anchors: TrustStore(l.anchors.map { TrustAnchor($0) }), signatureVerifier: CountingVerifier())
        verifier.budget.signatureChecks = 30
        let small = verifier.verify(
            leaf: l.leaf, intermediates: l.pool,
            options: VerificationOptions(purpose: .server(host: l.s.host), time: l.s.at))
        XCTAssertFalse(small.isTrusted)
        XCTAssertTrue(small.failures.contains { $0.kind == .budgetExhausted }, "\(small.failures)")
    }

    /// Duplicates, a copy of the leaf and a copy of the anchor in the pool change nothing: the
    /// same verdict, failures and signature checks as with the intermediate alone.
    func testDuplicatesAndCopiesAreIgnored() throws {
        let all = try load()
        let good = try XCTUnwrap(all["duplicates-leaf-and-anchor-copies"])
        let (r1, calls1) = verify(good)
        let (r2, calls2) = verify(good, pool: good.path)
        XCTAssertTrue(r1.isTrusted && r2.isTrusted)
        XCTAssertEqual(calls1, calls2)
        let bad = try XCTUnwrap(all["duplicates-tampered-intermediate"])
        let single = try XCTUnwrap(all["single-tampered-intermediate"])
        let (b1, c1) = verify(bad)
        let (b2, c2) = verify(single)
        XCTAssertEqual(b1.failures, b2.failures)
        XCTAssertEqual(c1, c2)
        XCTAssertEqual(b1.failures.first?.kind, .badSignature)
    }
}
