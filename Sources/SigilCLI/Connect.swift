import ArgumentParser
import Foundation
import Sigil
import SigilNIO

#if NIO
    import NIOCore
    import NIOSSL
#endif

/// HOST[:PORT], with IPv6 literals in brackets ("[::1]:8443") or bare ("::1", port 443).
struct HostPort: Sendable {
    let host: String
    let port: Int

    init(_ text: String, defaultPort: Int = 443) throws {
        var host = text
        var portText: String?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ValidationError("\(text): unterminated [IPv6 address]")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw ValidationError("\(text): expected :PORT after ]") }
                portText = String(rest.dropFirst())
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty else { throw ValidationError("\(text): no host") }
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw ValidationError("\(text): port must be 1–65535")
            }
            port = p
        } else {
            port = defaultPort
        }
        self.host = host
    }

    /// True when the host is an IP literal (no SNI is sent for it).
    var isIPAddress: Bool {
        if case .ip? = ServerIdentity(host) { return true }
        return false
    }
}

let withoutNIOMessage =
    "sigil: built without the NIO trait: rebuild with `swift build --traits NIO` (see README, \"TLS connections\")"

/// Exits 3 with a one-line reason (network failure: refused, unreachable, timeout, handshake).
func networkFailure(_ message: String) -> ExitCode {
    printError("sigil: " + message)
    return ExitCode(Exit.network)
}

struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch the certificate chain a TLS server presents (verification disabled).",
        discussion: """
            Connects, completes a handshake accepting any certificate, and prints the chain as PEM in \
            the order the server sent it (as `openssl s_client -showcerts`). --der writes the leaf only, \
            as DER (`--der --out https.cer`). Nothing is sent after the handshake. Exit codes: 0 fetched, \
            2 usage, 3 network failure (refused, unreachable, timeout, handshake failed), 77 built \
            without the NIO trait.
            """
    )

    @Argument(help: "HOST[:PORT] (port 443 by default; [IPv6]:PORT).")
    var target: String

    @Option(help: "Server name sent in SNI. Default: HOST when it is a name, none for an IP address.")
    var sni: String?

    @Flag(help: "Write the leaf certificate as DER instead of the chain as PEM.")
    var der = false

    @Option(help: "Write to FILE instead of standard output.")
    var out: String?

    @Option(help: "Connect + handshake timeout, seconds.")
    var timeout: Double = 10

    func validate() throws {
        _ = try HostPort(target)
        guard timeout > 0 && timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600]") }
    }

    func run() throws {
        #if NIO
            let hp = try HostPort(target)
            let name = sni ?? (hp.isIPAddress ? nil : hp.host)
            let result: SigilTLSHandshake
            do {
                result = try SigilTLSClient.handshake(
                    host: hp.host, port: hp.port, serverName: name, verifier: nil, timeout: timeout
                ).wait()
            } catch {
                throw networkFailure("\(hp.host):\(hp.port): \(error)")
            }
            guard let leaf = result.presentedDER.first else {
                throw networkFailure("\(hp.host):\(hp.port): the server presented no certificate")
            }
            let bytes: [UInt8] = der ? leaf : Array(result.presentedDER.map { PEM.encode($0) }.joined().utf8)
            if let out {
                guard FileManager.default.createFile(atPath: out, contents: Data(bytes)) else {
                    printError("sigil: cannot write \(out)")
                    throw ExitCode(Exit.usage)
                }
            } else {
                FileHandle.standardOutput.write(Data(bytes))
            }
        #else
            printError(withoutNIOMessage)
            throw ExitCode(Exit.unsupported)
        #endif
    }
}

// MARK: - verify --connect

extension Verify {
    /// `verify --connect`: the handshake goes through SigilNIO's `SigilServerTrustVerifier`
    /// (the CLI is the integration's first user) and the report is the one printed for files.
    func runConnect(_ target: String) throws {
        #if NIO
            let hp = try HostPort(target)
            let sniName = sni ?? (hp.isIPAddress ? nil : hp.host)
            // The name checked: --host/--ip, else SNI, else the IP address dialled.
            let checked = host ?? ip ?? sniName ?? (hp.isIPAddress ? hp.host : nil)
            // The one evaluator of `verify` (`makeTrust`): the same anchors, options and rules as for files.
            let trust = makeTrust(certificates: [])
            var verifier: SigilServerTrustVerifier
            var pinningMode = PinningMode.none
            if usesSecurityPolicy {
                let policy = try makeSecurityPolicy(trust: trust)
                pinningMode = policy.pinningMode
                verifier = SigilServerTrustVerifier(policy: policy)
                // --no-domain-check: the policy checks no name whatever the verifier passes.
            } else {
                verifier = SigilServerTrustVerifier(trust: trust)
            }
            verifier.hostOverride = checked
            let at = self.at
            verifier.time = { at ?? Date().timeIntervalSince1970 }
            let verdict: SigilTLSVerdict?
            do {
                verdict = try SigilTLSClient.handshake(
                    host: hp.host, port: hp.port, serverName: sniName, verifier: verifier, timeout: timeout
                ).wait().verdict
            } catch SigilTLSClientError.verificationFailed(let e, let v) {
                guard let v else {
                    print("not trusted: \(e.message)")
                    throw ExitCode(Exit.failure)
                }
                verdict = v
            } catch {
                throw networkFailure("\(hp.host):\(hp.port): \(error)")
            }
            guard let verdict else { throw networkFailure("\(hp.host):\(hp.port): no verification took place") }
            // The handshake's verdict decides, not the evaluation inside it: a refusal after an
            // evaluation that trusted the chain (the validated path's anchor could not be handed
            // to NIOSSL, `Presented.complete`) failed the handshake, so it is never reported as
            // trusted (`refused` keeps the evaluation for the report).
            if let e = verdict.error, verdict.policyEvaluation?.isTrusted ?? verdict.trustResult?.isTrusted ?? false {
                print("not trusted: \(e.message)")
                throw ExitCode(Exit.failure)
            }
            if let e = verdict.policyEvaluation {
                try printPolicyEvaluation(e, pinningMode: pinningMode)
            } else if let r = verdict.trustResult {
                report(r)
                if !r.isTrusted { throw ExitCode(Exit.failure) }
            } else if let e = verdict.error {
                // Refused before any evaluation (unparseable certificate, no name to check).
                report(
                    .untrusted(
                        e.failures.isEmpty ? [TrustFailure(.malformedCertificate, at: 0, e.message)] : e.failures))
                throw ExitCode(Exit.failure)
            }
        #else
            printError(withoutNIOMessage)
            throw ExitCode(Exit.unsupported)
        #endif
    }
}
