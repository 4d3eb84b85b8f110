import Foundation
import SigilTestSupport

/// The conformance vectors, located by `TestSupport.vectors` (`$SIGIL_VECTORS` or
/// `<package root>/../shared/vectors`).
enum Vectors {
    static var directory: URL? { TestSupport.vectors }

    /// Contents of `relative` inside the vectors folder, or nil after printing why it was skipped.
    static func load(_ relative: String, test: String = #function) -> Data? {
        guard let dir = directory else {
            print(
                "SKIPPED \(test): vectors folder not found (set SIGIL_VECTORS or place it at <package root>/../shared/vectors)"
            )
            return nil
        }
        let url = dir.appendingPathComponent(relative)
        guard let data = try? Data(contentsOf: url) else {
            print("SKIPPED \(test): \(url.path) missing")
            return nil
        }
        return data
    }

    /// Parses a CAVP .rsp file into records: each a dictionary of the `key = value` lines between
    /// blank lines; `[section]` lines are given to every following record as key "[section]".
    static func rsp(_ data: Data) -> [[String: String]] {
        var out: [[String: String]] = []
        var current: [String: String] = [:]
        var section: [String: String] = [:]
        for raw in String(decoding: data, as: UTF8.self).split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("#") { continue }
            if line.isEmpty {
                if !current.isEmpty {
                    out.append(current.merging(section) { a, _ in a })
                    current = [:]
                }
                continue
            }
            if line.hasPrefix("[") {
                let inner = line.dropFirst().dropLast()
                let parts = inner.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { section["[" + parts[0] + "]"] = parts[1] }
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { current[parts[0]] = parts[1] }
        }
        if !current.isEmpty { out.append(current.merging(section) { a, _ in a }) }
        return out
    }
}

func hexBytes(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count / 2)
    var hi: UInt8? = nil
    for c in s.utf8 {
        let v: UInt8
        switch c {
        case 48...57: v = c - 48
        case 97...102: v = c - 87
        case 65...70: v = c - 55
        default: continue
        }
        if let h = hi {
            out.append(h << 4 | v)
            hi = nil
        } else {
            hi = v
        }
    }
    return out
}

func hexString(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

/// Runs a program and returns its standard output, or nil when it cannot be run.
func runTool(_ path: String, _ args: [String], stdin: Data? = nil) -> Data? {
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let outPipe = Pipe()
    p.standardOutput = outPipe
    p.standardError = FileHandle.nullDevice
    let inPipe = Pipe()
    p.standardInput = inPipe
    do { try p.run() } catch { return nil }
    if let stdin { inPipe.fileHandleForWriting.write(stdin) }
    try? inPipe.fileHandleForWriting.close()
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return p.terminationStatus == 0 ? out : nil
}
