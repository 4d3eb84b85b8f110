import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// `sigil inspect` on odd certificates (Fixtures/odd/, made by Fixtures/scripts/gen_odd.py):
/// every one is read, each deliberate violation is named in a warning with an offset inside the
/// certificate, and the fields agree with the reference parser recorded in the manifest
/// (Python `cryptography`, else `openssl x509`; see Fixtures/scripts/reference_fields.py).
/// The strict parser still refuses the invalid ones, and `sigil verify` never trusts them.
final class InspectOddTests: XCTestCase {
    struct Manifest: Decodable {
        let ca: String
        let verifyAt: Int
        let certificates: [Entry]
    }

    struct Entry: Decodable {
        let file: String
        let description: String
        let violations: [String]
        let strictRefuses: Bool
        let expected: [String: JSONAny]
        let reference: [String: JSONAny]
        let referenceSources: [String: String]
        let opensslReads: Bool
    }

    /// Any JSON value, compared through its canonical serialisation.
    struct JSONAny: Decodable, Equatable {
        let value: Any
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                value = NSNull()
            } else if let b = try? c.decode(Bool.self) {
                value = b
            } else if let i = try? c.decode(Int.self) {
                value = i
            } else if let s = try? c.decode(String.self) {
                value = s
            } else if let a = try? c.decode([JSONAny].self) {
                value = a.map(\.value)
            } else {
                value = try c.decode([String: JSONAny].self).mapValues(\.value)
            }
        }
        static func == (a: JSONAny, b: JSONAny) -> Bool { canonical(a.value) == canonical(b.value) }
    }

    static func canonical(_ v: Any?) -> String {
        guard let v else { return "absent" }
        if v is NSNull { return "null" }
        let data = try! JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("odd")

    /// Sigil prints whole octets (as `openssl x509 -serial`), the references the value without
    /// leading zero digits: compare the numbers.
    static func serial(_ v: Any?) -> String? {
        guard let s = v as? String else { return nil }
        let negative = s.hasPrefix("-")
        let digits = s.drop { $0 == "-" }.drop { $0 == "0" }
        return (negative ? "-" : "") + (digits.isEmpty ? "0" : String(digits))
    }

    func manifest() throws -> Manifest {
        try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
    }

    func der(_ e: Entry) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(e.file).path) }

    /// The report as `sigil inspect --json` prints it, parsed back.
    func report(_ bytes: [UInt8]) throws -> (json: [String: Any], report: CertificateReport) {
        let cert = try LenientCertificate(der: bytes)
        var report = CertificateReport(cert, now: 0)
        let json = report.json(
            sha256: Fingerprint.sha256Hex(cert.der), spkiSha256: Fingerprint.sha256Hex(cert.subjectPublicKeyInfo))
        let object = try JSONSerialization.jsonObject(with: Data(json.serialized().utf8)) as! [String: Any]
        return (object, report)
    }

    func testEveryOddCertificateIsReadWithItsViolationsNamed() throws {
        let m = try manifest()
        XCTAssertGreaterThanOrEqual(m.certificates.count, 30)
        for e in m.certificates {
            let bytes = try der(e)
            let (json, report) = try report(bytes)
            let warnings = report.warnings
            for clause in e.violations {
                XCTAssertTrue(
                    warnings.contains { $0.clause.hasPrefix(clause) },
                    "\(e.file): no warning for \(clause); got \(warnings)")
            }
            if e.violations.isEmpty {
                XCTAssertEqual(warnings, [], e.file)
            }
            for w in warnings {
                XCTAssertTrue(w.offset >= 0 && w.offset < bytes.count, "\(e.file): \(w) outside the certificate")
            }
            // The JSON warnings array mirrors them.
            let jw = json["warnings"] as! [[String: Any]]
            XCTAssertEqual(jw.count, warnings.count, e.file)
            XCTAssertEqual(json["parsedStrictly"] as? Bool, !e.strictRefuses, e.file)
        }
    }

    func testStrictParserStillRefusesTheInvalidOnes() throws {
        for e in try manifest().certificates {
            let bytes = try der(e)
            if e.strictRefuses {
                XCTAssertThrowsError(try Certificate(der: bytes), e.file)
                XCTAssertNil(try LenientCertificate(der: bytes).strictCertificate, e.file)
            } else {
                XCTAssertNoThrow(try Certificate(der: bytes), e.file)
            }
        }
    }

    /// Fields against the reference parser (pyca, else openssl) recorded by the generator.
    func testFieldsAgreeWithReferenceParser() throws {
        var compared = 0
        for e in try manifest().certificates where e.opensslReads {
            let (json, _) = try report(try der(e))
            let ref = e.reference.mapValues(\.value)
            func check(_ key: String, _ mine: Any?, _ theirs: Any?) {
                guard let theirs, !(theirs is NSNull) else { return }
                XCTAssertEqual(
                    Self.canonical(mine), Self.canonical(theirs),
                    "\(e.file): \(key) (reference: \(e.referenceSources[key] ?? "?"))")
                compared += 1
            }
            check("serial", Self.serial(json["serial"]), Self.serial(ref["serial"]))
            for k in ["subject", "issuer", "notBefore", "notAfter", "signatureAlgorithm", "extensions", "version"] {
                check(k, json[k], ref[k])
            }
            let key = json["publicKey"] as! [String: Any]
            if let rk = ref["publicKey"] as? [String: Any] {
                check("publicKey", key["algorithm"], rk["algorithm"])
                check("publicKey", key["bits"], rk["bits"])
                check("publicKey", key["curve"], rk["curve"])
            }
            if let rs = ref["san"] as? [String: Any] {
                let s = json["subjectAltNames"] as! [String: Any]
                for k in ["dns", "ip", "email", "uri"] { check("san", s[k], rs[k]) }
            }
        }
        XCTAssertGreaterThan(compared, 300)
    }

    /// Values the generator put in by construction (the issue's cases).
    func testIssueCases() throws {
        for e in try manifest().certificates {
            let (json, _) = try report(try der(e))
            let x = e.expected.mapValues(\.value)
            if let serial = x["serial"] {
                XCTAssertEqual(Self.serial(json["serial"]), Self.serial(serial), "\(e.file): serial")
            }
            for k in ["version", "notBefore", "notAfter", "signatureAlgorithm", "tbsSignatureAlgorithm"]
            where x[k] != nil {
                XCTAssertEqual(Self.canonical(json[k]), Self.canonical(x[k]), "\(e.file): \(k)")
            }
            if let pk = x["publicKey"] as? [String: Any] {
                let mine = json["publicKey"] as! [String: Any]
                for k in ["algorithm", "bits", "curve", "parameters"] {
                    XCTAssertEqual(Self.canonical(mine[k]), Self.canonical(pk[k]), "\(e.file): publicKey.\(k)")
                }
            }
            if let san = x["san"] as? [String: Any] {
                let mine = json["subjectAltNames"] as! [String: Any]
                for k in ["dns", "ip", "email", "uri"] {
                    XCTAssertEqual(Self.canonical(mine[k]), Self.canonical(san[k]), "\(e.file): san.\(k)")
                }
                let bad = (mine["malformed"] as? [[String: Any]] ?? []).map { $0["value"] as? String ?? "" }
                XCTAssertEqual(bad, x["sanMalformed"] as? [String] ?? [], "\(e.file): malformed SAN entries")
            }
        }
    }

    /// A certificate only the lenient reader accepts offers no strict `Certificate`, and the
    /// strict path (what `verify` and every trust decision use) throws on it.
    func testLenientOnlyCertificatesAreNeverTrusted() throws {
        let m = try manifest()
        let caBytes = try TestSupport.read(Self.dir.appendingPathComponent(m.ca).path)
        let ca = try Certificate.all(from: caBytes)[0]
        var store = TrustStore()
        store.add(ca)
        let verifier = ChainVerifier(anchors: store)
        for e in m.certificates {
            let bytes = try der(e)
            guard let leaf = try? Certificate(der: bytes) else {
                XCTAssertTrue(e.strictRefuses, e.file)
                continue
            }
            // Server policy: the leaf key itself is judged (BR §6.1.5); SAN hosts as generated.
            let host = e.file.hasPrefix("san-utf8") ? "a.odd.sigil.test" : "odd.sigil.test"
            let options = VerificationOptions(purpose: .server(host: host), time: Double(m.verifyAt))
            let result = verifier.verify(leaf: leaf, intermediates: [], options: options)
            let trusted = result.isTrusted
            switch e.file {
            case "control.der": XCTAssertTrue(trusted, "the control certificate must verify: \(result)")
            case _ where e.file.hasPrefix("dsa-") || e.file.hasPrefix("ec-explicit-") || e.file.hasPrefix("san-utf8"):
                XCTAssertFalse(trusted, "\(e.file) must not be trusted")
            default: break
            }
        }
    }
}

