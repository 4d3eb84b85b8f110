import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
import XCTest

/// RFC 5280 §7.1: RDNs match as sets ("for each naming attribute in RDN1 there is a matching
/// naming attribute in RDN2"). Found by review (2026-12-03): an excluded directoryName subtree
/// `O=Evil+OU=xxxxxx` did not exclude a subject whose RDN holds the same attributes with `O` as a
/// BMPString — DER sorts the SET by encoding, so the attributes come in the other order — and
/// Sigil trusted the chain (OpenSSL: error 48 excluded subtree violation). Fixtures:
/// `Fixtures/names-review/` from `Fixtures/scripts/names-review/t_dn2.py` (Python `cryptography`;
/// the DER below is what it printed).
final class NameConstraintRDNOrderTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("names-review")

    func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    /// The case's leaf against its root alone, at the generator's time (2023-11-14).
    func verify(_ name: String, purpose: VerificationPurpose) throws -> TrustResult {
        let d = Self.dir.appendingPathComponent(name)
        let root = try Certificate.all(from: TestSupport.read(d.appendingPathComponent("root.pem").path))[0]
        let leaf = try Certificate.all(from: TestSupport.read(d.appendingPathComponent("leaf.pem").path))[0]
        var store = TrustStore()
        store.add(root)
        return ChainVerifier(anchors: store).verify(
            leaf: leaf, intermediates: [], options: VerificationOptions(purpose: purpose, time: 1_700_000_000))
    }

    func testMultiValuedRDNsMatchInAnyOrder() throws {
        // O=Evil (UTF8) + OU=xxxxxx (UTF8), in that DER order.
        let constraint = try DistinguishedName(
            der: hex("301e311c300b060355040a0c044576696c300d060355040b0c06787878787878"))
        // OU=xxxxxx (UTF8) + O=Evil (BMPString): the DER order is OU first.
        let rdn = try DistinguishedName(
            der: hex("3022" + "3120300d060355040b0c06787878787878300f060355040a1e08004500760069006c"))
        XCTAssertTrue(constraint.matchesForChaining(rdn))
        XCTAssertTrue(rdn.matchesForChaining(constraint))
        // The index key and the raw comparison (self-issued detection) agree with the match.
        XCTAssertEqual(constraint.chainingKey, rdn.chainingKey)
        XCTAssertTrue(constraint.matchesForChainingRaw(rdn))
        XCTAssertTrue(rdn.matchesForChainingRaw(constraint))
        // Not the same set: one attribute differs, or one is missing.
        let other = try DistinguishedName(
            der: hex("3022" + "3120300d060355040b0c06787878787879300f060355040a1e08004500760069006c"))
        XCTAssertFalse(constraint.matchesForChaining(other))
        XCTAssertFalse(constraint.matchesForChainingRaw(other))
        XCTAssertNotEqual(constraint.chainingKey, other.chainingKey)
        let fewer = try DistinguishedName(der: hex("3011" + "310f300d060355040b0c06787878787878"))
        XCTAssertFalse(constraint.matchesForChaining(fewer))
        // Two attributes of one type: each must be taken once (OU=a+OU=a is not OU=a+OU=b).
        let ab = try DistinguishedName(der: hex("3016" + "3114300806035504" + "0b0c0161" + "300806035504" + "0b0c0162"))
        let ba = try DistinguishedName(der: hex("3016" + "3114300806035504" + "0b0c0162" + "300806035504" + "0b0c0161"))
        let aa = try DistinguishedName(der: hex("3016" + "3114300806035504" + "0b0c0161" + "300806035504" + "0b0c0161"))
        XCTAssertTrue(ab.matchesForChaining(ba))
        XCTAssertFalse(ab.matchesForChaining(aa))
        XCTAssertFalse(aa.matchesForChaining(ab))
    }

    func testExcludedSubtreeWithAMultiValuedRDNExcludesEitherOrder() throws {
        for (name, excluded) in [("dn-mv-bmp-order", true), ("dn-mv-ou-order", true), ("dn-mv-control", true)] {
            let result = try verify(name, purpose: .server(host: "www.example.com"))
            XCTAssertEqual(result.isTrusted, !excluded, "\(name): \(result)")
            if excluded { XCTAssertEqual(result.failures.first?.kind, .nameConstraintViolated, "\(name): \(result)") }
        }
    }

    /// RFC 9598 §6: rfc822Name constraints cover SmtpUTF8Mailbox otherNames. A leaf of a CA
    /// permitted only `example.com` (or excluded from `evil.com`) that carries
    /// SmtpUTF8Mailbox `x@evil.com` beside `a@example.com` was trusted; Sigil does not compare
    /// such mailboxes, so it fails closed (OpenSSL: errors 47 / 48). Fixtures from
    /// `Fixtures/scripts/names-review/t_smtputf8.py`.
    func testSmtpUTF8MailboxUnderAnRFC822ConstraintFailsClosed() throws {
        for name in ["em-p-smtputf8", "em-e-smtputf8"] {
            let result = try verify(name, purpose: .client)
            XCTAssertEqual(result.failures.first?.kind, .nameConstraintUnsupported, "\(name): \(result)")
        }
    }

    /// RFC 5280 §7.1 compares directory strings after RFC 4518 StringPrep; Sigil folds printable
    /// ASCII only. Found by review (2026-12-03): an excluded subtree `O=évil corp` did not
    /// exclude `O=ÉVIL CORP`, a no-break or zero-width space, or decomposed accents (nor
    /// `O=Evil Corp` fullwidth letters or a tab) — Sigil, like OpenSSL, trusted them. Now a
    /// difference that lies only in text beyond printable ASCII is unknown, and fails closed
    /// (`nameConstraintUnsupported`) under an excluded subtree. Fixtures and expected answers
    /// from `Fixtures/scripts/names-review/t_dn_stringprep.py`, which computes StringPrep
    /// equality with Python's unicodedata and checks that no StringPrep-equal name is expected
    /// trusted.
    func testExcludedDirectoryNameFailsClosedWhereOnlyStringPrepCouldTell() throws {
        let manifest = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.dir.appendingPathComponent("stringprep.json"))) as? [String: [String: Any]])
        XCTAssertEqual(manifest.count, 12)
        for (name, entry) in manifest.sorted(by: { $0.key < $1.key }) {
            let expect = try XCTUnwrap(entry["expect"] as? String, name)
            let prepEqual = try XCTUnwrap(entry["prepEqual"] as? Bool, name)
            let result = try verify(name, purpose: .server(host: "www.example.com"))
            if prepEqual { XCTAssertFalse(result.isTrusted, "\(name): equal under StringPrep, trusted") }
            switch expect {
            case "trusted": XCTAssertTrue(result.isTrusted, "\(name): \(result)")
            case "violated": XCTAssertEqual(result.failures.first?.kind, .nameConstraintViolated, "\(name): \(result)")
            default: XCTAssertEqual(result.failures.first?.kind, .nameConstraintUnsupported, "\(name): \(result)")
            }
        }
    }

    /// The same multi-valued RDN spelt two ways across one chaining link (the intermediate's
    /// subject with O as UTF8String, the leaf's issuer field with O as BMPString: DER sorts the
    /// SET the other way). Names matched as sets, but the index key hashed the attributes in
    /// encoding order, so the intermediate was never found (unknown issuer; OpenSSL verifies the
    /// chain). Fixture from `Fixtures/scripts/names-review/t_dn_chain.py`.
    func testMultiValuedRDNSpeltTwoWaysStillChains() throws {
        let d = Self.dir.appendingPathComponent("dn-mv-chain")
        func load(_ f: String) throws -> [Certificate] {
            try Certificate.all(from: TestSupport.read(d.appendingPathComponent(f).path))
        }
        var store = TrustStore()
        store.add(try load("root.pem")[0])
        let result = ChainVerifier(anchors: store).verify(
            leaf: try load("leaf.pem")[0], intermediates: try load("inter.pem"),
            options: VerificationOptions(purpose: .server(host: "www.example.com"), time: 1_700_000_000))
        XCTAssertTrue(result.isTrusted, "\(result)")
    }
}
