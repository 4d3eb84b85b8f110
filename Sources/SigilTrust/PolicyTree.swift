import SigilDER
import SigilX509

// RFC 5280 §6.1 certificate policy processing: the valid_policy_tree, represented compactly.
//
// Representation (the one BoringSSL adopted in 2022 and Go in 1.22, after OpenSSL's
// CVE-2023-0464): instead of the RFC's tree, whose node count can grow exponentially with
// policy mappings (every node may be duplicated under every parent), each depth holds at most
// one node per policy OID plus an "anyPolicy is present" flag. A node records the valid_policy
// values of its parents at the depth above (empty = its parent is the anyPolicy node), so the
// structure is a DAG whose size is linear in the size of the policy extensions of the path.
// The RFC's expected_policy_set is not stored per node: after the policy mappings of
// certificate i are processed (§6.1.4 (b)), the next level is built keyed by *expected* policy
// (a subjectDomainPolicy, or the node's own policy when unmapped) with the issuer-side policies
// as parents; processing certificate i+1 (§6.1.3 (d)) then keeps or drops those nodes in place.
// Pruning (§6.1.3 (d)(3)) is deferred: reachability from the last depth is computed once at the
// end (§6.1.5 (g)).
//
// Bound (why: CVE-2023-0464 — a hostile chain of certificates each mapping N policies to N
// policies made OpenSSL's tree N^depth nodes large). The DAG is already polynomial, but its
// size still follows the input (N² parent links per certificate for an all-to-all mapping),
// and a verification may evaluate several candidate paths. Every unit of work — a policy or
// mapping read, a node created, kept or copied, a parent link stored or followed — is charged
// to the verification's one budget (`VerificationBudget.policyTreeWork`, shared with the
// signature checks, candidate visits and name-constraint comparisons; default 32 768 units; a ten-certificate government path with 30 policies and 30 one-to-one
// mappings per certificate costs about 1 500, so some twenty such candidate paths fit; six
// certificates each mapping 48 policies onto 48 others — Fixtures/policies/cve-2023-0464 — do
// not). When it runs out the path fails closed with `PolicyFailure.Kind.budgetExhausted` and
// the verifier stops trying other paths. Callers with unusual PKIs may raise the figure
// (`ChainVerifier.budget`, `CertificateTrust.budget`).

/// The four user inputs of RFC 5280 §6.1.1 (c), (e), (f), (g). The work bound is part of the
/// verification's one budget: `VerificationBudget.policyTreeWork`.
///
/// The defaults (user-initial-policy-set = {anyPolicy}, nothing explicit or inhibited) make
/// policy processing unable to fail a path unless a certificate of the path requires an explicit
/// policy (policyConstraints) or carries a malformed policy extension — the web PKI behaviour.
public struct CertificatePolicyOptions: Sendable, Hashable {
    /// §6.1.1 (c) user-initial-policy-set: OID content octets. `[OID.anyPolicy]` (the default)
    /// means "any policy"; an empty set is read the same way (as BoringSSL and OpenSSL do).
    public var userInitialPolicySet: [[UInt8]] = [OID.anyPolicy]
    /// §6.1.1 (e) initial-explicit-policy: the path must be valid for at least one policy of
    /// the user-initial-policy-set.
    public var initialExplicitPolicy = false
    /// §6.1.1 (f) initial-policy-mapping-inhibit: policy mapping is not permitted.
    public var initialPolicyMappingInhibit = false
    /// §6.1.1 (g) initial-any-policy-inhibit: anyPolicy in a certificate is not processed.
    public var initialAnyPolicyInhibit = false
    /// The defaults: any policy acceptable, nothing explicit, mapping and anyPolicy allowed.
    public init() {}

    /// True when the user-initial-policy-set is any-policy.
    public var userAcceptsAnyPolicy: Bool {
        userInitialPolicySet.isEmpty || userInitialPolicySet.contains(OID.anyPolicy)
    }
}

/// What policy processing established for a validated path (RFC 5280 §6.1.6 and the X.509
/// output sets). OIDs are content octets, sorted; anyPolicy appears as `OID.anyPolicy`.
///
/// When policy processing cannot reject a path — no initial-explicit-policy and no
/// policyConstraints or policyMappings on the path, at most 16 distinct policies per
/// certificate (the web PKI case) — the verifier accepts the path without building the tree
/// and the sets are computed on first access from the path it keeps (no allocation on the hot
/// path; the result is the same as the eager computation).
public struct ValidatedPolicies: Sendable, Hashable {
    struct Sets: Sendable, Hashable {
        var authoritiesConstrained: [[UInt8]] = []
        var userConstrained: [[UInt8]] = []
        var explicitPolicyRequired = false
    }

