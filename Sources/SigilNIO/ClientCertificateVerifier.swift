#if NIO
    import NIOCore
    import NIOSSL
    import Sigil

    /// Judges a client certificate inside a server handshake (mutual TLS): the verification
    /// callback for `NIOSSLServerHandler(context:customVerificationCallbackWithMetadata:)`.
    ///
    /// The client's chain must validate to one of `anchors` (anchors only: the system store is
    /// not used unless you add it to `anchors`) under the client purpose (`VerificationPurpose
    /// .client`: clientAuth extended key usage when the leaf has one, key usage, CA/B profile
    /// where it applies), at the time source's time; then, when the allow-lists are not empty, the
    /// leaf must carry one of `allowedEmails` (subjectAltName rfc822Name, RFC 5280 §4.2.1.6) or have
    /// one of `allowedSubjects` as its subject (RFC 4514 text, e.g. "CN=alice,O=Example").
    ///
    /// The server's `TLSConfiguration` must ask for a certificate: `certificateVerification =
    /// .noHostnameVerification` (or `.fullVerification`); a client that sends none is refused by
    /// NIOSSL before the callback. Use `makeServerHandlers` so the pipeline sees the reason
    /// (it refuses `.none` and `.optionalVerification`, under which a client without a
    /// certificate gets in unverified).
    ///
    /// Session resumption: a client that resumes a TLS session (BoringSSL issues tickets by
    /// default) is not judged again — the callback does not run, and the verdict is the one of
    /// the handshake that made the session. So a client certificate revoked since is accepted
    /// for as long as its ticket lives, and, since swift-nio-ssl sets no session-ID context,
    /// a session made on one listener resumes on another that shares the `NIOSSLContext` —
    /// give each verifier (each allow-list) its own context, and keep ticket lifetimes short
    /// where revocation must apply at once.
    public struct SigilClientCertificateVerifier: Sendable {
        /// The anchors the client's chain must reach; only these count (the evaluation is a
        /// `CertificateTrust` with exactly this store; the system store is not used).
        public var anchors: TrustStore
        /// Accepted e-mail addresses: the leaf passes when one of them matches an rfc822Name of its
        /// subjectAltName (`matchesEmail`: exact local part, case-insensitive domain). Empty, with
        /// `allowedSubjects` empty too: no allow-list, every valid chain is accepted.
        public var allowedEmails: [String] = []
        /// Accepted subjects, compared as strings with the leaf's `subject.rfc4514String` (so in the
        /// order and escaping Sigil renders, e.g. "CN=alice,O=Example"). The leaf passes when it matches
        /// this list or `allowedEmails`.
        public var allowedSubjects: [String] = []
        /// The verification options, the one options value (purpose `.client` by default:
        /// clientAuth, the client profile); `time` is replaced by the time source's value on every
        /// handshake. `anchors` play the part of the system's: with `options.customAnchors` nil (the
        /// default) exactly they are used.
        public var options: VerificationOptions
        /// Checks signatures (Sigil's own by default).
        public var signatureVerifier: any CertificateSignatureVerifier = SigilSignatureVerifier()
        /// Seconds since the Unix epoch (default: now). Called once per handshake.
        public var time: @Sendable () -> Double = { WallClock.now() }
        /// Called with every verdict (accepted or not), on the event loop: must not block.
        public var observer: (@Sendable (SigilTLSVerdict) -> Void)?
        /// Supplies the handshake's extras for `revocationCheck`; swift-nio-ssl exposes none today
        /// (see `HandshakeExtras`); nil → none.
        public var handshakeExtras: (@Sendable () -> HandshakeExtras)?
        /// Runs after the chain validated and passed the allow-lists (revocation); nil → no
        /// revocation checking.
        public var revocationCheck: RevocationHook?
        /// An opt-in cache of trusted verdicts (`VerdictCache`), for a server whose clients
        /// reconnect with the same certificates: a chain already judged trusted under the same
        /// anchors and options (every byte compared, within the validity of what was validated)
        /// is answered without path building or signature checks; the allow-lists and the
        /// revocation hook still run on every handshake. Share one instance between connections.
        /// Nil (the default): no cache. Refusals are never cached.
        public var verdictCache: VerdictCache?

        /// A verifier trusting `anchors` (source `.custom`; duplicates kept once), no allow-list,
        /// the client profile.
        public init(anchors: [Certificate]) {
            var store = TrustStore()
            for a in anchors { store.add(a, source: .custom) }
            self.init(anchors: store)
        }

        /// A verifier trusting the anchors of `anchors`, no allow-list, the client profile
        /// (`VerificationOptions(purpose: .client)`).
        public init(anchors: TrustStore) {
            self.anchors = anchors
            self.options = VerificationOptions(purpose: .client, time: 0)
        }

        /// The verification callback for `NIOSSLServerHandler(context:customVerificationCallbackWithMetadata:)`:
        /// judges the client's chain with `verify(_:)` and completes the promise with the validated
        /// path, or `.failed`. `verdicts` receives the verdict for `SigilTLSErrorHandler`.
        public func makeCallback(verdicts: SigilTLSVerdictBox? = nil) -> NIOSSLCustomVerificationCallbackWithMetadata {
            let me = self
            return { nioChain, promise in
                let verdict = me.verify(nioChain)
                Presented.complete(verdict, nio: nioChain, box: verdicts, observer: me.observer, promise: promise)
            }
        }

        /// A server handler wired to this verifier, and the guard surfacing and enforcing Sigil's
        /// verdict (`SigilTLSErrorHandler`). Throws
        /// `SigilNIOConfigurationError.verificationDisabled(side: .server)` for a context with
        /// `certificateVerification = .none` — such a server asks for no client certificate, so the
        /// verifier would never run and every client would be let in — or `.optionalVerification`
        /// (`.none` with `validatePresentedCertificates`): BoringSSL then accepts a client that
        /// sends no certificate without calling the verifier (SSL_VERIFY_PEER without
        /// FAIL_IF_NO_PEER_CERT), and no verdict is required of a session the callback never saw
        /// (found by review, 2026-12-04).
        public func makeServerHandlers(context: NIOSSLContext) throws -> [ChannelHandler] {
            // Every `.none(_)`: plain `.none` and `.optionalVerification` alike.
            if case .none = context.configuration.certificateVerification {
                throw SigilNIOConfigurationError.verificationDisabled(side: .server)
            }
            let box = SigilTLSVerdictBox()
            let tls = NIOSSLServerHandler(
                context: context, customVerificationCallbackWithMetadata: makeCallback(verdicts: box))
            // A resumed session (TLS ticket) completes without the callback: no verdict required.
            return [tls, SigilTLSErrorHandler(verdicts: box, requiresVerdict: false)]
        }

        /// Judges `chain` (as presented, leaf first) at the time source's time, synchronously; what
        /// the callback does. A certificate that does not parse refuses the chain
        /// (`.malformedCertificate(index:)`); the revocation hook runs last.
        public func verify(_ chain: [NIOSSLCertificate]) -> SigilTLSVerdict {
            let now = time()
            let ders: [[UInt8]]
            switch Presented.der(chain) {
            case .success(let d): ders = d
            case .failure(let e): return SigilTLSVerdict(presented: [], error: e, name: nil, time: now)
            }
            let verdict: SigilTLSVerdict
            if let cached = verifyDER(ders, at: now) {
                verdict = cached
            } else {
                switch Presented.parse(ders) {
                case .failure(let e): return SigilTLSVerdict(presented: [], error: e, name: nil, time: now)
                case .success(let presented): verdict = verify(certificates: presented, at: now)
                }
            }
            return Presented.revocation(revocationCheck, extras: handshakeExtras, verdict: verdict)
        }

        /// With a `VerdictCache`, the verdict straight from the presented DER
        /// (`CertificateTrust.evaluate(der:)`: a chain judged trusted before is answered by
        /// comparing its every byte with the stored one, so a reconnecting client's chain is not
        /// parsed); the allow-lists still run. Nil — the parsing path, which decides and reports
        /// exactly as before — without a cache, with no certificate, or when one does not parse.
        func verifyDER(_ ders: [[UInt8]], at now: Double) -> SigilTLSVerdict? {
            guard let verdictCache, !ders.isEmpty else { return nil }
            var trust = evaluator(at: now, certificates: [])
            trust.verdictCache = verdictCache
            guard let e = try? trust.evaluate(der: ders),
                let presented = Presented.certificates(ders, reusing: e.chain)
            else { return nil }
            return judged(e, presented: presented, at: now)
        }

        /// The one evaluator (`CertificateTrust`), with these anchors and the one options value
        /// (its purpose: `.client` by default) at `now`.
        private func evaluator(at now: Double, certificates: [Certificate]) -> CertificateTrust {
            var o = options
            o.time = now
            return CertificateTrust(
                certificates: certificates, options: o, systemAnchors: anchors, signatureVerifier: signatureVerifier)
        }

        /// Judges parsed certificates (leaf first) at `now` (seconds since the Unix epoch): path
        /// validation to `anchors` with `options`, then the allow-lists (`.notAllowed` when the chain
        /// is valid but the leaf is on neither). Does not run the revocation hook.
        public func verify(certificates presented: [Certificate], at now: Double) -> SigilTLSVerdict {
            guard !presented.isEmpty else {
                return SigilTLSVerdict(
                    presented: [],
                    error: SigilTLSVerificationError(
                        reason: .noCertificate, message: "no client certificate", checkedName: nil), name: nil,
                    time: now)
            }
            var trust = evaluator(at: now, certificates: presented)
            trust.verdictCache = verdictCache
            return judged(trust.evaluate(), presented: presented, at: now)
        }

        /// The verdict for evaluation `e` of `presented`: refused as `e` says, or — trusted — the
        /// allow-lists applied to the leaf.
        private func judged(_ e: CertificateTrust.Evaluation, presented: [Certificate], at now: Double)
            -> SigilTLSVerdict
        {
            guard e.isTrusted, let leaf = presented.first else {
                return SigilTLSVerdict(evaluation: e, presented: presented, name: nil, time: now)
            }
            let r = e.trustResult
            let path = e.chain
            if !allowedEmails.isEmpty || !allowedSubjects.isEmpty {
                let byEmail = allowedEmails.contains { (try? matchesEmail(leaf, $0)) == true }
                let subject = leaf.subject.rfc4514String
                // By the bytes of the RFC 4514 text: String == is canonical equivalence, under
                // which a subject spelt with U+212A KELVIN SIGN (or a decomposed letter) would
                // pass as "CN=Kim" — another name under RFC 5280 §7.1 (review finding).
                let bySubject = allowedSubjects.contains { $0.utf8.elementsEqual(subject.utf8) }
                if !byEmail && !bySubject {
                    return SigilTLSVerdict(
                        presented: presented,
                        error: SigilTLSVerificationError(
                            reason: .notAllowed,
                            message: "client certificate \(subject) is valid but not on the allow-list",
                            checkedName: nil),
                        name: nil, time: now, trust: e, result: r)
                }
            }
            return SigilTLSVerdict(
                presented: presented, path: path, error: nil, name: nil, time: now, trust: e, result: r)
        }
    }
#endif
