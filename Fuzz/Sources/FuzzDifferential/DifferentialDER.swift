// Differential fuzzing: SigilDER against apple/swift-asn1 1.7.4 (`DER.parse` → `ASN1Node`).
//
// Both parse the input as ONE DER value with nothing after it.
//
// - Both accept: the trees must be identical (tag class and number, constructed bit, offsets of
//   every header and content, the children), and every primitive decoder that both libraries
//   have must agree on every node (see `compareDecoders`).
// - One accepts, the other rejects: the disagreement must fall in a class listed below, with
//   the rule that makes Sigil stricter on purpose, and the class is re-checked against the
//   other library's tree (e.g. "Sigil says high tag number at offset 7" is only accepted if
//   swift-asn1's tree really has a node at offset 7 with tag number ≥ 31). Anything else traps.
//
// The table of known differences is in Fuzz/README.md. Set FUZZ_DIFF_VERBOSE=1 to print the
// class of each disagreement (useful when replaying single inputs).

@_spi(SigilInternal) import SigilDER
import SwiftASN1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sigil's parse tree of one value.
struct SigilNode {
    let value: DERValue
    let depth: Int  // 1-based, as swift-asn1 counts
    var children: [SigilNode]
}

/// Known classes of disagreement (the rows of the README table).
public enum DifferenceClass: String, CaseIterable, Sendable {
    // Structure
    case highTagNumber = "structure: high-tag-number form (Sigil rejects)"
    case nestingDepth = "structure: nesting deeper than DERReader.maximumDepth (Sigil rejects)"
    // Primitives
    case leapSecond = "time: seconds 60/61 (Sigil rejects)"
    case fractionalSeconds = "time: GeneralizedTime fractional seconds (Sigil rejects)"
    case utf8NotValidated = "string: UTF8String not validated by swift-asn1 (Sigil rejects invalid UTF-8)"
    case bmpNotValidated = "string: BMPString not validated by swift-asn1 (Sigil rejects odd length/surrogates)"
    case universalNotValidated = "string: UniversalString not validated by swift-asn1 (Sigil rejects)"
    case oidFirstArcRendering = "OID: first subidentifier ≥ 120 rendered as arc1 ≥ 3 by swift-asn1"
    case unsignedZeroRepresentation = "INTEGER: unsigned zero is [] in swift-asn1, [0x00] in Sigil"
}

func diffCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("differential finding: " + message(), file: file, line: line) }
}

public enum DifferentialDER {
    static let verbose: Bool = getenv("FUZZ_DIFF_VERBOSE") != nil

    static func note(_ c: DifferenceClass, _ detail: @autoclosure () -> String = "") {
        if verbose { print("known difference: \(c.rawValue) \(detail())") }
    }

    public static func run(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        var theirError: (any Error)? = nil
        var theirs: ASN1Node? = nil
        do { theirs = try DER.parse(array) } catch { theirError = error }
        let ours = parseSigil(bytes)

        switch (ours, theirs) {
        case (.success(let s), .some(let t)):
            compareTree(s, t, array)
        case (.failure(let e), .some(let t)):
            classifySigilRejects(e, t)
        case (.success(let s), .none):
            classifyASN1Rejects(s, theirError!)
        case (.failure, .none):
            break
        }
    }

    // MARK: - Sigil's tree

    static func parseSigil(_ bytes: UnsafeRawBufferPointer) -> Result<SigilNode, DERError> {
        var reader = DERReader(bytes)
        do {
            let v = try reader.readAny()
            let node = try build(v, depth: 1)
            try reader.finish()
            return .success(node)
        } catch {
            return .failure(error)
        }
    }

    static func build(_ v: DERValue, depth: Int) throws(DERError) -> SigilNode {
        var node = SigilNode(value: v, depth: depth, children: [])
        if v.tag.isConstructed {
            node.children = try DERReader.enter(v) { (inner: inout DERReader) throws(DERError) -> [SigilNode] in
                var kids: [SigilNode] = []
                while !inner.isAtEnd { kids.append(try build(try inner.readAny(), depth: depth + 1)) }
                return kids
            }
        }
        return node
    }

    // MARK: - Both accept

    static func tagClass(_ t: DERTag) -> ASN1Identifier.TagClass {
        switch t.tagClass {
        case 0: return .universal
        case 1: return .application
        case 2: return .contextSpecific
        default: return .private
        }
    }

