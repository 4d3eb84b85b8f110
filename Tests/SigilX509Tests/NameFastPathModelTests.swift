import Foundation
@_spi(SigilInternal) import SigilDER
import SigilTestSupport
import XCTest

@testable @_spi(SigilInternal) import SigilX509

/// `DistinguishedName.validate`'s raw-octet fast path (`DERValue.isValidStringRDNSequence()`)
/// against the readers' validation it stands in for (`DistinguishedName.validateWithReaders`:
/// RFC 5280 §4.1.2.4 with strict DER, X.690 §10), on the names of every fixture certificate,
/// names written by hand for the forms the fast path leaves to the readers, and every
/// one-octet change and truncation of all of them: the fast path accepts only names the
/// readers accept, and `DistinguishedName(der:)` decides exactly as the readers do (same
/// error kind, same offset).
final class NameFastPathModelTests: XCTestCase {
    /// The readers alone: the name SEQUENCE read, its content validated, nothing after it.
    static func readers(_ der: [UInt8], depth: Int = 0) -> (DERError.Kind, Int)? {
        der.withUnsafeBytes { b in
            do throws(DERError) {
                var r = DERReader(input: b, from: 0, to: b.count, depth: depth)
                let name = try r.read(.sequence)
                try DistinguishedName.validateWithReaders(name)
                try r.finish()
                return nil
            } catch { return (error.kind, error.offset) }
        }
    }

    /// `DistinguishedName.validate` (fast path first) at `depth`, nothing after the name.
    static func validate(_ der: [UInt8], depth: Int = 0) -> (DERError.Kind, Int)? {
        der.withUnsafeBytes { b in
            do throws(DERError) {
                var r = DERReader(input: b, from: 0, to: b.count, depth: depth)
                _ = try DistinguishedName.validate(&r)
                try r.finish()
                return nil
            } catch { return (error.kind, error.offset) }
        }
    }