    enum Storage: Sendable {
        /// Empty sets, without the arrays (what every verification starts with: copying and
        /// destroying the two empty arrays of `Sets()` cost reference counts on each copy of
        /// `TrustDetails`).
        case empty
        case computed(Sets)
        /// The validated path as `TrustResult.trusted` holds it (leaf first, the anchor last);
        /// processed in RFC order (certificate 1 first, the leaf last), the anchor excluded.
        /// Sharing the result's array keeps the trusted path free of a second allocation.
        case deferred([Certificate], CertificatePolicyOptions)
    }

    let storage: Storage

    /// Empty sets (what a path that went through no policy processing reports).
    public init() { storage = .empty }

    init(_ sets: Sets) { storage = .computed(sets) }

    /// `path`: leaf first, anchor last (see `Storage.deferred`).
    init(deferredLeafFirst path: [Certificate], options: CertificatePolicyOptions) {
        storage = .deferred(path, options)
    }

    var sets: Sets {
        switch storage {
        case .empty:
            return Sets()
        case .computed(let s):
            return s
        case .deferred(let path, let options):
            var input: [PolicyCertificate] = []
            for c in path.dropLast().reversed() {
                guard let p = try? PolicyCertificate(c) else { return Sets() }
                input.append(p)
            }
            var budget = Int.max
            if case .success(let v) = PolicyTree.evaluate(input, options: options, budget: &budget) { return v.sets }
            return Sets()  // unreachable: the verifier only defers paths that cannot fail
        }
    }

    /// authorities-constrained-policy-set: the policies, in the trust anchor's policy domain,
    /// for which the path is valid according to its certificates alone — the valid_policy of
    /// every node of the pruned tree whose parent is anyPolicy, plus anyPolicy itself when the
    /// tree keeps an anyPolicy node at the last depth. Empty when the tree is NULL.
    public var authoritiesConstrained: [[UInt8]] { sets.authoritiesConstrained }
    /// user-constrained-policy-set: the authorities-constrained set intersected with the
    /// user-initial-policy-set (§6.1.5 (g)). Empty when they do not meet; with
    /// initial-explicit-policy (or a requireExplicitPolicy that reached 0) an empty set fails
    /// the path.
    public var userConstrained: [[UInt8]] { sets.userConstrained }
    /// The explicit_policy state variable reached 0 (§6.1.5 (b)): a policy was required.
    public var explicitPolicyRequired: Bool { sets.explicitPolicyRequired }

    /// Dotted forms, for display.
    public var authoritiesConstrainedDotted: [String] { authoritiesConstrained.map { OID.dotted($0) } }
    /// `userConstrained` in dotted form, for display.
    public var userConstrainedDotted: [String] { userConstrained.map { OID.dotted($0) } }

    /// Equal when the computed sets are (a deferred value is computed first).
    public static func == (a: ValidatedPolicies, b: ValidatedPolicies) -> Bool { a.sets == b.sets }
    /// Hashes the computed sets (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(sets) }
}

/// The policy facts of one certificate, in the form the tree consumes (decoded from a
/// `Certificate` by `PolicyCertificate(_:isSelfIssued:)`, or built directly by tests and fuzzers).
public struct PolicyCertificate: Sendable {
    /// certificatePolicies policyIdentifiers (nil: no extension).
    public var policies: [ByteSpan]?
    /// policyMappings (issuerDomainPolicy, subjectDomainPolicy) pairs (nil: no extension).
    public var mappings: [(issuer: ByteSpan, subject: ByteSpan)]?
    /// policyConstraints requireExplicitPolicy (SkipCerts), nil when absent.
    public var requireExplicitPolicy: Int?
    /// policyConstraints inhibitPolicyMapping (SkipCerts), nil when absent.
    public var inhibitPolicyMapping: Int?
    /// inhibitAnyPolicy (SkipCerts, §4.2.1.14), nil when absent.
    public var inhibitAnyPolicy: Int?
    /// Issuer name equals subject name (RFC 5280 §6.1: self-issued certificates other than the
    /// leaf do not count down the constraints).
    public var isSelfIssued: Bool

