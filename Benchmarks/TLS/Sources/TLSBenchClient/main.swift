// The benchmark's TLS client. Every handshake is a new TCP connection and a full handshake (no
// session is ever offered back: NIOSSL keeps no client session cache), closed with close_notify
// before the next one starts.
//
//   tls-bench-client bench --repo ROOT --p256-port P --rsa2048-port Q [--n 2000] [--warmup 200] [--rounds 10]
//       For each chain × TLS version, N sequential handshakes with (a) NIOSSL's own verification
//       (BoringSSL: trustRoots = the chain's root, hostname checked) and (b) SigilServerTrustVerifier
//       (same anchor, same host; certificateVerification = .noHostnameVerification + Sigil's
//       callback). The two run in alternating rounds (a b, b a, …) to share the machine's drift.
//       Client CPU is getrusage(RUSAGE_SELF) of this process (the server is another process).
//   tls-bench-client load --repo ROOT --port P --server-pid PID [--total 100000] [--concurrency 8]
//       [--warmup 5000] [--max-seconds 600] [--threads 1]
//       mTLS clients (Fixtures/tls/client, alice) against `tls-bench-server mtls`: `concurrency`
//       connections in flight; a handshake counts as done when the server's "K" arrives (the server
//       writes it after its own handshake, i.e. after Sigil accepted the client's chain). Samples the
//       server's VmRSS after warm-up, every 10 %, and at the end.
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

/// Completes `done` when the handshake is over (or, with `waitForByte`, when the server's first byte
/// arrives after it), then closes the channel; fails `done` on any error.
final class Client: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let done: EventLoopPromise<Void>
    let waitForByte: Bool
    let expectVersion: TLSVersion?
    var finished = false

    init(done: EventLoopPromise<Void>, waitForByte: Bool, expectVersion: TLSVersion?) {
        self.done = done
        self.waitForByte = waitForByte
        self.expectVersion = expectVersion
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent {
            if let want = expectVersion {
                let got = try? context.pipeline.syncOperations.nioSSL_tlsVersion()
                if got != want {
                    finish(context, .failure(BenchError("negotiated \(String(describing: got)), wanted \(want)")))
                    return
                }
            }
            if !waitForByte { finish(context, .success(())) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if waitForByte { finish(context, .success(())) }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) { finish(context, .failure(error)) }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context, .failure(BenchError("connection closed before the handshake completed")))
    }

    func finish(_ context: ChannelHandlerContext, _ r: Result<Void, Error>) {
        guard !finished else { return }
        finished = true
        done.completeWith(r)
        context.close(promise: nil)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ s: String) { description = s }
}

/// How one client connection is set up.
struct Dialer {
    let port: Int
    /// The TLS handlers for a new channel.
    let handlers: () throws -> [ChannelHandler]
    let waitForByte: Bool
    let expectVersion: TLSVersion?

    /// One connection: connect, full handshake (and the server's byte), close; completes when closed.
    func once(on loop: EventLoop) -> EventLoopFuture<Void> {
        let done = loop.makePromise(of: Void.self)
        let connected = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.addHandlers(try handlers())
                    try ch.pipeline.syncOperations.addHandler(
                        Client(done: done, waitForByte: waitForByte, expectVersion: expectVersion))
                }
            }
            .connect(host: "127.0.0.1", port: port)
        return connected.flatMap { ch in
            done.futureResult.flatMap { ch.closeFuture }.flatMapError { e in
                ch.closeFuture.flatMapThrowing { throw e }
            }
        }.flatMapError { e in
            done.fail(e)
            return loop.makeFailedFuture(e)
        }
    }
}

/// `n` connections one after the other on `loop`; fails on the first failure.
func sequential(_ n: Int, _ dialer: Dialer, on loop: EventLoop) -> EventLoopFuture<Void> {
    let all = loop.makePromise(of: Void.self)
    func step(_ i: Int) {
        if i == n {
            all.succeed(())
            return
        }
        dialer.once(on: loop).whenComplete { r in
            switch r {
            case .success: step(i + 1)
            case .failure(let e): all.fail(e)
            }
        }
    }
    loop.execute { step(0) }
    return all.futureResult
}

