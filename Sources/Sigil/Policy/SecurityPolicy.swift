import SigilTrust
import SigilX509

/// AFSecurityPolicy's pinning modes (`AFSSLPinningMode`).
public enum PinningMode: String, Sendable, Hashable, CaseIterable {
    /// Ordinary trust evaluation only.
    case none
    /// The chain must validate with the pinned certificates as its only anchors.
    case certificate
    /// A certificate of the chain must carry a pinned public key.
    case publicKey
}

/// Why a `SecurityPolicy` refused a chain.
public enum SecurityPolicyRejection: String, Sendable, Hashable, CaseIterable {
    /// No certificate was presented.
    case emptyChain
    /// `validatesDomainName` is on but no domain was given (Sigil is stricter than AFNetworking,
    /// which then checks no name: turn `validatesDomainName` off to say so).
    case domainRequired
    /// Clause 1: invalid certificates are allowed and the domain must be validated, but nothing
    /// is pinned ("to validate a domain with a self-signed certificate you must pin").
    case domainValidationNeedsPinning
    /// The ordinary evaluation failed and `allowInvalidCertificates` is off.
    case untrusted
    /// A pinning mode with no pin in force for the domain (fail closed).
    case noPins
    /// Certificate mode: the chain does not validate with the pinned certificates as its only
    /// anchors (dates and host are checked there even with `allowInvalidCertificates`).
    case pinnedEvaluationFailed
    /// No certificate of the matched chain is pinned / carries a pinned key.
    case pinNotFound
    /// `validatesCertificateChain`: some certificate of the matched chain is not pinned.
    case chainNotFullyPinned
}

/// Which certificates the pins were compared with.
public enum MatchedChain: Sendable, Hashable {
    /// The path a successful evaluation built (leaf first, anchor last): what Sigil matches
    /// whenever the chain was evaluated.
    case validatedPath
    /// The certificates as the peer sent them: only in public-key mode with
    /// `allowInvalidCertificates`, where nothing is evaluated (AFNetworking's behaviour).
    case presented
}

/// What the pins were compared with: the failure context of a pin mismatch (and the record of
/// a match), as data rather than text.
public struct PinComparison: Sendable, Hashable {
    /// The pins in force: public-key mode, the domain's pin set or the global key pins;
    /// certificate mode, the keys of the pinned certificates.
    public let pins: [PublicKeyPin]
    /// The keys of the certificates compared (`SecurityPolicyEvaluation.matchedChain`, or the
    /// presented chain when no path was validated), in their order.
    public let chainKeys: [PublicKeyPin]

    /// A comparison of `pins` with `chainKeys`.
    public init(pins: [PublicKeyPin], chainKeys: [PublicKeyPin]) {
        self.pins = pins
        self.chainKeys = chainKeys
    }
}

/// The verdict of `SecurityPolicy.evaluate`.
public struct SecurityPolicyEvaluation: Sendable {
    /// How the chain was judged.
    public enum Outcome: Sendable, Hashable {
        /// Mode none: the chain is valid.
        case trusted
        /// Mode none with `allowInvalidCertificates`: accepted whatever the ordinary evaluation
        /// found; its failures, if any, are in `ordinaryResult` and `warnings`.
        case acceptedWithoutValidation
        /// Certificate or public-key mode: the pins matched.
        case pinMatched
        /// Refused, for the reason given.
        case rejected(SecurityPolicyRejection)
    }

