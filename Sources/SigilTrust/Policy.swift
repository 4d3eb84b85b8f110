import SigilX509

/// What the chain is being validated for.
public enum ValidationKind: Sendable, Hashable {
    /// A TLS server's chain: requires serverAuth (RFC 5280 §4.2.1.12) and checks the host or
    /// IP when one is given, under the CA/Browser Forum profile.
    case server
    /// A TLS client's chain: requires clientAuth and checks the e-mail addresses given.
    case client
    /// The chain only (RFC 5280 path validation), no purpose and no name: legitimate for some
    /// private PKIs, dangerous with public CAs (any certificate they ever issued passes).
    case basic
}

/// Algorithm and key requirements (documented defaults: the CA/B Forum Baseline Requirements
/// §6.1.5 and §7.1.3, as rustls-webpki and browsers apply them).
public struct AlgorithmPolicy: Sendable, Hashable {
    /// Digests accepted in signatures. Default: SHA-256, SHA-384, SHA-512 (no MD2, MD5, SHA-1,
    /// SHA-224).
    public var allowedDigests: Set<DigestAlgorithm> = [.sha256, .sha384, .sha512]
    /// Minimum RSA modulus size in bits (default 2048), and moduli must be a multiple of 8 bits
    /// (BR §6.1.5) unless `requireRSAByteMultiple` is false.
    public var minimumRSABits = 2048
    /// RSA moduli must be a whole number of bytes (BR §6.1.5); default true.
    public var requireRSAByteMultiple = true
    /// Curves accepted for EC keys (default P-256, P-384, P-521).
    public var allowedCurves: Set<NamedCurve> = [.p256, .p384, .p521]
    /// Accept RSASSA-PSS signatures (default true).
    public var allowRSAPSS = true
    /// Accept Ed25519 and Ed448 keys and signatures (RFC 8410; default true, as OpenSSL, Go and
    /// swift-certificates do). `allowedSignatureAlgorithms` can also exclude either one.
    public var allowEdDSA = true
    /// The signature algorithms accepted on the path, when restricted (nil, the default: any
    /// the rules above allow). A restriction only narrows: the digest, key and RSA-PSS rules
    /// still apply. A signature outside the set is a `weakAlgorithm` failure (the caller's
    /// policy refuses it); a CRL or OCSP response signed outside it is not used (its
    /// certificates' status is then undetermined). The CLI's `--sig-alg` sets it.
    public var allowedSignatureAlgorithms: Set<SignatureAlgorithmName>? = nil

    /// The defaults (`standard`).
    public init() {}

    /// The defaults.
    public static let standard = AlgorithmPolicy()

    /// A legacy policy accepting SHA-1 signatures and RSA ≥ 1024 (for inspecting old chains; never
    /// for TLS).
    public static var legacy: AlgorithmPolicy {
        var p = AlgorithmPolicy()
        p.allowedDigests = [.sha1, .sha224, .sha256, .sha384, .sha512]
        p.minimumRSABits = 1024
        p.requireRSAByteMultiple = false
        return p
    }
}

extension AlgorithmPolicy {
    /// Why `a` is refused for signed revocation data (CRLs, OCSP responses, delegated OCSP
    /// responder certificates), as "signed with …" completes it; nil when allowed. One rule for
    /// both checkers: the caller's restriction (`allowedSignatureAlgorithms`, `--sig-alg`) as
    /// for certificate signatures, then the digest and RSA-PSS rules.
    func revocationDataRefusal(_ a: SignatureAlgorithm) -> String? {
        if let allowed = allowedSignatureAlgorithms, SignatureAlgorithmName(a).map({ !allowed.contains($0) }) ?? true {
            return "\(a.name), not an allowed signature algorithm"
        }
        switch a {
        case .rsaPKCS1(let d), .ecdsa(let d):
            return allowedDigests.contains(d) ? nil : a.name
        case .rsaPSS(let p):
            return allowRSAPSS && allowedDigests.contains(p.hash) && allowedDigests.contains(p.mgf1Hash) ? nil : a.name
        case .ed25519, .ed448:
            return allowEdDSA ? nil : a.name
        default:
            return a.name
        }
    }
}

