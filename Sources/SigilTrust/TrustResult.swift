import SigilDER
import SigilX509

/// Why a chain is not trusted. Each kind is produced by a check unit (Checks/CheckUnit.swift).
///
/// When several candidate paths fail, or one path fails several checks, the failures are
/// ordered by `rank` (see `TrustFailure.sortedByRank`), not by the raw values, which only
/// identify the cases.
public enum TrustFailureKind: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// No certificate found for an issuer name (and the certificate is not self-issued).
    case unknownIssuer = 1
    /// The path ends at a self-issued certificate that is not an anchor.
    case untrustedRoot
    /// Path building gave up: the single `VerificationBudget` of the verification ran out.
    case budgetExhausted
    /// More intermediates than `VerificationOptions.maximumDepth`, or a path longer than
    /// `ChainVerifier.maximumPathLength`.
    case maximumDepthExceeded
    /// A signature or key algorithm Sigil cannot verify, or one the algorithm policy refuses
    /// outright (RSA-PSS when disallowed).
    case unsupportedAlgorithm
    /// A digest or signature algorithm the algorithm policy does not allow.
    case weakAlgorithm
    /// A key too small or on a curve the algorithm policy does not allow.
    case weakKey
    /// A signature does not verify with the issuer's key.
    case badSignature
    /// An issuer is not a CA: basicConstraints missing or with cA FALSE, or a v1/v2 certificate
    /// (RFC 5280 §6.1.4 (k)). An issuer's keyUsage without keyCertSign is `keyUsage`.
    case notACA
    /// A CA's pathLenConstraint is exceeded (RFC 5280 §6.1.4 (l), (m)).
    case pathLengthExceeded
    /// A keyUsage does not allow the certificate's use: an issuer's lacks keyCertSign (RFC 5280
    /// §6.1.4 (n)); the leaf's lacks `VerificationOptions.requiredKeyUsage` or every TLS use
    /// of the server/client profile (RFC 8446 §4.4.2.2), or sets keyCertSign without cA
    /// (§4.2.1.3).
    case keyUsage
    /// The extended key usage required for the purpose (`VerificationOptions.requiredEKUs`) is
    /// missing from the leaf's or an issuer's extKeyUsage, or the leaf of a server/client
    /// profile lists anyExtendedKeyUsage (BR §7.1.2.7.10).
    case extendedKeyUsage
    /// A critical extension Sigil does not process (RFC 5280 §4.2).
    case unsupportedCriticalExtension
    /// A name is outside a CA's name constraints (RFC 5280 §4.2.1.10).
    case nameConstraintViolated
    /// A name constraint could not be evaluated (unsupported form, malformed constraint).
    case nameConstraintUnsupported
    /// RFC 5280 §6.1 certificate policy processing rejected the path (no acceptable policy
    /// under an explicit-policy requirement, anyPolicy mapped, a duplicate policy).
    case invalidPolicy
    /// A certificate breaks the RFC 5280 / CA/B Forum profile.
    case profileViolation
    /// A certificate could not be decoded.
    case malformedCertificate
    /// The verification time is before notBefore.
    case notYetValid
    /// The verification time is after notAfter.
    case expired
    /// The leaf is not valid for the expected host, IP address or e-mail address.
    case nameMismatch
    /// Revocation (RFC 5280 §6.3, RFC 6960): the status could not be established (hard fail).
    case revocationUndetermined
    /// A CRL or OCSP response says the certificate is revoked.
    case revoked
    /// The leaf does not meet the Certificate Transparency policy required of it (RFC 6962
    /// SCTs; Apple's or Chrome's policy), or CT was required and could not be checked.
    case certificateTransparency

    /// The importance of the failure: higher ranks are reported first. The order follows how
    /// far a path got before failing: nothing found (`unknownIssuer`, `untrustedRoot`) ranks
    /// lowest; resource limits next; then cryptographic and structural failures of a path that
    /// reached an anchor; then failures of a path that is otherwise complete (validity dates,
    /// the name), which say most precisely what the caller would have to change. Stated
    /// explicitly (`metadata`) so reordering the cases cannot change the ranking.
    public var rank: Int { metadata.rank }

    /// Orders by `rank`.
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }

    /// A short human-readable name (also the `kind` of the CLI's JSON output).
    public var name: String { metadata.name }

    /// What is known of a kind, in one place: its rank, its name, and whether it is
    /// recoverable (`isRecoverable`: another policy, time or set of anchors could accept the
    /// chain; see that property for the reasoning per kind).
    struct Metadata {
        let rank: Int
        let name: String
        let isRecoverable: Bool
    }

    /// The one table of per-kind metadata: a new kind is one row here (and one unit
    /// producing it, Checks/CheckUnit.swift).
    var metadata: Metadata {
        switch self {
        case .unknownIssuer: return Metadata(rank: 10, name: "unknown issuer", isRecoverable: true)
        case .untrustedRoot: return Metadata(rank: 20, name: "untrusted root", isRecoverable: true)
        // A peer whose certificates make path building explode: retrying cannot help.
        case .budgetExhausted: return Metadata(rank: 30, name: "path building budget exhausted", isRecoverable: false)
        case .maximumDepthExceeded: return Metadata(rank: 40, name: "maximum depth exceeded", isRecoverable: true)
        // No policy makes Sigil verify it.
        case .unsupportedAlgorithm: return Metadata(rank: 50, name: "unsupported algorithm", isRecoverable: false)
        case .weakAlgorithm: return Metadata(rank: 60, name: "weak algorithm", isRecoverable: true)
        case .weakKey: return Metadata(rank: 70, name: "weak key", isRecoverable: true)
        case .badSignature: return Metadata(rank: 80, name: "bad signature", isRecoverable: false)
        case .notACA: return Metadata(rank: 90, name: "not a CA", isRecoverable: false)
        case .pathLengthExceeded: return Metadata(rank: 100, name: "path length exceeded", isRecoverable: false)
        case .keyUsage: return Metadata(rank: 110, name: "key usage", isRecoverable: true)
        case .extendedKeyUsage: return Metadata(rank: 120, name: "extended key usage", isRecoverable: true)
        case .unsupportedCriticalExtension:
            return Metadata(rank: 130, name: "unsupported critical extension", isRecoverable: false)
        case .nameConstraintViolated:
            return Metadata(rank: 140, name: "name constraint violated", isRecoverable: false)
        case .nameConstraintUnsupported:
            return Metadata(rank: 150, name: "name constraint unsupported", isRecoverable: false)
        case .invalidPolicy: return Metadata(rank: 155, name: "invalid policy", isRecoverable: true)
        case .profileViolation: return Metadata(rank: 160, name: "profile violation", isRecoverable: false)
        case .malformedCertificate: return Metadata(rank: 170, name: "malformed certificate", isRecoverable: false)
        case .notYetValid: return Metadata(rank: 180, name: "not yet valid", isRecoverable: true)
        case .expired: return Metadata(rank: 190, name: "expired", isRecoverable: true)
        case .nameMismatch: return Metadata(rank: 200, name: "name mismatch", isRecoverable: true)
        // A path that is complete and otherwise valid, but revoked or of unknown status.
        // Undetermined: revocation information or soft fail may settle it.
        case .revocationUndetermined:
            return Metadata(rank: 210, name: "revocation undetermined", isRecoverable: true)
        // The CA withdrew the certificate.
        case .revoked: return Metadata(rank: 220, name: "revoked", isRecoverable: false)
        // Judged only on a path that is otherwise trusted (complete, valid, the name matching):
        // above the name, which it presupposes; below revocation, a stronger statement from the
        // CA itself about the same certificate. Recoverable: SCTs delivered by TLS or OCSP, or
        // another log list, may settle it.
        case .certificateTransparency:
            return Metadata(rank: 205, name: "certificateTransparency", isRecoverable: true)
        }
    }
}

