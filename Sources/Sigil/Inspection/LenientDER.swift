import SigilDER

/// One violation found while inspecting: the clause it breaks, where (absolute byte offset in
/// the certificate's DER), and a one-line message. Inspection only: warnings never reach the
/// trust layer, which uses the strict parser and refuses these certificates outright.
public struct InspectionWarning: Sendable, Hashable, CustomStringConvertible {
    /// The rule broken, e.g. "X.690 §8.3.2" or "RFC 5280 §4.1.2.2".
    public let clause: String
    /// Absolute byte offset in the certificate's DER.
    public let offset: Int
    /// One line saying what is wrong, e.g. "non-minimal INTEGER".
    public let message: String

    /// A warning; `offset` is absolute in the certificate's DER.
    public init(clause: String, offset: Int, message: String) {
        self.clause = clause
        self.offset = offset
        self.message = message
    }

    /// "clause: message (at byte offset N)".
    public var description: String { "\(clause): \(message) (at byte offset \(offset))" }
}

/// A BER TLV as the lenient reader saw it (X.690 §8: any definite length form, the indefinite
/// form for constructed values). Offsets are absolute in the input.
struct BERNode {
    var tag: UInt8
    /// Offset of the identifier octet.
    var start: Int
    var contentStart: Int
    /// One past the last content octet (before the end-of-contents octets, if indefinite).
    var contentEnd: Int
    /// One past the whole encoding (after the end-of-contents octets, if indefinite).
    var end: Int
    /// Children of a constructed value, in order.
    var children: [BERNode]
    /// A constructed value (definite length) whose contents are not a series of TLVs (X.690
    /// §8.1.2.5): kept whole, with no children, and re-encoded byte for byte, so the strict
    /// parser that reads the re-encoding refuses it as it refuses the original.
    var opaque = false

    var isConstructed: Bool { tag & 0x20 != 0 }
    var contentCount: Int { contentEnd - contentStart }
}

/// The lenient reader: X.690 BER, as OpenSSL's `d2i_X509` accepts it, with each departure from
/// DER recorded as a warning. Bounded: depth ≤ 64, at most one node per two input octets, so
/// hostile input costs time and memory linear in its size.
struct BERReader {
    static let maximumDepth = 64
    /// Warnings beyond this many are counted, not kept (a BER-encoded certificate can have a
    /// non-minimal length on every value).
    static let maximumWarnings = 64

    let bytes: [UInt8]
    var warnings: [InspectionWarning] = []
    var droppedWarnings = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func warn(_ clause: String, _ offset: Int, _ message: String) {
        let w = InspectionWarning(clause: clause, offset: offset, message: message)
        if warnings.contains(w) { return }
        if warnings.count >= BERReader.maximumWarnings {
            droppedWarnings += 1
            return
        }
        warnings.append(w)
    }

