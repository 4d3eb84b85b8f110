import SigilX509
import XCTest

/// `SignatureAlgorithm.name` spells "<scheme> with <digest>" (the README's `inspect` schema,
/// `signatureAlgorithmName`); its common cases are literals, checked here against the
/// composed spelling for every digest.
final class AlgorithmNameTests: XCTestCase {
    func testNamesComposeSchemeAndDigest() {
        let digests: [DigestAlgorithm] = [.md2, .md5, .sha1, .sha224, .sha256, .sha384, .sha512]
        for d in digests {
            XCTAssertEqual(SignatureAlgorithm.rsaPKCS1(d).name, "RSA PKCS#1 v1.5 with " + d.name)
            XCTAssertEqual(SignatureAlgorithm.ecdsa(d).name, "ECDSA with " + d.name)
        }
        XCTAssertEqual(SignatureAlgorithm.ecdsa(.sha256).name, "ECDSA with SHA-256")
        XCTAssertEqual(SignatureAlgorithm.rsaPKCS1(.sha1).name, "RSA PKCS#1 v1.5 with SHA-1")
    }
}
