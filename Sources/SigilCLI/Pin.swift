import ArgumentParser
import Foundation
import Sigil

struct Pin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Print the sha256/ SPKI pin of every certificate (or public key) in the given files.",
        discussion: """
            The pin is base64(SHA-256(DER SubjectPublicKeyInfo)), the form HPKP (pin-sha256), TrustKit \
            and OkHttp use, and what `sigil verify --pin-key` and Sigil's PublicKeyPin accept. Files may \
            be PEM bundles, DER certificates (.cer/.crt/.der), or PEM PUBLIC KEY blocks (e.g. a backup \
            key's `openssl pkey -pubout`). Exit codes: 0 all printed, 1 some input did not parse, 2 unreadable file.
            """
    )

    @Flag(name: .long, help: "One JSON object per key, one per line.")
    var json = false

    @Argument(help: "Certificate or public-key files (PEM or DER).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            // Certificates and PUBLIC KEY blocks in one pass of the streaming reader.
            let (certs, keys) = readCertificatesAndKeys(file)
            var entries: [(label: String, subject: String?, pin: PublicKeyPin)] = []
            for (i, c) in certs.enumerated() {
                let label = certs.count > 1 || !keys.isEmpty ? "\(file) [\(i + 1)/\(certs.count)]" : file
                entries.append((label, c.subject.rfc4514String, PublicKeyPin(certificate: c)))
            }
            for (i, spki) in keys.enumerated() {
                entries.append(
                    (
                        keys.count > 1 ? "\(file) [public key \(i + 1)]" : "\(file) [public key]", nil,
                        PublicKeyPin(subjectPublicKeyInfo: spki)
                    ))
            }
            if entries.isEmpty {
                printError("sigil: \(file): no certificate or PUBLIC KEY block")
                failed = true
                continue
            }
            for e in entries {
                if json {
                    var o: [(String, JSONValue)] = [("file", .string(e.label))]
                    o.append(("subject", e.subject.map { .string($0) } ?? .null))
                    o.append(("pin", .string(e.pin.description)))
                    print(JSONValue.object(o).serialized())
                } else {
                    print("\(e.label)")
                    print("  subject: \(e.subject ?? "(public key)")")
                    print("  pin:     \(e.pin)")
                }
            }
        }
        if failed { throw ExitCode(Exit.failure) }
    }
}
