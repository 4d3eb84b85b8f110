import SigilDER
import SigilTrust
import SigilX509

/// Certificate Transparency as part of trust evaluation, applied as Apple does: to chains
/// that end at a *system* anchor; a custom (enterprise) anchor is exempt unless `required`.
public struct CTOptions: Sendable {
    /// The logs (data the caller loads; nothing here reaches the network). Nil with `required`:
    /// nothing can be checked, so nothing is trusted (fail closed).
    public var logList: CTLogList?
    /// Which policy.
    public var profile: CTPolicyProfile
    /// Enforce the policy for any anchor (`--require-ct`, ATS `NSRequiresCertificateTransparency`).
    public var required: Bool
    /// The TLS bytes of an SCT list from a stapled OCSP response's singleExtension.
    public var ocspSCTList: [UInt8]?
    /// The TLS bytes of the `signed_certificate_timestamp` TLS extension.
    public var tlsSCTList: [UInt8]?

    /// Options for `logList` and `profile`.
    public init(
        logList: CTLogList?, profile: CTPolicyProfile = .apple, required: Bool = false, ocspSCTList: [UInt8]? = nil,
        tlsSCTList: [UInt8]? = nil
    ) {
        self.logList = logList
        self.profile = profile
        self.required = required
        self.ocspSCTList = ocspSCTList
        self.tlsSCTList = tlsSCTList
    }
}

/// What CT found for a trusted path.
public struct CTEvaluation: Sendable {
    /// Every SCT of the leaf and its status.
    public let checks: [SCTCheck]
    /// The policy's verdict.
    public let verdict: CTPolicyVerdict
    /// Whether the verdict decided trust (system anchor, or required).
    public let enforced: Bool

    /// An evaluation from its parts.
    public init(checks: [SCTCheck], verdict: CTPolicyVerdict, enforced: Bool) {
        self.checks = checks
        self.verdict = verdict
        self.enforced = enforced
    }
}

extension TrustResult {
    /// Applies `options` to a result: a trusted path whose leaf does not meet the policy, when
    /// the policy is enforced for it, becomes untrusted with a `certificateTransparency`
    /// failure. An untrusted result is returned as it is (CT cannot make it trusted).
    public func applyingCertificateTransparency(_ options: CTOptions, at time: Int64) -> (TrustResult, CTEvaluation?) {
        guard case .trusted(let path, let anchor, _) = self, let leaf = path.first else { return (self, nil) }
        // The issuer of the precertificate entry is the leaf's issuer in the validated path.
        let issuer = path.count > 1 ? path[1] : nil
        let checks = SCTVerifier.check(
            leaf, issuer: issuer, ocspSCTList: options.ocspSCTList, tlsSCTList: options.tlsSCTList,
            logList: options.logList, at: time)
        let enforced = options.required || anchor == .system
        let verdict: CTPolicyVerdict
        if options.logList == nil {
            verdict = CTPolicyVerdict(compliant: false, applies: true, reason: "no CT log list: SCTs cannot be checked")
        } else {
            verdict = CTPolicy.evaluate(
                leaf, checks: checks, logList: options.logList, profile: options.profile, at: time)
        }
        let evaluation = CTEvaluation(checks: checks, verdict: verdict, enforced: enforced)
        // Required CT that the policy exempts by date still passes (the policy's own rule);
        // without a log list a required check cannot pass (fail closed).
        if enforced && !verdict.compliant {
            let what = options.profile == .apple ? "Apple" : "Chrome"
            return (
                .untrusted([
                    TrustFailure(.certificateTransparency, at: 0, "\(what) CT policy not met: \(verdict.reason)")
                ]),
                evaluation
            )
        }
        return (self, evaluation)
    }
}

extension SCTCheck {
    /// `{"logId": base64, "log": name|null, "operator": name|null, "timestamp": RFC 3339|null,
    /// "origin": "embedded"|"ocsp"|"tls", "status": …}` (the CLI's `scts` entries).
    public var json: JSONValue {
        .object([
            ("logId", logID.map { .string(Base64.encodeString($0)) } ?? .null),
            ("log", log.map { .string($0.name) } ?? .null),
            ("operator", log.map { .string($0.operatorName) } ?? .null),
            ("timestamp", sct.map { .string(DERTime.rfc3339($0.timestampSeconds)) } ?? .null),
            ("origin", .string(origin.rawValue)),
            ("status", .string(status.rawValue)),
        ])
    }

    /// One line for humans.
    public var text: String {
        let name = log.map { "\($0.name) (\($0.operatorName))" } ?? (logID.map { Base64.encodeString($0) } ?? "?")
        let when = sct.map { DERTime.rfc3339($0.timestampSeconds) } ?? "-"
        var s = "\(name)  \(when)  \(origin.rawValue)  \(status.rawValue)"
        if let e = decodingError { s += " (\(e.reason.rawValue) at byte \(e.offset))" }
        return s
    }
}
