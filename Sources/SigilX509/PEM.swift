import SigilDER

#if canImport(CSigilBase64)
    import CSigilBase64
#endif

/// PEM (RFC 7468) reading and writing, and DER/PEM detection.
public enum PEM {
    /// The result of scanning a PEM text: every CERTIFICATE block's DER, and how many blocks of
    /// other types were skipped.
    public struct Blocks: Sendable {
        /// DER of each CERTIFICATE block, in order.
        public var certificates: [[UInt8]] = []
        /// Blocks of other types (keys, CRLs...) that were skipped.
        public var skippedBlocks = 0
        /// The trust settings of `TRUSTED CERTIFICATE` blocks that carry some, by index into
        /// `certificates` (`CertificateTrustSettings`: a trust anchor loaded from such a block
        /// is limited to them).
        public var trustSettings: [Int: CertificateTrustSettings] = [:]
    }

    /// Bounds: a PEM bundle over 64 MiB is refused (the Mozilla bundle is about 200 KiB).
    public static let maximumInputSize = 64 << 20

    /// Extracts every `-----BEGIN CERTIFICATE-----` block of `text` (RFC 7468 §5; also the
    /// legacy `X509 CERTIFICATE` and `TRUSTED CERTIFICATE` labels). Text outside blocks is
    /// ignored (§2 allows explanatory text), CRLF and LF line ends are both accepted, other
    /// block types are checked (their base64 as strictly) and skipped and counted. A block of any
    /// label over `Certificate.maximumSize` decoded bytes fails the input (`.tooLarge` at its
    /// BEGIN line), as in `ObjectStream`. Base64 is strict (§3: standard alphabet, `=` padding
    /// only at the end); an error carries the 1-based line number as its offset.
    public static func decodeBlocks(_ text: [UInt8]) throws(DERError) -> Blocks {
        guard text.count <= maximumInputSize else { throw DERError(.tooLarge, at: 0) }
        var blocks = Blocks()
        var lines = LineIterator(text)
        while let (line, lineNumber) = lines.next() {
            guard let label = beginLabel(line) else { continue }
            var body: [UInt8] = []
            body.reserveCapacity(2048)
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
                // Check the line with the lookup table, then copy it in one go.
                var hasBlanks = false
                for c in inner {
                    if Base64.decodeTable[Int(c)] != 0xFF {
                        if sawPadding { throw DERError(.invalidBase64, at: n) }
                    } else if c == 0x3D {
                        sawPadding = true
                    } else if c == 0x20 || c == 0x09 {
                        hasBlanks = true
                    } else {
                        throw DERError(.invalidBase64, at: n)
                    }
                }
                if hasBlanks {
                    for c in inner where c != 0x20 && c != 0x09 { body.append(c) }
                } else {
                    body.append(contentsOf: inner)
                }
            }
            guard ended else { throw DERError(.invalidPEM, at: lineNumber) }
            let isCertificate =
                equal(label, "CERTIFICATE") || equal(label, "X509 CERTIFICATE")
                || equal(label, "TRUSTED CERTIFICATE")
            guard let der = Base64.decode(body) else { throw DERError(.invalidBase64, at: lineNumber + 1) }
            // The per-object limit of the streaming reader (`ObjectStream`, whose default bound
            // is `Certificate.maximumSize`), whatever the label: both readers refuse an input with
            // a larger block, certificate or not, rather than one skip it and the other fail.
            guard der.count <= Certificate.maximumSize else { throw DERError(.tooLarge, at: lineNumber) }
            if isCertificate {
                if equal(label, "TRUSTED CERTIFICATE") {
                    // OpenSSL's TRUSTED CERTIFICATE is a certificate followed by trust settings:
                    // the certificate TLV, its settings kept beside it.
                    let (certificate, settings) = splitTrustedCertificate(der)
                    if let settings { blocks.trustSettings[blocks.certificates.count] = settings }
                    blocks.certificates.append(certificate)
                } else {
                    blocks.certificates.append(der)
                }
            } else {
                // A block of another label is skipped, but only once its body is valid base64:
                // a damaged block anywhere fails the input, as the streaming reader
                // (`ObjectStream`, which decodes every block whatever its label) and OpenSSL's
                // PEM reader decide (RFC 4648 §3.5 canonical length and padding; checked above).
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

    static let beginPrefix: [UInt8] = Array("-----BEGIN ".utf8)
    static let endPrefix: [UInt8] = Array("-----END ".utf8)

    static func beginLabel(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        label(line, prefix: beginPrefix)
    }

    static func endLabel(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        label(line, prefix: endPrefix)
    }

    /// The label of an armour line (no allocation: lines not starting with '-' exit at once).
    static func label(_ line: ArraySlice<UInt8>, prefix p: [UInt8]) -> ArraySlice<UInt8>? {
        guard line.first == 0x2D else { return nil }
        // Trailing blanks dropped; then `p`, the label, five dashes (compared octet by octet:
        // the generic slice comparisons cost more than the rest of a block's armour).
        let start = line.startIndex
        var end = line.endIndex
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        guard end - start >= p.count + 5 else { return nil }
        for i in 0..<p.count where line[start + i] != p[i] { return nil }
        for i in (end - 5)..<end where line[i] != 0x2D { return nil }
        return line[(start + p.count)..<(end - 5)]
    }

    /// True when `bytes` are the UTF-8 of `s`.
    static func equal(_ bytes: ArraySlice<UInt8>, _ s: String) -> Bool {
        var s = s
        return s.withUTF8 { u in
            guard u.count == bytes.count else { return false }
            var j = bytes.startIndex
            for c in u {
                if c != bytes[j] { return false }
                j += 1
            }
            return true
        }
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

    /// The 6-bit value of a base64 character (RFC 4648 §4); nil for others.
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

    /// Alphabet value of each octet, 0xFF for anything else (including '=').
    static let decodeTable: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
        return t
    }()

    /// Decodes whole 4-character quanta of alphabet characters (`chars.count` a multiple of 4,
    /// no padding, no whitespace) into `chars.count / 4 * 3` octets at `dst`; false at the first
    /// character outside the alphabet (RFC 4648 §4), `dst` then partly written.
    @inline(__always)
    static func decodeQuanta(
        _ table: UnsafeBufferPointer<UInt8>, _ chars: UnsafeBufferPointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        var i = 0
        var o = 0
        while i < chars.count {
            let a = table[Int(chars[i])]
            let b = table[Int(chars[i + 1])]
            let c = table[Int(chars[i + 2])]
            let d = table[Int(chars[i + 3])]
            if (a | b | c | d) & 0x80 != 0 { return false }
            let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            dst[o] = UInt8(truncatingIfNeeded: v >> 16)
            dst[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
            dst[o + 2] = UInt8(truncatingIfNeeded: v)
            i += 4
            o += 3
        }
        return true
    }

    /// `decodeQuanta` eight characters (six octets) at a time: one 64-bit load of the
    /// characters, eight independent table lookups, one check of the high bits (0xFF marks a
    /// character outside the alphabet, RFC 4648 §4), one 64-bit store. `chars.count` is a
    /// multiple of 4; `dst` has room for `chars.count / 4 * 3` octets plus 8 (each store writes
    /// two octets beyond the six it decodes, overwritten by the next step or left as room).
    @inline(__always)
    static func decodeWide(
        _ table: UnsafeBufferPointer<UInt8>, _ chars: UnsafeRawBufferPointer, into dst: UnsafeMutableRawPointer
    ) -> Bool {
        let t = table.baseAddress!
        let src = chars.baseAddress!
        let n = chars.count
        var i = 0
        var o = 0
        while n - i >= 8 {
            let x = src.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            let v0 = UInt64(t[Int(x & 0xFF)])
            let v1 = UInt64(t[Int(x >> 8 & 0xFF)])
            let v2 = UInt64(t[Int(x >> 16 & 0xFF)])
            let v3 = UInt64(t[Int(x >> 24 & 0xFF)])
            let v4 = UInt64(t[Int(x >> 32 & 0xFF)])
            let v5 = UInt64(t[Int(x >> 40 & 0xFF)])
            let v6 = UInt64(t[Int(x >> 48 & 0xFF)])
            let v7 = UInt64(t[Int(x >> 56)])
            if (v0 | v1 | v2 | v3 | v4 | v5 | v6 | v7) & 0x80 != 0 { return false }
            let bits =
                v0 << 58 | v1 << 52 | v2 << 46 | v3 << 40 | v4 << 34 | v5 << 28 | v6 << 22 | v7 << 16
            dst.storeBytes(of: bits.bigEndian, toByteOffset: o, as: UInt64.self)
            i += 8
            o += 6
        }
        if i < n {
            // The last four characters.
            let v0 = UInt32(t[Int(src.load(fromByteOffset: i, as: UInt8.self))])
            let v1 = UInt32(t[Int(src.load(fromByteOffset: i + 1, as: UInt8.self))])
            let v2 = UInt32(t[Int(src.load(fromByteOffset: i + 2, as: UInt8.self))])
            let v3 = UInt32(t[Int(src.load(fromByteOffset: i + 3, as: UInt8.self))])
            if (v0 | v1 | v2 | v3) & 0x80 != 0 { return false }
            let v = v0 << 18 | v1 << 12 | v2 << 6 | v3
            dst.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: o, as: UInt8.self)
            dst.storeBytes(of: UInt8(truncatingIfNeeded: v >> 8), toByteOffset: o + 1, as: UInt8.self)
            dst.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: o + 2, as: UInt8.self)
        }
        return true
    }

    /// `decodeWide` with AVX2 when `simd` (the caller read `simdAvailable` once): the same
    /// answer and the same octets (tested against the portable path and Python's `base64`
    /// over random text and every octet at every place of a line), 32 characters at a time.
    /// The same contract: `chars.count` a multiple of 4, room for 8 octets beyond the output.
    @inline(__always)
    static func decodeLine(
        _ simd: Bool, _ table: UnsafeBufferPointer<UInt8>, _ chars: UnsafeRawBufferPointer,
        into dst: UnsafeMutableRawPointer
    ) -> Bool {
        #if canImport(CSigilBase64)
            if simd {
                return csigil_base64_decode_avx2(
                    chars.baseAddress!.assumingMemoryBound(to: UInt8.self), chars.count,
                    dst.assumingMemoryBound(to: UInt8.self)) != 0
            }
        #endif
        return decodeWide(table, chars, into: dst)
    }

    /// True when this CPU runs the AVX2 decoder (probed once by the C target, then cached).
    /// Always false where the C target is not built (the embedded builds compile SigilX509's
    /// Swift sources alone).
    static var simdAvailable: Bool {
        #if canImport(CSigilBase64)
            return csigil_base64_avx2_supported() != 0
        #else
            return false
        #endif
    }

    /// Decodes whole quanta of alphabet characters (`chars.count` a multiple of 4, no `=`, no
    /// blanks) with the vector decoder when `simd` and this CPU has it, else with the portable
    /// one; nil when a character is outside the alphabet (RFC 4648 §4). For tests and the
    /// fuzz oracle, which compare the two paths.
    @_spi(SigilInternal)
    public static func decodeQuanta(_ chars: [UInt8], simd: Bool) -> [UInt8]? {
        guard chars.count % 4 == 0 else { return nil }
        if chars.isEmpty { return [] }
        let n = chars.count / 4 * 3
        var out = [UInt8](repeating: 0, count: n + 8)
        let useSIMD = simd && simdAvailable
        let ok = decodeTable.withUnsafeBufferPointer { t in
            chars.withUnsafeBytes { c in
                out.withUnsafeMutableBytes { d in decodeLine(useSIMD, t, c, into: d.baseAddress!) }
            }
        }
        guard ok else { return nil }
        out.removeLast(8)
        return out
    }

    /// Decodes base64 characters (no whitespace); nil if the length, padding or trailing bits
    /// are not canonical (RFC 4648 §3.5) or a character is outside the alphabet.
    public static func decode<C: Collection>(_ chars: C) -> [UInt8]? where C.Element == UInt8 {
        if let r = chars.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return r }
        return Array(chars).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    static func decode(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let n = buffer.count
        guard n % 4 == 0 else { return nil }
        if n == 0 { return [] }
        var pad = 0
        if buffer[n - 1] == 0x3D { pad = buffer[n - 2] == 0x3D ? 2 : 1 }
        let outCount = n / 4 * 3 - pad
        return decodeTable.withUnsafeBufferPointer { table -> [UInt8]? in
            var ok = true
            let out = [UInt8](unsafeUninitializedCapacity: outCount) { dst, initialized in
                let full = pad > 0 ? n - 4 : n
                ok = decodeQuanta(table, UnsafeBufferPointer(rebasing: buffer[0..<full]), into: dst.baseAddress!)
                let i = full
                let o = full / 4 * 3
                if ok && pad > 0 {
                    let a = table[Int(buffer[i])]
                    let b = table[Int(buffer[i + 1])]
                    if (a | b) & 0x80 != 0 { ok = false }
                    if ok && pad == 2 {
                        // Canonical: the 4 bits beyond the data are zero.
                        if b & 0x0F != 0 { ok = false } else { dst[o] = a << 2 | b >> 4 }
                    } else if ok {
                        let c = table[Int(buffer[i + 2])]
                        if c & 0x80 != 0 || c & 0x03 != 0 {
                            ok = false
                        } else {
                            dst[o] = a << 2 | b >> 4
                            dst[o + 1] = (b & 0x0F) << 4 | c >> 2
                        }
                    }
                }
                // UInt8 needs no deinitialisation; report the count either way.
                initialized = outCount
            }
            return ok ? out : nil
        }
    }

    /// Base64 (RFC 4648 §4, with padding) of `bytes`, as ASCII.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(0x3D)
            out.append(0x3D)
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            out.append(0x3D)
        }
        return out
    }

    /// `encode(_:)` as a String.
    public static func encodeString(_ bytes: [UInt8]) -> String { String(decoding: encode(bytes), as: UTF8.self) }
}

extension Certificate {
    /// Every certificate in PEM or DER bytes, parsed. Fails on the first that does not parse.
    /// A `TRUSTED CERTIFICATE` block gives its certificate only: its trust settings are not
    /// carried by a `Certificate` — to load anchors from such a file, use `TrustStore`
    /// (`add(contentsOf:)`, `loading(file:)`), whose anchors keep them.
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
