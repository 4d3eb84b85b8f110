@_spi(SigilInternal) import SigilDER

/// A certificate revocation list (RFC 5280 §5).
///
/// Like `Certificate`, the list owns its DER bytes once and records where each field lies.
/// Parsing validates the whole structure strictly — every revoked entry and every extension —
/// in one pass, and builds one array: the entries' offsets sorted by serial number, so that a
/// lookup is a binary search (O(log n), no per-verification scan) and loading a list of a
/// million entries builds no per-entry object (4 bytes per entry; 8 for indirect CRLs).
///
///     CertificateList ::= SEQUENCE { tbsCertList TBSCertList,
///                                    signatureAlgorithm AlgorithmIdentifier,
///                                    signatureValue BIT STRING }
///     TBSCertList ::= SEQUENCE {
///         version              Version OPTIONAL,   -- if present, MUST be v2
///         signature            AlgorithmIdentifier,
///         issuer               Name,
///         thisUpdate           Time,
///         nextUpdate           Time OPTIONAL,
///         revokedCertificates  SEQUENCE OF SEQUENCE {
///             userCertificate     CertificateSerialNumber,
///             revocationDate      Time,
///             crlEntryExtensions  Extensions OPTIONAL } OPTIONAL,
///         crlExtensions    [0] EXPLICIT Extensions OPTIONAL }
public struct CertificateList: Sendable {
    /// Lists larger than this are refused with `.tooLarge` (a million entries take ≈ 40 MB).
    public static let maximumSize = 1 << 28
    /// At most this many CRL extensions (more: `.tooLarge`).
    public static let maximumExtensionCount = 32
    /// At most this many extensions per revoked entry (more: `.tooLarge`).
    public static let maximumEntryExtensionCount = 16

    /// The whole DER encoding.
    public let der: [UInt8]
    /// 1 or 2 (`version` absent means v1).
    public let version: Int
    /// Seconds since the Unix epoch (UTC).
    public let thisUpdate: Int64
    /// When the next list is due, seconds since the Unix epoch (UTC); nil when the optional field
    /// is absent (RFC 5280 §5.1.2.5 requires it of conforming CAs; the trust layer decides what an
    /// absent one means).
    public let nextUpdate: Int64?
    /// The signature algorithm, from the TBS `signature` field (parsing checked that the outer
    /// `signatureAlgorithm` encodes the same bytes, §5.1.1.2).
    public let signatureAlgorithm: SignatureAlgorithm
    /// What the CRL extensions say, decoded at load (see `Facts`).
    public let facts: Facts
    @usableFromInline let spans: Spans
    /// Entry start offsets sorted by serial (content octets: length first, then bytes).
    @usableFromInline let sortedEntries: [UInt32]
    /// Parallel to `sortedEntries`: each entry's search key (`CertificateList.key`: serial length,
    /// then its first 7 octets), so that a lookup binary-searches this contiguous array and reads
    /// the DER only where keys tie (8 bytes per entry: +8 MB for a million entries).
    @usableFromInline let sortedKeys: [UInt64]
    /// Every `sampleStride`-th key of `sortedKeys` (`sortedKeys[k * sampleStride]`): a search
    /// runs over this small array first (0.5 MB for a million entries: it stays in cache), then
    /// over one block of `sortedKeys` (two cache lines) instead of ~10 scattered probes.
    @usableFromInline let sampleKeys: [UInt64]
    @usableFromInline static let sampleStride = 16
    /// For lists with certificateIssuer entry extensions (indirect CRLs): parallel to
    /// `sortedEntries`, the offset of the certificateIssuer GeneralNames TLV in effect for the
    /// entry (RFC 5280 §5.3.3: it carries over to the following entries), 0 = the CRL issuer.
    @usableFromInline let entryIssuers: [UInt32]

    @usableFromInline struct Spans: Sendable {
        var tbs: (Int, Int)
        var signatureAlgorithm: (Int, Int)
        var issuer: (Int, Int)
        var revoked: (Int, Int)  // content of revokedCertificates (empty if absent)
        var extensions: (Int, Int)  // content of the Extensions SEQUENCE (empty if absent)
        var signature: (Int, Int)
    }

    /// The CRL extensions Sigil understands, and the facts that decide whether the list is usable.
    public struct Facts: Sendable {
        /// cRLNumber (§5.2.3) INTEGER content octets.
        public var crlNumber: ByteSpan?
        /// Whether cRLNumber was marked critical (§5.2.3: conforming CAs mark it non-critical).
        public var crlNumberCritical = false
        /// deltaCRLIndicator (§5.2.4): the BaseCRLNumber content octets; present = a delta CRL.
        public var deltaBaseCRLNumber: ByteSpan?
        /// issuingDistributionPoint (§5.2.5), decoded.
        public var issuingDistributionPoint: IssuingDistributionPoint?
        /// The IDP extension value's encoding (delta and complete CRLs must carry the same).
        public var issuingDistributionPointEncoding: ByteSpan?
        /// authorityKeyIdentifier keyIdentifier (§5.2.1).
        public var authorityKeyIdentifier: ByteSpan?
        /// Whether authorityKeyIdentifier was marked critical (§5.2.1: MUST be non-critical).
        public var authorityKeyIdentifierCritical = false
        /// freshestCRL (§5.2.6) present.
        public var hasFreshestCRL = false
        /// The OID (dotted) of the first critical CRL or entry extension Sigil does not process:
        /// §5.2 / §5.3 say such a CRL MUST NOT be used (Sigil reports it unusable).
        public var unsupportedCriticalExtension: String?
        /// Any entry carries a certificateIssuer extension.
        public var hasCertificateIssuerEntries = false
    }

