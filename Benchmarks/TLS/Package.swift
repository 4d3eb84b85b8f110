// swift-tools-version:6.1
import PackageDescription

// TLS handshake benchmark (issue 24 item 3): a NIO + NIOSSL server in its own process and a NIO
// client that times full handshakes with NIOSSL's BoringSSL verification and with SigilNIO.
// Its own package with the root package's `NIO` trait, so neither the root `swift build` /
// `swift test` nor CI compile BoringSSL for it. Run it with `bash Benchmarks/TLS/run.sh`.
let package = Package(
    name: "SigilTLSBenchmark",
    dependencies: [
        .package(name: "Sigil", path: "../..", traits: ["NIO"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Fixture paths, command-line parsing, small helpers shared by both executables.
        .target(
            name: "TLSBenchCommon",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "tls-bench-server",
            dependencies: [
                "TLSBenchCommon",
                .product(name: "Sigil", package: "Sigil"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SigilNIO", package: "Sigil"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/TLSBenchServer"
        ),
        .executableTarget(
            name: "tls-bench-client",
            dependencies: [
                "TLSBenchCommon",
                .product(name: "Sigil", package: "Sigil"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SigilNIO", package: "Sigil"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/TLSBenchClient"
        ),
    ],
    swiftLanguageModes: [.v5]
)
