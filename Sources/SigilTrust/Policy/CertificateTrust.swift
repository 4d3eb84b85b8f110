import SigilDER
import SigilX509

#if !hasFeature(Embedded)
    import Synchronization
#endif

/// A `SecTrust`-style evaluation: the certificates a peer presented, the policies to judge them
/// by, the anchors, whether only those anchors count, and the verification time; `evaluate()`
/// answers with a `TrustResultType` that maps one-to-one onto `SecTrustResultType`.
///
/// ```swift
/// var trust = CertificateTrust(certificates: presented, policies: [.server(host: "api.example.com")],
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
    /// What the chain is checked for (`SecPolicyRef`): now `VerificationPurpose`, whose
    /// `.server(host:)`, `.client` and `.basic` are Apple's SSL, SSL-client and basic X.509
    /// policies.
    @available(*, deprecated, renamed: "VerificationPurpose")
    public typealias Policy = VerificationPurpose

    /// The peer's certificates: the leaf first, then any intermediates in any order.
    public var certificates: [Certificate]
    /// Everything the verification takes besides the certificates and the system's anchors
    /// (`VerificationOptions`): the caller's anchors, the time, the purpose, required usages,
    /// e-mail addresses, the depth limit, algorithms, certificate policies, revocation and the
    /// budget. The CLI, `SecurityPolicy`, `ATSReport.evaluate` and SigilNIO's verifiers all
    /// evaluate through a `CertificateTrust` holding this one value.
    public var options: VerificationOptions
    /// Purposes beyond `options.purpose` that must hold too (`SecTrustSetPolicies` with
    /// several policies); see `policies`.
    private(set) var additionalPolicies: [VerificationPurpose] = []
    /// All purposes must be satisfied (`SecTrustSetPolicies`): `options.purpose` first, then
    /// any others set here. Setting an empty list sets `.basic` (no purpose: the chain only).
    public var policies: [VerificationPurpose] {
        get { [options.purpose] + additionalPolicies }
        set {
            options.purpose = newValue.first ?? .basic
            additionalPolicies = Array(newValue.dropFirst())
        }
    }
    /// The caller's anchors as set; stored in `options.customAnchors` (nil: never set, the
    /// system's are used; even an empty array replaces them under `anchorsOnly`).
    public var customAnchors: [Certificate]? {
        get { options.customAnchors }
        set { options.customAnchors = newValue }
    }
    /// The caller's anchors (`SecTrustSetAnchorCertificates`); setting it, even to `[]`, sets
    /// `customAnchors`. Reads `[]` when never set. Stored in `options`. Certificates carry no
    /// trust settings: anchors read from OpenSSL `TRUSTED CERTIFICATE` blocks keep theirs only
    /// as a `TrustStore` (`systemAnchors`, with `useSystemAnchors()`; `sigil verify` passes its
    /// `--anchor` files that way).
    public var anchors: [Certificate] {
        get { options.anchors }
        set { options.anchors = newValue }
    }
    /// With anchors set (even to none): trust only them (`true`, Apple's default once anchors
    /// are set) or them plus the system's (`false`). Never set: the system's are used. Stored
    /// in `options.anchorsOnly`.
    public var anchorsOnly: Bool {
        get { options.anchorsOnly }
        set { options.anchorsOnly = newValue }
    }

    /// Forgets the caller's anchors: the system's are used again
    /// (`SecTrustSetAnchorCertificates(trust, NULL)`).
    public mutating func useSystemAnchors() { options.useSystemAnchors() }
    /// The system's roots (Sigil's convenience initializer loads `TrustStore.system()`).
    public var systemAnchors: TrustStore
    /// The options under their former name.
    @available(*, deprecated, renamed: "options")
    public var requirements: VerificationOptions {
        get { options }
        set { options = newValue }
    }
    /// Checks one certificate's signature with its issuer's key.
    public var signatureVerifier: any CertificateSignatureVerifier {
        didSet {
            #if !hasFeature(Embedded)
                statelessVerifierType = VerdictCache.statelessType(of: signatureVerifier)
            #endif
        }
    }
    #if !hasFeature(Embedded)
        /// The merged anchor store of the last evaluation (`anchorsInForce()`), shared by copies.
        private let anchorMemo = AnchorMemo()
        /// The type of `signatureVerifier` when it is a `StatelessSignatureVerifier` (the one
        /// verifier component of a `VerdictCache` key), else nil (evaluations bypass the cache).
        /// Decided whenever the verifier is set, so a cache lookup asks no dynamic cast.
        private(set) var statelessVerifierType: ObjectIdentifier?
    #endif
    /// The work one verification may do, all of it (`VerificationBudget`); each purpose of
    /// `policies` is one verification. Stored in `options.budget`.
    public var budget: VerificationBudget {
        get { options.budget }
        set { options.budget = newValue }
    }
    /// Certificate Transparency, checked after the path validated (`CTOptions` in the module
    /// `Sigil`): enforced as Apple does for chains ending at a system anchor, and at a custom
    /// anchor only when CT is required. Nil: not checked. Applied whatever purpose is
    /// evaluated: setting it is the caller's statement that the leaf is a TLS server's
    /// (SecTrust attaches CT to its SSL server policy only; SigilNIO's server verifier also
    /// evaluates `.basic` when it skips the name). CT can only refuse, never make a chain trusted.
    public var transparency: (any CertificateTransparencyCheck)? = nil
    #if !hasFeature(Embedded)
        /// A cache of trusted verdicts shared by evaluations that see the same chains again
        /// (`VerdictCache`: keyed by every input, bounded by the path's validity). Nil: none.
        public var verdictCache: VerdictCache? = nil
    #endif

    /// The verification time, seconds since the Unix epoch (`SecTrustSetVerifyDate`); stored in
    /// `options.time`.
    public var time: Double {
        get { options.time }
        set { options.time = newValue }
    }

    /// RFC 5280 §6.1.1 certificate policy inputs (user-initial-policy-set and the three flags;
    /// the default accepts any policy and requires none); stored in
    /// `options.certificatePolicies`.
    public var certificatePolicies: CertificatePolicyOptions {
        get { options.certificatePolicies }
        set { options.certificatePolicies = newValue }
    }

    /// Algorithm and key requirements; stored in `options.algorithms`.
    public var algorithms: AlgorithmPolicy {
        get { options.algorithms }
        set { options.algorithms = newValue }
    }

    /// An evaluation of `certificates` (leaf first) under `policies` at `time`, with no
    /// caller anchors yet (so `systemAnchors` are used until `anchors` is set, even to `[]`).
    public init(
        certificates: [Certificate], policies: [VerificationPurpose], time: Double,
        signatureVerifier: any CertificateSignatureVerifier, systemAnchors: TrustStore
    ) {
        self.certificates = certificates
        self.options = VerificationOptions(purpose: policies.first ?? .basic, time: time)
        self.additionalPolicies = Array(policies.dropFirst())
        self.signatureVerifier = signatureVerifier
        self.systemAnchors = systemAnchors
        #if !hasFeature(Embedded)
            self.statelessVerifierType = VerdictCache.statelessType(of: signatureVerifier)
        #endif
    }

    /// An evaluation under `options` as a whole (its purpose, time, anchors, everything), with
    /// `systemAnchors` as the system's anchors (used by the anchor rule: when
    /// `options.customAnchors` is nil, or `anchorsOnly` is false).
    public init(
        certificates: [Certificate], options: VerificationOptions, systemAnchors: TrustStore,
        signatureVerifier: any CertificateSignatureVerifier
    ) {
        self.certificates = certificates
        self.options = options
        self.signatureVerifier = signatureVerifier
        self.systemAnchors = systemAnchors
        #if !hasFeature(Embedded)
            self.statelessVerifierType = VerdictCache.statelessType(of: signatureVerifier)
        #endif
    }

    /// An evaluation with `anchors` as its only anchors (with `requirements.customAnchors` nil,
    /// the default, the system store is not consulted unless it is in `anchors`) under
    /// `requirements` as a whole. For callers holding `VerificationOptions`
    /// and a `TrustStore` of their own.
    @available(*, deprecated, renamed: "init(certificates:options:systemAnchors:signatureVerifier:)")
    public init(
        certificates: [Certificate], anchors: TrustStore, requirements: VerificationOptions,
        signatureVerifier: any CertificateSignatureVerifier
    ) {
        self.init(
            certificates: certificates, options: requirements, systemAnchors: anchors,
            signatureVerifier: signatureVerifier)
    }

    /// Replaces the host of every `.server` purpose (`SecTrustSetPolicies` with a new
    /// `SecPolicyCreateSSL(true, host)`): the host override for connections by IP address or
    /// to a server whose certificate carries another of its names.
    public mutating func overrideHost(_ host: String) {
        policies = policies.map { p in p.isServer ? .server(host: host) : p }
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

    /// `effectiveAnchors` for an evaluation, without rebuilding it each time: with no caller's
    /// anchors it is the system's store itself (or an empty one); otherwise the merged store is
    /// remembered by this trust object and its copies, keyed by the caller's anchors (compared
    /// byte for byte) and the system store's `generation` (replaced by any change to it), so a
    /// changed anchor set never meets a stale store. Merging ≈ 140 system roots into a new
    /// store cost ≈ 65 µs and 160 allocations per evaluation before.
    func anchorsInForce() -> TrustStore {
        let useSystem = Self.usesSystemAnchors(customAnchorsSet: customAnchors != nil, anchorsOnly: anchorsOnly)
        let custom = anchors
        // The same anchors, order, sources and count `effectiveAnchors` builds from them.
        if custom.isEmpty { return useSystem ? systemAnchors : TrustStore() }
        #if !hasFeature(Embedded)
            return anchorMemo.store(custom: custom, system: useSystem ? systemAnchors.generation : nil) {
                effectiveAnchors
            }
        #else
            return effectiveAnchors
        #endif
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
        #if !hasFeature(Embedded)
            if let verdictCache { return verdictCache.evaluate(self) }
        #endif
        return evaluateUncached()
    }

    /// `evaluate()` of the certificates given as DER (leaf first, then any intermediates), in
    /// place of `certificates`, with this value's other inputs. With a `verdictCache`, a chain
    /// evaluated before (byte-identical certificates, identical other inputs, a time inside the
    /// entry's window) is answered without parsing any certificate: the lookup compares the
    /// bytes given with those of the stored chain. Otherwise the certificates are parsed —
    /// the first that does not parse throws its `DERError` — and evaluated.
    public func evaluate(der chain: [[UInt8]]) throws(DERError) -> Evaluation {
        #if !hasFeature(Embedded)
            if let verdictCache { return try verdictCache.evaluate(der: chain, self) }
        #endif
        var t = self
        t.certificates = try CertificateTrust.parse(chain)
        return t.evaluateUncached()
    }

    /// Each of `chain` parsed, in order.
    static func parse(_ chain: [[UInt8]]) throws(DERError) -> [Certificate] {
        var certificates: [Certificate] = []
        certificates.reserveCapacity(chain.count)
        for der in chain { certificates.append(try Certificate(der: der)) }
        return certificates
    }

    /// `evaluate()` without `verdictCache`.
    func evaluateUncached() -> Evaluation {
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

    /// The verdict as a `TrustResult`: every purpose of `policies` must hold; the
    /// path reported is the first policy's; the failures of all policies are merged, without
    /// duplicates, and ranked (`TrustFailure.sortedByRank`). No certificate at all is a
    /// `malformedCertificate` failure.
    public func verify() -> TrustResult {
        #if !hasFeature(Embedded)
            if let verdictCache { return verdictCache.evaluate(self).trustResult }
        #endif
        return verifyReportingTransparency().result
    }

    /// `verify()` and what `transparency` found (`TrustResult.applyingTransparency`).
    func verifyReportingTransparency() -> (result: TrustResult, transparency: TransparencyDetails?) {
        guard let leaf = certificates.first else {
            return (.untrusted([TrustFailure(.malformedCertificate, at: 0, "no certificate to evaluate")]), nil)
        }
        var verifier = ChainVerifier(anchors: anchorsInForce(), signatureVerifier: signatureVerifier)
        verifier.budget = options.budget
        let intermediates = Array(certificates.dropFirst())
        // `options.purpose` first, as is (no copy of the options, no array of policies built),
        // then each additional purpose.
        let first = verifier.verify(leaf: leaf, intermediates: intermediates, options: options)
        if additionalPolicies.isEmpty && first.isTrusted { return first.applyingTransparency(transparency, at: time) }
        var failures: [TrustFailure] = []
        for x in first.failures where !failures.contains(x) { failures.append(x) }
        for policy in additionalPolicies {
            let result = verifier.verify(leaf: leaf, intermediates: intermediates, options: options(for: policy))
            for x in result.failures where !failures.contains(x) { failures.append(x) }
        }
        if !failures.isEmpty { return (.untrusted(TrustFailure.sortedByRank(failures)), nil) }
        return first.applyingTransparency(transparency, at: time)
    }

    /// `options` with the purpose `policy`.
    public func options(for policy: VerificationPurpose) -> VerificationOptions {
        var o = options
        o.purpose = policy
        return o
    }
}

#if !hasFeature(Embedded)
    /// One remembered anchor store (`CertificateTrust.anchorsInForce()`): served only when the
    /// caller's anchors are equal byte for byte and the system store is the same state (the same
    /// `TrustStore.Generation` object, held here so it is never reused for another state).
    final class AnchorMemo: Sendable {
        private struct Entry: Sendable {
            let custom: [Certificate]
            let system: TrustStore.Generation?
            let store: TrustStore
        }
        private let entry = Mutex<Entry?>(nil)

        init() {}

        func store(
            custom: [Certificate], system: TrustStore.Generation?, make: () -> TrustStore
        ) -> TrustStore {
            let hit = entry.withLock { e -> TrustStore? in
                guard let e, e.system === system, e.custom == custom else { return nil }
                return e.store
            }
            if let hit { return hit }
            let made = make()
            entry.withLock { $0 = Entry(custom: custom, system: system, store: made) }
            return made
        }
    }
#endif