    /// Parses a DER CRL, keeping `der` as its storage. The whole input must be one CRL.
    public init(der: [UInt8]) throws(DERError) {
        guard der.count <= CertificateList.maximumSize else {
            throw DERError(.tooLarge, at: CertificateList.maximumSize)
        }
        let parsed = try withStorage(der) { (buf) throws(DERError) -> Parsed in
            try CertificateList.parse(buf, storage: der)
        }
        self.der = der
        self.version = parsed.version
        self.thisUpdate = parsed.thisUpdate
        self.nextUpdate = parsed.nextUpdate
        self.signatureAlgorithm = parsed.signatureAlgorithm
        self.facts = parsed.facts
        self.spans = parsed.spans
        self.sortedEntries = parsed.sorted
        self.sortedKeys = parsed.keys
        let stride = CertificateList.sampleStride
        let keys = parsed.keys
        self.sampleKeys = [UInt64](unsafeUninitializedCapacity: (keys.count + stride - 1) / stride) { out, count in
            var j = 0
            for i in Swift.stride(from: 0, to: keys.count, by: stride) {
                out[j] = keys[i]
                j += 1
            }
            count = j
        }
        self.entryIssuers = parsed.issuers
    }

    /// Every CRL in `bytes`: PEM (`X509 CRL` blocks, RFC 7468 §6) or one DER CRL. Throws the
    /// first block's error when any block does not parse (`each(from:)` keeps the others).
    public static func all(from bytes: [UInt8]) throws(DERError) -> [CertificateList] {
        var out: [CertificateList] = []
        for r in try each(from: bytes) { out.append(try r.get()) }
        return out
    }

    /// Every CRL block in `bytes`, each parsed on its own, in order: a malformed block is its
    /// own failure and does not hide the CRLs beside it (a bundle of CRLs one of which is
    /// damaged still revokes what the others list). Throws when `bytes` is neither PEM with
    /// `X509 CRL` blocks nor DER, or its PEM structure cannot be read.
    public static func each(from bytes: [UInt8]) throws(DERError) -> [Result<CertificateList, DERError>] {
        if PEM.looksLikePEM(bytes) {
            let blocks = try PEM.decodeBlocks(
                bytes, labels: ["X509 CRL"], maximumInputSize: CertificateList.maximumSize / 3 * 4 + (1 << 20))
            if blocks.isEmpty { throw DERError(.noCertificate, at: 0) }
            return blocks.map { der in Result { () throws(DERError) in try CertificateList(der: der) } }
        }
        guard let first = bytes.first, first == 0x30 else { throw DERError(.noCertificate, at: 0) }
        return [Result { () throws(DERError) in try CertificateList(der: bytes) }]
    }

    struct Parsed {
        var version = 1
        var thisUpdate: Int64 = 0
        var nextUpdate: Int64?
        var signatureAlgorithm: SignatureAlgorithm = .rsaPKCS1(.sha256)
        var facts = Facts()
        var spans = Spans(
            tbs: (0, 0), signatureAlgorithm: (0, 0), issuer: (0, 0), revoked: (0, 0), extensions: (0, 0),
            signature: (0, 0))
        var sorted: [UInt32] = []
        var keys: [UInt64] = []
        var issuers: [UInt32] = []
    }

    static func parse(_ buf: UnsafeRawBufferPointer, storage: [UInt8]) throws(DERError) -> Parsed {
        var outer = DERReader(buf)
        let listValue = try outer.read(.sequence)
        try outer.finish()
        return try DERReader.enter(listValue) { (c) throws(DERError) -> Parsed in
            let tbsValue = try c.read(.sequence)
            var p = Parsed()
            try DERReader.enter(tbsValue) { (t) throws(DERError) in try parseTBS(&t, into: &p, storage: storage) }
            p.spans.tbs = (tbsValue.start, tbsValue.end)
            // §5.1.1.2: signatureAlgorithm MUST be the same as the TBS `signature` field
            // (compared as encodings, as for certificates).
            let outerStart = c.position
            _ = try SignatureAlgorithm.parse(&c)
            let inner = p.spans.signatureAlgorithm
            let same = DERValue.bytesEqual(
                UnsafeRawBufferPointer(rebasing: buf[outerStart..<c.position]),
                UnsafeRawBufferPointer(rebasing: buf[inner.0..<inner.1]))
            if !same { throw DERError(.signatureAlgorithmMismatch, at: outerStart) }
            let sigValue = try c.read(.bitString)
            let sig = try sigValue.decodeBitString()
            if sig.unusedBits != 0 { throw DERError(.invalidBitString, at: sigValue.contentStart) }
            p.spans.signature = (sig.offset, sigValue.end)
            try sortEntries(buf, &p)
            return p
        }
    }

    static func parseTBS(_ t: inout DERReader, into p: inout Parsed, storage: [UInt8]) throws(DERError) {
        // §5.1.2.1: version absent (v1) or v2 (INTEGER 1).
        if let v = try t.readOptional(.integer) {
            guard try v.decodeInt64() == 1 else { throw DERError(.invalidVersion, at: v.contentStart) }
            p.version = 2
        }
        let algStart = t.position
        p.signatureAlgorithm = try SignatureAlgorithm.parse(&t)
        p.spans.signatureAlgorithm = (algStart, t.position)
        let issuer = try DistinguishedName.validate(&t)
        // §5.1.2.3: the issuer field MUST contain a non-empty distinguished name.
        if issuer.contentCount == 0 { throw DERError(.invalidName, at: issuer.start) }
        p.spans.issuer = (issuer.start, issuer.end)
        p.thisUpdate = try t.readTime()
        if let tag = t.peekTag(), tag == .utcTime || tag == .generalizedTime {
            p.nextUpdate = try t.readTime()
        }
        var entryExtensionsSeen = false
        // §5.1.2.6: with no revoked certificates the list MUST be absent. Tolerated deviation:
        // an empty SEQUENCE is accepted (it is valid DER and means the same; some issuers emit it).
        if let list = try t.readOptional(.sequence) {
            p.spans.revoked = (list.contentStart, list.end)
            entryExtensionsSeen = try validateEntries(list, into: &p, storage: storage)
        }
        if let e = try t.readOptional(.contextConstructed(0)) {
            // §5.1.2.1: extensions require v2.
            if p.version != 2 { throw DERError(.extensionsNotAllowed, at: e.start) }
            try DERReader.enter(e) { (x) throws(DERError) in
                let list = try x.read(.sequence)
                p.spans.extensions = (list.contentStart, list.end)
                try parseCRLExtensions(list, into: &p.facts, storage: storage)
            }
        }
        if entryExtensionsSeen && p.version != 2 { throw DERError(.extensionsNotAllowed, at: p.spans.revoked.0) }
    }