    /// Facts given directly (tests, fuzzers): nil means the extension is absent.
    public init(
        policies: [ByteSpan]? = nil, mappings: [(issuer: ByteSpan, subject: ByteSpan)]? = nil,
        requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil,
        inhibitAnyPolicy: Int? = nil, isSelfIssued: Bool = false
    ) {
        self.policies = policies
        self.mappings = mappings
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.isSelfIssued = isSelfIssued
    }

    /// Decodes the four policy extensions of `c` (RFC 5280 §4.2.1.4, §4.2.1.5, §4.2.1.11,
    /// §4.2.1.14). Errors are the decoders' `DERError`s (kind and absolute byte offset).
    public init(_ c: Certificate) throws(DERError) {
        self.init(isSelfIssued: c.isSelfIssued)
        if let cp = try c.certificatePolicies() {
            var list: [ByteSpan] = []
            for p in cp { list.append(p.policyIdentifier) }
            policies = list
        }
        if let pm = try c.policyMappings() {
            var list: [(issuer: ByteSpan, subject: ByteSpan)] = []
            for m in pm { list.append((m.issuerDomainPolicy, m.subjectDomainPolicy)) }
            mappings = list
        }
        if let pc = try c.policyConstraints() {
            requireExplicitPolicy = pc.requireExplicitPolicy
            inhibitPolicyMapping = pc.inhibitPolicyMapping
        }
        inhibitAnyPolicy = try c.inhibitAnyPolicy()
    }
}

/// Why policy processing rejected a path.
public struct PolicyFailure: Error, Sendable, Hashable {
    /// Which rule rejected the path.
    public enum Kind: Sendable, Hashable {
        /// §4.2.1.4: a policy OID appears more than once in certificatePolicies.
        case duplicatePolicy
        /// §6.1.4 (a): anyPolicy as an issuerDomainPolicy or subjectDomainPolicy.
        case anyPolicyMapped
        /// §6.1.3 (f) or §6.1.5 (g): explicit_policy is 0 and no acceptable policy remains.
        case noExplicitPolicy
        /// The shared work budget ran out (CVE-2023-0464-style input).
        case budgetExhausted
    }
    /// Which rule rejected the path.
    public let kind: Kind
    /// Index of the certificate in the input (0 = the one issued by the anchor, RFC 5280's
    /// certificate 1).
    public let certificate: Int
    /// The offending OID, when there is one (content octets).
    public let policy: [UInt8]?

    /// A failure of `kind` at input certificate `certificate` (0 = RFC 5280's certificate 1),
    /// about `policy` (OID content octets) when there is one.
    public init(_ kind: Kind, certificate: Int, policy: [UInt8]? = nil) {
        self.kind = kind
        self.certificate = certificate
        self.policy = policy
    }
}

/// RFC 5280 §6.1 policy processing over a prepared path.
public enum PolicyTree {
    /// One node: a valid_policy and the valid_policy values of its parents one depth up
    /// (empty: the parent is that depth's anyPolicy node).
    struct Node {
        let policy: ByteSpan
        var parents: [ByteSpan]
        var mapped = false
        var reachable = false
    }

    struct MappingPair: Hashable {
        let issuer: ByteSpan
        let subject: ByteSpan
    }

    /// One depth of the DAG.
    struct Level {
        var nodes: [Node] = []
        var index: [ByteSpan: Int] = [:]
        var hasAnyPolicy = false

        var isEmpty: Bool { nodes.isEmpty && !hasAnyPolicy }

        mutating func add(_ n: Node) {
            index[n.policy] = nodes.count
            nodes.append(n)
        }

        mutating func keep(where predicate: (Node) -> Bool) {
            nodes.removeAll { !predicate($0) }
            index.removeAll(keepingCapacity: true)
            for (i, n) in nodes.enumerated() { index[n.policy] = i }
        }
    }

