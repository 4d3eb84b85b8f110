@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509

/// The verdict of one CA's name constraints on one certificate below it.
public enum NameConstraintsResult: Sendable, Hashable {
    /// Every name of the certificate lies within the constraints.
    case satisfied
    /// A name is in an excluded subtree, outside every permitted subtree of its type, or is
    /// malformed while constraints of its type exist. The text names it (e.g.
    /// `"DNS:www.example.org is not in a permitted subtree"`).
    case violated(String)
    /// A constraint that applies to one of the certificate's names is malformed (e.g. the
    /// dNSName constraint `*.example.com`, a non-contiguous iPAddress mask): the CA's intent
    /// is unknown, so the certificate is refused.
    case malformedConstraint(String)
    /// The constraints could not be evaluated: a name form Sigil does not evaluate (otherName,
    /// x400Address, ediPartyName, registeredID) is constrained and present in the
    /// certificate, or the work limit was exceeded. Fail closed: treat as a rejection.
    case unsupported(String)

    /// True for `.satisfied`.
    public var isSatisfied: Bool { self == .satisfied }
}

/// Work limit for `checkNameConstraints`: constraint × name comparisons per certificate (a
/// directoryName comparison counts once per RDN compared). Real chains need a few hundred at
/// most (100 SANs against 10 constraints of each kind is 2 000); hostile ones carry thousands
/// of constraints and of names (x509-limbo `pathological::nc-dos-*`: 2 048 × 4 096). Beyond the
/// limit the answer is `.unsupported` (fail closed), after bounded work.
public let maximumNameConstraintComparisons = 1 << 16

