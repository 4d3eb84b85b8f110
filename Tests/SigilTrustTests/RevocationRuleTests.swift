import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// The RFC 5280 §6.3.3 rules of `Fixtures/revocation/rules/` beyond the verdicts
/// (`RevocationTests.testCRLRuleScenariosAgreeWithOpenSSL` checks those against
/// `openssl verify -crl_check_all -extended_crl -x509_strict`): what a refused CRL signer means
/// under soft fail, that a signer's own path is paid from the one budget, and how a
/// nameRelativeToCRLIssuer is resolved (expected: the DN Python `cryptography` wrote in the
/// fixture, and RFC 5280 §4.2.1.13's text).
final class RevocationRuleTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("revocation/rules")

    struct Manifest: Decodable {
        let verificationTime: Int64
    }

    func time() throws -> Double {
        Double(
            try JSONDecoder().decode(
                Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json"))
            ).verificationTime)
    }

    func cert(_ name: String) throws -> Certificate {
        try Certificate.all(from: TestSupport.read(Self.dir.appendingPathComponent(name).path))[0]
    }

    func verify(
        _ leaf: String, _ intermediates: [String], _ crls: [String], policy: RevocationOptions.Policy = .hardFail,
        budget: VerificationBudget = .standard
    ) throws -> TrustResult {
        var store = TrustStore()
        store.add(try cert("root.pem"))
        var v = ChainVerifier(anchors: store)
        v.budget = budget
        var options = VerificationOptions(purpose: .basic, time: try time())
        options.revocation = RevocationOptions(
            crls: try crls.flatMap {
                try CertificateList.all(from: TestSupport.read(Self.dir.appendingPathComponent($0).path))
            }, policy: policy)
        return v.verify(leaf: try cert(leaf), intermediates: try intermediates.map(cert), options: options)
    }

    /// §6.3.3 (f): a CRL whose separate signer is revoked decides nothing. Under soft fail the
    /// path is still trusted, but the leaf's status is undetermined (never good), and the reason
    /// names the signer's revoked certificate; under hard fail it is refused (OpenSSL: error 54,
    /// "[CRL path] error 23 … certificate revoked").
    func testRevokedSeparateSignerLeavesTheStatusUndetermined() throws {
        for (leaf, signer, crl) in [
            ("leaf-good.pem", "int-signer.pem", "int-by-signer.crl.pem"),
            ("leaf-indirect.pem", "indirect-signer.pem", "indirect.crl.pem"),
        ] {
            let soft = try verify(
                leaf, ["int.pem", signer], ["root-signers-revoked.crl.pem", crl], policy: .softFail)
            guard case .trusted(_, _, let details) = soft else { return XCTFail("\(leaf): \(soft.failures)") }
            XCTAssertEqual(details.revocation.map(\.status.name), ["undetermined", "good"], leaf)
            guard case .undetermined(let why) = details.revocation[0].status else { continue }
            XCTAssertTrue(why.contains("does not validate") && why.contains("revoked"), why)
            let hard = try verify(leaf, ["int.pem", signer], ["root-signers-revoked.crl.pem", crl])
            XCTAssertEqual(hard.failures.first?.kind, .revocationUndetermined, "\(hard.failures)")
            XCTAssertEqual(hard.failures.first?.certificateIndex, 0)
            // With the root's CRL that does not revoke the signer, the same CRL decides.
            XCTAssertTrue(try verify(leaf, ["int.pem", signer], ["root.crl.pem", crl]).isTrusted, leaf)
        }
    }

    /// §6.3.3 (f): the rollover certificate ro-new signs the CA's CRL; without the old key's CRL
    /// nothing but that very CRL could decide ro-new's status, so it stays undetermined: refused
    /// under hard fail (OpenSSL: error 54), reported under soft fail, never a loop.
    func testASignerDoesNotVouchForItself() throws {
        let hard = try verify("leaf-ro.pem", ["ro.pem", "ro-new.pem"], ["root.crl.pem", "ro-new.crl.pem"])
        XCTAssertEqual(hard.failures.first?.kind, .revocationUndetermined, "\(hard.failures)")
        XCTAssertTrue(
            hard.failures.first?.message.contains("whose own status is being checked") == true, "\(hard.failures)")
        let soft = try verify(
            "leaf-ro.pem", ["ro.pem", "ro-new.pem"], ["root.crl.pem", "ro-new.crl.pem"], policy: .softFail)
        guard case .trusted(_, _, let details) = soft else { return XCTFail("\(soft.failures)") }
        XCTAssertEqual(details.revocation.map(\.status.name), ["undetermined", "good"])
    }

    /// The separate signer's own path (its signature, and its CRL's) is paid from the
    /// verification's one budget: with fewer signature checks than the trusted verification
    /// needs it is `budgetExhausted`, never trusted. Counted from the fixture's structure:
    /// leaf ← int ← root (2), the root's CRL for int (1), int's CRL by int-signer (1),
    /// int-signer ← root (1), the root's CRL for int-signer in the signer's own check (1): 6.
    func testSeparateSignerPathIsChargedToTheOneBudget() throws {
        let args = (
            leaf: "leaf-good.pem", ints: ["int.pem", "int-signer.pem"], crls: ["root.crl.pem", "int-by-signer.crl.pem"]
        )
        XCTAssertTrue(
            try verify(args.leaf, args.ints, args.crls, budget: VerificationBudget(signatureChecks: 6)).isTrusted)
        for n in 1..<6 {
            for policy in [RevocationOptions.Policy.hardFail, .softFail] {
                let r = try verify(
                    args.leaf, args.ints, args.crls, policy: policy, budget: VerificationBudget(signatureChecks: n))
                XCTAssertFalse(r.isTrusted, "\(n) \(policy)")
                XCTAssertEqual(r.failures.first?.kind, .budgetExhausted, "\(n) \(policy): \(r.failures)")
            }
        }
    }

    /// §4.2.1.13: "If the DistributionPointName contains the single value
    /// nameRelativeToCRLIssuer, … the name fragment is appended to the certificate issuer
    /// distinguished name" — the result equals, byte for byte, the fullName directoryName that
    /// Python `cryptography` encoded for leaf-full-dn (CN=Sigil Rules Intermediate, OU=partition 1).
    func testRelativeNameIsAppendedToTheIssuer() throws {
        let rel = try cert("leaf-rel.pem")
        let full = try cert("leaf-full-dn.pem")
        let fragment = try XCTUnwrap(
            try XCTUnwrap(try rel.crlDistributionPoints()).first { _ in true }?.relativeName)
        let resolved = try XCTUnwrap(rel.issuer.appending(relativeName: fragment))
        let fullPoint = try XCTUnwrap(try XCTUnwrap(try full.crlDistributionPoints()).first { _ in true })
        guard case .directoryName(let expected)? = try XCTUnwrap(fullPoint.fullName).first(where: { _ in true })
        else {
            return XCTFail("leaf-full-dn has no directoryName distribution point")
        }
        XCTAssertEqual(resolved.encoded.array, expected.encoded.array)
        XCTAssertEqual(resolved.rfc4514String, "OU=partition 1,CN=Sigil Rules Intermediate")
        // Another partition is another name.
        let other = try XCTUnwrap(
            try XCTUnwrap(try cert("leaf-rel-other.pem").crlDistributionPoints()).first { _ in true }?.relativeName)
        XCTAssertFalse(try XCTUnwrap(rel.issuer.appending(relativeName: other)).matchesForChaining(expected))
    }
}
