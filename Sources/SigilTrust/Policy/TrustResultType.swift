/// The outcome of a `CertificateTrust` evaluation, one case per `SecTrustResultType` value that
/// a successful `SecTrustEvaluate` returns, for people porting code from Apple's Security
/// framework:
///
/// | Sigil | Apple | meaning |
/// |---|---|---|
/// | `.proceed` | `kSecTrustResultProceed` | trusted, via an anchor the caller added |
/// | `.unspecified` | `kSecTrustResultUnspecified` | trusted, via a system anchor |
/// | `.recoverableTrustFailure` | `kSecTrustResultRecoverableTrustFailure` | not trusted, but a different evaluation context (time, host, anchors, a policy) could make it trusted |
/// | `.fatalTrustFailure` | `kSecTrustResultFatalTrustFailure` | not trusted, and no context change helps: the certificates themselves are defective |
///
/// As on Apple platforms, both `.proceed` and `.unspecified` mean "trusted"
/// (AFNetworking's `AFServerTrustIsValid` accepts exactly these two). Apple's `.deny` and
/// `.confirm` come from user trust settings and `.invalid`/`.otherError` from API misuse; Sigil
/// has no user trust settings, and an empty certificate list is reported as a fatal failure
/// (malformed input).
public enum TrustResultType: Sendable, Hashable, CustomStringConvertible {
    /// Trusted, via an anchor the caller added (`kSecTrustResultProceed`).
    case proceed
    /// Trusted, via a system anchor (`kSecTrustResultUnspecified`).
    case unspecified
    /// Not trusted; every failure is recoverable (`TrustFailureKind.isRecoverable`): another
    /// time, host, anchor or policy could succeed.
    case recoverableTrustFailure
    /// Not trusted; at least one failure is fatal (a bad signature, a malformed certificate, an
    /// exhausted budget, ...): no change of context helps.
    case fatalTrustFailure

    /// `.proceed` or `.unspecified`.
    public var isTrusted: Bool { self == .proceed || self == .unspecified }

    /// The case name.
    public var description: String {
        switch self {
        case .proceed: return "proceed"
        case .unspecified: return "unspecified"
        case .recoverableTrustFailure: return "recoverableTrustFailure"
        case .fatalTrustFailure: return "fatalTrustFailure"
        }
    }

    /// The result for a set of failures: fatal when any failure is fatal, else recoverable.
    public static func forFailures<S: Sequence>(_ failures: S) -> TrustResultType where S.Element == TrustFailure {
        for f in failures where !f.kind.isRecoverable { return .fatalTrustFailure }
        return .recoverableTrustFailure
    }
}

extension TrustFailureKind {
    /// Whether this failure is recoverable in `SecTrustResultType` terms: Apple's documentation
    /// calls a failure recoverable when "the chain could be trusted with some minor change to
    /// the evaluation context, such as ignoring expired certificates or adding another anchor",
    /// and fatal when it stems from "a fundamental defect in the certificate data ... changing
    /// parameter values and reevaluating is unlikely to succeed unless you provide different
    /// certificates".
    ///
    /// Recoverable (the context decides): time (`expired`, `notYetValid`), the name
    /// (`nameMismatch`), the anchors (`unknownIssuer`, `untrustedRoot`), the algorithm policy
    /// (`weakAlgorithm`, `weakKey`: `AlgorithmPolicy.legacy` accepts them), the purpose
    /// (`keyUsage`, `extendedKeyUsage`: another policy, e.g. basic X.509, asks for another or no
    /// usage), the depth limit (`maximumDepthExceeded`: an option) and certificate policies
    /// (`invalidPolicy`: the user-initial-policy-set and the §6.1.1 flags are inputs), revocation
    /// information that could not be had (`revocationUndetermined`) and Certificate Transparency
    /// (`certificateTransparency`: as on Apple platforms, where a chain that misses the CT policy
    /// is a recoverable trust failure — SCTs delivered by TLS or OCSP, or a newer log list, may
    /// satisfy it).
    ///
    /// Fatal (the certificates decide): `badSignature`, `malformedCertificate`,
    /// `unsupportedCriticalExtension` (Apple's own example), `unsupportedAlgorithm` (no policy
    /// makes Sigil verify it), `notACA`, `pathLengthExceeded`, `nameConstraintViolated` and
    /// `nameConstraintUnsupported` (constraints a CA put in its certificate), `profileViolation`
    /// (a certificate breaking RFC 5280 / CA/B Forum encoding rules) and `budgetExhausted` (a
    /// peer whose certificates make path building explode: retrying cannot help).
    public var isRecoverable: Bool { metadata.isRecoverable }
}
