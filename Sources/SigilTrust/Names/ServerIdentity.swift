import SigilDER
import SigilX509

/// The identity a client expects a server to prove (RFC 6125 §6.2 "reference identifier"):
/// the host name it resolved, or the IP address it connected to.
///
/// `ServerIdentity("example.com")`, `ServerIdentity("192.0.2.1")`, `ServerIdentity("[2001:db8::1]")`.
/// Text that parses as an IP address is an IP identity; anything else must be a valid DNS host
/// name (see `DNSName`). Text that is neither (e.g. `"1.2.3.04"`, `"2001:db8::g"`) is refused,
/// never reinterpreted.
public enum ServerIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A DNS host name, matched against subjectAltName dNSName entries (RFC 6125 §6.4).
    case dns(DNSName)
    /// An IPv4 or IPv6 address, matched against subjectAltName iPAddress entries (RFC 6125 §6.2.1).
    case ip(IPAddress)

    /// Why a reference name was refused.
    public enum ParseError: Error, Sendable, Hashable {
        /// The text is empty.
        case empty
        /// Non-ASCII text. Sigil compares internationalised names as A-labels and does not
        /// convert U-labels itself (no RFC 3492 Punycode / IDNA2008 / UTS #46 mapping): pass
        /// the A-label form (`"xn--bcher-kva.example"`) that was used to resolve the host, so
        /// the name checked is exactly the name connected to.
        case nonASCII
        /// A character other than letters, digits, "-" and "." (e.g. "_", " ", "/"), or a
        /// label starting or ending with "-".
        case invalidCharacter
        /// An empty label ("a..b", ".a", or only ".").
        case emptyLabel
        /// A label longer than 63 octets (RFC 1035 §2.3.4).
        case labelTooLong
        /// A name longer than 253 octets (RFC 1035 §2.3.4, without the trailing dot).
        case tooLong
        /// A "*" (a reference identity never contains a wildcard, RFC 6125 §6.4.3).
        case wildcard
        /// The last label is all digits: not a host name, and not a valid IPv4 address either
        /// (e.g. "1.2.3.04", "256.1.1.1", "127.1").
        case numericTopLabel
        /// Bracketed or colon-containing text that is not a valid IPv6 address.
        case invalidIPAddress
    }

    /// Parses a reference identity (see the type's documentation); nil when invalid.
    public init?(_ text: String) {
        guard let v = try? ServerIdentity.parse(text) else { return nil }
        self = v
    }

    /// Parses a reference identity, saying why it is refused.
    public static func parse(_ text: String) throws(ParseError) -> ServerIdentity {
        if text.isEmpty { throw .empty }
        // Only text made of digits and dots (a dotted quad) or holding a colon or bracket (an
        // IPv6 literal) can be an address; a host name skips the IP parsers and their arrays.
        let mayBeIP =
            text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
            || text.utf8.contains(UInt8(ascii: ":")) || text.utf8.contains(UInt8(ascii: "["))
        if mayBeIP, let ip = IPAddress(text) { return .ip(ip) }
        // Brackets or a colon can only mean an IPv6 literal (a port is not part of a name).
        if text.utf8.contains(UInt8(ascii: "[")) || text.utf8.contains(UInt8(ascii: ":")) {
            throw .invalidIPAddress
        }
        switch DNSName.parse(text) {
        case .success(let n): return .dns(n)
        case .failure(let e): throw e
        }
    }

    /// The name or address as text.
    public var description: String {
        switch self {
        case .dns(let n): return n.description
        case .ip(let a): return a.description
        }
    }
}

extension Certificate {
    /// Does the certificate prove the server identity `id`? (RFC 6125 §6.4 as tightened by its
    /// successor RFC 9525, and the CA/B Forum Baseline Requirements.)
    ///
    /// - DNS identities are compared only with the dNSName entries of the subjectAltName
    ///   extension, ASCII case-insensitively. The subject Common Name is never used (RFC 9525
    ///   removed CN-IDs; CA/B Forum BR §7.1.4.3 requires the CN, if present, to repeat a SAN, so
    ///   a CN-only certificate is not a valid public one; Go ignores it since 1.15). No fallback
    ///   option is offered: it would also need `checkNameConstraints` to treat the CN as a DNS
    ///   name, which it does not, so a fallback would let a name-constrained CA escape its
    ///   constraints with a CN-only certificate.
    /// - A presented wildcard `*.example.com` matches exactly one non-empty left-most label
    ///   (`a.example.com`, not `example.com` nor `a.b.example.com`, RFC 6125 §6.4.3). The `*` must
    ///   be the whole left-most label (`f*.example.com`, `a.*.example.com`, `xn--*.example.com`
    ///   never match) and the wildcard's parent must not be a public suffix (`*.com`,
    ///   `*.co.uk`: see `PublicSuffixes` for what is covered). The label matched may be an
    ///   A-label (`*.example.com` matches `xn--bcher-kva.example.com`), as in rustls-webpki, Go
    ///   and NSS: RFC 6125 §6.4.3's IDN caution is about wildcards *inside* an A-label, which
    ///   are refused, and whoever holds `*.example.com` controls every label below it, so
    ///   refusing A-labels would only break IDN subdomains without stopping any attack.
    /// - Presented names that are not valid LDH host names (empty labels, a trailing dot, "_",
    ///   spaces, non-ASCII bytes, an all-numeric last label such as the text "192.0.2.1") never
    ///   match anything.
    /// - IP identities are compared only with iPAddress entries, octet for octet (an IPv4
    ///   address never matches an IPv6 entry, IPv4-mapped or not). Text in a dNSName never
    ///   matches an IP identity, and an iPAddress entry never matches a DNS identity.
    ///
    /// A certificate without subjectAltName matches nothing. Throws only when the extension is
    /// malformed.
    public func matches(_ id: ServerIdentity) throws(DERError) -> Bool {
        let cert = self
        guard let sans = try cert.subjectAlternativeNames() else { return false }
        switch id {
        case .dns(let reference):
            for case .dnsName(let presented) in sans
            where presentedDNSNameMatches(presented.bytes, reference.bytes[...]) {
                return true
            }
        case .ip(let reference):
            for case .ipAddress(let presented) in sans where presented == reference.bytes {
                return true
            }
        }
        return false
    }
}

