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
            default:
                print("usage: diffbatch [--seed S] [-n N] [--index I] [--verbose] [--out DIR] [--input FUZZ-INPUT]")
                exit(2)
            }
            i += 1
        }
        if input != nil { index = 0 }
        let range = index.map { $0...$0 } ?? 0...(max(n, 1) - 1)
        var classes: [String: (count: Int, first: Int, rows: Set<String>, finding: Bool)] = [:]
        var findings = 0
        var sTrust = 0
        var oTrust = 0
        for k in range {
            // --input: one FuzzVerifyDiff input (e.g. a libFuzzer artifact) instead of a seeded chain.
            var b = input.map { DiffBytes($0) } ?? DiffBytes(seed: seed ^ (UInt64(k) &* 0x100_0000_01B3))
            let o = DiffVerify.evaluate(&b)
            if o.sigilTrusted { sTrust += 1 }
            if o.openSSLTrusted { oTrust += 1 }
            let key = o.classKey
            var e = classes[key] ?? (0, k, [], false)
            e.count += 1
            e.rows.formUnion(o.explainedBy)
            e.finding = e.finding || o.isFinding
            classes[key] = e
            if o.isFinding { findings += 1 }
            if verbose && (!o.agree || index != nil) {
                print("[\(k)] \(key)\(o.isFinding ? "  ** FINDING **" : "")")
                print("      host \(o.host ?? "none"); mutations: \(o.notes.joined(separator: "; "))")
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
                        (o.classKey + "\nhost " + (o.host ?? "none") + "\n" + o.notes.joined(separator: "\n") + "\n")
                            .utf8))
            }
        }
        let total = range.count
        print(
            "diffbatch: seed \(seed), \(total) chains: Sigil trusts \(sTrust), OpenSSL trusts \(oTrust), findings \(findings)"
        )
        print("")
        print("| class | chains | % | explained by | first index |")
        print("|---|---|---|---|---|")
        for (key, e) in classes.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
            let pct = Double(e.count) * 100 / Double(max(total, 1))
            let p = (pct * 10).rounded() / 10
            let rows = e.finding ? "**FINDING**" : (e.rows.isEmpty ? "—" : e.rows.sorted().joined(separator: ", "))
            print("| \(key) | \(e.count) | \(p) | \(rows) | \(e.first) |")
        }
        exit(findings > 0 ? 1 : 0)
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
