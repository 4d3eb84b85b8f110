// The batch driver behind `diffbatch` (see Sources/diffbatch/main.swift).

#if canImport(Glibc)
    import Glibc
#endif

public enum DiffBatch {
    public static func main(_ args: [String]) {
        var seed: UInt64 = 1
        var n = 1000
        var index: Int?
        var verbose = false
        var out: String?
        var input: [UInt8]?
        var oracle = "auto"
        var i = 1
        func value() -> String {
            i += 1
            return i < args.count ? args[i] : ""
        }
        while i < args.count {
            switch args[i] {
            case "--seed": seed = UInt64(value()) ?? 1
            case "-n": n = Int(value()) ?? 1000
            case "--index": index = Int(value())
            case "--verbose", "-v": verbose = true
            case "--out": out = value()
            case "--input": input = readFile(value())
            case "--oracle": oracle = value()
            default:
                print(
                    "usage: diffbatch [--seed S] [-n N] [--index I] [--verbose] [--out DIR] [--input FUZZ-INPUT] [--oracle go|openssl|auto]"
                )
                exit(2)
            }
            i += 1
        }
        switch oracle {
        case "openssl": GoOracle.shared = nil
        case "go", "all":
            if GoOracle.shared == nil {
                print(
                    "diffbatch: --oracle go: no Go helper (build it with Fuzz/oracle-go/build.sh, or set SIGIL_ORACLE_GO)"
                )
                exit(2)
            }
        case "auto": break
        default:
            print("diffbatch: --oracle must be go, openssl or auto")
            exit(2)
        }
        let withGo = GoOracle.shared != nil
        DiffVerify.selfCheck
        if input != nil { index = 0 }
        let range = index.map { $0...$0 } ?? 0...(max(n, 1) - 1)
        var classes: [String: (count: Int, first: Int, rows: Set<String>, finding: Bool, goError: String)] = [:]
        var findings = 0
        var sTrust = 0
        var oTrust = 0
        var gTrust = 0
        var sigilOnly = 0  // Sigil trusts, OpenSSL and Go refuse
        var knownBugs = 0
        let started = clockSeconds()
        for k in range {
            // --input: one FuzzVerifyDiff input (e.g. a libFuzzer artifact) instead of a seeded chain.
            var b = input.map { DiffBytes($0) } ?? DiffBytes(seed: seed ^ (UInt64(k) &* 0x100_0000_01B3))
            let o = DiffVerify.evaluate(&b)
            if o.sigilTrusted { sTrust += 1 }
            if o.openSSLTrusted { oTrust += 1 }
            if o.go?.trusted == true { gTrust += 1 }
            if o.sigilTrusted && !o.openSSLTrusted && o.go?.trusted == false { sigilOnly += 1 }
            let key = withGo ? o.classKey + " ‖ Go: " + o.goColumn : o.classKey
            var e = classes[key] ?? (0, k, [], false, o.go?.error ?? "")
            e.count += 1
            e.rows.formUnion(o.explainedBy)
            e.finding = e.finding || o.isFinding
            classes[key] = e
            if o.isFinding { findings += 1 }
            if o.knownSigilBug { knownBugs += 1 }
            if verbose && (!o.agree || index != nil) {
                print("[\(k)] \(key)\(o.isFinding ? "  ** FINDING **" : "")")
                print("      host \(o.host ?? "none"); mutations: \(o.notes.joined(separator: "; "))")
                if let g = o.go {
                    print(
                        "      Go: \(g.trusted ? "trusted" : "refused \(g.kind): \(g.error)")"
                            + (g.dropped.isEmpty ? "" : " (dropped \(g.dropped))"))
                }
                if !o.openSSLTrusted {
                    let errs = zip(o.openSSLErrors, o.openSSLDepths + [Int32](repeating: -1, count: 4)).map {
                        "\(DiffVerify.errorName($0.0)) @\($0.1)"
                    }
                    print("      OpenSSL: \(errs.joined(separator: "; "))")
                }
                if !o.sigilTrusted { print("      Sigil: \(o.sigilReason)") }
                if !o.explainedBy.isEmpty { print("      documented: \(o.explainedBy.joined(separator: ", "))") }
            }
            if let out, o.isFinding || index != nil {
                let dir = "\(out)/seed\(seed)-\(k)"
                mkdir(out, 0o755)
                mkdir(dir, 0o755)
                write(dir + "/input.bin", b.consumed)
                write(dir + "/leaf.der", o.ders[o.ders.count - 1])
                for (j, p) in o.presented.enumerated() { write(dir + "/presented-\(j).der", p) }
                for (j, a) in o.anchors.enumerated() { write(dir + "/anchor-\(j).der", a) }
                write(
                    dir + "/notes.txt",
                    Array(
                        (o.classKey + "\nGo: " + o.goColumn + (o.go.map { " " + $0.error } ?? "") + "\nhost "
                            + (o.host ?? "none") + "\n" + o.notes.joined(separator: "\n") + "\n")
                            .utf8))
            }
        }
        let total = range.count
        let elapsed = clockSeconds() - started
        let goPart = withGo ? ", Go trusts \(gTrust), Sigil alone trusts \(sigilOnly)" : ""
        print(
            "diffbatch: seed \(seed), \(total) chains: Sigil trusts \(sTrust), OpenSSL trusts \(oTrust)\(goPart), findings \(findings) (of which class (a) regressions \(knownBugs))"
                + " (\((elapsed * 10).rounded() / 10) s, \(Int(Double(total) / max(elapsed, 0.001))) chains/s)"
        )
        print("")
        if withGo {
            print("| Sigil | OpenSSL | Go | chains | % | explained by | first index | Go's error (first chain) |")
            print("|---|---|---|---|---|---|---|---|")
        } else {
            print("| class | chains | % | explained by | first index |")
            print("|---|---|---|---|---|")
        }
        for (key, e) in classes.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
            let pct = Double(e.count) * 100 / Double(max(total, 1))
            let p = (pct * 10).rounded() / 10
            let rows =
                e.finding
                ? "**FINDING**" + (e.rows.isEmpty ? "" : " (partly: " + e.rows.sorted().joined(separator: ", ") + ")")
                : (e.rows.isEmpty ? "—" : e.rows.sorted().joined(separator: ", "))
            if withGo {
                let parts = key.components(" ‖ Go: ")
                let (s, o) = DiffOutcome.split(parts[0])
                let err = e.goError.count > 90 ? String(e.goError.prefix(90)) + "…" : e.goError
                print(
                    "| \(s) | \(o) | \(parts.count > 1 ? parts[1] : "—") | \(e.count) | \(p) | \(rows) | \(e.first) | \(err) |"
                )
            } else {
                print("| \(key) | \(e.count) | \(p) | \(rows) | \(e.first) |")
            }
        }
        exit(findings > 0 ? 1 : 0)
    }

    static func clockSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func readFile(_ path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else {
            print("diffbatch: cannot read \(path)")
            exit(2)
        }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 4096, f) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        guard let f = fopen(path, "wb") else { return }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
    }
}

extension String {
    /// Splits on a separator string (no Foundation).
    func components(_ sep: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.firstRange(of: sep) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}

extension DiffOutcome {
    /// The Sigil and OpenSSL columns of a class key.
    static func split(_ key: String) -> (String, String) {
        switch key {
        case "agree: both trust": return ("trusted", "trusted")
        case "agree: both refuse": return ("refused", "refused")
        default:
            if key.hasPrefix("Sigil trusts, OpenSSL refuses: ") {
                return ("trusted", "refused: " + key.dropFirst("Sigil trusts, OpenSSL refuses: ".count))
            }
            if key.hasPrefix("Sigil refuses (") && key.hasSuffix("), OpenSSL trusts") {
                let reason = key.dropFirst("Sigil refuses (".count).dropLast("), OpenSSL trusts".count)
                return ("refused (\(reason))", "trusted")
            }
            return (key, "?")
        }
    }
}
