@_spi(SigilInternal) import SigilDER
import XCTest

/// Each rule of the strict DER reader, on hand-encoded inputs whose expected outcome follows
/// from X.690 (and RFC 5280 for times). Offsets are absolute positions in the input.
final class DERReaderTests: XCTestCase {
    func expectError(
        _ bytes: [UInt8], _ kind: DERError.Kind, at offset: Int,
        file: StaticString = #filePath, line: UInt = #line,
        _ body: (inout DERReader) throws(DERError) -> Void
    ) {
        bytes.withUnsafeBytes { buf in
            var r = DERReader(buf)
            do throws(DERError) {
                try body(&r)
                XCTFail("expected \(kind) at \(offset), got success", file: file, line: line)
            } catch {
                XCTAssertEqual(error.kind, kind, "kind", file: file, line: line)
                XCTAssertEqual(error.offset, offset, "offset", file: file, line: line)
            }
        }
    }

    func withReader<T>(_ bytes: [UInt8], _ body: (inout DERReader) throws(DERError) -> T) throws -> T {
        try bytes.withUnsafeBytes { buf in
            var r = DERReader(buf)
            let result = Result { () throws(DERError) -> T in try body(&r) }
            return try result.get()
        }
    }

    // MARK: lengths (X.690 §10.1, §8.1.3)

    func testShortAndLongLengths() throws {
        let v = try withReader([0x04, 0x02, 0xAA, 0xBB]) { (r) throws(DERError) in try r.read(.octetString) }
        XCTAssertEqual(v.contentStart, 2)
        XCTAssertEqual(v.end, 4)
        var long: [UInt8] = [0x04, 0x81, 0x80]
        long += [UInt8](repeating: 7, count: 128)
        let w = try withReader(long) { (r) throws(DERError) in try r.read(.octetString) }
        XCTAssertEqual(w.contentCount, 128)
        XCTAssertEqual(w.contentStart, 3)
    }

    func testIndefiniteLengthRejected() {
        expectError([0x30, 0x80, 0x00, 0x00], .indefiniteLength, at: 1) { (r) throws(DERError) in _ = try r.readAny() }
    }

    func testNonMinimalLengthRejected() {
        // 0x81 0x05: a length below 128 must use the short form.
        expectError([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], .nonMinimalLength, at: 1) { (r) throws(DERError) in
            _ = try r.readAny()
        }
        // Leading zero length octet.
        var bytes: [UInt8] = [0x04, 0x82, 0x00, 0x80]
        bytes += [UInt8](repeating: 0, count: 128)
        expectError(bytes, .nonMinimalLength, at: 1) { (r) throws(DERError) in _ = try r.readAny() }
    }

    func testFiveLengthOctetsRejected() {
        expectError([0x04, 0x85, 0x01, 0, 0, 0, 0], .lengthTooLong, at: 1) { (r) throws(DERError) in _ = try r.readAny()
        }
    }

    func testLengthBeyondInput() {
        expectError([0x30, 0x05, 0x02, 0x01, 0x00], .truncated, at: 0) { (r) throws(DERError) in _ = try r.readAny() }
        expectError([0x30], .truncated, at: 1) { (r) throws(DERError) in _ = try r.readAny() }
        expectError([0x04, 0x82, 0x01], .truncated, at: 2) { (r) throws(DERError) in _ = try r.readAny() }
        expectError([], .truncated, at: 0) { (r) throws(DERError) in _ = try r.readAny() }
    }

    func testHighTagNumberRejected() {
        expectError([0x1F, 0x21, 0x00], .highTagNumber, at: 0) { (r) throws(DERError) in _ = try r.readAny() }
        expectError([0x9F, 0x40, 0x00], .highTagNumber, at: 0) { (r) throws(DERError) in _ = try r.readAny() }
    }

    // MARK: nesting

    func testEnterRequiresFullConsumption() {
        // SEQUENCE { INTEGER 1, INTEGER 2 } but the body reads only one.
        expectError([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02], .trailingData, at: 5) { (r) throws(DERError) in
            try r.enter(.sequence) { (s) throws(DERError) in _ = try s.readInt64() }
        }
    }

    func testEnterRequiresConstructed() {
        // Tag 0x10 (SEQUENCE number) without the constructed bit is not 0x30.
        expectError([0x10, 0x00], .unexpectedTag, at: 0) { (r) throws(DERError) in
            try r.enter(.sequence) { (_) throws(DERError) in }
        }
    }

