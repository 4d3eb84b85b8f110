// The verification budget (path building, name constraints, policies, revocation: every
// stage spends from the one value; PathBuilder.swift lists what lives where in PathBuilding/).

/// The work one verification may do, as one value carried through the whole of it (signature
/// checks — the certificates' and the CRLs' and OCSP responses' —, candidate visits,
/// name-constraint comparisons, certificate policy work), as rustls-webpki's `Budget`: no
/// limit restarts per candidate, per certificate or per revocation source, so the total work on
/// hostile input is bounded by these figures. Running out anywhere is the `budgetExhausted`
/// failure (fail closed), whatever the revocation policy.
public struct VerificationBudget: Sendable, Hashable {
    /// Signature verifications left (the expensive step: ≈ 20–800 µs each), over the path's
    /// certificates and the revocation data (CRLs, OCSP responses, responder certificates, and
    /// the path validation of a separate CRL signer).
    public var signatureChecks: Int
    /// Candidate issuers left to consider (index lookups, cached checks).
    public var candidateVisits: Int
    /// Name × constraint comparisons left, over every CA's constraints and every certificate
    /// they apply to (a directoryName comparison counts once per 16 octets compared).
    public var nameConstraintComparisons: Int
    /// RFC 5280 §6.1 certificate policy work units left, over every candidate path (a policy or
    /// mapping read, a node created, kept or copied, a parent link stored or followed; see the
    /// comment at the top of PolicyTree.swift).
    public var policyTreeWork: Int

    /// A budget with the given limits.
    public init(
        signatureChecks: Int = ChainVerifier.maximumSignatureChecks,
        candidateVisits: Int = ChainVerifier.maximumCandidateVisits,
        nameConstraintComparisons: Int = VerificationBudget.defaultNameConstraintComparisons,
        policyTreeWork: Int = VerificationBudget.defaultPolicyTreeWork
    ) {
        self.signatureChecks = signatureChecks
        self.candidateVisits = candidateVisits
        self.nameConstraintComparisons = nameConstraintComparisons
        self.policyTreeWork = policyTreeWork
    }

    /// rustls-webpki's figure for the whole verification: real chains need a few hundred
    /// comparisons; hostile ones (x509-limbo `pathological::nc-dos-*`, 2 048 constraints × 4 096
    /// names) millions.
    public static let defaultNameConstraintComparisons = 250_000

    /// 32 768 units: a ten-certificate government path with 30 policies and 30 one-to-one
    /// mappings per certificate costs about 1 500; the CVE-2023-0464 chain
    /// (Fixtures/policies/cve-2023-0464) exceeds it.
    public static let defaultPolicyTreeWork = 1 << 15

    /// The defaults: 100 signature checks, 4 096 candidate visits, 250 000 comparisons, 32 768
    /// policy work units.
    public static let standard = VerificationBudget()

    /// One of the four limits.
    public enum Limit: String, Sendable, Hashable, CaseIterable {
        /// `signatureChecks`.
        case signatureChecks
        /// `candidateVisits`.
        case candidateVisits
        /// `nameConstraintComparisons`.
        case nameConstraintComparisons
        /// `policyTreeWork`.
        case policyTreeWork
    }

    /// The limit a remaining budget shows as run out: signature checks or candidate visits at
    /// zero, comparisons or policy work overdrawn (those are charged before they are checked);
    /// signature checks when none shows (revocation stops when the next check could not be paid).
    var exhaustedLimit: Limit {
        if signatureChecks <= 0 { return .signatureChecks }
        if candidateVisits <= 0 { return .candidateVisits }
        if nameConstraintComparisons < 0 { return .nameConstraintComparisons }
        if policyTreeWork < 0 { return .policyTreeWork }
        return .signatureChecks
    }

    /// Takes one signature check; false when none is left.
    mutating func spendSignatureCheck() -> Bool {
        guard signatureChecks > 0 else { return false }
        signatureChecks -= 1
        return true
    }

    /// Takes one candidate visit; false when none is left.
    mutating func spendCandidateVisit() -> Bool {
        guard candidateVisits > 0 else { return false }
        candidateVisits -= 1
        return true
    }

    /// What was spent going from `self` (the initial budget) to `remaining`.
    func spent(since remaining: VerificationBudget) -> VerificationBudget {
        VerificationBudget(
            signatureChecks: signatureChecks - remaining.signatureChecks,
            candidateVisits: candidateVisits - remaining.candidateVisits,
            nameConstraintComparisons: nameConstraintComparisons - max(0, remaining.nameConstraintComparisons),
            policyTreeWork: policyTreeWork - max(0, remaining.policyTreeWork))
    }
}

extension ChainVerifier {
    /// Work budget (why: a hostile peer controls the intermediates, and with many certificates
    /// sharing a subject or key the number of candidate paths grows exponentially — Go's
    /// `TestPathologicalChains`, limbo `pathological::*`). Signature checks are the expensive
    /// step (≈ 20–800 µs each): 100 of them bound the worst case to well under a second, and no
    /// real chain needs more than a handful (rustls-webpki uses the same figure). Candidate
    /// visits bound the cheap work (index lookups, cached checks) at 4 096.
    public static let maximumSignatureChecks = 100
    /// See `maximumSignatureChecks`.
    public static let maximumCandidateVisits = 4096
}
