import ArgumentParser
import Foundation
import Sigil
import SigilNIO

#if NIO
    import NIOCore
    import NIOSSL
#endif

/// One restricted client configuration offered to the server (`sigil ats https://…`).
struct ATSProbe {
    enum Version: String {
        case tls10 = "TLSv1.0"
        case tls11 = "TLSv1.1"
        case tls12 = "TLSv1.2"
        case tls13 = "TLSv1.3"
    }
    let id: String
    let title: String
    let version: Version
    /// OpenSSL-style cipher list for TLS ≤ 1.2 (nil: the library's default); TLS 1.3 suites
    /// are all forward secret and not configurable.
    let ciphers: String?
    let forwardSecret: Bool

    /// ATS's forward-secrecy suites (Apple, NSAppTransportSecurity "Requirements for
    /// connecting using ATS") that BoringSSL can offer; the ECDHE-*-AES-CBC-SHA256/SHA384
    /// suites of Apple's list are not implemented by BoringSSL and cannot be probed.
    static let atsForwardSecrecySuites = [
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-SHA",
        "ECDHE-ECDSA-AES128-SHA",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA",
    ].joined(separator: ":")
    /// Suites without forward secrecy (RSA key exchange): what NSExceptionRequiresForwardSecrecy
    /// = NO additionally allows.
    static let nonForwardSecretSuites = ["AES256-GCM-SHA384", "AES128-GCM-SHA256", "AES256-SHA", "AES128-SHA"].joined(
        separator: ":")

    static let all: [ATSProbe] = [
        ATSProbe(id: "tls13", title: "TLSv1.3", version: .tls13, ciphers: nil, forwardSecret: true),
        ATSProbe(
            id: "tls12-fs", title: "TLSv1.2 with ATS forward-secrecy cipher suites", version: .tls12,
            ciphers: atsForwardSecrecySuites, forwardSecret: true),
        ATSProbe(
            id: "tls12-no-fs", title: "TLSv1.2 without forward secrecy (RSA key exchange only)", version: .tls12,
            ciphers: nonForwardSecretSuites, forwardSecret: false),
        ATSProbe(
            id: "tls11", title: "TLSv1.1", version: .tls11,
            ciphers: atsForwardSecrecySuites + ":" + nonForwardSecretSuites, forwardSecret: false),
        ATSProbe(
            id: "tls10", title: "TLSv1.0", version: .tls10,
            ciphers: atsForwardSecrecySuites + ":" + nonForwardSecretSuites, forwardSecret: false),
    ]
}

struct ProbeResult {
    let probe: ATSProbe
    let passed: Bool
    let detail: String
}

/// The `NSAppTransportSecurity` rules an app's Info.plist gives one host, resolved with Apple's
/// documented precedence (NSAppTransportSecurity and its keys in Apple's Information Property
/// List reference, iOS 17 / macOS 14 semantics):
///
/// 1. An `NSExceptionDomains` entry for the host — the exact name (or IP address), else the
///    longest parent domain with `NSIncludesSubdomains`, or an IP range in CIDR form — decides
///    with its own keys; `NSAllowsArbitraryLoads` does not apply to it ("Domains you specify in
///    that dictionary aren't affected by this key's value").
/// 2. Else, for a local host (unqualified name, `.local` name, IP address),
///    `NSAllowsLocalNetworking` = YES lifts ATS's requirements.
/// 3. Else `NSAllowsArbitraryLoads` = YES lifts them — unless `NSAllowsArbitraryLoadsForMedia`,
///    `NSAllowsArbitraryLoadsInWebContent` or `NSAllowsLocalNetworking` is present with any
///    value: then (iOS 10+ / macOS 10.12+) `NSAllowsArbitraryLoads` is ignored and ATS's defaults
///    apply.
/// 4. Else ATS's defaults (TLS ≥ 1.2, forward secrecy, the certificate requirements).
///
/// Independently, `NSPinnedDomains` (iOS 14+ / macOS 11+): for a pinned domain (exact, or a
/// parent with `NSIncludesSubdomains`), the leaf's SPKI digest must be among
/// `NSPinnedLeafIdentities` and some CA certificate of the chain among `NSPinnedCAIdentities`
/// (both when both are given); Sigil matches the validated path, never unvalidated extras.
/// Per-domain `NSRequiresCertificateTransparency` applies Apple's CT policy to the embedded SCTs
/// with `--ct-log-list` (verified signatures, log states); without a log list it refuses (fail
/// closed).
struct ATSRules {
    /// ATS's requirements are lifted for this host (arbitrary loads or local networking).
    var atsLifted = false
    var exceptionDomain: String?
    var minimumTLS: ATSProbe.Version = .tls12
    var requiresForwardSecrecy = true
    var allowsInsecureHTTPLoads = false
    /// The key that decided the rules above, as the report prints it.
    var decidedBy = "ATS defaults (no rule for this host)"
    /// The NSPinnedDomains entry for the host, if any.
    var pins: PinnedIdentities?
    /// NSRequiresCertificateTransparency = YES for the host's exception domain.
    var requiresCertificateTransparency = false
    var notes: [String] = []

