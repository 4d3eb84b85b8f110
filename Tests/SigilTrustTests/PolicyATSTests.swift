import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// ATS diagnostics on the two samples of `Fixtures/pinning/` (see gen_pinning.py). Expected
/// statuses are stated from Apple's rules and what the generator put in the certificates.
final class PolicyATSTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("pinning")
    static let at = 1_748_736_000.0  // 2025-06-01

    func load(_ name: String) throws -> [Certificate] {
        try Certificate.all(from: TestSupport.read(Self.dir.appendingPathComponent(name).path))
    }

    func anchors(_ source: AnchorSource) throws -> TrustStore {
        var s = TrustStore()
        s.add(try Certificate(der: TestSupport.read(Self.dir.appendingPathComponent("root.der").path)), source: source)
        return s
    }

    func statuses(_ r: ATSReport) -> [String: ATSRequirement.Status] {
        Dictionary(uniqueKeysWithValues: r.requirements.map { ($0.id, $0.status) })
    }

    func testGoodChainUnderASystemRoot() throws {
        let r = ATSReport.evaluate(
            presented: try load("ats-good.pem"), host: "ats.sigil.test", anchors: try anchors(.system), at: Self.at)
        // leaf P-256 signed SHA-256 by an RSA-2048 intermediate, itself signed SHA-256 by an
        // RSA-2048 root; SAN ats.sigil.test; serverAuth; 2025-03-01..2026-03-01 = 366 days
        // counted inclusively (≤ 398); 3 embedded SCTs, 3 required above 180 days.
        XCTAssertEqual(
            statuses(r),
            [
                "chain-trusted": .pass, "signature-hash": .pass, "key-size": .pass, "name-in-san": .pass,
                "server-auth-eku": .pass, "validity-period": .pass, "certificate-transparency": .pass,
                "tls-version": .needsConnection, "forward-secrecy": .needsConnection, "sct-delivery": .needsConnection,
            ])
        XCTAssertTrue(r.passed)
        XCTAssertTrue(r.chainIsValidated)
        XCTAssertEqual(r.chain.count, 3)
        XCTAssertEqual(ATSReport.validityDays(r.chain[0]), 366)
        XCTAssertEqual(ATSReport.requiredSCTs(r.chain[0]), 3)
    }

    func testGoodChainUnderACustomRootAndWrongHost() throws {
        // A root the user/administrator added: the 398-day rule and CT do not apply.
        let custom = ATSReport.evaluate(
            presented: try load("ats-good.pem"), host: "ats.sigil.test", anchors: try anchors(.custom), at: Self.at)
        XCTAssertEqual(statuses(custom)["certificate-transparency"], .notApplicable)
        XCTAssertEqual(statuses(custom)["validity-period"], .pass)
        XCTAssertTrue(custom.requirements.first { $0.id == "validity-period" }!.detail.contains("825"))
        let wrong = ATSReport.evaluate(
            presented: try load("ats-good.pem"), host: "other.sigil.test", anchors: try anchors(.system), at: Self.at)
        XCTAssertEqual(statuses(wrong)["name-in-san"], .fail)
        XCTAssertEqual(statuses(wrong)["chain-trusted"], .fail)
        XCTAssertFalse(wrong.passed)
        // Without the root among the anchors the chain is not trusted; the rest is still judged.
        let none = ATSReport.evaluate(
            presented: try load("ats-good.pem"), host: "ats.sigil.test", anchors: TrustStore(), at: Self.at)
        XCTAssertEqual(statuses(none)["chain-trusted"], .fail)
        XCTAssertEqual(statuses(none)["key-size"], .pass)
        XCTAssertFalse(none.chainIsValidated)
    }

    func testBadChainFailsEveryCertificateRule() throws {
        let r = ATSReport.evaluate(
            presented: try load("ats-bad.pem"), host: "ats-bad.sigil.test", anchors: try anchors(.system), at: Self.at)
        // RSA-1024 leaf, SHA-1 signature, name only in the CN, no EKU, 2021-01-01..2024-01-01
        // (1 096 days, issued after 2020-09-01: at most 398), no SCTs while a 36-month
        // certificate issued before 2021-04-21 needs 4; and expired at 2025-06-01.
        XCTAssertEqual(
            statuses(r),
            [
                "chain-trusted": .fail, "signature-hash": .fail, "key-size": .fail, "name-in-san": .fail,
                "server-auth-eku": .fail, "validity-period": .fail, "certificate-transparency": .fail,
                "tls-version": .needsConnection, "forward-secrecy": .needsConnection, "sct-delivery": .needsConnection,
            ])
        let offending = Dictionary(uniqueKeysWithValues: r.requirements.map { ($0.id, $0.offending) })
        XCTAssertEqual(offending["signature-hash"], [0], "only the leaf: the intermediate is SHA-256")
        XCTAssertEqual(offending["key-size"], [0], "only the leaf: the intermediate is RSA-2048")
        XCTAssertTrue(r.requirements.first { $0.id == "signature-hash" }!.detail.contains("SHA-1"))
        XCTAssertTrue(r.requirements.first { $0.id == "name-in-san" }!.detail.contains("Common Name"))
        XCTAssertEqual(ATSReport.validityDays(r.chain[0]), 1096)
        XCTAssertEqual(ATSReport.requiredSCTs(r.chain[0]), 4)
        XCTAssertFalse(r.passed)
        XCTAssertEqual(
            ATSReport.evaluate(presented: [], host: "x.test", anchors: TrustStore(), at: Self.at).passed, false)
    }
}
