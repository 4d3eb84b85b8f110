import Foundation
@_spi(SigilInternal) import Sigil
import SigilTestSupport
@_spi(SigilInternal) import SigilTrust
import XCTest

/// Revocation (RFC 5280 §5, §6.3; RFC 6960) against `Fixtures/revocation/`, made by
/// `Fixtures/scripts/gen_revocation.py` with `openssl ca` / `openssl crl -gendelta` /
/// `openssl ocsp`. Every expected verdict is OpenSSL's, recorded in the manifest by the script
/// (`openssl verify -crl_check[_all] [-use_deltas]`, `openssl ocsp -resp_text`, `-verify_other`).
final class RevocationTests: XCTestCase {
    struct Manifest: Decodable {
        struct CRLScenario: Decodable {
            let name, leaf, openssl, opensslOutput, description: String
            let intermediates, crls: [String]
            let trusted: Bool
        }
        struct OCSPScenario: Decodable {
            let name, response, leaf, certStatus, statusForLeaf, opensslOutput, description: String
            let opensslVerify: Bool
            let nextUpdate: Int64?
        }
        let verificationTime: Int64
        let anchor: String
        let crlScenarios: [CRLScenario]
        let ocspScenarios: [OCSPScenario]?
    }

    static let dir = TestSupport.fixtures.appendingPathComponent("revocation")

