import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

/// Strict DER in ANY-typed fields and string values for string-typed attributes (issue 21,
/// milestone 2). The certificates are `Fixtures/any-values/` (made by
/// `Fixtures/scripts/gen_any_values.py`, which computes each expected kind and offset from its
/// edit and records what libcrypto's d2i_X509 / X509_get_ext_d2i and Python `cryptography`
/// make of it).
final class AnyValueFixtureTests: XCTestCase {
    struct Verdict: Decodable {
        let reads: Bool?
        let error: String?
    }

    struct Expected: Decodable {
        let kind: String
        let offset: Int
    }

    struct Entry: Decodable {
        let file: String
        let description: String
        let sigil: Expected?
        let `where`: String
        let clause: String
        let openssl: Verdict
        let pyca: Verdict

        enum CodingKeys: String, CodingKey { case file, description, sigil, `where`, clause, openssl, pyca }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            file = try c.decode(String.self, forKey: .file)
            description = try c.decode(String.self, forKey: .description)
            // "accept", or {kind, offset}
            sigil = try? c.decode(Expected.self, forKey: .sigil)
            `where` = try c.decode(String.self, forKey: .where)
            clause = try c.decode(String.self, forKey: .clause)
            openssl = try c.decode(Verdict.self, forKey: .openssl)
            pyca = try c.decode(Verdict.self, forKey: .pyca)
        }
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("any-values")

    func entries() throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
    }

    func bytes(_ e: Entry) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(e.file).path) }

    func testEveryFixtureGetsTheVerdictOfItsClause() throws {
        let all = try entries()
        XCTAssertGreaterThanOrEqual(all.count, 12)
        for e in all {
            let der = try bytes(e)
            if e.where == "parse", let x = e.sigil {
                // Refused by the parser itself: no Certificate value exists to be trusted.
                XCTAssertThrowsError(try Certificate(der: der), e.file) { error in
                    XCTAssertEqual((error as? DERError).map { "\($0.kind)" }, x.kind, "\(e.file): \(e.clause)")
                    XCTAssertEqual((error as? DERError)?.offset, x.offset, "\(e.file): \(e.description)")
                }
                continue
            }
            let cert: Certificate
            do { cert = try Certificate(der: der) } catch {
                XCTFail("\(e.file): \(error) — \(e.description)")
                continue
            }
            if let x = e.sigil {
                // Extension contents are decoded on demand; the strict decode refuses them (and
                // the trust layer calls it before using any extension).
                XCTAssertThrowsError(try cert.validateExtensions(), e.file) { error in
                    XCTAssertEqual((error as? DERError).map { "\($0.kind)" }, x.kind, "\(e.file): \(e.clause)")
                    XCTAssertEqual((error as? DERError)?.offset, x.offset, "\(e.file): \(e.description)")
                }
            } else {
                XCTAssertNoThrow(try cert.validateExtensions(), e.file)
            }
        }
    }

    /// The Name cases are refused by OpenSSL's d2i_X509 and by pyca too (recorded by the
    /// generator): Sigil is no longer the only one to accept them.
    func testRefusedNamesAreRefusedByOpenSSLAndPyca() throws {
        for e in try entries() where e.file.hasPrefix("name-") && e.sigil != nil {
            XCTAssertEqual(e.openssl.reads, false, e.file)
            XCTAssertEqual(e.pyca.reads, false, e.file)
        }
        // The fuzz finding in particular: OpenSSL "mstring not universal".
        let finding = try entries().first { $0.file == "name-o-private16-constructed.der" }
        XCTAssertTrue(finding?.openssl.error?.contains("mstring not universal") == true)
    }

    /// The accepted ones are read by OpenSSL (a UTF8String countryName also by pyca).
    func testAcceptedOnesAreReadByOpenSSL() throws {
        for e in try entries() where e.sigil == nil {
            XCTAssertEqual(e.openssl.reads, true, e.file)
        }
    }

    func testTheFindingWasAcceptedOnlyForItsANYValue() throws {
        // Same certificate with the attribute's tag back to UTF8String (0x0c): accepted. So the
        // refusal is the value's tag [PRIVATE 16] constructed (0xf0), nothing else.
        let e = try entries().first { $0.file == "name-o-private16-constructed.der" }!
        var der = try bytes(e)
        XCTAssertEqual(der[e.sigil!.offset], 0xF0)
        der[e.sigil!.offset] = 0x0C
        let cert = try Certificate(der: der)
        XCTAssertEqual(cert.subject.values(of: OID.organizationName), ["Sigil Test PKI"])
    }
}