/// One reason, with the index of the certificate it concerns (0 = leaf, then up the attempted
/// path) and what it concerns as data (`context`: the dates, the names, the revocation status,
/// the limit), from which the one-line human `message` is derived.
public struct TrustFailure: Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public let kind: TrustFailureKind
    /// The certificate concerned: 0 the leaf, then up the attempted path.
    public let certificateIndex: Int
    /// What the failure concerns, as data; `message` is derived from it.
    public let context: Context

    /// One line for humans (names the certificate, constraint or algorithm involved), derived
    /// from `context`.
    public var message: String { context.message }

    /// A failure of `kind` concerning certificate `index`, with only a text for context
    /// (`Context.text`).
    public init(_ kind: TrustFailureKind, at index: Int, _ message: String) {
        self.init(kind, at: index, context: .text(message))
    }

    /// A failure of `kind` concerning certificate `index`, with structured context.
    public init(_ kind: TrustFailureKind, at index: Int, context: Context) {
        self.kind = kind
        self.certificateIndex = index
        self.context = context
    }

    /// The same failure concerning certificate `index` (a cached check's failure placed on a path).
    func at(_ index: Int) -> TrustFailure { TrustFailure(kind, at: index, context: context) }

    /// `[index] kind: message`.
    public var description: String { "[\(certificateIndex)] \(kind.name): \(message)" }

    /// `kind: message`, the one-line summary SigilNIO's errors and the CLI's verdict line use.
    public var summary: String { "\(kind.name): \(message)" }

    /// The one ordering of failures, used everywhere failures are chosen or listed (the best
    /// failure among candidate paths, the reasons of a verdict, merged policies): higher
    /// `TrustFailureKind.rank` first; at equal rank, the lower certificate index first (closest
    /// to the leaf, the certificate the caller asked about); otherwise the order found.
    public static func precedes(_ a: TrustFailure, _ b: TrustFailure) -> Bool {
        if a.kind.rank != b.kind.rank { return a.kind.rank > b.kind.rank }
        return a.certificateIndex < b.certificateIndex
    }

    /// `failures` in the order of `precedes(_:_:)` (stable: ties keep their order).
    public static func sortedByRank<S: Sequence>(_ failures: S) -> [TrustFailure] where S.Element == TrustFailure {
        // Stable by construction: ties broken by the original position.
        failures.enumerated().sorted { x, y in
            if precedes(x.element, y.element) { return true }
            if precedes(y.element, x.element) { return false }
            return x.offset < y.offset
        }.map(\.element)
    }
}

