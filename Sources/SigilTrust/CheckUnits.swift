@_spi(SigilInternal) import SigilX509

/// One group of path-validation checks, as a unit: the certificate extensions it processes
/// and the failure kinds it can produce. The extensions a verification understands when they
/// are marked critical (RFC 5280 §4.2: "A certificate-using system MUST reject the certificate
/// if it encounters a critical extension it does not recognize") are derived from the units,
/// once (`CheckUnit.understoodCritical`), for both the fact block (CertificateFacts.swift) and
/// the failure messages (Checks.swift). A new check declares itself here: its extensions are
/// then understood, and `CheckUnitTests` requires every failure kind to belong to a unit.
struct CheckUnit: Sendable {
    /// A short name.
    let name: String
    /// The clauses the unit implements.
    let clauses: String
    /// Extensions the unit processes (OID content octets): understood when critical.
    let understoodExtensions: [[UInt8]]
    /// Extensions the unit reads that conforming CAs must mark non-critical (with the clause
    /// saying so): refused when critical, under the server and client profiles.
    let mustBeNonCritical: [([UInt8], String)]
    /// The failure kinds the unit produces.
    let failureKinds: [TrustFailureKind]

    init(
        _ name: String, clauses: String, understands: [[UInt8]] = [],
        mustBeNonCritical: [([UInt8], String)] = [], produces: [TrustFailureKind]
    ) {
        self.name = name
        self.clauses = clauses
        self.understoodExtensions = understands
        self.mustBeNonCritical = mustBeNonCritical
        self.failureKinds = produces
    }
}

extension CheckUnit {
    /// Path building: candidate issuers, loops, the depth limit and the one work budget
    /// (ChainVerifier.swift, CandidatePool.swift).
    static let pathBuilding = CheckUnit(
        "path building", clauses: "RFC 5280 §6.1, §6.1.4 (l); RFC 4158",
        produces: [.unknownIssuer, .untrustedRoot, .maximumDepthExceeded, .budgetExhausted])
    /// Validity periods of every certificate, the anchor's included (Checks.within).
    static let validity = CheckUnit(
        "validity", clauses: "RFC 5280 §4.1.2.5, §6.1.3 (a)(2)", produces: [.expired, .notYetValid])
    /// Structure and encoding rules every certificate meets: critical extensions, the key
    /// identifiers, the serial number, the issuer name (Checks.commonFailures).
    static let structure = CheckUnit(
        "structure", clauses: "RFC 5280 §4.1.2.2, §4.1.2.4, §4.2, §4.2.1.1, §4.2.1.2; BR §7.1.2",
        mustBeNonCritical: [
            (OID.authorityKeyIdentifier, "authorityKeyIdentifier (RFC 5280 §4.2.1.1)"),
            (OID.subjectKeyIdentifier, "subjectKeyIdentifier (RFC 5280 §4.2.1.2)"),
            (OID.authorityInfoAccess, "authorityInfoAccess (RFC 5280 §4.2.2.1)"),
            (OID.cRLDistributionPoints, "cRLDistributionPoints (BR §7.1.2)"),
        ],
        produces: [.malformedCertificate, .unsupportedCriticalExtension, .profileViolation])
    /// basicConstraints and keyUsage: CA status, path length, the key's uses
    /// (Checks.caFailure, Checks.leafFailures, the path length in ChainVerifier.check).
    static let basicConstraintsAndKeyUsage = CheckUnit(
        "basic constraints and key usage",
        clauses: "RFC 5280 §4.2.1.3, §4.2.1.9, §6.1.4 (k)–(n); RFC 8446 §4.4.2.2",
        understands: [OID.basicConstraints, OID.keyUsage],
        produces: [.notACA, .pathLengthExceeded, .keyUsage, .profileViolation])
    /// The purpose's extended key usage in the leaf and in issuers that carry one
    /// (Checks.forEachMissingEKU).
    static let extendedKeyUsage = CheckUnit(
        "extended key usage", clauses: "RFC 5280 §4.2.1.12; BR §7.1.2.7.10",
        understands: [OID.extKeyUsage], produces: [.extendedKeyUsage, .profileViolation])
    /// The subject alternative name: its syntax and the host or e-mail checked
    /// (Checks.subjectNameFailures, NameChecks.identityFailures).
    static let names = CheckUnit(
        "names", clauses: "RFC 5280 §4.2.1.6; RFC 6125 §6; BR §7.1.2.7.12",
        understands: [OID.subjectAltName], produces: [.nameMismatch, .profileViolation])
    /// CAs' name constraints on the certificates below them (NameChecks.constraints).
    static let nameConstraints = CheckUnit(
        "name constraints", clauses: "RFC 5280 §4.2.1.10, §6.1.3 (b), (c)",
        understands: [OID.nameConstraints],
        produces: [.nameConstraintViolated, .nameConstraintUnsupported, .profileViolation, .budgetExhausted])
    /// Certificate policy processing on the complete path (PathPolicies.swift, PolicyTree.swift).
    static let certificatePolicies = CheckUnit(
        "certificate policies", clauses: "RFC 5280 §4.2.1.4, §4.2.1.5, §4.2.1.11, §4.2.1.14, §6.1",
        understands: [OID.certificatePolicies, OID.policyMappings, OID.policyConstraints, OID.inhibitAnyPolicy],
        produces: [.invalidPolicy, .profileViolation, .malformedCertificate, .budgetExhausted])
    /// Signature and key algorithms, and the signatures themselves (Checks.algorithmFailure,
    /// Checks.keyFailure, the signature verdicts in ChainVerifier.check).
    static let algorithms = CheckUnit(
        "algorithms", clauses: "RFC 5280 §6.1.3 (a)(1); BR §6.1.5, §7.1.3; RFC 8410",
        produces: [.unsupportedAlgorithm, .weakAlgorithm, .weakKey, .badSignature, .malformedCertificate])
    /// Revocation of the complete path by CRLs and OCSP responses (Revocation/).
    static let revocation = CheckUnit(
        "revocation", clauses: "RFC 5280 §6.3; RFC 6960",
        produces: [.revoked, .revocationUndetermined, .budgetExhausted])
    /// Certificate Transparency, judged on a trusted path by the module Sigil (CT/).
    static let certificateTransparency = CheckUnit(
        "certificate transparency", clauses: "RFC 6962; Apple's and Chrome's CT policies",
        produces: [.certificateTransparency])

    /// Every unit, in the order a path meets them.
    static let all: [CheckUnit] = [
        pathBuilding, validity, structure, basicConstraintsAndKeyUsage, extendedKeyUsage, names, nameConstraints,
        certificatePolicies, algorithms, revocation, certificateTransparency,
    ]

    /// The extensions understood when critical: every unit's, once.
    static let understoodCritical: [[UInt8]] = all.flatMap(\.understoodExtensions)

    /// The extensions conforming CAs must mark non-critical, with the clause saying so.
    static let mustBeNonCritical: [([UInt8], String)] = all.flatMap(\.mustBeNonCritical)

    /// `understoodCritical` as `TrustExtensions.Bit`s (every understood extension is one the
    /// extension index knows: checked by `CheckUnitTests`).
    static let understoodCriticalBits: UInt32 = bits(understoodCritical)

    /// `mustBeNonCritical` as `TrustExtensions.Bit`s.
    static let mustBeNonCriticalBits: UInt32 = bits(mustBeNonCritical.map { $0.0 })

    static func bits(_ oids: [[UInt8]]) -> UInt32 {
        oids.reduce(0) { $0 | (TrustExtensions.Bit.of($1) ?? 0) }
    }
}
