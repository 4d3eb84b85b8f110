/// Compact JSON written straight into a byte buffer: what `JSONValue.serialized()` produces,
/// byte for byte, without building a tree first (the bulk `inspect --json` path).
///
/// The caller writes the punctuation (`{`, `,`, `:`…) through ``raw(_:)``; strings are escaped
/// per RFC 8259 §7 exactly as `JSONValue` escapes them (quote, backslash, `\n`, `\r`, `\t`,
/// other controls below U+0020 as `\u00XX`), byte by byte over the UTF-8 — equivalent, since
/// every byte of a multi-byte UTF-8 sequence is ≥ 0x80.
public struct JSONWriter {
    /// The JSON written so far.
    public var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the storage.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends ASCII punctuation or a key already quoted (`"name":`).
    @inlinable
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    @inlinable
    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// A JSON string.
    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { string(utf8: $0) }
    }

    /// A JSON string from UTF-8 bytes (valid UTF-8 expected: as `String(decoding:as:)` gives).
    public mutating func string(utf8 u: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var runStart = 0
        var i = 0
        while i < u.count {
            let c = u[i]
            if c >= 0x20 && c != 0x22 && c != 0x5C {
                i += 1
                continue
            }
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<i])) }
            switch c {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            default:
                raw("\\u00")
                bytes.append(JSONWriter.hexDigits[Int(c >> 4)])
                bytes.append(JSONWriter.hexDigits[Int(c & 15)])
            }
            i += 1
            runStart = i
        }
        if runStart < u.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<u.count])) }
        bytes.append(0x22)
    }

    /// A JSON string whose UTF-8 `body` appends straight into the output (an RFC 4514 name,
    /// a time, a dotted OID): escaped afterwards only when it holds a character JSON escapes.
    @inlinable
    public mutating func string(appending body: (inout [UInt8]) -> Void) {
        bytes.append(0x22)
        let start = bytes.count
        body(&bytes)
        // One pass without bounds checks or early exits: the escaped octets are rare.
        let clean = bytes.withUnsafeBufferPointer { b -> Bool in
            var bad = false
            for i in start..<b.count {
                let c = b[i]
                bad = bad || c < 0x20 || c == 0x22 || c == 0x5C
            }
            return !bad
        }
        if clean {
            bytes.append(0x22)
            return
        }
        let raw = Array(bytes[start...])
        bytes.removeSubrange((start - 1)...)
        raw.withUnsafeBufferPointer { string(utf8: $0) }
    }

    /// A JSON string of lowercase hex digits.
    public mutating func hexString(_ raw: UnsafeRawBufferPointer) {
        // Spelled out in a scratch buffer, appended in one go (one capacity check, not two per octet).
        let n = raw.count * 2 + 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { t in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { d in
                t[0] = 0x22
                var o = 1
                for b in raw {
                    t[o] = d[Int(b >> 4)]
                    t[o + 1] = d[Int(b & 15)]
                    o += 2
                }
                t[o] = 0x22
            }
            bytes.append(contentsOf: UnsafeBufferPointer(t))
        }
    }

    /// An integer in decimal.
    public mutating func int(_ v: Int64) {
        if v < 0 {
            bytes.append(0x2D)
            if v == .min {
                raw("9223372036854775808")
                return
            }
        }
        var m = v.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes ≥ 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { d -> Int in
            var n = 0
            repeat {
                d[23 - n] = UInt8(48 + m % 10)
                m /= 10
                n += 1
            } while m > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[(24 - n)...]))
            return n
        }
        _ = count
    }

    /// `true` or `false`.
    public mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }

    /// `null`.
    public mutating func null() { raw("null") }

    /// A JSON value of the tree type (for the rare parts built as values).
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .string(let s): string(s)
        case .array(let a):
            byte(0x5B)
            for (i, x) in a.enumerated() {
                if i > 0 { byte(0x2C) }
                value(x)
            }
            byte(0x5D)
        case .object(let o):
            byte(0x7B)
            for (i, (k, x)) in o.enumerated() {
                if i > 0 { byte(0x2C) }
                string(k)
                byte(0x3A)
                value(x)
            }
            byte(0x7D)
        }
    }

    /// An array of strings.
    public mutating func strings(_ a: [String]) {
        byte(0x5B)
        for (i, s) in a.enumerated() {
            if i > 0 { byte(0x2C) }
            string(s)
        }
        byte(0x5D)
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