    static func compareTree(_ s: SigilNode, _ t: ASN1Node, _ array: [UInt8]) {
        let v = s.value
        diffCheck(
            t.identifier.tagClass == tagClass(v.tag) && t.identifier.tagNumber == UInt(v.tag.number),
            "tag \(v.tag) at \(v.start) vs \(t.identifier)")
        diffCheck(
            t.encodedBytes.startIndex == v.start && t.encodedBytes.endIndex == v.end,
            "extent of value at \(v.start): \(v.start)..<\(v.end) vs \(t.encodedBytes.indices)")
        switch t.content {
        case .primitive(let bytes):
            diffCheck(!v.tag.isConstructed, "value at \(v.start): primitive in swift-asn1 only")
            diffCheck(
                bytes.startIndex == v.contentStart && bytes.endIndex == v.end,
                "content of value at \(v.start)")
            diffCheck(Array(bytes) == Array(v.content), "content bytes at \(v.start)")
        case .constructed(let collection):
            diffCheck(v.tag.isConstructed, "value at \(v.start): constructed in swift-asn1 only")
            var i = 0
            for child in collection {
                diffCheck(i < s.children.count, "swift-asn1 has more children at \(v.start)")
                compareTree(s.children[i], child, array)
                i += 1
            }
            diffCheck(i == s.children.count, "Sigil has more children at \(v.start)")
        }
        compareDecoders(v, t)
    }

    /// Every primitive decoder present in both libraries, applied to the node whatever its tag
    /// (swift-asn1 through `withIdentifier: node.identifier`, as for IMPLICIT tagging).
    static func compareDecoders(_ v: DERValue, _ node: ASN1Node) {
        let id = node.identifier
        let content = Array(v.content)
        let primitive = !v.tag.isConstructed

        // BOOLEAN: identical rules (X.690 §11.1).
        let sb = try? v.decodeBoolean()
        let tb = try? Bool(derEncoded: node, withIdentifier: id)
        diffCheck(sb == tb, "BOOLEAN \(content): Sigil \(String(describing: sb)), swift-asn1 \(String(describing: tb))")

        // INTEGER (X.690 §8.3.2 minimality, identical rules).
        let s64 = try? v.decodeInt64()
        let t64 = try? Int64(derEncoded: node, withIdentifier: id)
        diffCheck(
            s64 == t64, "Int64 \(content): Sigil \(String(describing: s64)), swift-asn1 \(String(describing: t64))")
        let su = (try? v.decodeUnsignedIntegerBytes()).map { Array($0) }
        let tu = (try? ArraySlice<UInt8>(derEncoded: node, withIdentifier: id)).map { Array($0) }
        if su == [0x00] && tu == [] {
            if v.tag == .integer { note(.unsignedZeroRepresentation) }
        } else {
            diffCheck(
                su == tu,
                "unsigned INTEGER \(content): Sigil \(String(describing: su)), swift-asn1 \(String(describing: tu))")
        }
        // Other widths: swift-asn1's UInt64 / Int8 against Sigil's magnitude / Int64.
        let tU64 = try? UInt64(derEncoded: node, withIdentifier: id)
        let sU64: UInt64? = su.flatMap { $0.count <= 8 ? $0.reduce(0) { $0 << 8 | UInt64($1) } : nil }
        diffCheck(
            sU64 == tU64, "UInt64 \(content): Sigil \(String(describing: sU64)), swift-asn1 \(String(describing: tU64))"
        )
        let t8 = try? Int8(derEncoded: node, withIdentifier: id)
        let s8: Int8? = s64.flatMap { Int8(exactly: $0) }
        diffCheck(s8 == t8, "Int8 \(content): Sigil \(String(describing: s8)), swift-asn1 \(String(describing: t8))")
        let sAny = (try? v.decodeIntegerBytes()) != nil
        if t64 != nil || tu != nil { diffCheck(sAny, "INTEGER \(content) rejected by Sigil only") }
        if sAny && content.count <= 8 { diffCheck(t64 != nil, "INTEGER \(content) rejected by swift-asn1 only") }

        // BIT STRING (X.690 §11.2): identical rules.
        let sbs = try? v.decodeBitString()
        let tbs = try? ASN1BitString(derEncoded: node, withIdentifier: id)
        diffCheck((sbs == nil) == (tbs == nil), "BIT STRING \(content): Sigil \(sbs != nil), swift-asn1 \(tbs != nil)")
        if let sbs, let tbs {
            diffCheck(
                sbs.unusedBits == tbs.paddingBits && Array(sbs.bytes) == Array(tbs.bytes), "BIT STRING \(content) value"
            )
        }

        // OBJECT IDENTIFIER (X.690 §8.19): same acceptance (both bound arcs to 9 octets);
        // swift-asn1 renders the first two arcs as (x / 40, x % 40), wrong for x ≥ 120.
        let soid = try? v.decodeObjectIdentifier()
        let toid = try? ASN1ObjectIdentifier(derEncoded: node, withIdentifier: id)
        diffCheck((soid == nil) == (toid == nil), "OID \(content): Sigil \(soid != nil), swift-asn1 \(toid != nil)")
        if let soid, let toid {
            let sd = DERValue.dottedObjectIdentifier(soid)
            let comps = toid.oidComponents
            let x = comps[0] * 40 + comps[1]
            let normalised =
                ([x < 40 ? 0 : x < 80 ? 1 : 2, x < 40 ? x : x < 80 ? x - 40 : x - 80]
                + comps.dropFirst(2)).map(String.init).joined(separator: ".")
            diffCheck(sd == normalised, "OID \(content): Sigil \(sd), swift-asn1 \(toid.description)")
            if sd != toid.description {
                diffCheck(x >= 120, "OID \(content) renders differently with first subidentifier \(x)")
                if v.tag == .objectIdentifier { note(.oidFirstArcRendering, "\(sd) vs \(toid.description)") }
            }
        }

        // NULL (X.690 §8.8.2): identical.
        let sn = (try? v.decodeNull()) != nil
        let tn = (try? ASN1Null(derEncoded: node, withIdentifier: id)) != nil
        diffCheck(sn == tn, "NULL \(content): Sigil \(sn), swift-asn1 \(tn)")

        // Times: only for the two time tags (Sigil's decoder dispatches on the tag).
        if v.tag == .utcTime || v.tag == .generalizedTime {
            compareTime(v, node, content)
        }

        if primitive { compareStrings(v, node, content) }
    }

