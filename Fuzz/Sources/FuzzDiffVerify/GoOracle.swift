// The third opinion: Go's crypto/x509 (Fuzz/oracle-go, built by Fuzz/oracle-go/build.sh into
// Fuzz/.build-go/oracle-go) run as one long-lived child process in its `-serve` mode: one
// request line per chain (time, host, purpose, leaf, intermediates, roots in hex), one answer
// line ("go<TAB>trusted<TAB>…" or "go<TAB>refused<TAB><kind><TAB><error>…").
//
// Used when the helper exists (or `SIGIL_ORACLE_GO` names it); `FUZZ_DIFF_GO=0` turns it off.

#if canImport(Glibc)
    import Glibc
#endif

public struct GoVerdict: Sendable {
    public var trusted: Bool
    /// Go's error class (oracle-go's `kind`): UnknownAuthority, Hostname, Expired, …; "" when trusted.
    public var kind: String
    public var error: String
    /// Presented certificates (i<k>) and roots (r<k>) Go could not parse.
    public var dropped: String
}

public final class GoOracle: @unchecked Sendable {
    private var pid: pid_t = 0
    private var toChild: UnsafeMutablePointer<FILE>?
    private var fromChild: UnsafeMutablePointer<FILE>?
    public let path: String

    /// The shared helper when it is available and not turned off (FUZZ_DIFF_GO=0).
    public nonisolated(unsafe) static var shared: GoOracle? = {
        if let v = getenv("FUZZ_DIFF_GO"), String(cString: v) == "0" { return nil }
        guard let p = locate() else { return nil }
        return GoOracle(path: p)
    }()

    /// $SIGIL_ORACLE_GO, else Fuzz/.build-go/oracle-go found from $SIGIL_ROOT or this file.
    public static func locate() -> String? {
        if let e = getenv("SIGIL_ORACLE_GO") {
            let p = String(cString: e)
            return access(p, X_OK) == 0 ? p : nil
        }
        if let root = getenv("SIGIL_ROOT") {
            let p = String(cString: root) + "/Fuzz/.build-go/oracle-go"
            if access(p, X_OK) == 0 { return p }
        }
        var dir = "\(#filePath)"
        for _ in 0..<8 {
            guard let slash = dir.lastIndex(of: "/") else { break }
            dir = String(dir[..<slash])
            let p = dir + "/.build-go/oracle-go"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    init?(path: String) {
        self.path = path
        guard start() else { return nil }
    }

    private func start() -> Bool {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, inPipe[1])
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        let args = [path, "-serve"]
        var cargs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        let rc = posix_spawn(&pid, path, &actions, nil, &cargs, environ)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            return false
        }
        // The write end must not leak into later children (libFuzzer -fork workers).
        _ = fcntl(inPipe[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(outPipe[0], F_SETFD, FD_CLOEXEC)
        signal(SIGPIPE, SIG_IGN)
        toChild = fdopen(inPipe[1], "w")
        fromChild = fdopen(outPipe[0], "r")
        return toChild != nil && fromChild != nil
    }

    static let hexDigits = Array("0123456789abcdef".utf8)
    static func hex(_ b: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(b.count * 2)
        for x in b {
            out.append(hexDigits[Int(x >> 4)])
            out.append(hexDigits[Int(x & 15)])
        }
        return out
    }

    /// Go's verdict on one chain; nil if the helper failed (then it is restarted next time).
    public func verify(
        leaf: [UInt8], intermediates: [[UInt8]], roots: [[UInt8]], time: Int64, host: String?,
        purpose: String = "server"
    ) -> GoVerdict? {
        if toChild == nil && !start() { return nil }
        var req = Array("\(time) \(host.map { $0.isEmpty ? "-" : $0 } ?? "-") \(purpose) ".utf8)
        req += GoOracle.hex(leaf.isEmpty ? [0] : leaf)
        req += Array(" \(intermediates.count)".utf8)
        for d in intermediates { req += [0x20] + GoOracle.hex(d.isEmpty ? [0] : d) }
        req += Array(" \(roots.count)".utf8)
        for d in roots { req += [0x20] + GoOracle.hex(d.isEmpty ? [0] : d) }
        req.append(0x0A)
        let written = req.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, toChild) }
        guard written == req.count, fflush(toChild) == 0, let answer = readLine() else {
            stop()
            return nil
        }
        let f = answer.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard f.count >= 2, f[0] == "go" else { return nil }
        if f[1] == "trusted" {
            let dropped = f.count > 2 ? f[2].split(separator: " ").first { $0.hasPrefix("dropped=") } : nil
            return GoVerdict(trusted: true, kind: "", error: "", dropped: dropped.map { String($0.dropFirst(8)) } ?? "")
        }
        let dropped = f.count > 4 && f[4].hasPrefix("dropped=") ? String(f[4].dropFirst(8)) : ""
        return GoVerdict(
            trusted: false, kind: f.count > 2 ? f[2] : "?", error: f.count > 3 ? f[3] : "", dropped: dropped)
    }

    private func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let c = getc(fromChild)
            if c == EOF { return nil }
            if c == 0x0A { break }
            bytes.append(UInt8(c))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func stop() {
        if let t = toChild { fclose(t) }
        if let f = fromChild { fclose(f) }
        toChild = nil
        fromChild = nil
        if pid > 0 {
            var status: Int32 = 0
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            pid = 0
        }
    }
}
