@_spi(SigilInternal) import SigilDER

/// One extension: `Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE,
/// extnValue OCTET STRING }` (RFC 5280 §4.1). `value` is the content of extnValue, i.e. the
/// DER encoding of the extension's own ASN.1 type.
public struct Extension: Sendable {
    // One storage reference and four 32-bit offsets (as `ByteSpan`'s): four words, so the
    // value (and an `Optional<Extension>`) is returned and destroyed in registers, with one
    // reference count instead of two per extension.
    @usableFromInline let storage: [UInt8]
    @usableFromInline let offsets: (oidStart: UInt32, oidEnd: UInt32, valueStart: UInt32, valueEnd: UInt32)
    /// The `critical` flag (false when the DEFAULT FALSE field is absent, as DER requires).
    public let critical: Bool

    /// OID content octets.
    @inlinable public var oid: ByteSpan { ByteSpan(storage, Int(offsets.oidStart), Int(offsets.oidEnd)) }
    /// The content of extnValue: the DER encoding of the extension's own ASN.1 type.
    @inlinable public var value: ByteSpan { ByteSpan(storage, Int(offsets.valueStart), Int(offsets.valueEnd)) }

    /// The extension whose OID content is `storage[oid]` and extnValue content `storage[value]`
    /// (offsets within a buffer its parser bounded, as a `ByteSpan`'s).
    init(storage: [UInt8], oid: (Int, Int), critical: Bool, value: (Int, Int)) {
        self.storage = storage
        self.offsets = (
            UInt32(truncatingIfNeeded: oid.0), UInt32(truncatingIfNeeded: oid.1),
            UInt32(truncatingIfNeeded: value.0), UInt32(value.1)
        )
        self.critical = critical
    }

    /// The OID in dotted form, e.g. "2.5.29.19" (allocates; for display).
    @available(*, deprecated, message: "use OID.dotted(oid), the one dotted-OID spelling")
    public var oidDotted: String {
        OID.dotted(oid)
    }

    /// A descriptive name for known extensions ("basicConstraints"), else nil.
    public var name: String? {
        oid.withUnsafeBytes { b in OID.displayName(b) }
    }
}

/// The extensions of a certificate, a CRL or a CRL entry, in order (validated during parsing).
public struct Extensions: Sequence, Sendable {
    let storage: [UInt8]
    let start: Int
    let end: Int

    /// An iterator from the first extension.
    public func makeIterator() -> Iterator { Iterator(storage: storage, position: start, end: end) }

    /// Walks the extensions in encoding order.
    public struct Iterator: IteratorProtocol {
        let storage: [UInt8]
        var position: Int
        let end: Int

        /// The next extension, or nil at the end (the list was validated while parsing, so none is
        /// skipped).
        ///
        /// The list was validated by the strict reader when it was parsed (`validateExtensions`:
        /// each Extension's fields, in DER, nothing after them), so each step reads only the
        /// headers, as the list iterators do (`ListCursor.header`: every octet read lies within
        /// the list, every length within its TLV): the SEQUENCE, extnID, the `critical` BOOLEAN
        /// when its tag is there (DER TRUE: the parse refused an explicit FALSE), and extnValue,
        /// which must end the SEQUENCE. Anything else ends the walk (never, in a parsed list).
        public mutating func next() -> Extension? {
            let storage = storage
            let e = end
            guard let x = ListCursor.header(storage, position, e), x.tag == 0x30,
                let o = ListCursor.header(storage, x.contentStart, x.end), o.tag == 0x06,
                var v = ListCursor.header(storage, o.end, x.end)
            else {
                position = e
                return nil
            }
            var critical = false
            if v.tag == 0x01 {
                critical = v.end - v.contentStart == 1 && storage[v.contentStart] == 0xFF
                guard let w = ListCursor.header(storage, v.end, x.end) else {
                    position = e
                    return nil
                }
                v = w
            }
            guard v.tag == 0x04, v.end == x.end else {
                position = e
                return nil
            }
            position = x.end
            return Extension(
                storage: storage, oid: (o.contentStart, o.end), critical: critical, value: (v.contentStart, v.end))
        }
    }
}

extension Certificate {
    /// All extensions, in order.
    public var extensions: Extensions {
        Extensions(storage: der, start: Int(spans.extensions.start), end: Int(spans.extensions.end))
    }

    /// The number of extensions.
    public var extensionCount: Int { Int(spans.extensionCount) }

    /// Calls `body` with each extension's OID content octets and `critical` flag, in order —
    /// what iterating ``extensions`` gives, read in place without making views (the bulk
    /// `inspect --json` writer lists them all). Sigil-internal.
    @_spi(SigilInternal)
    public func forEachExtensionOID(_ body: (UnsafeRawBufferPointer, Bool) -> Void) {
        let start = Int(spans.extensions.start)
        let end = Int(spans.extensions.end)
        der.withUnsafeBytes { b in
            var r = DERReader(input: b, from: start, to: end)
            while !r.isAtEnd {
                // Validated while parsing; a failure ends the walk, as it ends the iterator.
                let step = try? r.enter(.sequence) { (x) throws(DERError) -> (DERValue, Bool) in
                    let oid = try x.read(.objectIdentifier)
                    let critical = try x.readBooleanDefaultFalse()
                    _ = try x.read(.octetString)
                    return (oid, critical)
                }
                guard let (oid, critical) = step else { return }
                body(oid.content, critical)
            }
        }
    }

    /// The extension with the given OID (content octets), if present.
    public func `extension`(_ oid: [UInt8]) -> Extension? {
        if !spans.unindexed, let slot = KnownExtension.slot(oid) {
            // Indexed while parsing: decode it in place, or know it is absent.
            let relative = Int(spans.knownExtensions[slot])
            if relative == 0 { return nil }
            var it = extensions.makeIterator()
            it.position = Int(spans.extensions.start) + relative - 1
            return it.next()
        }
        for e in extensions where e.oid == oid { return e }
        return nil
    }

    /// Where the extnValue OCTET STRING TLV of an extension starts (`at`), and the offset its
    /// reading may not pass (`end`).
    typealias ValueLocation = (at: Int, end: Int)

    /// Where the extnValue of the known extension in index slot `slot` (see `KnownExtension`)
    /// lies; nil when the extension is absent. Indexed lists: from the index built while
    /// parsing, whose Extension there was validated then (`validateExtensions`), so only the
    /// extnValue OCTET STRING is read again (with the strict reader) by the decoders. Unindexed
    /// lists (over 64 KiB): by a scan.
    @inline(__always)
    func knownValueLocation(_ slot: Int) -> ValueLocation? {
        if spans.unindexed { return scannedValueLocation(KnownExtension.oid(slot)) }
        let relative = Int(spans.knownExtensions[slot])
        if relative == 0 { return nil }
        let at = Int(spans.extensions.start) + relative - 1 + Int(spans.knownValueDeltas[slot])
        return (at, Int(spans.extensions.end))
    }

