@_spi(SigilInternal) import SigilDER

/// `GeneralName ::= CHOICE {
///     otherName                 [0] AnotherName,
///     rfc822Name                [1] IA5String,
///     dNSName                   [2] IA5String,
///     x400Address               [3] ORAddress,
///     directoryName             [4] Name,
///     ediPartyName              [5] EDIPartyName,
///     uniformResourceIdentifier [6] IA5String,
///     iPAddress                 [7] OCTET STRING,
///     registeredID              [8] OBJECT IDENTIFIER }`   (RFC 5280 §4.2.1.6, implicit tags)
///
/// Each case holds a view of the certificate's bytes.
public enum GeneralName: Sendable {
    /// `AnotherName ::= SEQUENCE { type-id OID, value [0] EXPLICIT ANY }`: the type OID content
    /// and the encoding of the inner value.
    case otherName(typeID: ByteSpan, value: ByteSpan)
    /// An e-mail address: the IA5String content (checked to be IA5, not checked as a mailbox).
    case rfc822Name(ByteSpan)
    /// A DNS name: the IA5String content (checked to be IA5; name syntax is the trust layer's
    /// concern).
    case dnsName(ByteSpan)
    /// The raw ORAddress content (not decoded).
    case x400Address(ByteSpan)
    /// A distinguished name (validated as a Name, RFC 5280 §4.1.2.4).
    case directoryName(DistinguishedName)
    /// The raw EDIPartyName content (not decoded).
    case ediPartyName(ByteSpan)
    /// uniformResourceIdentifier: the IA5String content (checked to be IA5, not parsed as a URI).
    case uri(ByteSpan)
    /// 4 or 16 octets; in name constraints 8 or 32 (address followed by mask, §4.2.1.10).
    case ipAddress(ByteSpan)
    /// OID content octets.
    case registeredID(ByteSpan)

    /// Reads and validates one GeneralName. With `inConstraint`, iPAddress is an address and a
    /// mask (8 or 32 octets) as in name constraints; otherwise 4 or 16 octets.
    static func parse(_ r: inout DERReader, storage: [UInt8], inConstraint: Bool = false) throws(DERError)
        -> GeneralName
    {
        try decodeValidated(try check(&r, inConstraint: inConstraint), storage: storage)
    }

    /// Reads one GeneralName and makes every check `parse` makes, building nothing (no views,
    /// so no reference counting): what the validating passes over a list call. Returns its TLV.
    @discardableResult
    static func check(_ r: inout DERReader, inConstraint: Bool = false) throws(DERError) -> DERValue {
        let v = try r.readAny()
        @inline(__always) func ia5() throws(DERError) {
            if v.tag.isConstructed { throw DERError(.unexpectedTag, at: v.start) }
            try DERString(tag: .ia5String, bytes: v.content, offset: v.contentStart).validate()
        }
        switch v.tag.rawValue {
        case 0xA0:  // [0] otherName
            try DERReader.enter(v) { (o) throws(DERError) in
                let type = try o.read(.objectIdentifier)
                _ = try type.decodeObjectIdentifier()
                // value [0] EXPLICIT ANY DEFINED BY type-id: one value, strict DER (X.690 §8.1.2.5).
                let inner = try o.read(.contextConstructed(0))
                try DERReader.enter(inner) { (x) throws(DERError) in _ = try x.readAnyValue() }
            }
        case 0x81, 0x82, 0x86:  // [1] rfc822Name, [2] dNSName, [6] uniformResourceIdentifier
            try ia5()
        case 0xA3, 0xA5:  // [3] x400Address, [5] ediPartyName (not decoded)
            // IMPLICIT SEQUENCEs Sigil does not decode: their contents still strict DER.
            try v.validateAsAny()
        case 0xA4:  // [4] directoryName
            try DERReader.enter(v) { (d) throws(DERError) in _ = try DistinguishedName.validate(&d) }
        case 0x87:  // [7] iPAddress
            let n = v.contentCount
            let ok = inConstraint ? (n == 8 || n == 32) : (n == 4 || n == 16)
            if !ok { throw DERError(.invalidName, at: v.start) }
        case 0x88:  // [8] registeredID
            _ = try v.decodeObjectIdentifier()
        default:
            throw DERError(.unexpectedTag, at: v.start)
        }
        return v
    }

