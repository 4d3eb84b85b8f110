#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOSSL
    import Sigil

    /// Judges a server's chain inside a client handshake: the verification callback for
    /// `NIOSSLClientHandler(context:serverHostname:customVerificationCallbackWithMetadata:)`.
    ///
    /// ```swift
    /// var policy = SecurityPolicy(pinningMode: .publicKey, anchors: .system())
    /// policy.pinnedPublicKeys = [PublicKeyPin("sha256/…")!]
    /// let verifier = SigilServerTrustVerifier(policy: policy)
    /// // in the channel initializer:
    /// try channel.pipeline.syncOperations.addHandlers(
    ///     verifier.makeClientHandlers(context: sslContext, serverHostname: "api.example.com"))
    /// ```
    ///
    /// - The name checked is the handler's `serverHostname` unless `hostOverride` is set
    ///   (connecting by IP address, one certificate serving several names). An IP literal given
    ///   as `serverHostname` is checked against the certificate's IP addresses and not sent as SNI.
    ///   With no name at all, a policy that checks the name refuses (fails closed).
    /// - The promise is completed with the validated path (leaf → anchor), never with the chain the
    ///   server sent; `NIOSSLHandler.peerValidatedCertificateChain` returns that path afterwards.
    /// - Everything is loaded before: anchors and pins are values, the callback does no file I/O.
    ///   It runs on the event loop; its cost is bounded by the verification budget
    ///   (`VerificationBudget`: at most 100 signature checks, revocation data included, and 4 096
    ///   candidate visits per evaluation; a `SecurityPolicy` in certificate mode evaluates twice).
    /// - Failures reach the pipeline as `SigilTLSVerificationError` through `SigilTLSErrorHandler`
    ///   (NIOSSL itself only reports a generic handshake failure) and the `observer`.
    /// - Configure the TLS context with `certificateVerification = .noHostnameVerification`: the
    ///   callback replaces BoringSSL's chain verification and Sigil checks the name. With `.none`
    ///   BoringSSL ignores the callback's refusal, so `makeClientHandlers` refuses such a context
    ///   (`SigilNIOConfigurationError.verificationDisabled`), and `SigilTLSErrorHandler` closes a
    ///   hand-wired channel whose verdict was a refusal; with `.fullVerification` NIOSSL checks the SNI name
    ///   (or the IP dialled) against the leaf again after the callback, which contradicts a host
    ///   override — `makeClientHandlers` refuses that combination
    ///   (`SigilNIOConfigurationError.hostnameVerificationConflictsWithOverride`).
    public struct SigilServerTrustVerifier: Sendable {
        /// How the chain is judged.
        public enum Evaluator: Sendable {
            /// AFSecurityPolicy semantics with pins (`SecurityPolicy.evaluate`), the name as domain.
            case securityPolicy(SecurityPolicy)
            /// `SecTrust` semantics: the template's anchors, anchors-only, policies, algorithms and
            /// signature verifier; its `certificates` and `time` are replaced by the presented chain
            /// and the time source, and every `.server` purpose's host by the checked name.
            case certificateTrust(CertificateTrust)
            /// Path validation with the one options value (`VerificationOptions`: purpose, EKUs, key
            /// usage, depth, algorithms, revocation, budget) and these anchors as the system's,
            /// evaluated by `CertificateTrust` (`init(certificates:options:systemAnchors:signatureVerifier:)`);
            /// `time` comes from the time source and, for the server purpose, the host is the
            /// checked name.
            case chain(
                anchors: TrustStore, options: VerificationOptions, signatureVerifier: any CertificateSignatureVerifier)
        }

        /// How the chain is judged (see `Evaluator`).
        public var evaluator: Evaluator {
            didSet { prepared = Prepared(evaluator) }
        }
        /// What every handshake reuses, derived from `evaluator` once (not per handshake).
        private var prepared: Prepared
        /// The name the certificate must prove instead of the handler's server name.
        public var hostOverride: String?
        /// Seconds since the Unix epoch (default: now). Called once per handshake.
        public var time: @Sendable () -> Double = { WallClock.now() }
        /// Called with every verdict (accepted or not), on the event loop: must not block.
        public var observer: (@Sendable (SigilTLSVerdict) -> Void)?
        /// Supplies the stapled OCSP response / TLS-extension SCTs. swift-nio-ssl does not expose
        /// them today (see `HandshakeExtras`); nil → none.
        public var handshakeExtras: (@Sendable () -> HandshakeExtras)?
        /// Runs after the chain validated (revocation); nil → no revocation checking.
        public var revocationCheck: RevocationHook?
        /// Certificate Transparency for every evaluator (nil: the evaluator's own, if any), with
        /// the SCTs of `handshakeExtras` added (`CTOptions.addingDeliveredSCTs`): enforced for a
        /// path ending at a system anchor, and at any anchor when `CTOptions.required`.
        public var certificateTransparency: CTOptions?
        /// An opt-in cache of trusted verdicts (`VerdictCache`), for a client that reconnects to
        /// the same servers: a handshake presenting a chain already judged trusted under the same
        /// anchors, options and name (every byte compared, within the validity of what was
        /// validated) is answered without path building or signature checks. Share one instance
        /// between connections. Nil (the default): the evaluator's own cache, if any
        /// (`SecurityPolicy.verdictCache`, `CertificateTrust.verdictCache`), else none. Refusals
        /// are never cached; with `certificateTransparency` set the cache is bypassed.
        public var verdictCache: VerdictCache?

        /// A verifier with `evaluator`, checking `hostOverride` instead of the handler's server name
        /// when given.
        public init(evaluator: Evaluator, hostOverride: String? = nil) {
            self.evaluator = evaluator
            self.prepared = Prepared(evaluator)
            self.hostOverride = hostOverride
        }

        /// From an AFSecurityPolicy-style policy (anchors, pinning mode, pins, allowInvalid…).
        public init(policy: SecurityPolicy, hostOverride: String? = nil) {
            self.init(evaluator: .securityPolicy(policy), hostOverride: hostOverride)
        }

        /// From a `SecTrust`-style configuration: `anchors`, `anchorsOnly`, `policies` (`.server(host:)`,
        /// `.basic`…), `algorithms`; build it with any certificates (they are replaced).
        public init(trust: CertificateTrust, hostOverride: String? = nil) {
            self.init(evaluator: .certificateTrust(trust), hostOverride: hostOverride)
        }

        /// Anchors only (your company's root, a development server's self-signed certificate):
        /// the server policy, the name checked, the system store not used.
        public init(anchors: [Certificate], hostOverride: String? = nil) {
            var trust = CertificateTrust(certificates: [], policies: [.server(host: nil)], systemAnchors: TrustStore())
            trust.anchors = anchors
            trust.anchorsOnly = true
            self.init(trust: trust, hostOverride: hostOverride)
        }

        /// The name checked for a handler created with `serverHostname`.
        public func checkedName(serverHostname: String?) -> String? { hostOverride ?? serverHostname }

        /// The verification callback for a handler created with `serverHostname` (pass the same
        /// value). `verdicts` receives the verdict for `SigilTLSErrorHandler`. `port` is the
        /// server's port for pin-failure reports (RFC 7469 §3 `port`); nil: the peer's port as
        /// `SigilTLSErrorHandler` recorded it in `verdicts`, else unknown (null in the report).
        public func makeCallback(serverHostname: String?, port: Int? = nil, verdicts: SigilTLSVerdictBox? = nil)
            -> NIOSSLCustomVerificationCallbackWithMetadata
        {
            let name = checkedName(serverHostname: serverHostname)
            let me = self
            return { nioChain, promise in
                let verdict = me.verify(nioChain, name: name, port: port ?? verdicts?.remotePort)
                Presented.complete(verdict, nio: nioChain, box: verdicts, observer: me.observer, promise: promise)
            }
        }

        /// A client handler wired to this verifier and the handler that surfaces Sigil's reason
        /// to the pipeline: add both, in this order. An IP literal as `serverHostname` is checked
        /// (unless overridden) but not sent as SNI. `port`: the server's port for pin-failure
        /// reports (nil: the channel's remote port, read when it becomes active).
        ///
        /// Throws `SigilNIOConfigurationError.verificationDisabled` for a context with
        /// `certificateVerification = .none` or `.optionalVerification` (BoringSSL would complete
        /// the handshake whatever Sigil decided), and `.hostnameVerificationConflictsWithOverride` for `.fullVerification` with a
        /// host override.
        public func makeClientHandlers(context: NIOSSLContext, serverHostname: String?, port: Int? = nil) throws
            -> [ChannelHandler]
        {
            // Read once: `configuration` is a large value (copied on every read).
            let verification = context.configuration.certificateVerification
            // Every `.none(_)`, `.optionalVerification` included: Sigil's verdict must decide.
            if case .none = verification {
                throw SigilNIOConfigurationError.verificationDisabled(side: .client)
            }
            if verification == .fullVerification, let override = hostOverride, override != serverHostname {
                throw SigilNIOConfigurationError.hostnameVerificationConflictsWithOverride(override)
            }
            let box = SigilTLSVerdictBox()
            let sni = serverHostname.flatMap { SigilNIO.isIPAddress($0) ? nil : $0 }
            let tls = try NIOSSLClientHandler(
                context: context, serverHostname: sni,
                customVerificationCallbackWithMetadata: makeCallback(
                    serverHostname: serverHostname, port: port, verdicts: box))
            return [tls, SigilTLSErrorHandler(verdicts: box, requiresVerdict: true)]
        }

        /// Judges `chain` (as presented) for `name`, synchronously; what the callback does. `port`
        /// goes into a `SecurityPolicy`'s pin-failure report (RFC 7469 §3; nil: null).
        public func verify(_ chain: [NIOSSLCertificate], name: String?, port: Int? = nil) -> SigilTLSVerdict {
            let now = time()
            let ders: [[UInt8]]
            switch Presented.der(chain) {
            case .success(let d): ders = d
            case .failure(let e):
                return SigilTLSVerdict(presented: [], error: e.withName(name), name: name, time: now)
            }
            let extras = certificateTransparency == nil ? nil : handshakeExtras?()
            let verdict: SigilTLSVerdict
            if let cached = verifyDER(ders, name: name, at: now, extras: extras) {
                verdict = cached
            } else {
                switch Presented.parse(ders) {
                case .success(let presented):
                    verdict = verify(certificates: presented, name: name, port: port, at: now, extras: extras)
                case .failure(let e):
                    return SigilTLSVerdict(presented: [], error: e.withName(name), name: name, time: now)
                }
            }
            return Presented.revocation(revocationCheck, extras: handshakeExtras, verdict: verdict)
        }

        /// The verdict straight from the presented DER when a `VerdictCache` is in force for a
        /// `CertificateTrust` evaluator (`.certificateTrust`, `.chain`): `CertificateTrust.evaluate(der:)`
        /// answers a chain judged trusted before by comparing its every byte with the stored one,
        /// so a hit parses no certificate (the presented chain is then read off the validated
        /// path, byte-identical). Nil — take the parsing path, which decides and reports exactly
        /// as before — for any other evaluator, without a cache, with no certificate or no name to
        /// check, and when a certificate does not parse (that path names which one).
        func verifyDER(_ ders: [[UInt8]], name: String?, at now: Double, extras: HandshakeExtras?)
            -> SigilTLSVerdict?
        {
            // Decided before preparing anything: without a cache this path costs nothing.
            guard verdictCache != nil || prepared.templateHasCache, !ders.isEmpty,
                var trust = preparedTrust(for: name, at: now, ct: transparency(extras)),
                trust.verdictCache != nil,
                let e = try? trust.evaluate(der: ders),
                let presented = Presented.certificates(ders, reusing: e.chain)
            else { return nil }
            return SigilTLSVerdict(evaluation: e, presented: presented, name: name, time: now)
        }

        /// The `CertificateTrust` a `.certificateTrust` or `.chain` evaluator judges with for
        /// `name` at `now` (CT options and the verifier's `verdictCache` applied as each evaluator
        /// does); nil for `.securityPolicy` and when the policy checks the name and there is none.
        private func preparedTrust(for name: String?, at now: Double, ct: CTOptions?) -> CertificateTrust? {
            guard var trust = prepared.trust(for: name) else { return nil }
            trust.time = now
            switch evaluator {
            case .securityPolicy: return nil
            case .certificateTrust:
                if let ct { trust.transparency = ct }
                if let verdictCache { trust.verdictCache = verdictCache }
            case .chain:
                trust.transparency = ct
                trust.verdictCache = verdictCache
            }
            return trust
        }

        /// Judges parsed certificates (leaf first) for `name` at `time`; `extras` supply the SCTs
        /// a handshake delivered to `certificateTransparency`; `port` goes into a
        /// `SecurityPolicy`'s pin-failure report (RFC 7469 §3; nil: null).
        public func verify(
            certificates presented: [Certificate], name: String?, port: Int? = nil, at now: Double,
            extras: HandshakeExtras? = nil
        ) -> SigilTLSVerdict {
            let ct = transparency(extras)
            guard !presented.isEmpty else {
                return SigilTLSVerdict(
                    presented: [],
                    error: SigilTLSVerificationError(
                        reason: .noCertificate,
                        failures: [TrustFailure(.malformedCertificate, at: 0, "no certificate was presented")],
                        message: "no certificate was presented", checkedName: name), name: name, time: now)
            }
            switch evaluator {
            case .securityPolicy(var policy):
                if let ct { policy.certificateTransparency = ct }
                if let verdictCache { policy.verdictCache = verdictCache }
                let e = policy.evaluate(serverChain: presented, domain: name, port: port, at: now)
                // Only a path Sigil validated is handed on; accepted without validation
                // (allowInvalidCertificates) → no validated chain at all.
                let path = e.isTrusted && e.matchedChainSource == .validatedPath ? e.matchedChain : []
                return SigilTLSVerdict(
                    presented: presented, path: path, error: Self.error(for: e, name: name),
                    warnings: e.warnings, name: name, time: now, policy: e)
            case .certificateTrust, .chain:
                // `.certificateTrust`: the template with its anchors gathered once (`Prepared`) and
                // the host set for `name` (kept for the last name: a client reconnecting to one
                // server parses it once). `.chain`: the one evaluator (`CertificateTrust`), with
                // exactly these anchors and options (`Prepared`: built once, the server purpose's
                // host set for `name`).
                guard var trust = preparedTrust(for: name, at: now, ct: ct) else {
                    let what: String
                    if case .chain = evaluator { what = "the server purpose" } else { what = "the policy" }
                    return .nameRequired(presented: presented, time: now, what: what)
                }
                trust.certificates = presented
                return SigilTLSVerdict(evaluation: trust.evaluate(), presented: presented, name: name, time: now)
            }
        }

        /// The error for a `SecurityPolicy` verdict (nil when accepted).
        static func error(for e: SecurityPolicyEvaluation, name: String?) -> SigilTLSVerificationError? {
            guard let r = e.rejection else { return nil }
            let failures = e.failures
            let reason: SigilTLSVerificationError.Reason
            switch r {
            case .emptyChain: reason = .noCertificate
            case .untrusted: reason = .notTrusted(failures.first?.kind ?? .unknownIssuer)
            case .domainRequired, .domainValidationNeedsPinning: reason = .policy(r)
            case .noPins, .pinNotFound, .chainNotFullyPinned: reason = .pinMismatch(r)
            case .pinnedEvaluationFailed:
                // The path does not reach a pinned certificate (a pin mismatch), unless the pinned
                // re-evaluation failed for another reason (with allowInvalidCertificates the ordinary
                // evaluation may have failed too: expired, wrong host...).
                if let k = failures.first?.kind, k != .unknownIssuer && k != .untrustedRoot {
                    reason = .notTrusted(k)
                } else {
                    reason = .pinMismatch(r)
                }
            }
            return SigilTLSVerificationError(
                reason: reason, failures: failures, message: e.message, checkedName: name,
                pinComparison: e.pinComparison)
        }
    }

    /// A TLS configuration that cannot work with the verifier.
    public enum SigilNIOConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `certificateVerification = .fullVerification` makes NIOSSL check the SNI name / the IP
        /// dialled after Sigil's callback, which a host override contradicts: use
        /// `.noHostnameVerification` (Sigil checks the name).
        case hostnameVerificationConflictsWithOverride(String)
        /// `certificateVerification = .none` (or `.optionalVerification`, a `.none` too): on a
        /// client BoringSSL completes the handshake whatever the verification callback decides;
        /// on a server it asks for no client certificate at all (or, optional, admits a client
        /// that sends none without calling the callback). Use `.noHostnameVerification`.
        case verificationDisabled(side: Side)

        /// Which end of the connection a configuration is for.
        public enum Side: String, Sendable, Hashable {
            /// `makeClientHandlers` (the server's chain is judged).
            case client
            /// `makeServerHandlers` (the client's certificate is judged).
            case server
        }

        /// One line saying what to change.
        public var description: String {
            switch self {
            case .verificationDisabled(.client):
                return
                    "certificateVerification = .none / .optionalVerification: NIOSSL would complete the handshake whatever Sigil decides; set certificateVerification = .noHostnameVerification (Sigil checks the chain and the name)"
            case .verificationDisabled(.server):
                return
                    "certificateVerification = .none / .optionalVerification: the server would admit a client without a certificate and Sigil's verifier would not run; set certificateVerification = .noHostnameVerification"
            case .hostnameVerificationConflictsWithOverride(let h):
                return
                    "host override \(h) with certificateVerification = .fullVerification: NIOSSL would check the SNI name / IP again; use .noHostnameVerification (Sigil checks the name)"
            }
        }
    }

    extension SigilServerTrustVerifier {
        /// What every handshake of a `.certificateTrust` or `.chain` evaluator reuses: the
        /// `CertificateTrust` template (for `.chain`: the anchors as the system's, the options as
        /// they are) with the anchors in force gathered into one `TrustStore` once (`CertificateTrust.effectiveAnchors`
        /// computes each anchor's facts again on every evaluation otherwise: ≈ 4 µs a handshake in
        /// the TLS benchmark's profile), and the template with the host set for the last name
        /// checked. The anchors in force are the same set (each keeps its source, so `.proceed` /
        /// `.unspecified` and Certificate Transparency's system-anchor rule are unchanged):
        /// `customAnchors` nil with `systemAnchors` = the effective store is, by the anchor rule
        /// (`CertificateTrust.usesSystemAnchors`), exactly that store.
        final class Prepared: Sendable {
            let template: CertificateTrust?
            let checksName: Bool
            /// The template carries its own `verdictCache` (read once, not by copying the template
            /// on every handshake).
            let templateHasCache: Bool
            private let last = NIOLockedValueBox<(name: String, trust: CertificateTrust)?>(nil)

            init(_ evaluator: Evaluator) {
                var trust: CertificateTrust
                switch evaluator {
                case .securityPolicy:
                    template = nil
                    checksName = false
                    templateHasCache = false
                    return
                case .certificateTrust(let t):
                    trust = t
                case .chain(let anchors, let options, let signatureVerifier):
                    trust = CertificateTrust(
                        certificates: [], options: options, systemAnchors: anchors, signatureVerifier: signatureVerifier
                    )
                }
                let anchors = trust.effectiveAnchors
                trust.useSystemAnchors()
                trust.systemAnchors = anchors
                template = trust
                checksName = trust.policies.contains { $0.isServer }
                templateHasCache = trust.verdictCache != nil
            }

            /// The template for `name` (every `.server` purpose's host replaced); nil when the
            /// policy checks the name and there is none (fail closed).
            func trust(for name: String?) -> CertificateTrust? {
                guard let template else { return nil }
                guard checksName else { return template }
                guard let name else { return nil }
                // By the bytes: String == is canonical equivalence ("\u{212A}" == "K"), and the
                // name check reads bytes, so a memo keyed by String would check another name.
                if let hit = last.withLockedValue({
                    $0.flatMap { $0.name.utf8.elementsEqual(name.utf8) ? $0.trust : nil }
                }) {
                    return hit
                }
                var t = template
                t.overrideHost(name)
                last.withLockedValue { $0 = (name, t) }
                return t
            }
        }
    }

    extension SigilTLSVerificationError {
        func withName(_ name: String?) -> SigilTLSVerificationError {
            SigilTLSVerificationError(
                reason: reason, failures: failures, message: message, checkedName: name, pinComparison: pinComparison)
        }
    }
#endif
