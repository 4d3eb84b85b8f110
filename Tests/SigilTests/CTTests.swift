import Foundation
import Sigil
import SigilTestSupport
import XCTest

/// Certificate Transparency against the vectors of ../shared/vectors/ct (real SCTs from Google
/// 'Icarus' and Comodo 'Mammoth', the known-answer precertificate TBS, malformed SCTs).
final class CTTests: XCTestCase {
    static func load(_ name: String, test: String = #function) -> [UInt8]? {
        guard let dir = TestSupport.vectors else {
            print("SKIPPED \(test): vectors folder not found (set SIGIL_VECTORS or place it at ../shared/vectors)")
            return nil
        }
        guard let d = try? Data(contentsOf: dir.appendingPathComponent("ct/" + name)) else {
            print("SKIPPED \(test): ct/\(name) missing")
            return nil
        }
        return [UInt8](d)
    }

    static func certificate(_ name: String, test: String = #function) throws -> Certificate? {
        guard let b = load(name, test: test) else { return nil }
        return PEM.looksLikePEM(b) ? try Certificate.all(from: b)[0] : try Certificate(der: b)
    }

    static func logList(test: String = #function) throws -> CTLogList? {
        guard let b = load("log_list_2017.json", test: test) else { return nil }
        return try CTLogList(json: b)
    }

    /// 2019-01-01: after both SCTs, while the certificate (2018-09-26 .. 2018-12-25) ... any time
    /// after the SCTs serves SCT verification.
    let checkTime = DERTime.secondsSinceEpoch(year: 2018, month: 11, day: 1, hour: 0, minute: 0, second: 0)

    func testPrecertificateTBSMatchesKnownAnswer() throws {
        guard let c = try Self.certificate("cryptography-scts.pem"),
            let want = Self.load("cryptography-scts-tbs-precert.der")
        else { return }
        let p = try XCTUnwrap(PrecertificateTBS(c))
        XCTAssertEqual(p.count, want.count)
        XCTAssertEqual(p.bytes(), want)
    }

    func testRealSCTsVerifyWithThe2017LogList() throws {
        guard let c = try Self.certificate("cryptography-scts.pem"),
            let issuer = try Self.certificate("letsencryptx3.pem"),
            let list = try Self.logList()
        else { return }
        let checks = SCTVerifier.check(c, issuer: issuer, logList: list, at: checkTime)
        XCTAssertEqual(checks.count, 2)
        XCTAssertEqual(checks.map(\.status), [.valid, .valid])
        XCTAssertEqual(Set(checks.compactMap { $0.log?.name }), ["Google 'Icarus' log", "Comodo 'Mammoth' CT log"])
        XCTAssertTrue(checks.allSatisfy { $0.origin == .embedded })
        // Without the issuer: issuer-unknown; without a list: unknown-log.
        XCTAssertEqual(
            SCTVerifier.check(c, issuer: nil, logList: list, at: checkTime).map(\.status),
            [.issuerUnknown, .issuerUnknown])
        XCTAssertEqual(
            SCTVerifier.check(c, issuer: issuer, logList: nil, at: checkTime).map(\.status), [.unknownLog, .unknownLog])
        // The wrong issuer key: the signatures do not verify.
        XCTAssertEqual(
            SCTVerifier.check(c, issuer: c, logList: list, at: checkTime).map(\.status), [.invalid, .invalid])
        // Before the SCTs were issued (dated in the future): invalid.
        let early = c.notBefore - 86400
        XCTAssertEqual(
            SCTVerifier.check(c, issuer: issuer, logList: list, at: early).map(\.status), [.invalid, .invalid])
    }

