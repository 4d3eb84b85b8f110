// The DER walk: reads arbitrary bytes with SigilDER and calls every decoder on every value.
//
// This file is self-contained (imports only SigilDER) because it is compiled twice: into the
// `FuzzSupport` library of the Fuzz package (driven by libFuzzer), and into the root package's
// `SigilDERTests` through the symlink `Tests/SigilDERTests/FuzzRegressionWalk.swift`, where
// `FuzzRegressionTests` replays every input under `Fixtures/fuzz-regressions/FuzzDER/`.
//
// Errors thrown by the reader are expected and caught. A finding is a trap: either a crash in
// SigilDER itself, or a broken invariant below (`fuzzCheck`), each an independent oracle for
// what a decoder claims: a header that is not the canonical one, an INTEGER that does not
// re-encode to its bytes, an OID that does not survive dotted form and back, a time whose
// calendar fields differ from its digits, a string accepted outside its character set, …

@_spi(SigilInternal) import SigilDER

/// Traps with a message when an invariant fails: that is a finding.
@inline(__always)
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant broken: " + message(), file: file, line: line) }
}

public enum DERWalk {
    /// Entry point: `bytes` as a sequence of top-level values, each walked to the bottom.
    public static func run(_ bytes: UnsafeRawBufferPointer) {
        var reader = DERReader(bytes)
        fuzzCheck(
            reader.position == 0 && reader.end == bytes.count && reader.remaining == bytes.count,
            "fresh reader bounds")
        walkSequence(&reader, depth: 0)
    }

    /// Convenience for callers holding an array (tests).
    public static func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    /// Reads values until the reader is exhausted or an error stops it. `depth` is the
    /// reader's own nesting depth (the reader enforces the limit; the walk only mirrors it
    /// for the encapsulated-content case, where it builds readers itself).
    static func walkSequence(_ reader: inout DERReader, depth: Int) {
        while !reader.isAtEnd {
            let before = reader.position
            let peeked = reader.peekTag()
            fuzzCheck(peeked != nil, "peekTag nil before end")
            let expected = referenceHeader(reader.input, before, reader.end)
            do {
                let value = try reader.readAny()
                fuzzCheck(
                    expected != nil && expected!.contentStart == value.contentStart && expected!.end == value.end,
                    "readAny accepted a header the reference parser \(expected == nil ? "rejects" : "reads differently")"
                )
                fuzzCheck(value.start == before, "value.start \(value.start) != position \(before)")
                fuzzCheck(value.tag == peeked, "readAny tag differs from peekTag")
                fuzzCheck(reader.position == value.end, "cursor not at value end")
                visit(value, depth: depth)
            } catch {
                fuzzCheck(expected == nil, "readAny rejected (\(error)) a header the reference parser accepts")
                fuzzCheck(reader.position == before, "a failed read moved the cursor")
                fuzzCheck(
                    error.offset >= before && error.offset <= reader.end,
                    "error offset \(error.offset) outside [\(before), \(reader.end)]")
                checkReadErrorKind(error, at: before, reader: reader)
                _ = error.description
                // A reader that failed once stays failed at the same place.
                var again = reader
                do {
                    _ = try again.readAny()
                    fuzzCheck(false, "readAny succeeded on retry after \(error)")
                } catch let second {
                    fuzzCheck(second == error, "readAny not deterministic: \(error) then \(second)")
                }
                do {
                    try reader.finish()
                    fuzzCheck(false, "finish() succeeded with bytes left")
                } catch let e {
                    fuzzCheck(e.kind == .trailingData && e.offset == before, "finish() error \(e)")
                }
                return
            }
        }
        fuzzCheck(reader.peekTag() == nil && reader.remaining == 0, "peek at end")
        do { try reader.finish() } catch { fuzzCheck(false, "finish() failed at end: \(error)") }
        var atEnd = reader
        do {
            _ = try atEnd.readAny()
            fuzzCheck(false, "readAny succeeded at end")
        } catch {
            fuzzCheck(error.kind == .truncated, "readAny at end: \(error)")
        }
    }

