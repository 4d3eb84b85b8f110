import SigilX509

/// The outcome of checking one certificate's signature with its issuer's key.
/// (A signature value that does not even parse is `.invalid`: to the path builder it is the
/// same fact — this issuer did not sign this certificate.)
public enum SignatureVerdict: Sendable, Hashable {
    /// The issuer's key verifies the signature.
    case valid
    /// It does not (including a malformed signature value).
    case invalid
    /// The signature algorithm, or its pairing with the key's algorithm, is not supported.
    case unsupportedAlgorithm
    /// The issuer's public key cannot be decoded or is not usable.
    case malformedKey
}

/// The narrow seam between path validation and cryptography: "does the issuer's public key
/// verify this certificate's signature over its TBS bytes, with its signature algorithm?"
/// The umbrella module `Sigil` wires this to `SigilCrypto`; tests may substitute their own.
public protocol CertificateSignatureVerifier: Sendable {
    /// Whether `issuer`'s public key verifies `certificate`'s signature over its TBS bytes.
    func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict
    /// Whether `certificate`'s own subject public key decodes as a key of its algorithm (an EC
    /// point on its named curve, RFC 5480 §2.2 / SEC 1 §3.2.2.1; an RSA modulus and exponent,
    /// RFC 8017 §A.1.1). Path validation never uses the leaf's key, so without this a leaf
    /// whose key no one can use would be reported trusted.
    func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool
}

extension CertificateSignatureVerifier {
    /// Default for verifiers without key decoding (test doubles): no opinion.
    public func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool { true }
}

/// The seam's two further questions, for revocation (CRLs, OCSP responses): "does this signer's
/// key verify this signature over these bytes?" and "what is this digest of these bytes?"
/// (OCSP CertIDs hash the issuer's name and key, RFC 6960 §4.1.1). A
/// `CertificateSignatureVerifier` that does not also conform to this protocol gets
/// "unsupported" and nil for both, so revocation information is unusable (undetermined) with
/// it, never accepted unchecked. (`SigilSignatureVerifier` in the module `Sigil` conforms.)
public protocol RevocationSignatureVerifier {
    /// Whether `signer`'s public key verifies `signature` (the BIT STRING's bits) over `signed`
    /// (a CRL's TBSCertList or an OCSP ResponseData encoding) with `algorithm`.
    func verifySignature(algorithm: SignatureAlgorithm, signed: ByteSpan, signature: ByteSpan, signer: Certificate)
        -> SignatureVerdict
    /// The `algorithm` digest of `bytes`, or nil when the verifier does not compute it (then an
    /// OCSP CertID using it cannot be matched).
    func digest(_ algorithm: DigestAlgorithm, of bytes: ByteSpan) -> [UInt8]?
}

extension CertificateSignatureVerifier {
    /// Signed data other than a certificate, checked through `RevocationSignatureVerifier` when
    /// the verifier implements it; otherwise unsupported.
    func verifySignedData(algorithm: SignatureAlgorithm, signed: ByteSpan, signature: ByteSpan, signer: Certificate)
        -> SignatureVerdict
    {
        guard let r = self as? any RevocationSignatureVerifier else { return .unsupportedAlgorithm }
        return r.verifySignature(algorithm: algorithm, signed: signed, signature: signature, signer: signer)
    }

    func digest(_ algorithm: DigestAlgorithm, of bytes: ByteSpan) -> [UInt8]? {
        guard let r = self as? any RevocationSignatureVerifier else { return nil }
        return r.digest(algorithm, of: bytes)
    }
}