    func testDepthLimit() {
        // 40 nested SEQUENCEs: deeper than `DERReader.maximumDepth`.
        var bytes: [UInt8] = []
        for _ in 0..<40 { bytes = [0x30, UInt8(bytes.count)] + bytes }
        func descend(_ r: inout DERReader) throws(DERError) {
            while !r.isAtEnd { try r.enter(.sequence) { (s) throws(DERError) in try descend(&s) } }
        }
        bytes.withUnsafeBytes { buf in
            var r = DERReader(buf)
            do throws(DERError) {
                try descend(&r)
                XCTFail("expected nestingTooDeep")
            } catch {
                XCTAssertEqual(error.kind, .nestingTooDeep)
            }
        }
    }

    func testUnexpectedTagAndOptional() throws {
        expectError([0x02, 0x01, 0x05], .unexpectedTag, at: 0) { (r) throws(DERError) in _ = try r.read(.octetString) }
        let opt = try withReader([0x02, 0x01, 0x05]) { (r) throws(DERError) -> Bool in
            let none = try r.readOptional(.boolean)
            let some = try r.readOptional(.integer)
            return none == nil && some != nil && r.isAtEnd
        }
        XCTAssertTrue(opt)
    }

    // MARK: BOOLEAN (X.690 §11.1)

    func testBoolean() throws {
        XCTAssertTrue(try withReader([0x01, 0x01, 0xFF]) { (r) throws(DERError) in try r.readBoolean() })
        XCTAssertFalse(try withReader([0x01, 0x01, 0x00]) { (r) throws(DERError) in try r.readBoolean() })
        expectError([0x01, 0x01, 0x01], .invalidBoolean, at: 2) { (r) throws(DERError) in _ = try r.readBoolean() }
        expectError([0x01, 0x02, 0xFF, 0xFF], .invalidBoolean, at: 2) { (r) throws(DERError) in _ = try r.readBoolean()
        }
        expectError([0x01, 0x00], .invalidBoolean, at: 2) { (r) throws(DERError) in _ = try r.readBoolean() }
        // DEFAULT FALSE explicitly encoded (X.690 §11.5).
        expectError([0x01, 0x01, 0x00], .defaultValueEncoded, at: 0) { (r) throws(DERError) in
            _ = try r.readBooleanDefaultFalse()
        }
    }

    // MARK: INTEGER (X.690 §8.3)

    func testInteger() throws {
        XCTAssertEqual(try withReader([0x02, 0x01, 0x7F]) { (r) throws(DERError) in try r.readInt64() }, 127)
        XCTAssertEqual(try withReader([0x02, 0x02, 0x00, 0x80]) { (r) throws(DERError) in try r.readInt64() }, 128)
        XCTAssertEqual(try withReader([0x02, 0x01, 0x80]) { (r) throws(DERError) in try r.readInt64() }, -128)
        XCTAssertEqual(try withReader([0x02, 0x02, 0xFF, 0x7F]) { (r) throws(DERError) in try r.readInt64() }, -129)
        expectError([0x02, 0x02, 0x00, 0x7F], .nonMinimalInteger, at: 2) { (r) throws(DERError) in _ = try r.readInt64()
        }
        expectError([0x02, 0x02, 0xFF, 0x80], .nonMinimalInteger, at: 2) { (r) throws(DERError) in _ = try r.readInt64()
        }
        expectError([0x02, 0x00], .emptyInteger, at: 2) { (r) throws(DERError) in _ = try r.readInt64() }
        expectError([0x02, 0x09, 1, 0, 0, 0, 0, 0, 0, 0, 0], .integerOutOfRange, at: 2) { (r) throws(DERError) in
            _ = try r.readInt64()
        }
        expectError([0x02, 0x01, 0x80], .integerOutOfRange, at: 2) { (r) throws(DERError) in
            _ = try r.readUnsignedIntegerBytes()
        }
        let mag = try withReader([0x02, 0x03, 0x00, 0x80, 0x01]) { (r) throws(DERError) in
            Array(try r.readUnsignedIntegerBytes())
        }
        XCTAssertEqual(mag, [0x80, 0x01])
        // A constructed INTEGER does not exist in DER.
        expectError([0x22, 0x03, 0x02, 0x01, 0x01], .unexpectedTag, at: 0) { (r) throws(DERError) in
            _ = try r.readInt64()
        }
    }

