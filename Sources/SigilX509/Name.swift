@_spi(SigilInternal) import SigilDER

/// `Name ::= RDNSequence`, `RDNSequence ::= SEQUENCE OF RelativeDistinguishedName`,
/// `RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue`,
/// `AttributeTypeAndValue ::= SEQUENCE { type OID, value ANY DEFINED BY type }` (RFC 5280 §4.1.2.4).
///
/// A view over the encoded name (the whole SEQUENCE TLV). Names inside a parsed `Certificate`
/// were validated during parsing, so iterating them cannot fail.
public struct DistinguishedName: Sequence, Sendable {
    /// The whole encoding (tag, length, content).
    public let encoded: ByteSpan

    /// A view over a span the parser validated (internal: iterating assumes valid DER).
    @inlinable init(encoded: ByteSpan) { self.encoded = encoded }

    /// A name from its DER encoding (`Name ::= RDNSequence`), validated as a certificate's
    /// names are (structure, non-empty RDNs, string values) and required to be the whole input.
    public init(der: [UInt8]) throws(DERError) {
        // Spans hold 32-bit offsets (`ByteSpan`).
        guard der.count <= Int(UInt32.max) else { throw DERError(.tooLarge, at: 0) }
        let end: Int = try withStorage(der) { (buf) throws(DERError) -> Int in
            var r = DERReader(buf)
            let v = try DistinguishedName.validate(&r)
            try r.finish()
            return v.end
        }
        self.init(encoded: ByteSpan(der, 0, end))
    }

    /// True when the name has no RDNs (an empty SEQUENCE).
    public var isEmpty: Bool { encoded.count <= 2 }

    /// The RDNs, in encoding order (most significant first).
    public func makeIterator() -> Iterator { Iterator(encoded) }

    /// Iterates the elements of a validated encoding, without allocating: the headers are read
    /// as the list iterators read theirs (`ListCursor`, bounds-checked; the strict reader
    /// validated the name when it was parsed), a malformed element ending the walk.
    public struct Iterator: IteratorProtocol {
        var cursor: ListCursor

        init(_ span: ByteSpan) { cursor = ListCursor(contentOf: span) }

        /// The next RDN; nil at the end.
        public mutating func next() -> RelativeDistinguishedName? {
            guard let e = cursor.next(), e.tag == 0x31 else { return nil }
            return RelativeDistinguishedName(encoded: ByteSpan(cursor.storage, e.start, e.end))
        }
    }

    /// Validates the structure and every string value (called while parsing a certificate).
    static func validate(_ reader: inout DERReader) throws(DERError) -> DERValue {
        let name = try reader.read(.sequence)
        // The usual name (string values, short lengths) is decided over the raw octets; any
        // other goes through the readers below, which decide it and report its error.
        if name.isValidStringRDNSequence() { return name }
        try validateWithReaders(name)
        return name
    }

    /// The full validation of a name read as `name` (every form, every error): what decides
    /// a name `isValidStringRDNSequence()` does not accept.
    @inline(never)
    static func validateWithReaders(_ name: DERValue) throws(DERError) {
        try DERReader.enter(name) { (rdns) throws(DERError) in
            while !rdns.isAtEnd {
                try rdns.enter(.set) { (set) throws(DERError) in
                    // RFC 5280 §4.1.2.4: RelativeDistinguishedName ::= SET SIZE (1..MAX).
                    if set.isAtEnd { throw DERError(.invalidName, at: set.position) }
                    // Tolerated: the components of a multi-valued RDN are not required to be
                    // in DER SET OF order (X.690 §11.6); CAs have issued unsorted ones.
                    while !set.isAtEnd { try validateAttribute(&set) }
                }
            }
        }
    }

    /// Reads and validates one `AttributeTypeAndValue ::= SEQUENCE { type OID, value ANY
    /// DEFINED BY type }` (RFC 5280 §4.1.2.4): a string value is checked against its type's
    /// character set (`DERString`); an attribute type whose syntax is a string
    /// (`AttributeSyntax`: CN, O, C, DC, emailAddress, …) must have one of those string types
    /// (`.invalidName` at the value otherwise); any other value is checked as strict DER of an
    /// unknown type (`DERValue.validateAsAny`, X.690 §8.1.2.5, §10). Used for every Name and for
    /// the RDNs of distribution point names.
    @inline(__always)
    static func validateAttribute(_ reader: inout DERReader) throws(DERError) {
        try reader.enter(.sequence) { (atv) throws(DERError) in
            let type = try atv.readObjectIdentifier()
            let value = try atv.readAny()
            if DERString.isStringTag(value.tag) {
                // The common case: a string of a type Sigil decodes (checked as before).
                _ = try DERString(value)
                return
            }
            // A string-syntax attribute with a value that is not one of the string types
            // Sigil decodes (an INTEGER, a SEQUENCE, a [PRIVATE 16], a VideotexString, …).
            if AttributeSyntax(type: type) != nil { throw DERError(.invalidName, at: value.start) }
            try value.validateAsAny()
        }
    }

