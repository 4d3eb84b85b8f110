@_spi(SigilInternal) import SigilDER

/// What path validation reads from a certificate's extensions, decoded in the one strict pass
/// that `validateExtensions()` makes: the trust layer's per-certificate fact block
/// (SigilTrust's `CertificateFacts`) keeps these instead of decoding a second time.
/// Sigil-internal (`@_spi(SigilInternal)`).
@_spi(SigilInternal) public struct TrustExtensions: Sendable {
    /// basicConstraints (RFC 5280 §4.2.1.9), when present.
    public var basicConstraints: BasicConstraints?
    /// keyUsage (§4.2.1.3), when present.
    public var keyUsage: KeyUsage?
    /// Offsets in `der` of the extKeyUsage KeyPurposeId list (§4.2.1.12: the SEQUENCE
    /// content), when present (offsets, not a view: making one costs a Certificate copy).
    public var extendedKeyUsage: (start: Int, end: Int)?
    /// The purposes path validation reads that extKeyUsage lists, one bit per `Purpose`
    /// (classified during the one decoding; 0 when the extension is absent).
    public var extendedKeyUsagePurposes: UInt8 = 0
    /// subjectAltName (§4.2.1.6), when present.
    public var subjectAltNames: GeneralNames?
    /// Offsets in `der` of the subjectKeyIdentifier octets (§4.2.1.2), when present.
    public var subjectKeyIdentifier: (start: Int, end: Int)?
    /// authorityKeyIdentifier (§4.2.1.1) is present.
    public var hasAuthorityKeyIdentifier = false
    /// Offsets in `der` of its keyIdentifier octets, when present.
    public var authorityKeyIdentifierKeyID: (start: Int, end: Int)?
    /// Its authorityCertIssuer is present.
    public var authorityKeyIdentifierHasIssuer = false
    /// nameConstraints (§4.2.1.10) is present.
    public var hasNameConstraints = false
    /// certificatePolicies (§4.2.1.4), when present.
    public var certificatePolicies: CertificatePolicies?
    /// policyMappings (§4.2.1.5) is present.
    public var hasPolicyMappings = false
    /// policyConstraints (§4.2.1.11) is present.
    public var hasPolicyConstraints = false
    /// Nothing decoded yet (what `Certificate.trustExtensions(into:)` starts from).
    public init() {}

    /// One bit per `TrustExtensions.Bit` for the known extensions present.
    public var present: UInt32 = 0
    /// One bit per `TrustExtensions.Bit` for the known extensions marked critical.
    public var critical: UInt32 = 0
    /// An extension Sigil does not know is marked critical.
    public var unknownCritical = false

    /// Bits of `extendedKeyUsagePurposes`.
    public enum Purpose {
        /// id-kp-serverAuth (RFC 5280 §4.2.1.12).
        public static let serverAuth: UInt8 = 1 << 0
        /// id-kp-clientAuth.
        public static let clientAuth: UInt8 = 1 << 1
        /// anyExtendedKeyUsage.
        public static let any: UInt8 = 1 << 2

        /// The bit of a KeyPurposeId (OID content octets) compared byte for byte with
        /// `OID.serverAuth`, `OID.clientAuth` and `OID.anyExtendedKeyUsage`; 0 for any other.
        @inline(__always)
        static func of(_ o: UnsafeRawBufferPointer) -> UInt8 {
            if o.count == 8 {
                // id-kp = 1.3.6.1.5.5.7.3: 2B 06 01 05 05 07 03, then the purpose's arc.
                guard
                    o[0] == 0x2B && o[1] == 0x06 && o[2] == 0x01 && o[3] == 0x05 && o[4] == 0x05 && o[5] == 0x07
                        && o[6] == 0x03
                else { return 0 }
                switch o[7] {
                case 0x01: return serverAuth
                case 0x02: return clientAuth
                default: return 0
                }
            }
            // anyExtendedKeyUsage = 2.5.29.37.0: 55 1D 25 00.
            if o.count == 4 && o[0] == 0x55 && o[1] == 0x1D && o[2] == 0x25 && o[3] == 0x00 { return any }
            return 0
        }
    }

