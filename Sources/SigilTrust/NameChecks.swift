import SigilDER
import SigilX509

/// The path validator's calls into name matching and name constraints.
enum NameChecks {
    enum ConstraintResult {
        case satisfied
        case violated(String)
        case unsupported(String)
    }

    /// Name constraints of one CA applied to one certificate below it.
    static func constraints(_ nc: NameConstraints, for cert: Certificate, isLeaf: Bool) -> ConstraintResult {
        switch checkNameConstraints(nc, for: cert) {
        case .satisfied: return .satisfied
        case .violated(let what): return .violated(what)
        case .malformedConstraint(let what): return .unsupported("malformed name constraint: \(what)")
        case .unsupported(let why): return .unsupported(why)
        }
    }

    /// Host / IP / e-mail identity checks of the leaf.
    static func identityFailures(_ c: Certificate, options: VerificationOptions) -> [TrustFailure] {
        var out: [TrustFailure] = []
        if let host = options.host {
            // RFC 6125 §6.4 / BR: subjectAltName only, no Common Name fallback.
            guard let id = ServerIdentity(host) else {
                return [TrustFailure(.nameMismatch, at: 0, "\"\(host)\" is not a valid host name or IP address")]
            }
            if (try? matches(c, id)) != true {
                out.append(TrustFailure(.nameMismatch, at: 0, "certificate is not valid for \(id)"))
            }
        }
        for email in options.emails where (try? matchesEmail(c, email)) != true {
            out.append(TrustFailure(.nameMismatch, at: 0, "certificate is not valid for the e-mail address \(email)"))
        }
        return out
    }

    /// A presented dNSName is a syntactically valid host name (RFC 5280 §4.2.1.6 → RFC 1034
    /// §3.5 preferred syntax), optionally with `*` as the whole left-most label (never directly
    /// under a public suffix), and not an IPv4 address written as a name — the same rules the
    /// matcher applies (`DNSSyntax`).
    static func isValidPresentedDNSName(_ bytes: ArraySlice<UInt8>) -> Bool {
        if case .invalid = DNSSyntax.classify(bytes) { return false }
        return true
    }
}
