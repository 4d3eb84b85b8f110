/// Per-domain public-key pins read from a JSON document (TrustKit's `kTSKPinnedDomains`, as a
/// file), for `SecurityPolicy.pinSets` in public-key mode:
///
/// ```json
/// {
///   "pin-sets": [
///     {
///       "domain": "api.example.com",
///       "include-subdomains": true,
///       "pins": ["sha256/<base64 of 32 bytes>", "sha256/<backup key>"],
///       "expires": "2027-01-01T00:00:00Z",
///       "enforce": false
///     }
///   ]
/// }
/// ```
///
/// - `pin-sets` (required, at least one): one object per domain.
/// - `domain` (required): a DNS name — letters, digits and hyphens in dot-separated labels of
///   1–63 characters, at most 253 in all, no trailing dot, no wildcard (use
///   `include-subdomains`), never an IP address (RFC 7469 §2.3.3: Known Pinned Hosts are domain
///   names only). Compared ASCII case-insensitively; each domain once.
/// - `pins` (required): `sha256/` + the base64 of a SubjectPublicKeyInfo's SHA-256 (as
///   `sigil pin` prints them), at least two distinct ones — a backup key kept offline (RFC 7469
///   §4.3; TrustKit refuses a configuration without one) — and none twice.
/// - `include-subdomains` (default false): also every name below `domain`; not for a
///   single-label domain (`com`), which would pin a whole top-level domain.
/// - `expires` (default: never): an RFC 3339 date-time in UTC, exactly
///   `YYYY-MM-DDTHH:MM:SSZ`; after it the set is neither enforced nor reported.
/// - `enforce` (default true): false makes the set report-only (`PinSet.enforced`).
///
/// Parsing is strict (`StrictJSON`: duplicate keys refused, nothing after the value) and an
/// unknown key anywhere is an error rather than ignored: a misspelt `"enforce"` must not silently
/// leave a set enforced (or not).
public struct PinConfiguration: Sendable, Hashable {
    /// The pin sets, in file order.
    public var pinSets: [PinSet]

    /// A configuration of `pinSets`.
    public init(pinSets: [PinSet]) { self.pinSets = pinSets }

    /// Parses a configuration document (UTF-8 JSON), or throws the first problem found.
    public init(json bytes: [UInt8]) throws(PinConfigurationError) {
        let root: StrictJSON
        do {
            root = try StrictJSON.parse(bytes)
        } catch {
            throw .json(error)
        }
        guard case .object(let top) = root else { throw .wrongType(path: "$", expected: "an object") }
        for key in top.keys.sorted() where key != "pin-sets" { throw .unknownKey(path: "$", key: key) }
        guard let setsValue = top["pin-sets"] else { throw .missingKey(path: "$", key: "pin-sets") }
        guard case .array(let sets) = setsValue else { throw .wrongType(path: "$.pin-sets", expected: "an array") }
        if sets.isEmpty { throw .noPinSets }
        var out: [PinSet] = []
        var seen: Set<String> = []
        for (i, value) in sets.enumerated() {
            let set = try Self.pinSet(value, path: "$.pin-sets[\(i)]")
            guard seen.insert(PinSet.normalized(set.domain)).inserted else {
                throw .duplicateDomain(path: "$.pin-sets[\(i)].domain", domain: set.domain)
            }
            out.append(set)
        }
        pinSets = out
    }

    static let keys: Set<String> = ["domain", "include-subdomains", "pins", "expires", "enforce"]

    static func pinSet(_ value: StrictJSON, path: String) throws(PinConfigurationError) -> PinSet {
        guard case .object(let o) = value else { throw .wrongType(path: path, expected: "an object") }
        for key in o.keys.sorted() where !keys.contains(key) { throw .unknownKey(path: path, key: key) }

        guard let domainValue = o["domain"] else { throw .missingKey(path: path, key: "domain") }
        guard case .string(let domain) = domainValue else {
            throw .wrongType(path: path + ".domain", expected: "a string")
        }
        guard isDomainName(domain) else { throw .invalidDomain(path: path + ".domain", domain: domain) }

        let includeSubdomains = try bool(o["include-subdomains"], path: path + ".include-subdomains") ?? false
        if includeSubdomains && !domain.contains(".") {
            throw .subdomainsOfTopLevelDomain(path: path + ".include-subdomains", domain: domain)
        }
        let enforce = try bool(o["enforce"], path: path + ".enforce") ?? true

        guard let pinsValue = o["pins"] else { throw .missingKey(path: path, key: "pins") }
        guard case .array(let pinValues) = pinsValue else {
            throw .wrongType(path: path + ".pins", expected: "an array")
        }
        var pins: [PublicKeyPin] = []
        for (j, v) in pinValues.enumerated() {
            let where_ = path + ".pins[\(j)]"
            guard case .string(let text) = v else { throw .wrongType(path: where_, expected: "a string") }
            guard let pin = PublicKeyPin(text) else { throw .invalidPin(path: where_, pin: text) }
            if pins.contains(pin) { throw .duplicatePin(path: where_, pin: text) }
            pins.append(pin)
        }
        if pins.count < 2 { throw .noBackupPin(path: path + ".pins", domain: domain) }

        var expires: Double? = nil
        if let e = o["expires"] {
            guard case .string(let text) = e else { throw .wrongType(path: path + ".expires", expected: "a string") }
            // Exactly YYYY-MM-DDTHH:MM:SSZ (RFC 3339 §5.6, UTC, no fraction): one spelling, no
            // time-zone guess (TrustKit's date-only form leaves the zone to the device).
            let b = Array(text.utf8)
            guard b.count == 20, b[10] == UInt8(ascii: "T"), b[19] == UInt8(ascii: "Z"),
                let s = CTLogList.parseRFC3339(text)
            else { throw .invalidExpiry(path: path + ".expires", value: text) }
            expires = Double(s)
        }
        return PinSet(
            domain: domain, includesSubdomains: includeSubdomains, pins: pins, expires: expires, enforced: enforce)
    }