    func manifest() throws -> Manifest {
        try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("manifest.json")))
    }

    func bytes(_ name: String) throws -> [UInt8] { try TestSupport.read(Self.dir.appendingPathComponent(name).path) }
    func cert(_ name: String) throws -> Certificate { try Certificate.all(from: bytes(name))[0] }
    func crls(_ names: [String]) throws -> [CertificateList] {
        try names.flatMap { try CertificateList.all(from: bytes($0)) }
    }

    func verifier(_ m: Manifest) throws -> ChainVerifier {
        var store = TrustStore()
        store.add(try cert(m.anchor))
        return ChainVerifier(anchors: store)
    }

    // MARK: CRL path scenarios (expected: openssl verify)

    func testCRLScenariosAgreeWithOpenSSL() throws {
        let m = try manifest()
        XCTAssertGreaterThanOrEqual(m.crlScenarios.count, 12)
        try checkCRLScenarios(m, in: "")
    }

    /// `Fixtures/revocation/rules/` (its own PKI): the RFC 5280 §6.3.3 rules of issue 21,
    /// milestone 3, each scenario naming its clause (manifest "rule"); the verdicts are
    /// `openssl verify -crl_check_all -extended_crl -x509_strict`'s.
    /// - (f): a separate CRL signer's (same name, or an indirect CRL issuer's) own certificate
    ///   revoked; a signer whose status only a CRL it signs could decide (undetermined).
    /// - (b)(1): a DP naming a cRLIssuer takes only that issuer's indirect CRL (or the
    ///   certificate issuer's CRL not specified in any DP, §6.3.3's closing paragraph).
    /// - §4.2.1.13, §5.2.5, (b)(2)(i): nameRelativeToCRLIssuer on either side.
    /// - (b)(2)(i): an IDP with several names; a DP with only a cRLIssuer.
    /// - §6.1, (f): a CRL signed by the CA's self-issued key-rollover certificate.
    func testCRLRuleScenariosAgreeWithOpenSSL() throws {
        let m = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("rules/manifest.json")))
        XCTAssertGreaterThanOrEqual(m.crlScenarios.count, 20)
        // Both verdicts are represented.
        XCTAssertTrue(m.crlScenarios.contains { $0.trusted } && m.crlScenarios.contains { !$0.trusted })
        try checkCRLScenarios(m, in: "rules/")
    }

    /// `Fixtures/revocation/edges/` (its own PKI, `gen_revocation.py --edges-only`): several
    /// current CRLs of one issuer and scope, given oldest first and newest first (§5.2.3: the
    /// newest decides, as OpenSSL, which takes the latest thisUpdate; an older CRL that does not
    /// list a certificate the newer one revokes once made it good), a certificateHold released
    /// by the newer CRL (§5.3.1), onlyContainsUserCerts for a CA (§6.3.3 (b)(2)(ii)),
    /// onlySomeReasons alone ((d)) and a CRL not yet valid ((a)). Verdicts: `openssl verify
    /// -crl_check_all -extended_crl -x509_strict`.
    func testCRLEdgeScenariosAgreeWithOpenSSL() throws {
        let m = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("edges/manifest.json")))
        XCTAssertGreaterThanOrEqual(m.crlScenarios.count, 8)
        try checkCRLScenarios(m, in: "edges/")
    }

    func checkCRLScenarios(_ m: Manifest, in sub: String) throws {
        var store = TrustStore()
        store.add(try cert(sub + m.anchor))
        let v = ChainVerifier(anchors: store)
        for s in m.crlScenarios {
            var options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
            var r = RevocationOptions(crls: try crls(s.crls.map { sub + $0 }), policy: .hardFail)
            // -crl_check checks the leaf only; -crl_check_all the whole path. -use_deltas.
            r.scope = s.openssl.contains("-crl_check_all") ? .wholePath : .leafOnly
            r.useDeltaCRLs = s.openssl.contains("-use_deltas")
            options.revocation = r
            let result = v.verify(
                leaf: try cert(sub + s.leaf), intermediates: try s.intermediates.map { try cert(sub + $0) },
                options: options)
            XCTAssertEqual(
                result.isTrusted, s.trusted,
                "\(s.name): \(s.description): \(result.failures) / openssl: \(s.opensslOutput)")
            if !s.trusted, let f = result.failures.first {
                // "error 23 at D depth lookup: certificate revoked" → revoked at index D;
                // anything else (no CRL, expired, scope, signature, the CRL signer's path:
                // "error 54 … CRL path validation error") → undetermined. Lines about the CRL
                // signer's own path, "[CRL path] …", are not the verdict.
                let verdictLine = s.opensslOutput.split(separator: "\n").last {
                    $0.hasPrefix("error ") && $0.contains(" depth lookup")
                }
                let depth = verdictLine.flatMap {
                    $0.range(of: #"at (\d+) depth"#, options: .regularExpression).map { r in
                        Int(verdictLine![r].split(separator: " ")[1])!
                    }
                }
                if verdictLine?.contains("certificate revoked") == true {
                    XCTAssertEqual(f.kind, .revoked, "\(s.name): \(result.failures)")
                } else {
                    XCTAssertEqual(f.kind, .revocationUndetermined, "\(s.name): \(result.failures)")
                }
                XCTAssertEqual(f.certificateIndex, depth, "\(s.name): \(result.failures)")
            }
            if case .trusted(let path, _, let details) = result {
                let checked = r.scope == .wholePath ? path.count - 1 : 1
                XCTAssertEqual(details.revocation.count, checked, s.name)
                XCTAssertTrue(
                    details.revocation.allSatisfy { $0.status == .good && $0.source == .crl },
                    "\(s.name): \(details.revocation)")
            }
        }
    }

    func testSoftFailReportsUndetermined() throws {
        let m = try manifest()
        var options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
        options.revocation = RevocationOptions(crls: try crls(["root.crl.pem"]), policy: .softFail)
        let result = try verifier(m).verify(
            leaf: try cert("leaf-good.pem"), intermediates: [try cert("int.pem")], options: options)
        guard case .trusted(_, _, let details) = result else { return XCTFail("\(result.failures)") }
        XCTAssertEqual(details.revocation.map(\.status.name), ["undetermined", "good"])
        // A revoked certificate fails under soft fail too.
        options.revocation = RevocationOptions(crls: try crls(["root.crl.pem", "int.crl.pem"]), policy: .softFail)
        let revoked = try verifier(m).verify(
            leaf: try cert("leaf-revoked.pem"), intermediates: [try cert("int.pem")], options: options)
        XCTAssertEqual(revoked.failures.first?.kind, .revoked)
    }

    func testNoRevocationOptionsMeansNoChecking() throws {
        let m = try manifest()
        let options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
        let result = try verifier(m).verify(
            leaf: try cert("leaf-revoked.pem"), intermediates: [try cert("int.pem")], options: options)
        guard case .trusted(_, _, let details) = result else { return XCTFail("\(result.failures)") }
        XCTAssertTrue(details.revocation.isEmpty)
    }

    // MARK: CertificateList parsing (expected: openssl crl -text)

    func testCRLFieldsMatchOpenSSL() throws {
        for name in [
            "int.crl.pem", "root.crl.pem", "int-delta.crl.pem", "int-delta-unhold.crl.pem", "int-idp-match.crl.pem",
        ] {
            guard
                let text = try TestSupport.run([
                    "openssl", "crl", "-in", Self.dir.appendingPathComponent(name).path, "-noout", "-text",
                ])
            else {
                throw XCTSkip("openssl not available")
            }
            let crl = try crls([name])[0]
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let serials = lines.filter { $0.hasPrefix("Serial Number:") }.map {
                String($0.dropFirst("Serial Number:".count)).trimmingCharacters(in: .whitespaces).lowercased()
            }
            var ours = crl.revokedCertificates.map { ByteSpan.hexString($0.serialNumber.bytes.drop { $0 == 0 }) }
            XCTAssertEqual(
                ours, serials.map { String($0.drop { $0 == "0" }) }.map { $0.count % 2 == 1 ? "0" + $0 : $0 }, name)
            XCTAssertEqual(crl.revokedCount, serials.count, name)
            // Each entry is found through the sorted index.
            for e in crl.revokedCertificates {
                XCTAssertEqual(crl.entries(serial: e.serialNumber).count, 1, name)
            }
            ours = crl.revokedCertificates.map { $0.reason?.name ?? "-" }
            let reasons = zip(lines.indices, lines).filter { $0.1.hasPrefix("Serial Number:") }.map {
                (i, _) -> String in
                // "X509v3 CRL Reason Code:" is followed by the reason on the next line.
                var j = i + 1
                while j < lines.count && !lines[j].hasPrefix("Serial Number:")
                    && !lines[j].hasPrefix("Signature Algorithm")
                {
                    if lines[j].hasPrefix("X509v3 CRL Reason Code") { return lines[j + 1] }
                    j += 1
                }
                return "-"
            }
            let opensslNames = [
                "Key Compromise": "keyCompromise", "CA Compromise": "cACompromise", "Superseded": "superseded",
                "Certificate Hold": "certificateHold", "Remove From CRL": "removeFromCRL", "-": "-",
            ]
            XCTAssertEqual(ours, reasons.map { opensslNames[$0] ?? $0 }, name)
            XCTAssertEqual(crl.isDelta, text.contains("Delta CRL Indicator"), name)
            XCTAssertEqual(crl.facts.issuingDistributionPoint != nil, text.contains("Issuing Distribution Point"), name)
            if text.contains("Only User Certificates") {
                XCTAssertEqual(crl.facts.issuingDistributionPoint?.onlyContainsUserCerts, true, name)
            }
            // Last Update as openssl prints it.
            if let line = lines.first(where: { $0.hasPrefix("Last Update:") }) {
                let f = DateFormatter()
                f.locale = Locale(identifier: "en_US_POSIX")
                f.timeZone = TimeZone(identifier: "GMT")
                f.dateFormat = "MMM d HH:mm:ss yyyy zzz"
                let s = String(line.dropFirst("Last Update:".count)).trimmingCharacters(in: .whitespaces)
                    .replacingOccurrences(of: "  ", with: " ")
                XCTAssertEqual(f.date(from: s).map { Int64($0.timeIntervalSince1970) }, crl.thisUpdate, name)
            }
        }
    }

    func testTruncatedAndFlippedCRLsFailWithTypedErrors() throws {
        let der = try crls(["int.crl.pem"])[0].der
        for n in stride(from: 0, to: der.count, by: 3) {
            XCTAssertThrowsError(try CertificateList(der: Array(der[0..<n])))
        }
        // Flipped bytes: an error or a list; never a crash.
        for i in 0..<der.count {
            var d = der
            d[i] ^= 0x41
            _ = try? CertificateList(der: d)
        }
    }

    /// A list built here of 10 000 unsorted serials: every one found, neighbours not.
    func testLookupInALargeUnsortedList() throws {
        var entries: [UInt8] = []
        var serials: [[UInt8]] = []
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<10_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var s = withUnsafeBytes(of: x.bigEndian) { Array($0) }
            s[0] &= 0x3F
            if s[0] == 0 { s[0] = 1 }
            serials.append(s)
            let e: [UInt8] = [0x02, UInt8(s.count)] + s + [0x17, 0x0D] + Array("250101000000Z".utf8)
            entries += [0x30, UInt8(e.count)] + e
        }
        func tlv(_ tag: UInt8, _ c: [UInt8]) -> [UInt8] {
            let n = c.count
            if n < 0x80 { return [tag, UInt8(n)] + c }
            if n < 0x100 { return [tag, 0x81, UInt8(n)] + c }
            if n < 0x10000 { return [tag, 0x82, UInt8(n >> 8), UInt8(n & 0xFF)] + c }
            return [tag, 0x83, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + c
        }
        let alg: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        let name = tlv(0x30, tlv(0x31, tlv(0x30, [0x06, 0x03, 0x55, 0x04, 0x03] + tlv(0x0C, Array("CA".utf8)))))
        let tbs = tlv(0x30, alg + name + [0x17, 0x0D] + Array("250101000000Z".utf8) + tlv(0x30, entries))
        let crl = try CertificateList(der: tlv(0x30, tbs + alg + [0x03, 0x02, 0x00, 0x00]))
        XCTAssertEqual(crl.revokedCount, 10_000)
        let all = Set(serials)
        for s in serials {
            XCTAssertEqual(crl.entries(serial: s).count, 1)
            var t = s
            t[t.count - 1] ^= 0x80
            if !all.contains(t) { XCTAssertEqual(crl.entries(serial: t).count, 0) }
        }
    }

    // MARK: OCSP (expected: openssl ocsp)

    func testOCSPScenariosAgreeWithOpenSSL() throws {
        let m = try manifest()
        let T = Double(m.verificationTime)
        let issuer = try cert("int.pem")
        let scenarios = m.ocspScenarios ?? []
        XCTAssertGreaterThanOrEqual(scenarios.count, 8)
        for s in scenarios {
            let response = try OCSPResponse(der: bytes(s.response))
            XCTAssertEqual(response.status, .successful, s.name)
            let status = response.status(
                of: try cert(s.leaf), issuer: issuer, at: T, verifier: SigilSignatureVerifier())
            let fresh = s.nextUpdate.map { Int64(T) <= $0 } ?? true
            let expected: String
            if !s.opensslVerify || !fresh {
                expected = "undetermined"
            } else {
                switch s.statusForLeaf {
                case "good": expected = "good"
                case "revoked": expected = "revoked"
                default: expected = "undetermined"  // unknown, or no status for this certificate
                }
            }
            XCTAssertEqual(
                status.name, expected, "\(s.name): \(s.description): \(status) / openssl: \(s.opensslOutput)")
            if case .revoked(let reason, _) = status {
                XCTAssertTrue(s.opensslOutput.contains("Reason: \(reason.name)"), "\(s.name): \(reason)")
            }
            // Parsed fields against -resp_text.
            if let basic = response.basic {
                XCTAssertEqual(basic.responses.count, 1, s.name)
                let single = basic.responses[0]
                switch single.status {
                case .good: XCTAssertEqual(s.certStatus, "good", s.name)
                case .revoked: XCTAssertEqual(s.certStatus, "revoked", s.name)
                case .unknown: XCTAssertEqual(s.certStatus, "unknown", s.name)
                }
                XCTAssertEqual(single.nextUpdate, s.nextUpdate, s.name)
            }
        }
        // The stale response was fresh when made (openssl said good then).
        let stale = try OCSPResponse(der: bytes("ocsp-stale.ocsp.der"))
        let thisUpdate = Double(stale.basic!.responses[0].thisUpdate)
        XCTAssertEqual(
            stale.status(
                of: try cert("leaf-good.pem"), issuer: issuer, at: thisUpdate + 10, verifier: SigilSignatureVerifier()),
            .good)
        // A verification time that is not a number makes no response fresh (RFC 6960 §3.2 items
        // 4-5 must hold positively; fail closed, as certificate validity does): every good or
        // unknown scenario is undetermined at NaN; a revocation (not a hold) needs no freshness
        // and stays revoked (RFC 6960 §2.2), which fails closed as well.
        var revokedSeen = 0
        for s in scenarios {
            let response = try OCSPResponse(der: bytes(s.response))
            for time in [Double.nan, -Double.nan] {
                let status = response.status(
                    of: try cert(s.leaf), issuer: issuer, at: time, verifier: SigilSignatureVerifier())
                if s.certStatus == "revoked" {
                    // Revoked by the issuer's own signature; a delegated responder's certificate
                    // is not valid at NaN, so that response says nothing (undetermined).
                    XCTAssertNotEqual(status.name, "good", "\(s.name) at \(time): \(status)")
                    if status.name == "revoked" { revokedSeen += 1 }
                } else {
                    XCTAssertEqual(status.name, "undetermined", "\(s.name) at \(time): \(status)")
                }
            }
        }
        XCTAssertGreaterThan(revokedSeen, 0)
    }

    /// `Fixtures/revocation/edges/` OCSP responses (RFC 6960 §4.2.2.2, §3.2 items 4-5): a
    /// responder with id-kp-OCSPSigning issued by the root instead of the leaf's issuer, an
    /// expired delegated responder, a delegated responder whose certificate is not in the
    /// response, a thisUpdate a day ahead; controls signed by a proper delegated responder.
    /// Expected: `openssl ocsp -verify_other int.pem -issuer int.pem -cert LEAF` (a response it
    /// does not verify, or whose status times it calls invalid, is undetermined).
    func testOCSPEdgeScenariosAgreeWithOpenSSL() throws {
        let m = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("edges/manifest.json")))
        let scenarios = m.ocspScenarios ?? []
        XCTAssertGreaterThanOrEqual(scenarios.count, 6)
        XCTAssertTrue(scenarios.contains { $0.opensslVerify } && scenarios.contains { !$0.opensslVerify })
        let issuer = try cert("edges/int.pem")
        for s in scenarios {
            let response = try OCSPResponse(der: bytes("edges/" + s.response))
            let status = response.status(
                of: try cert("edges/" + s.leaf), issuer: issuer, at: Double(m.verificationTime),
                verifier: SigilSignatureVerifier())
            let expected = s.opensslVerify ? s.statusForLeaf : "undetermined"
            XCTAssertEqual(
                status.name, expected, "\(s.name): \(s.description): \(status) / openssl: \(s.opensslOutput)")
        }
    }

    func testStapledOCSPThroughTheVerifier() throws {
        let m = try manifest()
        let v = try verifier(m)
        let options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
        let int = try cert("int.pem")
        let good = v.verify(
            leaf: try cert("leaf-good.pem"), intermediates: [int], options: options,
            stapledOCSPResponse: try bytes("ocsp-good.ocsp.der"), policy: .hardFail)
        guard case .trusted(_, _, let details) = good else { return XCTFail("\(good.failures)") }
        XCTAssertEqual(
            details.revocation, [CertificateRevocationStatus(certificateIndex: 0, status: .good, source: .ocsp)])
        let revoked = v.verify(
            leaf: try cert("leaf-revoked.pem"), intermediates: [int], options: options,
            stapledOCSPResponse: try bytes("ocsp-delegated-revoked.ocsp.der"), policy: .softFail)
        XCTAssertEqual(revoked.failures.first?.kind, .revoked)
        XCTAssertEqual(revoked.failures.first?.certificateIndex, 0)
        let missing = v.verify(
            leaf: try cert("leaf-good.pem"), intermediates: [int], options: options,
            stapledOCSPResponse: nil, policy: .hardFail)
        XCTAssertEqual(missing.failures.first?.kind, .revocationUndetermined)
        let wrong = v.verify(
            leaf: try cert("leaf-revoked.pem"), intermediates: [int], options: options,
            stapledOCSPResponse: try bytes("ocsp-wrong-certid.ocsp.der"), policy: .hardFail)
        XCTAssertEqual(wrong.failures.first?.kind, .revocationUndetermined)
    }

    func testTruncatedOCSPResponsesFailWithTypedErrors() throws {
        let der = try bytes("ocsp-delegated.ocsp.der")
        for n in 0..<der.count { XCTAssertThrowsError(try OCSPResponse(der: Array(der[0..<n]))) }
        for i in 0..<der.count {
            var d = der
            d[i] ^= 0x41
            _ = try? OCSPResponse(der: d)
        }
    }

    // MARK: Answers that disagree with themselves (Fixtures/revocation/multi/)

    struct MultiManifest: Decodable {
        struct CRLScenario: Decodable {
            let name, leaf, opensslOutput, expected, rule, description: String
            let intermediates, crls: [String]
            let trusted: Bool
        }
        struct OCSPScenario: Decodable {
            let name, response, leaf, opensslStatusForLeaf, opensslOutput, expected, rule, description: String
            let certStatuses: [String]
            let opensslVerify: Bool
        }
        let verificationTime: Int64
        let anchor: String
        let crlScenarios: [CRLScenario]
        let ocspScenarios: [OCSPScenario]
    }

    func multiManifest() throws -> MultiManifest {
        try JSONDecoder().decode(
            MultiManifest.self, from: Data(contentsOf: Self.dir.appendingPathComponent("multi/manifest.json")))
    }

    /// Several SingleResponses for the leaf's CertID in one response (RFC 6960 §4.2.1): the
    /// strictest fresh answer wins (revoked > unknown > good, Chrome's rule); OpenSSL, which
    /// takes the first, says good for good-then-revoked (recorded in the manifest). Every
    /// response verifies under `openssl ocsp -verify_other`; the statuses are `-resp_text`'s.
    func testSeveralOCSPAnswersForOneCertificateStrictestWins() throws {
        let m = try multiManifest()
        let T = Double(m.verificationTime)
        let issuer = try cert("multi/int.pem")
        XCTAssertGreaterThanOrEqual(m.ocspScenarios.count, 6)
        // The case this guards: OpenSSL reads good where a later answer says revoked.
        XCTAssertTrue(
            m.ocspScenarios.contains { $0.opensslStatusForLeaf == "good" && $0.expected == "revoked" })
        var store = TrustStore()
        store.add(try cert("multi/" + m.anchor))
        let v = ChainVerifier(anchors: store)
        for s in m.ocspScenarios {
            XCTAssertTrue(s.opensslVerify, "\(s.name): \(s.opensslOutput)")
            let der = try bytes("multi/" + s.response)
            let response = try OCSPResponse(der: der)
            let parsed = (response.basic?.responses ?? []).map { r -> String in
                switch r.status {
                case .good: return "good"
                case .revoked: return "revoked"
                case .unknown: return "unknown"
                }
            }
            XCTAssertEqual(parsed, s.certStatuses, s.name)
            let leaf = try cert("multi/" + s.leaf)
            let status = response.status(of: leaf, issuer: issuer, at: T, verifier: SigilSignatureVerifier())
            XCTAssertEqual(status.name, s.expected, "\(s.name): \(s.description) (\(s.rule)): \(status)")
            // The same through the verifier, stapled, hard fail.
            let result = v.verify(
                leaf: leaf, intermediates: [issuer],
                options: VerificationOptions(purpose: .basic, time: T), stapledOCSPResponse: der, policy: .hardFail)
            switch s.expected {
            case "good": XCTAssertTrue(result.isTrusted, "\(s.name): \(result.failures)")
            case "revoked": XCTAssertEqual(result.failures.first?.kind, .revoked, s.name)
            default: XCTAssertEqual(result.failures.first?.kind, .revocationUndetermined, s.name)
            }
        }
    }

    /// CRLs without nextUpdate (RFC 5280 §5.1.2.5), fresh and a month old, and two current
    /// complete CRLs of one issuer with different scopes, the lower-numbered one listing the
    /// leaf (§5.2.3); a delta CRL whose removeFromCRL would lift a keyCompromise of its base
    /// (§5.3.1), and a complete CRL listing the leaf with removeFromCRL (delta CRLs only, §5.3.1). Expected verdicts are the manifest's, each with its rule; OpenSSL's is recorded
    /// beside it (it trusts the month-old CRL without nextUpdate and the lifted keyCompromise,
    /// and for the two scopes its verdict depends on the order the CRLs are given in).
    func testCRLsWithoutNextUpdateAndOfSeveralScopes() throws {
        let m = try multiManifest()
        XCTAssertGreaterThanOrEqual(m.crlScenarios.count, 10)
        // removeFromCRL in a complete CRL (RFC 5280 §5.3.1: delta CRLs only): OpenSSL trusts.
        let remove = try XCTUnwrap(m.crlScenarios.first { $0.name == "complete-lists-remove" })
        XCTAssertTrue(remove.trusted, remove.opensslOutput)
        XCTAssertEqual(remove.expected, "undetermined")
        var store = TrustStore()
        store.add(try cert("multi/" + m.anchor))
        let v = ChainVerifier(anchors: store)
        for s in m.crlScenarios {
            for policy in [RevocationOptions.Policy.hardFail, .softFail] {
                var options = VerificationOptions(purpose: .basic, time: Double(m.verificationTime))
                options.revocation = RevocationOptions(crls: try crls(s.crls.map { "multi/" + $0 }), policy: policy)
                let result = v.verify(
                    leaf: try cert("multi/" + s.leaf),
                    intermediates: try s.intermediates.map { try cert("multi/" + $0) },
                    options: options)
                let label = "\(s.name) \(policy): \(s.description) (\(s.rule)): \(result.failures)"
                switch s.expected {
                case "trusted":
                    XCTAssertTrue(result.isTrusted, label)
                case "revoked":
                    XCTAssertEqual(result.failures.first?.kind, .revoked, label)
                    XCTAssertEqual(result.failures.first?.certificateIndex, 0, label)
                default:
                    if policy == .hardFail {
                        XCTAssertEqual(result.failures.first?.kind, .revocationUndetermined, label)
                        XCTAssertEqual(result.failures.first?.certificateIndex, 0, label)
                    } else if case .trusted(_, _, let details) = result {
                        XCTAssertEqual(details.revocation.first?.status.name, "undetermined", label)
                    } else {
                        XCTFail(label)
                    }
                }
            }
        }
    }
}