    /// A short description, e.g. `DNS:example.com`, `IP:192.0.2.1` (allocates; for display).
    public var description: String {
        switch self {
        case .otherName(let t, _):
            return "othername:" + OID.dotted(t)
        case .rfc822Name(let s): return "email:" + s.latin1String
        case .dnsName(let s): return "DNS:" + s.latin1String
        case .x400Address: return "X400Name"
        case .directoryName(let n): return "DirName:" + n.rfc4514String
        case .ediPartyName: return "EdiPartyName"
        case .uri(let s): return "URI:" + s.latin1String
        case .ipAddress(let s): return "IP:" + IPAddressText.format(s.array)
        case .registeredID(let o):
            return "RID:" + OID.dotted(o)
        }
    }
}

extension ByteSpan {
    /// The bytes as text, one character per byte (IA5 content is 7-bit; allocates).
    public var latin1String: String {
        var s = String.UnicodeScalarView()
        for b in bytes { s.append(Unicode.Scalar(b)) }
        return String(s)
    }
}

/// A validated `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName`, iterated in order.
///
/// Only Sigil's parsers make one, and only over a list they validated element by element with
/// `GeneralName.check` (certificate and CRL extensions, CRL entry extensions, distribution
/// points): iteration therefore reads each name's TLV structure (bounds-checked) without
/// repeating the string, name and length checks (`GeneralName.decodeValidated`).
public struct GeneralNames: Sequence, Sendable {
    @usableFromInline let list: ByteSpan

    @inlinable init(list: ByteSpan) { self.list = list }

    /// The names, in encoding order.
    @inlinable public func makeIterator() -> Iterator { Iterator(cursor: ListCursor(list)) }

    /// Walks the names of a validated list; no allocation. `next()` is inlinable, so a loop
    /// over the names compiles to a header read and a switch on the tag per name.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var cursor: ListCursor

        @inlinable init(cursor: ListCursor) { self.cursor = cursor }

        /// The next name; nil at the end.
        @inlinable
        public mutating func next() -> GeneralName? {
            while let e = cursor.next() {
                if let name = GeneralName.decodeValidated(e, storage: cursor.storage) { return name }
            }
            return nil
        }
    }
}

extension GeneralNames {
    /// Calls `body` with each dNSName [2] (`isDNSName` true) and iPAddress [7] entry's content,
    /// in encoding order: the entries `makeIterator()` yields as `.dnsName` / `.ipAddress`, the
    /// only ones host-name checks read (RFC 6125 §6.4), without making the other kinds' values
    /// (directory names, otherNames). Sigil-internal.
    @_spi(SigilInternal) public func forEachHostName(_ body: (_ isDNSName: Bool, _ content: ByteSpan) -> Void) {
        var cursor = ListCursor(list)
        while let e = cursor.next() {
            if e.tag == 0x82 {
                body(true, ByteSpan(cursor.storage, e.contentStart, e.end))
            } else if e.tag == 0x87 {
                body(false, ByteSpan(cursor.storage, e.contentStart, e.end))
            }
        }
    }
}

extension GeneralName {
    /// Decodes a GeneralName TLV that `check` already validated (see `GeneralNames`): the tag
    /// picks the case and the views are made; IA5 contents, directory names and address lengths
    /// are not checked again. Nil for a tag no GeneralName has (never, in a validated list).
    @inlinable @inline(__always)
    static func decodeValidated(_ e: ElementTLV, storage: [UInt8]) -> GeneralName? {
        let content = ByteSpan(storage, e.contentStart, e.end)
        switch e.tag {
        case 0x82: return .dnsName(content)
        case 0x87: return .ipAddress(content)
        case 0x86: return .uri(content)
        case 0x81: return .rfc822Name(content)
        case 0x88: return .registeredID(content)
        case 0xA3: return .x400Address(content)
        case 0xA5: return .ediPartyName(content)
        case 0xA0, 0xA4: return decodeValidatedConstructed(e, storage: storage)
        default: return nil
        }
    }

