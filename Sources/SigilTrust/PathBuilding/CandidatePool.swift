// Candidate issuers from the peer's intermediates (path building: PathBuilder.swift lists
// what lives where in PathBuilding/).

@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509

/// The untrusted intermediates a peer sent, as candidate issuers for path building. Hostile
/// input: a peer may send thousands of unrelated certificates, or many that share a subject.
///
/// Nothing is done per certificate when the verification starts. Candidates are found in two
/// passes of the same depth-first search (`Session.buildPath`):
///
/// 1. **Raw pass**: an anchor or a pool certificate is a candidate issuer of a child when its
///    subject encoding is byte-identical to the child's issuer encoding (the RFC 5280 §7.1
///    comparison is then true without normalising anything). Anchors are found through the
///    store's fingerprint index (`TrustStore.bySubjectBytes`: a binary search, built with the
///    store). A pool of up to `directScanLimit` certificates is scanned comparing the encodings
///    directly; a larger one records one 64-bit fingerprint per certificate on the first lookup
///    (subject length and last 8 octets: no hashing, one array), and each lookup scans those
///    and confirms a hit by comparing the bytes. The usual chain, whose CAs write their names
///    the same way each time, is found here without normalising or hashing any name.
/// 2. **§7.1 pass**, only when the raw pass found no path and the budget is not spent: the
///    whole search again with every anchor (through the store's `chainingKey` index) and every
///    pool certificate (through an index of `chainingKey` built once) whose subject matches the
///    issuer under RFC 5280 §7.1 (`DistinguishedName.matchesForChaining`). Every candidate of
///    pass 1 is a candidate again (CA checks and signature verdicts are cached by the session),
///    so the search is exactly as complete as a §7.1 search from the start, within the one
///    `VerificationBudget`. Across passes a byte-identical path may be found before a
///    §7.1-only one that would have been preferred — both are validated in full.
///
/// Filters, as the eager index had them: a copy of the leaf is never a candidate; of identical
/// certificates (same DER) only the first is; a pool certificate identical to an anchor that
/// matches is left out (it is considered as that anchor only).
///
/// Why hostile input cannot confuse the fingerprints: a fingerprint is only a filter, every hit
/// is confirmed by comparing the full encodings, and a certificate or anchor missed by pass 1
/// (whatever its bytes) is found by pass 2 before the verifier reports failure.
struct CandidatePool {
    /// The intermediates as handed over (not copied). Node `anchorCount + j` is `certificates[j]`.
    let certificates: [Certificate]
    /// The leaf's encoding (certificates are equal when their encodings are: `Certificate.==`),
    /// kept instead of a second copy of the whole leaf value.
    let leafDER: [UInt8]
    /// False in pass 1 (byte-identical subjects only), true in pass 2 (RFC 5280 §7.1).
    private(set) var normalised = false
    /// Pass 1: fingerprint of each certificate's subject encoding (built by the first lookup).
    private var fingerprints: [UInt64] = []
    /// Pass 2: `chainingKey` of each subject → indexes (built by the first §7.1 lookup).
    private var bySubject = [Int: [Int]]()
    /// Candidate lists already computed for an issuer encoding, kept only for long lists
    /// (pathological pools, where one issuer is looked up for every certificate at a depth);
    /// cleared when pass 2 starts.
    private var memo = [ByteSpan: [Int]]()
    /// Lists this long or longer are memoised (short ones cost less to recompute).
    static let memoThreshold = 8
    /// Above this many kept candidates duplicates are found by hashing instead of comparing each pair.
    static let linearDedupLimit = 16

    init(_ certificates: [Certificate], leaf: Certificate) {
        self.certificates = certificates
        self.leafDER = leaf.der
    }

    var count: Int { certificates.count }
    subscript(j: Int) -> Certificate { certificates[j] }

    /// True when a second, §7.1 pass can find candidates the first could not.
    var canWiden: Bool { !normalised }

    /// Switches to RFC 5280 §7.1 matching (pass 2).
    mutating func widen() {
        normalised = true
        memo = [:]
    }

