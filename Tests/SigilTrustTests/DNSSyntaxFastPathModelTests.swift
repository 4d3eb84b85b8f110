import XCTest

@testable import SigilTrust

/// `DNSSyntax.isPlainValid` (names judged eight octets at a time from bit masks) against the
/// octet-by-octet `DNSSyntax.checkStrict` it stands in for, whose rules `NamesTests` checks
/// against RFC 1034 §3.5 / RFC 5280 §4.2.1.6 and RFC 6125 §6.4.3: the fast path accepts only
/// names the strict check accepts, and `check` answers exactly what `checkStrict` answers, on
/// a corpus, every one-octet change and truncation of it, every short string over a small
/// alphabet and random strings.
final class DNSSyntaxFastPathModelTests: XCTestCase {
    static func fast(_ s: [UInt8], wildcard: Bool) -> Bool {
        s.withUnsafeBufferPointer { DNSSyntax.isPlainValid($0, wildcard: wildcard) }
    }
    static func strict(_ s: [UInt8], wildcard: Bool) -> ServerIdentity.ParseError? {
        s.withUnsafeBufferPointer { DNSSyntax.checkStrict($0, wildcard: wildcard) }
    }

    func compare(_ s: [UInt8], _ what: @autoclosure () -> String = "") {
        for wildcard in [false, true] {
            let reference = Self.strict(s, wildcard: wildcard)
            if Self.fast(s, wildcard: wildcard) {
                XCTAssertNil(
                    reference, "fast path accepts \(Array(s)) (\(what())), strict: \(String(describing: reference))")
            }
            XCTAssertEqual(DNSSyntax.check(s[...], wildcard: wildcard), reference, "\(Array(s)) \(what())")
        }
    }

    static let label63 = String(repeating: "a", count: 63)
    static let corpus: [String] = [
        "leaf.rsa2048.sigil.test", "*.wild.rsa2048.sigil.test", "a", "a.b", "example.com", "www.example.com",
        "xn--bcher-kva.example", "EXAMPLE.COM", "a-b.c-d.e", "a1.b2.c3", "1.2.3.4", "1.2.3.a", "a.1", "123",
        "*.example.com", "*", "*.", "*.1", "*.a", "a.*.b", "f*.example.com", "-a.com", "a-.com", "a..b", ".a", "a.",
        "a.b-", "-", "a_b.com", "a b", "ex\u{e4}mple.com", label63, label63 + ".com", "a." + label63,
        String(repeating: "ab.", count: 21), String(repeating: "ab.", count: 20) + "cde",
        "abcdefgh", "abcdefg.", "abcdefgh.ijklmnop.qrstuvwx.yz012345.67890abc.defghijk.lmnopqrs.tu",
        "0123456789012345678901234567890123456789012345678901234567890.a",
        "a.0123456789012345678901234567890123456789012345678901234567890",
    ]

    /// The fast path is taken for the names it is for (otherwise this model proves nothing).
    func testFastPathTakesCommonNames() {
        for name in [
            "leaf.rsa2048.sigil.test", "www.example.com", "a", "xn--bcher-kva.example", "a1.b2.c3", Self.label63,
        ] {
            XCTAssertTrue(Self.fast(Array(name.utf8), wildcard: false), name)
        }
        XCTAssertTrue(Self.fast(Array("*.wild.rsa2048.sigil.test".utf8), wildcard: true))
        XCTAssertFalse(Self.fast(Array("*.wild.rsa2048.sigil.test".utf8), wildcard: false))
        // Left to the strict check: longer than 63 octets (valid), or anything it refuses.
        XCTAssertFalse(Self.fast(Array((Self.label63 + ".com").utf8), wildcard: false))
        XCTAssertNil(Self.strict(Array((Self.label63 + ".com").utf8), wildcard: false))
        for name in ["1.2.3.4", "a..b", "-a.com", "a-.com", "a.", ".a", "*", "a_b"] {
            XCTAssertFalse(Self.fast(Array(name.utf8), wildcard: true), name)
            XCTAssertNotNil(Self.strict(Array(name.utf8), wildcard: true), name)
        }
    }

    func testCorpusAndEveryOneOctetChange() {
        let replacements: [UInt8] = [
            0x00, 0x20, 0x2A, 0x2D, 0x2E, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x5F, 0x60, 0x61, 0x7A, 0x7B,
            0x7F, 0x80, 0xC3, 0xFF,
        ]
        for name in Self.corpus {
            let s = Array(name.utf8)
            compare(s, name)
            for i in 0..<s.count {
                for r in replacements where r != s[i] {
                    var t = s
                    t[i] = r
                    compare(t, "\(name) [\(i)] = \(r)")
                }
                var removed = s
                removed.remove(at: i)
                compare(removed, "\(name) without [\(i)]")
                compare(Array(s[..<i]), "\(name) cut at \(i)")
                for r in [UInt8(0x2E), 0x2D, 0x61, 0x31] {
                    var inserted = s
                    inserted.insert(r, at: i)
                    compare(inserted, "\(name) with \(r) at \(i)")
                }
            }
        }
    }

    /// Every string of up to five octets over the octets the rules tell apart.
    func testEveryShortString() {
        let alphabet: [UInt8] = Array("a9-.*_".utf8) + [0xC3]
        var strings: [[UInt8]] = [[]]
        for _ in 0..<5 {
            strings = strings.flatMap { s in alphabet.map { s + [$0] } }
            for s in strings { compare(s) }
        }
    }

    /// Random strings of 0–80 octets, mostly letters, digits, hyphens and dots, so that
    /// labels and word boundaries fall everywhere.
    func testRandomStrings() {
        var rng = SplitMix64(seed: 0xD25_5A11)
        let common = Array("abcxyzABZ0189-.".utf8)
        let rare: [UInt8] = [0x2A, 0x5F, 0x20, 0x00, 0x80, 0xFF, 0x7F, 0x40, 0x5B, 0x60, 0x7B, 0x2F, 0x3A]
        for _ in 0..<200_000 {
            let count = Int(rng.next() % 81)
            var s = [UInt8]()
            s.reserveCapacity(count)
            for _ in 0..<count {
                let x = rng.next()
                s.append(
                    x % 64 == 0
                        ? rare[Int((x >> 8) % UInt64(rare.count))] : common[Int((x >> 8) % UInt64(common.count))])
            }
            if rng.next() % 4 == 0 && s.count >= 2 {
                s[0] = UInt8(ascii: "*")
                s[1] = UInt8(ascii: ".")
            }
            compare(s)
        }
    }
}
