import SigilX509

/// What the caller hands Sigil for revocation checking (RFC 5280 §6.3, RFC 6960). Sigil never
/// fetches anything: the CRLs and OCSP responses are the caller's (files, a cache, a response
/// stapled to the TLS handshake).
public struct RevocationOptions: Sendable {
    /// What an undetermined status means.
    public enum Policy: Sendable, Hashable {
        /// A certificate whose status cannot be established makes the path untrusted.
        case hardFail
        /// Undetermined is reported in the details but does not fail the path. Revoked always fails.
        case softFail
    }

    /// Which certificates of the validated path are checked.
    public enum Scope: Sendable, Hashable {
        /// Every certificate except the trust anchor (RFC 5280 §6.3).
        case wholePath
        /// The leaf only (what a stapled OCSP response, RFC 6066 §8, can cover).
        case leafOnly
    }

    /// Complete and delta CRLs, any issuers, any order.
    public var crls: [CertificateList]
    /// OCSP responses, e.g. stapled ones.
    public var ocspResponses: [OCSPResponse]
    /// What an undetermined status means (hard fail by default).
    public var policy: Policy
    /// Which certificates are checked (the whole path but the anchor by default).
    public var scope: Scope = .wholePath
    /// Use delta CRLs (§6.3.3 (c)) when one matches a complete CRL.
    public var useDeltaCRLs = true
    /// An OCSP response without nextUpdate is fresh while its thisUpdate is at most this many
    /// seconds old (RFC 6960 §4.2.2.1 leaves it to local policy; the CA/B Forum BR §4.9.10 asks
    /// responders to refresh at least every 4 days, and responses to live at most 10).
    public var maximumOCSPAgeWithoutNextUpdate: Int64 = 4 * 86_400
    /// A CRL without nextUpdate (which RFC 5280 §5.1.2.5 says conforming issuers MUST include)
    /// can show a certificate not revoked only while its thisUpdate is at most this many seconds
    /// old; older, its entries still revoke (fail closed both ways). The CA/B Forum BR §4.9.7
    /// has subscriber CRLs reissued at least every 7 days; Chrome bounds every CRL's age.
    public var maximumCRLAgeWithoutNextUpdate: Int64 = 7 * 86_400
    /// At most this many separate CRL signers' paths nested in one another (a signer's path
    /// checked for revocation may need a CRL of another separate signer, RFC 5280 §6.3.3 (f)).
    public static let maximumCRLSignerDepth = 3
    /// The separate CRL signers whose paths enclose this check, outermost first (set by Sigil
    /// for a signer's own path): none of them may sign a CRL used here, so a status only a CRL
    /// its own signer signs could decide stays undetermined, and signer loops end.
    var crlSignerChain: [Certificate] = []

    /// Options checking the whole path against `crls` and `ocspResponses` under `policy`
    /// (hard fail by default: with nothing given, every checked certificate is undetermined
    /// and the path fails).
    public init(crls: [CertificateList] = [], ocspResponses: [OCSPResponse] = [], policy: Policy = .hardFail) {
        self.crls = crls
        self.ocspResponses = ocspResponses
        self.policy = policy
    }
}

/// One certificate's revocation status.
public enum RevocationStatus: Sendable, Hashable {
    /// Not revoked: complete CRLs in scope covering every reason do not list it, or a valid,
    /// fresh OCSP response says good (a revocation found by either source wins over both).
    case good
    /// Revoked, with the reason (unspecified when the CRL entry or OCSP response gives none)
    /// and the revocation date (seconds since the Unix epoch).
    case revoked(reason: CRLReason, date: Int64)
    /// Neither good nor revoked could be established; the message says why.
    case undetermined(String)

    /// "good", "revoked" or "undetermined".
    public var name: String {
        switch self {
        case .good: return "good"
        case .revoked: return "revoked"
        case .undetermined: return "undetermined"
        }
    }
}

/// What decided a status.
public enum RevocationSource: String, Sendable, Hashable {
    /// A certificate revocation list (RFC 5280 §5); an OCSP response (RFC 6960).
    case crl, ocsp
}

/// The status of the certificate at `certificateIndex` of the validated path (0 = leaf).
public struct CertificateRevocationStatus: Sendable, Hashable {
    /// Index in the validated path: 0 = leaf (the anchor is never checked).
    public let certificateIndex: Int
    /// The status established.
    public let status: RevocationStatus
    /// The source that decided it; nil when undetermined.
    public let source: RevocationSource?

    /// A status for the certificate at `certificateIndex`, decided by `source`.
    public init(certificateIndex: Int, status: RevocationStatus, source: RevocationSource?) {
        self.certificateIndex = certificateIndex
        self.status = status
        self.source = source
    }
}
