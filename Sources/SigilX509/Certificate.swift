@_spi(SigilInternal) import SigilDER

/// An X.509 v1/v2/v3 certificate (RFC 5280 §4.1).
///
/// The certificate owns its DER bytes once — the array handed to `init(der:)` is kept, not
/// copied — and records where each field lies. Parsing validates the whole structure strictly
/// (DER, names, validity, SubjectPublicKeyInfo, the list of extensions); extension *values*
/// are decoded lazily by the accessors, which return views sharing the same bytes.
///
///     Certificate ::= SEQUENCE { tbsCertificate TBSCertificate,
///                                signatureAlgorithm AlgorithmIdentifier,
///                                signatureValue BIT STRING }
public struct Certificate: Sendable {
    /// Certificates larger than this are refused with `.tooLarge`. Real certificates are a few
    /// KiB; the largest seen in the wild (huge SAN lists) stay well under 100 KiB.
    public static let maximumSize = 1 << 20
    /// At most this many extensions (duplicate detection is quadratic in the count; real
    /// certificates carry about ten).
    public static let maximumExtensionCount = 64

    /// The certificate's version (RFC 5280 §4.1.2.1); the raw value is the version number, not the encoded integer.
    public enum Version: UInt8, Sendable, Hashable {
        /// v1: the version field is absent (encoded 0 when present, which DER forbids).
        case v1 = 1
        /// v2: encoded as 1 (issuer/subject unique identifiers allowed, no extensions).
        case v2 = 2
        /// v3: encoded as 2 (extensions allowed).
        case v3 = 3
    }

    /// The whole DER encoding.
    public let der: [UInt8]
    /// The version (v1 when the field is absent).
    public let version: Version
    /// Validity bounds, seconds since the Unix epoch (UTC), both inclusive (RFC 5280 §4.1.2.5).
    public let notBefore: Int64
    /// See `notBefore`.
    public let notAfter: Int64
    /// The signature algorithm (inner and outer are required to be identical).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The subject public key's algorithm (decoded while parsing).
    public let publicKeyAlgorithm: PublicKeyAlgorithm
    @usableFromInline let spans: Spans

    /// Field positions, as 32-bit offsets (certificates are capped at 1 MiB).
    @usableFromInline struct Spans: Sendable {
        var tbs: Span  // TBSCertificate TLV
        var serial: Span  // serial INTEGER content
        var signatureAlgorithm: Span  // outer AlgorithmIdentifier TLV (== TBS one)
        var issuer: Span  // Name TLV
        var subject: Span  // Name TLV
        var spki: Span  // SubjectPublicKeyInfo TLV
        var spkiAlgorithm: Span  // its AlgorithmIdentifier TLV
        var publicKey: Span  // subjectPublicKey bits (after the unused-bits octet)
        var issuerUID: Span  // [1] content after the unused-bits octet (empty if absent)
        var subjectUID: Span  // [2]
        var extensions: Span  // content of `SEQUENCE OF Extension` (empty if absent)
        var signature: Span  // signatureValue bits
        var hasIssuerUID: Bool
        var hasSubjectUID: Bool
        var extensionCount: UInt8
        /// Where each known extension (`KnownExtension`) lies: its Extension TLV's offset from
        /// the start of the extensions content, plus one (0 = absent). Filled while parsing, so
        /// accessors decode directly instead of scanning. `unindexed` when an offset does not
        /// fit 16 bits (extension lists over 64 KiB): accessors then scan.
        /// (Four 64-bit words holding sixteen 16-bit slots: no SIMD type here, whose 16/32-byte
        /// alignment broke optimised code moving `Certificate` values around.)
        var knownExtensions: ExtensionSlots
        /// For each indexed extension, where its extnValue OCTET STRING TLV starts, counted
        /// from the start of its Extension TLV (at most 20 octets: a header of at most 5, a known
        /// OID of at most 12, the critical BOOLEAN 3). Accessors read just that TLV.
        var knownValueDeltas: ExtensionValueDeltas
        var unindexed: Bool
        /// The known extensions present and those marked critical, one bit per
        /// `KnownExtension` slot, and whether an extension outside them is marked critical:
        /// recorded by the one walk over the list while parsing (RFC 5280 §4.2), so that
        /// `trustExtensions()` does not walk it again.
        var knownPresent: UInt16 = 0
        var knownCritical: UInt16 = 0
        var unknownCritical = false
    }

