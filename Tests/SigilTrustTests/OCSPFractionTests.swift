import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// OCSP times with fractional seconds (review finding, 2026-12-06). RFC 6960 leaves the form of
/// its GeneralizedTimes to X.690, whose DER allows a fraction (§11.7); Sigil read them under
/// RFC 5280's certificate rule and dropped such a response as malformed — so a CA-signed
/// "revoked (keyCompromise)" was ignored and soft fail trusted the leaf. Fixtures:
/// `Fixtures/ocsp-fraction` (`Fixtures/scripts/gen_ocsp_fraction.py`; `openssl ocsp` verifies
/// both responses there and reports good / revoked).
final class OCSPFractionTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("ocsp-fraction")
    static let at = 1_748_822_400.0  // 2025-06-02T00:00:00Z
    static let host = "leaf.ocsp-fraction.sigil.test"

    func read(_ name: String) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(name).path) }

    func verify(_ response: String, _ policy: RevocationOptions.Policy) throws -> TrustResult {
        var store = TrustStore()
        store.add(try Certificate.all(from: read("root.pem"))[0])
        let leaf = try Certificate.all(from: read("leaf.pem"))[0]
        var options = VerificationOptions(purpose: .server(host: Self.host), time: Self.at)
        options.revocation = RevocationOptions(ocspResponses: [try OCSPResponse(der: read(response))], policy: policy)
        return ChainVerifier(anchors: store).verify(leaf: leaf, intermediates: [], options: options)
    }

    func testRevokedWithFractionRevokes() throws {
        for policy in [RevocationOptions.Policy.softFail, .hardFail] {
            let r = try verify("revoked-frac.der", policy)
            XCTAssertEqual(r.failures.first?.kind, .revoked, "\(policy): \(r)")
        }
    }

    func testGoodWithFractionIsUsed() throws {
        let r = try verify("good-frac.der", .hardFail)
        guard case .trusted(_, _, let details) = r else { return XCTFail("\(r.failures)") }
        XCTAssertEqual(details.revocation.first?.status.name, "good")
    }

    /// The times as read: whole seconds, nextUpdate one second lower when it has a fraction
    /// (the window in which the answer counts never widens), thisUpdate and the revocation time
    /// rounded down.
    func testTimesAreRoundedTheStrictWay() throws {
        let r = try XCTUnwrap(try OCSPResponse(der: read("revoked-frac.der")).basic)
        let s = try XCTUnwrap(r.responses.first)
        XCTAssertEqual(s.thisUpdate, 1_748_736_000)  // 2025-06-01T00:00:00.123Z
        XCTAssertEqual(s.nextUpdate, 1_749_340_800 - 1)  // 2025-06-08T00:00:00.123Z
        guard case .revoked(let time, let reason) = s.status else { return XCTFail("\(s.status)") }
        XCTAssertEqual(time, 1_746_057_600)  // 2025-05-01T00:00:00.123Z
        XCTAssertEqual(reason, .keyCompromise)
        XCTAssertEqual(r.producedAt, 1_748_736_000)
    }

    /// At nextUpdate's whole second (2025-06-08T00:00:00, before .123) the good answer still
    /// counts or not — but never after its fraction: 0.99 s past the second it is stale (the
    /// review's case: trusted 0.87 s after nextUpdate before this rounding).
    func testStaleAfterTheFractionalNextUpdate() throws {
        func at(_ t: Double) throws -> TrustResult {
            var store = TrustStore()
            store.add(try Certificate.all(from: read("root.pem"))[0])
            let leaf = try Certificate.all(from: read("leaf.pem"))[0]
            var options = VerificationOptions(purpose: .server(host: Self.host), time: t)
            options.revocation = RevocationOptions(
                ocspResponses: [try OCSPResponse(der: read("good-frac.der"))], policy: .hardFail)
            return ChainVerifier(anchors: store).verify(leaf: leaf, intermediates: [], options: options)
        }
        XCTAssertTrue(try at(1_749_340_799.5).isTrusted)
        XCTAssertFalse(try at(1_749_340_800.99).isTrusted)
        XCTAssertFalse(try at(1_749_340_800.2).isTrusted)
    }

    /// `DERTime.decodeAllowingFraction` on hand-written GeneralizedTimes (X.690 §11.7: the
    /// point, at least one digit, no trailing zero, Z).
    func testDecodeAllowingFraction() throws {
        func decode(_ text: String) throws -> (seconds: Int64, fractional: Bool) {
            let bytes: [UInt8] = [0x18, UInt8(text.utf8.count)] + Array(text.utf8)
            return try bytes.withUnsafeBytes { (raw) throws -> (seconds: Int64, fractional: Bool) in
                var r = DERReader(input: raw, from: 0, to: raw.count)
                return try DERTime.decodeAllowingFraction(try r.read(.generalizedTime))
            }
        }
        XCTAssertEqual(try decode("20250601000000Z").seconds, 1_748_736_000)
        XCTAssertFalse(try decode("20250601000000Z").fractional)
        XCTAssertEqual(try decode("20250601000000.5Z").seconds, 1_748_736_000)
        XCTAssertTrue(try decode("20250601000000.5Z").fractional)
        XCTAssertEqual(try decode("20250601235959.999Z").seconds, 1_748_822_399)
        for bad in [
            "20250601000000.50Z", "20250601000000.Z", "20250601000000.5", "20250601000000,5Z", "20250601000000.5aZ",
            "20250631000000.5Z", "20250601240000.5Z", "20250601000000.0Z",
        ] {
            XCTAssertThrowsError(try decode(bad), bad)
        }
    }
}
