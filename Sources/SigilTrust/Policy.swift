@_spi(SigilInternal) import SigilDER
import SigilX509

/// What a verification is for: the one way to say it, read by `VerificationOptions.purpose`,
/// `CertificateTrust.policies` (Apple's `SecPolicyRef`s), `SecurityPolicy` and SigilNIO.
///
/// | Purpose | profile | extended key usage required (RFC 5280 §4.2.1.12) | name |
/// |---|---|---|---|
/// | `.server(host:)` | CA/Browser Forum | serverAuth | `host` (DNS name or IP), when given |
/// | `.client` | CA/Browser Forum | clientAuth | `VerificationOptions.emails` |
/// | `.codeSigning` | RFC 5280 only | codeSigning | — |
/// | `.extendedKeyUsage(oid)` | RFC 5280 only | `oid` | — |
/// | `.basic` | RFC 5280 only | none | — |
///
/// `VerificationOptions.requiredEKUs`, when not empty, replaces the purpose's extended key usage.
/// An extKeyUsage absent from a certificate allows any purpose, for every case.
///
/// Two decisions, the same under every purpose or deliberately not (tested with Go's and
/// OpenSSL's verdicts in `EdgeOracleTests`, cases `eku-*-any-*` and `ku-int-absent-basic`):
/// - **anyExtendedKeyUsage never stands for the required usage**, in the leaf or an issuer,
///   code signing included. RFC 5280 §4.2.1.12: "Applications that require the presence of a
///   particular purpose MAY reject certificates that include the anyExtendedKeyUsage OID but not
///   the particular OID expected for the application". OpenSSL refuses it under its sslserver,
///   sslclient and smimesign purposes (error 26), rustls-webpki matches only the OID asked for
///   (x509-limbo `webpki::eku::ee-anyeku` expects failure); Go 1.19 takes it as every usage.
///   A CA that wants its key used for code signing lists codeSigning.
/// - **An intermediate without keyUsage is refused under the TLS profiles only** (`.server`,
///   `.client`: CA/B Forum BR §7.1.2.10.7 and RFC 5280 §4.2.1.3 "Conforming CAs MUST include
///   this extension" — rules for the CA, enforced by the CA/B profile as `openssl verify
///   -x509_strict` does, error 92). `.codeSigning`, `.extendedKeyUsage(_:)` and `.basic` are
///   RFC 5280 path validation, which reads keyUsage only "if a key usage extension is present"
///   (§6.1.4 (n)), as OpenSSL without -x509_strict, Go and rustls-webpki do.
public enum VerificationPurpose: Sendable, Hashable {
    /// A TLS server (`SecPolicyCreateSSL(true, host)`): serverAuth, the CA/B Forum profile, and
    /// `host` (a DNS name or an IP address) checked against the subjectAltName when given. The
    /// host is whatever name the certificate must prove, which the caller may override: when
    /// connecting by IP to a server whose certificate names it, or when one certificate serves
    /// several domains, pass the expected name rather than the address dialled. `nil` checks no
    /// name — prefer `.basic` to say so.
    case server(host: String?)
    /// A TLS client (`SecPolicyCreateSSL(false, nil)`): clientAuth and the CA/B Forum profile;
    /// the e-mail addresses of `VerificationOptions.emails` are checked.
    case client
    /// Code signing: RFC 5280 path validation requiring the codeSigning extended key usage
    /// (RFC 5280 §4.2.1.12) of the leaf and of every issuer that carries an extKeyUsage.
    case codeSigning
    /// Any other purpose named by its extended key usage (OID content octets, e.g.
    /// `OID.timeStamping`; from text with `OID.content(dotted:)`): RFC 5280 path validation
    /// requiring it as `.codeSigning` requires codeSigning.
    case extendedKeyUsage([UInt8])
    /// The chain only (`SecPolicyCreateBasicX509()`, RFC 5280 path validation): no purpose and
    /// no name. Legitimate for some private PKIs; with a public CA as anchor it accepts every
    /// certificate that CA ever issued.
    case basic

