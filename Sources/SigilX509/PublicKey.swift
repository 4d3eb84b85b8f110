@_spi(SigilInternal) import SigilDER

/// An RSA public key's components as views: `RSAPublicKey ::= SEQUENCE { modulus INTEGER,
/// publicExponent INTEGER }` (RFC 8017 Appendix A.1.1), magnitudes without sign octets.
public struct RSAPublicKeyComponents: Sendable {
    /// The modulus n, big-endian magnitude.
    public let modulus: ByteSpan
    /// The public exponent e, big-endian magnitude.
    public let exponent: ByteSpan

    /// Size of the modulus in bits.
    public var bitCount: Int { significantBits(modulus) }
}

func significantBits(_ s: ByteSpan) -> Int {
    var bytes = s.bytes.drop(while: { $0 == 0 })
    guard let first = bytes.first else { return 0 }
    bytes = bytes.dropFirst()
    return bytes.count * 8 + (8 - first.leadingZeroBitCount)
}

extension Certificate {
    /// The RSA key (for rsaEncryption and RSASSA-PSS keys), validated: both INTEGERs minimal and
    /// positive. Size and exponent policy belong to the crypto layer and trust policy.
    public func rsaPublicKey() throws(DERError) -> RSAPublicKeyComponents? {
        switch publicKeyAlgorithm {
        case .rsa, .rsaPSS: break
        default: return nil
        }
        let storage = der
        do {
            return try publicKeyBytes.read { (r) throws(DERError) -> RSAPublicKeyComponents in
                try r.enter(.sequence) { (s) throws(DERError) -> RSAPublicKeyComponents in
                    let n = try s.read(.integer)
                    let nb = try n.decodeUnsignedIntegerBytes()
                    let e = try s.read(.integer)
                    let eb = try e.decodeUnsignedIntegerBytes()
                    // Zero modulus or exponent is no key at all.
                    if nb.count == 1 && nb[0] == 0 { throw DERError(.invalidPublicKey, at: n.contentStart) }
                    if eb.count == 1 && eb[0] == 0 { throw DERError(.invalidPublicKey, at: e.contentStart) }
                    let nStart = n.end - nb.count
                    let eStart = e.end - eb.count
                    return RSAPublicKeyComponents(
                        modulus: ByteSpan(storage, nStart, n.end),
                        exponent: ByteSpan(storage, eStart, e.end))
                }
            }
        } catch {
            throw DERError(.invalidPublicKey, at: error.offset)
        }
    }

    /// The EC public key point (SEC 1 §2.3.3 encoding: `04 || X || Y`, or compressed), for
    /// id-ecPublicKey keys; nil for other algorithms.
    public var ecPoint: ByteSpan? {
        switch publicKeyAlgorithm {
        case .ec, .ecExplicitParameters: return publicKeyBytes
        default: return nil
        }
    }

    /// The key size in bits: RSA modulus length, EC curve size, 256 for Ed25519, 456 for Ed448;
    /// nil when unknown or malformed.
    public var publicKeyBitCount: Int? {
        switch publicKeyAlgorithm {
        case .rsa, .rsaPSS: return rsaModulusBitCount()
        case .ec(let c): return c == .other ? nil : c.bitCount
        case .ed25519: return 256
        case .ed448: return 456
        default: return nil
        }
    }
}

extension Certificate {
    /// `rsaPublicKey()?.bitCount` without the views: the same reads of `RSAPublicKey ::= SEQUENCE
    /// { modulus INTEGER, publicExponent INTEGER }` (RFC 8017 §A.1.1) — the SEQUENCE filling the
    /// key bits, both INTEGERs minimal and positive, nothing after them, neither zero — over
    /// the key's octets in place; nil exactly where `rsaPublicKey()` throws. (Called for every
    /// certificate a verification reads: the key size is a fact of the trust layer.)
    func rsaModulusBitCount() -> Int? {
        let span = spans.publicKey
        return der.withUnsafeBytes { (b) -> Int? in
            var r = DERReader(input: b, from: Int(span.start), to: Int(span.end))
            guard let key = try? r.read(.sequence), r.isAtEnd, key.tag.isConstructed else { return nil }
            var s = DERReader(input: b, from: key.contentStart, to: key.end, depth: 1)
            guard let n = try? s.read(.integer), let modulus = try? n.decodeUnsignedIntegerBytes(),
                let e = try? s.read(.integer), let exponent = try? e.decodeUnsignedIntegerBytes(), s.isAtEnd
            else { return nil }
            // Zero modulus or exponent is no key at all (as `rsaPublicKey()`).
            if modulus.count == 1 && modulus[0] == 0 { return nil }
            if exponent.count == 1 && exponent[0] == 0 { return nil }
            // `significantBits`: leading zero octets skipped (none after the sign octet of a
            // minimal INTEGER, but counted as `RSAPublicKeyComponents.bitCount` counts).
            var i = 0
            while i < modulus.count && modulus[i] == 0 { i += 1 }
            if i == modulus.count { return 0 }
            return (modulus.count - i - 1) * 8 + (8 - modulus[i].leadingZeroBitCount)
        }
    }
}
