import Foundation
import XCTest

@testable import SigilCrypto

/// Malformed keys and signatures must give typed errors, quickly, never a trap; compressed
/// points; the raw r/s entry point; cross-checks against Python `cryptography` at test time.
final class ECDSAInputTests: XCTestCase {

    // Curve constants (SEC 2 / FIPS 186-5): generator coordinates, order n, prime p.
    struct Params {
        let curve: ECCurve
        let gx: String, gy: String, n: String, p: String
    }
    static let params: [Params] = [
        Params(
            curve: .p256,
            gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
            n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
            p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"),
        Params(
            curve: .p384,
            gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
            gy: "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
            n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
            p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff"),
        Params(
            curve: .p521,
            gx:
                "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
            gy:
                "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650",
            n:
                "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
            p:
                "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
        ),
    ]

    /// DER INTEGER content for an unsigned big-endian magnitude.
    func derInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var m = Array(magnitude.drop(while: { $0 == 0 }))
        if m.isEmpty { m = [0] }
        if m[0] & 0x80 != 0 { m.insert(0, at: 0) }
        return [0x02] + derLength(m.count) + m
    }

    func derLength(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n < 0x100 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
    }

    func derSignature(r: [UInt8], s: [UInt8]) -> [UInt8] {
        let body = derInteger(r) + derInteger(s)
        return [0x30] + derLength(body.count) + body
    }

    func generatorKey(_ p: Params) throws -> ECDSAPublicKey {
        try makeECKey(p.curve, [4] + hexBytes(p.gx) + hexBytes(p.gy)).get()
    }

    /// ECField's limbsFromBigEndian (whole 8-byte loads from the end, then the leading bytes)
    /// against a byte-at-a-time reference written here: every length 0...80 with 0...9 leading
    /// zero bytes, for 4, 6 and 9 limbs; false exactly when the significant bytes exceed 8n.
    func testLimbsFromBigEndian() {
        var rng = SystemRandomNumberGenerator()
        for n in [4, 6, 9] {
            for length in 0...80 {
                for zeros in 0...min(9, length) {
                    var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    for k in 0..<zeros { bytes[k] = 0 }
                    if zeros < length && bytes[zeros] == 0 { bytes[zeros] = 1 }  // exactly `zeros` leading zeros
                    let significant = length - zeros
                    var expect = [UInt](repeating: 0, count: n + 10)
                    for (j, b) in bytes.reversed().enumerated() { expect[j / 8] |= UInt(b) << UInt(8 * (j % 8)) }
                    var got = [UInt](repeating: 0xdead, count: n)
                    let ok = bytes.withUnsafeBytes { raw in
                        got.withUnsafeMutableBufferPointer { limbsFromBigEndian($0.baseAddress!, n, raw) }
                    }
                    XCTAssertEqual(ok, significant <= 8 * n, "n \(n) length \(length) zeros \(zeros)")
                    if ok { XCTAssertEqual(got, Array(expect[0..<n]), "n \(n) length \(length) zeros \(zeros)") }
                }
            }
        }
    }

    func testCurveConstants() {
        XCTAssertEqual(ECCurve.p256.bitCount, 256)
        XCTAssertEqual(ECCurve.p384.coordinateByteCount, 48)
        XCTAssertEqual(ECCurve.p521.coordinateByteCount, 66)
    }

    func testMalformedKeys() throws {
        for p in Self.params {
            let size = p.curve.coordinateByteCount
            let gx = hexBytes(p.gx)
            let gy = hexBytes(p.gy)
            XCTAssertNoThrow(try makeECKey(p.curve, [4] + gx + gy).get())
            var offCurve = gy
            offCurve[size - 1] ^= 1
            let cases: [(String, [UInt8])] = [
                ("empty", []),
                ("infinity 00", [0]),
                ("off curve", [4] + gx + offCurve),
                ("x = p", [4] + hexBytes(p.p) + gy),
                ("y = p", [4] + gx + hexBytes(p.p)),
                ("y + p does not fit", [4] + gx + [UInt8](repeating: 0xFF, count: size)),
                ("truncated", [4] + gx + gy.dropLast()),
                ("trailing byte", [4] + gx + gy + [0]),
                ("hybrid 06", [6] + gx + gy),
                ("hybrid 07", [7] + gx + gy),
                ("compressed, wrong length", [2] + gx + [0]),
                ("unknown form 05", [5] + gx + gy),
                ("other curve's size", [4] + [UInt8](repeating: 1, count: 2 * size + 2)),
                ("all zero", [4] + [UInt8](repeating: 0, count: 2 * size)),
            ]
            for (name, bytes) in cases {
                XCTAssertEqual(makeECKey(p.curve, bytes).failureValue, .malformedKey, "\(p.curve) \(name)")
            }
        }
        // x = 1 on P-256: 1 - 3 + b is not a square mod p (Euler's criterion, checked with
        // Python: pow(rhs, (p-1)/2, p) == p-1), so neither 02 nor 03 decodes; x = 5 is a point.
        var x1 = [UInt8](repeating: 0, count: 32)
        x1[31] = 1
        XCTAssertEqual(makeECKey(.p256, [2] + x1).failureValue, .malformedKey)
        XCTAssertEqual(makeECKey(.p256, [3] + x1).failureValue, .malformedKey)
        x1[31] = 5
        XCTAssertNotNil(try? makeECKey(.p256, [2] + x1).get())
        XCTAssertNotNil(try? makeECKey(.p256, [3] + x1).get())
    }

    func testCompressedGenerator() throws {
        for p in Self.params {
            let gy = hexBytes(p.gy)
            let prefix: UInt8 = gy.last! & 1 == 1 ? 3 : 2
            let key = try makeECKey(p.curve, [prefix] + hexBytes(p.gx)).get()
            XCTAssertEqual(key.x963Representation, [4] + hexBytes(p.gx) + gy, "\(p.curve)")
            // The other parity decodes to -G.
            let neg = try makeECKey(p.curve, [prefix ^ 1] + hexBytes(p.gx)).get()
            XCTAssertNotEqual(neg.x963Representation, key.x963Representation)
        }
    }

    /// With Q = G (private key 1) and k = 1, a valid signature is r = x(G) mod n, s = e + r
    /// (mod n) (SEC 1 §4.1.3: s = k^-1 (e + r d)); computed here from the curve constants, so
    /// an independent known-answer check of the whole path, including the r + n < p branch
    /// not being taken wrongly.
    func testKnownAnswerWithPrivateKeyOne() throws {
        for p in Self.params {
            let key = try generatorKey(p)
            let n = hexBytes(p.n)
            let r = hexBytes(p.gx)  // x(G) < n for all three curves
            var digest = [UInt8](repeating: 0, count: 32)
            digest[31] = 7  // e = 7
            // s = 7 + r (r + 7 < n: no reduction needed for these constants)
            var s = r
            var carry = 7
            for i in stride(from: s.count - 1, through: 0, by: -1) where carry != 0 {
                let v = Int(s[i]) + carry
                s[i] = UInt8(v & 0xFF)
                carry = v >> 8
            }
            XCTAssertNil(ecdsaCheck(key, r: r, s: s, digest: digest), "\(p.curve) known answer")
            XCTAssertNil(ecdsaCheck(key, sig: derSignature(r: r, s: s), digest: digest), "\(p.curve) DER")
            // Leading zero bytes in raw r/s are fine.
            XCTAssertNil(ecdsaCheck(key, r: [0, 0] + r, s: [0] + s, digest: digest))
            // Wrong digest, wrong s, r and s swapped.
            digest[31] = 8
            XCTAssertEqual(ecdsaCheck(key, r: r, s: s, digest: digest), .badSignature)
            digest[31] = 7
            var s2 = s
            s2[s2.count - 1] ^= 2
            XCTAssertEqual(ecdsaCheck(key, r: r, s: s2, digest: digest), .badSignature)
            XCTAssertEqual(ecdsaCheck(key, r: s, s: r, digest: digest), .badSignature)
            _ = n
        }
    }

    func testOutOfRangeScalars() throws {
        for p in Self.params {
            let key = try generatorKey(p)
            let n = hexBytes(p.n)
            var nPlus1 = n
            nPlus1[n.count - 1] &+= 1
            var nMinus1 = n
            nMinus1[n.count - 1] &-= 1
            let one: [UInt8] = [1]
            let digest = [UInt8](repeating: 0xAB, count: 32)
            for (name, r, s) in [
                ("r = 0", [UInt8(0)], one), ("s = 0", one, [UInt8(0)]),
                ("r = n", n, one), ("s = n", one, n),
                ("r = n + 1", nPlus1, one), ("s = n + 1", one, nPlus1),
                ("r huge", [UInt8](repeating: 0xFF, count: 200), one),
                ("s = 2^1000", one, [1] + [UInt8](repeating: 0, count: 125)),
            ] {
                XCTAssertEqual(
                    ecdsaCheck(key, r: r, s: s, digest: digest), .malformedSignature, "\(p.curve) raw \(name)")
                XCTAssertEqual(
                    ecdsaCheck(key, sig: derSignature(r: r, s: s), digest: digest), .malformedSignature,
                    "\(p.curve) DER \(name)")
            }
            // n - 1 is in range: a well-formed signature that does not verify.
            XCTAssertEqual(ecdsaCheck(key, r: nMinus1, s: nMinus1, digest: digest), .badSignature)
            XCTAssertEqual(ecdsaCheck(key, r: [], s: one, digest: digest), .malformedSignature, "empty r")
        }
    }

    func testMalformedDER() throws {
        let key = try generatorKey(Self.params[0])
        let digest = [UInt8](repeating: 1, count: 32)
        let good = derSignature(r: [0x12, 0x34], s: [0x56])
        XCTAssertEqual(ecdsaCheck(key, sig: good, digest: digest), .badSignature)  // well formed
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("trailing data", good + [0]),
            ("trailing element", [0x30, 0x0A] + Array(good[2...]) + [0x02, 0x01, 0x01]),
            ("only r", [0x30, 0x04, 0x02, 0x02, 0x12, 0x34]),
            ("SET instead of SEQUENCE", [0x31] + Array(good[1...])),
            ("long-form length", [0x30, 0x81, UInt8(good.count - 2)] + Array(good[2...])),
            ("indefinite length", [0x30, 0x80] + Array(good[2...]) + [0, 0]),
            ("length past the end", [0x30, 0x7F] + Array(good[2...])),
            ("4 GB length", [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF] + Array(good[2...])),
            ("negative r", [0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01]),
            ("non-minimal r", [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]),
            ("empty r", [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01]),
            ("r as OCTET STRING", [0x30, 0x06, 0x04, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("constructed INTEGER", [0x30, 0x08, 0x22, 0x03, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("high tag number", [0x1F, 0x10, 0x00]),
        ]
        for (name, sig) in cases {
            XCTAssertEqual(ecdsaCheck(key, sig: sig, digest: digest), .malformedSignature, name)
        }
        // Random garbage: typed errors only, no trap.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...80, using: &rng)
            var sig = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if count > 2, Bool.random(using: &rng) {
                sig[0] = 0x30
                sig[1] = UInt8(count - 2)
            }
            let e = ecdsaCheck(key, sig: sig, digest: digest)
            XCTAssertTrue(e == .malformedSignature || e == .badSignature, "\(sig)")
        }
    }

    /// Odd digest lengths are accepted (truncated or zero-extended per SEC 1 §4.1.4 step 3),
    /// never a trap.
    func testDigestLengths() throws {
        for p in Self.params {
            let key = try generatorKey(p)
            for len in [0, 1, 20, 28, 32, 48, 64, 65, 66, 67, 200] {
                let d = [UInt8](repeating: 0x5A, count: len)
                XCTAssertEqual(ecdsaCheck(key, r: [1], s: [1], digest: d), .badSignature, "\(p.curve) digest \(len)")
            }
        }
    }

    /// Random keys and signatures from Python `cryptography` (OpenSSL underneath), including
    /// compressed key encodings and pre-hashed digests of every SHA-2 size on every curve.
    func testCrossCheckWithPythonCryptography() throws {
        let script = """
            import sys, os, hashlib
            try:
                from cryptography.hazmat.primitives.asymmetric import ec, utils
                from cryptography.hazmat.primitives import hashes, serialization
            except Exception:
                sys.exit(3)
            curves = {'p256': ec.SECP256R1(), 'p384': ec.SECP384R1(), 'p521': ec.SECP521R1()}
            hs = {'sha224': hashes.SHA224(), 'sha256': hashes.SHA256(), 'sha384': hashes.SHA384(), 'sha512': hashes.SHA512()}
            for cname, curve in curves.items():
                for i in range(6):
                    k = ec.generate_private_key(curve)
                    pub = k.public_key()
                    unc = pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint).hex()
                    comp = pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint).hex()
                    for hname, h in hs.items():
                        digest = hashlib.new(hname, os.urandom(40)).digest()
                        sig = k.sign(digest, ec.ECDSA(utils.Prehashed(h)))
                        r, s = utils.decode_dss_signature(sig)
                        print(cname, unc, comp, digest.hex(), sig.hex(), '%x' % r, '%x' % s)
            """
        guard let out = runTool("/usr/bin/env", ["python3", "-c", script]) else {
            print(
                "SKIPPED testCrossCheckWithPythonCryptography: python3 with the cryptography package is not available")
            return
        }
        var count = 0
        for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            guard f.count == 7 else { continue }
            let curve: ECCurve = f[0] == "p256" ? .p256 : f[0] == "p384" ? .p384 : .p521
            func bytes(_ h: String) -> [UInt8] { hexBytes(h.count % 2 == 1 ? "0" + h : h) }
            let key = try makeECKey(curve, hexBytes(f[1])).get()
            let compressed = try makeECKey(curve, hexBytes(f[2])).get()
            XCTAssertEqual(compressed.x963Representation, hexBytes(f[1]), "decompression")
            let digest = hexBytes(f[3])
            let sig = hexBytes(f[4])
            XCTAssertNil(ecdsaCheck(key, sig: sig, digest: digest), "\(line)")
            XCTAssertNil(ecdsaCheck(compressed, sig: sig, digest: digest), "\(line)")
            XCTAssertNil(ecdsaCheck(key, r: bytes(f[5]), s: bytes(f[6]), digest: digest), "\(line)")
            var bad = digest
            bad[0] ^= 0x10  // leftmost bits: the part that survives truncation to the order size
            XCTAssertEqual(ecdsaCheck(key, sig: sig, digest: bad), .badSignature, "\(line)")
            count += 1
        }
        XCTAssertEqual(count, 3 * 6 * 4)
    }

    /// Verification from many threads at once (the base-point tables are built lazily).
    func testConcurrentVerification() throws {
        let keys = try Self.params.map { try generatorKey($0) }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let key = keys[i % 3]
            XCTAssertEqual(ecdsaCheck(key, r: [1], s: [2], digest: [3]), .badSignature)
        }
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
