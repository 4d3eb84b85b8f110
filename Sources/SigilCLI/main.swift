import ArgumentParser
import Foundation
import Sigil

/// Exit codes: 0 success, 1 an input could not be parsed / is not trusted, 2 usage error or
/// unreadable input, 3 network failure (fetch, verify --connect, live ats), 77 a requested
/// feature is unsupported (or the build lacks the NIO trait).
enum Exit {
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let network: Int32 = 3
    static let unsupported: Int32 = 77
}

struct SigilCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sigil",
        abstract: "Inspect X.509 certificates and decide whether a chain deserves trust.",
        subcommands: [Inspect.self, Convert.self, Verify.self, Pin.self, ATS.self, Fetch.self]
    )
}

/// Reads a file, or exits 2 with a message.
func readInput(_ path: String) -> [UInt8] {
    if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("sigil: cannot read \(path)\n".utf8))
        Foundation.exit(Exit.usage)
    }
    return [UInt8](data)
}

#if canImport(Glibc)
    /// glibc's `mallopt(3)` (declared in malloc.h, which the Glibc module does not export).
    @_silgen_name("mallopt") func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a report for every certificate, CRL and OCSP response in the given PEM or DER files.",
        discussion: """
            Certificates the strict parser refuses are still shown, field by field, with every \
            violation listed under Warnings (clause and byte offset); such certificates are never \
            trusted by `sigil verify`. Exit status: 0 when every certificate could be read, 1 when \
            one could not be read at all, 2 on a usage error or unreadable file.
            """
    )

    @Flag(
        name: .long,
        help: """
            JSON Lines: one JSON object per certificate (CRL, OCSP response), one per line, streamed \
            from inputs of any size.
            """)
    var json = false

    @Option(
        name: .customLong("ct-log-list"),
        help: "CT log list JSON: each SCT is checked (without it SCTs are listed as unknown-log).")
    var ctLogList: String?

    @Option(
        name: .customLong("issuer"),
        help: "Issuer certificate(s) for embedded SCTs (else taken from the other certificates given).")
    var issuerFiles: [String] = []

    @Option(name: .long, help: "With --json: render on N threads (output order is kept).")
    var jobs: Int = 1

    @Argument(
        help:
            "Certificate files (PEM bundles or DER, concatenated DER too), CRLs (PEM or DER), OCSP responses (DER); - for standard input."
    )
    var files: [String]

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs takes 1…256") }
    }

    func run() throws {
        let now = Int64(Date().timeIntervalSince1970)
        var failed = false
        if json && ctLogList == nil && issuerFiles.isEmpty {
            // (With --ct-log-list or --issuer, SCTs are checked against issuers found anywhere in
            // the call: the whole-file path below. Streamed SCTs are listed as unknown-log.)
            // Streaming: memory bounded by one batch of objects, whatever the input size.
            // Keep freed memory in the process instead of returning it to the kernel after each
            // batch (the page faults of re-growing it cost ≈ 10 % of the run); the bound is the
            // same, only the churn goes.
            #if canImport(Glibc)
                _ = glibcMallopt(-3, 4 << 20)  // M_MMAP_THRESHOLD (malloc.h, not in the Glibc module)
                _ = glibcMallopt(-1, 64 << 20)  // M_TRIM_THRESHOLD
                _ = glibcMallopt(-2, 16 << 20)  // M_TOP_PAD
            #endif
            var streamer = InspectStreamer(now: now, jobs: jobs)
            for file in files where !streamer.inspect(file) {
                printError("sigil: cannot read \(file)")
                throw ExitCode(Exit.usage)
            }
            if streamer.failed { throw ExitCode(Exit.failure) }
            return
        }
        var logList: CTLogList? = nil
        if let file = ctLogList {
            do { logList = try CTLogList(json: readInput(file)) } catch {
                printError("sigil: --ct-log-list \(file): \(error)")
                throw ExitCode(Exit.usage)
            }
        }
        // Issuer candidates for the precertificate entries: --issuer, then every certificate of
        // this call (RFC 6962 §3.2 issuer_key_hash is over the issuer's SubjectPublicKeyInfo).
        var candidates: [Certificate] = []
        for file in issuerFiles + files {
            candidates += (try? readParsedCertificates(file).get()) ?? []
        }
        for file in files {
            let bytes = readInput(file)
            // CRLs (PEM `X509 CRL` blocks, or a DER CRL) and DER OCSP responses are reported
            // field by field; a PEM file may hold certificates and CRLs together.
            if inspectRevocationData(bytes, file: file) { continue }
            let blocks: PEM.Blocks
            do {
                blocks = try PEM.certificatesDER(in: bytes)
            } catch {
                printError("sigil: \(file): \(error)")
                failed = true
                continue
            }
            for (i, der) in blocks.certificates.enumerated() {
                let label = blocks.certificates.count > 1 ? "\(file) [\(i + 1)/\(blocks.certificates.count)]" : file
                // Lenient reading (see LenientCertificate): what the strict parser refuses is
                // still shown, with warnings; such a certificate is never trusted by `verify`.
                let cert: LenientCertificate
                do {
                    cert = try LenientCertificate(der: der)
                } catch {
                    printError("sigil: \(label): \(error)")
                    failed = true
                    continue
                }
                var report = CertificateReport(cert, now: now)
                let sha = Fingerprint.sha256Hex(cert.der)
                let spki = Fingerprint.sha256Hex(cert.subjectPublicKeyInfo)
                let scts = sctChecks(der, candidates: candidates, logList: logList, now: now)
                if json {
                    var object = report.json(sha256: sha, spkiSha256: spki)
                    if let scts, case .object(var members) = object {
                        members.append(("scts", .array(scts.map(\.json))))
                        object = .object(members)
                    }
                    print(object.serialized())
                } else {
                    print("Certificate \(label)")
                    print(report.text(sha256: sha, spkiSha256: spki))
                    if let scts, !scts.isEmpty {
                        print("SCTs:")
                        for c in scts { print("  \(c.text)") }
                    }
                    print("")
                }
            }
            if !json && blocks.skippedBlocks > 0 {
                print("(\(file): skipped \(blocks.skippedBlocks) non-certificate PEM block(s))\n")
            }
        }
        if failed { throw ExitCode(Exit.failure) }
    }

    /// The SCTs of a certificate (nil when it has none and no log list was given, or when the
    /// strict parser refuses it). The issuer is a candidate whose key verifies the certificate's
    /// signature, else the first whose subject is the certificate's issuer name.
    func sctChecks(_ der: [UInt8], candidates: [Certificate], logList: CTLogList?, now: Int64) -> [SCTCheck]? {
        guard let c = try? Certificate(der: der) else { return nil }
        let named = candidates.filter { $0.der != c.der && c.issuer.matchesForChaining($0.subject) }
        let issuer =
            named.first { CertificateSignature.verify(c, issuer: $0) == .verified } ?? named.first
        let checks = SCTVerifier.check(c, issuer: issuer, logList: logList, at: now)
        if checks.isEmpty && logList == nil { return nil }
        return checks
    }

    /// Reports `bytes` when they are only CRLs or one OCSP response (true), else leaves them to the
    /// certificate path (false; a PEM file with certificates gets its CRL blocks reported too).
    func inspectRevocationData(_ bytes: [UInt8], file: String) -> Bool {
        if PEM.looksLikePEM(bytes) {
            guard let crls = try? CertificateList.all(from: bytes), !crls.isEmpty else { return false }
            report(crls, file: file)
            // Certificates in the same file still get their reports. Only a file with no
            // certificate at all is done here: one the certificate reader refuses (a damaged or
            // oversized block anywhere fails it whole) goes to the certificate path too, which
            // says why and fails the command, rather than leaving its certificates out unsaid.
            do throws(DERError) {
                _ = try PEM.certificatesDER(in: bytes)
                return false
            } catch {
                return error.kind == .noCertificate
            }
        }
        if (try? LenientCertificate(der: bytes)) != nil { return false }
        if let crl = try? CertificateList(der: bytes) {
            report([crl], file: file)
            return true
        }
        if let ocsp = try? OCSPResponse(der: bytes) {
            if json {
                print(RevocationReport.json(ocsp).serialized())
            } else {
                print("OCSP response \(file)")
                print(RevocationReport.text(ocsp))
                print("")
            }
            return true
        }
        return false
    }

    func report(_ crls: [CertificateList], file: String) {
        for (i, crl) in crls.enumerated() {
            if json {
                print(RevocationReport.json(crl).serialized())
            } else {
                print("CRL \(crls.count > 1 ? "\(file) [\(i + 1)/\(crls.count)]" : file)")
                print(RevocationReport.text(crl))
                print("")
            }
        }
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert certificates between PEM and DER."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case der, pem }

    @Option(name: .long, help: "Output format: der (exactly one certificate) or pem.")
    var to: Format

    @Argument(help: "Input file (PEM or DER, detected from the content).")
    var input: String

    @Argument(help: "Output file.")
    var output: String

    func run() throws {
        let certs: [Certificate]
        do {
            certs = try readParsedCertificates(input).get()
        } catch {
            printError("sigil: \(input): \(error)")
            throw ExitCode(Exit.failure)
        }
        var out: [UInt8]
        switch to {
        case .der:
            guard certs.count == 1 else {
                printError("sigil: \(input) holds \(certs.count) certificates; DER output takes exactly one")
                throw ExitCode(Exit.usage)
            }
            out = certs[0].der
        case .pem:
            out = Array(certs.map(\.pem).joined().utf8)
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(out)) else {
            printError("sigil: cannot write \(output)")
            throw ExitCode(Exit.usage)
        }
    }
}

// Entry point: argument errors exit 2 (ArgumentParser's default is 64).
do {
    var command = try SigilCommand.parseAsRoot()
    try command.run()
} catch let exit as ExitCode {
    Foundation.exit(exit.rawValue)
} catch {
    let code = SigilCommand.exitCode(for: error)
    if code == .success || code.rawValue == Exit.failure || code.rawValue == Exit.network
        || code.rawValue == Exit.unsupported
    {
        SigilCommand.exit(withError: error)
    }
    printError(SigilCommand.fullMessage(for: error))
    Foundation.exit(Exit.usage)
}
