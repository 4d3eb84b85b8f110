/// Strict validation of a value whose ASN.1 type is `ANY` (or `ANY DEFINED BY` a type Sigil does
/// not decode): attribute values of unknown types, algorithm parameters of unknown algorithms,
/// otherName values, unknown policy qualifiers, ORAddress / EDIPartyName contents. The value's
/// meaning is unknown, but its *encoding* is still DER and is checked as far as X.690 defines it
/// without knowing the type:
///
/// - X.690 §8.1.2.5, §8.1.5, §10.1: the contents of every constructed encoding are a complete
///   series of data-value encodings (TLVs) with definite, minimal lengths — recursively, within
///   `DERReader.maximumDepth` (every nested TLV read by `readAny`, which also refuses the
///   high-tag form and `[UNIVERSAL 0]`).
/// - Universal types fix the form: SEQUENCE and SET are constructed (X.690 §8.9.1, §8.11.1, as
///   are EXTERNAL §8.18.1, EMBEDDED PDV §8.17 and CHARACTER STRING §8.24); in DER every other
///   universal type is primitive — BOOLEAN §8.2.1, INTEGER §8.3.1, ENUMERATED §8.4, NULL §8.8.1,
///   OBJECT IDENTIFIER §8.19.1, RELATIVE-OID §8.20.1, and the string and time types, which X.690
///   §10.2 forbids in the constructed form (BIT STRING, OCTET STRING, restricted character
///   strings; UTCTime and GeneralizedTime are VisibleStrings, §8.25, §8.26).
/// - The universal primitives whose DER contents X.690 pins down are checked: BOOLEAN §11.1,
///   INTEGER and ENUMERATED §8.3.2 / §8.4, NULL §8.8.2, OBJECT IDENTIFIER §8.19.2, BIT STRING
///   §11.2. Character sets of string types are the caller's business (`DERString`), since
///   what a field may hold depends on its type.
///
/// Context-specific, application and private primitives are opaque octets: nothing to check.
/// Nothing is allocated; the common values (strings, NULL, OIDs, short SEQUENCEs) cost a switch
/// on the tag and, for constructed ones, one `readAny` per element.
extension DERValue {
    /// Checks this value as DER whatever its type (see the type-level comment above).
    @inlinable
    public func validateAsAny() throws(DERError) {
        let t = tag.rawValue
        if t & 0x20 == 0 {
            // Primitive. Non-universal classes carry opaque octets.
            if t & 0xC0 != 0 { return }
            switch t {
            case 0x01: _ = try decodeBoolean()  // §11.1
            case 0x02, 0x0A: _ = try _decodeIntegerBytes()  // §8.3.2, §8.4
            case 0x03: _ = try decodeBitString()  // §11.2
            case 0x05: try decodeNull()  // §8.8.2
            case 0x06: _ = try decodeObjectIdentifier()  // §8.19.2
            case 0x08, 0x0B, 0x10, 0x11, 0x1D:
                // EXTERNAL, EMBEDDED PDV, SEQUENCE, SET, CHARACTER STRING: always constructed.
                throw DERError(.unexpectedTag, at: start)
            default: return
            }
            return
        }
        if t & 0xC0 == 0 {
            // Universal constructed: only the structured types (§8.9.1, §8.11.1, §8.17, §8.18,
            // §8.24); DER forbids the constructed form for every other universal type (§10.2).
            switch t & 0x1F {
            case 0x08, 0x0B, 0x10, 0x11, 0x1D: break
            default: throw DERError(.unexpectedTag, at: start)
            }
        }
        try validateConstructedContents()
    }

    /// The contents of a constructed value: a complete series of TLVs, each valid as ANY
    /// (X.690 §8.1.2.5), nested at most `DERReader.maximumDepth` deep (`DERReader.enter`).
    @usableFromInline
    func validateConstructedContents() throws(DERError) {
        try DERReader.enter(self) { (r) throws(DERError) in
            while !r.isAtEnd { try r.readAny().validateAsAny() }
        }
    }
}

extension DERReader {
    /// Reads the next value of an `ANY`-typed field, validated with `DERValue.validateAsAny()`.
    @inlinable
    public mutating func readAnyValue() throws(DERError) -> DERValue {
        let v = try readAny()
        try v.validateAsAny()
        return v
    }
}
