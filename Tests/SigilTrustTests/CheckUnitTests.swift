import Foundation
@_spi(SigilInternal) import SigilX509
import XCTest

@testable import SigilTrust

/// The check units (CheckUnits.swift): the understood critical extensions are derived from them
/// once, and every failure kind belongs to a unit.
final class CheckUnitTests: XCTestCase {
    /// RFC 5280 §4.2's list as Sigil processes it (README "Checks"): basicConstraints, keyUsage,
    /// extKeyUsage, subjectAltName, nameConstraints and the four policy extensions of §6.1.
    func testUnderstoodCriticalExtensionsAreTheProcessedOnes() {
        let dotted = Set(CheckUnit.understoodCritical.map { OID.dotted($0) })
        XCTAssertEqual(
            dotted,
            [
                "2.5.29.19", "2.5.29.15", "2.5.29.37", "2.5.29.17", "2.5.29.30", "2.5.29.32", "2.5.29.33", "2.5.29.36",
                "2.5.29.54",
            ])
        XCTAssertEqual(CheckUnit.understoodCritical.count, dotted.count, "an extension claimed by two units")
        // The fact block's bits are the same set: every understood extension has an index slot.
        for oid in CheckUnit.understoodCritical {
            let bit = TrustExtensions.Bit.of(oid)
            XCTAssertNotNil(bit, OID.dotted(oid))
            XCTAssertNotEqual(CheckUnit.understoodCriticalBits & (bit ?? 0), 0, OID.dotted(oid))
        }
        XCTAssertEqual(CheckUnit.understoodCriticalBits.nonzeroBitCount, dotted.count)
        for (oid, _) in CheckUnit.mustBeNonCritical {
            XCTAssertNotEqual(CheckUnit.mustBeNonCriticalBits & (TrustExtensions.Bit.of(oid) ?? 0), 0, OID.dotted(oid))
        }
        XCTAssertEqual(CheckUnit.mustBeNonCriticalBits & CheckUnit.understoodCriticalBits, 0)
    }

    /// Every failure kind is produced by some unit (a new kind needs its unit).
    func testEveryFailureKindBelongsToAUnit() {
        let produced = Set(CheckUnit.all.flatMap(\.failureKinds))
        for kind in TrustFailureKind.allCases {
            XCTAssertTrue(produced.contains(kind), "\(kind.name) is produced by no check unit")
        }
    }
}