    // MARK: BIT STRING (X.690 §11.2, §8.6)

    func testBitString() throws {
        // KeyUsage-like: 03 02 05 A0 → bits 0 and 2 set, 3 significant bits.
        let bits = try withReader([0x03, 0x02, 0x05, 0xA0]) { (r) throws(DERError) -> [Bool] in
            let b = try r.readBitString()
            XCTAssertEqual(b.bitCount, 3)
            return (0..<8).map { b.bit($0) }
        }
        XCTAssertEqual(bits, [true, false, true, false, false, false, false, false])
        expectError([0x03, 0x02, 0x08, 0x00], .invalidBitString, at: 2) { (r) throws(DERError) in
            _ = try r.readBitString()
        }
        expectError([0x03, 0x01, 0x01], .invalidBitString, at: 2) { (r) throws(DERError) in _ = try r.readBitString() }
        expectError([0x03, 0x00], .invalidBitString, at: 2) { (r) throws(DERError) in _ = try r.readBitString() }
        // Padding bits must be zero: 3 unused bits but the lowest bit set.
        expectError([0x03, 0x02, 0x03, 0x09], .invalidBitString, at: 3) { (r) throws(DERError) in
            _ = try r.readBitString()
        }
        XCTAssertEqual(
            try withReader([0x03, 0x01, 0x00]) { (r) throws(DERError) in try r.readBitString().bitCount }, 0)
    }

    // MARK: OBJECT IDENTIFIER (X.690 §8.19)

    func testObjectIdentifier() throws {
        // 1.2.840.113549.1.1.11 (sha256WithRSAEncryption), encoding from RFC 4055.
        let bytes: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
        let dotted = try withReader(bytes) { (r) throws(DERError) in
            DERValue.dottedObjectIdentifier(try r.readObjectIdentifier())
        }
        XCTAssertEqual(dotted, "1.2.840.113549.1.1.11")
        XCTAssertEqual(DERValue.objectIdentifierContent(dotted: "1.2.840.113549.1.1.11"), Array(bytes[2...]))
        XCTAssertEqual(DERValue.objectIdentifierContent(dotted: "2.999.3"), [0x88, 0x37, 0x03])
        let two = try withReader([0x06, 0x03, 0x88, 0x37, 0x03]) { (r) throws(DERError) in
            DERValue.dottedObjectIdentifier(try r.readObjectIdentifier())
        }
        XCTAssertEqual(two, "2.999.3")
        expectError([0x06, 0x02, 0x80, 0x01], .invalidObjectIdentifier, at: 2) { (r) throws(DERError) in
            _ = try r.readObjectIdentifier()
        }
        expectError([0x06, 0x02, 0x2A, 0x86], .invalidObjectIdentifier, at: 3) { (r) throws(DERError) in
            _ = try r.readObjectIdentifier()
        }
        expectError([0x06, 0x00], .invalidObjectIdentifier, at: 2) { (r) throws(DERError) in
            _ = try r.readObjectIdentifier()
        }
    }