    /// Sixteen 8-bit slots packed in two words.
    @usableFromInline struct ExtensionValueDeltas: Sendable {
        @usableFromInline var words: (UInt64, UInt64) = (0, 0)
        @inlinable init() {}

        @inlinable subscript(_ i: Int) -> UInt8 {
            get {
                let w = i >> 3 == 0 ? words.0 : words.1
                return UInt8(truncatingIfNeeded: w >> UInt64((i & 7) * 8))
            }
            set {
                let shift = UInt64((i & 7) * 8)
                let mask = ~(UInt64(0xFF) << shift)
                let v = UInt64(newValue) << shift
                if i >> 3 == 0 { words.0 = words.0 & mask | v } else { words.1 = words.1 & mask | v }
            }
        }
    }

    /// Sixteen 16-bit slots packed in four words (8-byte alignment like the rest of the struct).
    @usableFromInline struct ExtensionSlots: Sendable {
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        @inlinable init() {}

        /// Slot `i` is bits `(i & 3) * 16` of word `i >> 2`: on a little-endian machine the
        /// 16-bit value at byte offset `2 * i`, read and written as such (the word arithmetic,
        /// a switch over the words, cost ~20 instructions a slot while parsing).
        @inlinable subscript(_ i: Int) -> UInt16 {
            get {
                #if _endian(little)
                    return withUnsafeBytes(of: words) { $0.load(fromByteOffset: (i & 15) &* 2, as: UInt16.self) }
                #else
                    let w: UInt64
                    switch i >> 2 {
                    case 0: w = words.0
                    case 1: w = words.1
                    case 2: w = words.2
                    default: w = words.3
                    }
                    return UInt16(truncatingIfNeeded: w >> UInt64((i & 3) * 16))
                #endif
            }
            set {
                #if _endian(little)
                    withUnsafeMutableBytes(of: &words) {
                        $0.storeBytes(of: newValue, toByteOffset: (i & 15) &* 2, as: UInt16.self)
                    }
                #else
                    let shift = UInt64((i & 3) * 16)
                    let mask = ~(UInt64(0xFFFF) << shift)
                    let v = UInt64(newValue) << shift
                    switch i >> 2 {
                    case 0: words.0 = words.0 & mask | v
                    case 1: words.1 = words.1 & mask | v
                    case 2: words.2 = words.2 & mask | v
                    default: words.3 = words.3 & mask | v
                    }
                #endif
            }
        }
    }

    @usableFromInline struct Span: Sendable {
        @usableFromInline var start: UInt32
        @usableFromInline var end: UInt32
        @inlinable init(_ start: Int, _ end: Int) {
            self.start = UInt32(truncatingIfNeeded: start)
            self.end = UInt32(truncatingIfNeeded: end)
        }
        static let empty = Span(0, 0)
    }

    /// Parses a DER certificate, keeping `der` as its storage. The whole input must be one
    /// certificate (trailing bytes are an error).
    public init(der: [UInt8]) throws(DERError) {
        guard der.count <= Certificate.maximumSize else { throw DERError(.tooLarge, at: Certificate.maximumSize) }
        let parsed = try withStorage(der) { (buf) throws(DERError) -> Parsed in try Certificate.parse(buf) }
        self.der = der
        self.version = parsed.version
        self.notBefore = parsed.notBefore
        self.notAfter = parsed.notAfter
        self.signatureAlgorithm = parsed.signatureAlgorithm
        self.publicKeyAlgorithm = parsed.publicKeyAlgorithm
        self.spans = parsed.spans
    }

    /// Parses a DER certificate from any byte sequence (copies once into owned storage).
    public init<S: Sequence>(derBytes: S) throws(DERError) where S.Element == UInt8 {
        try self.init(der: Array(derBytes))
    }

