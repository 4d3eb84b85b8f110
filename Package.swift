// swift-tools-version:6.1
import PackageDescription

// Library targets depend on nothing but GMP (system library) and avoid Foundation.
// Benchmarks/ and Fuzz/ are separate packages that depend on this one by path.
let package = Package(
    name: "Sigil",
    products: [
        .library(name: "Sigil", targets: ["Sigil"]),
        .library(name: "SigilDER", targets: ["SigilDER"]),
        .library(name: "SigilX509", targets: ["SigilX509"]),
        .library(name: "SigilCrypto", targets: ["SigilCrypto"]),
        .library(name: "SigilTrust", targets: ["SigilTrust"]),
        .library(name: "SigilNIO", targets: ["SigilNIO"]),
        .executable(name: "sigil", targets: ["SigilCLI"]),
        .executable(name: "pinned-https-get", targets: ["PinnedHTTPSGet"]),
    ],
    // The NIO trait (off by default) brings swift-nio-ssl, which vendors BoringSSL (≈ 5 minutes
    // to compile on 2 cores): the plain `swift build` / `swift test` never compile it. Build the
    // integration with `swift build --traits NIO --scratch-path .build-nio` (see README).
    traits: [
        .trait(
            name: "NIO",
            description:
                "SigilNIO: verification inside swift-nio-ssl handshakes; sigil fetch, verify --connect, live ats"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(name: "SigilDER"),
        // Base64 decoding with AVX2 (per-function target attributes, run-time CPU check) for the
        // PEM reader's body lines; portable Swift otherwise.
        .target(name: "CSigilBase64"),
        .target(name: "SigilX509", dependencies: ["SigilDER", "CSigilBase64"]),
        .systemLibrary(name: "CGMP", pkgConfig: "gmp", providers: [.apt(["libgmp-dev"])]),
        // SHA-NI compression function: a C target so only these functions are compiled
        // with the SHA extensions enabled (per-function target attributes), chosen at run time.
        .target(name: "CSigilSHA"),
        // Montgomery multiplication with MULX/ADX (per-function target attributes, run-time
        // CPU check), for RSA: the distribution's GMP may not select such kernels.
        .target(name: "CSigilBignum"),
        .target(name: "SigilCrypto", dependencies: ["SigilDER", "SigilX509", "CGMP", "CSigilSHA", "CSigilBignum"]),
        .target(name: "SigilTrust", dependencies: ["SigilDER", "SigilX509"]),
        .target(name: "Sigil", dependencies: ["SigilDER", "SigilX509", "SigilCrypto", "SigilTrust"]),
        // Without the NIO trait this is an empty module (its sources are `#if NIO`).
        .target(
            name: "SigilNIO",
            dependencies: [
                "Sigil",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIO"])),
            ]
        ),
        .executableTarget(
            name: "SigilCLI",
            dependencies: [
                "Sigil", "SigilNIO", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIO"])),
            ]
        ),
        // Example (NIO trait): an HTTPS GET over NIOHTTP1 with a pinned SecurityPolicy.
        .executableTarget(
            name: "PinnedHTTPSGet",
            dependencies: [
                "Sigil", "SigilNIO",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIO"])),
            ],
            path: "Examples/PinnedHTTPSGet"
        ),
        // Helpers shared by the test targets (paths, fixtures, running openssl/python).
        .target(name: "SigilTestSupport", path: "Tests/SigilTestSupport"),
        .testTarget(name: "SigilDERTests", dependencies: ["SigilDER", "SigilTestSupport"]),
        .testTarget(
            name: "SigilX509Tests", dependencies: ["SigilX509", "SigilDER", "CSigilBase64", "SigilTestSupport"]),
        .testTarget(
            name: "SigilCryptoTests", dependencies: ["SigilCrypto", "SigilX509", "SigilDER", "SigilTestSupport"]),
        .testTarget(name: "SigilTrustTests", dependencies: ["Sigil", "SigilTestSupport"]),
        .testTarget(name: "SigilTests", dependencies: ["Sigil", "SigilTestSupport"]),
        // Loopback handshakes (openssl s_server + a NIO server in the process); empty without
        // the trait. Run: swift test --traits NIO --scratch-path .build-nio --filter SigilNIOTests
        .testTarget(
            name: "SigilNIOTests",
            dependencies: [
                "SigilNIO", "Sigil", "SigilTestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIO"])),
            ]
        ),
    ]
)
