#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Sigil
    import SigilNIO
    import SigilTestSupport
    import XCTest

    /// The opt-in verdict cache of both verifiers over real loopback handshakes (Fixtures/tls,
    /// `openssl s_server` and a NIO mTLS server on 127.0.0.1), and the `port` of RFC 7469 §3
    /// pin-failure reports. Expected paths are the fixture files; expected pins come from openssl.
    final class VerdictCacheAndPortTests: XCTestCase {
        var servers: [OpenSSLServer] = []

        override func tearDown() {
            for s in servers { s.stop() }
            servers = []
        }

        func serve(_ cert: String) throws -> Int {
            let s = try OpenSSLServer(cert: cert, chain: ["int"])
            servers.append(s)
            return s.port
        }

        func handshake(_ port: Int, _ verifier: SigilServerTrustVerifier, name: String = "sigil.test") throws
            -> SigilTLSHandshake
        {
            try SigilTLSClient.handshake(
                host: "127.0.0.1", port: port, serverName: name, verifier: verifier, timeout: 10
            ).wait()
        }

        /// The parts of a verdict a cache hit must reproduce exactly.
        func assertSameVerdict(
            _ a: SigilTLSVerdict?, _ b: SigilTLSVerdict?, file: StaticString = #filePath, line: UInt = #line
        ) {
            XCTAssertEqual(a?.accepted, b?.accepted, file: file, line: line)
            XCTAssertEqual(a?.validatedPath.map(\.der), b?.validatedPath.map(\.der), file: file, line: line)
            XCTAssertEqual(a?.presentedChain.map(\.der), b?.presentedChain.map(\.der), file: file, line: line)
            XCTAssertEqual(a?.trustEvaluation?.result, b?.trustEvaluation?.result, file: file, line: line)
            XCTAssertEqual(a?.trustEvaluation?.anchorSource, b?.trustEvaluation?.anchorSource, file: file, line: line)
            XCTAssertEqual(a?.checkedName, b?.checkedName, file: file, line: line)
        }

        func testRepeatedServerHandshakeHitsTheCache() throws {
            let port = try serve("leaf")
            let root = try TLSFixtures.certificate("root")
            let cache = VerdictCache(capacity: 8)
            var cached = SigilServerTrustVerifier(anchors: [root])
            cached.verdictCache = cache
            let expected = [try TLSFixtures.der("leaf"), try TLSFixtures.der("int"), try TLSFixtures.der("root")]

            let first = try handshake(port, cached)
            XCTAssertEqual(cache.statistics.misses, 1)
            XCTAssertEqual(cache.statistics.hits, 0)
            XCTAssertEqual(cache.statistics.count, 1)
            let second = try handshake(port, cached)
            XCTAssertEqual(cache.statistics.hits, 1, "a reconnecting client is answered from the cache")
            XCTAssertEqual(cache.statistics.misses, 1)
            XCTAssertEqual(second.validatedDER, expected, "NIOSSL gets the same validated path")

            // The same verdict as without any cache.
            let uncached = try handshake(port, SigilServerTrustVerifier(anchors: [root]))
            XCTAssertEqual(uncached.validatedDER, expected)
            assertSameVerdict(first.verdict, uncached.verdict)
            assertSameVerdict(second.verdict, uncached.verdict)
        }

        /// `verify(_:name:)` with a cache answers from the presented DER (no parse on a hit): the
        /// verdict equals the uncached one, the presented chain is the peer's bytes, and a chain
        /// differing in any certificate (an expired leaf of the same CA, a rogue leaf, the
        /// intermediate alone, the leaf twice) is judged afresh, exactly as without a cache.
        func testNIOChainAnsweredFromTheDER() throws {
            let root = try TLSFixtures.certificate("root")
            func nio(_ names: [String]) throws -> [NIOSSLCertificate] {
                try names.map { try NIOSSLCertificate(bytes: try TLSFixtures.der($0), format: .der) }
            }
            let cache = VerdictCache(capacity: 8)
            var v = SigilServerTrustVerifier(anchors: [root])
            v.verdictCache = cache
            let plain = SigilServerTrustVerifier(anchors: [root])
            let good = try nio(["leaf", "int"])
            let first = v.verify(good, name: "sigil.test")
            let second = v.verify(try nio(["leaf", "int"]), name: "sigil.test")
            XCTAssertEqual(cache.statistics.misses, 1)
            XCTAssertEqual(cache.statistics.hits, 1)
            XCTAssertTrue(second.accepted)
            XCTAssertEqual(
                second.presentedChain.map(\.der), [try TLSFixtures.der("leaf"), try TLSFixtures.der("int")])
            assertSameVerdict(first, plain.verify(good, name: "sigil.test"))
            assertSameVerdict(second, plain.verify(good, name: "sigil.test"))
            for names in [
                ["leaf-expired", "int"], ["rogue-leaf", "int"], ["int"], ["leaf", "leaf"], ["int", "leaf"],
            ] {
                let chain = try nio(names)
                let hits = cache.statistics.hits
                let got = v.verify(chain, name: "sigil.test")
                XCTAssertEqual(cache.statistics.hits, hits, "\(names) is not the cached chain")
                assertSameVerdict(got, plain.verify(chain, name: "sigil.test"))
                XCTAssertEqual(got.error?.reason, plain.verify(chain, name: "sigil.test").error?.reason, "\(names)")
            }
            XCTAssertFalse(v.verify(try nio(["rogue-leaf", "int"]), name: "sigil.test").accepted)
            XCTAssertFalse(v.verify(try nio(["leaf-expired", "int"]), name: "sigil.test").accepted)
            // No certificate, no name: fail closed as without a cache.
            XCTAssertEqual(v.verify([], name: "sigil.test").error?.reason, .noCertificate)
            XCTAssertEqual(v.verify(good, name: nil).error?.reason, .policy(.domainRequired))
        }

        /// The host the verifier was last prepared for is compared by its bytes: after
        /// Kim.exact.sigil.test, the KELVIN SIGN spelling (Swift's `String ==` calls the two
        /// equal) is refused, with and without a cache (`Fixtures/exact-text`,
        /// `gen_exact_text.py`: openssl verifies the leaf for the first name only).
        func testLastNameIsComparedByItsBytes() throws {
            let dir = TestSupport.fixtures.appendingPathComponent("exact-text")
            let root = try Certificate.all(from: TestSupport.read(dir.appendingPathComponent("root.pem").path))[0]
            let leaf = try NIOSSLCertificate(file: dir.appendingPathComponent("leaf.pem").path, format: .pem)
            for withCache in [false, true] {
                var v = SigilServerTrustVerifier(anchors: [root])
                if withCache { v.verdictCache = VerdictCache(capacity: 8) }
                v.time = { 1_893_456_000 }
                XCTAssertTrue(v.verify([leaf], name: "Kim.exact.sigil.test").accepted, "cache: \(withCache)")
                XCTAssertFalse(v.verify([leaf], name: "\u{212A}im.exact.sigil.test").accepted, "cache: \(withCache)")
                XCTAssertTrue(v.verify([leaf], name: "kim.exact.sigil.test").accepted, "cache: \(withCache)")
            }
        }

        /// The mTLS side answers a reconnecting client from the presented DER as the server
        /// verifier does: the second identical chain is a hit, every other chain (expired,
        /// unknown issuer, reversed, leaf alone, a server certificate) is computed and judged as
        /// an uncached verifier judges it, and the allow-lists still run on a hit.
        func testClientChainAnsweredFromTheDER() throws {
            let root = try TLSFixtures.certificate("root")
            func nio(_ names: [String]) throws -> [NIOSSLCertificate] {
                try names.map { try NIOSSLCertificate(bytes: try TLSFixtures.der($0), format: .der) }
            }
            let now = 1_800_000_000.0  // inside every fixture's validity (2025–2045)
            let cache = VerdictCache(capacity: 8)
            var v = SigilClientCertificateVerifier(anchors: [root])
            v.verdictCache = cache
            v.time = { now }
            var plain = SigilClientCertificateVerifier(anchors: [root])
            plain.time = { now }
            let good = try nio(["client", "int"])
            let first = v.verify(good)
            let second = v.verify(try nio(["client", "int"]))
            XCTAssertEqual(cache.statistics.misses, 1)
            XCTAssertEqual(cache.statistics.hits, 1)
            XCTAssertTrue(second.accepted, "\(String(describing: second.error))")
            XCTAssertEqual(
                second.presentedChain.map(\.der), [try TLSFixtures.der("client"), try TLSFixtures.der("int")])
            XCTAssertEqual(
                second.validatedPath.map(\.der),
                [try TLSFixtures.der("client"), try TLSFixtures.der("int"), try TLSFixtures.der("root")])
            assertSameVerdict(first, plain.verify(good))
            assertSameVerdict(second, plain.verify(good))
            for names in [
                ["client-expired", "int"], ["client-unknown", "int"], ["int", "client"], ["client"], ["int"],
                ["client-server", "int"],
            ] {
                let chain = try nio(names)
                let hits = cache.statistics.hits
                let got = v.verify(chain)
                let expected = plain.verify(chain)
                XCTAssertEqual(cache.statistics.hits, hits, "\(names) is not the cached chain")
                assertSameVerdict(got, expected)
                XCTAssertEqual(got.accepted, expected.accepted, "\(names)")
                XCTAssertEqual(got.error?.reason, expected.error?.reason, "\(names)")
            }
            XCTAssertFalse(v.verify(try nio(["client-expired", "int"])).accepted)
            XCTAssertFalse(v.verify(try nio(["client-unknown", "int"])).accepted)
            // A hit still meets the allow-lists: the cached chain's leaf is not bob.
            var listed = v
            listed.allowedEmails = ["bob@sigil.test"]
            let hits = cache.statistics.hits
            XCTAssertEqual(listed.verify(good).error?.reason, .notAllowed)
            XCTAssertEqual(cache.statistics.hits, hits + 1)
            XCTAssertEqual(v.verify([]).error?.reason, .noCertificate)
        }

        func testOtherHostAndOtherAnchorsMiss() throws {
            let root = try TLSFixtures.certificate("root")
            let chain = [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")]
            let now = 1_800_000_000.0  // inside every fixture's validity (2025–2045)
            let cache = VerdictCache(capacity: 8)
            var v = SigilServerTrustVerifier(anchors: [root])
            v.verdictCache = cache
            XCTAssertTrue(v.verify(certificates: chain, name: "sigil.test", at: now).accepted)
            XCTAssertTrue(v.verify(certificates: chain, name: "sigil.test", at: now + 60).accepted)
            XCTAssertEqual(cache.statistics.hits, 1)

            // Another name of the same leaf (its SAN has DNS:localhost): a separate entry.
            let other = v.verify(certificates: chain, name: "localhost", at: now)
            XCTAssertEqual(cache.statistics.hits, 1)
            XCTAssertEqual(cache.statistics.misses, 2)
            assertSameVerdict(
                other, SigilServerTrustVerifier(anchors: [root]).verify(certificates: chain, name: "localhost", at: now)
            )
            // A name the leaf does not carry: refused, never cached, never a hit.
            let wrong = v.verify(certificates: chain, name: "other.test", at: now)
            XCTAssertFalse(wrong.accepted)
            XCTAssertEqual(wrong.error?.reason, .notTrusted(.nameMismatch))
            XCTAssertEqual(cache.statistics.hits, 1)
            XCTAssertEqual(cache.statistics.misses, 3)  // computed, not stored
            XCTAssertEqual(cache.statistics.count, 2)

            // Other anchors sharing the cache: the intermediate as the anchor (a shorter path),
            // and the root plus an unrelated root — both trusted, both misses. (The index hash does
            // not cover the anchors, so their entries may take the slot of the first verifier's:
            // fewer hits, never a wrong verdict, as the full key is compared.)
            var byInt = SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("int")])
            byInt.verdictCache = cache
            let shorter = byInt.verify(certificates: chain, name: "sigil.test", at: now)
            XCTAssertEqual(shorter.validatedPath.map(\.der), [try TLSFixtures.der("leaf"), try TLSFixtures.der("int")])
            XCTAssertEqual(cache.statistics.hits, 1)
            XCTAssertEqual(cache.statistics.misses, 4)
            let shorterAgain = byInt.verify(certificates: chain, name: "sigil.test", at: now)
            XCTAssertEqual(cache.statistics.hits, 2)
            assertSameVerdict(shorterAgain, shorter)
            var twoRoots = SigilServerTrustVerifier(anchors: [root, try TLSFixtures.certificate("rogue-root")])
            twoRoots.verdictCache = cache
            let viaRoot = twoRoots.verify(certificates: chain, name: "sigil.test", at: now)
            XCTAssertEqual(viaRoot.validatedPath.last?.der, try TLSFixtures.der("root"))
            XCTAssertEqual(cache.statistics.hits, 2)
            XCTAssertEqual(cache.statistics.misses, 5)
            // Whatever entry it finds, the first verifier's verdict is still its own.
            assertSameVerdict(
                v.verify(certificates: chain, name: "sigil.test", at: now),
                SigilServerTrustVerifier(anchors: [root]).verify(certificates: chain, name: "sigil.test", at: now))
        }

        func testChainEvaluatorAndSecurityPolicyUseTheCache() throws {
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let chain = [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")]
            let now = 1_800_000_000.0
            let cache = VerdictCache(capacity: 8)
            var byOptions = SigilServerTrustVerifier(
                evaluator: .chain(
                    anchors: anchors, options: VerificationOptions(purpose: .server(host: nil), time: 0),
                    signatureVerifier: SigilSignatureVerifier()))
            byOptions.verdictCache = cache
            XCTAssertTrue(byOptions.verify(certificates: chain, name: "sigil.test", at: now).accepted)
            XCTAssertTrue(byOptions.verify(certificates: chain, name: "sigil.test", at: now).accepted)
            XCTAssertEqual(cache.statistics.hits, 1)

            // A SecurityPolicy evaluates through the same options (anchors, server purpose, host):
            // its first verification may already be answered by the entry above; the second is.
            var policy = SigilServerTrustVerifier(policy: SecurityPolicy(anchors: anchors))
            policy.verdictCache = cache
            let a = policy.verify(certificates: chain, name: "sigil.test", at: now)
            let hits = cache.statistics.hits
            let b = policy.verify(certificates: chain, name: "sigil.test", at: now)
            XCTAssertTrue(a.accepted && b.accepted)
            XCTAssertEqual(cache.statistics.hits, hits + 1)
            XCTAssertEqual(a.validatedPath.map(\.der), b.validatedPath.map(\.der))
        }

        /// The verifier keeps its template for the last name checked: each name must still be
        /// checked on its own (RFC 6125 §6.4), with and without a cache, for both evaluators that
        /// use the template; a changed evaluator takes effect at once.
        func testEachNameIsCheckedAndANewEvaluatorTakesEffect() throws {
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            let chain = [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")]
            let now = 1_800_000_000.0
            let byTrust = SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("root")])
            let byOptions = SigilServerTrustVerifier(
                evaluator: .chain(
                    anchors: anchors, options: VerificationOptions(purpose: .server(host: nil), time: 0),
                    signatureVerifier: SigilSignatureVerifier()))
            var cachedTrust = byTrust
            cachedTrust.verdictCache = VerdictCache(capacity: 4)
            var cachedOptions = byOptions
            cachedOptions.verdictCache = VerdictCache(capacity: 4)
            for v in [byTrust, byOptions, cachedTrust, cachedOptions] {
                for _ in 0..<2 {
                    XCTAssertTrue(v.verify(certificates: chain, name: "sigil.test", at: now).accepted)
                    let other = v.verify(certificates: chain, name: "other.test", at: now)
                    XCTAssertEqual(other.error?.reason, .notTrusted(.nameMismatch))
                    XCTAssertEqual(other.checkedName, "other.test")
                    XCTAssertTrue(v.verify(certificates: chain, name: "localhost", at: now).accepted)
                    XCTAssertEqual(
                        v.verify(certificates: chain, name: nil, at: now).error?.reason, .policy(.domainRequired))
                }
            }
            // Replacing the evaluator (the rogue root as the only anchor) refuses the same chain.
            var changed = cachedTrust
            XCTAssertTrue(changed.verify(certificates: chain, name: "sigil.test", at: now).accepted)
            var rogue = CertificateTrust(certificates: [], policies: [.server(host: nil)], systemAnchors: TrustStore())
            rogue.anchors = [try TLSFixtures.certificate("rogue-root")]
            rogue.anchorsOnly = true
            changed.evaluator = .certificateTrust(rogue)
            let refused = changed.verify(certificates: chain, name: "sigil.test", at: now)
            XCTAssertFalse(refused.accepted)
            guard case .notTrusted(let k)? = refused.error?.reason else { return XCTFail("\(refused)") }
            XCTAssertTrue(k == .unknownIssuer || k == .untrustedRoot, "\(k)")
            // And the original verifier is unaffected.
            XCTAssertTrue(cachedTrust.verify(certificates: chain, name: "sigil.test", at: now).accepted)
        }

        func testRepeatedMutualTLSClientHitsTheCache() throws {
            let cache = VerdictCache(capacity: 8)
            let verdicts = Collected<SigilTLSVerdict>()
            var verifier = SigilClientCertificateVerifier(anchors: [try TLSFixtures.certificate("root")])
            verifier.verdictCache = cache
            verifier.observer = { verdicts.append($0) }
            let key = try NIOSSLPrivateKey(file: TLSFixtures.path("leaf.key"), format: .pem)
            let served =
                try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("leaf.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))
            var config = TLSConfiguration.makeServerConfiguration(
                certificateChain: served.map { .certificate($0) }, privateKey: .privateKey(key))
            config.certificateVerification = .noHostnameVerification
            let ctx = try NIOSSLContext(configuration: config)
            let v = verifier
            let server = try NIOServer(handlers: { try v.makeServerHandlers(context: ctx) }, errors: { _ in })
            defer { server.stop() }

            var clientConfig = TLSConfiguration.makeClientConfiguration()
            clientConfig.certificateChain =
                (try NIOSSLCertificate.fromPEMFile(TLSFixtures.path("client.pem"))
                + NIOSSLCertificate.fromPEMFile(TLSFixtures.path("int.pem"))).map { .certificate($0) }
            clientConfig.privateKey = .privateKey(
                try NIOSSLPrivateKey(file: TLSFixtures.path("client.key"), format: .pem))
            for round in 1...2 {
                _ = try? SigilTLSClient.handshake(
                    host: "127.0.0.1", port: server.port, serverName: "sigil.test", configuration: clientConfig,
                    verifier: SigilServerTrustVerifier(anchors: [try TLSFixtures.certificate("root")]), timeout: 5
                ).wait()
                let deadline = Date().addingTimeInterval(5)
                while verdicts.all.count < round && Date() < deadline { usleep(20_000) }
            }
            let all = verdicts.all
            XCTAssertEqual(all.count, 2)
            XCTAssertEqual(cache.statistics.misses, 1)
            XCTAssertEqual(cache.statistics.hits, 1, "the reconnecting client's chain is answered from the cache")
            let expected = [try TLSFixtures.der("client"), try TLSFixtures.der("int"), try TLSFixtures.der("root")]
            for verdict in all {
                XCTAssertTrue(verdict.accepted, "\(String(describing: verdict.error))")
                XCTAssertEqual(verdict.validatedPath.map(\.der), expected)
            }
            // The same verdict as an uncached verifier's.
            let parsed = [try TLSFixtures.certificate("client"), try TLSFixtures.certificate("int")]
            let uncached = SigilClientCertificateVerifier(anchors: [try TLSFixtures.certificate("root")])
                .verify(certificates: parsed, at: all[1].time)
            assertSameVerdict(all[1], uncached)
            // The allow-list still runs on a hit: a cached chain whose leaf is not allowed is refused.
            var listed = verifier
            listed.allowedEmails = ["bob@sigil.test"]
            let refused = listed.verify(certificates: parsed, at: all[1].time)
            XCTAssertEqual(refused.error?.reason, .notAllowed)
            XCTAssertEqual(cache.statistics.hits, 2)
        }

        // MARK: - RFC 7469 §3 `port`

        /// The report document's `port` member.
        func portMember(_ r: PinFailureReport?) -> JSONValue? {
            guard case .object(let members)? = r?.json else { return nil }
            return members.first { $0.0 == "port" }?.1
        }

        /// A policy pinning a key the chain does not carry (the rogue root's, from openssl).
        func mismatchingPolicy(_ reports: Collected<PinFailureReport>) throws -> SecurityPolicy {
            var anchors = TrustStore()
            anchors.add(try TLSFixtures.certificate("root"))
            var policy = SecurityPolicy(pinningMode: .publicKey, anchors: anchors)
            let cmd =
                "openssl x509 -in '\(TLSFixtures.path("rogue-root.pem"))' -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64"
            let b64 = try XCTUnwrap(TestSupport.run(["sh", "-c", cmd])).trimmingCharacters(in: .whitespacesAndNewlines)
            policy.pinnedPublicKeys = [try XCTUnwrap(PublicKeyPin("sha256/" + b64))]
            policy.pinFailureReporter = { reports.append($0) }
            return policy
        }

        func testPinReportCarriesThePortDialled() throws {
            let port = try serve("leaf")
            let reports = Collected<PinFailureReport>()
            let verifier = SigilServerTrustVerifier(policy: try mismatchingPolicy(reports))
            XCTAssertThrowsError(try handshake(port, verifier))
            XCTAssertEqual(reports.all.count, 1)
            XCTAssertEqual(reports.all.first?.port, port)
            XCTAssertEqual(reports.all.first?.hostname, "sigil.test")
            XCTAssertEqual(portMember(reports.all.first), .int(Int64(port)))
        }

        func testPinReportTakesThePortFromTheChannel() throws {
            let port = try serve("leaf")
            let reports = Collected<PinFailureReport>()
            let verifier = SigilServerTrustVerifier(policy: try mismatchingPolicy(reports))
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = .noHostnameVerification
            let ctx = try NIOSSLContext(configuration: config)
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            defer { try? group.syncShutdownGracefully() }
            // No port given to makeClientHandlers: the guard reads the channel's remote address.
            let channel = try ClientBootstrap(group: group)
                .channelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandlers(
                            try verifier.makeClientHandlers(context: ctx, serverHostname: "sigil.test"))
                    }
                }
                .connect(host: "127.0.0.1", port: port).wait()
            let deadline = Date().addingTimeInterval(5)
            while reports.all.isEmpty && Date() < deadline { usleep(20_000) }
            try? channel.close().wait()
            XCTAssertEqual(reports.all.count, 1)
            XCTAssertEqual(reports.all.first?.port, port)
        }

        func testPinReportPortIsNullWithoutAConnection() throws {
            let reports = Collected<PinFailureReport>()
            let verifier = SigilServerTrustVerifier(policy: try mismatchingPolicy(reports))
            let chain = [try TLSFixtures.certificate("leaf"), try TLSFixtures.certificate("int")]
            XCTAssertFalse(verifier.verify(certificates: chain, name: "sigil.test", at: 1_800_000_000).accepted)
            XCTAssertEqual(reports.all.count, 1)
            XCTAssertNil(reports.all.first?.port)
            XCTAssertEqual(portMember(reports.all.first), .null)
            // Given explicitly (a caller that knows where it connected).
            XCTAssertFalse(
                verifier.verify(certificates: chain, name: "sigil.test", port: 8443, at: 1_800_000_000).accepted)
            XCTAssertEqual(reports.all.last?.port, 8443)
        }
    }
#endif
