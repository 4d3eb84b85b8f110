@_spi(SigilInternal) import SigilDER

extension DistinguishedName {
    /// A hash consistent with `matchesForChaining` (RFC 5280 §7.1: names that match have equal
    /// keys), for indexing anchors and pool certificates by subject; `chainingHash(into:)` and
    /// `chainingHashValue` are views of it. Normalization: RFC 4518 insignificant spaces
    /// simplified to U+0020, ASCII case folding, any string type, fed to the hasher as bytes:
    /// each normalized string value as UTF-8, written straight from the encoding when it is
    /// ASCII (the usual case), through the scalar iterator otherwise. A multi-valued RDN, which
    /// matches as a set, is keyed order-free (the sum of its attributes' own hashes): two
    /// spellings of one RDN whose DER SET order differs (a value in another string type) index
    /// alike. No allocation.
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
                var atvs = DERReader(input: name, from: set.contentStart, to: set.end)
                guard let first = try? atvs.read(.sequence) else { return }
                if atvs.isAtEnd {
                    // One attribute (the usual RDN): fed straight to the hasher.
                    out.append(0xA5, &hasher)
                    guard Self.appendAttribute(name, first, &out, &hasher) else { return }
                    continue
                }
                // A multi-valued RDN is a SET and matches in any order (`rdnsMatch`): its key is
                // order-free too — each attribute hashed alone, the hashes summed.
                var sum: UInt64 = 0
                var next: DERValue? = first
                while let atv = next {
                    var h = Hasher()
                    var o = ChunkedBytes()
                    guard Self.appendAttribute(name, atv, &o, &h) else { return }
                    o.flush(&h)
                    sum &+= UInt64(UInt(bitPattern: h.finalize()))
                    if atvs.isAtEnd {
                        next = nil
                    } else {
                        guard let following = try? atvs.read(.sequence) else { return }
                        next = following
                    }
                }
                out.append(0xA6, &hasher)
                withUnsafeBytes(of: sum) { out.append($0, &hasher) }
            }
        }
        out.flush(&hasher)
        return hasher.finalize()
    }

    /// One AttributeTypeAndValue (`atv`, in `name`): its type and normalized value, fed to
    /// `hasher`. False when it does not decode.
    static func appendAttribute(
        _ name: UnsafeRawBufferPointer, _ atv: DERValue, _ out: inout ChunkedBytes, _ hasher: inout Hasher
    ) -> Bool {
        var fields = DERReader(input: name, from: atv.contentStart, to: atv.end)
        guard let type = try? fields.read(.objectIdentifier), let value = try? fields.readAny() else { return false }
        out.append(0x5A, &hasher)
        out.append(type.content, &hasher)
        if DERString.isStringTag(value.tag) {
            appendNormalized(tag: value.tag, value.content, &out, &hasher)
        } else {
            out.append(0xFF, &hasher)
            out.append(value.encoded, &hasher)
        }
        return true
    }

    /// The value's scalars after `NormalizedScalars` (leading and trailing spaces dropped, inner
    /// runs collapsed to one, A–Z folded), as UTF-8.
    static func appendNormalized(
        tag: DERTag, _ bytes: UnsafeRawBufferPointer, _ out: inout ChunkedBytes, _ hasher: inout Hasher
    ) {
        // ASCII fast path: for every single-byte string type and for UTF-8, a byte below 0x80 is
        // the scalar of the same value, whose UTF-8 encoding is that byte.
        if tag != .bmpString && tag != .universalString && !bytes.contains(where: { $0 >= 0x80 }) {
            var started = false
            var sawSpace = false
            for b in bytes {
                if b == 0x20 {
                    sawSpace = true
                    continue
                }
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

extension DistinguishedName {
    /// `matchesForChaining(_:)` (RFC 5280 §7.1 as Sigil implements it) on the raw encodings:
    /// the same rules — byte-identical names match; otherwise the same RDNs with the same
    /// attribute types in the same order, string values equal after `NormalizedScalars`,
    /// other values equal as encodings — without building the iterators' values. ASCII string
    /// values are compared straight from their bytes; a multi-valued RDN that does not match in
    /// order is compared as a set by `matchesForChaining`. Used where names usually differ (is
    /// a certificate self-issued?). No allocation but in that fallback.
    @_spi(SigilInternal) public func matchesForChainingRaw(_ other: DistinguishedName) -> Bool {
        if encoded == other.encoded { return true }
        // nil: a multi-valued RDN did not match in order; `matchesForChaining` compares it as a
        // set (§7.1), as chaining does.
        let raw = encoded.withUnsafeBytes { (x: UnsafeRawBufferPointer) -> Bool? in
            other.encoded.withUnsafeBytes { (y: UnsafeRawBufferPointer) -> Bool? in
                var rx = DERReader(x)
                var ry = DERReader(y)
                guard let sx = try? rx.read(.sequence), let sy = try? ry.read(.sequence) else { return false }
                var nx = DERReader(input: x, from: sx.contentStart, to: sx.end)
                var ny = DERReader(input: y, from: sy.contentStart, to: sy.end)
                while true {
                    if nx.isAtEnd || ny.isAtEnd { return nx.isAtEnd && ny.isAtEnd }
                    guard let setX = try? nx.read(.set), let setY = try? ny.read(.set) else { return false }
                    var ax = DERReader(input: x, from: setX.contentStart, to: setX.end)
                    var ay = DERReader(input: y, from: setY.contentStart, to: setY.end)
                    var second = ax
                    _ = try? second.read(.sequence)
                    let mismatch: Bool? = second.isAtEnd ? false : nil
                    while true {
                        if ax.isAtEnd || ay.isAtEnd {
                            if !(ax.isAtEnd && ay.isAtEnd) { return false }
                            break
                        }
                        guard let atvX = try? ax.read(.sequence), let atvY = try? ay.read(.sequence) else {
                            return false
                        }
                        var fx = DERReader(input: x, from: atvX.contentStart, to: atvX.end)
                        var fy = DERReader(input: y, from: atvY.contentStart, to: atvY.end)
                        guard let tx = try? fx.read(.objectIdentifier), let vx = try? fx.readAny(),
                            let ty = try? fy.read(.objectIdentifier), let vy = try? fy.readAny()
                        else { return false }
                        guard DERValue.bytesEqual(tx.content, ty.content) else { return mismatch }
                        guard Self.valuesMatch(vx, vy) else { return mismatch }
                    }
                }
            }
        }
        if let raw { return raw }
        return matchesForChaining(other)
    }

    /// `NameAttribute.valueMatches` on raw values.
    static func valuesMatch(_ a: DERValue, _ b: DERValue) -> Bool {
        let sa = DERString.isStringTag(a.tag)
        let sb = DERString.isStringTag(b.tag)
        if !sa || !sb { return DERValue.bytesEqual(a.encoded, b.encoded) }
        let ca = a.content
        let cb = b.content
        if isASCIIFast(a.tag, ca) && isASCIIFast(b.tag, cb) {
            var i = NormalizedASCII(ca)
            var j = NormalizedASCII(cb)
            while true {
                let p = i.next()
                let q = j.next()
                if p != q { return false }
                if p == nil { return true }
            }
        }
        return NormalizedScalars.equal(
            DERString(tag: a.tag, bytes: ca, offset: 0), DERString(tag: b.tag, bytes: cb, offset: 0))
    }

    /// Every byte below 0x80 in a type whose such bytes are the scalars of the same value.
    static func isASCIIFast(_ tag: DERTag, _ bytes: UnsafeRawBufferPointer) -> Bool {
        tag != .bmpString && tag != .universalString && !bytes.contains(where: { $0 >= 0x80 })
    }
}

/// `NormalizedScalars` over ASCII bytes (see `DistinguishedName.isASCIIFast`): leading and
/// trailing spaces dropped, inner runs collapsed to one, A–Z folded.
struct NormalizedASCII {
    let bytes: UnsafeRawBufferPointer
    var i = 0
    var started = false

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func next() -> UInt8? {
        var sawSpace = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 {
                sawSpace = true
                i += 1
                continue
            }
            if sawSpace && started { return 0x20 }  // b is read by the next call
            started = true
            i += 1
            return b >= 0x41 && b <= 0x5A ? b + 0x20 : b
        }
        return nil
    }
}
