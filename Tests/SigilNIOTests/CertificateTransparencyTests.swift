#if NIO
    import Foundation
    import NIOSSL
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// `SigilServerTrustVerifier.certificateTransparency` under each evaluator, with SCTs from the
    /// TLS extension delivered through `HandshakeExtras` (swift-nio-ssl does not expose them to a
    /// callback, so this is unit level). The leaf and its SCT list come from
    /// Fixtures/ct/generate.py (Python `cryptography` playing the logs): `d90-tls-only` meets
    /// Apple's policy with its two TLS-delivered SCTs and has no embedded ones.
    final class CertificateTransparencyTests: XCTestCase {
        let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
        func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }

        func testTLSDeliveredSCTsDecideAtSystemAnchorsUnderEveryEvaluator() throws {
            let list = try CTLogList(json: bytes("log_list.json"))
            let issuer = try Certificate(der: bytes("issuer.der"))
            let leafDER = try bytes("d90-tls-only.der")
            let leaf = try Certificate(der: leafDER)
            let tls = try bytes("d90-tls-only.tls.bin")
            let now = Double(leaf.notBefore + 86_400)
            var system = TrustStore()
            system.add(issuer, source: .system)
            var trust = CertificateTrust(
                certificates: [], policies: [.basic], time: 0, signatureVerifier: SigilSignatureVerifier(),
                systemAnchors: system)
            trust.budget = .standard
            var policy = SecurityPolicy(anchors: system)
            policy.validatesDomainName = false
            let evaluators: [SigilServerTrustVerifier.Evaluator] = [
                .certificateTrust(trust), .securityPolicy(policy),
                .chain(
                    anchors: system, options: VerificationOptions(purpose: .basic, time: 0),
                    signatureVerifier: SigilSignatureVerifier()),
            ]
            for evaluator in evaluators {
                var v = SigilServerTrustVerifier(evaluator: evaluator)
                v.time = { now }
                XCTAssertTrue(v.verify(certificates: [leaf], name: nil, at: now).accepted, "\(evaluator)")
                v.certificateTransparency = CTOptions(logList: list)
                // No SCTs delivered: not compliant, refused with certificateTransparency.
                let refused = v.verify(certificates: [leaf], name: nil, at: now)
                XCTAssertFalse(refused.accepted, "\(evaluator)")
                XCTAssertEqual(refused.error?.primaryFailure, .certificateTransparency, "\(evaluator)")
                // The TLS extension's SCTs, as a handshake delivers them.
                let extras = HandshakeExtras(signedCertificateTimestamps: tls)
                let ok = v.verify(certificates: [leaf], name: nil, at: now, extras: extras)
                XCTAssertTrue(ok.accepted, "\(evaluator)")
                if let e = ok.trustEvaluation {
                    XCTAssertEqual(e.transparency?.scts.map(\.status), [.valid, .valid])
                    XCTAssertEqual(e.transparency?.scts.map(\.origin), [.tls, .tls])
                }
                // Through the callback path: the extras provider is asked.
                v.handshakeExtras = { extras }
                let nio = try NIOSSLCertificate(bytes: leafDER, format: .der)
                XCTAssertTrue(v.verify([nio], name: nil).accepted, "\(evaluator)")
            }
        }
    }
#endif
