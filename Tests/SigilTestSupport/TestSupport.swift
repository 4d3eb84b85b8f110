import Foundation

/// Helpers shared by the test targets (Foundation allowed here).
public enum TestSupport {
    /// The package root (the directory holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    public static var fixtures: URL { packageRoot.appendingPathComponent("Fixtures") }

    public static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `/etc/ssl/certs/*.pem` (one root per file on Debian), sorted; empty when absent.
    public static func systemRootFiles() -> [String] {
        let dir = "/etc/ssl/certs"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return names.filter { $0.hasSuffix(".pem") }.sorted().map { dir + "/" + $0 }
    }
}

extension TestSupport {
    /// Runs a command; its stdout, or nil when it cannot run or fails.
    public static func run(_ args: [String]) throws -> String? {
        try runStdin(args, input: nil)
    }

    public static func runStdin(_ args: [String], input: String?) throws -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        let inPipe = Pipe()
        if input != nil { p.standardInput = inPipe }
        do { try p.run() } catch { return nil }
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}

extension TestSupport {
    /// The shared conformance vectors: `$SIGIL_VECTORS`, else `<package root>/../shared/vectors`;
    /// nil when absent (tests then say they were skipped).
    public static var vectors: URL? {
        if let env = ProcessInfo.processInfo.environment["SIGIL_VECTORS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    nonisolated(unsafe) private static var limboCache: Data?

    /// The decompressed x509-limbo suite (`limbo/limbo.json.xz` under `vectors`, through `xz`),
    /// read once per test process; nil when absent.
    public static func limboSuiteJSON() throws -> Data? {
        if let cached = limboCache { return cached }
        guard let file = vectors?.appendingPathComponent("limbo/limbo.json.xz").path,
            FileManager.default.fileExists(atPath: file)
        else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xz", "-dc", file]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        limboCache = data
        return data
    }

    /// One scenario of `Fixtures/chains/manifest.json` (made by `Fixtures/scripts/gen_chains.py`).
    public struct ChainScenario: Decodable, Sendable {
        public let scenario: String
        public let kind: String
        public let host: String?
        public let ip: String?
        public let at: Double
        public let anchorsOnly: Bool
        public let expected: String
        public let reason: String?
        public let description: String
    }

    public static func chainScenarios() throws -> [ChainScenario] {
        let url = fixtures.appendingPathComponent("chains/manifest.json")
        return try JSONDecoder().decode([ChainScenario].self, from: Data(contentsOf: url))
    }
}

extension TestSupport {
    /// The `sigil` executable built beside the test runner (<products>/SigilPackageTests.xctest
    /// on Linux), or nil when it was not built.
    public static var sigilExecutable: String? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0])
        for candidate in [
            bundle.deletingLastPathComponent(), bundle.deletingLastPathComponent().deletingLastPathComponent(),
        ] {
            let path = candidate.appendingPathComponent("sigil").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

extension TestSupport {
    /// What one run of the `sigil` executable gave.
    public struct SigilRun: Sendable {
        /// The exit status.
        public let status: Int32
        /// Standard output.
        public let out: String
        /// Standard error.
        public let err: String
    }

    /// Runs the `sigil` executable built beside the tests (`sigilExecutable`) with `args`; nil
    /// when it was not built (the CLI tests then skip).
    public static func runSigil(_ args: [String]) throws -> SigilRun? {
        guard let path = sigilExecutable else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes are drained before waiting, output first: sigil writes its report before
        // any diagnostics, and neither is large enough here to fill a pipe while the other waits.
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return SigilRun(status: p.terminationStatus, out: o, err: e)
    }
}

extension TestSupport {
    /// A CA bundle of many roots: the system's (`/etc/ssl/certs/ca-certificates.crt`), else
    /// `Fixtures/certs/bundle.pem`.
    public static func caBundle() throws -> [UInt8] {
        let system = "/etc/ssl/certs/ca-certificates.crt"
        if FileManager.default.fileExists(atPath: system) { return try read(system) }
        return try read(fixtures.appendingPathComponent("certs/bundle.pem").path)
    }

    /// Writes `bytes` to `name` in a per-process temporary directory (`sigil-<area>-<pid>`)
    /// and returns its path.
    public static func temporaryFile(_ name: String, _ bytes: [UInt8], area: String = "tests") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-\(area)-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What one run of a process gave, with its peak resident set size.
    public struct MeasuredRun: Sendable {
        /// The exit status.
        public let status: Int32
        /// Standard output.
        public let out: Data
        /// Standard error (without `/usr/bin/time`'s own line).
        public let err: String
        /// Peak RSS in KiB (`/usr/bin/time -f %M`); 0 when not measured.
        public let rss: Int
    }

    /// Runs `executable` with `args`, `stdinFile` as standard input, through `/usr/bin/time`
    /// when `measure` (the peak RSS): status, standard output (through a file, so its size
    /// never blocks the child), standard error.
    public static func runMeasured(
        _ executable: String, _ args: [String], stdinFile: String? = nil, measure: Bool = false
    ) throws -> MeasuredRun {
        let p = Process()
        if measure {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            p.arguments = ["-f", "maxrss=%M", executable] + args
        } else {
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = args
        }
        let outPath = try temporaryFile("out-\(UInt64.random(in: 0...UInt64.max))", [], area: "run")
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        let err = Pipe()
        p.standardError = err
        if let stdinFile { p.standardInput = FileHandle(forReadingAtPath: stdinFile) }
        try p.run()
        var e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        var rss = 0
        if measure {
            var lines = e.split(separator: "\n", omittingEmptySubsequences: false)
            if let i = lines.lastIndex(where: { $0.hasPrefix("maxrss=") }) {
                rss = Int(lines[i].dropFirst(7)) ?? 0
                lines.remove(at: i)
            }
            // GNU time's note for a non-zero status.
            lines.removeAll { $0.hasPrefix("Command exited with non-zero status") }
            e = lines.joined(separator: "\n")
        }
        return MeasuredRun(
            status: p.terminationStatus, out: try Data(contentsOf: URL(fileURLWithPath: outPath)), err: e, rss: rss)
    }
}
