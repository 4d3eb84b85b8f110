import Foundation
@_spi(SigilInternal) import SigilDER
import SigilTestSupport
import XCTest

@testable @_spi(SigilInternal) import SigilX509

/// The whole-encoding matches of `SignatureAlgorithm.parse` and `PublicKeyAlgorithm.parse`
/// (`common(_:)`) against the field-by-field readers they stand in for (`parseContent`: RFC
/// 4055 §5, RFC 3279 §2.3.1, RFC 5758 §3.2, RFC 5480 §2.1.1, RFC 8410 §3, strict DER): on the
/// AlgorithmIdentifiers of every fixture certificate, encodings written from those RFCs, and
/// every one-octet change, deletion, insertion and truncation of them, read alone and followed
/// by other octets, `parse` returns what the readers return (the same algorithm, or the same
/// error at the same offset) and leaves the reader at the same position; and the usual
/// encodings are taken by the match (so that this compares something).
final class AlgorithmIdentifierFastPathModelTests: XCTestCase {
    struct Outcome<T: Equatable>: Equatable {
        var result: Result<T, DERError>
        var position: Int
    }

    static func run<T: Equatable>(
        _ bytes: [UInt8], depth: Int, _ parse: (inout DERReader) throws(DERError) -> T
    ) -> Outcome<T> {
        bytes.withUnsafeBytes { b in
            var r = DERReader(input: b, from: 0, to: b.count, depth: depth)
            do throws(DERError) {
                let v = try parse(&r)
                return Outcome(result: .success(v), position: r.position)
            } catch { return Outcome(result: .failure(error), position: r.position) }
        }
    }

    static func compareSignature(_ bytes: [UInt8], depth: Int = 0, file: StaticString = #filePath, line: UInt = #line) {
        let fast = run(bytes, depth: depth) { (r) throws(DERError) in try SignatureAlgorithm.parse(&r) }
        let reference = run(bytes, depth: depth) { (r) throws(DERError) in
            try SignatureAlgorithm.parseContent(try r.read(.sequence))
        }
        XCTAssertEqual(fast, reference, "signature algorithm \(bytes) at depth \(depth)", file: file, line: line)
    }

    static func compareKey(_ bytes: [UInt8], depth: Int = 0, file: StaticString = #filePath, line: UInt = #line) {
        let fast = run(bytes, depth: depth) { (r) throws(DERError) in try PublicKeyAlgorithm.parse(&r) }
        let reference = run(bytes, depth: depth) { (r) throws(DERError) in
            try PublicKeyAlgorithm.parseContent(try r.read(.sequence))
        }
        XCTAssertEqual(fast, reference, "key algorithm \(bytes) at depth \(depth)", file: file, line: line)
    }

