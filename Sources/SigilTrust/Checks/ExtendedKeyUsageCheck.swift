import SigilDER
import SigilX509

extension CheckUnit {
    /// The purpose's extended key usage in the leaf and in issuers that carry one.
    static let extendedKeyUsage = CheckUnit(
        .extendedKeyUsage, "extended key usage", clauses: "RFC 5280 §4.2.1.12; BR §7.1.2.1.2, §7.1.2.7.10",
        understands: [OID.extKeyUsage], produces: [.extendedKeyUsage, .profileViolation])
}

extension Checks {
    /// EKU in issuers (as rustls-webpki and Go's crypto/x509): when present it must list the
    /// purpose — under every purpose that requires a usage (server, client, code signing, a
    /// caller's EKU; `.basic` without required EKUs requires none), so an intermediate limited
    /// to serverAuth cannot issue a trusted code-signing leaf. A self-signed root must not carry
    /// one at all (BR §7.1.2.1.2: server and client profiles only).
    static func issuerEKUFailures(
        _ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, _ options: VerificationOptions,
        _ failures: inout [TrustFailure]
    ) {
        guard f.has(.hasExtKeyUsage) else { return }
        if options.profile != .basic && isAnchor && f.isSelfIssued(c) {
            failures.append(
                TrustFailure(.profileViolation, at: 0, "root certificate carries extKeyUsage (BR §7.1.2.1.2)"))
        }
        forEachMissingEKU(c, f, options) { required in
            failures.append(
                TrustFailure(.extendedKeyUsage, at: 0, "issuer extKeyUsage does not allow \(OID.dotted(required))"))
        }
    }

    /// EKU of the end entity (§4.2.1.12): absent means any purpose under RFC 5280 (as Go and
    /// OpenSSL read it; BR §7.1.2.7.10 requires it of CAs, not of verifiers: limbo
    /// rfc5280::eku::ee-without-eku, the RFC side of a conflicts_with pair).
    static func leafEKUFailures(
        _ c: Certificate, _ f: CertificateFacts, _ options: VerificationOptions, _ out: inout [TrustFailure]
    ) {
        guard f.has(.hasExtKeyUsage) else { return }
        forEachMissingEKU(c, f, options) { r in
            out.append(TrustFailure(.extendedKeyUsage, at: 0, "extKeyUsage does not allow \(OID.dotted(r))"))
        }
        guard options.profile != .basic else { return }
        // BR §7.1.2.7.10: present, non-critical, without anyExtendedKeyUsage.
        if f.has(.extKeyUsageCritical) {
            out.append(TrustFailure(.profileViolation, at: 0, "extKeyUsage is critical (BR §7.1.2.7.10)"))
        }
        if f.has(.ekuAny) {
            out.append(
                TrustFailure(
                    .extendedKeyUsage, at: 0, "anyExtendedKeyUsage in an end-entity certificate (BR §7.1.2.7.10)"))
        }
    }

    /// Calls `body` with each required purpose (`VerificationOptions.requiredEKUs`, else the
    /// purpose's) that `eku` does not list. Allocates nothing.
    /// `c`'s extKeyUsage is present (`f.has(.hasExtKeyUsage)`); the kinds' purposes are read
    /// from the fact block, caller-required ones from the extension.
    static func forEachMissingEKU(
        _ c: Certificate, _ f: CertificateFacts, _ options: VerificationOptions, _ body: ([UInt8]) -> Void
    ) {
        if !options.requiredEKUs.isEmpty {
            // Present but not decoding (a malformed certificate): lists nothing.
            let eku = (try? c.extendedKeyUsage()) ?? nil
            for r in options.requiredEKUs where eku?.contains(r) != true { body(r) }
            return
        }
        switch options.profile {
        case .server: if !f.has(.ekuServerAuth) { body(OID.serverAuth) }
        case .client: if !f.has(.ekuClientAuth) { body(OID.clientAuth) }
        case .basic:
            // `.codeSigning` and `.extendedKeyUsage(_)`: the purpose's one usage, read from the
            // extension (no fact flag for it); `.basic` requires none.
            guard let required = options.purpose.defaultEKU else { return }
            let eku = (try? c.extendedKeyUsage()) ?? nil
            if eku?.contains(required) != true { body(required) }
        }
    }
}
