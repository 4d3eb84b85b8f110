import SigilDER
import SigilX509

/// Builds a path from a leaf to a trust anchor and validates it (RFC 5280 §6.1 with the CA/B
/// Forum Baseline Requirements profile for server and client kinds).
///
/// Path building is depth-first with backtracking: candidate issuers are looked up by subject
/// (byte-identical first, then RFC 5280 §7.1: CandidatePool.swift), anchors before untrusted
/// intermediates and candidates whose subject key identifier matches the child's authority key
/// identifier first. A candidate that fails any check is abandoned and the next one tried, so
/// cross-signed and expired alternatives still find the valid path.
public struct ChainVerifier: Sendable {
    /// The trust anchors paths may end at.
    public var anchors: TrustStore
    /// Checks one certificate's signature with its issuer's key.
    public var signatureVerifier: any CertificateSignatureVerifier
    /// The work one `verify` call may do, all of it (see `VerificationBudget`).
    public var budget = VerificationBudget.standard

    /// Work budget (why: a hostile peer controls the intermediates, and with many certificates
    /// sharing a subject or key the number of candidate paths grows exponentially — Go's
    /// `TestPathologicalChains`, limbo `pathological::*`). Signature checks are the expensive
    /// step (≈ 20–800 µs each): 100 of them bound the worst case to well under a second, and no
    /// real chain needs more than a handful (rustls-webpki uses the same figure). Candidate
    /// visits bound the cheap work (index lookups, cached checks) at 4 096.
    public static let maximumSignatureChecks = 100
    /// See `maximumSignatureChecks`.
    public static let maximumCandidateVisits = 4096
    /// Hard bound on the whole path length, self-issued certificates included.
    public static let maximumPathLength = 16

    /// A verifier ending paths at `anchors`, checking signatures with `signatureVerifier`.
    public init(anchors: TrustStore, signatureVerifier: any CertificateSignatureVerifier) {
        self.anchors = anchors
        self.signatureVerifier = signatureVerifier
    }

    /// Validates `leaf` with the untrusted `intermediates` (any order; duplicates and unrelated
    /// ones are ignored) at `options.time`.
    public func verify(leaf: Certificate, intermediates: [Certificate], options: VerificationOptions) -> TrustResult {
        var session = Session(verifier: self, leaf: leaf, intermediates: intermediates, options: options)
        return session.run()
    }
}

/// One verification's state: the candidate pool, caches and budget.
struct Session {
    let verifier: ChainVerifier
    let leaf: Certificate
    let options: VerificationOptions
    /// Pool of untrusted intermediates, searched lazily (CandidatePool.swift).
    var pool: CandidatePool
    /// Per-node cached outcome of the path-independent CA checks (node: anchor i → i,
    /// intermediate j → anchors.count + j).
    var caCheckCache: [Int: TrustFailure?] = [:]
    var signatureCache: [SignaturePair: SignatureVerdict] = [:]
    /// Per-node facts used on every visit, computed once.
    var infoCache: [Int: NodeInfo] = [:]

    struct NodeInfo {
        let isSelfIssued: Bool
        let subjectKeyID: ByteSpan?
        let authorityKeyID: ByteSpan?
        /// Hash of subject and SubjectPublicKeyInfo: the "logical CA" for loop detection.
        let logicalKey: Int
    }

    mutating func info(_ node: Int) -> NodeInfo {
        if let i = infoCache[node] { return i }
        let c = certificate(node)
        var h = Hasher()
        h.combine(c.subject.encoded)
        h.combine(c.subjectPublicKeyInfo)
        let i = NodeInfo(isSelfIssued: c.isSelfIssued,
                         subjectKeyID: (try? c.subjectKeyIdentifier()) ?? nil,
                         authorityKeyID: ((try? c.authorityKeyIdentifier()) ?? nil)?.keyIdentifier,
                         logicalKey: h.finalize())
        infoCache[node] = i
        return i
    }
    /// Certificate policy work left for the whole verification (PathPolicies.swift).
    lazy var policyBudget = options.certificatePolicies.maximumWork
    /// What is left of the verification's single budget (signature checks, candidate visits,
    /// name-constraint comparisons): one value for the whole run, never reset per candidate.
    var budget: VerificationBudget
    var best: TrustFailure?
    var budgetHit = false
    /// What the accepted path established beyond itself: policy sets (PathPolicies.swift),
    /// revocation statuses (Revocation/), each set by its check of the path checked last.
    var details = TrustDetails()
    /// Revocation work shared by the candidate paths (budget and signature cache).
    let revocationWork = RevocationWork()

