import Foundation
import Sigil

/// Inputs shared by every benchmark, loaded once: the repository's fixtures and the system
/// bundle. Every library under test gets the very same bytes.
enum Inputs {
    /// Repository root, from this file's location (Benchmarks/Benchmarks/SigilBenchmarks/).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func read(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    static func fixture(_ name: String) -> [UInt8] { read(root + "/Fixtures/certs/" + name) }

    /// A root / intermediate / leaf fixture chain (`rsa2048`, `p256`, ...).
    struct Chain {
        let family: String
        let root: [UInt8]
        let intermediate: [UInt8]
        let leaf: [UInt8]
        var host: String { "leaf.\(family).sigil.test" }
        init(_ family: String) {
            self.family = family
            if family.hasPrefix("ed") {
                // Fixtures/eddsa/<family>/ (Fixtures/scripts/gen_eddsa.py, made with openssl).
                let dir = Inputs.root + "/Fixtures/eddsa/" + family + "/"
                root = Inputs.read(dir + "root.der")
                intermediate = Inputs.read(dir + "intermediate.der")
                leaf = Inputs.read(dir + "leaf.der")
            } else {
                root = Inputs.fixture("\(family)-root.der")
                intermediate = Inputs.fixture("\(family)-intermediate.der")
                leaf = Inputs.fixture("\(family)-leaf.der")
            }
        }
    }

    static let chains: [String: Chain] = {
        var d: [String: Chain] = [:]
        for f in ["rsa2048", "rsa4096", "p256", "p384", "p521", "ed25519", "ed448"] { d[f] = Chain(f) }
        return d
    }()

    /// Benchmark-name tag of a family: `RSA2048`, `P256`, ..., `Ed25519`, `Ed448`.
    static func tag(_ family: String) -> String {
        family.hasPrefix("ed") ? "Ed" + family.dropFirst(2) : family.uppercased()
    }

    /// One OpenSSL-made signature over a 1 024-byte message (Fixtures/eddsa/signatures.json,
    /// made by `openssl pkeyutl -sign -rawin`): the raw primitive, no certificate around it.
    struct EdDSASample {
        let publicKey: [UInt8]
        let message: [UInt8]
        let signature: [UInt8]
    }

    static func eddsaSample(_ family: String, messageCount: Int = 1024) -> EdDSASample {
        let data = Data(read(root + "/Fixtures/eddsa/signatures.json"))
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = json[family] as? [[String: String]]
        else { fatalError("signatures.json: no \(family)") }
        func hex(_ s: String) -> [UInt8] {
            var out: [UInt8] = []
            var i = s.startIndex
            while i < s.endIndex {
                let j = s.index(i, offsetBy: 2)
                out.append(UInt8(s[i..<j], radix: 16)!)
                i = j
            }
            return out
        }
        for c in cases {
            let message = hex(c["message"]!)
            if message.count == messageCount {
                return EdDSASample(publicKey: hex(c["publicKey"]!), message: message, signature: hex(c["signature"]!))
            }
        }
        fatalError("signatures.json: no \(family) message of \(messageCount) bytes")
    }

    static func chain(_ family: String) -> Chain { chains[family]! }

    /// The leaf most benchmarks parse: RSA-2048, 2 010 bytes, 12 extensions (every kind Sigil
    /// decodes: SAN with all name forms, policies with qualifiers, AIA, CRL DP, SCTs, ...).
    static let leaf = fixture("rsa2048-leaf.der")

    /// Validation instant: 2030-01-01T00:00:00Z (fixtures are valid 2025-2035).
    static let time: Int64 = 1_893_456_000

    static let bundlePath = "/etc/ssl/certs/ca-certificates.crt"
    static let bundle: [UInt8] = read(bundlePath)
    /// DER of every certificate in the bundle (decoded once with Sigil's PEM reader).
    static let bundleDER: [[UInt8]] = {
        guard let blocks = try? PEM.decodeBlocks(bundle) else { fatalError("bundle does not decode") }
        return blocks.certificates
    }()

    /// The bundle as a `TrustStore` of system anchors (loaded once, for the evaluator rows).
    static let systemStore: TrustStore = {
        var store = TrustStore()
        store.add(contentsOf: bundle, source: .system)
        return store
    }()

    /// Byte inputs for the hash benchmarks.
    static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }
}

/// Pools of unrelated intermediates for the path-building benchmarks, made by DER surgery on
/// the RSA-2048 intermediate: its subject CN (31 bytes) is overwritten in place with a distinct
/// name of the same length, so each pool member parses but can never be the leaf's issuer (its
/// signature is invalid, which does not matter: no path ever reaches it). The "cross-signed"
/// alternative keeps the intermediate's subject and key but names an issuer that is not in the
/// store, so a builder that tries it first must back off and take the real intermediate.
enum Pools {
    static let chain = Inputs.chain("rsa2048")
    static let subjectCN = Array("Sigil Test Intermediate RSA2048".utf8)
    static let rootCN = Array("Sigil Test Root RSA2048".utf8)

    static func replacingAll(_ der: [UInt8], _ old: [UInt8], _ new: [UInt8]) -> [UInt8] {
        precondition(old.count == new.count)
        var out = der
        var i = 0
        var hits = 0
        while i + old.count <= out.count {
            if out[i..<(i + old.count)].elementsEqual(old) {
                out.replaceSubrange(i..<(i + old.count), with: new)
                hits += 1
                i += old.count
            } else {
                i += 1
            }
        }
        precondition(hits > 0, "pattern not found")
        return out
    }

    /// `count` unrelated intermediates (distinct subjects).
    static func unrelated(_ count: Int) -> [[UInt8]] {
        (0..<count).map { i in
            let digits = String(i)
            let name = "Sigil Pool Intermediate #" + String(repeating: "0", count: 6 - digits.count) + digits
            return replacingAll(chain.intermediate, subjectCN, Array(name.utf8))
        }
    }

    /// Same subject and key as the real intermediate, issued by a root nobody trusts. Only the
    /// issuer field is changed (the intermediate's AKI directory name, if any, names the root
    /// too and is changed alike).
    static let crossSigned: [UInt8] =
        replacingAll(chain.intermediate, rootCN, Array("Sigil Xros Root RSA2048".utf8))

    /// Intermediates handed to the verifier: the cross-signed dead end first, then the pool,
    /// the real intermediate last.
    static func intermediates(pool: Int) -> [[UInt8]] {
        [crossSigned] + unrelated(pool) + [chain.intermediate]
    }
}