    /// Parses the TLV at `position` (which must lie before `limit`), with all its descendants.
    mutating func parse(at position: Int, limit: Int, depth: Int = 0) throws(DERError) -> BERNode {
        if depth > BERReader.maximumDepth { throw DERError(.nestingTooDeep, at: position) }
        var p = position
        guard p < limit else { throw DERError(.truncated, at: p) }
        let tag = bytes[p]
        if tag & 0x1F == 0x1F { throw DERError(.highTagNumber, at: p) }
        if tag == 0 { throw DERError(.unexpectedTag, at: p) }
        p += 1
        guard p < limit else { throw DERError(.truncated, at: p) }
        let first = bytes[p]
        p += 1
        let constructed = tag & 0x20 != 0
        if first == 0x80 {
            // X.690 §8.1.3.6: indefinite form, constructed values only; DER forbids it (§10.1).
            guard constructed else { throw DERError(.indefiniteLength, at: p - 1) }
            warn("X.690 §10.1", p - 1, "indefinite length (BER); DER requires the definite form")
            var children: [BERNode] = []
            while true {
                guard limit - p >= 2 else { throw DERError(.truncated, at: p) }
                if bytes[p] == 0 && bytes[p + 1] == 0 {
                    return BERNode(
                        tag: tag, start: position, contentStart: position + 2, contentEnd: p, end: p + 2,
                        children: children)
                }
                let child = try parse(at: p, limit: limit, depth: depth + 1)
                children.append(child)
                p = child.end
            }
        }
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else {
            let n = Int(first & 0x7F)
            if n > 8 { throw DERError(.lengthTooLong, at: p - 1) }
            guard limit - p >= n else { throw DERError(.truncated, at: p) }
            length = 0
            for i in 0..<n {
                if length > Int.max >> 9 { throw DERError(.lengthTooLong, at: p - 1) }
                length = length << 8 | Int(bytes[p + i])
            }
            if bytes[p] == 0 || length < 0x80 {
                warn("X.690 §10.1", p - 1, "non-minimal length encoding (\(n) length octets for \(length))")
            }
            p += n
        }
        guard length <= limit - p else { throw DERError(.truncated, at: position) }
        var node = BERNode(
            tag: tag, start: position, contentStart: p, contentEnd: p + length, end: p + length, children: [])
        if constructed {
            var q = p
            do {
                while q < node.contentEnd {
                    let child = try parse(at: q, limit: node.contentEnd, depth: depth + 1)
                    node.children.append(child)
                    q = child.end
                }
            } catch {
                // The outermost value, and nesting beyond the limit, stay errors; anything else
                // is shown as an opaque value (a bad ANY value inside a Name, say) with a warning.
                if depth == 0 || error.kind == .nestingTooDeep { throw error }
                warn(
                    "X.690 §8.1.2.5", error.offset,
                    "contents of a constructed value (tag 0x\(String(tag, radix: 16))) are not a series of TLVs: "
                        + error.kind.message)
                node.children = []
                node.opaque = true
            }
        }
        return node
    }

    func content(_ n: BERNode) -> ArraySlice<UInt8> { bytes[n.contentStart..<n.contentEnd] }
}

// MARK: - Re-encoding to DER

/// Where re-encoded bytes came from: content octets map one to one, headers to the original
/// header's first octet.
struct OffsetMap {
    struct Segment {
        var newStart: Int
        var count: Int
        var originalStart: Int
        var linear: Bool
    }
    var segments: [Segment] = []

    func original(_ offset: Int) -> Int {
        var lo = 0
        var hi = segments.count - 1
        var best = -1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if segments[mid].newStart <= offset {
                best = mid
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        guard best >= 0 else { return offset }
        let s = segments[best]
        let delta = offset - s.newStart
        if delta >= s.count { return s.originalStart + (s.linear ? s.count : 0) }
        return s.originalStart + (s.linear ? delta : 0)
    }
}

/// A value to write in DER: a copy of an original node (re-encoded with minimal lengths) or
/// bytes made up by the inspector (mapped to `origin`).
indirect enum DEROut {
    case node(BERNode)
    case primitive(tag: UInt8, content: [UInt8], origin: Int)
    case constructed(tag: UInt8, children: [DEROut], origin: Int)
    /// Original bytes copied as they are (already DER).
    case raw(start: Int, end: Int)
}

struct DERWriter {
    let source: [UInt8]
    var out: [UInt8] = []
    var map = OffsetMap()
    /// Repairs made while writing original nodes (non-minimal INTEGERs, BOOLEANs other than
    /// 0x00/0xFF), as warnings at the original offsets.
    var repairs: [InspectionWarning] = []

    init(source: [UInt8]) { self.source = source }