/// The CLI: `inspect` reads odd certificates (exit 0, Warnings section, `warnings` in JSON, text
/// aligned); `verify` refuses every certificate the strict parser refuses.
final class InspectOddCLITests: XCTestCase {
    func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let r = try runSigil(args)
        return (r.status, r.out, r.err)
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("odd")

    func entries() throws -> [[String: Any]] {
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
            as! [String: Any]
        return m["certificates"] as! [[String: Any]]
    }

    func testInspectReadsEveryOddCertificate() throws {
        for e in try entries() {
            let path = Self.dir.appendingPathComponent(e["file"] as! String).path
            let text = try run(["inspect", path])
            XCTAssertEqual(text.status, 0, "\(path): \(text.err)")
            let violations = e["violations"] as! [String]
            if !violations.isEmpty {
                XCTAssertTrue(text.out.contains("  Warnings ("), path)
                for v in violations { XCTAssertTrue(text.out.contains(v), "\(path): \(v) not in\n\(text.out)") }
            }
            let json = try run(["inspect", "--json", path])
            XCTAssertEqual(json.status, 0, path)
            let o = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [String: Any]
            let w = o["warnings"] as! [[String: Any]]
            for x in w {
                XCTAssertNotNil(x["clause"] as? String)
                XCTAssertNotNil(x["offset"] as? Int)
                XCTAssertNotNil(x["message"] as? String)
            }
            XCTAssertEqual(w.isEmpty, violations.isEmpty, path)
        }
    }

