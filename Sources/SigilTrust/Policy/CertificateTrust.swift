import SigilX509

/// A `SecTrust`-style evaluation: the certificates a peer presented, the policies to judge them
/// by, the anchors, whether only those anchors count, and the verification time; `evaluate()`
/// answers with a `TrustResultType` that maps one-to-one onto `SecTrustResultType`.
///
/// ```swift
/// var trust = CertificateTrust(certificates: presented, policies: [.ssl(host: "api.example.com")],
///                              time: now, signatureVerifier: SigilSignatureVerifier(),
///                              systemAnchors: .system())
/// trust.anchors = [companyRoot]          // SecTrustSetAnchorCertificates
/// trust.anchorsOnly = false              // SecTrustSetAnchorCertificatesOnly(trust, false)
/// let evaluation = trust.evaluate()      // SecTrustEvaluate
/// if evaluation.result.isTrusted { use(evaluation.chain) }
/// ```
///
/// The module `Sigil` adds `init(certificates:policies:)` with the time defaulting to now, its
/// own signature verification and the system's roots.
public struct CertificateTrust: Sendable {
    /// What the chain is checked for (`SecPolicyRef`).
    public enum Policy: Sendable, Hashable {
        /// `SecPolicyCreateSSL(true, host)`: a TLS server certificate (serverAuth, CA/B Forum
        /// profile) valid for `host`, a DNS name or an IP address. The host is whatever name the
        /// certificate must prove, which the caller may override: when connecting by IP to a
        /// server whose certificate names it, or when one certificate serves several domains,
        /// pass the expected name rather than the address dialled. `nil` checks no name (as
        /// Apple's does with a NULL host) — prefer `.basicX509` to say so.
        case ssl(host: String?)
        /// `SecPolicyCreateSSL(false, nil)`: a TLS client certificate (clientAuth).
        case sslClient
        /// `SecPolicyCreateBasicX509()`: the chain only (RFC 5280 path validation), no purpose
        /// and no name. Legitimate for some private PKIs; with a public CA as anchor it accepts
        /// every certificate that CA ever issued.
        case basicX509

        /// The policy `VerificationOptions.kind` names: `.server` → `.ssl(host: host)`,
        /// `.client` → `.sslClient`, `.basic` → `.basicX509`.
        public init(kind: ValidationKind, host: String?) {
            switch kind {
            case .server: self = .ssl(host: host)
            case .client: self = .sslClient
            case .basic: self = .basicX509
            }
        }
    }

    /// The peer's certificates: the leaf first, then any intermediates in any order.
    public var certificates: [Certificate]
    /// All policies must be satisfied (`SecTrustSetPolicies`).
    public var policies: [Policy]
    /// The caller's anchors as set (`SecTrustSetAnchorCertificates`): nil when never set (or
    /// reset with `useSystemAnchors()`, Apple's `SecTrustSetAnchorCertificates(trust, NULL)`),
    /// so the system's anchors are used; an array — even an empty one — once set, which
    /// replaces the system's unless `anchorsOnly` is false. An empty array with `anchorsOnly`
    /// (a bundled root that failed to load, say) trusts nothing: it never falls back to the
    /// system store.
    public var customAnchors: [Certificate]?
    /// The caller's anchors (`SecTrustSetAnchorCertificates`); setting it, even to `[]`, sets
    /// `customAnchors`. Reads `[]` when never set.
    public var anchors: [Certificate] {
        get { customAnchors ?? [] }
        set { customAnchors = newValue }
    }
    /// With anchors set (even to none): trust only them (`true`, Apple's default once anchors
    /// are set) or them plus the system's (`false`). Never set: the system's are used.
    public var anchorsOnly = true