extension TrustFailure {
    /// What a failure concerns, as data (as webpki's `CertExpired { time, not_after }` or Go's
    /// `HostnameError { Certificate, Host }`): callers format from it, and `message` is derived
    /// from it, never the other way round. Built only when a check fails (the trusted path
    /// never makes one); the larger cases are stored out of line.
    public enum Context: Sendable, Hashable {
        /// A failure whose text is all there is (checks without structured context).
        case text(String)
        /// `expired` or `notYetValid` (RFC 5280 §4.1.2.5): the certificate's notBefore and
        /// notAfter (seconds since the Unix epoch) and the verification time.
        case validity(notBefore: Int64, notAfter: Int64, time: Double)
        /// `nameMismatch` for the server's name: the name checked (RFC 6125 reference
        /// identity, as text) and the names the leaf presents (its subjectAltName dNSName and
        /// iPAddress entries, as text; the Common Name is never used).
        indirect case hostMismatch(checked: String, presented: [String])
        /// `nameMismatch`: the name to check is neither a valid host name nor an IP address.
        case invalidHostName(String)
        /// `nameMismatch` for an e-mail address: the one checked and the leaf's rfc822Name
        /// entries.
        indirect case emailMismatch(checked: String, presented: [String])
        /// `revoked` or `revocationUndetermined`: the status (reason and date, or why it is
        /// undetermined) and its source (RFC 5280 §6.3, RFC 6960).
        indirect case revocation(CertificateRevocationStatus)
        /// `budgetExhausted`: which limit ran out, where, and what was spent.
        indirect case budget(BudgetExhaustion)

