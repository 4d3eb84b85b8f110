import SigilDER
@_spi(SigilInternal) import SigilX509

/// One group of path-validation checks, as a unit: the certificate extensions it processes,
/// the failure kinds it can produce, and its checks of one certificate (the leaf's, an
/// issuer's). Each unit is one file of `Sources/SigilTrust/Checks/`, holding all three.
///
/// The extensions a verification understands when they are marked critical (RFC 5280 §4.2: "A
/// certificate-using system MUST reject the certificate if it encounters a critical extension
/// it does not recognize") are derived from the units, once (`understoodCritical`, and its bit
/// set `understoodCriticalBits`, read by `CertificateFacts` and by the structure unit's
/// messages). `CheckUnit.all` is the only registry: nothing else lists the units, their
/// extensions or their failure kinds, or decides the order their checks run in.
///
/// ## Adding a check
///
/// A new check is one file, `Sources/SigilTrust/Checks/<Name>Check.swift`, and one case:
///
/// 1. Declare the unit, `extension CheckUnit { static let <name> = CheckUnit(.<name>, …) }`: its
///    `ID`, a name, the clauses it implements, the extensions it processes (`understands:`; RFC
///    5280 §4.2 makes a critical extension acceptable only when some unit processes it, so list
///    an extension only when the unit really enforces it), the extensions conforming CAs must
///    mark non-critical (`mustBeNonCritical:`) and the failure kinds it produces (`produces:`).
/// 2. Give it its checks of one certificate as `static func`s of `Checks` in the same file: of
///    the leaf (the end entity, path-independent) and of an issuer (an intermediate or the
///    anchor acting as issuer; the verdict is cached per certificate), functions of the
///    certificate, its `CertificateFacts`, its role and the options appending `TrustFailure`s at
///    index 0 (the verifier places them on the path). Append nothing on the trusted path that
///    allocates (build messages and context only for failures). A check that needs the whole
///    path (like policies or revocation) is an `extension Session` method in the same file,
///    called where the path is complete (ChainVerifier.swift).
/// 3. Add its case to `CheckUnit.ID`, with its checks in `ID.leafChecks` / `ID.issuerChecks`
///    (one `switch` each: direct calls, no closure; the compiler refuses a case left out), and
///    the unit to `all` (its place decides the order of equal-ranked failures).
///
/// A new failure kind is one row of `TrustFailureKind.metadata` (TrustResult.swift: its rank,
/// name and whether it is recoverable) and belongs to a unit (`CheckUnitTests` checks both).
struct CheckUnit: Sendable {
    /// Which unit: selects its checks of one certificate (`leafChecks`, `issuerChecks`).
    enum ID: Sendable {
        case pathBuilding, validity, structure, nameConstraints, basicConstraintsAndKeyUsage, extendedKeyUsage
        case algorithms, names, certificatePolicies, revocation, certificateTransparency
    }

    /// Which unit.
    let id: ID
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
    /// Whether its checks still run on a certificate whose extensions do not all decode
    /// (`CertificateFacts.Flags.malformedExtensions`): only the units that report that.
    let runsOnMalformed: Bool

    init(
        _ id: ID, _ name: String, clauses: String, understands: [[UInt8]] = [],
        mustBeNonCritical: [([UInt8], String)] = [], produces: [TrustFailureKind], runsOnMalformed: Bool = false
    ) {
        self.id = id
        self.name = name
        self.clauses = clauses
        self.understoodExtensions = understands
        self.mustBeNonCritical = mustBeNonCritical
        self.failureKinds = produces
        self.runsOnMalformed = runsOnMalformed
    }
}

extension CheckUnit.ID {
    /// The unit's checks of the end-entity certificate `c` (facts `f`; `subjectAltNames`: its
    /// decoded subjectAltName when the caller has it), independent of the path: appended to
    /// `out`. Nothing for the units that judge only the whole path.
    @inline(__always)
    func leafChecks(
        _ c: Certificate, _ f: CertificateFacts, _ subjectAltNames: GeneralNames?, _ options: VerificationOptions,
        _ out: inout [TrustFailure]
    ) {
        switch self {
        case .validity: Checks.validityFailures(c, options, &out)
        case .structure: Checks.leafStructureFailures(c, f, options, &out)
        case .nameConstraints: Checks.leafNameConstraintFailures(f, &out)
        case .basicConstraintsAndKeyUsage: Checks.leafKeyUsageFailures(f, options, &out)
        case .extendedKeyUsage: Checks.leafEKUFailures(c, f, options, &out)
        case .algorithms: Checks.leafKeyFailures(c, f, options, &out)
        case .names: Checks.leafNameFailures(c, f, subjectAltNames, options, &out)
        case .pathBuilding, .certificatePolicies, .revocation, .certificateTransparency: break
        }
    }