    /// `knownValueLocation` of an unindexed list: the first extension with extnID `oid` (the
    /// parse refused duplicates), found by walking the list with the strict reader.
    func scannedValueLocation(_ oid: [UInt8]) -> ValueLocation? {
        let start = Int(spans.extensions.start)
        let end = Int(spans.extensions.end)
        return der.withUnsafeBytes { b -> ValueLocation? in
            var r = DERReader(input: b, from: start, to: end)
            while !r.isAtEnd {
                let step = try? r.enter(.sequence) { (x) throws(DERError) -> (Bool, Int, Int) in
                    let o = try x.read(.objectIdentifier)
                    _ = try x.readBooleanDefaultFalse()
                    let at = x.position
                    let v = try x.read(.octetString)
                    return (oid.matches(o.content), at, v.end)
                }
                guard let (found, at, valueEnd) = step else { return nil }
                if found { return (at, valueEnd) }
            }
            return nil
        }
    }

    /// Decodes the value of the known extension in slot `slot` with `body`, which must consume
    /// it all; nil when absent. Errors are `.invalidExtension` at the offending offset (any DER
    /// error inside an extension value is reported as the extension being malformed, with the
    /// precise offset).
    @inline(__always)
    func decodeKnownExtension<T>(_ slot: Int, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError) -> T? {
        guard let loc = knownValueLocation(slot) else { return nil }
        return try Certificate.decodeExtensionValue(der, loc) { (_, r) throws(DERError) -> T in try body(&r) }
    }

    /// `decodeKnownExtension` for decoders that make views: `body` is handed the storage. The
    /// decoding is a static function of the storage reference and the offsets: run as a method,
    /// or making views from `der` in one, the optimiser copied the whole Certificate (outlined
    /// copies, ~100 instructions each, measured with callgrind) to retain its storage.
    @inline(__always)
    func decodeKnownExtensionViews<T>(_ slot: Int, _ body: ([UInt8], inout DERReader) throws(DERError) -> T)
        throws(DERError) -> T?
    {
        guard let loc = knownValueLocation(slot) else { return nil }
        return try Certificate.decodeExtensionValue(der, loc, body)
    }