/// Names built by hand: string-typed attributes take strings; other types take any strict DER.
final class AttributeValueTests: XCTestCase {
    /// `SEQUENCE { SET { SEQUENCE { OID type, value } } }` with minimal short lengths.
    func name(type: [UInt8], value: [UInt8]) -> [UInt8] {
        let atv = [0x30, UInt8(2 + type.count + value.count), 0x06, UInt8(type.count)] + type + value
        let set = [0x31, UInt8(atv.count)] + atv
        return [0x30, UInt8(set.count)] + set
    }

    /// The offset of the value in `name(type:value:)`: 2 + 2 + 2 + 2 + type.count.
    func valueOffset(_ type: [UInt8]) -> Int { 8 + type.count }

    func refuses(_ der: [UInt8], _ kind: DERError.Kind, at offset: Int, _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try DistinguishedName(der: der), message, line: line) { error in
            XCTAssertEqual((error as? DERError)?.kind, kind, message, line: line)
            XCTAssertEqual((error as? DERError)?.offset, offset, message, line: line)
        }
    }

    let unknown: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03, 0x09, 0x07]  // 1.3.6.1.4.1.55555.9.7

    func testStringTypedAttributesRefuseNonStringValues() {
        // X.520 / RFC 5280 Appendix A.1: these types are (Directory|Printable|IA5)String.
        let cases: [([UInt8], String)] = [
            (OID.commonName, "CN"), (OID.organizationName, "O"), (OID.countryName, "C"),
            (OID.organizationalUnitName, "OU"), (OID.serialNumber, "serialNumber"),
            (OID.domainComponent, "DC"), (OID.emailAddress, "emailAddress"), (OID.userID, "UID"),
            (OID.jurisdictionCountry, "jurisdictionC"), (OID.organizationIdentifier, "organizationIdentifier"),
            (OID.givenName, "givenName"), (OID.pseudonym, "pseudonym"), (OID.postalCode, "postalCode"),
        ]
        let nonStrings: [([UInt8], String)] = [
            ([0x02, 0x01, 0x05], "INTEGER 5"),
            ([0x05, 0x00], "NULL"),
            ([0x30, 0x03, 0x0C, 0x01, 0x78], "SEQUENCE { UTF8String }"),
            ([0xF0, 0x03, 0x0C, 0x01, 0x78], "[PRIVATE 16] constructed around a UTF8String"),
            ([0x15, 0x01, 0x78], "VideotexString"),
            ([0x1B, 0x01, 0x78], "GeneralString"),
            ([0x04, 0x01, 0x78], "OCTET STRING"),
            ([0x2C, 0x03, 0x04, 0x01, 0x78], "constructed UTF8String (X.690 §10.2)"),
        ]
        for (type, label) in cases {
            XCTAssertNotNil(AttributeSyntax(type: type), label)
            for (value, what) in nonStrings {
                refuses(name(type: type, value: value), .invalidName, at: valueOffset(type), "\(label) = \(what)")
            }
        }
    }

    func testStringTypedAttributesTakeAnyStringType() throws {
        // The string type is not required to be the one the RFC names (OpenSSL and pyca agree).
        let values: [[UInt8]] = [
            [0x0C, 0x02, 0x55, 0x53],  // UTF8String "US"
            [0x13, 0x02, 0x55, 0x53],  // PrintableString
            [0x16, 0x02, 0x55, 0x53],  // IA5String
            [0x1E, 0x04, 0x00, 0x55, 0x00, 0x53],  // BMPString
            [0x14, 0x02, 0x55, 0x53],  // TeletexString
            [0x1A, 0x02, 0x55, 0x53],  // VisibleString
        ]
        for type in [OID.countryName, OID.commonName, OID.domainComponent, OID.emailAddress] {
            for v in values {
                let n = try DistinguishedName(der: name(type: type, value: v))
                XCTAssertEqual(n.values(of: type), ["US"])
            }
        }
        // Character sets are still checked (X.680 §41.4: no '@' in a PrintableString).
        refuses(
            name(type: OID.countryName, value: [0x13, 0x02, 0x55, 0x40]), .invalidString,
            at: valueOffset(OID.countryName) + 3, "C = PrintableString 'U@'")
    }

    func testUnknownTypesTakeAnyStrictValue() throws {
        let accepted: [[UInt8]] = [
            [0x02, 0x01, 0x05],  // INTEGER
            [0x05, 0x00],  // NULL
            [0x30, 0x06, 0x02, 0x01, 0x01, 0x0C, 0x01, 0x78],  // SEQUENCE { INTEGER, UTF8String }
            [0xF0, 0x03, 0x0C, 0x01, 0x78],  // [PRIVATE 16] constructed, a TLV inside
            [0xD0, 0x02, 0x41, 0x42],  // [PRIVATE 16] primitive: opaque octets
            [0x15, 0x01, 0x78],  // VideotexString: not decoded, primitive
        ]
        for v in accepted {
            let n = try DistinguishedName(der: name(type: unknown, value: v))
            var rdns = n.makeIterator()
            var atvs = rdns.next()!.makeIterator()
            let atv = atvs.next()!
            XCTAssertEqual(Array(atv.encodedValue.bytes), v)
            XCTAssertEqual(n.rfc4514String, "1.3.6.1.4.1.55555.9.7=#" + atv.encodedValue.hex)
        }
        XCTAssertNil(AttributeSyntax(type: unknown))
        XCTAssertNil(AttributeSyntax(type: [0x55, 0x04, 0x10]))  // postalAddress: SEQUENCE OF DirectoryString
        XCTAssertNil(AttributeSyntax(type: [0x55, 0x04, 0x2D]))  // x500UniqueIdentifier: BIT STRING
    }

    func testUnknownTypesRefuseMalformedValues() {
        let at = valueOffset(unknown)
        // X.690 §8.1.2.5: "Sigil" inside [PRIVATE 16] constructed: 'S' (0x53) then a length of
        // 0x69 = 105 where 3 octets are left.
        refuses(name(type: unknown, value: [0xF0, 0x05, 0x53, 0x69, 0x67, 0x69, 0x6C]), .truncated, at: at + 2, "text")
        // A SEQUENCE holding a non-minimal INTEGER (X.690 §8.3.2) two levels down.
        refuses(
            name(type: unknown, value: [0x30, 0x06, 0x30, 0x04, 0x02, 0x02, 0x00, 0x01]), .nonMinimalInteger,
            at: at + 6, "nested INTEGER 00 01")
        // X.690 §8.9.1: a SEQUENCE is constructed; §8.3.1 / §10.2: an INTEGER is primitive.
        refuses(name(type: unknown, value: [0x10, 0x00]), .unexpectedTag, at: at, "primitive SEQUENCE")
        refuses(
            name(type: unknown, value: [0x22, 0x03, 0x02, 0x01, 0x05]), .unexpectedTag, at: at, "constructed INTEGER")
        refuses(name(type: unknown, value: [0x05, 0x01, 0x00]), .invalidNull, at: at + 2, "NULL with content")
        refuses(name(type: unknown, value: [0x01, 0x01, 0x01]), .invalidBoolean, at: at + 2, "BOOLEAN 01")
        refuses(
            name(type: unknown, value: [0x06, 0x02, 0x80, 0x01]), .invalidObjectIdentifier, at: at + 2, "OID 80 01")
        // An empty constructed value is a complete (empty) series of TLVs: accepted.
        XCTAssertNoThrow(try DistinguishedName(der: name(type: unknown, value: [0x30, 0x00])))
    }

    func testNestingBeyondTheDepthLimitIsRefused() {
        // [PRIVATE 16] constructed nested 40 deep (DERReader.maximumDepth is 32).
        var v: [UInt8] = [0x05, 0x00]
        for _ in 0..<40 { v = [0xF0, UInt8(v.count)] + v }
        let der = name(type: unknown, value: v)
        XCTAssertThrowsError(try DistinguishedName(der: der)) { error in
            XCTAssertEqual((error as? DERError)?.kind, .nestingTooDeep)
        }
    }

    func testSyntaxNamesTheRFCTypes() {
        XCTAssertEqual(AttributeSyntax(type: OID.countryName), .printableString)
        XCTAssertEqual(AttributeSyntax(type: OID.commonName), .directoryString)
        XCTAssertEqual(AttributeSyntax(type: OID.emailAddress), .ia5String)
        XCTAssertEqual(AttributeSyntax(type: OID.domainComponent), .ia5String)
        XCTAssertEqual(AttributeSyntax(type: OID.jurisdictionCountry), .printableString)
        XCTAssertEqual(AttributeSyntax(type: OID.jurisdictionLocality), .directoryString)
        XCTAssertTrue(AttributeSyntax.printableString.allows(.printableString))
        XCTAssertFalse(AttributeSyntax.printableString.allows(.utf8String))
        XCTAssertTrue(AttributeSyntax.directoryString.allows(.bmpString))
        XCTAssertFalse(AttributeSyntax.directoryString.allows(.ia5String))
    }
}
