import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// RFC 8410 AlgorithmIdentifier edges on an Ed25519 leaf (Fixtures/eddsa-params, made by
/// Fixtures/scripts/gen_eddsa_params.py, re-signed so only the named defect differs): parameters
/// present in the key's or the signature's identifier (§3: "the parameters MUST be absent"),
/// outer and TBS signature algorithms that differ (RFC 5280 §4.1.1.2), Ed25519/Ed448 labels
/// swapped on a key or a signature. The expected verdicts are those `openssl verify` and Go 1.19's
/// crypto/x509 gave when the script ran; where they differ the RFC clause recorded in `why`
/// decides (both times for the refusal).
final class EdDSAParameterTests: XCTestCase {
    struct Manifest: Decodable {
        struct Verdicts: Decodable {
            let openssl: String
            let go: String
            let expected: String
            let why: String?
        }
        let at: Int
        let host: String
        let cases: [String: Verdicts]
    }

    func testSigilGivesTheOraclesVerdicts() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("eddsa-params")
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let m = try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
        XCTAssertEqual(m.cases.count, 7)
        var store = TrustStore()
        store.add(try Certificate(der: bytes("root.der")))
        for (name, v) in m.cases.sorted(by: { $0.key < $1.key }) {
            if v.openssl != v.go { XCTAssertNotNil(v.why, name) }
            let trusted: Bool
            let why: String
            do {
                let leaf = try Certificate(der: bytes(name + ".der"))
                let r = ChainVerifier(anchors: store).verify(
                    leaf: leaf, intermediates: [],
                    options: VerificationOptions(purpose: .server(host: m.host), time: Double(m.at)))
                trusted = r.isTrusted
                why = "\(r.failures)"
            } catch {
                trusted = false  // does not parse: never trusted
                why = "\(error)"
            }
            XCTAssertEqual(trusted, v.expected == "trusted", "\(name): \(why)")
        }
    }
}
