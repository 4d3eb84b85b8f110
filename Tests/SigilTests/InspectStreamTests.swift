import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// The direct JSON writer (`CertificateReport.writeJSON`) against the reference report
/// (`json(…).serialized()`, cross-checked against openssl/pyca elsewhere): byte for byte, for
/// every certificate of the fixtures and every system root.
final class InspectJSONWriterTests: XCTestCase {
    func certificates(in path: String) -> [[UInt8]] {
        guard let bytes = try? TestSupport.read(path) else { return [] }
        if let blocks = try? PEM.certificatesDER(in: bytes) { return blocks.certificates }
        return []
    }

    func testWriterMatchesTheReportTreeByteForByte() throws {
        var files: [String] = TestSupport.systemRootFiles()
        let enumerator = FileManager.default.enumerator(atPath: TestSupport.fixtures.path)
        while let f = enumerator?.nextObject() as? String {
            if [".pem", ".der", ".crt", ".cer"].contains(where: { f.hasSuffix($0) }) {
                files.append(TestSupport.fixtures.appendingPathComponent(f).path)
            }
        }
        var compared = 0
        var writer = JSONWriter()
        for file in files {
            for der in certificates(in: file) {
                guard let cert = try? LenientCertificate(der: der) else { continue }
                var a = CertificateReport(cert, now: 1_750_000_000)
                var b = a
                let reference = a.json(
                    sha256: Fingerprint.sha256Hex(cert.der),
                    spkiSha256: Fingerprint.sha256Hex(cert.subjectPublicKeyInfo)
                ).serialized()
                writer.removeAll()
                b.writeJSON(
                    into: &writer, sha256: SHA256.hash(cert.der), spkiSha256: SHA256.hash(cert.subjectPublicKeyInfo))
                XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), reference, file)
                XCTAssertEqual(a.warnings, b.warnings, file)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 300)
    }

    func testStringEscapingMatchesJSONValue() {
        for s in ["", "plain", "q\"b\\s", "\n\r\t\u{01}\u{1F}", "é€😀", "\u{7F}x\u{0}"] {
            var w = JSONWriter()
            w.string(s)
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), JSONValue.string(s).serialized(), s)
        }
        for i: Int64 in [0, 7, -1, 42, 1_000_000, .max, .min] {
            var w = JSONWriter()
            w.int(i)
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), String(i))
        }
    }
}

/// `sigil inspect --json` streams: standard input, concatenated DER, `--jobs`, bounded memory.
final class InspectStreamCLITests: XCTestCase {
    func run(_ args: [String], stdinFile: String? = nil, measure: Bool = false) throws -> TestSupport.MeasuredRun {
        try TestSupport.runMeasured(try sigilExecutable(), args, stdinFile: stdinFile, measure: measure)
    }