    func testVerifyRefusesWhatTheStrictParserRefuses() throws {
        let m =
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
            as! [String: Any]
        let at = String(m["verifyAt"] as! Int)
        let ca = Self.dir.appendingPathComponent(m["ca"] as! String).path
        for e in try entries() {
            let path = Self.dir.appendingPathComponent(e["file"] as! String).path
            let r = try run(["verify", path, "--anchor", ca, "--anchors-only", "--kind", "basic", "--at", at])
            if e["strictRefuses"] as! Bool {
                XCTAssertNotEqual(r.status, 0, "\(path) must not verify")
            }
            if e["file"] as! String == "control.der" {
                XCTAssertEqual(r.status, 0, "control must verify: \(r.out) \(r.err)")
            }
        }
    }

    /// Long names and many SANs: labels in one column, values wrapped under the value column,
    /// no line much longer than 100 columns.
    func testTextLayoutForLongNamesAndManySANs() throws {
        let path = Self.dir.appendingPathComponent("many-sans-long-name.der").path
        let r = try run(["inspect", path])
        XCTAssertEqual(r.status, 0)
        let lines = r.out.split(separator: "\n").map(String.init).dropFirst().filter {
            !$0.isEmpty && !$0.hasPrefix("  Warnings") && !$0.hasPrefix("    - ")
        }
        let subject = lines.first { $0.hasPrefix("  Subject:") }!
        let valueColumn = subject.count - subject.dropFirst("  Subject:".count).drop(while: { $0 == " " }).count
        var continuation = 0
        for line in lines {
            XCTAssertLessThanOrEqual(line.count, 100, line)
            let indent = line.prefix(while: { $0 == " " }).count
            if indent == 2 {
                let colon = line.firstIndex(of: ":")!
                let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
                XCTAssertEqual(line.count - value.count, valueColumn, "value not in the common column: \(line)")
            } else {
                continuation += 1
                XCTAssertEqual(indent, valueColumn, "continuation not aligned: \(line)")
            }
        }
        XCTAssertGreaterThan(continuation, 5)
        XCTAssertTrue(r.out.contains("DNS:host59.many.odd.sigil.test"))
    }
}

