@_spi(SigilInternal) import SigilDER
import SigilX509

/// The fast path of ``LenientCertificate`` for certificates the strict parser accepted.
///
/// The lenient walk (`Reader`) over a strictly parsed certificate only gathers warnings (the
/// tolerated deviations) and the public-key summary: every field it would read is taken from
/// the strict parser. For the vast majority of certificates it finds nothing, yet it builds a
/// node tree, arrays and strings to say so. `CleanCheck` proves, without allocating, that the
/// walk would find no warning and repair nothing — checking each condition the walk warns
/// about, conservatively — and gives the public-key summary the walk would give. When it
/// cannot prove it (any deviation, or an algorithm it does not cover), it answers nil and the
/// full walk runs, so the report is the same either way (the equivalence is tested over the
/// fixture corpora, `LenientFastPathTests`).
enum CleanCheck {
    /// A DER TLV with a minimal definite length (X.690 §10.1) and a low tag number.
    struct TLV {
        var tag: UInt8
        var start: Int
        var contentStart: Int
        var end: Int
        var isConstructed: Bool { tag & 0x20 != 0 }
        var contentCount: Int { end - contentStart }
    }

    /// The TLV at `p` within `limit`, nil when the walk would warn about its header (indefinite
    /// or non-minimal length) or fail on it.
    @inline(__always)
    static func tlv(_ b: UnsafeRawBufferPointer, _ p: Int, _ limit: Int) -> TLV? {
        guard limit - p >= 2 else { return nil }
        let tag = b[p]
        if tag & 0x1F == 0x1F || tag == 0 { return nil }
        let first = b[p + 1]
        var q = p + 2
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else {
            let n = Int(first & 0x7F)
            guard n >= 1 && n <= 4, limit - q >= n, b[q] != 0 else { return nil }
            length = 0
            for i in 0..<n { length = length << 8 | Int(b[q + i]) }
            if length < 0x80 { return nil }
            q += n
        }
        guard length <= limit - q else { return nil }
        return TLV(tag: tag, start: p, contentStart: q, end: q + length)
    }

    /// True when every constructed value below (and including) `v` holds a series of TLVs with
    /// minimal definite lengths — what `BERReader.parse` reads without a warning.
    static func treeClean(_ b: UnsafeRawBufferPointer, _ v: TLV, depth: Int) -> Bool {
        guard v.isConstructed else { return true }
        guard depth < BERReader.maximumDepth else { return false }
        var p = v.contentStart
        while p < v.end {
            guard let c = tlv(b, p, v.end), treeClean(b, c, depth: depth + 1) else { return false }
            p = c.end
        }
        return true
    }

    /// The elements of a constructed value, one at a time.
    struct Cursor {
        var p: Int
        let end: Int
        init(_ v: TLV) {
            p = v.contentStart
            end = v.end
        }
        var isAtEnd: Bool { p >= end }
        /// The next element; nil at the end or when unreadable.
        @inline(__always)
        mutating func next(_ b: UnsafeRawBufferPointer) -> TLV? {
            guard p < end, let t = tlv(b, p, end) else { return nil }
            p = t.end
            return t
        }
    }

    static func equal(_ b: UnsafeRawBufferPointer, _ v: TLV, _ bytes: [UInt8]) -> Bool {
        guard v.contentCount == bytes.count else { return false }
        for i in 0..<bytes.count where b[v.contentStart + i] != bytes[i] { return false }
        return true
    }

    /// X.690 §8.19.2: each arc in the fewest octets, the last one complete (`Reader.checkOID`).
    static func oidClean(_ b: UnsafeRawBufferPointer, _ o: TLV) -> Bool {
        guard o.tag == 0x06, o.contentCount > 0 else { return false }
        var atArcStart = true
        for i in o.contentStart..<o.end {
            if atArcStart && b[i] == 0x80 { return false }
            atArcStart = b[i] & 0x80 == 0
        }
        return atArcStart
    }

    /// X.690 §8.3.2: a minimal, non-empty INTEGER (`Reader.integerContent` warns otherwise).
    static func integerClean(_ b: UnsafeRawBufferPointer, _ v: TLV) -> Bool {
        guard v.tag == 0x02, v.contentCount > 0 else { return false }
        if v.contentCount > 1 {
            let x = b[v.contentStart]
            let y = b[v.contentStart + 1]
            if (x == 0 && y & 0x80 == 0) || (x == 0xFF && y & 0x80 != 0) { return false }
        }
        return true
    }