    func tempFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        try TestSupport.temporaryFile(name, bytes, area: "stream")
    }

    func bundle() throws -> [UInt8] { try TestSupport.caBundle() }

    func testStandardInputConcatenatedDERAndJobsGiveTheSameLines() throws {
        let pem = try bundle()
        let certs = try PEM.certificatesDER(in: pem).certificates
        let pemFile = try tempFile("bundle.pem", pem)
        let derFile = try tempFile("bundle.der", Array(certs.joined()))
        let reference = try run(["inspect", "--json", pemFile])
        XCTAssertEqual(reference.status, 0, reference.err)
        let lines = reference.out.split(separator: UInt8(ascii: "\n"))
        XCTAssertEqual(lines.count, certs.count)
        // Each line is the report of that certificate.
        for (line, der) in zip(lines, certs).prefix(20) {
            let o = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
            XCTAssertEqual(o["sha256"] as? String, Fingerprint.sha256Hex(der))
        }
        let stdin = try run(["inspect", "--json", "-"], stdinFile: pemFile)
        XCTAssertEqual(stdin.status, 0, stdin.err)
        XCTAssertEqual(stdin.out, reference.out)
        let der = try run(["inspect", "--json", derFile])
        XCTAssertEqual(der.status, 0, der.err)
        XCTAssertEqual(der.out, reference.out)
        let derStdin = try run(["inspect", "--json", "-"], stdinFile: derFile)
        XCTAssertEqual(derStdin.out, reference.out)
        for jobs in ["2", "3"] {
            let parallel = try run(["inspect", "--json", "--jobs", jobs, pemFile, derFile])
            XCTAssertEqual(parallel.status, 0, parallel.err)
            XCTAssertEqual(parallel.out, reference.out + reference.out, "--jobs \(jobs)")
        }
    }

    /// A bad PEM block is reported (exit 1) and the blocks after it are still inspected.
    func testABadBlockDoesNotStopTheStream() throws {
        let certs = try PEM.certificatesDER(in: try bundle()).certificates
        let good = PEM.encode(certs[0])
        let bad = good.replacingOccurrences(of: "\n-----END", with: "!\n-----END")
        let file = try tempFile("bad.pem", Array((good + bad + good).utf8))
        let r = try run(["inspect", "--json", file])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.out.split(separator: UInt8(ascii: "\n")).count, 2)
        XCTAssertTrue(r.err.contains("[2]"), r.err)
    }

    /// Memory does not follow the input: ~35 MB of PEM (what the former whole-file reader
    /// refused beyond 64 MiB and held 2.4 times over) is inspected in well under its size.
    func testMemoryIsBoundedIndependentlyOfInputSize() throws {
        let pem = try bundle()
        let copies = max(1, (35 << 20) / pem.count)
        var big: [UInt8] = []
        big.reserveCapacity(pem.count * copies)
        for _ in 0..<copies { big += pem }
        let file = try tempFile("big.pem", big)
        defer { try? FileManager.default.removeItem(atPath: file) }
        big = []
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time is not installed")
        }
        let r = try run(["inspect", "--json", file], measure: true)
        XCTAssertEqual(r.status, 0, r.err)
        let expected = try PEM.certificatesDER(in: pem).certificates.count * copies
        XCTAssertEqual(r.out.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, expected)
        XCTAssertLessThan(r.rss, 30 << 10, "peak RSS \(r.rss) KiB for a \((pem.count * copies) >> 20) MiB input")
    }
}

extension InspectStreamCLITests {
    /// `--jobs 2` (reader ahead of the workers, chunks written in sequence order) gives the
    /// same standard output and the same messages, in the same order, as one job over a large
    /// input — the chunk queue turns over thousands of times, with malformed blocks and blocks
    /// of other labels among the certificates — and its memory stays bounded.
    func testJobsTwoMatchesOneJobOnALargeInputWithBoundedMemory() throws {
        let pem = try bundle()
        let certs = try PEM.certificatesDER(in: pem).certificates
        let good = PEM.encode(certs[0])
        let bad = good.replacingOccurrences(of: "\n-----END", with: "!\n-----END")
        let other = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        let copies = max(1, (20 << 20) / pem.count)
        var big: [UInt8] = []
        big.reserveCapacity((pem.count + bad.utf8.count + other.utf8.count) * copies)
        for i in 0..<copies {
            big += pem
            if i % 7 == 3 { big += Array(bad.utf8) }
            if i % 5 == 1 { big += Array(other.utf8) }
        }
        let file = try tempFile("jobs.pem", big)
        defer { try? FileManager.default.removeItem(atPath: file) }
        big = []
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time is not installed")
        }
        let one = try run(["inspect", "--json", file])
        let two = try run(["inspect", "--json", "--jobs", "2", file], measure: true)
        XCTAssertEqual(one.status, 1, "the malformed blocks are reported")
        XCTAssertEqual(two.status, one.status)
        XCTAssertEqual(one.out.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, certs.count * copies)
        XCTAssertTrue(two.out == one.out, "--jobs 2 output differs from one job's")
        let messages = two.err.split(separator: "\n")  // without /usr/bin/time's lines
        XCTAssertEqual(messages, one.err.split(separator: "\n"))
        XCTAssertEqual(messages.count, (0..<copies).filter { $0 % 7 == 3 }.count)
        XCTAssertLessThan(two.rss, 40 << 10, "peak RSS \(two.rss) KiB with --jobs 2")
    }
}

