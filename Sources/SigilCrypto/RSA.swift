// RSA signature verification (RFC 8017): RSASSA-PKCS1-v1_5 (§8.2.2) and RSASSA-PSS (§8.1.2).
// Public-key operations only; the modular exponentiation runs through `MontgomeryView`
// (BigInt.swift): CSigilBignum's AVX-512 IFMA exponentiation (rsa_ifma.c, moduli up to 4096
// bits) where the CPU has it, else its MULX/ADX Montgomery kernels, else GMP's mpn layer, with
// all per-call memory in temporary (stack) allocations. `CertificateSignature` prepares the
// issuer's key in temporary memory too (`RSAPublicKey.withVerifyingKey(pkcs1DER:_:)`), so a
// certificate signature check allocates nothing up to 4096-bit keys.

@_spi(SigilInternal) import SigilDER

/// An RSA public key (RFC 8017 §3.1): modulus n and public exponent e.
///
/// Accepted: n of 1024...16384 bits and odd (every RSA modulus is a product of odd primes);
/// 1 < e < n and e odd (RFC 8017 §3.1 requires 3 ≤ e ≤ n − 1; an even e cannot be coprime to
/// λ(n)); for moduli above 3072 bits e has at most 64 bits (a work cap, as in OpenSSL).
/// Anything else is `CryptoError.malformedKey`.
public struct RSAPublicKey: Sendable, Hashable {
    /// Smallest and largest accepted modulus sizes in bits. The upper bound caps the cost of a
    /// verification an attacker can force (16384-bit moduli exist in the wild; larger do not).
    public static let minimumModulusBits = 1024
    /// See `minimumModulusBits`.
    public static let maximumModulusBits = 16384
    /// Above this modulus size the public exponent is limited to `maximumLargeModulusExponentBits`.
    public static let largeModulusBits = 3072
    /// Largest public exponent, in bits, for moduli above `largeModulusBits`.
    public static let maximumLargeModulusExponentBits = 64

    /// n and e, prepared for exponentiation (one allocation per key).
    let modulus: MontgomeryModulus

    /// Size of the modulus in bits.
    public let bitCount: Int

    /// k, the modulus length in bytes: the length every signature must have.
    public var modulusByteCount: Int { (bitCount + 7) / 8 }

    /// The modulus as big-endian bytes (no leading zero).
    public var modulusBigEndian: [UInt8] { modulus.modulusBigEndian }

    /// The public exponent as big-endian bytes (no leading zero).
    public var exponentBigEndian: [UInt8] { modulus.exponentBigEndian }

    /// From a PKCS#1 `RSAPublicKey` DER encoding (RFC 8017 Appendix A.1.1):
    ///
    ///     RSAPublicKey ::= SEQUENCE {
    ///         modulus           INTEGER,  -- n
    ///         publicExponent    INTEGER   -- e
    ///     }
    ///
    /// (This is the content of the BIT STRING of an X.509 rsaEncryption SubjectPublicKeyInfo.)
    /// Strict DER; trailing bytes after the SEQUENCE are rejected.
    public init(pkcs1DER der: UnsafeRawBufferPointer) throws(CryptoError) {
        let parts = try RSAPublicKey.pkcs1Components(der)
        try self.init(modulus: parts.0, exponent: parts.1)
    }

