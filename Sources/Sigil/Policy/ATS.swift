import SigilDER
import SigilTrust
import SigilX509

/// One App Transport Security requirement, judged on a certificate chain.
public struct ATSRequirement: Sendable {
    /// The verdict on one requirement.
    public enum Status: String, Sendable, Hashable {
        /// The chain meets the requirement.
        case pass
        /// The chain breaks the requirement (`detail` says why, `offending` which certificates).
        case fail
        /// The rule does not apply to this chain (e.g. a certificate issued before the rule, or
        /// a chain to a root the user or administrator added).
        case notApplicable
        /// Only a TLS connection can tell (protocol version, cipher suites...).
        case needsConnection
    }

    /// Short stable key (`signature-hash`, `key-size`, ...).
    public let id: String
    /// One line naming the requirement.
    public let title: String
    /// Pass, fail or not applicable.
    public let status: Status
    /// Why (names the certificates concerned).
    public let detail: String
    /// Indexes (into `ATSReport.chain`) of the certificates that fail the requirement.
    public let offending: [Int]
}

/// What Apple requires of a TLS server certificate chain — App Transport Security and the
/// platform trust policy — requirement by requirement, like `nscurl --ats-diagnostics` for the
/// certificate part. Sources: Apple's NSAppTransportSecurity documentation ("Requirements for
/// Connecting Using ATS"), HT210176 (iOS 13 / macOS 10.15 certificate requirements), HT211025
/// (398-day validity) and Apple's Certificate Transparency policy (support.apple.com/103214).
public struct ATSReport: Sendable {
    /// The host the chain was judged for.
    public let host: String
    /// The time it was judged at (seconds since the epoch).
    public let time: Double
    /// The chain judged: the validated path (leaf … anchor) when the chain is trusted, else the
    /// certificates as presented.
    public let chain: [Certificate]
    /// True when `chain` is a validated path (else the chain as presented).
    public let chainIsValidated: Bool
    /// The ordinary evaluation's verdict.
    public let trust: TrustResult
    /// Each requirement's verdict.
    public let requirements: [ATSRequirement]

    /// No requirement failed (those needing a connection are not counted).
    public var passed: Bool { requirements.allSatisfy { $0.status != .fail } }

    // Dates of Apple's rules (UTC).
    static let july2019 = Double(DERTime.secondsSinceEpoch(year: 2019, month: 7, day: 1, hour: 0, minute: 0, second: 0))
    static let september2020 = Double(
        DERTime.secondsSinceEpoch(year: 2020, month: 9, day: 1, hour: 0, minute: 0, second: 0))
    static let october2018 = Double(
        DERTime.secondsSinceEpoch(year: 2018, month: 10, day: 15, hour: 0, minute: 0, second: 0))

    /// Validity period in days as Apple and the CA/B Forum count it: notBefore through notAfter
    /// inclusive (RFC 5280 §4.1.2.5), a day being 86 400 s, any excess an additional day.
    public static func validityDays(_ c: Certificate) -> Int {
        let seconds = c.notAfter - c.notBefore + 1
        return Int((seconds + 86_399) / 86_400)
    }

    /// Apple's CT policy for the leaf of `chain` (its issuer: `chain[1]`), embedded SCTs only;
    /// an empty chain or no SCT complies with nothing.
    /// A chain of the leaf alone takes its issuer from `otherIssuers` (by name).
    public static func ctCompliance(
        chain: [Certificate], logList: CTLogList, at time: Int64, otherIssuers: [Certificate] = []
    ) -> CTPolicyVerdict {
        guard let leaf = chain.first else {
            return CTPolicyVerdict(compliant: false, applies: true, reason: "no certificate")
        }
        let issuer = chain.count > 1 ? chain[1] : otherIssuers.first { leaf.issuer.matchesForChaining($0.subject) }
        let checks = SCTVerifier.check(leaf, issuer: issuer, logList: logList, at: time)
        let v = CTPolicy.evaluate(leaf, checks: checks, logList: logList, profile: .apple, at: time)
        let list = checks.map { "\($0.log?.name ?? "unknown log"): \($0.status.rawValue)" }.joined(separator: ", ")
        return CTPolicyVerdict(
            compliant: v.compliant, applies: v.applies, reason: v.reason + (list.isEmpty ? "" : " [\(list)]"))
    }

