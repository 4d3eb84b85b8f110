@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509

/// Builds a path from a leaf to a trust anchor and validates it (RFC 5280 §6.1 with the CA/B
/// Forum Baseline Requirements profile for server and client kinds).
///
/// Path building is depth-first with backtracking (PathBuilding/: the search in
/// PathBuilder.swift, the budget in VerificationBudget.swift): candidate issuers are looked up
/// by subject (byte-identical first, then RFC 5280 §7.1: CandidatePool.swift), anchors before untrusted
/// intermediates and candidates whose subject key identifier matches the child's authority key
/// identifier first. A candidate that fails any check is abandoned and the next one tried, so
/// cross-signed and expired alternatives still find the valid path.
///
/// Evaluate through `CertificateTrust` (one options value, `VerificationOptions`): the
/// verifier itself — its anchors, budget and `verify` — is `@_spi(SigilInternal)`, for the
/// fuzzers, the benchmarks and the tests; its limits are public.
public struct ChainVerifier: Sendable {
    /// The trust anchors paths may end at.
    @_spi(SigilInternal) public var anchors: TrustStore
    /// Checks one certificate's signature with its issuer's key.
    @_spi(SigilInternal) public var signatureVerifier: any CertificateSignatureVerifier
    /// The work one `verify` call may do, all of it (see `VerificationBudget`);
    /// `CertificateTrust` sets it from `VerificationOptions.budget`.
    @_spi(SigilInternal) public var budget = VerificationBudget.standard

    /// Hard bound on the whole path length, self-issued certificates included.
    public static let maximumPathLength = 16

    /// A verifier ending paths at `anchors`, checking signatures with `signatureVerifier`.
    @_spi(SigilInternal) public init(anchors: TrustStore, signatureVerifier: any CertificateSignatureVerifier) {
        self.anchors = anchors
        self.signatureVerifier = signatureVerifier
    }

    /// Validates `leaf` with the untrusted `intermediates` (any order; duplicates and unrelated
    /// ones are ignored) at `options.time`. `options`' anchors and budget are not read here
    /// (`CertificateTrust` turns them into this verifier's `anchors` and `budget`).
    @_spi(SigilInternal) public func verify(
        leaf: Certificate, intermediates: [Certificate], options: VerificationOptions
    ) -> TrustResult {
        var session = Session(verifier: self, leaf: leaf, intermediates: intermediates)
        return session.run(options)
    }
}

/// One verification's state: the candidate pool, caches and budget. The search over candidate
/// issuers is in PathBuilding/PathBuilder.swift; the checks of one candidate are below.
///
/// The options are not part of the state: `run` and the methods it calls take them as a
/// parameter, read where the caller holds them. (Stored here, they were copied in and
/// released again on every verification: about twenty reference counts, ~600 instructions of
/// a ~38k-instruction RSA chain, callgrind.)
struct Session {
    let verifier: ChainVerifier
    let leaf: Certificate
    /// Pool of untrusted intermediates, searched lazily (CandidatePool.swift).
    var pool: CandidatePool
    // Per-verification caches, keyed by node (anchor i → i, pool certificate j →
    // anchors.count + j, the leaf → `leafNode`). Inline for short chains (`SmallCache`: no
    // dictionary, no allocation). A hostile peer cannot confuse them: a node is one
    // certificate in one role for the whole verification — pool lookups return only the first
    // of identical certificates, never a copy of the leaf, and a pool certificate identical to an anchor is
    // only ever considered as the anchor — and every cached value is a function of that
    // certificate's bytes (facts), of its bytes and role (CA checks: `isAnchor` is fixed per
    // node) or of the two certificates' bytes (a signature verdict is the same at any depth).
    // Path-dependent checks (path length, depth, name constraints, policies) are never cached.
    /// Path-independent CA check outcome per candidate node: `passed`, or the index of its
    /// failure in `caFailures` (a small value to look up: the failure is copied out only when
    /// the candidate fails).
    var caCheckCache = SmallCache<Int32>()
    /// The CA check failures `caCheckCache` points at (empty while every candidate passes).
    var caFailures: [TrustFailure] = []
    static let passed: Int32 = -1
    /// Signature verdict per (child node, parent node), keyed by `signatureKey`.
    var signatureCache = SmallCache<SignatureVerdict>()
    /// Facts of pool certificates (anchors carry theirs, the leaf's are `leafFacts`).
    var poolFacts = SmallCache<CertificateFacts>()
    /// The leaf's facts (computed once, when the session starts).
    var leafFacts: CertificateFacts
    /// The leaf's subjectAltName, as decoded for its facts (walked again by the name checks
    /// only, not decoded again).
    let leafSubjectAltNames: GeneralNames?
    /// Set by `policyFailure` when the accepted path's policy sets are computed on access.
    var policiesDeferred = false

