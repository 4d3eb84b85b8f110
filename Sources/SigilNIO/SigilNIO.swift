// SigilNIO: Sigil's verification inside a swift-nio-ssl handshake.
//
// Built only with the package trait `NIO` (`swift build --traits NIO`): without it this module
// is empty, so the plain `swift build` never compiles BoringSSL. `SigilNIO.isAvailable` says
// which build this is.
#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOSSL
    import NIOTLS
    import Sigil

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Facts about this build of the module.
    public enum SigilNIO {
        /// True when the module was built with the `NIO` trait.
        public static let isAvailable = true
    }

    // MARK: - Verdicts and errors

    /// Why a handshake's certificate verification failed, as the pipeline sees it (fired through
    /// `errorCaught` by `SigilTLSErrorHandler` in place of NIOSSL's generic handshake error) and as
    /// the observer receives it. A pin mismatch, an expired certificate and a wrong host are
    /// different `reason`s.
    public struct SigilTLSVerificationError: Error, Sendable, CustomStringConvertible {
        /// What kind of refusal this is.
        public enum Reason: Sendable, Hashable {
            /// The peer presented no certificate.
            case noCertificate
            /// Presented certificate `index` (0 = leaf, in the order sent) could not be parsed.
            case malformedCertificate(index: Int)
            /// The chain is not trusted; the associated value is the most important (highest
            /// ranked) reason, e.g. `.expired`, `.nameMismatch`, `.unknownIssuer`.
            case notTrusted(TrustFailureKind)
            /// A `SecurityPolicy` in a pinning mode refused the chain because of its pins (no pin in
            /// the validated path, the path does not reach a pinned certificate, not every
            /// certificate pinned, or nothing pinned for this domain).
            case pinMismatch(SecurityPolicyRejection)
            /// The configuration cannot decide for this connection (no name to check, domain
            /// validation with invalid certificates allowed but nothing pinned).
            case policy(SecurityPolicyRejection)
            /// mTLS: the client certificate is valid but not on the e-mail / subject allow-list.
            case notAllowed
            /// The revocation hook refused the chain.
            case revoked
            /// The handshake completed without Sigil's verification callback having run (a TLS
            /// context with `certificateVerification = .none`): refused by `SigilTLSErrorHandler`.
            case verificationNotRun
        }

        /// What kind of refusal this is.
        public let reason: Reason
        /// Sigil's ranked reasons (most important first); empty for pin, policy and allow-list
        /// decisions taken on a valid chain.
        public let failures: [TrustFailure]
        /// One line.
        public let message: String
        /// The name the certificate had to prove (server verification), nil for mTLS.
        public let checkedName: String?
        /// A `SecurityPolicy` refusal: the pins in force and the keys they were compared with
        /// (the context of a `.pinMismatch`), nil otherwise.
        public let pinComparison: PinComparison?

        /// An error with its reason, the ranked failures (most important first), a one-line
        /// message, the name that was checked and, for a security policy's refusal, the pin
        /// comparison.
        public init(
            reason: Reason, failures: [TrustFailure] = [], message: String, checkedName: String?,
            pinComparison: PinComparison? = nil
        ) {
            self.reason = reason
            self.failures = failures
            self.message = message
            self.checkedName = checkedName
            self.pinComparison = pinComparison
        }

        /// True for every refusal caused by the pins rather than by the chain itself.
        public var isPinMismatch: Bool {
            if case .pinMismatch = reason { return true }
            return false
        }

        /// The highest-ranked trust failure, if the chain itself failed.
        public var primaryFailure: TrustFailureKind? { failures.first?.kind }

        /// What the highest-ranked trust failure concerns, as data (the expired certificate's
        /// dates and the time, the name checked and the names presented, the revocation status,
        /// the budget limit), to format from instead of parsing `message`.
        public var primaryContext: TrustFailure.Context? { failures.first?.context }

        /// "certificate verification failed: " followed by `message`.
        public var description: String { "certificate verification failed: \(message)" }
    }

    /// What one verification decided, for the observer (logging, metrics) and for callers that
    /// want to print a report (the `sigil` CLI does).
    public struct SigilTLSVerdict: Sendable {
        /// The certificates as the peer sent them (leaf first); parse failures are left out.
        public let presentedChain: [Certificate]
        /// The path that was validated, leaf first, anchor last — what the promise was completed
        /// with. Empty when refused, and when accepted without validation (`allowInvalidCertificates`).
        public let validatedPath: [Certificate]
        /// Why the chain was refused; nil when accepted.
        public let error: SigilTLSVerificationError?
        /// Warnings worth logging even when accepted.
        public let warnings: [String]
        /// The name checked (server verification).
        public let checkedName: String?
        /// The time the chain was judged at (seconds since the Unix epoch).
        public let time: Double
        /// Set by the `SecurityPolicy` evaluator.
        public let policyEvaluation: SecurityPolicyEvaluation?
        /// Set by the `CertificateTrust` and chain evaluators and the mTLS verifier (all three
        /// evaluate through `CertificateTrust`).
        public let trustEvaluation: CertificateTrust.Evaluation?
        /// Set by the `CertificateTrust` and chain (`VerificationOptions`) evaluators and the mTLS verifier.
        public let trustResult: TrustResult?

        /// True when the handshake was allowed to continue (`error` is nil).
        public var accepted: Bool { error == nil }
    }

    /// Data a TLS stack can deliver besides the chain. swift-nio-ssl (2.37) exposes neither the
    /// stapled OCSP response (status_request) nor SCTs from the TLS extension
    /// (signed_certificate_timestamp) to a verification callback: both are nil today. The fields
    /// exist so the revocation work and Certificate Transparency
    /// (`SigilServerTrustVerifier.certificateTransparency`) get them through `HandshakeExtras`
    /// providers once a stack delivers them.
    public struct HandshakeExtras: Sendable {
        /// DER OCSPResponse stapled by the server (RFC 6066 §8), if the stack exposed it.
        public var stapledOCSPResponse: [UInt8]?
        /// SignedCertificateTimestampList from the TLS extension (RFC 6962 §3.3), if exposed.
        public var signedCertificateTimestamps: [UInt8]?
        /// Extras as a stack delivered them (nil: not delivered).
        public init(stapledOCSPResponse: [UInt8]? = nil, signedCertificateTimestamps: [UInt8]? = nil) {
            self.stapledOCSPResponse = stapledOCSPResponse
            self.signedCertificateTimestamps = signedCertificateTimestamps
        }
    }

    /// The revocation hook's answer.
    public enum RevocationDecision: Sendable, Hashable {
        /// The chain may be used.
        case accept
        /// Refuse the handshake; the text becomes the `SigilTLSVerificationError` message, with
        /// reason `.revoked`.
        case reject(String)
    }

    /// A check run after the chain validated (the validated path, leaf first; the handshake
    /// extras; the verification time). Must not block: it runs on the event loop, inside the
    /// handshake. Where the revocation work (OCSP, CRL, stapling) plugs in.
    public typealias RevocationHook =
        @Sendable (_ validatedPath: [Certificate], _ extras: HandshakeExtras, _ time: Double) -> RevocationDecision

    /// One connection's last verdict, shared by the verification callback and `SigilTLSErrorHandler`
    /// (so the pipeline sees Sigil's reason, not only NIOSSL's `handshakeFailed`).
    public final class SigilTLSVerdictBox: Sendable {
        private struct State {
            var verdict: SigilTLSVerdict?
            var remotePort: Int?
        }
        private let box = NIOLockedValueBox(State())
        /// An empty box.
        public init() {}
        /// The last verdict recorded for the connection (nil before the verification callback ran).
        public var verdict: SigilTLSVerdict? { box.withLockedValue { $0.verdict } }
        /// The peer's TCP port, recorded by `SigilTLSErrorHandler` when the channel became active
        /// (before the handshake's verification callback runs); nil when unknown (a Unix socket,
        /// a hand-wired pipeline without the guard). Reported as `port` in RFC 7469 §3 pin-failure
        /// reports when the caller gave none.
        public var remotePort: Int? { box.withLockedValue { $0.remotePort } }
        func record(_ v: SigilTLSVerdict) { box.withLockedValue { $0.verdict = v } }
        func recordRemotePort(_ port: Int?) {
            guard let port else { return }
            box.withLockedValue { if $0.remotePort == nil { $0.remotePort = port } }
        }
    }

    /// The guard placed right after the NIOSSL handler (the `make…Handlers` functions return
    /// both). It does two things:
    ///
    /// - It replaces NIOSSL's generic handshake error by the `SigilTLSVerificationError` recorded
    ///   for this connection when Sigil refused the peer's certificates.
    /// - It enforces Sigil's verdict whatever NIOSSL did with it. With `certificateVerification =
    ///   .none` BoringSSL completes the handshake even when the verification callback refused the
    ///   chain (`SSL_VERIFY_NONE` makes a callback failure non-fatal). So until the handshake has
    ///   completed with an accepted verdict, the guard holds every outbound write and flush; when
    ///   the handshake completes after a refusal (or, with `requiresVerdict`, with no verdict at
    ///   all), it fails the held writes, drops inbound data, fires the `SigilTLSVerificationError`
    ///   and closes the channel — before any application data crosses in either direction.
    ///
    /// Handlers added after it (the application's) are protected; handlers placed between NIOSSL
    /// and the guard are not.
    public final class SigilTLSErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
        /// Passes every inbound message through untouched once the peer is accepted.
        public typealias InboundIn = NIOAny
        /// What is passed on inbound.
        public typealias InboundOut = NIOAny
        /// Outbound messages, held until the peer is accepted.
        public typealias OutboundIn = NIOAny
        /// What is passed on outbound.
        public typealias OutboundOut = NIOAny

        /// The box the verification callback records the connection's verdict in.
        public let verdicts: SigilTLSVerdictBox
        /// Close the channel when the handshake completes with no verdict recorded (the
        /// verification callback never ran). True for client connections (swift-nio-ssl clients
        /// never resume a session, so every handshake runs the callback); false for servers,
        /// where a resumed session (TLS session ticket) legitimately completes without running
        /// the callback again.
        public let requiresVerdict: Bool

        private enum State {
            case handshaking
            case accepted
            case refused
        }
        private var state = State.handshaking
        private var heldWrites: [(NIOAny, EventLoopPromise<Void>?)] = []
        private var heldFlush = false

        /// A guard reading the verdict from `verdicts` (share the box with the callback).
        /// `requiresVerdict`: see the property (default true: a client connection).
        public init(verdicts: SigilTLSVerdictBox, requiresVerdict: Bool = true) {
            self.verdicts = verdicts
            self.requiresVerdict = requiresVerdict
        }

        /// The refusal in force for this connection, if any: Sigil's recorded refusal, or (with
        /// `requiresVerdict`) the absence of any verdict.
        private func refusal() -> SigilTLSVerificationError? {
            if let v = verdicts.verdict { return v.error }
            guard requiresVerdict else { return nil }
            return SigilTLSVerificationError(
                reason: .verificationNotRun, failures: [],
                message:
                    "the handshake completed but Sigil's verification callback never ran (certificateVerification = .none?); use .noHostnameVerification",
                checkedName: nil)
        }

        /// Accepts the peer or closes the channel when NIOSSL reports the handshake complete.
        public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if state == .handshaking, let e = event as? TLSUserEvent, case .handshakeCompleted = e {
                if let error = refusal() {
                    refuse(context: context, error)
                    return  // the application never sees a completed handshake
                }
                state = .accepted
                context.fireUserInboundEventTriggered(event)
                releaseHeldWrites(context: context)
                return
            }
            context.fireUserInboundEventTriggered(event)
        }

        /// Inbound data is dropped after a refusal.
        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if state == .refused { return }
            context.fireChannelRead(data)
        }

        /// Fires the recorded `SigilTLSVerificationError` in place of any other error when Sigil
        /// refused the peer's certificates; otherwise passes `error` on unchanged.
        public func errorCaught(context: ChannelHandlerContext, error: Error) {
            if !(error is SigilTLSVerificationError), let e = verdicts.verdict?.error {
                context.fireErrorCaught(e)
            } else {
                context.fireErrorCaught(error)
            }
        }

        /// Held until the handshake completed with an accepted verdict; failed after a refusal.
        public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch state {
            case .accepted: context.write(data, promise: promise)
            case .handshaking: heldWrites.append((data, promise))
            case .refused: promise?.fail(verdicts.verdict?.error ?? ChannelError.ioOnClosedChannel)
            }
        }

        /// Held like writes.
        public func flush(context: ChannelHandlerContext) {
            switch state {
            case .accepted: context.flush()
            case .handshaking: heldFlush = true
            case .refused: break
            }
        }

        /// Records the peer's port in `verdicts` (for pin-failure reports), then passes the event on.
        /// NIOSSL starts the handshake on this same event, before it reaches this guard, but the
        /// peer's certificate (and so the verification callback) can only arrive afterwards.
        public func channelActive(context: ChannelHandlerContext) {
            verdicts.recordRemotePort(context.channel.remoteAddress?.port)
            context.fireChannelActive()
        }

        /// Records the port when the guard is added to a channel that is already active.
        public func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { verdicts.recordRemotePort(context.channel.remoteAddress?.port) }
        }

        /// Fails whatever is still held when the channel goes away.
        public func channelInactive(context: ChannelHandlerContext) {
            failHeldWrites(ChannelError.ioOnClosedChannel)
            context.fireChannelInactive()
        }

        /// Releases held writes if the guard is removed after an accepted handshake.
        public func handlerRemoved(context: ChannelHandlerContext) {
            if state == .accepted {
                releaseHeldWrites(context: context)
            } else {
                failHeldWrites(ChannelError.ioOnClosedChannel)
            }
        }

        private func refuse(context: ChannelHandlerContext, _ error: SigilTLSVerificationError) {
            state = .refused
            failHeldWrites(error)
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }

        private func releaseHeldWrites(context: ChannelHandlerContext) {
            let writes = heldWrites
            heldWrites = []
            for (data, promise) in writes { context.write(data, promise: promise) }
            if heldFlush || !writes.isEmpty {
                heldFlush = false
                context.flush()
            }
        }

        private func failHeldWrites(_ error: Error) {
            let writes = heldWrites
            heldWrites = []
            heldFlush = false
            for (_, promise) in writes { promise?.fail(error) }
        }
    }

    // MARK: - Shared machinery

    enum Presented {
        /// DER of the presented certificates, parsed; the first parse failure refuses the chain.
        static func parse(_ chain: [NIOSSLCertificate]) -> Result<[Certificate], SigilTLSVerificationError> {
            der(chain).flatMap(parse)
        }

        /// The DER of each presented certificate (BoringSSL re-encodes it); a certificate it
        /// cannot encode refuses the chain as one that does not parse.
        static func der(_ chain: [NIOSSLCertificate]) -> Result<[[UInt8]], SigilTLSVerificationError> {
            var out: [[UInt8]] = []
            out.reserveCapacity(chain.count)
            for (i, c) in chain.enumerated() {
                guard let der = try? c.toDERBytes() else { return .failure(malformed(i)) }
                out.append(der)
            }
            return .success(out)
        }

        /// Each DER parsed; the first parse failure refuses the chain.
        static func parse(_ ders: [[UInt8]]) -> Result<[Certificate], SigilTLSVerificationError> {
            var out: [Certificate] = []
            out.reserveCapacity(ders.count)
            for (i, der) in ders.enumerated() {
                guard let cert = try? Certificate(der: der) else { return .failure(malformed(i)) }
                out.append(cert)
            }
            return .success(out)
        }

        /// The presented chain as certificates, taking each from `path` where one there has the
        /// very same DER (a verdict answered from a `VerdictCache` parsed nothing) and parsing
        /// the others; nil when one does not parse.
        static func certificates(_ ders: [[UInt8]], reusing path: [Certificate]) -> [Certificate]? {
            var out: [Certificate] = []
            out.reserveCapacity(ders.count)
            for der in ders {
                if let c = path.first(where: { sameBytes($0.der, der) }) {
                    out.append(c)
                } else if let c = try? Certificate(der: der) {
                    out.append(c)
                } else {
                    return nil
                }
            }
            return out
        }

        /// Byte equality by `memcmp` (Array's `==` compares element by element: ≈ 5 instructions
        /// a byte, ≈ 3 400 for one certificate, against ≈ 100 here).
        static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count else { return false }
            guard !a.isEmpty else { return true }
            return a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }

        private static func malformed(_ i: Int) -> SigilTLSVerificationError {
            SigilTLSVerificationError(
                reason: .malformedCertificate(index: i),
                failures: [TrustFailure(.malformedCertificate, at: i, "presented certificate \(i) does not parse")],
                message: "presented certificate \(i) does not parse", checkedName: nil)
        }

        /// The validated path as NIOSSL certificates: the peer's own objects where the peer sent
        /// them, anchors (which it need not send) re-encoded from their DER.
        static func validatedChain(_ path: [Certificate], presented: [Certificate], nio: [NIOSSLCertificate])
            -> ValidatedCertificateChain?
        {
            var out: [NIOSSLCertificate] = []
            for c in path {
                if let i = presented.firstIndex(of: c), i < nio.count {
                    out.append(nio[i])
                } else if let n = nioAnchor(c.der) {
                    out.append(n)
                } else {
                    return nil
                }
            }
            return ValidatedCertificateChain(out)
        }

        /// BoringSSL objects for anchors the peer did not send, made once (one `d2i_X509`, ≈ 6 µs,
        /// saved on every handshake). A hit is an exact match of the whole DER; at most 16 entries
        /// (the cache is emptied when full). Measured: Benchmarks/TLS (`tls-bench-client micro`).
        private static let anchorObjects = NIOLockedValueBox<[(der: [UInt8], nio: NIOSSLCertificate)]>([])

        static func nioAnchor(_ der: [UInt8]) -> NIOSSLCertificate? {
            let hit = anchorObjects.withLockedValue { entries in entries.first { $0.der == der }?.nio }
            if let hit { return hit }
            guard let made = try? NIOSSLCertificate(bytes: der, format: .der) else { return nil }
            anchorObjects.withLockedValue { entries in
                if entries.count >= 16 { entries.removeAll() }
                entries.append((der, made))
            }
            return made
        }

        /// Completes the promise: the validated path on success (never the presented chain),
        /// `.failed` otherwise; reports to the box and the observer first.
        static func complete(
            _ verdict: SigilTLSVerdict, nio: [NIOSSLCertificate], box: SigilTLSVerdictBox?,
            observer: (@Sendable (SigilTLSVerdict) -> Void)?,
            promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>
        ) {
            var verdict = verdict
            var metadata = VerificationMetadata(nil)
            if verdict.accepted && !verdict.validatedPath.isEmpty {
                if let chain = validatedChain(verdict.validatedPath, presented: verdict.presentedChain, nio: nio) {
                    metadata = VerificationMetadata(chain)
                } else {
                    // Fail closed: an anchor BoringSSL cannot re-read.
                    verdict = verdict.refused(
                        SigilTLSVerificationError(
                            reason: .malformedCertificate(index: verdict.validatedPath.count - 1),
                            message: "the validated path's anchor could not be handed to NIOSSL",
                            checkedName: verdict.checkedName))
                }
            }
            box?.record(verdict)
            observer?(verdict)
            if verdict.accepted {
                promise.succeed(.certificateVerified(metadata))
            } else {
                promise.succeed(.failed)
            }
        }

        static func revocation(
            _ hook: RevocationHook?, extras: (@Sendable () -> HandshakeExtras)?, verdict: SigilTLSVerdict
        ) -> SigilTLSVerdict {
            guard let hook, verdict.accepted, !verdict.validatedPath.isEmpty else { return verdict }
            switch hook(verdict.validatedPath, extras?() ?? HandshakeExtras(), verdict.time) {
            case .accept: return verdict
            case .reject(let why):
                return verdict.refused(
                    SigilTLSVerificationError(reason: .revoked, message: why, checkedName: verdict.checkedName))
            }
        }
    }

    extension SigilTLSVerdict {
        init(
            presented: [Certificate], path: [Certificate] = [], error: SigilTLSVerificationError?,
            warnings: [String] = [],
            name: String?, time: Double, policy: SecurityPolicyEvaluation? = nil,
            trust: CertificateTrust.Evaluation? = nil,
            result: TrustResult? = nil
        ) {
            self.presentedChain = presented
            self.validatedPath = error == nil ? path : []
            self.error = error
            self.warnings = warnings
            self.checkedName = name
            self.time = time
            self.policyEvaluation = policy
            self.trustEvaluation = trust
            self.trustResult = result
        }

        /// The verdict of a `CertificateTrust` evaluation: the one place its refusal becomes a
        /// `SigilTLSVerificationError` (the server verifier's `.certificateTrust` and `.chain`
        /// evaluators and the mTLS verifier all evaluate through `CertificateTrust`).
        init(evaluation e: CertificateTrust.Evaluation, presented: [Certificate], name: String?, time: Double) {
            var error: SigilTLSVerificationError?
            if !e.isTrusted {
                let f = e.failures
                error = SigilTLSVerificationError(
                    reason: .notTrusted(f.first?.kind ?? .unknownIssuer), failures: f,
                    message: f.first?.summary ?? "not trusted", checkedName: name)
            }
            self.init(
                presented: presented, path: e.chain, error: error, name: name, time: time, trust: e,
                result: e.trustResult)
        }

        /// The refusal when `what` ("the policy", "the server purpose") checks the server name but
        /// the connection has none (fails closed).
        static func nameRequired(presented: [Certificate], time: Double, what: String) -> SigilTLSVerdict {
            SigilTLSVerdict(
                presented: presented,
                error: SigilTLSVerificationError(
                    reason: .policy(.domainRequired),
                    message: "\(what) checks the server name but none was given (no SNI name and no host override)",
                    checkedName: nil), name: nil, time: time)
        }

        func refused(_ e: SigilTLSVerificationError) -> SigilTLSVerdict {
            SigilTLSVerdict(
                presented: presentedChain, error: e, warnings: warnings, name: checkedName, time: time,
                policy: policyEvaluation, trust: trustEvaluation, result: trustResult)
        }
    }

    extension SigilNIO {
        /// True when `host` is an IP address literal, which is never sent as SNI (RFC 6066 §3;
        /// NIOSSL refuses it) but is checked against the certificate's IP addresses. Only text of
        /// digits and dots, or holding a colon or a bracket, can be one (RFC 3986 §3.2.2): any
        /// other name is answered without parsing it (this runs once per connection).
        public static func isIPAddress(_ host: String) -> Bool {
            let u = host.utf8
            let mayBeIP =
                u.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
                || u.contains(UInt8(ascii: ":")) || u.contains(UInt8(ascii: "["))
            guard mayBeIP, !host.isEmpty else { return false }
            if case .ip = ServerIdentity(host) { return true }
            return false
        }
    }
    /// True when `host` is an IP address literal.
    @available(*, deprecated, renamed: "SigilNIO.isIPAddress(_:)")
    public func sigilIsIPAddress(_ host: String) -> Bool { SigilNIO.isIPAddress(host) }
#else
    /// Facts about this build of the module.
    public enum SigilNIO {
        /// False: this build has no NIO integration (rebuild with `swift build --traits NIO`).
        public static let isAvailable = false
    }
#endif