    struct SignaturePair: Hashable {
        let child: Int
        let parent: Int
    }

    static let leafNode = -1

    init(verifier: ChainVerifier, leaf: Certificate, intermediates: [Certificate], options: VerificationOptions) {
        self.verifier = verifier
        self.leaf = leaf
        self.options = options
        self.budget = verifier.budget
        // No per-certificate work here: duplicates, copies of the leaf and of anchors are
        // filtered when a lookup finds them (CandidatePool.swift).
        self.pool = CandidatePool(intermediates, leaf: leaf)
    }

    var anchorCount: Int { verifier.anchors.anchors.count }

    func certificate(_ node: Int) -> Certificate {
        if node == Session.leafNode { return leaf }
        if node < anchorCount { return verifier.anchors.anchors[node].certificate }
        return pool[node - anchorCount]
    }

    func isAnchor(_ node: Int) -> Bool { node >= 0 && node < anchorCount }

    mutating func note(_ f: TrustFailure) {
        // The one ranking rule (`TrustFailure.precedes`); at a tie the first found stays.
        if let b = best, !TrustFailure.precedes(f, b) { return }
        best = f
    }

    // MARK: run

    mutating func run() -> TrustResult {
        var failures = Checks.leafFailures(leaf, options: options)
        // The leaf's own key is never used by path validation: check that it decodes (an EC
        // point off its curve is otherwise trusted; found by Fuzz/FuzzVerifyDiff, where OpenSSL
        // refuses with "EE certificate key too weak").
        if !verifier.signatureVerifier.subjectPublicKeyIsValid(leaf) {
            failures.append(TrustFailure(.malformedCertificate, at: 0,
                                         "subject public key does not decode as a \(leaf.publicKeyAlgorithm.name) key (RFC 5480 §2.2, RFC 8017 §A.1.1)"))
        }
        // A leaf that is itself an anchor is trusted as such (still subject to the leaf checks:
        // validity, names, usages).
        let leafAnchors = verifier.anchors.anchors(withSubject: leaf.subject).filter {
            verifier.anchors.anchors[$0].certificate == leaf
        }
        if let a = leafAnchors.first {
            if failures.isEmpty, policyFailure(path: []) == nil {
                return .trusted(path: [leaf], anchor: verifier.anchors.anchors[a].source, details: details)
            }
            return .untrusted(TrustFailure.sortedByRank(failures))
        }
        var path: [Int] = [Session.leafNode]
        if let anchorNode = buildPath(&path) {
            if failures.isEmpty {
                return .trusted(path: path.map(certificate) + [certificate(anchorNode)],
                                anchor: verifier.anchors.anchors[anchorNode].source, details: details)
            }
        } else if budgetHit {
            let used = verifier.budget.spent(since: budget)
            failures.append(TrustFailure(.budgetExhausted, at: path.count,
                                         "gave up after \(used.signatureChecks) signature checks, \(used.candidateVisits) candidates"
                                         + " and \(used.nameConstraintComparisons) name-constraint comparisons"))
            if let b = best { failures.append(b) }
        } else if let b = best {
            failures.append(b)
        } else {
            failures.append(TrustFailure(.unknownIssuer, at: 0, "no issuer found for \(leaf.issuer.rfc4514String)"))
        }
        return .untrusted(TrustFailure.sortedByRank(failures))
    }

