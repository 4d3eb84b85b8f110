import SigilDER
@_spi(SigilInternal) import SigilX509

/// What path validation needs to know about one certificate beyond its parsed fields, worked
/// out once: the strict decoding of every known extension (`validateExtensions()`), the
/// decoded basicConstraints / keyUsage, the presence and criticality of the extensions the
/// profile checks look at, and where the key identifiers lie.
///
/// Nothing here depends on the verification options, so a block is a function of the
/// certificate's bytes alone: anchors get theirs when the `TrustStore` is built (they cost
/// nothing per connection), the leaf and each pool certificate get one per verification
/// (`Session`). The option-dependent checks (`Checks`) read the block instead of re-decoding.
///
/// Kept small (about 40 bytes) because every anchor of the system bundle carries one.
struct CertificateFacts: Sendable {
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt32
        /// `validateExtensions()` failed: every other fact is best effort, and the certificate
        /// is refused (`malformedCertificate`) wherever it appears.
        static let malformedExtensions = Flags(rawValue: 1 << 0)
        /// Issuer and subject match (RFC 5280 §7.1).
        static let selfIssued = Flags(rawValue: 1 << 1)
        static let hasBasicConstraints = Flags(rawValue: 1 << 2)
        static let isCA = Flags(rawValue: 1 << 3)
        static let basicConstraintsCritical = Flags(rawValue: 1 << 4)
        static let hasKeyUsage = Flags(rawValue: 1 << 5)
        static let hasExtKeyUsage = Flags(rawValue: 1 << 6)
        static let extKeyUsageCritical = Flags(rawValue: 1 << 7)
        static let hasNameConstraints = Flags(rawValue: 1 << 8)
        static let hasSubjectKeyID = Flags(rawValue: 1 << 9)
        /// A critical extension outside `CheckUnit.understoodCritical`.
        static let unsupportedCritical = Flags(rawValue: 1 << 10)
        /// One of `CheckUnit.mustBeNonCritical` is marked critical.
        static let criticalMustBeNonCritical = Flags(rawValue: 1 << 11)
        /// The serial number is zero.
        static let zeroSerial = Flags(rawValue: 1 << 12)
        static let hasAuthorityKeyID = Flags(rawValue: 1 << 13)
        /// The authorityKeyIdentifier carries a keyIdentifier.
        static let hasAuthorityKeyIDKeyID = Flags(rawValue: 1 << 14)
        /// The authorityKeyIdentifier carries authorityCertIssuer.
        static let authorityKeyIDHasIssuer = Flags(rawValue: 1 << 15)
        /// Both identifiers present and different.
        static let keyIDsDiffer = Flags(rawValue: 1 << 16)
        static let nonCriticalPolicyConstraints = Flags(rawValue: 1 << 17)
        static let emptyIssuer = Flags(rawValue: 1 << 18)
        static let emptySubject = Flags(rawValue: 1 << 19)
        static let hasSubjectAltName = Flags(rawValue: 1 << 20)
        static let subjectAltNameCritical = Flags(rawValue: 1 << 21)
        /// The subjectKeyIdentifier decodes (its octets are at `subjectKeyID`).
        static let decodedSubjectKeyID = Flags(rawValue: 1 << 22)
        /// extKeyUsage lists id-kp-serverAuth (meaningful with `.hasExtKeyUsage`).
        static let ekuServerAuth = Flags(rawValue: 1 << 23)
        /// extKeyUsage lists id-kp-clientAuth.
        static let ekuClientAuth = Flags(rawValue: 1 << 24)
        /// extKeyUsage lists anyExtendedKeyUsage.
        static let ekuAny = Flags(rawValue: 1 << 25)
        /// policyConstraints or policyMappings is present (RFC 5280 §6.1 processing can refuse
        /// a path through this certificate).
        static let hasPolicyConstraintsOrMappings = Flags(rawValue: 1 << 26)
        /// certificatePolicies holds more than 16 policies or one twice (§4.2.1.4): policy
        /// processing must run (see `Session.policyProcessingCannotFail`).
        static let complexPolicies = Flags(rawValue: 1 << 27)
        /// `selfIssued` is not worked out yet (leaf and pool certificates: it is needed only by
        /// some checks, see `isSelfIssued(_:)`); never set for anchors.
        static let selfIssuedUnknown = Flags(rawValue: 1 << 28)
    }

    private(set) var flags: Flags
    /// keyUsage bits (meaningful with `.hasKeyUsage`).
    let keyUsage: KeyUsage
    /// pathLenConstraint, or -1 when absent.
    let pathLength: Int16
    /// `publicKeyBitCount`, or 0 when nil (for RSA it decodes the key: done once here);
    /// `UInt16.max` for that size and above (`Checks.keyFailure` then measures the key again).
    let publicKeyBits: UInt16
    /// Offsets in `der` of the subjectKeyIdentifier's octets (equal when absent).
    let subjectKeyID: (start: UInt32, end: UInt32)
    /// Offsets in `der` of the authorityKeyIdentifier's keyIdentifier octets (equal when absent).
    let authorityKeyID: (start: UInt32, end: UInt32)

    /// The facts of `c`, everything worked out (anchors: computed once with the store).
    init(_ c: Certificate) {
        var unused: GeneralNames?
        self.init(c, subjectAltNames: &unused, lazySelfIssued: false)
    }

    /// The facts of `c`, with its decoded subjectAltName in `subjectAltNames` (the leaf's is
    /// walked by the name checks; kept out of the block, which anchors carry too). With
    /// `lazySelfIssued`, whether `c` is self-issued is left for `isSelfIssued(_:)` to work out
    /// when a check needs it (`selfIssuedUnknown`).
    ///
    /// One derivation, from one decoding: the strict `trustExtensions()` (what
    /// `validateExtensions()` runs), or, when an extension does not decode, the best-effort
    /// `trustExtensionsBestEffort()` with `malformedExtensions` set (the certificate is then
    /// refused wherever it appears; the other facts keep the failures reported with it
    /// meaningful).
    init(_ c: Certificate, subjectAltNames: inout GeneralNames?, lazySelfIssued: Bool) {
        var f: Flags = []
        var x = TrustExtensions()
        do throws(DERError) {
            try c.trustExtensions(into: &x)
            subjectAltNames = x.subjectAltNames
        } catch {
            x = c.trustExtensionsBestEffort()
            f.insert(.malformedExtensions)
        }
        if lazySelfIssued && !f.contains(.malformedExtensions) {
            f.insert(.selfIssuedUnknown)
        } else if CertificateFacts.selfIssued(c) {
            f.insert(.selfIssued)
        }
        var pathLength: Int16 = -1
        if let bc = x.basicConstraints {
            f.insert(.hasBasicConstraints)
            if bc.isCA { f.insert(.isCA) }
            if let p = bc.pathLength { pathLength = Int16(p) }  // 0...255 (the decoder refuses others)
        }
        var keyUsage: KeyUsage = []
        if let ku = x.keyUsage {
            f.insert(.hasKeyUsage)
            keyUsage = ku
        }
        if x.extendedKeyUsage != nil {
            f.insert(.hasExtKeyUsage)
            let purposes = x.extendedKeyUsagePurposes
            if purposes & TrustExtensions.Purpose.serverAuth != 0 { f.insert(.ekuServerAuth) }
            if purposes & TrustExtensions.Purpose.clientAuth != 0 { f.insert(.ekuClientAuth) }
            if purposes & TrustExtensions.Purpose.any != 0 { f.insert(.ekuAny) }
        }
        if x.hasNameConstraints { f.insert(.hasNameConstraints) }
        var ski = (start: UInt32(0), end: UInt32(0))
        if let s = x.subjectKeyIdentifier {
            f.insert(.decodedSubjectKeyID)
            ski = (UInt32(truncatingIfNeeded: s.start), UInt32(truncatingIfNeeded: s.end))
        }
        var akid = (start: UInt32(0), end: UInt32(0))
        if x.hasAuthorityKeyIdentifier {
            f.insert(.hasAuthorityKeyID)
            if x.authorityKeyIdentifierHasIssuer { f.insert(.authorityKeyIDHasIssuer) }
            if let k = x.authorityKeyIdentifierKeyID {
                f.insert(.hasAuthorityKeyIDKeyID)
                akid = (UInt32(truncatingIfNeeded: k.start), UInt32(truncatingIfNeeded: k.end))
                if f.contains(.decodedSubjectKeyID), !CertificateFacts.sameBytes(c.der, ski, akid) {
                    f.insert(.keyIDsDiffer)
                }
            }
        }
        // Criticality (RFC 5280 §4.2), from the same decoding; the understood extensions are
        // the check units' (Checks/CheckUnit.swift).
        let present = x.present
        let critical = x.critical
        if critical & TrustExtensions.Bit.basicConstraints != 0 { f.insert(.basicConstraintsCritical) }
        if critical & TrustExtensions.Bit.extKeyUsage != 0 { f.insert(.extKeyUsageCritical) }
        if present & TrustExtensions.Bit.subjectAltName != 0 { f.insert(.hasSubjectAltName) }
        if critical & TrustExtensions.Bit.subjectAltName != 0 { f.insert(.subjectAltNameCritical) }
        if present & TrustExtensions.Bit.subjectKeyIdentifier != 0 { f.insert(.hasSubjectKeyID) }
        if present & ~critical & TrustExtensions.Bit.policyConstraints != 0 { f.insert(.nonCriticalPolicyConstraints) }
        if x.unknownCritical || critical & ~CheckUnit.understoodCriticalBits != 0 {
            f.insert(.unsupportedCritical)
        }
        if critical & CheckUnit.mustBeNonCriticalBits != 0 { f.insert(.criticalMustBeNonCritical) }
        if x.hasPolicyConstraints || x.hasPolicyMappings { f.insert(.hasPolicyConstraintsOrMappings) }
        if let cp = x.certificatePolicies, !cp.policiesAreDistinct(atMost: 16) { f.insert(.complexPolicies) }
        if c.serialNumber.bytes.allSatisfy({ $0 == 0 }) { f.insert(.zeroSerial) }
        if c.issuer.isEmpty { f.insert(.emptyIssuer) }
        if c.subject.isEmpty { f.insert(.emptySubject) }
        self.flags = f
        self.keyUsage = keyUsage
        self.pathLength = pathLength
        self.publicKeyBits = UInt16(clamping: c.publicKeyBitCount ?? 0)
        self.subjectKeyID = ski
        self.authorityKeyID = akid
    }

    /// Byte equality of two ranges of `der`.
    static func sameBytes(_ der: [UInt8], _ a: (start: UInt32, end: UInt32), _ b: (start: UInt32, end: UInt32)) -> Bool
    {
        let n = Int(a.end) - Int(a.start)
        guard n == Int(b.end) - Int(b.start) else { return false }
        return der.withUnsafeBytes { p in
            n == 0 || memcmpEqual(p.baseAddress! + Int(a.start), p.baseAddress! + Int(b.start), n)
        }
    }

    func has(_ flag: Flags) -> Bool { flags.contains(flag) }
    /// Issuer and subject of `c` (the certificate these facts are of) match under RFC 5280
    /// §7.1 (§6.1: "self-issued"): read from the block, or worked out now when it was left
    /// (`selfIssuedUnknown`; `Session.isSelfIssued(_:)` stores the answer).
    func isSelfIssued(_ c: Certificate) -> Bool {
        if flags.contains(.selfIssuedUnknown) { return CertificateFacts.selfIssued(c) }
        return flags.contains(.selfIssued)
    }

    /// Works out `selfIssued` if it was left.
    mutating func resolveSelfIssued(_ c: Certificate) {
        guard flags.contains(.selfIssuedUnknown) else { return }
        flags.remove(.selfIssuedUnknown)
        if CertificateFacts.selfIssued(c) { flags.insert(.selfIssued) }
    }

    /// RFC 5280 §7.1 on the raw encodings (same rules as `Certificate.isSelfIssued`, without
    /// the iterators: issuer and subject usually differ, so the comparison runs to the end).
    static func selfIssued(_ c: Certificate) -> Bool { c.issuer.matchesForChainingRaw(c.subject) }
    var isCA: Bool { flags.contains(.isCA) }
    var publicKeyBitCount: Int? { publicKeyBits == 0 ? nil : Int(publicKeyBits) }
    var basicConstraintsPathLength: Int? { pathLength >= 0 ? Int(pathLength) : nil }
    var keyUsageIfPresent: KeyUsage? { flags.contains(.hasKeyUsage) ? keyUsage : nil }

    /// Whether the child's authorityKeyIdentifier keyIdentifier equals the candidate's
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.1), compared as bytes; nil when either is absent.
    static func keyIDsMatch(
        child: CertificateFacts, _ childCert: Certificate,
        candidate: CertificateFacts, _ candCert: Certificate
    ) -> Bool? {
        guard child.flags.contains(.hasAuthorityKeyIDKeyID), candidate.flags.contains(.decodedSubjectKeyID) else {
            return nil
        }
        let a = child.authorityKeyID
        let b = candidate.subjectKeyID
        let n = Int(a.end) - Int(a.start)
        guard n == Int(b.end) - Int(b.start) else { return false }
        if n == 0 { return true }
        return childCert.der.withUnsafeBytes { x in
            candCert.der.withUnsafeBytes { y in
                memcmpEqual(x.baseAddress! + Int(a.start), y.baseAddress! + Int(b.start), n)
            }
        }
    }
}

/// Equality of `n` octets at `a` and `b` (n > 0), 8 at a time.
@inline(__always)
func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            return false
        }
        i += 8
    }
    while i < n {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
