// An HTTPS GET over NIOHTTP1 + NIOSSL whose server trust is a pinned `SecurityPolicy`
// judged by Sigil inside the handshake (SigilNIO). Built with the NIO trait:
//
//   swift build --traits NIO --scratch-path .build-nio --product pinned-https-get
//   .build-nio/debug/pinned-https-get https://example.com/ sha256/BASE64PIN [anchor.pem]
//
// With an anchor file, only that root is trusted (a company's own root); otherwise the
// system's roots. The pin is a public-key pin (`sigil pin --help` computes them).
#if NIO
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import Sigil
    import SigilNIO

    let args = CommandLine.arguments
    guard args.count >= 3, args[1].hasPrefix("https://"), let pin = PublicKeyPin(args[2]) else {
        FileHandle.standardError.write(
            Data("usage: pinned-https-get https://HOST[:PORT]/PATH sha256/PIN [ANCHOR.pem]\n".utf8))
        exit(2)
    }
    var rest = String(args[1].dropFirst("https://".count))
    var path = "/"
    if let slash = rest.firstIndex(of: "/") {
        path = String(rest[slash...])
        rest = String(rest[..<slash])
    }
    var host = rest
    var port = 443
    if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]"), let p = Int(rest[rest.index(after: colon)...]) {
        host = String(rest[..<colon])
        port = p
    }

    // Anchors and pins are loaded before connecting: the callback does no I/O.
    var anchors = TrustStore.system()
    if args.count >= 4 {
        anchors = TrustStore()
        guard let pem = FileManager.default.contents(atPath: args[3]), anchors.add(contentsOf: [UInt8](pem)) > 0 else {
            FileHandle.standardError.write(Data("cannot read an anchor from \(args[3])\n".utf8))
            exit(2)
        }
    }
    var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
    policy.pinnedPublicKeys = [pin]
    var verifier = SigilServerTrustVerifier(policy: policy)
    verifier.observer = { verdict in
        if let e = verdict.error {
            FileHandle.standardError.write(
                Data("sigil: \(e.isPinMismatch ? "PIN MISMATCH" : "untrusted"): \(e.message)\n".utf8))
        }
    }

    final class PrintResponse: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let done: EventLoopPromise<Void>
        init(done: EventLoopPromise<Void>) { self.done = done }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): print("HTTP \(head.status.code) \(head.status.reasonPhrase)")
            case .body(let buffer): FileHandle.standardOutput.write(Data(buffer.readableBytesView))
            case .end:
                done.succeed(())
                context.close(promise: nil)
            }
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) {
            done.fail(error)
            context.close(promise: nil)
        }
        func channelInactive(context: ChannelHandlerContext) { done.succeed(()) }
    }

    let group = MultiThreadedEventLoopGroup.singleton
    var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
    tlsConfiguration.certificateVerification = .noHostnameVerification  // Sigil checks chain and name
    let sslContext = try NIOSSLContext(configuration: tlsConfiguration)
    let done = group.next().makePromise(of: Void.self)
    let serverName = host
    let clientVerifier = verifier
    let channel = try ClientBootstrap(group: group)
        .connectTimeout(.seconds(10))
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                // The TLS handler checks `serverName` through Sigil; the pin is matched against
                // the validated path, never the chain as sent.
                try channel.pipeline.syncOperations.addHandlers(
                    clientVerifier.makeClientHandlers(context: sslContext, serverHostname: serverName))
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(PrintResponse(done: done))
            }
        }
        .connect(host: host, port: port).wait()
    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
    head.headers.add(name: "Host", value: host)
    head.headers.add(name: "Connection", value: "close")
    // Written once the handshake succeeds; a refused handshake fails these writes and `done`.
    channel.write(HTTPClientRequestPart.head(head), promise: nil)
    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    do {
        try done.futureResult.wait()
    } catch {
        FileHandle.standardError.write(Data("request failed: \(error)\n".utf8))
        exit(1)
    }
#else
    import Foundation
    print("pinned-https-get: built without the NIO trait: rebuild with `swift build --traits NIO`")
    exit(77)
#endif