    /// Embedded SCTs Apple's CT policy requires for `c`'s lifetime
    /// (`CTPolicy.appleEmbeddedRequirement`; 3 for a lifetime it does not allow at all).
    public static func requiredSCTs(_ c: Certificate) -> Int {
        CTPolicy.appleEmbeddedRequirement(c)?.required ?? 3
    }

    /// Judges `presented` (leaf first) for `host` at `time` against `anchors`.
    public static func evaluate(
        presented: [Certificate], host: String, anchors: TrustStore, at time: Double,
        signatureVerifier: any CertificateSignatureVerifier = SigilSignatureVerifier(), ctLogList: CTLogList? = nil
    ) -> ATSReport {
        guard let leaf = presented.first else {
            return ATSReport(
                host: host, time: time, chain: [], chainIsValidated: false,
                trust: .untrusted([TrustFailure(.malformedCertificate, at: 0, "no certificate")]),
                requirements: [
                    ATSRequirement(
                        id: "chain-trusted", title: "Chain valid to a trusted root", status: .fail,
                        detail: "no certificate was given", offending: [])
                ])
        }
        // The one evaluator: `anchors` as the system's, the server purpose for `host`.
        let trust = CertificateTrust(
            certificates: presented, policies: [.server(host: host)], time: time,
            signatureVerifier: signatureVerifier, systemAnchors: anchors
        ).verify()
        var chain = presented
        var validated = false
        var anchorSource: AnchorSource?
        if case .trusted(let path, let source, _) = trust {
            chain = path
            validated = true
            anchorSource = source
        }
        func label(_ i: Int) -> String { "[\(i)] \(chain[i].subject.rfc4514String)" }
        func list(_ idx: [Int], _ why: (Int) -> String) -> String {
            idx.map { "\(label($0)): \(why($0))" }.joined(separator: "; ")
        }
        var reqs: [ATSRequirement] = []

        // 1. Chain valid to a trusted root.
        switch trust {
        case .trusted(_, let source, _):
            reqs.append(
                ATSRequirement(
                    id: "chain-trusted", title: "Chain valid to a trusted root", status: .pass,
                    detail:
                        "trusted via a \(source == .system ? "system" : "custom") anchor: \(chain.last!.subject.rfc4514String)",
                    offending: []))
        case .untrusted(let failures):
            let idx = Array(Set(failures.map { $0.certificateIndex }.filter { $0 < chain.count })).sorted()
            reqs.append(
                ATSRequirement(
                    id: "chain-trusted", title: "Chain valid to a trusted root", status: .fail,
                    detail: failures.map { $0.description }.joined(separator: "; "), offending: idx))
        }

        // 2. SHA-2 signatures (SHA-256 or stronger; HT210176: SHA-1 no longer trusted; ATS:
        // digest of at least 256 bits). The self-signature of the anchor is never relied on.
        // The top certificate is skipped when it is self-signed and acts as the root: the
        // validated anchor, or the last of several presented certificates.
        let skipTop = chain[chain.count - 1].isSelfIssued && (validated || chain.count > 1)
        var badHash: [Int] = []
        for (i, c) in chain.enumerated() {
            if i == chain.count - 1 && skipTop { continue }
            switch c.signatureAlgorithm {
            case .rsaPKCS1(let d), .ecdsa(let d):
                if ![.sha256, .sha384, .sha512].contains(d) { badHash.append(i) }
            case .rsaPSS(let p):
                if ![.sha256, .sha384, .sha512].contains(p.hash) { badHash.append(i) }
            case .ed25519, .ed448:
                // Apple's ATS rule names SHA-2 digests of RSA/ECDSA signatures ("Preventing
                // Insecure Network Connections": SHA-2 with a digest of at least 256 bits);
                // EdDSA is not an ATS signature type, so it does not meet the rule as written.
                badHash.append(i)
            case .unknown:
                badHash.append(i)
            }
        }
        reqs.append(
            ATSRequirement(
                id: "signature-hash", title: "Signatures use SHA-256 or stronger (no SHA-1, MD5)",
                status: badHash.isEmpty ? .pass : .fail,
                detail: badHash.isEmpty
                    ? "every signature relied on uses the SHA-2 family (SHA-256/384/512)"
                    : list(badHash) { chain[$0].signatureAlgorithm.name },
                offending: badHash))

        // 3. Key sizes on every certificate: RSA >= 2048 bits, EC >= 256 bits.
        var badKey: [Int] = []
        var keyWhy: [Int: String] = [:]
        for (i, c) in chain.enumerated() {
            switch c.publicKeyAlgorithm {
            case .rsa, .rsaPSS:
                let bits = c.publicKeyBitCount ?? 0
                if bits < 2048 {
                    badKey.append(i)
                    keyWhy[i] = "RSA \(bits) bits"
                }
            case .ec(let curve):
                if curve == .other || curve.bitCount < 256 {
                    badKey.append(i)
                    keyWhy[i] = "EC \(curve.name)"
                }
            case .ed25519, .ed448:
                // Apple's documented ATS key types are RSA (>= 2048 bits) and ECC (>= 256 bits)
                // ("Preventing Insecure Network Connections", NSAppTransportSecurity): an EdDSA
                // key is not one of them, whatever Sigil's own policy accepts.
                badKey.append(i)
                keyWhy[i] =
                    "\(c.publicKeyAlgorithm.name) is not an ATS key type (Apple's ATS lists RSA >= 2048 and ECC >= 256 bits only)"
            default:
                badKey.append(i)
                keyWhy[i] = "\(c.publicKeyAlgorithm.name) is not an ATS key type (RSA or EC)"
            }
        }
        reqs.append(
            ATSRequirement(
                id: "key-size", title: "Keys: RSA at least 2048 bits, EC at least 256 bits",
                status: badKey.isEmpty ? .pass : .fail,
                detail: badKey.isEmpty ? "every certificate's key is large enough" : list(badKey) { keyWhy[$0]! },
                offending: badKey))

        // 4. The host in the SubjectAltName (the Common Name is not used).
        let nameStatus: ATSRequirement.Status
        let nameDetail: String
        if let id = ServerIdentity(host) {
            switch Result(catching: { () throws(DERError) -> Bool in try leaf.matches(id) }) {
            case .success(true):
                nameStatus = .pass
                nameDetail = "\(host) is in the subjectAltName"
            case .success(false):
                nameStatus = .fail
                nameDetail =
                    ((try? leaf.subjectAlternativeNames()) ?? nil) == nil
                    ? "no subjectAltName extension (a name in the Common Name is not used)"
                    : "\(host) is not among the subjectAltName entries"
            case .failure(let e):
                nameStatus = .fail
                nameDetail = "malformed subjectAltName: \(e)"
            }
        } else {
            nameStatus = .fail
            nameDetail = "\(host) is not a valid host name or IP address"
        }
        reqs.append(
            ATSRequirement(
                id: "name-in-san", title: "Server name in the SubjectAltName (Common Name not used)",
                status: nameStatus, detail: nameDetail, offending: nameStatus == .fail ? [0] : []))

        // 5. serverAuth extended key usage (HT210176: certificates issued from 2019-07-01).
        let eku = (try? leaf.extendedKeyUsage()) ?? nil
        let ekuStatus: ATSRequirement.Status
        let ekuDetail: String
        if let eku {
            if eku.contains(OID.serverAuth) {
                ekuStatus = .pass
                ekuDetail = "extendedKeyUsage contains id-kp-serverAuth"
            } else {
                ekuStatus = .fail
                ekuDetail = "extendedKeyUsage lacks id-kp-serverAuth"
            }
        } else if Double(leaf.notBefore) >= july2019 {
            ekuStatus = .fail
            ekuDetail = "no extendedKeyUsage extension (required for certificates issued from 2019-07-01)"
        } else {
            ekuStatus = .notApplicable
            ekuDetail = "no extendedKeyUsage, allowed for certificates issued before 2019-07-01"
        }
        reqs.append(
            ATSRequirement(
                id: "server-auth-eku", title: "Extended key usage serverAuth",
                status: ekuStatus, detail: ekuDetail, offending: ekuStatus == .fail ? [0] : []))

        // 6. Validity period of the leaf.
        let days = validityDays(leaf)
        let nb = Double(leaf.notBefore)
        let customRoot = anchorSource == .custom
        let limit: Int?
        var limitWhy = ""
        if nb >= september2020 && !customRoot {
            limit = 398
            limitWhy = "issued from 2020-09-01 (HT211025)"
        } else if nb >= july2019 {
            limit = 825
            limitWhy =
                "issued from 2019-07-01 (HT210176)"
                + (nb >= september2020 ? "; the 398-day rule does not apply to a custom root" : "")
        } else {
            limit = nil
        }
        if let limit {
            let ok = days <= limit
            reqs.append(
                ATSRequirement(
                    id: "validity-period",
                    title: "Validity at most 825 days (from 2019-07-01) / 398 days (from 2020-09-01)",
                    status: ok ? .pass : .fail,
                    detail: "\(days) days; at most \(limit) for a certificate \(limitWhy)", offending: ok ? [] : [0]))
        } else {
            reqs.append(
                ATSRequirement(
                    id: "validity-period",
                    title: "Validity at most 825 days (from 2019-07-01) / 398 days (from 2020-09-01)",
                    status: .notApplicable, detail: "\(days) days; issued before 2019-07-01", offending: []))
        }

        // 7. Certificate Transparency: embedded SCT count.
        let scts = ((try? leaf.signedCertificateTimestamps()) ?? nil)?.count ?? 0
        if customRoot {
            reqs.append(
                ATSRequirement(
                    id: "certificate-transparency", title: "Certificate Transparency (embedded SCTs)",
                    status: .notApplicable,
                    detail:
                        "\(scts) embedded SCT(s); CT is required of publicly trusted certificates only, and this chain ends at a custom anchor",
                    offending: []))
        } else if nb < october2018 {
            reqs.append(
                ATSRequirement(
                    id: "certificate-transparency", title: "Certificate Transparency (embedded SCTs)",
                    status: .notApplicable, detail: "\(scts) embedded SCT(s); issued before 2018-10-15", offending: []))
        } else if ctLogList != nil, !(time.isFinite && time > -9.0e18 && time < 9.0e18) {
            // A time that is not a finite number (or beyond Int64 seconds) judges nothing: the
            // requirement fails (fail closed, as `TrustResult.applyingTransparency` does),
            // never a trap converting it.
            reqs.append(
                ATSRequirement(
                    id: "certificate-transparency", title: "Certificate Transparency (Apple's CT policy)",
                    status: .fail, detail: "the evaluation time is not a number", offending: [0]))
        } else if let ctLogList {
            // Apple's CT policy over the verified SCTs (RFC 6962 §3.2 signatures, log states,
            // distinct logs and operators); the issuer key from the chain as validated.
            let verdict = ctCompliance(
                chain: chain, logList: ctLogList, at: Int64(time.rounded(.down)),
                otherIssuers: anchors.anchors.map(\.certificate))
            reqs.append(
                ATSRequirement(
                    id: "certificate-transparency", title: "Certificate Transparency (Apple's CT policy)",
                    status: verdict.compliant ? .pass : .fail, detail: verdict.reason,
                    offending: verdict.compliant ? [] : [0]
                ))
        } else {
            let need = requiredSCTs(leaf)
            let ok = scts >= need
            reqs.append(
                ATSRequirement(
                    id: "certificate-transparency", title: "Certificate Transparency (embedded SCTs)",
                    status: ok ? .pass : .fail,
                    detail: "\(scts) embedded SCT(s), \(need) required for a \(days)-day certificate"
                        + " (counted only, no CT log list given: log approval, distinct logs and SCT signatures are not checked; SCTs delivered in the TLS handshake or a stapled OCSP response need a connection)",
                    offending: ok ? [] : [0]))
        }

        // What only a connection shows.
        reqs.append(
            ATSRequirement(
                id: "tls-version", title: "TLS 1.2 or later", status: .needsConnection,
                detail:
                    "negotiated in the handshake: check with a TLS client (e.g. nscurl --ats-diagnostics, openssl s_client)",
                offending: []))
        reqs.append(
            ATSRequirement(
                id: "forward-secrecy", title: "Forward-secret cipher suites (ECDHE with AES-GCM/CBC, or TLS 1.3)",
                status: .needsConnection,
                detail: "negotiated in the handshake: the certificate does not say which suites the server offers",
                offending: []))
        reqs.append(
            ATSRequirement(
                id: "sct-delivery", title: "SCTs in the TLS extension or stapled OCSP", status: .needsConnection,
                detail: "only embedded SCTs are in the certificate", offending: []))
        return ATSReport(
            host: host, time: time, chain: chain, chainIsValidated: validated, trust: trust, requirements: reqs)
    }
}