/// `sigil verify` reads its leaf, --intermediate and --anchor files through the streaming
/// reader: standard input for the leaf, concatenated DER bundles; verdicts as the chain
/// manifest (Fixtures/scripts/gen_chains.py) gives them.
final class VerifyStreamingInputTests: XCTestCase {
    func testLeafFromStandardInputAndDERBundles() throws {
        guard let sigil = TestSupport.sigilExecutable else { throw XCTSkip("sigil executable not built") }
        let s = try XCTUnwrap(try TestSupport.chainScenarios().first { $0.scenario == "eku-absent-ok" })
        XCTAssertEqual(s.expected, "trusted")
        let dir = TestSupport.fixtures.appendingPathComponent("chains/\(s.scenario)").path
        let options = [
            "--anchors-only", "--kind", s.kind, "--host", s.host ?? "", "--at", String(Int(s.at)),
        ]
        func run(_ args: [String], stdin: String? = nil) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: sigil)
            p.arguments = args + options
            p.standardOutput = Pipe()
            p.standardError = Pipe()
            if let stdin { p.standardInput = FileHandle(forReadingAtPath: stdin) }
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        let leaf = dir + "/leaf.pem"
        let inter = dir + "/intermediates.pem"
        let anchors = dir + "/anchors.pem"
        XCTAssertEqual(try run(["verify", leaf, "--intermediate", inter, "--anchor", anchors]), 0)
        XCTAssertEqual(try run(["verify", "-", "--intermediate", inter, "--anchor", anchors], stdin: leaf), 0)
        // The anchors and intermediates as concatenated DER (several certificates per file).
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-verify-\(getpid())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        func derBundle(_ pem: String, _ name: String, extra: [[UInt8]] = []) throws -> String {
            let certs = try PEM.certificatesDER(in: TestSupport.read(pem)).certificates + extra
            let path = tmp.appendingPathComponent(name).path
            try Data(certs.joined()).write(to: URL(fileURLWithPath: path))
            return path
        }
        let other = try PEM.certificatesDER(in: TestSupport.read(leaf)).certificates
        let derAnchors = try derBundle(anchors, "anchors.der", extra: other)
        let derInter = try derBundle(inter, "inter.der", extra: other)
        XCTAssertEqual(try run(["verify", leaf, "--intermediate", derInter, "--anchor", derAnchors]), 0)
        // A damaged anchor file adds no anchor: untrusted (fail closed).
        let text = try String(contentsOfFile: anchors, encoding: .utf8)
        let damaged = tmp.appendingPathComponent("damaged.pem").path
        try Data((text + "-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n").utf8).write(
            to: URL(fileURLWithPath: damaged))
        XCTAssertEqual(try run(["verify", leaf, "--intermediate", inter, "--anchor", damaged]), 1)
    }

    /// The leaf's file is a bundle (leaf first, then intermediates): read from standard input
    /// ("-") as PEM and as concatenated DER, the bundled intermediate completes the chain
    /// (trusted, as the manifest says); the leaf alone does not (untrusted). An anchor file
    /// given as standard input is read the same way.
    func testBundleFromStandardInput() throws {
        let sigil = try sigilExecutable()
        let s = try XCTUnwrap(try TestSupport.chainScenarios().first { $0.scenario == "eku-absent-ok" })
        XCTAssertEqual(s.expected, "trusted")
        let dir = TestSupport.fixtures.appendingPathComponent("chains/\(s.scenario)").path
        let options = ["--anchors-only", "--kind", s.kind, "--host", s.host ?? "", "--at", String(Int(s.at))]
        let leaf = try TestSupport.read(dir + "/leaf.pem")
        let inter = try TestSupport.read(dir + "/intermediates.pem")
        let anchors = dir + "/anchors.pem"
        let pemBundle = try TestSupport.temporaryFile("bundle.pem", leaf + inter, area: "verify")
        let derBundle = try TestSupport.temporaryFile(
            "bundle.der",
            Array(
                (try PEM.certificatesDER(in: leaf).certificates + PEM.certificatesDER(in: inter).certificates).joined()),
            area: "verify")
        for bundle in [pemBundle, derBundle] {
            let r = try TestSupport.runMeasured(
                sigil, ["verify", "-", "--anchor", anchors] + options, stdinFile: bundle)
            XCTAssertEqual(r.status, 0, "\(bundle): \(r.err)")
        }
        let alone = try TestSupport.runMeasured(
            sigil, ["verify", "-", "--anchor", anchors] + options, stdinFile: dir + "/leaf.pem")
        XCTAssertEqual(alone.status, 1, "the leaf without its intermediate is not trusted")
        let anchorFromStdin = try TestSupport.runMeasured(
            sigil, ["verify", pemBundle, "--anchor", "-"] + options, stdinFile: anchors)
        XCTAssertEqual(anchorFromStdin.status, 0, anchorFromStdin.err)
    }

    /// A 35 MB anchor file (the CA bundle many times over, the chain's root among them) is read
    /// one object at a time: the verdict is the manifest's and the peak RSS stays well under
    /// the file's size (the former whole-file reader held all of it, and more).
    func testLargeAnchorFileWithBoundedMemory() throws {
        let sigil = try sigilExecutable()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time is not installed")
        }
        let s = try XCTUnwrap(try TestSupport.chainScenarios().first { $0.scenario == "eku-absent-ok" })
        let dir = TestSupport.fixtures.appendingPathComponent("chains/\(s.scenario)").path
        let options = ["--anchors-only", "--kind", s.kind, "--host", s.host ?? "", "--at", String(Int(s.at))]
        let ca = try TestSupport.caBundle()
        let copies = max(1, (35 << 20) / ca.count)
        var big: [UInt8] = []
        big.reserveCapacity(ca.count * copies + 4096)
        for i in 0..<copies {
            big += ca
            if i == copies / 2 { big += try TestSupport.read(dir + "/anchors.pem") }
        }
        let file = try TestSupport.temporaryFile("anchors-big.pem", big, area: "verify")
        defer { try? FileManager.default.removeItem(atPath: file) }
        big = []
        let r = try TestSupport.runMeasured(
            sigil,
            ["verify", dir + "/leaf.pem", "--intermediate", dir + "/intermediates.pem", "--anchor", file] + options,
            measure: true)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertLessThan(r.rss, 30 << 10, "peak RSS \(r.rss) KiB for a \((ca.count * copies) >> 20) MiB anchor file")
    }

    /// A directory is not an input: "cannot read", exit 2, at once (the streaming reader used
    /// to report the same read error forever).
    func testDirectoryIsUnreadable() throws {
        let sigil = try sigilExecutable()
        let dir = FileManager.default.temporaryDirectory.path
        for args in [["inspect", "--json", dir], ["pin", dir], ["verify", dir]] {
            let r = try TestSupport.runMeasured(sigil, args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertEqual(r.err, "sigil: cannot read \(dir)\n", "\(args)")
        }
    }
}

