#if NIO
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import NIOSSL
    import NIOTLS
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// A wrong-anchor Sigil verifier under every `CertificateVerification` value, client side and
    /// server side, over real loopback handshakes: `.none` is refused when the handlers are made,
    /// and a hand-wired `.none` pipeline is closed by `SigilTLSErrorHandler` with Sigil's error
    /// before any application data crosses; the other modes fail the handshake.
    ///
    /// Before the guard existed, a client with `certificateVerification = .none` and a verifier
    /// anchored at the wrong root completed the handshake and exchanged data (BoringSSL ignores the
    /// verification callback's refusal under `SSL_VERIFY_NONE`).
    final class VerificationModeTests: XCTestCase {
        /// What one end of a connection saw.
        final class Seen: @unchecked Sendable {
            private let lock = NIOLock()
            private var _bytes: [UInt8] = []
            private var _handshakeCompleted = false
            private var _errors: [Error] = []
            var bytes: [UInt8] { lock.withLock { _bytes } }
            var handshakeCompleted: Bool { lock.withLock { _handshakeCompleted } }
            var errors: [Error] { lock.withLock { _errors } }
            func read(_ b: [UInt8]) { lock.withLock { _bytes += b } }
            func completed() { lock.withLock { _handshakeCompleted = true } }
            func error(_ e: Error) { lock.withLock { _errors.append(e) } }
            var sigilError: SigilTLSVerificationError? {
                errors.lazy.compactMap { $0 as? SigilTLSVerificationError }.first
            }
        }

        /// The application: writes `greeting` as soon as it can (channelActive: before the
        /// handshake, so the TLS layer must hold it), records what it reads, the handshake
        /// completion and the errors.
        final class App: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            typealias OutboundOut = ByteBuffer
            let seen: Seen
            let greeting: String
            init(_ seen: Seen, greeting: String) {
                self.seen = seen
                self.greeting = greeting
            }
            func channelActive(context: ChannelHandlerContext) {
                context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: greeting)), promise: nil)
                context.fireChannelActive()
            }
            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                seen.read(Array(buffer: unwrapInboundIn(data)))
            }
            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
                if let e = event as? TLSUserEvent, case .handshakeCompleted = e { seen.completed() }
                context.fireUserInboundEventTriggered(event)
            }
            func errorCaught(context: ChannelHandlerContext, error: Error) {
                seen.error(error)
                context.close(promise: nil)
            }
        }

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        override func tearDown() { try? group.syncShutdownGracefully() }

        func leafChain() throws -> [NIOSSLCertificateSource] {
            (try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("leaf.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))).map { .certificate($0) }
        }

        func key(_ stem: String) throws -> NIOSSLPrivateKeySource {
            .privateKey(try NIOSSLPrivateKey(file: TLSFixtures.path("\(stem).key"), format: .pem))
        }

        /// A server on 127.0.0.1 whose TLS handlers come from `handlers`; the application after
        /// them. Returns the port and the listening channel.
        func server(seen: Seen, handlers: @escaping @Sendable () throws -> [ChannelHandler]) throws -> Channel {
            try ServerBootstrap(group: group)
                .childChannelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandlers(
                            try handlers() + [App(seen, greeting: "SERVER-DATA")])
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        }

        /// Connects with `handlers` + the application and waits (bounded) until the channel closes.
        func connect(port: Int, seen: Seen, handlers: @escaping @Sendable () throws -> [ChannelHandler]) throws {
            let channel = try ClientBootstrap(group: group)
                .channelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandlers(
                            try handlers() + [App(seen, greeting: "CLIENT-DATA")])
                    }
                }
                .connect(host: "127.0.0.1", port: port).wait()
            // Bounded: a connection the guard does not close would stay open; close it after 5 s.
            let timeout = channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
            try? channel.closeFuture.wait()
            timeout.cancel()
        }

        /// Waits (bounded) for `condition`.
        func eventually(_ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(5)
            while !condition() && Date() < deadline { usleep(20_000) }
        }

        // MARK: client side: the server's chain judged by a verifier anchored at the wrong root

        func wrongAnchorServerVerifier() throws -> SigilServerTrustVerifier {
            SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("rogue-root")])
        }

        /// A plain NIO TLS server with the fixture chain (no client certificate asked).
        func plainServer(_ seen: Seen) throws -> Channel {
            var config = TLSConfiguration.makeServerConfiguration(
                certificateChain: try leafChain(), privateKey: try key("leaf"))
            config.certificateVerification = .none
            let ctx = try NIOSSLContext(configuration: config)
            return try server(seen: seen) { [NIOSSLServerHandler(context: ctx)] }
        }

        func clientContext(_ mode: CertificateVerification) throws -> NIOSSLContext {
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = mode
            return try NIOSSLContext(configuration: config)
        }

        func testClientNoneRefusedAtAttach() throws {
            let verifier = try wrongAnchorServerVerifier()
            for mode in [CertificateVerification.none, .optionalVerification] {
                XCTAssertThrowsError(
                    try verifier.makeClientHandlers(context: clientContext(mode), serverHostname: "sigil.test")
                ) { e in
                    XCTAssertEqual(e as? SigilNIOConfigurationError, .verificationDisabled(side: .client))
                    XCTAssertTrue("\(e)".contains(".noHostnameVerification"), "the error names the fix: \(e)")
                }
            }
        }

        func testClientNoneHandWiredClosedBeforeData() throws {
            let serverSeen = Seen()
            let clientSeen = Seen()
            let listener = try plainServer(serverSeen)
            defer { try? listener.close().wait() }
            let verifier = try wrongAnchorServerVerifier()
            let ctx = try clientContext(.none)
            try connect(port: listener.localAddress!.port!, seen: clientSeen) {
                let box = SigilTLSVerdictBox()
                return [
                    try NIOSSLClientHandler(
                        context: ctx, serverHostname: "sigil.test",
                        customVerificationCallbackWithMetadata: verifier.makeCallback(
                            serverHostname: "sigil.test", verdicts: box)),
                    SigilTLSErrorHandler(verdicts: box),
                ]
            }
            eventually { clientSeen.sigilError != nil }
            let e = try XCTUnwrap(clientSeen.sigilError, "the pipeline sees Sigil's error: \(clientSeen.errors)")
            // Either the callback ran and refused (unknown issuer / untrusted root), or it never
            // ran: both close the channel.
            switch e.reason {
            case .notTrusted(let k): XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(k)")
            case .verificationNotRun: break
            default: XCTFail("\(e.reason)")
            }
            XCTAssertFalse(clientSeen.handshakeCompleted, "the application never sees a completed handshake")
            XCTAssertEqual(clientSeen.bytes, [], "no server data reaches the application")
            usleep(200_000)
            XCTAssertEqual(serverSeen.bytes, [], "no client data reaches the server")
        }

        func testClientVerifyingModesFailHandshake() throws {
            for mode in [CertificateVerification.noHostnameVerification, .fullVerification] {
                let serverSeen = Seen()
                let clientSeen = Seen()
                let listener = try plainServer(serverSeen)
                defer { try? listener.close().wait() }
                let verifier = try wrongAnchorServerVerifier()
                let ctx = try clientContext(mode)
                try connect(port: listener.localAddress!.port!, seen: clientSeen) {
                    try verifier.makeClientHandlers(context: ctx, serverHostname: "sigil.test")
                }
                eventually { clientSeen.sigilError != nil }
                guard case .notTrusted(let k)? = clientSeen.sigilError?.reason else {
                    XCTFail("\(mode): \(clientSeen.errors)")
                    continue
                }
                XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(mode): \(k)")
                XCTAssertFalse(clientSeen.handshakeCompleted, "\(mode)")
                XCTAssertEqual(clientSeen.bytes, [], "\(mode)")
                usleep(200_000)
                XCTAssertEqual(serverSeen.bytes, [], "\(mode)")
            }
        }

        /// The control: the right anchor under `.noHostnameVerification` exchanges data both ways
        /// (so the assertions above are not vacuous).
        func testClientRightAnchorExchangesData() throws {
            let serverSeen = Seen()
            let clientSeen = Seen()
            let listener = try plainServer(serverSeen)
            defer { try? listener.close().wait() }
            let verifier = SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("root")])
            let ctx = try clientContext(.noHostnameVerification)
            let port = listener.localAddress!.port!
            let channel = try ClientBootstrap(group: group)
                .channelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandlers(
                            try verifier.makeClientHandlers(context: ctx, serverHostname: "sigil.test")
                                + [App(clientSeen, greeting: "CLIENT-DATA")])
                    }
                }
                .connect(host: "127.0.0.1", port: port).wait()
            eventually { clientSeen.bytes.count >= 11 && serverSeen.bytes.count >= 11 }
            try? channel.close().wait()
            XCTAssertTrue(clientSeen.handshakeCompleted)
            XCTAssertEqual(String(decoding: clientSeen.bytes, as: UTF8.self), "SERVER-DATA")
            XCTAssertEqual(String(decoding: serverSeen.bytes, as: UTF8.self), "CLIENT-DATA")
        }

        // MARK: server side: the client's certificate judged by a verifier anchored at the wrong root

        func serverContext(_ mode: CertificateVerification) throws -> NIOSSLContext {
            var config = TLSConfiguration.makeServerConfiguration(
                certificateChain: try leafChain(), privateKey: try key("leaf"))
            config.certificateVerification = mode
            return try NIOSSLContext(configuration: config)
        }

        /// A client presenting the fixture client certificate (+ its intermediate), not checking
        /// the server (this test is about the server's verifier).
        func mtlsClient(port: Int, seen: Seen) throws {
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = .none
            config.certificateChain =
                (try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("client.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))).map { .certificate($0) }
            config.privateKey = try key("client")
            let ctx = try NIOSSLContext(configuration: config)
            try connect(port: port, seen: seen) {
                [try NIOSSLClientHandler(context: ctx, serverHostname: "sigil.test")]
            }
        }

        func wrongAnchorClientVerifier() throws -> SigilClientCertificateVerifier {
            SigilClientCertificateVerifier(anchors: [try TLSFixtures.certificate("rogue-root")])
        }

        func testServerNoneRefusedAtAttach() throws {
            let verifier = try wrongAnchorClientVerifier()
            // `.optionalVerification` too: BoringSSL lets a client without a certificate in
            // without calling the verifier (review, 2026-12-04).
            for mode in [CertificateVerification.none, .optionalVerification] {
                XCTAssertThrowsError(try verifier.makeServerHandlers(context: serverContext(mode))) { e in
                    XCTAssertEqual(e as? SigilNIOConfigurationError, .verificationDisabled(side: .server))
                    XCTAssertTrue("\(e)".contains(".noHostnameVerification"), "the error names the fix: \(e)")
                }
            }
        }

        func testServerNoneHandWiredClosedBeforeData() throws {
            let serverSeen = Seen()
            let clientSeen = Seen()
            let verifier = try wrongAnchorClientVerifier()
            let ctx = try serverContext(.none)
            let listener = try server(seen: serverSeen) {
                let box = SigilTLSVerdictBox()
                return [
                    NIOSSLServerHandler(
                        context: ctx, customVerificationCallbackWithMetadata: verifier.makeCallback(verdicts: box)),
                    SigilTLSErrorHandler(verdicts: box),
                ]
            }
            defer { try? listener.close().wait() }
            try mtlsClient(port: listener.localAddress!.port!, seen: clientSeen)
            eventually { serverSeen.sigilError != nil }
            // `.none` on a server asks for no certificate: the callback never runs.
            XCTAssertEqual(serverSeen.sigilError?.reason, .verificationNotRun, "\(serverSeen.errors)")
            XCTAssertFalse(serverSeen.handshakeCompleted)
            XCTAssertEqual(serverSeen.bytes, [], "no client data reaches the server's application")
            XCTAssertEqual(clientSeen.bytes, [], "no server data reaches the client")
        }

        func testServerVerifyingModesFailHandshake() throws {
            for mode in [CertificateVerification.noHostnameVerification, .fullVerification] {
                let serverSeen = Seen()
                let clientSeen = Seen()
                let verifier = try wrongAnchorClientVerifier()
                let ctx = try serverContext(mode)
                let listener = try server(seen: serverSeen) { try verifier.makeServerHandlers(context: ctx) }
                defer { try? listener.close().wait() }
                try mtlsClient(port: listener.localAddress!.port!, seen: clientSeen)
                eventually { serverSeen.sigilError != nil }
                guard case .notTrusted(let k)? = serverSeen.sigilError?.reason else {
                    XCTFail("\(mode): \(serverSeen.errors)")
                    continue
                }
                XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(mode): \(k)")
                XCTAssertFalse(serverSeen.handshakeCompleted, "\(mode)")
                XCTAssertEqual(serverSeen.bytes, [], "\(mode)")
                XCTAssertEqual(clientSeen.bytes, [], "\(mode)")
            }
        }
    }
#endif
