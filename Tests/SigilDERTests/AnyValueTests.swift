import SigilDER
import XCTest

/// `DERValue.validateAsAny` / `DERReader.readAnyValue`: the strict check of a value whose type is
/// ANY, on hand-encoded inputs whose verdict follows from X.690. Offsets are absolute.
final class AnyValueTests: XCTestCase {
    func verdict(_ bytes: [UInt8]) -> DERError? {
        bytes.withUnsafeBytes { buf -> DERError? in
            var r = DERReader(buf)
            do throws(DERError) {
                _ = try r.readAnyValue()
                try r.finish()
                return nil
            } catch { return error }
        }
    }

    func testValidValuesOfEveryShape() {
        let valid: [[UInt8]] = [
            [0x0C, 0x02, 0x68, 0x69],  // UTF8String (character set not ANY's business)
            [0x13, 0x01, 0x40],  // PrintableString '@': likewise
            [0x05, 0x00],  // NULL
            [0x06, 0x03, 0x55, 0x04, 0x03],  // OID 2.5.4.3
            [0x01, 0x01, 0xFF],  // BOOLEAN TRUE
            [0x02, 0x02, 0x00, 0x80],  // INTEGER 128 (the 00 is needed)
            [0x0A, 0x01, 0x01],  // ENUMERATED
            [0x03, 0x02, 0x07, 0x80],  // BIT STRING, 7 unused bits, padding 0
            [0x04, 0x00],  // empty OCTET STRING
            [0x30, 0x00],  // empty SEQUENCE
            [0x31, 0x05, 0x30, 0x03, 0x02, 0x01, 0x00],  // SET { SEQUENCE { INTEGER 0 } }
            [0xA0, 0x03, 0x02, 0x01, 0x01],  // [0] constructed { INTEGER }
            [0x80, 0x03, 0xFF, 0xFF, 0xFF],  // [0] primitive: opaque octets
            [0xF0, 0x02, 0x05, 0x00],  // [PRIVATE 16] constructed { NULL }
            [0xD0, 0x02, 0x53, 0x69],  // [PRIVATE 16] primitive: opaque octets
            [0x60, 0x00],  // [APPLICATION 0] constructed, empty
        ]
        for v in valid { XCTAssertNil(verdict(v), "\(v)") }
    }

    func testConstructedContentsAreCompleteEncodings() {
        // X.690 §8.1.2.5: "Sigil" as the contents of [PRIVATE 16] constructed: 'S' (0x53,
        // [APPLICATION 19] primitive) with length 0x69 = 105 where 3 octets follow.
        XCTAssertEqual(verdict([0xF0, 0x05, 0x53, 0x69, 0x67, 0x69, 0x6C]), DERError(.truncated, at: 2))
        // A SEQUENCE whose contents end inside a TLV header.
        XCTAssertEqual(verdict([0x30, 0x01, 0x02]), DERError(.truncated, at: 3))
        // §8.1.5 / §10.1: end-of-contents octets are no value in DER.
        XCTAssertEqual(verdict([0x30, 0x02, 0x00, 0x00]), DERError(.unexpectedTag, at: 2))
        // §10.1: an indefinite length inside.
        XCTAssertEqual(verdict([0x30, 0x04, 0x30, 0x80, 0x00, 0x00]), DERError(.indefiniteLength, at: 3))
        // §10.1: a non-minimal length inside.
        XCTAssertEqual(verdict([0x30, 0x04, 0x04, 0x81, 0x01, 0x00]), DERError(.nonMinimalLength, at: 3))
        // High tag number form inside (X.509 never needs it).
        XCTAssertEqual(verdict([0xA1, 0x03, 0x1F, 0x20, 0x00]), DERError(.highTagNumber, at: 2))
        // Recursively: a bad INTEGER three levels down (§8.3.2).
        XCTAssertEqual(
            verdict([0x30, 0x08, 0xA0, 0x06, 0x30, 0x04, 0x02, 0x02, 0xFF, 0x80]), DERError(.nonMinimalInteger, at: 8))
    }

    func testUniversalTypesHaveTheirForm() {
        // §8.9.1 / §8.11.1: SEQUENCE and SET are constructed.
        XCTAssertEqual(verdict([0x10, 0x00]), DERError(.unexpectedTag, at: 0))
        XCTAssertEqual(verdict([0x11, 0x00]), DERError(.unexpectedTag, at: 0))
        // §10.2: no constructed strings in DER; §8.2.1, §8.3.1, §8.8.1, §8.19.1: primitive.
        for tag: UInt8 in [0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x2C, 0x33, 0x37, 0x38] {
            XCTAssertEqual(verdict([tag, 0x00]), DERError(.unexpectedTag, at: 0), "tag \(tag)")
        }
    }

    func testPrimitiveContentsX690PinsDown() {
        XCTAssertEqual(verdict([0x01, 0x01, 0x01]), DERError(.invalidBoolean, at: 2))  // §11.1
        XCTAssertEqual(verdict([0x02, 0x00]), DERError(.emptyInteger, at: 2))  // §8.3.1
        XCTAssertEqual(verdict([0x0A, 0x02, 0x00, 0x01]), DERError(.nonMinimalInteger, at: 2))  // §8.4
        XCTAssertEqual(verdict([0x05, 0x01, 0x00]), DERError(.invalidNull, at: 2))  // §8.8.2
        XCTAssertEqual(verdict([0x06, 0x02, 0x80, 0x01]), DERError(.invalidObjectIdentifier, at: 2))  // §8.19.2
        XCTAssertEqual(verdict([0x03, 0x02, 0x01, 0x01]), DERError(.invalidBitString, at: 3))  // §11.2.1
    }

    func testNestingIsBoundedByTheReaderDepth() {
        func nested(_ n: Int) -> [UInt8] {
            var v: [UInt8] = [0x05, 0x00]
            for _ in 0..<n { v = [0x30, UInt8(v.count)] + v }
            return v
        }
        // The value itself is read at depth 0; each SEQUENCE entered adds one level.
        XCTAssertNil(verdict(nested(DERReader.maximumDepth)))
        XCTAssertEqual(verdict(nested(DERReader.maximumDepth + 1))?.kind, .nestingTooDeep)
    }
}