extension NameConstraints {
    /// Checks the names of `cert` against the name constraints `nc` of a CA certificate above it
    /// on the path (RFC 5280 §4.2.1.10; §6.1.3 (b)(c) and §6.1.4 (g)).
    ///
    /// **How to call it (path validation).** For each CA certificate on the path that has a
    /// nameConstraints extension, call this for every certificate *below* it on the path (all
    /// intermediates and the leaf); the path is valid only if every call is `.satisfied`.
    /// Checking each CA's constraints separately is equivalent to the RFC's state machine, whose
    /// permitted subtrees are an intersection and excluded subtrees a union over the CAs.
    /// **Self-issued exemption (§6.1.3 (b)):** skip the call for a self-issued certificate
    /// (`cert.isSelfIssued`) that is *not* the last certificate of the path; the leaf is always
    /// checked, self-issued or not. This function does not apply the exemption itself.
    ///
    /// **Names checked.** The subject when it is non-empty (directoryName constraints; §4.2.1.10:
    /// "when the certificate includes a non-empty subject field"), every emailAddress attribute
    /// of the subject (rfc822Name constraints — always, not only when the SAN has no rfc822Name:
    /// stricter than §4.2.1.10's "legacy implementations" rule, never looser), and every
    /// subjectAltName entry against the constraints of its own type. A name of a type with no
    /// constraints of that type is unaffected. An excluded match always wins; a name of a type
    /// that has permitted subtrees must lie in at least one of them.
    ///
    /// The subject Common Name is **not** treated as a DNS name (the modern behaviour of
    /// rustls-webpki, Go ≥ 1.15 and browsers). This is safe only because `Certificate.matches(_:)` never
    /// uses the Common Name as a host name: a validator that did would let a constrained CA
    /// issue a certificate for any host.
    ///
    /// **Semantics per name form.** Where RFC 5280 and widely used implementations read a
    /// constraint differently, Sigil takes the narrowest reading for permitted subtrees and the
    /// broadest for excluded ones ("when in doubt, reject"):
    /// - dNSName: `example.com` covers `example.com` and every name below it at a label boundary
    ///   (not `badexample.com`); case-insensitive. A leading-dot `.example.com` (not in RFC 5280,
    ///   accepted by OpenSSL, NSS, Go and rustls-webpki) permits only names strictly below it,
    ///   and as an exclusion excludes `example.com` too. The empty constraint covers every name.
    ///   A presented wildcard `*.p` is permitted only if every name it can match is (`p` within
    ///   the subtree), and excluded if any name it can match is (`p` within it, or the excluded
    ///   name is one label above `p`) — rustls-webpki's rule, which covers CVE-2025-61727.
    ///   Constraints that are not LDH names (`*.example.com`, trailing dot, "_") are malformed.
    /// - rfc822Name (the host rule of RFC 5280 §4.2.1.10, the same in permitted and excluded
    ///   subtrees): `user@host` is exactly that mailbox (local part case-sensitive); `host` every
    ///   mailbox at exactly that host ("the constraint "example.com" is satisfied by any mail
    ///   address at the host "example.com""), not below it; `.host` every mailbox at a host
    ///   strictly below it, not at the host itself.
    /// - uniformResourceIdentifier: applied to the URI's host (RFC 3986 authority): `host` is
    ///   exactly that host ("When the constraint does not begin with a period, it specifies a
    ///   host"), `.domain` hosts strictly below ("".example.com" is not satisfied by
    ///   "example.com""), in permitted and excluded subtrees alike. A URI with no authority (`urn:`, `mailto:`), with userinfo, an IP-literal or IPv4
    ///   host, or a host that is not an LDH name fails when URI constraints exist.
    /// - iPAddress: address and mask (8 or 32 octets) in CIDR form; a non-contiguous mask or an
    ///   address with bits set outside the mask is malformed. Families never mix for permitted
    ///   subtrees (an IPv6 name is outside IPv4-only permitted subtrees). For excluded subtrees
    ///   an IPv4-mapped IPv6 name (`::ffff:a.b.c.d`) is also checked as its IPv4 address and an
    ///   IPv4 name as its IPv4-mapped form, since both reach the same host.
    /// - directoryName: the constraint's RDNs must be a prefix of the name's RDNs, compared with
    ///   `DistinguishedName.matchesForChaining` (the empty name covers every name).
    /// - otherName, x400Address, ediPartyName, registeredID: not evaluated; `.unsupported` if
    ///   the certificate has a name of a constrained such type, ignored otherwise.
    ///
    /// Work is bounded by `budget` comparisons (`.unsupported` beyond). Allocates only to
    /// describe a failure, and for directoryName constraints.
    public static func check(
        _ nc: NameConstraints, for cert: Certificate, budget: Int = maximumNameConstraintComparisons
    ) -> NameConstraintsResult {
        var remaining = budget
        return checkNameConstraints(nc, for: cert, remaining: &remaining)
    }
}

/// The former free-function spelling of `NameConstraints.check(_:for:budget:)`.
@available(*, deprecated, renamed: "NameConstraints.check(_:for:budget:)")
public func checkNameConstraints(
    _ nc: NameConstraints, for cert: Certificate, budget: Int = maximumNameConstraintComparisons
) -> NameConstraintsResult {
    NameConstraints.check(nc, for: cert, budget: budget)
}

/// `checkNameConstraints(_:for:budget:)` charging a budget shared with other calls (a whole
/// verification's, `VerificationBudget.nameConstraintComparisons`): `remaining` is negative
/// afterwards exactly when it ran out (the result is then `.unsupported`).
func checkNameConstraints(_ nc: NameConstraints, for cert: Certificate, remaining: inout Int) -> NameConstraintsResult {
    var checker = ConstraintChecker(nc: nc, budget: remaining)
    defer { remaining = checker.budget }
    let subject = cert.subject
    if !subject.isEmpty {
        if let r = checker.check(.directoryName(subject)) { return r }
    }
    // emailAddress attributes of the subject (PKCS #9), as rfc822Names.
    for rdn in subject {
        for atv in rdn where atv.type == OID.emailAddress {
            if let r = checker.check(.rfc822Name(atv.value)) { return r }
        }
    }
    let sans: GeneralNames?
    do {
        sans = try cert.subjectAlternativeNames()
    } catch {
        return .violated("malformed subjectAltName extension")
    }
    if let sans {
        for name in sans {
            if let r = checker.check(name) { return r }
        }
    }
    return .satisfied
}