    static func hex(_ s: String) -> [UInt8] {
        let digits = Array(s.replacingOccurrences(of: " ", with: "").utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// Signature AlgorithmIdentifiers: the OIDs of RFC 4055 §5 / RFC 8017 Appendix C
    /// (1.2.840.113549.1.1.x), RFC 5758 §3.2 (1.2.840.10045.4.3.x), RFC 8410 §3 (1.3.101.112/113).
    static let signatureEncodings: [String] = [
        "300D06092A864886F70D01010B0500", "300D06092A864886F70D01010C0500", "300D06092A864886F70D01010D0500",
        "300D06092A864886F70D0101050500", "300D06092A864886F70D01010E0500", "300D06092A864886F70D0101040500",
        "300B06092A864886F70D01010B",  // parameters absent (tolerated)
        "300F06092A864886F70D01010B050005 00",  // two NULLs
        "300A06082A8648CE3D040302", "300A06082A8648CE3D040303", "300A06082A8648CE3D040304", "300A06082A8648CE3D040301",
        "300906072A8648CE3D0401", "300C06082A8648CE3D0403020500",  // ECDSA with NULL: refused
        "300506032B6570", "300506032B6571", "300506032B6572", "300706032B65700500",
        // RSASSA-PSS, SHA-256, MGF1 SHA-256, salt 32 (RFC 4055 §3.1)
        "304106092A864886F70D01010A3034A00F300D06096086480165030402010500A11C301A06092A864886F70D010108300D06096086480165030402010500A203020120",
        "300B06092A864886F70D01010A",  // PSS without parameters: refused
        "3008060628CC0A0B0C0D",  // unknown OID
    ]

    /// Key AlgorithmIdentifiers: RFC 3279 §2.3.1 (rsaEncryption), RFC 5480 §2.1.1 (id-ecPublicKey
    /// with secp256r1 1.2.840.10045.3.1.7, secp384r1 1.3.132.0.34, secp521r1 1.3.132.0.35),
    /// RFC 8410 §3.
    static let keyEncodings: [String] = [
        "300D06092A864886F70D0101010500", "300B06092A864886F70D010101",
        "301306072A8648CE3D020106082A8648CE3D030107", "301006072A8648CE3D020106052B81040022",
        "301006072A8648CE3D020106052B81040023", "301006072A8648CE3D020106052B8104000A",  // secp256k1: other
        "300506032B6570", "300506032B6571", "300906072A8648CE3D0201",  // EC without parameters: refused
        "300B06092A864886F70D01010A",
    ]

    static func fixtureIdentifiers() -> (signature: [[UInt8]], key: [[UInt8]]) {
        var sig: Set<[UInt8]> = []
        var key: Set<[UInt8]> = []
        for sub in ["certs", "chains", "names", "policies", "purposes", "edges", "pool", "revocation"] {
            let dir = TestSupport.fixtures.appendingPathComponent(sub)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { continue }
            for f in files where f.hasSuffix(".der") {
                guard let c = try? Certificate(der: TestSupport.read(dir.appendingPathComponent(f).path)) else {
                    continue
                }
                sig.insert(Array(c.signatureAlgorithmIdentifier.bytes))
                key.insert(Array(c.publicKeyAlgorithmIdentifier.bytes))
            }
        }
        return (sig.sorted { $0.lexicographicallyPrecedes($1) }, key.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Every one-octet change (to octets chosen around the rules), deletion, insertion and
    /// truncation of `s`.
    static func variants(_ s: [UInt8]) -> [[UInt8]] {
        let replacements: [UInt8] = [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0B, 0x0D, 0x22, 0x23, 0x2A, 0x2B,
            0x30, 0x31, 0x65, 0x70, 0x71, 0x7F, 0x80, 0x81, 0x86, 0xA0, 0xCE, 0xFF,
        ]
        var out: [[UInt8]] = [s]
        for i in 0..<s.count {
            for r in replacements where r != s[i] {
                var t = s
                t[i] = r
                out.append(t)
            }
            var d = s
            d.remove(at: i)
            out.append(d)
            var n = s
            n.insert(0x00, at: i)
            out.append(n)
            out.append(Array(s[..<i]))
        }
        return out
    }

    func testUsualEncodingsTakeTheMatch() {
        for (text, expected) in [
            ("300D06092A864886F70D01010B0500", SignatureAlgorithm.rsaPKCS1(.sha256)),
            ("300D06092A864886F70D01010C0500", .rsaPKCS1(.sha384)),
            ("300D06092A864886F70D01010D0500", .rsaPKCS1(.sha512)),
            ("300A06082A8648CE3D040302", .ecdsa(.sha256)), ("300A06082A8648CE3D040303", .ecdsa(.sha384)),
            ("300A06082A8648CE3D040304", .ecdsa(.sha512)), ("300506032B6570", .ed25519), ("300506032B6571", .ed448),
        ] {
            Self.hex(text).withUnsafeBytes { b in
                var r = DERReader(b)
                XCTAssertEqual(SignatureAlgorithm.common(try! r.read(.sequence)), expected, text)
            }
        }
        for (text, expected) in [
            ("300D06092A864886F70D0101010500", PublicKeyAlgorithm.rsa),
            ("301306072A8648CE3D020106082A8648CE3D030107", .ec(.p256)),
            ("301006072A8648CE3D020106052B81040022", .ec(.p384)), ("301006072A8648CE3D020106052B81040023", .ec(.p521)),
            ("300506032B6570", .ed25519), ("300506032B6571", .ed448),
        ] {
            Self.hex(text).withUnsafeBytes { b in
                var r = DERReader(b)
                XCTAssertEqual(PublicKeyAlgorithm.common(try! r.read(.sequence)), expected, text)
            }
        }
    }

    func testMatchesAgreeWithTheReaders() {
        let fixtures = Self.fixtureIdentifiers()
        XCTAssertGreaterThan(fixtures.signature.count, 3, "fixture certificates not found")
        for s in Self.signatureEncodings.map(Self.hex) + fixtures.signature {
            for v in Self.variants(s) {
                Self.compareSignature(v)
                Self.compareSignature(v + [0x05, 0x00])
            }
        }
        for s in Self.keyEncodings.map(Self.hex) + fixtures.key {
            for v in Self.variants(s) {
                Self.compareKey(v)
                Self.compareKey(v + [0x03, 0x01, 0x00])
            }
        }
    }

    /// At the nesting limit neither the match nor the readers enter the SEQUENCE.
    func testNestingLimitAgrees() {
        for depth in [DERReader.maximumDepth - 1, DERReader.maximumDepth] {
            for s in Self.signatureEncodings.map(Self.hex) { Self.compareSignature(s, depth: depth) }
            for s in Self.keyEncodings.map(Self.hex) { Self.compareKey(s, depth: depth) }
        }
        let atLimit = Self.run(Self.hex("300A06082A8648CE3D040302"), depth: DERReader.maximumDepth) {
            (r) throws(DERError) in try SignatureAlgorithm.parse(&r)
        }
        guard case .failure(let e) = atLimit.result else {
            return XCTFail("entered a SEQUENCE beyond the nesting limit")
        }
        XCTAssertEqual(e.kind, .nestingTooDeep)
    }
}