/// Everything a verification needs besides the certificates. The time is always explicit here;
/// only the outermost APIs (the CLI, the SecTrust-style evaluator) default it to now.
public struct VerificationOptions: Sendable {
    /// What the chain is validated for (purpose and profile).
    public var kind: ValidationKind
    /// Validation time, seconds since the Unix epoch (UTC). Fractions matter at the boundary:
    /// a certificate is valid while notBefore ≤ time ≤ notAfter (RFC 5280 §4.1.2.5).
    public var time: Double
    /// DNS name or IP address the server must be valid for (server kind); nil = not checked.
    public var host: String? {
        get { hostText }
        set {
            hostText = newValue
            hostIdentity = newValue.map { h in
                Result { () throws(ServerIdentity.ParseError) in try ServerIdentity.parse(h) }
            }
        }
    }
    private var hostText: String?
    /// `host` parsed (RFC 6125 §6.2 reference identity), once, when it is set: a verification
    /// reads it instead of parsing the text again. Always the parse of the current `host` (set
    /// only by its setter), so it cannot disagree with it.
    private(set) var hostIdentity: Result<ServerIdentity, ServerIdentity.ParseError>?
    /// E-mail addresses the client certificate must be valid for (client kind).
    public var emails: [String] = []
    /// Extended key usages required of the leaf, as OID content octets (e.g. `OID.serverAuth`;
    /// from text with `OID.content(dotted:)`). Every one must be listed by the leaf's
    /// extKeyUsage when it has one (absent means any purpose, RFC 5280 §4.2.1.12, for every
    /// kind), and by that of each issuer that carries one. Empty = the kind's default
    /// (serverAuth for server, clientAuth for client, none for basic).
    public var requiredEKUs: [[UInt8]] = []
    /// Key usages the leaf must allow, when it has a keyUsage extension.
    public var requiredKeyUsage: KeyUsage = []
    /// Maximum number of intermediates (self-issued ones not counted, RFC 5280 §6.1.4 (l)),
    /// nil = `defaultMaximumDepth`.
    public var maximumDepth: Int?
    /// Algorithm and key requirements.
    public var algorithms: AlgorithmPolicy = .standard
    /// RFC 5280 §6.1.1 policy inputs (default: any policy, nothing explicit or inhibited).
    public var certificatePolicies = CertificatePolicyOptions()
    /// Revocation checking (CRLs, OCSP responses, hard or soft fail); nil = none.
    public var revocation: RevocationOptions?

    /// Default depth: real Web PKI paths have 1–3 intermediates.
    public static let defaultMaximumDepth = 8

    /// Options for `kind` at `time` (seconds since the epoch), checking `host` when given.
    public init(kind: ValidationKind = .server, time: Double, host: String? = nil) {
        self.kind = kind
        self.time = time
        self.hostText = nil
        self.hostIdentity = nil
        self.host = host
    }
}

/// A certificate signature algorithm as a restriction names it: the scheme and its digest
/// (RSASSA-PSS as one name, whatever its hash: the digest rules of `AlgorithmPolicy` judge
/// that). The raw values are the names x509-limbo's `signature_algorithms` and pyca
/// `cryptography`'s `SignatureAlgorithmOID` use.
public enum SignatureAlgorithmName: String, Sendable, Hashable, CaseIterable {
    /// sha1WithRSAEncryption (RFC 3279 §2.2.1).
    case rsaWithSHA1 = "RSA_WITH_SHA1"
    /// sha224WithRSAEncryption (RFC 4055 §5).
    case rsaWithSHA224 = "RSA_WITH_SHA224"
    /// sha256WithRSAEncryption (RFC 4055 §5).
    case rsaWithSHA256 = "RSA_WITH_SHA256"
    /// sha384WithRSAEncryption (RFC 4055 §5).
    case rsaWithSHA384 = "RSA_WITH_SHA384"
    /// sha512WithRSAEncryption (RFC 4055 §5).
    case rsaWithSHA512 = "RSA_WITH_SHA512"
    /// id-RSASSA-PSS (RFC 4055 §3.1), any hash.
    case rsassaPSS = "RSASSA_PSS"
    /// ecdsa-with-SHA1 (RFC 3279 §2.2.3).
    case ecdsaWithSHA1 = "ECDSA_WITH_SHA1"
    /// ecdsa-with-SHA224 (RFC 5758 §3.2).
    case ecdsaWithSHA224 = "ECDSA_WITH_SHA224"
    /// ecdsa-with-SHA256 (RFC 5758 §3.2).
    case ecdsaWithSHA256 = "ECDSA_WITH_SHA256"
    /// ecdsa-with-SHA384 (RFC 5758 §3.2).
    case ecdsaWithSHA384 = "ECDSA_WITH_SHA384"
    /// ecdsa-with-SHA512 (RFC 5758 §3.2).
    case ecdsaWithSHA512 = "ECDSA_WITH_SHA512"
    /// id-Ed25519 (RFC 8410 §3).
    case ed25519 = "ED25519"
    /// id-Ed448 (RFC 8410 §3).
    case ed448 = "ED448"

    /// The name of a decoded signature algorithm; nil for algorithms with no name here (MD2,
    /// MD5, unknown OIDs), which no restriction admits.
    public init?(_ algorithm: SignatureAlgorithm) {
        switch algorithm {
        case .rsaPKCS1(let d):
            switch d {
            case .sha1: self = .rsaWithSHA1
            case .sha224: self = .rsaWithSHA224
            case .sha256: self = .rsaWithSHA256
            case .sha384: self = .rsaWithSHA384
            case .sha512: self = .rsaWithSHA512
            case .md2, .md5: return nil
            }
        case .rsaPSS: self = .rsassaPSS
        case .ecdsa(let d):
            switch d {
            case .sha1: self = .ecdsaWithSHA1
            case .sha224: self = .ecdsaWithSHA224
            case .sha256: self = .ecdsaWithSHA256
            case .sha384: self = .ecdsaWithSHA384
            case .sha512: self = .ecdsaWithSHA512
            case .md2, .md5: return nil
            }
        case .ed25519: self = .ed25519
        case .ed448: self = .ed448
        case .unknown: return nil
        }
    }

    /// Parses a name case-insensitively, `-` and `_` alike (`ecdsa-with-sha256`).
    public init?(name: String) {
        self.init(rawValue: String(name.uppercased().map { $0 == "-" ? "_" : $0 }))
    }
}
