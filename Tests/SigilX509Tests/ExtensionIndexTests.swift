import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

/// The index of known extensions built while parsing holds 16-bit offsets; a list longer than
/// 64 KiB leaves the extensions beyond that unindexed and the accessors scan. These tests build
/// such certificates from the RSA-2048 fixture leaf (its extensions replaced) and check that
/// the rules of RFC 5280 §4.2 ("A certificate MUST NOT include more than one instance of a
/// particular extension") and the decoders hold there too.
final class ExtensionIndexTests: XCTestCase {
    /// A DER TLV (definite length, minimal form).
    func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        var length: [UInt8]
        if n < 0x80 {
            length = [UInt8(n)]
        } else {
            var octets: [UInt8] = []
            var m = n
            while m > 0 {
                octets.insert(UInt8(m & 0xFF), at: 0)
                m >>= 8
            }
            length = [0x80 | UInt8(octets.count)] + octets
        }
        return [tag] + length + content
    }

    /// `Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`
    func ext(_ oid: [UInt8], critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, tlv(0x06, oid) + (critical ? [0x01, 0x01, 0xFF] : []) + tlv(0x04, value))
    }

    /// The fixture leaf with its extensions replaced by `extensions` (TBS re-encoded; the
    /// signature is not checked by parsing).
    func leaf(with extensions: [[UInt8]]) throws -> [UInt8] {
        let der = try TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/rsa2048-leaf.der").path)
        // Split Certificate into TBS, algorithm, signature, and TBS into its fields.
        func children(_ bytes: [UInt8]) throws -> [[UInt8]] {
            try bytes.withUnsafeBytes { (b) throws -> [[UInt8]] in
                var r = DERReader(b)
                var out: [[UInt8]] = []
                while !r.isAtEnd {
                    let v = try r.readAny()
                    out.append(v.encodedBytes)
                }
                return out
            }
        }
        func content(_ tlvBytes: [UInt8]) throws -> [UInt8] {
            try tlvBytes.withUnsafeBytes { (b) throws -> [UInt8] in
                var r = DERReader(b)
                return try r.readAny().contentBytes
            }
        }
        let outer = try children(try content(der))
        let fields = try children(try content(outer[0])).filter { $0[0] != 0xA3 }
        let a3 = tlv(0xA3, tlv(0x30, extensions.flatMap { $0 }))
        let tbs = tlv(0x30, fields.flatMap { $0 } + a3)
        return tlv(0x30, tbs + outer[1] + outer[2])
    }

    // 2.5.29.19 basicConstraints; value SEQUENCE {} (cA FALSE by DEFAULT).
    let basicConstraintsOID: [UInt8] = [0x55, 0x1D, 0x13]
    let caFalse: [UInt8] = [0x30, 0x00]
    // 1.3.6.1.4.1.55555.9.9, a private arc: an unknown extension 70 000 octets long.
    let bigOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03, 0x09, 0x09]
    var big: [UInt8] { ext(bigOID, [UInt8](repeating: 0x41, count: 70_000)) }

    func testKnownExtensionBeyond64KiBIsDecodedByScan() throws {
        let cert = try Certificate(der: try leaf(with: [big, ext(basicConstraintsOID, critical: true, caFalse)]))
        XCTAssertEqual(cert.extensionCount, 2)
        let bc = try XCTUnwrap(try cert.basicConstraints())
        XCTAssertFalse(bc.isCA)
        XCTAssertNil(bc.pathLength)
        XCTAssertEqual(cert.extension(basicConstraintsOID)?.critical, true)
        XCTAssertNil(try cert.keyUsage())
        try cert.validateExtensions()
    }

    func testDuplicateKnownExtensionBeyond64KiBIsRefused() throws {
        // The first instance critical, the second not: their encodings differ, so the offset
        // reported identifies which one was refused (the second, as for any duplicate).
        let second = ext(basicConstraintsOID, caFalse)
        let bytes = try leaf(with: [big, ext(basicConstraintsOID, critical: true, caFalse), second])
        XCTAssertThrowsError(try Certificate(der: bytes)) { error in
            guard let e = error as? DERError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.kind, .duplicateExtension)
            XCTAssertGreaterThan(e.offset, 70_000)
            XCTAssertEqual(Array(bytes[e.offset..<(e.offset + second.count)]), second)
        }
    }

    func testDuplicateKnownExtensionWithinIndexIsRefused() throws {
        let bytes = try leaf(with: [ext(basicConstraintsOID, caFalse), ext(basicConstraintsOID, caFalse)])
        XCTAssertThrowsError(try Certificate(der: bytes)) { error in
            XCTAssertEqual((error as? DERError)?.kind, .duplicateExtension)
        }
    }
}
