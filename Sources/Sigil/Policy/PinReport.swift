import SigilDER
import SigilTrust
import SigilX509

/// A pin validation failure report in the JSON shape of RFC 7469 §3 (HPKP's `report-uri`
/// document, which TrustKit also sends), built by `SecurityPolicy` when public-key pins in force
/// for a host fail — whether the pin set is enforced or report-only (`PinSet.enforced`).
///
/// Sigil does no network I/O: the report goes to `SecurityPolicy.pinFailureReporter` and
/// `SecurityPolicyEvaluation.pinFailureReport`; posting it (RFC 7469 §3: an HTTP POST of
/// `json` to the report URI) is the caller's business.
public struct PinFailureReport: Sendable, Hashable {
    /// When the failure was observed — the evaluation time — in whole seconds since the epoch
    /// (`date-time`, written as an RFC 3339 §5.6 date-time in UTC).
    public var dateTime: Int64
    /// The name the connection was checked for (`hostname`).
    public var hostname: String
    /// The port connected to (`port`); nil — written `null` — when unknown, e.g. a chain verified
    /// from files, or an integration that does not pass it.
    public var port: Int?
    /// When the pins stop being in force (`effective-expiration-date`, RFC 3339 in UTC): the pin
    /// set's `expires`, whole seconds; nil — written `null` — for pins without expiry.
    public var effectiveExpirationDate: Int64?
    /// The pin set also covers the subdomains of `notedHostname` (`include-subdomains`).
    public var includeSubdomains: Bool
    /// The domain the pins were configured for (`noted-hostname`): `hostname` itself, or the
    /// parent domain whose pin set covers it through `includeSubdomains`.
    public var notedHostname: String
    /// The certificates as the peer presented them, leaf first (`served-certificate-chain`).
    public var servedCertificateChain: [Certificate]
    /// The path the evaluation validated, leaf first and trust anchor last
    /// (`validated-certificate-chain`); empty when no path validated (the chain is not trusted:
    /// nothing was matched, the pins count as failed).
    public var validatedCertificateChain: [Certificate]
    /// The pins in force (`known-pins`), in configuration order.
    public var knownPins: [PublicKeyPin]
    /// Not part of the RFC 7469 document: true when the pins were enforced (the verdict refused
    /// the chain), false for a report-only pin set (the verdict ignored them).
    public var enforced: Bool

    /// A report with every field given (times in seconds since the epoch).
    public init(
        dateTime: Int64, hostname: String, port: Int?, effectiveExpirationDate: Int64?, includeSubdomains: Bool,
        notedHostname: String, servedCertificateChain: [Certificate], validatedCertificateChain: [Certificate],
        knownPins: [PublicKeyPin], enforced: Bool
    ) {
        self.dateTime = dateTime
        self.hostname = hostname
        self.port = port
        self.effectiveExpirationDate = effectiveExpirationDate
        self.includeSubdomains = includeSubdomains
        self.notedHostname = notedHostname
        self.servedCertificateChain = servedCertificateChain
        self.validatedCertificateChain = validatedCertificateChain
        self.knownPins = knownPins
        self.enforced = enforced
    }

    /// A pin as RFC 7469 §3 lists it in `known-pins`: the §2.4 pin directive
    /// `pin-sha256="<base64>"` (token "=" quoted-string).
    public static func knownPinDirective(_ pin: PublicKeyPin) -> String {
        "pin-sha256=\"" + Base64.encodeString(pin.sha256) + "\""
    }

    /// The RFC 7469 §3 document: exactly its nine members, each once, in the RFC's order.
    /// Chains are arrays of RFC 7468 PEM strings; `known-pins` strings are double-quoted JSON
    /// with the directive's quotes backslash-escaped (the RFC's alternative, single-quoted
    /// strings, is not JSON).
    public var json: JSONValue {
        .object([
            ("date-time", .string(DERTime.rfc3339(dateTime))),
            ("hostname", .string(hostname)),
            ("port", port.map { .int(Int64($0)) } ?? .null),
            ("effective-expiration-date", effectiveExpirationDate.map { .string(DERTime.rfc3339($0)) } ?? .null),
            ("include-subdomains", .bool(includeSubdomains)),
            ("noted-hostname", .string(notedHostname)),
            ("served-certificate-chain", .array(servedCertificateChain.map { .string($0.pem) })),
            ("validated-certificate-chain", .array(validatedCertificateChain.map { .string($0.pem) })),
            ("known-pins", .array(knownPins.map { .string(Self.knownPinDirective($0)) })),
        ])
    }

    /// `json`, serialised on one line.
    public var jsonText: String { json.serialized() }

