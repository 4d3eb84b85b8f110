import SigilDER

/// PEM (RFC 7468) reading and writing, and DER/PEM detection.
public enum PEM {
    /// The result of scanning a PEM text: every CERTIFICATE block's DER, and how many blocks of
    /// other types were skipped.
    public struct Blocks: Sendable {
        public var certificates: [[UInt8]] = []
        public var skippedBlocks = 0
    }

    /// Bounds: a PEM bundle over 64 MiB is refused (the Mozilla bundle is about 200 KiB).
    public static let maximumInputSize = 64 << 20

    /// Extracts every `-----BEGIN CERTIFICATE-----` block of `text` (RFC 7468 §5; also the
    /// legacy `X509 CERTIFICATE` and `TRUSTED CERTIFICATE` labels). Text outside blocks is
    /// ignored (§2 allows explanatory text), CRLF and LF line ends are both accepted, other
    /// block types are skipped and counted. Base64 is strict (§3: standard alphabet, `=` padding
    /// only at the end); an error carries the 1-based line number as its offset.
    public static func decodeBlocks(_ text: [UInt8]) throws(DERError) -> Blocks {
        guard text.count <= maximumInputSize else { throw DERError(.tooLarge, at: 0) }
        var blocks = Blocks()
        var lines = LineIterator(text)
        while let (line, lineNumber) = lines.next() {
            guard let label = beginLabel(line) else { continue }
            var body: [UInt8] = []
            var ended = false
            var sawPadding = false
            while let (inner, n) = lines.next() {
                if let endLabel = endLabel(inner) {
                    guard endLabel.elementsEqual(label) else { throw DERError(.invalidPEM, at: n) }
                    ended = true
                    break
                }
                // RFC 7468 §2: headers (RFC 1421 "Proc-Type:" etc.) are not allowed in the
                // textual encodings it defines; reject anything but base64 and whitespace.
                for c in inner {
                    if c == 0x20 || c == 0x09 { continue }
                    if c == 0x3D { sawPadding = true; body.append(c); continue }
                    guard base64Value(c) != nil else { throw DERError(.invalidBase64, at: n) }
                    if sawPadding { throw DERError(.invalidBase64, at: n) }
                    body.append(c)
                }
            }
            guard ended else { throw DERError(.invalidPEM, at: lineNumber) }
            let isCertificate = label.elementsEqual("CERTIFICATE".utf8)
                || label.elementsEqual("X509 CERTIFICATE".utf8)
                || label.elementsEqual("TRUSTED CERTIFICATE".utf8)
            if isCertificate {
                guard let der = Base64.decode(body) else { throw DERError(.invalidBase64, at: lineNumber + 1) }
                if label.elementsEqual("TRUSTED CERTIFICATE".utf8) {
                    // OpenSSL's TRUSTED CERTIFICATE is a certificate followed by trust settings;
                    // keep the certificate TLV only.
                    blocks.certificates.append(firstTLV(der) ?? der)
                } else {
                    blocks.certificates.append(der)
                }
            } else {
                blocks.skippedBlocks += 1
            }
        }
        return blocks
    }