    /// The OID rules (X.690 §8.19.2: each arc's octets minimal, i.e. not starting with 0x80,
    /// and the last octet of each arc with bit 8 clear; Sigil's bound: at most nine octets per
    /// arc) checked arc by arc here, independently of the reader, over every content of one to
    /// three octets drawn from values at the rule boundaries and over long pseudo-random ones
    /// (the reader has a one-word fast path up to 8 octets, a word-wise check of any length and
    /// an octet loop that reports errors): the reader accepts exactly what the rules accept, and
    /// reports the first offending octet.
    func testObjectIdentifierRulesAgainstArcByArcReference() {
        // nil when valid, else the offset (in the content) of the first octet breaking a rule.
        func reference(_ c: [UInt8]) -> Int? {
            if c.isEmpty { return 0 }
            var arcStart = 0
            for (i, b) in c.enumerated() {
                if i == arcStart && b == 0x80 { return i }
                if i - arcStart + 1 > 9 { return i }
                if b < 0x80 { arcStart = i + 1 }
            }
            return arcStart == c.count ? nil : c.count - 1
        }
        // Each content at the end of the input and followed by eight 0xFF octets (the reader
        // reads short OIDs as one word when it can, masking off what follows).
        func check(_ c: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
            checkOne(c, trailing: [], file: file, line: line)
            checkOne(c, trailing: [UInt8](repeating: 0xFF, count: 8), file: file, line: line)
        }
        func checkOne(_ c: [UInt8], trailing: [UInt8], file: StaticString, line: UInt) {
            var der: [UInt8] = [0x06]
            if c.count < 0x80 { der.append(UInt8(c.count)) } else { der += [0x81, UInt8(c.count)] }
            let header = der.count
            der += c + trailing
            let got: Int? = der.withUnsafeBytes { buf in
                var r = DERReader(buf)
                do throws(DERError) {
                    _ = try r.readObjectIdentifier()
                    return nil
                } catch {
                    XCTAssertEqual(error.kind, .invalidObjectIdentifier, "\(c)", file: file, line: line)
                    return error.offset - header
                }
            }
            XCTAssertEqual(got, reference(c), "\(c)", file: file, line: line)
        }
        let alphabet: [UInt8] = [0x00, 0x01, 0x2A, 0x7F, 0x80, 0x81, 0x86, 0xFF]
        for a in alphabet {
            check([a])
            for b in alphabet {
                check([a, b])
                for c in alphabet { check([a, b, c]) }
            }
        }
        // Seven and eight octets (the word path's limit), one boundary value at each position.
        for n in [7, 8, 9] {
            for i in 0..<n {
                for v in alphabet {
                    var c = [UInt8](repeating: 0x2A, count: n)
                    c[i] = v
                    check(c)
                }
            }
        }
        // Runs of continuation octets around the nine-octet bound, at the start, middle and end.
        for run in 7...11 {
            let arc = [UInt8](repeating: 0x81, count: run) + [0x01]
            check(arc)
            check([0x2B, 0x06] + arc + [0x01])
            check([0x2B] + [UInt8](repeating: 0x81, count: run))
        }
        // Long contents: 9 to 130 octets (the word-wise check's whole and partial words, the run
        // of continuations carried across words), mostly valid, from a fixed linear
        // congruential sequence.
        var state: UInt32 = 12345
        for k in 0..<4000 {
            var c: [UInt8] = []
            state = state &* 1_103_515_245 &+ 12345
            let n = k < 2000 ? 9 + Int(state >> 16) % 31 : 40 + Int(state >> 16) % 91
            for _ in 0..<n {
                state = state &* 1_103_515_245 &+ 12345
                let r = Int(state >> 16) % 100
                c.append(r < 60 ? UInt8(r) : r < 98 ? 0x81 + UInt8(r % 8) : 0x80)
            }
            if c.last! >= 0x80 && state & 1 == 0 { c[c.count - 1] = 0x01 }
            check(c)
        }
    }

    // MARK: NULL (X.690 §8.8)

    func testNull() throws {
        try withReader([0x05, 0x00]) { (r) throws(DERError) in try r.readNull() }
        expectError([0x05, 0x01, 0x00], .invalidNull, at: 2) { (r) throws(DERError) in try r.readNull() }
    }

    // MARK: times (RFC 5280 §4.1.2.5)

    func time(_ tag: UInt8, _ s: String) throws -> Int64 {
        let bytes = [tag, UInt8(s.utf8.count)] + Array(s.utf8)
        return try withReader(bytes) { (r) throws(DERError) in try r.readTime() }
    }

    func testTimes() throws {
        // Reference values: `date -u -d '2049-12-31 23:59:59' +%s` etc.
        XCTAssertEqual(try time(0x17, "491231235959Z"), 2_524_607_999)
        XCTAssertEqual(try time(0x17, "500101000000Z"), -631_152_000)
        XCTAssertEqual(try time(0x17, "700101000000Z"), 0)
        XCTAssertEqual(try time(0x18, "20500101000000Z"), 2_524_608_000)
        XCTAssertEqual(try time(0x18, "20000229120000Z"), 951_825_600)
        XCTAssertEqual(try time(0x18, "99991231235959Z"), 253_402_300_799)
        XCTAssertEqual(DERTime.rfc3339(951_825_600), "2000-02-29T12:00:00Z")
        XCTAssertEqual(DERTime.rfc3339(-631_152_000), "1950-01-01T00:00:00Z")
    }