struct Measured {
    var handshakes = 0
    var wall = 0.0
    var cpu = 0.0
    /// User/system split, page faults and context switches of the same interval.
    var usage = ProcessUsage()
    var perHandshakeCPU: Double { cpu / Double(max(handshakes, 1)) }
    var rate: Double { Double(handshakes) / max(wall, 1e-9) }
}

func measure(_ n: Int, _ dialer: Dialer, on loop: EventLoop) throws -> Measured {
    let u0 = ProcessUsage.now()
    let c0 = processCPUSeconds()
    let t0 = monotonicSeconds()
    try sequential(n, dialer, on: loop).wait()
    let wall = monotonicSeconds() - t0
    let cpu = processCPUSeconds() - c0
    return Measured(handshakes: n, wall: wall, cpu: cpu, usage: ProcessUsage.now() - u0)
}

func bench(_ args: BenchArguments) throws {
    let repo = args.string("repo", ".")
    let n = args.int("n", 2000)
    let warmup = args.int("warmup", 200)
    let rounds = max(1, args.int("rounds", 10))
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    var rows: [String] = []
    var summary: [String] = []
    // Subsets (for profiling one cell): --chains p256,rsa2048 --versions 1.3,1.2 --verifiers none,niossl,sigil,callback
    let chains = args.string("chains", "p256,rsa2048").split(separator: ",").map(String.init)
    let versions = args.string("versions", "1.3,1.2").split(separator: ",").map(String.init)
    // "sigil-timed" (diagnostic, only when asked for): the Sigil cell with the callback's own
    // thread CPU time measured around each call, to split the cell's cost into the callback as it
    // runs inside the handshake and its effect on the rest.
    let kinds = ["none", "niossl", "sigil", "callback", "sigil-cached", "sigil-timed"]
    let selected = args.string("verifiers", kinds.dropLast().joined(separator: ",")).split(separator: ",").map(
        String.init)
    for chain in BenchChain.all where chains.contains(chain.name) {
        let port = args.int("\(chain.name)-port", 0)
        guard port > 0 else { throw BenchError("--\(chain.name)-port is required") }
        let rootNIO = try nioCertificate(repo, chain.root)
        let anchors = try Certificate.all(from: try readFile(repo + "/" + chain.root))
        for (version, label) in [(TLSVersion.tlsv13, "1.3"), (TLSVersion.tlsv12, "1.2")]
        where versions.contains(label) {
            // (a) NIOSSL / BoringSSL: chain to the root and the host name.
            var a = TLSConfiguration.makeClientConfiguration()
            a.minimumTLSVersion = version
            a.maximumTLSVersion = version
            a.trustRoots = .certificates([rootNIO])
            a.certificateVerification = .fullVerification
            let aContext = try NIOSSLContext(configuration: a)
            let nioDialer = Dialer(
                port: port,
                handlers: { [try NIOSSLClientHandler(context: aContext, serverHostname: benchHost)] },
                waitForByte: false, expectVersion: version)
            // (b) Sigil: the same anchor and host; BoringSSL's chain verification replaced by the callback.
            var b = a
            b.certificateVerification = .noHostnameVerification
            let bContext = try NIOSSLContext(configuration: b)
            var verifier = SigilServerTrustVerifier(anchors: anchors)
            let verdicts = NIOLockedValueBox((accepted: 0, refused: 0))
            verifier.observer = { v in
                verdicts.withLockedValue { if v.accepted { $0.accepted += 1 } else { $0.refused += 1 } }
            }
            let sigilDialer = Dialer(
                port: port,
                handlers: { try verifier.makeClientHandlers(context: bContext, serverHostname: benchHost) },
                waitForByte: false, expectVersion: version)
            // (b') The same verifier with an opt-in verdict cache (a client reconnecting to one
            // server): after the warm-up every handshake is answered from the cache.
            let cache = VerdictCache(capacity: 16)
            var cachedVerifier = SigilServerTrustVerifier(anchors: anchors)
            cachedVerifier.verdictCache = cache
            let cachedVerdicts = NIOLockedValueBox((accepted: 0, refused: 0))
            cachedVerifier.observer = { v in
                cachedVerdicts.withLockedValue { if v.accepted { $0.accepted += 1 } else { $0.refused += 1 } }
            }
            let cachedDialer = Dialer(
                port: port,
                handlers: { [cachedVerifier] in
                    try cachedVerifier.makeClientHandlers(context: bContext, serverHostname: benchHost)
                },
                waitForByte: false, expectVersion: version)

            // (0) Baseline: the same handshake with no certificate verification at all
            // (`.none`), so "− baseline" is what each verification adds inside the handshake.
            var z = a
            z.certificateVerification = .none
            let zContext = try NIOSSLContext(configuration: z)
            let noneDialer = Dialer(
                port: port,
                handlers: { [try NIOSSLClientHandler(context: zContext, serverHostname: benchHost)] },
                waitForByte: false, expectVersion: version)

            // (0') NIOSSL's custom-verification machinery alone: a callback that accepts at once
            // (peer chain → [NIOSSLCertificate], promise, a second handshake step). Not a verifier.
            let yesDialer = Dialer(
                port: port,
                handlers: {
                    [
                        try NIOSSLClientHandler(
                            context: bContext, serverHostname: benchHost,
                            customVerificationCallbackWithMetadata: { _, promise in
                                promise.succeed(.certificateVerified(VerificationMetadata(nil)))
                            })
                    ]
                },
                waitForByte: false, expectVersion: version)

            let callbackCPU = NIOLockedValueBox((seconds: 0.0, calls: 0, again: 0.0))
            // --timed-again 1: after each timed callback, the same verification once more right away
            // (its verdict discarded): the callback's cost with the caches and predictors it just
            // warmed, inside the same handshake (that cell's total CPU then counts both).
            let timedAgain = args.int("timed-again", 0) != 0
            let timedVerifier = verifier
            let timedDialer = Dialer(
                port: port,
                handlers: {
                    let box = SigilTLSVerdictBox()
                    let inner = timedVerifier.makeCallback(serverHostname: benchHost, verdicts: box)
                    return [
                        try NIOSSLClientHandler(
                            context: bContext, serverHostname: benchHost,
                            customVerificationCallbackWithMetadata: { chain, promise in
                                let t0 = threadCPUSeconds()
                                inner(chain, promise)
                                let t1 = threadCPUSeconds()
                                if timedAgain { _ = timedVerifier.verify(chain, name: benchHost) }
                                let t2 = threadCPUSeconds()
                                callbackCPU.withLockedValue {
                                    $0.seconds += t1 - t0
                                    $0.again += t2 - t1
                                    $0.calls += 1
                                }
                            }),
                        SigilTLSErrorHandler(verdicts: box, requiresVerdict: true),
                    ]
                },
                waitForByte: false, expectVersion: version)

            let dialers = [noneDialer, nioDialer, sigilDialer, yesDialer, cachedDialer, timedDialer]
            let kindCount = dialers.count
            for (t, d) in dialers.enumerated() where selected.contains(kinds[t]) {
                _ = try measure(warmup, d, on: loop)
            }
            var totals = [Measured](repeating: Measured(), count: kindCount)
            var ratios: [Double] = []
            var cachedRatios: [Double] = []
            for r in 0..<rounds {
                let k = n / rounds + (r < n % rounds ? 1 : 0)
                var m = [Measured](repeating: Measured(), count: kindCount)
                // Rotate the order every round so drift on the shared machine falls on all of them.
                for step in 0..<kindCount {
                    let which = (step + r) % kindCount
                    if selected.contains(kinds[which]) { m[which] = try measure(k, dialers[which], on: loop) }
                }
                for t in 0..<kindCount {
                    totals[t].handshakes += m[t].handshakes
                    totals[t].wall += m[t].wall
                    totals[t].cpu += m[t].cpu
                    totals[t].usage = totals[t].usage + m[t].usage
                }
                ratios.append(m[2].perHandshakeCPU / m[1].perHandshakeCPU)
                cachedRatios.append(m[4].perHandshakeCPU / m[1].perHandshakeCPU)
                FileHandleStderr.write(
                    "round \(r) \(chain.label) TLS \(label): none \(us(m[0].perHandshakeCPU)), callback \(us(m[3].perHandshakeCPU)), NIOSSL \(us(m[1].perHandshakeCPU)), Sigil \(us(m[2].perHandshakeCPU)), Sigil cached \(us(m[4].perHandshakeCPU)) µs CPU/handshake\n"
                )
            }
            // Where each cell's CPU went (stderr only): user / system µs, minor page faults and
            // voluntary / involuntary context switches per handshake.
            for t in 0..<kindCount where selected.contains(kinds[t]) {
                let h = Double(max(totals[t].handshakes, 1))
                let u = totals[t].usage
                FileHandleStderr.write(
                    "usage \(chain.label) TLS \(label) \(kinds[t]): user \(us(u.user / h)) µs, system \(us(u.system / h)) µs, minor faults \(fmt(Double(u.minorFaults) / h, 2)), switches \(fmt(Double(u.voluntarySwitches) / h, 2)) voluntary / \(fmt(Double(u.involuntarySwitches) / h, 2)) involuntary per handshake\n"
                )
            }
            if selected.contains("sigil-timed") {
                let c = callbackCPU.withLockedValue { $0 }
                FileHandleStderr.write(
                    "sigil-timed \(chain.label) TLS \(label): the callback itself \(us(c.seconds / Double(max(c.calls, 1)))) µs thread CPU per call (\(c.calls) calls, warm-up included)"
                        + (timedAgain
                            ? "; verify(_:name:) again right after: \(us(c.again / Double(max(c.calls, 1)))) µs" : "")
                        + "\n"
                )
            }
            let v = verdicts.withLockedValue { $0 }
            // Every Sigil handshake ran the callback (a full handshake, no resumption) and was accepted.
            // (sigil-timed runs the same verifier, observer included.)
            let sigilRuns = [kinds[2], kinds[5]].filter { selected.contains($0) }.count * (warmup + n)
            guard v.accepted == sigilRuns, v.refused == 0 else {
                throw BenchError("Sigil verdicts: \(v.accepted) accepted, \(v.refused) refused, expected \(sigilRuns)")
            }
            let cv = cachedVerdicts.withLockedValue { $0 }
            let cachedRan = selected.contains("sigil-cached")
            let stats = cache.statistics
            // One miss (the first handshake), every other handshake a hit.
            guard cv.accepted == (cachedRan ? warmup + n : 0), cv.refused == 0,
                stats.hits == (cachedRan ? warmup + n - 1 : 0)
            else {
                throw BenchError(
                    "Sigil cached verdicts: \(cv.accepted) accepted, \(cv.refused) refused, cache \(stats), expected \(warmup + n)"
                )
            }
            let (totalA, totalB) = (totals[1], totals[2])
            let base = totals[0].perHandshakeCPU
            let ratio = totalB.perHandshakeCPU / totalA.perHandshakeCPU
            let sorted = ratios.sorted()
            rows.append(
                "| \(chain.label) | \(label) | none (baseline) | \(totals[0].handshakes) | \(fmt(totals[0].rate, 0)) | \(us(base)) | | |"
            )
            rows.append(
                "| \(chain.label) | \(label) | custom callback accepting at once (NIOSSL's callback machinery, no check) | \(totals[3].handshakes) | \(fmt(totals[3].rate, 0)) | \(us(totals[3].perHandshakeCPU)) | \(us(totals[3].perHandshakeCPU - base)) | |"
            )
            rows.append(
                "| \(chain.label) | \(label) | NIOSSL (BoringSSL) | \(totalA.handshakes) | \(fmt(totalA.rate, 0)) | \(us(totalA.perHandshakeCPU)) | \(us(totalA.perHandshakeCPU - base)) | |"
            )
            rows.append(
                "| \(chain.label) | \(label) | Sigil | \(totalB.handshakes) | \(fmt(totalB.rate, 0)) | \(us(totalB.perHandshakeCPU)) | \(us(totalB.perHandshakeCPU - base)) | **\(fmt(ratio, 2))×** (rounds \(fmt(sorted.first!, 2))–\(fmt(sorted.last!, 2))) |"
            )
            if cachedRan {
                let c = totals[4]
                let cr = c.perHandshakeCPU / totalA.perHandshakeCPU
                let cs = cachedRatios.sorted()
                rows.append(
                    "| \(chain.label) | \(label) | Sigil, warm verdict cache (`verdictCache`: same server again) | \(c.handshakes) | \(fmt(c.rate, 0)) | \(us(c.perHandshakeCPU)) | \(us(c.perHandshakeCPU - base)) | **\(fmt(cr, 2))×** (rounds \(fmt(cs.first!, 2))–\(fmt(cs.last!, 2))) |"
                )
            }
            let met = ratio <= 0.9 ? "met" : "missed"
            summary.append(
                "- \(chain.label), TLS \(label): client CPU per handshake Sigil / NIOSSL = \(fmt(ratio, 3))×"
                    + " (goal ≤ 0.9×: \(met)); handshakes/s Sigil / NIOSSL = \(fmt(totalB.rate / totalA.rate, 3))×"
                    + (cachedRan
                        ? "; with a warm verdict cache \(fmt(totals[4].perHandshakeCPU / totalA.perHandshakeCPU, 3))×"
                        : ""))
        }
    }
    say(
        "| chain | TLS | client verification | handshakes | handshakes/s | client CPU µs/handshake | − baseline µs | CPU Sigil / NIOSSL |"
    )
    say("|---|---|---|---:|---:|---:|---:|---|")
    for r in rows { say(r) }
    say("")
    for s in summary { say(s) }
    try group.syncShutdownGracefully()
}

