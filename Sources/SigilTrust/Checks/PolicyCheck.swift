import SigilDER
import SigilX509

extension CheckUnit {
    /// Certificate policy processing on the complete path (`Session.policyFailure`, with the
    /// valid_policy_tree of PolicyTree.swift). A non-critical policyConstraints is refused by
    /// the structure unit (§4.2.1.11).
    static let certificatePolicies = CheckUnit(
        .certificatePolicies, "certificate policies",
        clauses: "RFC 5280 §4.2.1.4, §4.2.1.5, §4.2.1.11, §4.2.1.14, §6.1",
        understands: [OID.certificatePolicies, OID.policyMappings, OID.policyConstraints, OID.inhibitAnyPolicy],
        produces: [.invalidPolicy, .profileViolation, .malformedCertificate, .budgetExhausted])
}

extension Session {
    /// RFC 5280 §6.1 certificate policy processing for a complete candidate path, called by
    /// `extend` before the path is accepted: a failure here is noted like any other candidate
    /// failure and the builder backtracks to try another path.
    ///
    /// `path` holds the nodes leaf first, the anchor excluded (the trust anchor's own policy
    /// extensions are not processed, §6.1.1 (d)). On success `details.policies` holds the
    /// path's sets (`details.policies`). When the verification's policy work budget
    /// (`VerificationBudget.policyTreeWork`) runs out, `budgetHit` is set so that the
    /// whole verification stops and fails closed.
    mutating func policyFailure(path: PathNodes, options: VerificationOptions) -> TrustFailure? {
        if policyProcessingCannotFail(path, options) {
            // The sets are computed on first access from the trusted path `run()` returns
            // (`ValidatedPolicies(deferredLeafFirst:)`): nothing is built here.
            policiesDeferred = true
            return nil
        }
        policiesDeferred = false
        var input: [PolicyCertificate] = []
        input.reserveCapacity(path.count)
        for (index, node) in path.enumerated().reversed() {
            do {
                input.append(try PolicyCertificate(certificate(node)))
            } catch {
                // Unreachable in practice: validateExtensions() already refused the certificate.
                return TrustFailure(.malformedCertificate, at: index, "malformed policy extension: \(error)")
            }
        }
        // Charged to the verification's one budget (`VerificationBudget.policyTreeWork`).
        let outcome = PolicyTree.evaluate(input, options: options.certificatePolicies, budget: &budget.policyTreeWork)
        switch outcome {
        case .success(let sets):
            details.policies = sets
            return nil
        case .failure(let f):
            let index = path.count - 1 - f.certificate  // back to leaf-first indexes
            let oid = f.policy.map { OID.dotted($0) } ?? ""
            switch f.kind {
            case .budgetExhausted:
                budgetHit = true
                return TrustFailure(
                    .budgetExhausted, at: index,
                    context: .budget(
                        TrustFailure.BudgetExhaustion(
                            limit: .policyTreeWork, stage: .certificatePolicies, limits: verifier.budget, spent: nil)))
            case .duplicatePolicy:
                return TrustFailure(
                    .invalidPolicy, at: index, "policy \(oid) appears twice in certificatePolicies (RFC 5280 §4.2.1.4)")
            case .anyPolicyMapped:
                return TrustFailure(.invalidPolicy, at: index, "policyMappings maps anyPolicy (RFC 5280 §6.1.4 (a))")
            case .noExplicitPolicy:
                return TrustFailure(
                    .invalidPolicy, at: index,
                    "an explicit policy is required and the path is valid for no acceptable policy (RFC 5280 §6.1.3 (f), §6.1.5 (g))"
                )
            }
        }
    }

    /// True when §6.1 processing of `path` cannot reject it, so the tree need not be built now:
    /// no initial-explicit-policy (explicit_policy then reaches 0 only through a
    /// policyConstraints), no policyConstraints (requireExplicitPolicy), no policyMappings
    /// (§6.1.4 (a)), and certificatePolicies lists of at most 16 entries without duplicates
    /// (§4.2.1.4; compared pairwise, allocation-free). The other failure, the work budget, cannot
    /// be reached by such a path (linear work on at most 16 policies per certificate).
    mutating func policyProcessingCannotFail(_ path: PathNodes, _ options: VerificationOptions) -> Bool {
        if options.certificatePolicies.initialExplicitPolicy { return false }
        // Read from each certificate's fact block (worked out with its one decoding).
        for node in path where facts(node).has(.hasPolicyConstraintsOrMappings) || facts(node).has(.complexPolicies) {
            return false
        }
        return true
    }
}