    /// The extnValue OCTET STRING at `loc` of `storage`, its content decoded by `body` (given
    /// the storage, to make views), which must consume it all; errors are `.invalidExtension`
    /// at their offset.
    static func decodeExtensionValue<T>(
        _ storage: [UInt8], _ loc: ValueLocation, _ body: ([UInt8], inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        do {
            return try withStorage(storage) { (buf) throws(DERError) -> T in
                var h = DERReader(input: buf, from: loc.at, to: loc.end)
                let value = try h.read(.octetString)
                var r = DERReader(input: buf, from: value.contentStart, to: value.end)
                let v = try body(storage, &r)
                try r.finish()
                return v
            }
        } catch {
            throw DERError(.invalidExtension, at: error.offset)
        }
    }

    // MARK: basicConstraints (§4.2.1.9)

    /// `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE,
    ///                                  pathLenConstraint INTEGER (0..MAX) OPTIONAL }`
    public func basicConstraints() throws(DERError) -> BasicConstraints? {
        guard let loc = knownValueLocation(KnownExtension.basicConstraints) else { return nil }
        if let plain = Certificate.plainBasicConstraints(der, loc) { return plain }
        return try Certificate.decodeExtensionValue(der, loc) { (_, r) throws(DERError) in
            try Certificate.basicConstraintsWithReaders(&r)
        }
    }

    /// basicConstraints' extnValue content decoded with the strict readers (every encoding).
    static func basicConstraintsWithReaders(_ r: inout DERReader) throws(DERError) -> BasicConstraints {
        try r.enter(.sequence) { (s) throws(DERError) -> BasicConstraints in
            let ca = try s.readBooleanDefaultFalse()
            var pathLen: Int?
            if let v = try s.readOptional(.integer) {
                let n = try v.decodeInt64()
                guard n >= 0 && n <= 255 else { throw DERError(.invalidExtension, at: v.contentStart) }
                pathLen = Int(n)
            }
            return BasicConstraints(isCA: ca, pathLength: pathLen)
        }
    }

    // MARK: keyUsage (§4.2.1.3)

    /// `KeyUsage ::= BIT STRING { digitalSignature (0), ... decipherOnly (8) }`
    /// Tolerated deviation: DER wants trailing zero bits of a named bit list removed
    /// (X.690 §11.2.2); some CAs encode fixed-width masks. The bits read the same either way.
    public func keyUsage() throws(DERError) -> KeyUsage? {
        guard let loc = knownValueLocation(KnownExtension.keyUsage) else { return nil }
        if let plain = Certificate.plainKeyUsage(der, loc) { return plain }
        return try Certificate.decodeExtensionValue(der, loc) { (_, r) throws(DERError) in
            try Certificate.keyUsageWithReaders(&r)
        }
    }

    /// keyUsage's extnValue content decoded with the strict readers (every encoding).
    static func keyUsageWithReaders(_ r: inout DERReader) throws(DERError) -> KeyUsage {
        let start = r.position
        let bits = try r.readBitString()
        var raw: UInt16 = 0
        for i in 0..<9 where bits.bit(i) { raw |= 1 << UInt16(i) }
        // §4.2.1.3: when the extension appears, at least one bit MUST be set.
        if raw == 0 { throw DERError(.invalidExtension, at: start) }
        // Bits beyond decipherOnly are not defined.
        for i in 9..<max(9, bits.bitCount) where bits.bit(i) { throw DERError(.invalidExtension, at: start) }
        return KeyUsage(rawValue: raw)
    }

    /// `basicConstraints()` for the encodings CAs write, on the octets: the extnValue
    /// `04 L 30 M` holding nothing (`30 00`), `cA` TRUE (`01 01 FF`), a pathLenConstraint of one
    /// octet (`02 01 n`, n < 0x80: minimal and non-negative), or both, and nothing after them.
    /// Nil for anything else — other lengths, an encoded FALSE, a longer or negative integer,
    /// every malformed value —, which the readers then decide (`PlainExtensionModelTests`
    /// checks the two agree).
    @inline(__always)
    static func plainBasicConstraints(_ storage: [UInt8], _ loc: ValueLocation) -> BasicConstraints? {
        storage.withUnsafeBytes { b -> BasicConstraints? in
            let at = loc.at
            guard at >= 0, loc.end <= b.count, loc.end &- at >= 4, b[at] == 0x04, b[at &+ 2] == 0x30 else { return nil }
            let m = Int(b[at &+ 3])
            // Short-form lengths only (the OCTET STRING's is `m + 2`).
            guard m < 0x7E, Int(b[at &+ 1]) == m &+ 2, m <= loc.end &- at &- 4 else { return nil }
            var p = at &+ 4
            let e = p &+ m
            var ca = false
            if p < e && b[p] == 0x01 {
                guard e &- p >= 3, b[p &+ 1] == 0x01, b[p &+ 2] == 0xFF else { return nil }
                ca = true
                p &+= 3
            }
            var pathLength: Int?
            if p < e {
                guard e &- p == 3, b[p] == 0x02, b[p &+ 1] == 0x01, b[p &+ 2] < 0x80 else { return nil }
                pathLength = Int(b[p &+ 2])
            }
            return BasicConstraints(isCA: ca, pathLength: pathLength)
        }
    }

    /// `keyUsage()` for a BIT STRING of one or two octets of bits, on the octets (extnValue
    /// `04 L 03 N u b0 [b1]`): the unused-bit count at most 7 with those bits zero (DER, X.690
    /// §11.2.1), at least one of bits 0–8 set, none beyond decipherOnly. Nil for anything else,
    /// which the readers then decide (`PlainExtensionModelTests`).
    @inline(__always)
    static func plainKeyUsage(_ storage: [UInt8], _ loc: ValueLocation) -> KeyUsage? {
        storage.withUnsafeBytes { b -> KeyUsage? in
            let at = loc.at
            guard at >= 0, loc.end <= b.count, loc.end &- at >= 5, b[at] == 0x04, b[at &+ 2] == 0x03 else { return nil }
            let n = Int(b[at &+ 3])
            guard n == 2 || n == 3, Int(b[at &+ 1]) == n &+ 2, n <= loc.end &- at &- 4 else { return nil }
            let unused = b[at &+ 4]
            let b0 = b[at &+ 5]
            let b1: UInt8 = n == 3 ? b[at &+ 6] : 0
            guard unused <= 7, (n == 3 ? b1 : b0) & ((1 << unused) &- 1) == 0, b1 & 0x7F == 0 else { return nil }
            // Bit i of the BIT STRING (bit 0 the first octet's most significant) at `1 << i`.
            var raw = UInt16(b1 >> 7) << 8
            for i in 0..<8 where b0 & (0x80 >> UInt8(i)) != 0 { raw |= 1 << UInt16(i) }
            return raw == 0 ? nil : KeyUsage(rawValue: raw)
        }
    }

    // MARK: extKeyUsage (§4.2.1.12)

    /// `ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId` — iterated as OID spans.
    public func extendedKeyUsage() throws(DERError) -> ObjectIdentifierList? {
        try listExtension(KnownExtension.extKeyUsage) { (r) throws(DERError) in _ = try r.readObjectIdentifier() }
            .map { ObjectIdentifierList(list: $0) }
    }
    // (`trustExtensions()` decodes extKeyUsage with `listExtensionRange` and the same element
    // reader, classifying the purposes on the way.)

    // MARK: subjectAltName / issuerAltName (§4.2.1.6, §4.2.1.7)

    /// `SubjectAltName ::= GeneralNames`, iterated (every GeneralName kind).
    public func subjectAlternativeNames() throws(DERError) -> GeneralNames? {
        try generalNamesExtension(KnownExtension.subjectAltName)
    }

    /// `IssuerAltName ::= GeneralNames` (§4.2.1.7), iterated (every GeneralName kind). Nil when
    /// absent; `.invalidExtension` (at the offending offset) when malformed.
    public func issuerAlternativeNames() throws(DERError) -> GeneralNames? {
        try generalNamesExtension(KnownExtension.issuerAltName)
    }

    func generalNamesExtension(_ slot: Int) throws(DERError) -> GeneralNames? {
        try listExtension(slot) { (r) throws(DERError) in try GeneralName.check(&r) }
            .map { GeneralNames(list: $0) }
    }

    /// `generalNamesExtension(slot)`'s decoding, every name validated, returning where the list
    /// lies (no view made: for `trustExtensions()`, which only validates issuerAltName).
    func generalNamesExtensionRange(_ slot: Int) throws(DERError) -> (Int, Int)? {
        try listExtensionRange(slot) { (r) throws(DERError) in try GeneralName.check(&r) }
    }

    // MARK: key identifiers (§4.2.1.1, §4.2.1.2)

    /// `SubjectKeyIdentifier ::= KeyIdentifier ::= OCTET STRING`
    public func subjectKeyIdentifier() throws(DERError) -> ByteSpan? {
        try decodeKnownExtensionViews(KnownExtension.subjectKeyIdentifier) { (storage, r) throws(DERError) in
            let (s, e) = try Certificate.keyIdentifierOctets(&r)
            return ByteSpan(storage, s, e)
        }
    }

    /// `subjectKeyIdentifier()`'s decoding, returning where the octets lie (no view made: for
    /// `trustExtensions()`, which keeps only the offsets).
    func subjectKeyIdentifierRange() throws(DERError) -> (Int, Int)? {
        try decodeKnownExtension(KnownExtension.subjectKeyIdentifier, Certificate.keyIdentifierOctets)
    }

    /// The KeyIdentifier OCTET STRING's content offsets (the one decoding of both paths).
    static func keyIdentifierOctets(_ r: inout DERReader) throws(DERError) -> (Int, Int) {
        let v = try r.read(.octetString)
        return (v.contentStart, v.end)
    }

    /// `AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] KeyIdentifier OPTIONAL,
    ///   authorityCertIssuer [1] GeneralNames OPTIONAL,
    ///   authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }`
    public func authorityKeyIdentifier() throws(DERError) -> AuthorityKeyIdentifier? {
        try decodeKnownExtensionViews(KnownExtension.authorityKeyIdentifier) {
            (storage, r) throws(DERError) -> AuthorityKeyIdentifier in
            let found = try Certificate.authorityKeyIdentifierFields(&r)
            return AuthorityKeyIdentifier(
                keyIdentifier: found.key.map { ByteSpan(storage, $0.0, $0.1) },
                authorityCertIssuer: found.issuer.map { GeneralNames(list: ByteSpan(storage, $0.0, $0.1)) },
                authorityCertSerialNumber: found.serial.map { ByteSpan(storage, $0.0, $0.1) })
        }
    }

    /// Where an authorityKeyIdentifier's fields lie (content offsets), each nil when absent.
    typealias AuthorityKeyIdentifierRanges = (key: (Int, Int)?, issuer: (Int, Int)?, serial: (Int, Int)?)

    /// `authorityKeyIdentifier()`'s decoding, returning where its fields lie (no views made:
    /// for `trustExtensions()`, which keeps only offsets).
    func authorityKeyIdentifierRanges() throws(DERError) -> AuthorityKeyIdentifierRanges? {
        try decodeKnownExtension(KnownExtension.authorityKeyIdentifier, Certificate.authorityKeyIdentifierFields)
    }

    /// The one decoding of an authorityKeyIdentifier value (both paths).
    static func authorityKeyIdentifierFields(_ r: inout DERReader) throws(DERError) -> AuthorityKeyIdentifierRanges {
        typealias Found = AuthorityKeyIdentifierRanges
        return try r.enter(.sequence) { (s) throws(DERError) -> Found in
            var f: Found = (nil, nil, nil)
            if let k = try s.readOptional(.contextPrimitive(0)) {
                f.key = (k.contentStart, k.end)
            }
            if let n = try s.readOptional(.contextConstructed(1)) {
                try validateList(n, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                f.issuer = (n.contentStart, n.end)
            }
            if let sn = try s.readOptional(.contextPrimitive(2)) {
                _ = try sn.decodeIntegerBytes()
                f.serial = (sn.contentStart, sn.end)
            }
            // §4.2.1.1: issuer and serial are present together or not at all.
            if (f.issuer == nil) != (f.serial == nil) {
                throw DERError(.invalidExtension, at: s.position)
            }
            return f
        }
    }

    // MARK: nameConstraints (§4.2.1.10)

    /// `NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
    ///                                 excludedSubtrees  [1] GeneralSubtrees OPTIONAL }`
    /// `GeneralSubtree ::= SEQUENCE { base GeneralName, minimum [0] BaseDistance DEFAULT 0,
    ///                                maximum [1] BaseDistance OPTIONAL }`
    /// §4.2.1.10: minimum MUST be zero and maximum MUST be absent; Sigil rejects other values
    /// (an explicit minimum 0 also breaks DER's DEFAULT rule), and an empty NameConstraints.
    public func nameConstraints() throws(DERError) -> NameConstraints? {
        try decodeKnownExtensionViews(KnownExtension.nameConstraints) {
            (storage, r) throws(DERError) -> NameConstraints in
            try r.enter(.sequence) { (s) throws(DERError) -> NameConstraints in
                var nc = NameConstraints()
                if let v = try s.readOptional(.contextConstructed(0)) {
                    try Certificate.validateSubtrees(v)
                    nc.permitted = GeneralSubtrees(list: ByteSpan(storage, v.contentStart, v.end))
                }
                if let v = try s.readOptional(.contextConstructed(1)) {
                    try Certificate.validateSubtrees(v)
                    nc.excluded = GeneralSubtrees(list: ByteSpan(storage, v.contentStart, v.end))
                }
                if nc.permitted == nil && nc.excluded == nil { throw DERError(.invalidExtension, at: s.position) }
                return nc
            }
        }
    }

    /// `GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree`, each subtree a base
    /// name (iPAddress as address and mask) and nothing else (§4.2.1.10).
    static func validateSubtrees(_ v: DERValue) throws(DERError) {
        try validateList(v, atLeastOne: true) { (g) throws(DERError) in
            try g.enter(.sequence) { (sub) throws(DERError) in
                try GeneralName.check(&sub, inConstraint: true)
                if !sub.isAtEnd { throw DERError(.invalidExtension, at: sub.position) }
            }
        }
    }

    // MARK: certificatePolicies, policyMappings, policyConstraints, inhibitAnyPolicy

    /// certificatePolicies (RFC 5280 §4.2.1.4); see `CertificatePolicies.init(extensionValue:)`.
    public func certificatePolicies() throws(DERError) -> CertificatePolicies? {
        guard let value = try knownValueSpan(KnownExtension.certificatePolicies) else { return nil }
        return try CertificatePolicies(extensionValue: value)
    }

    /// policyMappings (RFC 5280 §4.2.1.5); see `PolicyMappings.init(extensionValue:)`.
    public func policyMappings() throws(DERError) -> PolicyMappings? {
        guard let value = try knownValueSpan(KnownExtension.policyMappings) else { return nil }
        return try PolicyMappings(extensionValue: value)
    }

    /// policyConstraints (RFC 5280 §4.2.1.11); see `PolicyConstraints.init(extensionValue:)`.
    public func policyConstraints() throws(DERError) -> PolicyConstraints? {
        guard let value = try knownValueSpan(KnownExtension.policyConstraints) else { return nil }
        return try PolicyConstraints(extensionValue: value)
    }

    /// inhibitAnyPolicy (RFC 5280 §4.2.1.14); see `decodeInhibitAnyPolicy(extensionValue:)`.
    public func inhibitAnyPolicy() throws(DERError) -> Int? {
        guard let value = try knownValueSpan(KnownExtension.inhibitAnyPolicy) else { return nil }
        return try Certificate.decodeInhibitAnyPolicy(extensionValue: value)
    }

    /// The extnValue content of the known extension in slot `slot` as a view, the OCTET STRING
    /// read with the strict reader (its content is left to the value's decoder); nil when
    /// absent, `.invalidExtension` when the OCTET STRING does not read.
    func knownValueSpan(_ slot: Int) throws(DERError) -> ByteSpan? {
        guard let loc = knownValueLocation(slot) else { return nil }
        return try Certificate.valueSpan(der, loc)
    }

    /// `knownValueSpan`'s static part (views made from the storage given, not from `der`).
    static func valueSpan(_ storage: [UInt8], _ loc: ValueLocation) throws(DERError) -> ByteSpan {
        let range: (Int, Int)
        do {
            range = try withStorage(storage) { (buf) throws(DERError) -> (Int, Int) in
                var h = DERReader(input: buf, from: loc.at, to: loc.end)
                let value = try h.read(.octetString)
                return (value.contentStart, value.end)
            }
        } catch {
            throw DERError(.invalidExtension, at: error.offset)
        }
        return ByteSpan(storage, range.0, range.1)
    }

    // MARK: authorityInfoAccess (§4.2.2.1)

    /// `AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription`
    /// `AccessDescription ::= SEQUENCE { accessMethod OID, accessLocation GeneralName }`
    public func authorityInformationAccess() throws(DERError) -> AccessDescriptions? {
        try listExtension(KnownExtension.authorityInfoAccess, Certificate.checkAccessDescription)
            .map { AccessDescriptions(list: $0) }
    }

    /// `authorityInformationAccess()`'s decoding, every AccessDescription validated, returning
    /// where the list lies (no view made: for `trustExtensions()`).
    func authorityInformationAccessRange() throws(DERError) -> (Int, Int)? {
        try listExtensionRange(KnownExtension.authorityInfoAccess, Certificate.checkAccessDescription)
    }

    /// One AccessDescription, validated.
    static func checkAccessDescription(_ r: inout DERReader) throws(DERError) {
        try r.enter(.sequence) { (a) throws(DERError) in
            _ = try a.readObjectIdentifier()
            try GeneralName.check(&a)
        }
    }

    // MARK: cRLDistributionPoints / freshestCRL (§4.2.1.13, §4.2.1.15)

    /// `CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint` (§4.2.1.13), every
    /// point validated. Nil when absent; `.invalidExtension` when malformed.
    public func crlDistributionPoints() throws(DERError) -> DistributionPoints? {
        try distributionPoints(KnownExtension.cRLDistributionPoints)
    }

    /// `FreshestCRL ::= CRLDistributionPoints` (§4.2.1.15): where delta CRLs are published. Nil
    /// when absent; `.invalidExtension` when malformed.
    public func freshestCRL() throws(DERError) -> DistributionPoints? {
        try distributionPoints(KnownExtension.freshestCRL)
    }

    func distributionPoints(_ slot: Int) throws(DERError) -> DistributionPoints? {
        try listExtension(slot) { (r) throws(DERError) in try DistributionPoint.validate(&r) }
            .map { DistributionPoints(list: $0) }
    }

    /// `distributionPoints(slot)`'s decoding, every point validated, returning where the list
    /// lies (no view made: for `trustExtensions()`).
    func distributionPointsRange(_ slot: Int) throws(DERError) -> (Int, Int)? {
        try listExtensionRange(slot) { (r) throws(DERError) in try DistributionPoint.validate(&r) }
    }

    // MARK: signed certificate timestamps (RFC 6962 §3.3)

    /// The SCT list extension, recognised and kept raw: the extnValue holds an OCTET STRING
    /// whose content is a TLS `SignedCertificateTimestampList` (RFC 6962 §3.3). Returns the TLS
    /// bytes and the number of SCTs they hold (each SCT's length prefix checked, not its content).
    public func signedCertificateTimestamps() throws(DERError) -> (list: ByteSpan, count: Int)? {
        try decodeKnownExtensionViews(KnownExtension.signedCertificateTimestampList) {
            (storage, r) throws(DERError) -> (list: ByteSpan, count: Int) in
            let (s, e, count) = try Certificate.sctListFields(&r)
            return (ByteSpan(storage, s, e), count)
        }
    }

    /// `signedCertificateTimestamps()`'s decoding: where the TLS list lies and how many SCTs it
    /// holds (no view made: for `trustExtensions()`).
    func signedCertificateTimestampsRange() throws(DERError) -> (Int, Int, Int)? {
        try decodeKnownExtension(KnownExtension.signedCertificateTimestampList, Certificate.sctListFields)
    }

    /// The one decoding of the SCT list extension's value (both paths).
    static func sctListFields(_ r: inout DERReader) throws(DERError) -> (Int, Int, Int) {
        let v = try r.read(.octetString)
        let b = v.content
        guard b.count >= 2, Int(b[0]) << 8 | Int(b[1]) == b.count - 2 else {
            throw DERError(.invalidExtension, at: v.contentStart)
        }
        var i = 2
        var count = 0
        while i < b.count {
            guard b.count - i >= 2 else { throw DERError(.invalidExtension, at: v.contentStart + i) }
            let n = Int(b[i]) << 8 | Int(b[i + 1])
            guard n > 0, b.count - i - 2 >= n else { throw DERError(.invalidExtension, at: v.contentStart + i) }
            i += 2 + n
            count += 1
        }
        return (v.contentStart, v.end, count)
    }

    // MARK: helpers

    /// An extension whose value is `SEQUENCE SIZE (1..MAX) OF X`: validates every element with
    /// `element` and returns the span of the SEQUENCE content, for later iteration.
    @inline(__always)
    func listExtension(_ slot: Int, _ element: (inout DERReader) throws(DERError) -> Void) throws(DERError) -> ByteSpan?
    {
        guard let loc = knownValueLocation(slot) else { return nil }
        return try Certificate.listExtensionValue(der, loc, element)
    }

    /// `listExtension`'s decoding, returning where the SEQUENCE content lies instead of a view
    /// (`trustExtensions()` validates most lists without keeping them, through this).
    @inline(__always)
    func listExtensionRange(_ slot: Int, _ element: (inout DERReader) throws(DERError) -> Void) throws(DERError)
        -> (Int, Int)?
    {
        try decodeKnownExtension(slot) { (r) throws(DERError) -> (Int, Int) in try Certificate.listContent(&r, element)
        }
    }
}

extension Certificate {
    /// `listExtension` of the extnValue OCTET STRING at `loc` of `storage`.
    @inline(never)
    static func listExtensionValue(
        _ storage: [UInt8], _ loc: ValueLocation, _ element: (inout DERReader) throws(DERError) -> Void
    ) throws(DERError) -> ByteSpan {
        try decodeExtensionValue(storage, loc) { (storage, r) throws(DERError) -> ByteSpan in
            let (s, e) = try listContent(&r, element)
            return ByteSpan(storage, s, e)
        }
    }

    /// A list extension's value, `SEQUENCE SIZE (1..MAX) OF` elements each checked by `element`:
    /// where its content lies (the one decoding of both `listExtension` paths).
    @inline(__always)
    static func listContent(_ r: inout DERReader, _ element: (inout DERReader) throws(DERError) -> Void)
        throws(DERError) -> (Int, Int)
    {
        let v = try r.read(.sequence)
        try validateList(v, atLeastOne: true, element)
        return (v.contentStart, v.end)
    }
}

/// Runs `element` over each element of the constructed `value`; `atLeastOne` enforces SIZE (1..MAX).
@inline(__always)
func validateList(_ value: DERValue, atLeastOne: Bool, _ element: (inout DERReader) throws(DERError) -> Void)
    throws(DERError)
{
    try DERReader.enter(value) { (r) throws(DERError) in
        if atLeastOne && r.isAtEnd { throw DERError(.invalidExtension, at: value.start) }
        while !r.isAtEnd { try element(&r) }
    }
}

/// `SkipCerts ::= INTEGER (0..MAX)` (RFC 5280 §4.2.1.11, §4.2.1.14), bounded to something
/// meaningful for a path: values above 2^20, however long their encoding (MAX has no bound, and
/// OpenSSL reads 2^64 as a valid SkipCerts), read as 2^20 — no path is that long. Negative,
/// empty and non-minimal INTEGERs are refused.
func skipCerts(_ v: DERValue) throws(DERError) -> Int {
    let bytes = try v.decodeIntegerBytes()
    guard bytes[0] & 0x80 == 0 else { throw DERError(.invalidExtension, at: v.contentStart) }
    if bytes.count > 8 { return 1 << 20 }
    return Int(min(try v.decodeInt64(), 1 << 20))
}

/// Decodes an extension value (the content of extnValue) with `body`, which must consume it
/// all; any DER error inside is reported as `.invalidExtension` at its absolute offset.
func decodeExtensionValue<T>(_ value: ByteSpan, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError) -> T {
    do {
        return try value.read(body)
    } catch {
        throw DERError(.invalidExtension, at: error.offset)
    }
}

/// An extension value `SEQUENCE SIZE (1..MAX) OF X`, every element validated by `element`;
/// returns the span of the SEQUENCE content.
func decodeListValue(_ value: ByteSpan, _ element: (inout DERReader) throws(DERError) -> Void) throws(DERError)
    -> ByteSpan
{
    let storage = value.storage
    return try decodeExtensionValue(value) { (r) throws(DERError) -> ByteSpan in
        let v = try r.read(.sequence)
        try validateList(v, atLeastOne: true, element)
        return ByteSpan(storage, v.contentStart, v.end)
    }
}

extension Certificate {
    /// `InhibitAnyPolicy ::= SkipCerts ::= INTEGER (0..MAX)` (RFC 5280 §4.2.1.14), from an
    /// extnValue content (a view of any buffer: certificates, tests, fuzzers).
    public static func decodeInhibitAnyPolicy(extensionValue value: ByteSpan) throws(DERError) -> Int {
        try SigilX509.decodeExtensionValue(value) { (r) throws(DERError) -> Int in try skipCerts(try r.read(.integer)) }
    }
}

/// The former free-function spelling of `Certificate.decodeInhibitAnyPolicy(extensionValue:)`.
@available(*, deprecated, renamed: "Certificate.decodeInhibitAnyPolicy(extensionValue:)")
public func decodeInhibitAnyPolicy(extensionValue value: ByteSpan) throws(DERError) -> Int {
    try Certificate.decodeInhibitAnyPolicy(extensionValue: value)
}

// MARK: - Decoded extension types

/// The basicConstraints extension, decoded (§4.2.1.9).
public struct BasicConstraints: Sendable, Hashable {
    /// cA: the subject may sign certificates (false when the DEFAULT FALSE field is absent).
    public var isCA: Bool
    /// pathLenConstraint: how many non-self-issued intermediates may follow this CA in a path;
    /// nil = unlimited. Sigil refuses values above 255 (`.invalidExtension`).
    public var pathLength: Int?
}

/// KeyUsage bits (RFC 5280 §4.2.1.3), bit i of the BIT STRING at `1 << i`.
public struct KeyUsage: OptionSet, Sendable, Hashable {
    /// Bit i of the KeyUsage BIT STRING at `1 << i` (bits 0...8).
    public let rawValue: UInt16
    /// A set from raw bits (bit i = `1 << i`; bits above 8 name no usage).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (0): signatures other than on certificates and CRLs (e.g. a TLS handshake).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// contentCommitment (1), formerly nonRepudiation.
    public static let contentCommitment = KeyUsage(rawValue: 1 << 1)  // nonRepudiation
    /// keyEncipherment (2): the key encrypts keys (RSA key transport).
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (3): the key encrypts user data directly.
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (4): the key is used for key agreement (e.g. static (EC)DH).
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (5): the key verifies certificate signatures (CAs only, §4.2.1.3).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (6): the key verifies CRL signatures.
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (7): with keyAgreement, the key only enciphers.
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (8): with keyAgreement, the key only deciphers.
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// RFC 5280 names, bit order.
    public static let names = [
        "digitalSignature", "contentCommitment", "keyEncipherment", "dataEncipherment",
        "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// The RFC 5280 names of the bits set, in bit order (allocates; for display).
    public var names: [String] {
        (0..<9).filter { rawValue & (1 << UInt16($0)) != 0 }.map { KeyUsage.names[$0] }
    }

    /// The usage named `name` (RFC 5280 name; "nonRepudiation" accepted for bit 1).
    public init?(name: String) {
        if name == "nonRepudiation" {
            self = .contentCommitment
            return
        }
        guard let i = KeyUsage.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: 1 << UInt16(i))
    }
}

/// A validated `SEQUENCE OF OBJECT IDENTIFIER` (e.g. extKeyUsage), iterated as OID content spans.
public struct ObjectIdentifierList: Sequence, Sendable {
    @usableFromInline let list: ByteSpan

    @inlinable init(list: ByteSpan) { self.list = list }

    /// The OIDs in encoding order, as content-octet spans.
    @inlinable public func makeIterator() -> Iterator { Iterator(cursor: ListCursor(list)) }

    /// Walks the OIDs of a validated list; no allocation (`next()` inlinable).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var cursor: ListCursor

        @inlinable init(cursor: ListCursor) { self.cursor = cursor }

        /// The next OID's content octets; nil at the end.
        @inlinable
        public mutating func next() -> ByteSpan? {
            guard let e = cursor.next() else { return nil }
            return ByteSpan(cursor.storage, e.contentStart, e.end)
        }
    }

    /// True when the list holds `oid`.
    public func contains(_ oid: [UInt8]) -> Bool {
        contains(where: { $0 == oid })
    }

    /// Dotted strings of every OID (allocates; for display).
    @available(*, deprecated, message: "use map { OID.dotted($0) }, the one dotted-OID spelling")
    public var dotted: [String] {
        map { OID.dotted($0) }
    }
}

/// The authorityKeyIdentifier extension, decoded (§4.2.1.1); parsing checked that
/// `authorityCertIssuer` and `authorityCertSerialNumber` are both present or both absent.
public struct AuthorityKeyIdentifier: Sendable {
    /// keyIdentifier [0]: the issuer key's identifier (its subjectKeyIdentifier), when present.
    public var keyIdentifier: ByteSpan?
    /// authorityCertIssuer [1]: names of the issuer's issuer, when present.
    public var authorityCertIssuer: GeneralNames?
    /// authorityCertSerialNumber [2]: the issuer certificate's serial, INTEGER content octets.
    public var authorityCertSerialNumber: ByteSpan?
}

/// The nameConstraints extension, decoded (§4.2.1.10): at least one of the two lists is
/// present (parsing refuses an empty one).
public struct NameConstraints: Sendable {
    /// permittedSubtrees [0]: names below this CA must fall within one of these (per name form).
    public var permitted: GeneralSubtrees?
    /// excludedSubtrees [1]: names below this CA must fall within none of these.
    public var excluded: GeneralSubtrees?
}

/// `GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree`, iterated as the subtree
/// bases (minimum/maximum were checked absent).
public struct GeneralSubtrees: Sequence, Sendable {
    @usableFromInline let list: ByteSpan

