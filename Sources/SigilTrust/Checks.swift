import SigilDER
import SigilX509

/// The path-independent checks, as pure functions of a certificate and the options.
enum Checks {
    /// Extensions Sigil processes, derived from the check units (CheckUnits.swift); any other
    /// extension marked critical makes the certificate unacceptable (RFC 5280 §4.2: "A
    /// certificate-using system MUST reject the certificate if it encounters a critical
    /// extension it does not recognize").
    static var understoodCritical: [[UInt8]] { CheckUnit.understoodCritical }

    /// Extensions that conforming CAs MUST mark non-critical; critical ones are rejected
    /// (declared by the check units).
    static var mustBeNonCritical: [([UInt8], String)] { CheckUnit.mustBeNonCritical }

    static func within(_ c: Certificate, _ time: Double) -> TrustFailure? {
        // RFC 5280 §4.1.2.5: valid from notBefore through notAfter, both inclusive. Times are
        // whole seconds; a fractional validation time past notAfter by less than a second is
        // still within the last encoded second (limbo notafter-fractional).
        if time < Double(c.notBefore) {
            return TrustFailure(
                .notYetValid, at: 0, context: .validity(notBefore: c.notBefore, notAfter: c.notAfter, time: time))
        }
        if time >= Double(c.notAfter) + 1 {
            return TrustFailure(
                .expired, at: 0, context: .validity(notBefore: c.notBefore, notAfter: c.notAfter, time: time))
        }
        return nil
    }

