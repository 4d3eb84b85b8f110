import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Chrome's CT policy for certificates issued before 15 April 2022 (Fixtures/ct/chrome-legacy,
/// made by Fixtures/ct/gen_chrome_legacy.py, whose verdicts come from the policy text quoted
/// there, GoogleChrome/CertificateTransparency ct_policy.md 747480f): one embedded SCT from a
/// Google log and one from a non-Google log, N distinct logs by lifetime in months (2, 3, 4, 5),
/// and by TLS/OCSP a Google and a non-Google log; from 15 April 2022 on (notBefore) the 2022
/// rules. Each case is checked at a time within its validity (a historical `--at`). Before the
/// older rules were implemented, Sigil judged these certificates by the 2022 rules and called the
/// ones without a Google log compliant (`emb-two-non-google-90d`, `tls-two-non-google`,
/// `emb-two-non-google-issued-2022-04-14`): a chain to a system anchor was then trusted. And a
/// certificate dated before CT enforcement (30 April 2018) was exempt whatever its lifetime, so
/// a CA could backdate a twelve-year certificate with no SCT past the policy
/// (`backdated-2018-12y-no-scts`, trusted before; browsers refuse such a lifetime outright).
final class CTChromeLegacyTests: XCTestCase {
    func testCertificatesIssuedBefore2022GetTheOlderPolicysVerdicts() throws {
        // Only a certificate dated before 30 April 2018 with a lifetime the BRs allowed then is
        // exempt; a backdated one valid for twelve years is judged by the policy.
        try CTChromeLogStateTests.assertChromeVerdicts(
            folder: "ct/chrome-legacy", count: 19, exempt: ["pre-2018-39mo-no-scts"])
    }

    /// Apple's policy covers certificates issued from 15 October 2018 on: the same exemption
    /// rule (a lifetime the BRs allowed at notBefore: 39 months in January 2018).
    func testBackdatedCertificateIsNotExemptUnderAppleEither() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/chrome-legacy")
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let list = try CTLogList(json: bytes("log_list.json"))
        let time = try XCTUnwrap(CTLogList.parseRFC3339("2026-06-01T00:00:00Z"))
        let backdated = try Certificate(der: bytes("backdated-2018-12y-no-scts.der"))
        let v = CTPolicy.evaluate(backdated, checks: [], logList: list, profile: .apple, at: time)
        XCTAssertTrue(v.applies)
        XCTAssertFalse(v.compliant, v.reason)
        XCTAssertFalse(CTPolicy.lifetimeWithinBaselineLimit(backdated))
        let old = try Certificate(der: bytes("pre-2018-39mo-no-scts.der"))
        XCTAssertTrue(CTPolicy.lifetimeWithinBaselineLimit(old))
        let w = CTPolicy.evaluate(old, checks: [], logList: list, profile: .apple, at: time)
        XCTAssertFalse(w.applies)
        XCTAssertTrue(w.compliant)
    }

    /// The lifetime table in calendar months, notBefore through notAfter inclusive.
    func testLifetimeInMonths() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/chrome-legacy")
        func cert(_ n: String) throws -> Certificate {
            try Certificate(der: [UInt8](Data(contentsOf: dir.appendingPathComponent(n + ".der"))))
        }
        XCTAssertEqual(CTPolicy.chromeLegacyRequiredSCTs(try cert("emb-google-plus-other-200d")), 2)
        XCTAssertEqual(CTPolicy.chromeLegacyRequiredSCTs(try cert("emb-two-15mo-less-a-day")), 2)
        XCTAssertEqual(CTPolicy.chromeLegacyRequiredSCTs(try cert("emb-two-15mo")), 3)
        XCTAssertEqual(CTPolicy.chromeLegacyRequiredSCTs(try cert("emb-three-28mo")), 4)
        XCTAssertEqual(CTPolicy.chromeLegacyRequiredSCTs(try cert("emb-four-40mo")), 5)
    }
}
