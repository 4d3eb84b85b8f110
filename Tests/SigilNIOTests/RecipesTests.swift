#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import NIOTLS
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// The NIO recipes of Docs/SecurityPolicies.md §8, written the way the guide writes them, run
    /// against `openssl s_server` (so the guide's code compiles and does what it says).
    final class RecipesTests: XCTestCase {
        var server: OpenSSLServer?
        override func tearDown() { server?.stop() }

        /// Completes when the handshake ends (or fails) — the test's stand-in for "your protocol handlers".
        final class Handshake: ChannelInboundHandler {
            typealias InboundIn = NIOAny
            let done: EventLoopPromise<Void>
            init(_ done: EventLoopPromise<Void>) { self.done = done }
            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
                if case .handshakeCompleted? = event as? TLSUserEvent { done.succeed(()) }
            }
            func errorCaught(context: ChannelHandlerContext, error: Error) {
                done.fail(error)
                context.close(promise: nil)
            }
            func channelInactive(context: ChannelHandlerContext) { done.fail(ChannelError.ioOnClosedChannel) }
        }

        /// The guide's `connect`, plus the handshake wait.
        func connect(_ verifier: SigilServerTrustVerifier, host: String, port: Int, serverName: String?) throws {
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            tlsConfiguration.certificateVerification = .noHostnameVerification
            let sslContext = try NIOSSLContext(configuration: tlsConfiguration)
            let done = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
            let channel = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer {
                channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        verifier.makeClientHandlers(context: sslContext, serverHostname: serverName))
                    try channel.pipeline.syncOperations.addHandler(Handshake(done))
                }
            }.connect(host: host, port: port).wait()
            defer { channel.close(promise: nil) }
            try done.futureResult.wait()
        }

        func testCompanyRoot() throws {
            server = try OpenSSLServer(cert: "leaf", chain: ["int"])
            let companyRoot = try Certificate.all(from: TestSupport.read(TLSFixtures.path("root.pem")))[0]
            let verifier = SigilServerTrustVerifier(anchors: [companyRoot])
            XCTAssertNoThrow(try connect(verifier, host: "127.0.0.1", port: server!.port, serverName: "sigil.test"))
            // Someone else's root: refused, and the pipeline sees why.
            let other = SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("rogue-root")])
            XCTAssertThrowsError(try connect(other, host: "127.0.0.1", port: server!.port, serverName: "sigil.test")) {
                e in
                guard case .notTrusted? = (e as? SigilTLSVerificationError)?.reason else { return XCTFail("\(e)") }
            }
        }

        func testPinnedIntermediateAndKeyWithBackup() throws {
            server = try OpenSSLServer(cert: "leaf", chain: ["int"])
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let intermediate = try TLSFixtures.certificate("int")
            let verifier = SigilServerTrustVerifier(
                policy: SecurityPolicy(
                    pinningMode: .certificate,
                    pinnedCertificates: [intermediate], anchors: anchors))
            XCTAssertNoThrow(try connect(verifier, host: "127.0.0.1", port: server!.port, serverName: "sigil.test"))
            var keyPolicy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            keyPolicy.pinnedPublicKeys = [
                PublicKeyPin(certificate: intermediate),
                PublicKeyPin(certificate: try TLSFixtures.certificate("rogue-root")),
            ]
            XCTAssertNoThrow(
                try connect(
                    SigilServerTrustVerifier(policy: keyPolicy), host: "127.0.0.1", port: server!.port,
                    serverName: "sigil.test"))
        }

        func testIPWithHostOverride() throws {
            server = try OpenSSLServer(cert: "leaf", chain: ["int"])
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var verifier = SigilServerTrustVerifier(policy: .defaultPolicy(anchors: anchors))
            XCTAssertThrowsError(try connect(verifier, host: "127.0.0.1", port: server!.port, serverName: "127.0.0.1"))
            { e in
                XCTAssertEqual((e as? SigilTLSVerificationError)?.reason, .notTrusted(.nameMismatch))
            }
            verifier.hostOverride = "sigil.test"
            XCTAssertNoThrow(try connect(verifier, host: "127.0.0.1", port: server!.port, serverName: "127.0.0.1"))
            // With NIOSSL's own hostname check on, the override cannot work: refused up front.
            let full = try NIOSSLContext(configuration: .makeClientConfiguration())
            XCTAssertThrowsError(try verifier.makeClientHandlers(context: full, serverHostname: "127.0.0.1")) { e in
                XCTAssertEqual(
                    e as? SigilNIOConfigurationError, .hostnameVerificationConflictsWithOverride("sigil.test"))
            }
        }

        func testSelfSignedDevelopmentServer() throws {
            // A self-signed certificate made by openssl for this test: the only anchor.
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-dev-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let key = dir.appendingPathComponent("dev.key").path
            let cert = dir.appendingPathComponent("dev.pem").path
            XCTAssertNotNil(
                try TestSupport.run([
                    "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "30", "-subj", "/CN=dev.sigil.test",
                    "-addext", "subjectAltName=DNS:dev.sigil.test", "-addext", "extendedKeyUsage=serverAuth",
                ]))
            let p = Process()
            let port = freeLoopbackPort()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-quiet"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            p.standardInput = Pipe()
            try p.run()
            defer {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
            }
            let deadline = Date().addingTimeInterval(5)
            while !canConnect(port) && Date() < deadline { usleep(50_000) }
            let devCertificate = try Certificate.all(from: TestSupport.read(cert))[0]
            let verifier = SigilServerTrustVerifier(anchors: [devCertificate])
            XCTAssertNoThrow(try connect(verifier, host: "127.0.0.1", port: port, serverName: "dev.sigil.test"))
            XCTAssertThrowsError(try connect(verifier, host: "127.0.0.1", port: port, serverName: "prod.sigil.test"))
        }
    }
#endif
