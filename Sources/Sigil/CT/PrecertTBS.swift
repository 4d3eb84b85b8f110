import SigilCrypto
@_spi(SigilInternal) import SigilDER
import SigilX509

/// The `tbs_certificate` of a `precert_entry` (RFC 6962 §3.2): "the TBSCertificate component of
/// the Precertificate — that is, without the signature and the poison extension", which for a
/// final certificate is its TBSCertificate with the SCT list extension (§3.3) removed.
///
/// The final certificate's TBS is not copied: this records which of its byte ranges are kept
/// and the three new DER headers (TBSCertificate SEQUENCE, `[3] EXPLICIT`, `Extensions`
/// SEQUENCE) whose lengths shrink. `forEachChunk` feeds them to a hash without allocating;
/// `bytes()` makes the one copy (for tests and callers that want it).
public struct PrecertificateTBS: Sendable {
    let certificate: Certificate
    /// Ranges of `certificate.der`, in order, between which `headers` are inserted.
    let head: (Int, Int)  // TBS content up to the [3] field
    let keptBefore: (Int, Int)  // extensions before the SCT list extension
    let keptAfter: (Int, Int)  // extensions after it
    /// The new TBSCertificate header, then the [3] and SEQUENCE headers (absent when no
    /// extension is left): one small array, the only allocation.
    let headers: [UInt8]
    let tbsHeaderCount: Int

    /// Total encoded length.
    public let count: Int

    /// Builds the layout for `certificate`, or nil when it has no SCT list extension (then the
    /// certificate was not issued from a precertificate, and an embedded SCT cannot be for it).
    public init?(_ certificate: Certificate) {
        let tbs = certificate.tbsCertificate
        let layout: (Int, Int, Int, Int, Int, Int, Int)?? = try? certificate.der.withUnsafeBytes {
            (b) throws(DERError) -> (Int, Int, Int, Int, Int, Int, Int)? in
            var outer = DERReader(input: b, from: tbs.start, to: tbs.end)
            let t = try outer.read(.sequence)
            var r = DERReader(input: b, from: t.contentStart, to: t.end)
            while !r.isAtEnd {
                let v = try r.readAny()
                guard v.tag == .contextConstructed(3) else { continue }
                var x = DERReader(input: b, from: v.contentStart, to: v.end)
                let list = try x.read(.sequence)
                var e = DERReader(input: b, from: list.contentStart, to: list.end)
                while !e.isAtEnd {
                    let ext = try e.read(.sequence)
                    var f = DERReader(input: b, from: ext.contentStart, to: ext.end)
                    let oid = try f.read(.objectIdentifier)
                    if oid.contentCount == OID.signedCertificateTimestampList.count,
                        zip(oid.content, OID.signedCertificateTimestampList).allSatisfy({ $0 == $1 })
                    {
                        // [3] must be the TBS's last field (RFC 5280 §4.1) for the kept ranges
                        // to be all of it; anything else is refused (fail closed).
                        guard v.end == t.end, x.isAtEnd else { return nil }
                        return (t.contentStart, v.start, list.contentStart, ext.start, ext.end, list.end, t.end)
                    }
                }
                return nil
            }
            return nil
        }
        guard let l = layout ?? nil else { return nil }
        self.certificate = certificate
        head = (l.0, l.1)
        keptBefore = (l.2, l.3)
        keptAfter = (l.4, l.5)
        let extCount = (l.3 - l.2) + (l.5 - l.4)
        // X.690 §8.1.3 / §10.1: definite, minimal lengths. An Extensions SEQUENCE with no element
        // left is omitted with its [3] (as `extensions` is OPTIONAL). The three headers are
        // written into one array of at most 3 × 6 octets: the only allocation.
        let seqHeader = extCount > 0 ? DERHeader.count(extCount) : 0
        let ctxHeader = extCount > 0 ? DERHeader.count(seqHeader + extCount) : 0
        let contentCount = (l.1 - l.0) + ctxHeader + seqHeader + extCount
        var h: [UInt8] = []
        h.reserveCapacity(18)
        DERHeader.append(&h, tag: 0x30, length: contentCount)
        tbsHeaderCount = h.count
        if extCount > 0 {
            DERHeader.append(&h, tag: 0xA3, length: seqHeader + extCount)
            DERHeader.append(&h, tag: 0x30, length: extCount)
        }
        headers = h
        count = tbsHeaderCount + contentCount
    }

    /// Calls `body` with each chunk of the encoding, in order (no copy of the certificate).
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
        headers.withUnsafeBytes { h in
            body(UnsafeRawBufferPointer(rebasing: h[0..<tbsHeaderCount]))
            certificate.der.withUnsafeBytes { b in
                body(UnsafeRawBufferPointer(rebasing: b[head.0..<head.1]))
                if h.count > tbsHeaderCount {
                    body(UnsafeRawBufferPointer(rebasing: h[tbsHeaderCount...]))
                    body(UnsafeRawBufferPointer(rebasing: b[keptBefore.0..<keptBefore.1]))
                    body(UnsafeRawBufferPointer(rebasing: b[keptAfter.0..<keptAfter.1]))
                }
            }
        }
    }

    /// The encoding as one array.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        forEachChunk { out.append(contentsOf: $0) }
        return out
    }
}