    @inlinable init(list: ByteSpan) { self.list = list }

    /// The subtree bases, in encoding order (iPAddress bases are address and mask, 8 or 32
    /// octets).
    @inlinable public func makeIterator() -> Iterator { Iterator(cursor: ListCursor(list)) }

    /// Walks the subtree bases of a validated list; no allocation (`next()` inlinable).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var cursor: ListCursor

        @inlinable init(cursor: ListCursor) { self.cursor = cursor }

        /// The next subtree's base; nil at the end.
        @inlinable
        public mutating func next() -> GeneralName? {
            // GeneralSubtree ::= SEQUENCE { base GeneralName, ... } (validated in nameConstraints()).
            while let e = cursor.next() {
                guard e.tag == 0x30, let base = ListCursor.first(in: e, storage: cursor.storage) else { continue }
                if let name = GeneralName.decodeValidated(base, storage: cursor.storage) { return name }
            }
            return nil
        }
    }
}

/// The certificatePolicies extension (§4.2.1.4), validated, iterated as `PolicyInformation`
/// views in encoding order.
public struct CertificatePolicies: Sequence, Sendable {
    let list: ByteSpan

    /// `certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation`
    /// `PolicyInformation ::= SEQUENCE { policyIdentifier CertPolicyId,
    ///     policyQualifiers SEQUENCE SIZE (1..MAX) OF PolicyQualifierInfo OPTIONAL }`
    /// Every element is validated, qualifiers included (CPS IA5String, UserNotice texts and
    /// numbers), without building anything; the result iterates views of `value`. Duplicate
    /// policy OIDs (§4.2.1.4) are refused by policy processing, not here.
    public init(extensionValue value: ByteSpan) throws(DERError) {
        list = try decodeListValue(value) { (r) throws(DERError) in
            try r.enter(.sequence) { (p) throws(DERError) in
                _ = try p.readObjectIdentifier()
                if let q = try p.readOptional(.sequence) {
                    try validateList(q, atLeastOne: true) { (qi) throws(DERError) in
                        try qi.enter(.sequence) { (info) throws(DERError) in try PolicyQualifier.validate(&info) }
                    }
                }
            }
        }
    }