    /// One NSPinnedDomains entry.
    struct PinnedIdentities {
        var domain: String
        /// nil: the key is absent; empty: present with no usable digest (matches nothing).
        var leaf: [PublicKeyPin]?
        var ca: [PublicKeyPin]?
        /// Why the entry cannot be used (refuses: fail closed).
        var invalid: String?

        /// nil when the validated path satisfies the pins, else why not.
        func failure(path: [Certificate]) -> String? {
            if let invalid { return "NSPinnedDomains[\(domain)] is unusable (\(invalid)): refused" }
            guard let leafCertificate = path.first else { return "NSPinnedDomains[\(domain)]: no validated chain" }
            if let leaf, !leaf.contains(PublicKeyPin(certificate: leafCertificate)) {
                return "NSPinnedDomains[\(domain)]: the leaf's key is not among NSPinnedLeafIdentities"
            }
            if let ca, !path.dropFirst().contains(where: { ca.contains(PublicKeyPin(certificate: $0)) }) {
                return "NSPinnedDomains[\(domain)]: no CA key of the validated path is among NSPinnedCAIdentities"
            }
            return nil
        }
    }

    static func versionOrder(_ v: ATSProbe.Version) -> Int {
        switch v {
        case .tls10: return 0
        case .tls11: return 1
        case .tls12: return 2
        case .tls13: return 3
        }
    }

    /// Unqualified names, `.local` names and IP addresses (Apple, NSAllowsLocalNetworking).
    static func isLocal(_ host: String) -> Bool {
        if IPAddress(host) != nil { return true }
        let h = host.hasSuffix(".") ? String(host.dropLast()) : host
        return !h.contains(".") || h.hasSuffix(".local")
    }

    /// Whether the dictionary key `domain` covers `host`: the same name or address; a parent
    /// domain when `includesSubdomains`; an address inside a CIDR range ("192.168.0.0/16").
    static func covers(_ domain: String, host: String, includesSubdomains: Bool) -> Int? {
        let dom = domain.lowercased()
        let h = host.lowercased()
        if dom == h { return Int.max }
        if let slash = dom.firstIndex(of: "/"), let net = IPAddress(String(dom[..<slash])),
            let bits = Int(dom[dom.index(after: slash)...]), let ip = IPAddress(h), ip.bytes.count == net.bytes.count,
            bits >= 0, bits <= net.bytes.count * 8
        {
            for i in 0..<bits where (ip.bytes[i / 8] ^ net.bytes[i / 8]) & UInt8(0x80 >> (i % 8)) != 0 { return nil }
            return bits
        }
        if includesSubdomains && IPAddress(h) == nil && h.hasSuffix("." + dom) { return dom.count }
        return nil
    }

    /// The entry of `dictionary` that covers `host` best (exact first, then the longest match).
    static func entry(_ dictionary: [String: Any]?, host: String) -> (String, [String: Any])? {
        var best: (String, [String: Any], Int)?
        for (domain, value) in dictionary ?? [:] {
            guard let d = value as? [String: Any] else { continue }
            let includes = (d["NSIncludesSubdomains"] as? Bool) ?? false
            if let score = covers(domain, host: host, includesSubdomains: includes), score > (best?.2 ?? -1) {
                best = (domain, d, score)
            }
        }
        return best.map { ($0.0, $0.1) }
    }

    /// Reads the dictionary (XML or binary plist) and resolves the rules for `host`.
    static func load(plist path: String, host: String) throws -> ATSRules {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        let root: Any
        do { root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
            throw ValidationError("\(path): not a property list (\(error))")
        }
        guard let top = root as? [String: Any] else {
            throw ValidationError("\(path): the property list is not a dictionary")
        }
        guard let ats = top["NSAppTransportSecurity"] as? [String: Any] else {
            var rules = ATSRules()
            rules.decidedBy = "ATS defaults (no NSAppTransportSecurity dictionary)"
            return rules
        }
        return try resolve(ats, host: host, path: path)
    }

