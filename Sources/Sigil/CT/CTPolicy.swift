import SigilDER
import SigilX509

/// The outcome of a CT policy for one certificate.
public struct CTPolicyVerdict: Sendable, Hashable {
    /// Whether the certificate complies (or the policy does not apply to it).
    public let compliant: Bool
    /// Whether the policy applies (issued on or after its start date).
    public let applies: Bool
    /// A sentence saying why.
    public let reason: String

    /// A verdict from its parts.
    public init(compliant: Bool, applies: Bool, reason: String) {
        self.compliant = compliant
        self.applies = applies
        self.reason = reason
    }
}

/// Certificate Transparency policies over checked SCTs (`SCTVerifier.check`). Only `valid` SCTs
/// count; one SCT per log counts (RFC 6962 §3: a log's SCTs for the same entry are one promise).
public enum CTPolicy {
    /// 2018-10-15T00:00:00Z: Apple's policy covers certificates issued from then on.
    public static let appleStart: Int64 = 1_539_561_600
    /// 2018-04-30T00:00:00Z: Chrome's.
    public static let chromeStart: Int64 = 1_525_046_400
    /// 2022-04-15T00:00:00Z: Chrome's policy for certificates issued (notBefore) from then on;
    /// certificates issued before are judged by its older rules (one Google log, one other).
    public static let chrome2022Start: Int64 = 1_649_980_800

    /// `t` moved `months` calendar months on: the same day and time of day, the day clamped to
    /// the length of the month reached.
    static func addingMonths(_ months: Int, to t: Int64) -> Int64 {
        let c = DERTime.components(t)
        let m = c.month - 1 + months
        let year = c.year + (m >= 0 ? m / 12 : (m - 11) / 12)
        let month = ((m % 12) + 12) % 12 + 1
        let day = min(c.day, DERTime.daysInMonth(year: year, month: month))
        return DERTime.secondsSinceEpoch(
            year: year, month: month, day: day, hour: c.hour, minute: c.minute, second: c.second)
    }

    /// Whether `c`'s lifetime (notBefore through notAfter inclusive, RFC 5280 §4.1.2.5) is within
    /// the longest a publicly-trusted TLS certificate could have when issued at its notBefore:
    /// 825 days from 2018-03-01 (BR §6.3.2, ballot 193), 39 months from 2015-04-01 (BR 1.x
    /// §9.4.1), 60 months from 2012-07-01 (BR 1.0 §9.4), 120 months before (the bound Chrome
    /// applies to older certificates). A certificate dated before a CT policy's start but valid
    /// for longer is a backdated one, not exempt.
    public static func lifetimeWithinBaselineLimit(_ c: Certificate) -> Bool {
        let nb = c.notBefore
        if nb >= 1_519_862_400 { return lifetimeDays(c) <= 825 }  // 2018-03-01T00:00:00Z
        let months = nb >= 1_427_846_400 ? 39 : nb >= 1_341_100_800 ? 60 : 120  // 2015-04-01, 2012-07-01
        guard c.notAfter < .max else { return false }
        return c.notAfter + 1 <= addingMonths(months, to: nb)
    }

    /// The number of SCTs from distinct logs Chrome's older policy (certificates issued before
    /// 15 April 2022) requires for the lifetime notBefore through notAfter inclusive (RFC 5280
    /// §4.1.2.5): < 15 months 2; ≥ 15 and ≤ 27 months 3; > 27 and ≤ 39 months 4; > 39 months 5.
    /// Apple's policy has the same table for certificates with notBefore before 21 April 2021
    /// ("less than 15 months 2, 15 to 27 months 3, 27 to 39 months 4, more than 39 months 5";
    /// `appleEmbeddedRequirement`).
    public static func chromeLegacyRequiredSCTs(_ c: Certificate) -> Int {
        let end = c.notAfter == .max ? c.notAfter : c.notAfter + 1
        if end < addingMonths(15, to: c.notBefore) { return 2 }
        if end <= addingMonths(27, to: c.notBefore) { return 3 }
        if end <= addingMonths(39, to: c.notBefore) { return 4 }
        return 5
    }