    /// The decision.
    public let outcome: Outcome
    /// The purpose the chain was judged for: `.server(host: domain)` when
    /// `validatesDomainName`, else `.basic`.
    public let policy: VerificationPurpose
    /// The ordinary evaluation against `SecurityPolicy.anchors` (nil when refused before it).
    public let ordinaryResult: TrustResult?
    /// Certificate mode: the re-evaluation with the pinned certificates as the only anchors.
    public let pinnedResult: TrustResult?
    /// What the pins were matched against, and where it came from.
    public let matchedChain: [Certificate]
    /// Where `matchedChain` came from (nil when nothing was matched).
    public let matchedChainSource: MatchedChain?
    /// Indexes into `matchedChain` of the certificates that matched a pin.
    public let matchedIndexes: [Int]
    /// The pins and the keys they were compared with, whenever a pinning mode got as far as
    /// comparing (or found nothing to compare: `noPins`); nil in mode none.
    public let pinComparison: PinComparison?
    /// Things the caller should know even when accepted (allowed-invalid failures, unchecked
    /// domain, expired pin set...).
    public let warnings: [String]
    /// One line saying why.
    public let message: String
    /// The RFC 7469 §3 report of pins in force that failed (public-key mode, enforced or
    /// report-only); nil when they matched or none applied. Also handed to
    /// `SecurityPolicy.pinFailureReporter`.
    public internal(set) var pinFailureReport: PinFailureReport? = nil

    /// True unless rejected.
    public var isTrusted: Bool {
        if case .rejected = outcome { return false }
        return true
    }

    /// Why it was rejected, if it was.
    public var rejection: SecurityPolicyRejection? {
        if case .rejected(let r) = outcome { return r }
        return nil
    }

    /// The trust failures behind the decision (the pinned re-evaluation's when it failed, else
    /// the ordinary evaluation's).
    public var failures: [TrustFailure] {
        if let p = pinnedResult, !p.isTrusted { return p.failures }
        return ordinaryResult?.failures ?? []
    }
}

/// AFNetworking's `AFSecurityPolicy`, on Sigil's evaluator, with the same properties and the
/// decision procedure of its `evaluateServerTrust:forDomain:` — stricter where AFNetworking
/// leaves a gap (see `evaluate(serverChain:domain:at:)` and Docs/SecurityPolicies.md).
public struct SecurityPolicy: Sendable {
    /// `AFSecurityPolicy.SSLPinningMode`.
    public var pinningMode: PinningMode
    /// Pinned certificates (AFNetworking: DER data of `.cer` files). In certificate mode they
    /// are the only anchors of the re-evaluation; in public-key mode their keys are pinned.
    public var pinnedCertificates: [Certificate]
    /// Additional public-key pins (public-key mode), e.g. `PublicKeyPin("sha256/…")`.
    public var pinnedPublicKeys: [PublicKeyPin] = []
    /// Per-domain public-key pins (public-key mode). The most specific unexpired enforced set
    /// that applies to the domain is enforced (`pinSets(for:at:)`), in place of the global pins
    /// (`pinnedPublicKeys` and the keys of `pinnedCertificates`); a report-only or expired set
    /// never lifts pins in force — the global ones stay enforced beside it; when only such sets
    /// apply and there are no global pins, the domain gets the ordinary evaluation (mode none).
    public var pinSets: [PinSet] = []
    /// Accept chains that fail evaluation. For development against self-signed servers only;
    /// see the documentation for what it disables in each mode. Default false.
    public var allowInvalidCertificates = false
    /// Check the domain (SSL policy) or not (basic X.509 policy). Default true.
    public var validatesDomainName = true
    /// AFNetworking 2.x: every certificate of the matched chain must be pinned (certificate
    /// mode) or carry a pinned key (public-key mode). Default false.
    public var validatesCertificateChain = false
    /// Anchors of the ordinary evaluation (AFNetworking: the system's, or whatever the
    /// `SecTrust` was given): they play the part of `CertificateTrust.systemAnchors`, so
    /// `options.customAnchors` with `anchorsOnly` can add to or replace them.
    /// `defaultPolicy()` uses the system store.
    public var anchors: TrustStore
    /// Everything both evaluations take (the one options value, `VerificationOptions`):
    /// algorithms, certificate policies, required usages, depth, revocation, budget, caller
    /// anchors. Its `purpose` and `time` are set by each `evaluate` (the server purpose with
    /// the domain when `validatesDomainName`, else `.basic`; the time given); in certificate
    /// mode the re-evaluation replaces the anchors by the pinned certificates.
    public var options = VerificationOptions(purpose: .server(host: nil), time: 0)
    /// Algorithm and key requirements of both evaluations; stored in `options.algorithms`.
    public var algorithms: AlgorithmPolicy {
        get { options.algorithms }
        set { options.algorithms = newValue }
    }
    /// RFC 5280 §6.1.1 certificate policy inputs of both evaluations; stored in
    /// `options.certificatePolicies`.
    public var certificatePolicies: CertificatePolicyOptions {
        get { options.certificatePolicies }
        set { options.certificatePolicies = newValue }
    }
    /// Checks signatures (Sigil's own by default).
    public var signatureVerifier: any CertificateSignatureVerifier = SigilSignatureVerifier()
    /// Receives the RFC 7469 §3 report (`PinFailureReport`) each time public-key pins in force
    /// fail, enforced or report-only (`PinSet.enforced`); nil: none handed out. Called
    /// synchronously inside `evaluate`: the library does no network I/O, the sink posts, logs or
    /// stores the report (and must not block an event loop).
    public var pinFailureReporter: (@Sendable (PinFailureReport) -> Void)? = nil