    /// The modulus and exponent contents (views into `der`) of a PKCS#1 `RSAPublicKey`.
    static func pkcs1Components(
        _ der: UnsafeRawBufferPointer
    ) throws(CryptoError) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer) {
        // A 16384-bit key encodes in about 2.1 KB; refuse anything much larger before parsing.
        guard der.count <= 4096 else { throw .malformedKey }
        var reader = DERReader(der)
        do {
            let parts = try reader.enter(.sequence) { (inner: inout DERReader) throws(DERError) in
                let n = try inner.readUnsignedIntegerBytes()
                let e = try inner.readUnsignedIntegerBytes()
                return (n, e)
            }
            try reader.finish()
            return parts
        } catch {
            throw .malformedKey
        }
    }

    /// From a PKCS#1 `RSAPublicKey` DER encoding.
    public init(pkcs1DER der: [UInt8]) throws(CryptoError) {
        let result: Result<RSAPublicKey, CryptoError> = der.withUnsafeBytes { raw in
            do throws(CryptoError) { return .success(try RSAPublicKey(pkcs1DER: raw)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// From the modulus and exponent as unsigned big-endian bytes (leading zeros allowed), over
    /// raw views. Sigil-internal (`@_spi(SigilInternal)`); outside Sigil use
    /// `init(modulus: [UInt8], exponent: [UInt8])` or `init(pkcs1DER:)`.
    @_spi(SigilInternal)
    public init(modulus nBytes: UnsafeRawBufferPointer, exponent eBytes: UnsafeRawBufferPointer) throws(CryptoError) {
        let n = RSAPublicKey.stripLeadingZeros(nBytes)
        let e = RSAPublicKey.stripLeadingZeros(eBytes)
        let bits = try RSAPublicKey.checkedModulusBits(n, e)
        guard let m = MontgomeryModulus(bigEndian: n, exponent: e) else { throw .malformedKey }  // even n
        self.modulus = m
        self.bitCount = bits
    }

    /// The key rules of the type's documentation except n's parity (which `MontgomeryView`
    /// checks), on n and e without leading zeros; returns the modulus size in bits.
    static func checkedModulusBits(_ n: UnsafeRawBufferPointer, _ e: UnsafeRawBufferPointer) throws(CryptoError) -> Int
    {
        // Size checks first, so a huge input costs nothing more than this scan.
        guard n.count >= 1, n.count <= RSAPublicKey.maximumModulusBits / 8 else { throw .malformedKey }
        let bits = n.count * 8 - n[0].leadingZeroBitCount
        guard bits >= RSAPublicKey.minimumModulusBits, bits <= RSAPublicKey.maximumModulusBits else {
            throw .malformedKey
        }
        // e: odd, > 1, < n (so it has at most as many bytes as n).
        guard let eLast = e.last, eLast & 1 == 1, e.count <= n.count else { throw .malformedKey }
        // Work cap: verification costs about two modular multiplications per exponent bit. As
        // OpenSSL does (RSA_SMALL_MODULUS_BITS / RSA_MAX_PUBEXP_BITS), moduli above 3072 bits must
        // have e of at most 64 bits, so the worst case (a 3072-bit e) stays around 10 ms and a
        // 16384-bit key with a 16384-bit e cannot make one verification take seconds.
        if bits > RSAPublicKey.largeModulusBits
            && e.count * 8 - e[0].leadingZeroBitCount > RSAPublicKey.maximumLargeModulusExponentBits
        {
            throw .malformedKey
        }
        if e.count == 1 && e[0] == 1 { throw .malformedKey }
        if e.count == n.count {
            // e < n, compared on equal-length big-endian byte strings.
            var less = false
            for i in 0..<n.count where e[i] != n[i] {
                less = e[i] < n[i]
                break
            }
            guard less else { throw .malformedKey }
        }
        return bits
    }

    /// Parses the PKCS#1 `RSAPublicKey` `der` under the same rules as `init(pkcs1DER:)` and calls
    /// `body` with the key prepared in temporary memory (on the stack up to 8192-bit moduli):
    /// what a one-off verification needs, without the heap allocation of an `RSAPublicKey`.
    /// The key is valid only inside `body`.
    static func withVerifyingKey<R>(
        pkcs1DER der: UnsafeRawBufferPointer,
        _ body: (RSAVerifyingKey) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let parts = try pkcs1Components(der)
        let n = stripLeadingZeros(parts.0)
        let e = stripLeadingZeros(parts.1)
        let bits = try checkedModulusBits(n, e)
        guard let (nl, el) = MontgomeryView.limbCounts(modulus: n, exponent: e) else { throw .malformedKey }
        return try withUnsafeTemporaryAllocation(of: UInt.self, capacity: nl + el) { (buf) throws(CryptoError) -> R in
            let limbs = buf.baseAddress!
            let inverse = MontgomeryView.load(modulus: n, exponent: e, into: limbs, nl, el)
            let view = MontgomeryView(limbs: limbs, count: nl, exponentCount: el, negInverse: inverse)
            return try body(RSAVerifyingKey(modulus: view, bitCount: bits))
        }
    }

    /// Calls `body` with this key as an `RSAVerifyingKey` (valid only inside `body`).
    @inline(__always)
    func withVerifyingKey<R>(_ body: (RSAVerifyingKey) throws(CryptoError) -> R) throws(CryptoError) -> R {
        let bits = bitCount
        let result: Result<R, CryptoError> = modulus.withView { view in
            do throws(CryptoError) { return .success(try body(RSAVerifyingKey(modulus: view, bitCount: bits))) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// From the modulus and exponent as unsigned big-endian bytes (leading zeros allowed), checked
    /// against the key rules of the type's documentation (for instance a JWK's `n` and `e`).
    public init(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) {
        let result: Result<RSAPublicKey, CryptoError> = modulus.withUnsafeBytes { n in
            exponent.withUnsafeBytes { e in
                do throws(CryptoError) { return .success(try RSAPublicKey(modulus: n, exponent: e)) } catch {
                    return .failure(error)
                }
            }
        }
        self = try result.get()
    }

    static func stripLeadingZeros(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var i = 0
        while i < b.count && b[i] == 0 { i += 1 }
        return UnsafeRawBufferPointer(rebasing: b[i...])
    }

    // MARK: PKCS #1 v1.5

    /// DER of DigestInfo up to the digest (RFC 8017 §9.2 note 1): SEQUENCE { AlgorithmIdentifier
    /// { OID, NULL }, OCTET STRING (hLen) }. The parameters NULL is present, as the notes and
    /// RFC 8017 Appendix A.2.4 specify; encode-and-compare therefore rejects the variant that omits it.
    static let digestInfoPrefixes: [[UInt8]] = HashAlgorithm.allCases.map { hash in
        switch hash {
        case .sha1: return [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
        case .sha224:
            return [
                0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00,
                0x04, 0x1c,
            ]
        case .sha256:
            return [
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
                0x04, 0x20,
            ]
        case .sha384:
            return [
                0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00,
                0x04, 0x30,
            ]
        case .sha512:
            return [
                0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00,
                0x04, 0x40,
            ]
        }
    }

    /// RSASSA-PKCS1-v1_5-VERIFY (RFC 8017 §8.2.2) given the message digest.
    ///
    /// Encode-and-compare (§8.2.2 steps 3–4): the expected EM' = 0x00 || 0x01 || 0xFF... || 0x00 ||
    /// DigestInfo(hash, digest) of EMSA-PKCS1-v1_5-ENCODE (§9.2) has a fixed layout for the
    /// modulus length and hash, so every byte of the recovered EM is compared with the byte EM'
    /// has at that position (the same as building EM' and comparing the two whole, without the
    /// copy). Nothing is parsed or searched for, which closes the Bleichenbacher-2006 family of
    /// forgeries (garbage after the digest, short padding, alternative DigestInfo encodings).
    /// Returns normally when the signature is valid, throws otherwise.
    ///
    /// - Throws: `.malformedSignature` (length ≠ k, or value ≥ n), `.badSignature` (no match,
    ///   or `digest.count` is not the hash's digest length).
    public func verifyPKCS1v15(
        signature: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer,
        hash: HashAlgorithm
    ) throws(CryptoError) {
        try withVerifyingKey { (key) throws(CryptoError) in
            try key.verifyPKCS1v15(signature: signature, digest: digest, hash: hash)
        }
    }

    /// RSASSA-PKCS1-v1_5-VERIFY over a message (hashed here with `hash`).
    public func verifyPKCS1v15(
        signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer,
        hash: HashAlgorithm
    ) throws(CryptoError) {
        let d = hash.hash(message)
        try d.withUnsafeBytes { (digest) throws(CryptoError) in
            try verifyPKCS1v15(signature: signature, digest: digest, hash: hash)
        }
    }

    /// Array convenience of `verifyPKCS1v15(signature:digest:hash:)`.
    public func verifyPKCS1v15(signature: [UInt8], digest: [UInt8], hash: HashAlgorithm) throws(CryptoError) {
        try RSAPublicKey.with2(signature, digest) { (s, d) throws(CryptoError) in
            try verifyPKCS1v15(signature: s, digest: d, hash: hash)
        }
    }

    /// Array convenience of `verifyPKCS1v15(signature:message:hash:)`.
    public func verifyPKCS1v15(signature: [UInt8], message: [UInt8], hash: HashAlgorithm) throws(CryptoError) {
        try RSAPublicKey.with2(signature, message) { (s, m) throws(CryptoError) in
            try verifyPKCS1v15(signature: s, message: m, hash: hash)
        }
    }

    // MARK: PSS

    /// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) with EMSA-PSS-VERIFY (§9.1.2) and MGF1 (§B.2.1),
    /// given the message digest `mHash` computed with `hash`. Returns normally when the signature
    /// is valid, throws otherwise.
    ///
    /// - Parameters:
    ///   - hash: the hash of the message and of M' (RSASSA-PSS-params hashAlgorithm).
    ///   - mgf1Hash: MGF1's hash (maskGenAlgorithm parameters); usually equal to `hash`.
    ///   - saltLength: the required salt length (RSASSA-PSS-params saltLength, RFC 4055 §3.1);
    ///     `nil` accepts any length, found as the position of the 0x01 separator.
    /// - Throws: `.malformedSignature` (length ≠ k or value ≥ n), `.badSignature` (any
    ///   "inconsistent" outcome of §9.1.2, or `digest.count` ≠ hLen), `.unsupportedAlgorithm`
    ///   (negative salt length).
    public func verifyPSS(
        signature: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer,
        hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int?
    ) throws(CryptoError) {
        try withVerifyingKey { (key) throws(CryptoError) in
            try key.verifyPSS(
                signature: signature, digest: digest, hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
        }
    }

    /// RSASSA-PSS-VERIFY over a message (hashed here with `hash`).
    public func verifyPSS(
        signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer,
        hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int?
    ) throws(CryptoError) {
        let d = hash.hash(message)
        try d.withUnsafeBytes { (digest) throws(CryptoError) in
            try verifyPSS(signature: signature, digest: digest, hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
        }
    }

    /// Array convenience of `verifyPSS(signature:digest:...)`.
    public func verifyPSS(
        signature: [UInt8], digest: [UInt8], hash: HashAlgorithm,
        mgf1Hash: HashAlgorithm, saltLength: Int?
    ) throws(CryptoError) {
        try RSAPublicKey.with2(signature, digest) { (s, d) throws(CryptoError) in
            try verifyPSS(signature: s, digest: d, hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
        }
    }

    /// Array convenience of `verifyPSS(signature:message:...)`.
    public func verifyPSS(
        signature: [UInt8], message: [UInt8], hash: HashAlgorithm,
        mgf1Hash: HashAlgorithm, saltLength: Int?
    ) throws(CryptoError) {
        try RSAPublicKey.with2(signature, message) { (s, m) throws(CryptoError) in
            try verifyPSS(signature: s, message: m, hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
        }
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2), steps 3–14. Returns true for "consistent".
    static func emsaPSSVerify(
        mHash: UnsafeRawBufferPointer, em: UnsafeRawBufferPointer, emBits: Int,
        hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int?
    ) -> Bool {
        let hLen = hash.digestCount
        let emLen = em.count
        // Step 3 (with the smallest salt when the length is free); the first test keeps the sum
        // below from overflowing for absurd salt lengths.
        if let want = saltLength, want > emLen { return false }
        guard emLen >= hLen + (saltLength ?? 0) + 2 else { return false }
        // Step 4: rightmost octet 0xbc.
        guard em[emLen - 1] == 0xBC else { return false }
        let dbLen = emLen - hLen - 1
        let h = UnsafeRawBufferPointer(rebasing: em[dbLen..<(dbLen + hLen)])
        // Step 6: the leftmost 8·emLen − emBits bits of maskedDB must be zero.
        let unusedBits = 8 * emLen - emBits
        let topMask: UInt8 = unusedBits == 0 ? 0xFF : UInt8(0xFF >> unusedBits)
        guard em[0] & ~topMask == 0 else { return false }

        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: dbLen) { dbBuf -> Bool in
            let db = dbBuf.baseAddress!
            // Steps 7–8: DB = maskedDB ⊕ MGF1(H, dbLen).
            for i in 0..<dbLen { db[i] = em[i] }
            mgf1XOR(seed: h, into: db, count: dbLen, hash: mgf1Hash)
            // Step 9: clear the unused top bits.
            db[0] &= topMask
            // Step 10: DB = PS (zeros) || 0x01 || salt.
            var sep = 0
            while sep < dbLen && db[sep] == 0 { sep += 1 }
            guard sep < dbLen, db[sep] == 0x01 else { return false }
            let sLen = dbLen - sep - 1
            if let want = saltLength, want != sLen { return false }
            // Steps 12–13: H' = Hash(0x00 × 8 || mHash || salt).
            var hasher = IncrementalHash(hash)
            let zeros: UInt64 = 0
            withUnsafeBytes(of: zeros) { hasher.update($0) }
            hasher.update(mHash)
            hasher.update(UnsafeRawBufferPointer(start: db + sep + 1, count: sLen))
            let hPrime = hasher.finalize()
            // Step 14.
            return hPrime.withUnsafeBytes { hp in
                var diff: UInt8 = 0
                for i in 0..<hLen { diff |= hp[i] ^ h[i] }
                return diff == 0
            }
        }
    }

    /// XORs MGF1(seed, count) (RFC 8017 §B.2.1) into `out[0..<count]`.
    static func mgf1XOR(
        seed: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>, count: Int,
        hash: HashAlgorithm
    ) {
        var done = 0
        var counter: UInt32 = 0
        while done < count {
            var hasher = IncrementalHash(hash)
            hasher.update(seed)
            let c = counter.bigEndian  // I2OSP(counter, 4)
            withUnsafeBytes(of: c) { hasher.update($0) }
            let block = hasher.finalize()
            block.withUnsafeBytes { b in
                let take = min(b.count, count - done)
                for i in 0..<take { out[done + i] ^= b[i] }
                done += take
            }
            counter &+= 1
        }
    }

    static func with2<R>(
        _ a: [UInt8], _ b: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let result: Result<R, CryptoError> = a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                do throws(CryptoError) { return .success(try body(ra, rb)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }
}

/// An RSA public key prepared for verification over memory someone else owns (an
/// `RSAPublicKey`'s storage, or the temporary memory of `RSAPublicKey.withVerifyingKey(pkcs1DER:_:)`);
/// valid only inside the closure that received it. Holds the verification algorithms; see
/// `RSAPublicKey` for their documentation.
struct RSAVerifyingKey {
    /// n and e.
    let modulus: MontgomeryView
    /// Size of the modulus in bits.
    let bitCount: Int
    /// k, the modulus length in bytes.
    var modulusByteCount: Int { (bitCount + 7) / 8 }

    // MARK: RSAVP1

    /// RSAVP1 (RFC 8017 §5.2.2) followed by I2OSP into `k` bytes: calls `body` with
    /// EM = (s^e mod n) as k big-endian bytes. Throws `.malformedSignature` when the signature is
    /// not k bytes long (§8.2.2 step 1, §8.1.2 step 1) or its value is not below n (§5.2.2
    /// step 1, "signature representative out of range").
    @inline(__always)
    func withRecoveredMessage<R>(
        _ signature: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let k = modulusByteCount
        guard signature.count == k else { throw .malformedSignature }
        let n = modulus.count
        let areaCount = MontgomeryModulus.scratchCount(n)  // 2n limbs
        // Three areas of 2n limbs: s and the result, the product buffer, modPow's work area.
        // Up to 4096-bit moduli each is at most 1 KiB, which `withUnsafeTemporaryAllocation`
        // places on the stack: no heap allocation per verification.
        return try withUnsafeTemporaryAllocation(of: UInt.self, capacity: areaCount) { (sr) throws(CryptoError) -> R in
            let s = sr.baseAddress!
            let r = s + n
            limbsFromBigEndian(signature, s, n)
            guard modulus.isReduced(s) else { throw .malformedSignature }
            withUnsafeTemporaryAllocation(of: UInt.self, capacity: areaCount) { product in
                withUnsafeTemporaryAllocation(of: UInt.self, capacity: areaCount) { work in
                    modulus.modPow(s, r, product: product.baseAddress!, work: work.baseAddress!)
                }
            }
            // I2OSP(r, k) over s, which is no longer needed: k ≤ 8n bytes fit its n limbs and do
            // not reach r (the next n limbs); r < n < 256^k, so it always fits in k bytes.
            let em = UnsafeMutableRawPointer(s)
            _ = limbsToBigEndian(r, n, em, k)
            return try body(UnsafeRawBufferPointer(start: em, count: k))
        }
    }

    /// RSASSA-PKCS1-v1_5-VERIFY (RFC 8017 §8.2.2) given the message digest; see
    /// `RSAPublicKey.verifyPKCS1v15(signature:digest:hash:)`.
    func verifyPKCS1v15(
        signature: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer,
        hash: HashAlgorithm
    ) throws(CryptoError) {
        let hLen = hash.digestCount
        guard digest.count == hLen else { throw .badSignature }
        let prefix = RSAPublicKey.digestInfoPrefixes[Int(hash.rawValue)]
        let k = modulusByteCount
        let tLen = prefix.count + hLen
        // §9.2 step 3: "intended encoded message length too short" (cannot happen for ≥ 1024 bits).
        guard k >= tLen + 11 else { throw .badSignature }
        let matches = try withRecoveredMessage(signature) { (em) throws(CryptoError) -> Bool in
            // Compare field by field against the expected encoding, without materialising it.
            guard em[0] == 0x00, em[1] == 0x01 else { return false }
            let psEnd = k - tLen - 1  // index of the 0x00 separator
            var diff: UInt8 = 0
            for i in 2..<psEnd { diff |= em[i] ^ 0xFF }
            diff |= em[psEnd]
            for i in 0..<prefix.count { diff |= em[psEnd + 1 + i] ^ prefix[i] }
            let dStart = psEnd + 1 + prefix.count
            for i in 0..<hLen { diff |= em[dStart + i] ^ digest[i] }
            return diff == 0
        }
        guard matches else { throw .badSignature }
    }

    /// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) given the message digest; see
    /// `RSAPublicKey.verifyPSS(signature:digest:hash:mgf1Hash:saltLength:)`.
    func verifyPSS(
        signature: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer,
        hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int?
    ) throws(CryptoError) {
        let hLen = hash.digestCount
        guard digest.count == hLen else { throw .badSignature }
        if let s = saltLength, s < 0 { throw .unsupportedAlgorithm }
        let k = modulusByteCount
        // §8.1.2 step 2c: EM = I2OSP(m, emLen), emLen = ⌈(modBits − 1)/8⌉. When modBits − 1 is a
        // multiple of 8, emLen = k − 1 and the first byte of the k-byte value must be zero.
        let emBits = bitCount - 1
        let emLen = (emBits + 7) / 8
        let ok = try withRecoveredMessage(signature) { (full) throws(CryptoError) -> Bool in
            if emLen < k {
                if full[0] != 0 { return false }  // I2OSP "integer too large" → invalid
            }
            let em = UnsafeRawBufferPointer(rebasing: full[(k - emLen)...])
            return RSAPublicKey.emsaPSSVerify(
                mHash: digest, em: em, emBits: emBits, hash: hash,
                mgf1Hash: mgf1Hash, saltLength: saltLength)
        }
        guard ok else { throw .badSignature }
    }
}