    func testInvalidTimes() {
        let bad: [(UInt8, String, Int)] = [
            (0x17, "4912312359Z", 2),  // no seconds
            (0x17, "491231235959+0000", 2),  // offset form
            (0x18, "20491231235959.5Z", 2),  // fraction
            (0x18, "20491231235959", 2),  // no Z
            (0x17, "491331235959Z", 4),  // month 13
            (0x17, "490230235959Z", 6),  // 30 February
            (0x18, "19000229000000Z", 8),  // 1900 is not a leap year
            (0x17, "491231245959Z", 8),  // hour 24
            (0x17, "491231236059Z", 10),  // minute 60
            (0x17, "491231235960Z", 12),  // second 60
            (0x17, "4912312359590", 14),  // Z replaced
            (0x17, "49123123595 Z", 13),  // non-digit
        ]
        for (tag, s, offset) in bad {
            let bytes = [tag, UInt8(s.utf8.count)] + Array(s.utf8)
            expectError(bytes, .invalidTime, at: offset) { (r) throws(DERError) in _ = try r.readTime() }
        }
    }

    // MARK: strings (X.680 §41)

    func string(_ tag: DERTag, _ bytes: [UInt8]) throws -> String {
        let enc = [tag.rawValue, UInt8(bytes.count)] + bytes
        return try withReader(enc) { (r) throws(DERError) in try DERString(try r.readAny()).string }
    }

    func stringError(_ tag: DERTag, _ bytes: [UInt8], at offset: Int) {
        let enc = [tag.rawValue, UInt8(bytes.count)] + bytes
        expectError(enc, .invalidString, at: offset) { (r) throws(DERError) in _ = try DERString(try r.readAny()) }
    }

    /// Every octet value in a PrintableString, at each place of a value longer than a word:
    /// accepted exactly when X.680 §41.4 Table 10 lists it (A–Z, a–z, 0–9, space and
    /// `' ( ) + , - . / : = ?`) or it is one of the two tolerated octets `*` and `&`, the
    /// offender's offset reported otherwise.
    func testPrintableStringCharacterSetOctetByOctet() throws {
        var allowed = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?".utf8))
        allowed.formUnion(Array("*&".utf8))
        for c in 0...255 {
            for place in [0, 5, 12] {
                var value = Array("Example Co 12".utf8)
                value[place] = UInt8(c)
                if allowed.contains(UInt8(c)) {
                    XCTAssertNoThrow(try string(.printableString, value), "\(c)")
                } else {
                    stringError(.printableString, value, at: 2 + place)
                }
            }
        }
    }

    func testStrings() throws {
        XCTAssertEqual(try string(.printableString, Array("Example Co. (1)".utf8)), "Example Co. (1)")
        stringError(.printableString, Array("a@b".utf8), at: 3)
        stringError(.printableString, Array("a<".utf8), at: 3)
        // Tolerated (real wildcard CNs; Go accepts them too).
        XCTAssertEqual(try string(.printableString, Array("*.example.com & co".utf8)), "*.example.com & co")
        XCTAssertEqual(try string(.utf8String, [0xC3, 0xA9, 0x74, 0xC3, 0xA9]), "été")
        stringError(.utf8String, [0x41, 0xC0, 0x80], at: 3)  // overlong NUL
        stringError(.utf8String, [0xED, 0xA0, 0x80], at: 2)  // surrogate U+D800
        stringError(.utf8String, [0xF4, 0x90, 0x80, 0x80], at: 2)  // above U+10FFFF
        stringError(.utf8String, [0xE2, 0x82], at: 2)  // truncated sequence
        stringError(.utf8String, [0xFF], at: 2)
        XCTAssertEqual(try string(.ia5String, Array("a@b.example".utf8)), "a@b.example")
        stringError(.ia5String, [0x61, 0x80], at: 3)
        // IA5 is 7-bit (X.680 §41: ISO 646): every length from 1 to 40 with one octet ≥ 0x80 at
        // every position is refused at that octet (the check reads eight octets at a time and
        // the tail as an overlapping word), and the clean strings are accepted.
        for n in 1...40 {
            let clean = [UInt8](repeating: 0x61, count: n)
            XCTAssertEqual(try string(.ia5String, clean), String(repeating: "a", count: n))
            for i in 0..<n {
                var bad = clean
                bad[i] = i % 2 == 0 ? 0x80 : 0xFF
                stringError(.ia5String, bad, at: 2 + i)
            }
        }
        // UTF8String: the ASCII run is skipped eight octets at a time and its tail as an
        // overlapping word; a non-ASCII octet anywhere in strings of 1 to 40 octets is still
        // decoded: 0xFF (never in UTF-8, RFC 3629 §1) refused at its offset, "é" (C3 A9) accepted.
        for n in 1...40 {
            let clean = [UInt8](repeating: 0x61, count: n)
            XCTAssertEqual(try string(.utf8String, clean), String(repeating: "a", count: n))
            for i in 0..<n {
                var bad = clean
                bad[i] = 0xFF
                stringError(.utf8String, bad, at: 2 + i)
                if i + 1 < n {
                    var accented = clean
                    accented[i] = 0xC3
                    accented[i + 1] = 0xA9
                    let expected = String(repeating: "a", count: i) + "é" + String(repeating: "a", count: n - i - 2)
                    XCTAssertEqual(try string(.utf8String, accented), expected)
                }
            }
        }
        XCTAssertEqual(try string(.bmpString, [0x00, 0x41, 0x00, 0xE9]), "Aé")
        stringError(.bmpString, [0x00, 0x41, 0x00], at: 4)  // odd length
        stringError(.bmpString, [0xD8, 0x00, 0xDC, 0x00], at: 2)  // surrogate pair not allowed in UCS-2
        XCTAssertEqual(try string(.universalString, [0, 1, 0xF6, 0x00]), "\u{1F600}")
        stringError(.universalString, [0, 0, 0x41], at: 2)
        stringError(.universalString, [0, 0x11, 0, 0], at: 2)
        XCTAssertEqual(try string(.teletexString, [0x43, 0x61, 0x66, 0xE9]), "Café")  // read as Latin-1
        XCTAssertEqual(try string(.visibleString, Array("Hi there".utf8)), "Hi there")
        stringError(.visibleString, [0x48, 0x0A], at: 3)
        stringError(.numericString, Array("12a".utf8), at: 4)
    }
}

