/// Errors of the crypto layer: small, typed, no strings built on the hot path.
public enum CryptoError: Error, Hashable, Sendable {
    /// The key's encoding or values are not acceptable (modulus size out of 1024...16384 bits,
    /// even or too small exponent, point not on the curve, ...).
    case malformedKey
    /// The signature's encoding is not acceptable (wrong length, bad DER, r or s out of range).
    case malformedSignature
    /// The algorithm or its parameters are not supported.
    case unsupportedAlgorithm
    /// Everything was well formed but the signature does not verify.
    case badSignature
}

/// Hash functions Sigil implements (SHA-1 only to recognise legacy signatures and for vectors).
public enum HashAlgorithm: UInt8, Sendable, Hashable, CaseIterable {
    /// SHA-1, SHA-224, SHA-256, SHA-384 and SHA-512 (FIPS 180-4).
    case sha1, sha224, sha256, sha384, sha512

    /// Output length in bytes.
    @inlinable public var digestCount: Int {
        switch self {
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }
}
