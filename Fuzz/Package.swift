// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for Sigil. A separate package so the library keeps no dependency but GMP.
//
// Layout (add a target in three steps):
//   1. a walk function in `FuzzSupport` (or in its own library target if it needs another
//      dependency, as `FuzzDifferential` needs swift-asn1),
//   2. an executable target `Fuzz<Name>` whose `main.swift` only forwards
//      `LLVMFuzzerTestOneInput` to that function,
//   3. its name in `TARGETS` in `run-all.sh`, seeds in `make-corpus.sh`.
// Build and run with `Fuzz/run.sh Fuzz<Name> [SECONDS]` (see README.md).
let package = Package(
    name: "SigilFuzz",
    dependencies: [
        .package(name: "Sigil", path: ".."),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
    ],
    targets: [
        // Walk functions shared by the fuzz targets (and, for DERWalk.swift, by the regression
        // replay in the root package's Tests/SigilDERTests, through a symlink).
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "SigilDER", package: "Sigil"),
                .product(name: "SigilX509", package: "Sigil"),
                .product(name: "SigilCrypto", package: "Sigil"),
                .product(name: "SigilTrust", package: "Sigil"),
                .product(name: "Sigil", package: "Sigil"),
            ]
        ),
        // Sigil's DER reader against apple/swift-asn1.
        .target(
            name: "FuzzDifferential",
            dependencies: [
                .product(name: "SigilDER", package: "Sigil"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // OpenSSL's libcrypto, for the differential verification only (signing the mutated
        // certificates, X509_verify_cert). Never a dependency of the library targets.
        .target(name: "COpenSSLDiff", linkerSettings: [.linkedLibrary("crypto")]),
        // Sigil's verdict against OpenSSL's on generated, mutated, re-signed chains.
        .target(name: "FuzzDiffVerify", dependencies: ["FuzzSupport", "COpenSSLDiff"]),
        .executableTarget(name: "FuzzDER", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzDifferentialDER", dependencies: ["FuzzDifferential", "FuzzSupport"]),
        .executableTarget(name: "FuzzCertificate", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPEM", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzNames", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzSignature", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzVerify", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPolicy", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzInspect", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzVerifyDiff", dependencies: ["FuzzDiffVerify", "FuzzSupport"]),
        .executableTarget(name: "FuzzSecurityPolicy", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzTrustStore", dependencies: ["FuzzSupport"]),
        // The same comparison outside libFuzzer (seeded batch, disagreement table): built
        // by Fuzz/diffbatch.sh with -DSIGIL_FUZZ_STANDALONE; a no-op fuzz target otherwise.
        .executableTarget(name: "diffbatch", dependencies: ["FuzzDiffVerify"]),
        .executableTarget(name: "FuzzCRL", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzOCSP", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzCT", dependencies: ["FuzzSupport"]),
    ]
)
