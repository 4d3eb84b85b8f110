#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// Real handshakes on 127.0.0.1 against `openssl s_server` and a NIO server, with the chains
    /// of Fixtures/tls. Expected pins come from openssl, expected paths from the fixture files.
    final class HandshakeTests: XCTestCase {
        var servers: [OpenSSLServer] = []

        override func tearDown() {
            for s in servers { s.stop() }
            servers = []
        }

        func serve(_ cert: String, chain: [String] = ["int"], extra: [String] = []) throws -> Int {
            let s = try OpenSSLServer(cert: cert, chain: chain, extra: extra)
            servers.append(s)
            return s.port
        }

        /// sha256/ pin of a fixture's public key, computed by openssl.
        func opensslPin(_ stem: String) throws -> PublicKeyPin {
            let cmd =
                "openssl x509 -in '\(TLSFixtures.path("\(stem).pem"))' -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64"
            let b64 = try XCTUnwrap(TestSupport.run(["sh", "-c", cmd])).trimmingCharacters(in: .whitespacesAndNewlines)
            return try XCTUnwrap(PublicKeyPin("sha256/" + b64))
        }

        func handshake(_ port: Int, name: String?, _ verifier: SigilServerTrustVerifier) -> Result<
            SigilTLSHandshake, SigilTLSClientError
        > {
            do {
                return .success(
                    try SigilTLSClient.handshake(
                        host: "127.0.0.1", port: port, serverName: name, verifier: verifier, timeout: 10
                    ).wait())
            } catch let e as SigilTLSClientError {
                return .failure(e)
            } catch {
                return .failure(.handshakeFailed("\(error)", presentedDER: []))
            }
        }

        func refusal(
            _ r: Result<SigilTLSHandshake, SigilTLSClientError>, file: StaticString = #filePath, line: UInt = #line
        ) -> SigilTLSVerificationError? {
            switch r {
            case .success:
                XCTFail("handshake accepted", file: file, line: line)
                return nil
            case .failure(.verificationFailed(let e, _)): return e
            case .failure(let other):
                XCTFail("not a verification failure: \(other)", file: file, line: line)
                return nil
            }
        }

        func rootAnchored() throws -> SigilServerTrustVerifier {
            SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("root")])
        }

        // MARK: trusted, and the promise carries the validated path

        func testTrustedChainAcceptedWithValidatedPath() throws {
            let port = try serve("leaf")
            let observed = Collected<SigilTLSVerdict>()
            var v = try rootAnchored()
            v.observer = { observed.append($0) }
            let h = try handshake(port, name: "sigil.test", v).get()
            // The server sent leaf + int; the validated path adds the root it did not send.
            XCTAssertEqual(h.presentedDER, [try TLSFixtures.der("leaf"), try TLSFixtures.der("int")])
            XCTAssertEqual(
                h.validatedDER, [try TLSFixtures.der("leaf"), try TLSFixtures.der("int"), try TLSFixtures.der("root")])
            XCTAssertEqual(observed.all.count, 1)
            XCTAssertTrue(observed.all[0].accepted)
            XCTAssertEqual(observed.all[0].checkedName, "sigil.test")
        }

        func testSecurityPolicyModeNoneTrusted() throws {
            let port = try serve("leaf")
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let h = try handshake(
                port, name: "localhost", SigilServerTrustVerifier(policy: .defaultPolicy(anchors: anchors))
            ).get()
            XCTAssertEqual(h.validatedDER?.count, 3)
        }

        // MARK: pins

        func testCertificatePinAccepted() throws {
            let port = try serve("leaf")
            // Certificate mode: the intermediate pinned is the only anchor of the re-evaluation.
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let policy = SecurityPolicy(
                pinningMode: .certificate, pinnedCertificates: [try TLSFixtures.certificate("int")], anchors: anchors)
            let h = try handshake(port, name: "sigil.test", SigilServerTrustVerifier(policy: policy)).get()
            // The path handed to NIOSSL ends at the pinned certificate.
            XCTAssertEqual(h.validatedDER, [try TLSFixtures.der("leaf"), try TLSFixtures.der("int")])
            XCTAssertEqual(h.verdict?.policyEvaluation?.outcome, .pinMatched)
        }

        func testPublicKeyPinAccepted() throws {
            let port = try serve("leaf")
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = [try opensslPin("leaf")]
            let h = try handshake(port, name: "sigil.test", SigilServerTrustVerifier(policy: policy)).get()
            XCTAssertEqual(h.verdict?.policyEvaluation?.matchedIndexes, [0])
            XCTAssertEqual(h.validatedDER?.count, 3)
        }

        func testWrongPinRefusedAsPinMismatch() throws {
            let port = try serve("leaf")
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = [try opensslPin("rogue-root")]
            let observed = Collected<SigilTLSVerdict>()
            var v = SigilServerTrustVerifier(policy: policy)
            v.observer = { observed.append($0) }
            let e = try XCTUnwrap(refusal(handshake(port, name: "sigil.test", v)))
            XCTAssertEqual(e.reason, .pinMismatch(.pinNotFound))
            XCTAssertTrue(e.isPinMismatch)
            XCTAssertEqual(observed.all.first?.error?.reason, .pinMismatch(.pinNotFound))
        }

        func testCertificatePinOfOtherCARefused() throws {
            let port = try serve("leaf")
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let policy = SecurityPolicy(
                pinningMode: .certificate, pinnedCertificates: [try TLSFixtures.certificate("rogue-root")],
                anchors: anchors)
            let e = try XCTUnwrap(
                refusal(handshake(port, name: "sigil.test", SigilServerTrustVerifier(policy: policy))))
            XCTAssertEqual(e.reason, .pinMismatch(.pinnedEvaluationFailed))
        }

        /// The appended-pinned-certificate attack: a certificate mis-issued by another trusted CA,
        /// with the genuine (pinned) intermediate appended to the chain it presents. Matching pins
        /// against the presented chain would accept it; the validated path does not contain it.
        func testAppendedPinnedCertificateAttackRefused() throws {
            let port = try serve("rogue-leaf", chain: ["int"])
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            anchors.add(try TLSFixtures.certificate("rogue-root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = [try opensslPin("int")]
            let r = handshake(port, name: "sigil.test", SigilServerTrustVerifier(policy: policy))
            guard case .failure(.verificationFailed(let e, let verdict)) = r else { return XCTFail("accepted: \(r)") }
            XCTAssertEqual(e.reason, .pinMismatch(.pinNotFound))
            // The pinned intermediate was presented, and is not on the validated path.
            XCTAssertEqual(
                verdict?.presentedChain.map(\.der), [try TLSFixtures.der("rogue-leaf"), try TLSFixtures.der("int")])
            XCTAssertEqual(
                verdict?.policyEvaluation?.matchedChain.map(\.der),
                [try TLSFixtures.der("rogue-leaf"), try TLSFixtures.der("rogue-root")])
        }

        // MARK: chain failures, distinguishable

        func testExpiredLeafRefused() throws {
            let port = try serve("leaf-expired")
            let e = try XCTUnwrap(refusal(handshake(port, name: "sigil.test", try rootAnchored())))
            XCTAssertEqual(e.reason, .notTrusted(.expired))
            XCTAssertFalse(e.isPinMismatch)
            XCTAssertEqual(e.primaryFailure, .expired)
        }

        func testExpiredLeafWithPinsIsNotAPinMismatch() throws {
            let port = try serve("leaf-expired")
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = [try opensslPin("int")]
            let e = try XCTUnwrap(
                refusal(handshake(port, name: "sigil.test", SigilServerTrustVerifier(policy: policy))))
            XCTAssertEqual(e.reason, .notTrusted(.expired))
        }

        func testWrongHostRefused() throws {
            let port = try serve("leaf")
            let e = try XCTUnwrap(refusal(handshake(port, name: "other.test", try rootAnchored())))
            XCTAssertEqual(e.reason, .notTrusted(.nameMismatch))
            XCTAssertEqual(e.checkedName, "other.test")
        }

        func testUntrustedRootRefused() throws {
            let port = try serve("leaf")
            let v = SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("rogue-root")])
            let e = try XCTUnwrap(refusal(handshake(port, name: "sigil.test", v)))
            guard case .notTrusted(let k) = e.reason else { return XCTFail("\(e.reason)") }
            XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(k)")
        }

        // MARK: names

        func testConnectingByIPNeedsHostOverride() throws {
            let port = try serve("leaf")
            // The certificate names sigil.test and localhost, no IP address.
            let e = try XCTUnwrap(refusal(handshake(port, name: "127.0.0.1", try rootAnchored())))
            XCTAssertEqual(e.reason, .notTrusted(.nameMismatch))
            XCTAssertEqual(e.checkedName, "127.0.0.1")
            var v = try rootAnchored()
            v.hostOverride = "sigil.test"
            let h = try handshake(port, name: "127.0.0.1", v).get()
            XCTAssertEqual(h.verdict?.checkedName, "sigil.test")
            XCTAssertEqual(h.validatedDER?.count, 3)
        }

        func testNoNameFailsClosed() throws {
            let port = try serve("leaf")
            let e = try XCTUnwrap(refusal(handshake(port, name: nil, try rootAnchored())))
            XCTAssertEqual(e.reason, .policy(.domainRequired))
        }

        func testCertificateTrustTemplateAnchorsOnlyFalseUsesSystemToo() throws {
            let port = try serve("leaf")
            var trust = CertificateTrust(certificates: [], policies: [.server(host: nil)], systemAnchors: TrustStore())
            trust.anchors = [try TLSFixtures.certificate("rogue-root")]
            var system = TrustStore()
            system.add(try TLSFixtures.certificate("root"), source: .system)
            trust.systemAnchors = system
            trust.anchorsOnly = true
            XCTAssertNotNil(refusal(handshake(port, name: "sigil.test", SigilServerTrustVerifier(trust: trust))))
            trust.anchorsOnly = false
            let h = try handshake(port, name: "sigil.test", SigilServerTrustVerifier(trust: trust)).get()
            XCTAssertEqual(h.verdict?.trustEvaluation?.result, .unspecified)
        }

        /// The time source decides: the chain (2025-01-01 .. 2045-01-01, from the fixture script)
        /// is valid in 2030 and expired in 2050.
        func testTimeSource() throws {
            let port = try serve("leaf")
            var v = try rootAnchored()
            v.time = { 1_893_456_000 }
            let h = try handshake(port, name: "sigil.test", v).get()
            XCTAssertEqual(h.verdict?.time, 1_893_456_000)
            XCTAssertEqual(h.validatedDER?.count, 3)
            v.time = { 2_524_608_000 }
            XCTAssertEqual(refusal(handshake(port, name: "sigil.test", v))?.reason, .notTrusted(.expired))
        }

        /// A basic X.509 template checks no name (and needs none).
        func testCertificateTrustBasicX509ChecksNoName() throws {
            let port = try serve("leaf")
            var trust = CertificateTrust(certificates: [], policies: [.basic], systemAnchors: TrustStore())
            trust.anchors = [try TLSFixtures.certificate("root")]
            XCTAssertNoThrow(try handshake(port, name: "other.test", SigilServerTrustVerifier(trust: trust)).get())
            XCTAssertNoThrow(try handshake(port, name: nil, SigilServerTrustVerifier(trust: trust)).get())
            trust.policies = [.server(host: nil)]
            XCTAssertEqual(
                refusal(handshake(port, name: "other.test", SigilServerTrustVerifier(trust: trust)))?.reason,
                .notTrusted(.nameMismatch))
        }

        /// The revocation hook sees the validated path and can refuse.
        func testRevocationHookRefuses() throws {
            let port = try serve("leaf")
            let seen = Collected<Int>()
            var v = try rootAnchored()
            v.revocationCheck = { path, extras, _ in
                seen.append(path.count)
                XCTAssertNil(extras.stapledOCSPResponse)
                return .reject("leaf revoked (test hook)")
            }
            let e = try XCTUnwrap(refusal(handshake(port, name: "sigil.test", v)))
            XCTAssertEqual(e.reason, .revoked)
            XCTAssertEqual(seen.all, [3])
        }

        // MARK: the NIO server (a second, independent TLS server)

        func testNIOServerTrustedAndPinMismatch() throws {
            let key = try NIOSSLPrivateKey(file: TLSFixtures.path("leaf.key"), format: .pem)
            let chain =
                try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("leaf.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))
            let ctx = try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
            let server = try NIOServer(handlers: { [NIOSSLServerHandler(context: ctx)] }, errors: { _ in })
            defer { server.stop() }
            let h = try handshake(server.port, name: "sigil.test", try rootAnchored()).get()
            XCTAssertEqual(h.presentedDER, [try TLSFixtures.der("leaf"), try TLSFixtures.der("int")])
            XCTAssertEqual(h.validatedDER?.last, try TLSFixtures.der("root"))
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            policy.pinnedPublicKeys = [try opensslPin("rogue-leaf")]
            let e = try XCTUnwrap(
                refusal(handshake(server.port, name: "sigil.test", SigilServerTrustVerifier(policy: policy))))
            XCTAssertEqual(e.reason, .pinMismatch(.pinNotFound))
        }

        func testUnreachablePortIsAConnectFailure() throws {
            let port = freeLoopbackPort()
            let r = handshake(port, name: "sigil.test", try rootAnchored())
            guard case .failure(.connectFailed) = r else { return XCTFail("\(r)") }
        }
    }
#endif
