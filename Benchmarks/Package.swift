// swift-tools-version:6.1
import PackageDescription

// Sigil benchmarks beside its peers (swift-certificates, OpenSSL's libcrypto) in one process,
// on the same inputs. Its own package so the root `swift test` stays fast.
let package = Package(
    name: "SigilBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Sigil", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        // Already in the graph through swift-certificates; named so the Ed25519 primitive can be
        // measured without swift-certificates around it.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        // OpenSSL's libcrypto (pkg-config `libcrypto`), with a few C helpers so the benchmark
        // calls one function per operation and no OpenSSL macro crosses into Swift.
        .target(
            name: "COpenSSL",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // Heap retained by the loaded system bundle, per library (run.sh's "Memory" table).
        .executableTarget(
            name: "SigilMemory",
            dependencies: [
                .product(name: "Sigil", package: "Sigil"),
                .product(name: "X509", package: "swift-certificates"),
                "COpenSSL",
            ]
        ),
        .executableTarget(
            name: "SigilBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sigil", package: "Sigil"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                "COpenSSL",
            ],
            path: "Benchmarks/SigilBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