    /// 2021-04-21T00:00:00Z: Apple's day-based lifetime table covers certificates with a
    /// notBefore from then on; older ones keep the month-based table.
    public static let apple2021: Int64 = 1_618_963_200

    /// Apple's CT policy (support.apple.com/103214, and its text of 2021–2023, HT205280), embedded
    /// SCTs: how many from distinct logs the lifetime requires, and how many per log operator
    /// count towards it; nil for a lifetime the policy does not allow.
    /// - notBefore ≥ 2021-04-21: ≤ 180 days 2 (1 per operator); 181–398 days 3 (2 per operator);
    ///   longer: not allowed.
    /// - notBefore < 2021-04-21: the month table (`chromeLegacyRequiredSCTs`: 2, 3, 4, 5), from
    ///   "separate logs" with no per-operator maximum.
    public static func appleEmbeddedRequirement(_ c: Certificate) -> (required: Int, perOperator: Int)? {
        if c.notBefore < apple2021 {
            let n = chromeLegacyRequiredSCTs(c)
            return (n, n)
        }
        let days = lifetimeDays(c)
        if days <= 180 { return (2, 1) }
        if days <= 398 { return (3, 2) }
        return nil
    }

    /// Lifetime in days as Apple counts it: notBefore through notAfter inclusive (RFC 5280
    /// §4.1.2.5), in days of 86 400 s, any remainder counting as one more day.
    public static func lifetimeDays(_ c: Certificate) -> Int64 {
        let seconds = c.notAfter - c.notBefore + 1
        return seconds <= 0 ? 0 : (seconds + 86_399) / 86_400
    }

