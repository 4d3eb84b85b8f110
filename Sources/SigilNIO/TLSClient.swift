#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import NIOSSL
    import NIOTLS
    import Sigil

    /// One handshake's outcome (`SigilTLSClient.handshake`).
    public struct SigilTLSHandshake: Sendable {
        /// The certificates exactly as the server sent them (DER, server order).
        public let presentedDER: [[UInt8]]
        /// What NIOSSL reports as the peer's validated chain afterwards
        /// (`peerValidatedCertificateChain`, DER): the path Sigil validated, nil without a verifier.
        public let validatedDER: [[UInt8]]?
        /// The negotiated protocol version.
        public let tlsVersion: TLSVersion?
        /// Sigil's verdict when a verifier was given.
        public let verdict: SigilTLSVerdict?
    }

    /// Why a handshake did not complete.
    public enum SigilTLSClientError: Error, Sendable, CustomStringConvertible {
        /// TCP connection failed (refused, unreachable, name resolution).
        case connectFailed(String)
        /// No answer within the timeout (connect + handshake).
        case timedOut(seconds: Double)
        /// The TLS handshake failed for a reason other than certificate verification (protocol
        /// version, cipher suites, the peer closing). `presentedDER` holds whatever chain was seen.
        case handshakeFailed(String, presentedDER: [[UInt8]])
        /// Sigil refused the server's certificates.
        case verificationFailed(SigilTLSVerificationError, verdict: SigilTLSVerdict?)

        /// One line, e.g. "timed out after 10.0 s".
        public var description: String {
            switch self {
            case .connectFailed(let s): return "connection failed: \(s)"
            case .timedOut(let s): return "timed out after \(s) s"
            case .handshakeFailed(let s, _): return "TLS handshake failed: \(s)"
            case .verificationFailed(let e, _): return e.description
            }
        }
    }

    /// A minimal client: connect, handshake through a `SigilServerTrustVerifier` (or accept any
    /// chain, to fetch it), report, close. The `sigil` CLI's `fetch`, `verify --connect` and `ats`
    /// use it.
    public enum SigilTLSClient {
        /// - Parameters:
        ///   - host, port: where to connect (a name is resolved by NIO).
        ///   - serverName: the SNI name (nil: none) and, unless the verifier overrides it, the name
        ///     checked. An IP literal is never sent as SNI.
        ///   - configuration: protocol versions, cipher suites...; its `certificateVerification`
        ///     is forced to `.noHostnameVerification` so that the callback runs (with `.none`
        ///     NIOSSL skips it); the callback replaces BoringSSL's verification.
        ///   - verifier: nil accepts any chain (capture only: never use for a connection that carries data).
        public static func handshake(
            host: String, port: Int, serverName: String?, configuration: TLSConfiguration = .makeClientConfiguration(),
            verifier: SigilServerTrustVerifier?, timeout: Double = 10,
            group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) -> EventLoopFuture<SigilTLSHandshake> {
            let loop = group.next()
            var configuration = configuration
            configuration.certificateVerification = .noHostnameVerification
            let context: NIOSSLContext
            do {
                context = try NIOSSLContext(configuration: configuration)
            } catch {
                return loop.makeFailedFuture(
                    SigilTLSClientError.handshakeFailed("TLS configuration refused: \(error)", presentedDER: []))
            }
            let promise = loop.makePromise(of: SigilTLSHandshake.self)
            let presented = NIOLockedValueBox<[[UInt8]]>([])
            let verdicts = SigilTLSVerdictBox()
            let sni = serverName.flatMap { SigilNIO.isIPAddress($0) ? nil : $0 }
            let callback:
                @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResultWithMetadata>) -> Void = {
                    chain, p in
                    presented.withLockedValue { $0 = chain.map { (try? $0.toDERBytes()) ?? [] } }
                    if let verifier {
                        verifier.makeCallback(serverHostname: serverName, port: port, verdicts: verdicts)(chain, p)
                    } else {
                        // Capture only: accepted, with no validated chain.
                        p.succeed(.certificateVerified(VerificationMetadata(nil)))
                    }
                }
            let timeoutTask = loop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
                promise.fail(SigilTLSClientError.timedOut(seconds: timeout))
            }
            let bootstrap = ClientBootstrap(group: loop)
                .connectTimeout(.milliseconds(Int64(timeout * 1000)))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let tls = try NIOSSLClientHandler(
                            context: context, serverHostname: sni, customVerificationCallbackWithMetadata: callback)
                        try channel.pipeline.syncOperations.addHandlers([
                            tls, SigilTLSErrorHandler(verdicts: verdicts, requiresVerdict: verifier != nil),
                            HandshakeWatcher(promise: promise, presented: presented, verdicts: verdicts),
                        ])
                    }
                }
            bootstrap.connect(host: host, port: port).whenComplete { result in
                switch result {
                case .success(let channel):
                    promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
                case .failure(let error):
                    promise.fail(SigilTLSClientError.connectFailed("\(host):\(port): \(error)"))
                }
            }
            promise.futureResult.whenComplete { _ in timeoutTask.cancel() }
            return promise.futureResult
        }
    }

    /// Completes the promise at the end of the handshake (or at its failure).
    final class HandshakeWatcher: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        let promise: EventLoopPromise<SigilTLSHandshake>
        let presented: NIOLockedValueBox<[[UInt8]]>
        let verdicts: SigilTLSVerdictBox

        init(
            promise: EventLoopPromise<SigilTLSHandshake>, presented: NIOLockedValueBox<[[UInt8]]>,
            verdicts: SigilTLSVerdictBox
        ) {
            self.promise = promise
            self.presented = presented
            self.verdicts = verdicts
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let e = event as? TLSUserEvent, case .handshakeCompleted = e {
                let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
                let validated = handler?.peerValidatedCertificateChain.map { $0.map { (try? $0.toDERBytes()) ?? [] } }
                promise.succeed(
                    SigilTLSHandshake(
                        presentedDER: presented.withLockedValue { $0 }, validatedDER: validated,
                        tlsVersion: handler?.tlsVersion,
                        verdict: verdicts.verdict))
                context.close(promise: nil)
            }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            if let e = error as? SigilTLSVerificationError {
                promise.fail(SigilTLSClientError.verificationFailed(e, verdict: verdicts.verdict))
            } else {
                promise.fail(
                    SigilTLSClientError.handshakeFailed(
                        conciseTLSError(error), presentedDER: presented.withLockedValue { $0 }))
            }
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(
                SigilTLSClientError.handshakeFailed(
                    "the server closed the connection during the handshake",
                    presentedDER: presented.withLockedValue { $0 }))
            context.fireChannelInactive()
        }
    }
#endif

#if NIO
    /// BoringSSL's error stack, reduced to its reason codes ("TLSV1_ALERT_PROTOCOL_VERSION").
    func conciseTLSError(_ error: Error) -> String {
        let text = "\(error)"
        let marker = Array("OPENSSL_internal:".utf8)
        let bytes = Array(text.utf8)
        var reasons: [String] = []
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i..<(i + marker.count)].elementsEqual(marker) {
                var j = i + marker.count
                while j < bytes.count,
                    (bytes[j] >= 0x41 && bytes[j] <= 0x5A) || (bytes[j] >= 0x30 && bytes[j] <= 0x39) || bytes[j] == 0x5F
                { j += 1 }
                let code = String(decoding: bytes[(i + marker.count)..<j], as: UTF8.self)
                if !code.isEmpty && !reasons.contains(code) { reasons.append(code) }
                i = j
            } else {
                i += 1
            }
        }
        return reasons.isEmpty ? text : reasons.joined(separator: ", ")
    }
#endif
