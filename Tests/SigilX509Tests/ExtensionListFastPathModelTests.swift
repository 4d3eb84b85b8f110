import Foundation
@_spi(SigilInternal) import SigilDER
import SigilTestSupport
import XCTest

@testable @_spi(SigilInternal) import SigilX509

/// The extension list's raw-octet fast path (`Certificate.indexPlainExtensions`) against the
/// readers it stands in for (`Certificate.indexExtensionsWithReaders`: RFC 5280 §4.1.2.9 and
/// §4.2 with strict DER, X.690 §10), on the extension lists of every fixture certificate,
/// lists written by hand for the forms the fast path leaves to the readers, and every
/// one-octet change, deletion and truncation of all of them: where the fast path answers, the
/// readers accept the list and build the same index; `validateExtensions` decides exactly as
/// the readers do (same error kind, same offset, same index).
final class ExtensionListFastPathModelTests: XCTestCase {
    /// The depth of a certificate's extension list (Certificate → TBSCertificate → [3] → list).
    static let listDepth = 3

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + derLength(content.count) + content }

    /// Runs `body` with the list whose content is `content` (wrapped in its SEQUENCE header)
    /// read as the parser reads it.
    static func withList<T>(_ content: [UInt8], _ body: (DERValue) throws(DERError) -> T) -> Result<T, DERError> {
        tlv(0x30, content).withUnsafeBytes { b in
            do throws(DERError) {
                var r = DERReader(input: b, from: 0, to: b.count, depth: listDepth)
                let list = try r.read(.sequence)
                try r.finish()
                return .success(try body(list))
            } catch { return .failure(error) }
        }
    }

    static func describe(_ i: Certificate.ExtensionIndex) -> String {
        "count \(i.count) slots \(i.slots.words) deltas \(i.valueDeltas.words) unindexed \(i.unindexed) "
            + "present \(i.present) critical \(i.critical) unknownCritical \(i.unknownCritical)"
    }

    static func same(
        _ a: Result<Certificate.ExtensionIndex, DERError>, _ b: Result<Certificate.ExtensionIndex, DERError>
    )
        -> Bool
    {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            return x.count == y.count && x.slots.words == y.slots.words && x.valueDeltas.words == y.valueDeltas.words
                && x.unindexed == y.unindexed && x.present == y.present && x.critical == y.critical
                && x.unknownCritical == y.unknownCritical
        case (.failure(let x), .failure(let y)): return x.kind == y.kind && x.offset == y.offset
        default: return false
        }
    }

    static func describe(_ r: Result<Certificate.ExtensionIndex, DERError>) -> String {
        switch r {
        case .success(let i): return describe(i)
        case .failure(let e): return "error \(e.kind) at \(e.offset)"
        }
    }

    /// Extension lists (their content) of every certificate fixture that has extensions.
    static func fixtureLists() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for sub in ["certs", "chains", "names", "policies", "purposes", "edges"] {
            let dir = TestSupport.fixtures.appendingPathComponent(sub)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { continue }
            for f in files.sorted() where f.hasSuffix(".der") {
                guard let c = try? Certificate(der: TestSupport.read(dir.appendingPathComponent(f).path)),
                    c.extensionCount > 0
                else { continue }
                let s = c.spans.extensions
                out.append(Array(c.der[Int(s.start)..<Int(s.end)]))
            }
        }
        return out
    }

    /// Lists (their content) the fast path takes, and lists it must leave to the readers.
    static var handMade: [[UInt8]] {
        let bc = tlv(0x06, [0x55, 0x1D, 0x13])
        let ku = tlv(0x06, [0x55, 0x1D, 0x0F])
        let unknown = tlv(0x06, [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03, 0x01, 0x01])
        let other = tlv(0x06, [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03, 0x01, 0x02])
        let value = tlv(0x04, tlv(0x30, []))
        let big = tlv(0x04, [UInt8](repeating: 0x41, count: 300))  // 0x82 length
        let bigger = tlv(0x04, [UInt8](repeating: 0x42, count: 70_000))  // 0x83 length, beyond 16 bits
        return [
            [],  // empty: refused
            tlv(0x30, bc + value),
            tlv(0x30, bc + [0x01, 0x01, 0xFF] + value),
            tlv(0x30, bc + [0x01, 0x01, 0x00] + value),  // FALSE encoded: refused
            tlv(0x30, bc + [0x01, 0x01, 0x01] + value),  // not DER TRUE: refused
            tlv(0x30, bc + [0x01, 0x02, 0x00, 0xFF] + value),
            tlv(0x30, bc + value) + tlv(0x30, bc + value),  // duplicate known
            tlv(0x30, unknown + value) + tlv(0x30, other + [0x01, 0x01, 0xFF] + value),
            tlv(0x30, unknown + value) + tlv(0x30, ku + value) + tlv(0x30, unknown + value),
            tlv(0x30, ku + big) + tlv(0x30, unknown + big),
            tlv(0x30, unknown + bigger) + tlv(0x30, bc + value),  // slot beyond 16 bits
            tlv(0x30, bc + value + [0x05, 0x00]),  // trailing data
            tlv(0x30, tlv(0x06, []) + value),  // empty OID
            tlv(0x30, tlv(0x06, [0x2B, 0x80, 0x01]) + value),  // non-minimal arc
            tlv(0x30, bc + [0x24, 0x00]),  // constructed OCTET STRING
            [0x30, 0x80] + bc + value + [0x00, 0x00],  // indefinite length
            tlv(0x30, bc + [0x1F, 0x22, 0x00] + value),  // high tag where critical is
            (0..<65).flatMap { i in tlv(0x30, tlv(0x06, [0x2A, 0x03, UInt8(i)]) + value) },  // 65
        ]
    }

    func check(_ der: [UInt8], fast: inout Int, file: StaticString = #filePath, line: UInt = #line) {
        let model = Self.withList(der) { (l) throws(DERError) in try Certificate.indexExtensionsWithReaders(l) }
        let plain = Self.withList(der) { (l) throws(DERError) in
            Certificate.indexPlainExtensions(l.input, from: l.contentStart, to: l.end)
        }
        if case .success(let index?) = plain {
            fast += 1
            if !Self.same(.success(index), model) {
                XCTFail(
                    "fast path on \(der): \(Self.describe(index)) vs \(Self.describe(model))", file: file, line: line)
            }
        }
        let got = Self.withList(der) { (l) throws(DERError) in try Certificate.validateExtensions(l) }
        if !Self.same(got, model) {
            XCTFail("\(der): \(Self.describe(got)) vs \(Self.describe(model))", file: file, line: line)
        }
    }

    func testFastPathAgreesWithTheReaders() throws {
        let fixtures = try Self.fixtureLists()
        XCTAssertGreaterThan(fixtures.count, 30)
        var fast = 0
        for list in fixtures { check(list, fast: &fast) }
        // Every fixture list is a plain one (the fast path answers for all of them).
        XCTAssertEqual(fast, fixtures.count)
        let hand = Self.handMade
        // The hand-made lists the readers refuse are refused, with the expected kinds.
        func kind(_ der: [UInt8]) -> DERError.Kind? {
            if case .failure(let e) = Self.withList(
                der,
                { (l) throws(DERError) in
                    try Certificate.indexExtensionsWithReaders(l)
                })
            {
                return e.kind
            }
            return nil
        }
        XCTAssertEqual(kind(hand[0]), .emptyExtensions)
        XCTAssertNil(kind(hand[2]))
        XCTAssertEqual(kind(hand[3]), .defaultValueEncoded)
        XCTAssertEqual(kind(hand[6]), .duplicateExtension)
        XCTAssertEqual(kind(hand[8]), .duplicateExtension)
        XCTAssertNil(kind(hand[10]))
        XCTAssertEqual(kind(hand[11]), .trailingData)
        XCTAssertEqual(kind(hand[17]), .tooLarge)
        for list in hand { check(list, fast: &fast) }
        // Every one-octet change, deletion and truncation of the smaller lists.
        var checked = 0
        for list in (fixtures + hand) where list.count < 1_200 {
            check(list, fast: &fast)
            for i in 0..<list.count {
                let b = list[i]
                let values: Set<UInt8> = [0x00, 0x01, 0x04, 0x06, 0x30, 0x80, 0x81, 0xFF, b &+ 1, b &- 1]
                for v in values where v != b {
                    var m = list
                    m[i] = v
                    check(m, fast: &fast)
                    checked += 1
                }
                check(Array(list[..<i]), fast: &fast)
                check(Array(list[..<i]) + Array(list[(i + 1)...]), fast: &fast)
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }
}
