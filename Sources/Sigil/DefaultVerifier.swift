import SigilCrypto
import SigilTrust
import SigilX509

/// Path validation wired to Sigil's own cryptography.
public struct SigilSignatureVerifier: CertificateSignatureVerifier {
    /// Sigil's RSA and ECDSA verification (SigilCrypto).
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

    public func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool {
        CertificateSignature.subjectPublicKeyIsValid(certificate)
    }
}

extension ChainVerifier {
    /// A verifier with Sigil's signature verification.
    public init(anchors: TrustStore) {
        self.init(anchors: anchors, signatureVerifier: SigilSignatureVerifier())
    }
}
