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
    public var requireRSAByteMultiple = true
    /// Curves accepted for EC keys (default P-256, P-384, P-521).
    public var allowedCurves: Set<NamedCurve> = [.p256, .p384, .p521]
    /// Accept RSASSA-PSS signatures (default true).
    public var allowRSAPSS = true

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

/// Everything a verification needs besides the certificates. The time is always explicit here;
/// only the outermost APIs (the CLI, the SecTrust-style evaluator) default it to now.
public struct VerificationOptions: Sendable {
    public var kind: ValidationKind
    /// Validation time, seconds since the Unix epoch (UTC). Fractions matter at the boundary:
    /// a certificate is valid while notBefore ≤ time ≤ notAfter (RFC 5280 §4.1.2.5).
    public var time: Double
    /// DNS name or IP address the server must be valid for (server kind); nil = not checked.
    public var host: String?
    /// E-mail addresses the client certificate must be valid for (client kind).
    public var emails: [String] = []
    /// Extended key usages required of the leaf (dotted OIDs). Empty = the kind's default
    /// (serverAuth for server, clientAuth for client, none for basic).
    public var requiredEKUs: [[UInt8]] = []
    /// Key usages the leaf must allow, when it has a keyUsage extension.
    public var requiredKeyUsage: KeyUsage = []
    /// Maximum number of intermediates (self-issued ones not counted, RFC 5280 §6.1.4 (l)),
    /// nil = `defaultMaximumDepth`.
    public var maximumDepth: Int?
    public var algorithms: AlgorithmPolicy = .standard
    /// RFC 5280 §6.1.1 policy inputs (default: any policy, nothing explicit or inhibited).
    public var certificatePolicies = CertificatePolicyOptions()

    /// Default depth: real Web PKI paths have 1–3 intermediates.
    public static let defaultMaximumDepth = 8

    public init(kind: ValidationKind = .server, time: Double, host: String? = nil) {
        self.kind = kind
        self.time = time
        self.host = host
    }
}
