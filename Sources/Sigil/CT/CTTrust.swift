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

extension CTOptions: CertificateTransparencyCheck {
    /// Checks every SCT of `path`'s leaf (embedded ones against the leaf's issuer in the path,
    /// `path[1]`) and applies the policy; enforced when the path ends at a system anchor or CT
    /// is `required`.
    public func evaluate(path: [Certificate], anchor: AnchorSource, at time: Int64) -> CTEvaluation {
        let enforced = required || anchor == .system
        guard let leaf = path.first else {
            return CTEvaluation(
                checks: [], verdict: CTPolicyVerdict(compliant: false, applies: true, reason: "no certificate"),
                enforced: enforced)
        }
        // RFC 6962 §3.2: the precert entry's issuer_key_hash is of the key that will sign the
        // final certificate — the leaf's issuer in the validated path.
        let issuer = path.count > 1 ? path[1] : nil
        let checks = SCTVerifier.check(
            leaf, issuer: issuer, ocspSCTList: ocspSCTList, tlsSCTList: tlsSCTList, logList: logList, at: time)
        let verdict: CTPolicyVerdict
        if logList == nil {
            // Without a list nothing can be checked: a required check cannot pass (fail closed).
            verdict = CTPolicyVerdict(compliant: false, applies: true, reason: "no CT log list: SCTs cannot be checked")
        } else {
            verdict = CTPolicy.evaluate(leaf, checks: checks, logList: logList, profile: profile, at: time)
        }
        return CTEvaluation(checks: checks, verdict: verdict, enforced: enforced)
    }

    /// `CertificateTransparencyCheck`: `evaluate(path:anchor:at:)` as `TransparencyDetails`.
    public func checkTransparency(path: [Certificate], anchor: AnchorSource, at time: Int64) -> TransparencyDetails {
        evaluate(path: path, anchor: anchor, at: time).details(profile: profile)
    }
}

extension CTEvaluation {
    /// The evaluation as a trust result records it (`TrustDetails.transparency`).
    public func details(profile: CTPolicyProfile) -> TransparencyDetails {
        TransparencyDetails(
            scts: checks.map(\.record), profile: profile, compliant: verdict.compliant, applies: verdict.applies,
            enforced: enforced, reason: verdict.reason)
    }
}

extension TrustResult {
    /// Applies `options` to a result (`applyingTransparency(_:at:)`: a trusted path whose leaf
    /// does not meet the policy, when the policy is enforced for it, becomes untrusted with a
    /// `certificateTransparency` failure; a trusted one records `TrustDetails.transparency`).
    /// An untrusted result is returned as it is (CT cannot make it trusted), with no evaluation.
    public func applyingCertificateTransparency(_ options: CTOptions, at time: Int64) -> (TrustResult, CTEvaluation?) {
        guard case .trusted(let path, let anchor, var details) = self else { return (self, nil) }
        let evaluation = options.evaluate(path: path, anchor: anchor, at: time)
        if evaluation.enforced && !evaluation.verdict.compliant {
            let what = options.profile == .apple ? "Apple" : "Chrome"
            return (
                .untrusted([
                    TrustFailure(
                        .certificateTransparency, at: 0, "\(what) CT policy not met: \(evaluation.verdict.reason)")
                ]),
                evaluation
            )
        }
        details.transparency = evaluation.details(profile: options.profile)
        return (.trusted(path: path, anchor: anchor, details: details), evaluation)
    }
}

extension SCTCheck {
    /// The check as a trust result records it (`TransparencyDetails.scts`).
    public var record: SCTRecord {
        SCTRecord(
            logID: logID, logName: log?.name, operatorName: log?.operatorName, timestamp: sct?.timestamp,
            origin: origin, status: status)
    }

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

extension CTOptions {
    /// These options with the SCTs a TLS handshake delivered: `tlsSCTList` (the bytes of the
    /// `signed_certificate_timestamp` extension, RFC 6962 §3.3) and the SCT lists of a stapled
    /// OCSP response's singleExtensions (1.3.6.1.4.1.11129.2.4.5), joined into one list. Nil
    /// leaves a source as it was; a response that does not parse adds nothing. The response's
    /// own signature is not needed: each SCT is signed by its log over the certificate, which
    /// is what is checked (an SCT for another certificate is `invalid` and never counts).
    public func addingDeliveredSCTs(tlsSCTList: [UInt8]?, stapledOCSPResponse: [UInt8]?) -> CTOptions {
        var o = self
        if let tlsSCTList { o.tlsSCTList = tlsSCTList }
        if let der = stapledOCSPResponse, let lists = SCTList.fromOCSPResponse(der), !lists.isEmpty {
            o.ocspSCTList = lists.count == 1 ? lists[0] : SCTList.joined(lists)
        }
        return o
    }
}

extension SCTList {
    /// Several TLS `SignedCertificateTimestampList`s as one (RFC 6962 §3.3:
    /// `SerializedSCT sct_list<1..2^16-1>`): the entries of each list in order, under one length
    /// prefix. A list whose framing is wrong is kept whole as the result (it then decodes as
    /// malformed, never counted); more than 65 535 bytes of entries likewise gives the first list.
    public static func joined(_ lists: [[UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        for l in lists {
            guard l.count >= 2, Int(l[0]) << 8 | Int(l[1]) == l.count - 2 else { return l }
            body += l[2...]
        }
        guard body.count <= 0xFFFF else { return lists[0] }
        return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }
}