    /// Bit positions in `present` and `critical`.
    public enum Bit {
        public static let basicConstraints: UInt32 = 1 << 0
        public static let keyUsage: UInt32 = 1 << 1
        public static let extKeyUsage: UInt32 = 1 << 2
        public static let subjectAltName: UInt32 = 1 << 3
        public static let issuerAltName: UInt32 = 1 << 4
        public static let subjectKeyIdentifier: UInt32 = 1 << 5
        public static let authorityKeyIdentifier: UInt32 = 1 << 6
        public static let nameConstraints: UInt32 = 1 << 7
        public static let certificatePolicies: UInt32 = 1 << 8
        public static let policyMappings: UInt32 = 1 << 9
        public static let policyConstraints: UInt32 = 1 << 10
        public static let inhibitAnyPolicy: UInt32 = 1 << 11
        public static let cRLDistributionPoints: UInt32 = 1 << 12
        public static let freshestCRL: UInt32 = 1 << 13
        public static let authorityInfoAccess: UInt32 = 1 << 14
        public static let signedCertificateTimestampList: UInt32 = 1 << 15

        /// The bit of a known extension OID (content octets), nil for an extension the index
        /// does not know.
        public static func of(_ oid: [UInt8]) -> UInt32? {
            KnownExtension.slot(oid).map { UInt32(1) << UInt32($0) }
        }
    }
}

extension Certificate {
    /// Decodes every extension Sigil knows, strictly, failing on the first malformed one (in
    /// this order: basicConstraints, keyUsage, extKeyUsage, subjectAltName, issuerAltName,
    /// subjectKeyIdentifier, authorityKeyIdentifier, nameConstraints, certificatePolicies,
    /// policyMappings, policyConstraints, inhibitAnyPolicy, authorityInfoAccess,
    /// cRLDistributionPoints, freshestCRL, SCT list), and returns what path validation reads,
    /// with the criticality of every extension (RFC 5280 §4.2). `validateExtensions()` is this
    /// call with the result dropped: the two cannot disagree. Allocates nothing.
    @_spi(SigilInternal) public func trustExtensions() throws(DERError) -> TrustExtensions {
        var x = TrustExtensions()
        try trustExtensions(into: &x)
        return x
    }

    /// `trustExtensions()` written into `x` (a fresh `TrustExtensions()`): the fact block's
    /// caller decodes in place instead of copying the result (~500 instructions a chain).
    /// On a throw `x` holds part of the decoding: start again from a fresh value.
    @_spi(SigilInternal) public func trustExtensions(into x: inout TrustExtensions) throws(DERError) {
        // Only the extensions present are decoded (the parse recorded which: an absent one's
        // accessor would answer nil). The list decoders validate every element while decoding
        // (`listExtension`), so the lists need not be walked again here.
        let p = spans.knownPresent
        func has(_ slot: Int) -> Bool { p & (1 << UInt16(slot)) != 0 }
        if has(KnownExtension.basicConstraints) { x.basicConstraints = try basicConstraints() }
        if has(KnownExtension.keyUsage) { x.keyUsage = try keyUsage() }
        if has(KnownExtension.extKeyUsage) {
            // `extendedKeyUsage()`'s decoding (a SEQUENCE of at least one valid OID, nothing
            // after it), classifying the purposes the verifier reads on the way: the list is not
            // walked again for them.
            var purposes: UInt8 = 0
            let list = try listExtensionRange(KnownExtension.extKeyUsage) { (r) throws(DERError) in
                purposes |= TrustExtensions.Purpose.of(try r.readObjectIdentifier())
            }
            if let list { x.extendedKeyUsage = (list.0, list.1) }
            x.extendedKeyUsagePurposes = purposes
        }
        // The decodings below are the accessors' own (`…Range` / `…Ranges`: the same readers,
        // returning offsets instead of views, which would each copy the Certificate).
        if has(KnownExtension.subjectAltName) { x.subjectAltNames = try subjectAlternativeNames() }
        if has(KnownExtension.issuerAltName) { _ = try generalNamesExtensionRange(KnownExtension.issuerAltName) }
        if has(KnownExtension.subjectKeyIdentifier), let ski = try subjectKeyIdentifierRange() {
            x.subjectKeyIdentifier = (ski.0, ski.1)
        }
        if has(KnownExtension.authorityKeyIdentifier), let aki = try authorityKeyIdentifierRanges() {
            x.hasAuthorityKeyIdentifier = true
            if let k = aki.key { x.authorityKeyIdentifierKeyID = (k.0, k.1) }
            x.authorityKeyIdentifierHasIssuer = aki.issuer != nil
        }
        if has(KnownExtension.nameConstraints) { x.hasNameConstraints = try nameConstraints() != nil }
        if has(KnownExtension.certificatePolicies) { x.certificatePolicies = try certificatePolicies() }
        if has(KnownExtension.policyMappings) { x.hasPolicyMappings = try policyMappings() != nil }
        if has(KnownExtension.policyConstraints) { x.hasPolicyConstraints = try policyConstraints() != nil }
        if has(KnownExtension.inhibitAnyPolicy) { _ = try inhibitAnyPolicy() }
        if has(KnownExtension.authorityInfoAccess) { _ = try authorityInformationAccessRange() }
        if has(KnownExtension.cRLDistributionPoints) {
            _ = try distributionPointsRange(KnownExtension.cRLDistributionPoints)
        }
        if has(KnownExtension.freshestCRL) { _ = try distributionPointsRange(KnownExtension.freshestCRL) }
        if has(KnownExtension.signedCertificateTimestampList) { _ = try signedCertificateTimestampsRange() }
        // Presence and criticality (RFC 5280 §4.2), as the walk over the list made while
        // parsing recorded them (`Spans.knownPresent` / `knownCritical` / `unknownCritical`).
        x.present = UInt32(spans.knownPresent)
        x.critical = UInt32(spans.knownCritical)
        x.unknownCritical = spans.unknownCritical
    }

