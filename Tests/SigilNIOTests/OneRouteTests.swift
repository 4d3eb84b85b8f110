#if NIO
    import Foundation
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// SigilNIO's `.chain` evaluator and its mTLS verifier reach the verdict through the one
    /// evaluator, `CertificateTrust` (as the CLI, `SecurityPolicy` and the `.certificateTrust`
    /// evaluator do): their verdicts carry its evaluation and equal a direct `CertificateTrust`
    /// evaluation of the same input. Expected acceptance is `openssl verify`'s on the same files.
    final class OneRouteTests: XCTestCase {
        /// Inside the fixtures' validity (2025-01-01 .. 2045-01-01, Fixtures/scripts/gen-tls.py).
        static let time = 1_893_456_000.0

        static func anchors() throws -> TrustStore {
            var store = TrustStore()
            store.add(try TLSFixtures.certificate("root"), source: .custom)
            return store
        }

        /// `openssl verify -CAfile root.pem -untrusted int.pem -purpose P [-verify_hostname H] -attime T` succeeds.
        static func opensslAccepts(_ leaf: String, purpose: String, host: String? = nil) throws -> Bool {
            var args = [
                "openssl", "verify", "-CAfile", TLSFixtures.path("root.pem"), "-untrusted", TLSFixtures.path("int.pem"),
                "-purpose", purpose, "-attime", String(Int(time)),
            ]
            if let host { args += ["-verify_hostname", host] }
            return try TestSupport.run(args + [TLSFixtures.path("\(leaf).pem")]) != nil
        }

        func testChainEvaluatorGoesThroughCertificateTrust() throws {
            let options = VerificationOptions(purpose: .server(host: nil), time: 0)
            let v = SigilServerTrustVerifier(
                evaluator: .chain(
                    anchors: try Self.anchors(), options: options,
                    signatureVerifier: SigilSignatureVerifier()))
            let presented = [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")]
            for host in ["sigil.test", "other.test"] {
                let verdict = v.verify(certificates: presented, name: host, at: Self.time)
                XCTAssertEqual(
                    verdict.accepted, try Self.opensslAccepts("leaf", purpose: "sslserver", host: host), host)
                let e = try XCTUnwrap(verdict.trustEvaluation, host)
                var o = options
                o.time = Self.time
                o.purpose = .server(host: host)
                let direct = CertificateTrust(
                    certificates: presented, options: o, systemAnchors: try Self.anchors(),
                    signatureVerifier: SigilSignatureVerifier()
                ).evaluate()
                XCTAssertEqual(e.result, direct.result, host)
                XCTAssertEqual(e.failures, direct.failures, host)
                XCTAssertEqual(verdict.validatedPath.map(\.der), direct.chain.map(\.der), host)
                if verdict.accepted {
                    XCTAssertEqual(e.result, .proceed)  // a caller's anchor
                    XCTAssertEqual(verdict.validatedPath.map(\.der), try ["leaf", "int", "root"].map(TLSFixtures.der))
                } else {
                    XCTAssertEqual(verdict.error?.reason, .notTrusted(.nameMismatch))
                }
            }
        }

        func testClientVerifierGoesThroughCertificateTrust() throws {
            var v = SigilClientCertificateVerifier(anchors: try Self.anchors())
            v.signatureVerifier = SigilSignatureVerifier()
            for client in ["client", "client-server", "client-expired"] {
                let presented = [try TLSFixtures.certificate(client), try TLSFixtures.certificate("int")]
                let verdict = v.verify(certificates: presented, at: Self.time)
                XCTAssertEqual(verdict.accepted, try Self.opensslAccepts(client, purpose: "sslclient"), client)
                let e = try XCTUnwrap(verdict.trustEvaluation, client)
                let direct = CertificateTrust(
                    certificates: presented, policies: [.client], time: Self.time,
                    signatureVerifier: SigilSignatureVerifier(), systemAnchors: try Self.anchors()
                ).evaluate()
                XCTAssertEqual(e.result, direct.result, client)
                XCTAssertEqual(e.failures, direct.failures, client)
            }
        }

        /// A requirement set on the options (revocation, hard fail, nothing supplied) reaches the
        /// verdict through the one evaluator in both verifiers.
        func testRequirementsReachTheVerdict() throws {
            var options = VerificationOptions(purpose: .server(host: nil), time: 0)
            options.revocation = RevocationOptions(policy: .hardFail)
            let server = SigilServerTrustVerifier(
                evaluator: .chain(
                    anchors: try Self.anchors(), options: options,
                    signatureVerifier: SigilSignatureVerifier()))
            let s = server.verify(
                certificates: [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")],
                name: "sigil.test", at: Self.time)
            XCTAssertEqual(s.error?.reason, .notTrusted(.revocationUndetermined))
            var client = SigilClientCertificateVerifier(anchors: try Self.anchors())
            client.options.revocation = RevocationOptions(policy: .hardFail)
            let c = client.verify(
                certificates: [try TLSFixtures.certificate("client"), try TLSFixtures.certificate("int")], at: Self.time
            )
            XCTAssertEqual(c.error?.reason, .notTrusted(.revocationUndetermined))
        }
    }
#endif