    /// Runs §6.1.2 initialisation, §6.1.3 (d)–(f), §6.1.4 (a)–(b), (h)–(j) and §6.1.5 (a), (b),
    /// (g) over `path` (RFC order: `path[0]` is issued by the trust anchor, the last element is
    /// the end entity; the anchor itself is not processed, §6.1.1 (d)). `budget` is the work
    /// left for the whole verification and is decreased.
    public static func evaluate(
        _ path: [PolicyCertificate], options: CertificatePolicyOptions,
        budget: inout Int
    ) -> Result<ValidatedPolicies, PolicyFailure> {
        let n = path.count
        // §6.1.2 (d), (e), (f): n + 1 unless the matching initial input is set.
        var explicitPolicy = options.initialExplicitPolicy ? 0 : n + 1
        var inhibitAnyPolicy = options.initialAnyPolicyInhibit ? 0 : n + 1
        var policyMapping = options.initialPolicyMappingInhibit ? 0 : n + 1
        // §6.1.2 (a): the root anyPolicy node at depth 0.
        var level = Level()
        level.hasAnyPolicy = true
        var levels: [Level] = [level]

        func spend(_ units: Int, _ i: Int) -> PolicyFailure? {
            budget -= units
            return budget < 0 ? PolicyFailure(.budgetExhausted, certificate: i) : nil
        }

        for i in 0..<n {
            let cert = path[i]
            let isLeaf = i == n - 1
            // §6.1.3 (d), (e).
            if let policies = cert.policies {
                if let f = spend(policies.count + level.nodes.count, i) { return .failure(f) }
                var seen = Set<ByteSpan>(minimumCapacity: policies.count)
                var certHasAny = false
                for p in policies {
                    if !seen.insert(p).inserted {
                        return .failure(PolicyFailure(.duplicatePolicy, certificate: i, policy: p.array))
                    }
                    if isAnyPolicy(p) { certHasAny = true }
                }
                // (d)(2): anyPolicy is processed while inhibit_anyPolicy > 0, or in a
                // self-issued certificate that is not the end entity.
                let anyAllowed = inhibitAnyPolicy > 0 || (!isLeaf && cert.isSelfIssued)
                let previousHasAny = level.hasAnyPolicy
                // (d)(1)(i) and (d)(2): a node of the previous depth whose expected policy the
                // certificate asserts gets a child; with anyPolicy processed, every one does.
                // In this representation that child is the node itself (keyed by expected
                // policy), so the level is filtered in place.
                if !(certHasAny && anyAllowed) {
                    level.keep { seen.contains($0.policy) }
                    level.hasAnyPolicy = false
                }
                // (d)(1)(ii): a policy matched by no expected policy becomes a child of the
                // previous depth's anyPolicy node.
                if previousHasAny {
                    for p in policies where !isAnyPolicy(p) && level.index[p] == nil {
                        level.add(Node(policy: p, parents: []))
                    }
                }
            } else {
                // (e): no certificatePolicies extension: the tree becomes NULL.
                level = Level()
            }
            // (f): explicit_policy 0 requires a non-NULL tree.
            if explicitPolicy == 0 && level.isEmpty {
                return .failure(PolicyFailure(.noExplicitPolicy, certificate: i))
            }
            levels.append(level)

            if !isLeaf {
                // §6.1.4 (a), (b): policy mappings, producing the next level keyed by expected policy.
                switch mapPolicies(cert, &levels[levels.count - 1], allowed: policyMapping > 0, i, &budget) {
                case .success(let next): level = next
                case .failure(let f): return .failure(f)
                }
            }
            // §6.1.4 (h) for intermediates (not self-issued), §6.1.5 (a) for the end entity.
            if isLeaf || !cert.isSelfIssued {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if policyMapping > 0 { policyMapping -= 1 }
                if inhibitAnyPolicy > 0 { inhibitAnyPolicy -= 1 }
            }
            // §6.1.4 (i), (j) and §6.1.5 (b). For the end entity only requireExplicitPolicy = 0
            // matters, and min() gives exactly that after the decrement above.
            if let r = cert.requireExplicitPolicy { explicitPolicy = min(explicitPolicy, r) }
            if let m = cert.inhibitPolicyMapping { policyMapping = min(policyMapping, m) }
            if let a = cert.inhibitAnyPolicy { inhibitAnyPolicy = min(inhibitAnyPolicy, a) }
        }

        // §6.1.5 (g): the policy sets.
        var result = ValidatedPolicies.Sets()
        result.explicitPolicyRequired = explicitPolicy == 0
        let last = levels[levels.count - 1]
        if !last.isEmpty {
            var authority = Set<ByteSpan>()
            // Deferred pruning: only nodes from which the last depth can be reached count.
            for j in levels[levels.count - 1].nodes.indices { levels[levels.count - 1].nodes[j].reachable = true }
            var d = levels.count - 1
            while d > 0 {
                if let f = spend(levels[d].nodes.count, n - 1) { return .failure(f) }
                for node in levels[d].nodes where node.reachable {
                    if node.parents.isEmpty {
                        authority.insert(node.policy)  // parent anyPolicy: in valid_policy_node_set
                        continue
                    }
                    if let f = spend(node.parents.count, n - 1) { return .failure(f) }
                    for p in node.parents {
                        if let k = levels[d - 1].index[p] { levels[d - 1].nodes[k].reachable = true }
                    }
                }
                d -= 1
            }
            var auth = authority.map { $0.array }
            if last.hasAnyPolicy { auth.append(OID.anyPolicy) }
            auth.sort(by: oidLess)
            result.authoritiesConstrained = auth
            if options.userAcceptsAnyPolicy {
                // (g)(ii): the whole tree.
                result.userConstrained = auth
            } else {
                // (g)(iii): nodes of valid_policy_node_set outside the user set are deleted; an
                // anyPolicy node at depth n is replaced by the user set's policies.
                var user = Set<[UInt8]>()
                for p in options.userInitialPolicySet {
                    if last.hasAnyPolicy || authority.contains(where: { $0 == p }) { user.insert(p) }
                }
                result.userConstrained = user.sorted(by: oidLess)
            }
        }
        // §6.1.5 (g) final check (the "explicit_policy > 0 or user set non-empty" success rule).
        if explicitPolicy == 0 && result.userConstrained.isEmpty {
            return .failure(PolicyFailure(.noExplicitPolicy, certificate: n - 1))
        }
        return .success(ValidatedPolicies(result))
    }

