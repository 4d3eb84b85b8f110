/// A reference DNS name: the host name a client expects the server to present (RFC 6125
/// §6.2.1), validated and normalised.
///
/// Normalisation and syntax (RFC 1034 §3.5 / RFC 1123 §2.1 "LDH" host names, RFC 5890 §2.3.1):
/// - ASCII only. Internationalised names must be given as A-labels (`xn--…`, RFC 5890
///   §2.3.2.1): Sigil does not convert U-labels (see `ServerIdentity.ParseError.nonASCII`),
///   so the name checked is byte for byte the name the caller resolved and connected to.
/// - letters are lowercased (DNS names compare ASCII case-insensitively, RFC 4343 §3);
/// - one trailing dot (an absolute name, `"example.com."`) is removed;
/// - labels are 1–63 octets of letters, digits and hyphens, not starting or ending with a
///   hyphen; the whole name is at most 253 octets (255 on the wire);
/// - the last label is not all digits (no top-level domain is; this keeps `"1.2.3.4"` and
///   `"1.2.3.04"` from ever being taken as DNS names);
/// - no `*` (RFC 6125 §6.4.3 wildcards belong to presented names, not reference names) and
///   no `_` (not a host-name character: RFC 5280 §4.2.1.6 requires the RFC 1034 "preferred
///   name syntax" in dNSName, and the CA/B Forum BR (§7.1.4.2.1, Ballot SC12) forbid
///   underscores in public certificates since 2019, so none can match it anyway; a private
///   PKI using `_` names is refused, fail closed).
public struct DNSName: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name: lowercase ASCII, no trailing dot.
    public let bytes: [UInt8]

    /// Parses and normalises a reference name; nil if it is not a valid host name
    /// (`ServerIdentity.parse` reports why).
    public init?(_ text: String) {
        guard case .success(let n) = DNSName.parse(text) else { return nil }
        self = n
    }

    init(normalized: [UInt8]) { bytes = normalized }

    /// The name as text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    static func parse(_ text: String) -> Result<DNSName, ServerIdentity.ParseError> {
        var b = [UInt8]()
        b.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            if c >= 0x80 { return .failure(.nonASCII) }
            b.append(asciiLower(c))
        }
        if b.last == UInt8(ascii: ".") { b.removeLast() }
        if let e = DNSSyntax.check(b[...], wildcard: false) { return .failure(e) }
        return .success(DNSName(normalized: b))
    }
}

@inline(__always)
func asciiLower(_ c: UInt8) -> UInt8 {
    (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) ? c | 0x20 : c
}

/// ASCII case-insensitive equality of two byte sequences.
@inline(__always)
func asciiEqualIgnoringCase<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
where A.Element == UInt8, B.Element == UInt8 {
    guard a.count == b.count else { return false }
    var i = a.startIndex
    var j = b.startIndex
    while i != a.endIndex {
        if asciiLower(a[i]) != asciiLower(b[j]) { return false }
        i = a.index(after: i)
        j = b.index(after: j)
    }
    return true
}

/// `asciiEqualIgnoringCase` for byte slices (every name comparison of the host checks and
/// name constraints): eight octets at a time while both words are 7-bit — equal words, or
/// equal once their capital letters are lowered (bit 8 of `w + 0x3F…` marks octets from "A",
/// of `w + 0x25…` those past "Z"; no carry crosses octets below 0x80) —, octet by octet
/// otherwise. `NamesTests.testASCIICaseFoldingWordWise` compares it with the definition.
@inline(__always)
func asciiEqualIgnoringCase(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in asciiEqualIgnoringCaseWordWise(x, y) } }
}