    /// The unit's checks of `c` (facts `f`) acting as an issuer (intermediate, or the anchor
    /// when `isAnchor`), independent of the path: appended to `out`.
    @inline(__always)
    func issuerChecks(
        _ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, systemAnchor: Bool, _ options: VerificationOptions,
        _ out: inout [TrustFailure]
    ) {
        switch self {
        case .validity: Checks.validityFailures(c, options, &out)
        case .structure:
            Checks.append(
                Checks.commonFailures(c, f, isAnchor: isAnchor, systemAnchor: systemAnchor, options: options), to: &out)
        case .basicConstraintsAndKeyUsage:
            Checks.issuerCAFailures(c, f, isAnchor: isAnchor, systemAnchor: systemAnchor, options, &out)
        case .extendedKeyUsage: Checks.issuerEKUFailures(c, f, isAnchor: isAnchor, options, &out)
        case .algorithms: Checks.issuerKeyFailures(c, f, options, &out)
        case .pathBuilding, .nameConstraints, .names, .certificatePolicies, .revocation, .certificateTransparency:
            break
        }
    }
}

extension CheckUnit {
    /// Path building: candidate issuers, loops, the depth limit and the one work budget
    /// (PathBuilding/: PathBuilder.swift, CandidatePool.swift, VerificationBudget.swift).
    static let pathBuilding = CheckUnit(
        .pathBuilding, "path building", clauses: "RFC 5280 §6.1, §6.1.4 (l); RFC 4158",
        produces: [.unknownIssuer, .untrustedRoot, .maximumDepthExceeded, .budgetExhausted])

    /// Every unit, in the order their checks run on one certificate (failures of equal rank
    /// are reported in this order). The only registry: the lists below are derived from it.
    static let all: [CheckUnit] = [
        pathBuilding, validity, structure, nameConstraints, basicConstraintsAndKeyUsage, extendedKeyUsage,
        algorithms, names, certificatePolicies, revocation, certificateTransparency,
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

    /// The units, in order (derived once: the verification walks only these).
    static let order: [ID] = all.map(\.id)
    /// The units that run on a certificate whose extensions do not decode, in order.
    static let orderWhenMalformed: [ID] = all.filter(\.runsOnMalformed).map(\.id)

    static func bits(_ oids: [[UInt8]]) -> UInt32 {
        oids.reduce(0) { $0 | (TrustExtensions.Bit.of($1) ?? 0) }
    }
}

/// The path-independent checks of one certificate: every unit's, in the order of `CheckUnit.all`.
enum Checks {
    /// `out += failures`, skipped when there are none (the trusted path: appending an empty
    /// array still makes `out` a buffer of its own).
    @inline(__always)
    static func append(_ failures: [TrustFailure], to out: inout [TrustFailure]) {
        if !failures.isEmpty { out += failures }
    }

    /// Checks of the end-entity certificate that do not depend on the path.
    /// `subjectAltNames` is `c`'s decoded subjectAltName when the caller has it (nil: decoded here).
    static func leafFailures(
        _ c: Certificate, _ f: CertificateFacts, subjectAltNames: GeneralNames? = nil, options: VerificationOptions
    ) -> [TrustFailure] {
        var out: [TrustFailure] = []
        let units = f.has(.malformedExtensions) ? CheckUnit.orderWhenMalformed : CheckUnit.order
        for unit in units { unit.leafChecks(c, f, subjectAltNames, options, &out) }
        return out
    }

    /// A certificate acting as an issuer (intermediate or anchor): its most important failure
    /// (the first of the highest rank), or nil.
    /// `systemAnchor`: `c` is an anchor from the system store (`AnchorSource.system`).
    static func caFailure(
        _ c: Certificate, _ f: CertificateFacts, isAnchor: Bool, systemAnchor: Bool = false,
        options: VerificationOptions
    ) -> TrustFailure? {
        var failures: [TrustFailure] = []
        // On a malformed certificate only the units that report it run: the others' failures
        // rank below `malformedCertificate` and would not be chosen.
        let units = f.has(.malformedExtensions) ? CheckUnit.orderWhenMalformed : CheckUnit.order
        for unit in units {
            unit.issuerChecks(c, f, isAnchor: isAnchor, systemAnchor: systemAnchor, options, &failures)
        }
        return failures.max { $0.kind < $1.kind }
    }
}