    /// §6.1.4 (a), (b) for certificate `i`: checks the mappings, marks (b)(1) or deletes (b)(2)
    /// mapped nodes of `level` (the stored depth i), and returns depth i's nodes re-keyed by
    /// expected policy, parents = the depth-i policies expecting it.
    static func mapPolicies(
        _ cert: PolicyCertificate, _ level: inout Level, allowed: Bool, _ i: Int,
        _ budget: inout Int
    ) -> Result<Level, PolicyFailure> {
        let mappings = cert.mappings ?? []
        budget -= mappings.count * 2 + level.nodes.count * 2
        if budget < 0 { return .failure(PolicyFailure(.budgetExhausted, certificate: i)) }
        // (a): anyPolicy is never mapped.
        for m in mappings where isAnyPolicy(m.issuer) || isAnyPolicy(m.subject) {
            return .failure(PolicyFailure(.anyPolicyMapped, certificate: i, policy: OID.anyPolicy))
        }
        // issuerDomainPolicy → its subjectDomainPolicies (in certificate order).
        var targets: [ByteSpan: [ByteSpan]] = [:]
        if allowed {
            // Duplicate pairs are dropped here, so that each parent link below is stored once
            // without searching the parent list (which would be quadratic per node).
            var pairs = Set<MappingPair>(minimumCapacity: mappings.count)
            for m in mappings where pairs.insert(MappingPair(issuer: m.issuer, subject: m.subject)).inserted {
                targets[m.issuer, default: []].append(m.subject)
            }
            // (b)(1): a mapped policy with no node, under an anyPolicy node, gets one (child of
            // the anyPolicy node one depth up).
            for m in mappings where level.index[m.issuer] == nil && level.hasAnyPolicy {
                level.add(Node(policy: m.issuer, parents: []))
            }
            for j in level.nodes.indices where targets[level.nodes[j].policy] != nil { level.nodes[j].mapped = true }
        } else if !mappings.isEmpty {
            // (b)(2): mapping inhibited: nodes with a mapped valid_policy are deleted.
            var mapped = Set<ByteSpan>()
            for m in mappings { mapped.insert(m.issuer) }
            level.keep { !mapped.contains($0.policy) }
        }
        var next = Level()
        next.hasAnyPolicy = level.hasAnyPolicy
        for node in level.nodes {
            let expected = node.mapped ? targets[node.policy] ?? [] : [node.policy]
            if budget - expected.count < 0 {
                budget = -1
                return .failure(PolicyFailure(.budgetExhausted, certificate: i))
            }
            budget -= expected.count
            for e in expected {
                if let k = next.index[e] {
                    next.nodes[k].parents.append(node.policy)
                } else {
                    next.add(Node(policy: e, parents: [node.policy]))
                }
            }
        }
        return .success(next)
    }
}

func isAnyPolicy(_ s: ByteSpan) -> Bool { s == OID.anyPolicy }

/// Orders OIDs (content octets) by length then bytes: deterministic output.
func oidLess(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    if a.count != b.count { return a.count < b.count }
    return a.lexicographicallyPrecedes(b)
}