/// The name constraints `nc` of one CA over the certificates below it on a path, `below[0]`
/// the leaf and `below.last` the CA's direct subject: RFC 5280 §6.1.3 (b), (c), with the
/// self-issued exemption (a self-issued certificate is checked only when it is the leaf).
/// This is the one loop path validation runs (`ChainVerifier` and `checkNameConstraints(path:)`).
/// Charges `budget`; returns the index and result of the first failure, or nil.
func checkNameConstraints<C: Collection>(
    _ nc: NameConstraints, below: C, budget: inout Int
) -> (certificate: Int, result: NameConstraintsResult)? where C.Element == Certificate {
    for (j, c) in below.enumerated() {
        if j > 0 && c.isSelfIssued { continue }
        let r = checkNameConstraints(nc, for: c, remaining: &budget)
        if r != .satisfied { return (j, r) }
    }
    return nil
}

extension NameConstraints {
    /// Applies RFC 5280 §6.1.3 (b)(c) to a whole path, `path[0]` the leaf and `path.last` the
    /// trust anchor: the name constraints of every CA certificate on it (the anchor included,
    /// as Go, OpenSSL and rustls-webpki do) are checked against every certificate below it,
    /// except self-issued intermediates (§6.1.3 (b): only the leaf is checked when self-issued),
    /// with one `budget` for the whole path (as in path validation).
    ///
    /// Returns nil when all hold, else the first failure: the index of the constraining CA, the
    /// index of the certificate, and the result. A malformed nameConstraints extension is a
    /// `.malformedConstraint` failure for every certificate below it.
    public static func check(
        path: [Certificate], budget: Int = VerificationBudget.defaultNameConstraintComparisons
    ) -> (constrainingCA: Int, certificate: Int, result: NameConstraintsResult)? {
        guard path.count > 1 else { return nil }
        var remaining = budget
        for i in 1..<path.count {
            let nc: NameConstraints
            do {
                guard let decoded = try path[i].nameConstraints() else { continue }
                nc = decoded
            } catch {
                return (i, i - 1, .malformedConstraint("malformed nameConstraints extension"))
            }
            if let (j, r) = checkNameConstraints(nc, below: Array(path[..<i]), budget: &remaining) { return (i, j, r) }
        }
        return nil
    }
}

/// The former free-function spelling of `NameConstraints.check(path:budget:)`.
@available(*, deprecated, renamed: "NameConstraints.check(path:budget:)")
public func checkNameConstraints(
    path: [Certificate], budget: Int = VerificationBudget.defaultNameConstraintComparisons
) -> (constrainingCA: Int, certificate: Int, result: NameConstraintsResult)? {
    NameConstraints.check(path: path, budget: budget)
}

/// Result of comparing one name with one constraint.
enum ConstraintOutcome {
    /// The constraint is of another name form: it says nothing about this name.
    case otherType
    case within
    case outside
    case malformedConstraint
    /// The name is malformed and a constraint of its type exists: fail.
    case malformedName
    case unsupported
    /// The work limit ran out during the comparison.
    case overBudget
}

