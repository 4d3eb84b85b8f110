/// A small strict JSON reader (RFC 8259) for CT log lists, so the library can load a list the
/// caller has in hand without Foundation. Strict: one value and only whitespace around it, no
/// trailing commas, no comments, duplicate object keys refused, strings valid UTF-8 with the
/// escapes of §7 (surrogate pairs joined, lone surrogates refused), nesting at most 64 deep.
/// Numbers keep their text; `int` reads integers exactly.
public indirect enum StrictJSON: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its text.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([StrictJSON])
    /// An object (keys unique).
    case object([String: StrictJSON])

    /// Why a document was refused, with the byte offset.
    public struct Error: Swift.Error, Sendable, Hashable {
        /// Offset in the input.
        public let offset: Int
        /// A short description.
        public let message: String
    }

    /// Parses a whole document.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> StrictJSON {
        var p = Parser(b: bytes)
        p.ws()
        let v = try p.value(depth: 0)
        p.ws()
        if p.i != bytes.count { throw Error(offset: p.i, message: "data after the JSON value") }
        return v
    }

    /// The member `key` of an object, else nil.
    public subscript(key: String) -> StrictJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    /// The string, else nil.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    /// The array, else nil.
    public var array: [StrictJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }
    /// The number as an exact integer, else nil.
    public var int: Int64? {
        if case .number(let s) = self { return Int64(s) }
        return nil
    }

    struct Parser {
        let b: [UInt8]
        var i = 0

        mutating func ws() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        }

        func fail(_ m: String) -> Error { Error(offset: i, message: m) }

        mutating func literal(_ s: String, _ v: StrictJSON) throws(Error) -> StrictJSON {
            let u = Array(s.utf8)
            guard b.count - i >= u.count, Array(b[i..<i + u.count]) == u else { throw fail("invalid literal") }
            i += u.count
            return v
        }

        mutating func value(depth: Int) throws(Error) -> StrictJSON {
            guard depth < 64 else { throw fail("nesting too deep") }
            guard i < b.count else { throw fail("unexpected end") }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var o: [String: StrictJSON] = [:]
                ws()
                if i < b.count, b[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(o)
                }
                while true {
                    ws()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let at = i
                    let k = try string()
                    if o[k] != nil { throw Error(offset: at, message: "duplicate key") }
                    ws()
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    ws()
                    o[k] = try value(depth: depth + 1)
                    ws()
                    guard i < b.count else { throw fail("unexpected end") }
                    if b[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    guard b[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
                    i += 1
                    return .object(o)
                }
            case UInt8(ascii: "["):
                i += 1
                var a: [StrictJSON] = []
                ws()
                if i < b.count, b[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(a)
                }
                while true {
                    ws()
                    a.append(try value(depth: depth + 1))
                    ws()
                    guard i < b.count else { throw fail("unexpected end") }
                    if b[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    guard b[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
                    i += 1
                    return .array(a)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws(Error) -> StrictJSON {
            let start = i
            if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw fail("invalid value") }
            if b[i] == 0x30 {
                i += 1
            } else {
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard i < b.count, isDigit(b[i]) else { throw fail("invalid number") }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard i < b.count, isDigit(b[i]) else { throw fail("invalid number") }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            return .number(String(decoding: b[start..<i], as: UTF8.self))
        }

        mutating func hex4() throws(Error) -> UInt32 {
            guard b.count - i >= 4 else { throw fail("short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = b[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw fail("invalid \\u escape")
                }
                v = v << 4 | d
                i += 1
            }
            return v
        }

        /// RFC 8259 §7 string; the raw bytes must be valid UTF-8 (§8.1).
        mutating func string() throws(Error) -> String {
            i += 1  // opening quote
            var out: [UInt8] = []
            while true {
                guard i < b.count else { throw fail("unterminated string") }
                let c = b[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    break
                }
                if c < 0x20 { throw fail("control character in string") }
                if c != UInt8(ascii: "\\") {
                    out.append(c)
                    i += 1
                    continue
                }
                i += 1
                guard i < b.count else { throw fail("unterminated escape") }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var u = try hex4()
                    if u >= 0xD800, u < 0xDC00 {
                        guard b.count - i >= 2, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                            throw fail("lone surrogate")
                        }
                        i += 2
                        let lo = try hex4()
                        guard lo >= 0xDC00, lo < 0xE000 else { throw fail("lone surrogate") }
                        u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    } else if u >= 0xDC00, u < 0xE000 {
                        throw fail("lone surrogate")
                    }
                    guard let scalar = Unicode.Scalar(u) else { throw fail("invalid scalar") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw fail("invalid escape")
                }
            }
            // Valid UTF-8 only: decoding with repair must give back the same bytes.
            let s = String(decoding: out, as: UTF8.self)
            guard s.utf8.count == out.count, s.utf8.elementsEqual(out) else { throw fail("invalid UTF-8") }
            return s
        }
    }
}