/// The former free-function spelling of `Certificate.matches(_:)`.
@available(*, deprecated, renamed: "Certificate.matches(_:)")
public func matches(_ cert: Certificate, _ id: ServerIdentity) throws(DERError) -> Bool { try cert.matches(id) }

/// RFC 6125 §6.4.1/§6.4.3 comparison of one presented dNSName with a valid, normalised
/// reference name (see `matches`).
func presentedDNSNameMatches(_ presented: ArraySlice<UInt8>, _ reference: ArraySlice<UInt8>) -> Bool {
    presentedDNSNameMatches(DNSSyntax.classify(presented), presented, reference)
}

/// `presentedDNSNameMatches` for a presented name already classified as `kind`.
func presentedDNSNameMatches(
    _ kind: DNSSyntax.Presented, _ presented: ArraySlice<UInt8>, _ reference: ArraySlice<UInt8>
) -> Bool {
    switch kind {
    case .invalid:
        return false
    case .exact:
        return asciiEqualIgnoringCase(presented, reference)
    case .wildcard(let parent):
        // Exactly one non-empty label in place of "*" (the reference has no empty labels).
        guard let dot = reference.firstIndex(of: UInt8(ascii: ".")), dot > reference.startIndex else { return false }
        return asciiEqualIgnoringCase(reference[(dot + 1)...], parent)
    }
}

// MARK: - Email (client certificates)

extension Certificate {
    /// Does the certificate hold the mailbox `email` as an rfc822Name subjectAltName (RFC 5280
    /// §4.2.1.6)? For client and S/MIME certificates.
    ///
    /// - The local part (before "@") is compared exactly, case-sensitively (RFC 5321 §2.4: only
    ///   the receiving host may interpret it); the domain ASCII case-insensitively.
    /// - Only mailboxes of the form `local@domain` with a dot-atom local part (RFC 5322 §3.2.3:
    ///   letters, digits, `!#$%&'*+-/=?^_{|}~`, the backtick, and non-leading, non-doubled
    ///   dots) and a valid
    ///   LDH domain are supported, in the reference and in the certificate. Quoted local parts,
    ///   address literals (`user@[192.0.2.1]`) and SmtpUTF8Mailbox otherNames (RFC 8398) are not:
    ///   they never match. A malformed `email` matches nothing.
    /// - The subject's emailAddress attribute is not consulted (RFC 5280 §4.2.1.6: new
    ///   certificates put addresses in the SAN; the same no-legacy-fallback choice as for CN).
    public func matchesEmail(_ email: String) throws(DERError) -> Bool {
        let cert = self
        let ref = Array(email.utf8)
        guard let (refLocal, refDomain) = Mailbox.split(ref[...]) else { return false }
        guard let sans = try cert.subjectAlternativeNames() else { return false }
        for case .rfc822Name(let presented) in sans {
            guard let (local, domain) = Mailbox.split(presented.bytes) else { continue }
            if local.elementsEqual(refLocal) && asciiEqualIgnoringCase(domain, refDomain) { return true }
        }
        return false
    }
}

/// The former free-function spelling of `Certificate.matchesEmail(_:)`.
@available(*, deprecated, renamed: "Certificate.matchesEmail(_:)")
public func matchesEmail(_ cert: Certificate, _ email: String) throws(DERError) -> Bool { try cert.matchesEmail(email) }

/// Mailbox syntax shared by email matching and rfc822Name constraints.
enum Mailbox {
    static let maximumLocalLength = 64  // RFC 5321 §4.5.3.1.1

    /// Splits `local@domain`, checking both parts (see `matchesEmail`); nil if malformed.
    static func split(_ s: ArraySlice<UInt8>) -> (local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)? {
        guard let at = s.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        let local = s[s.startIndex..<at]
        let domain = s[(at + 1)...]
        guard isDotAtom(local), DNSSyntax.check(domain, wildcard: false) == nil else { return nil }
        return (local, domain)
    }

    /// RFC 5322 §3.2.3 dot-atom-text, at most 64 octets.
    static func isDotAtom(_ s: ArraySlice<UInt8>) -> Bool {
        guard !s.isEmpty, s.count <= maximumLocalLength else { return false }
        var previousDot = true  // no leading dot
        for c in s {
            if c == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
                continue
            }
            previousDot = false
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            default:
                // atext specials: ! # $ % & ' * + - / = ? ^ _ ` { | } ~
                if !"!#$%&'*+-/=?^_`{|}~".utf8.contains(c) { return false }
            }
        }
        return !previousDot  // no trailing dot
    }
}