    static func compareTime(_ v: DERValue, _ node: ASN1Node, _ content: [UInt8]) {
        let st = try? DERTime.decode(v)
        var fields: (Int, Int, Int, Int, Int, Int)? = nil
        var fraction = false
        if v.tag == .utcTime, let t = try? UTCTime(derEncoded: node, withIdentifier: node.identifier) {
            fields = (t.year, t.month, t.day, t.hours, t.minutes, t.seconds)
        }
        if v.tag == .generalizedTime, let t = try? GeneralizedTime(derEncoded: node, withIdentifier: node.identifier) {
            fields = (t.year, t.month, t.day, t.hours, t.minutes, t.seconds)
            fraction = !t.rawFractionalSeconds.isEmpty
        }
        switch (st, fields) {
        case (let s?, let f?):
            let c = DERTime.components(s)
            diffCheck(
                !fraction && c.year == f.0 && c.month == f.1 && c.day == f.2 && c.hour == f.3
                    && c.minute == f.4 && c.second == f.5, "time \(content): Sigil \(c), swift-asn1 \(f)")
        case (nil, let f?):
            // RFC 5280 §4.1.2.5.2: GeneralizedTime "MUST NOT include fractional seconds".
            // Seconds 60/61: swift-asn1 admits leap seconds (its comment: "we allow leap
            // seconds here, but don't validate it"); Sigil's DERTime takes second < 60 only, as
            // Go's crypto/x509 does. RFC 5280 is silent on leap seconds; times in Sigil are
            // POSIX seconds, where :60 names no instant, so refusing is the deliberate choice.
            if fraction {
                note(.fractionalSeconds)
            } else {
                diffCheck(f.5 >= 60, "time \(content) rejected by Sigil only")
                note(.leapSecond)
            }
        case (_?, nil):
            diffCheck(false, "time \(content) rejected by swift-asn1 only")
        case (nil, nil):
            break
        }
    }