    /// The host `.server(host:)` checks; nil for the other purposes.
    public var host: String? {
        if case .server(let h) = self { return h }
        return nil
    }

    /// True for `.server(host:)`.
    public var isServer: Bool {
        if case .server = self { return true }
        return false
    }

    /// `SecPolicyCreateSSL(true, host)`.
    @available(*, deprecated, renamed: "server(host:)")
    public static func ssl(host: String?) -> VerificationPurpose { .server(host: host) }
    /// `SecPolicyCreateSSL(false, nil)`.
    @available(*, deprecated, renamed: "client")
    public static var sslClient: VerificationPurpose { .client }
    /// `SecPolicyCreateBasicX509()`.
    @available(*, deprecated, renamed: "basic")
    public static var basicX509: VerificationPurpose { .basic }

    /// The purpose an old `ValidationKind` and host named.
    @available(*, deprecated, message: "use VerificationPurpose's cases")
    public init(kind: ValidationKind, host: String?) {
        switch kind {
        case .server: self = .server(host: host)
        case .client: self = .client
        case .basic: self = .basic
        }
    }

    /// The rule set the checks apply: the CA/B Forum profile for TLS, RFC 5280 alone otherwise.
    var profile: Profile {
        switch self {
        case .server: return .server
        case .client: return .client
        case .codeSigning, .extendedKeyUsage, .basic: return .basic
        }
    }

    /// The extended key usage the purpose requires when `VerificationOptions.requiredEKUs` is
    /// empty; nil for `.basic`.
    var defaultEKU: [UInt8]? {
        switch self {
        case .server: return OID.serverAuth
        case .client: return OID.clientAuth
        case .codeSigning: return OID.codeSigning
        case .extendedKeyUsage(let oid): return oid
        case .basic: return nil
        }
    }
}

/// The profile of checks a purpose selects (internal: `VerificationPurpose` is the public word).
enum Profile: Sendable, Hashable {
    /// serverAuth and the CA/B Forum profile, the host.
    case server
    /// clientAuth and the CA/B Forum profile.
    case client
    /// RFC 5280 alone.
    case basic
}

/// What the chain is being validated for, before `VerificationPurpose` (which adds the host to
/// the server case, code signing and any extended key usage).
@available(*, deprecated, message: "use VerificationPurpose (.server(host:), .client, .basic)")
public enum ValidationKind: Sendable, Hashable {
    /// A TLS server's chain: `VerificationPurpose.server(host:)`.
    case server
    /// A TLS client's chain: `VerificationPurpose.client`.
    case client
    /// The chain only: `VerificationPurpose.basic`.
    case basic
}

/// Algorithm and key requirements (documented defaults: the CA/B Forum Baseline Requirements
/// §6.1.5 and §7.1.3, as rustls-webpki and browsers apply them).
public struct AlgorithmPolicy: Sendable, Hashable {
    /// Digests accepted in signatures. Default: SHA-256, SHA-384, SHA-512 (no MD2, MD5, SHA-1,
    /// SHA-224).
    public var allowedDigests: Set<DigestAlgorithm> {
        get { Set(DigestAlgorithm.allCases.filter { allows($0) }) }
        set { digestMask = newValue.reduce(0) { $0 | AlgorithmPolicy.bit($1) } }
    }
    /// `allowedDigests` as one bit per digest (`bit(_:)`): what the checks test, once or twice
    /// per certificate on a path (a `Set`'s `contains` hashes its element: ~150 instructions
    /// per test, callgrind, of a ~33k-instruction RSA chain).
    var digestMask: UInt8 = AlgorithmPolicy.bit(.sha256) | AlgorithmPolicy.bit(.sha384) | AlgorithmPolicy.bit(.sha512)
    /// Minimum RSA modulus size in bits (default 2048), and moduli must be a multiple of 8 bits
    /// (BR §6.1.5) unless `requireRSAByteMultiple` is false.
    public var minimumRSABits = 2048
    /// RSA moduli must be a whole number of bytes (BR §6.1.5); default true.
    public var requireRSAByteMultiple = true
    /// Curves accepted for EC keys (default P-256, P-384, P-521).
    public var allowedCurves: Set<NamedCurve> {
        get { Set(([.p256, .p384, .p521, .other] as [NamedCurve]).filter { allows($0) }) }
        set { curveMask = newValue.reduce(0) { $0 | AlgorithmPolicy.bit($1) } }
    }
    /// `allowedCurves` as one bit per curve (`bit(_:)`), as `digestMask`.
    var curveMask: UInt8 = AlgorithmPolicy.bit(.p256) | AlgorithmPolicy.bit(.p384) | AlgorithmPolicy.bit(.p521)
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

