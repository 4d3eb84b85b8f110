import CSigilBase64
import Foundation
import SigilTestSupport
@_spi(SigilInternal) import SigilX509
import XCTest

/// The AVX2 base64 decoder (`Sources/CSigilBase64`, used by `ObjectStream` for PEM body lines)
/// against independent decoders: the RFC 4648 §4 alphabet table written out here, Foundation's
/// `Data(base64Encoded:)` and Python's `base64` module — and against the portable Swift path.
final class Base64VectorTests: XCTestCase {
    /// RFC 4648 §4, Table 1.
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    func testVectorPathIsAvailableHere() {
        // Not an error elsewhere (the portable path then serves), but the comparisons below
        // only test the vector code where the CPU runs it: say so in the log.
        if csigil_base64_avx2_supported() == 0 { print("note: no AVX2 on this CPU, the vector path is not exercised") }
    }

    /// Every octet at every place of lines of several lengths: accepted exactly when the octet
    /// is in the alphabet, with the octets Foundation decodes; the vector and portable paths agree.
    func testEveryOctetAtEveryPlace() {
        var rng = SystemRandomNumberGenerator()
        for length in [4, 8, 28, 32, 36, 60, 64, 68, 96, 128, 132] {
            var line = (0..<length).map { _ in Self.alphabet[Int.random(in: 0..<64, using: &rng)] }
            for place in 0..<length {
                let saved = line[place]
                for octet in 0...255 {
                    line[place] = UInt8(octet)
                    let simd = Base64.decodeQuanta(line, simd: true)
                    let portable = Base64.decodeQuanta(line, simd: false)
                    let inAlphabet = Self.alphabet.contains(UInt8(octet))
                    XCTAssertEqual(simd, portable, "length \(length), octet \(octet) at \(place)")
                    XCTAssertEqual(simd != nil, inAlphabet, "length \(length), octet \(octet) at \(place)")
                    if let simd, octet % 17 == 0 || place == 0 {
                        XCTAssertEqual(simd, [UInt8](Data(base64Encoded: Data(line))!))
                    }
                }
                line[place] = saved
            }
        }
    }

    /// Random octets encoded by Python's `base64.b64encode` (no padding: lengths are multiples
    /// of 3) decode back to the same octets on both paths.
    func testPythonRoundTrips() throws {
        let script = """
            import base64, random, sys
            r = random.Random(4648)
            for _ in range(3000):
                n = r.randrange(0, 200) * 3
                b = bytes(r.randrange(256) for _ in range(n))
                print(b.hex(), base64.b64encode(b).decode())
            """
        guard let out = try TestSupport.run(["python3", "-c", script]) else {
            throw XCTSkip("python3 is not available")
        }
        var checked = 0
        for row in out.split(separator: "\n") {
            let parts = row.split(separator: " ", omittingEmptySubsequences: false)
            let hex = Array(parts[0].utf8)
            let bytes = stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
            }
            let text = Array(parts[1].utf8)
            XCTAssertEqual(Base64.decodeQuanta(text, simd: true), bytes)
            XCTAssertEqual(Base64.decodeQuanta(text, simd: false), bytes)
            checked += 1
        }
        XCTAssertEqual(checked, 3000)
    }

    /// Full PEM blocks of random DER-sized bodies through `ObjectStream` (64-character lines:
    /// the vector path; the short last line and padding: the line-by-line path) give the octets
    /// Foundation encoded.
    func testStreamedBlocks() {
        var rng = SystemRandomNumberGenerator()
        for n in [1, 2, 3, 47, 48, 49, 95, 96, 97, 1000, 1500, 4096] {
            let der = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            let pem = "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
            var s = ObjectStream(bytes: Array(pem.utf8))
            XCTAssertEqual(try s.next()?.der, der, "\(n) octets")
        }
    }
}
