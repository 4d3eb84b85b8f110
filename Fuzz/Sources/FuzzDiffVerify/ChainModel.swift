// The generated chain of the differential verification (FuzzVerifyDiff, diffbatch): a root,
// one or two intermediates and a leaf made from the fixture keys, in the CA/B server profile
// both verifiers accept, then mutated structurally (driven by the fuzz input or a seeded
// generator) and re-signed with the fixture keys through OpenSSL's libcrypto.

import COpenSSLDiff
import FuzzSupport
import SigilX509

#if canImport(Glibc)
    import Glibc
#endif

/// A byte source: the fuzz input (then zeros), or a seeded generator (diffbatch).
public struct DiffBytes {
    var bytes: [UInt8]
    var position = 0
    var rng: UInt64?

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(seed: UInt64) {
        bytes = []
        rng = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    public var isAtEnd: Bool { rng == nil && position >= bytes.count }

    public mutating func u8() -> UInt8 {
        if var s = rng {
            // splitmix64
            s &+= 0x9E37_79B9_7F4A_7C15
            rng = s
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let b = UInt8(truncatingIfNeeded: z)
            bytes.append(b)
            return b
        }
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func pick(_ n: Int) -> Int { n <= 1 ? 0 : Int(u8()) % n }
    public mutating func u16() -> Int { Int(u8()) << 8 | Int(u8()) }
    /// The bytes consumed so far (for a seeded source: the equivalent fuzz input).
    public var consumed: [UInt8] { rng == nil ? Array(bytes.prefix(position)) : bytes }
}

enum D {
    static func tlv(_ tag: UInt8, _ c: [UInt8]) -> [UInt8] { DERBuild.tlv(tag, c) }
    static func seq(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func seqOf(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func oid(_ c: [UInt8]) -> [UInt8] { tlv(0x06, c) }
    static func int(_ v: Int) -> [UInt8] {
        var b: [UInt8] = []
        var x = v
        repeat {
            b.insert(UInt8(x & 0xFF), at: 0)
            x >>= 8
        } while x > 0
        if b[0] & 0x80 != 0 { b.insert(0, at: 0) }
        return tlv(0x02, b)
    }
    static let boolTrue: [UInt8] = [0x01, 0x01, 0xFF]
    static func octets(_ c: [UInt8]) -> [UInt8] { tlv(0x04, c) }
    static func bits(_ c: [UInt8], unused: UInt8 = 0) -> [UInt8] { tlv(0x03, [unused] + c) }
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Time: UTCTime for 1950–2049, else GeneralizedTime (RFC 5280 §4.1.2.5), unless forced.
    static func time(_ t: Int64, form: TimeForm) -> [UInt8] {
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let secs = Int(t - days * 86_400)
        // Civil from days (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        var y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        if m <= 2 { y += 1 }
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let rest = two(m) + two(d) + two(Int64(secs / 3600)) + two(Int64(secs / 60 % 60)) + two(Int64(secs % 60)) + "Z"
        let utc = form == .utc || (form == .auto && y >= 1950 && y < 2050)
        if utc { return tlv(0x17, ascii(two(y % 100) + rest)) }
        var ys = "\(y)"
        while ys.count < 4 { ys = "0" + ys }
        return tlv(0x18, ascii(ys + rest))
    }
}

enum TimeForm: UInt8 { case auto, utc, generalized }

/// Fixture keys: loaded once with OpenSSL.
public struct DiffKeys: @unchecked Sendable {
    public struct Key {
        let handle: Int32
        let name: String
        let spki: [UInt8]
        let isRSA: Bool
        /// An Ed25519 key (RFC 8410): its signatures use the AlgorithmIdentifier 1.3.101.112
        /// with parameters absent, whatever digest the certificate asks for.
        let isEd25519: Bool
        let keyID: [UInt8]
    }
    public let keys: [Key]
    public let ok: Bool
    public static let shared = DiffKeys()
    // 0 root, 1 intermediate, 2 leaf, 3 second intermediate, 4 unrelated, 5 RSA-2048 CA,
    // 6 RSA-1024 (weak), 7 P-384 leaf key, 8 and 9 Ed25519 keys (issue 22: EdDSA chains; Go
    // 1.19 verifies Ed25519 but not Ed448, so Ed448 stays out of the three-way comparison).
    static let files = [
        "p256-root", "p256-intermediate", "p256-leaf", "chain-pathlen-i2", "chain-decoy",
        "rsa2048-intermediate", "rsa1024-leaf", "p384-leaf", "ed25519-root", "ed25519-leaf",
    ]

    init() {
        var out: [Key] = []
        let dir = DiffKeys.keysDirectory()
        for (i, name) in DiffKeys.files.enumerated() {
            let h = sigil_diff_load_key(dir + "/" + name + ".key.pem")
            guard h >= 0 else { break }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = sigil_diff_spki(h, &buf, Int32(buf.count))
            guard n > 0 else { break }
            let spki = Array(buf[0..<Int(n)])
            // Key identifiers need not be hashes (RFC 5280 §4.2.1.2 lists methods, none
            // required): distinct fixed values per key.
            let kid: [UInt8] = [0x5A, 0x1D, UInt8(i)] + (0..<17).map { UInt8(($0 * 31 + i * 7) & 0xFF) }
            // An Ed25519 SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING }.
            let ed = spki.count == 44 && Array(spki[4..<9]) == [0x06, 0x03] + OID.ed25519
            out.append(Key(handle: h, name: name, spki: spki, isRSA: spki.count > 200, isEd25519: ed, keyID: kid))
        }
        keys = out
        ok = out.count == DiffKeys.files.count
    }

    static func keysDirectory() -> String {
        if let root = getenv("SIGIL_ROOT") { return String(cString: root) + "/Fixtures/keys" }
        var dir = "\(#filePath)"
        for _ in 0..<8 {
            guard let slash = dir.lastIndex(of: "/") else { break }
            dir = String(dir[..<slash])
            if access(dir + "/Fixtures/keys/p256-root.key.pem", F_OK) == 0 { return dir + "/Fixtures/keys" }
        }
        return "Fixtures/keys"
    }
}

struct Ext {
    var oid: [UInt8]
    var critical: Bool
    var value: [UInt8]
    /// extnValue not wrapped as OCTET STRING content of a valid value: set by mutations only.
    func encoded() -> [UInt8] { D.seq(D.oid(oid), critical ? D.boolTrue : [], D.octets(value)) }
}

struct Attr {
    var oid: [UInt8]
    var tag: UInt8
    var value: [UInt8]
}

struct NameSpec: Equatable {
    var rdns: [[Attr]]
    static func == (a: NameSpec, b: NameSpec) -> Bool { a.encoded() == b.encoded() }
    func encoded() -> [UInt8] {
        D.seqOf(rdns.map { rdn in D.tlv(0x31, rdn.flatMap { D.seq(D.oid($0.oid), D.tlv($0.tag, $0.value)) }) })
    }
    static func simple(_ cn: String, org: String = "Sigil Diff") -> NameSpec {
        NameSpec(rdns: [
            [Attr(oid: OID.organizationName, tag: 0x13, value: D.ascii(org))],
            [Attr(oid: OID.commonName, tag: 0x0C, value: D.ascii(cn))],
        ])
    }
}

enum Digest: Int {
    case sha256 = 256
    case sha384 = 384
    case sha512 = 512
    case sha1 = 1
}

struct CertSpec {
    var version: [UInt8]? = [0xA0, 0x03, 0x02, 0x01, 0x02]  // [0] EXPLICIT v3; nil = absent (v1)
    var serial: [UInt8]
    var subject: NameSpec
    /// nil: the issuer certificate's subject at build time.
    var issuerOverride: NameSpec?
    var notBefore: Int64 = DiffChain.notBefore
    var notAfter: Int64 = DiffChain.notAfter
    var notBeforeForm: TimeForm = .auto
    var notAfterForm: TimeForm = .auto
    var key: Int
    /// Index (into the chain) of the certificate whose key signs this one; nil = a fixed key.
    var issuerIndex: Int?
    var signerKeyOverride: Int?
    var digest: Digest = .sha256
    /// Replaces both AlgorithmIdentifiers (inner, outer) when set.
    var algorithmOverride: (inner: [UInt8], outer: [UInt8])?
    var extensions: [Ext]
    var emptyExtensionsField = false
    var uniqueIDs = false
    /// (offset, xor) patches applied to the TBS before signing.
    var tbsPatches: [(Int, UInt8)] = []
    var corruptSignature = false
}

/// A chain: certs[0] the root, then intermediates, the last the leaf; what is presented and
/// what is trusted.
public struct DiffChain {
    static let time: Int64 = 1_893_456_000  // 2030-01-01T00:00:00Z
    static let notBefore: Int64 = 1_735_689_600  // 2025-01-01
    static let notAfter: Int64 = 2_019_686_400  // 2034-01-01
    static let hosts = [
        "leaf.diff.sigil.test", "other.diff.sigil.test", "x.diff.sigil.test", "192.0.2.10",
        "LEAF.DIFF.SIGIL.TEST", "diff.sigil.test", "xn--bcher-kva.diff.sigil.test", "leaf.diff.sigil.test.",
    ]

    var certs: [CertSpec]
    var host: String? = "leaf.diff.sigil.test"
    /// Presented order of the non-leaf certificates (indexes into certs, or -1-k = extra k).
    var presented: [Int]
    var anchors: [Int] = [0]
    var extraAnchors: [[UInt8]] = []
    var extras: [[UInt8]] = []
    var notes: [String] = []

    var leafIndex: Int { certs.count - 1 }

    static let policyOID: [UInt8] = [0x67, 0x81, 0x0C, 0x01, 0x02, 0x01]  // 2.23.140.1.2.1

    static func keyID(_ key: Int) -> [UInt8] {
        let k = DiffKeys.shared.keys
        return key < k.count ? k[key].keyID : [0x00]
    }

    static func ski(_ key: Int) -> Ext {
        Ext(oid: OID.subjectKeyIdentifier, critical: false, value: D.octets(keyID(key)))
    }
    static func aki(_ key: Int) -> Ext {
        Ext(oid: OID.authorityKeyIdentifier, critical: false, value: D.seq(D.tlv(0x80, keyID(key))))
    }
    static func bc(ca: Bool, pathLen: Int? = nil) -> Ext {
        Ext(
            oid: OID.basicConstraints, critical: true,
            value: D.seq(ca ? D.boolTrue : [], pathLen.map { D.int($0) } ?? []))
    }
    /// keyUsage bits: digitalSignature 0x80, keyEncipherment 0x20, keyCertSign 0x04, cRLSign 0x02.
    static func ku(_ bits: UInt8) -> Ext {
        var unused: UInt8 = 0
        while unused < 7 && bits & (1 << unused) == 0 { unused += 1 }
        return Ext(oid: OID.keyUsage, critical: true, value: bits == 0 ? D.bits([]) : D.bits([bits], unused: unused))
    }
    static func eku(_ oids: [[UInt8]]) -> Ext {
        Ext(oid: OID.extKeyUsage, critical: false, value: D.seqOf(oids.map(D.oid)))
    }
    static func san(_ names: [[UInt8]]) -> Ext { Ext(oid: OID.subjectAltName, critical: false, value: D.seqOf(names)) }
    static func dns(_ s: String) -> [UInt8] { D.tlv(0x82, D.ascii(s)) }
    static func policies(_ oids: [[UInt8]]) -> Ext {
        Ext(oid: OID.certificatePolicies, critical: false, value: D.seqOf(oids.map { D.seq(D.oid($0)) }))
    }

    /// The baseline: both verifiers trust it.
    static func baseline() -> DiffChain {
        let root = CertSpec(
            serial: D.int(0x1001), subject: .simple("Sigil Diff Root"), key: 0, issuerIndex: 0,
            extensions: [bc(ca: true), ku(0x06), ski(0)])
        let int = CertSpec(
            serial: D.int(0x2002), subject: .simple("Sigil Diff Intermediate"), key: 1, issuerIndex: 0,
            extensions: [
                bc(ca: true, pathLen: 0), ku(0x06), ski(1), aki(0),
                eku([OID.serverAuth, OID.clientAuth]), policies([policyOID]),
            ])
        let leaf = CertSpec(
            serial: D.int(0x3003_0405), subject: .simple("leaf.diff.sigil.test"),
            key: 2, issuerIndex: 1,
            extensions: [
                bc(ca: false), ku(0x80), eku([OID.serverAuth]),
                san([dns("leaf.diff.sigil.test")]), ski(2), aki(1), policies([policyOID]),
            ])
        return DiffChain(certs: [root, int, leaf], presented: [1])
    }

    // MARK: building

    func tbs(_ i: Int, issuerName: NameSpec) -> [UInt8] {
        let c = certs[i]
        let keys = DiffKeys.shared.keys
        let alg = algorithms(i).inner
        var body: [UInt8] = []
        if let v = c.version { body += v }
        body += c.serial + alg + issuerName.encoded()
        body += D.seq(D.time(c.notBefore, form: c.notBeforeForm), D.time(c.notAfter, form: c.notAfterForm))
        body += c.subject.encoded() + keys[c.key].spki
        if c.uniqueIDs { body += D.tlv(0x81, [0x00, 0x01]) + D.tlv(0x82, [0x00, 0x02]) }
        if !c.extensions.isEmpty || c.emptyExtensionsField {
            body += D.tlv(0xA3, D.seqOf(c.extensions.map { $0.encoded() }))
        }
        var t = D.tlv(0x30, body)
        for (offset, x) in c.tbsPatches where t.count > 0 { t[offset % t.count] ^= x }
        return t
    }

    func signerKey(_ i: Int) -> Int {
        if let k = certs[i].signerKeyOverride { return k }
        if let j = certs[i].issuerIndex, j < certs.count { return certs[j].key }
        return 4
    }

    func algorithms(_ i: Int) -> (inner: [UInt8], outer: [UInt8]) {
        if let o = certs[i].algorithmOverride { return o }
        if DiffKeys.shared.keys[signerKey(i)].isEd25519 {
            // RFC 8410 §3: the parameters MUST be absent.
            let a = D.seq(D.oid(OID.ed25519))
            return (a, a)
        }
        let rsa = DiffKeys.shared.keys[signerKey(i)].isRSA
        let oid: [UInt8]
        switch (certs[i].digest, rsa) {
        case (.sha1, false): oid = OID.ecdsaWithSHA1
        case (.sha256, false): oid = OID.ecdsaWithSHA256
        case (.sha384, false): oid = OID.ecdsaWithSHA384
        case (.sha512, false): oid = OID.ecdsaWithSHA512
        case (.sha1, true): oid = OID.sha1WithRSAEncryption
        case (.sha256, true): oid = OID.sha256WithRSAEncryption
        case (.sha384, true): oid = OID.sha384WithRSAEncryption
        case (.sha512, true): oid = OID.sha512WithRSAEncryption
        }
        let a = rsa ? D.seq(D.oid(oid), [0x05, 0x00]) : D.seq(D.oid(oid))
        return (a, a)
    }

    /// DER of every certificate (re-signed).
    func build() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for i in certs.indices {
            let c = certs[i]
            let issuerName =
                c.issuerOverride ?? (c.issuerIndex.map { certs[min($0, certs.count - 1)].subject } ?? .simple("Nobody"))
            let t = tbs(i, issuerName: issuerName)
            var sig = [UInt8](repeating: 0, count: 1024)
            let n = t.withUnsafeBufferPointer { tb in
                sigil_diff_sign(
                    DiffKeys.shared.keys[signerKey(i)].handle, Int32(c.digest.rawValue),
                    tb.baseAddress, tb.count, &sig, Int32(sig.count))
            }
            var s = n > 0 ? Array(sig[0..<Int(n)]) : [0x30, 0x00]
            if c.corruptSignature { s[s.count / 2] ^= 0x01 }
            out.append(D.seq(t, algorithms(i).outer, D.bits(s)))
        }
        return out
    }
}
