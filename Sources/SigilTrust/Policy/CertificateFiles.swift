import SigilDER
import SigilX509

/// Loading the certificates an application ships, as AFNetworking's `certificatesInBundle:`
/// scans a bundle for `.cer` files — here every `.cer`, `.crt`, `.der` and `.pem` file of a
/// directory (not recursive), DER or PEM whatever the extension says, every certificate of a PEM
/// bundle.
public enum CertificateFiles {
    /// File name extensions read by `load(directory:)` (compared case-insensitively).
    public static let extensions = ["cer", "crt", "der", "pem"]

    /// What a directory held.
    public struct Loaded: Sendable {
        /// The certificates, in file-name order, then file order.
        public var certificates: [Certificate] = []
        /// Files with a certificate extension that could not be read or held no parseable
        /// certificate (name and why). Never fatal: the caller decides.
        public var skipped: [(file: String, reason: String)] = []
        /// Paths of the files that contributed certificates.
        public var files: [String] = []
    }

    /// Every certificate in `directory`'s `.cer`/`.crt`/`.der`/`.pem` files; nil when the
    /// directory cannot be read.
    public static func load(directory: String) -> Loaded? {
        guard FileInput.isDirectory(directory) else { return nil }
        var out = Loaded()
        for name in FileInput.list(directory) {
            guard let dot = name.lastIndex(of: "."),
                extensions.contains(String(name[name.index(after: dot)...]).lowercased())
            else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard FileInput.isRegularFile(path) else { continue }
            switch load(file: path) {
            case .success(let certs):
                out.certificates += certs
                out.files.append(path)
            case .failure(let why):
                out.skipped.append((path, why.message))
            }
        }
        return out
    }

    /// Why a file or directory gave no certificate.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the path.
        public let message: String
        /// `message`.
        public var description: String { message }
    }

    /// Every certificate in one DER or PEM file (a PEM file may hold several, a DER file
    /// several concatenated). Read through `FileInput.withObjectStream` — a read buffer and one
    /// object at a time, as `TrustStore` loading and the CLI read, so the file's size is not
    /// limited and it is never held whole —, with `certificates(from:)`'s outcome.
    public static func load(file path: String) -> Result<[Certificate], LoadError> {
        let streamed: Result<[Certificate], DERError>? = FileInput.withObjectStream(path) { stream in
            do throws(DERError) {
                return .success(try certificates(from: &stream))
            } catch {
                return .failure(error)
            }
        }
        switch streamed {
        case nil: return .failure(LoadError(message: "cannot read \(path)"))
        case .failure(let error)?: return .failure(LoadError(message: "\(path): \(error)"))
        case .success(let certs)?: return .success(certs)
        }
    }

    /// Every certificate of a stream, parsed — `Certificate.all(from:)`'s outcome with bounded
    /// memory: throws the input's first error (a malformed block, an object over the limit,
    /// `.noCertificate` when it holds none) if it has one, else the first certificate that
    /// does not parse. The whole input is read either way, so an input error is reported
    /// before a parse error, as the whole-input reader decides.
    public static func certificates(from stream: inout ObjectStream) throws(DERError) -> [Certificate] {
        var certs: [Certificate] = []
        var parseError: DERError?
        try stream.forEachCertificate { der in
            guard parseError == nil else { return }
            do throws(DERError) { certs.append(try Certificate(der: der)) } catch { parseError = error }
        }
        if let parseError { throw parseError }
        return certs
    }

    /// A file, or every certificate file of a directory (with the files skipped there, for the
    /// caller to report). Fails when nothing can be read or no certificate was found.
    public static func load(fileOrDirectory path: String) -> Result<Loaded, LoadError> {
        if FileInput.isDirectory(path) {
            guard let loaded = load(directory: path) else {
                return .failure(LoadError(message: "cannot read directory \(path)"))
            }
            if loaded.certificates.isEmpty {
                return .failure(LoadError(message: "\(path): no .cer/.crt/.der/.pem certificate"))
            }
            return .success(loaded)
        }
        return load(file: path).map { Loaded(certificates: $0, skipped: [], files: [path]) }
    }
}
