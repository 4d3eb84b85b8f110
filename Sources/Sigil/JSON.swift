/// A minimal JSON value with ordered object keys, for the CLI's machine-readable reports
/// (Foundation-free so the library and fuzz targets can render reports).
public indirect enum JSONValue: Sendable, Equatable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, written in decimal (no fraction or exponent; JSON numbers beyond ±2^53 lose
    /// precision in readers that parse into doubles).
    case int(Int64)
    /// A string, escaped per RFC 8259 §7 when serialised (quote, backslash, and control
    /// characters below U+0020).
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object whose members are written in this order. Keys are not de-duplicated: the
    /// caller must not repeat one (RFC 8259 §4 leaves duplicate names' meaning undefined).
    case object([(String, JSONValue)])

    /// Values are equal when they serialize identically.
    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// Compact serialisation (one line).
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259 §7 string escaping.
    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 {
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        out += "\""
    }
}
