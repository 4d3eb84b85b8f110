#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// mTLS: a NIO server judging client certificates with `SigilClientCertificateVerifier`;
    /// clients present the fixture certificates (Fixtures/tls/client*.pem).
    final class MutualTLSTests: XCTestCase {
        struct Run {
            let verdicts: [SigilTLSVerdict]
            let errors: [Error]
        }

        /// Serves leaf+int, asks for a client certificate, and connects once with `client`.
        func connect(client: String, configure: (inout SigilClientCertificateVerifier) throws -> Void = { _ in }) throws
            -> Run
        {
            let verdicts = Collected<SigilTLSVerdict>()
            let errors = Collected<Error>()
            var verifier = SigilClientCertificateVerifier(anchors: [try TLSFixtures.certificate("root")])
            verifier.observer = { verdicts.append($0) }
            try configure(&verifier)
            let key = try NIOSSLPrivateKey(file: TLSFixtures.path("leaf.key"), format: .pem)
            let chain =
                try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("leaf.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))
            var config = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            config.certificateVerification = .noHostnameVerification
            let ctx = try NIOSSLContext(configuration: config)
            let v = verifier
            let server = try NIOServer(
                handlers: { try v.makeServerHandlers(context: ctx) }, errors: { errors.append($0) })
            defer { server.stop() }

            var clientConfig = TLSConfiguration.makeClientConfiguration()
            // The client sends its intermediate (client-unknown has none: its CA signs it directly).
            let clientChain =
                try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("\(client).pem"))
                + (client == "client-unknown" ? [] : NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem")))
            clientConfig.certificateChain = clientChain.map { .certificate($0) }
            clientConfig.privateKey = .privateKey(
                try NIOSSLPrivateKey(file: TLSFixtures.path("\(client).key"), format: .pem))
            // Whatever the client sees (with TLS 1.3 its handshake may complete before the server
            // refuses), the server's verdict decides.
            _ = try? SigilTLSClient.handshake(
                host: "127.0.0.1", port: server.port, serverName: "sigil.test", configuration: clientConfig,
                verifier: SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("root")]), timeout: 5
            ).wait()
            let deadline = Date().addingTimeInterval(5)
            while verdicts.all.isEmpty && Date() < deadline { usleep(20_000) }
            if verdicts.all.first?.accepted == false {
                while errors.all.isEmpty && Date() < deadline { usleep(20_000) }
            }
            return Run(verdicts: verdicts.all, errors: errors.all)
        }

        func testValidClientCertificateAccepted() throws {
            let r = try connect(client: "client")
            XCTAssertEqual(r.verdicts.count, 1)
            XCTAssertTrue(r.verdicts[0].accepted, "\(String(describing: r.verdicts.first?.error))")
            XCTAssertEqual(
                r.verdicts[0].validatedPath.map(\.der),
                [try TLSFixtures.der("client"), try TLSFixtures.der("int"), try TLSFixtures.der("root")])
        }

        func testUnknownIssuerRefused() throws {
            let r = try connect(client: "client-unknown")
            guard case .notTrusted(let k)? = r.verdicts.first?.error?.reason else { return XCTFail("\(r.verdicts)") }
            XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(k)")
            // The server pipeline sees Sigil's error, not only NIOSSL's handshake failure.
            XCTAssertTrue(r.errors.contains { $0 is SigilTLSVerificationError }, "\(r.errors)")
        }

        func testExpiredClientCertificateRefused() throws {
            let r = try connect(client: "client-expired")
            XCTAssertEqual(r.verdicts.first?.error?.reason, .notTrusted(.expired))
            XCTAssertEqual(
                (r.errors.first { $0 is SigilTLSVerificationError } as? SigilTLSVerificationError)?.reason,
                .notTrusted(.expired))
        }

        func testWrongPurposeRefused() throws {
            // serverAuth only: not a client certificate.
            let r = try connect(client: "client-server")
            XCTAssertEqual(r.verdicts.first?.error?.reason, .notTrusted(.extendedKeyUsage))
        }

        func testEmailAllowList() throws {
            let allowed = try connect(client: "client") { $0.allowedEmails = ["alice@sigil.test"] }
            XCTAssertEqual(allowed.verdicts.first?.accepted, true)
            let refused = try connect(client: "client") { $0.allowedEmails = ["bob@sigil.test"] }
            XCTAssertEqual(refused.verdicts.first?.error?.reason, .notAllowed)
        }

        func testSubjectAllowList() throws {
            // RFC 4514 text as openssl prints it with -nameopt RFC2253.
            let subject = try XCTUnwrap(
                TestSupport.run([
                    "openssl", "x509", "-in", TLSFixtures.path("client.pem"), "-noout", "-subject", "-nameopt",
                    "RFC2253",
                ])
            )
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "subject=", with: "")
            let allowed = try connect(client: "client") { $0.allowedSubjects = [subject] }
            XCTAssertEqual(allowed.verdicts.first?.accepted, true, "\(subject)")
            let refused = try connect(client: "client") { $0.allowedSubjects = ["CN=bob,O=Sigil Test"] }
            XCTAssertEqual(refused.verdicts.first?.error?.reason, .notAllowed)
        }

        /// The subject allow-list compares the RFC 4514 text by its bytes: a client named
        /// CN=<U+212A KELVIN SIGN>im (`Fixtures/exact-text/client-kelvin.pem`, gen_exact_text.py;
        /// openssl verifies it for sslclient) is not "CN=Kim,O=Exact Text", which Swift's
        /// `String ==` calls equal.
        func testSubjectAllowListComparesBytes() throws {
            let dir = TestSupport.fixtures.appendingPathComponent("exact-text")
            let root = try Certificate.all(from: TestSupport.read(dir.appendingPathComponent("root.pem").path))[0]
            let pem = dir.appendingPathComponent("client-kelvin.pem").path
            let client = try NIOSSLCertificate(file: pem, format: .pem)
            let own = try Certificate.all(from: TestSupport.read(pem))[0].subject.rfc4514String
            XCTAssertTrue(own == "CN=Kim,O=Exact Text", "Swift's String == says equal: what makes the case")
            XCTAssertFalse(own.utf8.elementsEqual("CN=Kim,O=Exact Text".utf8))
            var v = SigilClientCertificateVerifier(anchors: [root])
            v.time = { 1_893_456_000 }
            v.allowedSubjects = ["CN=Kim,O=Exact Text"]
            XCTAssertEqual(v.verify([client]).error?.reason, .notAllowed)
            v.allowedSubjects = [own]
            XCTAssertTrue(v.verify([client]).accepted)
        }
    }
#endif
