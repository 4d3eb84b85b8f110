#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SigilX509

/// Reading files without Foundation (the library stays Foundation-free for embedded users).
public enum FileInput {
    /// Files over this size are refused (a CA bundle is ~200 KiB).
    public static let maximumFileSize = 64 << 20

    /// The whole file, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return nil }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maximumFileSize { return nil }
        }
        return out
    }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Names in a directory (not recursive), sorted.
    static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension TrustStore {
    /// Where the system roots were found (nil: none).
    public static func systemLocation(environment: [String: String] = currentEnvironment()) -> (file: String?, directory: String?) {
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
    public static func system(environment: [String: String] = currentEnvironment()) -> TrustStore {
        var store = TrustStore()
        let location = systemLocation(environment: environment)
        if let file = location.file, let bytes = FileInput.read(file) {
            store.add(contentsOf: bytes, source: .system)
        }
        if let dir = location.directory {
            for name in FileInput.list(dir) {
                let path = dir + "/" + name
                guard FileInput.isRegularFile(path), let bytes = FileInput.read(path) else { continue }
                // Hashed directories hold one PEM certificate per file (`<hash>.<n>`), often
                // symlinks to `*.pem`; duplicates collapse in the store.
                store.add(contentsOf: bytes, source: .system)
            }
        }
        return store
    }

    /// Anchors from a DER or PEM file (all certificates in it).
    public static func loading(file path: String, source: AnchorSource = .custom) -> TrustStore? {
        guard let bytes = FileInput.read(path) else { return nil }
        var store = TrustStore()
        store.add(contentsOf: bytes, source: source)
        return store
    }

    public static func currentEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
