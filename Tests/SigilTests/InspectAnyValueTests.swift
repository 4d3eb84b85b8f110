// `sigil inspect` and trust on Fixtures/any-values/ (issue 21, milestone 2; made by
// Fixtures/scripts/gen_any_values.py: rsa2048-leaf with one edit, re-signed by the
// rsa2048-intermediate key). The inspector must show every one of them, warn about what the
// strict parser refuses (clause and offset) and about a string of another type than X.520 /
// RFC 5280 names; nothing it shows may carry a strict Certificate the strict parser refused;
// and the chain verifier trusts exactly the ones whose every field is valid.

import Foundation
@_spi(SigilInternal) import Sigil
import SigilDER
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import SigilX509
import XCTest

final class InspectAnyValueTests: XCTestCase {
    struct Expected: Decodable {
        let kind: String
        let offset: Int
    }

    struct Entry: Decodable {
        let file: String
        let `where`: String
        let sigil: Expected?
        let inspectWarns: String?

        enum CodingKeys: String, CodingKey { case file, `where`, sigil, inspectWarns }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            file = try c.decode(String.self, forKey: .file)
            `where` = try c.decode(String.self, forKey: .where)
            sigil = try? c.decode(Expected.self, forKey: .sigil)  // "accept" otherwise
            inspectWarns = try c.decodeIfPresent(String.self, forKey: .inspectWarns)
        }
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("any-values")

    func entries() throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
    }

    func bytes(_ name: String) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(name).path) }

    func testInspectShowsEveryOneAndWarnsWhereTheStrictParserRefuses() throws {
        for e in try entries() {
            let der = try bytes(e.file)
            let cert = try LenientCertificate(der: der)
            var report = CertificateReport(cert, now: 0)
            let text = report.text(sha256: nil, spkiSha256: nil)
            XCTAssertTrue(text.contains("leaf.rsa2048.sigil.test"), e.file)
            if e.where == "parse", let x = e.sigil {
                XCTAssertNil(cert.strictCertificate, e.file)
                XCTAssertEqual(cert.strictError.map { "\($0.kind)" }, x.kind, e.file)
                // A warning at the offending offset (the value, or the octet inside it).
                XCTAssertTrue(
                    cert.warnings.contains { $0.offset == x.offset }, "\(e.file): \(cert.warnings) lack \(x.offset)")
                XCTAssertTrue(text.contains("REFUSED"), e.file)
            } else {
                XCTAssertNotNil(cert.strictCertificate, e.file)
            }
            if let clause = e.inspectWarns {
                XCTAssertTrue(cert.warnings.contains { $0.clause == clause }, "\(e.file): \(cert.warnings)")
                XCTAssertTrue(text.contains(clause), e.file)
            }
            if e.sigil == nil && e.inspectWarns == nil {
                XCTAssertEqual(cert.warnings, [], e.file)
            }
        }
    }

    /// The fuzz finding: shown with the attribute as the hex of its encoding, two warnings
    /// (the value is not a string; its contents are not TLVs), never with a strict certificate.
    func testTheFindingIsShownAndWarned() throws {
        let cert = try LenientCertificate(der: try bytes("name-o-private16-constructed.der"))
        XCTAssertNil(cert.strictCertificate)
        XCTAssertEqual(cert.strictError, DERError(.invalidName, at: 184))
        XCTAssertEqual(
            cert.subject?.rfc4514String, "CN=leaf.rsa2048.sigil.test,O=\\#f00e536967696c205465737420504b49,C=US")
        XCTAssertEqual(cert.warnings.map(\.clause).sorted(), ["RFC 5280 §4.1.2.4", "X.690 §8.1.2.5"])
        XCTAssertEqual(cert.warnings.map(\.offset).sorted(), [184, 186])
    }

    func testUTF8StringCountryIsAcceptedWithAWarning() throws {
        let der = try bytes("name-c-utf8string.der")
        let strict = try Certificate(der: der)
        XCTAssertEqual(strict.subject.values(of: OID.countryName), ["US"])
        let cert = LenientCertificate(strict)
        XCTAssertEqual(cert.warnings.count, 1)
        XCTAssertEqual(cert.warnings.first?.clause, "RFC 5280 Appendix A.1")
        XCTAssertTrue(cert.warnings.first?.message.contains("UTF8String") == true)
    }

    /// The rsa2048 chain: the certificates whose fields are all valid are trusted (so the edit
    /// and the re-signing are the only change); the ones refused in an extension are not.
    func testChainVerdicts() throws {
        func fixture(_ name: String) throws -> Certificate {
            try Certificate(
                der: TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/\(name).der").path))
        }
        var anchors = TrustStore()
        anchors.add(try fixture("rsa2048-root"))
        let intermediate = try fixture("rsa2048-intermediate")
        let options = VerificationOptions(purpose: .server(host: "leaf.rsa2048.sigil.test"), time: 1_893_456_000)
        var checked = 0
        for e in try entries() where e.where != "parse" || e.sigil == nil {
            let leaf = try Certificate(der: try bytes(e.file))
            let result = ChainVerifier(anchors: anchors).verify(
                leaf: leaf, intermediates: [intermediate], options: options)
            if e.sigil == nil {
                XCTAssertTrue(result.isTrusted, "\(e.file): \(result.failures)")
            } else {
                XCTAssertFalse(result.isTrusted, e.file)
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 6)
    }
}
