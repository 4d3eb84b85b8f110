// FuzzCT: Certificate Transparency on hostile input. The first byte picks the entry point:
// 0 — an SCT list (RFC 6962 §3.3) in TLS encoding, every SCT checked against a log list holding
//     one real P-256 log key; 1 — a log list JSON document (StrictJSON, CTLogList);
// 2 — a certificate: embedded SCTs, the precertificate TBS (RFC 6962 §3.2), both policies.
// Oracles: the precertificate TBS re-parses as one DER SEQUENCE of the announced length; no
// policy says "compliant" for a certificate it applies to with no valid SCT.

import Sigil
import SigilDER
import SigilX509

public enum CTWalk {
    /// Google 'Icarus' (a public fact of the 2017 log list): a real P-256 key.
    static let icarusKey = Base64.decode(
        Array(
            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAETtK8v7MICve56qTHHDhhBOuV4IlUaESxZryCfk9QbG9co/CqPvTsgPDbCpp6oFtyAHwlDhnvr7JijXRD9Cb2FA=="
                .utf8))!
    static let logList: CTLogList = {
        let json =
            "{\"operators\":[{\"name\":\"Google\",\"logs\":[{\"description\":\"Icarus\",\"log_id\":\""
            + Base64.encodeString(SHA256.hash(icarusKey).bytes) + "\",\"key\":\"" + Base64.encodeString(icarusKey)
            + "\",\"mmd\":86400,\"state\":{\"usable\":{\"timestamp\":\"2017-08-29T00:00:00Z\"}}}]}]}"
        return try! CTLogList(json: Array(json.utf8))
    }()

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let time: Int64 = 1_900_000_000
        switch mode % 3 {
        case 0:
            guard let entries = try? SCTList.decode(rest, origin: .tls) else { return }
            for e in entries {
                if case .sct(let s) = e {
                    var h = SHA256()
                    h.update(rest)
                    _ = SCTVerifier.verifySignature(s, key: logList.logs[0].key, digest: h.finalize())
                }
            }
        case 1:
            if let list = try? CTLogList(json: rest) {
                for l in list.logs { _ = l.acceptsSCT(issuedAt: time, at: time) }
            }
        default:
            guard let c = try? Certificate(der: rest) else { return }
            if let p = PrecertificateTBS(c) {
                let b = p.bytes()
                oracle(b.count == p.count, "precert TBS length differs from its announced count")
                let ok: Bool = b.withUnsafeBytes { raw in
                    var r = DERReader(raw)
                    guard (try? r.read(.sequence)) != nil else { return false }
                    return r.isAtEnd
                }
                oracle(ok, "precert TBS is not one DER SEQUENCE")
            }
            let checks = SCTVerifier.check(c, issuer: c, tlsSCTList: nil, logList: logList, at: time)
            for profile in [CTPolicyProfile.apple, .chrome] {
                let v = CTPolicy.evaluate(c, checks: checks, logList: logList, profile: profile, at: time)
                if v.applies && v.compliant {
                    oracle(checks.contains { $0.status == .valid }, "compliant with no valid SCT")
                }
            }
        }
    }
}
