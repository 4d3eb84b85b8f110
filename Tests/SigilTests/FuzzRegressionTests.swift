// Replays the regression inputs of the X.509-level fuzz targets (Fixtures/fuzz-regressions/
// FuzzCertificate, FuzzPEM, FuzzNames, FuzzSignature, FuzzVerify) through the same walks the
// fuzz binaries run: `FuzzRegressionWalk*.swift` are symlinks to Fuzz/Sources/FuzzSupport/.
// A walk traps on a finding (as under libFuzzer), so a regressed input crashes the test run;
// the input's name is printed before each replay.
//
// Each walk also runs on a few inputs built from the fixtures, so the symlinked code keeps
// compiling and its oracles keep holding on valid data.

import Foundation
@_spi(SigilInternal) import Sigil
@_spi(SigilInternal) import SigilTrust
import SigilX509
import Testing

@Suite("Fuzz regressions (X.509 targets)")
struct FuzzRegressionX509Tests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")

    static let targets = ["FuzzCertificate", "FuzzPEM", "FuzzNames", "FuzzSignature", "FuzzVerify", "FuzzPolicy"]

    struct Input: CustomStringConvertible, Sendable {
        let target: String
        let url: URL
        var description: String { "\(target)/\(url.lastPathComponent)" }
    }

    static let inputs: [Input] = targets.flatMap { target -> [Input] in
        let dir = root.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
            .map { Input(target: target, url: dir.appendingPathComponent($0)) }
    }

    static func replay(_ target: String, _ bytes: [UInt8]) {
        switch target {
        case "FuzzCertificate": CertificateWalk.run(bytes)
        case "FuzzPEM": PEMWalk.run(bytes)
        case "FuzzNames": NamesWalk.run(bytes)
        case "FuzzSignature": SignatureWalk.run(bytes)
        case "FuzzVerify": VerifyWalk.run(bytes)
        case "FuzzPolicy": PolicyWalk.run(bytes)
        default: Issue.record("unknown target \(target)")
        }
    }

    @Test("every regression input of the X.509 targets still passes its walk", arguments: inputs)
    func replayInput(_ input: Input) throws {
        let bytes = [UInt8](try Data(contentsOf: input.url))
        print("replaying \(input) (\(bytes.count) bytes)")
        Self.replay(input.target, bytes)
    }

    @Test("the walks hold their oracles on fixture inputs")
    func fixtureInputs() {
        let fixtures = FuzzFixtures.shared
        #expect(fixtures.certificates.count > 20)
        #expect(fixtures.roots.count >= 6)
        for (_, c) in fixtures.certificates {
            CertificateWalk.run(c.der)
            PEMWalk.run(Array(c.pem.utf8))
        }
        // FuzzNames: the constrained CA's template with its own SAN and a permitted subtree.
        let leaf = fixtures.named("nameconstraints-leaf.der")
        let san = leaf.extension(OID.subjectAltName)!.value.array
        let nc = fixtures.named("nameconstraints-ca.der").extension(OID.nameConstraints)!.value.array
        NamesWalk.run(
            [0x0F]
                + FuzzChunks.encode([
                    Array("www.permitted.sigil.test".utf8),
                    Array("user@permitted.sigil.test".utf8), san, nc,
                ]) + leaf.subject.encoded.array)
        // FuzzPolicy: the policy extensions of the constrained CA (mappings, constraints,
        // inhibitAnyPolicy) above the template leaf, each flag combination.
        let ca = fixtures.named("nameconstraints-ca.der")
        let values = [OID.certificatePolicies, OID.policyMappings, OID.policyConstraints, OID.inhibitAnyPolicy]
            .map { ca.extension($0)?.value.array ?? [] }
        for flags: UInt8 in 0..<16 {
            PolicyWalk.run([flags] + FuzzChunks.encode([[0x06, 0x03, 0x88, 0x37, 0x01]] + values + [[], [], [], []]))
        }
        // FuzzSignature: every fixture triple unchanged (must verify) and with one byte changed.
        for i in 0..<SignatureWalk.triples.count {
            for what: UInt8 in 0...3 {
                SignatureWalk.run([0, UInt8(i), what])
                SignatureWalk.run([0, UInt8(i), what, 3, 0, 40, 0x01])
            }
        }
        // FuzzVerify: each fixture chain (leaf, intermediate) verifies to its root.
        for kind in ["rsa2048", "p256", "p384"] {
            let l = fixtures.named("\(kind)-leaf.der").der
            let i = fixtures.named("\(kind)-intermediate.der").der
            VerifyWalk.run([0x02] + FuzzChunks.encode([l, i]))
        }
    }

    @Test("fixture chains are trusted through the fuzz harness (the oracle is not vacuous)")
    func verifyHarnessTrusts() {
        let f = FuzzFixtures.shared
        let leaf = f.named("p256-leaf.der")
        let inter = f.named("p256-intermediate.der")
        let verifier = ChainVerifier(anchors: VerifyWalk.anchors, signatureVerifier: VerifyWalk.CountingVerifier())
        let result = verifier.verify(
            leaf: leaf, intermediates: [inter], options: VerificationOptions(purpose: .basic, time: VerifyWalk.time))
        #expect(result.isTrusted)
    }
}