    struct Parsed {
        var version: Version
        var notBefore: Int64
        var notAfter: Int64
        var signatureAlgorithm: SignatureAlgorithm
        var publicKeyAlgorithm: PublicKeyAlgorithm
        var spans: Spans
    }

    static func parse(_ buf: UnsafeRawBufferPointer) throws(DERError) -> Parsed {
        var outer = DERReader(buf)
        let certValue = try outer.read(.sequence)
        try outer.finish()
        return try DERReader.enter(certValue) { (c) throws(DERError) -> Parsed in
            let tbsValue = try c.read(.sequence)
            var p = try DERReader.enter(tbsValue) { (t) throws(DERError) -> Parsed in try parseTBS(&t) }
            p.spans.tbs = Span(tbsValue.start, tbsValue.end)
            // §4.1.1.2: signatureAlgorithm MUST contain the same identifier as the TBS
            // `signature` field; compared as encodings (stricter than comparing meanings).
            let outerAlgStart = c.position
            _ = try SignatureAlgorithm.parse(&c)
            let outerAlg = Span(outerAlgStart, c.position)
            let inner = p.spans.signatureAlgorithm
            let same = DERValue.bytesEqual(
                UnsafeRawBufferPointer(rebasing: buf[Int(outerAlg.start)..<Int(outerAlg.end)]),
                UnsafeRawBufferPointer(rebasing: buf[Int(inner.start)..<Int(inner.end)]))
            if !same { throw DERError(.signatureAlgorithmMismatch, at: outerAlgStart) }
            p.spans.signatureAlgorithm = outerAlg
            // Signatures of RSA and ECDSA are whole octets: unused bits must be 0.
            let sigValue = try c.read(.bitString)
            let sig = try sigValue.decodeBitString()
            if sig.unusedBits != 0 { throw DERError(.invalidBitString, at: sigValue.contentStart) }
            p.spans.signature = Span(sig.offset, sigValue.end)
            return p
        }
    }