    /// The AlgorithmIdentifier's OID when it has at most two elements and a clean OID.
    static func algorithm(_ b: UnsafeRawBufferPointer, _ v: TLV) -> (oid: TLV, params: TLV?)? {
        guard v.tag == 0x30 else { return nil }
        var c = Cursor(v)
        guard let oid = c.next(b), oidClean(b, oid) else { return nil }
        let params = c.next(b)
        guard c.isAtEnd else { return nil }
        return (oid, params)
    }

    /// A Name (RFC 5280 §4.1.2.4) the walk reads without a warning: SETs of two-element
    /// AttributeTypeAndValues, string values of the type X.520 names and valid for it, other
    /// values strict DER under types with no string syntax.
    static func nameClean(_ b: UnsafeRawBufferPointer, _ n: TLV) -> Bool {
        guard n.tag == 0x30 else { return false }
        var p = n.contentStart
        while p < n.end {
            guard let set = tlv(b, p, n.end), set.tag == 0x31, set.contentCount > 0 else { return false }
            p = set.end
            var q = set.contentStart
            while q < set.end {
                guard let atv = tlv(b, q, set.end), atv.tag == 0x30,
                    let type = tlv(b, atv.contentStart, atv.end), oidClean(b, type),
                    let value = tlv(b, type.end, atv.end), value.end == atv.end
                else { return false }
                q = atv.end
                let syntax = AttributeSyntax(
                    type: UnsafeRawBufferPointer(rebasing: b[type.contentStart..<type.end]))
                let tag = DERTag(rawValue: value.tag)
                if DERString.isStringTag(tag) {
                    if let syntax, !syntax.allows(tag) { return false }
                    // The character set needs no second look: the strict parser validated this
                    // very string (`DistinguishedName.validateAttribute`, the same
                    // `DERString.validate`) — `summary` only sees strictly parsed certificates,
                    // and only their issuer and subject come here.
                } else if value.tag & 0xDF == 0x0C || DERString.isStringTag(DERTag(rawValue: value.tag & 0xDF)) {
                    return false  // a constructed string (X.690 §10.2)
                } else {
                    if syntax != nil { return false }
                    guard strictDER(b, value.start, value.end) else { return false }
                }
            }
        }
        return true
    }

    /// `Reader.isStrictDER`: exactly one value in strict DER (`readAnyValue`).
    static func strictDER(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        do throws(DERError) {
            var r = DERReader(UnsafeRawBufferPointer(rebasing: b[start..<end]))
            _ = try r.readAnyValue()
            try r.finish()
            return true
        } catch { return false }
    }

    /// A GeneralizedTime whose (four-digit) year is 1950 to 2049, for a time the strict
    /// parser decoded (`DERTime.decode`: 15 octets, digits): the one time `Reader.readTime`
    /// warns about that `DERTime.decode` accepts (RFC 5280 §4.1.2.5).
    static func generalizedBefore2050(_ b: UnsafeRawBufferPointer, _ v: TLV) -> Bool {
        guard v.tag == 0x18, v.contentCount == 15 else { return false }
        var year = 0
        for j in v.contentStart..<(v.contentStart + 4) { year = year * 10 + Int(b[j] &- 0x30) }
        return year >= 1950 && year < 2050
    }

    /// Bit length of a positive INTEGER's magnitude.
    static func bitLength(_ b: UnsafeRawBufferPointer, _ v: TLV) -> Int? {
        var s = v.contentStart
        while s < v.end && b[s] == 0 { s += 1 }
        guard s < v.end else { return nil }
        return (v.end - s - 1) * 8 + (8 - b[s].leadingZeroBitCount)
    }