    /// Certificate Transparency in the ordinary evaluation (nil: not checked): enforced for a
    /// path ending at an anchor of source `.system` (as `.system()` loads them), and at any
    /// anchor when `CTOptions.required` (see `CTOptions`).
    public var certificateTransparency: CTOptions? = nil
    /// A cache of the ordinary evaluation's trusted verdicts (`VerdictCache`; nil: none). Pins
    /// are checked after it on every evaluation, so they need no part in its key.
    public var verdictCache: VerdictCache? = nil

    /// A policy with `pinningMode`, the `pinnedCertificates`, and the anchors of the ordinary evaluation; the other properties at AFNetworking's defaults.
    public init(pinningMode: PinningMode = .none, pinnedCertificates: [Certificate] = [], anchors: TrustStore) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        self.anchors = anchors
    }

    /// Pinned certificates given as DER data, as AFNetworking takes them.
    public init(pinningMode: PinningMode, pinnedCertificateData: [[UInt8]], anchors: TrustStore) throws(DERError) {
        var certs: [Certificate] = []
        for d in pinnedCertificateData { certs.append(try Certificate(der: d)) }
        self.init(pinningMode: pinningMode, pinnedCertificates: certs, anchors: anchors)
    }

    /// `+defaultPolicy`: no pinning, invalid certificates refused, the domain validated, the
    /// system's anchors (or the ones given).
    public static func defaultPolicy(anchors: TrustStore = .system()) -> SecurityPolicy {
        SecurityPolicy(pinningMode: .none, anchors: anchors)
    }

    /// `+certificatesInBundle:`: every certificate of the `.cer`/`.crt`/`.der`/`.pem` files in a
    /// directory (see `CertificateFiles`); empty when it cannot be read.
    public static func certificates(inDirectory path: String) -> [Certificate] {
        CertificateFiles.load(directory: path)?.certificates ?? []
    }

    /// The global public-key pins: `pinnedPublicKeys` and the keys of `pinnedCertificates`.
    public var globalKeyPins: [PublicKeyPin] {
        var out: [PublicKeyPin] = []
        for p in pinnedCertificates.map(PublicKeyPin.init(certificate:)) + pinnedPublicKeys where !out.contains(p) {
            out.append(p)
        }
        return out
    }

    /// The most specific pin set that applies to `domain`, whatever its state (expired or
    /// report-only sets included). It is not what `evaluate` enforces: a report-only or expired
    /// set for the exact name does not lift an enforced parent set; use `pinSets(for:at:)`.
    @available(*, deprecated, message: "use pinSets(for:at:): an expired or report-only set does not decide alone")
    public func pinSet(for domain: String?) -> PinSet? {
        guard let domain else { return nil }
        return PinSet.mostSpecific(pinSets.filter { $0.applies(to: domain) })
    }

    /// The pin sets that apply to `domain` at `time`, resolved the way `evaluate` uses them.
    ///
    /// RFC 7469: a host is a Known Pinned Host while an unexpired enforced policy applies to it —
    /// its own (congruent match) or a parent domain's with includeSubDomains (superdomain match,
    /// RFC 6797 §8.2, the congruent one taking precedence). A report-only policy is never
    /// enforced (§2.3.2), so it neither pins a host nor unpins one; an expired policy is no
    /// longer noted (§2.3.3). Hence a report-only or expired set for `api.example.com` leaves an
    /// enforced `example.com` set with `includesSubdomains` in force — where TrustKit lets the
    /// most specific entry decide alone, so a mistake in it turns pinning off for the host.
    public func pinSets(for domain: String?, at time: Double) -> ApplicablePinSets {
        guard let domain else { return ApplicablePinSets(enforced: nil, reportOnly: nil, expired: []) }
        let applicable = pinSets.filter { $0.applies(to: domain) }
        let live = applicable.filter { !$0.isExpired(at: time) }
        return ApplicablePinSets(
            enforced: PinSet.mostSpecific(live.filter(\.enforced)),
            reportOnly: PinSet.mostSpecific(live.filter { !$0.enforced }),
            expired: applicable.filter { $0.isExpired(at: time) })
    }

    /// The public-key pins enforced for a domain whose applicable sets are `sets`: the enforced
    /// set's (`set`), else the global key pins (`set` nil) — a report-only or expired set never
    /// lifts pins in force. Empty: nothing is enforced. The one rule `evaluate` and the
    /// pin-failure report both follow.
    func enforcedKeyPins(_ sets: ApplicablePinSets) -> (set: PinSet?, pins: [PublicKeyPin]) {
        if let set = sets.enforced { return (set, set.pins) }
        return (nil, globalKeyPins)
    }

    /// Problems in the configuration itself (no backup pin, the CA-pinning trap, allowing
    /// invalid certificates...), independent of any chain.
    public func configurationWarnings(at time: Double) -> [String] {
        var out: [String] = []
        if allowInvalidCertificates {
            out.append(
                "allowInvalidCertificates is on: chains that fail evaluation are accepted"
                    + (pinningMode == .publicKey
                        ? " and, in public-key mode, nothing is evaluated: the domain, dates and signatures are not checked"
                        : ""))
        }
        if !validatesDomainName {
            out.append("validatesDomainName is off: the server's name is not checked (basic X.509 policy)")
        }
        if !validatesDomainName && pinningMode != .none {
            let cas = pinnedCertificates.filter(\.isCACertificate)
            if !cas.isEmpty && cas.count == pinnedCertificates.count && pinnedPublicKeys.isEmpty && pinSets.isEmpty {
                out.append(
                    "only CA certificates are pinned and the domain is not checked: every certificate these CAs issued to anyone is accepted (pin the leaf or intermediate, or check the domain)"
                )
            }
        }
        if pinningMode != .none && pinnedCertificates.isEmpty
            && (pinningMode == .certificate || (pinnedPublicKeys.isEmpty && pinSets.isEmpty))
        {
            out.append("pinning mode \(pinningMode.rawValue) with nothing pinned: every chain is refused")
        }
        if pinningMode == .none && (!pinnedCertificates.isEmpty || !pinnedPublicKeys.isEmpty || !pinSets.isEmpty) {
            out.append("pins are configured but pinningMode is none: they are not enforced")
        }
        if pinningMode == .certificate && (!pinnedPublicKeys.isEmpty || !pinSets.isEmpty) {
            out.append("public-key pins and pin sets are enforced in publicKey mode only, not in certificate mode")
        }
        if pinningMode == .publicKey {
            for s in pinSets { out += s.warnings(at: time) }
        }
        return out
    }

    /// `evaluateServerTrust:forDomain:` at the current time (the outermost API's default).
    public func evaluate(serverChain: [Certificate], domain: String?) -> SecurityPolicyEvaluation {
        evaluate(serverChain: serverChain, domain: domain, at: WallClock.now())
    }

    /// `evaluateServerTrust:forDomain:`, clause by clause (numbers as in
    /// Docs/SecurityPolicies.md):
    ///
    /// 1. A domain is given, `allowInvalidCertificates` and `validatesDomainName` are on, and
    ///    nothing is pinned (mode none, or no pin in force): refused.
    ///    Sigil: `validatesDomainName` without a domain is refused too (`domainRequired`).
    /// 2. The policy is SSL with the domain when `validatesDomainName`, else basic X.509.
    /// 3. Mode none: accepted when `allowInvalidCertificates`, else when the chain is valid.
    /// 4. A pinning mode: refused when the chain is invalid and invalid certificates are not
    ///    allowed.
    /// 5. Certificate mode: the chain is evaluated again, under the same policy, with the pinned
    ///    certificates as its only anchors (even with `allowInvalidCertificates`); it must be
    ///    valid, and the validated path must contain a pinned certificate (with
    ///    `validatesCertificateChain`: only pinned certificates).
    /// 6. Public-key mode: a certificate of the validated path of step 4 — or, with
    ///    `allowInvalidCertificates`, of the presented chain, nothing else being evaluated: the
    ///    leaf, or a certificate above it that signatures link to the leaf — must carry a pinned
    ///    key (with `validatesCertificateChain`: every one).
    ///
    /// A report-only `PinSet` (`enforced` false) for the domain, with no enforced set applying,
    /// is judged as mode none (so it does not satisfy clause 1 either); its pins are checked and
    /// a failure reported, see
    /// `evaluate(serverChain:domain:port:at:)`.
    public func evaluate(serverChain: [Certificate], domain: String?, at time: Double) -> SecurityPolicyEvaluation {
        evaluate(serverChain: serverChain, domain: domain, port: nil, at: time)
    }

    /// The clauses of `evaluate`, without the pin-failure report (PinReport.swift adds it).
    func evaluateClauses(serverChain: [Certificate], domain: String?, at time: Double) -> SecurityPolicyEvaluation {
        var warnings = configurationWarnings(at: time)
        let policy: VerificationPurpose = validatesDomainName ? .server(host: domain) : .basic
        // The pins in force, for the comparison context (set once the mode is known).
        var pinsInForce: [PublicKeyPin]? = nil
        func done(
            _ outcome: SecurityPolicyEvaluation.Outcome, _ message: String, ordinary: TrustResult? = nil,
            pinned: TrustResult? = nil, chain: [Certificate] = [], source: MatchedChain? = nil,
            matched: [Int] = []
        ) -> SecurityPolicyEvaluation {
            let comparison = pinsInForce.map { pins in
                PinComparison(
                    pins: pins, chainKeys: (chain.isEmpty ? serverChain : chain).map(PublicKeyPin.init(certificate:)))
            }
            return SecurityPolicyEvaluation(
                outcome: outcome, policy: policy, ordinaryResult: ordinary, pinnedResult: pinned,
                matchedChain: chain, matchedChainSource: source, matchedIndexes: matched,
                pinComparison: comparison, warnings: warnings, message: message)
        }
        guard !serverChain.isEmpty else { return done(.rejected(.emptyChain), "no certificate was presented") }

        // Pins in force: certificate mode pins certificates; public-key mode the most specific
        // unexpired enforced pin set for the domain (`pinSets(for:at:)`), else the global key
        // pins: a report-only or expired set never lifts pins in force (RFC 7469 §2.3.2,
        // §2.3.3). With neither, a report-only or expired set alone means mode none.
        var mode = pinningMode
        var keyPins: [PublicKeyPin] = []
        if mode == .publicKey {
            let sets = pinSets(for: domain, at: time)
            keyPins = enforcedKeyPins(sets).pins
            // Report-only (RFC 7469 §2.1 PKP-RO) or expired only: ordinary evaluation decides;
            // report-only pins are checked and reported by `evaluate(serverChain:domain:port:at:)`.
            // An enforced set without pins stays public-key mode: refused as `noPins`.
            if sets.enforced == nil && keyPins.isEmpty && !sets.isEmpty { mode = .none }
            let inForce =
                sets.enforced.map { "the enforced set for \($0.domain) applies" }
                ?? (keyPins.isEmpty ? nil : "the global pins apply")
            for set in sets.expired {
                warnings.append(
                    "the pin set for \(set.domain) has expired: its pins are not enforced"
                        + (inForce.map { "; " + $0 } ?? (sets.reportOnly == nil ? ", ordinary evaluation only" : "")))
            }
            if let set = sets.reportOnly {
                warnings.append(
                    "the pin set for \(set.domain) is report-only: its pins are checked and reported, not enforced"
                        + (inForce.map { "; " + $0 } ?? ""))
            }
        }
        let hasPins = mode == .certificate ? !pinnedCertificates.isEmpty : !keyPins.isEmpty

        // Clause 1.
        if domain != nil && allowInvalidCertificates && validatesDomainName && (mode == .none || !hasPins) {
            return done(
                .rejected(.domainValidationNeedsPinning),
                "to validate a domain while allowing invalid (e.g. self-signed) certificates you must pin")
        }
        if validatesDomainName && domain == nil {
            return done(.rejected(.domainRequired), "validatesDomainName is on but no domain was given")
        }

        // Clause 2: the ordinary evaluation, through the one evaluator (`CertificateTrust`) with
        // the one options value: `anchors` play the part of the system's.
        var evaluationOptions = options
        evaluationOptions.purpose = policy
        evaluationOptions.time = time
        var trust = CertificateTrust(
            certificates: serverChain, options: evaluationOptions, systemAnchors: anchors,
            signatureVerifier: signatureVerifier)
        trust.transparency = certificateTransparency
        trust.verdictCache = verdictCache
        let ordinary = trust.verify()
        if allowInvalidCertificates, case .untrusted(let f) = ordinary {
            warnings.append("allowed invalid chain: " + f.map { $0.description }.joined(separator: "; "))
        }

        if mode == .certificate {
            pinsInForce = pinnedCertificates.map(PublicKeyPin.init(certificate:))
        } else if mode == .publicKey {
            pinsInForce = keyPins
        }

        // Clause 3.
        if mode == .none {
            if allowInvalidCertificates {
                return done(
                    .acceptedWithoutValidation, "accepted without validation (allowInvalidCertificates)",
                    ordinary: ordinary)
            }
            if case .trusted(let path, _, _) = ordinary {
                return done(.trusted, "trusted", ordinary: ordinary, chain: path, source: .validatedPath)
            }
            return done(
                .rejected(.untrusted), "not trusted: " + (ordinary.failures.first?.description ?? "unknown reason"),
                ordinary: ordinary)
        }

        // Clause 4.
        if !ordinary.isTrusted && !allowInvalidCertificates {
            return done(
                .rejected(.untrusted), "not trusted: " + (ordinary.failures.first?.description ?? "unknown reason"),
                ordinary: ordinary)
        }
        if !hasPins {
            return done(
                .rejected(.noPins),
                "pinning mode \(pinningMode.rawValue) but nothing is pinned for \(domain ?? "this connection")",
                ordinary: ordinary)
        }

        if mode == .certificate {
            // Clause 5: the pinned certificates as the only anchors, same policy and time
            // (`hasPins`: there is at least one, so the system's are not added).
            var pinnedTrust = trust
            pinnedTrust.anchors = pinnedCertificates
            pinnedTrust.anchorsOnly = true
            let pinned = pinnedTrust.verify()
            guard case .trusted(let path, _, _) = pinned else {
                return done(
                    .rejected(.pinnedEvaluationFailed),
                    "does not validate to a pinned certificate: "
                        + (pinned.failures.first?.description ?? "unknown reason"),
                    ordinary: ordinary, pinned: pinned)
            }
            let matched = path.indices.filter { pinnedCertificates.contains(path[$0]) }
            if matched.isEmpty {
                return done(
                    .rejected(.pinNotFound), "no pinned certificate in the validated path",
                    ordinary: ordinary, pinned: pinned, chain: path, source: .validatedPath)
            }
            if validatesCertificateChain && matched.count != path.count {
                let first = path.indices.first { !matched.contains($0) }!
                return done(
                    .rejected(.chainNotFullyPinned),
                    "certificate [\(first)] \(path[first].subject.rfc4514String) of the validated path is not pinned",
                    ordinary: ordinary, pinned: pinned, chain: path, source: .validatedPath, matched: matched)
            }
            return done(
                .pinMatched,
                "pinned certificate [\(matched[0])] \(path[matched[0]].subject.rfc4514String) in the validated path",
                ordinary: ordinary, pinned: pinned, chain: path, source: .validatedPath, matched: matched)
        }

        // Clause 6.
        let chain: [Certificate]
        let source: MatchedChain
        if !allowInvalidCertificates, case .trusted(let path, _, _) = ordinary {
            chain = path
            source = .validatedPath
        } else {
            chain = serverChain
            source = .presented
            warnings.append(
                "public-key mode with allowInvalidCertificates: keys matched against the chain as presented, which was not validated (domain, dates and issuers unchecked; a certificate above the leaf counts only when signatures link it to the leaf)"
            )
        }
        // Presented, not validated: only the leaf's key is the peer's own (the handshake proves
        // it); a certificate further up counts only when signatures link it to the leaf — each
        // certificate below it signed with the next one's key. Without this, appending the real
        // server's public certificate to an attacker's leaf matched its pinned key (found by
        // review, 2026-12-04; AFNetworking has the gap; RFC 7469 §2.6 compares the pins with
        // the validated chain). At most `maximumLinkedCertificates` are linked.
        var counted = chain.count
        if source == .presented {
            counted = 1
            while counted < min(chain.count, Self.maximumLinkedCertificates),
                signatureVerifier.verifySignature(of: chain[counted - 1], issuer: chain[counted]) == .valid
            {
                counted += 1
            }
        }
        let pins = Set(keyPins)
        let matched = chain.indices.filter { $0 < counted && pins.contains(PublicKeyPin(certificate: chain[$0])) }
        let what = source == .validatedPath ? "validated path" : "presented chain"
        if matched.isEmpty {
            return done(
                .rejected(.pinNotFound), "no key of the \(what) is pinned", ordinary: ordinary, chain: chain,
                source: source)
        }
        if validatesCertificateChain && matched.count != chain.count {
            let first = chain.indices.first { !matched.contains($0) }!
            return done(
                .rejected(.chainNotFullyPinned),
                "the key of certificate [\(first)] \(chain[first].subject.rfc4514String) of the \(what) is not pinned",
                ordinary: ordinary, chain: chain, source: source, matched: matched)
        }
        // The certificate-mode warning's twin (configurationWarnings): a pinned key that only a
        // CA certificate of the path carries, with the name unchecked, accepts every
        // certificate that CA issued to anyone.
        if !validatesDomainName && matched.allSatisfy({ chain[$0].isCACertificate }) {
            warnings.append(
                "only CA keys matched the pins and the domain is not checked: every certificate these CAs issued to anyone is accepted (pin the leaf's key, or check the domain)"
            )
        }
        return done(
            .pinMatched, "pinned key of [\(matched[0])] \(chain[matched[0]].subject.rfc4514String) in the \(what)",
            ordinary: ordinary, chain: chain, source: source, matched: matched)
    }
}

extension SecurityPolicy {
    /// Public-key mode with `allowInvalidCertificates`: how many certificates of the presented
    /// chain, from the leaf, can be linked by their signatures (the length of a path, RFC 5280
    /// has none but Sigil's verifier stops at 16 certificates too).
    static let maximumLinkedCertificates = 16
}

extension Certificate {
    /// basicConstraints cA is set (a certificate whose extension does not decode counts as not a CA).
    fileprivate var isCACertificate: Bool { ((try? basicConstraints()) ?? nil)?.isCA == true }
}
