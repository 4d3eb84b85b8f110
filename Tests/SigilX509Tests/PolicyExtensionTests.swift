import SigilDER
import XCTest

@testable import SigilX509

/// The certificate policy extension decoders on hand-encoded values (X.690 DER, the ASN.1 of
/// RFC 5280 §4.2.1.4, §4.2.1.5, §4.2.1.11, §4.2.1.14): accepted forms decode to views of the
/// input, every refused form throws `.invalidExtension` at the offending offset.
final class PolicyExtensionTests: XCTestCase {
    static func span(_ b: [UInt8]) -> ByteSpan { ByteSpan(b, 0, b.count) }

    // OID 2.999.1 = 06 03 88 37 01; anyPolicy 2.5.29.32.0 = 06 04 55 1d 20 00.
    static let p1: [UInt8] = [0x06, 0x03, 0x88, 0x37, 0x01]
    static let p2: [UInt8] = [0x06, 0x03, 0x88, 0x37, 0x02]

    func error(_ body: () throws -> Void) -> DERError? {
        do {
            try body()
            return nil
        } catch let e as DERError { return e } catch {
            XCTFail("untyped \(error)")
            return nil
        }
    }

    func testCertificatePolicies() throws {
        // SEQUENCE { SEQUENCE { p1 }, SEQUENCE { p2, SEQUENCE { SEQUENCE { id-qt-cps, IA5String "x" } } } }
        let cps: [UInt8] = [0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x01, 0x16, 0x01, 0x78]
        let qualifier: [UInt8] = [0x30, UInt8(cps.count)] + cps
        let info2: [UInt8] = Self.p2 + [0x30, UInt8(qualifier.count)] + qualifier
        let body: [UInt8] = [0x30, 0x05] + Self.p1 + [0x30, UInt8(info2.count)] + info2
        let value: [UInt8] = [0x30, UInt8(body.count)] + body
        let cp = try CertificatePolicies(extensionValue: Self.span(value))
        let list = Array(cp)
        XCTAssertEqual(list.map { OID.dotted($0.policyIdentifier) }, ["2.999.1", "2.999.2"])
        XCTAssertEqual(
            list[1].policyIdentifier.start, 13, "a view at the content of the second OID (30 L 30 05 p1 30 L 06 03 ·)")
        guard case .cps(let uri)? = list[1].qualifiers.first else { return XCTFail("CPS qualifier") }
        XCTAssertEqual(uri, "x")
        // SIZE (1..MAX): an empty list is refused at the SEQUENCE.
        XCTAssertEqual(
            error { _ = try CertificatePolicies(extensionValue: Self.span([0x30, 0x00])) },
            DERError(.invalidExtension, at: 0))
        // A CPS pointer that is not an IA5String (UTF8String 0x0C) is refused where it starts.
        var bad = value
        bad[bad.count - 3] = 0x0C
        XCTAssertEqual(error { _ = try CertificatePolicies(extensionValue: Self.span(bad)) }?.offset, value.count - 3)
        // Trailing bytes after the SEQUENCE.
        XCTAssertEqual(
            error { _ = try CertificatePolicies(extensionValue: Self.span(value + [0x00])) }?.kind, .invalidExtension)
    }

    func testPolicyMappings() throws {
        let pair: [UInt8] = [0x30, 0x0A] + Self.p1 + Self.p2
        let m = Array(try PolicyMappings(extensionValue: Self.span([0x30, 0x0C] + pair)))
        XCTAssertEqual(m.count, 1)
        XCTAssertEqual(m[0].issuerDomainPolicy, ByteSpan(Self.p1, 2, 5))
        XCTAssertEqual(m[0].subjectDomainPolicy, ByteSpan(Self.p2, 2, 5))
        // A pair with one OID only: refused at the end of the inner SEQUENCE's content.
        let short: [UInt8] = [0x30, 0x07, 0x30, 0x05] + Self.p1
        XCTAssertEqual(error { _ = try PolicyMappings(extensionValue: Self.span(short)) }?.kind, .invalidExtension)
    }

    func testPolicyConstraints() throws {
        // requireExplicitPolicy [0] 0, inhibitPolicyMapping [1] 2
        let pc = try PolicyConstraints(extensionValue: Self.span([0x30, 0x06, 0x80, 0x01, 0x00, 0x81, 0x01, 0x02]))
        XCTAssertEqual(pc, PolicyConstraints(requireExplicitPolicy: 0, inhibitPolicyMapping: 2))
        // §4.2.1.11: an empty sequence is refused (offset: the end of the empty content).
        XCTAssertEqual(
            error { _ = try PolicyConstraints(extensionValue: Self.span([0x30, 0x00])) },
            DERError(.invalidExtension, at: 2))
        // SkipCerts is INTEGER (0..MAX): -1 is refused at its content.
        XCTAssertEqual(
            error { _ = try PolicyConstraints(extensionValue: Self.span([0x30, 0x03, 0x80, 0x01, 0xFF])) },
            DERError(.invalidExtension, at: 4))
        // MAX has no bound: 2^64 (9 content octets, minimal) reads as the cap 2^20, as OpenSSL
        // accepts it; the same length with the sign bit set is negative and refused, a leading
        // zero octet that is not needed is non-minimal and refused.
        let huge: [UInt8] = [0x80, 0x09, 0x01] + Array(repeating: 0, count: 8)
        XCTAssertEqual(
            try PolicyConstraints(extensionValue: Self.span([0x30, UInt8(huge.count)] + huge)),
            PolicyConstraints(requireExplicitPolicy: 1 << 20, inhibitPolicyMapping: nil))
        let negative: [UInt8] = [0x81, 0x09, 0x80] + Array(repeating: 0, count: 8)
        XCTAssertEqual(
            error { _ = try PolicyConstraints(extensionValue: Self.span([0x30, UInt8(negative.count)] + negative)) },
            DERError(.invalidExtension, at: 4))
        let padded: [UInt8] = [0x80, 0x0A, 0x00, 0x01] + Array(repeating: 0, count: 8)
        XCTAssertEqual(
            error { _ = try PolicyConstraints(extensionValue: Self.span([0x30, UInt8(padded.count)] + padded)) }?.kind,
            .invalidExtension)
        // Tags out of order ([1] before [0]) leave bytes unread.
        XCTAssertEqual(
            error {
                _ = try PolicyConstraints(extensionValue: Self.span([0x30, 0x06, 0x81, 0x01, 0x00, 0x80, 0x01, 0x00]))
            }?.kind,
            .invalidExtension)
    }

    func testInhibitAnyPolicy() throws {
        XCTAssertEqual(try Certificate.decodeInhibitAnyPolicy(extensionValue: Self.span([0x02, 0x01, 0x00])), 0)
        XCTAssertEqual(try Certificate.decodeInhibitAnyPolicy(extensionValue: Self.span([0x02, 0x01, 0x05])), 5)
        XCTAssertEqual(
            error { _ = try Certificate.decodeInhibitAnyPolicy(extensionValue: Self.span([0x02, 0x01, 0x80])) },
            DERError(.invalidExtension, at: 2))
        XCTAssertEqual(
            try Certificate.decodeInhibitAnyPolicy(
                extensionValue: Self.span([0x02, 0x09, 0x01] + Array(repeating: 0, count: 8))),
            1 << 20)
        // Non-minimal INTEGER (X.690 §8.3.2).
        XCTAssertEqual(
            error { _ = try Certificate.decodeInhibitAnyPolicy(extensionValue: Self.span([0x02, 0x02, 0x00, 0x05])) }?
                .kind,
            .invalidExtension)
    }
}
