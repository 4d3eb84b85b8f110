import SigilDER
import SigilX509

/// The one entry point the trust layer uses: does the issuer's key verify a certificate's
/// signature? Answers verified / bad signature / unsupported algorithm / malformed key — no
/// other detail of the crypto layer leaks upward.
public enum CertificateSignature {
    /// The answer, with no more detail than the trust layer needs.
    public enum Outcome: Sendable, Hashable {
        /// The signature verifies with the key.
        case verified
        /// The signature does not verify, is malformed (bad DER, r or s out of range, wrong
        /// length), or its algorithm does not fit the key type (e.g. ECDSA with an RSA key, or
        /// PSS parameters outside an RSASSA-PSS key's restriction, RFC 4055 §3.3).
        case badSignature
        /// Sigil does not verify this algorithm: MD2/MD5 digests, curves other than
        /// P-256/P-384/P-521, DSA, unknown OIDs.
        case unsupportedAlgorithm
        /// The issuer's public key does not decode (see `RSAPublicKey(pkcs1DER:)`,
        /// `ECDSAPublicKey(curve:x963:)`).
        case malformedKey
    }

    static func hash(_ d: DigestAlgorithm) -> HashAlgorithm? {
        switch d {
        case .sha1: return .sha1
        case .sha224: return .sha224
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        case .md2, .md5: return nil
        }
    }

    /// Verifies `signature` over `signed` with `algorithm` and the issuer key (`keyAlgorithm`,
    /// and the subjectPublicKey bytes `key`).
    public static func verify(
        algorithm: SignatureAlgorithm, signed: UnsafeRawBufferPointer,
        signature: UnsafeRawBufferPointer, keyAlgorithm: PublicKeyAlgorithm,
        key: UnsafeRawBufferPointer
    ) -> Outcome {
        do {
            switch (algorithm, keyAlgorithm) {
            case (.rsaPKCS1(let d), .rsa):
                guard let h = hash(d) else { return .unsupportedAlgorithm }
                let digest = h.hash(signed)
                try digest.withUnsafeBytes { (dg) throws(CryptoError) in
                    try withRSAKey(key) { (k) throws(CryptoError) in
                        try k.verifyPKCS1v15(signature: signature, digest: dg, hash: h)
                    }
                }
            case (.rsaPSS(let p), .rsa), (.rsaPSS(let p), .rsaPSS(nil)):
                try verifyPSS(p, signed: signed, signature: signature, key: key)
            case (.rsaPSS(let p), .rsaPSS(let restriction?)):
                // RFC 4055 §3.3: a key restricted to PSS parameters verifies only signatures
                // with the same hash and MGF, and a salt at least as long.
                guard p.hash == restriction.hash, p.mgf1Hash == restriction.mgf1Hash,
                    p.saltLength >= restriction.saltLength
                else { return .badSignature }
                try verifyPSS(p, signed: signed, signature: signature, key: key)
            case (.ecdsa(let d), .ec(let named)):
                guard let h = hash(d) else { return .unsupportedAlgorithm }
                let curve: ECCurve
                switch named {
                case .p256: curve = .p256
                case .p384: curve = .p384
                case .p521: curve = .p521
                case .other: return .unsupportedAlgorithm
                }
                let pub: ECDSAPublicKey
                do { pub = try ECDSAPublicKey(curve: curve, x963: key) } catch { return .malformedKey }
                let digest = h.hash(signed)
                try digest.withUnsafeBytes { (dg) throws(CryptoError) in
                    try pub.verify(signatureDER: signature, digest: dg)
                }
            case (.ed25519, .ed25519):
                // RFC 8410 §6: the signature is the 64-byte Ed25519 signature of the TBS bytes
                // (pure Ed25519, no prehash, no context); the key is the 32-byte encoding.
                try Ed25519.verify(signature: signature, message: signed, publicKey: key)
            case (.ed448, .ed448):
                // RFC 8410 §6: pure Ed448 with an empty context, 114-byte signature, 57-byte key.
                try Ed448.verify(signature: signature, message: signed, publicKey: key)
            case (.rsaPKCS1, _), (.rsaPSS, _), (.ecdsa, _), (.ed25519, _), (.ed448, _):
                // The signature algorithm does not fit the key type.
                return .badSignature
            default:
                return .unsupportedAlgorithm
            }
            return .verified
        } catch {
            switch error {
            case .malformedKey: return .malformedKey
            case .unsupportedAlgorithm: return .unsupportedAlgorithm
            case .malformedSignature, .badSignature: return .badSignature
            }
        }
    }

    /// The issuer's RSA key, prepared in temporary memory for this one verification (no heap
    /// allocation); every key error is `.malformedKey`.
    static func withRSAKey(
        _ key: UnsafeRawBufferPointer, _ body: (RSAVerifyingKey) throws(CryptoError) -> Void
    ) throws(CryptoError) {
        var failure: CryptoError? = nil
        do {
            try RSAPublicKey.withVerifyingKey(pkcs1DER: key) { (k) throws(CryptoError) in
                do throws(CryptoError) { try body(k) } catch { failure = error }
            }
        } catch {
            throw .malformedKey
        }
        if let failure { throw failure }
    }

    static func verifyPSS(
        _ p: RSAPSSParameters, signed: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        guard let h = hash(p.hash), let m = hash(p.mgf1Hash) else { throw .unsupportedAlgorithm }
        let digest = h.hash(signed)
        try digest.withUnsafeBytes { (dg) throws(CryptoError) in
            try withRSAKey(key) { (k) throws(CryptoError) in
                try k.verifyPSS(signature: signature, digest: dg, hash: h, mgf1Hash: m, saltLength: p.saltLength)
            }
        }
    }

    /// Whether the certificate's subject public key decodes: an RSA key (RFC 8017 §A.1.1,
    /// within the library's size limits), an EC point on its named curve (RFC 5480 §2.2,
    /// SEC 1 §3.2.2.1), or an Ed25519/Ed448 point (RFC 8410 §4, RFC 8032 §5.1.3/§5.2.3).
    /// Other algorithms are not decoded here (true): the key-algorithm checks of path
    /// validation refuse them where it matters.
    public static func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool {
        let valid: Bool? = try? certificate.publicKeyBytes.withUnsafeBytes { (key) throws(DERError) -> Bool in
            switch certificate.publicKeyAlgorithm {
            case .rsa, .rsaPSS:
                return (try? RSAPublicKey(pkcs1DER: key)) != nil
            case .ec(let named):
                let curve: ECCurve
                switch named {
                case .p256: curve = .p256
                case .p384: curve = .p384
                case .p521: curve = .p521
                case .other: return true
                }
                return (try? ECDSAPublicKey(curve: curve, x963: key)) != nil
            case .ed25519:
                return Ed25519.isValidPublicKey(key)
            case .ed448:
                return Ed448.isValidPublicKey(key)
            default:
                return true
            }
        }
        return valid ?? false
    }

    /// Verifies `certificate`'s signature with `issuer`'s public key.
    public static func verify(_ certificate: Certificate, issuer: Certificate) -> Outcome {
        let result: Outcome? = try? certificate.tbsCertificate.withUnsafeBytes { (tbs) throws(DERError) -> Outcome in
            try certificate.signature.withUnsafeBytes { (sig) throws(DERError) -> Outcome in
                try issuer.publicKeyBytes.withUnsafeBytes { (key) throws(DERError) -> Outcome in
                    verify(
                        algorithm: certificate.signatureAlgorithm, signed: tbs, signature: sig,
                        keyAlgorithm: issuer.publicKeyAlgorithm, key: key)
                }
            }
        }
        return result ?? .badSignature
    }
}