    /// The SubjectPublicKeyInfo's summary when the walk reads it without a warning: RSA with
    /// NULL parameters and a clean RSAPublicKey, EC on P-256/P-384/P-521, Ed25519/Ed448 without
    /// parameters; nil otherwise (left to the walk).
    static func publicKey(_ b: UnsafeRawBufferPointer, _ v: TLV) -> PublicKeySummary? {
        guard v.tag == 0x30 else { return nil }
        var c = Cursor(v)
        guard let alg = c.next(b), let keyNode = c.next(b), c.isAtEnd, let (oid, params) = algorithm(b, alg)
        else { return nil }
        guard keyNode.tag == 0x03, keyNode.contentCount >= 1, b[keyNode.contentStart] == 0 else { return nil }
        let keyStart = keyNode.contentStart + 1
        if equal(b, oid, OID.rsaEncryption) {
            guard let p = params, p.tag == 0x05 else { return nil }
            // RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 A.1.1)
            guard let seq = tlv(b, keyStart, keyNode.end), seq.tag == 0x30, seq.end == keyNode.end,
                treeClean(b, seq, depth: 0),
                let n = tlv(b, seq.contentStart, seq.end), integerClean(b, n), b[n.contentStart] & 0x80 == 0,
                let e = tlv(b, n.end, seq.end), e.end == seq.end, integerClean(b, e), b[e.contentStart] & 0x80 == 0
            else { return nil }
            var k = PublicKeySummary(algorithm: "rsa")
            k.bits = bitLength(b, n)
            var s = e.contentStart
            while s < e.end && b[s] == 0 { s += 1 }
            if e.end - s <= 8 {
                var x: UInt64 = 0
                for j in s..<e.end { x = x << 8 | UInt64(b[j]) }
                k.rsaExponent = x
            }
            return k
        }
        if equal(b, oid, OID.ecPublicKey) {
            guard let p = params, p.tag == 0x06 else { return nil }
            var k = PublicKeySummary(algorithm: "ec")
            if equal(b, p, OID.secp256r1) {
                k.curve = "P-256"
                k.bits = 256
            } else if equal(b, p, OID.secp384r1) {
                k.curve = "P-384"
                k.bits = 384
            } else if equal(b, p, OID.secp521r1) {
                k.curve = "P-521"
                k.bits = 521
            } else {
                return nil
            }
            return k
        }
        if equal(b, oid, OID.ed25519) || equal(b, oid, OID.ed448) {
            guard params == nil else { return nil }
            let ed = equal(b, oid, OID.ed25519)
            var k = PublicKeySummary(algorithm: ed ? "ed25519" : "ed448")
            k.bits = ed ? 256 : 456
            return k
        }
        return nil
    }

    /// Extensions ::= SEQUENCE OF Extension, each with a clean OID, `critical` absent or TRUE
    /// (0xFF), and a value in strict DER (X.690 §10, §11.1, §11.5; RFC 5280 §4.1.2.9).
    static func extensionsClean(_ b: UnsafeRawBufferPointer, _ n: TLV) -> Bool {
        guard let list = tlv(b, n.contentStart, n.end), list.end == n.end, list.tag == 0x30,
            list.contentCount > 0
        else { return false }
        var p = list.contentStart
        var count = 0
        while p < list.end {
            count += 1
            guard count <= Certificate.maximumExtensionCount, let e = tlv(b, p, list.end), e.tag == 0x30
            else { return false }
            p = e.end
            var c = Cursor(e)
            guard let oid = c.next(b), oidClean(b, oid), var octets = c.next(b) else { return false }
            if octets.tag == 0x01 {
                // critical: TRUE only (FALSE is the DEFAULT, X.690 §11.5; TRUE is 0xFF, §11.1).
                let flag = octets
                guard flag.contentCount == 1, b[flag.contentStart] == 0xFF, let v = c.next(b) else { return false }
                octets = v
            }
            guard c.isAtEnd, octets.tag == 0x04 else { return false }
            guard strictDER(b, octets.contentStart, octets.end) else { return false }
        }
        return true
    }