    /// RFC 6962 §3.2 timestamps are milliseconds and §5.2 refuses an SCT from the future: the
    /// check compares milliseconds. Python `cryptography` reads the two SCTs as issued at
    /// 2018-09-26T20:56:33.769Z and .904Z (1537995393769 / 1537995393904 ms): at the time of
    /// check 20:56:33Z (whole seconds, its first millisecond) both lie 769 and 904 ms in the
    /// future; one second later both are in the past. (Compared in whole seconds, both were
    /// accepted at 20:56:33Z.)
    func testSCTLessThanASecondInTheFutureIsInvalid() throws {
        guard let c = try Self.certificate("cryptography-scts.pem"),
            let issuer = try Self.certificate("letsencryptx3.pem"),
            let list = try Self.logList()
        else { return }
        let second = DERTime.secondsSinceEpoch(year: 2018, month: 9, day: 26, hour: 20, minute: 56, second: 33)
        XCTAssertEqual(second, 1_537_995_393)
        let checks = SCTVerifier.check(c, issuer: issuer, logList: list, at: second)
        XCTAssertEqual(checks.compactMap(\.sct?.timestamp), [1_537_995_393_769, 1_537_995_393_904])
        XCTAssertEqual(checks.map(\.status), [.invalid, .invalid])
        XCTAssertEqual(
            SCTVerifier.check(c, issuer: issuer, logList: list, at: second + 1).map(\.status), [.valid, .valid])
    }

    func testOneFlippedBitNeverVerifies() throws {
        guard let c = try Self.certificate("cryptography-scts.pem"),
            let issuer = try Self.certificate("letsencryptx3.pem"),
            let list = try Self.logList()
        else { return }
        guard case .sct(let sct)? = try c.embeddedSCTs()?.first else { return XCTFail("no SCT") }
        let p = try XCTUnwrap(PrecertificateTBS(c))
        let hash = SHA256.hash(issuer.subjectPublicKeyInfo.bytes).bytes
        let log = try XCTUnwrap(list.log(id: sct.logID))
        XCTAssertTrue(
            SCTVerifier.verifySignature(
                sct, key: log.key, digest: SCTVerifier.signedDataDigest(sct, precert: p, issuerKeyHash: hash)))
        let tampered = SignedCertificateTimestamp(
            logID: sct.logID, timestamp: sct.timestamp + 1, extensions: sct.extensions,
            hashAlgorithm: sct.hashAlgorithm,
            signatureAlgorithm: sct.signatureAlgorithm, signature: sct.signature, origin: .embedded)
        XCTAssertFalse(
            SCTVerifier.verifySignature(
                tampered, key: log.key, digest: SCTVerifier.signedDataDigest(tampered, precert: p, issuerKeyHash: hash))
        )
    }

    func testMalformedSCTsNeverCount() throws {
        guard let list = try Self.logList() else { return }
        for name in ["badssl-sct-none-hash.der", "badssl-sct-anonymous-sig.der", "badssl-sct.pem"] {
            guard let c = try Self.certificate(name) else { return }
            let checks = SCTVerifier.check(c, issuer: c, logList: list, at: checkTime)
            XCTAssertFalse(checks.isEmpty, name)
            XCTAssertFalse(checks.contains { $0.status == .valid }, name)
            if name != "badssl-sct.pem" { XCTAssertTrue(checks.allSatisfy { $0.status == .malformed }, name) }
        }
    }

