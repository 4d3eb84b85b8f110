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
        if let p = u.baseAddress, !ByteOutput.needsEscape(p, u.count) {
            // The usual string: nothing to escape, one copy between the quotes.
            let t = reserve(u.count + 2)
            t.pointee = 0x22
            (t + 1).update(from: p, count: u.count)
            t[u.count + 1] = 0x22
            count += u.count + 2
            return
        }
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

    /// "000102…ff": the lowercase hex of each octet value, two characters each.
    @inline(__always)
    static var hexPairs: StaticString {
        """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
        303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\
        909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef\
        f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
    }

    /// True when one of the `n` octets at `p` is one a JSON string escapes (RFC 8259 §7: below
    /// 0x20, `"`, `\`). Eight octets at a time: `(x - 0x20…) & ~x & 0x80…` is non-zero exactly
    /// when some octet of `x` is below 0x20, and the same test of `x ^ 0x22…` (`x ^ 0x5C…`)
    /// with 0x01… exactly when some octet is 0x22 (0x5C); the last few one at a time.
    @inline(__always)
    static func needsEscape(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(p)
        var i = 0
        var hit: UInt64 = 0
        while n - i >= 8 {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let q = x ^ 0x2222_2222_2222_2222
            let b = x ^ 0x5C5C_5C5C_5C5C_5C5C
            hit |= (x &- 0x2020_2020_2020_2020) & ~x & high
            hit |= (q &- ones) & ~q & high
            hit |= (b &- ones) & ~b & high
            i += 8
        }
        var bad = hit != 0
        while i < n {
            let c = p[i]
            bad = bad || c < 0x20 || c == 0x22 || c == 0x5C
            i += 1
        }
        return bad
    }

    /// A JSON string whose UTF-8 `body` appends straight into the buffer (an RFC 4514 name,
    /// a time, a dotted OID): escaped afterwards only when it holds a character JSON escapes.
    @inline(__always)
    mutating func jsonString(appending body: (inout ByteOutput) -> Void) {
        append(0x22)
        let start = count
        body(&self)
        // The escaped octets are rare: one pass, eight at a time.
        let bad = ByteOutput.needsEscape(base + start, count - start)
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
            // The two digits of each octet value, in one 16-bit load and store per octet.
            let pairs = UnsafeRawPointer(ByteOutput.hexPairs.utf8Start)
            while p < end {
                let b = p.load(as: UInt8.self)
                UnsafeMutableRawPointer(t).storeBytes(
                    of: pairs.loadUnaligned(fromByteOffset: Int(b) &* 2, as: UInt16.self), as: UInt16.self)
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
