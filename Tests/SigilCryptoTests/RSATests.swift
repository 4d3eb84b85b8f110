import Foundation
import XCTest

@testable import SigilCrypto

private func hashFromName(_ s: String) -> HashAlgorithm? {
    switch s.uppercased().replacingOccurrences(of: "-", with: "") {
    case "SHA1": return .sha1
    case "SHA224": return .sha224
    case "SHA256": return .sha256
    case "SHA384": return .sha384
    case "SHA512": return .sha512
    default: return nil
    }
}

final class RSAWycheproofTests: XCTestCase {
    struct Tally { var valid = 0, invalid = 0, acceptable = 0 }

    private func load(_ file: String) -> [String: Any]? {
        guard let data = Vectors.load("wycheproof/" + file, test: file) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private func key(for group: [String: Any], file: String) throws -> RSAPublicKey {
        let der = hexBytes(group["publicKeyAsn"] as! String)
        let k = try RSAPublicKey(pkcs1DER: der)
        // The same key from its modulus / exponent fields must be identical.
        let pk = group["publicKey"] as! [String: Any]
        let k2 = try RSAPublicKey(
            modulus: hexBytes(pk["modulus"] as! String),
            exponent: hexBytes(pk["publicExponent"] as! String))
        XCTAssertEqual(k, k2, file)
        XCTAssertEqual(k.bitCount, group["keySize"] as? Int, file)
        return k
    }

    /// RSASSA-PKCS1-v1_5: every `valid` verifies, every `invalid` is rejected.
    ///
    /// `acceptable` cases: the only one in these files is flagged `MissingNull` (DigestInfo whose
    /// AlgorithmIdentifier omits the NULL parameters). RFC 8017 §9.2 note 1 / Appendix A.2.4 give
    /// the encoding with NULL, and encode-and-compare (§8.2.2 step 3–4) builds exactly that one,
    /// so Sigil rejects it (as BoringSSL and Go do). Any other `acceptable` case fails the test so
    /// that a new kind is looked at, not silently decided.
    /// RSAVP1 (s^e mod n) of one signature with every Montgomery kernel this CPU runs: the
    /// verdicts above come from the preferred kernel only (AVX-512 IFMA where present), so the
    /// others (MULX/ADX, GMP) must give the same value on every Wycheproof signature that is in
    /// range. Returns how many kernels were compared.
    @discardableResult
    private func assertKernelsAgree(_ key: RSAPublicKey, _ sig: [UInt8], _ what: String) -> Int {
        let m = key.modulus
        let n = m.count
        guard sig.count == key.modulusByteCount else { return 0 }
        let area = MontgomeryModulus.scratchCount(n)
        var s = [UInt](repeating: 0, count: n)
        s.withUnsafeMutableBufferPointer { sb in
            sig.withUnsafeBytes { limbsFromBigEndian($0, sb.baseAddress!, n) }
        }
        guard s.withUnsafeBufferPointer({ m.isReduced($0.baseAddress!) }) else { return 0 }
        var results: [(MontgomeryKernel, [UInt])] = []
        for kernel in MontgomeryKernel.allCases where kernel.isAvailable {
            var out = [UInt](repeating: 0, count: n)
            var product = [UInt](repeating: 0, count: area)
            var work = [UInt](repeating: 0, count: area)
            s.withUnsafeBufferPointer { sp in
                m.modPow(sp.baseAddress!, &out, product: &product, work: &work, kernel: kernel)
            }
            results.append((kernel, out))
        }
        for (kernel, out) in results.dropFirst() where out != results[0].1 {
            XCTFail("\(what): RSAVP1 differs between \(results[0].0) and \(kernel)")
        }
        return results.count
    }

    private func runPKCS1(_ file: String) throws {
        guard let json = load(file) else { return }
        var t = Tally()
        var kernels = 0
        for group in json["testGroups"] as! [[String: Any]] {
            let key = try key(for: group, file: file)
            let hash = hashFromName(group["sha"] as! String)!
            for test in group["tests"] as! [[String: Any]] {
                let id = test["tcId"] as! Int
                let msg = hexBytes(test["msg"] as! String)
                let sig = hexBytes(test["sig"] as! String)
                let result = test["result"] as! String
                let flags = test["flags"] as? [String] ?? []
                var accepted = true
                var error: CryptoError? = nil
                kernels = max(kernels, assertKernelsAgree(key, sig, "\(file) tcId \(id)"))
                do { try key.verifyPKCS1v15(signature: sig, message: msg, hash: hash) } catch let e {
                    accepted = false
                    error = e
                }
                switch result {
                case "valid":
                    XCTAssertTrue(
                        accepted, "\(file) tcId \(id) valid but rejected: \(String(describing: error)) \(flags)")
                    t.valid += 1
                case "invalid":
                    XCTAssertFalse(accepted, "\(file) tcId \(id) invalid but accepted \(flags)")
                    t.invalid += 1
                default:
                    XCTAssertEqual(flags, ["MissingNull"], "\(file) tcId \(id): undocumented acceptable case")
                    XCTAssertFalse(accepted, "\(file) tcId \(id) MissingNull: Sigil rejects (documented)")
                    t.acceptable += 1
                }
            }
        }
        XCTAssertEqual(t.valid + t.invalid + t.acceptable, json["numberOfTests"] as? Int, file)
        print(
            "\(file): \(t.valid) valid accepted, \(t.invalid) invalid rejected, \(t.acceptable) acceptable (MissingNull) rejected; RSAVP1 equal on \(kernels) kernels"
        )
    }

    func testPKCS1_2048_SHA256() throws { try runPKCS1("rsa_signature_2048_sha256_test.json") }
    func testPKCS1_2048_SHA384() throws { try runPKCS1("rsa_signature_2048_sha384_test.json") }
    func testPKCS1_2048_SHA512() throws { try runPKCS1("rsa_signature_2048_sha512_test.json") }
    func testPKCS1_3072_SHA256() throws { try runPKCS1("rsa_signature_3072_sha256_test.json") }
    func testPKCS1_3072_SHA384() throws { try runPKCS1("rsa_signature_3072_sha384_test.json") }
    func testPKCS1_3072_SHA512() throws { try runPKCS1("rsa_signature_3072_sha512_test.json") }
    func testPKCS1_4096_SHA256() throws { try runPKCS1("rsa_signature_4096_sha256_test.json") }
    func testPKCS1_4096_SHA384() throws { try runPKCS1("rsa_signature_4096_sha384_test.json") }
    func testPKCS1_4096_SHA512() throws { try runPKCS1("rsa_signature_4096_sha512_test.json") }

    /// RSASSA-PSS with the hash, MGF1 hash and salt length each test group states.
    /// These files have no `acceptable` cases; if one appears the test fails.
    private func runPSS(_ file: String) throws {
        guard let json = load(file) else { return }
        var t = Tally()
        for group in json["testGroups"] as! [[String: Any]] {
            let key = try key(for: group, file: file)
            XCTAssertEqual(group["mgf"] as? String, "MGF1")
            let hash = hashFromName(group["sha"] as! String)!
            let mgfHash = hashFromName(group["mgfSha"] as! String)!
            let sLen = group["sLen"] as! Int
            for test in group["tests"] as! [[String: Any]] {
                let id = test["tcId"] as! Int
                let msg = hexBytes(test["msg"] as! String)
                let sig = hexBytes(test["sig"] as! String)
                let result = test["result"] as! String
                assertKernelsAgree(key, sig, "\(file) tcId \(id)")
                var accepted = true
                do {
                    try key.verifyPSS(signature: sig, message: msg, hash: hash, mgf1Hash: mgfHash, saltLength: sLen)
                } catch { accepted = false }
                switch result {
                case "valid":
                    XCTAssertTrue(accepted, "\(file) tcId \(id)")
                    t.valid += 1
                case "invalid":
                    XCTAssertFalse(accepted, "\(file) tcId \(id)")
                    t.invalid += 1
                default: XCTFail("\(file) tcId \(id): unexpected result \(result)")
                }
                if result == "valid" {
                    // With the salt length left free, the same signature still verifies...
                    XCTAssertNoThrow(
                        try key.verifyPSS(signature: sig, message: msg, hash: hash, mgf1Hash: mgfHash, saltLength: nil))
                    // ...but not with another required length.
                    XCTAssertThrowsError(
                        try key.verifyPSS(
                            signature: sig, message: msg, hash: hash, mgf1Hash: mgfHash, saltLength: sLen + 1))
                }
            }
        }
        XCTAssertEqual(t.valid + t.invalid, json["numberOfTests"] as? Int, file)
        print("\(file): \(t.valid) valid accepted, \(t.invalid) invalid rejected")
    }

    func testPSS_2048_SHA256_32() throws { try runPSS("rsa_pss_2048_sha256_mgf1_32_test.json") }
    func testPSS_2048_SHA384_48() throws { try runPSS("rsa_pss_2048_sha384_mgf1_48_test.json") }
    func testPSS_3072_SHA256_32() throws { try runPSS("rsa_pss_3072_sha256_mgf1_32_test.json") }
    func testPSS_4096_SHA512_64() throws { try runPSS("rsa_pss_4096_sha512_mgf1_64_test.json") }

    /// NIST CAVP FIPS 186-3 SigVer PKCS#1 v1.5: `Result = P` verifies, `F` is rejected (either by
    /// verification or because the key itself is refused).
    func testNISTSigVer15() throws {
        guard let data = Vectors.load("nist/SigVer15_186-3.rsp") else { return }
        var n: [UInt8] = []
        var pass = 0
        var fail = 0
        for r in Vectors.rsp(data) {
            if let nh = r["n"] { n = hexBytes(nh) }
            guard let alg = r["SHAAlg"], let result = r["Result"] else { continue }
            let hash = hashFromName(alg)!
            let e = hexBytes(r["e"]!)
            let msg = hexBytes(r["Msg"]!)
            let sig = hexBytes(r["S"]!)
            var accepted = false
            if let key = try? RSAPublicKey(modulus: n, exponent: e) {
                accepted = (try? key.verifyPKCS1v15(signature: sig, message: msg, hash: hash)) != nil
            }
            if result.hasPrefix("P") {
                XCTAssertTrue(accepted, "NIST P case rejected: \(alg) n=\(n.count * 8) bits")
                pass += 1
            } else {
                XCTAssertFalse(accepted, "NIST F case accepted: \(alg) \(result)")
                fail += 1
            }
        }
        XCTAssertEqual(pass + fail, 450)
        print("SigVer15_186-3.rsp: \(pass) P accepted, \(fail) F rejected")
    }
}

/// A real 2048-bit key (Wycheproof's), as PKCS#1 DER, for the malformed-input checks.
let wycheproofKey2048: [UInt8] = hexBytes(
    "3082010a0282010100a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d50203010001"
)

final class RSAKeyAndInputTests: XCTestCase {
    let der2048: [UInt8] = wycheproofKey2048