struct ConstraintChecker {
    /// id-on-SmtpUTF8Mailbox (RFC 9598 §3: 1.3.6.1.5.5.7.8.9), content octets.
    static let smtpUTF8Mailbox: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x08, 0x09]
    let nc: NameConstraints
    var budget: Int

    init(nc: NameConstraints, budget: Int) {
        self.nc = nc
        self.budget = max(0, budget)
    }

    /// nil when `name` is acceptable, else the failing result.
    mutating func check(_ name: GeneralName) -> NameConstraintsResult? {
        if let excluded = nc.excluded {
            for c in excluded {
                if let r = spend(name, c) { return r }
                switch outcome(name, c, excluded: true) {
                case .otherType, .outside: continue
                case .within: return .violated(name.description + " is in the excluded subtree " + c.description)
                case let o: return failure(o, name, c)
                }
            }
        }
        if let permitted = nc.permitted {
            var constrained = false
            for c in permitted {
                if let r = spend(name, c) { return r }
                switch outcome(name, c, excluded: false) {
                case .otherType: continue
                case .outside: constrained = true
                case .within: return nil
                case let o: return failure(o, name, c)
                }
            }
            if constrained { return .violated(name.description + " is not in a permitted subtree") }
        }
        return nil
    }

    /// Charges one comparison.
    mutating func spend(_ name: GeneralName, _ c: GeneralName) -> NameConstraintsResult? {
        budget -= 1
        return budget < 0 ? ConstraintChecker.overBudget : nil
    }

    static let overBudget = NameConstraintsResult.unsupported("too many names or name constraints to compare")

    func failure(_ o: ConstraintOutcome, _ name: GeneralName, _ c: GeneralName) -> NameConstraintsResult {
        switch o {
        case .malformedConstraint: return .malformedConstraint(c.description)
        case .malformedName: return .violated(name.description + " is malformed and constrained by " + c.description)
        case .overBudget: return ConstraintChecker.overBudget
        default: return .unsupported(name.description + ": name form not supported for name constraints")
        }
    }

    mutating func outcome(_ name: GeneralName, _ c: GeneralName, excluded: Bool) -> ConstraintOutcome {
        switch (name, c) {
        case (.dnsName(let n), .dnsName(let k)):
            return dnsConstraintOutcome(n.bytes, k.bytes, excluded: excluded)
        case (.rfc822Name(let n), .rfc822Name(let k)):
            return emailConstraintOutcome(n.bytes, k.bytes, excluded: excluded)
        case (.uri(let n), .uri(let k)):
            return uriConstraintOutcome(n.bytes, k.bytes, excluded: excluded)
        case (.ipAddress(let n), .ipAddress(let k)):
            return ipConstraintOutcome(n.bytes, k.bytes, excluded: excluded)
        case (.directoryName(let n), .directoryName(let k)):
            return directoryNameOutcome(n, k, excluded: excluded, budget: &budget)
        case (.otherName, .otherName), (.x400Address, .x400Address), (.ediPartyName, .ediPartyName),
            (.registeredID, .registeredID):
            return .unsupported
        case (.otherName(let type, _), .rfc822Name):
            // RFC 9598 §6 (formerly RFC 8398): rfc822Name constraints also apply to an
            // SmtpUTF8Mailbox otherName (id-on-SmtpUTF8Mailbox, 1.3.6.1.5.5.7.8.9). Sigil does
            // not compare internationalized mailboxes: fail closed rather than let a constrained
            // CA's leaf carry one outside its subtrees (found by review, 2026-12-03).
            return type.bytes.elementsEqual(Self.smtpUTF8Mailbox) ? .unsupported : .otherType
        default:
            return .otherType
        }
    }
}

// MARK: - Per-form rules (see `checkNameConstraints` for the semantics)

/// The base of a host/domain constraint: (name without leading dot, had a leading dot), or
/// nil when malformed. The empty constraint is handled by the callers.
func hostConstraintBase(_ k: ArraySlice<UInt8>) -> (base: ArraySlice<UInt8>, dot: Bool)? {
    var base = k
    var dot = false
    if base.first == UInt8(ascii: ".") {
        base = base.dropFirst()
        dot = true
    }
    guard DNSSyntax.check(base, wildcard: false) == nil else { return nil }
    return (base, dot)
}

