import SigilDER
@_spi(SigilInternal) import SigilX509

extension CheckUnit {
    /// The end entity's names: subjectAltName syntax and consistency with the subject, and the
    /// host, IP address or e-mail address checked (SAN only, no Common Name fallback).
    static let names = CheckUnit(
        .names, "names", clauses: "RFC 5280 §4.2.1.6; RFC 6125 §6; BR §7.1.2.7.12",
        understands: [OID.subjectAltName], produces: [.nameMismatch, .profileViolation])
}

extension Checks {
    /// The names unit's checks of the end-entity certificate (`subjectAltNames`: its decoded
    /// subjectAltName when the caller has it).
    static func leafNameFailures(
        _ c: Certificate, _ f: CertificateFacts, _ subjectAltNames: GeneralNames?, _ options: VerificationOptions,
        _ out: inout [TrustFailure]
    ) {
        // The host's match, when the one walk over the subjectAltName works it out.
        var hostMatched: Bool?
        if options.profile != .basic {
            append(
                subjectNameFailures(
                    c, f, subjectAltNames: subjectAltNames, options: options, hostMatched: &hostMatched),
                to: &out)
        }
        append(identityFailures(c, options: options, hostMatched: hostMatched), to: &out)
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
        // The dNSName and iPAddress entries only (the other kinds are not read here).
        sans.forEachHostName { isDNSName, presented in
            if isDNSName {
                let bytes = presented.bytes
                let kind = DNSSyntax.classify(bytes)
                if case .invalid = kind {
                    out.append(
                        TrustFailure(
                            .profileViolation, at: 0,
                            "subjectAltName dNSName \"\(presented.latin1String)\" is not a valid host name (RFC 5280 §4.2.1.6)"
                        ))
                    return
                }
                if !matched, case .dns(let r)? = reference, presentedDNSNameMatches(kind, bytes, r.bytes[...]) {
                    matched = true
                }
            } else if !matched, case .ip(let r)? = reference, presented == r.bytes {
                matched = true
            }
        }
        if reference != nil { hostMatched = matched }
        // The subject Common Name is never used for identity (no CN fallback), and BR §7.1.4.3
        // (CN repeats a SAN entry) is a CA issuance rule that Sigil, like rustls-webpki, Go and
        // browsers, does not enforce; see Conformance/limbo-exceptions.json.
        return out
    }

    /// Host / IP / e-mail identity checks of the leaf. `hostMatched` is the outcome of
    /// `c.matches(host)` when the caller has it already (`Checks.subjectNameFailures` works it
    /// out in its walk over the subjectAltName), else nil.
    static func identityFailures(_ c: Certificate, options: VerificationOptions, hostMatched: Bool? = nil)
        -> [TrustFailure]
    {
        var out: [TrustFailure] = []
        if let host = options.checkedHost, let parsed = options.hostIdentity {
            // RFC 6125 §6.4 / BR: subjectAltName only, no Common Name fallback.
            guard case .success(let id) = parsed else {
                return [TrustFailure(.nameMismatch, at: 0, context: .invalidHostName(host))]
            }
            if (hostMatched ?? ((try? c.matches(id)) == true)) != true {
                out.append(
                    TrustFailure(
                        .nameMismatch, at: 0, context: .hostMismatch(checked: "\(id)", presented: presentedHostNames(c))
                    ))
            }
        }
        for email in options.emails where (try? c.matchesEmail(email)) != true {
            out.append(
                TrustFailure(
                    .nameMismatch, at: 0, context: .emailMismatch(checked: email, presented: presentedEmails(c))))
        }
        return out
    }

    /// The leaf's subjectAltName dNSName and iPAddress entries as text (failure context only:
    /// decoded again, allocating, once a name did not match).
    static func presentedHostNames(_ c: Certificate) -> [String] {
        guard let sans = (try? c.subjectAlternativeNames()) ?? nil else { return [] }
        var out: [String] = []
        for name in sans {
            switch name {
            case .dnsName(let n): out.append(n.latin1String)
            case .ipAddress(let b): out.append(IPAddress(bytes: Array(b.bytes)).map { "\($0)" } ?? "\(Array(b.bytes))")
            default: break
            }
        }
        return out
    }

    /// The leaf's subjectAltName rfc822Name entries as text (failure context only).
    static func presentedEmails(_ c: Certificate) -> [String] {
        guard let sans = (try? c.subjectAlternativeNames()) ?? nil else { return [] }
        var out: [String] = []
        for name in sans {
            if case .rfc822Name(let n) = name { out.append(n.latin1String) }
        }
        return out
    }
}
