import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// EdDSA (RFC 8410) chains, CRLs and OCSP responses made by OpenSSL (`Fixtures/eddsa/`,
/// `Fixtures/scripts/gen_eddsa.py`): Sigil's verdicts must equal those `openssl verify` /
/// `openssl ocsp` recorded in the manifest. Plus the real-world EdDSA certificates of
/// cryptography-vectors (`../shared/vectors/eddsa-x509/`).
final class EdDSAChainTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("eddsa")

    func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.dir.appendingPathComponent("manifest.json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func cert(_ alg: String, _ name: String) throws -> Certificate {
        try Certificate.all(from: TestSupport.read(Self.dir.appendingPathComponent("\(alg)/\(name)").path))[0]
    }

    func verify(
        _ alg: String, leaf: String, revocation: RevocationOptions? = nil,
        algorithms: AlgorithmPolicy = .standard
    ) throws -> TrustResult {
        let m = try XCTUnwrap(try manifest()[alg] as? [String: Any])
        var store = TrustStore()
        store.add(try cert(alg, "root.pem"))
        var options = VerificationOptions(
            purpose: .server(host: try XCTUnwrap(m["host"] as? String)), time: Double(try XCTUnwrap(m["at"] as? Int)))
        options.revocation = revocation
        options.algorithms = algorithms
        return ChainVerifier(anchors: store).verify(
            leaf: try cert(alg, leaf), intermediates: [try cert(alg, "intermediate.pem")], options: options)
    }

    func expected(_ alg: String, _ key: String) throws -> Bool {
        let m = try XCTUnwrap(try manifest()[alg] as? [String: Any])
        return try XCTUnwrap(m[key] as? String, key) == "trusted"
    }

    func checkChain(_ alg: String) throws {
        let good = try verify(alg, leaf: "leaf.pem")
        XCTAssertEqual(good.isTrusted, try expected(alg, "leaf"), "\(alg) leaf: \(good.failures)")
        XCTAssertTrue(good.isTrusted)
        let bad = try verify(alg, leaf: "leaf-badsig.pem")
        XCTAssertEqual(bad.isTrusted, try expected(alg, "leaf-badsig"))
        XCTAssertEqual(bad.failures.first?.kind, .badSignature, "\(bad.failures)")

        // The seam directly, each level.
        let root = try cert(alg, "root.pem")
        let int = try cert(alg, "intermediate.pem")
        let leaf = try cert(alg, "leaf.pem")
        XCTAssertEqual(CertificateSignature.verify(root, issuer: root), .verified)
        XCTAssertEqual(CertificateSignature.verify(int, issuer: root), .verified)
        XCTAssertEqual(CertificateSignature.verify(leaf, issuer: int), .verified)
        XCTAssertEqual(CertificateSignature.verify(leaf, issuer: root), .badSignature)
        XCTAssertTrue(CertificateSignature.subjectPublicKeyIsValid(leaf))

        // --sig-alg without EdDSA refuses the path as a weak algorithm; with it, accepts it.
        var restricted = AlgorithmPolicy.standard
        restricted.allowedSignatureAlgorithms = [.ecdsaWithSHA256, .rsaWithSHA256]
        let r = try verify(alg, leaf: "leaf.pem", algorithms: restricted)
        XCTAssertFalse(r.isTrusted)
        XCTAssertEqual(r.failures.first?.kind, .weakAlgorithm, "\(r.failures)")
        restricted.allowedSignatureAlgorithms = [alg == "ed25519" ? .ed25519 : .ed448]
        XCTAssertTrue(try verify(alg, leaf: "leaf.pem", algorithms: restricted).isTrusted)
        // AlgorithmPolicy.allowEdDSA = false.
        var noEdDSA = AlgorithmPolicy.standard
        noEdDSA.allowEdDSA = false
        let n = try verify(alg, leaf: "leaf.pem", algorithms: noEdDSA)
        XCTAssertFalse(n.isTrusted)
        XCTAssertEqual(n.failures.first?.kind, .unsupportedAlgorithm, "\(n.failures)")
    }

    func checkCRL(_ alg: String) throws {
        let rootCRL = try CertificateList.all(
            from: TestSupport.read(Self.dir.appendingPathComponent("\(alg)/root.crl.pem").path))
        let crls =
            try CertificateList.all(
                from: TestSupport.read(Self.dir.appendingPathComponent("\(alg)/intermediate.crl.pem").path)) + rootCRL
        let hard = RevocationOptions(crls: crls, policy: .hardFail)
        let good = try verify(alg, leaf: "leaf.pem", revocation: hard)
        XCTAssertEqual(good.isTrusted, try expected(alg, "crl-leaf"), "\(alg): \(good.failures)")
        let revoked = try verify(alg, leaf: "revoked-leaf.pem", revocation: hard)
        XCTAssertEqual(revoked.isTrusted, try expected(alg, "crl-revoked-leaf"))
        XCTAssertEqual(revoked.failures.first?.kind, .revoked, "\(revoked.failures)")
        // The same CRL with one flipped signature bit is not used: undetermined under hard fail.
        let badCRL = try CertificateList.all(
            from: TestSupport.read(Self.dir.appendingPathComponent("\(alg)/intermediate-badsig.crl.der").path))
        let b = try verify(
            alg, leaf: "leaf.pem", revocation: RevocationOptions(crls: badCRL + rootCRL, policy: .hardFail))
        XCTAssertEqual(b.isTrusted, try expected(alg, "crl-badsig-leaf"))
        XCTAssertEqual(b.failures.first?.kind, .revocationUndetermined, "\(b.failures)")
        // A --sig-alg restriction without EdDSA: the CRL is not used.
        var restricted = AlgorithmPolicy.standard
        restricted.allowedSignatureAlgorithms = [alg == "ed25519" ? .ed25519 : .ed448]
        XCTAssertTrue(try verify(alg, leaf: "leaf.pem", revocation: hard, algorithms: restricted).isTrusted)
    }

    func checkOCSP(_ alg: String) throws {
        let m = try XCTUnwrap(try manifest()[alg] as? [String: Any])
        for (leaf, key) in [("leaf", "ocsp-leaf"), ("revoked-leaf", "ocsp-revoked-leaf")] {
            let exp = try XCTUnwrap(m[key] as? [String: Any])
            XCTAssertEqual(exp["verified"] as? Bool, true)
            let resp = try OCSPResponse(
                der: TestSupport.read(Self.dir.appendingPathComponent("\(alg)/\(leaf).ocsp.der").path))
            let r = try verify(
                alg, leaf: "\(leaf).pem", revocation: RevocationOptions(ocspResponses: [resp], policy: .softFail))
            switch exp["status"] as? String {
            case "revoked":
                // Revoked always fails, soft fail or not.
                XCTAssertEqual(r.failures.first?.kind, .revoked, "\(alg) \(leaf): \(r.failures)")
            case "good":
                guard case .trusted(_, _, let details) = r else { return XCTFail("\(alg) \(leaf): \(r.failures)") }
                XCTAssertEqual(details.revocation.first?.status.name, "good", "\(alg) \(leaf)")
            default:
                XCTFail("\(alg) \(leaf): unexpected OpenSSL status \(exp["status"] ?? "nil")")
            }
        }
    }

    func testEd25519Chain() throws { try checkChain("ed25519") }
    func testEd448Chain() throws { try checkChain("ed448") }
    func testEd25519CRL() throws { try checkCRL("ed25519") }
    func testEd448CRL() throws { try checkCRL("ed448") }
    func testEd25519OCSP() throws { try checkOCSP("ed25519") }
    func testEd448OCSP() throws { try checkOCSP("ed448") }

    /// cryptography-vectors' EdDSA certificates: the self-signed roots (`root-*.pem`, which
    /// `openssl verify -check_ss_sig` accepts) verify with their own key; the server
    /// certificates parse. `ed25519-rfc8410.pem`, the example of RFC 8410 §10.2, encodes
    /// `critical FALSE` explicitly (a DEFAULT value, not DER: X.690 §11.5), so the strict parser
    /// refuses it, as it refuses any certificate doing so; `sigil inspect`'s lenient reader
    /// reads it (Ed25519 signature, X25519 key) and names the violation.
    func testSharedEdDSACertificates() throws {
        guard let dir = TestSupport.vectors?.appendingPathComponent("eddsa-x509") else {
            print("SKIPPED testSharedEdDSACertificates: vectors folder not found")
            return
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
            $0.hasSuffix(".pem")
        }
        guard !files.isEmpty else {
            print("SKIPPED testSharedEdDSACertificates: \(dir.path) has no .pem")
            return
        }
        var selfSigned = 0
        for f in files.sorted() {
            let bytes = try TestSupport.read(dir.appendingPathComponent(f).path)
            if f == "ed25519-rfc8410.pem" {
                XCTAssertThrowsError(try Certificate.all(from: bytes), f)
                let der = try XCTUnwrap(try PEM.certificatesDER(in: bytes).certificates.first)
                let lenient = try LenientCertificate(der: Array(der))
                XCTAssertEqual(lenient.strictError?.kind, .defaultValueEncoded)
                XCTAssertEqual(lenient.publicKey.algorithm, "1.3.101.110")  // id-X25519
                continue
            }
            let certs = try Certificate.all(from: bytes)
            XCTAssertEqual(certs.count, 1, f)
            for c in certs {
                XCTAssertTrue(c.publicKeyAlgorithm == .ed25519 || c.publicKeyAlgorithm == .ed448, f)
                XCTAssertTrue(CertificateSignature.subjectPublicKeyIsValid(c), f)
                if f.hasPrefix("root-") {
                    XCTAssertEqual(CertificateSignature.verify(c, issuer: c), .verified, f)
                    selfSigned += 1
                }
            }
        }
        XCTAssertEqual(selfSigned, 2)
        print("eddsa-x509: \(files.count) files, \(selfSigned) self-signed verified")
    }
}