/// dNSName (RFC 5280 §4.2.1.10 "DNS name restrictions are expressed as host.example.com.
/// Any DNS name that can be constructed by simply adding zero or more labels to the
/// left-hand side of the name satisfies the name constraint").
func dnsConstraintOutcome(_ n: ArraySlice<UInt8>, _ k: ArraySlice<UInt8>, excluded: Bool) -> ConstraintOutcome {
    let presented = DNSSyntax.classify(n)
    if case .invalid = presented { return .malformedName }
    if k.isEmpty { return .within }  // empty constraint: every name (NSS, Go, rustls-webpki)
    // RFC 5280 §4.2.1.10 defines dNSName constraints without a leading period (that form
    // belongs to URI and rfc822Name constraints). A CA relying on `.example.com` has an
    // ambiguous intent: fail closed, as x509-limbo rfc5280::nc::invalid-dnsname-leading-period
    // expects (OpenSSL, NSS, Go and rustls-webpki accept it as "subdomains only").
    if k.first == UInt8(ascii: ".") { return .malformedConstraint }
    guard let (base, dot) = hostConstraintBase(k) else { return .malformedConstraint }
    switch presented {
    case .invalid:
        return .malformedName
    case .exact:
        if excluded { return isInSubtree(n, base) ? .within : .outside }
        return isInSubtree(n, base, strict: dot) ? .within : .outside
    case .wildcard(let parent):
        // Every name `*.parent` matches is one label below `parent`.
        if isInSubtree(parent, base) { return .within }
        if excluded {
            // Some match is excluded when the excluded name is exactly one label below
            // `parent` (excluded bar.example.com vs *.example.com: CVE-2025-61727).
            if isInSubtree(base, parent, strict: true),
                let dot = base.firstIndex(of: UInt8(ascii: ".")), base.index(after: dot) == base.endIndex - parent.count
            {
                return .within
            }
        }
        return .outside
    }
}

/// rfc822Name (RFC 5280 §4.2.1.10: a mailbox, a host, or a domain with a leading period).
func emailConstraintOutcome(_ n: ArraySlice<UInt8>, _ k: ArraySlice<UInt8>, excluded: Bool) -> ConstraintOutcome {
    guard let (local, domain) = Mailbox.split(n) else { return .malformedName }
    if k.isEmpty { return .within }
    if k.contains(UInt8(ascii: "@")) {
        guard let (kLocal, kDomain) = Mailbox.split(k) else { return .malformedConstraint }
        return local.elementsEqual(kLocal) && asciiEqualIgnoringCase(domain, kDomain) ? .within : .outside
    }
    guard let (base, dot) = hostConstraintBase(k) else { return .malformedConstraint }
    // §4.2.1.10 host rule: without a leading period the constraint names one host.
    if dot { return isInSubtree(domain, base, strict: true) ? .within : .outside }
    return asciiEqualIgnoringCase(domain, base) ? .within : .outside
}

/// uniformResourceIdentifier (RFC 5280 §4.2.1.10: "the constraint applies to the host part
/// of the name ... When the constraint begins with a period, it MAY be expanded with one or
/// more labels ... When the constraint does not begin with a period, it specifies a host").
func uriConstraintOutcome(_ n: ArraySlice<UInt8>, _ k: ArraySlice<UInt8>, excluded: Bool) -> ConstraintOutcome {
    guard let host = uriHost(n) else { return .malformedName }
    if k.isEmpty { return .within }
    guard let (base, dot) = hostConstraintBase(k) else { return .malformedConstraint }
    // §4.2.1.10 host rule: without a leading period the constraint names one host.
    if dot { return isInSubtree(host, base, strict: true) ? .within : .outside }
    return asciiEqualIgnoringCase(host, base) ? .within : .outside
}