    /// The public-key summary and the warnings when the lenient walk over `c` (strictly parsed)
    /// would find nothing but a serial number of zero (the one deviation this check reports
    /// itself: old roots carry it) and repair nothing; nil when that is not certain.
    static func summary(_ c: Certificate) -> (key: PublicKeySummary, warnings: [InspectionWarning])? {
        let signature = c.signatureAlgorithm
        if case .unknown = signature { return nil }
        var serialZero: Int?
        let key = c.der.withUnsafeBytes { b -> PublicKeySummary? in
            // No `treeClean` over the whole certificate: the strict parser has read every
            // constructed value in it with `DERReader` — entered (certificate, TBS, version,
            // AlgorithmIdentifiers, RSASSA-PSS parameters, Name SETs and
            // AttributeTypeAndValues, Validity, SubjectPublicKeyInfo, [3], the extension list
            // and each Extension) or checked whole by `validateAsAny` (unknown algorithm
            // parameters, EC parameters that are not a named curve, attribute values that are
            // not strings) — whose `readAny` refuses exactly the headers `tlv` refuses
            // (indefinite and non-minimal lengths, more than 4 length octets, the high-tag form,
            // [UNIVERSAL 0], lengths beyond the enclosing value; X.690 §10.1), nested at most
            // `DERReader.maximumDepth` (32) deep, under `BERReader.maximumDepth` (64). Every
            // other value is primitive (the walk does not descend into it: extension values,
            // keys and signatures are BIT or OCTET STRINGs, checked below where the walk looks
            // inside them). So `treeClean(b, root, depth: 0)` holds for every certificate that
            // reaches here.
            guard let root = tlv(b, 0, b.count), root.end == b.count, root.tag == 0x30 else { return nil }
            var top = Cursor(root)
            guard let tbs = top.next(b), tbs.tag == 0x30, let outer = top.next(b), let sig = top.next(b), top.isAtEnd
            else { return nil }
            guard sig.tag == 0x03, sig.contentCount > 0, b[sig.contentStart] == 0 else { return nil }
            var t = Cursor(tbs)
            guard var n = t.next(b) else { return nil }
            var version = 1
            if n.tag == 0xA0 {
                // [0] EXPLICIT INTEGER 1 or 2 (v1 is the DEFAULT, X.690 §11.5).
                guard n.contentCount == 3, b[n.contentStart] == 0x02, b[n.contentStart + 1] == 0x01,
                    b[n.contentStart + 2] == 1 || b[n.contentStart + 2] == 2, let m = t.next(b)
                else { return nil }
                version = Int(b[n.contentStart + 2]) + 1
                n = m
            }
            // CertificateSerialNumber: positive, non-zero, at most 20 octets (RFC 5280 §4.1.2.2).
            guard integerClean(b, n), b[n.contentStart] & 0x80 == 0 else { return nil }
            var s = n.contentStart
            while s < n.end && b[s] == 0 { s += 1 }
            if s == n.end {
                // Zero (one 0x00 octet: the INTEGER is minimal): `Reader.readSerial`'s only warning.
                serialZero = n.contentStart
            } else {
                guard n.end - s <= 20 else { return nil }
            }
            // The TBS `signature` AlgorithmIdentifier: the parameter rules of
            // `Reader.checkSignatureAlgorithm`, decided from what the strict parser established
            // (`SignatureAlgorithm.parse`: the OIDs of `Reader.ecdsaOIDs` / `rsaPKCS1OIDs`,
            // matched byte for byte against valid constants; at most the OID and one parameter;
            // ECDSA and EdDSA without parameters, RFC 5758 §3.2, RFC 8410 §3; PKCS #1 v1.5 with
            // NULL or none, RFC 4055 §5). Left: PKCS #1 v1.5 without parameters (the walk
            // warns), and RSASSA-PSS (left to the walk).
            guard let inner = t.next(b) else { return nil }
            switch signature {
            case .rsaPSS, .unknown: return nil
            case .rsaPKCS1:
                guard inner.tag == 0x30 else { return nil }
                var a = Cursor(inner)
                guard a.next(b) != nil, a.next(b) != nil else { return nil }
            case .ecdsa, .ed25519, .ed448: break
            }
            // The outer signatureAlgorithm is the same encoding (RFC 5280 §4.1.1.2).
            guard outer.end - outer.start == inner.end - inner.start else { return nil }
            for j in 0..<(inner.end - inner.start) where b[outer.start + j] != b[inner.start + j] { return nil }
            guard let issuer = t.next(b), nameClean(b, issuer) else { return nil }
            guard let validity = t.next(b), validity.tag == 0x30 else { return nil }
            var vc = Cursor(validity)
            // The strict parser decoded both times (`DERTime.decode`: the RFC 5280 §4.1.2.5 forms,
            // a real date, no leap second), so of what the walk warns about only one case is
            // left: a GeneralizedTime before 2050 (§4.1.2.5: UTCTime through 2049).
            guard let notBefore = vc.next(b), let notAfter = vc.next(b), vc.isAtEnd,
                !generalizedBefore2050(b, notBefore),
                !generalizedBefore2050(b, notAfter)
            else { return nil }
            guard let subject = t.next(b), nameClean(b, subject) else { return nil }
            guard let spki = t.next(b), let key = publicKey(b, spki) else { return nil }
            var sawExtensions = false
            while !t.isAtEnd {
                guard let n = t.next(b) else { return nil }
                switch n.tag {
                case 0x81, 0xA1, 0x82, 0xA2:
                    if version == 1 { return nil }
                case 0xA3 where !sawExtensions:
                    sawExtensions = true
                    guard version == 3, extensionsClean(b, n) else { return nil }
                default:
                    return nil
                }
            }
            return key
        }
        guard let key else { return nil }
        guard let at = serialZero else { return (key, []) }
        // RFC 5280 §4.1.2.2, worded as the walk words it.
        return (
            key,
            [
                InspectionWarning(
                    clause: "RFC 5280 §4.1.2.2", offset: at, message: "serial number is zero (must be positive)")
            ]
        )
    }
}
