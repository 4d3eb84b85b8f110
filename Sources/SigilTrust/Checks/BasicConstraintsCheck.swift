import SigilDER
import SigilX509

extension CheckUnit {
    /// basicConstraints and keyUsage: CA status, the CA profile, the key's uses. The path
    /// length (§6.1.4 (l), (m)) depends on the path: `Session.check(candidate:at:path:options:)`.
    static let basicConstraintsAndKeyUsage = CheckUnit(
        .basicConstraintsAndKeyUsage, "basic constraints and key usage",
        clauses: "RFC 5280 §4.1.2.6, §4.2.1.2, §4.2.1.3, §4.2.1.9, §6.1.4 (k)–(n); RFC 8446 §4.4.2.2",
        understands: [OID.basicConstraints, OID.keyUsage],
        produces: [.notACA, .pathLengthExceeded, .keyUsage, .profileViolation])
}

extension Checks {
    /// A certificate acting as an issuer: RFC 5280 §6.1.4 (k), (n) and the CA profile.
    /// `systemAnchor`: `c` is an anchor of the system store (`AnchorSource.system`), exempt
    /// from the CA profile rules of §4.2.1.9 (critical) and §4.2.1.2 (SKI), as from the keyUsage
    /// rule below: a root stands for its name and key (§6.1.1 (d)), and roots the platform
    /// vouches for predate these rules (TWCA Global Root CA has no SKI; ePKI Root, Go Daddy and
    /// Starfield Class 2 a non-critical basicConstraints). Caller anchors keep them (x509-limbo
    /// rfc5280::ski::root-missing-ski, rfc5280::root-non-critical-basic-constraints).
    static func issuerCAFailures(
        _ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, systemAnchor: Bool = false,
        _ options: VerificationOptions, _ failures: inout [TrustFailure]
    ) {
        if c.version != .v3 {
            failures.append(
                TrustFailure(.notACA, at: 0, "a \(c.version) certificate cannot be a CA (RFC 5280 §6.1.4 (k))"))
        }
        // §6.1.4 (k): basicConstraints present with cA TRUE; §4.2.1.9: MUST be critical in CAs.
        if f.has(.hasBasicConstraints) {
            if !f.isCA { failures.append(TrustFailure(.notACA, at: 0, "basicConstraints cA is FALSE")) }
            if options.profile != .basic, !systemAnchor, !f.has(.basicConstraintsCritical) {
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
            if !systemAnchor && !f.has(.hasSubjectKeyID) {
                failures.append(
                    TrustFailure(.profileViolation, at: 0, "CA lacks subjectKeyIdentifier (RFC 5280 §4.2.1.2)"))
            }
            // §4.2.1.3: "Conforming CAs MUST include this extension in certificates that contain
            // public keys that are used to validate digital signatures on other public key
            // certificates" (BR §7.1.2.10.7 likewise); `openssl verify -x509_strict` refuses an
            // intermediate without it (error 92). Not for configured anchors: a root stands for
            // its name and key (§6.1.1 (d)), and older roots predate the rule.
            if !isAnchor && f.keyUsageIfPresent == nil {
                failures.append(
                    TrustFailure(.profileViolation, at: 0, "CA lacks keyUsage (RFC 5280 §4.2.1.3)"))
            }
        }
    }

    /// The end entity's keyUsage, and its consistency with basicConstraints.
    static func leafKeyUsageFailures(
        _ f: CertificateFacts, _ options: VerificationOptions, _ out: inout [TrustFailure]
    ) {
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
        // A CA certificate in the leaf position is accepted (RFC 5280 has no rule against it;
        // limbo rfc5280::ca-as-leaf and pathlen::validation-ignores-pathlen-in-leaf), but cA
        // TRUE with a keyUsage lacking keyCertSign is inconsistent (§4.2.1.9).
        if options.profile != .basic, isCA, let ku, !ku.contains(.keyCertSign) {
            out.append(
                TrustFailure(.profileViolation, at: 0, "cA TRUE but keyUsage lacks keyCertSign (RFC 5280 §4.2.1.9)"))
        }
    }
}