    /// TBSCertificate ::= SEQUENCE {
    ///   version         [0] EXPLICIT Version DEFAULT v1,
    ///   serialNumber        CertificateSerialNumber,
    ///   signature           AlgorithmIdentifier,
    ///   issuer              Name,
    ///   validity            Validity,
    ///   subject             Name,
    ///   subjectPublicKeyInfo SubjectPublicKeyInfo,
    ///   issuerUniqueID  [1] IMPLICIT UniqueIdentifier OPTIONAL,  -- v2 or v3
    ///   subjectUniqueID [2] IMPLICIT UniqueIdentifier OPTIONAL,  -- v2 or v3
    ///   extensions      [3] EXPLICIT Extensions OPTIONAL }       -- v3
    static func parseTBS(_ t: inout DERReader) throws(DERError) -> Parsed {
        var version = Version.v1
        if let v = try t.readOptional(.contextConstructed(0)) {
            let n = try DERReader.enter(v) { (e) throws(DERError) -> (Int64, Int) in
                let i = try e.read(.integer)
                return (try i.decodeInt64(), i.contentStart)
            }
            switch n.0 {
            case 0: throw DERError(.defaultValueEncoded, at: v.start)  // X.690 §11.5: v1 is the DEFAULT
            case 1: version = .v2
            case 2: version = .v3
            default: throw DERError(.invalidVersion, at: n.1)
            }
        }

        // §4.1.2.2: a positive INTEGER of at most 20 octets. Sigil counts the magnitude's
        // octets (a leading 0x00 sign octet is not counted), as rustls-webpki does, and
        // rejects negative serials (as Go does since 1.23).
        // Tolerated deviation: serial 0 ("positive" says the RFC) is accepted because Mozilla
        // roots carry it (Go Daddy Class 2 CA, Starfield Class 2 CA, Security Communication
        // Root CA, Hellenic Academic RootCA 2015, ...).
        let serialValue = try t.read(.integer)
        let serialBytes = try serialValue.decodeIntegerBytes()
        if serialBytes[0] & 0x80 != 0 { throw DERError(.invalidSerialNumber, at: serialValue.start) }
        let magnitude = serialBytes[0] == 0 ? serialBytes.count - 1 : serialBytes.count
        if magnitude > 20 { throw DERError(.invalidSerialNumber, at: serialValue.start) }

        let sigAlgStart = t.position
        let signatureAlgorithm = try SignatureAlgorithm.parse(&t)
        let sigAlgSpan = Span(sigAlgStart, t.position)

        let issuer = try DistinguishedName.validate(&t)

        // Validity ::= SEQUENCE { notBefore Time, notAfter Time }
        let (notBefore, notAfter) = try t.enter(.sequence) { (v) throws(DERError) -> (Int64, Int64) in
            (try v.readTime(), try v.readTime())
        }

        let subject = try DistinguishedName.validate(&t)

        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
        let spkiValue = try t.read(.sequence)
        var spkiAlgSpan = Span.empty
        var keySpan = Span.empty
        let publicKeyAlgorithm = try DERReader.enter(spkiValue) { (s) throws(DERError) -> PublicKeyAlgorithm in
            let algStart = s.position
            let alg = try PublicKeyAlgorithm.parse(&s)
            spkiAlgSpan = Span(algStart, s.position)
            let keyValue = try s.read(.bitString)
            let key = try keyValue.decodeBitString()
            // Every key format in use is a whole number of octets.
            if key.unusedBits != 0 { throw DERError(.invalidPublicKey, at: keyValue.contentStart) }
            keySpan = Span(key.offset, keyValue.end)
            return alg
        }

        var spans = Spans(
            tbs: .empty, serial: Span(serialValue.contentStart, serialValue.end),
            signatureAlgorithm: sigAlgSpan, issuer: Span(issuer.start, issuer.end),
            subject: Span(subject.start, subject.end), spki: Span(spkiValue.start, spkiValue.end),
            spkiAlgorithm: spkiAlgSpan, publicKey: keySpan, issuerUID: .empty, subjectUID: .empty,
            extensions: .empty, signature: .empty, hasIssuerUID: false, hasSubjectUID: false,
            extensionCount: 0, knownExtensions: ExtensionSlots(), knownValueDeltas: ExtensionValueDeltas(),
            unindexed: false)

        // §4.1.2.8: unique identifiers MUST NOT appear in v1 certificates.
        if let u = try t.readOptional(.contextPrimitive(1)) {
            if version == .v1 { throw DERError(.uniqueIdentifierNotAllowed, at: u.start) }
            let b = try u.decodeBitString()
            spans.issuerUID = Span(b.offset, u.end)
            spans.hasIssuerUID = true
        }
        if let u = try t.readOptional(.contextPrimitive(2)) {
            if version == .v1 { throw DERError(.uniqueIdentifierNotAllowed, at: u.start) }
            let b = try u.decodeBitString()
            spans.subjectUID = Span(b.offset, u.end)
            spans.hasSubjectUID = true
        }
        // §4.1.2.9: extensions only in v3.
        if let e = try t.readOptional(.contextConstructed(3)) {
            if version != .v3 { throw DERError(.extensionsNotAllowed, at: e.start) }
            let (span, index) = try DERReader.enter(e) { (x) throws(DERError) -> (Span, ExtensionIndex) in
                let list = try x.read(.sequence)
                let index = try validateExtensions(list)
                return (Span(list.contentStart, list.end), index)
            }
            spans.extensions = span
            spans.knownExtensions = index.slots
            spans.knownValueDeltas = index.valueDeltas
            spans.unindexed = index.unindexed
            spans.knownPresent = index.present
            spans.knownCritical = index.critical
            spans.unknownCritical = index.unknownCritical
            let count = index.count
            spans.extensionCount = UInt8(count)
        }
        return Parsed(
            version: version, notBefore: notBefore, notAfter: notAfter,
            signatureAlgorithm: signatureAlgorithm, publicKeyAlgorithm: publicKeyAlgorithm,
            spans: spans)
    }

    struct ExtensionIndex {
        var count = 0
        var slots = ExtensionSlots()
        var valueDeltas = ExtensionValueDeltas()
        var unindexed = false
        var present: UInt16 = 0
        var critical: UInt16 = 0
        var unknownCritical = false
    }

