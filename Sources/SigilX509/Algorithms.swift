@_spi(SigilInternal) import SigilDER

/// Digest algorithms that appear in certificate signature algorithms. MD2, MD5 and SHA-1 are
/// recognised so that policy can reject them by name.
public enum DigestAlgorithm: UInt8, Sendable, Hashable, CaseIterable {
    /// MD2 (RFC 1319), MD5 (RFC 1321), SHA-1 and the SHA-2 family (FIPS 180-4). SigilCrypto
    /// computes SHA-1 and SHA-2 only.
    case md2, md5, sha1, sha224, sha256, sha384, sha512

    /// A short human-readable name.
    public var name: String {
        switch self {
        case .md2: return "MD2"
        case .md5: return "MD5"
        case .sha1: return "SHA-1"
        case .sha224: return "SHA-224"
        case .sha256: return "SHA-256"
        case .sha384: return "SHA-384"
        case .sha512: return "SHA-512"
        }
    }

    /// Output length in bytes.
    public var digestCount: Int {
        switch self {
        case .md2, .md5: return 16
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    static func fromOID(_ oid: UnsafeRawBufferPointer) -> DigestAlgorithm? {
        if OID.sha256.matches(oid) { return .sha256 }
        if OID.sha384.matches(oid) { return .sha384 }
        if OID.sha512.matches(oid) { return .sha512 }
        if OID.sha224.matches(oid) { return .sha224 }
        if OID.sha1.matches(oid) { return .sha1 }
        if OID.md5.matches(oid) { return .md5 }
        if OID.md2.matches(oid) { return .md2 }
        return nil
    }
}

/// RSASSA-PSS-params (RFC 4055 §3.1), defaults applied.
public struct RSAPSSParameters: Sendable, Hashable {
    /// The message digest.
    public var hash: DigestAlgorithm
    /// The digest of MGF1, the mask generation function.
    public var mgf1Hash: DigestAlgorithm
    /// Salt length in octets.
    public var saltLength: Int
}

/// For the 7-octet AlgorithmIdentifier `30 05 06 03 2B 65 70` (id-Ed25519) or `… 71`
/// (id-Ed448), parameters absent (RFC 8410 §3), the OID's last octet; nil for anything else.
/// (Signature and key algorithm identifiers spell them the same way.)
@inline(__always)
func edDSAOIDLastOctet(_ e: UnsafeRawBufferPointer) -> UInt8? {
    guard e.count == 7, UInt32(littleEndian: e.loadUnaligned(as: UInt32.self)) == 0x0306_0530, e[4] == 0x2B,
        e[5] == 0x65, e[6] == 0x70 || e[6] == 0x71
    else { return nil }
    return e[6]
}

/// A certificate signature algorithm (the `signature` / `signatureAlgorithm` fields).
public enum SignatureAlgorithm: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with the given digest (RFC 4055 §5, RFC 3279 §2.2.1).
    case rsaPKCS1(DigestAlgorithm)
    /// RSASSA-PSS (RFC 4055 §3) with its parameters.
    case rsaPSS(RSAPSSParameters)
    /// ECDSA (RFC 5758 §3.2; RFC 3279 §2.2.3 for SHA-1).
    case ecdsa(DigestAlgorithm)
    /// Ed25519 (RFC 8410 §3; parameters absent), verified by SigilCrypto per RFC 8032 §5.1.7.
    case ed25519
    /// Ed448 (RFC 8410 §3; parameters absent), verified by SigilCrypto per RFC 8032 §5.2.7.
    case ed448
    /// Anything else (DSA, GOST, ...): kept so the certificate parses; verification refuses it.
    case unknown

    /// A short human-readable name.
    public var name: String {
        switch self {
        // Literals (no interpolation) for the fixed names: `inspect` asks once per certificate.
        case .rsaPKCS1(let d):
            switch d {
            case .md2: return "RSA PKCS#1 v1.5 with MD2"
            case .md5: return "RSA PKCS#1 v1.5 with MD5"
            case .sha1: return "RSA PKCS#1 v1.5 with SHA-1"
            case .sha224: return "RSA PKCS#1 v1.5 with SHA-224"
            case .sha256: return "RSA PKCS#1 v1.5 with SHA-256"
            case .sha384: return "RSA PKCS#1 v1.5 with SHA-384"
            case .sha512: return "RSA PKCS#1 v1.5 with SHA-512"
            }
        case .rsaPSS(let p): return "RSA-PSS with \(p.hash.name) (MGF1 \(p.mgf1Hash.name), salt \(p.saltLength))"
        case .ecdsa(let d):
            switch d {
            case .md2: return "ECDSA with MD2"
            case .md5: return "ECDSA with MD5"
            case .sha1: return "ECDSA with SHA-1"
            case .sha224: return "ECDSA with SHA-224"
            case .sha256: return "ECDSA with SHA-256"
            case .sha384: return "ECDSA with SHA-384"
            case .sha512: return "ECDSA with SHA-512"
            }
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        case .unknown: return "unknown"
        }
    }

    /// The digest the algorithm uses, when it names one.
    public var digest: DigestAlgorithm? {
        switch self {
        case .rsaPKCS1(let d), .ecdsa(let d): return d
        case .rsaPSS(let p): return p.hash
        default: return nil
        }
    }

    /// Parses `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`
    /// for a signature algorithm, enforcing each algorithm's parameter rule.
    static func parse(_ reader: inout DERReader) throws(DERError) -> SignatureAlgorithm {
        let value = try reader.read(.sequence)
        if let known = common(value) { return known }
        return try parseContent(value)
    }

    /// The algorithm of one of the usual encodings, matched whole (octets in the comments):
    /// what `parseContent` returns for exactly these octets; nil for every other value, which
    /// `parseContent` then reads (`AlgorithmIdentifierFastPathModelTests` compares the two).
    @inline(__always)
    static func common(_ value: DERValue) -> SignatureAlgorithm? {
        let e = value.encoded
        guard value.contentIsWithinNestingLimit else { return nil }
        switch e.count {
        case 15:
            // 30 0D 06 09 2A 86 48 86 F7 0D 01 01 x 05 00: PKCS #1 v1.5 with NULL parameters.
            let tail = UInt64(littleEndian: e.loadUnaligned(fromByteOffset: 7, as: UInt64.self))
            guard UInt64(littleEndian: e.loadUnaligned(as: UInt64.self)) == 0x8648_862A_0906_0D30,
                tail & 0xFFFF_00FF_FFFF_FFFF == 0x0005_0001_010D_F786
            else { return nil }
            switch tail >> 40 & 0xFF {
            case 0x0B: return .rsaPKCS1(.sha256)
            case 0x0C: return .rsaPKCS1(.sha384)
            case 0x0D: return .rsaPKCS1(.sha512)
            default: return nil
            }
        case 12:
            // 30 0A 06 08 2A 86 48 CE 3D 04 03 x: ECDSA, parameters absent.
            let tail = UInt32(littleEndian: e.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard UInt64(littleEndian: e.loadUnaligned(as: UInt64.self)) == 0xCE48_862A_0806_0A30,
                tail & 0x00FF_FFFF == 0x0003_043D
            else { return nil }
            switch tail >> 24 {
            case 0x02: return .ecdsa(.sha256)
            case 0x03: return .ecdsa(.sha384)
            case 0x04: return .ecdsa(.sha512)
            default: return nil
            }
        case 7:
            // Ed25519, Ed448, parameters absent.
            return edDSAOIDLastOctet(e).map { $0 == 0x70 ? .ed25519 : .ed448 }
        default:
            return nil
        }
    }

    /// `parse` of an AlgorithmIdentifier read as `value`, field by field.
    static func parseContent(_ value: DERValue) throws(DERError) -> SignatureAlgorithm {
        try DERReader.enter(value) { (r) throws(DERError) -> SignatureAlgorithm in
            let oidStart = r.position
            // A known algorithm's OID is one of the constants matched byte for byte below, all
            // valid: only an unknown one needs validating (as extension OIDs are in
            // `Certificate.validateExtensions`), before its parameters are read.
            let oidValue = try r.read(.objectIdentifier)
            let oid = oidValue.content
            // RFC 4055 §5 / RFC 3279 §2.2.1: PKCS#1 v1.5 parameters MUST be NULL. RFC 8017
            // Appendix C notes absent parameters in old implementations; Sigil accepts the
            // absent form too (see `acceptsAbsentRSAParameters`) because real roots use it.
            if let d = rsaPKCS1Digest(oid) {
                try readNullOrAbsentRSAParameters(&r)
                return .rsaPKCS1(d)
            }
            if let d = ecdsaDigest(oid) {
                // RFC 5758 §3.2: the parameters field MUST be absent.
                if !r.isAtEnd { throw DERError(.invalidAlgorithmParameters, at: r.position) }
                return .ecdsa(d)
            }
            if OID.ed25519.matches(oid) || OID.ed448.matches(oid) {
                // RFC 8410 §3: parameters MUST be absent.
                if !r.isAtEnd { throw DERError(.invalidAlgorithmParameters, at: r.position) }
                return OID.ed25519.matches(oid) ? .ed25519 : .ed448
            }
            if OID.rsassaPSS.matches(oid) {
                // RFC 4055 §3.1: in a signature algorithm the parameters MUST be present.
                guard !r.isAtEnd else { throw DERError(.invalidAlgorithmParameters, at: oidStart) }
                return .rsaPSS(try parsePSSParameters(&r))
            }
            // Unknown algorithm: its parameters (any single value, ANY DEFINED BY algorithm)
            // are not decoded but must be strict DER (X.690 §8.1.2.5, §10).
            _ = try oidValue.decodeObjectIdentifier()
            if !r.isAtEnd { _ = try r.readAnyValue() }
            return .unknown
        }
    }

    static func rsaPKCS1Digest(_ oid: UnsafeRawBufferPointer) -> DigestAlgorithm? {
        if OID.sha256WithRSAEncryption.matches(oid) { return .sha256 }
        if OID.sha384WithRSAEncryption.matches(oid) { return .sha384 }
        if OID.sha512WithRSAEncryption.matches(oid) { return .sha512 }
        if OID.sha1WithRSAEncryption.matches(oid) { return .sha1 }
        if OID.sha224WithRSAEncryption.matches(oid) { return .sha224 }
        if OID.md5WithRSAEncryption.matches(oid) { return .md5 }
        if OID.md2WithRSAEncryption.matches(oid) { return .md2 }
        return nil
    }

    static func ecdsaDigest(_ oid: UnsafeRawBufferPointer) -> DigestAlgorithm? {
        if OID.ecdsaWithSHA256.matches(oid) { return .sha256 }
        if OID.ecdsaWithSHA384.matches(oid) { return .sha384 }
        if OID.ecdsaWithSHA512.matches(oid) { return .sha512 }
        if OID.ecdsaWithSHA224.matches(oid) { return .sha224 }
        if OID.ecdsaWithSHA1.matches(oid) { return .sha1 }
        return nil
    }

    /// Tolerated deviation: RFC 4055 §5 says NULL, but absent parameters occur in certificates
    /// produced by some old CAs and are unambiguous (RFC 8017 Appendix C allows reading both).
    static func readNullOrAbsentRSAParameters(_ r: inout DERReader) throws(DERError) {
        if r.isAtEnd { return }
        guard try r.peekTagChecked() == .null else { throw DERError(.invalidAlgorithmParameters, at: r.position) }
        try r.readNull()
    }

    /// Hash AlgorithmIdentifier inside PSS parameters: SHA-2 family, parameters NULL or absent
    /// (RFC 4055 §2.1 requires accepting both).
    static func parseHashIdentifier(_ r: inout DERReader) throws(DERError) -> DigestAlgorithm {
        try r.enter(.sequence) { (h) throws(DERError) -> DigestAlgorithm in
            let at = h.position
            let oid = try h.readObjectIdentifier()
            guard let d = DigestAlgorithm.fromOID(oid) else { throw DERError(.invalidAlgorithmParameters, at: at) }
            if !h.isAtEnd { try h.readNull() }
            return d
        }
    }

    /// RSASSA-PSS-params ::= SEQUENCE {
    ///   hashAlgorithm    [0] HashAlgorithm    DEFAULT sha1,
    ///   maskGenAlgorithm [1] MaskGenAlgorithm DEFAULT mgf1SHA1,
    ///   saltLength       [2] INTEGER          DEFAULT 20,
    ///   trailerField     [3] TrailerField     DEFAULT trailerFieldBC }   -- RFC 4055 §3.1
    static func parsePSSParameters(_ reader: inout DERReader) throws(DERError) -> RSAPSSParameters {
        try reader.enter(.sequence) { (r) throws(DERError) -> RSAPSSParameters in
            var p = RSAPSSParameters(hash: .sha1, mgf1Hash: .sha1, saltLength: 20)
            if let h = try r.enterOptional(
                .contextConstructed(0),
                { (e) throws(DERError) -> DigestAlgorithm in
                    try parseHashIdentifier(&e)
                })
            {
                p.hash = h
            }
            if let m = try r.enterOptional(
                .contextConstructed(1),
                { (e) throws(DERError) -> DigestAlgorithm in
                    try e.enter(.sequence) { (mgf) throws(DERError) -> DigestAlgorithm in
                        let at = mgf.position
                        let oid = try mgf.readObjectIdentifier()
                        // RFC 4055 §3.1: MGF1 is the only mask generation function.
                        guard OID.mgf1.matches(oid) else { throw DERError(.invalidAlgorithmParameters, at: at) }
                        return try parseHashIdentifier(&mgf)
                    }
                })
            {
                p.mgf1Hash = m
            }
            if let s = try r.enterOptional(
                .contextConstructed(2),
                { (e) throws(DERError) -> Int64 in
                    try e.readInt64()
                })
            {
                guard s >= 0 && s <= 4096 else { throw DERError(.invalidAlgorithmParameters, at: r.position) }
                p.saltLength = Int(s)
            }
            if let t = try r.enterOptional(
                .contextConstructed(3),
                { (e) throws(DERError) -> Int64 in
                    try e.readInt64()
                })
            {
                // RFC 4055 §3.1: trailerField MUST be 1 (0xBC).
                guard t == 1 else { throw DERError(.invalidAlgorithmParameters, at: r.position) }
            }
            return p
        }
    }
}

/// Named elliptic curves (RFC 5480 §2.1.1.1).
public enum NamedCurve: Sendable, Hashable {
    /// secp256r1, secp384r1 and secp521r1 (NIST P-256, P-384, P-521; RFC 5480 §2.1.1.1).
    case p256, p384, p521
    /// A named curve Sigil does not implement (e.g. brainpool, secp256k1).
    case other

    /// A short human-readable name.
    public var name: String {
        switch self {
        case .p256: return "P-256"
        case .p384: return "P-384"
        case .p521: return "P-521"
        case .other: return "unsupported curve"
        }
    }

    /// The size of the curve's field in bits (0 for an unsupported curve).
    public var bitCount: Int {
        switch self {
        case .p256: return 256
        case .p384: return 384
        case .p521: return 521
        case .other: return 0
        }
    }
}

/// The algorithm of a SubjectPublicKeyInfo.
public enum PublicKeyAlgorithm: Sendable, Hashable {
    /// rsaEncryption (RFC 3279 §2.3.1).
    case rsa
    /// id-RSASSA-PSS key (RFC 4055 §1.2), with its parameters when present.
    case rsaPSS(RSAPSSParameters?)
    /// id-ecPublicKey with a named curve (RFC 5480 §2.1.1).
    case ec(NamedCurve)
    /// id-ecPublicKey with implicit or specified curve parameters (RFC 5480 §2.1.1: MUST NOT be
    /// used in PKIX); parsed so the certificate can be shown, refused by verification.
    case ecExplicitParameters
    /// id-Ed25519 (RFC 8410 §3; parameters absent).
    case ed25519
    /// id-Ed448 (RFC 8410 §3; parameters absent).
    case ed448
    /// Any other algorithm OID (DSA, GOST, ...); its parameters are not decoded (only checked
    /// as strict DER, `DERValue.validateAsAny`).
    case unknown

    /// A short human-readable name.
    public var name: String {
        switch self {
        case .rsa: return "RSA"
        case .rsaPSS: return "RSA-PSS"
        case .ec(let c): return "EC \(c.name)"
        case .ecExplicitParameters: return "EC (explicit parameters)"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        case .unknown: return "unknown"
        }
    }

    /// Parses the AlgorithmIdentifier of a SubjectPublicKeyInfo.
    static func parse(_ reader: inout DERReader) throws(DERError) -> PublicKeyAlgorithm {
        let value = try reader.read(.sequence)
        if let known = common(value) { return known }
        return try parseContent(value)
    }

    /// The algorithm of one of the usual encodings, matched whole (octets in the comments):
    /// what `parseContent` returns for exactly these octets; nil for every other value
    /// (`AlgorithmIdentifierFastPathModelTests` compares the two).
    @inline(__always)
    static func common(_ value: DERValue) -> PublicKeyAlgorithm? {
        let e = value.encoded
        guard value.contentIsWithinNestingLimit else { return nil }
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: e.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        switch e.count {
        case 15:
            // 30 0D 06 09 2A 86 48 86 F7 0D 01 01 01 05 00: rsaEncryption, NULL parameters.
            return word(0) == 0x8648_862A_0906_0D30 && word(7) == 0x0005_0101_010D_F786 ? .rsa : nil
        case 21:
            // 30 13 06 07 2A 86 48 CE 3D 02 01 06 08 2A 86 48 CE 3D 03 01 07: EC, secp256r1.
            return word(0) == 0xCE48_862A_0706_1330 && word(8) == 0x4886_2A08_0601_023D
                && word(13) == 0x0701_033D_CE48_862A ? .ec(.p256) : nil
        case 18:
            // 30 10 06 07 2A 86 48 CE 3D 02 01 06 05 2B 81 04 00 22 / 23: EC, secp384r1 / secp521r1.
            guard word(0) == 0xCE48_862A_0706_1030, word(8) == 0x0481_2B05_0601_023D, e[16] == 0x00 else { return nil }
            return e[17] == 0x22 ? .ec(.p384) : e[17] == 0x23 ? .ec(.p521) : nil
        case 7:
            // Ed25519, Ed448 keys, parameters absent.
            return edDSAOIDLastOctet(e).map { $0 == 0x70 ? .ed25519 : .ed448 }
        default:
            return nil
        }
    }

    /// `parse` of an AlgorithmIdentifier read as `value`, field by field.
    static func parseContent(_ value: DERValue) throws(DERError) -> PublicKeyAlgorithm {
        try DERReader.enter(value) { (r) throws(DERError) -> PublicKeyAlgorithm in
            // Known OIDs are matched byte for byte against valid constants; an unknown one is
            // validated (as in `SignatureAlgorithm.parse`).
            let oidValue = try r.read(.objectIdentifier)
            let oid = oidValue.content
            if OID.rsaEncryption.matches(oid) {
                // RFC 3279 §2.3.1: parameters MUST be NULL; absent tolerated as for signatures.
                try SignatureAlgorithm.readNullOrAbsentRSAParameters(&r)
                return .rsa
            }
            if OID.ecPublicKey.matches(oid) {
                guard let tag = try r.peekTagChecked() else {
                    throw DERError(.invalidAlgorithmParameters, at: r.position)
                }
                if tag == .objectIdentifier {
                    let curveValue = try r.read(.objectIdentifier)
                    let curve = curveValue.content
                    if OID.secp256r1.matches(curve) { return .ec(.p256) }
                    if OID.secp384r1.matches(curve) { return .ec(.p384) }
                    if OID.secp521r1.matches(curve) { return .ec(.p521) }
                    _ = try curveValue.decodeObjectIdentifier()
                    return .ec(.other)
                }
                // ECParameters / implicitCurve (RFC 3279 §2.3.5): not decoded, strict DER.
                _ = try r.readAnyValue()
                return .ecExplicitParameters
            }
            if OID.ed25519.matches(oid) || OID.ed448.matches(oid) {
                if !r.isAtEnd { throw DERError(.invalidAlgorithmParameters, at: r.position) }
                return OID.ed25519.matches(oid) ? .ed25519 : .ed448
            }
            if OID.rsassaPSS.matches(oid) {
                // RFC 4055 §1.2: parameters absent (any PSS use) or present (restricted).
                if r.isAtEnd { return .rsaPSS(nil) }
                return .rsaPSS(try SignatureAlgorithm.parsePSSParameters(&r))
            }
            // Unknown key algorithm: parameters not decoded, strict DER.
            _ = try oidValue.decodeObjectIdentifier()
            if !r.isAtEnd { _ = try r.readAnyValue() }
            return .unknown
        }
    }
}
