import SigilX509

/// The outcome of checking one certificate's signature with its issuer's key.
public enum SignatureVerdict: Sendable, Hashable {
    case valid
    case invalid
    case unsupportedAlgorithm
    case malformedKey
    case malformedSignature
}

/// The narrow seam between path validation and cryptography: "does the issuer's public key
/// verify this certificate's signature over its TBS bytes, with its signature algorithm?"
/// The umbrella module `Sigil` wires this to `SigilCrypto`; tests may substitute their own.
public protocol CertificateSignatureVerifier: Sendable {
    func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict
}