    static func compareStrings(_ v: DERValue, _ node: ASN1Node, _ content: [UInt8]) {
        let id = node.identifier
        func sigil(_ tag: DERTag) -> String? {
            let s = DERString(tag: tag, bytes: v.content, offset: v.contentStart)
            do { try s.validate() } catch { return nil }
            return s.string
        }
        // Same character sets in both (X.680 §41.4 Table 10 and §41.2 Table 9).
        let pairs: [(DERTag, String?)] = [
            (.printableString, (try? ASN1PrintableString(derEncoded: node, withIdentifier: id)).map(String.init)),
            (.ia5String, (try? ASN1IA5String(derEncoded: node, withIdentifier: id)).map(String.init)),
            (.visibleString, (try? ASN1VisibleString(derEncoded: node, withIdentifier: id)).map(String.init)),
        ]
        for (tag, theirs) in pairs {
            let ours = sigil(tag)
            // Known difference: Sigil tolerates '*' and '&' in PrintableString (real wildcard
            // CNs, as Go does); swift-asn1 follows X.680 Table 10 exactly.
            if tag == .printableString, theirs == nil, ours != nil,
                content.contains(where: { $0 == 0x2A || $0 == 0x26 }),
                content.allSatisfy({ DERString.isPrintable($0) })
            {
                continue
            }
            diffCheck(
                ours == theirs,
                "\(tag) \(content): Sigil \(String(describing: ours)), swift-asn1 \(String(describing: theirs))")
        }
        // TeletexString: both take every octet.
        diffCheck(
            sigil(.teletexString) != nil && (try? ASN1TeletexString(derEncoded: node, withIdentifier: id)) != nil,
            "TeletexString \(content) rejected")
        // UTF8String: swift-asn1 keeps the octets unchecked; Sigil validates (RFC 3629 §4, X.680
        // §41.16), cross-checked here against the standard library's validating decoder.
        let tu = try? ASN1UTF8String(derEncoded: node, withIdentifier: id)
        diffCheck(tu != nil, "UTF8String rejected by swift-asn1")
        if let ours = sigil(.utf8String) {
            diffCheck(ours == String(tu!), "UTF8String \(content): Sigil \(ours), swift-asn1 \(String(tu!))")
        } else {
            diffCheck(String(validating: content, as: UTF8.self) == nil, "valid UTF-8 \(content) rejected by Sigil")
            if v.tag == .utf8String { note(.utf8NotValidated) }
        }
        // BMPString / UniversalString: swift-asn1 keeps the octets unchecked; Sigil requires
        // UCS-2 without surrogates / UCS-4 scalars (X.680 §41.16, §41.17).
        diffCheck((try? ASN1BMPString(derEncoded: node, withIdentifier: id)) != nil, "BMPString rejected by swift-asn1")
        if sigil(.bmpString) == nil && v.tag == .bmpString { note(.bmpNotValidated) }
        diffCheck(
            (try? ASN1UniversalString(derEncoded: node, withIdentifier: id)) != nil,
            "UniversalString rejected by swift-asn1")
        if sigil(.universalString) == nil && v.tag == .universalString { note(.universalNotValidated) }
    }

    // MARK: - One rejects

    /// swift-asn1's nodes with their 1-based depth, in document order.
    static func flatten(_ n: ASN1Node, depth: Int, into out: inout [(ASN1Node, Int)]) {
        out.append((n, depth))
        if case .constructed(let kids) = n.content {
            for k in kids { flatten(k, depth: depth + 1, into: &out) }
        }
    }

    static func classifySigilRejects(_ e: DERError, _ t: ASN1Node) {
        var nodes: [(ASN1Node, Int)] = []
        flatten(t, depth: 1, into: &nodes)
        let at = nodes.first { $0.0.encodedBytes.startIndex == e.offset }
        switch e.kind {
        case .highTagNumber:
            // X.690 §8.1.2.4 allows tag numbers ≥ 31 in several identifier octets; X.509
            // (RFC 5280 §4.1) has none, so Sigil takes low tag numbers only,
            // as rustls-webpki and Go's cryptobyte do.
            diffCheck(
                at != nil && at!.0.identifier.tagNumber >= 31,
                "Sigil: high tag number at \(e.offset), swift-asn1 disagrees")
            note(.highTagNumber)
        case .nestingTooDeep:
            // X.690 sets no limit; Sigil bounds recursion at DERReader.maximumDepth (32
            // entered levels), swift-asn1 at 50 nodes. Exactly the first value Sigil refuses
            // to enter must be constructed and one level past the limit.
            diffCheck(
                at != nil && at!.1 == DERReader.maximumDepth + 1
                    && { if case .constructed = at!.0.content { return true } else { return false } }(),
                "Sigil: nestingTooDeep at \(e.offset), depth \(String(describing: at?.1)) in swift-asn1")
            note(.nestingDepth)
        default:
            diffCheck(false, "Sigil rejects (\(e)) what swift-asn1 accepts")
        }
    }

    static func classifyASN1Rejects(_ s: SigilNode, _ error: any Error) {
        // No class is known: every DER rule swift-asn1 enforces at parse time, Sigil enforces
        // too. ([UNIVERSAL 0] used to be one — Sigil accepted tag 0x00 as a value; fixed in
        // DERReader.readAny, see Fixtures/fuzz-regressions/FuzzDifferentialDER/.)
        diffCheck(false, "swift-asn1 rejects (\(error)) what Sigil accepts (top tag \(s.value.tag))")
    }
}