    /// Walks every entry once: structure, serial, date, extensions. Returns whether any entry
    /// has extensions. Entry offsets are collected into `p.sorted` (in list order here).
    static func validateEntries(_ list: DERValue, into p: inout Parsed, storage: [UInt8]) throws(DERError) -> Bool {
        var anyExtensions = false
        var currentIssuer: UInt32 = 0
        var r = list.innerReader
        // A rough capacity: entries are at least ≈ 20 bytes.
        p.sorted.reserveCapacity(min(list.contentCount / 24 + 1, 1 << 22))
        while !r.isAtEnd {
            let entryStart = r.position
            guard entryStart <= Int(UInt32.max) else { throw DERError(.tooLarge, at: entryStart) }
            try r.enter(.sequence) { (e) throws(DERError) in
                let serial = try e.read(.integer)
                let bytes = try serial.decodeIntegerBytes()
                // CertificateSerialNumber: at most 20 octets of magnitude (§4.1.2.2); a
                // negative serial can match no certificate Sigil accepts but is well formed.
                let magnitude = bytes[0] == 0 ? bytes.count - 1 : bytes.count
                if magnitude > 20 { throw DERError(.invalidSerialNumber, at: serial.start) }
                _ = try e.readTime()
                if let exts = try e.readOptional(.sequence) {
                    anyExtensions = true
                    if let issuerAt = try parseEntryExtensions(exts, facts: &p.facts) {
                        currentIssuer = UInt32(issuerAt)
                        p.facts.hasCertificateIssuerEntries = true
                    }
                }
            }
            p.sorted.append(UInt32(entryStart))
            p.issuers.append(currentIssuer)
        }
        return anyExtensions
    }