/// The word-wise comparison of two buffers of equal length (see above).
func asciiEqualIgnoringCaseWordWise(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
    let n = x.count
    var i = 0
    @inline(__always) func lowered(_ w: UInt64) -> UInt64 {
        let upper = (w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
        return w | (upper >> 2)
    }
    while n &- i >= 8 {
        let a = x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        let b = y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if a != b {
            if (a | b) & 0x8080_8080_8080_8080 != 0 { break }
            if lowered(a) != lowered(b) { return false }
        }
        i &+= 8
    }
    while i < n {
        if asciiLower(x[i]) != asciiLower(y[i]) { return false }
        i &+= 1
    }
    return true
}

/// True when `name` equals `suffix` or ends with "." + `suffix` (ASCII case-insensitive):
/// `name` lies in the DNS subtree rooted at `suffix`, at a label boundary
/// ("www.example.com" and "example.com" are in "example.com"; "badexample.com" is not).
@inline(__always)
func isInSubtree(_ name: ArraySlice<UInt8>, _ suffix: ArraySlice<UInt8>, strict: Bool = false) -> Bool {
    if suffix.isEmpty { return !strict || !name.isEmpty }
    if name.count == suffix.count { return !strict && asciiEqualIgnoringCase(name, suffix) }
    guard name.count > suffix.count else { return false }
    let cut = name.endIndex - suffix.count
    return name[cut - 1] == UInt8(ascii: ".") && asciiEqualIgnoringCase(name[cut...], suffix)
}

/// Syntax of DNS names as used in certificates and by Sigil (see `DNSName`).
enum DNSSyntax {
    static let maximumLength = 253
    static let maximumLabelLength = 63

    /// Checks an LDH name without trailing dot. With `wildcard`, the left-most label may be
    /// exactly `*` (RFC 6125 §6.4.3 as restricted by CA/B Forum BR §1.6.1 "Wildcard Domain
    /// Name": "*." followed by a name), and a name with a wildcard needs at least two labels
    /// after it (checked in `classify`). Returns nil when valid.
    static func check(_ name: ArraySlice<UInt8>, wildcard: Bool) -> ServerIdentity.ParseError? {
        name.withUnsafeBufferPointer { check($0, wildcard: wildcard) }
    }

    /// `check` over the octets in place: `isPlainValid` accepts the common name eight octets
    /// at a time; anything it does not accept is judged by `checkStrict`.
    static func check(_ name: UnsafeBufferPointer<UInt8>, wildcard: Bool) -> ServerIdentity.ParseError? {
        if isPlainValid(name, wildcard: wildcard) { return nil }
        return checkStrict(name, wildcard: wildcard)
    }

    /// True only for names `checkStrict` accepts (nil), judged from bit masks instead of octet
    /// by octet: at most 63 octets (after an optional "*." when `wildcard`), each a letter, a
    /// digit, a hyphen or a dot; from the masks of dots and hyphens, no empty label (no dot
    /// first, last or next to a dot) and no hyphen first or last in a label; and a last label
    /// not all digits — the rules of `checkStrict` for such names (a label cannot exceed 63
    /// octets in 63). False means "not decided here", never "invalid"
    /// (`DNSSyntaxFastPathModelTests` compares the two on every one-octet change of a corpus).
    static func isPlainValid(_ name: UnsafeBufferPointer<UInt8>, wildcard: Bool) -> Bool {
        guard var p = name.baseAddress else { return false }
        var m = name.count
        if wildcard && m >= 3 && p[0] == UInt8(ascii: "*") && p[1] == UInt8(ascii: ".") {
            // "*." then a name: the rest is checked as labels after the first (no "*" there).
            p += 2
            m -= 2
        }
        if m == 0 || m > 63 { return false }
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Per-octet tests on seven-bit octets, the answer in each octet's high bit
        // (x + 0x80 - k has it exactly when x ≥ k, with no carry between octets).
        @inline(__always) func atLeast(_ x: UInt64, _ k: UInt8) -> UInt64 { (x &+ (0x80 &- UInt64(k)) &* ones) & high }
        @inline(__always) func equal(_ x: UInt64, _ k: UInt8) -> UInt64 {
            ~((x ^ (UInt64(k) &* ones)) &+ 0x7F7F_7F7F_7F7F_7F7F) & high
        }
        // One bit per octet: the high bit of octet k goes to bit k.
        @inline(__always) func bits(_ x: UInt64) -> UInt64 { ((x &>> 7) &* 0x0102_0408_1020_4080) &>> 56 }
        var dots: UInt64 = 0
        var hyphens: UInt64 = 0
        var at = 0
        while at < m {
            let r = m &- at
            var w: UInt64
            var lanes = high
            if r >= 8 {
                w = UnsafeRawPointer(p + at).loadUnaligned(as: UInt64.self).littleEndian
            } else {
                if m >= 8 {
                    // The last r octets, from the word ending with the name (octets already
                    // checked shifted out); the bytes above are zero, which no lane accepts.
                    w =
                        UnsafeRawPointer(p + (m &- 8)).loadUnaligned(as: UInt64.self).littleEndian
                        &>> UInt64(8 &* (8 &- r))
                } else {
                    w = 0
                    for k in 0..<r { w |= UInt64(p[at &+ k]) &<< UInt64(8 &* k) }
                }
                lanes = high & ((1 &<< UInt64(8 &* r)) &- 1)
            }
            if w & high != 0 { return false }
            let folded = w | 0x2020_2020_2020_2020
            let letter = atLeast(folded, UInt8(ascii: "a")) & ~atLeast(folded, UInt8(ascii: "z") + 1)
            let digit = atLeast(w, UInt8(ascii: "0")) & ~atLeast(w, UInt8(ascii: "9") + 1)
            let hyphen = equal(w, UInt8(ascii: "-")) & lanes
            let dot = equal(w, UInt8(ascii: ".")) & lanes
            if (letter | digit | hyphen | dot) & lanes != lanes { return false }
            dots |= bits(dot) &<< UInt64(at)
            if hyphen != 0 { hyphens |= bits(hyphen) &<< UInt64(at) }
            at &+= 8
        }
        let last: UInt64 = 1 &<< UInt64(m &- 1)
        // Empty labels: a dot first, last, or followed by a dot.
        if dots & (1 | last) != 0 || dots & (dots &>> 1) != 0 { return false }
        // A hyphen first or last in a label.
        if hyphens & (1 | (dots &<< 1) | last | (dots &>> 1)) != 0 { return false }
        // The last label all digits ("1.2.3.4" is not a name): read from the end, where a
        // name's last octet is almost always a letter.
        var i = m &- 1
        while i >= 0 && p[i] != UInt8(ascii: ".") {
            if p[i] &- UInt8(ascii: "0") >= 10 { return true }
            i &-= 1
        }
        return false
    }

    /// `check` octet by octet (no slice indexing: the name is read once, the rules in order).
    static func checkStrict(_ name: UnsafeBufferPointer<UInt8>, wildcard: Bool) -> ServerIdentity.ParseError? {
        let n = name.count
        if n == 0 { return .empty }
        if n > maximumLength { return .tooLong }
        var labelStart = 0
        var i = 0
        var allDigits = true
        var isFirstLabel = true
        while true {
            let atEnd = i == n
            if atEnd || name[i] == UInt8(ascii: ".") {
                let length = i - labelStart
                if length == 0 { return .emptyLabel }
                if length > maximumLabelLength { return .labelTooLong }
                let isStar = length == 1 && name[labelStart] == UInt8(ascii: "*")
                if isStar {
                    // `*` is allowed only as the whole left-most label of a presented name,
                    // and not as the whole name ("*" alone: a wildcard over the DNS root).
                    if !(wildcard && isFirstLabel) || atEnd { return .wildcard }
                } else {
                    if name[labelStart] == UInt8(ascii: "-") || name[i - 1] == UInt8(ascii: "-") {
                        return .invalidCharacter
                    }
                }
                if atEnd {
                    // The last label (the TLD) is never all digits: "1.2.3.4" is not a name.
                    if allDigits { return .numericTopLabel }
                    return nil
                }
                isFirstLabel = false
                allDigits = true
                labelStart = i + 1
            } else {
                let c = name[i]
                // Letters, digits and hyphens (almost every octet), a run at a time: what the
                // switch below does for each, without returning to the label logic.
                if (c | 0x20) &- UInt8(ascii: "a") < 26 || c == UInt8(ascii: "-") || c &- UInt8(ascii: "0") < 10 {
                    var j = i
                    while j < n {
                        let d = name[j]
                        if (d | 0x20) &- UInt8(ascii: "a") < 26 || d == UInt8(ascii: "-") {
                            allDigits = false
                        } else if d &- UInt8(ascii: "0") >= 10 {
                            break
                        }
                        j &+= 1
                    }
                    i = j
                    continue
                }
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): break
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"):
                    allDigits = false
                case UInt8(ascii: "*"):
                    // Only a label that is exactly "*" (checked at the label's end); partial
                    // wildcards such as "f*.example.com" or "xn--*-x.example.com" are refused
                    // (RFC 6125 §6.4.3 items 1 and 3 leave them optional; CA/B Forum forbids).
                    allDigits = false
                    if !(wildcard && isFirstLabel && i == labelStart
                        && (i + 1 == n || name[i + 1] == UInt8(ascii: ".")))
                    {
                        return .wildcard
                    }
                default:
                    return c >= 0x80 ? .nonASCII : .invalidCharacter
                }
            }
            i += 1
        }
    }

    /// A presented dNSName (from a SAN), classified.
    enum Presented {
        /// Not a valid name, or a wildcard Sigil refuses: it matches nothing.
        case invalid
        /// A name without wildcard.
        case exact
        /// `*.parent`: matches every name of exactly one more, non-empty label than `parent`.
        case wildcard(parent: ArraySlice<UInt8>)
    }

    /// Classifies a presented name: LDH syntax (`check` with wildcards allowed), no trailing
    /// dot (RFC 5280 §4.2.1.6: the "preferred name syntax" of RFC 1034 §3.5, no root label),
    /// and for a wildcard the public-suffix rule of `PublicSuffixes`.
    static func classify(_ name: ArraySlice<UInt8>) -> Presented {
        if check(name, wildcard: true) != nil { return .invalid }
        guard name.first == UInt8(ascii: "*") else { return .exact }
        // `check` guarantees "*." followed by at least one label.
        let parent = name[(name.startIndex + 2)...]
        if PublicSuffixes.isForbiddenWildcardParent(parent) { return .invalid }
        return .wildcard(parent: parent)
    }
}