    /// The facts of `node`'s certificate: computed once per pool certificate, read from the
    /// trust store for anchors.
    mutating func facts(_ node: Int) -> CertificateFacts {
        if node == Session.leafNode { return leafFacts }
        if node < anchorCount { return verifier.anchors.anchors[node].facts }
        if let f = poolFacts[node] { return f }
        var unused: GeneralNames?
        let f = withCertificate(node) { c, _ in CertificateFacts(c, subjectAltNames: &unused, lazySelfIssued: true) }
        poolFacts[node] = f
        return f
    }

    /// Whether `node`'s certificate is self-issued (RFC 5280 §6.1), worked out on first use and
    /// kept in its fact block (a function of the certificate's bytes alone, like the rest).
    mutating func isSelfIssued(_ node: Int) -> Bool {
        var f = facts(node)
        if !f.has(.selfIssuedUnknown) { return f.has(.selfIssued) }
        withCertificate(node) { c, _ in f.resolveSelfIssued(c) }
        if node == Session.leafNode {
            leafFacts = f
        } else if !isAnchor(node) {
            poolFacts[node] = f
        }
        return f.has(.selfIssued)
    }

    static func signatureKey(child: Int, parent: Int) -> Int {
        // child ≥ -1 and parent ≥ 0, both far below 2^31 (pool and store sizes).
        ((child + 1) << 32) | parent
    }
    /// What is left of the verification's single budget (signature checks, candidate visits,
    /// name-constraint comparisons, policy work — Checks/PolicyCheck.swift —, revocation signature
    /// checks — Checks/RevocationCheck.swift): one value for the whole run, never reset per candidate.
    var budget: VerificationBudget
    var best: TrustFailure?
    var budgetHit = false
    /// What the accepted path established beyond itself: policy sets (Checks/PolicyCheck.swift),
    /// revocation statuses (Checks/RevocationCheck.swift), each set by its check of the path checked last.
    var details = TrustDetails()
    /// Revocation signature verdicts shared by the candidate paths (the work itself is charged
    /// to `budget`). Made on first use: a verification without revocation checking allocates
    /// nothing for it.
    lazy var revocationWork = RevocationWork()

    static let leafNode = -1

    init(verifier: ChainVerifier, leaf: Certificate, intermediates: [Certificate]) {
        self.verifier = verifier
        self.leaf = leaf
        self.budget = verifier.budget
        var sans: GeneralNames?
        self.leafFacts = CertificateFacts(leaf, subjectAltNames: &sans, lazySelfIssued: true)
        self.leafSubjectAltNames = sans
        // No per-certificate work here: duplicates, copies of the leaf and of anchors are
        // filtered when a lookup finds them (CandidatePool.swift).
        self.pool = CandidatePool(intermediates, leaf: leaf)
    }

    var anchorCount: Int { verifier.anchors.anchors.count }

    /// `node`'s certificate, a copy (for the accepted path and failure messages; the checks
    /// read it in place with `withCertificate`).
    func certificate(_ node: Int) -> Certificate {
        if node == Session.leafNode { return leaf }
        if node < anchorCount { return verifier.anchors.anchors[node].certificate }
        return pool[node - anchorCount]
    }

    /// Runs `body` on `node`'s certificate where it lies (the leaf, an anchor, a pool
    /// certificate), without copying it: a `let` bound to `certificate(node)` in a mutating
    /// method is a copy (a 231-byte memcpy, a retain and a release, ~150 instructions; ~12
    /// per chain before this, callgrind).
    /// `body` is handed the session too, to read instead of capturing `self`: a closure that
    /// captures `self` in a mutating method copies the whole session first.
    @inline(__always)
    func withCertificate<R>(_ node: Int, _ body: (borrowing Certificate, borrowing Session) -> R) -> R {
        if node == Session.leafNode { return body(leaf, self) }
        if node < anchorCount { return body(verifier.anchors.anchors[node].certificate, self) }
        return body(pool.certificates[node - anchorCount], self)
    }

    /// `withCertificate` for two nodes.
    @inline(__always)
    func withCertificates<R>(
        _ a: Int, _ b: Int, _ body: (borrowing Certificate, borrowing Certificate, borrowing Session) -> R
    ) -> R {
        withCertificate(a) { x, s in s.withCertificate(b) { y, s in body(x, y, s) } }
    }

    func isAnchor(_ node: Int) -> Bool { node >= 0 && node < anchorCount }

    mutating func note(_ f: TrustFailure) {
        // The one ranking rule (`TrustFailure.precedes`); at a tie the first found stays.
        if let b = best, !TrustFailure.precedes(f, b) { return }
        best = f
    }

    // MARK: run

