@_spi(SigilInternal) import SigilDER

/// Compact JSON written straight into a byte buffer: what `JSONValue.serialized()` produces,
/// byte for byte, without building a tree first (the bulk `inspect --json` path).
///
/// The caller writes the punctuation (`{`, `,`, `:`…) through ``raw(_:)``; strings are escaped
/// per RFC 8259 §7 exactly as `JSONValue` escapes them (quote, backslash, `\n`, `\r`, `\t`,
/// other controls below U+0020 as `\u00XX`), byte by byte over the UTF-8 — equivalent, since
/// every byte of a multi-byte UTF-8 sequence is ≥ 0x80.
///
/// The bytes live in a buffer the writer owns (a raw allocation, shared copy-on-write between
/// copies of the writer), so an append is a capacity check and a copy; ``bytes`` gives them as
/// an array (a copy), ``withUnsafeBytes(_:)`` in place.
public struct JSONWriter {
    /// The owner of the buffer (freed with the last writer holding it).
    final class Storage {
        var out: ByteOutput
        init(capacity: Int) { out = ByteOutput(capacity: capacity) }
        deinit { out.deallocate() }

        func copy() -> Storage {
            let s = Storage(capacity: out.count)
            s.out.append(bytes: out.buffer)
            return s
        }
    }

    var storage: Storage

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        storage = Storage(capacity: capacity)
    }

    /// The JSON written so far (a copy of the writer's buffer; setting it replaces what was
    /// written).
    public var bytes: [UInt8] {
        get { Array(storage.out.buffer.assumingMemoryBound(to: UInt8.self)) }
        set {
            withOutput { o in
                o.count = 0
                newValue.withUnsafeBytes { o.append(bytes: $0) }
            }
        }
    }

    /// Bytes written so far.
    public var count: Int { storage.out.count }

    /// The last byte written, nil when nothing is.
    public var last: UInt8? { storage.out.last }

    /// Calls `body` with the bytes written so far, in place.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(storage.out.buffer) }
    }

    /// Forgets what was written, keeping the storage.
    public mutating func removeAll() { withOutput { $0.count = 0 } }

    /// Forgets the last `n` bytes written.
    public mutating func removeLast(_ n: Int = 1) { withOutput { $0.removeLast(n) } }

    /// Makes room for `capacity` bytes in all.
    public mutating func reserveCapacity(_ capacity: Int) { withOutput { $0.reserveCapacity(capacity) } }

    /// The buffer itself, for a run of appends (one uniqueness check for all of them).
    @_spi(SigilInternal)
    public mutating func withOutput<R>(_ body: (inout ByteOutput) throws -> R) rethrows -> R {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var o = storage.out
        defer { storage.out = o }
        return try body(&o)
    }

    /// Appends ASCII punctuation or a key already quoted (`"name":`).
    public mutating func raw(_ s: StaticString) { withOutput { $0.append(s) } }

    /// Appends one byte.
    public mutating func byte(_ b: UInt8) { withOutput { $0.append(b) } }

    /// Appends bytes as they are (JSON already serialised).
    public mutating func raw(bytes: UnsafeRawBufferPointer) { withOutput { $0.append(bytes: bytes) } }

    /// A JSON string.
    public mutating func string(_ s: String) { withOutput { $0.jsonString(s) } }

    /// A JSON string from UTF-8 bytes (valid UTF-8 expected: as `String(decoding:as:)` gives).
    public mutating func string(utf8 u: UnsafeBufferPointer<UInt8>) { withOutput { $0.jsonString(utf8: u) } }

    /// A JSON string whose UTF-8 `body` appends to an array (escaped afterwards only when it
    /// holds a character JSON escapes).
    public mutating func string(appending body: (inout [UInt8]) -> Void) {
        var text: [UInt8] = []
        body(&text)
        text.withUnsafeBufferPointer { string(utf8: $0) }
    }

    /// A JSON string of lowercase hex digits.
    public mutating func hexString(_ raw: UnsafeRawBufferPointer) { withOutput { $0.jsonHex(raw) } }

    /// An integer in decimal.
    public mutating func int(_ v: Int64) { withOutput { $0.jsonInt(v) } }

    /// `true` or `false`.
    public mutating func bool(_ b: Bool) { withOutput { $0.jsonBool(b) } }

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
    public mutating func strings(_ a: [String]) { withOutput { $0.jsonStrings(a) } }
}