    /// Judges `certificate` against `profile`.
    public static func evaluate(
        _ certificate: Certificate, checks: [SCTCheck], logList: CTLogList?, profile: CTPolicyProfile, at time: Int64
    ) -> CTPolicyVerdict {
        let start = profile == .apple ? appleStart : chromeStart
        // The date of issuance is the certificate's own word (notBefore): a CA can backdate it.
        // The exemption holds only for a lifetime the Baseline Requirements allowed at that date
        // (`lifetimeWithinBaselineLimit`), as browsers refuse longer ones outright; a backdated
        // certificate valid for longer is judged by the policy.
        if certificate.notBefore < start && lifetimeWithinBaselineLimit(certificate) {
            return CTPolicyVerdict(
                compliant: true, applies: false,
                reason: "issued before \(DERTime.rfc3339(start)): the \(profile.rawValue) CT policy does not apply")
        }
        // Valid SCTs, one per log (the first of each), with their log.
        var seen: [[UInt8]] = []
        var counted: [(SCTCheck, CTLog)] = []
        for c in checks where c.status == .valid {
            guard let log = c.log, !seen.contains(log.logID) else { continue }
            seen.append(log.logID)
            counted.append((c, log))
        }
        let days = lifetimeDays(certificate)
        let requireRFC6962 = logList?.hasTiledLogs ?? false
        func hasRFC6962(_ s: [(SCTCheck, CTLog)]) -> Bool { !requireRFC6962 || s.contains { !$0.1.isTiled } }
        let embedded = counted.filter { $0.0.origin == .embedded }
        let delivered = counted.filter { $0.0.origin != .embedded }
        switch profile {
        case .apple:
            // ≥ 2 SCTs from logs once or currently approved (a valid SCT's log accepted it).
            guard counted.count >= 2 else {
                return CTPolicyVerdict(
                    compliant: false, applies: true,
                    reason: "\(counted.count) valid SCT(s) from distinct logs, 2 required")
            }
            let current = counted.filter { $0.1.isCurrentlyApproved(at: time) }
            // Either ≥ 2 from currently approved logs with one delivered by TLS or OCSP...
            if current.count >= 2, current.contains(where: { $0.0.origin != .embedded }), hasRFC6962(counted) {
                return CTPolicyVerdict(
                    compliant: true, applies: true,
                    reason: "\(current.count) valid SCTs from currently approved logs, one delivered by TLS or OCSP")
            }
            // ...or ≥ 1 embedded from a currently approved log plus the lifetime table.
            guard let (need, perOperator) = appleEmbeddedRequirement(certificate) else {
                return CTPolicyVerdict(
                    compliant: false, applies: true,
                    reason: "a \(days)-day certificate is longer than Apple's CT policy allows (398 days)")
            }
            let n = countCapped(embedded, perOperator: perOperator)
            guard embedded.contains(where: { $0.1.isCurrentlyApproved(at: time) }) else {
                return CTPolicyVerdict(
                    compliant: false, applies: true, reason: "no valid embedded SCT from a currently approved log")
            }
            guard hasRFC6962(embedded) else {
                return CTPolicyVerdict(compliant: false, applies: true, reason: "no valid SCT from an RFC 6962 log")
            }
            return CTPolicyVerdict(
                compliant: n >= need, applies: true,
                reason:
                    "\(n) valid embedded SCT(s) counted (at most \(perOperator) per operator), \(need) required for a \(days)-day certificate"
            )
        case .chrome where certificate.notBefore < chrome2022Start:
            return chromeLegacy(certificate, embedded: embedded, delivered: delivered, at: time, hasRFC6962: hasRFC6962)
        case .chrome:
            // Chrome's CT policy (ct_policy.md, certificates issued on or after 15 April 2022).
            // Embedded: "1. At least one Embedded SCT from a CT Log that was Qualified, Usable,
            // or ReadOnly at the time of check; and 2. ... Embedded SCTs from at least N distinct
            // CT Logs that were Qualified, Usable, ReadOnly, or Retired at the time of check"
            // (N = 2 for ≤ 180 days, else 3; a valid SCT's log is one of these, its SCT issued
            // before any retirement); "3. ... at least two ... from distinct CT Log Operators".
            // Retired logs alone never satisfy 1.
            let need = days <= 180 ? 2 : 3
            // "each SCT's log operator is determined to be the operator at the time of SCT
            // issuance" (`previous_operators`): a log that changed hands counts for its operator then.
            func chromeOperator(_ e: (SCTCheck, CTLog)) -> String {
                e.0.sct.map { e.1.operatorName(forSCTAt: $0.timestamp) } ?? e.1.operatorName
            }
            let operators = Set(embedded.map(chromeOperator)).count
            let embeddedFromCurrentLog = embedded.contains { $0.1.isQualifiedUsableOrReadOnly(at: time) }
            if embedded.count >= need, operators >= 2, embeddedFromCurrentLog, hasRFC6962(embedded) {
                return CTPolicyVerdict(
                    compliant: true, applies: true,
                    reason: "\(embedded.count) valid embedded SCTs from \(operators) operators, \(need) required")
            }
            // Delivered by TLS or OCSP: "1. At least two SCTs from a CT Log that was Qualified,
            // Usable, or ReadOnly at the time of check; and 2. Among the SCTs satisfying
            // requirement 1, at least two ... from distinct CT Log Operators": a Retired log's
            // SCT does not count here.
            let deliveredCurrent = delivered.filter { $0.1.isQualifiedUsableOrReadOnly(at: time) }
            let deliveredOperators = Set(deliveredCurrent.map(chromeOperator)).count
            if deliveredOperators >= 2, hasRFC6962(deliveredCurrent) {
                return CTPolicyVerdict(
                    compliant: true, applies: true,
                    reason: "valid SCTs delivered by TLS or OCSP from \(deliveredOperators) operators")
            }
            return CTPolicyVerdict(
                compliant: false, applies: true,
                reason:
                    "\(embedded.count) valid embedded SCT(s) from \(operators) operator(s) (\(need) from 2 operators required, one from a log Qualified, Usable or ReadOnly now: \(embeddedFromCurrentLog ? "yes" : "no")); \(deliveredOperators) operator(s) of such logs by TLS/OCSP (2 required)"
            )
        }
    }

