import SigilX509

// The Certificate Transparency seam: path validation (this module) knows nothing of SCTs, log
// lists or their signatures; the module `Sigil` implements `CertificateTransparencyCheck`
// (`CTOptions`) with its CT code, as it implements `CertificateSignatureVerifier` with its
// cryptography. The vocabulary both sides share lives here.

/// Where an SCT came from (RFC 6962 §3.3: three ways to deliver SCTs to a TLS client).
public enum SCTOrigin: String, Sendable, Hashable {
    /// The X.509v3 extension 1.3.6.1.4.1.11129.2.4.2 of the certificate (a precert_entry).
    case embedded
    /// An OCSP response's singleExtension 1.3.6.1.4.1.11129.2.4.5 (an x509_entry).
    case ocsp
    /// The TLS `signed_certificate_timestamp` extension (an x509_entry).
    case tls
}

/// What became of one SCT.
public enum SCTStatus: String, Sendable, Hashable {
    /// The log's key verifies it, it is not dated after the verification time, and the log was
    /// acceptable when it issued it.
    case valid
    /// The signature does not verify, its algorithm is not ECDSA P-256 / RSA ≥ 2048 with SHA-256,
    /// or it is dated after the verification time.
    case invalid
    /// No log of the list has its log ID (or no list was given).
    case unknownLog = "unknown-log"
    /// The log is known but was not acceptable at the SCT's time (pending, rejected, retired
    /// before it, or the certificate outside its temporal interval).
    case logNotAcceptable = "log-not-acceptable"
    /// An embedded SCT whose precertificate entry cannot be built: no issuer key is at hand.
    case issuerUnknown = "issuer-unknown"
    /// It does not decode (hash `none`, signature `anonymous`, bad lengths or version).
    case malformed
}

/// Which Certificate Transparency policy to apply.
public enum CTPolicyProfile: String, Sendable, Hashable {
    /// Apple's (support.apple.com/103214), what SecTrust enforces for publicly trusted TLS
    /// server certificates issued on or after 2018-10-15.
    case apple
    /// Chrome's (googlechrome.github.io/CertificateTransparency/ct_policy.html), for
    /// certificates issued on or after 2018-04-30.
    case chrome
}

/// One SCT as a trust evaluation records it (`TransparencyDetails.scts`).
public struct SCTRecord: Sendable, Hashable {
    /// The log ID (SHA-256 of the log's key, RFC 6962 §3.2), when the SCT decoded that far.
    public let logID: [UInt8]?
    /// The log's description in the log list, when the log is known.
    public let logName: String?
    /// The log's operator, when the log is known.
    public let operatorName: String?
    /// The SCT's timestamp in milliseconds since the epoch (RFC 6962 §3.2), when it decoded.
    public let timestamp: UInt64?
    /// Where it came from.
    public let origin: SCTOrigin
    /// What became of it.
    public let status: SCTStatus

    /// A record from its parts.
    public init(
        logID: [UInt8]?, logName: String?, operatorName: String?, timestamp: UInt64?, origin: SCTOrigin,
        status: SCTStatus
    ) {
        self.logID = logID
        self.logName = logName
        self.operatorName = operatorName
        self.timestamp = timestamp
        self.origin = origin
        self.status = status
    }
}

/// What Certificate Transparency found for a validated path: every SCT of the leaf and the
/// policy's verdict (`TrustDetails.transparency`, `CertificateTrust.Evaluation.transparency`).
public struct TransparencyDetails: Sendable, Hashable {
    /// Every SCT of the leaf (embedded first, then OCSP, then TLS) and its status.
    public let scts: [SCTRecord]
    /// The policy applied.
    public let profile: CTPolicyProfile
    /// Whether the leaf meets the policy (or the policy does not apply to it by date).
    public let compliant: Bool
    /// Whether the policy covers the leaf (issued on or after the policy's start date).
    public let applies: Bool
    /// Whether the verdict decided trust: the path ends at a system anchor, or CT is required.
    public let enforced: Bool
    /// A sentence saying why.
    public let reason: String

    /// Details from their parts.
    public init(
        scts: [SCTRecord], profile: CTPolicyProfile, compliant: Bool, applies: Bool, enforced: Bool, reason: String
    ) {
        self.scts = scts
        self.profile = profile
        self.compliant = compliant
        self.applies = applies
        self.enforced = enforced
        self.reason = reason
    }
}

/// A check run after path validation succeeded: does the validated path's leaf meet a
/// Certificate Transparency policy? (`CTOptions` in the module `Sigil` conforms.) It decides
/// itself whether its verdict is enforced — Apple's rule: for a path ending at a system anchor,
/// and for a custom anchor only when CT is required.
public protocol CertificateTransparencyCheck: Sendable {
    /// The SCTs of `path`'s leaf (`path` leaf first, anchor last; the leaf's issuer is
    /// `path[1]`), their statuses and the policy's verdict at `time` (seconds since the epoch).
    func checkTransparency(path: [Certificate], anchor: AnchorSource, at time: Int64) -> TransparencyDetails
}

extension TrustResult {
    /// Applies `check` to a trusted result: its details gain `transparency`; when the verdict
    /// is enforced and the leaf does not comply, the result becomes untrusted with a
    /// `certificateTransparency` failure at the leaf (a recoverable failure, as SecTrust reports
    /// CT non-compliance: SCTs delivered by TLS or OCSP, or a newer log list, may settle it). An
    /// untrusted result, or a nil `check`, is returned unchanged: CT never makes a chain trusted.
    /// A time that is not a finite number fails closed.
    public func applyingTransparency(_ check: (any CertificateTransparencyCheck)?, at time: Double) -> (
        result: TrustResult, transparency: TransparencyDetails?
    ) {
        guard let check, case .trusted(let path, let anchor, var details) = self else { return (self, nil) }
        guard time.isFinite, time > -9.0e18, time < 9.0e18 else {
            return (
                .untrusted([TrustFailure(.certificateTransparency, at: 0, "the verification time is not a number")]),
                nil
            )
        }
        let t = check.checkTransparency(path: path, anchor: anchor, at: Int64(time.rounded(.down)))
        if t.enforced && !t.compliant {
            let what = t.profile == .apple ? "Apple" : "Chrome"
            return (
                .untrusted([TrustFailure(.certificateTransparency, at: 0, "\(what) CT policy not met: \(t.reason)")]), t
            )
        }
        details.transparency = t
        return (.trusted(path: path, anchor: anchor, details: details), t)
    }
}