extension InspectStreamCLITests {
    /// `--jobs 2` and `--jobs 3` (every thread reads, renders and writes) on the inputs whose
    /// outcome is not a list of good certificates: the same standard output, messages and exit
    /// status as one job — no certificate at all (empty, text, a key only: "no certificate"),
    /// a bad block alone, DER cut short or followed by a cut copy (the DER error ends the
    /// stream), a CRL, and a mix whose third object is malformed (reported as `[3]`, the
    /// certificates and the CRL around it still reported: three lines).
    func testJobsMatchOneJobOnInputsWithErrorsOrNothingToReport() throws {
        let certs = try PEM.certificatesDER(in: try bundle()).certificates
        let cert = PEM.encode(certs[0])
        let der = certs[0]
        let crl = try TestSupport.read(TestSupport.fixtures.appendingPathComponent("revocation/int2.crl.pem").path)
        let bad = "-----BEGIN CERTIFICATE-----\nAA!A\n-----END CERTIFICATE-----\n"
        let key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        let inputs: [(String, [UInt8], status: Int32, lines: Int)] = [
            ("empty.pem", [], 1, 0),
            ("text.txt", Array("hello\n".utf8), 1, 0),
            ("key.pem", Array(key.utf8), 1, 0),
            ("bad.pem", Array(bad.utf8), 1, 0),
            ("short.der", Array(der.prefix(300)), 1, 0),
            ("trailing.der", der + der.prefix(100), 1, 1),
            ("crl.pem", crl, 0, 1),
            ("mixed.pem", Array(cert.utf8) + crl + Array((bad + key + cert).utf8), 1, 3),
        ]
        for (name, bytes, status, lines) in inputs {
            let file = try tempFile(name, bytes)
            let one = try run(["inspect", "--json", file])
            XCTAssertEqual(one.status, status, "\(name): \(one.err)")
            XCTAssertEqual(one.out.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, lines, name)
            for jobs in ["2", "3"] {
                let parallel = try run(["inspect", "--json", "--jobs", jobs, file])
                XCTAssertEqual(parallel.status, one.status, "\(name) --jobs \(jobs)")
                XCTAssertTrue(parallel.out == one.out, "\(name) --jobs \(jobs): standard output differs")
                XCTAssertEqual(parallel.err, one.err, "\(name) --jobs \(jobs)")
            }
            if name == "mixed.pem" { XCTAssertTrue(one.err.contains("[3]"), one.err) }
            if lines == 0 && name != "bad.pem" && name != "short.der" {
                XCTAssertTrue(one.err.contains("no certificate"), "\(name): \(one.err)")
            }
        }
    }
}