func load(_ args: BenchArguments) throws {
    let repo = args.string("repo", ".")
    let port = args.int("port", 0)
    let serverPID = Int32(args.int("server-pid", 0))
    let total = args.int("total", 100_000)
    let concurrency = max(1, args.int("concurrency", 8))
    let warmup = args.int("warmup", 5000)
    let maxSeconds = args.double("max-seconds", 600)
    guard port > 0, serverPID > 0 else { throw BenchError("--port and --server-pid are required") }
    let chain = BenchChain.all[0]
    var config = TLSConfiguration.makeClientConfiguration()
    config.trustRoots = .certificates([try nioCertificate(repo, chain.root)])
    config.certificateChain = [
        .certificate(try nioCertificate(repo, "Fixtures/tls/client.pem")),
        .certificate(try nioCertificate(repo, chain.intermediate)),
    ]
    config.privateKey = .privateKey(try NIOSSLPrivateKey(file: repo + "/Fixtures/tls/client.key", format: .pem))
    let context = try NIOSSLContext(configuration: config)
    let dialer = Dialer(
        port: port, handlers: { [try NIOSSLClientHandler(context: context, serverHostname: benchHost)] },
        waitForByte: true, expectVersion: nil)

    struct State {
        var started = 0
        var ok = 0
        var failed = 0
        var errors: [String] = []
        var rssWarm: Int?
        var samples: [(Int, Int)] = []
        var stopped = false
    }
    let state = NIOLockedValueBox(State())
    let group = MultiThreadedEventLoopGroup(numberOfThreads: args.int("threads", 1))
    let t0 = monotonicSeconds()
    let deadline = t0 + maxSeconds
    let step = max(total / 10, 1)

    func worker(_ loop: EventLoop, _ finished: EventLoopPromise<Void>) {
        let go: Bool = state.withLockedValue {
            if $0.started >= total || monotonicSeconds() > deadline {
                $0.stopped = $0.started < total
                return false
            }
            $0.started += 1
            return true
        }
        guard go else {
            finished.succeed(())
            return
        }
        dialer.once(on: loop).whenComplete { r in
            let sample: Bool = state.withLockedValue {
                switch r {
                case .success: $0.ok += 1
                case .failure(let e):
                    $0.failed += 1
                    if $0.errors.count < 5 { $0.errors.append("\(e)") }
                }
                let done = $0.ok + $0.failed
                return done == warmup || done % step == 0
            }
            if sample, let kb = residentKB(pid: serverPID) {
                let done = state.withLockedValue {
                    let d = $0.ok + $0.failed
                    if d == warmup { $0.rssWarm = kb }
                    $0.samples.append((d, kb))
                    return d
                }
                FileHandleStderr.write(
                    "load: \(done) handshakes, \(fmt(Double(done) / (monotonicSeconds() - t0), 0))/s, server VmRSS \(kb) kB\n"
                )
            }
            worker(loop, finished)
        }
    }

    var finishes: [EventLoopFuture<Void>] = []
    for _ in 0..<concurrency {
        let loop = group.next()
        let p = loop.makePromise(of: Void.self)
        loop.execute { worker(loop, p) }
        finishes.append(p.futureResult)
    }
    for f in finishes { try f.wait() }
    let elapsed = monotonicSeconds() - t0
    let rssEnd = residentKB(pid: serverPID) ?? -1
    let s = state.withLockedValue { $0 }
    let warm = s.rssWarm ?? -1
    let done = s.ok + s.failed
    say(
        "| handshakes | failed | connections in flight | seconds | handshakes/s | server VmRSS after \(warmup) | at the end | growth |"
    )
    say("|---:|---:|---:|---:|---:|---:|---:|---:|")
    say(
        "| \(done) | \(s.failed) | \(concurrency) | \(fmt(elapsed, 1)) | \(fmt(Double(done) / elapsed, 0)) | \(warm) kB | \(rssEnd) kB | **\(rssEnd - warm) kB** |"
    )
    say("")
    if s.stopped { say("Stopped at the \(fmt(maxSeconds, 0)) s limit before \(total) handshakes.") }
    say("Server VmRSS samples (handshakes: kB): " + s.samples.map { "\($0.0): \($0.1)" }.joined(separator: ", "))
    for e in s.errors { say("load error: \(e)") }
    try group.syncShutdownGracefully()
    if s.failed > 0 { exit(1) }
}

