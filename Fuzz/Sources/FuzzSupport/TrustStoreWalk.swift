// FuzzTrustStore: the trust-store loaders — PEM/DER bundles (`TrustStore.add(contentsOf:)`,
// `TrustStore.loading(file:)`), the hashed directory and SSL_CERT_FILE / SSL_CERT_DIR
// (`TrustStore.system(environment:)`), and the application's certificate files
// (`CertificateFiles.load(directory:)`, `load(file:)`, `load(fileOrDirectory:)`).
//
// Input: a mode byte, then length-prefixed chunks (FuzzChunks), each a file: a name byte (one
// of the names below: hashed `<8 hex>.<n>`, `.pem`, `.crt`, `.CER`, `.der`, no extension, a
// dotfile) and the content. A content of 1 byte is fixture certificate b as PEM, of 2 bytes
// fixture b as DER, of 3 bytes fixture b as TRUSTED CERTIFICATE with trust settings c
// (`auxes`); otherwise the bytes as they are. The files are written to a scratch
// directory (made once per process, emptied per input); mode bit 0 adds a symlink per file
// (hashed directories are symlinks), bit 1 a subdirectory.
//
// Oracles, against an independent count: for each file, the certificates `Certificate.all`
// finds in its bytes (every PEM block / the DER that parses; CertificateFiles: all or none) —
// - `add(contentsOf:)` returns that count, adds no more anchors than it returned, and every
//   anchor is one of the certificates parsed from some file; every anchor is found by
//   `anchors(withSubject:)` and `contains`; adding the same bytes again adds no anchor;
// - `loading(file:)` of a file = `add(contentsOf:)` of its bytes;
// - `system(environment:)` with SSL_CERT_FILE = the first file and SSL_CERT_DIR = the
//   directory holds exactly the distinct certificates of the first file and of every regular
//   PEM file (or symlink to one) of the directory;
// - `loading(file:)` and `add(contentsOf:)` keep the same trust settings per anchor;
// - `CertificateFiles.load(directory:)` returns the certificates of exactly the files with a
//   certificate extension (case-insensitive) that hold one, in name order; every other such
//   file is listed as skipped.

import Sigil
@_spi(SigilInternal) import SigilTrust
import SigilX509

#if canImport(Glibc)
    import Glibc
#endif

public enum TrustStoreWalk {
    static let names = [
        "9d66eef0.0", "9d66eef0.1", "ca.pem", "bundle.crt", "ROOT.CER", "leaf.der", "noext", ".hidden.pem",
        "a.pem.bak", "b.crt", "z.PEM", "3513523f.0",
    ]

