import SigilDER
import SigilX509

extension CheckUnit {
    /// Revocation of the complete path by CRLs and OCSP responses (`Session.revocationFailure`;
    /// the sources are read by Revocation/).
    static let revocation = CheckUnit(
        .revocation, "revocation", clauses: "RFC 5280 §6.3; RFC 6960",
        produces: [.revoked, .revocationUndetermined, .budgetExhausted])
}

extension Session {
    /// RFC 5280 §6.3 / RFC 6960 for the complete path (leaf … `anchor`); the statuses go into
    /// `details.revocation`; the most important failure is returned (revoked, or undetermined under hard fail).
    mutating func revocationFailure(path: [Int], anchor: Int, options: VerificationOptions) -> TrustFailure? {
        guard let r = options.revocation else { return nil }
        let certs = path.map(certificate) + [certificate(anchor)]
        let work = revocationWork
        let checker = RevocationChecker(
            options: r, time: options.time, algorithms: options.algorithms,
            verifier: verifier.signatureVerifier, certificates: certs + pool.certificates,
            anchor: verifier.anchors.anchors[anchor], work: work)
        // The revocation work (CRL and OCSP signatures, separate CRL signers' paths) is charged
        // to the verification's one budget; running out fails closed even under soft fail (a
        // peer must not be able to skip revocation by exhausting the budget first).
        work.budget = budget
        work.exhausted = false
        let statuses = checker.check(path: certs)
        budget = work.budget
        details.revocation = statuses
        if work.exhausted {
            budgetHit = true
            return TrustFailure(
                .budgetExhausted, at: 0,
                context: .budget(
                    TrustFailure.BudgetExhaustion(
                        limit: budget.exhaustedLimit, stage: .revocation, limits: verifier.budget, spent: nil)))
        }
        return RevocationChecker.failures(statuses, policy: r.policy).first
    }
}