    /// Extends `path` (leaf first) towards an anchor; returns the anchor's node on success, with
    /// `path` holding the leaf and the intermediates.
    mutating func extend(_ path: inout [Int]) -> Int? {
        let childNode = path[path.count - 1]
        let child = certificate(childNode)
        let depth = path.count // index the issuer would have
        let candidates = order(candidateIssuers(of: child), for: childNode)
        var tried = 0
        defer {
            // No issuer at all (or only ones already on the path): the chain ends here.
            if tried == 0 && !budgetHit {
                let selfIssued = child.isSelfIssued
                note(TrustFailure(selfIssued ? .untrustedRoot : .unknownIssuer, at: depth - 1,
                                  selfIssued ? "self-signed certificate \(child.subject.rfc4514String) is not a trust anchor"
                                             : "no certificate found for issuer \(child.issuer.rfc4514String)"))
            }
        }
        for node in candidates {
            if !budget.spendCandidateVisit() || budget.signatureChecks <= 0 {
                budgetHit = true
                return nil
            }
            // Loop detection: a certificate, or the same logical CA (subject and key), at most
            // once per path.
            let key = info(node).logicalKey
            var looped = false
            for n in path where n == node || info(n).logicalKey == key {
                let c = certificate(n), cand = certificate(node)
                if n == node || c == cand
                    || (c.subject.encoded == cand.subject.encoded && c.subjectPublicKeyInfo == cand.subjectPublicKeyInfo) {
                    looped = true
                    break
                }
            }
            if looped { continue }
            tried += 1
            if path.count + 1 > ChainVerifier.maximumPathLength {
                note(TrustFailure(.maximumDepthExceeded, at: depth, "path longer than \(ChainVerifier.maximumPathLength) certificates"))
                continue
            }
            if let f = check(candidate: node, at: depth, path: path) {
                if budgetHit { return nil }
                note(f)
                continue
            }
            if isAnchor(node) {
                // The path is complete: RFC 5280 §6.1 policy processing (PathPolicies.swift),
                // then revocation (§6.3, Revocation/).
                if let f = policyFailure(path: path) { note(f); if budgetHit { return nil }; continue }
                if let f = revocationFailure(path: path, anchor: node) { note(f); continue }
                return node
            }
            path.append(node)
            if let anchor = extend(&path) { return anchor }
            path.removeLast()
            if budgetHit { return nil }
        }
        return nil
    }

    /// Anchors and pool certificates whose subject matches the child's issuer: byte-identical
    /// in the first pass, RFC 5280 §7.1 in the second (CandidatePool.swift).
    mutating func candidateIssuers(of child: Certificate) -> [Int] {
        var out = pool.normalised ? verifier.anchors.anchors(withSubject: child.issuer)
                                  : verifier.anchors.anchors(withRawSubject: child.issuer)
        for j in pool.candidates(for: child.issuer, anchorMatches: out, anchors: verifier.anchors) {
            out.append(anchorCount + j)
        }
        return out
    }

    /// Anchors first; within each group, candidates whose SKI equals the child's AKI keyIdentifier
    /// first, then those without an SKI, then mismatches (kept: AKI is a hint, RFC 5280 §4.2.1.1).
    mutating func order(_ nodes: [Int], for childNode: Int) -> [Int] {
        let aki = info(childNode).authorityKeyID
        var scored: [(Int, Int, Int)] = []
        scored.reserveCapacity(nodes.count)
        for (offset, n) in nodes.enumerated() {
            var s = isAnchor(n) ? 0 : 10
            if let aki, let ski = info(n).subjectKeyID {
                s += ski == aki ? 0 : 2
            } else {
                s += 1
            }
            scored.append((s, offset, n))
        }
        scored.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        return scored.map { $0.2 }
    }

    // MARK: candidate checks