    /// directoryName [4] and otherName [0]: their inner TLVs are read with the strict reader
    /// (so a span that was not validated still cannot lead outside its bytes).
    @usableFromInline
    static func decodeValidatedConstructed(_ e: ElementTLV, storage: [UInt8]) -> GeneralName? {
        try? withStorage(storage) { (b) throws(DERError) -> GeneralName in
            var r = DERReader(input: b, from: e.contentStart, to: e.end)
            if e.tag == 0xA4 {
                let name = try r.read(.sequence)
                return .directoryName(DistinguishedName(encoded: ByteSpan(storage, name.start, name.end)))
            }
            let type = try r.read(.objectIdentifier)
            let inner = try r.read(.contextConstructed(0))
            return .otherName(
                typeID: ByteSpan(storage, type.contentStart, type.end),
                value: ByteSpan(storage, inner.contentStart, inner.end))
        }
    }

    /// `decodeValidated` for a TLV read by a `DERReader` over `storage`; `.unexpectedTag` for a
    /// tag no GeneralName has.
    static func decodeValidated(_ v: DERValue, storage: [UInt8]) throws(DERError) -> GeneralName {
        let e = ElementTLV(tag: v.tag.rawValue, start: v.start, contentStart: v.contentStart, end: v.end)
        guard let name = decodeValidated(e, storage: storage) else { throw DERError(.unexpectedTag, at: v.start) }
        return name
    }
}

/// Iterates the elements of a validated list (the content span of a SEQUENCE OF), decoding
/// each with a non-capturing function. No allocation.
///
/// `next()` is inlinable so that callers in other modules run it specialised for the element
/// type: unspecialised, every step looked up the generic metadata of `Element?` (a runtime
/// cache behind a lock) and dominated the decoding of a short SAN or AIA list. Each step enters
/// the storage once: it reads the element's TLV and hands it to `decode` (which makes the
/// views; an element it fails on is skipped, which validated lists never have).
public struct SpanListIterator<Element>: IteratorProtocol {
    @usableFromInline let storage: [UInt8]
    @usableFromInline var position: Int
    @usableFromInline let end: Int
    @usableFromInline let decode: ([UInt8], DERValue) throws(DERError) -> Element

    init(_ list: ByteSpan, _ decode: @escaping ([UInt8], DERValue) throws(DERError) -> Element) {
        storage = list.storage
        position = list.start
        end = list.end
        self.decode = decode
    }

    /// The next element; nil at the end.
    @inlinable
    public mutating func next() -> Element? {
        // Locals, not `self`: the calls below cannot reach them, so no retain is needed
        // around each one.
        let storage = self.storage
        let decode = self.decode
        let e = end
        var p = position
        defer { position = p }
        while p < e {
            let at = p
            let step: (Element?, Int) = storage.withUnsafeBytes { b in
                var r = DERReader(input: b, from: at, to: e)
                guard let v = try? r.readAny() else { return (nil, e) }
                return (try? decode(storage, v), v.end)
            }
            p = step.1
            if let element = step.0 { return element }
        }
        return nil
    }
}

/// Text forms of IP addresses: dotted quad for IPv4, RFC 5952 for IPv6 (lowercase, longest run
/// of zero groups compressed), and `address/mask` forms for constraints.
public enum IPAddressText {
    /// 4 octets as a dotted quad, 16 as RFC 5952 text, 8 or 32 as `address/mask`; other lengths as `#` and hex.
    public static func format(_ bytes: [UInt8]) -> String {
        switch bytes.count {
        case 4: return bytes.map(String.init).joined(separator: ".")
        case 16: return ipv6(bytes)
        case 8: return format(Array(bytes[0..<4])) + "/" + format(Array(bytes[4..<8]))
        case 32: return format(Array(bytes[0..<16])) + "/" + format(Array(bytes[16..<32]))
        default: return "#" + ByteSpan.hexString(bytes)
        }
    }

    static func ipv6(_ b: [UInt8]) -> String {
        var groups: [Int] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(Int(b[i]) << 8 | Int(b[i + 1])) }
        // RFC 5952 §4.2: compress the longest run of two or more zero groups (first if tied).
        var bestStart = -1
        var bestLen = 0
        var i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLen && j - i >= 2 {
                    bestStart = i
                    bestLen = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        func hex(_ g: Int) -> String { String(g, radix: 16) }
        if bestStart < 0 { return groups.map(hex).joined(separator: ":") }
        let head = groups[0..<bestStart].map(hex).joined(separator: ":")
        let tail = groups[(bestStart + bestLen)...].map(hex).joined(separator: ":")
        return head + "::" + tail
    }
}