    /// The policies, in encoding order.
    public func makeIterator() -> SpanListIterator<PolicyInformation> {
        SpanListIterator(list) { (storage, v) throws(DERError) -> PolicyInformation in
            if v.tag != .sequence { throw DERError(.unexpectedTag, at: v.start) }
            return try DERReader.enter(v) { (p) throws(DERError) -> PolicyInformation in
                let oid = try p.read(.objectIdentifier)
                var qualifiers: ByteSpan?
                if let q = try p.readOptional(.sequence) { qualifiers = ByteSpan(storage, q.contentStart, q.end) }
                return PolicyInformation(
                    policyIdentifier: ByteSpan(storage, oid.contentStart, oid.end),
                    qualifierList: qualifiers)
            }
        }
    }
}

/// One `PolicyInformation`: the policy OID and its qualifiers (decoded on demand).
public struct PolicyInformation: Sendable {
    /// OID content octets.
    public let policyIdentifier: ByteSpan
    let qualifierList: ByteSpan?

    /// The policy OID in dotted form, e.g. "2.23.140.1.2.1" (allocates; for display).
    @available(*, deprecated, message: "use OID.dotted(policyIdentifier), the one dotted-OID spelling")
    public var policyIdentifierDotted: String {
        OID.dotted(policyIdentifier)
    }