    /// Whether signatures with digest `d` are accepted (`allowedDigests.contains(d)`).
    @inline(__always)
    @_spi(SigilInternal) public func allows(_ d: DigestAlgorithm) -> Bool { digestMask & AlgorithmPolicy.bit(d) != 0 }

    /// Whether EC keys on `c` are accepted (`allowedCurves.contains(c)`).
    @inline(__always)
    @_spi(SigilInternal) public func allows(_ c: NamedCurve) -> Bool { curveMask & AlgorithmPolicy.bit(c) != 0 }

    @inline(__always)
    static func bit(_ d: DigestAlgorithm) -> UInt8 { 1 &<< d.rawValue }  // 7 cases: bits 0-6

    @inline(__always)
    static func bit(_ c: NamedCurve) -> UInt8 {
        switch c {
        case .p256: return 1
        case .p384: return 2
        case .p521: return 4
        case .other: return 8
        }
    }

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
            return allows(d) ? nil : a.name
        case .rsaPSS(let p):
            return allowRSAPSS && allows(p.hash) && allows(p.mgf1Hash) ? nil : a.name
        case .ed25519, .ed448:
            return allowEdDSA ? nil : a.name
        default:
            return a.name
        }
    }
}

/// Everything a verification takes besides the certificates: the one options value that
/// `CertificateTrust`, `SecurityPolicy`, SigilNIO's verifiers and the CLI hold — the anchors the
/// caller set, the time, the purpose, required usages, the depth, algorithms, certificate
/// policies, revocation and the work budget. The time is always explicit here; only the
/// outermost APIs (the CLI, `CertificateTrust`'s Sigil initializer) default it to now.
///
/// The system's anchors are not an option but the environment: `CertificateTrust.systemAnchors`
/// (or `SecurityPolicy.anchors`) supplies them, and `customAnchors` with `anchorsOnly` decides
/// whether they count (`CertificateTrust.usesSystemAnchors(customAnchorsSet:anchorsOnly:)`).
public struct VerificationOptions: Sendable {
    /// What the chain is validated for (purpose, profile and, for a server, the host).
    public var purpose: VerificationPurpose {
        didSet { hostIdentity = Self.parse(purpose.host) }
    }
    /// Validation time, seconds since the Unix epoch (UTC). Fractions matter at the boundary:
    /// a certificate is valid while notBefore ≤ time ≤ notAfter (RFC 5280 §4.1.2.5).
    public var time: Double
    /// `purpose`'s host parsed (RFC 6125 §6.2 reference identity), once, when the purpose is
    /// set: a verification reads it instead of parsing the text again. Always the parse of the
    /// current purpose's host (kept by `purpose`'s observer), so it cannot disagree with it.
    private(set) var hostIdentity: Result<ServerIdentity, ServerIdentity.ParseError>?
    /// The caller's anchors as set (`SecTrustSetAnchorCertificates`): nil when never set (or
    /// reset with `useSystemAnchors()`, Apple's `SecTrustSetAnchorCertificates(trust, NULL)`),
    /// so the system's anchors are used; an array — even an empty one — once set, which
    /// replaces the system's unless `anchorsOnly` is false. An empty array with `anchorsOnly`
    /// (a bundled root that failed to load, say) trusts nothing: it never falls back to the
    /// system store.
    public var customAnchors: [Certificate]? = nil
    /// The caller's anchors (`SecTrustSetAnchorCertificates`); setting it, even to `[]`, sets
    /// `customAnchors`. Reads `[]` when never set.
    public var anchors: [Certificate] {
        get { customAnchors ?? [] }
        set { customAnchors = newValue }
    }
    /// With anchors set (even to none): trust only them (`true`, Apple's default once anchors
    /// are set) or them plus the system's (`false`). Never set: the system's are used.
    public var anchorsOnly = true
    /// E-mail addresses the leaf must be valid for (RFC 5280 §4.2.1.6 rfc822Name; the
    /// `.client` purpose's names, checked whatever the purpose).
    public var emails: [String] = []
    /// Extended key usages required of the leaf, as OID content octets (e.g. `OID.serverAuth`;
    /// from text with `OID.content(dotted:)`). Every one must be listed by the leaf's
    /// extKeyUsage when it has one (absent means any purpose, RFC 5280 §4.2.1.12, for every
    /// purpose), and by that of each issuer that carries one. Empty = the purpose's own
    /// (serverAuth, clientAuth, codeSigning, the `.extendedKeyUsage` OID; none for `.basic`).
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
    /// The work one verification may do, all of it: signature checks (the certificates' and
    /// the revocation data's), candidate visits, name-constraint comparisons and certificate
    /// policy work (`VerificationBudget`). Each purpose of `CertificateTrust.policies` is one
    /// verification.
    public var budget = VerificationBudget.standard

