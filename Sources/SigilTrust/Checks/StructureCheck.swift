import SigilDER
@_spi(SigilInternal) import SigilX509

extension CheckUnit {
    /// Structure and encoding rules every certificate meets: critical extensions (RFC 5280
    /// §4.2: an unknown critical extension fails closed), the key identifiers, the serial
    /// number, the issuer name, the end entity's version.
    static let structure = CheckUnit(
        .structure, "structure", clauses: "RFC 5280 §4.1.2.2, §4.1.2.4, §4.2, §4.2.1.1, §4.2.1.2; BR §7.1.1, §7.1.2",
        mustBeNonCritical: [
            (OID.authorityKeyIdentifier, "authorityKeyIdentifier (RFC 5280 §4.2.1.1)"),
            (OID.subjectKeyIdentifier, "subjectKeyIdentifier (RFC 5280 §4.2.1.2)"),
            (OID.authorityInfoAccess, "authorityInfoAccess (RFC 5280 §4.2.2.1)"),
            (OID.cRLDistributionPoints, "cRLDistributionPoints (BR §7.1.2)"),
        ],
        produces: [.malformedCertificate, .unsupportedCriticalExtension, .profileViolation],
        runsOnMalformed: true)
}

extension Checks {
    /// The structure unit's checks of the end-entity certificate.
    static func leafStructureFailures(
        _ c: Certificate, _ f: CertificateFacts, _ options: VerificationOptions, _ out: inout [TrustFailure]
    ) {
        append(commonFailures(c, f, isAnchor: false, options: options), to: &out)
        if f.has(.malformedExtensions) { return }
        if options.profile != .basic, c.version != .v3 {
            out.append(
                TrustFailure(
                    .profileViolation, at: 0,
                    "end-entity certificate is \(c.version), not v3 (BR §7.1.1)"))
        }
    }

    /// Structure and extension rules every certificate on the path must satisfy, read from the
    /// certificate's fact block `f` (messages are built only for failures).
    static func commonFailures(
        _ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, systemAnchor: Bool = false,
        options: VerificationOptions
    ) -> [TrustFailure] {
        var out: [TrustFailure] = []
        if f.has(.malformedExtensions) {
            var message = "malformed extension"
            do { try c.validateExtensions() } catch { message = "\(error)" }
            out.append(TrustFailure(.malformedCertificate, at: 0, message))
            return out
        }
        if f.has(.unsupportedCritical) {
            let before = out.count
            for e in c.extensions where e.critical && !CheckUnit.understoodCritical.contains(where: { e.oid == $0 }) {
                out.append(
                    TrustFailure(
                        .unsupportedCriticalExtension, at: 0,
                        "critical extension \(e.name ?? OID.dotted(e.oid)) is not supported"))
            }
            // The flag comes from `trustExtensions()`'s walk, the messages from this one: should
            // they ever disagree, the flag still refuses the certificate (fail closed).
            if out.count == before {
                out.append(TrustFailure(.unsupportedCriticalExtension, at: 0, "a critical extension is not supported"))
            }
        }
        if options.profile == .basic { return out }
        if f.has(.criticalMustBeNonCritical) {
            let before = out.count
            for (oid, name) in CheckUnit.mustBeNonCritical where c.extension(oid)?.critical == true {
                out.append(TrustFailure(.profileViolation, at: 0, "\(name) must not be critical"))
            }
            // As above: the flag alone refuses the certificate.
            if out.count == before {
                out.append(TrustFailure(.profileViolation, at: 0, "an extension that must not be critical is critical"))
            }
        }
        // RFC 5280 §4.1.2.2: positive serial (0 is parsed because real roots carry it, but it
        // is refused on certificates other than configured anchors).
        if !isAnchor && f.has(.zeroSerial) {
            out.append(TrustFailure(.profileViolation, at: 0, "serial number is zero (RFC 5280 §4.1.2.2)"))
        }
        // RFC 5280 §4.2.1.1: every certificate except a self-signed one carries an AKI with a
        // keyIdentifier. BR §7.1.2.1.3: a root's AKI, if present, has only a keyIdentifier,
        // equal to its SKI.
        // (Whether the certificate is self-issued is worked out only where it decides.)
        if isAnchor {
            // Self-issued: exempt from the AKI requirement (self-signed roots, a self-signed
            // leaf pinned as its own anchor, key-rollover certificates). A configured anchor
            // taken as a root follows BR §7.1.2.1.3 when it carries an AKI.
            // A system anchor (a root the platform's store vouches for) is exempt: the rule is
            // the CA/B profile of roots made since, and roots of the Mozilla store predate it
            // (Go Daddy and Starfield Class 2, QuoVadis Root CA 2 and 3, Certigna carry
            // authorityCertIssuer and serial); `openssl verify -x509_strict` and Go take them.
            if !systemAnchor, f.has(.hasAuthorityKeyID), f.isSelfIssued(c) {
                if !f.has(.hasAuthorityKeyIDKeyID) || f.has(.authorityKeyIDHasIssuer) {
                    out.append(
                        TrustFailure(
                            .profileViolation, at: 0,
                            "root authorityKeyIdentifier must hold only a keyIdentifier (BR §7.1.2.1.3)"))
                } else if f.has(.keyIDsDiffer) {
                    out.append(
                        TrustFailure(
                            .profileViolation, at: 0,
                            "root authorityKeyIdentifier differs from its subjectKeyIdentifier (BR §7.1.2.1.3)"))
                }
            }
        } else if !f.has(.hasAuthorityKeyIDKeyID) && !f.isSelfIssued(c) {
            // Not for anchors: a configured anchor stands for its name and key (RFC 5280
            // §6.1.1 (d)), however it was issued (limbo cve::cve-2024-0567 trusts a cross-signed
            // anchor without AKI).
            out.append(
                TrustFailure(
                    .profileViolation, at: 0, "authorityKeyIdentifier with keyIdentifier is missing (RFC 5280 §4.2.1.1)"
                ))
        }
        // RFC 5280 §4.2.1.11 / §4.2.1.5 / §4.2.1.14: policy extensions MUST be critical or are
        // not processed; non-critical policyConstraints is a profile error.
        if f.has(.nonCriticalPolicyConstraints) {
            out.append(
                TrustFailure(.profileViolation, at: 0, "policyConstraints must be critical (RFC 5280 §4.2.1.11)"))
        }
        if f.has(.emptyIssuer) {
            out.append(TrustFailure(.profileViolation, at: 0, "issuer name is empty (RFC 5280 §4.1.2.4)"))
        }
        return out
    }
}
