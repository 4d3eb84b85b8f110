import Foundation
@_spi(SigilInternal) import SigilX509
import XCTest

/// `DistinguishedName.chainingKey` (the trust store's subject index) must give equal keys to
/// names that match under RFC 5280 §7.1 as Sigil implements it (RFC 4518 caseIgnoreMatch
/// subset: any directory string type, insignificant spaces, ASCII case), or an anchor would
/// not be found for an issuer name encoded differently from its subject.
final class ChainingKeyTests: XCTestCase {
    /// Name DER (X.690 by hand, short lengths): one RDN per (attribute type last arc, tag, value).
    static func name(_ attributes: [(UInt8, UInt8, [UInt8])]) -> [UInt8] {
        func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, UInt8(content.count)] + content }
        return tlv(
            0x30,
            attributes.flatMap { type, tag, value in
                tlv(0x31, tlv(0x30, tlv(0x06, [0x55, 0x04, type]) + tlv(tag, value)))
            })
    }

    static func utf16BE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    func testMatchingEncodingsShareAKey() throws {
        // (tag, value bytes) pairs for O (2.5.4.10) that match "Example CA" / "Bücher" per RFC 4518.
        let printable: UInt8 = 0x13
        let utf8: UInt8 = 0x0C
        let bmp: UInt8 = 0x1E
        let teletex: UInt8 = 0x14
        let universal: UInt8 = 0x1C
        let groups: [[(UInt8, [UInt8])]] = [
            [
                (printable, Array("Example CA".utf8)), (utf8, Array("  example   ca ".utf8)),
                (bmp, Self.utf16BE("EXAMPLE CA")),
                (
                    universal,
                    "Example CA".unicodeScalars.flatMap { s in
                        [0, UInt8(s.value >> 16 & 0xFF), UInt8(s.value >> 8 & 0xFF), UInt8(s.value & 0xFF)]
                    }
                ),
            ],
            // U+00FC: UTF-8 C3 BC, BMP 00 FC, Latin-1 (Teletex as Sigil reads it) FC.
            [
                (utf8, [0x42, 0xC3, 0xBC, 0x63, 0x68, 0x65, 0x72]), (bmp, Self.utf16BE("Bücher")),
                (teletex, [0x62, 0xFC, 0x63, 0x68, 0x65, 0x72]),
            ],
        ]
        for group in groups {
            let names = try group.map { tag, value in
                try DistinguishedName(der: Self.name([(0x06, printable, Array("US".utf8)), (0x0A, tag, value)]))
            }
            for a in names {
                for b in names {
                    XCTAssertTrue(a.matchesForChaining(b), "\(a.rfc4514String) vs \(b.rfc4514String)")
                    XCTAssertTrue(a.matchesForChainingRaw(b), "\(a.rfc4514String) vs \(b.rfc4514String)")
                    XCTAssertEqual(a.chainingKey, b.chainingKey, "\(a.rfc4514String) vs \(b.rfc4514String)")
                }
            }
        }
        // Different values, different types: no match (keys differ except by hash collision).
        let a = try DistinguishedName(der: Self.name([(0x03, utf8, Array("Example CA".utf8))]))
        let b = try DistinguishedName(der: Self.name([(0x03, utf8, Array("Example CB".utf8))]))
        let c = try DistinguishedName(der: Self.name([(0x0A, utf8, Array("Example CA".utf8))]))
        XCTAssertFalse(a.matchesForChaining(b))
        XCTAssertFalse(a.matchesForChainingRaw(b))
        XCTAssertFalse(a.matchesForChainingRaw(c))
        // Inner space runs collapse but do not vanish; leading/trailing spaces go.
        let spaced = try DistinguishedName(der: Self.name([(0x03, utf8, Array(" Example   CA  ".utf8))]))
        let joined = try DistinguishedName(der: Self.name([(0x03, utf8, Array("ExampleCA".utf8))]))
        XCTAssertTrue(spaced.matchesForChainingRaw(a))
        XCTAssertFalse(spaced.matchesForChainingRaw(joined))
        XCTAssertFalse(spaced.matchesForChaining(joined))
        XCTAssertNotEqual(a.chainingKey, b.chainingKey)
        XCTAssertNotEqual(a.chainingKey, c.chainingKey)
    }

    /// The raw comparison agrees with the iterator-based one on every pair of names of the
    /// system bundle (subjects and issuers).
    func testRawMatchAgreesOnTheSystemBundle() throws {
        guard
            let bytes = try? Array(String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8).utf8),
            let blocks = try? PEM.decodeBlocks(bytes)
        else { throw XCTSkip("no system bundle") }
        let certs = blocks.certificates.compactMap { try? Certificate(der: $0) }
        XCTAssertGreaterThan(certs.count, 10)
        let names = certs.flatMap { [$0.subject, $0.issuer] }
        var matches = 0
        for a in names {
            for b in names {
                let expected = a.matchesForChaining(b)
                XCTAssertEqual(a.matchesForChainingRaw(b), expected)
                if expected {
                    matches += 1
                    XCTAssertEqual(a.chainingKey, b.chainingKey)
                }
            }
        }
        XCTAssertGreaterThan(matches, names.count)  // self-signed roots match their own issuer
    }
}