    /// Strict DER header (X.690 §8.1.2–8.1.3, §10.1), written out plainly as the oracle for
    /// `readAny`: low tag numbers, not [UNIVERSAL 0], definite length in the fewest octets,
    /// at most 4 length octets, the value inside `end`. Nil when invalid.
    static func referenceHeader(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (contentStart: Int, end: Int)?
    {
        guard end - start >= 2 else { return nil }
        let tag = b[start]
        if tag & 0x1F == 0x1F { return nil }  // high-tag-number form
        if tag == 0x00 || tag == 0x20 { return nil }  // [UNIVERSAL 0]: end-of-contents
        let first = Int(b[start + 1])
        var p = start + 2
        var length = 0
        if first & 0x80 == 0 {
            length = first
        } else {
            let count = first & 0x7F
            if count == 0 || count > 4 || end - p < count { return nil }  // indefinite, too long, truncated
            for i in 0..<count { length = length * 256 + Int(b[p + i]) }
            let fewest = length < 0x80 ? 0 : length < 0x100 ? 1 : length < 0x1_0000 ? 2 : length < 0x100_0000 ? 3 : 4
            if count != fewest { return nil }  // not minimal (incl. long form for < 128)
            p += count
        }
        if length > end - p { return nil }
        return (p, p + length)
    }

    /// The header of a failed read, re-examined independently: the reported kind must be one
    /// that the header bytes actually show.
    static func checkReadErrorKind(_ error: DERError, at start: Int, reader: DERReader) {
        let input = reader.input
        let end = reader.end
        let tagByte = input[start]
        switch error.kind {
        case .highTagNumber:
            fuzzCheck(tagByte & 0x1F == 0x1F, "highTagNumber for tag \(tagByte)")
        case .truncated:
            break
        case .indefiniteLength:
            fuzzCheck(start + 1 < end && input[start + 1] == 0x80, "indefiniteLength without 0x80")
        case .lengthTooLong:
            fuzzCheck(start + 1 < end && input[start + 1] > 0x84, "lengthTooLong with \(input[start + 1])")
        case .nonMinimalLength:
            fuzzCheck(start + 1 < end && input[start + 1] > 0x80, "nonMinimalLength with short form")
        case .unexpectedTag:
            // Only [UNIVERSAL 0] (end-of-contents, reserved) is refused by tag alone.
            fuzzCheck(tagByte & 0xDF == 0, "unexpectedTag from readAny for tag \(tagByte)")
        default:
            fuzzCheck(false, "readAny threw \(error)")
        }
        if tagByte & 0x1F != 0x1F {
            fuzzCheck(error.kind != .highTagNumber, "low tag reported as high")
        }
    }

    /// Everything that can be asked of one value.
    static func visit(_ v: DERValue, depth: Int) {
        checkHeader(v)
        checkTypedReads(v, depth: depth)
        decodeEverything(v)

        if v.tag.isConstructed {
            do {
                try DERReader.enter(v) { (inner: inout DERReader) throws(DERError) in
                    fuzzCheck(inner.position == v.contentStart && inner.end == v.end, "inner reader bounds")
                    walkSequence(&inner, depth: depth + 1)
                }
                fuzzCheck(depth + 1 <= DERReader.maximumDepth, "entered past the depth limit")
            } catch {
                if depth + 1 > DERReader.maximumDepth {
                    fuzzCheck(
                        error.kind == .nestingTooDeep && error.offset == v.start,
                        "expected nestingTooDeep at depth \(depth), got \(error)")
                } else {
                    fuzzCheck(error.kind == .trailingData, "enter failed with \(error)")
                    fuzzCheck(error.offset >= v.contentStart && error.offset < v.end, "trailingData offset")
                }
            }
        } else {
            // Encapsulated DER, as in extnValue (OCTET STRING) and subjectPublicKey (BIT
            // STRING): walk the content as DER one level deeper. The reader checks depth only
            // when entering, so this walk bounds its own recursion the same way.
            var from = -1
            if v.tag == .octetString {
                from = v.contentStart
            } else if v.tag == .bitString, v.contentCount >= 1, v.content[0] == 0 {
                from = v.contentStart + 1
            }
            if from >= 0 && depth + 1 <= DERReader.maximumDepth {
                var inner = DERReader(input: v.input, from: from, to: v.end, depth: depth + 1)
                walkSequence(&inner, depth: depth + 1)
            }
        }
    }

    // MARK: - Header

    /// An accepted header must be exactly the canonical DER header for its tag and length
    /// (X.690 §8.1.3, §10.1): that is the whole of what "strict" means for the reader.
    static func checkHeader(_ v: DERValue) {
        fuzzCheck(
            v.start >= 0 && v.start < v.contentStart && v.contentStart <= v.end && v.end <= v.input.count,
            "value offsets")
        fuzzCheck(v.contentCount == v.end - v.contentStart && v.content.count == v.contentCount, "content count")
        fuzzCheck(v.encoded.count == v.end - v.start, "encoded count")
        var header: [UInt8] = [v.tag.rawValue]
        let n = v.contentCount
        if n < 0x80 {
            header.append(UInt8(n))
        } else {
            var octets: [UInt8] = []
            var m = n
            while m > 0 {
                octets.insert(UInt8(m & 0xFF), at: 0)
                m >>= 8
            }
            header.append(0x80 | UInt8(octets.count))
            header += octets
        }
        let actual = Array(UnsafeRawBufferPointer(rebasing: v.input[v.start..<v.contentStart]))
        fuzzCheck(actual == header, "header \(actual) is not canonical \(header)")
        fuzzCheck(v.tag.number != 0x1F, "high tag number accepted")
        fuzzCheck(v.tag.rawValue & 0xDF != 0, "[UNIVERSAL 0] (end-of-contents) accepted as a value")
        fuzzCheck(v.tag.tagClass == v.tag.rawValue >> 6 && v.tag.number == v.tag.rawValue & 0x1F, "tag fields")
        _ = v.tag.description
    }

    // MARK: - Typed reads over the same bytes

    static func checkTypedReads(_ v: DERValue, depth: Int) {
        let other = DERTag(rawValue: v.tag.rawValue ^ 0x01)
        var r = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        fuzzCheck(r.peekTag() == v.tag, "peekTag")
        do {
            let none = try r.readOptional(other)
            fuzzCheck(none == nil && r.position == v.start, "readOptional(other tag) consumed")
        } catch { fuzzCheck(false, "readOptional(other tag) threw \(error)") }
        do {
            _ = try r.read(other)
            fuzzCheck(false, "read(other tag) succeeded")
        } catch {
            fuzzCheck(
                error.kind == .unexpectedTag && error.offset == v.start && r.position == v.start,
                "read(other tag): \(error)")
        }
        do {
            let w = try r.read(v.tag)
            fuzzCheck(w.start == v.start && w.contentStart == v.contentStart && w.end == v.end, "read(tag) differs")
            fuzzCheck(r.isAtEnd, "read(tag) left bytes")
        } catch { fuzzCheck(false, "read(tag) failed where readAny succeeded: \(error)") }
        var r2 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        do {
            let w = try r2.readOptional(v.tag)
            fuzzCheck(w?.end == v.end, "readOptional(tag) differs")
        } catch { fuzzCheck(false, "readOptional(tag) failed: \(error)") }
        var r3 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        do {
            try r3.skip()
            fuzzCheck(r3.isAtEnd, "skip")
        } catch { fuzzCheck(false, "skip failed: \(error)") }

        // enter(tag) / enterOptional(tag), consuming everything inside.
        var r4 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        do {
            let count = try r4.enterOptional(v.tag) { (inner: inout DERReader) throws(DERError) -> Int in
                var k = 0
                while !inner.isAtEnd {
                    try inner.skip()
                    k += 1
                }
                return k
            }
            fuzzCheck(count != nil && v.tag.isConstructed, "enterOptional on a primitive value")
        } catch {
            fuzzCheck(error.kind != .trailingData, "skipping everything left trailing data")
        }
        var r5 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        do {
            try r5.enter(v.tag) { (_: inout DERReader) throws(DERError) in }
            fuzzCheck(v.contentCount == 0, "enter with an empty body accepted content")
        } catch {
            if v.tag.isConstructed && v.contentCount > 0 && depth + 1 <= DERReader.maximumDepth {
                fuzzCheck(error.kind == .trailingData && error.offset == v.contentStart, "enter(empty body): \(error)")
            }
        }

        // The typed readers agree with the decoders on the same value.
        var t = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
        switch v.tag {
        case .boolean:
            let a = Result { () throws(DERError) in try t.readBoolean() }
            fuzzCheck(a.map { $0 } == Result { () throws(DERError) in try v.decodeBoolean() }, "readBoolean")
            var t2 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
            do {
                let b = try t2.readBooleanDefaultFalse()
                fuzzCheck(b && (try? v.decodeBoolean()) == true, "readBooleanDefaultFalse returned \(b)")
            } catch {
                fuzzCheck(
                    error.kind != .defaultValueEncoded || (try? v.decodeBoolean()) == false,
                    "defaultValueEncoded for TRUE")
            }
        case .integer:
            let a = Result { () throws(DERError) in try t.readInt64() }
            fuzzCheck(a == Result { () throws(DERError) in try v.decodeInt64() }, "readInt64")
            var t2 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
            let b = Result { () throws(DERError) in try Array(t2.readIntegerBytes()) }
            fuzzCheck(b == Result { () throws(DERError) in try Array(v.decodeIntegerBytes()) }, "readIntegerBytes")
            var t3 = DERReader(input: v.input, from: v.start, to: v.end, depth: depth)
            let c = Result { () throws(DERError) in try Array(t3.readUnsignedIntegerBytes()) }
            fuzzCheck(
                c == Result { () throws(DERError) in try Array(v.decodeUnsignedIntegerBytes()) },
                "readUnsignedIntegerBytes")
        case .bitString:
            let a = Result { () throws(DERError) in try t.readBitString().unusedBits }
            fuzzCheck(a == Result { () throws(DERError) in try v.decodeBitString().unusedBits }, "readBitString")
        case .objectIdentifier:
            let a = Result { () throws(DERError) in try Array(t.readObjectIdentifier()) }
            fuzzCheck(
                a == Result { () throws(DERError) in try Array(v.decodeObjectIdentifier()) },
                "readObjectIdentifier")
        case .null:
            let a = Result { () throws(DERError) in try t.readNull() }.map { 0 }
            fuzzCheck(a == Result { () throws(DERError) in try v.decodeNull() }.map { 0 }, "readNull")
        case .octetString:
            do {
                let o = try t.readOctetString()
                fuzzCheck(o.contentStart == v.contentStart && o.end == v.end, "readOctetString")
            } catch { fuzzCheck(false, "readOctetString failed: \(error)") }
        case .utcTime, .generalizedTime:
            let a = Result { () throws(DERError) in try t.readTime() }
            fuzzCheck(a == Result { () throws(DERError) in try DERTime.decode(v) }, "readTime")
        default:
            do {
                _ = try t.readTime()
                fuzzCheck(false, "readTime accepted tag \(v.tag)")
            } catch {
                fuzzCheck(error.kind == .unexpectedTag, "readTime on tag \(v.tag): \(error)")
            }
        }
    }

    // MARK: - Primitive decoders, each applied to every value whatever its tag

    static func decodeEverything(_ v: DERValue) {
        let content = Array(v.content)
        let primitive = !v.tag.isConstructed

        // BOOLEAN (X.690 §11.1)
        do {
            let b = try v.decodeBoolean()
            fuzzCheck(primitive && content == [b ? 0xFF : 0x00], "BOOLEAN \(content) accepted as \(b)")
        } catch {
            fuzzCheck(!primitive || !(content == [0x00] || content == [0xFF]), "valid BOOLEAN rejected: \(error)")
        }

        decodeIntegers(v, content: content, primitive: primitive)
        decodeBitString(v, content: content, primitive: primitive)
        decodeObjectIdentifier(v, content: content, primitive: primitive)

        // NULL (X.690 §8.8.2)
        do {
            try v.decodeNull()
            fuzzCheck(primitive && content.isEmpty, "NULL with content accepted")
        } catch {
            fuzzCheck(!primitive || !content.isEmpty, "empty NULL rejected: \(error)")
        }

        decodeTime(v, content: content, primitive: primitive)
        decodeStrings(v, content: content, primitive: primitive)
    }

    /// INTEGER (X.690 §8.3): the oracle re-encodes the value minimally and compares.
    static func decodeIntegers(_ v: DERValue, content: [UInt8], primitive: Bool) {
        let minimal =
            content.count == 1
            || (content.count > 1 && !(content[0] == 0x00 && content[1] < 0x80)
                && !(content[0] == 0xFF && content[1] >= 0x80))
        let bytes: [UInt8]
        do {
            bytes = Array(try v.decodeIntegerBytes())
            fuzzCheck(primitive && minimal && bytes == content, "INTEGER \(content) accepted")
        } catch {
            fuzzCheck(!primitive || !minimal, "INTEGER \(content) rejected: \(error)")
            fuzzCheck(
                (try? v.decodeInt64()) == nil && (try? v.decodeUnsignedIntegerBytes()) == nil,
                "INTEGER variants accept what decodeIntegerBytes rejects")
            return
        }
        do {
            let i = try v.decodeInt64()
            fuzzCheck(bytes.count <= 8, "Int64 from \(bytes.count) octets")
            fuzzCheck(minimalTwosComplement(i) == bytes, "Int64 \(i) does not re-encode to \(bytes)")
            _ = DERTime.rfc3339(i)  // arbitrary seconds must render without trapping
            let c = DERTime.components(i)
            fuzzCheck(
                c.month >= 1 && c.month <= 12 && c.day >= 1 && c.day <= 31 && c.hour < 24
                    && c.minute < 60 && c.second < 60 && c.hour >= 0 && c.minute >= 0 && c.second >= 0,
                "components(\(i)) out of range")
            if i.magnitude < (1 << 48) {
                let back = DERTime.secondsSinceEpoch(
                    year: c.year, month: c.month, day: c.day,
                    hour: c.hour, minute: c.minute, second: c.second)
                fuzzCheck(back == i, "components/secondsSinceEpoch round trip \(i) -> \(back)")
            }
        } catch {
            fuzzCheck(error.kind == .integerOutOfRange && bytes.count > 8, "Int64 rejected: \(error)")
        }
        do {
            let u = Array(try v.decodeUnsignedIntegerBytes())
            fuzzCheck(bytes[0] < 0x80, "negative INTEGER accepted as unsigned")
            let expected = (bytes[0] == 0 && bytes.count > 1) ? Array(bytes.dropFirst()) : bytes
            fuzzCheck(u == expected, "unsigned magnitude \(u) != \(expected)")
        } catch {
            fuzzCheck(error.kind == .integerOutOfRange && bytes[0] >= 0x80, "unsigned rejected: \(error)")
        }
    }

    static func minimalTwosComplement(_ i: Int64) -> [UInt8] {
        var out: [UInt8] = []
        var x = i
        repeat {
            out.insert(UInt8(truncatingIfNeeded: x), at: 0)
            x >>= 8
        } while !((x == 0 && out[0] < 0x80) || (x == -1 && out[0] >= 0x80))
        return out
    }

    /// BIT STRING (X.690 §8.6, §11.2), and `bit(_:)` against a direct computation.
    static func decodeBitString(_ v: DERValue, content: [UInt8], primitive: Bool) {
        let valid: Bool = {
            guard primitive, let unused = content.first, unused <= 7 else { return false }
            if content.count == 1 { return unused == 0 }
            return content[content.count - 1] & UInt8((1 << Int(unused)) - 1) == 0
        }()
        do {
            let bs = try v.decodeBitString()
            fuzzCheck(valid, "BIT STRING \(content) accepted")
            fuzzCheck(
                bs.unusedBits == Int(content[0]) && bs.bytes.count == content.count - 1
                    && bs.offset == v.contentStart + 1 && bs.bitCount >= 0
                    && bs.bitCount == (content.count - 1) * 8 - Int(content[0]), "BIT STRING fields")
            let data = content.dropFirst()
            let limit = min(bs.bitCount, v.tag == .bitString ? 1024 : 64) + 9
            var i = -9
            while i < limit {
                var expected = false
                if i >= 0 && i < bs.bitCount {
                    expected = data[data.startIndex + (i >> 3)] & (0x80 >> UInt8(i & 7)) != 0
                }
                fuzzCheck(bs.bit(i) == expected, "bit(\(i)) of \(content)")
                i += 1
            }
            fuzzCheck(!bs.bit(Int.max) && !bs.bit(Int.min) && !bs.bit(bs.bitCount), "bit() past the end")
            // The same bits through the public memberwise initialiser, with the padding ignored.
            let raw = DERBitString(bytes: bs.bytes, unusedBits: bs.unusedBits, offset: bs.offset)
            fuzzCheck(raw.bitCount == bs.bitCount, "memberwise bitCount")
        } catch {
            fuzzCheck(!valid, "valid BIT STRING \(content) rejected: \(error)")
            fuzzCheck(error.kind == (primitive ? .invalidBitString : .unexpectedTag), "BIT STRING error \(error)")
        }
    }

    /// OBJECT IDENTIFIER (X.690 §8.19): dotted form and back must give the same octets.
    static func decodeObjectIdentifier(_ v: DERValue, content: [UInt8], primitive: Bool) {
        // Rendering never traps, even on content that is not a valid OID (bounded: rendering
        // and re-encoding every long value as an OID would dominate the walk's cost).
        // Most short random contents are valid OIDs, so outside OBJECT IDENTIFIER values the
        // text round trips are limited to short contents.
        let isOIDTag = v.tag == .objectIdentifier
        if content.count <= 16 || (isOIDTag && content.count <= 64) {
            let anyDotted = DERValue.dottedObjectIdentifier(v.content)
            _ = DERValue.objectIdentifierContent(dotted: anyDotted)
        }
        if content.count <= 24 && content.allSatisfy({ $0 == 0x2E || ($0 >= 0x30 && $0 <= 0x39) }) {
            // Parsing dotted text made of the raw content never traps either.
            _ = DERValue.objectIdentifierContent(dotted: String(decoding: content, as: UTF8.self))
        }
        // Independent validity: every arc 1…9 octets, no leading 0x80, last octet ends an arc.
        var valid = primitive && !content.isEmpty
        var arcLength = 0
        for b in content where valid {
            if arcLength == 0 && b == 0x80 { valid = false }
            arcLength += 1
            if arcLength > 9 { valid = false }
            if b & 0x80 == 0 { arcLength = 0 }
        }
        if arcLength != 0 { valid = false }
        do {
            let oid = try v.decodeObjectIdentifier()
            fuzzCheck(valid, "OID \(content) accepted")
            guard isOIDTag || content.count <= 16 else { return }
            let dotted = DERValue.dottedObjectIdentifier(oid)
            let back = DERValue.objectIdentifierContent(dotted: dotted)
            fuzzCheck(back == content, "OID \(content) -> \(dotted) -> \(String(describing: back))")
            fuzzCheck(DERValue.bytesEqual(oid, content) && DERValue.bytesEqual(oid, v.content), "derBytesEqual")
        } catch {
            fuzzCheck(!valid, "valid OID \(content) rejected: \(error)")
        }
    }

    /// UTCTime / GeneralizedTime in the RFC 5280 §4.1.2.5 profile; the oracle reads the digits
    /// itself and compares the calendar fields of the decoded instant.
    static func decodeTime(_ v: DERValue, content: [UInt8], primitive: Bool) {
        let isTime = v.tag == .utcTime || v.tag == .generalizedTime
        // Expected fields, if the content is a valid time of this tag.
        var expected: (Int, Int, Int, Int, Int, Int)? = nil
        if isTime {
            let utc = v.tag == .utcTime
            let digits = utc ? 12 : 14
            if content.count == digits + 1, content[digits] == UInt8(ascii: "Z"),
                content[0..<digits].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            {
                func num(_ i: Int, _ n: Int) -> Int { content[i..<(i + n)].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
                var year: Int
                var k: Int
                if utc {
                    let yy = num(0, 2)
                    year = yy >= 50 ? 1900 + yy : 2000 + yy
                    k = 2
                } else {
                    year = num(0, 4)
                    k = 4
                }
                let (mo, d, h, mi, s) = (num(k, 2), num(k + 2, 2), num(k + 4, 2), num(k + 6, 2), num(k + 8, 2))
                let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
                let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
                if mo >= 1 && mo <= 12 && d >= 1 && d <= monthDays[mo - 1] && h < 24 && mi < 60 && s < 60 {
                    expected = (year, mo, d, h, mi, s)
                }
            }
        }
        do {
            let t = try DERTime.decode(v)
            guard let e = expected, primitive else {
                fuzzCheck(false, "time \(content) with tag \(v.tag) accepted")
                return
            }
            let c = DERTime.components(t)
            fuzzCheck(
                c.year == e.0 && c.month == e.1 && c.day == e.2 && c.hour == e.3 && c.minute == e.4
                    && c.second == e.5, "time \(content) decoded to \(c)")
            func pad(_ x: Int, _ w: Int) -> String {
                let s = String(x)
                return String(repeating: "0", count: max(0, w - s.count)) + s
            }
            let text = "\(pad(e.0, 4))-\(pad(e.1, 2))-\(pad(e.2, 2))T\(pad(e.3, 2)):\(pad(e.4, 2)):\(pad(e.5, 2))Z"
            fuzzCheck(DERTime.rfc3339(t) == text, "rfc3339 \(DERTime.rfc3339(t)) != \(text)")
        } catch {
            fuzzCheck(expected == nil || !primitive, "valid time \(content) rejected: \(error)")
        }
    }

    /// Every string type over every value's content, each against its own character set.
    static let stringTags: [DERTag] = [
        .utf8String, .printableString, .ia5String, .visibleString,
        .numericString, .bmpString, .universalString, .teletexString,
    ]

    static func decodeStrings(_ v: DERValue, content: [UInt8], primitive: Bool) {
        // Through the value's own tag.
        do {
            let s = try DERString(v)
            fuzzCheck(DERString.isStringTag(v.tag) && s.tag == v.tag && s.offset == v.contentStart, "DERString(value)")
            _ = s.string
        } catch {
            if DERString.isStringTag(v.tag) {
                fuzzCheck(error.kind == .invalidString, "DERString(value): \(error)")
            } else {
                fuzzCheck(error.kind == .unexpectedTag && error.offset == v.start, "DERString(value) tag: \(error)")
            }
        }
        // Through every string tag, as an IMPLICIT [n] string would be decoded. Building the
        // strings dominates the walk's cost, so the sweep takes short contents only (names and
        // SANs are short; long ones still get their own tag's check above).
        for tag in stringTags where tag == v.tag || content.count <= 24 {
            let s = DERString(tag: tag, bytes: v.content, offset: v.contentStart)
            let oracle = expectedScalars(tag, content)
            do {
                try s.validate()
                guard let scalars = oracle else {
                    fuzzCheck(false, "string \(content) accepted as \(tag)")
                    return
                }
                let str = s.string
                fuzzCheck(Array(str.unicodeScalars) == scalars, "\(tag) \(content) decoded wrongly")
                var it = s.makeScalarIterator()
                var n = 0
                while case .scalar = it.nextResult() { n += 1 }
                fuzzCheck(n == scalars.count, "iterator count")
                if case .end = it.nextResult() {} else { fuzzCheck(false, "iterator does not stay at end") }
            } catch {
                fuzzCheck(oracle == nil, "valid \(tag) \(content) rejected: \(error)")
                fuzzCheck(
                    error.kind == .invalidString && error.offset >= v.contentStart && error.offset < v.end,
                    "\(tag) error \(error)")
                _ = s.string  // decoding what it can of an invalid string must not trap either
            }
        }
    }

    /// X.680 §41.4 Table 10: the PrintableString characters.
    // X.680 §41.4 plus '*' and '&', which Sigil tolerates on purpose (real wildcard CNs; as Go).
    static let printableSet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?*&".utf8)

    /// The scalars a valid string of this type decodes to, or nil if the content is invalid.
    static func expectedScalars(_ tag: DERTag, _ b: [UInt8]) -> [Unicode.Scalar]? {
        switch tag {
        case .printableString:
            return b.allSatisfy { printableSet.contains($0) } ? b.map { Unicode.Scalar($0) } : nil
        case .ia5String:
            return b.allSatisfy { $0 < 0x80 } ? b.map { Unicode.Scalar($0) } : nil
        case .visibleString:
            return b.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } ? b.map { Unicode.Scalar($0) } : nil
        case .numericString:
            return b.allSatisfy { $0 == 0x20 || ($0 >= 0x30 && $0 <= 0x39) } ? b.map { Unicode.Scalar($0) } : nil
        case .teletexString:
            return b.map { Unicode.Scalar($0) }
        case .utf8String:
            // The standard library's validating decoder is the oracle (RFC 3629).
            guard let s = String(validating: b, as: UTF8.self) else { return nil }
            return Array(s.unicodeScalars)
        case .bmpString:
            guard b.count % 2 == 0 else { return nil }
            var out: [Unicode.Scalar] = []
            for i in stride(from: 0, to: b.count, by: 2) {
                guard let s = Unicode.Scalar(UInt16(b[i]) << 8 | UInt16(b[i + 1])) else { return nil }
                out.append(s)
            }
            return out
        case .universalString:
            guard b.count % 4 == 0 else { return nil }
            var out: [Unicode.Scalar] = []
            for i in stride(from: 0, to: b.count, by: 4) {
                let u = UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
                guard let s = Unicode.Scalar(u) else { return nil }
                out.append(s)
            }
            return out
        default:
            return nil
        }
    }
}