    /// Forgets the caller's anchors: the system's are used again
    /// (`SecTrustSetAnchorCertificates(trust, NULL)`).
    public mutating func useSystemAnchors() { customAnchors = nil }
    /// The system's roots (Sigil's convenience initializer loads `TrustStore.system()`).
    public var systemAnchors: TrustStore
    /// Everything the verification checks besides the purpose and the name, which each
    /// `Policy` sets (`kind`, `host`): the time, the algorithm policy, required extended key
    /// usages and key usages, e-mail addresses, the depth limit, and whatever else
    /// `VerificationOptions` gains. This is the one place options are assembled: the CLI,
    /// `SecurityPolicy`, `ATSReport.evaluate` and SigilNIO's verifiers all evaluate through a
    /// `CertificateTrust`.
    public var requirements: VerificationOptions
    /// Checks one certificate's signature with its issuer's key.
    public var signatureVerifier: any CertificateSignatureVerifier
    /// The work one verification may do, all of it: signature checks (the certificates' and
    /// the revocation data's), candidate visits, name-constraint comparisons and certificate
    /// policy work (`VerificationBudget`). Each policy of `policies` is one verification.
    public var budget = VerificationBudget.standard
    /// Certificate Transparency, checked after the path validated (`CTOptions` in the module
    /// `Sigil`): enforced as Apple does for chains ending at a system anchor, and at a custom
    /// anchor only when CT is required. Nil: not checked.
    public var transparency: (any CertificateTransparencyCheck)? = nil

    /// The verification time, seconds since the Unix epoch (`SecTrustSetVerifyDate`); stored in
    /// `requirements.time`.
    public var time: Double {
        get { requirements.time }
        set { requirements.time = newValue }
    }

    /// RFC 5280 §6.1.1 certificate policy inputs (user-initial-policy-set and the three flags;
    /// the default accepts any policy and requires none); stored in
    /// `requirements.certificatePolicies`.
    public var certificatePolicies: CertificatePolicyOptions {
        get { requirements.certificatePolicies }
        set { requirements.certificatePolicies = newValue }
    }

    /// Algorithm and key requirements; stored in `requirements.algorithms`.
    public var algorithms: AlgorithmPolicy {
        get { requirements.algorithms }
        set { requirements.algorithms = newValue }
    }

    /// An evaluation of `certificates` (leaf first) under `policies` at `time`, with no
    /// caller anchors yet (so `systemAnchors` are used until `anchors` is set, even to `[]`).
    public init(
        certificates: [Certificate], policies: [Policy], time: Double,
        signatureVerifier: any CertificateSignatureVerifier, systemAnchors: TrustStore
    ) {
        self.certificates = certificates
        self.policies = policies
        self.requirements = VerificationOptions(time: time)
        self.signatureVerifier = signatureVerifier
        self.systemAnchors = systemAnchors
    }

    /// An evaluation with exactly `anchors` (the system store is not consulted unless it is in
    /// `anchors`) under `requirements` as a whole: the one policy is the one
    /// `requirements.kind` names with `requirements.host` (`Policy(kind:host:)`), the time is
    /// `requirements.time`. For callers holding `VerificationOptions` (SigilNIO's `.chain`
    /// evaluator and mTLS verifier), so that they too reach the verdict through this evaluator.
    public init(
        certificates: [Certificate], anchors: TrustStore, requirements: VerificationOptions,
        signatureVerifier: any CertificateSignatureVerifier
    ) {
        self.init(
            certificates: certificates, policies: [Policy(kind: requirements.kind, host: requirements.host)],
            time: requirements.time, signatureVerifier: signatureVerifier, systemAnchors: anchors)
        self.requirements = requirements
    }

    /// Replaces the host of every `.ssl` policy (`SecTrustSetPolicies` with a new
    /// `SecPolicyCreateSSL(true, host)`): the host override for connections by IP address or
    /// to a server whose certificate carries another of its names.
    public mutating func overrideHost(_ host: String) {
        policies = policies.map { p in
            if case .ssl = p { return .ssl(host: host) }
            return p
        }
    }

    /// The one anchor rule, Apple's: the system's anchors are used when the caller never set
    /// anchors, or set some (or none) with `anchorsOnly` false. Anchors set — even to an empty
    /// list — with `anchorsOnly` replace the system's. Callers that load the system store
    /// lazily (the CLI) ask this before loading it.
    public static func usesSystemAnchors(customAnchorsSet: Bool, anchorsOnly: Bool) -> Bool {
        !customAnchorsSet || !anchorsOnly
    }

