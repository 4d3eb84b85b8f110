@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509

/// Where an anchor came from: the caller's own anchors or the system store.
public enum AnchorSource: Sendable, Hashable {
    /// Given by the caller (`CertificateTrust.anchors`, or a `TrustStore` built by hand).
    /// `CertificateTrust` reports a path to such an anchor as `.proceed`.
    case custom
    /// Loaded from the system store (`TrustStore.system()`). `CertificateTrust` reports a path
    /// to such an anchor as `.unspecified`.
    case system
}

/// A certificate trusted as the end of a chain. Any certificate can be an anchor (a company's
/// self-signed root or an intermediate); a chain ends at the first anchor reached.
public struct TrustAnchor: Sendable {
    /// The anchor's certificate (its key and subject end a path).
    public let certificate: Certificate
    /// Whether the caller or the system store supplied it.
    public let source: AnchorSource
    /// The purposes the anchor is limited to, when it was loaded from an OpenSSL `TRUSTED
    /// CERTIFICATE` block that states some (`CertificateTrustSettings`); nil: no limit beyond
    /// the certificate's own extensions. A path for a purpose they do not permit does not end
    /// here (`TrustFailure.Kind.untrustedRoot`), as OpenSSL's "certificate rejected".
    public let trustSettings: CertificateTrustSettings?
    /// The certificate's option-independent facts, computed once here so that an anchor costs
    /// nothing per verification (`CertificateFacts`).
    let facts: CertificateFacts

    /// An anchor from `certificate`, from `source`, limited to `trustSettings` when given.
    public init(
        _ certificate: Certificate, source: AnchorSource = .custom, trustSettings: CertificateTrustSettings? = nil
    ) {
        self.certificate = certificate
        self.source = source
        self.trustSettings = trustSettings
        self.facts = CertificateFacts(certificate)
    }

    /// This anchor with other trust settings (the facts kept).
    init(_ other: TrustAnchor, trustSettings: CertificateTrustSettings?) {
        certificate = other.certificate
        source = other.source
        self.trustSettings = trustSettings
        facts = other.facts
    }

    /// The settings of the same anchor given twice with `a` and `b`: what both permit.
    static func combined(_ a: CertificateTrustSettings?, _ b: CertificateTrustSettings?) -> CertificateTrustSettings? {
        guard let a else { return b }
        guard let b else { return a }
        return a.combined(with: b)
    }

    /// The refusal of this anchor as the end of a path for `options`' purpose, when its trust
    /// settings do not permit it; nil otherwise. Asked: the purpose's own EKU and each of the
    /// caller's required EKUs (all must be permitted); with neither (`.basic`),
    /// anyExtendedKeyUsage, as OpenSSL's default trust asks.
    func trustSettingsRefusal(_ options: VerificationOptions) -> TrustFailure? {
        guard let s = trustSettings else { return nil }
        // The purpose's own usage (OpenSSL asks the trust of the purpose: sslserver is
        // serverAuth whatever else is required) and every usage the caller requires.
        var wanted = options.requiredEKUs
        if let own = options.purpose.defaultEKU, !wanted.contains(own) { wanted.append(own) }
        if wanted.isEmpty { wanted = [OID.anyExtendedKeyUsage] }
        guard let refused = wanted.first(where: { !s.permits($0) }) else { return nil }
        return TrustFailure(
            .untrustedRoot, at: 0,
            "the anchor's trust settings (TRUSTED CERTIFICATE) do not permit \(refused.withUnsafeBytes { OID.displayName($0) } ?? OID.dotted(refused))"
        )
    }
}

