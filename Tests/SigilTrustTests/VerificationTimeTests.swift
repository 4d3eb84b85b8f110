import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// The verification time at the edges of what a `Double` holds. RFC 5280 §4.1.2.5: a
/// certificate is valid from notBefore through notAfter; a time that is not a number lies in no
/// such interval, so nothing validates at it. Found: `Checks.within` tested `time < notBefore`
/// and `time >= notAfter + 1`, both false for NaN, so at `time = .nan` the expired chain of
/// `Fixtures/chains/expired-leaf` (refused at 2030 by `openssl verify -x509_strict`, manifest
/// `expected: untrusted, reason: expired`) was trusted — and `sigil verify --at nan` printed
/// "trusted".
final class VerificationTimeTests: XCTestCase {
    static func chain(_ name: String) throws -> (presented: [Certificate], anchors: [Certificate]) {
        let folder = TestSupport.fixtures.appendingPathComponent("chains").appendingPathComponent(name)
        func certs(_ file: String) throws -> [Certificate] {
            try Certificate.all(from: TestSupport.read(folder.appendingPathComponent(file).path))
        }
        return (try certs("leaf.pem") + certs("intermediates.pem"), try certs("anchors.pem"))
    }

    func trust(_ name: String, purpose: VerificationPurpose, time: Double) throws -> CertificateTrust {
        let c = try Self.chain(name)
        var o = VerificationOptions(purpose: purpose, time: time)
        o.anchors = c.anchors
        return CertificateTrust(
            certificates: c.presented, options: o, systemAnchors: TrustStore(),
            signatureVerifier: SigilSignatureVerifier())
    }

    func testNonFiniteTimesTrustNothing() throws {
        // Controls (openssl: trusted at 2030, the expired leaf refused then).
        XCTAssertTrue(
            try trust("valid-rsa2048", purpose: .server(host: "leaf.rsa2048.sigil.test"), time: 1_893_456_000).verify()
                .isTrusted)
        XCTAssertFalse(try trust("expired-leaf", purpose: .basic, time: 1_893_456_000).verify().isTrusted)
        for time in [Double.nan, -Double.nan, Double.signalingNaN, .infinity, -.infinity] {
            for name in ["expired-leaf", "valid-rsa2048", "not-yet-valid-leaf"] {
                for purpose in [VerificationPurpose.basic, .server(host: nil), .client, .codeSigning] {
                    let r = try trust(name, purpose: purpose, time: time).verify()
                    XCTAssertFalse(r.isTrusted, "\(name) at \(time) for \(purpose)")
                    let kinds = Set(r.failures.map(\.kind))
                    XCTAssertTrue(
                        kinds.contains(.expired) || kinds.contains(.notYetValid), "\(name) at \(time): \(r.failures)")
                }
            }
        }
    }

    /// A verdict cached at a valid time is never served at a time that is not a number, and
    /// nothing is stored for one.
    func testVerdictCacheDoesNotServeNaN() throws {
        let cache = VerdictCache(capacity: 8, maximumAge: 3600)
        var t = try trust("valid-rsa2048", purpose: .server(host: "leaf.rsa2048.sigil.test"), time: 1_893_456_000)
        t.verdictCache = cache
        XCTAssertTrue(t.evaluate().isTrusted)
        XCTAssertTrue(t.evaluate().isTrusted)
        XCTAssertEqual(cache.statistics.hits, 1)
        t.time = .nan
        XCTAssertFalse(t.evaluate().isTrusted)
        XCTAssertFalse(t.verify().isTrusted)
        XCTAssertEqual(cache.statistics.hits, 1)
    }

    /// `ATSReport.evaluate` with a CT log list at a time that is not a number: a report (the
    /// chain not valid, CT failed), not a trap converting the time to whole seconds.
    func testATSReportAtNaNWithLogList() throws {
        let c = try Self.chain("valid-rsa2048")
        var store = TrustStore()
        for a in c.anchors { store.add(a, source: .system) }
        let list = CTLogList(logs: [])
        for time in [Double.nan, .infinity] {
            let report = ATSReport.evaluate(
                presented: c.presented, host: "leaf.rsa2048.sigil.test", anchors: store, at: time, ctLogList: list)
            XCTAssertFalse(report.chainIsValidated)
            XCTAssertEqual(report.requirements.first { $0.id == "certificate-transparency" }?.status, .fail)
        }
    }
}