    /// The policy qualifiers, decoded (allocates): empty when absent.
    public var qualifiers: [PolicyQualifier] {
        guard let list = qualifierList else { return [] }
        var out: [PolicyQualifier] = []
        var position = list.start
        while let v = nextValue(list.storage, &position, list.end) {
            if let q = try? v.read({ (r) throws(DERError) -> PolicyQualifier in
                try r.enter(.sequence) { (i) throws(DERError) -> PolicyQualifier in try PolicyQualifier.parse(&i) }
            }) {
                out.append(q)
            }
        }
        return out
    }
}

/// `PolicyQualifierInfo ::= SEQUENCE { policyQualifierId OID, qualifier ANY }` decoded for the
/// two qualifiers RFC 5280 defines: CPS pointer (IA5String) and user notice.
public enum PolicyQualifier: Sendable {
    /// A CPS pointer: the URI text of the IA5String.
    case cps(String)
    /// `UserNotice ::= SEQUENCE { noticeRef NoticeReference OPTIONAL, explicitText DisplayText OPTIONAL }`
    case userNotice(organization: String?, noticeNumbers: [Int64], explicitText: String?)
    /// A qualifier RFC 5280 does not define: its dotted OID (value skipped).
    case other(oid: String)

    /// Checks the structure and strings without building any value (no allocation).
    static func validate(_ r: inout DERReader) throws(DERError) {
        _ = try parse(&r, materialize: false)
    }