/// A set of anchors indexed by subject (RFC 5280 §7.1 comparison) so that finding the
/// candidates for an issuer name is a hash lookup, not a scan. A value type: `add` grows this
/// copy only; a store handed to a `ChainVerifier` or `CertificateTrust` is not affected by
/// later changes to the original.
public struct TrustStore: Sendable {
    /// The anchors, in the order added (duplicates dropped).
    public private(set) var anchors: [TrustAnchor] = []
    /// Entries that could not be parsed while loading (skipped, never fatal).
    public private(set) var skippedCount = 0 {
        didSet { generation = Generation() }
    }
    var bySubject: [Int: [Int]] = [:]
    /// Indexes into `anchors` of the anchors that carry trust settings (usually none): read by
    /// `trustSettingsRefusal(for:_:)` for every certificate a path holds.
    var restricted: [Int] = []
    /// Replaced by every change to this store (an anchor added, a skipped entry counted), shared
    /// by unchanged copies: the same object (`===`) means the same anchors, order, sources and
    /// counts. `CertificateTrust` keys its remembered merged anchor store on it.
    private(set) var generation = Generation()

    /// The identity of one state of a `TrustStore` (see `generation`).
    final class Generation: Sendable {}
    /// Every anchor by the raw bytes of its subject: (`CandidatePool.fingerprint` of the
    /// encoding, anchor index), sorted by fingerprint, then by index. For the lookups that need
    /// byte-identical subjects only (the first pass of path building, `index(of:)`): a binary
    /// search and a byte comparison, no normalising or hashing of the name. 16 bytes an anchor.
    /// A fingerprint is only a filter: every hit is confirmed by comparing the encodings.
    var bySubjectBytes: [SubjectBytesEntry] = []

    struct SubjectBytesEntry {
        let fingerprint: UInt64
        let anchor: Int
    }

    /// An empty store.
    public init() {}

    /// A store holding `anchors` (duplicates dropped).
    public init(_ anchors: [TrustAnchor]) {
        for a in anchors { add(a) }
    }

    /// Number of anchors.
    public var count: Int { anchors.count }
    /// True when the store holds no anchor.
    public var isEmpty: Bool { anchors.isEmpty }

