import SigilX509

/// Why a chain is not trusted. Cases are ordered by rank: when several candidate paths failed,
/// the most informative failure (highest rank) is reported first.
public enum TrustFailureKind: Int, Sendable, Hashable, Comparable {
    case unknownIssuer = 1
    case untrustedRoot
    case budgetExhausted
    case maximumDepthExceeded
    case unsupportedAlgorithm
    case weakAlgorithm
    case weakKey
    case badSignature
    case notACA
    case pathLengthExceeded
    case keyUsage
    case extendedKeyUsage
    case unsupportedCriticalExtension
    case nameConstraintViolated
    case nameConstraintUnsupported
    /// RFC 5280 §6.1 certificate policy processing rejected the path (no acceptable policy
    /// under an explicit-policy requirement, anyPolicy mapped, a duplicate policy).
    case invalidPolicy
    case profileViolation
    case malformedCertificate
    case notYetValid
    case expired
    case nameMismatch

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var name: String {
        switch self {
        case .unknownIssuer: return "unknown issuer"
        case .untrustedRoot: return "untrusted root"
        case .budgetExhausted: return "path building budget exhausted"
        case .maximumDepthExceeded: return "maximum depth exceeded"
        case .unsupportedAlgorithm: return "unsupported algorithm"
        case .weakAlgorithm: return "weak algorithm"
        case .weakKey: return "weak key"
        case .badSignature: return "bad signature"
        case .notACA: return "not a CA"
        case .pathLengthExceeded: return "path length exceeded"
        case .keyUsage: return "key usage"
        case .extendedKeyUsage: return "extended key usage"
        case .unsupportedCriticalExtension: return "unsupported critical extension"
        case .nameConstraintViolated: return "name constraint violated"
        case .nameConstraintUnsupported: return "name constraint unsupported"
        case .invalidPolicy: return "invalid policy"
        case .profileViolation: return "profile violation"
        case .malformedCertificate: return "malformed certificate"
        case .notYetValid: return "not yet valid"
        case .expired: return "expired"
        case .nameMismatch: return "name mismatch"
        }
    }
}

/// One reason, with the index of the certificate it concerns (0 = leaf, then up the attempted
/// path) and a one-line human message.
public struct TrustFailure: Sendable, Hashable, CustomStringConvertible {
    public let kind: TrustFailureKind
    public let certificateIndex: Int
    public let message: String

    public init(_ kind: TrustFailureKind, at index: Int, _ message: String) {
        self.kind = kind
        self.certificateIndex = index
        self.message = message
    }

    public var description: String { "[\(certificateIndex)] \(kind.name): \(message)" }
}

/// What a successful verification established beyond the path itself (validated certificate
/// policies, revocation status, ...). Each check that produces such a result adds one field here.
public struct TrustDetails: Sendable {
    /// RFC 5280 §6.1 policy processing of the validated path: the authorities-constrained and
    /// user-constrained policy sets.
    public var policies = ValidatedPolicies()

    public init() {}

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

    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    public var failures: [TrustFailure] {
        if case .untrusted(let f) = self { return f }
        return []
    }
}
