import Sigil
import XCTest

/// Serial lookup in the sorted CRL index (`entryIndices`, `firstEntry`, `entries`): serials
/// chosen to defeat the packed 7-octet search key — equal first 8 octets with different tails,
/// different lengths, a leading 0x00 (positive, high bit set), negative serials, runs of equal
/// serials of an indirect CRL (RFC 5280 §5.3.3). Expected results come from the construction:
/// entry i carries revocationDate 2025-01-01 + i seconds, so the entries a serial must find are
/// the indices the test itself listed with that serial, compared byte for byte.
final class CRLLookupTests: XCTestCase {
    static let base: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z

    func tlv(_ tag: UInt8, _ c: [UInt8]) -> [UInt8] {
        let n = c.count
        if n < 0x80 { return [tag, UInt8(n)] + c }
        if n < 0x100 { return [tag, 0x81, UInt8(n)] + c }
        if n < 0x10000 { return [tag, 0x82, UInt8(n >> 8), UInt8(n & 0xFF)] + c }
        return [tag, 0x83, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + c
    }

    func utcTime(_ i: Int) -> [UInt8] {
        let t = String(format: "2501%02d%02d%02d%02dZ", 1 + i / 86400, (i / 3600) % 24, (i / 60) % 60, i % 60)
        return tlv(0x17, Array(t.utf8))
    }

    /// certificateIssuer (2.5.29.29) naming dNSName `name`, as the entry's only extension.
    func issuerExtension(_ name: String) -> [UInt8] {
        let names = tlv(0x30, tlv(0x82, Array(name.utf8)))
        return tlv(0x30, tlv(0x30, [0x06, 0x03, 0x55, 0x1D, 0x1D] + tlv(0x04, names)))
    }

    /// A v2 CRL of `serials` in this order; `issuers[i]`, when set, starts a certificateIssuer.
    func makeCRL(_ serials: [[UInt8]], issuers: [Int: String] = [:]) throws -> CertificateList {
        var entries: [UInt8] = []
        for (i, s) in serials.enumerated() {
            entries += tlv(0x30, tlv(0x02, s) + utcTime(i) + (issuers[i].map(issuerExtension) ?? []))
        }
        let alg: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        let name = tlv(0x30, tlv(0x31, tlv(0x30, [0x06, 0x03, 0x55, 0x04, 0x03] + tlv(0x0C, Array("CA".utf8)))))
        let tbs = tlv(0x30, [0x02, 0x01, 0x01] + alg + name + utcTime(0) + tlv(0x30, entries))
        return try CertificateList(der: tlv(0x30, tbs + alg + [0x03, 0x02, 0x00, 0x00]))
    }

    /// Tricky serials: minimal two's complement INTEGER contents, built by hand.
    func trickySerials() -> [[UInt8]] {
        var out: [[UInt8]] = []
        let p8: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0]
        // Equal first 8 octets, tails of every length 1...12 and several values.
        for n in 1...12 {
            for v: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] { out.append(p8 + [UInt8](repeating: v, count: n)) }
        }
        out.append(p8)
        // Equal first 7 octets (the key's width), differing in the 8th and later.
        for b: UInt8 in [0x00, 0x01, 0xEF, 0xF0, 0xF1, 0xFF] { out.append(Array(p8[0..<7]) + [b, 0x42, 0x43]) }
        // Leading 0x00 (positive with the high bit set), 1 to 21 octets of content.
        out += [[0x00, 0x80], [0x00, 0xFF], [0x00, 0x80, 0x00], [0x00] + [UInt8](repeating: 0xAB, count: 20)]
        out += [
            [0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01],
            [0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02],
        ]
        // Negative serials (well formed; they can match no accepted certificate).
        out += [[0x80], [0xFF, 0x7F], [0xFE], [0x80, 0x00], [0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]]
        // Short positive ones and a 20-octet maximum.
        out += [[0x01], [0x7F], [0x01, 0x00], [0x7F] + [UInt8](repeating: 0x11, count: 19)]
        return out
    }

    func check(
        _ crl: CertificateList, _ serials: [[UInt8]], probes: [[UInt8]], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for q in probes {
            let expected = serials.indices.filter { serials[$0] == q }.map { Self.base + Int64($0) }
            let found = crl.entries(serial: q)
            XCTAssertEqual(found.map(\.revocationDate), expected, "\(q)", file: file, line: line)
            for e in found { XCTAssert(e.serialNumber == q, file: file, line: line) }
            let r = crl.entryIndices(serial: q)
            XCTAssertEqual(r.count, expected.count, file: file, line: line)
            XCTAssertEqual(crl.firstEntry(serial: q)?.revocationDate, expected.first, file: file, line: line)
        }
    }

    func probes(for serials: [[UInt8]]) -> [[UInt8]] {
        var p = serials
        for s in serials {
            var t = s
            t[t.count - 1] ^= 0x01
            p.append(t)
            p.append(s + [0x00])
            if s.count > 1 { p.append(Array(s.dropLast())) }
            t = s
            t[min(7, t.count - 1)] &+= 1
            p.append(t)
        }
        p += [
            [], [UInt8](repeating: 0x12, count: 21), [UInt8](repeating: 0x12, count: 22),
            [UInt8](repeating: 0x01, count: 300),
        ]
        return p
    }

    /// Tricky serials among random ones, in a scrambled order.
    func testTrickySerialsAmongRandomOnes() throws {
        var serials = trickySerials()
        var x: UInt64 = 0x0123_4567_89AB_CDEF
        func next() -> UInt64 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return x
        }
        // 400 serials sharing 8 octets (a long tie of keys), 2 000 random ones of 9...20 octets.
        for _ in 0..<400 { serials.append([0x33, 0, 0, 0, 0, 0, 0, 0] + withUnsafeBytes(of: next()) { Array($0) }) }
        for _ in 0..<2000 {
            var s = withUnsafeBytes(of: next()) { Array($0) } + withUnsafeBytes(of: next()) { Array($0) }
            s = Array(s[0..<(9 + Int(next() % 8))])
            s[0] = (s[0] & 0x7F) | 0x01
            serials.append(s)
        }
        for i in stride(from: serials.count - 1, to: 0, by: -1) { serials.swapAt(i, Int(next() % UInt64(i + 1))) }
        let crl = try makeCRL(serials)
        XCTAssertEqual(crl.revokedCount, serials.count)
        check(crl, serials, probes: probes(for: serials))
    }

    /// Already sorted input (the parser's no-sort path) and a one-entry list.
    func testSortedAndSingleEntryLists() throws {
        for serials in [
            trickySerials().sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) },
            [[0x05]], [[0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x01]],
        ] {
            let crl = try makeCRL(serials)
            check(crl, serials, probes: probes(for: serials))
        }
    }

    /// An indirect CRL: the same serial listed once per certificate issuer (§5.3.3), in runs of
    /// 1 to 70 equal serials (some of them sharing their first 8 octets with their neighbours).
    func testIndirectCRLRunsOfEqualSerials() throws {
        var serials: [[UInt8]] = []
        var issuers: [Int: String] = [:]
        let shared: [[UInt8]] = [
            [0x0A, 1, 2, 3, 4, 5, 6, 7, 0x01], [0x0A, 1, 2, 3, 4, 5, 6, 7, 0x02],
            [0x0A, 1, 2, 3, 4, 5, 6, 7, 0x02, 0x00],
            [0x05], [0x00, 0x90, 1, 2, 3, 4, 5, 6, 7, 8],
        ]
        for (k, run) in [1, 2, 3, 70, 17].enumerated() {
            for j in 0..<run {
                issuers[serials.count] = "ca\(k)-\(j).example"
                serials.append(shared[k])
                serials.append([0x40 + UInt8(k), UInt8(j)])  // an unrelated entry in between
            }
        }
        let crl = try makeCRL(serials, issuers: issuers)
        XCTAssertTrue(crl.facts.hasCertificateIssuerEntries)
        check(crl, serials, probes: probes(for: serials))
        // Each found entry carries the certificateIssuer in effect at its position.
        for q in shared {
            let names = crl.entries(serial: q).map { e -> String in
                var out = ""
                for n in e.certificateIssuer! {
                    if case .dnsName(let d) = n { out = String(decoding: d.bytes, as: UTF8.self) }
                }
                return out
            }
            let expected = serials.indices.filter { serials[$0] == q }.map { issuers[$0]! }
            XCTAssertEqual(names, expected)
        }
    }
}