    /// Adds an anchor; an identical certificate already present is kept with its first source,
    /// and with the trust settings both copies permit (a distrust stated once is kept).
    public mutating func add(_ anchor: TrustAnchor) {
        // Duplicates (same DER) are kept once; the first source wins.
        let key = anchor.certificate.subject.chainingKey
        if let existing = bySubject[key],
            let i = existing.first(where: { anchors[$0].certificate == anchor.certificate })
        {
            if anchor.trustSettings != nil && anchor.trustSettings != anchors[i].trustSettings {
                if anchors[i].trustSettings == nil { restricted.append(i) }
                anchors[i] = TrustAnchor(
                    anchors[i], trustSettings: TrustAnchor.combined(anchors[i].trustSettings, anchor.trustSettings))
                generation = Generation()
            }
            return
        }
        if anchor.trustSettings != nil { restricted.append(anchors.count) }
        bySubject[key, default: []].append(anchors.count)
        let f = CandidatePool.fingerprint(anchor.certificate.subject.encoded)
        // After every entry with the same fingerprint: equal fingerprints stay in anchor order.
        var lo = 0
        var hi = bySubjectBytes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if bySubjectBytes[mid].fingerprint <= f { lo = mid + 1 } else { hi = mid }
        }
        bySubjectBytes.insert(SubjectBytesEntry(fingerprint: f, anchor: anchors.count), at: lo)
        anchors.append(anchor)
        generation = Generation()
    }

    /// Index in `bySubjectBytes` of the first entry with fingerprint `f` (or where it would be).
    func firstSubjectBytesEntry(_ f: UInt64) -> Int {
        var lo = 0
        var hi = bySubjectBytes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if bySubjectBytes[mid].fingerprint < f { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Appends to `list` the anchors whose subject encoding is byte-identical to `name` (for
    /// which RFC 5280 §7.1 matching holds without normalising anything), in the order added.
    func appendAnchors(withSubjectBytes name: ByteSpan, to list: inout CandidateList) {
        let f = CandidatePool.fingerprint(name)
        var i = firstSubjectBytesEntry(f)
        while i < bySubjectBytes.count && bySubjectBytes[i].fingerprint == f {
            let a = bySubjectBytes[i].anchor
            if CandidatePool.sameBytes(anchors[a].certificate.subject.encoded, name) { list.append(a) }
            i += 1
        }
    }

    /// Appends to `list` the anchors whose subject matches `name` under RFC 5280 §7.1
    /// (`matchesForChaining`), in the order added.
    func appendAnchors(withSubject name: DistinguishedName, to list: inout CandidateList) {
        guard let bucket = bySubject[name.chainingKey] else { return }
        for a in bucket where anchors[a].certificate.subject.matchesForChaining(name) { list.append(a) }
    }

    /// Adds `certificate` as an anchor from `source`.
    public mutating func add(_ certificate: Certificate, source: AnchorSource = .custom) {
        add(TrustAnchor(certificate, source: source))
    }

    /// Adds every certificate in PEM or DER `bytes`; unparseable ones are skipped and counted.
    /// Returns how many were added.
    @discardableResult
    public mutating func add(contentsOf bytes: [UInt8], source: AnchorSource = .custom) -> Int {
        let blocks: PEM.Blocks
        do {
            blocks = try PEM.certificatesDER(in: bytes)
        } catch {
            skippedCount += 1
            return 0
        }
        var added = 0
        for (i, der) in blocks.certificates.enumerated() {
            if let c = try? Certificate(der: der) {
                add(TrustAnchor(c, source: source, trustSettings: blocks.trustSettings[i]))
                added += 1
            } else {
                skippedCount += 1
            }
        }
        // A store is built once and kept (the system bundle for the process's life): drop the
        // anchors array's growth slack, which with each anchor's fact block would otherwise
        // cost more than the facts themselves (memory goal: ≤ 1.2× the bundle's DER size).
        if added > 0 { shrinkToFit() }
        return added
    }

    /// Adds every certificate read from `stream` (a file or pipe of any size, one object at a
    /// time: `ObjectStream`, per-object limit included); returns how many were added. As
    /// ``add(contentsOf:source:)``: an input with a malformed block, or no certificate, adds
    /// nothing and counts one skipped; certificates that do not parse are skipped and counted.
    @discardableResult
    public mutating func add(from stream: inout ObjectStream, source: AnchorSource = .custom) -> Int {
        add(from: &stream, source: source, countsInputWithoutCertificate: true)
    }

    /// `add(from:source:)`; with `countsInputWithoutCertificate` false, a whole input that holds
    /// no certificate (a CRL or key lying in a hashed directory) is not counted as skipped.
    mutating func add(from stream: inout ObjectStream, source: AnchorSource, countsInputWithoutCertificate: Bool)
        -> Int
    {
        // Held until the input is known to be whole (fail closed below): one copy of each
        // certificate, so memory follows the distinct certificates, not the input's size (a
        // bundle repeated many times over is read in the memory of one copy).
        var parsed: [(Certificate, CertificateTrustSettings?)] = []
        var seen: [[UInt8]: Int] = [:]
        var added = 0
        var unparseable = 0
        do {
            try stream.forEachCertificateObject { object in
                if let i = seen[object.der] {
                    // The same certificate again: one anchor, limited by both copies' settings.
                    if object.trustSettings != nil {
                        parsed[i].1 = TrustAnchor.combined(parsed[i].1, object.trustSettings)
                    }
                    added += 1
                } else if let c = try? Certificate(der: object.der) {
                    seen[object.der] = parsed.count
                    parsed.append((c, object.trustSettings))
                    added += 1
                } else {
                    unparseable += 1
                }
            }
        } catch {
            // Fail closed on a damaged input: none of it becomes an anchor.
            if countsInputWithoutCertificate || error.kind != .noCertificate { skippedCount += 1 }
            return 0
        }
        skippedCount += unparseable
        for (c, settings) in parsed { add(TrustAnchor(c, source: source, trustSettings: settings)) }
        if !parsed.isEmpty { shrinkToFit() }
        return added
    }

    /// The refusal of `certificate` as part of a path for `options`' purpose, when an anchor
    /// with its subject (RFC 5280 §7.1) and public key carries trust settings that do not
    /// permit the purpose; nil otherwise (always, when no anchor carries settings). A distrust
    /// stated for a root covers every certificate of its name and key — the anchor itself, a
    /// re-issued copy, a cross-signature of it, the leaf when it is that certificate — so that
    /// no other path around the rejected copy reaches the same key (OpenSSL refuses such a
    /// chain at the rejected store copy it finds first; Sigil, whatever it finds first).
    func trustSettingsRefusal(for certificate: borrowing Certificate, _ options: VerificationOptions) -> TrustFailure? {
        for i in restricted {
            let a = anchors[i]
            guard let refusal = a.trustSettingsRefusal(options) else { continue }
            if a.certificate.subject.matchesForChaining(certificate.subject)
                && a.certificate.sameSubjectPublicKeyInfo(as: certificate)
            {
                return refusal
            }
        }
        return nil
    }

    /// Drops the arrays' growth slack (a store built once and kept: see `add(contentsOf:)`).
    mutating func shrinkToFit() {
        if anchors.capacity > anchors.count { anchors = anchors.map { $0 } }
        if bySubjectBytes.capacity > bySubjectBytes.count { bySubjectBytes = bySubjectBytes.map { $0 } }
    }

    /// Merges another store (e.g. custom anchors plus the system's).
    public mutating func add(_ other: TrustStore) {
        for a in other.anchors { add(a) }
        skippedCount += other.skippedCount
    }

    /// Indexes into `anchors` of the anchors whose subject matches `name` (RFC 5280 §7.1);
    /// Sigil-internal (`@_spi(SigilInternal)`: indexes are the path builder's business; the
    /// fuzz harness checks the index against `contains`).
    @_spi(SigilInternal) public func anchors(withSubject name: DistinguishedName) -> [Int] {
        guard let list = bySubject[name.chainingKey] else { return [] }
        // The bucket itself when every entry matches (the usual case): no new array.
        if list.allSatisfy({ anchors[$0].certificate.subject.matchesForChaining(name) }) { return list }
        return list.filter { anchors[$0].certificate.subject.matchesForChaining(name) }
    }

    /// True when `certificate` itself is one of the anchors (same encoding).
    public func contains(_ certificate: Certificate) -> Bool {
        index(of: certificate) != nil
    }

    /// The index in `anchors` of `certificate` itself (same encoding), without allocating.
    func index(of certificate: Certificate) -> Int? {
        // Identical encodings have byte-identical subjects: the entries with that subject's
        // fingerprint hold it if any anchor is that certificate.
        let f = CandidatePool.fingerprint(certificate.subject.encoded)
        var i = firstSubjectBytesEntry(f)
        while i < bySubjectBytes.count && bySubjectBytes[i].fingerprint == f {
            let a = bySubjectBytes[i].anchor
            if anchors[a].certificate == certificate { return a }
            i += 1
        }
        return nil
    }
}

/// Locations of the system's trusted roots, in the order Sigil looks (the first that exists
/// wins): `SSL_CERT_FILE` / `SSL_CERT_DIR` when set, then the usual bundles and directories.
public enum SystemTrustLocations {
    /// PEM bundles, in the order tried.
    public static let bundles = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Gentoo, Arch (p11-kit link)
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL, CentOS
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // Fedora/RHEL extracted
        "/etc/ssl/ca-bundle.pem",  // openSUSE
        "/etc/ssl/cert.pem",  // Alpine, macOS-style, OpenBSD
        "/etc/pki/tls/cacert.pem",  // OpenELEC
        "/usr/local/share/certs/ca-root-nss.crt",  // FreeBSD
        "/usr/local/etc/ssl/cert.pem",  // FreeBSD (ports)
        "/etc/ca-certificates/extracted/tls-ca-bundle.pem",  // Arch
    ]
    /// Hashed certificate directories (`c_rehash` layout), in the order tried.
    public static let directories = [
        "/etc/ssl/certs",  // hashed directory (Debian, SLES)
        "/etc/pki/tls/certs",  // Fedora/RHEL
        "/system/etc/security/cacerts",  // Android
    ]
}