    /// With `materialize` false, every check is made but texts and numbers are not collected
    /// and the returned value is a placeholder.
    static func parse(_ r: inout DERReader, materialize: Bool = true) throws(DERError) -> PolicyQualifier {
        let oid = try r.readObjectIdentifier()
        if OID.cpsQualifier.matches(oid) {
            let v = try r.read(.ia5String)
            let text = try DERString(v)
            return .cps(materialize ? text.string : "")
        }
        if OID.userNoticeQualifier.matches(oid) {
            return try r.enter(.sequence) { (u) throws(DERError) -> PolicyQualifier in
                var org: String?
                var numbers: [Int64] = []
                // NoticeReference ::= SEQUENCE { organization DisplayText, noticeNumbers SEQUENCE OF INTEGER }
                if try u.peekTagChecked() == .sequence {
                    try u.enter(.sequence) { (n) throws(DERError) in
                        org = try displayText(&n, materialize: materialize)
                        try n.enter(.sequence) { (nums) throws(DERError) in
                            while !nums.isAtEnd {
                                let v = try nums.readInt64()
                                if materialize { numbers.append(v) }
                            }
                        }
                    }
                }
                var text: String?
                if !u.isAtEnd { text = try displayText(&u, materialize: materialize) }
                return .userNotice(organization: org, noticeNumbers: numbers, explicitText: text)
            }
        }
        // Unknown qualifier (qualifier ANY DEFINED BY policyQualifierId): not decoded, strict DER.
        if !r.isAtEnd { _ = try r.readAnyValue() }
        return .other(oid: materialize ? DERValue.dottedObjectIdentifier(oid) : "")
    }

    /// `DisplayText ::= CHOICE { ia5String, visibleString, bmpString, utf8String }` (§4.2.1.4)
    static func displayText(_ r: inout DERReader, materialize: Bool) throws(DERError) -> String {
        let v = try r.readAny()
        switch v.tag {
        case .ia5String, .visibleString, .bmpString, .utf8String:
            let text = try DERString(v)
            return materialize ? text.string : ""
        default: throw DERError(.unexpectedTag, at: v.start)
        }
    }
}

/// The policyMappings extension (§4.2.1.5), validated, iterated as (issuer, subject) policy
/// OID pairs.
public struct PolicyMappings: Sequence, Sendable {
    let list: ByteSpan

    /// `PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
    ///     issuerDomainPolicy CertPolicyId, subjectDomainPolicy CertPolicyId }`
    /// (anyPolicy in a mapping is refused by policy processing, §6.1.4 (a)).
    public init(extensionValue value: ByteSpan) throws(DERError) {
        list = try decodeListValue(value) { (r) throws(DERError) in
            try r.enter(.sequence) { (m) throws(DERError) in
                _ = try m.readObjectIdentifier()
                _ = try m.readObjectIdentifier()
            }
        }
    }

    /// Pairs of (issuerDomainPolicy, subjectDomainPolicy) OID content spans.
    public func makeIterator() -> SpanListIterator<(issuerDomainPolicy: ByteSpan, subjectDomainPolicy: ByteSpan)> {
        SpanListIterator(list) {
            (storage, v) throws(DERError) -> (issuerDomainPolicy: ByteSpan, subjectDomainPolicy: ByteSpan) in
            if v.tag != .sequence { throw DERError(.unexpectedTag, at: v.start) }
            return try DERReader.enter(v) {
                (m) throws(DERError) -> (issuerDomainPolicy: ByteSpan, subjectDomainPolicy: ByteSpan) in
                let a = try m.read(.objectIdentifier)
                let c = try m.read(.objectIdentifier)
                return (ByteSpan(storage, a.contentStart, a.end), ByteSpan(storage, c.contentStart, c.end))
            }
        }
    }
}

/// The policyConstraints extension, decoded (§4.2.1.11): at least one field is present.
public struct PolicyConstraints: Sendable, Hashable {
    /// requireExplicitPolicy [0]: after this many further certificates the path must carry an
    /// acceptable policy (SkipCerts; values above 2^20 are read as 2^20).
    public var requireExplicitPolicy: Int?
    /// inhibitPolicyMapping [1]: after this many further certificates policy mapping is no longer
    /// allowed (SkipCerts; values above 2^20 are read as 2^20).
    public var inhibitPolicyMapping: Int?

    /// Constraints with the given fields (for tests and callers building policy inputs; not
    /// validated).
    public init(requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil) {
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
    }

    /// `PolicyConstraints ::= SEQUENCE { requireExplicitPolicy [0] SkipCerts OPTIONAL,
    ///                                   inhibitPolicyMapping  [1] SkipCerts OPTIONAL }`
    /// §4.2.1.11: conforming CAs MUST NOT issue an empty sequence (refused).
    public init(extensionValue value: ByteSpan) throws(DERError) {
        self = try decodeExtensionValue(value) { (r) throws(DERError) -> PolicyConstraints in
            try r.enter(.sequence) { (s) throws(DERError) -> PolicyConstraints in
                var pc = PolicyConstraints()
                if let v = try s.readOptional(.contextPrimitive(0)) { pc.requireExplicitPolicy = try skipCerts(v) }
                if let v = try s.readOptional(.contextPrimitive(1)) { pc.inhibitPolicyMapping = try skipCerts(v) }
                if pc.requireExplicitPolicy == nil && pc.inhibitPolicyMapping == nil {
                    throw DERError(.invalidExtension, at: s.position)
                }
                return pc
            }
        }
    }
}

