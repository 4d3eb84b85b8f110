@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509
import XCTest

/// The algorithm OIDs `SignatureAlgorithm.parse` and `PublicKeyAlgorithm.parse` match byte for
/// byte before validating (only an unknown OID is validated there): each constant must be a
/// valid DER OID, and the one its RFC assigns (dotted forms written here from RFC 8017 App. C,
/// RFC 4055 §5, RFC 5758 §3.2, RFC 3279 §2.2.3, RFC 5480 §2.1.1.1, RFC 8410 §3).
final class AlgorithmOIDConstantTests: XCTestCase {
    func testMatchedAlgorithmOIDsAreValidAndAsAssigned() throws {
        let constants: [([UInt8], String)] = [
            (OID.sha256WithRSAEncryption, "1.2.840.113549.1.1.11"),
            (OID.sha384WithRSAEncryption, "1.2.840.113549.1.1.12"),
            (OID.sha512WithRSAEncryption, "1.2.840.113549.1.1.13"),
            (OID.sha1WithRSAEncryption, "1.2.840.113549.1.1.5"),
            (OID.sha224WithRSAEncryption, "1.2.840.113549.1.1.14"),
            (OID.md5WithRSAEncryption, "1.2.840.113549.1.1.4"),
            (OID.md2WithRSAEncryption, "1.2.840.113549.1.1.2"),
            (OID.ecdsaWithSHA256, "1.2.840.10045.4.3.2"),
            (OID.ecdsaWithSHA384, "1.2.840.10045.4.3.3"),
            (OID.ecdsaWithSHA512, "1.2.840.10045.4.3.4"),
            (OID.ecdsaWithSHA224, "1.2.840.10045.4.3.1"),
            (OID.ecdsaWithSHA1, "1.2.840.10045.4.1"),
            (OID.ed25519, "1.3.101.112"),
            (OID.ed448, "1.3.101.113"),
            (OID.rsassaPSS, "1.2.840.113549.1.1.10"),
            (OID.rsaEncryption, "1.2.840.113549.1.1.1"),
            (OID.ecPublicKey, "1.2.840.10045.2.1"),
            (OID.secp256r1, "1.2.840.10045.3.1.7"),
            (OID.secp384r1, "1.3.132.0.34"),
            (OID.secp521r1, "1.3.132.0.35"),
        ]
        for (content, dotted) in constants {
            let tlv: [UInt8] = [0x06, UInt8(content.count)] + content
            try tlv.withUnsafeBytes { b in
                var r = DERReader(b)
                let v = try r.read(.objectIdentifier)
                XCTAssertNoThrow(try v.decodeObjectIdentifier(), dotted)
            }
            XCTAssertEqual(OID.dotted(content), dotted)
        }
    }
}