/// The host of a URI (RFC 3986 §3: `scheme ":" "//" [userinfo "@"] host [":" port] ...`),
/// when it is an LDH host name; nil for no authority, userinfo, an IP literal or IPv4
/// address, percent-encoding, a non-numeric port, or any other host Sigil cannot compare with
/// a domain constraint.
func uriHost(_ uri: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    guard let colon = uri.firstIndex(of: UInt8(ascii: ":")), colon > uri.startIndex else { return nil }
    for (i, c) in uri[uri.startIndex..<colon].enumerated() {
        let alpha = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
        let other =
            (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "+")
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        if !(alpha || (i > 0 && other)) { return nil }
    }
    let rest = uri[(colon + 1)...]
    guard rest.starts(with: "//".utf8) else { return nil }
    let authorityStart = rest.startIndex + 2
    var authorityEnd = authorityStart
    while authorityEnd < rest.endIndex {
        let c = rest[authorityEnd]
        if c == UInt8(ascii: "/") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") { break }
        authorityEnd += 1
    }
    let authority = rest[authorityStart..<authorityEnd]
    // Userinfo ("user@host") is refused: a certificate has no reason to carry it, and
    // readers disagree on where the host starts ("https://good.com@evil.com/").
    if authority.contains(UInt8(ascii: "@")) { return nil }
    if authority.first == UInt8(ascii: "[") { return nil }  // IP-literal
    var host = authority
    if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
        host = authority[authority.startIndex..<portColon]
        for c in authority[(portColon + 1)...] where !(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) { return nil }
    }
    // An LDH name; IPv4 hosts fail here (all-numeric last label).
    guard DNSSyntax.check(host, wildcard: false) == nil else { return nil }
    return host
}

/// iPAddress (RFC 5280 §4.2.1.10: "the iPAddress field MUST contain eight (for IPv4) or 32
/// (for IPv6) octets ... in the style of CIDR").
func ipConstraintOutcome(_ n: ArraySlice<UInt8>, _ k: ArraySlice<UInt8>, excluded: Bool) -> ConstraintOutcome {
    let half = k.count / 2
    guard k.count == 8 || k.count == 32 else { return .malformedConstraint }
    guard n.count == 4 || n.count == 16 else { return .malformedName }
    let address = k.prefix(half)
    let mask = k.suffix(half)
    // The mask is contiguous ones then zeros, and the address has no bits outside it.
    var seenZero = false
    for (a, m) in zip(address, mask) {
        if seenZero {
            if m != 0 { return .malformedConstraint }
        } else if m != 0xFF {
            // m is 1…10…0 exactly when its complement plus one is a power of two (or zero).
            let inv = ~m
            if inv & (inv &+ 1) != 0 { return .malformedConstraint }
            seenZero = true
        }
        if a & ~m != 0 { return .malformedConstraint }
    }
    var name = n
    if n.count != half {
        // Families never mix for permitted subtrees. For excluded ones, an IPv4 address and
        // its IPv4-mapped IPv6 form (RFC 4291 §2.5.5.2) reach the same host, so each is also
        // checked in the other's family.
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        guard excluded else { return .outside }
        if n.count == 16 && n.prefix(12).elementsEqual(mappedPrefix) {
            name = n.suffix(4)
        } else if n.count == 4 {
            name = (mappedPrefix + n)[...]
        } else {
            return .outside
        }
    }
    for (x, (a, m)) in zip(name, zip(address, mask)) where x & m != a { return .outside }
    return .within
}

