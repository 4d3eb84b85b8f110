import ArgumentParser
import Foundation
import Sigil

struct ATS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ats",
        abstract: "Check a server chain against Apple's App Transport Security certificate requirements.",
        discussion: """
            Requirement by requirement, with pass/fail and the offending certificate: SHA-2 signatures, \
            RSA ≥ 2048 / EC ≥ 256 keys, the host in the SubjectAltName (Common Name not used), serverAuth \
            EKU, validity ≤ 825 days (issued from 2019-07-01) / ≤ 398 days (from 2020-09-01, system \
            roots), embedded SCTs per Apple's CT policy, chain valid to a trusted root. TLS version, \
            cipher suites (forward secrecy) and SCTs delivered in the handshake need a connection and \
            are listed as such. Exit codes: 0 no requirement failed, 1 some failed, 2 usage or unreadable input.

            Live: `sigil ats https://HOST[:PORT]` (needs the NIO trait) fetches the chain, runs the \
            certificate requirements, then handshakes with restricted client configurations — TLS 1.3 \
            alone, TLS 1.2 with ATS's forward-secrecy suites, TLS 1.2 without forward secrecy, TLS 1.1, \
            TLS 1.0 — and reports PASS/FAIL per configuration and per ATS exception as nscurl \
            --ats-diagnostics does. --info-plist FILE says which NSAppTransportSecurity rules apply to the \
            host, with Apple's key precedence (an exception domain first; NSAllowsLocalNetworking for local \
            hosts; NSAllowsArbitraryLoads, ignored when NSAllowsArbitraryLoadsInWebContent, …ForMedia or \
            NSAllowsLocalNetworking is present), which rule decided, whether NSPinnedDomains pins match the \
            validated path, and whether the connection would be allowed (then the exit code follows that \
            verdict; NSRequiresCertificateTransparency applies Apple's CT policy to the embedded SCTs with \
            --ct-log-list, and refuses without it). \
            Exit 3: network failure.
            """
    )

    @Argument(
        help:
            "The server's chain: leaf first, then intermediates (PEM bundle or DER); or https://HOST[:PORT] to check a live server."
    )
    var chain: String

    @Option(help: "The host name (or IP address) the app connects to (live: default HOST).")
    var host: String?

    @Option(
        name: .customLong("info-plist"),
        help: "Live: an app's Info.plist (XML or binary) whose NSAppTransportSecurity rules to apply.")
    var infoPlist: String?

    @Option(help: "Live: timeout of each connection + handshake, seconds.")
    var timeout: Double = 10

    @Option(name: .customLong("intermediate"), help: "More intermediates (PEM/DER file; repeatable).")
    var intermediates: [String] = []

    @Option(
        name: .customLong("anchor"),
        help:
            "Additional trust anchors (PEM/DER; repeatable). They count as custom roots: the 398-day and CT rules do not apply to them."
    )
    var anchors: [String] = []

    @Flag(name: .customLong("anchors-only"), help: "Trust only the --anchor certificates, not the system store.")
    var anchorsOnly = false

    @Flag(
        name: .customLong("public-root"),
        help: "Count the --anchor roots as publicly trusted (system) roots, so the 398-day and CT rules apply.")
    var publicRoot = false

    @Option(help: "Evaluation time, Unix seconds. Default: now.")
    var at: Double?

    @Option(
        name: .customLong("ct-log-list"),
        help: "CT log list JSON: verify the embedded SCTs and apply Apple's CT policy (else SCTs are only counted).")
    var ctLogList: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        // A time that is not a finite number of seconds judges nothing (see `sigil verify --at`).
        if let at, !(at.isFinite && at > -9.0e18 && at < 9.0e18) {
            throw ValidationError("--at must be a finite Unix time in seconds")
        }
        if chain.lowercased().hasPrefix("https://") {
            var rest = String(chain.dropFirst("https://".count))
            if let slash = rest.firstIndex(of: "/") { rest = String(rest[..<slash]) }
            _ = try HostPort(rest)
        } else {
            if host == nil { throw ValidationError("--host is required with a chain file") }
            if infoPlist != nil {
                throw ValidationError("--info-plist needs a live server: sigil ats https://HOST[:PORT]")
            }
        }
        guard timeout > 0 && timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600]") }
        if anchorsOnly && anchors.isEmpty {
            throw ValidationError("--anchors-only needs at least one --anchor (with no anchor, nothing is trusted)")
        }
    }

    /// The anchors in force: the --anchor files, plus the system's unless --anchors-only
    /// (which `validate()` accepts only with some --anchor).
    func anchorStore() -> TrustStore {
        var store = TrustStore()
        // Through the streaming reader, as `add(contentsOf:)` decides (a damaged file adds nothing).
        for file in anchors { withInputStream(file) { store.add(from: &$0, source: publicRoot ? .system : .custom) } }
        if !anchorsOnly { store.add(TrustStore.system()) }
        return store
    }

    func run() throws {
        if chain.lowercased().hasPrefix("https://") {
            try runLive("https://" + chain.dropFirst("https://".count))
            return
        }
        let host = self.host ?? ""
        var certs: [Certificate]
        do {
            certs = try readParsedCertificates(chain).get()
            for f in intermediates { certs += try readParsedCertificates(f).get() }
        } catch {
            printError("sigil: \(chain): \(error)")
            throw ExitCode(Exit.usage)
        }
        guard !certs.isEmpty else {
            printError("sigil: \(chain): no certificate")
            throw ExitCode(Exit.usage)
        }
        let store = anchorStore()
        let report = ATSReport.evaluate(
            presented: certs, host: host, anchors: store, at: at ?? Date().timeIntervalSince1970,
            ctLogList: try loadCTLogList())
        if json {
            let reqs: [JSONValue] = report.requirements.map { r in
                .object([
                    ("id", .string(r.id)), ("title", .string(r.title)), ("status", .string(r.status.rawValue)),
                    ("detail", .string(r.detail)),
                    (
                        "offending",
                        .array(
                            r.offending.map { i in
                                .object([
                                    ("index", .int(Int64(i))),
                                    ("subject", .string(report.chain[i].subject.rfc4514String)),
                                ])
                            })
                    ),
                ])
            }
            print(
                JSONValue.object([
                    ("host", .string(host)), ("passed", .bool(report.passed)),
                    ("chainValidated", .bool(report.chainIsValidated)),
                    ("chain", .array(report.chain.map { .string($0.subject.rfc4514String) })),
                    ("requirements", .array(reqs)),
                ]).serialized())
        } else {
            print(
                "ATS check for \(host) (\(report.chainIsValidated ? "validated path" : "chain as presented, not validated")):"
            )
            for (i, c) in report.chain.enumerated() { print("  [\(i)] \(c.subject.rfc4514String)") }
            for r in report.requirements {
                let tag: String
                switch r.status {
                case .pass: tag = "PASS"
                case .fail: tag = "FAIL"
                case .notApplicable: tag = "N/A "
                case .needsConnection: tag = "TLS "
                }
                print("\(tag) \(r.title)")
                print("     \(r.detail)")
                for i in r.offending { print("     offending: [\(i)] \(report.chain[i].subject.rfc4514String)") }
            }
            print(
                report.passed
                    ? "result: no certificate requirement failed (TLS-only requirements need a connection: nscurl --ats-diagnostics)"
                    : "result: FAILS App Transport Security certificate requirements")
        }
        if !report.passed { throw ExitCode(Exit.failure) }
    }
}

extension ATS {
    /// The `--ct-log-list` file, loaded (a list that does not load is a usage error).
    func loadCTLogList() throws -> CTLogList? {
        guard let file = ctLogList else { return nil }
        do { return try CTLogList(json: readInput(file)) } catch {
            printError("sigil: --ct-log-list \(file): \(error)")
            throw ExitCode(Exit.usage)
        }
    }
}
