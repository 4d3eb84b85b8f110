// Path building, in one folder (Sources/SigilTrust/PathBuilding/):
//
//   PathBuilder.swift        the search: `Session.buildPath` (two passes), `extend` (depth-first
//                            with backtracking), candidate lookup (`collectCandidateIssuers`)
//                            and ordering (`order`: anchors first, AKI/SKI matches first)
//   CandidatePool.swift      the peer's intermediates as candidate issuers (byte-identical
//                            names, then RFC 5280 §7.1), with the filters and the indexes
//   PathNodes.swift          `PathNodes` (the path being built, inline) and `CandidateList`
//                            (one certificate's candidate issuers, inline up to eight)
//   SmallCache.swift         the per-verification caches keyed by node (facts, CA checks,
//                            signature verdicts)
//   VerificationBudget.swift the one work budget of a verification, and its default limits
//
// ChainVerifier.swift holds the public `ChainVerifier`, the session's state (`Session`), `run`
// and the checks of one candidate issuer (`Session.check(candidate:at:path:options:)`); the checks
// themselves are the check units of Checks/ (Checks/CheckUnit.swift lists them).

import SigilDER
@_spi(SigilInternal) import SigilX509

extension Session {
    /// Path building in the two passes described at `CandidatePool`: byte-identical names
    /// first; the RFC 5280 §7.1 search only when that found no path. Failures noted in pass 1
    /// are dropped (its "no issuer" may be wrong): pass 2 sees every candidate and notes its own.
    mutating func buildPath(_ path: inout PathNodes, _ options: VerificationOptions) -> Int? {
        if let anchor = extend(&path, options) { return anchor }
        guard !budgetHit, pool.canWiden else { return nil }
        pool.widen()
        best = nil
        return extend(&path, options)
    }

    /// Extends `path` (leaf first) towards an anchor; returns the anchor's node on success, with
    /// `path` holding the leaf and the intermediates.
    mutating func extend(_ path: inout PathNodes, _ options: VerificationOptions) -> Int? {
        let childNode = path[path.count - 1]
        let depth = path.count  // index the issuer would have
        var candidates = CandidateList()
        collectCandidateIssuers(of: withCertificate(childNode) { c, _ in c.issuer }, into: &candidates)
        order(&candidates, for: childNode)
        var tried = 0
        defer {
            // No issuer at all (or only ones already on the path): the chain ends here.
            if tried == 0 && !budgetHit {
                let selfIssued = isSelfIssued(childNode)
                let child = certificate(childNode)
                note(
                    TrustFailure(
                        selfIssued ? .untrustedRoot : .unknownIssuer, at: depth - 1,
                        selfIssued
                            ? "self-signed certificate \(child.subject.rfc4514String) is not a trust anchor"
                            : "no certificate found for issuer \(child.issuer.rfc4514String)"))
            }
        }
        for k in 0..<candidates.count {
            let node = candidates[k]
            if !budget.spendCandidateVisit() || budget.signatureChecks <= 0 {
                budgetHit = true
                return nil
            }
            // Loop detection: a certificate, or the same logical CA (subject and key), at most
            // once per path. Compared directly (the path is at most `maximumPathLength` long;
            // identical encodings have identical subject and key, so those are caught too).
            var looped = false
            for n in path {
                if n == node {
                    looped = true
                    break
                }
                // (Compared in place: `sameSubjectAndKey` makes no views of the encodings.)
                if withCertificates(n, node, { c, cand, _ in c.sameSubjectAndKey(as: cand) }) {
                    looped = true
                    break
                }
            }
            if looped { continue }
            tried += 1
            if path.count + 1 > ChainVerifier.maximumPathLength {
                note(
                    TrustFailure(
                        .maximumDepthExceeded, at: depth,
                        "path longer than \(ChainVerifier.maximumPathLength) certificates"))
                continue
            }
            if let f = check(candidate: node, at: depth, path: path, options: options) {
                if budgetHit { return nil }
                note(f)
                continue
            }
            if isAnchor(node) {
                // The path is complete: RFC 5280 §6.1 policy processing (Checks/PolicyCheck.swift),
                // then revocation (§6.3, Checks/RevocationCheck.swift).
                if let f = policyFailure(path: path, options: options) {
                    note(f)
                    if budgetHit { return nil }
                    continue
                }
                if options.revocation != nil,
                    let f = revocationFailure(path: Array(path), anchor: node, options: options)
                {
                    note(f)
                    if budgetHit { return nil }
                    continue
                }
                return node
            }
            path.append(node)
            if let anchor = extend(&path, options) { return anchor }
            path.removeLast()
            if budgetHit { return nil }
        }
        return nil
    }

    /// Anchors whose subject matches the child's issuer, then pool certificates whose subject
    /// does: byte-identical in the first pass, RFC 5280 §7.1 in the second (CandidatePool.swift).
    mutating func collectCandidateIssuers(of issuer: DistinguishedName, into list: inout CandidateList) {
        if pool.normalised {
            verifier.anchors.appendAnchors(withSubject: issuer, to: &list)
        } else {
            verifier.anchors.appendAnchors(withSubjectBytes: issuer.encoded, to: &list)
        }
        pool.appendCandidates(for: issuer, to: &list, anchorMatches: list.count, anchors: verifier.anchors)
    }

    /// Anchors first; within each group, candidates whose SKI equals the child's AKI keyIdentifier
    /// first, then those without an SKI, then mismatches (kept: AKI is a hint, RFC 5280 §4.2.1.1).
    /// Stable: equal scores keep the lookup order.
    mutating func order(_ list: inout CandidateList, for childNode: Int) {
        let n = list.count
        if n < 2 { return }
        let child = certificate(childNode)
        let childFacts = facts(childNode)
        func score(_ node: Int) -> Int {
            var s = isAnchor(node) ? 0 : 10
            switch CertificateFacts.keyIDsMatch(child: childFacts, child, candidate: facts(node), certificate(node)) {
            case true?: break
            case false?: s += 2
            case nil: s += 1
            }
            return s
        }
        if n <= CandidateList.inlineCapacity {
            // Insertion sort on (score, position), scores worked out once.
            var scores: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &scores) { sc in
                for i in 0..<n { sc.storeBytes(of: score(list[i]), toByteOffset: i * 8, as: Int.self) }
                for i in 1..<n {
                    let node = list[i]
                    let s = sc.load(fromByteOffset: i * 8, as: Int.self)
                    var j = i
                    while j > 0 && sc.load(fromByteOffset: (j - 1) * 8, as: Int.self) > s {
                        list[j] = list[j - 1]
                        sc.storeBytes(
                            of: sc.load(fromByteOffset: (j - 1) * 8, as: Int.self), toByteOffset: j * 8, as: Int.self)
                        j -= 1
                    }
                    list[j] = node
                    sc.storeBytes(of: s, toByteOffset: j * 8, as: Int.self)
                }
            }
            return
        }
        var scored: [(Int, Int, Int)] = []
        scored.reserveCapacity(n)
        for offset in 0..<n {
            let node = list[offset]
            scored.append((score(node), offset, node))
        }
        scored.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        for i in 0..<n { list[i] = scored[i].2 }
    }
}