    /// Entry extensions (§5.3): reasonCode, invalidityDate, certificateIssuer (and the
    /// deprecated holdInstructionCode, accepted non-critical). Returns the offset of the
    /// certificateIssuer GeneralNames TLV when the entry carries one.
    static func parseEntryExtensions(_ list: DERValue, facts: inout Facts) throws(DERError) -> Int? {
        var issuerAt: Int?
        var count = 0
        try DERReader.enter(list) { (r) throws(DERError) in
            if r.isAtEnd { throw DERError(.emptyExtensions, at: list.start) }
            let first = r.position
            while !r.isAtEnd {
                let extStart = r.position
                count += 1
                if count > maximumEntryExtensionCount { throw DERError(.tooLarge, at: extStart) }
                let (oid, critical, value) = try readExtension(&r)
                try checkDuplicate(oid, in: r.input, from: first, to: extStart, at: extStart)
                do throws(DERError) {
                    if OID.crlReason.matches(oid) {
                        // CRLReason ::= ENUMERATED; 7 is not used.
                        var v = value.innerReader
                        let e = try v.read(.enumerated)
                        try v.finish()
                        let n = try e.decodeInt64()
                        guard CRLReason(rawValue: n) != nil else {
                            throw DERError(.invalidExtension, at: e.contentStart)
                        }
                    } else if OID.invalidityDate.matches(oid) {
                        var v = value.innerReader
                        let g = try v.read(.generalizedTime)
                        _ = try DERTime.decode(g)
                        try v.finish()
                    } else if OID.certificateIssuer.matches(oid) {
                        var v = value.innerReader
                        let names = try v.read(.sequence)
                        try v.finish()
                        try validateList(names, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                        issuerAt = names.start
                    } else if OID.holdInstructionCode.matches(oid) {
                        var v = value.innerReader
                        _ = try v.readObjectIdentifier()
                        try v.finish()
                    } else if critical && facts.unsupportedCriticalExtension == nil {
                        facts.unsupportedCriticalExtension = DERValue.dottedObjectIdentifier(oid)
                    }
                } catch {
                    throw DERError(.invalidExtension, at: error.offset)
                }
            }
        }
        return issuerAt
    }

    static func readExtension(_ r: inout DERReader) throws(DERError) -> (UnsafeRawBufferPointer, Bool, DERValue) {
        try r.enter(.sequence) { (e) throws(DERError) -> (UnsafeRawBufferPointer, Bool, DERValue) in
            let oid = try e.readObjectIdentifier()
            let critical = try e.readBooleanDefaultFalse()
            let value = try e.read(.octetString)
            return (oid, critical, value)
        }
    }

    /// §4.2 / §5.2: an extension appears at most once (lists are short: pairwise).
    static func checkDuplicate(
        _ oid: UnsafeRawBufferPointer, in input: UnsafeRawBufferPointer, from: Int, to: Int, at: Int
    ) throws(DERError) {
        var earlier = DERReader(input: input, from: from, to: to)
        while !earlier.isAtEnd {
            let (prev, _, _) = try readExtension(&earlier)
            if DERValue.bytesEqual(prev, oid) { throw DERError(.duplicateExtension, at: at) }
        }
    }

    /// CRL extensions (§5.2).
    static func parseCRLExtensions(_ list: DERValue, into facts: inout Facts, storage: [UInt8]) throws(DERError) {
        var count = 0
        try DERReader.enter(list) { (r) throws(DERError) in
            if r.isAtEnd { throw DERError(.emptyExtensions, at: list.start) }
            let first = r.position
            while !r.isAtEnd {
                let extStart = r.position
                count += 1
                if count > maximumExtensionCount { throw DERError(.tooLarge, at: extStart) }
                let (oid, critical, value) = try readExtension(&r)
                try checkDuplicate(oid, in: r.input, from: first, to: extStart, at: extStart)
                do throws(DERError) {
                    var v = value.innerReader
                    if OID.cRLNumber.matches(oid) {
                        // CRLNumber ::= INTEGER (0..MAX), at most 20 octets (§5.2.3).
                        let n = try v.read(.integer)
                        let b = try n.decodeIntegerBytes()
                        if b[0] & 0x80 != 0 || b.count > 21 { throw DERError(.invalidExtension, at: n.contentStart) }
                        facts.crlNumber = ByteSpan(storage, n.contentStart, n.end)
                        facts.crlNumberCritical = critical
                    } else if OID.deltaCRLIndicator.matches(oid) {
                        // BaseCRLNumber ::= CRLNumber (§5.2.4).
                        let n = try v.read(.integer)
                        let b = try n.decodeIntegerBytes()
                        if b[0] & 0x80 != 0 || b.count > 21 { throw DERError(.invalidExtension, at: n.contentStart) }
                        facts.deltaBaseCRLNumber = ByteSpan(storage, n.contentStart, n.end)
                    } else if OID.issuingDistributionPoint.matches(oid) {
                        facts.issuingDistributionPoint = try IssuingDistributionPoint.parse(&v, storage: storage)
                        facts.issuingDistributionPointEncoding = ByteSpan(storage, value.contentStart, value.end)
                    } else if OID.authorityKeyIdentifier.matches(oid) {
                        // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] OCTET STRING OPTIONAL,
                        //   authorityCertIssuer [1] GeneralNames OPTIONAL, authorityCertSerialNumber [2] INTEGER OPTIONAL }
                        try v.enter(.sequence) { (a) throws(DERError) in
                            if let k = try a.readOptional(.contextPrimitive(0)) {
                                facts.authorityKeyIdentifier = ByteSpan(storage, k.contentStart, k.end)
                            }
                            if let i = try a.readOptional(.contextConstructed(1)) {
                                try validateList(i, atLeastOne: true) { (g) throws(DERError) in
                                    try GeneralName.check(&g)
                                }
                            }
                            if let s = try a.readOptional(.contextPrimitive(2)) { _ = try s.decodeIntegerBytes() }
                        }
                        facts.authorityKeyIdentifierCritical = critical
                    } else if OID.freshestCRL.matches(oid) {
                        let l = try v.read(.sequence)
                        try validateList(l, atLeastOne: true) { (d) throws(DERError) in
                            try DistributionPoint.validate(&d)
                        }
                        facts.hasFreshestCRL = true
                    } else if OID.issuerAltName.matches(oid) {
                        let l = try v.read(.sequence)
                        try validateList(l, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                    } else {
                        // authorityInfoAccess and anything else: kept unread; critical → unusable.
                        while !v.isAtEnd { try v.skip() }
                        if critical && facts.unsupportedCriticalExtension == nil {
                            facts.unsupportedCriticalExtension = DERValue.dottedObjectIdentifier(oid)
                        }
                    }
                    try v.finish()
                } catch {
                    throw DERError(.invalidExtension, at: error.offset)
                }
            }
        }
    }

    // MARK: sorting and lookup

    /// The sort key of a serial: its content length in the top byte, then its first 7 octets.
    /// Keys order serials by (length, bytes); equal keys are compared in full.
    @inline(__always)
    static func key(_ buf: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> UInt64 {
        var k = UInt64(truncatingIfNeeded: count) << 56
        let n = min(count, 7)
        for i in 0..<n { k |= UInt64(buf[start + i]) << UInt64(48 - 8 * i) }
        return k
    }

    /// Content range of the serial INTEGER of the entry at `entry` (already validated).
    @inline(__always)
    static func serialRange(_ buf: UnsafeRawBufferPointer, _ entry: Int) -> (Int, Int) {
        var i = entry + 1
        let l = buf[i]
        i += l < 0x80 ? 1 : 1 + Int(l & 0x7F)  // past the entry SEQUENCE header
        i += 1  // INTEGER tag
        let n = Int(buf[i])  // serial length: < 128 (≤ 21 octets)
        return (i + 1, i + 1 + n)
    }

    @inline(__always)
    static func compare(_ buf: UnsafeRawBufferPointer, _ a: (Int, Int), _ b: UnsafeRawBufferPointer) -> Int {
        let na = a.1 - a.0
        if na != b.count { return na < b.count ? -1 : 1 }
        for i in 0..<na where buf[a.0 + i] != b[i] { return buf[a.0 + i] < b[i] ? -1 : 1 }
        return 0
    }

    struct SortItem {
        var key: UInt64
        var entry: UInt32
        var issuer: UInt32
    }

    static func sortEntries(_ buf: UnsafeRawBufferPointer, _ p: inout Parsed) throws(DERError) {
        let n = p.sorted.count
        guard n > 1 else {
            if n == 1 {
                let r = serialRange(buf, Int(p.sorted[0]))
                p.keys = [key(buf, r.0, r.1 - r.0)]
            }
            if !p.facts.hasCertificateIssuerEntries { p.issuers = [] }
            return
        }
        var items: [SortItem] = []
        items.reserveCapacity(n)
        var alreadySorted = true
        var prev: (Int, Int) = (0, 0)
        for i in 0..<n {
            let e = Int(p.sorted[i])
            let r = serialRange(buf, e)
            items.append(SortItem(key: key(buf, r.0, r.1 - r.0), entry: UInt32(e), issuer: p.issuers[i]))
            if i > 0 && alreadySorted
                && compare(buf, prev, UnsafeRawBufferPointer(rebasing: buf[r.0..<r.1])) > 0
            {
                alreadySorted = false
            }
            prev = r
        }
        if !alreadySorted {
            items.sort { a, b in
                if a.key != b.key { return a.key < b.key }
                let ra = serialRange(buf, Int(a.entry))
                let rb = serialRange(buf, Int(b.entry))
                let c = compare(buf, ra, UnsafeRawBufferPointer(rebasing: buf[rb.0..<rb.1]))
                return c != 0 ? c < 0 : a.entry < b.entry
            }
            for i in 0..<n { p.sorted[i] = items[i].entry }
        }
        p.keys = [UInt64](unsafeUninitializedCapacity: n) { out, count in
            for i in 0..<n { out[i] = items[i].key }
            count = n
        }
        if p.facts.hasCertificateIssuerEntries {
            for i in 0..<n { p.issuers[i] = items[i].issuer }
        } else {
            p.issuers = []
        }
    }

    /// The number of revoked entries.
    public var revokedCount: Int { sortedEntries.count }

    /// The positions in the sorted index of the entries whose serial equals `serial` (INTEGER
    /// content octets, e.g. `certificate.serialNumber`); empty when it is not listed. Several
    /// only in indirect CRLs (one per certificate issuer, §5.3.3). `entries(serial:)` reads
    /// them. Allocates nothing: a binary search over the packed keys, reading
    /// the DER only where a key ties (then the full serials decide, so equal 7-octet prefixes
    /// resolve exactly), O(log n) probes whatever the list holds.
    public func entryIndices(serial: ByteSpan) -> Range<Int> {
        let n = serial.end - serial.start
        // Listed serials have 1...21 content octets (parsing refused longer ones): anything else
        // is not listed (and would not fit the key's length byte).
        guard n >= 1, n <= 21, !sortedKeys.isEmpty else { return 0..<0 }
        return der.withUnsafeBytes { buf in
            serial.storage.withUnsafeBytes { sbuf in
                let s = UnsafeRawBufferPointer(rebasing: sbuf[serial.start..<serial.end])
                return sortedKeys.withUnsafeBufferPointer { keys in
                    sampleKeys.withUnsafeBufferPointer { samples in
                        sortedEntries.withUnsafeBufferPointer { offsets in
                            CertificateList.search(buf, keys, samples, offsets, s)
                        }
                    }
                }
            }
        }
    }

    /// `entryIndices(serial:)` over the buffers: lower bound by (key, full serial), then the run
    /// of equal serials.
    @inline(__always)
    static func search(
        _ buf: UnsafeRawBufferPointer, _ keys: UnsafeBufferPointer<UInt64>, _ samples: UnsafeBufferPointer<UInt64>,
        _ offsets: UnsafeBufferPointer<UInt32>, _ s: UnsafeRawBufferPointer
    ) -> Range<Int> {
        let q = key(s, 0, s.count)
        // Branch-free lower bound on the keys alone (first index whose key is ≥ q), in two steps:
        // c = the number of samples < q, so keys[(c-1)·stride] < q ≤ keys[c·stride] and the bound
        // lies in ((c-1)·stride, c·stride].
        @inline(__always) func lowerBound(_ a: UnsafeBufferPointer<UInt64>, _ from: Int, _ to: Int) -> Int {
            var base = from
            var len = to - from
            if len == 0 { return from }
            while len > 1 {
                let half = len / 2
                base = a[base + half - 1] < q ? base + half : base
                len -= half
            }
            return base + (a[base] < q ? 1 : 0)
        }
        let c = lowerBound(samples, 0, samples.count)
        let stride = sampleStride
        var lo = lowerBound(keys, c == 0 ? 0 : (c - 1) * stride + 1, min(c * stride, keys.count))
        // Keys tie only for serials sharing length and first 7 octets: among those (sorted by the
        // full serial, as `sortEntries` ordered them) find the first ≥ s by a binary search that
        // reads the DER.
        @inline(__always) func cmp(_ i: Int) -> Int { compare(buf, serialRange(buf, Int(offsets[i])), s) }
        guard lo < keys.count, keys[lo] == q else { return lo..<lo }
        if s.count > 7 {
            if cmp(lo) < 0 {
                // A tie run: its end (first key > q), then the first full serial ≥ s inside it.
                var a = lo
                var b = keys.count
                while a < b {
                    let m = (a + b) / 2
                    if keys[m] <= q { a = m + 1 } else { b = m }
                }
                var l = lo + 1
                var h = a
                while l < h {
                    let m = (l + h) / 2
                    if cmp(m) < 0 { l = m + 1 } else { h = m }
                }
                lo = l
            }
            guard lo < keys.count, keys[lo] == q, cmp(lo) == 0 else { return lo..<lo }
        }
        // lo holds s. Usually the run is one entry; a longer one (indirect CRLs) ends at the first
        // entry that differs, found by doubling then bisection (bounded whatever its length).
        @inline(__always) func same(_ i: Int) -> Bool { keys[i] == q && (s.count <= 7 || cmp(i) == 0) }
        if lo + 1 >= keys.count || !same(lo + 1) { return lo..<(lo + 1) }
        var step = 2
        var inside = lo + 1
        while inside + step < keys.count && same(inside + step) {
            inside += step
            step *= 2
        }
        var l = inside + 1
        var h = min(inside + step, keys.count)
        while l < h {
            let m = (l + h) / 2
            if same(m) { l = m + 1 } else { h = m }
        }
        return lo..<l
    }

    /// The first entry whose serial equals `serial`, or nil: `entries(serial:)` without the array
    /// (for lists that are not indirect, where a serial is listed at most once per issuer).
    public func firstEntry(serial: ByteSpan) -> RevokedCertificate? {
        let r = entryIndices(serial: serial)
        return r.isEmpty ? nil : entry(sortedIndex: r.lowerBound)
    }

    /// The entries whose serial equals `serial` (INTEGER content octets, e.g.
    /// `certificate.serialNumber`): the run found by `entryIndices(serial:)`, decoded (several
    /// only in indirect CRLs, one per certificate issuer).
    public func entries(serial: ByteSpan) -> [RevokedCertificate] {
        entryIndices(serial: serial).compactMap { entry(sortedIndex: $0) }
    }

    /// `entries(serial:)` for serial INTEGER content octets given as bytes (e.g. from a
    /// database): minimal two's complement, as in the certificate.
    public func entries(serial bytes: [UInt8]) -> [RevokedCertificate] {
        // Spans hold 32-bit offsets (`ByteSpan`); no serial is that long (RFC 5280 §4.1.2.2: 20 octets).
        guard bytes.count <= Int(UInt32.max) else { return [] }
        return entries(serial: ByteSpan(bytes, 0, bytes.count))
    }

    /// `entryIndices(serial:)` for serial INTEGER content octets given as bytes.
    public func entryIndices(serial bytes: [UInt8]) -> Range<Int> {
        // Spans hold 32-bit offsets (`ByteSpan`); no serial is that long (RFC 5280 §4.1.2.2: 20 octets).
        guard bytes.count <= Int(UInt32.max) else { return 0..<0 }
        return entryIndices(serial: ByteSpan(bytes, 0, bytes.count))
    }

    /// `firstEntry(serial:)` for serial INTEGER content octets given as bytes.
    public func firstEntry(serial bytes: [UInt8]) -> RevokedCertificate? {
        // Spans hold 32-bit offsets (`ByteSpan`); no serial is that long (RFC 5280 §4.1.2.2: 20 octets).
        guard bytes.count <= Int(UInt32.max) else { return nil }
        return firstEntry(serial: ByteSpan(bytes, 0, bytes.count))
    }

    /// The entry at a position of the sorted index (`0..<revokedCount`, e.g. from
    /// `entryIndices(serial:)`); nil outside it. Sigil-internal (`@_spi(SigilInternal)`, for
    /// revocation checking): applications read entries with `entries(serial:)` / `firstEntry(serial:)`.
    @_spi(SigilInternal) public func entry(sortedIndex i: Int) -> RevokedCertificate? {
        guard i >= 0, i < sortedEntries.count else { return nil }
        return entryAt(i)
    }

    func entryAt(_ i: Int) -> RevokedCertificate? {
        let issuer = entryIssuers.isEmpty ? 0 : Int(entryIssuers[i])
        return RevokedCertificate.decode(der, at: Int(sortedEntries[i]), issuerAt: issuer)
    }

    /// Every entry, in list order, decoded lazily (no copy).
    public var revokedCertificates: RevokedCertificates {
        RevokedCertificates(storage: der, start: spans.revoked.0, end: spans.revoked.1)
    }

    // MARK: accessors

    @inlinable func span(_ s: (Int, Int)) -> ByteSpan { ByteSpan(der, s.0, s.1) }

    /// The TBSCertList encoding: the bytes the signature covers.
    public var tbsCertList: ByteSpan { span(spans.tbs) }
    /// The issuer name (§5.1.2.3; parsing refuses an empty one).
    public var issuer: DistinguishedName { DistinguishedName(encoded: span(spans.issuer)) }
    /// The signatureValue BIT STRING's bits (the bytes after the unused-bits octet, which parsing
    /// requires to be 0).
    public var signature: ByteSpan { span(spans.signature) }
    /// The TBS `signature` AlgorithmIdentifier's full encoding (tag and length included).
    public var signatureAlgorithmIdentifier: ByteSpan { span(spans.signatureAlgorithm) }
    /// The CRL extensions, in order.
    public var extensions: Extensions { Extensions(storage: der, start: spans.extensions.0, end: spans.extensions.1) }
    /// True for a delta CRL (§5.2.4).
    public var isDelta: Bool { facts.deltaBaseCRLNumber != nil }
}

extension CertificateList: Equatable, Hashable {
    /// Lists are equal when their DER encodings are byte for byte.
    public static func == (a: CertificateList, b: CertificateList) -> Bool { a.der == b.der }
    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// `CRLReason ::= ENUMERATED` (RFC 5280 §5.3.1; 7 is not used).
public enum CRLReason: Int64, Sendable, Hashable, CaseIterable {
    /// Reason code 0: no reason given.
    case unspecified = 0
    /// Reason code 1: the subject's private key was compromised.
    case keyCompromise = 1
    /// Reason code 2: the issuing CA's key was compromised.
    case cACompromise = 2
    /// Reason code 3: the subject's name or other information changed.
    case affiliationChanged = 3
    /// Reason code 4: the certificate was replaced.
    case superseded = 4
    /// Reason code 5: the certificate is no longer needed.
    case cessationOfOperation = 5
    /// Reason code 6: the certificate is on hold (may be released by removeFromCRL in a delta CRL).
    case certificateHold = 6
    /// Reason code 8: only in delta CRLs — the entry is no longer revoked (§5.2.4).
    case removeFromCRL = 8
    /// Reason code 9: a privilege granted to the subject was withdrawn.
    case privilegeWithdrawn = 9
    /// Reason code 10: the attribute authority was compromised.
    case aACompromise = 10

    /// The ASN.1 name of the reason, e.g. "keyCompromise".
    public var name: String {
        switch self {
        case .unspecified: return "unspecified"
        case .keyCompromise: return "keyCompromise"
        case .cACompromise: return "cACompromise"
        case .affiliationChanged: return "affiliationChanged"
        case .superseded: return "superseded"
        case .cessationOfOperation: return "cessationOfOperation"
        case .certificateHold: return "certificateHold"
        case .removeFromCRL: return "removeFromCRL"
        case .privilegeWithdrawn: return "privilegeWithdrawn"
        case .aACompromise: return "aACompromise"
        }
    }

    /// The ReasonFlags bit (§4.2.1.13) of this reason, as `DistributionPoint.reasons` and
    /// `IssuingDistributionPoint.onlySomeReasons` number them (bit i = 1 << i); unspecified and
    /// removeFromCRL have none (they fall under every scope).
    public var reasonFlag: UInt16? {
        switch self {
        case .keyCompromise: return 1 << 1
        case .cACompromise: return 1 << 2
        case .affiliationChanged: return 1 << 3
        case .superseded: return 1 << 4
        case .cessationOfOperation: return 1 << 5
        case .certificateHold: return 1 << 6
        case .privilegeWithdrawn: return 1 << 7
        case .aACompromise: return 1 << 8
        case .unspecified, .removeFromCRL: return nil
        }
    }
}

/// One revoked entry, decoded from the list's bytes (views, no copy).
public struct RevokedCertificate: Sendable {
    /// userCertificate: the serial INTEGER content octets.
    public let serialNumber: ByteSpan
    /// revocationDate: seconds since the Unix epoch (UTC).
    public let revocationDate: Int64
    /// reasonCode (§5.3.1); nil when absent (= unspecified).
    public let reason: CRLReason?
    /// invalidityDate (§5.3.2).
    public let invalidityDate: Int64?
    /// The certificateIssuer in effect for this entry (§5.3.3, indirect CRLs); nil = the CRL issuer.
    public let certificateIssuer: GeneralNames?
    /// The entry's crlEntryExtensions, in order (empty when absent).
    public let extensions: Extensions

    static func decode(_ storage: [UInt8], at offset: Int, issuerAt: Int) -> RevokedCertificate? {
        try? withStorage(storage) { (buf) throws(DERError) -> RevokedCertificate in
            var r = DERReader(input: buf, from: offset, to: buf.count)
            return try r.enter(.sequence) { (e) throws(DERError) -> RevokedCertificate in
                let serial = try e.read(.integer)
                let date = try e.readTime()
                var reason: CRLReason?
                var invalidity: Int64?
                var exts = Extensions(storage: storage, start: 0, end: 0)
                if let list = try e.readOptional(.sequence) {
                    exts = Extensions(storage: storage, start: list.contentStart, end: list.end)
                    var x = list.innerReader
                    while !x.isAtEnd {
                        let (oid, _, value) = try CertificateList.readExtension(&x)
                        var v = value.innerReader
                        if OID.crlReason.matches(oid) {
                            reason = CRLReason(rawValue: try v.read(.enumerated).decodeInt64())
                        } else if OID.invalidityDate.matches(oid) {
                            invalidity = try DERTime.decode(try v.read(.generalizedTime))
                        }
                    }
                }
                var issuer: GeneralNames?
                if issuerAt != 0 {
                    var ir = DERReader(input: buf, from: issuerAt, to: buf.count)
                    let names = try ir.read(.sequence)
                    issuer = GeneralNames(list: ByteSpan(storage, names.contentStart, names.end))
                }
                return RevokedCertificate(
                    serialNumber: ByteSpan(storage, serial.contentStart, serial.end),
                    revocationDate: date, reason: reason, invalidityDate: invalidity,
                    certificateIssuer: issuer, extensions: exts)
            }
        }
    }
}

/// The entries of a CRL in list order (certificateIssuer carried over, §5.3.3).
public struct RevokedCertificates: Sequence, Sendable {
    let storage: [UInt8]
    let start: Int
    let end: Int

    /// An iterator from the first entry.
    public func makeIterator() -> Iterator { Iterator(storage: storage, position: start, end: end, issuerAt: 0) }

    /// Walks the entries in list order, carrying the certificateIssuer of indirect CRLs over to
    /// the following entries (§5.3.3).
    public struct Iterator: IteratorProtocol {
        let storage: [UInt8]
        var position: Int
        let end: Int
        var issuerAt: Int

        /// The next entry, or nil at the end (the list was validated when the CRL was parsed, so
        /// no entry is skipped).
        public mutating func next() -> RevokedCertificate? {
            guard position < end else { return nil }
            let p = position
            let e = end
            let step: (Int, Int?)? = try? withStorage(storage) { (b) throws(DERError) -> (Int, Int?) in
                var r = DERReader(input: b, from: p, to: e)
                var issuer: Int?
                try r.enter(.sequence) { (x) throws(DERError) in
                    _ = try x.read(.integer)
                    _ = try x.readTime()
                    if let list = try x.readOptional(.sequence) {
                        var l = list.innerReader
                        while !l.isAtEnd {
                            let (oid, _, value) = try CertificateList.readExtension(&l)
                            if OID.certificateIssuer.matches(oid) { issuer = value.contentStart }
                        }
                    }
                }
                return (r.position, issuer)
            }
            guard let (next, issuer) = step else {
                position = end
                return nil
            }
            if let issuer { issuerAt = issuer }
            position = next
            return RevokedCertificate.decode(storage, at: p, issuerAt: issuerAt)
        }
    }
}

/// `IssuingDistributionPoint ::= SEQUENCE {
///     distributionPoint          [0] DistributionPointName OPTIONAL,
///     onlyContainsUserCerts      [1] BOOLEAN DEFAULT FALSE,
///     onlyContainsCACerts        [2] BOOLEAN DEFAULT FALSE,
///     onlySomeReasons            [3] ReasonFlags OPTIONAL,
///     indirectCRL                [4] BOOLEAN DEFAULT FALSE,
///     onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }`   (RFC 5280 §5.2.5)
public struct IssuingDistributionPoint: Sendable {
    /// distributionPoint as a fullName (nil when absent or given as nameRelativeToCRLIssuer).
    public var fullName: GeneralNames?
    /// The point is named relative to the CRL issuer (nameRelativeToCRLIssuer).
    public var hasRelativeName = false
    /// nameRelativeToCRLIssuer [1]: the RelativeDistinguishedName's content; the point's name
    /// is the CRL issuer's DN with this RDN appended (§5.2.5), see
    /// `DistinguishedName.appending(relativeName:)`.
    public var relativeName: ByteSpan?
    /// The list covers end-entity certificates only (cA false or no basicConstraints).
    public var onlyContainsUserCerts = false
    /// The list covers CA certificates only.
    public var onlyContainsCACerts = false
    /// ReasonFlags bits (bit i = 1 << i), when present.
    public var onlySomeReasons: UInt16?
    /// The list may hold entries of other issuers (certificateIssuer entry extensions, §5.3.3).
    public var indirectCRL = false
    /// The list covers attribute certificates only (never a public-key certificate).
    public var onlyContainsAttributeCerts = false

    static func parse(_ r: inout DERReader, storage: [UInt8]) throws(DERError) -> IssuingDistributionPoint {
        try r.enter(.sequence) { (s) throws(DERError) -> IssuingDistributionPoint in
            var idp = IssuingDistributionPoint()
            let start = s.position
            if let name = try s.readOptional(.contextConstructed(0)) {
                try DERReader.enter(name) { (n) throws(DERError) in
                    let choice = try n.readAny()
                    switch choice.tag {
                    case .contextConstructed(0):
                        try validateList(choice, atLeastOne: true) { (g) throws(DERError) in try GeneralName.check(&g) }
                        idp.fullName = GeneralNames(list: ByteSpan(storage, choice.contentStart, choice.end))
                    case .contextConstructed(1):
                        // RelativeDistinguishedName: attributes checked as in a Name.
                        try validateList(choice, atLeastOne: true) { (a) throws(DERError) in
                            try DistinguishedName.validateAttribute(&a)
                        }
                        idp.hasRelativeName = true
                        idp.relativeName = ByteSpan(storage, choice.contentStart, choice.end)
                    default:
                        throw DERError(.unexpectedTag, at: choice.start)
                    }
                }
            }
            // BOOLEAN DEFAULT FALSE: FALSE must not be encoded (X.690 §11.5).
            func flag(_ n: UInt8, _ s: inout DERReader) throws(DERError) -> Bool {
                guard let v = try s.readOptional(.contextPrimitive(n)) else { return false }
                guard try v.decodeBoolean() else { throw DERError(.defaultValueEncoded, at: v.start) }
                return true
            }
            idp.onlyContainsUserCerts = try flag(1, &s)
            idp.onlyContainsCACerts = try flag(2, &s)
            if let reasons = try s.readOptional(.contextPrimitive(3)) {
                let bits = try reasons.decodeBitString()
                var raw: UInt16 = 0
                for i in 0..<9 where bits.bit(i) { raw |= 1 << UInt16(i) }
                idp.onlySomeReasons = raw
            }
            idp.indirectCRL = try flag(4, &s)
            idp.onlyContainsAttributeCerts = try flag(5, &s)
            // §5.2.5: at most one of the "only contains" flags, and not only default values.
            let only = [idp.onlyContainsUserCerts, idp.onlyContainsCACerts, idp.onlyContainsAttributeCerts].filter {
                $0
            }.count
            if only > 1 || s.position == start { throw DERError(.invalidExtension, at: start) }
            return idp
        }
    }
}

extension OID {
    // CRL and CRL entry extensions (RFC 5280 §5.2, §5.3)
    /// 2.5.29.20 id-ce-cRLNumber (§5.2.3).
    public static let cRLNumber: [UInt8] = [0x55, 0x1D, 0x14]
    /// 2.5.29.21 id-ce-cRLReasons (§5.3.1).
    public static let crlReason: [UInt8] = [0x55, 0x1D, 0x15]
    /// 2.5.29.23 id-holdinstruction-code (deprecated; accepted non-critical on CRL entries).
    public static let holdInstructionCode: [UInt8] = [0x55, 0x1D, 0x17]
    /// 2.5.29.24 id-ce-invalidityDate (§5.3.2).
    public static let invalidityDate: [UInt8] = [0x55, 0x1D, 0x18]
    /// 2.5.29.27 id-ce-deltaCRLIndicator (§5.2.4).
    public static let deltaCRLIndicator: [UInt8] = [0x55, 0x1D, 0x1B]
    /// 2.5.29.28 id-ce-issuingDistributionPoint (§5.2.5).
    public static let issuingDistributionPoint: [UInt8] = [0x55, 0x1D, 0x1C]
    /// 2.5.29.29 id-ce-certificateIssuer (§5.3.3).
    public static let certificateIssuer: [UInt8] = [0x55, 0x1D, 0x1D]
    // OCSP (RFC 6960 §4.2.1, §4.2.2.2.1, §4.4)
    /// 1.3.6.1.5.5.7.48.1.1 id-pkix-ocsp-basic (RFC 6960 §4.2.1).
    public static let ocspBasic: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x01]
    /// 1.3.6.1.5.5.7.48.1.2 id-pkix-ocsp-nonce (RFC 6960 §4.4.1).
    public static let ocspNonce: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x02]
    /// 1.3.6.1.5.5.7.48.1.5 id-pkix-ocsp-nocheck (RFC 6960 §4.2.2.2.1).
    public static let ocspNoCheck: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x05]
}

extension DERValue {
    /// A reader over this value's content, for encapsulated DER (an extension's OCTET STRING) or
    /// a list walked element by element. Its depth count restarts: the content is a structure of
    /// its own, still bounded by `DERReader.maximumDepth`.
    var innerReader: DERReader { DERReader(input: input, from: contentStart, to: end) }
}
