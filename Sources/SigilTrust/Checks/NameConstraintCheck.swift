import SigilDER
import SigilX509

extension CheckUnit {
    /// CAs' name constraints on the certificates below them (`Session.nameConstraintFailure`;
    /// the matching rules are Names/NameConstraints.swift), and none in an end entity.
    static let nameConstraints = CheckUnit(
        .nameConstraints, "name constraints", clauses: "RFC 5280 §4.2.1.10, §6.1.3 (b), (c)",
        understands: [OID.nameConstraints],
        produces: [.nameConstraintViolated, .nameConstraintUnsupported, .profileViolation, .budgetExhausted])
}

extension Checks {
    /// The name-constraints unit's check of the end-entity certificate.
    static func leafNameConstraintFailures(_ f: CertificateFacts, _ out: inout [TrustFailure]) {
        // §4.2.1.10: name constraints only in CA certificates.
        // (Past the malformed check, each extension is present exactly when it decodes.)
        if f.has(.hasNameConstraints) {
            out.append(
                TrustFailure(
                    .profileViolation, at: 0, "nameConstraints in an end-entity certificate (RFC 5280 §4.2.1.10)"))
        }
    }
}

extension Session {
    /// The name constraints of the candidate issuer `node` (its certificate `cand`, its facts
    /// `candFacts`, at position `depth`) on every certificate below it on `path` (RFC 5280
    /// §6.1.3 (b), (c), the self-issued exemption included: `checkNameConstraints(_:below:budget:)`,
    /// the one loop shared with `NameConstraints.check(path:budget:)`), charged to the
    /// verification's budget; running out stops the whole verification (`budgetHit`).
    mutating func nameConstraintFailure(
        _ node: Int, _ candFacts: CertificateFacts, at depth: Int, path: PathNodes
    ) -> TrustFailure? {
        guard candFacts.has(.hasNameConstraints) else { return nil }
        let cand = certificate(node)
        guard let nc = (try? cand.nameConstraints()) ?? nil else { return nil }
        let session = self  // the certificates below, without building an array of them
        guard
            let (i, r) = checkNameConstraints(
                nc, below: path.lazy.map { session.certificate($0) }, budget: &budget.nameConstraintComparisons)
        else { return nil }
        if budget.nameConstraintComparisons < 0 {
            budgetHit = true
            return TrustFailure(
                .budgetExhausted, at: depth,
                context: .budget(
                    TrustFailure.BudgetExhaustion(
                        limit: .nameConstraintComparisons, stage: .nameConstraints, limits: verifier.budget,
                        spent: nil)))
        }
        switch r {
        case .satisfied:
            return nil
        case .violated(let what):
            return TrustFailure(
                .nameConstraintViolated, at: i,
                "\(what) is outside the name constraints of \(cand.subject.rfc4514String)")
        case .malformedConstraint(let what):
            return TrustFailure(.nameConstraintUnsupported, at: i, "malformed name constraint: \(what)")
        case .unsupported(let why):
            return TrustFailure(.nameConstraintUnsupported, at: i, why)
        }
    }
}