    private func expect(
        _ error: CryptoError, _ body: () throws -> Void, _ msg: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            try body()
            XCTFail("no error: \(msg)", file: file, line: line)
        } catch let e as CryptoError {
            XCTAssertEqual(e, error, msg, file: file, line: line)
        } catch { XCTFail("unexpected \(error)", file: file, line: line) }
    }

    func testKeyProperties() throws {
        let key = try RSAPublicKey(pkcs1DER: der2048)
        XCTAssertEqual(key.bitCount, 2048)
        XCTAssertEqual(key.modulusByteCount, 256)
        XCTAssertEqual(key.exponentBigEndian, [1, 0, 1])
        XCTAssertEqual(key.modulusBigEndian, Array(der2048[9..<265]))
        // Leading zeros in raw modulus/exponent bytes are ignored.
        let k2 = try RSAPublicKey(modulus: [0, 0] + key.modulusBigEndian, exponent: [0, 0, 0, 1, 0, 1])
        XCTAssertEqual(k2, key)
    }

    func testMalformedKeys() throws {
        let key = try RSAPublicKey(pkcs1DER: der2048)
        let n = key.modulusBigEndian
        // DER problems: trailing byte, truncated, wrong tag, negative modulus, empty.
        expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: self.der2048 + [0]) }, "trailing data")
        expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: Array(self.der2048.dropLast())) }, "truncated")
        expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: [0x31] + self.der2048.dropFirst()) }, "SET")
        expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: []) }, "empty")
        var neg = der2048
        neg.remove(at: 8)
        neg[7] = 0x00
        neg[3] = 0x09  // drop the 0x00 pad: modulus becomes negative
        expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: neg) }, "negative modulus")
        // Exponent: even, 1, 0, equal to n, larger than n.
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: [1, 0, 0]) }, "even e")
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: [1]) }, "e = 1")
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: [0]) }, "e = 0")
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: []) }, "no e")
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: n) }, "e = n")
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: n, exponent: [1] + n) }, "e > n")
        // Modulus: even, too small (1023 bits), too large (16385 bits, and 1 MB).
        var even = n
        even[even.count - 1] &= 0xFE
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: even, exponent: [1, 0, 1]) }, "even n")
        let small = [UInt8](repeating: 0xFF, count: 128)
        var small1023 = small
        small1023[0] = 0x7F
        XCTAssertNoThrow(try RSAPublicKey(modulus: small, exponent: [3]))
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: small1023, exponent: [3]) }, "1023 bits")
        var big = [UInt8](repeating: 0xFF, count: 2049)
        big[0] = 0x01  // 16385 bits
        expect(.malformedKey, { _ = try RSAPublicKey(modulus: big, exponent: [3]) }, "16385 bits")
        XCTAssertNoThrow(try RSAPublicKey(modulus: Array(big.dropFirst()), exponent: [3]), "16384 bits accepted")
        // Above 3072 bits, e is limited to 64 bits (work cap); 64 bits is still accepted.
        let n4096 = [UInt8](repeating: 0xFF, count: 512)
        XCTAssertNoThrow(try RSAPublicKey(modulus: n4096, exponent: [0x80, 0, 0, 0, 0, 0, 0, 1]))
        expect(
            .malformedKey, { _ = try RSAPublicKey(modulus: n4096, exponent: [1, 0, 0, 0, 0, 0, 0, 0, 1]) },
            "65-bit e, 4096-bit n")
        XCTAssertNoThrow(
            try RSAPublicKey(
                modulus: [UInt8](repeating: 0xFF, count: 384), exponent: [UInt8](repeating: 0x11, count: 300)))
        let clock = ContinuousClock()
        let huge = [UInt8](repeating: 0xFF, count: 1 << 20)
        let elapsed = clock.measure {
            expect(.malformedKey, { _ = try RSAPublicKey(modulus: huge, exponent: [1, 0, 1]) }, "8 Mbit")
            var hugeDER: [UInt8] = [0x30, 0x83, 0x10, 0x00, 0x08, 0x02, 0x83, 0x10, 0x00, 0x00]
            hugeDER += [UInt8](repeating: 0x7F, count: 0x100000 - 4)
            expect(.malformedKey, { _ = try RSAPublicKey(pkcs1DER: hugeDER) }, "1 MB DER")
        }
        XCTAssertLessThan(elapsed, .milliseconds(200), "huge inputs must be refused quickly")
    }

    func testMalformedSignatures() throws {
        let key = try RSAPublicKey(pkcs1DER: der2048)
        let n = key.modulusBigEndian
        let digest = [UInt8](repeating: 0, count: 32)
        for bad in [[UInt8](repeating: 1, count: 255), [UInt8](repeating: 1, count: 257), [], [0] + n] {
            expect(
                .malformedSignature, { try key.verifyPKCS1v15(signature: bad, digest: digest, hash: .sha256) },
                "length \(bad.count)")
            expect(
                .malformedSignature,
                { try key.verifyPSS(signature: bad, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: 32) })
        }
        // s = n and s = 2^2048 - 1 are out of range (RFC 8017 §5.2.2 step 1).
        for bad in [n, [UInt8](repeating: 0xFF, count: 256)] {
            expect(.malformedSignature, { try key.verifyPKCS1v15(signature: bad, digest: digest, hash: .sha256) })
            expect(
                .malformedSignature,
                { try key.verifyPSS(signature: bad, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: nil) }
            )
        }
        // s = 0, 1, n − 1: in range, but no valid encoding.
        var nMinus1 = n
        nMinus1[255] -= 1
        for s in [[UInt8](repeating: 0, count: 256), [UInt8](repeating: 0, count: 255) + [1], nMinus1] {
            expect(.badSignature, { try key.verifyPKCS1v15(signature: s, digest: digest, hash: .sha256) })
            expect(
                .badSignature,
                { try key.verifyPSS(signature: s, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: nil) })
        }
        // Absurd salt lengths are simply inconsistent (no arithmetic overflow).
        let sig = [UInt8](repeating: 1, count: 256)
        expect(
            .badSignature,
            { try key.verifyPSS(signature: sig, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: Int.max) }
        )
        expect(
            .badSignature,
            { try key.verifyPSS(signature: sig, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: 223) })
        expect(
            .unsupportedAlgorithm,
            { try key.verifyPSS(signature: sig, digest: digest, hash: .sha256, mgf1Hash: .sha256, saltLength: -1) })
        // Digest of the wrong length never matches.
        expect(
            .badSignature,
            { try key.verifyPKCS1v15(signature: [UInt8](repeating: 1, count: 256), digest: [1, 2, 3], hash: .sha256) })
    }

    /// The costliest inputs the key limits allow still finish quickly: a 16384-bit modulus with
    /// a 64-bit exponent, and a 3072-bit modulus with a 3071-bit exponent.
    func testWorstCaseWorkIsBounded() throws {
        let clock = ContinuousClock()
        let n16k = [UInt8](repeating: 0xFF, count: 2048)
        let big = try RSAPublicKey(modulus: n16k, exponent: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(big.bitCount, 16384)
        let n3k = [UInt8](repeating: 0xFF, count: 384)
        var e3k = [UInt8](repeating: 0xFF, count: 384)
        e3k[0] = 0x7F
        let wide = try RSAPublicKey(modulus: n3k, exponent: e3k)
        let elapsed = try clock.measure {
            XCTAssertThrowsError(
                try big.verifyPKCS1v15(
                    signature: [UInt8](repeating: 0x5A, count: 2048), digest: [UInt8](repeating: 0, count: 64),
                    hash: .sha512))
            XCTAssertThrowsError(
                try big.verifyPSS(
                    signature: [UInt8](repeating: 0x5A, count: 2048), digest: [UInt8](repeating: 0, count: 64),
                    hash: .sha512, mgf1Hash: .sha512, saltLength: nil))
            XCTAssertThrowsError(
                try wide.verifyPKCS1v15(
                    signature: [UInt8](repeating: 0x5A, count: 384), digest: [UInt8](repeating: 0, count: 32),
                    hash: .sha256))
        }
        print("worst-case RSA inputs: \(elapsed)")
        XCTAssertLessThan(elapsed, .seconds(2))
    }

    /// Cross-check with Python `cryptography` (OpenSSL underneath): keys of unusual sizes (not a
    /// multiple of 8 bits, so PSS's emLen = k − 1 path runs), e = 3 and a large exponent, every
    /// hash, PSS with several salt lengths including 0 and a different MGF1 hash.
    func testAgainstPythonCryptography() throws {
        let script = #"""
            import json, os, sys
            from cryptography.hazmat.primitives.asymmetric import rsa, padding
            from cryptography.hazmat.primitives import hashes
            H = {"sha1": hashes.SHA1(), "sha224": hashes.SHA224(), "sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}
            out = []
            for req, e in [(1024, 65537), (1025, 3), (1033, 65537), (2049, 65537), (2048, 3), (3072, 65537)]:
                k = rsa.generate_private_key(public_exponent=e, key_size=req)
                pn = k.public_key().public_numbers()
                bits = pn.n.bit_length()
                n = pn.n.to_bytes((pn.n.bit_length() + 7) // 8, "big").hex()
                for h in H:
                    msg = os.urandom(37 + bits % 50)
                    s = k.sign(msg, padding.PKCS1v15(), H[h])
                    out.append(dict(n=n, e="%x" % pn.e if len("%x" % pn.e) % 2 == 0 else "0%x" % pn.e, bits=bits, scheme="pkcs1", hash=h, msg=msg.hex(), sig=s.hex()))
                    for salt, mgf in [(0, h), (20, h), (32, "sha1"), (padding.PSS.MAX_LENGTH, h)]:
                        s = k.sign(msg, padding.PSS(mgf=padding.MGF1(H[mgf]), salt_length=salt), H[h])
                        sl = salt if salt != padding.PSS.MAX_LENGTH else ((bits - 1 + 7) // 8) - H[h].digest_size - 2
                        out.append(dict(n=n, e="%x" % pn.e if len("%x" % pn.e) % 2 == 0 else "0%x" % pn.e, bits=bits, scheme="pss", hash=h, mgf=mgf, salt=sl, msg=msg.hex(), sig=s.hex()))
            # A large public exponent (2000 bits), signed with plain Python integers (RFC 8017 §9.2 by hand).
            import hashlib, math, secrets
            k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pr = k.private_numbers(); p, q = pr.p, pr.q; n = p * q; phi = (p - 1) * (q - 1)
            while True:
                e = secrets.randbits(2000) | 1 | (1 << 1999)
                if math.gcd(e, phi) == 1: break
            d = pow(e, -1, phi)
            msg = os.urandom(100)
            T = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(msg).digest()
            em = b"\x00\x01" + b"\xff" * (256 - len(T) - 3) + b"\x00" + T
            sig = pow(int.from_bytes(em, "big"), d, n).to_bytes(256, "big")
            eh = "%x" % e
            out.append(dict(n=n.to_bytes(256, "big").hex(), e=eh if len(eh) % 2 == 0 else "0" + eh, bits=n.bit_length(), scheme="pkcs1", hash="sha256", msg=msg.hex(), sig=sig.hex()))
            print(json.dumps(out))
            """#
        guard let out = runTool("/usr/bin/python3", ["-c", script]) else {
            print("SKIPPED testAgainstPythonCryptography: python3 with cryptography not available")
            return
        }
        let cases = try JSONSerialization.jsonObject(with: out) as! [[String: Any]]
        XCTAssertGreaterThan(cases.count, 100)
        for c in cases {
            let e = c["e"] as! String
            let eBytes = hexBytes(e)
            let key = try RSAPublicKey(modulus: hexBytes(c["n"] as! String), exponent: eBytes)
            XCTAssertEqual(key.bitCount, c["bits"] as! Int)
            let hash = hashFromName(c["hash"] as! String)!
            let msg = hexBytes(c["msg"] as! String)
            var sig = hexBytes(c["sig"] as! String)
            let label = "\(c["scheme"]!) \(c["bits"]!) e=\(e) \(c["hash"]!) salt=\(c["salt"] ?? "-")"
            func verify(_ m: [UInt8], _ s: [UInt8]) throws {
                if c["scheme"] as! String == "pkcs1" {
                    try key.verifyPKCS1v15(signature: s, message: m, hash: hash)
                } else {
                    try key.verifyPSS(
                        signature: s, message: m, hash: hash, mgf1Hash: hashFromName(c["mgf"] as! String)!,
                        saltLength: c["salt"] as? Int)
                }
            }
            XCTAssertNoThrow(try verify(msg, sig), label)
            var m2 = msg
            m2[0] ^= 1
            XCTAssertThrowsError(try verify(m2, sig), label)
            sig[sig.count / 2] ^= 0x40
            XCTAssertThrowsError(try verify(msg, sig), label)
        }
    }
}

final class RSARobustnessTests: XCTestCase {
    /// Random mutations of a valid PKCS#1 key and random signatures: only typed errors, no trap.
    func testMutatedInputsNeverTrap() throws {
        let der = wycheproofKey2048
        var rng = SystemRandomNumberGenerator()
        var accepted = 0
        var refused = 0
        for _ in 0..<3000 {
            var m = der
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    if !m.isEmpty {
                        m[Int.random(in: 0..<m.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    }
                case 1: if m.count > 1 { m.remove(at: Int.random(in: 0..<m.count, using: &rng)) }
                case 2: m.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...m.count, using: &rng))
                default: m = Array(m.prefix(Int.random(in: 0...m.count, using: &rng)))
                }
            }
            do {
                let key = try RSAPublicKey(pkcs1DER: m)
                accepted += 1
                let sig = (0..<key.modulusByteCount).map { _ in UInt8.random(in: 0...255, using: &rng) }
                XCTAssertThrowsError(
                    try key.verifyPKCS1v15(signature: sig, digest: [UInt8](repeating: 0, count: 32), hash: .sha256))
                XCTAssertThrowsError(
                    try key.verifyPSS(
                        signature: sig, digest: [UInt8](repeating: 0, count: 48), hash: .sha384, mgf1Hash: .sha1,
                        saltLength: nil))
            } catch {
                refused += 1
            }
        }
        print("mutated keys: \(accepted) still well-formed, \(refused) refused")
        XCTAssertGreaterThan(refused, 0)
    }

    /// Keys and the SHA engines are safe to use from many threads at once.
    func testConcurrentVerification() throws {
        guard let data = Vectors.load("wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json") else { return }
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let group = (json["testGroups"] as! [[String: Any]])[0]
        let key = try RSAPublicKey(pkcs1DER: hexBytes(group["publicKeyAsn"] as! String))
        let valid = (group["tests"] as! [[String: Any]]).filter { $0["result"] as? String == "valid" }
            .map { (hexBytes($0["msg"] as! String), hexBytes($0["sig"] as! String)) }
        let failures = LockedCounter(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for (msg, sig) in valid {
                if (try? key.verifyPSS(signature: sig, message: msg, hash: .sha256, mgf1Hash: .sha256, saltLength: 32))
                    == nil
                {
                    failures.add(1)
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }
}

/// A tiny lock-protected counter for the concurrency test.
final class LockedCounter<T: Numeric>: @unchecked Sendable {
    private var v: T
    private let lock = NSLock()
    init(_ v: T) { self.v = v }
    func add(_ d: T) {
        lock.lock()
        v += d
        lock.unlock()
    }
    var value: T {
        lock.lock()
        defer { lock.unlock() }
        return v
    }
}
