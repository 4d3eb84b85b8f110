import SigilX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

// Each C library under its own guard: `read` is spelled through the module that provides it
// (Glibc, Musl, Darwin or Android's Bionic), never `Glibc.read` under another import. A platform
// with none of them (WASI, embedded) has no file system here: reads fail and the system store is
// empty. (Embedded x86_64-unknown-none-elf compiles that branch: Scripts/build-embedded.sh.)
#if canImport(Glibc)
    @inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
#elseif canImport(Musl)
    @inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Musl.read(fd, buffer, count)
    }
#elseif canImport(Darwin)
    @inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Darwin.read(fd, buffer, count)
    }
#elseif canImport(Android)
    @inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Android.read(fd, buffer, count)
    }
#endif

/// Set by a stream's read function when the file cannot be read.
private final class ReadFailure {
    var value = false
}

/// Reading files without Foundation (the library stays Foundation-free for embedded users).
/// Internal to Sigil (`@_spi(SigilInternal)`, for its tests, fuzz harness and the `sigil` CLI,
/// whose certificate inputs all go through `withObjectStream`): applications load anchors
/// through `TrustStore` and `CertificateFiles`.
@_spi(SigilInternal)
public enum FileInput {
    /// Files over this size are refused (a CA bundle is ~200 KiB).
    public static let maximumFileSize = 64 << 20

    /// `body` over `path` opened read-only, closed after; nil when it cannot be opened or is a
    /// directory (which opens but cannot be read: refused before `body` sees anything).
    static func withOpenFile<R>(_ path: String, _ body: (Int32) -> R?) -> R? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { return nil }
            return body(fd)
        #else
            return nil
        #endif
    }

    /// The whole file, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        withOpenFile(path) { fd -> [UInt8]? in
            #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
                var out: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
                    if n < 0 { return nil }
                    if n == 0 { break }
                    out.append(contentsOf: chunk[0..<n])
                    if out.count > maximumFileSize { return nil }
                }
                return out
            #else
                return nil
            #endif
        }
    }

    /// Runs `body` over an `ObjectStream` reading `path` (a read buffer and one object at a
    /// time, whatever the file's size; objects of at most `maximumObjectSize` bytes); nil when
    /// the file cannot be opened, is a directory, or a read fails (an I/O error).
    public static func withObjectStream<R>(
        _ path: String, maximumObjectSize: Int = Certificate.maximumSize, _ body: (inout ObjectStream) -> R
    ) -> R? {
        withOpenFile(path) { withObjectStream(fileDescriptor: $0, maximumObjectSize: maximumObjectSize, body) }
    }

    /// Runs `body` over an `ObjectStream` reading the open file descriptor `fd` (0: standard
    /// input, a pipe) to its end — the same bounded reader as `withObjectStream(_:)`; the
    /// descriptor is left open. Nil when a read fails: what was read before a read error is
    /// not a whole input, as `read` says.
    public static func withObjectStream<R>(
        fileDescriptor fd: Int32, maximumObjectSize: Int = Certificate.maximumSize, _ body: (inout ObjectStream) -> R
    ) -> R? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            let failed = ReadFailure()
            var stream = ObjectStream(maximumObjectSize: maximumObjectSize) { buffer in
                while true {
                    let n = systemRead(fd, buffer.baseAddress, buffer.count)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failed.value = true }
                    return n
                }
            }
            let result = body(&stream)
            return failed.value ? nil : result
        #else
            return nil
        #endif
    }

    /// True when `path` is a regular file (symbolic links followed).
    public static func isRegularFile(_ path: String) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            var st = stat()
            return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        #else
            return false
        #endif
    }

    /// True when `path` is a directory (symbolic links followed).
    public static func isDirectory(_ path: String) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            var st = stat()
            return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
        #else
            return false
        #endif
    }

    /// Names in a directory (not recursive), sorted.
    public static func list(_ path: String) -> [String] {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            guard let dir = opendir(path) else { return [] }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                // d_name's size differs between C libraries (256 on glibc/musl, 1024 on Darwin):
                // read up to its NUL within the field, whatever its size.
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            return names.sorted()
        #else
            return []
        #endif
    }
}

extension TrustStore {
    /// Where the system roots were found (nil: none), reading `SSL_CERT_FILE` / `SSL_CERT_DIR`
    /// from `environment` (default: the process's). The directory may be a ':'-separated list
    /// (`SSL_CERT_DIR`, as OpenSSL reads it).
    public static func systemLocation(environment: [String: String]? = nil) -> (file: String?, directory: String?) {
        let environment = environment ?? currentEnvironment()
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let dir = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if file != nil || dir != nil { return (file, dir) }
        if let b = SystemTrustLocations.bundles.first(where: FileInput.isRegularFile) { return (b, nil) }
        if let d = SystemTrustLocations.directories.first(where: FileInput.isDirectory) { return (nil, d) }
        return (nil, nil)
    }

    /// The system's trusted roots: `SSL_CERT_FILE` and/or `SSL_CERT_DIR` when set (as OpenSSL
    /// reads them), else the first bundle or hashed directory that exists (see
    /// `SystemTrustLocations`). Entries that do not parse are skipped and counted.
    /// `environment` defaults to the process's.
    public static func system(environment: [String: String]? = nil) -> TrustStore {
        var store = TrustStore()
        let location = systemLocation(environment: environment)
        // Read through the streaming reader (`ObjectStream`): no whole-file buffer, the
        // per-certificate size limit kept.
        if let file = location.file {
            _ = FileInput.withObjectStream(file) { store.add(from: &$0, source: .system) }
        }
        // SSL_CERT_DIR is a list, ':'-separated on these systems, as OpenSSL (X509_LOOKUP
        // hash_dir) and Go (crypto/x509 root_unix.go) read it.
        for dir in (location.directory ?? "").split(separator: ":").map(String.init) where !dir.isEmpty {
            for name in FileInput.list(dir) {
                let path = dir + "/" + name
                guard FileInput.isRegularFile(path) else { continue }
                // Hashed directories hold one PEM certificate per file (`<hash>.<n>`), often
                // symlinks to `*.pem`; duplicates collapse in the store. PEM only, as OpenSSL's
                // and Go's directory lookups read them: a DER file lying in the directory (a
                // key, a CRL, a certificate left there) is not a system anchor.
                _ = FileInput.withObjectStream(path) { (stream) -> Int in
                    var one = TrustStore()
                    // A file of another kind (a CRL `<hash>.r0`, a key) is not an unusable entry.
                    let added = one.add(from: &stream, source: .system, countsInputWithoutCertificate: false)
                    guard stream.format == .pem else { return 0 }
                    store.add(one)
                    return added
                }
            }
        }
        store.shrinkToFit()
        return store
    }

    /// Anchors from a DER or PEM file (all certificates in it), read one object at a time.
    public static func loading(file path: String, source: AnchorSource = .custom) -> TrustStore? {
        var store = TrustStore()
        guard FileInput.withObjectStream(path, { store.add(from: &$0, source: source) }) != nil else { return nil }
        return store
    }

    /// The variables Sigil reads from the process environment (`SSL_CERT_FILE`,
    /// `SSL_CERT_DIR`), without Foundation.
    static func currentEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
            for key in ["SSL_CERT_FILE", "SSL_CERT_DIR"] {
                if let v = getenv(key) { env[key] = String(cString: v) }
            }
        #endif
        return env
    }
}