    static func resolve(_ ats: [String: Any], host: String, path: String) throws -> ATSRules {
        var rules = ATSRules()
        rules.pins = pinnedIdentities(ats["NSPinnedDomains"] as? [String: Any], host: host)
        let arbitrary = (ats["NSAllowsArbitraryLoads"] as? Bool) ?? false
        let overriding = [
            "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking",
        ]
        .filter { ats[$0] != nil }
        // 1. The exception domain's own keys.
        if let (domain, d) = entry(ats["NSExceptionDomains"] as? [String: Any], host: host) {
            rules.exceptionDomain = domain
            rules.decidedBy = "NSExceptionDomains[\(domain)]"
            if arbitrary { rules.notes.append("NSAllowsArbitraryLoads does not apply to an exception domain") }
            func value<T>(_ key: String) -> T? {
                (d["NSException" + key] as? T) ?? (d["NSTemporaryException" + key] as? T)
                    ?? (d["NSThirdPartyException" + key] as? T)
            }
            if let v: String = value("MinimumTLSVersion") {
                guard let version = ATSProbe.Version(rawValue: v) else {
                    throw ValidationError("\(path): \(domain): unknown NSExceptionMinimumTLSVersion \(v)")
                }
                rules.minimumTLS = version
            }
            if let fs: Bool = value("RequiresForwardSecrecy") { rules.requiresForwardSecrecy = fs }
            if let insecure: Bool = value("AllowsInsecureHTTPLoads") { rules.allowsInsecureHTTPLoads = insecure }
            rules.requiresCertificateTransparency = (d["NSRequiresCertificateTransparency"] as? Bool) ?? false
            for key in d.keys where key.hasPrefix("NSTemporaryException") {
                rules.notes.append(
                    "\(key) is the deprecated spelling of NSException\(key.dropFirst("NSTemporaryException".count))")
            }
            return rules
        }
        // 2. Local networking.
        if (ats["NSAllowsLocalNetworking"] as? Bool) == true && isLocal(host) {
            rules.atsLifted = true
            rules.decidedBy = "NSAllowsLocalNetworking (\(host) is a local host: unqualified, .local or an IP address)"
            return rules
        }
        // 3. Arbitrary loads, unless a newer key makes ATS ignore it.
        if arbitrary {
            if overriding.isEmpty {
                rules.atsLifted = true
                rules.decidedBy = "NSAllowsArbitraryLoads"
            } else {
                rules.decidedBy =
                    "ATS defaults: NSAllowsArbitraryLoads is ignored because \(overriding.joined(separator: ", ")) is present (iOS 10+, macOS 10.12+)"
            }
        }
        return rules
    }

    /// The NSPinnedDomains entry covering `host`, its digests decoded.
    static func pinnedIdentities(_ pinned: [String: Any]?, host: String) -> PinnedIdentities? {
        guard let (domain, d) = entry(pinned, host: host) else { return nil }
        var out = PinnedIdentities(domain: domain)
        func digests(_ key: String) -> [PublicKeyPin]? {
            guard let raw = d[key] else { return nil }
            guard let list = raw as? [Any] else {
                out.invalid = "\(key) is not an array"
                return []
            }
            var pins: [PublicKeyPin] = []
            for item in list {
                guard let entry = item as? [String: Any], let b64 = entry["SPKI-SHA256-BASE64"] as? String,
                    let pin = PublicKeyPin("sha256/" + b64)
                else {
                    out.invalid = "an entry of \(key) is not a SPKI-SHA256-BASE64 digest"
                    continue
                }
                pins.append(pin)
            }
            return pins
        }
        out.leaf = digests("NSPinnedLeafIdentities")
        out.ca = digests("NSPinnedCAIdentities")
        if out.leaf == nil && out.ca == nil {
            out.invalid = "neither NSPinnedLeafIdentities nor NSPinnedCAIdentities"
        }
        return out
    }
}

