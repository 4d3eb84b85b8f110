import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// OpenSSL's TRUSTED CERTIFICATE trust settings (X509_CERT_AUX) limit the anchor they come with
/// (review finding, 2026-12-06: they were dropped, so a root a bundle rejects for serverAuth
/// anchored server chains). Fixtures: `Fixtures/trust-settings`, made by
/// `Fixtures/scripts/gen_trust_settings.py` with `openssl x509 -addtrust/-addreject -trustout`;
/// its verdicts.json holds `openssl verify`'s verdict for every anchor file and purpose, and the
/// verdict expected of Sigil (OpenSSL's, but for one documented difference).
final class TrustSettingsTests: XCTestCase {
    static let dir = TestSupport.fixtures.appendingPathComponent("trust-settings")
    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    struct Verdicts: Decodable {
        let at: Double
        let host: String
        let openssl: [String: [String: Bool]]
        let expected: [String: [String: Bool]]
        let paths: [PathCase]
    }

    struct PathCase: Decodable {
        let anchors: String
        let intermediates: String?
        let openssl: Bool
        let expected: Bool
    }

    func verdicts() throws -> Verdicts {
        try JSONDecoder().decode(Verdicts.self, from: Data(TestSupport.read(Self.path("verdicts.json"))))
    }

    func options(_ purpose: String, _ v: Verdicts) -> VerificationOptions {
        switch purpose {
        case "server": return VerificationOptions(purpose: .server(host: v.host), time: v.at)
        case "client": return VerificationOptions(purpose: .client, time: v.at)
        default: return VerificationOptions(purpose: .basic, time: v.at)
        }
    }

    /// Every anchor file, every purpose, loaded the three ways Sigil reads anchor files (whole
    /// bytes, the streaming reader, the system store from SSL_CERT_FILE): Sigil's verdict is the
    /// expected one.
    func testAnchorsAreLimitedToTheirTrustSettings() throws {
        let v = try verdicts()
        XCTAssertEqual(v.expected.count, 11)
        let leaf = try Certificate.all(from: TestSupport.read(Self.path("leaf.pem")))[0]
        for (file, byPurpose) in v.expected.sorted(by: { $0.key < $1.key }) {
            var whole = TrustStore()
            whole.add(contentsOf: try TestSupport.read(Self.path(file)))
            let streamed = try XCTUnwrap(TrustStore.loading(file: Self.path(file)))
            let system = TrustStore.system(environment: ["SSL_CERT_FILE": Self.path(file)])
            for (how, store) in [("bytes", whole), ("stream", streamed), ("system", system)] {
                XCTAssertEqual(store.count, 1, "\(file) \(how): one anchor")
                for (purpose, want) in byPurpose.sorted(by: { $0.key < $1.key }) {
                    let r = ChainVerifier(anchors: store).verify(
                        leaf: leaf, intermediates: [], options: options(purpose, v))
                    XCTAssertEqual(r.isTrusted, want, "\(file) \(how) \(purpose): \(r)")
                    if !want && r.failures.first?.kind != .untrustedRoot {
                        XCTFail("\(file) \(how) \(purpose): refused for its trust settings, got \(r.failures)")
                    }
                }
            }
        }
        // The one deliberate difference from OpenSSL (which keeps the first of two copies).
        XCTAssertEqual(v.openssl["plain-then-reject.pem"]?["server"], true)
        XCTAssertEqual(v.expected["plain-then-reject.pem"]?["server"], false)
        for (file, byPurpose) in v.openssl where file != "plain-then-reject.pem" {
            XCTAssertEqual(byPurpose, v.expected[file], file)
        }
    }

    /// A distrust covers every certificate of the rejected root's name and key: a re-issued
    /// copy in the store (in either order) and a cross-signature by another, trusted root are
    /// refused for servers (review of the session's diff, 2026-12-06: both went around it).
    /// OpenSSL refuses the cross-signed path and the rejected-first store, and trusts the other
    /// order (it stops at the first store copy it finds).
    func testDistrustCoversTheNameAndKey() throws {
        let v = try verdicts()
        XCTAssertEqual(v.paths.count, 4)
        let leaf = try Certificate.all(from: TestSupport.read(Self.path("leaf.pem")))[0]
        for c in v.paths {
            var store = TrustStore()
            store.add(contentsOf: try TestSupport.read(Self.path(c.anchors)))
            let intermediates =
                try c.intermediates.map { try Certificate.all(from: TestSupport.read(Self.path($0))) } ?? []
            let r = ChainVerifier(anchors: store).verify(
                leaf: leaf, intermediates: intermediates, options: options("server", v))
            XCTAssertEqual(r.isTrusted, c.expected, "\(c.anchors) + \(c.intermediates ?? "-"): \(r)")
            if !c.expected { XCTAssertEqual(r.failures.first?.kind, .untrustedRoot, "\(c.anchors): \(r.failures)") }
            // Not for clients: the settings reject serverAuth only.
            if c.anchors != "other-root.pem" {
                let client = ChainVerifier(anchors: store).verify(
                    leaf: leaf, intermediates: intermediates, options: options("client", v))
                XCTAssertTrue(client.isTrusted, "\(c.anchors) for a client: \(client)")
            }
        }
    }