    /// True when `bytes` look like PEM text (contain a BEGIN line) rather than DER.
    public static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        if let first = bytes.first, first == 0x30 { return false }
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == 0x2D && bytes[i..<(i + marker.count)].elementsEqual(marker) { return true }
            i += 1
        }
        return false
    }

    /// Every certificate in `bytes`, PEM or DER (detected from the content, not a file name).
    /// DER input must be exactly one certificate.
    public static func certificatesDER(in bytes: [UInt8]) throws(DERError) -> Blocks {
        if looksLikePEM(bytes) {
            let b = try decodeBlocks(bytes)
            if b.certificates.isEmpty { throw DERError(.noCertificate, at: 0) }
            return b
        }
        // Neither PEM nor a DER SEQUENCE: say so rather than report a DER tag error.
        guard let first = bytes.first, first == 0x30 else { throw DERError(.noCertificate, at: 0) }
        var b = Blocks()
        b.certificates = [bytes]
        return b
    }

    /// PEM text for DER bytes with the given label: 64-column base64 lines, LF endings.
    public static func encode(_ der: [UInt8], label: String = "CERTIFICATE") -> String {
        var out = "-----BEGIN \(label)-----\n"
        let b64 = Base64.encode(der)
        var i = b64.startIndex
        while i < b64.endIndex {
            let j = b64.index(i, offsetBy: 64, limitedBy: b64.endIndex) ?? b64.endIndex
            out += String(decoding: b64[i..<j], as: UTF8.self) + "\n"
            i = j
        }
        out += "-----END \(label)-----\n"
        return out
    }

    static func beginLabel(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        label(line, prefix: "-----BEGIN ")
    }

    static func endLabel(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        label(line, prefix: "-----END ")
    }

    static func label(_ line: ArraySlice<UInt8>, prefix: String) -> ArraySlice<UInt8>? {
        var l = line
        while let last = l.last, last == 0x20 || last == 0x09 { l = l.dropLast() }
        let p = Array(prefix.utf8)
        let suffix = Array("-----".utf8)
        guard l.count >= p.count + suffix.count, l.prefix(p.count).elementsEqual(p),
              l.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        return l.dropFirst(p.count).dropLast(suffix.count)
    }

    static func firstTLV(_ der: [UInt8]) -> [UInt8]? {
        let end: Int? = try? withStorage(der) { (b) throws(DERError) -> Int in
            var r = DERReader(b)
            return try r.readAny().end
        }
        return end.map { Array(der[0..<$0]) }
    }

    struct LineIterator {
        let text: [UInt8]
        var position = 0
        var lineNumber = 0

        init(_ text: [UInt8]) { self.text = text }

        /// The next line without its CR/LF terminator, and its 1-based number.
        mutating func next() -> (ArraySlice<UInt8>, Int)? {
            guard position < text.count else { return nil }
            var end = position
            while end < text.count && text[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > position && text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = text[position..<lineEnd]
            position = end + 1
            lineNumber += 1
            return (line, lineNumber)
        }
    }

    @inlinable
    static func base64Value(_ c: UInt8) -> UInt8? { Base64.value(c) }
}

/// Standard base64 (RFC 4648 §4), strict: canonical padding, zero pad bits.
public enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    @inlinable
    public static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x41...0x5A: return c - 0x41
        case 0x61...0x7A: return c - 0x61 + 26
        case 0x30...0x39: return c - 0x30 + 52
        case 0x2B: return 62
        case 0x2F: return 63
        default: return nil
        }
    }

    /// Decodes base64 characters (no whitespace); nil if the length, padding or trailing bits
    /// are not canonical (RFC 4648 §3.5).
    public static func decode<C: Collection>(_ chars: C) -> [UInt8]? where C.Element == UInt8 {
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var quad: (UInt32, Int) = (0, 0)
        var padding = 0
        for c in chars {
            if c == 0x3D {
                padding += 1
                quad.0 <<= 6
                quad.1 += 1
            } else {
                guard padding == 0, let v = value(c) else { return nil }
                quad.0 = quad.0 << 6 | UInt32(v)
                quad.1 += 1
            }
            if quad.1 == 4 {
                let v = quad.0
                out.append(UInt8(v >> 16 & 0xFF))
                if padding < 2 { out.append(UInt8(v >> 8 & 0xFF)) }
                if padding < 1 { out.append(UInt8(v & 0xFF)) }
                // Canonical: the bits beyond the data in a padded quad must be zero.
                if padding == 1 && v & 0xFF != 0 { return nil }
                if padding == 2 && v & 0xFFFF != 0 { return nil }
                if padding > 2 { return nil }
                quad = (0, 0)
            }
        }
        return out
    }

    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)]); out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(0x3D); out.append(0x3D)
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)]); out.append(0x3D)
        }
        return out
    }

    public static func encodeString(_ bytes: [UInt8]) -> String { String(decoding: encode(bytes), as: UTF8.self) }
}

extension Certificate {
    /// Every certificate in PEM or DER bytes, parsed. Fails on the first that does not parse.
    public static func all(from bytes: [UInt8]) throws(DERError) -> [Certificate] {
        let blocks = try PEM.certificatesDER(in: bytes)
        var out: [Certificate] = []
        out.reserveCapacity(blocks.certificates.count)
        for der in blocks.certificates { out.append(try Certificate(der: der)) }
        return out
    }

    /// This certificate as PEM text.
    public var pem: String { PEM.encode(der) }
}
