import Foundation
import Sigil
@_spi(SigilInternal) import SigilTrust

// Every certificate input of the CLI (inspect --json, verify's leaf, bundles, intermediates and
// anchors, --pin-cert and --pin-key files, ats's chain, intermediates and anchors, pin, convert)
// is read here, through the library's streaming reader: PEM or DER (concatenated DER too), "-"
// for standard input, a bounded read buffer and the per-object limit. Non-certificate inputs
// (JSON pin configurations, CT log lists, CRLs and OCSP responses) keep `readInput`.

/// The one streaming reader of the CLI: the library's (`FileInput.withObjectStream`, as
/// `TrustStore` and `CertificateFiles` read) over `path`, or standard input for "-" — a
/// fixed read buffer plus one object of at most `maximumObjectSize` bytes at a time, whatever
/// the input's size. Nil when the input cannot be opened, is a directory, or a read fails.
func withObjectStream<R>(
    _ path: String, maximumObjectSize: Int = Certificate.maximumSize, _ body: (inout ObjectStream) -> R
) -> R? {
    if path == "-" {
        return FileInput.withObjectStream(fileDescriptor: 0, maximumObjectSize: maximumObjectSize, body)
    }
    return FileInput.withObjectStream(path, maximumObjectSize: maximumObjectSize, body)
}

/// `withObjectStream`, exiting 2 with a message when the input cannot be read (as `readInput`).
func withInputStream<R>(_ path: String, _ body: (inout ObjectStream) -> R) -> R {
    guard let result = withObjectStream(path, body) else {
        printError("sigil: cannot read \(path)")
        Foundation.exit(Exit.usage)
    }
    return result
}

/// The certificates' DER of `path` ("-": standard input) through the streaming reader: what
/// `PEM.certificatesDER(in:)` gives for the whole file (the first malformed block, or no
/// certificate, is an error), without reading the file into memory first.
func readCertificates(_ path: String) -> Result<[[UInt8]], DERError> {
    withInputStream(path) { stream -> Result<[[UInt8]], DERError> in
        var out: [[UInt8]] = []
        do throws(DERError) {
            try stream.forEachCertificate { out.append($0) }
            return .success(out)
        } catch {
            return .failure(error)
        }
    }
}

/// Every certificate of `path` ("-": standard input), parsed, through the streaming reader —
/// `Certificate.all(from:)`'s outcome (`CertificateFiles.certificates(from:)`); exits 2 when the
/// input cannot be read.
func readParsedCertificates(_ path: String) -> Result<[Certificate], DERError> {
    withInputStream(path) { stream -> Result<[Certificate], DERError> in
        do throws(DERError) {
            return .success(try CertificateFiles.certificates(from: &stream))
        } catch {
            return .failure(error)
        }
    }
}

/// The certificates and PEM `PUBLIC KEY` blocks (RFC 7468 §13: DER SubjectPublicKeyInfo) of
/// `path` ("-": standard input) in one pass of the streaming reader; exits 2 when it cannot be
/// read. `certificates` is what `try? Certificate.all(from:)` gives — empty when the input has
/// a malformed block or a certificate that does not parse —; `keys` holds every well-formed
/// `PUBLIC KEY` block whatever else the input holds.
func readCertificatesAndKeys(_ path: String) -> (certificates: [Certificate], keys: [[UInt8]]) {
    withInputStream(path) { stream -> ([Certificate], [[UInt8]]) in
        var certs: [Certificate] = []
        var keys: [[UInt8]] = []
        var damaged = false
        while true {
            let object: ObjectStream.Object?
            do {
                object = try stream.next()
            } catch {
                // A bad block: no certificate from this input; the stream goes on (PEM).
                damaged = true
                continue
            }
            guard let object else { break }
            if object.label == "PUBLIC KEY" {
                if object.der.first == 0x30 { keys.append(object.der) }
            } else if object.isCertificateBlock, !damaged {
                if let c = try? Certificate(der: object.der) { certs.append(c) } else { damaged = true }
            }
        }
        return (damaged ? [] : certs, keys)
    }
}
