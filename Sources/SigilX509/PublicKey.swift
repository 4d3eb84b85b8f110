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
        return try Certificate.rsaPublicKey(der, Int(spans.publicKey.start), Int(spans.publicKey.end))
    }

    /// `rsaPublicKey()` of the subjectPublicKey bits at `start..<end` of `storage`: a static
    /// function of the storage reference (made views from `der` in a method, the optimiser
    /// copied the whole Certificate to retain it).
    static func rsaPublicKey(_ storage: [UInt8], _ start: Int, _ end: Int) throws(DERError) -> RSAPublicKeyComponents {
        let (n, e) = try rsaPublicKeyRanges(storage, start, end)
        return RSAPublicKeyComponents(modulus: ByteSpan(storage, n.0, n.1), exponent: ByteSpan(storage, e.0, e.1))
    }

    /// Where the modulus and exponent magnitudes lie: `RSAPublicKey ::= SEQUENCE { modulus
    /// INTEGER, publicExponent INTEGER }` (RFC 8017 Appendix A.1.1), both minimal and positive
    /// (the one decoding of `rsaPublicKey()` and `publicKeyBitCount`).
    static func rsaPublicKeyRanges(_ storage: [UInt8], _ start: Int, _ end: Int) throws(DERError)
        -> ((Int, Int), (Int, Int))
    {
        try withStorage(storage) { (b) throws(DERError) -> ((Int, Int), (Int, Int)) in
            if let plain = plainRSAPublicKeyRanges(b, start, end) { return plain }
            return try rsaPublicKeyRangesWithReaders(b, start, end)
        }
    }

    /// `rsaPublicKeyRanges` with the strict readers (every encoding; errors
    /// `.invalidPublicKey` at the offending offset).
    static func rsaPublicKeyRangesWithReaders(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(DERError)
        -> ((Int, Int), (Int, Int))
    {
        do {
            var r = DERReader(input: b, from: start, to: end)
            let key = try r.enter(.sequence) { (s) throws(DERError) -> ((Int, Int), (Int, Int)) in
                let n = try s.read(.integer)
                let nb = try n.decodeUnsignedIntegerBytes()
                let e = try s.read(.integer)
                let eb = try e.decodeUnsignedIntegerBytes()
                // Zero modulus or exponent is no key at all.
                if nb.count == 1 && nb[0] == 0 { throw DERError(.invalidPublicKey, at: n.contentStart) }
                if eb.count == 1 && eb[0] == 0 { throw DERError(.invalidPublicKey, at: e.contentStart) }
                return ((n.end - nb.count, n.end), (e.end - eb.count, e.end))
            }
            try r.finish()
            return key
        } catch {
            throw DERError(.invalidPublicKey, at: error.offset)
        }
    }

    /// `rsaPublicKeyRanges` on the octets for the encoding every RSA key has: the SEQUENCE
    /// and both INTEGERs with DER's minimal short or one- or two-octet long lengths
    /// (`DERValue.minimalHeader`), each INTEGER positive and minimal (X.690 §8.3.2: a leading
    /// 00 only before an octet with bit 8 set) and not zero, nothing after them. Nil for
    /// anything else, which the readers then decide and report (`RSAKeySizeModelTests`
    /// compares the two on every one-octet change of the fixture keys).
    @inline(__always)
    static func plainRSAPublicKeyRanges(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (
        (Int, Int), (Int, Int)
    )? {
        guard start >= 0, end <= b.count, start < end, b[start] == 0x30,
            let seq = DERValue.minimalHeader(b, start &+ 1, end), seq.1 == end
        else { return nil }
        /// The magnitude of a positive, minimal, non-zero INTEGER at `p` (the INTEGER ends where
        /// the magnitude does).
        @inline(__always) func magnitude(_ p: Int, _ limit: Int) -> (Int, Int)? {
            guard p < limit, b[p] == 0x02, let v = DERValue.minimalHeader(b, p &+ 1, limit), v.0 < v.1 else {
                return nil
            }
            let first = b[v.0]
            if first & 0x80 != 0 { return nil }
            if first == 0 {
                // 00 alone is zero (no key); 00 before an octet without bit 8 is not minimal.
                guard v.1 &- v.0 >= 2, b[v.0 &+ 1] & 0x80 != 0 else { return nil }
                return (v.0 &+ 1, v.1)
            }
            return v
        }
        guard let n = magnitude(seq.0, end), let e = magnitude(n.1, end), e.1 == end else { return nil }
        return (n, e)
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
        case .rsa, .rsaPSS:
            // The modulus's significant bits, read in place (no views).
            guard
                let (n, _) = try? Certificate.rsaPublicKeyRanges(
                    der, Int(spans.publicKey.start), Int(spans.publicKey.end))
            else { return nil }
            return der.withUnsafeBufferPointer { b in
                var i = n.0
                while i < n.1 && b[i] == 0 { i += 1 }
                return i == n.1 ? 0 : (n.1 - i - 1) * 8 + (8 - b[i].leadingZeroBitCount)
            }
        case .ec(let c): return c == .other ? nil : c.bitCount
        case .ed25519: return 256
        case .ed448: return 456
        default: return nil
        }
    }
}