/// `read(_:)` and `readOptional(_:)` (an inlined short-form fast path in front of the full
/// reader) against a model of the header rules written here from X.690 §8.1.2–§8.1.3 and §10.1
/// (definite length, minimal length octets, at most 4 of them, low tag numbers only, no
/// [UNIVERSAL 0]): every input of up to 4 octets over octets chosen around each rule's
/// boundaries, read whole and as a window inside a larger buffer, for several expected tags.
final class DERReaderHeaderModelTests: XCTestCase {
    enum Outcome: Equatable {
        case value(contentStart: Int, end: Int)
        case error(DERError.Kind, Int)
        case absent
    }

    /// The model: the outcome of reading one value carrying `tag` from `b[from..<to]`.
    static func model(_ b: [UInt8], from: Int, to: Int, tag: UInt8, optional: Bool) -> Outcome {
        guard from < to else { return optional ? .absent : .error(.truncated, from) }
        let t = b[from]
        if optional {
            if t & 0x1F == 0x1F { return .error(.highTagNumber, from) }
            if t != tag { return .absent }
        } else if t != tag {
            return .error(t & 0x1F == 0x1F ? .highTagNumber : .unexpectedTag, from)
        }
        if t & 0x1F == 0x1F { return .error(.highTagNumber, from) }
        if t & 0xDF == 0 { return .error(.unexpectedTag, from) }  // [UNIVERSAL 0]
        guard from + 1 < to else { return .error(.truncated, from + 1) }
        let first = Int(b[from + 1])
        var contentStart = from + 2
        var length = first
        if first >= 0x80 {
            let n = first & 0x7F
            if n == 0 { return .error(.indefiniteLength, from + 1) }
            if n > 4 { return .error(.lengthTooLong, from + 1) }
            guard to - contentStart >= n else { return .error(.truncated, contentStart) }
            if b[contentStart] == 0 { return .error(.nonMinimalLength, from + 1) }
            length = 0
            for i in 0..<n { length = length << 8 | Int(b[contentStart + i]) }
            if length < 0x80 { return .error(.nonMinimalLength, from + 1) }
            contentStart += n
        }
        guard length <= to - contentStart else { return .error(.truncated, from) }
        return .value(contentStart: contentStart, end: contentStart + length)
    }

