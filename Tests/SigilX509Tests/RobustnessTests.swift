import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

/// Truncations and single-byte mutations of real certificates never crash: each either parses
/// (and then every accessor is walked) or fails with a typed error whose offset lies inside the
/// input.
final class RobustnessTests: XCTestCase {
    func walk(_ cert: Certificate) {
        _ = cert.subject.rfc4514String
        _ = cert.issuer.rfc4514String
        _ = cert.serialNumberHex
        _ = cert.publicKeyBitCount
        _ = cert.signatureAlgorithmOID
        _ = cert.isSelfIssued
        for e in cert.extensions { _ = OID.dotted(e.oid) }
        try? cert.validateExtensions()
        if let san = try? cert.subjectAlternativeNames() { for n in san { _ = n.description } }
        if let p = try? cert.certificatePolicies() { for i in p { _ = i.qualifiers } }
    }

    func check(_ bytes: [UInt8], file: String) {
        do {
            let cert = try Certificate(der: bytes)
            walk(cert)
        } catch {
            XCTAssertTrue(
                error.offset >= 0 && error.offset <= max(bytes.count, Certificate.maximumSize),
                "\(file): offset \(error.offset) outside input of \(bytes.count)")
        }
    }

    func samples() throws -> [(String, [UInt8])] {
        let dir = TestSupport.fixtures.appendingPathComponent("certs")
        let names = [
            "rsa2048-leaf.der", "p256-leaf.der", "nameconstraints-ca.der", "names-string-types.der",
            "rsa-pss-signature.der", "v1-certificate.der",
        ]
        return try names.compactMap { n in
            let url = dir.appendingPathComponent(n)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return (n, [UInt8](try Data(contentsOf: url)))
        }
    }

    func testTruncationsNeverCrash() throws {
        let all = try samples()
        XCTAssertGreaterThan(all.count, 3)
        for (name, der) in all {
            for n in 0..<der.count { check(Array(der[0..<n]), file: name) }
        }
    }

    func testSingleByteMutationsNeverCrash() throws {
        var rng = SystemRandomNumberGenerator()
        for (name, der) in try samples() {
            for i in 0..<der.count {
                for v in [UInt8(0x00), 0xFF, UInt8.random(in: 0...255, using: &rng)] {
                    var m = der
                    m[i] = v
                    check(m, file: name)
                }
            }
        }
    }
}
