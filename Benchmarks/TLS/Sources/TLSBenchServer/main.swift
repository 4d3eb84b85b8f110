// The benchmark's TLS server, in its own process so the client's getrusage sees only the client.
// Listens on 127.0.0.1 only, ports chosen by the kernel and printed as `listen NAME PORT`.
//
//   tls-bench-server serve --repo ROOT [--threads 1]
//       one listener per chain (P-256, RSA-2048: leaf + intermediate), TLS 1.2 and 1.3, no client
//       certificate; the client picks the version.
//   tls-bench-server mtls --repo ROOT [--threads 1]
//       mutual TLS with the P-256 chain: every client certificate is judged by
//       SigilClientCertificateVerifier (anchor Fixtures/tls/root.pem, client profile); after its
//       handshake the server writes one byte "K", so a client knows the server accepted it.
//
// SIGUSR1 prints `stats handshakes=… accepted=… refused=… errors=… rss_kb=…`.
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Sigil
import SigilNIO
import TLSBenchCommon

#if canImport(Glibc)
    import Glibc
#endif

struct Counters {
    var handshakes = 0
    var accepted = 0
    var refused = 0
    var errors = 0
}
let counters = NIOLockedValueBox(Counters())

/// Counts completed handshakes and pipeline errors; in mTLS mode answers the handshake with "K".
final class ServerSide: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let reply: Bool
    init(reply: Bool) { self.reply = reply }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent {
            counters.withLockedValue { $0.handshakes += 1 }
            if reply {
                var b = context.channel.allocator.buffer(capacity: 1)
                b.writeInteger(UInt8(ascii: "K"))
                context.writeAndFlush(NIOAny(b), promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A peer closing without close_notify after its handshake is not a failed handshake.
        if let e = error as? NIOSSLError, case .uncleanShutdown = e {
            context.close(promise: nil)
            return
        }
        counters.withLockedValue { $0.errors += 1 }
        context.close(promise: nil)
    }
}

func main() throws {
    let args = BenchArguments(CommandLine.arguments)
    let repo = args.string("repo", ".")
    let group = MultiThreadedEventLoopGroup(numberOfThreads: args.int("threads", 1))
    signal(SIGPIPE, SIG_IGN)
    signal(SIGUSR1, SIG_IGN)
    let usr1 = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
    usr1.setEventHandler {
        let c = counters.withLockedValue { $0 }
        say(
            "stats handshakes=\(c.handshakes) accepted=\(c.accepted) refused=\(c.refused) errors=\(c.errors) rss_kb=\(residentKB(pid: getpid()) ?? -1)"
        )
    }
    usr1.resume()

    var channels: [Channel] = []
    switch args.command {
    case "serve":
        for chain in BenchChain.all {
            var config = TLSConfiguration.makeServerConfiguration(
                certificateChain: [
                    .certificate(try nioCertificate(repo, chain.leaf)),
                    .certificate(try nioCertificate(repo, chain.intermediate)),
                ],
                privateKey: .privateKey(try NIOSSLPrivateKey(file: repo + "/" + chain.key, format: .pem)))
            config.minimumTLSVersion = .tlsv12
            config.maximumTLSVersion = .tlsv13
            let context = try NIOSSLContext(configuration: config)
            let ch = try ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 512)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try ch.pipeline.syncOperations.addHandler(ServerSide(reply: false))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
            channels.append(ch)
            say("listen \(chain.name) \(ch.localAddress!.port!)")
        }
    case "mtls":
        let chain = BenchChain.all[0]
        var config = TLSConfiguration.makeServerConfiguration(
            certificateChain: [
                .certificate(try nioCertificate(repo, chain.leaf)),
                .certificate(try nioCertificate(repo, chain.intermediate)),
            ],
            privateKey: .privateKey(try NIOSSLPrivateKey(file: repo + "/" + chain.key, format: .pem)))
        config.minimumTLSVersion = .tlsv12
        config.maximumTLSVersion = .tlsv13
        // Ask for a client certificate; the chain is judged by Sigil's callback (SigilNIO docs).
        config.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: config)
        let pem = try readFile(repo + "/" + chain.root)
        var verifier = SigilClientCertificateVerifier(anchors: try Certificate.all(from: pem))
        verifier.observer = { verdict in
            counters.withLockedValue { if verdict.accepted { $0.accepted += 1 } else { $0.refused += 1 } }
        }
        let ch = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.addHandlers(verifier.makeServerHandlers(context: context))
                    try ch.pipeline.syncOperations.addHandler(ServerSide(reply: true))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        channels.append(ch)
        say("listen mtls \(ch.localAddress!.port!)")
    default:
        say("usage: tls-bench-server serve|mtls --repo ROOT [--threads N]")
        exit(2)
    }
    say("ready pid=\(getpid())")
    try channels[0].closeFuture.wait()
}

try main()