    func testListDecodingIsStrictWithOffsets() throws {
        // An SCT: version 0, 32-byte id, 8-byte timestamp, no extensions, sha256/ecdsa, 2-byte sig.
        let one: [UInt8] =
            [0] + [UInt8](repeating: 7, count: 32) + [0, 0, 1, 0, 0, 0, 0, 0] + [0, 0] + [4, 3, 0, 2, 0xAA, 0xBB]
        func list(_ scts: [[UInt8]]) -> [UInt8] {
            let body = scts.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }
            return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        }
        XCTAssertEqual(try SCTList.decode(list([one]), origin: .tls).count, 1)
        XCTAssertThrowsError(try SCTList.decode([0, 0], origin: .tls))  // empty list
        XCTAssertThrowsError(try SCTList.decode(list([one]) + [0], origin: .tls)) { e in
            XCTAssertEqual((e as? SCTDecodingError)?.offset, 0)
        }
        var short = list([one])
        short[3] += 1  // SerializedSCT length runs past the list
        XCTAssertThrowsError(try SCTList.decode(short, origin: .tls)) { e in
            XCTAssertEqual(e as? SCTDecodingError, SCTDecodingError(.badLength, at: 2))
        }
        var v2 = one
        v2[0] = 1
        var hashNone = one
        hashNone[43] = 0
        var anon = one
        anon[44] = 0
        var trailing = one
        trailing += [0]
        let entries = try SCTList.decode(list([v2, hashNone, anon, trailing, one]), origin: .ocsp)
        XCTAssertEqual(entries.count, 5)
        let reasons: [SCTDecodingError.Reason?] = entries.map {
            if case .malformed(let e, _) = $0 { return e.reason }
            return nil
        }
        XCTAssertEqual(reasons, [.unsupportedVersion, .hashNone, .signatureAnonymous, .badLength, nil])
    }

    func testOCSPResponseSCTListDecodes() throws {
        guard let resp = Self.load("resp-sct-extension.der") else { return }
        let lists = try XCTUnwrap(SCTList.fromOCSPResponse(resp))
        XCTAssertFalse(lists.isEmpty)
        let entries = try SCTList.decode(lists[0], origin: .ocsp)
        XCTAssertFalse(entries.isEmpty)
        for e in entries {
            guard case .sct(let s) = e else { return XCTFail("malformed SCT in the OCSP response") }
            XCTAssertEqual(s.origin, .ocsp)
        }
    }

    func testLogListIsStrict() throws {
        guard let b = Self.load("log_list_2017.json") else { return }
        let list = try CTLogList(json: b)
        XCTAssertGreaterThan(list.logs.count, 10)
        // A log_id that is not SHA-256 of the key refuses the list.
        var s = String(decoding: b, as: UTF8.self)
        s = s.replacingOccurrences(
            of: "KTxRllTIOWW6qlD8WAfUt2+/WHopctykwwz05UVH9Hg=", with: "KTxRllTIOWW6qlD8WAfUt2+/WHopctykwwz05UVH9Hh=")
        XCTAssertThrowsError(try CTLogList(json: Array(s.utf8)))
        XCTAssertThrowsError(try CTLogList(json: Array("{\"operators\": [],}".utf8)))
        XCTAssertThrowsError(try CTLogList(json: Array("{\"operators\": [], \"operators\": []}".utf8)))
        XCTAssertEqual(try CTLogList(json: Array("{\"operators\": []}".utf8)).logs.count, 0)
        XCTAssertEqual(CTLogList.parseRFC3339("2017-08-29T23:31:42Z"), 1_504_049_502)
        XCTAssertEqual(CTLogList.parseRFC3339("2017-08-29T23:31:42.123Z"), 1_504_049_502)
        XCTAssertNil(CTLogList.parseRFC3339("2017-02-30T00:00:00Z"))
    }

    /// Every state carries an RFC 3339 `timestamp` string (v3 schema, Apple's v4), and a log is
    /// listed once. Found by review (2026-12-04): a numeric timestamp in a `usable` state was
    /// dropped and the log counted as usable at any time; a log listed twice, usable then
    /// rejected, was judged by its first entry.
    func testLogListStatesNeedTimestampStringsAndLogsAreListedOnce() throws {
        let url = TestSupport.fixtures.appendingPathComponent("ct/generated/log_list.json")
        let original = try Data(contentsOf: url)
        XCTAssertNoThrow(try CTLogList(json: [UInt8](original)))
        func mutated(_ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
            var root = try XCTUnwrap(JSONSerialization.jsonObject(with: original) as? [String: Any])
            change(&root)
            return [UInt8](try JSONSerialization.data(withJSONObject: root))
        }
        func firstLog(_ root: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
            var ops = root["operators"] as! [[String: Any]]
            var logs = ops[0]["logs"] as! [[String: Any]]
            edit(&logs[0])
            ops[0]["logs"] = logs
            root["operators"] = ops
        }
        for state: Any in [
            ["usable": ["timestamp": 1_800_000_000]], ["usable": "2027-01-15T08:00:00Z"],
            ["qualified": [String: Any]()],
            ["retired": ["timestamp": NSNull()]],
        ] {
            let bytes = try mutated { root in firstLog(&root) { $0["state"] = state } }
            XCTAssertThrowsError(try CTLogList(json: bytes), "\(state)")
        }
        let duplicated = try mutated { root in
            var ops = root["operators"] as! [[String: Any]]
            var logs = ops[0]["logs"] as! [[String: Any]]
            var copy = logs[0]
            copy["state"] = ["rejected": ["timestamp": "2020-01-01T00:00:00Z"]]
            logs.append(copy)
            ops[0]["logs"] = logs
            root["operators"] = ops
        }
        XCTAssertThrowsError(try CTLogList(json: duplicated))
    }
}