    /// Structure and extension rules every certificate on the path must satisfy, read from the
    /// certificate's fact block `f` (messages are built only for failures).
    static func commonFailures(_ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, options: VerificationOptions)
        -> [TrustFailure]
    {
        var out: [TrustFailure] = []
        if f.has(.malformedExtensions) {
            var message = "malformed extension"
            do { try c.validateExtensions() } catch { message = "\(error)" }
            out.append(TrustFailure(.malformedCertificate, at: 0, message))
            return out
        }
        if f.has(.unsupportedCritical) {
            let before = out.count
            for e in c.extensions where e.critical && !understoodCritical.contains(where: { e.oid == $0 }) {
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
            for (oid, name) in mustBeNonCritical where c.extension(oid)?.critical == true {
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
            if f.has(.hasAuthorityKeyID), f.isSelfIssued(c) {
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

    /// Key acceptability (BR §6.1.5, §7.1.3.1): RSA ≥ minimum and a multiple of 8 bits, EC on an
    /// allowed named curve, Ed25519/Ed448 unless the policy disallows EdDSA.
    static func keyFailure(_ c: Certificate, _ f: CertificateFacts, policy: AlgorithmPolicy) -> TrustFailure? {
        switch c.publicKeyAlgorithm {
        case .rsa, .rsaPSS:
            // The fact block holds the size in 16 bits, saturated: a larger key is measured again.
            guard let bits = f.publicKeyBits == UInt16.max ? c.publicKeyBitCount : f.publicKeyBitCount else {
                return TrustFailure(.malformedCertificate, at: 0, "RSA key is malformed")
            }
            if bits < policy.minimumRSABits {
                return TrustFailure(.weakKey, at: 0, "RSA key of \(bits) bits (minimum \(policy.minimumRSABits))")
            }
            if policy.requireRSAByteMultiple && bits % 8 != 0 {
                return TrustFailure(.weakKey, at: 0, "RSA key of \(bits) bits is not a multiple of 8 (BR §6.1.5)")
            }
            return nil
        case .ec(let curve):
            if !policy.allowedCurves.contains(curve) {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "EC curve \(curve.name) is not allowed")
            }
            return nil
        case .ecExplicitParameters:
            return TrustFailure(.unsupportedAlgorithm, at: 0, "EC key with explicit curve parameters (RFC 5480 §2.1.1)")
        case .ed25519, .ed448:
            // RFC 8410 keys have one size each (no weak sizes); only the policy can refuse them.
            if !policy.allowEdDSA {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "\(c.publicKeyAlgorithm.name) keys are not allowed")
            }
            return nil
        case .unknown:
            return TrustFailure(.unsupportedAlgorithm, at: 0, "unsupported public key algorithm")
        }
    }

    /// The signature algorithm of `signed` and the key of `issuer` under the policy.
    static func algorithmFailure(signed: Certificate, issuer: Certificate, policy: AlgorithmPolicy) -> TrustFailure? {
        // The caller's restriction first (only narrows what the rules below allow).
        if let allowed = policy.allowedSignatureAlgorithms {
            let name = SignatureAlgorithmName(signed.signatureAlgorithm)
            if name.map({ !allowed.contains($0) }) ?? true {
                return TrustFailure(
                    .weakAlgorithm, at: 0,
                    "signed with \(signed.signatureAlgorithm.name), not an allowed signature algorithm")
            }
        }
        switch signed.signatureAlgorithm {
        case .rsaPKCS1(let d), .ecdsa(let d):
            if !policy.allowedDigests.contains(d) {
                return TrustFailure(.weakAlgorithm, at: 0, "signed with \(signed.signatureAlgorithm.name)")
            }
        case .rsaPSS(let p):
            if !policy.allowRSAPSS {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "RSA-PSS signatures are not allowed")
            }
            if !policy.allowedDigests.contains(p.hash) || !policy.allowedDigests.contains(p.mgf1Hash) {
                return TrustFailure(.weakAlgorithm, at: 0, "signed with \(signed.signatureAlgorithm.name)")
            }
        case .ed25519, .ed448:
            // RFC 8410: no digest parameter to judge (Ed25519 hashes with SHA-512, Ed448 with
            // SHAKE256, RFC 8032 §5.1/§5.2).
            if !policy.allowEdDSA {
                return TrustFailure(
                    .unsupportedAlgorithm, at: 0, "\(signed.signatureAlgorithm.name) signatures are not allowed")
            }
        case .unknown:
            return TrustFailure(
                .unsupportedAlgorithm, at: 0, "signature algorithm \(signed.signatureAlgorithmOID) is not supported")
        }
        return nil
    }

    /// A certificate acting as an issuer (intermediate or anchor): RFC 5280 §6.1.4 (k), (n) and
    /// the CA profile, read from its fact block `f`.
    static func caFailure(_ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, options: VerificationOptions)
        -> TrustFailure?
    {
        var failures: [TrustFailure] = []
        // Anchors' validity is checked too (limbo rfc5280::validity::expired-root; OpenSSL, Go
        // and Apple reject expired roots).
        if let f = within(c, options.time) { failures.append(f) }
        failures += commonFailures(c, f, isAnchor: isAnchor, options: options)
        if c.version != .v3 {
            failures.append(
                TrustFailure(.notACA, at: 0, "a \(c.version) certificate cannot be a CA (RFC 5280 §6.1.4 (k))"))
        }
        // §6.1.4 (k): basicConstraints present with cA TRUE; §4.2.1.9: MUST be critical in CAs.
        if f.has(.hasBasicConstraints) {
            if !f.isCA { failures.append(TrustFailure(.notACA, at: 0, "basicConstraints cA is FALSE")) }
            if options.profile != .basic, !f.has(.basicConstraintsCritical) {
                failures.append(
                    TrustFailure(
                        .profileViolation, at: 0, "basicConstraints must be critical in a CA (RFC 5280 §4.2.1.9)"))
            }
        } else {
            failures.append(TrustFailure(.notACA, at: 0, "basicConstraints is missing"))
        }
        // §6.1.4 (n): keyUsage, if present, allows keyCertSign.
        if let ku = f.keyUsageIfPresent, !ku.contains(.keyCertSign) {
            failures.append(TrustFailure(.keyUsage, at: 0, "keyUsage lacks keyCertSign"))
        }
        if options.profile != .basic {
            // §4.1.2.6: a CA's subject is non-empty. §4.2.1.2: CAs carry an SKI.
            if f.has(.emptySubject) {
                failures.append(TrustFailure(.profileViolation, at: 0, "CA subject is empty (RFC 5280 §4.1.2.6)"))
            }
            if !f.has(.hasSubjectKeyID) {
                failures.append(
                    TrustFailure(.profileViolation, at: 0, "CA lacks subjectKeyIdentifier (RFC 5280 §4.2.1.2)"))
            }
            // EKU in issuers (as rustls-webpki): when present it must list the purpose. A
            // self-signed root must not carry one at all (BR §7.1.2.1.2).
            if f.has(.hasExtKeyUsage) {
                if isAnchor && f.isSelfIssued(c) {
                    failures.append(
                        TrustFailure(.profileViolation, at: 0, "root certificate carries extKeyUsage (BR §7.1.2.1.2)"))
                }
                forEachMissingEKU(c, f, options) { required in
                    failures.append(
                        TrustFailure(
                            .extendedKeyUsage, at: 0, "issuer extKeyUsage does not allow \(OID.dotted(required))"))
                }
            }
        }
        if let kf = keyFailure(c, f, policy: options.algorithms) { failures.append(kf) }
        return failures.max { $0.kind < $1.kind }
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

    /// Checks of the end-entity certificate that do not depend on the path.
    /// `subjectAltNames` is `c`'s decoded subjectAltName when the caller has it (nil: decoded here).
    static func leafFailures(
        _ c: Certificate, _ f: CertificateFacts, subjectAltNames: GeneralNames? = nil, options: VerificationOptions
    ) -> [TrustFailure] {
        var out: [TrustFailure] = []
        if let f = within(c, options.time) { out.append(f) }
        out += commonFailures(c, f, isAnchor: false, options: options)
        if f.has(.malformedExtensions) { return out }
        let isCA = f.isCA
        let ku = f.keyUsageIfPresent
        // §4.2.1.3: keyCertSign only with cA TRUE.
        if let ku, ku.contains(.keyCertSign), !isCA {
            out.append(
                TrustFailure(.keyUsage, at: 0, "keyCertSign set on a certificate that is not a CA (RFC 5280 §4.2.1.3)"))
        }
        // A TLS end entity's key must be usable in the handshake when keyUsage restricts it
        // (RFC 8446 §4.4.2.2: "the digitalSignature bit MUST be set if the Key Usage extension
        // is present"; RFC 5246 §7.4.2 also allows keyEncipherment (RSA key transport) and
        // keyAgreement (static DH) for servers; BR §7.1.2.7.11). A CA certificate in the leaf
        // position is left to the RFC 5280 rules (limbo rfc5280::ca-as-leaf expects success).
        // Found by Fuzz/FuzzVerifyDiff: a leaf with keyUsage cRLSign only was trusted.
        if let ku, !isCA, options.profile != .basic {
            let usable: KeyUsage =
                options.profile == .server
                ? [.digitalSignature, .keyEncipherment, .keyAgreement]
                : [.digitalSignature, .keyAgreement]
            if ku.isDisjoint(with: usable) {
                out.append(
                    TrustFailure(
                        .keyUsage, at: 0,
                        "keyUsage allows no TLS \(options.profile == .server ? "server" : "client") use (RFC 8446 §4.4.2.2)"
                    ))
            }
        }
        if let ku, !ku.contains(options.requiredKeyUsage) {
            out.append(
                TrustFailure(
                    .keyUsage, at: 0,
                    "keyUsage does not allow \(KeyUsage(rawValue: options.requiredKeyUsage.rawValue & ~ku.rawValue).names.joined(separator: ", "))"
                ))
        }
        // The host's match, when the one walk over the subjectAltName below works it out.
        var hostMatched: Bool?
        // §4.2.1.10: name constraints only in CA certificates.
        // (Past the malformed check, each extension is present exactly when it decodes.)
        if f.has(.hasNameConstraints) {
            out.append(
                TrustFailure(
                    .profileViolation, at: 0, "nameConstraints in an end-entity certificate (RFC 5280 §4.2.1.10)"))
        }
        // EKU (§4.2.1.12): absent means any purpose under RFC 5280; the BR profile requires it.
        if f.has(.hasExtKeyUsage) {
            forEachMissingEKU(c, f, options) { r in
                out.append(TrustFailure(.extendedKeyUsage, at: 0, "extKeyUsage does not allow \(OID.dotted(r))"))
            }
        }
        if options.profile != .basic {
            if c.version != .v3 {
                out.append(
                    TrustFailure(.profileViolation, at: 0, "end-entity certificate is \(c.version), not v3 (BR §7.1.1)")
                )
            }
            // A CA certificate in the leaf position is accepted (RFC 5280 has no rule against
            // it; limbo rfc5280::ca-as-leaf and pathlen::validation-ignores-pathlen-in-leaf),
            // but cA TRUE with a keyUsage lacking keyCertSign is inconsistent (§4.2.1.9).
            if isCA, let ku, !ku.contains(.keyCertSign) {
                out.append(
                    TrustFailure(.profileViolation, at: 0, "cA TRUE but keyUsage lacks keyCertSign (RFC 5280 §4.2.1.9)")
                )
            }
            if f.has(.hasExtKeyUsage) {
                // BR §7.1.2.7.10: present, non-critical, without anyExtendedKeyUsage.
                if f.has(.extKeyUsageCritical) {
                    out.append(TrustFailure(.profileViolation, at: 0, "extKeyUsage is critical (BR §7.1.2.7.10)"))
                }
                if f.has(.ekuAny) {
                    out.append(
                        TrustFailure(
                            .extendedKeyUsage, at: 0,
                            "anyExtendedKeyUsage in an end-entity certificate (BR §7.1.2.7.10)"))
                }
            }
            // An absent extKeyUsage means any purpose (RFC 5280 §4.2.1.12), as Go and OpenSSL
            // read it; BR §7.1.2.7.10 requires it of CAs, not of verifiers (limbo
            // rfc5280::eku::ee-without-eku, the RFC side of a conflicts_with pair).
            if let kf = keyFailure(c, f, policy: options.algorithms) { out.append(kf) }
            out += subjectNameFailures(
                c, f, subjectAltNames: subjectAltNames, options: options, hostMatched: &hostMatched)
        }
        out += NameChecks.identityFailures(c, options: options, hostMatched: hostMatched)
        return out
    }

    /// SAN / subject consistency for server and client certificates (RFC 5280 §4.2.1.6, BR
    /// §7.1.4.3, §7.1.2.7.12). The server kind's walk over the subjectAltName also matches
    /// `options.host` (RFC 6125 §6.4, as `Certificate.matches`) and sets `hostMatched`, so the
    /// names are decoded and classified once.
    static func subjectNameFailures(
        _ c: Certificate, _ f: CertificateFacts, subjectAltNames: GeneralNames? = nil, options: VerificationOptions,
        hostMatched: inout Bool?
    ) -> [TrustFailure] {
        var out: [TrustFailure] = []
        let hasSAN = f.has(.hasSubjectAltName)
        let sanCritical = f.has(.subjectAltNameCritical)
        if f.has(.emptySubject) {
            // §4.2.1.6: an empty subject requires a critical SAN.
            if !hasSAN {
                out.append(
                    TrustFailure(.profileViolation, at: 0, "empty subject without subjectAltName (RFC 5280 §4.2.1.6)"))
            } else if !sanCritical {
                out.append(
                    TrustFailure(
                        .profileViolation, at: 0,
                        "subjectAltName must be critical when the subject is empty (RFC 5280 §4.2.1.6)"))
            }
        } else if sanCritical && options.profile == .server {
            out.append(
                TrustFailure(
                    .profileViolation, at: 0, "subjectAltName is critical with a non-empty subject (BR §7.1.2.7.12)"))
        }
        guard options.profile == .server else { return out }
        guard hasSAN, let sans = subjectAltNames ?? ((try? c.subjectAlternativeNames()) ?? nil) else {
            out.append(
                TrustFailure(
                    .nameMismatch, at: 0, "subjectAltName is missing (BR §7.1.2.7.12; Common Name is not used)"))
            return out
        }
        var reference: ServerIdentity?
        if case .success(let id)? = options.hostIdentity { reference = id }
        var matched = false
        for name in sans {
            switch name {
            case .dnsName(let presented):
                let bytes = presented.bytes
                let kind = DNSSyntax.classify(bytes)
                if case .invalid = kind {
                    out.append(
                        TrustFailure(
                            .profileViolation, at: 0,
                            "subjectAltName dNSName \"\(presented.latin1String)\" is not a valid host name (RFC 5280 §4.2.1.6)"
                        ))
                    continue
                }
                if !matched, case .dns(let r)? = reference, presentedDNSNameMatches(kind, bytes, r.bytes[...]) {
                    matched = true
                }
            case .ipAddress(let presented):
                if !matched, case .ip(let r)? = reference, presented == r.bytes { matched = true }
            default:
                break
            }
        }
        if reference != nil { hostMatched = matched }
        // The subject Common Name is never used for identity (no CN fallback), and BR §7.1.4.3
        // (CN repeats a SAN entry) is a CA issuance rule that Sigil, like rustls-webpki, Go and
        // browsers, does not enforce; see Conformance/limbo-exceptions.json.
        return out
    }
}