/// The public-suffix check for wildcard certificates (CA/B Forum BR §3.2.2.6: a wildcard
/// directly below a "registry-controlled" label or public suffix must not be issued; RFC 6125
/// §7.2). A wildcard is refused when its parent:
/// 1. has fewer than two labels (`*.com`, `*.uk`, `*.example` — "*" alone is a syntax error),
///    which covers every single-label public suffix, or
/// 2. is one of the common two-label ICANN public suffixes below (`*.co.uk`, `*.com.au`).
///
/// Limitation: this is not the Public Suffix List. Two-label ICANN suffixes not listed here,
/// three-label ones (`*.kawasaki.jp`-style rules), PSL wildcard rules (`*.ck`) and the PSL's
/// PRIVATE section are not covered. The private section is left out on purpose: its owners
/// legitimately hold wildcards for their own suffix (Amazon S3 serves `*.s3.amazonaws.com`,
/// GitHub Pages `*.github.io`), so refusing them would break real services, and those
/// certificates are issued to the suffix's operator, not to a tenant.
enum PublicSuffixes {
    /// Second-level labels that are public suffixes under the given country-code TLDs
    /// (from the ICANN section of the Public Suffix List, publicsuffix.org).
    static let secondLevel: [(tld: String, labels: [String])] = [
        ("ar", ["com", "edu", "gob", "gov", "int", "mil", "net", "org", "tur"]),
        ("at", ["ac", "co", "gv", "or"]),
        ("au", ["asn", "com", "edu", "gov", "id", "net", "org"]),
        ("br", ["art", "com", "edu", "gov", "mil", "net", "org"]),
        ("cn", ["ac", "com", "edu", "gov", "mil", "net", "org"]),
        ("co", ["com", "edu", "gov", "mil", "net", "nom", "org"]),
        ("eg", ["com", "edu", "eun", "gov", "mil", "name", "net", "org", "sci"]),
        ("es", ["com", "edu", "gob", "nom", "org"]),
        ("gr", ["com", "edu", "gov", "net", "org"]),
        ("hk", ["com", "edu", "gov", "idv", "net", "org"]),
        ("id", ["ac", "co", "go", "mil", "net", "or", "sch", "web"]),
        ("il", ["ac", "co", "gov", "idf", "k12", "muni", "net", "org"]),
        ("in", ["ac", "co", "edu", "firm", "gen", "gov", "ind", "mil", "net", "nic", "org", "res"]),
        ("jp", ["ac", "ad", "co", "ed", "go", "gr", "lg", "ne", "or"]),
        ("kr", ["ac", "co", "es", "go", "hs", "kg", "mil", "ms", "ne", "or", "pe", "re", "sc"]),
        ("mx", ["com", "edu", "gob", "net", "org"]),
        ("my", ["com", "edu", "gov", "mil", "name", "net", "org"]),
        ("ng", ["com", "edu", "gov", "mil", "name", "net", "org", "sch"]),
        (
            "nz",
            [
                "ac", "co", "geek", "gen", "govt", "health", "iwi", "kiwi", "maori", "mil", "net", "org", "parliament",
                "school",
            ]
        ),
        ("ph", ["com", "edu", "gov", "mil", "net", "ngo", "org"]),
        ("pk", ["com", "edu", "fam", "gob", "gok", "gon", "gop", "gos", "gov", "net", "org", "web"]),
        ("pl", ["com", "edu", "gov", "net", "org"]),
        ("ru", ["ac", "edu", "gov", "int", "mil", "test"]),
        ("sa", ["com", "edu", "gov", "med", "net", "org", "pub", "sch"]),
        ("sg", ["com", "edu", "gov", "net", "org", "per"]),
        ("th", ["ac", "co", "go", "in", "mi", "net", "or"]),
        (
            "tr",
            [
                "av", "bbs", "bel", "biz", "com", "dr", "edu", "gen", "gov", "info", "k12", "kep", "mil", "name", "net",
                "org", "pol", "tel", "tv", "web",
            ]
        ),
        ("tw", ["club", "com", "ebiz", "edu", "game", "gov", "idv", "mil", "net", "org"]),
        ("ua", ["com", "edu", "gov", "in", "net", "org"]),
        ("uk", ["ac", "co", "gov", "ltd", "me", "net", "nhs", "org", "plc", "police", "sch"]),
        ("vn", ["ac", "biz", "com", "edu", "gov", "health", "info", "int", "name", "net", "org", "pro"]),
        ("za", ["ac", "co", "edu", "gov", "law", "mil", "net", "ngo", "nom", "org", "school", "web"]),
    ]

    static func isForbiddenWildcardParent(_ parent: ArraySlice<UInt8>) -> Bool {
        guard let dot = parent.firstIndex(of: UInt8(ascii: ".")) else { return true }  // one label
        let first = parent[parent.startIndex..<dot]
        let rest = parent[(dot + 1)...]
        if rest.contains(UInt8(ascii: ".")) { return false }  // three labels or more
        for entry in secondLevel where asciiEqualIgnoringCase(entry.tld.utf8, rest) {
            for label in entry.labels where asciiEqualIgnoringCase(label.utf8, first) { return true }
        }
        return false
    }
}
