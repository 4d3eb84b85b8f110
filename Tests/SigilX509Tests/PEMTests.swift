import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

final class PEMTests: XCTestCase {
    func fixture(_ name: String) throws -> [UInt8] {
        try TestSupport.read(TestSupport.fixtures.appendingPathComponent("certs/" + name).path)
    }

    /// The bundle holds certificates amid text and a non-certificate block; the CRLF copy must
    /// decode to the same certificates. Counts are checked against openssl.
    func testBundlesWithTextCRLFAndOtherBlocks() throws {
        let lf = try PEM.decodeBlocks(try fixture("bundle.pem"))
        let crlf = try PEM.decodeBlocks(try fixture("bundle-crlf.pem"))
        XCTAssertEqual(lf.certificates, crlf.certificates)
        XCTAssertGreaterThanOrEqual(lf.skippedBlocks, 1)
        let openssl = try TestSupport.run([
            "openssl", "crl2pkcs7", "-nocrl", "-certfile",
            TestSupport.fixtures.appendingPathComponent("certs/bundle.pem").path,
        ])
        if let text = openssl {
            // Independent count: certificates openssl finds in the same file.
            let p7 = try TestSupport.runStdin(["openssl", "pkcs7", "-print_certs", "-noout"], input: text)
            let count = p7?.components(separatedBy: "subject=").count.advanced(by: -1)
            if let count { XCTAssertEqual(lf.certificates.count, count) }
        }
        for der in lf.certificates { XCTAssertNoThrow(try Certificate(der: der)) }
    }

    func testRoundTripDERPEMDER() throws {
        let der = try fixture("p256-leaf.der")
        let cert = try Certificate(der: der)
        let pem = cert.pem
        XCTAssertTrue(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        XCTAssertTrue(pem.split(separator: "\n").allSatisfy { $0.count <= 64 })
        XCTAssertEqual(try PEM.decodeBlocks(Array(pem.utf8)).certificates, [der])
        // The PEM fixture written by openssl decodes to the same DER.
        XCTAssertEqual(try PEM.decodeBlocks(try fixture("p256-leaf.pem")).certificates, [der])
    }

    func testFormatDetectedFromContent() throws {
        let der = try fixture("p256-leaf.der")
        XCTAssertFalse(PEM.looksLikePEM(der))
        XCTAssertEqual(try PEM.certificatesDER(in: der).certificates, [der])
        XCTAssertTrue(PEM.looksLikePEM(try fixture("p256-leaf.pem")))
    }

    func testBase64AgainstRFC4648Vectors() {
        // RFC 4648 §10.
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encodeString(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(Array(encoded.utf8)), Array(plain.utf8))
        }
        XCTAssertNil(Base64.decode(Array("Zg=".utf8)))  // length not a multiple of 4
        XCTAssertNil(Base64.decode(Array("Zh==".utf8)))  // non-zero pad bits (RFC 4648 §3.5)
        XCTAssertNil(Base64.decode(Array("Z===".utf8)))
        XCTAssertNil(Base64.decode(Array("Zm=v".utf8)))  // data after padding
        XCTAssertNil(Base64.decode(Array("Zm9v!A==".utf8)))
    }

    func testErrorsCarryLineNumbers() {
        let bad = "text\n-----BEGIN CERTIFICATE-----\nMIIB\nMI*B\n-----END CERTIFICATE-----\n"
        XCTAssertThrowsError(try PEM.decodeBlocks(Array(bad.utf8))) { e in
            XCTAssertEqual(e as? DERError, DERError(.invalidBase64, at: 4))
        }
        let unterminated = "-----BEGIN CERTIFICATE-----\nMIIB\n"
        XCTAssertThrowsError(try PEM.decodeBlocks(Array(unterminated.utf8))) { e in
            XCTAssertEqual(e as? DERError, DERError(.invalidPEM, at: 1))
        }
        let mismatched = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END X509 CRL-----\n"
        XCTAssertThrowsError(try PEM.decodeBlocks(Array(mismatched.utf8))) { e in
            XCTAssertEqual(e as? DERError, DERError(.invalidPEM, at: 3))
        }
        XCTAssertThrowsError(try PEM.certificatesDER(in: Array("no pem here".utf8))) { e in
            XCTAssertEqual(e as? DERError, DERError(.noCertificate, at: 0))
        }
    }
}