    /// The verdict on the session's leaf under `options`.
    mutating func run(_ options: VerificationOptions) -> TrustResult {
        var failures = Checks.leafFailures(leaf, leafFacts, subjectAltNames: leafSubjectAltNames, options: options)
        // The leaf's own key is never used by path validation: check that it decodes (an EC
        // point off its curve is otherwise trusted; found by Fuzz/FuzzVerifyDiff, where OpenSSL
        // refuses with "EE certificate key too weak").
        if !verifier.signatureVerifier.subjectPublicKeyIsValid(leaf) {
            failures.append(
                TrustFailure(
                    .malformedCertificate, at: 0,
                    "subject public key does not decode as a \(leaf.publicKeyAlgorithm.name) key (RFC 5480 §2.2, RFC 8017 §A.1.1)"
                ))
        }
        // A leaf of the name and key of an anchor whose trust settings refuse the purpose
        // (the anchor itself, or another copy of it): refused, whatever path it has.
        if let refusal = verifier.anchors.trustSettingsRefusal(for: leaf, options) { failures.append(refusal) }
        // A leaf that is itself an anchor is trusted as such (still subject to the leaf checks:
        // validity, names, usages).
        if let a = verifier.anchors.index(of: leaf) {
            if failures.isEmpty, policyFailure(path: PathNodes(), options: options) == nil {
                return trusted(path: PathNodes(), anchor: a, options: options)
            }
            return .untrusted(TrustFailure.sortedByRank(failures))
        }
        var path = PathNodes(Session.leafNode)
        if let anchorNode = buildPath(&path, options) {
            if failures.isEmpty {
                return trusted(path: path, anchor: anchorNode, options: options)
            }
        } else if budgetHit {
            let used = verifier.budget.spent(since: budget)
            failures.append(
                TrustFailure(
                    .budgetExhausted, at: path.count,
                    context: .budget(
                        TrustFailure.BudgetExhaustion(
                            limit: budget.exhaustedLimit, stage: .pathBuilding, limits: verifier.budget, spent: used))))
            if let b = best { failures.append(b) }
        } else if let b = best {
            failures.append(b)
        } else {
            failures.append(TrustFailure(.unknownIssuer, at: 0, "no issuer found for \(leaf.issuer.rfc4514String)"))
        }
        return .untrusted(TrustFailure.sortedByRank(failures))
    }

    /// The verdict for the accepted `path` (leaf first; empty when the leaf is itself the
    /// anchor) ending at `anchor`: one array, shared with the deferred policy sets.
    mutating func trusted(path: PathNodes, anchor: Int, options: VerificationOptions) -> TrustResult {
        var certificates: [Certificate] = []
        certificates.reserveCapacity(path.count + 1)
        for n in path { certificates.append(certificate(n)) }
        if path.isEmpty { certificates.append(leaf) } else { certificates.append(certificate(anchor)) }
        if policiesDeferred {
            details.policies = ValidatedPolicies(deferredLeafFirst: certificates, options: options.certificatePolicies)
        }
        return .trusted(path: certificates, anchor: verifier.anchors.anchors[anchor].source, details: details)
    }

    // MARK: candidate checks

