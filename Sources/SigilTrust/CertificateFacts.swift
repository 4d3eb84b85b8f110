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
        /// A critical extension outside `Checks.understoodCritical`.
        static let unsupportedCritical = Flags(rawValue: 1 << 10)
        /// One of `Checks.mustBeNonCritical` is marked critical.
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
    }

    let flags: Flags
    /// keyUsage bits (meaningful with `.hasKeyUsage`).
    let keyUsage: KeyUsage
    /// pathLenConstraint, or -1 when absent.
    let pathLength: Int16
    /// Offsets in `der` of the subjectKeyIdentifier's octets (equal when absent).
    let subjectKeyID: (start: UInt32, end: UInt32)
    /// Offsets in `der` of the authorityKeyIdentifier's keyIdentifier octets (equal when absent).
    let authorityKeyID: (start: UInt32, end: UInt32)

    init(_ c: Certificate) {
        var f: Flags = []
        do { try c.validateExtensions() } catch { f.insert(.malformedExtensions) }
        // RFC 5280 §7.1 on the raw encodings (same rules as `isSelfIssued`, without the
        // iterators: issuer and subject usually differ, so the comparison runs to the end).
        if c.issuer.matchesForChainingRaw(c.subject) { f.insert(.selfIssued) }
        var pathLength: Int16 = -1
        if let bc = (try? c.basicConstraints()) ?? nil {
            f.insert(.hasBasicConstraints)
            if bc.isCA { f.insert(.isCA) }
            if let p = bc.pathLength { pathLength = Int16(p) }
        }
        var keyUsage: KeyUsage = []
        if let ku = (try? c.keyUsage()) ?? nil {
            f.insert(.hasKeyUsage)
            keyUsage = ku
        }
        if (try? c.extendedKeyUsage()) ?? nil != nil { f.insert(.hasExtKeyUsage) }
        if (try? c.nameConstraints()) ?? nil != nil { f.insert(.hasNameConstraints) }
        var ski = (start: UInt32(0), end: UInt32(0))
        if let s = (try? c.subjectKeyIdentifier()) ?? nil {
            f.insert(.decodedSubjectKeyID)
            ski = (UInt32(truncatingIfNeeded: s.start), UInt32(truncatingIfNeeded: s.end))
        }
        var akid = (start: UInt32(0), end: UInt32(0))
        let aki = (try? c.authorityKeyIdentifier()) ?? nil
        if let aki {
            f.insert(.hasAuthorityKeyID)
            if aki.authorityCertIssuer != nil { f.insert(.authorityKeyIDHasIssuer) }
            if let k = aki.keyIdentifier {
                f.insert(.hasAuthorityKeyIDKeyID)
                akid = (UInt32(truncatingIfNeeded: k.start), UInt32(truncatingIfNeeded: k.end))
                if f.contains(.decodedSubjectKeyID),
                    !c.der[Int(ski.start)..<Int(ski.end)].elementsEqual(c.der[Int(akid.start)..<Int(akid.end)])
                {
                    f.insert(.keyIDsDiffer)
                }
            }
        }
        // One pass over the extension list for criticality (RFC 5280 §4.2).
        for e in c.extensions {
            if e.oid == OID.basicConstraints {
                if e.critical { f.insert(.basicConstraintsCritical) }
            } else if e.oid == OID.extKeyUsage {
                if e.critical { f.insert(.extKeyUsageCritical) }
            } else if e.oid == OID.subjectAltName {
                f.insert(.hasSubjectAltName)
                if e.critical { f.insert(.subjectAltNameCritical) }
            } else if e.oid == OID.subjectKeyIdentifier {
                f.insert(.hasSubjectKeyID)
            } else if e.oid == OID.policyConstraints {
                if !e.critical { f.insert(.nonCriticalPolicyConstraints) }
            }
            guard e.critical else { continue }
            if !Checks.understoodCritical.contains(where: { e.oid == $0 }) { f.insert(.unsupportedCritical) }
            if Checks.mustBeNonCritical.contains(where: { e.oid == $0.0 }) { f.insert(.criticalMustBeNonCritical) }
        }
        if c.serialNumber.bytes.allSatisfy({ $0 == 0 }) { f.insert(.zeroSerial) }
        if c.issuer.isEmpty { f.insert(.emptyIssuer) }
        if c.subject.isEmpty { f.insert(.emptySubject) }
        self.flags = f
        self.keyUsage = keyUsage
        self.pathLength = pathLength
        self.subjectKeyID = ski
        self.authorityKeyID = akid
    }

    func has(_ flag: Flags) -> Bool { flags.contains(flag) }
    var isSelfIssued: Bool { flags.contains(.selfIssued) }
    var isCA: Bool { flags.contains(.isCA) }
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
        let a = childCert.der[Int(child.authorityKeyID.start)..<Int(child.authorityKeyID.end)]
        let b = candCert.der[Int(candidate.subjectKeyID.start)..<Int(candidate.subjectKeyID.end)]
        return a.elementsEqual(b)
    }
}
