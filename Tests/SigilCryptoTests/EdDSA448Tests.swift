import Foundation
import SigilTestSupport
import XCTest

@testable import SigilCrypto

/// SHAKE256 (FIPS 202 §6.2) against outputs of Python's `hashlib.shake_256` (OpenSSL's
/// implementation: an independent source), including the FIPS 202 example message of 200
/// bytes 0xA3 and lengths around the 136-byte rate.
final class SHAKE256Tests: XCTestCase {
    static func message(_ spec: String) -> [UInt8] {
        switch spec {
        case "a3x200": return [UInt8](repeating: 0xa3, count: 200)
        case "ramp1031":
            return (0..<4).flatMap { _ in (0..<256).map { UInt8($0) } } + [UInt8](repeating: 0x78, count: 7)
        default:
            if spec.hasPrefix("seq") {
                let n = Int(spec.dropFirst(3))!
                return (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            }
            return hexBytes(spec)
        }
    }

    // (message, output length, hashlib.shake_256(message).hexdigest(length))
    static let vectors: [(String, Int, String)] = [
        ("", 32, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"),
        (
            "", 114,
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be141e96616fb13957692cc7edd0b45ae3dc07223c8e92937bef84bc0eab862853349ec75546f58fb7c2775c38462c5010d846"
        ),
        (
            "616263", 64,
            "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
        ),
        (
            "a3x200", 512,
            "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b1048a7f64e1074cd629e85ad7566048efc4fb500b486a3309a8f26724c0ed628001a1099422468de726f1061d99eb9e93604d5aa7467d4b1bd6484582a384317d7f47d750b8f5499512bb85a226c4243556e696f6bd072c5aa2d9b69730244b56853d16970ad817e213e470618178001c9fb56c54fefa5fee67d2da524bb3b0b61ef0e9114a92cdbb6cccb98615cfe76e3510dd88d1cc28ff99287512f24bfafa1a76877b6f37198e3a641c68a7c42d45fa7acc10dae5f3cefb7b735f12d4e589f7a456e78c0f5e4c4471fffa5e4fa0514ae974d8c2648513b5db494cea847156d277ad0e141c24c7839064cd08851bc2e7ca109fd4e251c35bb0a04fb05b364ff8c4d8b59bc303e25328c09a882e952518e1a8ae0ff265d61c465896973d7490499dc639fb8502b39456791b1b6ec5bcc5d9ac36a6df622a070d43fed781f5f149f7b62675e7d1a4d6dec48c1c7164586eae06a51208c0b791244d307726505c3ad4b26b6822377257aa152037560a739714a3ca79bd605547c9b78dd1f596f2d4f1791bc689a0e9b799a37339c04275733740143ef5d2b58b96a363d4e08076a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb"
        ),
        (
            "ramp1031", 114,
            "ede14b7bb0b7c34d3abe3bc1acf4e3e78a5be6f06dc972acb89e255e20be663de3b162fc7f9e1e17aadd2efc8c0290c6b2ae080c751cdb30af059b63a96d7f3088e72387bb95a8ba881942a7e1322fa4cb7fd7be91e9a831315406ed7b9a9390f401075911da2175082a4d544f2dba503820"
        ),
        (
            "seq135", 136,
            "0213fc98352f009fafdf8ee1ea36391485a85aa6f6c07a5cd81266d21eb17f9af3e3a6aa4a5e03793be3a4da4ba01c438b689164fc6bebb290eb372bfecd569d2a69dc220bc2dae5d6cf9d3995091e4059d9e84618faa6b7de2d5e6f5d35313e6843196ea42cf421268e4d129cfec24bd4d421b1b40473134ade8603b8bc69db9d10b25e24c9de8a"
        ),
        (
            "seq136", 136,
            "c00f43811e5b4a38e14e3c06d8a5ce34115a19cd604ce5bac6c3823b76046d5c6b149f173bef3089dbfe66774f9723bc344ecbaa7e9674df4ceb8558811423c5913b6167176f8c2e18378ec5f62a4342aff67ea93d488ca27140a678ce2163ff449e2fad54a00e0e2ab9c0d8a15379cdde8c9de63b699ea9bb935d384f92a76e28b18d0b7dfea5e8"
        ),
        (
            "seq137", 136,
            "3c983983487bcbe74feba53b35bb1e05812379cb4116d9761f78d2ce3177866edc88e750bfaf43bd31ccd052078d97406fbfca21145c09c8d9bd1e81cd443e31aa69827bf0f1d9fddf4b028252de8dbfae953870c3b10347251986b7b49b2406d3e625526d331a8ac1b4d02976893c1fd0837dbc3327f2ecb90ddf5b4990faba3d1c6fa76502b431"
        ),
        (
            "seq271", 136,
            "bcb97927f18cf6a655d69f2eae4345f8899213b35283d8fc5bca40dca12fdc1cc00f04a8fd4d28b0945e3351b3be2acd1253a60cb82178b40879f431bb9a64816daecf9038e06d43cf9f4e622aee40bc28afd7a29722037cdfa560fa09b660b4c6019009e9683ce4636123b52cf09c8870aaedb97c06b4e6e8a044cfe533b5e86cd6708ae82e7b8b"
        ),
        (
            "seq272", 136,
            "fbb7df100461f5db3224c3b715603b5a52f92bd0f761d9361d4aa0613d47033bc8d8f05b01b30fe0cb993f1d67031226e657bcd1ac47b91c40cbbe31818a1f0dcf1e0b5ee66facb706eb1fe3082b5ee864b0d7df7e769809c168e2665bbf2947df9e811d25b0d8ec1597882555179868825fc58a96b42974cb8320969c7e079533757fa3856dc412"
        ),
        (
            "seq273", 136,
            "d01f8849ec840a934bacdae9e04bde8a676d6fbe4751deb78ac32ba288476271c500b6f7baca49003283565e8ff2df6f9e5e23e6152f706fb3d57b767e193861544d6b113cfbb2ba7a9a3b3e721a55f6747176d4587efeb51b779ece7ad9b74f8d0d8f125cb9ea4161aa98213c833748cbff91b379d1ed90813e9a30bf2a80a3a1fe0418bf56eea7"
        ),
    ]

    func testHashlibVectors() {
        for (spec, count, expected) in Self.vectors {
            let m = Self.message(spec)
            let out = m.withUnsafeBytes { SHAKE256.hash($0, count: count) }
            XCTAssertEqual(hexString(out), expected, "SHAKE256(\(spec), \(count))")
        }
    }

    /// Absorbing in pieces (every split point, and byte by byte) gives the one-shot output.
    func testIncrementalAbsorb() {
        let m = Self.message("seq273")
        let whole = m.withUnsafeBytes { SHAKE256.hash($0, count: 64) }
        for split in [0, 1, 7, 8, 135, 136, 137, 200, 272, 273] {
            var h = SHAKE256()
            m.withUnsafeBytes { b in
                h.update(UnsafeRawBufferPointer(rebasing: b[0..<split]))
                h.update(UnsafeRawBufferPointer(rebasing: b[split...]))
            }
            var out = [UInt8](repeating: 0, count: 64)
            out.withUnsafeMutableBytes { h.squeeze(into: $0) }
            XCTAssertEqual(out, whole, "split at \(split)")
        }
        var h = SHAKE256()
        for byte in m { [byte].withUnsafeBytes { h.update($0) } }
        var out = [UInt8](repeating: 0, count: 64)
        out.withUnsafeMutableBytes { h.squeeze(into: $0) }
        XCTAssertEqual(out, whole, "byte by byte")
    }
}

/// Ed448 (RFC 8032 §5.2.7) against Wycheproof, the RFC 8032 §7.4 "Blank" vector, edge encodings
/// and signatures made by OpenSSL.
final class Ed448Tests: XCTestCase {
    func testWycheproof() throws {
        let counts = try runEdDSAWycheproof("ed448_test.json", curve: .ed448, minimumTests: 86)
        if !counts.isEmpty {
            XCTAssertEqual(counts["valid"], 17)
            XCTAssertEqual(counts["invalid"], 70)
        }
    }

    static let blankKey = hexBytes(
        "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180"
    )
    static let blankSignature = hexBytes(
        "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600"
    )

    /// RFC 8032 §7.4 "Blank" (empty message, empty context).
    func testRFC8032Blank() {
        XCTAssertNil(eddsaCheck(.ed448, publicKey: Self.blankKey, message: [], signature: Self.blankSignature))
        XCTAssertEqual(
            eddsaCheck(.ed448, publicKey: Self.blankKey, message: [0], signature: Self.blankSignature), .badSignature)
        for bit in stride(from: 0, to: 912, by: 11) {
            var bad = Self.blankSignature
            bad[bit / 8] ^= UInt8(1 << (bit % 8))
            XCTAssertNotNil(eddsaCheck(.ed448, publicKey: Self.blankKey, message: [], signature: bad), "bit \(bit)")
        }
    }

    /// RFC 8032 §5.2.3 and §5.2.7 edge encodings.
    func testStrictDecodingAndScalarRange() {
        let msg: [UInt8] = []
        let sig = Self.blankSignature
        // Bits 448..454 of the key set: y >= 2^448 > p (step 1).
        var high = Self.blankKey
        high[56] |= 0x01
        XCTAssertEqual(eddsaCheck(.ed448, publicKey: high, message: msg, signature: sig), .malformedKey)
        // y = p (non-canonical 0) and y = p + 1 (non-canonical 1): step 1.
        var yp = [UInt8](repeating: 0xff, count: 57)
        yp[28] = 0xfe  // p = 2^448 - 2^224 - 1: byte 28 is bits 224..231
        yp[56] = 0
        XCTAssertEqual(eddsaCheck(.ed448, publicKey: yp, message: msg, signature: sig), .malformedKey)
        // p + 1 = 2^448 - 2^224
        var pPlusOne = [UInt8](repeating: 0, count: 57)
        for i in 28..<56 { pPlusOne[i] = 0xff }
        XCTAssertEqual(eddsaCheck(.ed448, publicKey: pPlusOne, message: msg, signature: sig), .malformedKey)
        // y = 1 (neutral, x = 0) decodes; with the sign bit set it does not (step 4).
        var one = [UInt8](repeating: 0, count: 57)
        one[0] = 1
        XCTAssertTrue(one.withUnsafeBytes { Ed448.isValidPublicKey($0) })
        one[56] = 0x80
        XCTAssertFalse(one.withUnsafeBytes { Ed448.isValidPublicKey($0) })
        // S >= L (§5.2.7 step 1): S + L, and a non-zero last octet.
        let order = hexBytes(
            "f34458ab92c27823558fc58d72c26c219036d6ae49db4ec4e923ca7cffffffffffffffffffffffffffffffffffffffffffffffffffffff3f00"
        )
        var s = Array(sig[57...])
        var carry = 0
        for i in 0..<57 {
            let t = Int(s[i]) + Int(order[i]) + carry
            s[i] = UInt8(t & 0xff)
            carry = t >> 8
        }
        XCTAssertEqual(
            eddsaCheck(.ed448, publicKey: Self.blankKey, message: msg, signature: Array(sig[..<57]) + s), .badSignature)
        XCTAssertEqual(
            eddsaCheck(.ed448, publicKey: Self.blankKey, message: msg, signature: Array(sig[..<57]) + order),
            .badSignature)
        XCTAssertEqual(
            eddsaCheck(.ed448, publicKey: Self.blankKey, message: msg, signature: Array(sig.prefix(113))),
            .malformedSignature)
    }

    func testOpenSSLSignatures() throws {
        try checkOpenSSLSignatures(curve: .ed448)
    }
}