    /// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension
    /// Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
    /// Checks each entry's structure and that no extension appears twice (§4.2), and indexes the
    /// known ones. Duplicates of known extensions are found through the index; unknown OIDs are
    /// compared with the earlier unknown ones (few in practice; bounded by
    /// `maximumExtensionCount`). No allocation.
    ///
    /// The usual list first, on the octets (`indexPlainExtensions`); a list it does not take —
    /// every malformed one among them — goes through the readers (`indexExtensionsWithReaders`),
    /// which decide and report the error. Both build the index with `record`.
    static func validateExtensions(_ list: DERValue) throws(DERError) -> ExtensionIndex {
        if let index = indexPlainExtensions(list.input, from: list.contentStart, to: list.end) { return index }
        return try indexExtensionsWithReaders(list)
    }

    /// Adds one Extension (its TLV at `extStart`, extnID content at `oid`, extnValue TLV at
    /// `valueAt`) to `index`; false when the extension appeared before (RFC 5280 §4.2: "A
    /// certificate MUST NOT include more than one instance of a particular extension"): known
    /// ones by their bit in `index.present`, others by comparing the OID with the earlier
    /// unknown ones, whose offsets `unknown` keeps (room for `maximumExtensionCount`).
    @inline(__always)
    static func record(
        _ index: inout ExtensionIndex, input b: UnsafeRawBufferPointer, listStart: Int, extStart: Int,
        oid: (start: Int, end: Int), known: Int?, valueAt: Int, isCritical: Bool,
        unknown: UnsafeMutableBufferPointer<Int>, unknownCount: inout Int
    ) -> Bool {
        if let slot = known {
            let bit: UInt16 = 1 << UInt16(slot)
            if index.present & bit != 0 { return false }
            index.present |= bit
            if isCritical { index.critical |= bit }
            // Offsets beyond 16 bits leave the slot 0 (the bit above still finds duplicates).
            let relative = extStart &- listStart &+ 1
            let delta = valueAt &- extStart
            if relative <= Int(UInt16.max) && delta <= Int(UInt8.max) {
                index.slots[slot] = UInt16(truncatingIfNeeded: relative)
                index.valueDeltas[slot] = UInt8(truncatingIfNeeded: delta)
            } else {
                index.unindexed = true
            }
            return true
        }
        if isCritical { index.unknownCritical = true }
        let o = UnsafeRawBufferPointer(rebasing: b[oid.start..<oid.end])
        var k = 0
        while k < unknownCount {
            let prev = UnsafeRawBufferPointer(rebasing: b[unknown[2 &* k]..<unknown[2 &* k &+ 1]])
            if DERValue.bytesEqual(prev, o) { return false }
            k &+= 1
        }
        unknown[2 &* unknownCount] = oid.start
        unknown[2 &* unknownCount &+ 1] = oid.end
        unknownCount &+= 1
        return true
    }

