import Foundation
import XCTest

@testable @_spi(SigilInternal) import SigilDER

/// `DERTime.decodePlain` (digits tested eight at a time) against the digit-by-digit decoder it
/// stands in for (`DERTime.decodeWithChecks`, RFC 5280 §4.1.2.5): on a grid of field values
/// around every range limit, for both time types, and every one-octet change of valid times,
/// the fast path answers only where the full decoder accepts, with the same instant, and
/// answers for every valid time; `decode` answers as the full decoder does.
final class DERTimeModelTests: XCTestCase {
    /// Runs the three decoders on `tag` + `text` (as the TLV's content).
    static func decoders(_ tag: UInt8, _ content: [UInt8]) -> (
        plain: Int64?, full: Result<Int64, DERError>, decode: Result<Int64, DERError>
    ) {
        let tlv = [tag, UInt8(content.count)] + content
        return tlv.withUnsafeBytes { b in
            var r = DERReader(b)
            guard let v = try? r.readAny() else { preconditionFailure("header") }
            let full: Result<Int64, DERError>
            do throws(DERError) { full = .success(try DERTime.decodeWithChecks(v)) } catch { full = .failure(error) }
            let decoded: Result<Int64, DERError>
            do throws(DERError) { decoded = .success(try DERTime.decode(v)) } catch { decoded = .failure(error) }
            return (DERTime.decodePlain(v), full, decoded)
        }
    }

    func check(_ tag: UInt8, _ content: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let (plain, full, decoded) = Self.decoders(tag, content)
        let text = String(decoding: content, as: UTF8.self)
        switch (full, decoded) {
        case (.success(let a), .success(let b)): XCTAssertEqual(a, b, text, file: file, line: line)
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(a.kind, b.kind, text, file: file, line: line)
            XCTAssertEqual(a.offset, b.offset, text, file: file, line: line)
        default: XCTFail("decode and the full decoder disagree on \(text)", file: file, line: line)
        }
        if let p = plain { XCTAssertEqual(try? full.get(), p, text, file: file, line: line) }
        if case .success = full {
            XCTAssertNotNil(plain, "fast path declined the valid \(text)", file: file, line: line)
        }
        return plain != nil
    }

    func testKnownInstants() {
        // 2025-01-01T00:00:00Z and 2050-01-01T00:00:00Z (seconds since the epoch, as `date -d`).
        XCTAssertEqual(Self.decoders(0x17, Array("250101000000Z".utf8)).plain, 1_735_689_600)
        XCTAssertEqual(Self.decoders(0x18, Array("20500101000000Z".utf8)).plain, 2_524_608_000)
        XCTAssertEqual(Self.decoders(0x17, Array("500101000000Z".utf8)).plain, -631_152_000)  // 1950
        XCTAssertEqual(Self.decoders(0x18, Array("20240229235959Z".utf8)).plain, 1_709_251_199)
    }

    /// Days from 1970-01-01 by summing whole years and months (the Gregorian leap rule, no
    /// formula shared with `DERTime`): the independent day count the decoders are held to.
    static let summedDaysBeforeYear: [Int] = {
        func leap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
        var out = [Int](repeating: 0, count: 10_000)
        var d = 0
        for y in 0..<1970 { d -= leap(y) ? 366 : 365 }  // 0000-01-01 relative to the epoch
        for y in 0..<10_000 {
            out[y] = d
            d += leap(y) ? 366 : 365
        }
        return out
    }()

    static func summedDays(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return summedDaysBeforeYear[y] + lengths[0..<(m - 1)].reduce(0, +) + d - 1
    }

