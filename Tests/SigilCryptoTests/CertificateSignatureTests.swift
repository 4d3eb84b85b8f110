import Foundation
import SigilCrypto
import SigilDER
import SigilX509
import XCTest

/// The trust layer's seam on real certificates: self-signed system roots and the fixture chains
/// (signed by openssl / Python cryptography) verify; flipped bytes do not.
final class CertificateSignatureTests: XCTestCase {
    static var root: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }

    func load(_ path: String) throws -> [Certificate] {
        try Certificate.all(from: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func testSelfSignedSystemRootsVerify() throws {
        let dir = "/etc/ssl/certs"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
            print("SKIPPED: no /etc/ssl/certs")
            return
        }
        var byAlgorithm: [String: Int] = [:]
        var failures: [String] = []
        for name in names.sorted() where name.hasSuffix(".pem") {
            for cert in try load(dir + "/" + name) where cert.isSelfIssued {
                let outcome = CertificateSignature.verify(cert, issuer: cert)
                if outcome == .verified {
                    byAlgorithm[cert.signatureAlgorithm.name, default: 0] += 1
                } else {
                    failures.append("\(name): \(outcome)")
                }
            }
        }
        let total = byAlgorithm.values.reduce(0, +)
        print("verified \(total) self-signed system roots: \(byAlgorithm.sorted { $0.key < $1.key })")
        // Roots signed with algorithms Sigil does not implement would show up here.
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(total, 50)
    }

    func testFixtureChainsVerifyAndTamperingFails() throws {
        let certs = Self.root.appendingPathComponent("Fixtures/certs").path
        var checked = 0
        for family in ["rsa2048", "rsa3072", "rsa4096", "p256", "p384", "p521"] {
            let root = try load("\(certs)/\(family)-root.der")[0]
            let inter = try load("\(certs)/\(family)-intermediate.der")[0]
            let leaf = try load("\(certs)/\(family)-leaf.der")[0]
            for (child, parent) in [(root, root), (inter, root), (leaf, inter)] {
                XCTAssertEqual(CertificateSignature.verify(child, issuer: parent), .verified, family)
                XCTAssertNotEqual(CertificateSignature.verify(leaf, issuer: root), .verified, "wrong issuer key")
                // Every signature byte for the 2048-bit and P-256 chains, a sample elsewhere.
                try assertTamperingFails(child, parent, family, every: family == "rsa2048" || family == "p256")
                checked += 1
            }
        }
        for (name, issuer) in [
            ("rsa-pss-signature", "rsa2048-intermediate"), ("p256-ecdsa-sha512", "p256-intermediate"),
        ] {
            let c = try load("\(certs)/\(name).der")[0]
            let i = try load("\(certs)/\(issuer).der")[0]
            if CertificateSignature.verify(c, issuer: i) == .verified {
                checked += 1
            } else {
                // The issuer of these samples is recorded in Fixtures/README.md; report clearly.
                XCTFail("\(name) does not verify with \(issuer)")
            }
        }
        print("verified and tampered \(checked) fixture signatures")
    }

    /// Flipping any byte of the signature, or sampled bytes of the TBS, breaks verification.
    func assertTamperingFails(_ child: Certificate, _ parent: Certificate, _ label: String, every: Bool) throws {
        let tbs = child.tbsCertificate.array
        let sig = child.signature.array
        let key = parent.publicKeyBytes.array
        func outcome(_ t: [UInt8], _ s: [UInt8]) -> CertificateSignature.Outcome {
            t.withUnsafeBytes { tb in
                s.withUnsafeBytes { sb in
                    key.withUnsafeBytes { kb in
                        CertificateSignature.verify(
                            algorithm: child.signatureAlgorithm, signed: tb, signature: sb,
                            keyAlgorithm: parent.publicKeyAlgorithm, key: kb)
                    }
                }
            }
        }
        XCTAssertEqual(outcome(tbs, sig), .verified)
        for i in stride(from: 0, to: sig.count, by: every ? 1 : 17) {
            var s = sig
            s[i] ^= 0x01
            XCTAssertNotEqual(outcome(tbs, s), .verified, "\(label): signature byte \(i)")
        }
        for i in stride(from: 0, to: tbs.count, by: max(1, tbs.count / 64)) {
            var t = tbs
            t[i] ^= 0x80
            XCTAssertNotEqual(outcome(t, sig), .verified, "\(label): TBS byte \(i)")
        }
    }
}
