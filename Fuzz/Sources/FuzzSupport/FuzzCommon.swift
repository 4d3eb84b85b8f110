// Shared helpers for the X.509-level walks (CertificateWalk, PEMWalk, NamesWalk,
// SignatureWalk, VerifyWalk): input splitting, a tiny DER builder, the fixture set, and the
// oracle trap. Symlinked into Tests/SigilTests so the regression replay runs the same code.

import Foundation
import SigilDER
import SigilX509

/// Traps with a message: a broken oracle is a finding (libFuzzer reports the crash and saves
/// the input).
@inline(never)
func oracle(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
            file: StaticString = #fileID, line: UInt = #line) {
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
            out.append(UInt8((c.count >> 8) & 0xFF)); out.append(UInt8(c.count & 0xFF))
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
            while m > 0 { len.insert(UInt8(m & 0xFF), at: 0); m >>= 8 }
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
public struct FuzzFixtures: Sendable {
    /// Every certificate of Fixtures/certs/*.der that parses, by file name (sorted).
    public let certificates: [(name: String, certificate: Certificate)]
    /// The `*-root.der` ones: the anchors of `FuzzVerify`.
    public let roots: [Certificate]
    /// DER of every fixture certificate (the "unchanged fixture" oracle).
    public let derSet: Set<[UInt8]>

    public static let shared = FuzzFixtures()

    init() {
        var certs: [(String, Certificate)] = []
        if let dir = FuzzFixtures.certsDirectory(),
           let names = try? FileManager.default.contentsOfDirectory(atPath: dir) {
            for name in names.sorted() where name.hasSuffix(".der") {
                guard let data = FileManager.default.contents(atPath: dir + "/" + name),
                      let c = try? Certificate(der: [UInt8](data)) else { continue }
                certs.append((name, c))
            }
        }
        if certs.isEmpty {
            fatalError("FuzzFixtures: no fixture certificates found (set SIGIL_ROOT to the repository)")
        }
        certificates = certs
        roots = certs.filter { $0.0.hasSuffix("-root.der") }.map { $0.1 }
        derSet = Set(certs.map { $0.1.der })
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
        let fm = FileManager.default
        if let root = ProcessInfo.processInfo.environment["SIGIL_ROOT"] {
            return root + "/Fixtures/certs"
        }
        for start in [URL(fileURLWithPath: #filePath), URL(fileURLWithPath: fm.currentDirectoryPath + "/x")] {
            var url = start.deletingLastPathComponent()
            for _ in 0..<8 {
                let candidate = url.appendingPathComponent("Fixtures/certs").path
                if fm.fileExists(atPath: candidate + "/rsa2048-root.der") { return candidate }
                url = url.deletingLastPathComponent()
            }
        }
        return nil
    }
}