/// The lenient reader on hostile or truncated input: typed errors, never a crash; bounded work.
final class LenientReaderRobustnessTests: XCTestCase {
    func testNotACertificateIsATypedError() {
        XCTAssertThrowsError(try LenientCertificate(der: [])) { XCTAssertEqual(($0 as? DERError)?.kind, .truncated) }
        XCTAssertThrowsError(try LenientCertificate(der: [0x30, 0x00])) { XCTAssertNotNil($0 as? DERError) }
        XCTAssertThrowsError(try LenientCertificate(der: [0x02, 0x01, 0x05])) {
            XCTAssertEqual(($0 as? DERError)?.kind, .unexpectedTag)
        }
        // Indefinite length on a primitive value (X.690 §8.1.3.2 forbids it even in BER).
        XCTAssertThrowsError(try LenientCertificate(der: [0x30, 0x80, 0x02, 0x80, 0x00, 0x00])) {
            XCTAssertEqual(($0 as? DERError)?.kind, .indefiniteLength)
        }
        XCTAssertThrowsError(try LenientCertificate(der: [UInt8](repeating: 0x30, count: Certificate.maximumSize + 1)))
        {
            XCTAssertEqual(($0 as? DERError)?.kind, .tooLarge)
        }
    }

    func testDeepNestingIsRefused() {
        // 100 nested indefinite-length SEQUENCEs: past the lenient reader's depth limit (64).
        let der =
            (0..<100).flatMap { _ in [0x30, 0x80] as [UInt8] } + (0..<100).flatMap { _ in [0x00, 0x00] as [UInt8] }
        XCTAssertThrowsError(try LenientCertificate(der: der)) {
            XCTAssertEqual(($0 as? DERError)?.kind, .nestingTooDeep)
        }
    }

    /// Every prefix and every single-byte change of an odd certificate: read or refused with a
    /// typed error, warnings inside the input, reports rendered.
    func testTruncationsAndBitFlipsOfAnOddCertificate() throws {
        let bytes = try TestSupport.read(TestSupport.fixtures.appendingPathComponent("odd/indefinite-length.der").path)
        var read = 0
        for n in stride(from: 0, through: bytes.count, by: 7) {
            if let c = try? LenientCertificate(der: Array(bytes.prefix(n))) {
                read += 1
                render(c, n)
            }
        }
        for i in stride(from: 0, to: bytes.count, by: 3) {
            var b = bytes
            b[i] ^= 0x41
            if let c = try? LenientCertificate(der: b) {
                read += 1
                render(c, b.count)
            }
        }
        XCTAssertGreaterThan(read, 10)
    }

    func render(_ c: LenientCertificate, _ count: Int) {
        var r = CertificateReport(c, now: 0)
        _ = r.text(sha256: nil, spkiSha256: nil)
        _ = r.json(sha256: nil, spkiSha256: nil).serialized()
        for w in r.warnings { XCTAssertTrue(w.offset >= 0 && w.offset <= count, "\(w)") }
    }
}