/// directoryName: the constraint is an RDN-wise prefix of the name (RFC 5280 §4.2.1.10,
/// §7.1 comparison via `matchesForChaining`).
/// Charges `budget` one unit per 16 octets compared or copied (names can be large: a subject
/// of thousands of RDNs, checked against thousands of directoryName constraints).
func directoryNameOutcome(
    _ name: DistinguishedName, _ constraint: DistinguishedName, excluded: Bool = false, budget: inout Int
) -> ConstraintOutcome {
    budget -= constraint.encoded.count / 16
    if budget < 0 { return .overBudget }
    var count = 0
    for _ in constraint { count += 1 }
    if count == 0 { return .within }
    // The first `count` RDNs of `name`, re-wrapped as a Name, compared with the constraint.
    var it = name.makeIterator()
    var start = -1
    var end = -1
    for _ in 0..<count {
        guard let rdn = it.next() else { return .outside }
        if start < 0 { start = rdn.encoded.start }
        end = rdn.encoded.end
    }
    let content = name.encoded.bytes[start..<end]
    budget -= content.count / 16
    if budget < 0 { return .overBudget }
    var der: [UInt8] = [0x30]
    appendDERLength(content.count, to: &der)
    der.append(contentsOf: content)
    // Re-wrapped RDNs of a validated name: valid. Should it ever fail, the name is treated as
    // malformed (a constraint of its form exists: refused), never as outside an excluded subtree.
    guard let prefix = try? DistinguishedName(der: der) else { return .malformedName }
    if constraint.matchesForChaining(prefix) { return .within }
    // RFC 5280 §7.1 compares names with RFC 4518 StringPrep (Unicode case folding, NFKC,
    // characters mapped to nothing or to a space); Sigil implements it for printable ASCII only.
    // Outside a permitted subtree that is a refusal either way; an excluded subtree, though,
    // must not be escaped by spelling the name in a way only full StringPrep would fold onto
    // the constraint (`O=ÉVIL CORP`, a no-break or zero-width space, decomposed accents): when
    // every difference lies in such text, the answer is unknown, and fails closed.
    if excluded && mayMatchUnderStringPrep(prefix, constraint) { return .unsupported }
    return .outside
}

/// Could `a` and `b` (the same number of RDNs) be equal under full RFC 4518 StringPrep although
/// `matchesForChaining` says not? Only when every RDN pair that differs has the same number of
/// attributes with the same types and some string value in it holds text beyond printable
/// ASCII (a byte ≥ 0x7F or below 0x20, or any BMP/Universal string), where Sigil's comparison
/// is exact rather than folded. Differences in printable-ASCII text or in types are certain.
func mayMatchUnderStringPrep(_ a: DistinguishedName, _ b: DistinguishedName) -> Bool {
    var ia = a.makeIterator()
    var ib = b.makeIterator()
    var uncertain = false
    while true {
        let x = ia.next()
        let y = ib.next()
        guard let ra = x, let rb = y else { return x == nil && y == nil && uncertain }
        if DistinguishedName.rdnsMatch(ra, rb) { continue }
        var typesA: [[UInt8]] = []
        var typesB: [[UInt8]] = []
        var folding = false
        for v in ra {
            typesA.append(Array(v.type.bytes))
            folding = folding || beyondPrintableASCII(v)
        }
        for v in rb {
            typesB.append(Array(v.type.bytes))
            folding = folding || beyondPrintableASCII(v)
        }
        guard folding, typesA.count == typesB.count,
            typesA.sorted(by: { $0.lexicographicallyPrecedes($1) })
                == typesB.sorted(by: { $0.lexicographicallyPrecedes($1) })
        else { return false }
        uncertain = true
    }
}

/// A string value holding a scalar StringPrep may map, fold or normalise beyond what Sigil's
/// ASCII comparison does.
func beyondPrintableASCII(_ v: NameAttribute) -> Bool {
    guard DERString.isStringTag(v.valueTag) else { return false }
    if v.valueTag == .bmpString || v.valueTag == .universalString { return true }
    return v.value.bytes.contains { $0 >= 0x7F || $0 < 0x20 }
}

func appendDERLength(_ n: Int, to out: inout [UInt8]) {
    if n < 0x80 {
        out.append(UInt8(n))
        return
    }
    var bytes: [UInt8] = []
    var v = n
    while v > 0 {
        bytes.insert(UInt8(v & 0xFF), at: 0)
        v >>= 8
    }
    out.append(0x80 | UInt8(bytes.count))
    out.append(contentsOf: bytes)
}
