import Foundation
import SigilTestSupport
import XCTest

@testable import Sigil

/// `CleanCheck`: the fast path that skips the lenient walk over a strictly parsed certificate
/// when it proves the walk would find nothing. Whenever it answers, the result must be what
/// the full walk gives (warnings, key summary, extension carrier) — over every certificate of
/// the fixtures, the system roots and x509-limbo, and over single-byte mutations of a few of
/// them (which produce certificates the strict parser still accepts but the walk warns about:
/// the cases the check must hand to the walk).
final class LenientFastPathTests: XCTestCase {
    func corpus() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        var files: [String] = TestSupport.systemRootFiles()
        let enumerator = FileManager.default.enumerator(atPath: TestSupport.fixtures.path)
        while let f = enumerator?.nextObject() as? String {
            if [".pem", ".der", ".crt", ".cer"].contains(where: { f.hasSuffix($0) }) {
                files.append(TestSupport.fixtures.appendingPathComponent(f).path)
            }
        }
        for file in files {
            guard let bytes = try? TestSupport.read(file) else { continue }
            if let blocks = try? PEM.certificatesDER(in: bytes) { out += blocks.certificates }
        }
        if let limbo = try TestSupport.limboSuiteJSON(),
            let object = try JSONSerialization.jsonObject(with: limbo) as? [String: Any],
            let cases = object["testcases"] as? [[String: Any]]
        {
            for c in cases {
                var pems = [c["peer_certificate"] as? String ?? ""]
                pems += c["untrusted_intermediates"] as? [String] ?? []
                pems += c["trusted_certs"] as? [String] ?? []
                for p in pems {
                    if let blocks = try? PEM.certificatesDER(in: Array(p.utf8)) { out += blocks.certificates }
                }
            }
        }
        return out
    }

    /// Fast and full readings of a strictly parsed certificate agree; true when the fast one
    /// answered.
    @discardableResult
    func check(_ strict: Certificate, _ what: String) -> Bool {
        let fast = LenientCertificate.read(strict.der, strict: strict, strictError: nil)
        let full = LenientCertificate.walk(strict.der, strict: strict, strictError: nil)
        XCTAssertEqual(fast.warnings, full.warnings, what)
        XCTAssertEqual(fast.publicKey, full.publicKey, what)
        XCTAssertEqual(fast.extensions, full.extensions, what)
        XCTAssertEqual(fast.extensionCarrier?.der, full.extensionCarrier?.der, what)
        XCTAssertEqual(fast.carrierMap == nil, full.carrierMap == nil, what)
        guard let answer = CleanCheck.summary(strict) else { return false }
        // Answered: the walk indeed found nothing but what the check reports (a zero serial).
        XCTAssertEqual(full.warnings, answer.warnings, what)
        XCTAssertTrue(answer.warnings.allSatisfy { $0.message == "serial number is zero (must be positive)" }, what)
        return true
    }

    func testFastPathAgreesWithTheWalkOverTheCorpora() throws {
        var strictCount = 0
        var fastCount = 0
        var seen = Set<[UInt8]>()
        for der in try corpus() where seen.insert(der).inserted {
            guard let strict = try? Certificate(der: der) else { continue }
            strictCount += 1
            if check(strict, "certificate \(strictCount)") { fastCount += 1 }
        }
        XCTAssertGreaterThan(strictCount, 300)
        // Most real certificates are clean (the point of the fast path).
        XCTAssertGreaterThan(fastCount, strictCount / 2)
    }

    /// The certificates the mutation tests flip bytes of: three fixtures and the first
    /// `systemRoots` system roots.
    func mutationSamples(systemRoots: Int) throws -> [[UInt8]] {
        let samples = ["certs/rsa2048-leaf.der", "certs/p256-intermediate.der", "certs/names-string-types.der"]
            .map { TestSupport.fixtures.appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        var der = try samples.map { try TestSupport.read($0) }
        der += TestSupport.systemRootFiles().prefix(systemRoots).compactMap {
            (try? TestSupport.read($0)).flatMap { try? PEM.certificatesDER(in: $0).certificates.first }
        }
        return der
    }

    func testFastPathAgreesWithTheWalkOnMutations() throws {
        let der = try mutationSamples(systemRoots: 3)
        XCTAssertGreaterThanOrEqual(der.count, 3)
        var accepted = 0
        var handedToWalk = 0
        for original in der {
            for i in 0..<original.count {
                for x: UInt8 in [0x01, 0x80, 0x20] {
                    var m = original
                    m[i] ^= x
                    guard let strict = try? Certificate(der: m) else { continue }
                    accepted += 1
                    if !check(strict, "byte \(i) ^ \(x)") { handedToWalk += 1 }
                }
            }
        }
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(handedToWalk, 0)
    }

    /// What `inspect --json` writes for `der` by the direct path (`CertificateReport.writeClean`
    /// where it applies) and by the report path alone: the bytes, or the error.
    func inspectJSON(_ der: [UInt8], direct: Bool) -> Result<[UInt8], DERError> {
        var w = JSONWriter()
        do {
            try CertificateReport.writeInspectJSON(der: der, now: 1_750_000_000, into: &w, direct: direct)
        } catch {
            XCTAssertEqual(w.count, 0, "an error after writing")
            return .failure(error)
        }
        return .success(w.bytes)
    }

    /// `inspect --json`'s direct path for clean strictly parsed certificates writes what the
    /// report path (checked against the `JSONValue` report in `InspectJSONWriterTests`) writes:
    /// over the corpora, and over single-byte mutations (certificates the strict parser still
    /// accepts whose extension values may not decode: the direct path must hand them over).
    func testDirectInspectJSONMatchesTheReportPath() throws {
        var seen = Set<[UInt8]>()
        var direct = 0
        var compared = 0
        func compare(_ der: [UInt8], _ what: String) {
            let a = inspectJSON(der, direct: true)
            let b = inspectJSON(der, direct: false)
            switch (a, b) {
            case (.success(let x), .success(let y)):
                XCTAssertEqual(String(decoding: x, as: UTF8.self), String(decoding: y, as: UTF8.self), what)
            case (.failure(let x), .failure(let y)): XCTAssertEqual(x, y, what)
            default: XCTFail("\(what): \(a) vs \(b)")
            }
            compared += 1
            if let strict = try? Certificate(der: der), CleanCheck.summary(strict) != nil { direct += 1 }
        }
        let corpus = try corpus()
        for der in corpus where seen.insert(der).inserted { compare(der, "certificate \(compared)") }
        XCTAssertGreaterThan(direct, 300)
        let der = try mutationSamples(systemRoots: 2)
        var handedOver = 0
        for original in der {
            for i in 0..<original.count {
                for x: UInt8 in [0x01, 0x80] {
                    var m = original
                    m[i] ^= x
                    guard let strict = try? Certificate(der: m) else { continue }
                    var w = JSONWriter()
                    if let (key, warnings) = CleanCheck.summary(strict),
                        !CertificateReport.writeClean(strict, key: key, warnings: warnings, now: 0, into: &w)
                    {
                        XCTAssertEqual(w.count, 0)
                        handedOver += 1
                    }
                    compare(m, "byte \(i) ^ \(x)")
                }
            }
        }
        XCTAssertGreaterThan(compared, 1000)
        XCTAssertGreaterThan(handedOver, 0)
    }
}