    /// Appends to `list` the nodes (`anchorCount + j` for `certificates[j]`) of the candidate
    /// issuers for `issuer`, in pool order, with the filters above. The anchors matching
    /// `issuer` under this pass's rule are `list[0..<anchorMatches]` (indexes into
    /// `anchors.anchors`).
    mutating func appendCandidates(
        for issuer: DistinguishedName, to list: inout CandidateList, anchorMatches: Int, anchors: TrustStore
    ) {
        if certificates.isEmpty { return }
        let anchorCount = anchors.anchors.count
        if !memo.isEmpty, let m = memo[issuer.encoded] {
            for j in m { list.append(anchorCount + j) }
            return
        }
        let first = list.count
        var seen: Set<Certificate>? = nil
        // `certificates[j]` is read in place each time (a copy of the 225-byte value costs more
        // than the comparisons).
        func consider(_ j: Int, _ list: inout CandidateList) {
            if certificates[j].der == leafDER { return }
            // A certificate identical to an anchor matching `issuer` is that anchor: an identical
            // one has the same subject, so it matches `issuer` under this pass's rule too
            // (byte-identical in pass 1, §7.1 in pass 2) and is among `anchorMatches`.
            for k in 0..<anchorMatches where anchors.anchors[list[k]].certificate == certificates[j] { return }
            // Duplicates share their subject, so an earlier copy is in the list already.
            let kept = list.count - first
            if kept < CandidatePool.linearDedupLimit {
                for k in first..<list.count where certificates[list[k] - anchorCount] == certificates[j] { return }
            } else {
                if seen == nil {
                    var s = Set<Certificate>()
                    for k in first..<list.count { s.insert(certificates[list[k] - anchorCount]) }
                    seen = s
                }
                if !seen!.insert(certificates[j]).inserted { return }
            }
            list.append(anchorCount + j)
        }
        if normalised {
            if bySubject.isEmpty {
                bySubject.reserveCapacity(certificates.count)
                for (j, c) in certificates.enumerated() { bySubject[c.subject.chainingKey, default: []].append(j) }
            }
            for j in bySubject[issuer.chainingKey] ?? [] where certificates[j].subject.matchesForChaining(issuer) {
                consider(j, &list)
            }
        } else if certificates.count <= CandidatePool.directScanLimit {
            // A few certificates (the usual peer chain): compare the encodings directly, without
            // building the fingerprint array.
            let target = issuer.encoded
            for j in certificates.indices where CandidatePool.sameBytes(certificates[j].subject.encoded, target) {
                consider(j, &list)
            }
        } else {
            if fingerprints.isEmpty {
                fingerprints.reserveCapacity(certificates.count)
                for c in certificates { fingerprints.append(CandidatePool.fingerprint(c.subject.encoded)) }
            }
            let target = issuer.encoded
            let f = CandidatePool.fingerprint(target)
            for j in fingerprints.indices where fingerprints[j] == f {
                if CandidatePool.sameBytes(certificates[j].subject.encoded, target) { consider(j, &list) }
            }
        }
        if list.count - first >= CandidatePool.memoThreshold {
            var m: [Int] = []
            m.reserveCapacity(list.count - first)
            for k in first..<list.count { m.append(list[k] - anchorCount) }
            memo[issuer.encoded] = m
        }
    }

    /// Pools this small are searched by comparing subject encodings directly in pass 1.
    static let directScanLimit = 8

    /// Length and the last 8 octets of an encoding (the end of a name is its most specific
    /// RDN, usually the CN): a filter, never a verdict.
    static func fingerprint(_ s: ByteSpan) -> UInt64 {
        let n = s.count
        let tail: UInt64 = s.withUnsafeBytes { b in
            if n >= 8 { return b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) }
            var t: UInt64 = 0
            for x in b { t = t << 8 | UInt64(x) }
            return t
        }
        return tail ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Byte equality of two encodings, 8 octets at a time.
    static func sameBytes(_ a: ByteSpan, _ b: ByteSpan) -> Bool {
        let n = a.count
        guard n == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                var i = 0
                while i + 8 <= n {
                    if x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        != y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    {
                        return false
                    }
                    i += 8
                }
                while i < n {
                    if x[i] != y[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }
}
