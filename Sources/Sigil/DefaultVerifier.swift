import SigilCrypto
@_spi(SigilInternal) import SigilTrust
import SigilX509

/// Path validation wired to Sigil's own cryptography.
public struct SigilSignatureVerifier: StatelessSignatureVerifier {
    /// Sigil's RSA, ECDSA and EdDSA verification (SigilCrypto).
    public init() {}

    /// Verifies with `CertificateSignature.verify(_:issuer:)`.
    public func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
        switch CertificateSignature.verify(certificate, issuer: issuer) {
        case .verified: return .valid
        case .badSignature: return .invalid
        case .unsupportedAlgorithm: return .unsupportedAlgorithm
        case .malformedKey: return .malformedKey
        }
    }

    /// Whether `certificate`'s subject public key decodes, with
    /// `CertificateSignature.subjectPublicKeyIsValid(_:)`: an RSA key must be a strict-DER
    /// PKCS#1 `RSAPublicKey` within Sigil's modulus and exponent bounds; a P-256/P-384/P-521 key
    /// a valid SEC 1 point on its curve; an Ed25519/Ed448 key a point per RFC 8032 §5.1.3/§5.2.3. Keys of other algorithms or other named curves (which
    /// Sigil cannot use) are not judged here and count as valid.
    public func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool {
        CertificateSignature.subjectPublicKeyIsValid(certificate)
    }
}

extension SigilSignatureVerifier: RevocationSignatureVerifier {
    /// CRLs and OCSP responses: `signature` over `signed` with the signer's public key.
    public func verifySignature(
        algorithm: SignatureAlgorithm, signed: ByteSpan, signature: ByteSpan, signer: Certificate
    ) -> SignatureVerdict {
        // Nothing in here throws (the buffers are views, `verify` returns an outcome), so no
        // `try?`/fallback is needed: every failure is one of the outcomes below.
        let outcome = signed.withUnsafeBytes { (tbs) -> CertificateSignature.Outcome in
            signature.withUnsafeBytes { (sig) -> CertificateSignature.Outcome in
                signer.publicKeyBytes.withUnsafeBytes { (key) -> CertificateSignature.Outcome in
                    CertificateSignature.verify(
                        algorithm: algorithm, signed: tbs, signature: sig,
                        keyAlgorithm: signer.publicKeyAlgorithm, key: key)
                }
            }
        }
        switch outcome {
        case .verified: return .valid
        case .badSignature: return .invalid
        case .unsupportedAlgorithm: return .unsupportedAlgorithm
        case .malformedKey: return .malformedKey
        }
    }

    /// SHA-1 and SHA-2 digests (OCSP CertID, RFC 6960 §4.1.1); nil for MD2/MD5.
    public func digest(_ algorithm: DigestAlgorithm, of bytes: ByteSpan) -> [UInt8]? {
        let h: HashAlgorithm
        switch algorithm {
        case .sha1: h = .sha1
        case .sha224: h = .sha224
        case .sha256: h = .sha256
        case .sha384: h = .sha384
        case .sha512: h = .sha512
        case .md2, .md5: return nil
        }
        return bytes.withUnsafeBytes { h.hash($0).bytes }
    }
}

extension ChainVerifier {
    /// A verifier with Sigil's signature verification.
    @_spi(SigilInternal) public init(anchors: TrustStore) {
        self.init(anchors: anchors, signatureVerifier: SigilSignatureVerifier())
    }
}