    /// Every check of `node` as the issuer at position `depth` of `path`, in this order (the
    /// first failure is the one returned): the path-independent CA checks (cached per node),
    /// the path length (RFC 5280 §6.1.4 (l), (m)) and the maximum depth, the child's signature
    /// algorithm against this key, the AKI rule for self-issued children, the signature
    /// (cached per pair), then name constraints.
    ///
    /// The two certificates are read once, in place, for everything that needs them (one
    /// `withCertificates`: each read of a certificate kept in an array is a copy, ~150
    /// instructions, and there were up to five per candidate); what the checks need from the
    /// session's caches is worked out before (it is a function of the certificates alone, so
    /// working it out early changes nothing but the work done when an earlier check fails).
    mutating func check(candidate node: Int, at depth: Int, path: PathNodes, options: VerificationOptions)
        -> TrustFailure?
    {
        let candFacts = facts(node)
        let cachedCA = caCheckCache[node]
        if let cached = cachedCA, cached != Session.passed { return caFailures[Int(cached)].at(depth) }
        // Intermediates below this CA, not counting self-issued ones (RFC 5280 §6.1.4 (l), (m)),
        // counted only when the limit could be reached: there are at most `path.count - 1`.
        var pathFailure: TrustFailure? = nil
        let upperBound = path.count - 1
        var counted: Int? = nil
        if let p = candFacts.basicConstraintsPathLength, upperBound > p {
            var below = 0
            for n in path.dropFirst() where !isSelfIssued(n) { below += 1 }
            counted = below
            if below > p {
                pathFailure = TrustFailure(
                    .pathLengthExceeded, at: depth,
                    "pathLenConstraint \(p) allows \(p) intermediate(s) below, found \(below)")
            }
        }
        if pathFailure == nil, !isAnchor(node) {
            let max = options.maximumDepth ?? VerificationOptions.defaultMaximumDepth
            if upperBound + 1 > max {
                var below = 0
                if let c = counted {
                    below = c
                } else {
                    for n in path.dropFirst() where !isSelfIssued(n) { below += 1 }
                }
                let intermediates = below + (isSelfIssued(node) ? 0 : 1)
                if intermediates > max {
                    pathFailure = TrustFailure(.maximumDepthExceeded, at: depth, "more than \(max) intermediate(s)")
                }
            }
        }
        let childNode = path[path.count - 1]
        // RFC 5280 §4.2.1.1: the AKI keyIdentifier may be omitted only from a *self-signed*
        // certificate. `Checks.commonFailures` exempts every self-issued certificate (it cannot
        // see the issuer); here the issuer is known: a self-issued child issued under another
        // key is not self-signed (limbo rfc5280::aki::intermediate-missing-aki; OpenSSL takes
        // such a certificate for self-signed and refuses, error 19 or 18).
        let childMustBeSelfSigned =
            options.profile != .basic && !facts(childNode).has(.hasAuthorityKeyIDKeyID) && isSelfIssued(childNode)
        let pair = Session.signatureKey(child: childNode, parent: node)
        let cachedVerdict = signatureCache[pair]
        let isAnchorNode = isAnchor(node)
        let isSystemAnchor = isAnchorNode && verifier.anchors.anchors[node].source == .system
        // The checks that read the certificates; how far they got is the value returned (a
        // small integer: the failures are left in these locals, not returned through the
        // generic closure).
        var caFailure: TrustFailure? = nil
        var algorithmFailure: TrustFailure? = nil
        var newVerdict: SignatureVerdict? = nil
        let reached: UInt8 = withCertificates(childNode, node) { child, cand, s in
            if cachedCA == nil {
                caFailure = Checks.caFailure(
                    cand, candFacts, isAnchor: isAnchorNode,
                    systemAnchor: isSystemAnchor, options: options)
                // An anchor whose trust settings (an OpenSSL TRUSTED CERTIFICATE) do not permit
                // the purpose ends no path (OpenSSL: X509_V_ERR_CERT_REJECTED), and no other
                // certificate of its name and key (a re-issued copy, a cross-signature) is a
                // link of one.
                if caFailure == nil { caFailure = s.verifier.anchors.trustSettingsRefusal(for: cand, options) }
                if caFailure != nil { return 0 }
            }
            if pathFailure != nil { return 1 }
            // The child's signature, made with this candidate's key.
            algorithmFailure = Checks.algorithmFailure(signed: child, issuer: cand, policy: options.algorithms)
            if algorithmFailure != nil { return 2 }
            if childMustBeSelfSigned && !child.sameSubjectPublicKeyInfo(as: cand) { return 3 }
            if cachedVerdict == nil {
                newVerdict = s.verifier.signatureVerifier.verifySignature(of: child, issuer: cand)
            }
            return 4
        }
        if cachedCA == nil {
            if let f = caFailure {
                caCheckCache[node] = Int32(caFailures.count)  // at most one per node: far below 2^31
                caFailures.append(f)
                return f.at(depth)
            }
            caCheckCache[node] = Session.passed
        }
        switch reached {
        case 1: return pathFailure
        case 2: return algorithmFailure?.at(depth - 1)
        case 3:
            return TrustFailure(
                .profileViolation, at: depth - 1,
                "authorityKeyIdentifier with keyIdentifier is missing: the certificate is self-issued but not self-signed (RFC 5280 §4.2.1.1)"
            )
        default: break
        }
        if let v = newVerdict {
            _ = budget.spendSignatureCheck()
            signatureCache[pair] = v
        }
        // One of the two is set (a verdict is worked out exactly when none was cached); were
        // neither, the signature would count as not verifying.
        let verdict = newVerdict ?? cachedVerdict ?? .invalid
        switch verdict {
        case .valid: break
        case .invalid:
            return TrustFailure(
                .badSignature, at: depth - 1,
                "signature does not verify with the key of \(certificate(node).subject.rfc4514String)")
        case .unsupportedAlgorithm:
            return TrustFailure(
                .unsupportedAlgorithm, at: depth - 1,
                "signature algorithm \(certificate(childNode).signatureAlgorithm.name) is not supported")
        case .malformedKey:
            return TrustFailure(.unsupportedAlgorithm, at: depth, "issuer public key is malformed or unsupported")
        }
        // Name constraints of this CA on every certificate below it (RFC 5280 §6.1.3 (b), (c)),
        // charged to the verification's budget (Checks/NameConstraintCheck.swift).
        return nameConstraintFailure(node, candFacts, at: depth, path: path)
    }
}