    /// Every check of `node` as the issuer at position `depth` of `path`.
    mutating func check(candidate node: Int, at depth: Int, path: [Int]) -> TrustFailure? {
        let cand = certificate(node)
        // Path-independent CA checks, cached per certificate.
        if let cached = caCheckCache[node] {
            if let f = cached { return TrustFailure(f.kind, at: depth, f.message) }
        } else {
            let f = Checks.caFailure(cand, isAnchor: isAnchor(node), options: options)
            caCheckCache[node] = .some(f)
            if let f { return TrustFailure(f.kind, at: depth, f.message) }
        }
        // Intermediates below this CA, not counting self-issued ones (RFC 5280 §6.1.4 (l), (m)).
        var below = 0
        for n in path.dropFirst() where !info(n).isSelfIssued { below += 1 }
        if let bc = (try? cand.basicConstraints()) ?? nil, let p = bc.pathLength, below > p {
            return TrustFailure(.pathLengthExceeded, at: depth, "pathLenConstraint \(p) allows \(p) intermediate(s) below, found \(below)")
        }
        if !isAnchor(node) {
            let max = options.maximumDepth ?? VerificationOptions.defaultMaximumDepth
            let intermediates = below + (info(node).isSelfIssued ? 0 : 1)
            if intermediates > max {
                return TrustFailure(.maximumDepthExceeded, at: depth, "more than \(max) intermediate(s)")
            }
        }
        // The child's signature, made with this candidate's key.
        let childNode = path[path.count - 1]
        let child = certificate(childNode)
        if let f = Checks.algorithmFailure(signed: child, issuer: cand, policy: options.algorithms) {
            return TrustFailure(f.kind, at: depth - 1, f.message)
        }
        let pair = SignaturePair(child: childNode, parent: node)
        let verdict: SignatureVerdict
        if let v = signatureCache[pair] {
            verdict = v
        } else {
            _ = budget.spendSignatureCheck()
            verdict = verifier.signatureVerifier.verifySignature(of: child, issuer: cand)
            signatureCache[pair] = verdict
        }
        switch verdict {
        case .valid: break
        case .invalid:
            return TrustFailure(.badSignature, at: depth - 1, "signature does not verify with the key of \(cand.subject.rfc4514String)")
        case .unsupportedAlgorithm:
            return TrustFailure(.unsupportedAlgorithm, at: depth - 1, "signature algorithm \(child.signatureAlgorithm.name) is not supported")
        case .malformedKey:
            return TrustFailure(.unsupportedAlgorithm, at: depth, "issuer public key is malformed or unsupported")
        }
        // Name constraints of this CA on every certificate below it (RFC 5280 §6.1.3 (b), (c)),
        // charged to the verification's budget.
        if let nc = (try? cand.nameConstraints()) ?? nil {
            switch NameChecks.constraints(nc, below: path.map(certificate), budget: &budget.nameConstraintComparisons) {
            case nil: break
            case .violated(let i, let what)?:
                return TrustFailure(.nameConstraintViolated, at: i, "\(what) is outside the name constraints of \(cand.subject.rfc4514String)")
            case .unsupported(let i, let why)?:
                return TrustFailure(.nameConstraintUnsupported, at: i, why)
            case .overBudget?:
                budgetHit = true
                return TrustFailure(.budgetExhausted, at: depth, "too many name-constraint comparisons")
            }
        }
        return nil
    }
}

/// The work one verification may do, as one value carried through the whole of it (signature
/// checks, candidate visits, name-constraint comparisons), as rustls-webpki's `Budget`: no
/// limit restarts per candidate or per certificate, so the total work on hostile input is
/// bounded by these figures. Running out is the `budgetExhausted` failure (fail closed).
public struct VerificationBudget: Sendable, Hashable {
    /// Signature verifications left (the expensive step: ≈ 20–800 µs each).
    public var signatureChecks: Int
    /// Candidate issuers left to consider (index lookups, cached checks).
    public var candidateVisits: Int
    /// Name × constraint comparisons left, over every CA's constraints and every certificate
    /// they apply to (a directoryName comparison counts once per 16 octets compared).
    public var nameConstraintComparisons: Int

    /// A budget with the given limits.
    public init(signatureChecks: Int = ChainVerifier.maximumSignatureChecks,
                candidateVisits: Int = ChainVerifier.maximumCandidateVisits,
                nameConstraintComparisons: Int = VerificationBudget.defaultNameConstraintComparisons) {
        self.signatureChecks = signatureChecks
        self.candidateVisits = candidateVisits
        self.nameConstraintComparisons = nameConstraintComparisons
    }

    /// rustls-webpki's figure for the whole verification: real chains need a few hundred
    /// comparisons; hostile ones (x509-limbo `pathological::nc-dos-*`, 2 048 constraints × 4 096
    /// names) millions.
    public static let defaultNameConstraintComparisons = 250_000

    /// The defaults: 100 signature checks, 4 096 candidate visits, 250 000 comparisons.
    public static let standard = VerificationBudget()

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
        VerificationBudget(signatureChecks: signatureChecks - remaining.signatureChecks,
                           candidateVisits: candidateVisits - remaining.candidateVisits,
                           nameConstraintComparisons: nameConstraintComparisons - max(0, remaining.nameConstraintComparisons))
    }
}

extension Session {
    /// RFC 5280 §6.3 / RFC 6960 for the complete path (leaf … `anchor`); the statuses go into
    /// `details.revocation`; the most important failure is returned (revoked, or undetermined under hard fail).
    mutating func revocationFailure(path: [Int], anchor: Int) -> TrustFailure? {
        guard let r = options.revocation else { return nil }
        let certs = path.map(certificate) + [certificate(anchor)]
        let checker = RevocationChecker(options: r, time: options.time, algorithms: options.algorithms,
                                        verifier: verifier.signatureVerifier, certificates: certs + pool.certificates,
                                        anchor: verifier.anchors.anchors[anchor], work: revocationWork)
        let statuses = checker.check(path: certs)
        details.revocation = statuses
        return RevocationChecker.failures(statuses, policy: r.policy).first
    }
}
