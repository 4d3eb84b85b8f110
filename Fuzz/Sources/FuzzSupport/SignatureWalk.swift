// FuzzSignature: RSA (PKCS #1 v1.5, PSS), ECDSA and EdDSA (Ed25519, Ed448) verification with
// fuzzed keys, signatures, algorithms and messages.
//
// Input: mode byte (bit 0), then
// - mode 0 (mutation oracle): a fixture triple (child TBS, signature, algorithm; issuer key)
//   chosen by the next byte; the next byte picks what to mutate (TBS, signature, key bytes,
//   AlgorithmIdentifier DER, re-parsed), then edits of 4 bytes each (op, offset hi, offset lo, value): set / insert /
//   truncate / xor. Oracle: verified exactly when nothing changed (for the key: when the
//   mutated bytes decode to the same key, e.g. the compressed form of the same EC point).
// - mode 1 (raw): key algorithm picked by a byte, then chunks: the signature
//   AlgorithmIdentifier DER (parsed by Sigil's certificate parser through a template
//   certificate), key bytes, signature, message (the rest). Runs
//   CertificateSignature.verify and the key types' own verify with the message as a digest.
//   For 32- and 57-byte keys, Ed25519 / Ed448 verification directly too (the EdDSA fixture
//   triples come from Fixtures/eddsa/).
//   Never traps; never runs long (the library's caps: RSA ≤ 16384 bits, e ≤ 64 bits above
//   3072, key DER ≤ 4096 bytes).

import SigilCrypto
import SigilDER
@_spi(SigilInternal) import SigilTrust
import SigilX509

public enum SignatureWalk {
    public struct Triple: Sendable {
        public let name: String
        public let tbs: [UInt8]
        public let signature: [UInt8]
        public let algorithm: SignatureAlgorithm
        /// The certificate's AlgorithmIdentifier DER (what mode 0 mutates for "algorithm").
        public let algorithmDER: [UInt8]
        public let keyAlgorithm: PublicKeyAlgorithm
        public let key: [UInt8]
    }

    /// Every (certificate, issuer) pair of the fixtures whose signature verifies.
    public static let triples: [Triple] = {
        let certs = FuzzFixtures.shared.certificates
        var out: [Triple] = []
        for (name, c) in certs {
            for (_, i) in certs where c.issuer.matchesForChaining(i.subject) {
                guard CertificateSignature.verify(c, issuer: i) == .verified else { continue }
                out.append(
                    Triple(
                        name: name, tbs: c.tbsCertificate.array, signature: c.signature.array,
                        algorithm: c.signatureAlgorithm, algorithmDER: c.signatureAlgorithmIdentifier.array,
                        keyAlgorithm: i.publicKeyAlgorithm,
                        key: i.publicKeyBytes.array))
            }
        }
        out += eddsaTriples()
        if out.isEmpty { fatalError("SignatureWalk: no verifying fixture pair") }
        return out
    }()

    /// The EdDSA chains of Fixtures/eddsa/<alg>/ (made by Fixtures/scripts/gen_eddsa.py): root
    /// by itself, intermediate by root, leaf by intermediate.
    static func eddsaTriples() -> [Triple] {
        guard let certs = FuzzFixtures.certsDirectory() else { return [] }
        let base = String(certs.dropLast("certs".count)) + "eddsa"
        var out: [Triple] = []
        for alg in ["ed25519", "ed448"] {
            func load(_ name: String) -> Certificate? {
                guard let der = FuzzFiles.read(base + "/" + alg + "/" + name + ".der") else { return nil }
                return try? Certificate(der: der)
            }
            guard let root = load("root"), let int = load("intermediate"), let leaf = load("leaf") else { continue }
            for (name, c, i) in [("root", root, root), ("intermediate", int, root), ("leaf", leaf, int)] {
                guard CertificateSignature.verify(c, issuer: i) == .verified else { continue }
                out.append(
                    Triple(
                        name: "eddsa/\(alg)/\(name)", tbs: c.tbsCertificate.array, signature: c.signature.array,
                        algorithm: c.signatureAlgorithm, algorithmDER: c.signatureAlgorithmIdentifier.array,
                        keyAlgorithm: i.publicKeyAlgorithm, key: i.publicKeyBytes.array))
            }
        }
        return out
    }

