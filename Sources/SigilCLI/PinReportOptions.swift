import ArgumentParser
import Foundation
import Sigil

/// `verify`'s pin-reporting options: RFC 7469 §3 failure reports, report-only pins (TrustKit's
/// `kTSKEnforcePinning = NO`) and per-domain pins from a JSON file (`PinConfiguration`).
struct PinReportOptions: ParsableArguments {
    @Flag(
        name: .customLong("pin-report-only"),
        help:
            "Evaluate the public-key pins (--pin-key/--pin-cert, --pin-config) and report a mismatch, but decide trust without them: exit 0 when the chain is otherwise trusted. Never makes an untrusted chain trusted."
    )
    var reportOnly = false

    @Option(
        name: .customLong("pin-report"),
        help:
            "Write the RFC 7469 §3 JSON report to FILE when public-key pins in force did not match (report-only or enforced); nothing is written when they matched."
    )
    var reportFile: String?

    @Option(
        name: .customLong("pin-config"),
        help:
            "Per-domain public-key pins from a JSON file: {\"pin-sets\": [{\"domain\", \"include-subdomains\", \"pins\", \"expires\", \"enforce\"}]} (see README). Implies --pin-mode public-key."
    )
    var configFile: String?

    /// Any of these options given.
    var isSet: Bool { reportOnly || reportFile != nil || configFile != nil }

    /// These options pin keys: without --pin-mode they mean public-key mode.
    var impliesPublicKey: Bool { reportOnly || configFile != nil }
}

extension Verify {
    /// `--pin-mode`, else public-key when the pin-reporting options pin keys, else none.
    var effectivePinMode: PinModeArgument {
        pinMode ?? (pinReporting.impliesPublicKey ? .publicKey : .none)
    }

    /// The name the pins are looked up for: --host/--ip, else (with --connect) the SNI name or
    /// the host dialled — as `runConnect` checks it.
    var pinDomain: String? {
        if let h = host ?? ip { return h }
        guard let connect, let hp = try? HostPort(connect) else { return nil }
        return sni ?? hp.host
    }

    func validatePinReportOptions() throws {
        let r = pinReporting
        guard r.isSet else { return }
        if effectivePinMode != .publicKey {
            throw ValidationError(
                "--pin-report-only, --pin-report and --pin-config apply to public-key pins (RFC 7469): use --pin-mode public-key"
            )
        }
        if r.reportOnly && r.configFile == nil && pinCerts.isEmpty && pinKeys.isEmpty {
            throw ValidationError("--pin-report-only needs pins: --pin-key, --pin-cert or --pin-config")
        }
        if r.reportOnly && (!pinCerts.isEmpty || !pinKeys.isEmpty) && (pinDomain == nil || ip != nil) {
            // Report-only --pin-key/--pin-cert pins become a pin set for the domain: without one
            // they would stay global pins, enforced (with --pin-config too). RFC 7469 §2.3.3:
            // pinned hosts are DNS names, never IP addresses.
            throw ValidationError("--pin-report-only with --pin-key/--pin-cert needs the domain as --host")
        }
        if let f = r.reportFile, f.isEmpty { throw ValidationError("--pin-report needs a file name") }
    }

    /// Adds the pin-reporting options to `policy` (already in public-key mode with the
    /// --pin-key/--pin-cert pins as its global pins).
    func applyPinReporting(to policy: inout SecurityPolicy) throws {
        let r = pinReporting
        guard policy.pinningMode == .publicKey else { return }
        if let file = r.configFile {
            do {
                policy.pinSets = try PinConfiguration(json: readInput(file)).pinSets
            } catch {
                printError("sigil: --pin-config \(file): \(error)")
                throw ExitCode(Exit.usage)
            }
        }
        let domain = pinDomain
        if r.reportOnly {
            for i in policy.pinSets.indices { policy.pinSets[i].enforced = false }
            // The --pin-key/--pin-cert pins become a report-only set for the domain, unless a
            // --pin-config set already covers it (which then replaces them, as when enforced);
            // either way they stop being global pins, which a report-only set would leave in
            // force.
            let global = policy.globalKeyPins
            if !global.isEmpty, let domain, !policy.hasPinSet(covering: domain) {
                policy.pinSets.append(PinSet(domain: domain, pins: global, enforced: false))
            }
            policy.pinnedPublicKeys = []
            policy.pinnedCertificates = []
        }
        if r.configFile != nil && policy.globalKeyPins.isEmpty && !(domain.map(policy.hasPinSet(covering:)) ?? false) {
            // TrustKit: a domain the configuration does not list is not pinned (ordinary
            // evaluation), where public-key mode with no pin would refuse every chain.
            printError(
                "note: no pin set of \(r.configFile!) applies to \(domain ?? "this chain (no domain)"): ordinary evaluation, nothing pinned"
            )
            policy.pinningMode = .none
            policy.pinSets = []
        }
    }

    /// Writes `e`'s pin-failure report to --pin-report (with the port dialled under --connect)
    /// and says so on stderr. False when the file could not be written.
    func writePinReport(_ e: SecurityPolicyEvaluation) -> Bool {
        guard var report = e.pinFailureReport else { return true }
        if report.port == nil, let connect, let hp = try? HostPort(connect) { report.port = hp.port }
        let what =
            report.enforced
            ? "pins for \(report.notedHostname) did not match"
            : "report-only pins for \(report.notedHostname) did not match (not enforced)"
        guard let file = pinReporting.reportFile else {
            printError("warning: " + what)
            return true
        }
        do {
            try Data((report.jsonText + "\n").utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            printError("sigil: --pin-report \(file): cannot write: \(error.localizedDescription)")
            return false
        }
        printError("warning: \(what): RFC 7469 report written to \(file)")
        return true
    }
}

extension SecurityPolicy {
    /// Some pin set, in whatever state (enforced, report-only, expired), applies to `domain`.
    func hasPinSet(covering domain: String) -> Bool {
        pinSets.contains { $0.applies(to: domain) }
    }
}