    /// RFC 4514 §2 string: RDNs in reverse order separated by ",", multi-valued RDN members
    /// joined by "+", attribute types by short name (CN, C, L, ST, STREET, O, OU, DC, UID)
    /// or dotted OID, values escaped per §2.4, non-string values as "#" + hex of their encoding.
    public var rfc4514String: String {
        // One byte buffer for the whole name (joining a String per attribute and per RDN cost
        // a fifth of an `inspect` report).
        var out: [UInt8] = []
        out.reserveCapacity(128)
        var first = true
        for rdn in Array(self).reversed() {
            if !first { out.append(0x2C) }
            first = false
            var firstAttribute = true
            for atv in rdn {
                if !firstAttribute { out.append(0x2B) }
                firstAttribute = false
                atv.writeRFC4514(into: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Values of the attributes with the given type, in order (e.g. every CN).
    public func values(of type: [UInt8]) -> [String] {
        var out: [String] = []
        for rdn in self {
            for atv in rdn where atv.type == type { out.append(atv.stringValue ?? ("#" + atv.encodedValue.hex)) }
        }
        return out
    }

    /// Name comparison for path building and name constraints (RFC 5280 §7.1). Byte-identical
    /// encodings match immediately. Otherwise names match when they have the same RDNs in the
    /// same order, and two RDNs match when they have the same number of attributes and each
    /// attribute of one matches a distinct attribute of the other — in any order (§7.1: "for each
    /// naming attribute in RDN1 there is a matching naming attribute in RDN2"; a multi-valued
    /// RDN is a SET, and DER sorts it by encoding, so the same attributes with values in other
    /// string types may come in another order). Attributes match when their types are equal
    /// and their values are equal after the caseIgnoreMatch subset of RFC 4518 Sigil
    /// implements: both values string types (any of the directory string encodings),
    /// leading/trailing spaces removed, inner runs of spaces collapsed, ASCII compared
    /// case-insensitively; non-string values compared byte for byte. Non-ASCII text is compared
    /// exactly (no Unicode case folding or normalisation).
    public func matchesForChaining(_ other: DistinguishedName) -> Bool {
        if encoded == other.encoded { return true }
        var a = makeIterator()
        var b = other.makeIterator()
        while true {
            let x = a.next()
            let y = b.next()
            guard let ra = x, let rb = y else { return x == nil && y == nil }
            if !Self.rdnsMatch(ra, rb) { return false }
        }
    }

    /// Above this many attributes in one RDN the order-free comparison is not tried (the
    /// attributes must then match in order): it is quadratic, and names are attacker-made. No
    /// real name comes near; a constraint or issuer name that did would only match less.
    static let maximumUnorderedRDNSize = 64

    /// §7.1 for two RDNs: the same attributes, as a set (`matchesForChaining`).
    @_spi(SigilInternal) public static func rdnsMatch(_ ra: RelativeDistinguishedName, _ rb: RelativeDistinguishedName)
        -> Bool
    {
        // In order first: single-valued RDNs, and multi-valued ones encoded alike.
        var ia = ra.makeIterator()
        var ib = rb.makeIterator()
        var inOrder = true
        var count = 0
        while true {
            let p = ia.next()
            let q = ib.next()
            guard let va = p, let vb = q else {
                if p != nil || q != nil { return false }  // not the same number of attributes
                break
            }
            count += 1
            if inOrder && !(va.type == vb.type && va.valueMatches(vb)) { inOrder = false }
        }
        if inOrder { return true }
        if count < 2 || count > maximumUnorderedRDNSize { return false }
        // Each attribute of `ra` takes a distinct, not yet taken attribute of `rb`.
        var taken: UInt64 = 0
        for va in ra {
            var k = 0
            var found = false
            for vb in rb {
                if taken & (1 << UInt64(k)) == 0 && va.type == vb.type && va.valueMatches(vb) {
                    taken |= 1 << UInt64(k)
                    found = true
                    break
                }
                k += 1
            }
            if !found { return false }
        }
        return true
    }
}

extension DistinguishedName {
    /// This name with one more RDN appended, made of `relativeName` — the content of a
    /// nameRelativeToCRLIssuer (a distribution point's name relative to its CRL issuer, RFC 5280
    /// §4.2.1.13, §5.2.5). nil when the result is not a valid name (the RDN's values are
    /// validated as a certificate's are). Allocates the new encoding.
    public func appending(relativeName: ByteSpan) -> DistinguishedName? {
        let header =
            (try? encoded.withUnsafeBytes { (b) throws(DERError) -> Int in
                var r = DERReader(b)
                return try r.read(.sequence).contentStart
            }) ?? encoded.count
        var content = Array(encoded.storage[(encoded.start + header)..<encoded.end])
        content += [0x31] + derLength(relativeName.count) + relativeName.bytes
        return try? DistinguishedName(der: [0x30] + derLength(content.count) + content)
    }
}

/// A DER length field for `n` content octets (X.690 §8.1.3, definite form, minimal).
func derLength(_ n: Int) -> [UInt8] {
    if n < 0x80 { return [UInt8(n)] }
    var bytes: [UInt8] = []
    var v = n
    while v > 0 {
        bytes.insert(UInt8(v & 0xFF), at: 0)
        v >>= 8
    }
    return [0x80 | UInt8(bytes.count)] + bytes
}

/// One RDN: a SET of attribute type-and-value pairs.
public struct RelativeDistinguishedName: Sequence, Sendable {
    /// The whole SET encoding.
    public let encoded: ByteSpan

    /// The attribute type-and-value pairs, in encoding order.
    public func makeIterator() -> Iterator { Iterator(cursor: ListCursor(contentOf: encoded)) }

    /// Iterates the elements of a validated encoding, without allocating (headers read as the
    /// name iterator reads them, `ListCursor`).
    public struct Iterator: IteratorProtocol {
        var cursor: ListCursor

        /// The next attribute; nil at the end.
        public mutating func next() -> NameAttribute? {
            // AttributeTypeAndValue ::= SEQUENCE { type OID, value ANY }: exactly two TLVs.
            guard let atv = cursor.next(), atv.tag == 0x30,
                let (type, value) = ListCursor.pair(in: atv, storage: cursor.storage), type.tag == 0x06
            else { return nil }
            return NameAttribute(
                storage: cursor.storage, type: (type.contentStart, type.end), valueTag: DERTag(rawValue: value.tag),
                value: (value.start, value.contentStart, value.end))
        }
    }
}

/// An attribute of a name: its type OID and value.
public struct NameAttribute: Sendable {
    // One storage reference and five 32-bit offsets (as `ByteSpan`'s; the value's content and
    // its whole encoding end together): four words, so an attribute (and an Optional of it) is
    // returned and destroyed in registers — with three spans, each attribute a caller dropped
    // went through the type's value witness (callgrind: ~130 instructions each) and cost three
    // reference counts.
    @usableFromInline let storage: [UInt8]
    @usableFromInline let offsets:
        (typeStart: UInt32, typeEnd: UInt32, start: UInt32, contentStart: UInt32, end: UInt32)
    /// The value's tag (a string type, or any other ASN.1 type).
    public let valueTag: DERTag

    /// OID content octets.
    @inlinable public var type: ByteSpan { ByteSpan(storage, Int(offsets.typeStart), Int(offsets.typeEnd)) }
    /// The value's content octets.
    @inlinable public var value: ByteSpan { ByteSpan(storage, Int(offsets.contentStart), Int(offsets.end)) }
    /// The value's whole encoding (tag, length, content).
    @inlinable public var encodedValue: ByteSpan { ByteSpan(storage, Int(offsets.start), Int(offsets.end)) }

    /// The attribute whose type OID content is `storage[type]` and whose value TLV starts at
    /// `value.0`, its content at `value.1`, both ending at `value.2`.
    init(storage: [UInt8], type: (Int, Int), valueTag: DERTag, value: (Int, Int, Int)) {
        self.storage = storage
        self.offsets = (
            UInt32(truncatingIfNeeded: type.0), UInt32(truncatingIfNeeded: type.1),
            UInt32(truncatingIfNeeded: value.0), UInt32(truncatingIfNeeded: value.1), UInt32(value.2)
        )
        self.valueTag = valueTag
    }

    /// Dotted-decimal OID of the type.
    @available(*, deprecated, message: "use OID.dotted(type), the one dotted-OID spelling")
    public var typeDotted: String { OID.dotted(type) }

    /// RFC 4514 short name, or nil.
    public var typeShortName: String? { type.withUnsafeBytes { b in OID.attributeShortName(b) } }

    /// The value decoded as text when it is a string type.
    public var stringValue: String? {
        guard DERString.isStringTag(valueTag) else { return nil }
        return value.withUnsafeBytes { b in DERString(tag: valueTag, bytes: b, offset: 0).string }
    }

    /// `TYPE=value` as RFC 4514 §2.3 writes it (§2.4 escaping, `#hex` for non-strings).
    public var rfc4514String: String {
        let key = typeShortName ?? OID.dotted(type)
        guard let s = stringValue else { return key + "=#" + encodedValue.hex }
        return key + "=" + rfc4514Escape(s)
    }

    /// Appends ``rfc4514String``'s UTF-8 to `out`.
    func writeRFC4514(into out: inout [UInt8]) {
        if let short = typeShortName { out += short.utf8 } else { out += OID.dotted(type).utf8 }
        out.append(0x3D)
        guard let s = stringValue else {
            out.append(0x23)
            out += encodedValue.hex.utf8
            return
        }
        out += rfc4514Escape(s).utf8
    }

    func valueMatches(_ other: NameAttribute) -> Bool {
        let sa = DERString.isStringTag(valueTag)
        let sb = DERString.isStringTag(other.valueTag)
        if !sa || !sb { return encodedValue == other.encodedValue }
        return value.withUnsafeBytes { x in
            other.value.withUnsafeBytes { y in
                NormalizedScalars.equal(
                    DERString(tag: valueTag, bytes: x, offset: 0), DERString(tag: other.valueTag, bytes: y, offset: 0))
            }
        }
    }
}

/// Scalars with RFC 4518 §2.6 insignificant-space handling (simplified to U+0020) and ASCII
/// case folding, produced lazily.
struct NormalizedScalars: IteratorProtocol {
    var base: DERString.ScalarIterator
    var started = false
    var lookahead: Unicode.Scalar?

    init(_ base: DERString.ScalarIterator) { self.base = base }

    /// Whether two strings have the same scalars after this normalisation (RFC 5280 §7.1).
    static func equal(_ a: DERString, _ b: DERString) -> Bool {
        var i = NormalizedScalars(a.makeScalarIterator())
        var j = NormalizedScalars(b.makeScalarIterator())
        while true {
            let p = i.next()
            let q = j.next()
            if p != q { return false }
            if p == nil { return true }
        }
    }

    mutating func next() -> Unicode.Scalar? {
        if let l = lookahead {
            lookahead = nil
            return fold(l)
        }
        var sawSpace = false
        while let c = base.next() {
            if c == " " {
                sawSpace = true
                continue
            }
            if sawSpace && started {
                lookahead = c
                return " "
            }
            started = true
            return fold(c)
        }
        return nil  // trailing spaces dropped
    }

    func fold(_ c: Unicode.Scalar) -> Unicode.Scalar {
        if c.value >= 0x41 && c.value <= 0x5A { return Unicode.Scalar(c.value + 0x20)! }
        return c
    }
}

extension DistinguishedName {
    /// Appends ``rfc4514String``'s UTF-8 to `out` — the same bytes — without building a String
    /// per attribute or for the name (the bulk `inspect --json` path).
    public func appendRFC4514(to out: inout [UInt8]) { appendRFC4514(into: &out) }

    /// ``appendRFC4514(to:)`` into a ``ByteOutput`` (the bulk JSON writer's buffer).
    @_spi(SigilInternal)
    public func appendRFC4514(to out: inout ByteOutput) { appendRFC4514(into: &out) }

    func appendRFC4514<S: ByteSink>(into out: inout S) {
        encoded.withUnsafeBytes { b in
            var r = DERReader(b)
            guard let name = try? r.read(.sequence) else { return }
            // RFC 4514 §2.1: the last RDN first. The RDNs' places, then written in reverse.
            var count = 0
            var c = DERReader(name.content)
            while !c.isAtEnd, (try? c.readAny()) != nil { count += 1 }
            if count == 0 { return }
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: count) { places in
                var c = DERReader(name.content)
                for i in 0..<count {
                    guard let v = try? c.readAny() else { return }
                    places[i] = (v.contentStart, v.end)
                }
                for i in stride(from: count - 1, through: 0, by: -1) {
                    if i != count - 1 { out.append(0x2C) }
                    let (start, end) = places[i]
                    var atvs = DERReader(UnsafeRawBufferPointer(rebasing: name.content[start..<end]))
                    var first = true
                    while !atvs.isAtEnd {
                        guard let atv = try? atvs.read(.sequence) else { break }
                        var t = DERReader(atv.content)
                        guard let type = try? t.read(.objectIdentifier), let value = try? t.readAny() else { break }
                        if !first { out.append(0x2B) }
                        first = false
                        NameAttribute.appendRFC4514(type: type.content, value: value, to: &out)
                    }
                }
            }
        }
    }
}

extension NameAttribute {
    /// `TYPE=value` (``rfc4514String``) appended as UTF-8.
    static func appendRFC4514<S: ByteSink>(type: UnsafeRawBufferPointer, value: DERValue, to out: inout S) {
        if type.count == 3 && type[0] == 0x55 && type[1] == 0x04, let short = shortName2_5_4(type[2]) {
            // The X.520 attributes (2.5.4.x) of `OID.attributeNames`, without a table scan.
            short.withUTF8Buffer { out.append(bytes: UnsafeRawBufferPointer($0)) }
        } else if let short = OID.attributeShortName(type) {
            var short = short
            short.withUTF8 { out.append(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            DERValue.appendDottedObjectIdentifier(type, into: &out)
        }
        out.append(0x3D)
        guard DERString.isStringTag(value.tag) else {
            out.append(0x23)
            appendHex(value.encoded, to: &out)
            return
        }
        let content = value.content
        if value.tag != .bmpString && value.tag != .universalString && rfc4514Plain(content) {
            // ASCII needing no escape (the usual value): the octets as they are, one copy.
            out.append(bytes: content)
            return
        }
        var text: [UInt8] = []
        if value.tag != .bmpString && value.tag != .universalString && !content.contains(where: { $0 >= 0x80 }) {
            text.append(contentsOf: content)
        } else {
            var it = DERString(tag: value.tag, bytes: content, offset: 0).makeScalarIterator()
            while let c = it.next() { UTF8.encode(c) { text.append($0) } }
        }
        rfc4514AppendEscaped(text, to: &out)
    }
}

/// The RFC 4514 §3 short name of X.520 attribute 2.5.4.`arc`, for the arcs
/// `OID.attributeNames` lists (CN, C, L, ST, STREET, O, OU); nil for the others.
@inline(__always)
func shortName2_5_4(_ arc: UInt8) -> StaticString? {
    switch arc {
    case 3: return "CN"
    case 6: return "C"
    case 7: return "L"
    case 8: return "ST"
    case 9: return "STREET"
    case 10: return "O"
    case 11: return "OU"
    default: return nil
    }
}

/// Lowercase hex of `bytes` appended as ASCII (what `hexString` gives).
func appendHex<S: ByteSink>(_ bytes: UnsafeRawBufferPointer, to out: inout S) {
    let digits: StaticString = "0123456789abcdef"
    digits.withUTF8Buffer { d in
        for b in bytes {
            out.append(d[Int(b >> 4)])
            out.append(d[Int(b & 15)])
        }
    }
}

/// True when `v` is ASCII that `rfc4514Escape` leaves as it is (RFC 4514 §2.4): no octet
/// ≥ 0x80, none of `"` `+` `,` `;` `<` `>` `\` NUL, no `#` or space first, no space last.
/// One pass over the octets: eight at a time, then a bit test each (the escaped ASCII octets
/// are all below 0x40 but `\`).
@inline(__always)
func rfc4514Plain(_ v: UnsafeRawBufferPointer) -> Bool {
    let n = v.count
    if n == 0 { return true }
    if v[0] == 0x23 || v[0] == 0x20 || v[n - 1] == 0x20 { return false }
    // Bits 0x00, 0x22, 0x2B, 0x2C, 0x3B, 0x3C, 0x3E of the octets below 0x40.
    let low: UInt64 = 1 << 0x00 | 1 << 0x22 | 1 << 0x2B | 1 << 0x2C | 1 << 0x3B | 1 << 0x3C | 1 << 0x3E
    var bad: UInt64 = 0
    // Eight octets at a time: a high bit set, or an octet equal to one of the eight escaped
    // ones (`(y - 0x01…) & ~y & 0x80…` is non-zero exactly when `y` holds a zero octet, with
    // `y` the word XOR the octet repeated); the rest one at a time below.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    var i = 0
    while n - i >= 8 {
        let x = v.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        @inline(__always) func zero(_ y: UInt64) -> UInt64 { (y &- ones) & ~y & high }
        bad |= x & high | zero(x) | zero(x ^ 0x2222_2222_2222_2222) | zero(x ^ 0x2B2B_2B2B_2B2B_2B2B)
        bad |= zero(x ^ 0x2C2C_2C2C_2C2C_2C2C) | zero(x ^ 0x3B3B_3B3B_3B3B_3B3B) | zero(x ^ 0x3C3C_3C3C_3C3C_3C3C)
        bad |= zero(x ^ 0x3E3E_3E3E_3E3E_3E3E) | zero(x ^ 0x5C5C_5C5C_5C5C_5C5C)
        i += 8
    }
    for c in UnsafeRawBufferPointer(rebasing: v[i...]) {
        // c < 0x40: the bitmap bit; c ≥ 0x80: the high bit; 0x5C: itself.
        let lowHit = c < 0x40 ? (low >> UInt64(c)) & 1 : 0
        bad |= lowHit | UInt64(c >> 7) | (c == 0x5C ? 1 : 0)
    }
    return bad == 0
}

/// `rfc4514Escape` of the UTF-8 `value`, appended to `out`: the characters it escapes are all
/// ASCII, and the first and last scalars are spaces or `#` exactly when the first and last
/// octets are.
func rfc4514AppendEscaped<S: ByteSink>(_ value: [UInt8], to out: inout S) {
    for (i, c) in value.enumerated() {
        switch c {
        case 0x5C, 0x22, 0x2B, 0x2C, 0x3B, 0x3C, 0x3E:
            out.append(0x5C)
            out.append(c)
        case 0x23 where i == 0:
            out.append(0x5C)
            out.append(0x23)
        case 0x20 where i == 0 || i == value.count - 1:
            out.append(0x5C)
            out.append(0x20)
        case 0x00:
            out.append(0x5C)
            out.append(0x30)
            out.append(0x30)
        default:
            out.append(c)
        }
    }
}

/// RFC 4514 §2.4 escaping of an attribute value.
func rfc4514Escape(_ s: String) -> String {
    // Most values need no escaping: check the UTF-8 once and return the string as it is (the
    // scalar-by-scalar copy below dominated `inspect` reports).
    var copy = s
    let plain = copy.withUTF8 { u -> Bool in
        guard let first = u.first else { return true }
        if first == 0x23 || first == 0x20 || u[u.count - 1] == 0x20 { return false }
        for b in u {
            switch b {
            case 0x5C, 0x22, 0x2B, 0x2C, 0x3B, 0x3C, 0x3E, 0x00: return false
            default: continue
            }
        }
        return true
    }
    if plain { return s }
    var out = ""
    let scalars = Array(s.unicodeScalars)
    for (i, c) in scalars.enumerated() {
        switch c {
        case "\\", "\"", "+", ",", ";", "<", ">":
            out += "\\" + String(c)
        case "#" where i == 0:
            out += "\\#"
        case " " where i == 0 || i == scalars.count - 1:
            out += "\\ "
        case "\u{0}":
            out += "\\00"
        default:
            out.unicodeScalars.append(c)
        }
    }
    return out
}

/// Reads the next TLV at `position` (absolute) in `storage`, advancing it; nil at the end or on
/// a malformed value (which validated spans never contain).
@usableFromInline
func nextValue(_ storage: [UInt8], _ position: inout Int, _ end: Int) -> ByteSpan? {
    guard position < end else { return nil }
    let p = position
    let next: Int? = try? withStorage(storage) { (b) throws(DERError) -> Int in
        var r = DERReader(input: b, from: p, to: end)
        return try r.readAny().end
    }
    guard let n = next else {
        position = end
        return nil
    }
    position = n
    return ByteSpan(storage, p, n)
}

/// Offset of the first content octet of the TLV starting the span.
func headerEnd(_ span: ByteSpan) -> Int {
    let v: Int? = try? withStorage(span.storage) { (b) throws(DERError) -> Int in
        var r = DERReader(input: b, from: span.start, to: span.end)
        return try r.readAny().contentStart
    }
    return v ?? span.end
}

extension DistinguishedName {
    /// A hash consistent with `matchesForChaining` (names that match hash equally), used to
    /// index candidate issuers by subject: feeds `chainingKey` (ChainingKey.swift, the one
    /// implementation of the RFC 5280 §7.1 normalised hash) to `hasher`. No allocation.
    public func chainingHash(into hasher: inout Hasher) {
        hasher.combine(chainingKey)
    }

    /// A hash consistent with `matchesForChaining` as a value (equal to `chainingKey`).
    public var chainingHashValue: Int { chainingKey }
}

/// The value syntax X.520 and RFC 5280 (Appendix A.1, §4.1.2.4) give an attribute type whose
/// value is a character string. `DirectoryString ::= CHOICE { teletexString, printableString,
/// universalString, utf8String, bmpString }`.
///
/// Sigil's strict parser requires a value of one of the string types it decodes (`DERString`:
/// UTF8, Printable, IA5, Visible, Numeric, BMP, Universal, Teletex) for these types, but not the
/// exact one named here: a UTF8String countryName is accepted, as OpenSSL and pyca accept it.
/// `sigil inspect` warns when the type differs from the one named here (`allows`).
public enum AttributeSyntax: Sendable, Hashable {
    /// DirectoryString (X.520 §6: name, commonName, surname, givenName, initials,
    /// generationQualifier, localityName, stateOrProvinceName, streetAddress, organizationName,
    /// organizationalUnitName, title, description, businessCategory, postalCode,
    /// postOfficeBox, pseudonym, organizationIdentifier; UID, RFC 4519 §2.39; the EV
    /// jurisdictionLocality / StateOrProvince, CA/B EV Guidelines §9.2.4).
    case directoryString
    /// PrintableString: countryName and jurisdictionCountryName (SIZE (2)), serialNumber,
    /// dnQualifier, telephoneNumber (RFC 5280 Appendix A.1; X.520).
    case printableString
    /// IA5String: emailAddress (RFC 5280 Appendix A.1, PKCS #9) and domainComponent (RFC 4519
    /// §2.4, RFC 5280 §4.1.2.4).
    case ia5String

    /// The syntax of the attribute type with OID content `type`, or nil when Sigil does not
    /// know the type as a string one (its value is then `ANY`).
    public init?(type: UnsafeRawBufferPointer) {
        let n = type.count
        if n == 3 && type[0] == 0x55 && type[1] == 0x04 {
            // id-at (2.5.4.x)
            switch type[2] {
            case 3, 4, 7, 8, 9, 10, 11, 12, 13, 15, 17, 18, 41, 42, 43, 44, 65, 97:
                self = .directoryString
            case 5, 6, 20, 46:
                self = .printableString
            default:
                return nil
            }
            return
        }
        if n == 10 && OID.domainComponent.matches(type) {
            self = .ia5String
        } else if n == 10 && OID.userID.matches(type) {
            self = .directoryString
        } else if n == 9 && OID.emailAddress.matches(type) {
            self = .ia5String
        } else if n == 11 && OID.jurisdictionCountry.matches(type) {
            self = .printableString
        } else if n == 11 && (OID.jurisdictionState.matches(type) || OID.jurisdictionLocality.matches(type)) {
            self = .directoryString
        } else {
            return nil
        }
    }

    /// The syntax of the attribute type with OID content `type`.
    public init?(type: [UInt8]) {
        guard let s = type.withUnsafeBytes({ AttributeSyntax(type: $0) }) else { return nil }
        self = s
    }

    /// Whether a value with string tag `tag` has the type this syntax names.
    public func allows(_ tag: DERTag) -> Bool {
        switch self {
        case .directoryString:
            return tag == .teletexString || tag == .printableString || tag == .universalString
                || tag == .utf8String || tag == .bmpString
        case .printableString: return tag == .printableString
        case .ia5String: return tag == .ia5String
        }
    }

    /// The ASN.1 type(s) it names, for messages.
    public var name: String {
        switch self {
        case .directoryString: return "DirectoryString"
        case .printableString: return "PrintableString"
        case .ia5String: return "IA5String"
        }
    }
}