    static let scratch: String = {
        var template = Array("/tmp/sigil-fuzz-truststore-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(dir != nil, "mkdtemp failed")
        // Removed when the process exits (libFuzzer exits through exit() on every path but a
        // crash; a crashed run leaves one small directory in /tmp).
        atexit {
            TrustStoreWalk.removeAll(TrustStoreWalk.scratch)
            rmdir(TrustStoreWalk.scratch)
        }
        return String(cString: dir!)
    }()

    static func removeAll(_ dir: String) {
        for name in FuzzFiles.list(dir) {
            let path = dir + "/" + name
            var st = stat()
            if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                removeAll(path)
                rmdir(path)
            } else {
                unlink(path)
            }
        }
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// X509_CERT_AUX values for generated TRUSTED CERTIFICATE blocks: none, reject serverAuth,
    /// trust clientAuth, an empty aux, and one that does not decode.
    static let auxes: [[UInt8]] = {
        let sa: [UInt8] = [0x06, 0x08] + OID.serverAuth
        let ca: [UInt8] = [0x06, 0x08] + OID.clientAuth
        return [
            [], [0x30, 0x0C, 0xA0, 0x0A] + sa, [0x30, 0x0C, 0x30, 0x0A] + ca, [0x30, 0x00],
            [0x30, 0x03, 0x02, 0x01, 0x00],
        ]
    }()

    /// What a bundle loader keeps: every block that parses (the others are skipped).
    static func parsed(_ bytes: [UInt8]) -> [Certificate] {
        ((try? PEM.certificatesDER(in: bytes))?.certificates ?? []).compactMap { try? Certificate(der: $0) }
    }
    /// What CertificateFiles keeps of a file: all its certificates, or none when one fails.
    static func allOrNothing(_ bytes: [UInt8]) -> [Certificate] { (try? Certificate.all(from: bytes)) ?? [] }

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        let mode = input.byte()
        let fixtures = FuzzFixtures.shared.pool
        var files: [(name: String, bytes: [UInt8])] = []
        while let chunk = input.next(), files.count < 8 {
            guard let first = chunk.first else { continue }
            let name = names[Int(first) % names.count]
            if files.contains(where: { $0.name == name }) { continue }
            var content = Array(chunk.dropFirst())
            if content.count == 1 {
                content = Array(PEM.encode(fixtures[Int(content[0]) % fixtures.count].der, label: "CERTIFICATE").utf8)
            } else if content.count == 2 {
                content = fixtures[Int(content[1]) % fixtures.count].der
            } else if content.count == 3 {
                // Fixture b as an OpenSSL TRUSTED CERTIFICATE, with the aux chosen by c.
                let aux = auxes[Int(content[2]) % auxes.count]
                content = Array(
                    PEM.encode(fixtures[Int(content[1]) % fixtures.count].der + aux, label: "TRUSTED CERTIFICATE").utf8)
            }
            files.append((name, content))
        }

        // In memory: bundles.
        var all: [Certificate] = []
        var store = TrustStore()
        for f in files {
            let expected = parsed(f.bytes)
            all += expected
            let before = store.count
            let added = store.add(contentsOf: f.bytes)
            oracle(added == expected.count, "add(contentsOf:) returned \(added), \(expected.count) blocks parse")
            oracle(store.count - before <= added, "add(contentsOf:) added more anchors than it counted")
            let again = store.count
            store.add(contentsOf: f.bytes)
            oracle(store.count == again, "adding the same bytes twice added anchors")
        }
        for a in store.anchors {
            oracle(all.contains(a.certificate), "an anchor is not a certificate of the input")
            oracle(store.contains(a.certificate), "contains() misses an anchor")
            oracle(
                store.anchors(withSubject: a.certificate.subject).contains {
                    store.anchors[$0].certificate == a.certificate
                },
                "anchors(withSubject:) misses an anchor")
        }

        // On disk.
        let dir = scratch
        removeAll(dir)
        for f in files { write(dir + "/" + f.name, f.bytes) }
        if mode & 1 != 0, let f = files.first { symlink(dir + "/" + f.name, dir + "/link-" + f.name + ".pem") }
        if mode & 2 != 0 {
            mkdir(dir + "/sub.pem", 0o755)
            write(dir + "/sub.pem/x.pem", files.first?.bytes ?? [])
        }

        for f in files {
            let loaded = TrustStore.loading(file: dir + "/" + f.name)
            var direct = TrustStore()
            direct.add(contentsOf: f.bytes)
            oracle(
                loaded?.anchors.map { $0.certificate } == direct.anchors.map { $0.certificate },
                "loading(file:) differs from add(contentsOf:) for \(f.name)")
            // Both readers keep the same trust settings (TRUSTED CERTIFICATE blocks).
            oracle(
                loaded?.anchors.map { $0.trustSettings } == direct.anchors.map { $0.trustSettings },
                "loading(file:) keeps other trust settings than add(contentsOf:) for \(f.name)")
        }

        // SSL_CERT_FILE + SSL_CERT_DIR.
        let firstFile = files.first.map { dir + "/" + $0.name }
        let system = TrustStore.system(environment: ["SSL_CERT_FILE": firstFile ?? "", "SSL_CERT_DIR": dir])
        var expectedSystem: [Certificate] = firstFile != nil ? parsed(files[0].bytes) : []
        for name in FuzzFiles.list(dir) {
            let path = dir + "/" + name
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let bytes = FuzzFiles.read(path) else {
                continue
            }
            // Directories are read for PEM only (as OpenSSL and Go): a file that starts as DER
            // does (0x30, the streaming reader's test) adds nothing.
            if bytes.first == 0x30 { continue }
            expectedSystem += parsed(bytes)
        }
        var distinct: [Certificate] = []
        for c in expectedSystem where !distinct.contains(c) { distinct.append(c) }
        oracle(
            system.count == distinct.count,
            "system(environment:) holds \(system.count) anchors, expected \(distinct.count)")
        for a in system.anchors {
            oracle(a.source == .system && distinct.contains(a.certificate), "system store: unexpected anchor")
        }

        // The application's certificate files.
        if let loaded = CertificateFiles.load(directory: dir) {
            var expected: [Certificate] = []
            var skipped = 0
            for name in FuzzFiles.list(dir) {
                guard let dot = name.lastIndex(of: "."),
                    ["cer", "crt", "der", "pem"].contains(name[name.index(after: dot)...].lowercased())
                else { continue }
                let path = dir + "/" + name
                var st = stat()
                guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                let certs = FuzzFiles.read(path).map(allOrNothing) ?? []
                if certs.isEmpty { skipped += 1 } else { expected += certs }
            }
            oracle(
                loaded.certificates == expected,
                "CertificateFiles.load(directory:) gave \(loaded.certificates.count) certificates, expected \(expected.count)"
            )
            oracle(
                loaded.skipped.count == skipped,
                "CertificateFiles.load(directory:) skipped \(loaded.skipped.count) files, expected \(skipped)")
            switch CertificateFiles.load(fileOrDirectory: dir) {
            case .success(let l):
                oracle(l.certificates == expected && !expected.isEmpty, "load(fileOrDirectory:) differs")
            case .failure: oracle(expected.isEmpty, "load(fileOrDirectory:) failed on a directory with certificates")
            }
        } else {
            oracle(false, "CertificateFiles.load(directory:) cannot read the scratch directory")
        }
    }
}