    static func bool(_ v: StrictJSON?, path: String) throws(PinConfigurationError) -> Bool? {
        guard let v else { return nil }
        guard case .bool(let b) = v else { throw .wrongType(path: path, expected: "true or false") }
        return b
    }

    /// An ASCII DNS name of LDH labels (RFC 1123 §2.1), not all-numeric in its last label (so
    /// never an IPv4 address; an IPv6 address has colons and fails the character check).
    static func isDomainName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard !b.isEmpty, b.count <= 253 else { return false }
        var labels: [ArraySlice<UInt8>] = []
        var start = 0
        for i in 0...b.count where i == b.count || b[i] == UInt8(ascii: ".") {
            labels.append(b[start..<i])
            start = i + 1
        }
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
            else { return false }
            for c in label {
                let ok =
                    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == UInt8(ascii: "-")
                if !ok { return false }
            }
        }
        return !labels.last!.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}

/// Why a pin configuration document was refused. `path` locates the value, JSONPath-style
/// (`$.pin-sets[1].pins[0]`).
public enum PinConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not strict JSON (RFC 8259), at the byte offset given.
    case json(StrictJSON.Error)
    /// A value of the wrong JSON type.
    case wrongType(path: String, expected: String)
    /// A required member is absent.
    case missingKey(path: String, key: String)
    /// A member this schema does not define (refused, never ignored).
    case unknownKey(path: String, key: String)
    /// `pin-sets` is empty.
    case noPinSets
    /// Not a DNS name (wildcards, IP addresses, trailing dots, non-ASCII are refused).
    case invalidDomain(path: String, domain: String)
    /// The same domain (compared case-insensitively) in two pin sets.
    case duplicateDomain(path: String, domain: String)
    /// `include-subdomains` on a single-label domain.
    case subdomainsOfTopLevelDomain(path: String, domain: String)
    /// Not `sha256/` followed by the base64 of 32 bytes.
    case invalidPin(path: String, pin: String)
    /// A pin listed twice in one set.
    case duplicatePin(path: String, pin: String)
    /// Fewer than two distinct pins: no backup key (RFC 7469 §4.3).
    case noBackupPin(path: String, domain: String)
    /// `expires` is not exactly `YYYY-MM-DDTHH:MM:SSZ` (a real date and time).
    case invalidExpiry(path: String, value: String)

    /// One line for people.
    public var description: String {
        switch self {
        case .json(let e): return "not valid JSON at byte \(e.offset): \(e.message)"
        case .wrongType(let p, let expected): return "\(p): expected \(expected)"
        case .missingKey(let p, let k): return "\(p): missing \"\(k)\""
        case .unknownKey(let p, let k): return "\(p): unknown key \"\(k)\""
        case .noPinSets: return "$.pin-sets: no pin set"
        case .invalidDomain(let p, let d):
            return "\(p): \"\(d)\" is not a DNS name (no wildcard, IP address or trailing dot)"
        case .duplicateDomain(let p, let d): return "\(p): \"\(d)\" has a pin set already"
        case .subdomainsOfTopLevelDomain(let p, let d):
            return "\(p): include-subdomains on the single-label domain \"\(d)\" would pin a whole top-level domain"
        case .invalidPin(let p, let pin): return "\(p): \"\(pin)\" is not sha256/ followed by the base64 of 32 bytes"
        case .duplicatePin(let p, let pin): return "\(p): \"\(pin)\" is listed twice"
        case .noBackupPin(let p, let d):
            return "\(p): the pin set for \(d) needs at least two distinct pins, one of a backup key (RFC 7469 §4.3)"
        case .invalidExpiry(let p, let v): return "\(p): \"\(v)\" is not an RFC 3339 date-time YYYY-MM-DDTHH:MM:SSZ"
        }
    }
}
