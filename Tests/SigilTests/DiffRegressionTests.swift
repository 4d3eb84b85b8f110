// Replays the findings of the differential verification target (Fuzz/FuzzVerifyDiff,
// Fuzz/diffbatch): chains where Sigil said "trusted" and OpenSSL's X509_verify_cert refused for
// a reason that was not a documented difference. Each directory of Fixtures/diff-regressions
// holds leaf.der, presented-N.der (untrusted certificates, in order), anchor-N.der and
// expected.txt (`verdict:`, `kind:` of Sigil's first failure, `host:`, optionally `refused:` a
// certificate file and the DERError kind the strict parser refuses it with, and the reasoning:
// the expected verdict comes from OpenSSL's refusal and the cited RFC clause, not from Sigil).
// Verified as the fuzz target does: server kind, 2030-01-01T00:00:00Z, the host.

import Foundation
@_spi(SigilInternal) import Sigil
@_spi(SigilInternal) import SigilTrust
import SigilX509
import Testing

@Suite("Differential verification regressions (Sigil vs OpenSSL)")
struct DiffRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/diff-regressions")

    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
        .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()

    @Test("the regression chains exist")
    func present() {
        #expect(!Self.cases.isEmpty)
    }

    @Test("each regression chain gets the verdict OpenSSL and the RFC give", arguments: cases)
    func replay(_ name: String) throws {
        let dir = Self.root.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        func der(_ f: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(f))) }
        let expected = try String(contentsOf: dir.appendingPathComponent("expected.txt"), encoding: .utf8)
        var fields: [String: String] = [:]
        for line in expected.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // `refused: FILE KIND`: a certificate of the chain the strict parser refuses (as
        // OpenSSL's d2i_X509 does); like the fuzz target, each side drops what it cannot decode.
        var refused: [String: String] = [:]
        if let r = fields["refused"] {
            let parts = r.split(separator: " ").map(String.init)
            if parts.count == 2 { refused[parts[0]] = parts[1] }
        }
        for (file, kind) in refused {
            #expect(throws: DERError.self, "\(name): \(file) must be refused") { try Certificate(der: try der(file)) }
            do { _ = try Certificate(der: try der(file)) } catch let e as DERError {
                #expect("\(e.kind)" == kind, "\(name)")
            }
        }
        let leaf = try Certificate(der: try der("leaf.der"))
        let presented = try files.filter { $0.hasPrefix("presented-") }.compactMap {
            try? Certificate(der: try der($0))
        }
        var anchors = TrustStore()
        for f in files where f.hasPrefix("anchor-") && refused[f] == nil {
            anchors.add(try Certificate(der: try der(f)))
        }
        let host = fields["host"].flatMap { $0 == "none" ? nil : $0 }
        let options = VerificationOptions(purpose: .server(host: host), time: 1_893_456_000)
        let result = ChainVerifier(anchors: anchors).verify(leaf: leaf, intermediates: presented, options: options)
        switch fields["verdict"] {
        case "untrusted":
            #expect(!result.isTrusted, "\(name): \(fields["reason"] ?? "")")
            if let kind = fields["kind"] {
                #expect(result.failures.first?.kind.name == kind, "\(name): \(result.failures)")
            }
        case "trusted":
            #expect(result.isTrusted, "\(name): \(result.failures)")
        default:
            Issue.record("\(name): expected.txt has no verdict")
        }
    }
}