    /// The anchors in force: the caller's (source `.custom`), plus the system's when
    /// `usesSystemAnchors(customAnchorsSet:anchorsOnly:)` says so.
    public var effectiveAnchors: TrustStore {
        var store = TrustStore()
        for a in anchors { store.add(a, source: .custom) }
        if Self.usesSystemAnchors(customAnchorsSet: customAnchors != nil, anchorsOnly: anchorsOnly) {
            store.add(systemAnchors)
        }
        return store
    }

    /// The verdict.
    public struct Evaluation: Sendable {
        /// The `SecTrustResultType` equivalent.
        public let result: TrustResultType
        /// The validated chain, leaf first, anchor last (`SecTrustCopyCertificateChain` after a
        /// successful evaluation); empty when not trusted.
        public let chain: [Certificate]
        /// Where the anchor came from (nil when not trusted).
        public let anchorSource: AnchorSource?
        /// Why not (most important first, `TrustFailure.sortedByRank`); empty when trusted.
        public let failures: [TrustFailure]
        /// The underlying verdict, with what the verification established (`TrustDetails`).
        public let trustResult: TrustResult
        /// The first policy's certificate policy sets (RFC 5280 §6.1); empty when not trusted.
        public var policies: ValidatedPolicies {
            if case .trusted(_, _, let details) = trustResult { return details.policies }
            return ValidatedPolicies()
        }

        /// What Certificate Transparency found (every SCT and the policy's verdict), also when
        /// its verdict made the chain untrusted; nil without `CertificateTrust.transparency`
        /// or when the chain failed for other reasons.
        public internal(set) var transparency: TransparencyDetails? = nil

        /// `result.isTrusted`.
        public var isTrusted: Bool { result.isTrusted }
    }

    /// `SecTrustEvaluate`: every policy must hold (see `verify()`), mapped onto
    /// `TrustResultType`.
    public func evaluate() -> Evaluation {
        let (r, ct) = verifyReportingTransparency()
        var e: Evaluation
        switch r {
        case .trusted(let path, let source, _):
            e = Evaluation(
                result: source == .system ? .unspecified : .proceed, chain: path,
                anchorSource: source, failures: [], trustResult: r)
        case .untrusted(let failures):
            e = Evaluation(
                result: .forFailures(failures), chain: [], anchorSource: nil,
                failures: failures, trustResult: r)
        }
        e.transparency = ct
        return e
    }

    /// The verdict as a `TrustResult`: every policy must hold (no policy = `.basicX509`); the
    /// path reported is the first policy's; the failures of all policies are merged, without
    /// duplicates, and ranked (`TrustFailure.sortedByRank`). No certificate at all is a
    /// `malformedCertificate` failure.
    public func verify() -> TrustResult { verifyReportingTransparency().result }

    /// `verify()` and what `transparency` found (`TrustResult.applyingTransparency`).
    func verifyReportingTransparency() -> (result: TrustResult, transparency: TransparencyDetails?) {
        guard let leaf = certificates.first else {
            return (.untrusted([TrustFailure(.malformedCertificate, at: 0, "no certificate to evaluate")]), nil)
        }
        let policies = self.policies.isEmpty ? [Policy.basicX509] : self.policies
        var verifier = ChainVerifier(anchors: effectiveAnchors, signatureVerifier: signatureVerifier)
        verifier.budget = budget
        let intermediates = Array(certificates.dropFirst())
        var first: TrustResult?
        var failures: [TrustFailure] = []
        for policy in policies {
            let result = verifier.verify(leaf: leaf, intermediates: intermediates, options: options(for: policy))
            if first == nil { first = result }
            for x in result.failures where !failures.contains(x) { failures.append(x) }
        }
        if !failures.isEmpty { return (.untrusted(TrustFailure.sortedByRank(failures)), nil) }
        return first!.applyingTransparency(transparency, at: time)
    }

    /// `requirements` with the purpose and name of `policy`.
    public func options(for policy: Policy) -> VerificationOptions {
        var o = requirements
        switch policy {
        case .ssl(let host):
            o.kind = .server
            o.host = host
        case .sslClient:
            o.kind = .client
            o.host = nil
        case .basicX509:
            o.kind = .basic
            o.host = nil
        }
        return o
    }
}