    static func fastAccepts(_ der: [UInt8], depth: Int = 0) -> Bool {
        der.withUnsafeBytes { b in
            var r = DERReader(input: b, from: 0, to: b.count, depth: depth)
            // (Only the name's own octets are the fast path's: nothing may follow it here.)
            guard let name = try? r.read(.sequence), r.isAtEnd else { return false }
            return name.isValidStringRDNSequence()
        }
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + derLength(content.count) + content }
    static func atv(_ oid: [UInt8], _ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, tlv(0x06, oid) + tlv(tag, value))
    }

    /// Names the fast path takes and names it must leave to the readers.
    static var handMade: [[UInt8]] {
        let cn: [UInt8] = [0x55, 0x04, 0x03]
        let c: [UInt8] = [0x55, 0x04, 0x06]
        let unknown: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x03]  // jurisdictionC
        let long = [UInt8](repeating: 0x61, count: 200)  // 0x81 length
        let longer = [UInt8](repeating: 0x62, count: 300)  // 0x82 length
        return [
            tlv(0x30, []),
            tlv(0x30, tlv(0x31, atv(cn, 0x0C, Array("a".utf8)))),
            // Multi-valued RDN, several RDNs, every string type.
            tlv(
                0x30,
                tlv(0x31, atv(c, 0x13, Array("US".utf8)) + atv(cn, 0x0C, Array("é".utf8)))
                    + tlv(0x31, atv(cn, 0x16, Array("x@y".utf8))) + tlv(0x31, atv(cn, 0x1A, Array("vis".utf8)))
                    + tlv(0x31, atv(cn, 0x12, Array("12 3".utf8))) + tlv(0x31, atv(cn, 0x14, [0xE9, 0x41]))
                    + tlv(0x31, atv(cn, 0x1E, [0x00, 0x41])) + tlv(0x31, atv(cn, 0x1C, [0, 0, 0, 0x41]))),
            tlv(0x30, tlv(0x31, atv(cn, 0x0C, long))),
            tlv(0x30, tlv(0x31, atv(cn, 0x0C, longer))),
            tlv(0x30, tlv(0x31, atv(unknown, 0x13, Array("DE".utf8)))),
            // Values of other types (left to the readers): INTEGER, SEQUENCE, [PRIVATE 16].
            tlv(0x30, tlv(0x31, atv([0x2A, 0x03], 0x02, [0x01]))),
            tlv(0x30, tlv(0x31, atv([0x2A, 0x03], 0x30, tlv(0x05, [])))),
            tlv(0x30, tlv(0x31, atv(cn, 0x02, [0x01]))),
            tlv(0x30, tlv(0x31, atv(cn, 0xD0, [0x01]))),
        ]
    }

    /// Every certificate fixture's issuer and subject.
    static func fixtureNames() throws -> [[UInt8]] {
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        var out: [[UInt8]] = []
        for f in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where f.hasSuffix(".der") {
            guard let c = try? Certificate(der: TestSupport.read(dir.appendingPathComponent(f).path)) else { continue }
            out.append(Array(c.issuer.encoded.bytes))
            out.append(Array(c.subject.encoded.bytes))
        }
        return out
    }

    func check(_ der: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let model = Self.readers(der)
        if Self.fastAccepts(der) {
            XCTAssertNil(model.map { "\($0)" }, "fast path accepted \(der)", file: file, line: line)
        }
        let got = Self.validate(der)
        XCTAssertEqual(got?.0, model?.0, "\(der)", file: file, line: line)
        XCTAssertEqual(got?.1, model?.1, "\(der)", file: file, line: line)
    }

    func testFastPathAgreesWithTheReaders() throws {
        let fixtures = try Self.fixtureNames()
        for name in fixtures { XCTAssertNil(Self.readers(name).map { "\($0)" }) }
        // The hand-made names with values of other types for CN are invalid (string syntax).
        XCTAssertEqual(Self.readers(Self.handMade[8])?.0, .invalidName)
        XCTAssertEqual(Self.readers(Self.handMade[9])?.0, .invalidName)
        XCTAssertNil(Self.readers(Self.handMade[6]).map { "\($0)" })
        let names = fixtures + Self.handMade
        XCTAssertGreaterThan(names.count, 40)
        var fast = 0
        var checked = 0
        for name in names {
            if Self.fastAccepts(name) { fast += 1 }
            check(name)
            for i in 0..<name.count {
                let b = name[i]
                let values: Set<UInt8> = [
                    0x00, 0x01, 0x02, 0x06, 0x0C, 0x13, 0x16, 0x1E, 0x30, 0x31, 0x7F, 0x80, 0x81, 0x82, 0x83, 0xFF,
                    b ^ 0x01, b ^ 0x20, b ^ 0x80, b &+ 1, b &- 1,
                ]
                for v in values where v != b {
                    var m = name
                    m[i] = v
                    check(m)
                    checked += 1
                }
                check(Array(name[..<i]))
                check(Array(name[..<i]) + Array(name[(i + 1)...]))
            }
        }
        // Most real names take the fast path.
        XCTAssertGreaterThan(fast, names.count / 2)
        XCTAssertGreaterThan(checked, 10_000)
    }

    /// The values of a name lie three levels below it: `DERReader.maximumDepth` decides at the
    /// same depth on both paths.
    func testNestingLimitAgrees() {
        let name = Self.tlv(0x30, Self.tlv(0x31, Self.atv([0x55, 0x04, 0x03], 0x0C, Array("a".utf8))))
        for depth in 26...DERReader.maximumDepth {
            let model = Self.readers(name, depth: depth)
            XCTAssertEqual(Self.validate(name, depth: depth)?.0, model?.0, "depth \(depth)")
            if Self.fastAccepts(name, depth: depth) { XCTAssertNil(model.map { "\($0)" }, "depth \(depth)") }
        }
        XCTAssertNil(Self.readers(name, depth: DERReader.maximumDepth - 3).map { "\($0)" })
        XCTAssertEqual(Self.readers(name, depth: DERReader.maximumDepth - 2)?.0, .nestingTooDeep)
    }
}
