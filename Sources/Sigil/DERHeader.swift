/// A DER identifier and length header with a minimal definite length (X.690 §8.1.3.4–5,
/// §10.1): what the lenient reader's re-encoder (`DERWriter`) and the precertificate TBS
/// reconstruction (`PrecertificateTBS`) write in front of contents they rebuilt.
enum DERHeader {
    /// Octets of the header of contents of `length` octets (one-octet tag).
    static func count(_ length: Int) -> Int {
        if length < 0x80 { return 2 }
        var k = 0
        var v = length
        while v > 0 {
            k += 1
            v >>= 8
        }
        return 2 + k
    }

    /// Appends `tag` and the minimal definite length `length`.
    static func append(_ out: inout [UInt8], tag: UInt8, length: Int) {
        out.append(tag)
        if length < 0x80 {
            out.append(UInt8(length))
            return
        }
        let k = count(length) - 2
        out.append(0x80 | UInt8(k))
        for i in stride(from: k - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: length >> (8 * i))) }
    }
}
