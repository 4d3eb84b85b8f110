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
    }

    /// The peer's certificates: the leaf first, then any intermediates in any order.
    public var certificates: [Certificate]
    /// All policies must be satisfied (`SecTrustSetPolicies`).
    public var policies: [Policy]
    /// The caller's anchors (`SecTrustSetAnchorCertificates`).
    public var anchors: [Certificate] = []
    /// With anchors set: trust only them (`true`, Apple's default once anchors are set) or them
    /// plus the system's (`false`). Without anchors, the system's are always used.
    public var anchorsOnly = true
    /// The system's roots (Sigil's convenience initializer loads `TrustStore.system()`).
    public var systemAnchors: TrustStore
    /// The verification time, seconds since the Unix epoch (`SecTrustSetVerifyDate`).
    public var time: Double
    /// Algorithm and key requirements.
    public var algorithms: AlgorithmPolicy = .standard
    /// RFC 5280 §6.1.1 certificate policy inputs (user-initial-policy-set and the three flags;
    /// the default accepts any policy and requires none).
    public var certificatePolicies = CertificatePolicyOptions()
    public var signatureVerifier: any CertificateSignatureVerifier

    public init(certificates: [Certificate], policies: [Policy], time: Double,
                signatureVerifier: any CertificateSignatureVerifier, systemAnchors: TrustStore) {
        self.certificates = certificates
        self.policies = policies
        self.time = time
        self.signatureVerifier = signatureVerifier
        self.systemAnchors = systemAnchors
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

    /// The anchors in force: the caller's (source `.custom`), plus the system's when there are
    /// none or `anchorsOnly` is false.
    public var effectiveAnchors: TrustStore {
        var store = TrustStore()
        for a in anchors { store.add(a, source: .custom) }
        if anchors.isEmpty || !anchorsOnly { store.add(systemAnchors) }
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
        /// Why not (most important first); empty when trusted.
        public let failures: [TrustFailure]
        /// The first policy's certificate policy sets (RFC 5280 §6.1); empty when not trusted.
        public var policies = ValidatedPolicies()

        public var isTrusted: Bool { result.isTrusted }
    }

    /// `SecTrustEvaluate`: every policy must hold; the chain reported is the first policy's.
    public func evaluate() -> Evaluation {
        guard let leaf = certificates.first else {
            return Evaluation(result: .fatalTrustFailure, chain: [], anchorSource: nil,
                              failures: [TrustFailure(.malformedCertificate, at: 0, "no certificate to evaluate")])
        }
        let policies = self.policies.isEmpty ? [Policy.basicX509] : self.policies
        let verifier = ChainVerifier(anchors: effectiveAnchors, signatureVerifier: signatureVerifier)
        var chain: [Certificate] = []
        var source: AnchorSource?
        var sets = ValidatedPolicies()
        var failures: [TrustFailure] = []
        for (i, policy) in policies.enumerated() {
            let result = verifier.verify(leaf: leaf, intermediates: Array(certificates.dropFirst()),
                                         options: options(for: policy))
            switch result {
            case .trusted(let path, let anchor, let details):
                if i == 0 { chain = path; source = anchor; sets = details.policies }
            case .untrusted(let f):
                for x in f where !failures.contains(x) { failures.append(x) }
            }
        }
        if !failures.isEmpty {
            return Evaluation(result: .forFailures(failures), chain: [], anchorSource: nil, failures: failures)
        }
        return Evaluation(result: source == .system ? .unspecified : .proceed, chain: chain,
                          anchorSource: source, failures: [], policies: sets)
    }

    func options(for policy: Policy) -> VerificationOptions {
        var o: VerificationOptions
        switch policy {
        case .ssl(let host): o = VerificationOptions(kind: .server, time: time, host: host)
        case .sslClient: o = VerificationOptions(kind: .client, time: time)
        case .basicX509: o = VerificationOptions(kind: .basic, time: time)
        }
        o.algorithms = algorithms
        o.certificatePolicies = certificatePolicies
        return o
    }
}