/// The authorityInfoAccess extension (§4.2.2.1), validated, iterated as (accessMethod,
/// accessLocation) pairs, e.g. id-ad-caIssuers or id-ad-ocsp with a URI.
public struct AccessDescriptions: Sequence, Sendable {
    @usableFromInline let list: ByteSpan

    @inlinable init(list: ByteSpan) { self.list = list }

    /// (accessMethod OID content, accessLocation) pairs.
    @inlinable public func makeIterator() -> Iterator { Iterator(cursor: ListCursor(list)) }

    /// Walks the access descriptions of a validated list (validated element by element in
    /// `authorityInformationAccess()`); no allocation (`next()` inlinable).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var cursor: ListCursor

        @inlinable init(cursor: ListCursor) { self.cursor = cursor }

        /// The next (accessMethod, accessLocation) pair; nil at the end.
        @inlinable
        public mutating func next() -> (method: ByteSpan, location: GeneralName)? {
            while let e = cursor.next() {
                // AccessDescription ::= SEQUENCE { accessMethod OID, accessLocation GeneralName }
                guard e.tag == 0x30, let pair = ListCursor.pair(in: e, storage: cursor.storage), pair.0.tag == 0x06,
                    let location = GeneralName.decodeValidated(pair.1, storage: cursor.storage)
                else { continue }
                return (ByteSpan(cursor.storage, pair.0.contentStart, pair.0.end), location)
            }
            return nil
        }
    }
}

/// `DistributionPoint ::= SEQUENCE { distributionPoint [0] DistributionPointName OPTIONAL,
///     reasons [1] ReasonFlags OPTIONAL, cRLIssuer [2] GeneralNames OPTIONAL }`
/// `DistributionPointName ::= CHOICE { fullName [0] GeneralNames,
///     nameRelativeToCRLIssuer [1] RelativeDistinguishedName }`
public struct DistributionPoint: Sendable {
    /// The fullName GeneralNames, when the point is named that way.
    public var fullName: GeneralNames?
    /// True when the point is named relative to the CRL issuer.
    public var hasRelativeName: Bool
    /// nameRelativeToCRLIssuer [1]: the RelativeDistinguishedName's content (its
    /// AttributeTypeAndValue encodings), when the point is named that way. The point's name is
    /// the cRLIssuer's DN (else the certificate issuer's) with this RDN appended (§4.2.1.13);
    /// see `DistinguishedName.appending(relativeName:)`.
    public var relativeName: ByteSpan? = nil
    /// ReasonFlags bits, when present.
    public var reasons: UInt16?
    /// cRLIssuer [2]: who signs the CRL when it is not the certificate's issuer (indirect CRLs).
    public var crlIssuer: GeneralNames?

    /// Checks one DistributionPoint as `parse` does, making no views (the validating passes:
    /// building a point over an empty storage only to drop it cost reference counts per point).
    static func validate(_ r: inout DERReader) throws(DERError) {
        _ = try fields(&r)
    }

    static func parse(_ r: inout DERReader, storage: [UInt8]) throws(DERError) -> DistributionPoint {
        let f = try fields(&r)
        var dp = DistributionPoint(
            fullName: nil, hasRelativeName: f.relativeName != nil, reasons: f.reasons, crlIssuer: nil)
        if let n = f.fullName { dp.fullName = GeneralNames(list: ByteSpan(storage, n.0, n.1)) }
        if let n = f.relativeName { dp.relativeName = ByteSpan(storage, n.0, n.1) }
        if let n = f.crlIssuer { dp.crlIssuer = GeneralNames(list: ByteSpan(storage, n.0, n.1)) }
        return dp
    }

    /// Where a DistributionPoint's parts lie (content ranges) and its reason flags.
    struct Fields {
        var fullName: (Int, Int)? = nil
        var relativeName: (Int, Int)? = nil
        var reasons: UInt16? = nil
        var crlIssuer: (Int, Int)? = nil
    }

    /// The one decoding of a DistributionPoint (RFC 5280 §4.2.1.13), for `parse` and `validate`.
    static func fields(_ r: inout DERReader) throws(DERError) -> Fields {
        try r.enter(.sequence) { (d) throws(DERError) -> Fields in
            var f = Fields()
            if let name = try d.readOptional(.contextConstructed(0)) {
                try DERReader.enter(name) { (n) throws(DERError) in
                    let choice = try n.readAny()
                    switch choice.tag {
                    case .contextConstructed(0):
                        try validateList(choice, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                        f.fullName = (choice.contentStart, choice.end)
                    case .contextConstructed(1):
                        // RelativeDistinguishedName: attributes checked as in a Name.
                        try validateList(choice, atLeastOne: true) { (a) throws(DERError) in
                            try DistinguishedName.validateAttribute(&a)
                        }
                        f.relativeName = (choice.contentStart, choice.end)
                    default:
                        throw DERError(.unexpectedTag, at: choice.start)
                    }
                }
            }
            if let reasons = try d.readOptional(.contextPrimitive(1)) {
                let bits = try reasons.decodeBitString()
                var raw: UInt16 = 0
                for i in 0..<9 where bits.bit(i) { raw |= 1 << UInt16(i) }
                f.reasons = raw
            }
            if let issuer = try d.readOptional(.contextConstructed(2)) {
                try validateList(issuer, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                f.crlIssuer = (issuer.contentStart, issuer.end)
            }
            // §4.2.1.13: either distributionPoint or cRLIssuer MUST be present.
            if f.fullName == nil && f.relativeName == nil && f.crlIssuer == nil {
                throw DERError(.invalidExtension, at: d.position)
            }
            return f
        }
    }
}

/// A validated list of `DistributionPoint` (cRLDistributionPoints, freshestCRL), iterated in
/// encoding order.
public struct DistributionPoints: Sequence, Sendable {
    let list: ByteSpan

    /// The points, in encoding order.
    public func makeIterator() -> SpanListIterator<DistributionPoint> {
        SpanListIterator(list) { (storage, v) throws(DERError) -> DistributionPoint in
            var r = DERReader(input: v.input, from: v.start, to: v.end)
            return try DistributionPoint.parse(&r, storage: storage)
        }
    }
}

extension Certificate {
    /// Decodes every extension Sigil knows, strictly, failing on the first malformed one (each
    /// list's elements are validated while it is decoded). The trust layer calls this so that a
    /// certificate with any malformed known extension is rejected whether or not a check needs
    /// that extension (as rustls-webpki does by decoding them while parsing). Allocates nothing.
    /// (`trustExtensions()` in TrustExtensions.swift is the one implementation.)
    public func validateExtensions() throws(DERError) {
        _ = try trustExtensions()
    }
}
