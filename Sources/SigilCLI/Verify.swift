import ArgumentParser
import Foundation
import Sigil

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decide whether a certificate chain deserves trust.",
        discussion: """
        LEAF may be a PEM bundle: the leaf first, then intermediates. Anchors default to the \
        system store; with --anchor, the system store is added unless --anchors-only is given. \
        Exit codes: 0 trusted, 1 not trusted (reasons on stdout), 2 usage or unreadable input, \
        77 a requested feature is unsupported.
        """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable { case server, client, basic }

    @Argument(help: "The peer's certificate (PEM or DER), optionally followed by intermediates.")
    var leaf: String

    @Option(name: .customLong("intermediate"), help: "Untrusted intermediate certificates (PEM/DER file; repeatable).")
    var intermediates: [String] = []

    @Option(name: .customLong("anchor"), help: "Trust anchors (PEM/DER file; repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("anchors-only"), help: "Trust only the --anchor certificates, not the system store.")
    var anchorsOnly = false

    @Option(help: "server (serverAuth, host checked), client (clientAuth, e-mail checked) or basic (chain only).")
    var kind: Kind = .server

    @Option(help: "Expected server DNS name.")
    var host: String?

    @Option(help: "Expected server IP address.")
    var ip: String?

    @Option(name: .customLong("email"), help: "Expected client e-mail address (repeatable).")
    var emails: [String] = []

    @Option(help: "Validation time, Unix seconds (decimals allowed). Default: now.")
    var at: Double?

    @Option(name: .customLong("max-depth"), help: "Maximum number of intermediates (self-issued ones not counted).")
    var maxDepth: Int?

    @Option(name: .customLong("eku"), help: "Required extended key usage, dotted OID (repeatable).")
    var ekus: [String] = []

    @Option(name: .customLong("key-usage"), help: "Key usage the leaf must allow, RFC 5280 name (repeatable).")
    var keyUsages: [String] = []

    @Option(name: .customLong("sig-alg"), help: "Restrict signature algorithms (not supported: exits 77).")
    var sigAlgs: [String] = []

    @Option(name: .customLong("crl"), help: "CRL to check revocation against (not supported yet: exits 77).")
    var crls: [String] = []

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        if host != nil && ip != nil { throw ValidationError("give --host or --ip, not both") }
        if let d = maxDepth, d < 0 { throw ValidationError("--max-depth must be ≥ 0") }
        for e in ekus where objectIdentifierContent(dotted: e) == nil { throw ValidationError("--eku \(e) is not a dotted OID") }
        for k in keyUsages where KeyUsage(name: k) == nil { throw ValidationError("--key-usage \(k) is not an RFC 5280 key usage name") }
    }

    func run() throws {
        if !crls.isEmpty {
            print("unsupported: CRL revocation checking is not implemented yet")
            throw ExitCode(Exit.unsupported)
        }
        if !sigAlgs.isEmpty {
            print("unsupported: --sig-alg restrictions are not implemented")
            throw ExitCode(Exit.unsupported)
        }
        // The leaf (and any bundled intermediates).
        let leafBytes = readInput(leaf)
        let leafCert: Certificate
        var pool: [Certificate] = []
        do {
            let blocks = try PEM.certificatesDER(in: leafBytes)
            leafCert = try Certificate(der: blocks.certificates[0])
            for der in blocks.certificates.dropFirst() {
                if let c = try? Certificate(der: der) { pool.append(c) }
            }
        } catch {
            report(.untrusted([TrustFailure(.malformedCertificate, at: 0, "\(leaf): \(error)")]))
            throw ExitCode(Exit.failure)
        }
        // Intermediates: unparseable ones are ignored, never fatal.
        for file in intermediates {
            let bytes = readInput(file)
            if let blocks = try? PEM.certificatesDER(in: bytes) {
                for der in blocks.certificates { if let c = try? Certificate(der: der) { pool.append(c) } }
            }
        }
        var store = TrustStore()
        for file in anchors { store.add(contentsOf: readInput(file), source: .custom) }
        if anchors.isEmpty || !anchorsOnly { store.add(TrustStore.system()) }

        var options = VerificationOptions(time: at ?? Date().timeIntervalSince1970)
        switch kind {
        case .server: options.kind = .server
        case .client: options.kind = .client
        case .basic:
            options.kind = .basic
            printError("warning: --kind basic checks the chain only; no name was checked")
        }
        options.host = host ?? ip
        options.emails = emails
        options.maximumDepth = maxDepth
        options.requiredEKUs = ekus.compactMap { objectIdentifierContent(dotted: $0) }
        for k in keyUsages { if let u = KeyUsage(name: k) { options.requiredKeyUsage.insert(u) } }
        // An invalid expected name is not a usage error: no certificate is valid for it, and the
        // result says so (name mismatch).

        let result = ChainVerifier(anchors: store).verify(leaf: leafCert, intermediates: pool, options: options)
        report(result)
        if !result.isTrusted { throw ExitCode(Exit.failure) }
    }

    func report(_ result: TrustResult) {
        if json {
            var object: [(String, JSONValue)] = [("trusted", .bool(result.isTrusted))]
            switch result {
            case .trusted(let path, let anchor):
                object.append(("anchor", .string(anchor == .system ? "system" : "custom")))
                object.append(("path", .array(path.map { .string($0.subject.rfc4514String) })))
            case .untrusted(let failures):
                object.append(("reasons", .array(failures.map { f in
                    .object([("kind", .string(f.kind.name)), ("certificate", .int(Int64(f.certificateIndex))),
                             ("message", .string(f.message))])
                })))
            }
            print(JSONValue.object(object).serialized())
            return
        }
        switch result {
        case .trusted(let path, let anchor):
            print("trusted (anchor: \(anchor == .system ? "system" : "custom"))")
            for (i, c) in path.enumerated() { print("  [\(i)] \(c.subject.rfc4514String)") }
        case .untrusted(let failures):
            print("not trusted: \(failures.first.map { "\($0.kind.name): \($0.message)" } ?? "unknown reason")")
            for f in failures { print("  \(f)") }
        }
    }
}