    /// The settings as decoded from the blocks openssl wrote, and the decoder's strictness.
    func testDecodingOpenSSLsAux() throws {
        func settings(_ file: String) throws -> CertificateTrustSettings? {
            let blocks = try PEM.decodeBlocks(try TestSupport.read(Self.path(file)))
            XCTAssertEqual(blocks.certificates.count, 1, file)
            return blocks.trustSettings[0]
        }
        XCTAssertNil(try settings("root.pem"))
        XCTAssertNil(try settings("root-trustout.pem"), "-trustout without settings writes no aux")
        XCTAssertEqual(
            try settings("root-reject-sa.pem"), CertificateTrustSettings(trusted: nil, rejected: [OID.serverAuth]))
        XCTAssertEqual(
            try settings("root-trust-sa.pem"), CertificateTrustSettings(trusted: [OID.serverAuth], rejected: []))
        XCTAssertEqual(try settings("root-bad-aux.pem"), .permitNothing)
        // The certificate bytes are the plain root's.
        let plain = try PEM.decodeBlocks(try TestSupport.read(Self.path("root.pem"))).certificates[0]
        XCTAssertEqual(
            try PEM.decodeBlocks(try TestSupport.read(Self.path("root-reject-sa.pem"))).certificates[0], plain)

        // X509_CERT_AUX by hand: trust {serverAuth}, reject [0] {clientAuth}, alias "a".
        let sa: [UInt8] = [0x06, 0x08] + OID.serverAuth
        let ca: [UInt8] = [0x06, 0x08] + OID.clientAuth
        let body: [UInt8] = [0x30, 0x0A] + sa + [0xA0, 0x0A] + ca + [0x0C, 0x01, 0x61]
        let aux: [UInt8] = [0x30, UInt8(body.count)] + body
        XCTAssertEqual(
            try CertificateTrustSettings(auxDER: aux),
            CertificateTrustSettings(trusted: [OID.serverAuth], rejected: [OID.clientAuth]))
        XCTAssertThrowsError(try CertificateTrustSettings(auxDER: aux + [0x00]), "trailing bytes")
        let swapped: [UInt8] = [0xA0, 0x0A] + ca + [0x30, 0x0A] + sa
        XCTAssertThrowsError(try CertificateTrustSettings(auxDER: [0x30, UInt8(swapped.count)] + swapped), "order")
        let primitiveReject: [UInt8] = [0x80, 0x0A] + ca
        XCTAssertThrowsError(
            try CertificateTrustSettings(auxDER: [0x30, UInt8(primitiveReject.count)] + primitiveReject),
            "[0] primitive")
        XCTAssertEqual(
            try CertificateTrustSettings(auxDER: [0x30, 0x00]), CertificateTrustSettings(trusted: nil, rejected: []))
    }

    /// OpenSSL's rule (x509_trust.c obj_trust) and the combination of two copies.
    func testPermitsAndCombined() {
        let any = OID.anyExtendedKeyUsage
        let rejectSA = CertificateTrustSettings(trusted: nil, rejected: [OID.serverAuth])
        XCTAssertFalse(rejectSA.permits(OID.serverAuth))
        XCTAssertTrue(rejectSA.permits(OID.clientAuth))
        XCTAssertTrue(rejectSA.permits(any))
        XCTAssertFalse(CertificateTrustSettings(trusted: nil, rejected: [any]).permits(OID.clientAuth))
        let trustSA = CertificateTrustSettings(trusted: [OID.serverAuth], rejected: [])
        XCTAssertTrue(trustSA.permits(OID.serverAuth))
        XCTAssertFalse(trustSA.permits(OID.clientAuth))
        XCTAssertFalse(trustSA.permits(any), "no purpose asks for anyExtendedKeyUsage")
        XCTAssertTrue(CertificateTrustSettings(trusted: [any], rejected: []).permits(OID.codeSigning))
        XCTAssertFalse(CertificateTrustSettings.permitNothing.permits(any))
        // Combined: every rejection kept, trust lists intersected.
        let both = trustSA.combined(
            with: CertificateTrustSettings(trusted: [OID.serverAuth, OID.clientAuth], rejected: []))
        XCTAssertEqual(both, trustSA)
        XCTAssertFalse(trustSA.combined(with: rejectSA).permits(OID.serverAuth))
        XCTAssertEqual(
            CertificateTrustSettings(trusted: [any], rejected: []).combined(with: trustSA).trusted, [OID.serverAuth])
    }

