import SigilDER
import SigilX509

/// The path validator's calls into name matching and name constraints.
enum NameChecks {
    enum ConstraintResult {
        /// The certificate at this index (0 = leaf) violates the constraints.
        case violated(Int, String)
        /// The constraints could not be evaluated for the certificate at this index.
        case unsupported(Int, String)
        /// The verification's name-constraint budget ran out.
        case overBudget
    }

    /// Name constraints of one CA applied to the certificates below it (`below[0]` the leaf),
    /// charged to `budget`; nil when all hold.
    static func constraints<C: Collection>(_ nc: NameConstraints, below: C, budget: inout Int) -> ConstraintResult?
    where C.Element == Certificate {
        guard let (i, r) = checkNameConstraints(nc, below: below, budget: &budget) else { return nil }
        if budget < 0 { return .overBudget }
        switch r {
        case .satisfied: return nil
        case .violated(let what): return .violated(i, what)
        case .malformedConstraint(let what): return .unsupported(i, "malformed name constraint: \(what)")
        case .unsupported(let why): return .unsupported(i, why)
        }
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
