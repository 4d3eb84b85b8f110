import Foundation
@_spi(SigilInternal) import SigilDER
import SigilTestSupport
import XCTest

@testable @_spi(SigilInternal) import SigilX509

/// The raw-octet decoders of basicConstraints and keyUsage (`Certificate.plainBasicConstraints`,
/// `Certificate.plainKeyUsage`) against the strict readers they stand in for (RFC 5280
/// §4.2.1.9, §4.2.1.3; X.690 §11.1, §11.2): on the extnValue of every fixture certificate,
/// values written by hand, and every one-octet change, deletion and truncation of them, a
/// value the fast path decodes is one the readers decode to the same result. (Where it
/// answers nil the accessors run the readers, so the accessors decide as the readers do.)
final class PlainExtensionModelTests: XCTestCase {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + derLength(content.count) + content }

    /// The readers on the extnValue TLV `value` (what the accessors run when the fast path declines).
    static func readers<T>(_ value: [UInt8], _ decode: (inout DERReader) throws(DERError) -> T) -> Result<T, DERError> {
        do throws(DERError) {
            return .success(
                try Certificate.decodeExtensionValue(value, (0, value.count)) { (_, r) throws(DERError) in
                    try decode(&r)
                })
        } catch { return .failure(error) }
    }

    /// The extnValue TLVs of `slot` in every fixture certificate.
    static func fixtureValues(_ slot: Int) throws -> [[UInt8]] {
        var out: Set<[UInt8]> = []
        for sub in ["certs", "chains", "names", "policies", "purposes", "edges", "pool", "revocation"] {
            let dir = TestSupport.fixtures.appendingPathComponent(sub)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { continue }
            for f in files where f.hasSuffix(".der") {
                guard let c = try? Certificate(der: TestSupport.read(dir.appendingPathComponent(f).path)),
                    let loc = c.knownValueLocation(slot), let v = try? Certificate.valueSpan(c.der, loc)
                else { continue }
                out.insert(tlv(0x04, Array(v.bytes)))
            }
        }
        return out.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func mutations(_ v: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [v]
        for i in 0..<v.count {
            let b = v[i]
            let values: Set<UInt8> = [
                0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x30, 0x7F, 0x80, 0x81, 0xFF, b ^ 0x01, b &+ 1, b &- 1,
            ]
            for x in values where x != b {
                var m = v
                m[i] = x
                out.append(m)
            }
            out.append(Array(v[..<i]))
            out.append(Array(v[..<i]) + Array(v[(i + 1)...]))
        }
        return out
    }

    /// Every mutation of every value: where `plain` answers, the readers give the same value.
    /// Returns how many answered and how many were tried.
    static func compare<T: Equatable>(
        _ values: [[UInt8]], readers decode: (inout DERReader) throws(DERError) -> T,
        plain: ([UInt8], Certificate.ValueLocation) -> T?, file: StaticString = #filePath, line: UInt = #line
    ) -> (fast: Int, cases: Int) {
        var fast = 0
        var cases = 0
        for v in values {
            for m in mutations(v) {
                cases += 1
                let model = readers(m, decode)
                guard let p = plain(m, (0, m.count)) else { continue }
                fast += 1
                XCTAssertEqual(try? model.get(), p, "\(m)", file: file, line: line)
            }
        }
        return (fast, cases)
    }

    func testBasicConstraintsFastPathAgreesWithTheReaders() throws {
        let fixtures = try Self.fixtureValues(KnownExtension.basicConstraints)
        XCTAssertGreaterThanOrEqual(fixtures.count, 3)
        let hand: [[UInt8]] = [
            [0x30, 0x00], [0x30, 0x03, 0x01, 0x01, 0xFF], [0x30, 0x06, 0x01, 0x01, 0xFF, 0x02, 0x01, 0x00],
            [0x30, 0x06, 0x01, 0x01, 0xFF, 0x02, 0x01, 0x7F], [0x30, 0x03, 0x02, 0x01, 0x05],
            [0x30, 0x07, 0x01, 0x01, 0xFF, 0x02, 0x02, 0x00, 0xFF],  // 255: readers only
            [0x30, 0x06, 0x01, 0x01, 0xFF, 0x02, 0x01, 0x80],  // negative: refused
            [0x30, 0x03, 0x01, 0x01, 0x00],  // FALSE encoded: refused
        ].map { Self.tlv(0x04, $0) }
        let (fast, cases) = Self.compare(
            fixtures + hand, readers: Certificate.basicConstraintsWithReaders, plain: Certificate.plainBasicConstraints)
        XCTAssertEqual(
            Certificate.plainBasicConstraints(hand[2], (0, hand[2].count)), BasicConstraints(isCA: true, pathLength: 0))
        XCTAssertNil(Certificate.plainBasicConstraints(hand[5], (0, hand[5].count)))
        XCTAssertEqual(try? Self.readers(hand[5], Certificate.basicConstraintsWithReaders).get().pathLength, 255)
        XCTAssertGreaterThan(fast, 20)
        XCTAssertGreaterThan(cases, 1_000)
    }

    func testKeyUsageFastPathAgreesWithTheReaders() throws {
        let fixtures = try Self.fixtureValues(KnownExtension.keyUsage)
        XCTAssertGreaterThan(fixtures.count, 3)
        let hand: [[UInt8]] = [
            [0x03, 0x02, 0x07, 0x80], [0x03, 0x02, 0x01, 0x86], [0x03, 0x03, 0x07, 0x80, 0x80],
            [0x03, 0x03, 0x00, 0xA0, 0x00],  // trailing zero octet: tolerated
            [0x03, 0x03, 0x00, 0x00, 0x80],  // decipherOnly alone
            [0x03, 0x03, 0x06, 0x00, 0x40],  // bit 9: refused
            [0x03, 0x02, 0x00, 0x00],  // no bit: refused
            [0x03, 0x02, 0x01, 0x81],  // unused bit set: refused
            [0x03, 0x04, 0x00, 0x80, 0x00, 0x00],  // three octets: readers only
        ].map { Self.tlv(0x04, $0) }
        let (fast, cases) = Self.compare(
            fixtures + hand, readers: Certificate.keyUsageWithReaders, plain: Certificate.plainKeyUsage)
        // digitalSignature (bit 0) and keyCertSign (5), cRLSign (6): 0x86 with 1 unused bit.
        XCTAssertEqual(Certificate.plainKeyUsage(hand[1], (0, hand[1].count))?.rawValue, 0b110_0001)
        XCTAssertEqual(Certificate.plainKeyUsage(hand[4], (0, hand[4].count))?.rawValue, 1 << 8)
        XCTAssertNil(Certificate.plainKeyUsage(hand[5], (0, hand[5].count)))
        XCTAssertGreaterThan(fast, 20)
        XCTAssertGreaterThan(cases, 1_000)
    }
}