/// Where the Sigil callback's time goes, outside any handshake: per-call CPU time of the event-loop
/// thread (`CLOCK_THREAD_CPUTIME_ID`, `iterations` calls, best of 3) of each step the callback takes
/// on the certificates the server sends.
func micro(_ args: BenchArguments) throws {
    let repo = args.string("repo", ".")
    let iterations = args.int("iterations", 20000)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    func time(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let t0 = threadCPUSeconds()
            for _ in 0..<iterations { try body() }
            best = min(best, (threadCPUSeconds() - t0) / Double(iterations))
        }
        return best
    }
    // Cold caches, as inside a handshake (ML-KEM, X25519, the record layer and the kernel run
    // between two verifications): 8 MiB written before each call evicts the 2 MiB L2 (data and
    // code: it is unified) and L1; only the call itself is timed; a tenth of the iterations.
    var scratch = [UInt8](repeating: 0, count: 8 << 20)
    func evict() {
        scratch.withUnsafeMutableBytes { p in
            var i = 0
            while i < p.count {
                p[i] &+= 1
                i += 64
            }
        }
    }
    func timeCold(_ body: () throws -> Void) rethrows -> Double {
        let n = max(1, iterations / 10)
        var best = Double.infinity
        for _ in 0..<3 {
            var total = 0.0
            for _ in 0..<n {
                evict()
                let t0 = threadCPUSeconds()
                try body()
                total += threadCPUSeconds() - t0
            }
            best = min(best, total / Double(n))
        }
        return best
    }
    say("| chain | step (per handshake: leaf + intermediate) | µs |")
    say("|---|---|---:|")
    for chain in BenchChain.all {
        let nio = [try nioCertificate(repo, chain.leaf), try nioCertificate(repo, chain.intermediate)]
        let ders = try nio.map { try $0.toDERBytes() }
        let anchors = try Certificate.all(from: try readFile(repo + "/" + chain.root))
        let verifier = SigilServerTrustVerifier(anchors: anchors)
        let parsed = try ders.map { try Certificate(der: $0) }
        let now = WallClock.now()
        let callback = verifier.makeCallback(serverHostname: benchHost, verdicts: SigilTLSVerdictBox())
        var cachedVerifier = verifier
        cachedVerifier.verdictCache = VerdictCache(capacity: 16)
        let cachedCallback = cachedVerifier.makeCallback(serverHostname: benchHost, verdicts: SigilTLSVerdictBox())
        var sink = 0
        let rows: [(String, Double)] = try loop.submit {
            [
                (
                    "NIOSSL: DER → NIOSSLCertificate (d2i_X509; NIOSSL does it before calling back)",
                    try time { for d in ders { sink &+= try NIOSSLCertificate(bytes: d, format: .der).hashValue } }
                ),
                (
                    "Sigil: NIOSSLCertificate → DER (toDERBytes)",
                    try time { for c in nio { sink &+= try c.toDERBytes().count } }
                ),
                (
                    "Sigil: parse (Certificate(der:))",
                    try time { for d in ders { sink &+= try Certificate(der: d).der.count } }
                ),
                (
                    "Sigil: evaluate (path + host + 2 signatures)",
                    time { sink &+= verifier.verify(certificates: parsed, name: benchHost, at: now).accepted ? 1 : 0 }
                ),
                (
                    "Sigil: verify(_:name:) (DER + parse + evaluate)",
                    time { sink &+= verifier.verify(nio, name: benchHost).accepted ? 1 : 0 }
                ),
                (
                    "Sigil: the whole callback (+ validated chain for NIOSSL, promise)",
                    time {
                        let p = loop.makePromise(of: NIOSSLVerificationResultWithMetadata.self)
                        callback(nio, p)
                        p.futureResult.whenSuccess { if case .certificateVerified = $0 { sink &+= 1 } }
                    }
                ),
                (
                    "NIOSSL: DER → NIOSSLCertificate, caches cold (L1/L2 evicted before each call)",
                    try timeCold { for d in ders { sink &+= try NIOSSLCertificate(bytes: d, format: .der).hashValue } }
                ),
                (
                    "Sigil: the whole callback, caches cold (L1/L2 evicted before each call)",
                    timeCold {
                        let p = loop.makePromise(of: NIOSSLVerificationResultWithMetadata.self)
                        callback(nio, p)
                        p.futureResult.whenSuccess { if case .certificateVerified = $0 { sink &+= 1 } }
                    }
                ),
                (
                    "Sigil: the whole callback with a warm verdict cache, caches cold",
                    timeCold {
                        let p = loop.makePromise(of: NIOSSLVerificationResultWithMetadata.self)
                        cachedCallback(nio, p)
                        p.futureResult.whenSuccess { if case .certificateVerified = $0 { sink &+= 1 } }
                    }
                ),
                (
                    "Sigil: the whole callback with a warm verdict cache",
                    time {
                        let p = loop.makePromise(of: NIOSSLVerificationResultWithMetadata.self)
                        cachedCallback(nio, p)
                        p.futureResult.whenSuccess { if case .certificateVerified = $0 { sink &+= 1 } }
                    }
                ),
            ]
        }.wait()
        for (what, t) in rows { say("| \(chain.label) | \(what) | \(fmt(t * 1e6, 2)) |") }
        if sink == 42 { say("") }
    }
    try group.syncShutdownGracefully()
}

func us(_ seconds: Double) -> String { fmt(seconds * 1e6, 1) }

func fmt(_ x: Double, _ digits: Int) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (x * p).rounded() / p
    if digits == 0 { return String(Int(r)) }
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let have = s.distance(from: dot, to: s.endIndex) - 1
        if have < digits { s += String(repeating: "0", count: digits - have) }
    }
    return s
}

enum FileHandleStderr {
    static func write(_ s: String) {
        fputs(s, stderr)
    }
}

signal(SIGPIPE, SIG_IGN)
let arguments = BenchArguments(CommandLine.arguments)
do {
    switch arguments.command {
    case "bench": try bench(arguments)
    case "load": try load(arguments)
    case "micro": try micro(arguments)
    default:
        say("usage: tls-bench-client bench|load … (see the header of Sources/TLSBenchClient/main.swift)")
        exit(2)
    }
} catch {
    fputs("tls-bench-client: \(error)\n", stderr)
    exit(1)
}