        /// The one-line text of a failure with this context.
        public var message: String {
            switch self {
            case .text(let t):
                return t
            case .validity(let notBefore, let notAfter, let time):
                if time < Double(notBefore) { return "valid from \(DERTime.rfc3339(notBefore))" }
                return "expired at \(DERTime.rfc3339(notAfter))"
            case .hostMismatch(let checked, _):
                return "certificate is not valid for \(checked)"
            case .invalidHostName(let name):
                return "\"\(name)\" is not a valid host name or IP address"
            case .emailMismatch(let checked, _):
                return "certificate is not valid for the e-mail address \(checked)"
            case .revocation(let s):
                switch s.status {
                case .revoked(let reason, let date):
                    return
                        "revoked (\(reason.name)) on \(DERTime.rfc3339(date)) according to \(s.source == .ocsp ? "an OCSP response" : "a CRL")"
                case .undetermined(let why):
                    return "revocation status undetermined: \(why)"
                case .good:
                    return "revocation status good"
                }
            case .budget(let b):
                return b.message
            }
        }
    }

    /// Where and how a verification's one budget (`VerificationBudget`) ran out.
    public struct BudgetExhaustion: Sendable, Hashable {
        /// The stage of the verification that ran out.
        public enum Stage: String, Sendable, Hashable, CaseIterable {
            /// Path building as a whole (the summary failure of a verification that gave up).
            case pathBuilding
            /// A CA's name constraints (RFC 5280 §6.1.3 (b), (c)).
            case nameConstraints
            /// Certificate policy processing (RFC 5280 §6.1).
            case certificatePolicies
            /// Revocation checking (CRL and OCSP signatures, CRL signers' paths).
            case revocation
        }

        /// The limit that ran out.
        public let limit: VerificationBudget.Limit
        /// Where it ran out.
        public let stage: Stage
        /// The limits the verification started with.
        public let limits: VerificationBudget
        /// What was spent, when the stage reports it (path building does).
        public let spent: VerificationBudget?

        /// A budget failure of `limit` at `stage`, under `limits`, having spent `spent`.
        public init(
            limit: VerificationBudget.Limit, stage: Stage, limits: VerificationBudget, spent: VerificationBudget?
        ) {
            self.limit = limit
            self.stage = stage
            self.limits = limits
            self.spent = spent
        }

        /// The one-line text.
        public var message: String {
            switch stage {
            case .pathBuilding:
                let used = spent ?? limits
                return "gave up after \(used.signatureChecks) signature checks (certificates and revocation data),"
                    + " \(used.candidateVisits) candidates, \(used.nameConstraintComparisons) name-constraint comparisons"
                    + " and \(used.policyTreeWork) certificate policy work units"
            case .nameConstraints:
                return "too many name-constraint comparisons"
            case .certificatePolicies:
                return
                    "certificate policy processing exceeded the verification's policy work budget of \(limits.policyTreeWork) units"
            case .revocation:
                return "revocation checking ran out of the verification budget"
            }
        }
    }
}

/// What a successful verification established beyond the path itself (validated certificate
/// policies, revocation status, ...). Each check that produces such a result adds one field here.
public struct TrustDetails: Sendable {
    /// RFC 5280 §6.1 policy processing of the validated path: the authorities-constrained and
    /// user-constrained policy sets.
    public var policies = ValidatedPolicies()

    /// Revocation status of each checked certificate of the path (index 0 = leaf; the anchor is
    /// never checked). Empty when `VerificationOptions.revocation` is nil.
    public var revocation: [CertificateRevocationStatus] = []

    /// Certificate Transparency: every SCT of the leaf, its status and the policy's verdict.
    /// Nil when no `CertificateTransparencyCheck` was given (`CertificateTrust.transparency`).
    public var transparency: TransparencyDetails? = nil

    /// No details (the default policy sets).
    public init() {}

    /// Details with the validated policy sets.
    public init(policies: ValidatedPolicies) {
        self.policies = policies
    }
}

/// The verdict.
public enum TrustResult: Sendable {
    /// Trusted: the validated path from the leaf (first) to the anchor (last), the anchor's
    /// source, and what else the verification established.
    case trusted(path: [Certificate], anchor: AnchorSource, details: TrustDetails)
    /// Not trusted: reasons, most important first.
    case untrusted([TrustFailure])

    /// True for `.trusted`.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// The reasons of `.untrusted`, most important first; empty when trusted.
    public var failures: [TrustFailure] {
        if case .untrusted(let f) = self { return f }
        return []
    }
}
