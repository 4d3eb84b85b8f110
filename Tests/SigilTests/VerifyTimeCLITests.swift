import Foundation
import SigilTestSupport
import XCTest

/// `--at` that is not a finite Unix time is a usage error (exit 2), for `verify` and `ats`.
/// Before: `sigil verify --at nan` printed "trusted" for the expired chain of
/// `Fixtures/chains/expired-leaf` (refused by `openssl verify -x509_strict` at 2030: expired
/// 2022-01-01), and `--at inf` trapped converting the time for the report.
final class VerifyTimeCLITests: XCTestCase {
    func testNonFiniteAtIsAUsageError() throws {
        let d = TestSupport.fixtures.appendingPathComponent("chains/expired-leaf").path
        let base = [
            "verify", "--anchors-only", "--anchor", d + "/anchors.pem", "--intermediate", d + "/intermediates.pem",
        ]
        try runSigil(base + ["--at", "1893456000", d + "/leaf.pem"], exit: 1)  // openssl: expired
        for at in ["nan", "inf", "-inf", "1e300"] {
            let r = try runSigil(base + ["--at", at, d + "/leaf.pem"], exit: 2)
            XCTAssertFalse(r.out.contains("trusted ("), "--at \(at): \(r.out)")
            try runSigil(["ats", d + "/leaf.pem", "--anchor", d + "/anchors.pem", "--at", at], exit: 2)
        }
    }
}