    /// What `read` (or `readOptional`) of `tag` from `buf[from..<to]` gives, and the reader's
    /// position after it.
    static func read(_ buf: UnsafeRawBufferPointer, from: Int, to: Int, tag: UInt8, optional: Bool) -> (Outcome, Int) {
        var r = DERReader(input: buf, from: from, to: to)
        do throws(DERError) {
            if optional {
                let v = try r.readOptional(DERTag(rawValue: tag))
                return (v.map { .value(contentStart: $0.contentStart, end: $0.end) } ?? .absent, r.position)
            }
            let v = try r.read(DERTag(rawValue: tag))
            return (.value(contentStart: v.contentStart, end: v.end), r.position)
        } catch {
            return (.error(error.kind, error.offset), r.position)
        }
    }

    func testReadAndReadOptionalAgreeWithTheHeaderModel() {
        let octets: [UInt8] = [
            0x00, 0x01, 0x02, 0x04, 0x1F, 0x20, 0x30, 0x3F, 0x7F, 0x80, 0x81, 0x82, 0x85, 0xA0, 0xFF,
        ]
        let tags: [UInt8] = [0x04, 0x30, 0xA0, 0x80, 0x01]
        var compared = 0
        var values = 0
        func check(_ b: [UInt8], from: Int, to: Int) {
            b.withUnsafeBytes { buf in
                for tag in tags {
                    for optional in [false, true] {
                        let (got, position) = Self.read(buf, from: from, to: to, tag: tag, optional: optional)
                        let want = Self.model(b, from: from, to: to, tag: tag, optional: optional)
                        XCTAssertEqual(got, want, "\(b) [\(from)..<\(to)] tag \(tag) optional \(optional)")
                        switch want {
                        case .value(_, let end):
                            XCTAssertEqual(position, end)
                            values += 1
                        default:
                            XCTAssertEqual(position, from, "nothing consumed")
                        }
                        compared += 1
                    }
                }
            }
        }
        func all(_ n: Int, _ prefix: [UInt8]) {
            if prefix.count == n {
                check(prefix, from: 0, to: n)
                // The same octets as a window inside a larger buffer (bytes outside it present).
                check([0x30] + prefix + [0x05, 0x00], from: 1, to: n + 1)
                return
            }
            for o in octets { all(n, prefix + [o]) }
        }
        for n in 0...4 { all(n, []) }
        XCTAssertGreaterThan(values, 1000)
        print("DERReaderHeaderModelTests: \(compared) reads compared, \(values) values")
    }

    /// The one- and two-octet long forms (`readTwoOctetForm`, the first step of the full
    /// reader) against the model on buffers long enough to hold their content: every length
    /// octet pattern around the minimality bounds (0x81 0x7F / 0x80, 0x82 0x00 / 0x01 ..), each
    /// with its content one octet short, exact, and one over, as the whole buffer and as a
    /// window ending inside a larger one; `read` and `readOptional` for matching and other tags.
    func testLongFormLengthsAgreeWithTheHeaderModel() {
        let lows: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF]
        var headers: [[UInt8]] = []
        for l in lows { headers.append([0x81, l]) }
        for h: UInt8 in [0x00, 0x01, 0x02] { for l in lows { headers.append([0x82, h, l]) } }
        for l in lows { headers.append([0x83, 0x00, 0x01, l]) }
        headers.append([0x83, 0x01, 0x00, 0x00])
        headers.append([0x80])
        var compared = 0
        var values = 0
        for tag: UInt8 in [0x04, 0x30, 0xA3, 0x01] {
            for header in headers {
                var length = 0
                for o in header.dropFirst() { length = length << 8 | Int(o) }
                let needed = 1 + header.count + length
                for total in [needed - 1, needed, needed + 1] where total >= 1 + header.count {
                    for encodedTag in [tag, tag ^ 0x01] {
                        var b = [encodedTag] + header
                        b += [UInt8](repeating: 0x5A, count: total - b.count)
                        for to in [b.count, b.count - 1] {
                            b.withUnsafeBytes { buf in
                                for optional in [false, true] {
                                    let (got, position) = Self.read(buf, from: 0, to: to, tag: tag, optional: optional)
                                    let want = Self.model(b, from: 0, to: to, tag: tag, optional: optional)
                                    XCTAssertEqual(got, want, "\(b.prefix(6)) count \(b.count) to \(to) tag \(tag)")
                                    if case .value(_, let end) = want {
                                        XCTAssertEqual(position, end)
                                        values += 1
                                    } else {
                                        XCTAssertEqual(position, 0, "nothing consumed")
                                    }
                                    compared += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(values, 50)
        print("DERReaderHeaderModelTests long forms: \(compared) reads compared, \(values) values")
    }
}