    /// `trustExtensions()` for a certificate whose extensions do not all decode: each extension
    /// Sigil knows decoded on its own, those that do not decode left out (the subjectAltName
    /// always), presence and criticality read from the extension list. Best effort, for
    /// reporting the other failures of a certificate that is refused anyway (SigilTrust's
    /// `CertificateFacts`, which derives its facts from either result the same way).
    @_spi(SigilInternal) public func trustExtensionsBestEffort() -> TrustExtensions {
        var x = TrustExtensions()
        x.basicConstraints = (try? basicConstraints()) ?? nil
        x.keyUsage = (try? keyUsage()) ?? nil
        if let eku = (try? extendedKeyUsage()) ?? nil {
            x.extendedKeyUsage = (eku.list.start, eku.list.end)
            if eku.contains(OID.serverAuth) { x.extendedKeyUsagePurposes |= TrustExtensions.Purpose.serverAuth }
            if eku.contains(OID.clientAuth) { x.extendedKeyUsagePurposes |= TrustExtensions.Purpose.clientAuth }
            if eku.contains(OID.anyExtendedKeyUsage) { x.extendedKeyUsagePurposes |= TrustExtensions.Purpose.any }
        }
        if let ski = (try? subjectKeyIdentifier()) ?? nil { x.subjectKeyIdentifier = (ski.start, ski.end) }
        if let aki = (try? authorityKeyIdentifier()) ?? nil {
            x.hasAuthorityKeyIdentifier = true
            if let k = aki.keyIdentifier { x.authorityKeyIdentifierKeyID = (k.start, k.end) }
            x.authorityKeyIdentifierHasIssuer = aki.authorityCertIssuer != nil
        }
        x.hasNameConstraints = ((try? nameConstraints()) ?? nil) != nil
        x.certificatePolicies = (try? certificatePolicies()) ?? nil
        for e in extensions {
            if let slot = e.oid.withUnsafeBytes({ KnownExtension.slot($0) }) {
                x.present |= 1 << UInt32(slot)
                if e.critical { x.critical |= 1 << UInt32(slot) }
            } else if e.critical {
                x.unknownCritical = true
            }
        }
        // By presence: a path holding this certificate is refused whatever they say.
        x.hasPolicyMappings = x.present & TrustExtensions.Bit.policyMappings != 0
        x.hasPolicyConstraints = x.present & TrustExtensions.Bit.policyConstraints != 0
        return x
    }
}

extension CertificatePolicies {
    /// True when the list holds at most `limit` policies (at most 64) and no policy OID twice
    /// (RFC 5280 §4.2.1.4: "a certificate policy OID MUST NOT appear more than once"),
    /// compared pairwise on the raw encodings, on the stack. Sigil-internal.
    @_spi(SigilInternal) public func policiesAreDistinct(atMost limit: Int) -> Bool {
        let limit = Swift.min(limit, 64)
        let start = list.start
        let end = list.end
        return list.storage.withUnsafeBytes { b in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: limit) { seen in
                var count = 0
                var r = DERReader(input: b, from: start, to: end)
                while !r.isAtEnd {
                    // Validated when the extension was decoded: any error ends the answer "no".
                    guard let info = try? r.read(.sequence) else { return false }
                    var p = DERReader(input: b, from: info.contentStart, to: info.end)
                    guard let oid = try? p.read(.objectIdentifier) else { return false }
                    if count == limit { return false }
                    let o = oid.content
                    for k in 0..<count {
                        let (s, e) = seen[k]
                        if DERValue.bytesEqual(UnsafeRawBufferPointer(rebasing: b[s..<e]), o) { return false }
                    }
                    seen[count] = (oid.contentStart, oid.end)
                    count += 1
                }
                return true
            }
        }
    }
}