    /// Whole seconds within what an RFC 3339 date-time in this report can say (1970 to
    /// 9999-12-31T23:59:59Z); NaN and infinities are clamped rather than trapping.
    static func seconds(_ t: Double) -> Int64 {
        guard t.isFinite else { return t > 0 ? 253_402_300_799 : 0 }
        return Int64(min(max(t.rounded(.down), 0), 253_402_300_799))
    }
}

extension SecurityPolicy {
    /// `evaluate(serverChain:domain:at:)` with the port connected to, for the report: when
    /// public-key pins in force for `domain` fail, the evaluation carries an RFC 7469 §3
    /// `PinFailureReport` and `pinFailureReporter` receives it.
    ///
    /// Which pins are in force: the enforced `PinSet` for the domain (`pinSets(for:at:)`: the
    /// most specific unexpired enforced set), else the global key pins — either shadows any
    /// report-only set — else the most specific report-only set. An expired set is
    /// neither enforced nor reported (RFC 7469 §2.3.3: past its Effective Expiration Date the
    /// host is no longer a Known Pinned Host; TrustKit's `kTSKExpirationDate` likewise disables
    /// pin validation).
    ///
    /// When they fail (RFC 7469 §2.6 matches the pins against the validated chain):
    /// - enforced pins: the chain was refused as `.pinNotFound` / `.chainNotFullyPinned`, or as
    ///   `.untrusted` (no path validated, so no pin can match — TrustKit reports this case too);
    /// - report-only pins (`PinSet.enforced` false): the verdict is the ordinary evaluation's
    ///   (mode none), and a report is made when no key of the validated path is pinned (with
    ///   `validatesCertificateChain`: when one is not), or when no path validated at all.
    ///
    /// Certificate mode pins certificates, not keys: it makes no report. Nothing is reported when
    /// the chain was refused before any evaluation (empty chain, no domain, clause 1, no pins).
    public func evaluate(serverChain: [Certificate], domain: String?, port: Int?, at time: Double)
        -> SecurityPolicyEvaluation
    {
        var e = evaluateClauses(serverChain: serverChain, domain: domain, at: time)
        if let report = pinFailureReport(for: e, serverChain: serverChain, domain: domain, port: port, at: time) {
            e.pinFailureReport = report
            pinFailureReporter?(report)
        }
        return e
    }

    /// The report for `e`, or nil when no pins in force failed (see `evaluate(serverChain:domain:port:at:)`).
    func pinFailureReport(
        for e: SecurityPolicyEvaluation, serverChain: [Certificate], domain: String?, port: Int?, at time: Double
    ) -> PinFailureReport? {
        // Matched pins (the trusted path of public-key mode) return before any allocation.
        if case .pinMatched = e.outcome { return nil }
        guard pinningMode == .publicKey, let domain, !serverChain.isEmpty, let ordinary = e.ordinaryResult else {
            return nil
        }
        var validated: [Certificate] = []
        if case .trusted(let path, _, _) = ordinary { validated = path }
        // Report-only pins fail when the validated path carries none of them (with
        // `validatesCertificateChain`: when one certificate does not). Fail closed: with no
        // validated path nothing matches (RFC 7469 §2.6 checks the validated chain), whatever
        // the presented certificates carry.
        func reportOnlyFailed(_ pins: [PublicKeyPin]) -> Bool {
            let pinned = Set(pins)
            let matched = validated.reduce(0) { $0 + (pinned.contains(PublicKeyPin(certificate: $1)) ? 1 : 0) }
            return matched == 0 || (validatesCertificateChain && matched != validated.count)
        }
        let sets = pinSets(for: domain, at: time)
        let set: PinSet?
        let enforced: Bool
        let enforcedFailed: Bool
        switch e.rejection {
        case .untrusted?, .pinNotFound?, .chainNotFullyPinned?: enforcedFailed = true
        default: enforcedFailed = false
        }
        let pins: [PublicKeyPin]
        let inForce = enforcedKeyPins(sets)
        if inForce.set != nil || !inForce.pins.isEmpty {
            (set, enforced, pins) = (inForce.set, true, inForce.pins)
        } else if let s = sets.reportOnly {
            (set, enforced, pins) = (s, false, s.pins)
        } else {
            return nil  // nothing pinned, or only expired sets: neither enforced nor reported (§2.3.3)
        }
        if pins.isEmpty { return nil }
        let failed = enforced ? enforcedFailed : reportOnlyFailed(pins)
        guard failed else { return nil }
        var known: [PublicKeyPin] = []
        for p in pins where !known.contains(p) { known.append(p) }
        return PinFailureReport(
            dateTime: PinFailureReport.seconds(time), hostname: domain, port: port,
            effectiveExpirationDate: set?.expires.map(PinFailureReport.seconds),
            includeSubdomains: set?.includesSubdomains ?? false, notedHostname: set?.domain ?? domain,
            servedCertificateChain: serverChain, validatedCertificateChain: validated, knownPins: known,
            enforced: enforced)
    }
}