    /// Chrome's CT policy for certificates issued before 15 April 2022 (ct_policy.md, 747480f,
    /// "For certificates issued before 15 April 2022"; Chrome applied it by issuance date, so it
    /// decides for such certificates at any time of check, e.g. a historical one). Embedded:
    /// "1. At least one Embedded SCT from a CT Log that was Qualified, Usable or ReadOnly at the
    /// time of check; 2. At least one Embedded SCT from a Google CT Log that was Qualified,
    /// Usable, ReadOnly, or Retired at the time of check; 3. At least one Embedded SCT from a
    /// non-Google CT Log [likewise]; 4. There are SCTs from at least N distinct CT Logs [in those
    /// states]" (N by lifetime in months, `chromeLegacyRequiredSCTs`; counted over the embedded
    /// SCTs). By OCSP or TLS: "1. At least one SCT from a Google CT Log that was Qualified,
    /// Usable, or ReadOnly at the time of check; and 2. At least one SCT from a non-Google CT Log"
    /// likewise. A valid SCT's log was in one of the counted states when checked (a Retired log's
    /// SCT counts only if issued before its retirement, `CTLog.acceptsSCT`). A Google CT Log is
    /// one whose operator, when it issued the SCT, is named "Google" in the log list.
    static func chromeLegacy(
        _ certificate: Certificate, embedded: [(SCTCheck, CTLog)], delivered: [(SCTCheck, CTLog)], at time: Int64,
        hasRFC6962: ([(SCTCheck, CTLog)]) -> Bool
    ) -> CTPolicyVerdict {
        func isGoogle(_ e: (SCTCheck, CTLog)) -> Bool {
            (e.0.sct.map { e.1.operatorName(forSCTAt: $0.timestamp) } ?? e.1.operatorName) == "Google"
        }
        let need = chromeLegacyRequiredSCTs(certificate)
        let google = embedded.contains(where: isGoogle)
        let other = embedded.contains { !isGoogle($0) }
        let current = embedded.contains { $0.1.isQualifiedUsableOrReadOnly(at: time) }
        if current, google, other, embedded.count >= need, hasRFC6962(embedded) {
            return CTPolicyVerdict(
                compliant: true, applies: true,
                reason:
                    "\(embedded.count) valid embedded SCTs with a Google and a non-Google log, \(need) required (Chrome's policy for certificates issued before 2022-04-15)"
            )
        }
        let deliveredCurrent = delivered.filter { $0.1.isQualifiedUsableOrReadOnly(at: time) }
        if deliveredCurrent.contains(where: isGoogle), deliveredCurrent.contains(where: { !isGoogle($0) }),
            hasRFC6962(deliveredCurrent)
        {
            return CTPolicyVerdict(
                compliant: true, applies: true,
                reason:
                    "valid SCTs delivered by TLS or OCSP from a Google and a non-Google log (Chrome's policy for certificates issued before 2022-04-15)"
            )
        }
        return CTPolicyVerdict(
            compliant: false, applies: true,
            reason:
                "Chrome's policy for certificates issued before 2022-04-15: \(embedded.count) valid embedded SCT(s) (\(need) required, Google log: \(google ? "yes" : "no"), non-Google log: \(other ? "yes" : "no"), one from a log Qualified, Usable or ReadOnly now: \(current ? "yes" : "no")); by TLS/OCSP a Google and a non-Google log of those states required"
        )
    }

    /// SCTs counted with at most `perOperator` per operator.
    static func countCapped(_ s: [(SCTCheck, CTLog)], perOperator: Int) -> Int {
        var byOperator: [String: Int] = [:]
        for (_, log) in s { byOperator[log.operatorName, default: 0] += 1 }
        return byOperator.values.reduce(0) { $0 + min($1, perOperator) }
    }
}