    /// `validateExtensions` for the list almost every certificate carries, read octet by octet
    /// without the readers: each Extension a SEQUENCE, its extnID an OBJECT IDENTIFIER, its
    /// critical flag absent or `01 01 FF`, its extnValue an OCTET STRING that ends it, every
    /// length in DER's minimal short or one- or two-octet long form (`DERValue.minimalHeader`),
    /// at most `maximumExtensionCount` of them, none twice. Nil for anything else (nothing is
    /// thrown here): an empty list, a longer length form, another critical encoding (FALSE
    /// encoded, a malformed BOOLEAN), an invalid unknown OID, trailing octets, a duplicate —
    /// the readers then decide, and report the error with its offset. Where it answers, the
    /// index is the one the readers build (`CertificateParseModelTests` compares the two).
    static func indexPlainExtensions(_ b: UnsafeRawBufferPointer, from: Int, to: Int) -> ExtensionIndex? {
        if from >= to { return nil }
        var index = ExtensionIndex()
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * maximumExtensionCount) {
            (unknown) -> ExtensionIndex? in
            var unknownCount = 0
            var p = from
            while p < to {
                index.count &+= 1
                guard index.count <= maximumExtensionCount, b[p] == 0x30,
                    let ext = DERValue.minimalHeader(b, p &+ 1, to)
                else { return nil }
                let extEnd = ext.1
                var q = ext.0
                guard q < extEnd, b[q] == 0x06, let oid = DERValue.minimalHeader(b, q &+ 1, extEnd), oid.0 < oid.1
                else { return nil }
                let oidBytes = UnsafeRawBufferPointer(rebasing: b[oid.0..<oid.1])
                // A known extension's OID is one of `KnownExtension.slot`'s constants, all valid.
                let known = KnownExtension.slot(oidBytes)
                if known == nil && !DERValue.isValidOIDContent(b, oid.0, oid.1) { return nil }
                q = oid.1
                var isCritical = false
                // DER: TRUE is FF (X.690 §11.1); FALSE, the DEFAULT, is absent (§11.5).
                if q < extEnd && b[q] == 0x01 {
                    guard extEnd &- q >= 3, b[q &+ 1] == 0x01, b[q &+ 2] == 0xFF else { return nil }
                    isCritical = true
                    q &+= 3
                }
                let valueAt = q
                guard q < extEnd, b[q] == 0x04, let value = DERValue.minimalHeader(b, q &+ 1, extEnd),
                    value.1 == extEnd
                else { return nil }
                guard
                    record(
                        &index, input: b, listStart: from, extStart: p, oid: (oid.0, oid.1), known: known,
                        valueAt: valueAt, isCritical: isCritical, unknown: unknown, unknownCount: &unknownCount)
                else { return nil }
                p = extEnd
            }
            return index
        }
    }

    /// `validateExtensions` with the strict readers: every list, deciding every error.
    static func indexExtensionsWithReaders(_ list: DERValue) throws(DERError) -> ExtensionIndex {
        var index = ExtensionIndex()
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * maximumExtensionCount) {
            (unknown) throws(DERError) in
            var unknownCount = 0
            try DERReader.enter(list) { (r) throws(DERError) in
                if r.isAtEnd { throw DERError(.emptyExtensions, at: list.start) }
                while !r.isAtEnd {
                    let extStart = r.position
                    index.count += 1
                    if index.count > maximumExtensionCount { throw DERError(.tooLarge, at: extStart) }
                    let (oidValue, known, valueAt, isCritical) = try r.enter(.sequence) {
                        (e) throws(DERError) -> (DERValue, Int?, Int, Bool) in
                        let o = try e.read(.objectIdentifier)
                        // A known extension's OID is one of the constants `KnownExtension.slot`
                        // matches byte for byte, all valid: only others need checking.
                        let known = KnownExtension.slot(o.content)
                        if known == nil { _ = try o.decodeObjectIdentifier() }
                        let isCritical = try e.readBooleanDefaultFalse()
                        let valueAt = e.position
                        _ = try e.read(.octetString)
                        return (o, known, valueAt, isCritical)
                    }
                    guard
                        record(
                            &index, input: r.input, listStart: list.contentStart, extStart: extStart,
                            oid: (oidValue.contentStart, oidValue.end), known: known, valueAt: valueAt,
                            isCritical: isCritical, unknown: unknown, unknownCount: &unknownCount)
                    else { throw DERError(.duplicateExtension, at: extStart) }
                }
            }
        }
        return index
    }

    @inlinable
    func span(_ s: Span) -> ByteSpan { ByteSpan(der, Int(s.start), Int(s.end)) }

    // MARK: Accessors

    /// The TBSCertificate encoding: the bytes the signature covers.
    public var tbsCertificate: ByteSpan { span(spans.tbs) }
    /// The serial number's INTEGER content octets (two's complement, may start with 0x00).
    public var serialNumber: ByteSpan { span(spans.serial) }
    /// The serial number as lowercase hex without leading zero octets.
    public var serialNumberHex: String {
        let s = serialNumber.bytes
        let trimmed = s.drop(while: { $0 == 0 })
        return trimmed.isEmpty ? "0" : ByteSpan.hexString(trimmed)
    }
    /// The issuer name (RFC 5280 §4.1.2.4), validated while parsing.
    public var issuer: DistinguishedName { DistinguishedName(encoded: span(spans.issuer)) }
    /// The subject name (RFC 5280 §4.1.2.6), validated while parsing.
    public var subject: DistinguishedName { DistinguishedName(encoded: span(spans.subject)) }
    /// The whole SubjectPublicKeyInfo encoding (what SPKI pins hash).
    public var subjectPublicKeyInfo: ByteSpan { span(spans.spki) }
    /// The SPKI's AlgorithmIdentifier encoding.
    public var publicKeyAlgorithmIdentifier: ByteSpan { span(spans.spkiAlgorithm) }
    /// The subjectPublicKey BIT STRING's bytes (for RSA a DER RSAPublicKey; for EC the point).
    public var publicKeyBytes: ByteSpan { span(spans.publicKey) }
    /// The outer AlgorithmIdentifier encoding (identical to the TBS one).
    public var signatureAlgorithmIdentifier: ByteSpan { span(spans.signatureAlgorithm) }
    /// The signature octets.
    public var signature: ByteSpan { span(spans.signature) }
    /// The issuerUniqueID bits, when present (RFC 5280 §4.1.2.8: v2 and v3 only).
    public var issuerUniqueID: ByteSpan? { spans.hasIssuerUID ? span(spans.issuerUID) : nil }
    /// The subjectUniqueID bits, when present (RFC 5280 §4.1.2.8: v2 and v3 only).
    public var subjectUniqueID: ByteSpan? { spans.hasSubjectUID ? span(spans.subjectUID) : nil }

    /// True when `other`'s subject and SubjectPublicKeyInfo encodings are byte-identical to this
    /// certificate's (the same logical CA: path building's loop detection). Compares the
    /// octets in place, without making views. Sigil-internal.
    @_spi(SigilInternal) public func sameSubjectAndKey(as other: Certificate) -> Bool {
        Certificate.sameBytes(der, spans.subject, other.der, other.spans.subject)
            && Certificate.sameBytes(der, spans.spki, other.der, other.spans.spki)
    }

    /// True when `other`'s SubjectPublicKeyInfo encoding is byte-identical to this
    /// certificate's (`subjectPublicKeyInfo == other.subjectPublicKeyInfo`, without making
    /// views). Sigil-internal.
    @_spi(SigilInternal) public func sameSubjectPublicKeyInfo(as other: Certificate) -> Bool {
        Certificate.sameBytes(der, spans.spki, other.der, other.spans.spki)
    }

    /// Byte equality of `a[sa]` and `b[sb]`.
    static func sameBytes(_ a: [UInt8], _ sa: Span, _ b: [UInt8], _ sb: Span) -> Bool {
        let n = Int(sa.end) - Int(sa.start)
        guard n == Int(sb.end) - Int(sb.start) else { return false }
        if n == 0 { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                DERValue.bytesEqual(
                    UnsafeRawBufferPointer(rebasing: x[Int(sa.start)..<Int(sa.end)]),
                    UnsafeRawBufferPointer(rebasing: y[Int(sb.start)..<Int(sb.end)]))
            }
        }
    }

    /// True when issuer and subject are the same name (RFC 5280 §6.1: "self-issued").
    public var isSelfIssued: Bool { issuer.matchesForChaining(subject) }

    /// Dotted OID of the signature algorithm.
    public var signatureAlgorithmOID: String {
        (try? signatureAlgorithmIdentifier.read { (r) throws(DERError) -> String in
            try r.enter(.sequence) { (a) throws(DERError) -> String in
                let o = DERValue.dottedObjectIdentifier(try a.readObjectIdentifier())
                if !a.isAtEnd { try a.skip() }
                return o
            }
        }) ?? ""
    }
}

extension Certificate: Equatable, Hashable {
    /// Certificates are equal when their encodings are.
    public static func == (a: Certificate, b: Certificate) -> Bool { a.der == b.der }
    /// Hashes the encoding (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}
