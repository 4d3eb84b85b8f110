// Shared helpers for the X.509-level walks (CertificateWalk, PEMWalk, NamesWalk,
// SignatureWalk, VerifyWalk): input splitting, a tiny DER builder, the fixture set, and the
// oracle trap. Symlinked into Tests/SigilTests so the regression replay runs the same code.

import SigilDER
@_spi(SigilInternal) import SigilTrust
import SigilX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Traps with a message: a broken oracle is a finding (libFuzzer reports the crash and saves
/// the input).
@inline(never)
func oracle(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        fatalError("ORACLE: \(message())", file: file, line: line)
    }
}

/// Splits a fuzz input into length-prefixed chunks: each chunk is a 2-byte big-endian length
/// followed by that many bytes (cut short at the end of the input). `rest()` returns what is
/// left. A plain, mutation-friendly format: libFuzzer's mutators keep most chunk boundaries.
public struct FuzzChunks {
    let bytes: [UInt8]
    var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func next() -> [UInt8]? {
        guard position < bytes.count else { return nil }
        var n = Int(bytes[position]) << 8
        if position + 1 < bytes.count { n |= Int(bytes[position + 1]) }
        position += 2
        let start = min(position, bytes.count)
        let end = min(start + n, bytes.count)
        position = end
        return Array(bytes[start..<end])
    }

    public mutating func rest() -> [UInt8] {
        let start = min(position, bytes.count)
        position = bytes.count
        return Array(bytes[start...])
    }

    /// Encodes chunks in this format (for seeds and tests).
    public static func encode(_ chunks: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for c in chunks {
            out.append(UInt8((c.count >> 8) & 0xFF))
            out.append(UInt8(c.count & 0xFF))
            out += c
        }
        return out
    }
}

/// Minimal DER writer (definite lengths, minimal length octets).
public enum DERBuild {
    public static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let n = content.count
        if n < 0x80 {
            out.append(UInt8(n))
        } else {
            var len: [UInt8] = []
            var m = n
            while m > 0 {
                len.insert(UInt8(m & 0xFF), at: 0)
                m >>= 8
            }
            out.append(0x80 | UInt8(len.count))
            out += len
        }
        return out + content
    }

    public static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    public static func oid(_ content: [UInt8]) -> [UInt8] { tlv(0x06, content) }

    /// `Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`
    public static func `extension`(_ oidContent: [UInt8], critical: Bool, value: [UInt8]) -> [UInt8] {
        tlv(0x30, oid(oidContent) + (critical ? [0x01, 0x01, 0xFF] : []) + tlv(0x04, value))
    }
}

/// The project's fixture certificates, loaded once: `Fixtures/certs/*.der`.
/// File access without Foundation (FoundationEssentials' `FileManager.contents(atPath:)`
/// is reported by LeakSanitizer: 4 KiB per file read, outside Sigil): Sigil's own reader.
typealias FuzzFiles = FileInput

public struct FuzzFixtures: Sendable {
    /// Every certificate of Fixtures/certs/*.der that parses, by file name (sorted).
    public let certificates: [(name: String, certificate: Certificate)]
    /// The `*-root.der` ones: the anchors of `FuzzVerify`.
    public let roots: [Certificate]
    /// `certificates`, then every other certificate of Fixtures/chains/*/*.pem (deduplicated):
    /// the pool `FuzzVerify` picks fixture certificates from.
    public let pool: [Certificate]
    /// DER of every fixture certificate (the "unchanged fixture" oracle).
    public let derSet: Set<[UInt8]>

    public static let shared = FuzzFixtures()

    init() {
        var certs: [(String, Certificate)] = []
        if let dir = FuzzFixtures.certsDirectory() {
            for name in FuzzFiles.list(dir) where name.hasSuffix(".der") {
                guard let data = FuzzFiles.read(dir + "/" + name),
                    let c = try? Certificate(der: data)
                else { continue }
                certs.append((name, c))
            }
        }
        if certs.isEmpty {
            fatalError("FuzzFixtures: no fixture certificates found (set SIGIL_ROOT to the repository)")
        }
        certificates = certs
        roots = certs.filter { $0.0.hasSuffix("-root.der") }.map { $0.1 }
        var pool = certs.map { $0.1 }
        var seen = Set(pool.map { $0.der })
        if let dir = FuzzFixtures.certsDirectory() {
            let chains = String(dir.dropLast("certs".count)) + "chains"
            for scenario in FuzzFiles.list(chains) {
                for file in ["leaf.pem", "intermediates.pem", "anchors.pem"] {
                    guard let data = FuzzFiles.read(chains + "/" + scenario + "/" + file),
                        let blocks = try? PEM.decodeBlocks(data)
                    else { continue }
                    for der in blocks.certificates where !seen.contains(der) {
                        guard let c = try? Certificate(der: der) else { continue }
                        seen.insert(der)
                        pool.append(c)
                    }
                }
            }
        }
        self.pool = pool
        derSet = seen
    }

    public func named(_ name: String) -> Certificate {
        guard let c = certificates.first(where: { $0.name == name })?.certificate else {
            fatalError("FuzzFixtures: no fixture \(name)")
        }
        return c
    }

    /// `$SIGIL_ROOT/Fixtures/certs`, else the first `Fixtures/certs` found walking up from
    /// this source file, else from the current directory.
    static func certsDirectory() -> String? {
        if let root = getenv("SIGIL_ROOT") {
            return String(cString: root) + "/Fixtures/certs"
        }
        var cwd = [CChar](repeating: 0, count: 4096)
        let here = getcwd(&cwd, cwd.count) != nil ? String(cString: cwd) : "."
        for start in ["\(#filePath)", here + "/x"] {
            var dir = start
            for _ in 0..<8 {
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                let candidate = dir + "/Fixtures/certs"
                if FuzzFiles.isRegularFile(candidate + "/rsa2048-root.der") { return candidate }
            }
        }
        return nil
    }
}
