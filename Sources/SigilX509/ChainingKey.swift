import SigilDER

extension DistinguishedName {
    /// A hash consistent with `matchesForChaining` (RFC 5280 §7.1: names that match have equal
    /// keys), for indexing anchors by subject. The same normalization as `chainingHash(into:)`
    /// (RFC 4518 insignificant spaces simplified to U+0020, ASCII case folding, any string
    /// type) but fed to the hasher as bytes: each normalized string value as UTF-8, written
    /// straight from the encoding when it is ASCII (the usual case), through the scalar
    /// iterator otherwise. Not interchangeable with `chainingHashValue` (different streams);
    /// one index must use one of them throughout. No allocation.
    @_spi(SigilInternal) public var chainingKey: Int {
        var hasher = Hasher()
        var out = ChunkedBytes()
        encoded.withUnsafeBytes { (name: UnsafeRawBufferPointer) in
            // Parsing validated the Name (RFC 5280 §4.1.2.4): any error below only ends the
            // walk early, which can make two matching names differ in key, never match.
            var r = DERReader(name)
            guard let seq = try? r.read(.sequence) else { return }
            var rdns = DERReader(input: name, from: seq.contentStart, to: seq.end)
            while !rdns.isAtEnd {
                guard let set = try? rdns.read(.set) else { return }
                out.append(0xA5, &hasher)
                var atvs = DERReader(input: name, from: set.contentStart, to: set.end)
                while !atvs.isAtEnd {
                    guard let atv = try? atvs.read(.sequence) else { return }
                    var fields = DERReader(input: name, from: atv.contentStart, to: atv.end)
                    guard let type = try? fields.read(.objectIdentifier), let value = try? fields.readAny() else { return }
                    out.append(0x5A, &hasher)
                    out.append(type.content, &hasher)
                    if DERString.isStringTag(value.tag) {
                        Self.appendNormalized(tag: value.tag, value.content, &out, &hasher)
                    } else {
                        out.append(0xFF, &hasher)
                        out.append(value.encoded, &hasher)
                    }
                }
            }
        }
        out.flush(&hasher)
        return hasher.finalize()
    }

    /// The value's scalars after `NormalizedScalars` (leading and trailing spaces dropped, inner
    /// runs collapsed to one, A–Z folded), as UTF-8.
    static func appendNormalized(tag: DERTag, _ bytes: UnsafeRawBufferPointer, _ out: inout ChunkedBytes, _ hasher: inout Hasher) {
        // ASCII fast path: for every single-byte string type and for UTF-8, a byte below 0x80 is
        // the scalar of the same value, whose UTF-8 encoding is that byte.
        if tag != .bmpString && tag != .universalString && !bytes.contains(where: { $0 >= 0x80 }) {
            var started = false, sawSpace = false
            for b in bytes {
                if b == 0x20 { sawSpace = true; continue }
                if sawSpace && started { out.append(0x20, &hasher) }
                sawSpace = false
                started = true
                out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b, &hasher)
            }
            return
        }
        var it = NormalizedScalars(DERString(tag: tag, bytes: bytes, offset: 0).makeScalarIterator())
        while let c = it.next() {
            for unit in UTF8.encode(c)! { out.append(unit, &hasher) }
        }
    }
}

/// A small buffer in front of a `Hasher`: bytes are fed in chunks (the hasher's result
/// depends only on the byte sequence, not on how it is split).
struct ChunkedBytes {
    private var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0

    mutating func append(_ b: UInt8, _ hasher: inout Hasher) {
        if count == 64 { flush(&hasher) }
        withUnsafeMutableBytes(of: &buffer) { $0[count] = b }
        count += 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer, _ hasher: inout Hasher) {
        for b in bytes { append(b, &hasher) }
    }

    mutating func flush(_ hasher: inout Hasher) {
        let n = count
        withUnsafeBytes(of: &buffer) { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        count = 0
    }
}