    func testInstantsAgainstSummedCalendar() {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func four(_ v: Int) -> String { String(repeating: "0", count: 4 - String(v).count) + String(v) }
        var checked = 0
        func expect(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) {
            let want = Int64(Self.summedDays(y, m, d) * 86400 + h * 3600 + mi * 60 + s)
            let body = two(m) + two(d) + two(h) + two(mi) + two(s) + "Z"
            let g = Self.decoders(0x18, Array((four(y) + body).utf8))
            XCTAssertEqual(g.plain, want, "\(four(y))\(body)")
            XCTAssertEqual(try? g.full.get(), want, "\(four(y))\(body)")
            if y >= 1950 && y <= 2049 {
                let u = Self.decoders(0x17, Array((two(y % 100) + body).utf8))
                XCTAssertEqual(u.plain, want, "\(two(y % 100))\(body)")
                XCTAssertEqual(try? u.full.get(), want, "\(two(y % 100))\(body)")
            }
            checked += 1
        }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        // Every day of the years around the edges of the formulas and of UTCTime.
        for y in [
            0, 1, 3, 4, 99, 100, 399, 400, 1600, 1900, 1949, 1950, 1969, 1970, 1999, 2000, 2049, 2050, 2100, 9999,
        ] {
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
            for m in 1...12 {
                for d in 1...(m == 2 && leap ? 29 : lengths[m - 1]) {
                    expect(y, m, d, (d * 7) % 24, (d * 13) % 60, (d * 17) % 60)
                }
            }
        }
        // The first and last day of every month of every UTCTime year, and of every fifth year to 9999.
        for y in stride(from: 0, through: 9999, by: 5) + Array(1950...2049) {
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
            for m in 1...12 {
                expect(y, m, 1, 0, 0, 0)
                expect(y, m, m == 2 && leap ? 29 : lengths[m - 1], 23, 59, 59)
            }
        }
        XCTAssertGreaterThan(checked, 30_000)
    }

    func testFastPathAgreesWithTheFullDecoder() {
        var fast = 0
        var cases = 0
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        for year in [0, 1, 49, 50, 99] {
            for month in [0, 1, 2, 12, 13] {
                for day in [0, 1, 28, 29, 30, 31, 32] {
                    for (h, m, s) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (0, 60, 0), (0, 0, 60)] {
                        let body = two(month) + two(day) + two(h) + two(m) + two(s) + "Z"
                        if check(0x17, Array((two(year) + body).utf8)) { fast += 1 }
                        for century in [19, 20, 24] where year == 0 || year == 50 {
                            if check(0x18, Array((two(century) + two(year) + body).utf8)) { fast += 1 }
                        }
                        cases += 1
                    }
                }
            }
        }
        for valid in ["250101000000Z", "991231235959Z", "20351231235959Z", "19700101000000Z"] {
            let bytes = Array(valid.utf8)
            let tag: UInt8 = bytes.count == 13 ? 0x17 : 0x18
            for i in 0..<bytes.count {
                for v: UInt8 in [0x00, 0x2F, 0x30, 0x39, 0x3A, 0x5A, 0x7A, 0x80, 0xB0, 0xB9, 0xBA, 0xFF, bytes[i] ^ 1] {
                    var m = bytes
                    m[i] = v
                    _ = check(tag, m)
                    cases += 1
                }
            }
            // Other lengths, the other tag, fractional seconds and offsets are the full path's.
            XCTAssertFalse(check(tag == 0x17 ? 0x18 : 0x17, bytes))
            XCTAssertFalse(check(tag, Array(bytes.dropLast())))
            XCTAssertFalse(check(tag, Array(bytes.dropLast()) + Array(".5Z".utf8)))
            XCTAssertFalse(check(tag, Array(bytes.dropLast()) + Array("+0100".utf8)))
        }
        XCTAssertGreaterThan(fast, 100)
        XCTAssertGreaterThan(cases, 1_000)
    }
}

/// `DERValue.bytesEqual` (words of eight and four octets, overlapping at the end) against
/// element-wise equality, for every length up to 40 with one octet changed at every position,
/// buffers of different lengths and buffers at odd offsets.
final class BytesEqualModelTests: XCTestCase {
    func testWordWiseEqualityAgreesWithTheOctets() {
        var compared = 0
        for n in 0...40 {
            let base = (0..<(n + 3)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            for offset in 0..<3 {
                let a = Array(base[offset..<(offset + n)])
                a.withUnsafeBytes { x in
                    base.withUnsafeBytes { whole in
                        let y = UnsafeRawBufferPointer(rebasing: whole[offset..<(offset + n)])
                        XCTAssertTrue(DERValue.bytesEqual(x, y), "n \(n)")
                    }
                }
                for i in 0..<n {
                    for flip: UInt8 in [0x01, 0x80, 0xFF] {
                        var b = a
                        b[i] ^= flip
                        a.withUnsafeBytes { x in
                            b.withUnsafeBytes { y in
                                XCTAssertEqual(DERValue.bytesEqual(x, y), a == b, "n \(n) i \(i)")
                                XCTAssertFalse(DERValue.bytesEqual(x, y), "n \(n) i \(i)")
                            }
                        }
                        compared += 1
                    }
                }
                if n > 0 {
                    a.withUnsafeBytes { x in
                        XCTAssertFalse(DERValue.bytesEqual(x, UnsafeRawBufferPointer(rebasing: x[1...])))
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 2_000)
    }
}
