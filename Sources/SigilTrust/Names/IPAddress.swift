import SigilX509

/// An IPv4 or IPv6 address, kept as its network-order octets (4 or 16), the form an
/// iPAddress GeneralName carries (RFC 5280 §4.2.1.6). Two addresses are equal when their
/// octets are: text forms never take part in a comparison.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 octets (IPv4) or 16 octets (IPv6).
    public let bytes: [UInt8]

    /// Wraps 4 or 16 octets; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses the text form of an address:
    /// - IPv4: exactly four decimal parts 0–255 separated by ".", no leading zeros (`"010"`
    ///   would be octal to inet_aton), no other forms (`"127.1"`, hex) — the `dec-octet` rule
    ///   of RFC 3986 §3.2.2, which CA/B Forum BR §7.1.4.3 also requires for IPv4 text.
    /// - IPv6: the RFC 4291 §2.2 text forms: eight groups of 1–4 hex digits, one `::` for a
    ///   run of zero groups, an embedded dotted quad in the last 32 bits; upper or lower case;
    ///   optionally in brackets (`"[::1]"`, RFC 3986 §3.2.2 IP-literal). Zone identifiers
    ///   (`"%eth0"`) are refused: a certificate cannot name a zone.
    public init?(_ text: String) {
        var utf8 = Array(text.utf8)
        if utf8.first == UInt8(ascii: "[") {
            guard utf8.count >= 2, utf8.last == UInt8(ascii: "]") else { return nil }
            utf8 = Array(utf8[1..<(utf8.count - 1)])
            guard let v6 = IPAddress.parseIPv6(utf8[...]) else { return nil }
            bytes = v6
            return
        }
        if let v4 = IPAddress.parseIPv4(utf8[...]) {
            bytes = v4
        } else if let v6 = IPAddress.parseIPv6(utf8[...]) {
            bytes = v6
        } else {
            return nil
        }
    }

    /// True for a 4-octet (IPv4) address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// Dotted quad or RFC 5952 text (lowercase, longest zero run compressed).
    public var description: String { IPAddressText.format(bytes) }

    /// Strict dotted quad (see `init?(_:)`).
    static func parseIPv4(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(4)
        var value = 0
        var digits = 0
        var leadingZero = false
        for c in s {
            if c == UInt8(ascii: ".") {
                guard digits > 0, out.count < 3 else { return nil }
                out.append(UInt8(value))
                value = 0
                digits = 0
                leadingZero = false
            } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                // A part with a leading zero ("01") is refused: inet_aton reads it as octal.
                if leadingZero { return nil }
                if digits == 0 && c == UInt8(ascii: "0") { leadingZero = true }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
                digits += 1
                if value > 255 { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, out.count == 3 else { return nil }
        out.append(UInt8(value))
        return out
    }

    /// RFC 4291 §2.2 text forms (see `init?(_:)`).
    static func parseIPv6(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        // At most 8 groups of 4 digits and 7 colons, or 6 groups and a dotted quad (45 chars).
        guard s.count >= 2, s.count <= 45 else { return nil }
        var groups = [UInt16]()  // groups before "::" and, after it, in `tail`
        var tail = [UInt16]()
        groups.reserveCapacity(8)
        var sawDoubleColon = false
        var i = s.startIndex
        let end = s.endIndex
        let colon = UInt8(ascii: ":")
        // A leading "::" (e.g. "::1"); a single leading ":" is an error.
        if s[i] == colon {
            guard s[i + 1] == colon else { return nil }
            sawDoubleColon = true
            i += 2
            if i == end { return [UInt8](repeating: 0, count: 16) }
        }
        while i < end {
            // Read one group: hex digits up to ":" or the end, or a dotted quad at the end.
            var j = i
            var value = 0
            var isQuad = false
            while j < end && s[j] != colon {
                guard let h = hexValue(s[j]) else {
                    if s[j] == UInt8(ascii: ".") {
                        isQuad = true
                        break
                    }
                    return nil
                }
                value = value << 4 | h
                j += 1
                if j - i > 4 { return nil }
            }
            if isQuad {
                // RFC 4291 §2.2 form 3: the dotted quad is the last 32 bits.
                guard let q = parseIPv4(s[i..<end]) else { return nil }
                let count = groups.count + tail.count
                guard count + 2 <= (sawDoubleColon ? 7 : 8) else { return nil }
                let hi = UInt16(q[0]) << 8 | UInt16(q[1])
                let lo = UInt16(q[2]) << 8 | UInt16(q[3])
                if sawDoubleColon {
                    tail.append(hi)
                    tail.append(lo)
                } else {
                    groups.append(hi)
                    groups.append(lo)
                }
                i = end
                break
            }
            guard j > i else { return nil }  // empty group (":::" or trailing ":")
            if sawDoubleColon { tail.append(UInt16(value)) } else { groups.append(UInt16(value)) }
            if groups.count + tail.count > 8 { return nil }
            i = j
            if i == end { break }
            // s[i] is ":"; "::" marks the zero run (only once).
            i += 1
            guard i < end else { return nil }  // trailing single ":"
            if s[i] == colon {
                guard !sawDoubleColon else { return nil }
                sawDoubleColon = true
                i += 1
            }
        }
        let total = groups.count + tail.count
        if sawDoubleColon {
            // "::" stands for at least one zero group (RFC 4291 §2.2 form 2).
            guard total <= 7 else { return nil }
        } else {
            guard total == 8 else { return nil }
        }
        var all = groups
        all.append(contentsOf: repeatElement(0, count: 8 - total))
        all.append(contentsOf: tail)
        var out = [UInt8]()
        out.reserveCapacity(16)
        for g in all {
            out.append(UInt8(g >> 8))
            out.append(UInt8(g & 0xFF))
        }
        return out
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