extension ATS {
    /// `sigil ats https://HOST[:PORT]`: nscurl --ats-diagnostics for a live server.
    func runLive(_ url: String) throws {
        #if NIO
            var rest = String(url.dropFirst("https://".count))
            if let slash = rest.firstIndex(of: "/") { rest = String(rest[..<slash]) }
            let hp = try HostPort(rest)
            let name = host ?? hp.host
            let sni = hp.isIPAddress ? nil : hp.host
            let rules = try infoPlist.map { try ATSRules.load(plist: $0, host: name) }
            let ctList = try loadCTLogList()

            // 1. The chain, with the client's defaults (else from the first probe that connects).
            var presented: [[UInt8]] = []
            var firstError = ""
            do {
                presented = try SigilTLSClient.handshake(
                    host: hp.host, port: hp.port, serverName: sni, verifier: nil, timeout: timeout
                ).wait().presentedDER
            } catch SigilTLSClientError.handshakeFailed(let why, _) {
                firstError = "TLS handshake failed: " + why
            } catch {
                throw networkFailure("\(hp.host):\(hp.port): \(error)")
            }
            // 2. The restricted configurations.
            var results: [ProbeResult] = []
            for p in ATSProbe.all {
                var c = TLSConfiguration.makeClientConfiguration()
                let v: TLSVersion
                switch p.version {
                case .tls10: v = .tlsv1
                case .tls11: v = .tlsv11
                case .tls12: v = .tlsv12
                case .tls13: v = .tlsv13
                }
                c.minimumTLSVersion = v
                c.maximumTLSVersion = v
                if let ciphers = p.ciphers { c.cipherSuites = ciphers }
                do {
                    let h = try SigilTLSClient.handshake(
                        host: hp.host, port: hp.port, serverName: sni, configuration: c, verifier: nil, timeout: timeout
                    ).wait()
                    if presented.isEmpty { presented = h.presentedDER }
                    results.append(
                        ProbeResult(probe: p, passed: true, detail: "negotiated \(h.tlsVersion.map { "\($0)" } ?? "?")")
                    )
                } catch SigilTLSClientError.connectFailed(let why) {
                    throw networkFailure(why)
                } catch {
                    results.append(ProbeResult(probe: p, passed: false, detail: "\(error)"))
                }
            }
            let certs = presented.compactMap { try? Certificate(der: $0) }
            guard !certs.isEmpty else {
                throw networkFailure(
                    "\(hp.host):\(hp.port): "
                        + (firstError.isEmpty
                            ? "no certificate presented" : firstError + " (and with every restricted configuration)"))
            }
            let store = anchorStore()
            let report = ATSReport.evaluate(
                presented: certs, host: name, anchors: store, at: at ?? Date().timeIntervalSince1970,
                ctLogList: ctList)
            let certificatesPass = report.requirements.allSatisfy { $0.status != .fail }
            let chainTrusted = report.requirements.first { $0.id == "chain-trusted" }?.status == .pass
            /// Would a connection succeed with TLS ≥ `minimum`, forward secrecy required or not?
            func connects(minimum: ATSProbe.Version, forwardSecrecy: Bool) -> Bool {
                results.contains { r in
                    r.passed && ATSRules.versionOrder(r.probe.version) >= ATSRules.versionOrder(minimum)
                        && (!forwardSecrecy || r.probe.forwardSecret)
                }
            }
            let defaultPass = certificatesPass && connects(minimum: .tls12, forwardSecrecy: true)

            // 3. The app's rules.
            var appAllowed: Bool?
            var appWhy = ""
            if let rules {
                if rules.atsLifted {
                    appAllowed = chainTrusted && results.contains { $0.passed }
                    appWhy = "no ATS requirement; the chain must still be trusted"
                } else {
                    let tls = connects(minimum: rules.minimumTLS, forwardSecrecy: rules.requiresForwardSecrecy)
                    appAllowed = certificatesPass && tls
                    appWhy =
                        "minimum \(rules.minimumTLS.rawValue), forward secrecy \(rules.requiresForwardSecrecy ? "required" : "not required")"
                        + (rules.exceptionDomain.map { " (exception domain \($0))" } ?? " (ATS defaults)")
                        + (certificatesPass ? "" : "; a certificate requirement fails")
                        + (tls ? "" : "; no allowed TLS configuration succeeded")
                }
                // NSPinnedDomains holds whatever else decided: matched against the validated path.
                if let pins = rules.pins {
                    if let why = pins.failure(path: report.chainIsValidated ? report.chain : []) {
                        appAllowed = false
                        appWhy += "; " + why
                    } else {
                        appWhy += "; NSPinnedDomains[\(pins.domain)] matched"
                    }
                }
                if rules.requiresCertificateTransparency {
                    // Apple's CT policy on the validated leaf, whatever the anchor. Only embedded
                    // SCTs: swift-nio-ssl exposes neither the TLS extension nor a stapled OCSP
                    // response. Without a log list nothing can be verified: fail closed.
                    if let ctList {
                        let v = ATSReport.ctCompliance(
                            chain: report.chainIsValidated ? report.chain : [], logList: ctList,
                            at: Int64(at ?? Date().timeIntervalSince1970))
                        if !v.compliant { appAllowed = false }
                        appWhy += "; NSRequiresCertificateTransparency \(v.compliant ? "met" : "not met"): \(v.reason)"
                    } else {
                        appAllowed = false
                        appWhy +=
                            "; NSRequiresCertificateTransparency: no --ct-log-list, so SCTs cannot be verified (fail closed)"
                    }
                }
            }

            if json {
                var o: [(String, JSONValue)] = [
                    ("host", .string(name)), ("port", .int(Int64(hp.port))),
                    ("atsDefaultConnection", .bool(defaultPass)),
                    ("certificateRequirementsPass", .bool(certificatesPass)),
                    ("chain", .array(report.chain.map { .string($0.subject.rfc4514String) })),
                ]
                o.append(
                    (
                        "requirements",
                        .array(
                            report.requirements.map { r in
                                .object([
                                    ("id", .string(r.id)), ("status", .string(r.status.rawValue)),
                                    ("detail", .string(r.detail)),
                                ])
                            })
                    ))
                o.append(
                    (
                        "configurations",
                        .array(
                            results.map { r in
                                .object([
                                    ("id", .string(r.probe.id)), ("title", .string(r.probe.title)),
                                    ("pass", .bool(r.passed)), ("detail", .string(r.detail)),
                                ])
                            })
                    ))
                if let appAllowed, let rules {
                    o.append(("infoPlistAllows", .bool(appAllowed)))
                    o.append(("infoPlistRules", .string(appWhy)))
                    o.append(("infoPlistDecidedBy", .string(rules.decidedBy)))
                    o.append(("infoPlistNotes", .array(rules.notes.map { .string($0) })))
                }
                print(JSONValue.object(o).serialized())
            } else {
                let line = String(repeating: "=", count: 80)
                func result(_ title: String, _ pass: Bool, _ detail: String? = nil) {
                    print("---\n\(title)\nResult : \(pass ? "PASS" : "FAIL")" + (detail.map { "\n  \($0)" } ?? ""))
                }
                print(
                    "Starting ATS Diagnostics (sigil) for https://\(hp.host):\(hp.port)\(name != hp.host ? " (name \(name))" : "")\n\(line)\n"
                )
                print(
                    "Certificate requirements (\(report.chainIsValidated ? "validated path" : "chain as presented, not validated")):"
                )
                for (i, c) in report.chain.enumerated() { print("  [\(i)] \(c.subject.rfc4514String)") }
                for r in report.requirements where r.status != .needsConnection {
                    let tag: String
                    switch r.status {
                    case .pass: tag = "PASS"
                    case .fail: tag = "FAIL"
                    case .notApplicable: tag = "N/A "
                    case .needsConnection: tag = "TLS "
                    }
                    print("\(tag) \(r.title)\n     \(r.detail)")
                }
                print("\(line)\n\nDefault ATS Secure Connection")
                result(
                    "ATS Default Connection", defaultPass,
                    certificatesPass ? nil : "a certificate requirement fails")
                print("---\n\(line)\n\nAllowing Arbitrary Loads")
                result("Allow All Loads", chainTrusted && results.contains { $0.passed })
                print("---\n\(line)\n\nConfigurations offered (each alone)")
                for r in results { result(r.probe.title, r.passed, r.detail) }
                print("---\n\(line)\n\nConfiguring TLS exceptions (NSExceptionMinimumTLSVersion)")
                for v in [ATSProbe.Version.tls13, .tls12, .tls11, .tls10] {
                    result(v.rawValue, certificatesPass && connects(minimum: v, forwardSecrecy: true))
                }
                print("---\n\(line)\n\nConfiguring PFS exceptions (NSExceptionRequiresForwardSecrecy = NO)")
                result(
                    "Disabling Perfect Forward Secrecy",
                    certificatesPass && connects(minimum: .tls12, forwardSecrecy: false))
                print("---\n\(line)")
                if let appAllowed, let rules {
                    print("\nInfo.plist (\(infoPlist ?? "")): \(appAllowed ? "ALLOWED" : "REFUSED") — \(appWhy)")
                    print("  decided by: \(rules.decidedBy)")
                    for n in rules.notes { print("  note: \(n)") }
                    if rules.allowsInsecureHTTPLoads {
                        print("  note: NSExceptionAllowsInsecureHTTPLoads: plain http:// to this domain is allowed too")
                    }
                }
                print("SCTs in the TLS extension / stapled OCSP: not measurable (swift-nio-ssl does not expose them)")
            }
            let verdict = appAllowed ?? defaultPass
            if !verdict { throw ExitCode(Exit.failure) }
        #else
            printError(withoutNIOMessage)
            throw ExitCode(Exit.unsupported)
        #endif
    }
}