    /// The DER form of a primitive's content when it differs from the original: X.690 §8.3.2
    /// (INTEGER without superfluous leading octets) and §11.1 (BOOLEAN TRUE is 0xFF). Returns
    /// where the kept content starts, or replacement content.
    func canonical(_ n: BERNode) -> (Int, [UInt8]?) {
        switch n.tag {
        case 0x02:
            var from = n.contentStart
            while n.contentEnd - from > 1 {
                let a = source[from]
                let b = source[from + 1]
                guard (a == 0 && b & 0x80 == 0) || (a == 0xFF && b & 0x80 != 0) else { break }
                from += 1
            }
            if n.contentCount == 0 { return (from, [0]) }
            return (from, nil)
        case 0x01:
            if n.contentCount == 1 && (source[n.contentStart] == 0 || source[n.contentStart] == 0xFF) {
                return (n.contentStart, nil)
            }
            let truth = source[n.contentStart..<n.contentEnd].contains { $0 != 0 }
            return (n.contentStart, [truth ? 0xFF : 0x00])
        default:
            return (n.contentStart, nil)
        }
    }

    mutating func noteRepair(_ n: BERNode) {
        let (from, replacement) = canonical(n)
        if n.tag == 0x02 && (from != n.contentStart || replacement != nil) {
            repairs.append(
                InspectionWarning(
                    clause: "X.690 §8.3.2", offset: n.contentStart,
                    message: n.contentCount == 0 ? "empty INTEGER" : "non-minimal INTEGER"))
        } else if n.tag == 0x01 && replacement != nil {
            repairs.append(
                InspectionWarning(clause: "X.690 §11.1", offset: n.contentStart, message: "BOOLEAN is not 0x00 or 0xFF")
            )
        }
    }

    func length(_ v: DEROut) -> Int {
        switch v {
        case .node(let n):
            var c: Int
            if n.opaque {
                c = n.contentCount
            } else if n.isConstructed {
                c = n.children.reduce(0) { $0 + length(.node($1)) }
            } else {
                let (from, replacement) = canonical(n)
                c = replacement?.count ?? (n.contentEnd - from)
            }
            return DERHeader.count(c) + c
        case .primitive(_, let content, _):
            return DERHeader.count(content.count) + content.count
        case .constructed(_, let children, _):
            let c = children.reduce(0) { $0 + length($1) }
            return DERHeader.count(c) + c
        case .raw(let s, let e):
            return e - s
        }
    }

    mutating func header(_ tag: UInt8, _ length: Int, origin: Int) {
        map.segments.append(
            .init(newStart: out.count, count: DERHeader.count(length), originalStart: origin, linear: false))
        DERHeader.append(&out, tag: tag, length: length)
    }

    mutating func write(_ v: DEROut) {
        switch v {
        case .node(let n):
            if n.opaque {
                header(n.tag, n.contentCount, origin: n.start)
                map.segments.append(
                    .init(newStart: out.count, count: n.contentCount, originalStart: n.contentStart, linear: true))
                out.append(contentsOf: source[n.contentStart..<n.contentEnd])
            } else if n.isConstructed {
                let c = n.children.reduce(0) { $0 + length(.node($1)) }
                header(n.tag, c, origin: n.start)
                for child in n.children { write(.node(child)) }
            } else {
                noteRepair(n)
                let (from, replacement) = canonical(n)
                if let replacement {
                    header(n.tag, replacement.count, origin: n.start)
                    map.segments.append(
                        .init(
                            newStart: out.count, count: replacement.count, originalStart: n.contentStart, linear: false)
                    )
                    out.append(contentsOf: replacement)
                } else {
                    header(n.tag, n.contentEnd - from, origin: n.start)
                    map.segments.append(
                        .init(newStart: out.count, count: n.contentEnd - from, originalStart: from, linear: true))
                    out.append(contentsOf: source[from..<n.contentEnd])
                }
            }
        case .primitive(let tag, let content, let origin):
            header(tag, content.count, origin: origin)
            map.segments.append(.init(newStart: out.count, count: content.count, originalStart: origin, linear: false))
            out.append(contentsOf: content)
        case .constructed(let tag, let children, let origin):
            header(tag, children.reduce(0) { $0 + length($1) }, origin: origin)
            for child in children { write(child) }
        case .raw(let s, let e):
            map.segments.append(.init(newStart: out.count, count: e - s, originalStart: s, linear: true))
            out.append(contentsOf: source[s..<e])
        }
    }
}
