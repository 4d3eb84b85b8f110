import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// CT through the evaluators users call (`CertificateTrust.transparency`,
/// `SecurityPolicy.certificateTransparency`): every SCT in `TrustDetails`, the SecTrust result
/// mapping, Apple's enforcement rule. Expected statuses and verdicts are the ones
/// Fixtures/ct/generate.py computed (Python `cryptography`, independently of Sigil).
final class CTTrustDetailsTests: XCTestCase {
    struct Manifest: Decodable {
        struct Case: Decodable {
            let name: String
            let certificate: String
            let tls: String?
            let ocsp: String?
            let statuses: [String]
            let apple: Bool
        }
        let checkTime: String
        let cases: [Case]
    }

    let dir = TestSupport.fixtures.appendingPathComponent("ct/generated")
    func bytes(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }

    func trust(_ leaf: Certificate, anchor issuer: Certificate, source: AnchorSource, time: Int64) -> CertificateTrust {
        var store = TrustStore()
        store.add(issuer, source: source)
        return CertificateTrust(
            certificates: [leaf], policies: [.basic], time: Double(time),
            signatureVerifier: SigilSignatureVerifier(), systemAnchors: store)
    }

    func testEverySCTIsInTheDetailsAndNonComplianceIsRecoverable() throws {
        let m = try JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
        let list = try CTLogList(json: bytes("log_list.json"))
        let issuer = try Certificate(der: bytes("issuer.der"))
        // Log names by base64 ID, read from the list JSON itself.
        let json = try JSONSerialization.jsonObject(with: Data(bytes("log_list.json"))) as! [String: Any]
        var names: [String: String] = [:]
        for op in json["operators"] as! [[String: Any]] {
            for l in op["logs"] as! [[String: Any]] { names[l["log_id"] as! String] = l["description"] as? String }
        }
        for c in m.cases {
            let leaf = try Certificate(der: bytes(c.certificate))
            // At the script's time of check, when the chain is valid (all but the pre-2018 leaf).
            let time = try XCTUnwrap(CTLogList.parseRFC3339(m.checkTime))
            guard leaf.notBefore <= time, time <= leaf.notAfter else { continue }
            var t = trust(leaf, anchor: issuer, source: .system, time: time)
            t.transparency = CTOptions(
                logList: list, ocspSCTList: try c.ocsp.map(bytes), tlsSCTList: try c.tls.map(bytes))
            let e = t.evaluate()
            let ct = try XCTUnwrap(e.transparency, c.name)
            XCTAssertEqual(ct.scts.map(\.status.rawValue), c.statuses, c.name)
            XCTAssertEqual(ct.compliant, c.apple, c.name)
            XCTAssertTrue(ct.enforced)
            for r in ct.scts where r.status != .unknownLog && r.status != .malformed {
                XCTAssertEqual(r.logName, names[Base64.encodeString(try XCTUnwrap(r.logID))], c.name)
            }
            if c.apple {
                // Trusted via a system anchor: kSecTrustResultUnspecified, the SCTs in the details.
                XCTAssertEqual(e.result, .unspecified, c.name)
                guard case .trusted(_, _, let d) = e.trustResult else { return XCTFail(c.name) }
                XCTAssertEqual(d.transparency, ct)
            } else {
                // Apple reports CT non-compliance as a recoverable trust failure.
                XCTAssertEqual(e.result, .recoverableTrustFailure, c.name)
                XCTAssertEqual(e.failures.map(\.kind), [.certificateTransparency], c.name)
            }
            // A custom anchor is exempt: trusted (kSecTrustResultProceed), the verdict recorded.
            var custom = trust(leaf, anchor: issuer, source: .custom, time: time)
            custom.transparency = t.transparency
            let ce = custom.evaluate()
            XCTAssertEqual(ce.result, .proceed, c.name)
            XCTAssertEqual(ce.transparency?.enforced, false)
            XCTAssertEqual(ce.transparency?.compliant, c.apple, c.name)
            // ...unless CT is required.
            custom.transparency = CTOptions(
                logList: list, required: true, ocspSCTList: try c.ocsp.map(bytes), tlsSCTList: try c.tls.map(bytes))
            XCTAssertEqual(custom.evaluate().isTrusted, c.apple, c.name)
        }
    }

    func testWithoutTransparencyNothingChangesAndNoListFailsClosed() throws {
        let issuer = try Certificate(der: bytes("issuer.der"))
        let leaf = try Certificate(der: bytes("d90-one-operator.der"))
        let time = leaf.notBefore + 86_400
        var t = trust(leaf, anchor: issuer, source: .system, time: time)
        let plain = t.evaluate()
        XCTAssertEqual(plain.result, .unspecified)
        XCTAssertNil(plain.transparency)
        guard case .trusted(_, _, let d) = plain.trustResult else { return XCTFail() }
        XCTAssertNil(d.transparency)
        t.transparency = CTOptions(logList: nil)
        XCTAssertEqual(t.evaluate().result, .recoverableTrustFailure)
        // A time that is no number never passes through CT.
        let r = TrustResult.trusted(path: [leaf, issuer], anchor: .custom, details: TrustDetails())
        XCTAssertFalse(r.applyingTransparency(CTOptions(logList: nil), at: .nan).result.isTrusted)
    }

    func testSecurityPolicyEnforcesCTAtSystemAnchors() throws {
        let list = try CTLogList(json: bytes("log_list.json"))
        let issuer = try Certificate(der: bytes("issuer.der"))
        for (file, compliant) in [("d90-two-operators.der", true), ("d90-one-operator.der", false)] {
            let leaf = try Certificate(der: bytes(file))
            let time = Double(leaf.notBefore + 86_400)
            for source in [AnchorSource.system, .custom] {
                var store = TrustStore()
                store.add(issuer, source: source)
                var p = SecurityPolicy(anchors: store)
                p.validatesDomainName = false
                XCTAssertTrue(p.evaluate(serverChain: [leaf], domain: nil, at: time).isTrusted)
                p.certificateTransparency = CTOptions(logList: list)
                let e = p.evaluate(serverChain: [leaf], domain: nil, at: time)
                XCTAssertEqual(e.isTrusted, compliant || source == .custom, "\(file) \(source)")
                if !e.isTrusted { XCTAssertEqual(e.failures.first?.kind, .certificateTransparency) }
            }
        }
    }

    func testStapledOCSPResponseSCTsAreDelivered() throws {
        // The OCSP case's SCT list wrapped by the script into a stapled response is not in the
        // fixtures; the real response of ../shared/vectors/ct carries one list.
        guard let resp = CTTests.load("resp-sct-extension.der") else { return }
        let lists = try XCTUnwrap(SCTList.fromOCSPResponse(resp))
        XCTAssertEqual(lists.count, 1)
        let o = CTOptions(logList: nil).addingDeliveredSCTs(tlsSCTList: [0, 0], stapledOCSPResponse: resp)
        XCTAssertEqual(o.ocspSCTList, lists[0])
        XCTAssertEqual(o.tlsSCTList, [0, 0])
        // Two lists join under one length prefix with their entries in order.
        let a: [UInt8] = [0, 3, 0, 1, 0xAA]
        let b: [UInt8] = [0, 4, 0, 2, 0xBB, 0xCC]
        XCTAssertEqual(SCTList.joined([a, b]), [0, 7, 0, 1, 0xAA, 0, 2, 0xBB, 0xCC])
        XCTAssertEqual(SCTList.joined([[0, 9, 1], b]), [0, 9, 1])
    }
}
