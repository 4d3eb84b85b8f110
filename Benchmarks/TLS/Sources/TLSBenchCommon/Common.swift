import NIOSSL

#if canImport(Glibc)
    import Glibc
#endif

/// One certificate chain the server presents: leaf + intermediate, and the root both verifiers
/// trust. Paths are relative to the repository root.
public struct BenchChain: Sendable {
    /// Short name used on the command line and in the table ("p256", "rsa2048").
    public let name: String
    /// Row label.
    public let label: String
    /// Leaf certificate (PEM).
    public let leaf: String
    /// Intermediate CA certificate (PEM), sent after the leaf.
    public let intermediate: String
    /// The leaf's private key (PEM).
    public let key: String
    /// The self-signed root both verifiers trust (PEM); never sent.
    public let root: String

    /// The P-256 chain of the SigilNIO tests (Fixtures/scripts/gen-tls.py) and the RSA-2048 chain
    /// of Benchmarks/TLS/fixtures/gen.sh. Both leaves name DNS:sigil.test.
    public static let all: [BenchChain] = [
        BenchChain(
            name: "p256", label: "P-256", leaf: "Fixtures/tls/leaf.pem", intermediate: "Fixtures/tls/int.pem",
            key: "Fixtures/tls/leaf.key", root: "Fixtures/tls/root.pem"),
        BenchChain(
            name: "rsa2048", label: "RSA-2048", leaf: "Benchmarks/TLS/fixtures/rsa-leaf.pem",
            intermediate: "Benchmarks/TLS/fixtures/rsa-int.pem", key: "Benchmarks/TLS/fixtures/rsa-leaf.key",
            root: "Benchmarks/TLS/fixtures/rsa-root.pem"),
    ]
}

/// The name every leaf carries and both verifiers check.
public let benchHost = "sigil.test"

/// `--key value` options (and bare `--flag`s as "1").
public struct BenchArguments {
    /// The first argument (the mode).
    public let command: String
    var values: [String: String] = [:]

    /// Parses `CommandLine.arguments`.
    public init(_ argv: [String]) {
        command = argv.count > 1 ? argv[1] : ""
        var i = 2
        while i < argv.count {
            let a = argv[i]
            guard a.hasPrefix("--") else {
                i += 1
                continue
            }
            let key = String(a.dropFirst(2))
            if i + 1 < argv.count, !argv[i + 1].hasPrefix("--") {
                values[key] = argv[i + 1]
                i += 2
            } else {
                values[key] = "1"
                i += 1
            }
        }
    }

    /// The value of `--key`, or `fallback`.
    public func string(_ key: String, _ fallback: String) -> String { values[key] ?? fallback }
    /// The value of `--key` as an integer, or `fallback`.
    public func int(_ key: String, _ fallback: Int) -> Int { values[key].flatMap { Int($0) } ?? fallback }
    /// The value of `--key` as a number, or `fallback`.
    public func double(_ key: String, _ fallback: Double) -> Double {
        values[key].flatMap { Double($0) } ?? fallback
    }
}

/// CPU seconds (user + system) of this process, all threads (`getrusage(RUSAGE_SELF)`).
public func processCPUSeconds() -> Double {
    var u = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
    let user = Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6
    let system = Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    return user + system
}

/// This process's resource usage (all threads): user and system CPU seconds, minor page faults,
/// voluntary and involuntary context switches (`getrusage(RUSAGE_SELF)`), to split a cell's CPU.
public struct ProcessUsage {
    public var user = 0.0
    public var system = 0.0
    public var minorFaults = 0
    public var voluntarySwitches = 0
    public var involuntarySwitches = 0
    public init() {}

    public static func now() -> ProcessUsage {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        var p = ProcessUsage()
        p.user = Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6
        p.system = Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
        p.minorFaults = u.ru_minflt
        p.voluntarySwitches = u.ru_nvcsw
        p.involuntarySwitches = u.ru_nivcsw
        return p
    }

    public static func - (a: ProcessUsage, b: ProcessUsage) -> ProcessUsage {
        var d = ProcessUsage()
        d.user = a.user - b.user
        d.system = a.system - b.system
        d.minorFaults = a.minorFaults - b.minorFaults
        d.voluntarySwitches = a.voluntarySwitches - b.voluntarySwitches
        d.involuntarySwitches = a.involuntarySwitches - b.involuntarySwitches
        return d
    }

    public static func + (a: ProcessUsage, b: ProcessUsage) -> ProcessUsage {
        var d = ProcessUsage()
        d.user = a.user + b.user
        d.system = a.system + b.system
        d.minorFaults = a.minorFaults + b.minorFaults
        d.voluntarySwitches = a.voluntarySwitches + b.voluntarySwitches
        d.involuntarySwitches = a.involuntarySwitches + b.involuntarySwitches
        return d
    }
}

/// CPU seconds of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
public func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Monotonic wall-clock seconds.
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// VmRSS of process `pid` in kB, from /proc/PID/status; nil when unreadable.
public func residentKB(pid: Int32) -> Int? {
    guard let f = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, Int32(line.count), f) != nil {
        let s = String(cString: line)
        if s.hasPrefix("VmRSS:") {
            let digits = s.dropFirst(6).filter { $0.isNumber }
            return Int(digits)
        }
    }
    return nil
}

/// Prints and flushes (the driver reads the server's lines from a pipe/file while it runs).
public func say(_ s: String) {
    print(s)
    fflush(stdout)
}

/// PEM file → NIOSSL certificate.
public func nioCertificate(_ repo: String, _ path: String) throws -> NIOSSLCertificate {
    try NIOSSLCertificate(file: repo + "/" + path, format: .pem)
}

/// The bytes of a file (the root PEM), without Foundation.
public func readFile(_ path: String) throws -> [UInt8] {
    guard let f = fopen(path, "rb") else { throw BenchFileError(path: path) }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return out
}

/// A fixture that could not be read.
public struct BenchFileError: Error {
    /// The file.
    public let path: String
}
