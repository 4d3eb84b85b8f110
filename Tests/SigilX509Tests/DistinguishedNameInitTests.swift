import SigilDER
import SigilX509
import XCTest

/// `DistinguishedName(der:)`, the only public way to make a name from bytes, validates as the
/// certificate parser does (RFC 5280 §4.1.2.4), so the name iterators only ever see valid DER.
final class DistinguishedNameInitTests: XCTestCase {
    // CN=a: SEQUENCE { SET { SEQUENCE { OID 2.5.4.3, UTF8String "a" } } } (X.690 encoding by hand).
    static let cnA: [UInt8] = [0x30, 0x0C, 0x31, 0x0A, 0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x01, 0x61]

    func testValidName() throws {
        let name = try DistinguishedName(der: Self.cnA)
        XCTAssertEqual(name.rfc4514String, "CN=a")
        XCTAssertTrue(try DistinguishedName(der: [0x30, 0x00]).isEmpty)
    }

    func testInvalidNamesAreRefusedWithOffsets() {
        func kind(_ der: [UInt8]) -> (DERError.Kind, Int)? {
            do {
                _ = try DistinguishedName(der: der)
                return nil
            } catch { return (error.kind, error.offset) }
        }
        // RelativeDistinguishedName ::= SET SIZE (1..MAX): an empty SET at offset 2.
        XCTAssertEqual(kind([0x30, 0x02, 0x31, 0x00])?.0, .invalidName)
        // Trailing bytes after the Name.
        XCTAssertEqual(kind(Self.cnA + [0x00])?.0, .trailingData)
        XCTAssertEqual(kind(Self.cnA + [0x00])?.1, Self.cnA.count)
        // Truncated.
        XCTAssertEqual(kind(Array(Self.cnA.dropLast()))?.0, .truncated)
        // A UTF8String that is not UTF-8.
        var bad = Self.cnA
        bad[13] = 0xFF
        XCTAssertNotNil(kind(bad))
    }
}
