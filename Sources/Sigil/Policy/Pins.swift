import SigilCrypto
import SigilTrust
import SigilX509

/// A public-key pin: the SHA-256 digest of a DER SubjectPublicKeyInfo, written
/// `sha256/<base64>` — the form of HPKP's `pin-sha256` (RFC 7469 §2.4), TrustKit and OkHttp's
/// `CertificatePinner`. Comparing digests of the whole SPKI compares the key and its algorithm
/// parameters (so an EC key pinned on one curve never matches the same bytes on another).
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte digest.
    public let sha256: [UInt8]

    /// A pin from its digest; nil unless exactly 32 bytes.
    public init?(sha256 digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        sha256 = digest
    }

    /// Parses `sha256/<base64 of 32 bytes>` (the prefix case-insensitive, standard base64 with
    /// its padding, as `sigil pin` prints it). Nil for anything else.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 7 + 44, String(decoding: utf8[..<7], as: UTF8.self).lowercased() == "sha256/",
            let digest = Base64.decode(utf8[7...]), digest.count == 32,
            Base64.encode(digest) == Array(utf8[7...])
        else { return nil }
        sha256 = digest
    }

    /// The pin of a DER SubjectPublicKeyInfo.
    public init<S: Sequence>(subjectPublicKeyInfo: S) where S.Element == UInt8 {
        sha256 = SHA256.hash(subjectPublicKeyInfo).bytes
    }

    /// The pin of a certificate's public key.
    public init(certificate: Certificate) {
        self.init(subjectPublicKeyInfo: certificate.subjectPublicKeyInfo.bytes)
    }

    /// Does `certificate` carry this key?
    public func matches(_ certificate: Certificate) -> Bool {
        PublicKeyPin(certificate: certificate) == self
    }

    /// `sha256/<base64>`.
    public var description: String { "sha256/" + Base64.encodeString(sha256) }
}

/// Public-key pins for one domain (and optionally its subdomains), as TrustKit configures them
/// per domain: at least one pin must match the chain, until `expires`, after which the pin set
/// is no longer enforced (so an app that is never updated does not lock itself out when the
/// keys change).
public struct PinSet: Sendable, Hashable {
    /// The domain, e.g. `api.example.com` (compared ASCII case-insensitively, trailing dot ignored).
    public var domain: String
    /// Also applies to every name below `domain` (`*.api.example.com`, `a.b.api.example.com`).
    public var includesSubdomains: Bool
    /// The pinned keys (include a backup key not in the current chain).
    public var pins: [PublicKeyPin]
    /// Unix seconds after which the set is not enforced; nil = never expires.
    public var expires: Double?
    /// True (the default): a chain whose validated path carries none of the pins is refused.
    /// False: report-only (TrustKit's `kTSKEnforcePinning = NO`, HPKP's
    /// `Public-Key-Pins-Report-Only`, RFC 7469 §2.1): the pins are evaluated and a failure is
    /// reported (`SecurityPolicy.pinFailureReporter`), but the verdict is the ordinary evaluation's —
    /// report-only never turns an untrusted chain into a trusted one.
    public var enforced: Bool = true

    /// Pins for `domain` (and its subdomains when `includesSubdomains`), enforced until `expires` (seconds since the epoch; nil: never expires), or only reported when `enforced` is false.
    public init(
        domain: String, includesSubdomains: Bool = false, pins: [PublicKeyPin], expires: Double? = nil,
        enforced: Bool = true
    ) {
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.pins = pins
        self.expires = expires
        self.enforced = enforced
    }

    static func normalized(_ name: String) -> String {
        var s = String(name.lowercased())
        while s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Does the set apply to `name`? Exactly its domain, or a subdomain when
    /// `includesSubdomains`.
    public func applies(to name: String) -> Bool {
        let n = PinSet.normalized(name)
        let d = PinSet.normalized(domain)
        if d.isEmpty { return false }
        if n == d { return true }
        return includesSubdomains && n.hasSuffix("." + d)
    }

    /// The most specific of `sets` (all applying to one name): the longest domain — the exact
    /// name when present, else the nearest parent — and the first of equals.
    static func mostSpecific(_ sets: [PinSet]) -> PinSet? {
        var best: PinSet?
        var bestLength = -1
        for s in sets {
            let n = normalized(s.domain).utf8.count
            if n > bestLength {
                best = s
                bestLength = n
            }
        }
        return best
    }

    /// True once `time` is past `expires`.
    public func isExpired(at time: Double) -> Bool {
        guard let e = expires else { return false }
        return time > e
    }

    /// Configuration problems worth a warning: no backup pin (RFC 7469 §4.3: a pin set with a
    /// single key bricks the app the day that key must be replaced), an expired set, duplicates.
    /// With `servedChain`, also warns when every pin matches a key the server serves today
    /// (none of them is a backup kept offline).
    public func warnings(at time: Double, servedChain: [Certificate]? = nil) -> [String] {
        var out: [String] = []
        let distinct = Set(pins)
        if distinct.count < pins.count { out.append("pin set for \(domain) lists a pin twice") }
        if distinct.count < 2 {
            out.append(
                "pin set for \(domain) has no backup pin: add the pin of a spare key kept offline (RFC 7469 §4.3)")
        } else if let chain = servedChain, !chain.isEmpty {
            let served = Set(chain.map { PublicKeyPin(certificate: $0) })
            if distinct.isSubset(of: served) {
                out.append("pin set for \(domain): every pin matches a key the server uses now; none is a backup")
            }
        }
        if isExpired(at: time) { out.append("pin set for \(domain) has expired and is not enforced") }
        return out
    }
}

/// The pin sets that apply to one domain at one time (`SecurityPolicy.pinSets(for:at:)`).
public struct ApplicablePinSets: Sendable, Hashable {
    /// The set whose pins are enforced: the most specific unexpired enforced set (the exact
    /// name's, else the nearest parent's with `includesSubdomains`); nil when none applies.
    public var enforced: PinSet?
    /// The most specific unexpired report-only set: its pins are checked and a failure is
    /// reported, never enforced.
    public var reportOnly: PinSet?
    /// The expired sets that apply: neither enforced nor reported.
    public var expired: [PinSet]

    /// No set applies: the global key pins are in force.
    public var isEmpty: Bool { enforced == nil && reportOnly == nil && expired.isEmpty }
}