    /// A required EKU of the caller's is asked of the settings instead of the purpose's.
    func testRequiredEKUsAreAsked() throws {
        let v = try verdicts()
        let leaf = try Certificate.all(from: TestSupport.read(Self.path("leaf.pem")))[0]
        var store = TrustStore()
        store.add(contentsOf: try TestSupport.read(Self.path("root-trust-sa.pem")))
        var o = VerificationOptions(purpose: .basic, time: v.at)
        XCTAssertFalse(ChainVerifier(anchors: store).verify(leaf: leaf, intermediates: [], options: o).isTrusted)
        o.requiredEKUs = [OID.serverAuth]
        XCTAssertTrue(ChainVerifier(anchors: store).verify(leaf: leaf, intermediates: [], options: o).isTrusted)
        o.requiredEKUs = [OID.serverAuth, OID.clientAuth]
        XCTAssertFalse(ChainVerifier(anchors: store).verify(leaf: leaf, intermediates: [], options: o).isTrusted)
        // The purpose's own usage is asked too: a server verification requiring clientAuth
        // of the leaf still needs serverAuth trust (openssl -purpose sslserver), so a root
        // rejected for serverAuth ends no such path.
        var rejecting = TrustStore()
        rejecting.add(contentsOf: try TestSupport.read(Self.path("root-reject-sa.pem")))
        var server = VerificationOptions(purpose: .server(host: v.host), time: v.at)
        server.requiredEKUs = [OID.clientAuth]
        let r = ChainVerifier(anchors: rejecting).verify(leaf: leaf, intermediates: [], options: server)
        XCTAssertEqual(r.failures.first?.kind, .untrustedRoot, "\(r)")
    }

    /// The verdict cache keys the system anchors' trust settings: a trusted verdict under the
    /// plain root is not returned for the same root rejected for serverAuth.
    func testVerdictCacheKeysTheTrustSettings() throws {
        let v = try verdicts()
        let leaf = try Certificate.all(from: TestSupport.read(Self.path("leaf.pem")))[0]
        let cache = VerdictCache(capacity: 8, maximumAge: 100, clock: { 0 }, hash: { _ in 42 })
        func evaluate(_ file: String) throws -> CertificateTrust.Evaluation {
            var store = TrustStore()
            store.add(contentsOf: try TestSupport.read(Self.path(file)), source: .system)
            var t = CertificateTrust(
                certificates: [leaf], options: VerificationOptions(purpose: .server(host: v.host), time: v.at),
                systemAnchors: store, signatureVerifier: SigilSignatureVerifier())
            t.verdictCache = cache
            return t.evaluate()
        }
        XCTAssertTrue(try evaluate("root.pem").isTrusted)
        XCTAssertTrue(try evaluate("root.pem").isTrusted)
        XCTAssertEqual(cache.statistics.hits, 1)
        XCTAssertFalse(try evaluate("root-reject-sa.pem").isTrusted)
        XCTAssertEqual(cache.statistics.hits, 1, "another anchor store: a miss")
    }

    /// The command line: `--anchor` with a root rejected for serverAuth refuses the server
    /// chain, and accepts it for a client.
    func testCommandLine() throws {
        let v = try verdicts()
        func run(_ anchor: String, _ purpose: [String], exit: Int32) throws {
            _ = try runSigil(
                ["verify", "--at", "1893456000", "--anchor", Self.path(anchor), "--anchors-only"] + purpose + [
                    Self.path("leaf.pem")
                ], exit: exit)
        }
        try run("root-reject-sa.pem", ["--host", v.host], exit: 1)
        try run("root.pem", ["--host", v.host], exit: 0)
        try run("root-reject-sa.pem", ["--kind", "client"], exit: 0)
    }
}
