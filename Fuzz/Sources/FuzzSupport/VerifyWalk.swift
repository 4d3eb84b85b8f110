// FuzzVerify: a fuzzed bundle verified against the fixture roots (Fixtures/certs/*-root.der)
// at a fixed time, exercising path building and its budget.
//
// Input: an options byte (kind, host), then length-prefixed chunks (FuzzChunks): the leaf,
// then intermediates (at most 24). A chunk of exactly 1 byte stands for fixture certificate
// number (byte mod count; Fixtures/certs/*.der sorted, then the certificates of
// Fixtures/chains/*/*.pem), so the fuzzer can assemble real chains cheaply; any other chunk is
// parsed as DER (a chunk that does not parse is dropped, as a bundle loader would).
//
// Oracles: the signature checks made (counted by a wrapping CertificateSignatureVerifier)
// never exceed ChainVerifier.maximumSignatureChecks; "trusted" implies every certificate on
// the path is byte-identical to a fixture certificate (of Fixtures/certs or Fixtures/chains:
// some chain scenarios are issued by the fixture roots), since a fuzzer cannot forge signatures.

@_spi(SigilInternal) import Sigil
@_spi(SigilInternal) import SigilTrust
import SigilX509

public enum VerifyWalk {
    /// 2030-01-01T00:00:00Z: inside every fixture chain's validity (2025–2035).
    public static let time: Double = 1_893_456_000
    static let hosts: [String?] = [
        nil, "leaf.rsa2048.sigil.test", "leaf.p256.sigil.test", "x.wild.p384.sigil.test",
        "www.permitted.sigil.test", "192.0.2.10", "2001:db8::10", "example.com",
    ]

    final class CountingVerifier: CertificateSignatureVerifier, @unchecked Sendable {
        let inner = SigilSignatureVerifier()
        var count = 0
        func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
            count += 1
            return inner.verifySignature(of: certificate, issuer: issuer)
        }
        func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool { inner.subjectPublicKeyIsValid(certificate) }
    }

    static let anchors: TrustStore = {
        var store = TrustStore()
        for root in FuzzFixtures.shared.roots { store.add(root) }
        return store
    }()

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        let options = input.byte()
        let fixtures = FuzzFixtures.shared.pool
        var certs: [Certificate] = []
        while let chunk = input.next(), certs.count < 25 {
            if chunk.count == 1 {
                certs.append(fixtures[Int(chunk[0]) % fixtures.count])
            } else if let c = try? Certificate(der: chunk) {
                certs.append(c)
            }
        }
        guard let leaf = certs.first else { return }
        let purposes: [VerificationPurpose] = [.server(host: hosts[Int(options >> 2) % hosts.count]), .client, .basic]
        var opts = VerificationOptions(purpose: purposes[Int(options & 3) % 3], time: time)
        if options & 0x80 != 0 { opts.emails = ["leaf@rsa2048.sigil.test"] }

        let counter = CountingVerifier()
        let verifier = ChainVerifier(anchors: anchors, signatureVerifier: counter)
        let result = verifier.verify(leaf: leaf, intermediates: Array(certs.dropFirst()), options: opts)
        oracle(
            counter.count <= ChainVerifier.maximumSignatureChecks,
            "\(counter.count) signature checks, budget \(ChainVerifier.maximumSignatureChecks)")
        switch result {
        case .trusted(let path, _, _):
            oracle(!path.isEmpty && path[0] == leaf, "trusted path does not start at the leaf")
            for (i, c) in path.enumerated() {
                oracle(
                    FuzzFixtures.shared.derSet.contains(c.der),
                    "trusted path holds a non-fixture certificate at \(i) (\(c.der.count) bytes, subject \(c.subject.rfc4514String))"
                )
            }
            oracle(anchors.contains(path[path.count - 1]), "trusted path does not end at an anchor")
        case .untrusted(let failures):
            oracle(!failures.isEmpty, "untrusted without a reason")
            for f in failures { _ = f.description }
        }
    }
}
