import Foundation
import SigilTestSupport
import XCTest

@testable import SigilCrypto

/// Runs one EdDSA verification over byte arrays; nil when it verifies, else the error.
func eddsaCheck(_ curve: EdDSACurveForTests, publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> CryptoError? {
    publicKey.withUnsafeBytes { pk in
        message.withUnsafeBytes { m in
            signature.withUnsafeBytes { s in
                do throws(CryptoError) {
                    switch curve {
                    case .ed25519: try Ed25519.verify(signature: s, message: m, publicKey: pk)
                    case .ed448: try Ed448.verify(signature: s, message: m, publicKey: pk)
                    }
                    return nil
                } catch {
                    return error
                }
            }
        }
    }
}

enum EdDSACurveForTests: String { case ed25519, ed448 }

/// Wycheproof `eddsa_*` files: every `valid` case accepted, every `invalid` one refused (there
/// are no `acceptable` cases in them; one would fail the test until its decision is written here).
func runEdDSAWycheproof(_ file: String, curve: EdDSACurveForTests, minimumTests: Int) throws -> [String: Int] {
    guard let data = Vectors.load("wycheproof/" + file, test: file) else { return [:] }
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let groups = try XCTUnwrap(json["testGroups"] as? [[String: Any]])
    var counts = [String: Int]()
    for group in groups {
        let key = try XCTUnwrap(group["publicKey"] as? [String: Any])
        let pk = hexBytes(try XCTUnwrap(key["pk"] as? String))
        for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
            let id = test["tcId"] as? Int ?? -1
            let result = try XCTUnwrap(test["result"] as? String)
            let msg = hexBytes(test["msg"] as? String ?? "")
            let sig = hexBytes(test["sig"] as? String ?? "")
            let err = eddsaCheck(curve, publicKey: pk, message: msg, signature: sig)
            switch result {
            case "valid":
                XCTAssertNil(err, "\(file) tcId \(id) (\(test["comment"] ?? "")) must verify")
            case "invalid":
                XCTAssertNotNil(err, "\(file) tcId \(id) (\(test["comment"] ?? "")) must be refused")
            default:
                XCTFail("\(file) tcId \(id): undecided result \(result)")
            }
            counts[result, default: 0] += 1
        }
    }
    XCTAssertGreaterThanOrEqual(counts.values.reduce(0, +), minimumTests, file)
    print("\(file): \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    return counts
}

/// Ed25519 (RFC 8032 §5.1.7) against Wycheproof, the RFC 8032 §7.1 vectors, hand-made edge
/// encodings (each named with the clause that decides it) and signatures made by OpenSSL.
final class Ed25519Tests: XCTestCase {
    func testWycheproof() throws {
        let counts = try runEdDSAWycheproof("ed25519_test.json", curve: .ed25519, minimumTests: 150)
        if !counts.isEmpty {
            XCTAssertEqual(counts["valid"], 88)
            XCTAssertEqual(counts["invalid"], 63)
        }
    }

    /// RFC 8032 §7.1: TEST 1, 2, 3, 1024 and SHA(abc).
    static let rfcVectors: [(pk: String, msg: String, sig: String)] = [
        (
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
        (
            "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"
        ),
    ]

    func testRFC8032Vectors() {
        for (i, v) in Self.rfcVectors.enumerated() {
            let pk = hexBytes(v.pk)
            let msg = hexBytes(v.msg)
            let sig = hexBytes(v.sig)
            XCTAssertNil(eddsaCheck(.ed25519, publicKey: pk, message: msg, signature: sig), "RFC 8032 §7.1 vector \(i)")
            // Any single flipped bit of the signature or message makes it fail.
            for bit in stride(from: 0, to: 512, by: 7) {
                var bad = sig
                bad[bit / 8] ^= UInt8(1 << (bit % 8))
                XCTAssertNotNil(
                    eddsaCheck(.ed25519, publicKey: pk, message: msg, signature: bad), "vector \(i) bit \(bit)")
            }
            XCTAssertNotNil(eddsaCheck(.ed25519, publicKey: pk, message: msg + [0], signature: sig))
        }
    }

    /// TEST 1024 of RFC 8032 §7.1 (a 1023-byte message).
    func testRFC8032Test1024() {
        let msg = hexBytes(Self.test1024Message)
        let pk = hexBytes("278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e")
        let sig = hexBytes(
            "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"
        )
        XCTAssertEqual(msg.count, 1023)
        XCTAssertNil(eddsaCheck(.ed25519, publicKey: pk, message: msg, signature: sig))
    }

    static let p: [UInt8] = {
        // 2^255 - 19, little-endian
        var b = [UInt8](repeating: 0xff, count: 32)
        b[0] = 0xed
        b[31] = 0x7f
        return b
    }()

    static let order: [UInt8] = hexBytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")

    /// RFC 8032 §5.1.3: the key decodes strictly.
    func testKeyDecodingIsStrict() {
        let v = Self.rfcVectors[0]
        let msg = hexBytes(v.msg)
        let sig = hexBytes(v.sig)
        // Step 1: y >= p fails. y = p (the non-canonical encoding of y = 0) and y = p + 1 (of
        // y = 1, the neutral element): Go and BoringSSL decode these, RFC 8032 does not.
        var yp = Self.p
        XCTAssertEqual(eddsaCheck(.ed25519, publicKey: yp, message: msg, signature: sig), .malformedKey)
        yp[0] = 0xee
        XCTAssertEqual(eddsaCheck(.ed25519, publicKey: yp, message: msg, signature: sig), .malformedKey)
        var all = [UInt8](repeating: 0xff, count: 32)
        XCTAssertEqual(eddsaCheck(.ed25519, publicKey: all, message: msg, signature: sig), .malformedKey)
        all[31] = 0x7f  // y = 2^255 - 1 >= p
        XCTAssertEqual(eddsaCheck(.ed25519, publicKey: all, message: msg, signature: sig), .malformedKey)
        // Step 4: x = 0 with the sign bit set fails. y = 1 (neutral) and y = p - 1 (order 2) have x = 0.
        var one = [UInt8](repeating: 0, count: 32)
        one[0] = 1
        XCTAssertTrue(one.withUnsafeBytes { Ed25519.isValidPublicKey($0) })
        one[31] |= 0x80
        XCTAssertFalse(one.withUnsafeBytes { Ed25519.isValidPublicKey($0) })
        var minusOne = Self.p
        minusOne[0] = 0xec
        XCTAssertTrue(minusOne.withUnsafeBytes { Ed25519.isValidPublicKey($0) })
        minusOne[31] |= 0x80
        XCTAssertFalse(minusOne.withUnsafeBytes { Ed25519.isValidPublicKey($0) })
        // Step 3: y = 2 has no x on the curve ((y^2 - 1)/(d y^2 + 1) is not a square).
        var two = [UInt8](repeating: 0, count: 32)
        two[0] = 2
        XCTAssertFalse(two.withUnsafeBytes { Ed25519.isValidPublicKey($0) })
        // Lengths.
        XCTAssertEqual(
            eddsaCheck(.ed25519, publicKey: Array(hexBytes(v.pk).prefix(31)), message: msg, signature: sig),
            .malformedKey)
        XCTAssertEqual(
            eddsaCheck(.ed25519, publicKey: hexBytes(v.pk), message: msg, signature: sig + [0]), .malformedSignature)
        XCTAssertEqual(
            eddsaCheck(.ed25519, publicKey: hexBytes(v.pk), message: msg, signature: Array(sig.prefix(63))),
            .malformedSignature)
    }

    /// RFC 8032 §5.1.7 step 1: S >= L is refused (S + L would otherwise satisfy the equation:
    /// the malleability RFC 8032 closes); so is a non-canonical R for the right point.
    func testScalarAndRRange() {
        let v = Self.rfcVectors[1]
        let pk = hexBytes(v.pk)
        let msg = hexBytes(v.msg)
        let sig = hexBytes(v.sig)
        // S + L (still below 2^256 for this S).
        var s = Array(sig[32...])
        var carry = 0
        for i in 0..<32 {
            let t = Int(s[i]) + Int(Self.order[i]) + carry
            s[i] = UInt8(t & 0xff)
            carry = t >> 8
        }
        XCTAssertEqual(carry, 0)
        XCTAssertEqual(
            eddsaCheck(.ed25519, publicKey: pk, message: msg, signature: Array(sig[..<32]) + s), .badSignature)
        // S = L exactly.
        XCTAssertEqual(
            eddsaCheck(.ed25519, publicKey: pk, message: msg, signature: Array(sig[..<32]) + Self.order), .badSignature)
    }

    /// The neutral element as key with R = neutral and S = 0 satisfies [S]B = R + [k]A for every
    /// message: RFC 8032 does not exclude small-order keys (§5.1.7 only asks that A decode), so
    /// Sigil accepts this signature, as the cofactorless RFC check does. (Wycheproof lists no such
    /// case; libsodium refuses small-order keys, Go and OpenSSL accept them.)
    func testSmallOrderKeyAsRFC8032LeavesIt() {
        var neutral = [UInt8](repeating: 0, count: 32)
        neutral[0] = 1
        let sig = neutral + [UInt8](repeating: 0, count: 32)
        XCTAssertNil(eddsaCheck(.ed25519, publicKey: neutral, message: Array("anything".utf8), signature: sig))
        // R encoded non-canonically (y = p + 1 for y = 1): RFC 8032 §5.1.3 refuses the decoding.
        var rNonCanonical = Self.p
        rNonCanonical[0] = 0xee
        XCTAssertEqual(
            eddsaCheck(
                .ed25519, publicKey: neutral, message: Array("anything".utf8),
                signature: rNonCanonical + [UInt8](repeating: 0, count: 32)),
            .badSignature)
    }

    /// Signatures made by OpenSSL (`Fixtures/eddsa/signatures.json`, Fixtures/scripts/gen_eddsa.py).
    func testOpenSSLSignatures() throws {
        try checkOpenSSLSignatures(curve: .ed25519)
    }

    static let test1024Message =
        "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f27088d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128bab27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb751fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e488acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380db2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0"
}

/// Checks every signature OpenSSL made for `curve` in Fixtures/eddsa/signatures.json (and that
/// a flipped message byte fails).
func checkOpenSSLSignatures(curve: EdDSACurveForTests) throws {
    let url = TestSupport.fixtures.appendingPathComponent("eddsa/signatures.json")
    let data = try Data(contentsOf: url)
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let cases = try XCTUnwrap(json[curve.rawValue] as? [[String: String]])
    XCTAssertGreaterThanOrEqual(cases.count, 20)
    for c in cases {
        let pk = hexBytes(c["publicKey"]!)
        let msg = hexBytes(c["message"]!)
        let sig = hexBytes(c["signature"]!)
        XCTAssertNil(
            eddsaCheck(curve, publicKey: pk, message: msg, signature: sig),
            "OpenSSL \(curve) signature, message of \(msg.count) bytes")
        var bad = msg
        if bad.isEmpty { bad = [0] } else { bad[bad.count / 2] ^= 0x01 }
        XCTAssertEqual(eddsaCheck(curve, publicKey: pk, message: bad, signature: sig), .badSignature)
    }
}