    /// Default depth: real Web PKI paths have 1–3 intermediates.
    public static let defaultMaximumDepth = 8

    /// Options for `purpose` at `time` (seconds since the epoch); everything else at its
    /// default (no caller anchors, the standard algorithms, budget and depth, no revocation).
    public init(purpose: VerificationPurpose = .server(host: nil), time: Double) {
        self.purpose = purpose
        self.time = time
        self.hostIdentity = Self.parse(purpose.host)
    }

    /// Forgets the caller's anchors: the system's are used again
    /// (`SecTrustSetAnchorCertificates(trust, NULL)`).
    public mutating func useSystemAnchors() { customAnchors = nil }

    static func parse(_ host: String?) -> Result<ServerIdentity, ServerIdentity.ParseError>? {
        host.map { h in Result { () throws(ServerIdentity.ParseError) in try ServerIdentity.parse(h) } }
    }

    /// The profile of checks `purpose` selects.
    var profile: Profile { purpose.profile }

    /// The host `purpose` checks (server purpose), nil otherwise.
    var checkedHost: String? { purpose.host }
}

extension VerificationOptions {
    /// Options for `kind` at `time`, checking `host` when given (server kind).
    @available(*, deprecated, renamed: "init(purpose:time:)")
    public init(kind: ValidationKind = .server, time: Double, host: String? = nil) {
        self.init(purpose: VerificationPurpose(kind: kind, host: host), time: time)
    }

    /// The purpose as a `ValidationKind` (`.codeSigning` and `.extendedKeyUsage` read as
    /// `.basic`); setting it keeps the host when the purpose stays a server one.
    @available(*, deprecated, renamed: "purpose")
    public var kind: ValidationKind {
        get {
            switch purpose.profile {
            case .server: return .server
            case .client: return .client
            case .basic: return .basic
            }
        }
        set { purpose = VerificationPurpose(kind: newValue, host: purpose.host) }
    }

    /// The host of a `.server(host:)` purpose; setting it on another purpose has no effect (a
    /// host is only checked for a server).
    @available(*, deprecated, message: "use purpose = .server(host:)")
    public var host: String? {
        get { purpose.host }
        set { if purpose.isServer { purpose = .server(host: newValue) } }
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