    /// The key algorithms of mode 1: the fixtures' (RSA, PSS-restricted RSA, EC curves,
    /// EdDSA) and the other cases.
    static let keyAlgorithms: [PublicKeyAlgorithm] = {
        var out: [PublicKeyAlgorithm] = [
            .rsa, .rsaPSS(nil), .ec(.p256), .ec(.p384), .ec(.p521), .ec(.other),
            .ecExplicitParameters, .ed25519, .ed448, .unknown,
        ]
        for (_, c) in FuzzFixtures.shared.certificates where !out.contains(c.publicKeyAlgorithm) {
            out.append(c.publicKeyAlgorithm)
        }
        return out
    }()

    /// A fuzzed AlgorithmIdentifier: parsed by Sigil's own certificate parser (the DER is put
    /// in both signature fields of a template certificate); nil when it does not parse.
    static func algorithm(_ der: [UInt8]) -> SignatureAlgorithm? {
        NamesWalk.signatureAlgorithm(fromDER: der)
    }

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        if input.byte() & 1 == 0 { mutation(&input) } else { raw(&input) }
    }

    static func verify(
        _ alg: SignatureAlgorithm, _ signed: [UInt8], _ sig: [UInt8], _ keyAlg: PublicKeyAlgorithm,
        _ key: [UInt8]
    ) -> CertificateSignature.Outcome {
        signed.withUnsafeBytes { m in
            sig.withUnsafeBytes { s in
                key.withUnsafeBytes { k in
                    CertificateSignature.verify(algorithm: alg, signed: m, signature: s, keyAlgorithm: keyAlg, key: k)
                }
            }
        }
    }

    static func mutation(_ input: inout FuzzChunks) {
        let t = triples[Int(input.byte()) % triples.count]
        let what = input.byte() % 4
        var tbs = t.tbs
        var sig = t.signature
        var key = t.key
        var alg = t.algorithm
        do {
            var target = what == 0 ? tbs : what == 1 ? sig : what == 2 ? key : t.algorithmDER
            var edits = 0
            while !input.isAtEnd && edits < 64 {
                edits += 1
                let op = input.byte()
                let hi = input.byte()
                let lo = input.byte()
                let value = input.byte()
                let offset = (Int(hi) << 8 | Int(lo))
                switch op % 4 {
                case 0: if !target.isEmpty { target[offset % target.count] = value }
                case 1: target.insert(value, at: offset % (target.count + 1))
                case 2: target.removeLast(min(target.count, offset % 64 + 1))
                default: if !target.isEmpty { target[offset % target.count] ^= value }
                }
            }
            switch what {
            case 0: tbs = target
            case 1: sig = target
            case 2: key = target
            default:
                guard let a = algorithm(target) else { return }
                alg = a
            }
        }
        let outcome = verify(alg, tbs, sig, t.keyAlgorithm, key)
        let unchanged = tbs == t.tbs && sig == t.signature && key == t.key && alg == t.algorithm
        if unchanged {
            oracle(outcome == .verified, "fixture triple \(t.name) does not verify: \(outcome)")
        } else if outcome == .verified {
            // The only acceptable "verified" after a mutation: the key bytes changed but encode
            // the same key (an EC point in compressed form).
            oracle(
                tbs == t.tbs && sig == t.signature && alg == t.algorithm && sameKey(t.keyAlgorithm, key, t.key),
                "mutated triple of \(t.name) verifies (mutated: \(["tbs", "signature", "key", "algorithm"][Int(what)]))"
            )
        }
    }

    static func sameKey(_ alg: PublicKeyAlgorithm, _ a: [UInt8], _ b: [UInt8]) -> Bool {
        switch alg {
        case .ec(let named):
            let curve: ECCurve
            switch named {
            case .p256: curve = .p256
            case .p384: curve = .p384
            case .p521: curve = .p521
            case .other: return false
            }
            guard let ka = ecKey(curve, a), let kb = ecKey(curve, b) else { return false }
            return ka.x963Representation == kb.x963Representation
        default:
            guard let ka = try? RSAPublicKey(pkcs1DER: a), let kb = try? RSAPublicKey(pkcs1DER: b) else { return false }
            return ka == kb
        }
    }

    static func ecKey(_ curve: ECCurve, _ bytes: [UInt8]) -> ECDSAPublicKey? {
        bytes.withUnsafeBytes { b in try? ECDSAPublicKey(curve: curve, x963: b) }
    }

    static func raw(_ input: inout FuzzChunks) {
        let keyAlg = keyAlgorithms[Int(input.byte()) % keyAlgorithms.count]
        let algDER = input.next() ?? []
        let key = input.next() ?? []
        let sig = input.next() ?? []
        let message = input.rest()
        if let alg = algorithm(algDER) { _ = verify(alg, message, sig, keyAlg, key) }

        // The key types directly, with the message as the digest.
        let hashes: [HashAlgorithm] = [.sha1, .sha224, .sha256, .sha384, .sha512]
        let h = hashes[message.count % hashes.count]
        if let rsa = try? RSAPublicKey(pkcs1DER: key) {
            oracle(
                rsa.bitCount >= RSAPublicKey.minimumModulusBits && rsa.bitCount <= RSAPublicKey.maximumModulusBits,
                "RSA key of \(rsa.bitCount) bits accepted")
            let rebuilt = try? RSAPublicKey(modulus: rsa.modulusBigEndian, exponent: rsa.exponentBigEndian)
            oracle(rebuilt == rsa, "RSA key rebuilt from its modulus and exponent differs")
            _ = try? rsa.verifyPKCS1v15(signature: sig, digest: message, hash: h)
            _ = try? rsa.verifyPSS(
                signature: sig, digest: message, hash: h, mgf1Hash: .sha256,
                saltLength: message.count % 70)
            _ = try? rsa.verifyPKCS1v15(signature: sig, message: message, hash: h)
        }
        // EdDSA directly: the message as the signed data (RFC 8032 hashes it itself).
        message.withUnsafeBytes { m in
            sig.withUnsafeBytes { s in
                key.withUnsafeBytes { k in
                    if key.count == Ed25519.publicKeyCount {
                        let valid = Ed25519.isValidPublicKey(k)
                        do throws(CryptoError) {
                            try Ed25519.verify(signature: s, message: m, publicKey: k)
                            oracle(
                                valid && sig.count == Ed25519.signatureCount,
                                "Ed25519 verified with a bad key or length")
                        } catch {
                            oracle(
                                (error == .malformedKey) == !valid || sig.count != Ed25519.signatureCount,
                                "Ed25519 key verdict differs from isValidPublicKey")
                        }
                    }
                    if key.count == Ed448.publicKeyCount {
                        let valid = Ed448.isValidPublicKey(k)
                        do throws(CryptoError) {
                            try Ed448.verify(signature: s, message: m, publicKey: k)
                            oracle(
                                valid && sig.count == Ed448.signatureCount, "Ed448 verified with a bad key or length")
                        } catch {
                            oracle(
                                (error == .malformedKey) == !valid || sig.count != Ed448.signatureCount,
                                "Ed448 key verdict differs from isValidPublicKey")
                        }
                    }
                }
            }
        }
        for curve in ECCurve.allCases {
            guard let k = ecKey(curve, key) else { continue }
            let x963 = k.x963Representation
            oracle(x963.count == 1 + 2 * curve.coordinateByteCount && x963.first == 0x04, "x963Representation shape")
            oracle(
                ecKey(curve, x963)?.x963Representation == x963, "EC key round trip through x963Representation differs")
            sig.withUnsafeBytes { s in
                message.withUnsafeBytes { d in _ = try? k.verify(signatureDER: s, digest: d) }
            }
        }
    }
}
