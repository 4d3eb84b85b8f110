import Benchmark

// Sigil beside swift-certificates and OpenSSL, same process, same inputs. See ../../run.sh.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .milliseconds(1500),
        maxIterations: 200_000
    )
    registerSigilBenchmarks()
    registerSwiftCertificatesBenchmarks()
    registerSwiftCryptoBenchmarks()
    registerOpenSSLBenchmarks()
    registerRevocationBenchmarks()
    registerCTBenchmarks()
}
