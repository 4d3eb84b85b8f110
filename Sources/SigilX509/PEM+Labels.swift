@_spi(SigilInternal) import SigilDER

extension PEM {
    /// The DER of every block of `text` whose label is one of `labels` (RFC 7468: e.g.
    /// `X509 CRL`, §6), in order; other blocks are skipped. Same strictness as
    /// `decodeBlocks(_:)` (base64 alphabet and padding, no headers, matching END label); errors
    /// carry the 1-based line number. `maximumInputSize` bounds the text.
    public static func decodeBlocks(_ text: [UInt8], labels: [String], maximumInputSize: Int = PEM.maximumInputSize)
        throws(DERError) -> [[UInt8]]
    {
        guard text.count <= maximumInputSize else { throw DERError(.tooLarge, at: 0) }
        let wanted = labels.map { Array($0.utf8) }
        var out: [[UInt8]] = []
        var lines = LineIterator(text)
        while let (line, lineNumber) = lines.next() {
            guard let label = beginLabel(line) else { continue }
            let keep = wanted.contains { label.elementsEqual($0) }
            var body: [UInt8] = []
            var ended = false
            var sawPadding = false
            while let (inner, n) = lines.next() {
                if let endLabel = endLabel(inner) {
                    guard endLabel.elementsEqual(label) else { throw DERError(.invalidPEM, at: n) }
                    ended = true
                    break
                }
                for c in inner {
                    if Base64.decodeTable[Int(c)] != 0xFF {
                        if sawPadding { throw DERError(.invalidBase64, at: n) }
                        if keep { body.append(c) }
                    } else if c == 0x3D {
                        sawPadding = true
                        if keep { body.append(c) }
                    } else if c != 0x20 && c != 0x09 {
                        throw DERError(.invalidBase64, at: n)
                    }
                }
            }
            guard ended else { throw DERError(.invalidPEM, at: lineNumber) }
            if keep {
                guard let der = Base64.decode(body) else { throw DERError(.invalidBase64, at: lineNumber + 1) }
                out.append(der)
            }
        }
        return out
    }
}