/// The JSON primitives of ``JSONWriter``, on its buffer (the bulk writer calls them inside one
/// `withOutput`).
extension ByteOutput {
    /// A JSON string.
    mutating func jsonString(_ s: String) {
        var s = s
        s.withUTF8 { jsonString(utf8: $0) }
    }

    /// A JSON string from UTF-8 bytes (RFC 8259 §7, as `JSONValue` escapes).
    mutating func jsonString(utf8 u: UnsafeBufferPointer<UInt8>) {
        append(0x22)
        var runStart = 0
        var i = 0
        while i < u.count {
            let c = u[i]
            if c >= 0x20 && c != 0x22 && c != 0x5C {
                i += 1
                continue
            }
            if runStart < i { append(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: u[runStart..<i]))) }
            switch c {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                append("\\u00")
                append(ByteOutput.hexDigit(c >> 4))
                append(ByteOutput.hexDigit(c & 15))
            }
            i += 1
            runStart = i
        }
        if runStart < u.count {
            append(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: u[runStart..<u.count])))
        }
        append(0x22)
    }

    @inline(__always)
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }

    /// A JSON string whose UTF-8 `body` appends straight into the buffer (an RFC 4514 name,
    /// a time, a dotted OID): escaped afterwards only when it holds a character JSON escapes.
    @inline(__always)
    mutating func jsonString(appending body: (inout ByteOutput) -> Void) {
        append(0x22)
        let start = count
        body(&self)
        // One pass without early exits: the escaped octets are rare.
        var bad = false
        var p = base + start
        let e = base + count
        while p < e {
            let c = p.pointee
            bad = bad || c < 0x20 || c == 0x22 || c == 0x5C
            p += 1
        }
        if !bad {
            append(0x22)
            return
        }
        let text = Array(UnsafeBufferPointer(start: base + start, count: count - start))
        count = start - 1
        text.withUnsafeBufferPointer { jsonString(utf8: $0) }
    }

    /// A JSON string of lowercase hex digits.
    mutating func jsonHex(_ raw: UnsafeRawBufferPointer) {
        let n = raw.count * 2 + 2
        var t = reserve(n)
        t.pointee = 0x22
        t += 1
        if var p = raw.baseAddress {
            let end = p + raw.count
            let digits: StaticString = "0123456789abcdef"
            let d = digits.utf8Start
            while p < end {
                let b = p.load(as: UInt8.self)
                t[0] = d[Int(b >> 4)]
                t[1] = d[Int(b & 15)]
                t += 2
                p += 1
            }
        }
        t.pointee = 0x22
        count += n
    }

    /// An integer in decimal.
    mutating func jsonInt(_ v: Int64) {
        if v < 0 {
            append(0x2D)
            if v == .min {
                append("9223372036854775808")
                return
            }
        }
        var m = v.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes ≥ 20 digits
        withUnsafeMutableBytes(of: &digits) { d in
            var n = 0
            repeat {
                d[23 - n] = UInt8(48 + m % 10)
                m /= 10
                n += 1
            } while m > 0
            append(bytes: UnsafeRawBufferPointer(rebasing: d[(24 - n)...]))
        }
    }

    /// `true` or `false`.
    @inline(__always)
    mutating func jsonBool(_ b: Bool) { b ? append("true") : append("false") }

    /// An array of strings.
    mutating func jsonStrings(_ a: [String]) {
        append(0x5B)
        for (i, s) in a.enumerated() {
            if i > 0 { append(0x2C) }
            jsonString(s)
        }
        append(0x5D)
    }
}
