import SigilDER
@_spi(SigilInternal) import SigilX509

/// Revocation checking of a validated path (RFC 5280 §6.3 for CRLs, RFC 6960 for OCSP).
///
/// For each certificate of the path except the anchor, its status is established from the
/// CRLs and OCSP responses the caller gave: revoked if any usable source says so, good if a
/// usable source covers it (CRLs: for all reasons, §6.3.3 (d)), undetermined otherwise — with
/// the reasons every unusable source was rejected for.
///
/// A CRL is in scope per distribution point (§6.3.3 (b): a DP naming a cRLIssuer takes only
/// that issuer's indirect CRL; names compared as fullName or nameRelativeToCRLIssuer resolved,
/// §4.2.1.13, §5.2.5), or as the issuer's CRL not specified in any DP (§6.3.3, last paragraph).
/// A CRL signed by another key than the path's issuer is used only when its signer's own path
/// validates to the same anchor with its revocation status good (§6.3.3 (f)): a nested
/// verification with the same CRLs, responses and budget, in which no enclosing signer may
/// sign (a signer never vouches for itself), at most `RevocationOptions.maximumCRLSignerDepth`
/// deep. Fixtures: `Fixtures/revocation/` and `Fixtures/revocation/rules/`.
struct RevocationChecker {
    let options: RevocationOptions
    let time: Double
    let algorithms: AlgorithmPolicy
    let verifier: any CertificateSignatureVerifier
    /// Certificates that may sign CRLs or chain a separate CRL signer (the path and the pool).
    let certificates: [Certificate]
    /// The path's trust anchor: a separate CRL signer must chain to it (§6.3.3 (f)).
    let anchor: TrustAnchor
    /// Work shared by every path checked in one verification (budget, signature cache).
    let work: RevocationWork

    /// ReasonFlags bits 1...8 (`unused` excluded): every reason (§6.3.3, "all-reasons").
    static let allReasons: UInt16 = 0x1FE

    /// Statuses for `path` (leaf first, anchor last).
    func check(path: [Certificate]) -> [CertificateRevocationStatus] {
        let count = options.scope == .leafOnly ? min(1, path.count - 1) : path.count - 1
        var out: [CertificateRevocationStatus] = []
        for i in 0..<max(0, count) {
            out.append(status(of: path[i], issuer: path[i + 1], path: path, index: i))
        }
        return out
    }

    func status(of c: Certificate, issuer: Certificate, path: [Certificate], index: Int) -> CertificateRevocationStatus
    {
        var notes: [String] = []
        let ocsp = OCSPChecker(options: options, time: time, algorithms: algorithms, verifier: verifier, work: work)
            .status(of: c, issuer: issuer, notes: &notes)
        let crl = crlStatus(of: c, issuer: issuer, notes: &notes)
        if let crl, case .revoked = crl {
            return CertificateRevocationStatus(certificateIndex: index, status: crl, source: .crl)
        }
        if let ocsp, case .revoked = ocsp {
            return CertificateRevocationStatus(certificateIndex: index, status: ocsp, source: .ocsp)
        }
        if crl == .good { return CertificateRevocationStatus(certificateIndex: index, status: .good, source: .crl) }
        if ocsp == .good { return CertificateRevocationStatus(certificateIndex: index, status: .good, source: .ocsp) }
        if notes.isEmpty { notes.append("no CRL or OCSP response covers it") }
        return CertificateRevocationStatus(
            certificateIndex: index, status: .undetermined(notes.joined(separator: "; ")), source: nil)
    }

    // MARK: CRLs (§6.3.3)

    /// `.revoked`, `.good` (complete CRLs covering all reasons say it is not revoked), or nil.
    ///
    /// Every usable complete CRL in scope is read, not only until the reasons are covered: a
    /// current CRL that lists the certificate revokes it (§6.3.3 (j)) unless a newer CRL of the
    /// same scope (issuer, issuingDistributionPoint, authorityKeyIdentifier) supersedes it.
    /// §5.2.3 makes CRL numbers "monotonically increasing" only "for a given CRL scope and CRL
    /// issuer", so a higher number of another scope (a distribution point's CRL, an
    /// onlyContainsUserCerts CRL) says nothing about this one. OpenSSL picks one CRL by scope
    /// score and thisUpdate, and for two full-scope CRLs its verdict depends on their order
    /// (Fixtures/revocation/multi/, `two-scopes-dp` and `-reversed`); §6.3.3 may stop once
    /// reasons_mask is all-reasons, but reading on only ever fails closed.
    func crlStatus(of c: Certificate, issuer: Certificate, notes: inout [String]) -> RevocationStatus? {
        if options.crls.isEmpty { return nil }
        var reasonsMask: UInt16 = 0
        let isCA = ((try? c.basicConstraints()) ?? nil)?.isCA == true
        var points: [DistributionPoint] = []
        if let dps = (try? c.crlDistributionPoints()) ?? nil { for p in dps { points.append(p) } }
        var anyInScope = false
        // The scopes already decided by a newer CRL (newest first: §5.2.3, the higher number supersedes).
        var decided: [CertificateList] = []
        for crl in newestFirst(options.crls) where !crl.isDelta {
            guard let scope = scope(of: crl, for: c, isCA: isCA, points: points, notes: &notes) else { continue }
            anyInScope = true
            let usability = usability(crl, notes: &notes)
            if usability == .unusable { continue }
            if decided.contains(where: { sameScope($0, crl) }) { continue }
            if usability == .revokesOnly {
                // Not current, or not conforming (`Usability.revokesOnly`): it shows nothing
                // not revoked and supersedes no CRL of its scope, but a correctly signed CRL in
                // scope that lists the certificate revokes it (the entry is looked up before
                // the signer, which costs signatures).
                guard let e = entry(in: crl, for: c), revokesWhenNotCurrent(e, crl) else { continue }
                guard signerValid(crl, directIssuer: scope.indirect ? nil : issuer, notes: &notes) else { continue }
                return .revoked(reason: e.reason ?? .unspecified, date: e.revocationDate)
            }
            guard signerValid(crl, directIssuer: scope.indirect ? nil : issuer, notes: &notes) else { continue }
            decided.append(crl)
            // (d): the reasons this CRL covers for this certificate.
            var interim = RevocationChecker.allReasons
            if let r = crl.facts.issuingDistributionPoint?.onlySomeReasons { interim &= r }
            if let r = scope.point?.reasons { interim &= r }
            var vouches = vouchesForGood(crl, notes: &notes)
            // (c), (i): a matching delta CRL is searched first.
            var found: RevokedCertificate?
            if options.useDeltaCRLs,
                let delta = delta(for: crl, directIssuer: scope.indirect ? nil : issuer, notes: &notes)
            {
                found = entry(in: delta, for: c)
                vouches = vouchesForGood(delta, notes: &notes) && vouches
            }
            // (j): then the complete CRL. A delta's removeFromCRL releases only a certificateHold
            // of the base: removeFromCRL (§5.3.1, delta CRLs only; §5.2.4) takes an entry off the
            // list because the certificate expired — which validity refuses at the verification
            // time — or was released from hold (X.509's reasonCode); only a hold is reversible.
            // OpenSSL skips the base after any removeFromCRL and trusts a certificate its base
            // revokes for keyCompromise (Fixtures/revocation/multi/, delta-removes-revoked).
            let base = entry(in: crl, for: c)
            // §5.3.1: "The removeFromCRL (8) reasonCode value may only appear in delta CRLs". A
            // complete CRL listing the certificate with it does not conform: the entry does not
            // revoke (no reason is given) and the CRL cannot show the certificate not revoked
            // either, so it decides nothing for it (fail closed: undetermined unless another
            // source decides). OpenSSL's cert_crl reads it as not revoked
            // (Fixtures/revocation/multi/, complete-lists-remove).
            if base?.reason == .removeFromCRL {
                notes.append(
                    "the CRL of \(crl.issuer.rfc4514String) lists the certificate with reason removeFromCRL, which RFC 5280 §5.3.1 allows only in delta CRLs"
                )
                vouches = false
            }
            if found == nil {
                found = base
            } else if found?.reason == .removeFromCRL, let b = base,
                b.reason != .certificateHold && b.reason != .removeFromCRL
            {
                found = b
            }
            if let e = found {
                let reason = e.reason ?? .unspecified
                // (k): removeFromCRL (in a delta) means no longer revoked (certificateHold released).
                if reason != .removeFromCRL { return .revoked(reason: reason, date: e.revocationDate) }
            }
            if vouches { reasonsMask |= interim }
        }
        if reasonsMask == RevocationChecker.allReasons { return .good }
        if !anyInScope {
            notes.append("no CRL in scope (issuer \(c.issuer.rfc4514String))")
        } else if reasonsMask != 0 {
            notes.append("the usable CRLs cover only some revocation reasons")
        }
        return nil
    }

    /// §5.2.3, §5.2.4: one scope — the same issuer, issuingDistributionPoint and
    /// authorityKeyIdentifier (what a delta CRL must share with its base).
    func sameScope(_ a: CertificateList, _ b: CertificateList) -> Bool {
        a.issuer.matchesForChaining(b.issuer)
            && a.facts.issuingDistributionPointEncoding == b.facts.issuingDistributionPointEncoding
            && a.facts.authorityKeyIdentifier == b.facts.authorityKeyIdentifier
    }

    /// Can `crl` show a certificate not revoked? §5.1.2.5: "Conforming CRL issuers MUST include
    /// the nextUpdate time in all CRLs"; without it, §6.3.3 (a)(2) sets no end, so the CRL
    /// vouches only while its thisUpdate is at most `maximumCRLAgeWithoutNextUpdate` old (as an
    /// OCSP response without nextUpdate, RFC 6960 §4.2.2.1; Chrome bounds every CRL's age).
    /// Its entries revoke either way. OpenSSL sets no limit. Written to hold positively (a time
    /// that is not a number vouches for nothing).
    func vouchesForGood(_ crl: CertificateList, notes: inout [String]) -> Bool {
        if crl.nextUpdate != nil { return true }
        if time - Double(crl.thisUpdate) <= Double(options.maximumCRLAgeWithoutNextUpdate) { return true }
        notes.append(
            "\(crl.isDelta ? "delta " : "")CRL of \(crl.issuer.rfc4514String) has no nextUpdate (RFC 5280 §5.1.2.5) and is older than \(options.maximumCRLAgeWithoutNextUpdate) s (thisUpdate \(DERTime.rfc3339(crl.thisUpdate))): it cannot show a certificate not revoked"
        )
        return false
    }

    /// The CRLs, highest cRLNumber first (then latest thisUpdate, then as given). §5.2.3: the
    /// CRL number "allows users to easily determine when a particular CRL supersedes another
    /// CRL". Of several current CRLs of one scope, the newest decides and the older ones are
    /// skipped (`crlStatus`): a released certificateHold (§5.3.1) is not revived by an older
    /// CRL. As OpenSSL, which takes the CRL with the latest thisUpdate among equally scoped ones.
    func newestFirst(_ crls: [CertificateList]) -> [CertificateList] {
        guard crls.count > 1 else { return crls }
        return crls.indices.sorted { i, j in
            let a = crls[i]
            let b = crls[j]
            switch (a.facts.crlNumber, b.facts.crlNumber) {
            case (let x?, let y?):
                let c = compareNumbers(x, y)
                if c != 0 { return c > 0 }
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): break
            }
            if a.thisUpdate != b.thisUpdate { return a.thisUpdate > b.thisUpdate }
            return i < j
        }.map { crls[$0] }
    }

    struct Scope {
        var indirect: Bool
        var point: DistributionPoint?
    }

    /// A distribution point's names (§6.3.3 (b)(2)(i)): its fullName, or the DNs its
    /// nameRelativeToCRLIssuer resolves to (§4.2.1.13, §5.2.5), or a cRLIssuer's names.
    enum PointNames {
        case general(GeneralNames)
        case directory([DistinguishedName])

        /// Do the two share a name? A directoryName matches a DN by `matchesForChaining`.
        func overlaps(_ other: PointNames, _ equal: (GeneralName, GeneralName) -> Bool) -> Bool {
            switch (self, other) {
            case (.general(let a), .general(let b)):
                for x in a { for y in b where equal(x, y) { return true } }
            case (.general(let a), .directory(let d)), (.directory(let d), .general(let a)):
                for x in a {
                    if case .directoryName(let n) = x, d.contains(where: { $0.matchesForChaining(n) }) { return true }
                }
            case (.directory(let a), .directory(let b)):
                for x in a where b.contains(where: { $0.matchesForChaining(x) }) { return true }
            }
            return false
        }
    }

    /// The name of a DistributionPointName: fullName, or the fragment appended to each of
    /// `bases` (§4.2.1.13: the cRLIssuer's DN when present, else the certificate issuer's;
    /// §5.2.5: the CRL issuer's). A fragment that does not make a valid name names nothing.
    func pointName(full: GeneralNames?, relative: ByteSpan?, bases: [DistinguishedName]) -> PointNames? {
        if let full { return .general(full) }
        guard let relative else { return nil }
        return .directory(bases.compactMap { $0.appending(relativeName: relative) })
    }

    func directoryNames(_ names: GeneralNames) -> [DistinguishedName] {
        var out: [DistinguishedName] = []
        for n in names { if case .directoryName(let d) = n { out.append(d) } }
        return out
    }

    /// §6.3.3 (b): is `crl` the one for `c`? nil when out of scope (a note says why when it is
    /// from the right issuer but still does not apply).
    func scope(
        of crl: CertificateList, for c: Certificate, isCA: Bool, points: [DistributionPoint], notes: inout [String]
    ) -> Scope? {
        let idp = crl.facts.issuingDistributionPoint
        let direct = crl.issuer.matchesForChaining(c.issuer)
        let label = "CRL of \(crl.issuer.rfc4514String)"
        // The IDP's distribution point name; a relative one is appended to the CRL issuer's DN (§5.2.5).
        let idpName = idp.flatMap { i in
            i.fullName.map { PointNames.general($0) }
                ?? i.relativeName.flatMap { pointName(full: nil, relative: $0, bases: [crl.issuer]) }
        }
        var relevant = direct
        var matched: DistributionPoint?
        var found = false
        var why = "its issuing distribution point is not one of the certificate's"
        for p in points {
            // (b)(1): a DP that names a cRLIssuer takes only a CRL of that issuer asserting
            // indirectCRL; a DP without one takes only the certificate issuer's CRLs.
            // A cRLIssuer naming the certificate issuer itself (which §4.2.1.13 says to omit)
            // is read as absent: such a CRL is the issuer's own, signed by the path's issuer.
            if let ci = p.crlIssuer, !(direct && names(ci, contain: c.issuer)) {
                guard names(ci, contain: crl.issuer) else { continue }
                relevant = true
                guard idp?.indirectCRL == true else {
                    why =
                        "it is the cRLIssuer of a distribution point but does not assert indirectCRL (RFC 5280 §6.3.3 (b)(1))"
                    continue
                }
            } else if !direct {
                continue
            }
            // (b)(2)(i): when the IDP names a point, one of the DP's names must be one of its
            // names; a DP without a distributionPoint is named by its cRLIssuer.
            if let idpName {
                // (The bases of a relative name are made only for one: no array otherwise.)
                let dpName =
                    p.fullName.map { PointNames.general($0) }
                    ?? p.relativeName.flatMap { r in
                        pointName(full: nil, relative: r, bases: p.crlIssuer.map(directoryNames) ?? [c.issuer])
                    }
                    ?? p.crlIssuer.map { PointNames.general($0) }
                guard let dpName, idpName.overlaps(dpName, generalNamesEqual) else { continue }
            }
            matched = p
            found = true
            break
        }
        // §6.3.3, closing paragraph: a CRL of the certificate issuer not specified in any of
        // its distribution points is processed as for a DP named by the certificate issuer,
        // without reasons or cRLIssuer.
        if !found && direct {
            if let idpName {
                found = idpName.overlaps(.directory([c.issuer]), generalNamesEqual)
            } else {
                found = true
            }
        }
        guard found else {
            if relevant { notes.append("\(label): \(why)") }
            return nil
        }
        if let idp {
            // (b)(2)(ii)-(iv)
            if idp.onlyContainsUserCerts && isCA {
                notes.append("\(label) covers only end-entity certificates")
                return nil
            }
            if idp.onlyContainsCACerts && !isCA {
                notes.append("\(label) covers only CA certificates")
                return nil
            }
            if idp.onlyContainsAttributeCerts {
                notes.append("\(label) covers only attribute certificates")
                return nil
            }
        }
        return Scope(indirect: !direct, point: matched)
    }

    /// What a CRL may decide (`usability`).
    enum Usability {
        /// Current and conforming: its entries revoke and its silence shows a certificate not
        /// revoked (for the reasons it covers).
        case usable
        /// Its entries revoke, its silence shows nothing: not current (§6.3.3 (a): thisUpdate
        /// after the verification time, or nextUpdate before it) or not conforming in a way
        /// that does not hide what it lists (no cRLNumber — a v1 CRL — or a critical cRLNumber
        /// or authorityKeyIdentifier, §5.2.1, §5.2.3). §3.3: a revoked certificate's entry "MUST
        /// NOT be removed from the CRL until it appears on one regularly scheduled CRL issued
        /// beyond the revoked certificate's validity period", and RFC 6960 §2.2 calls
        /// revocation permanent unless the reason is certificateHold: a correctly signed list
        /// that names the certificate is evidence against it whatever its age (fail closed;
        /// OpenSSL reports such a certificate revoked too). A hold in a CRL that is not
        /// current is not (`revokesWhenNotCurrent`).
        case revokesOnly
        /// Not used at all: an unsupported critical extension (§5.2: the application "MUST NOT
        /// use that CRL to determine the status of certificates"), or a signature algorithm the
        /// policy refuses.
        case unusable
    }

    /// §6.3.3 (a) and the CRL profile: current, and nothing in it Sigil cannot process.
    func usability(_ crl: CertificateList, notes: inout [String]) -> Usability {
        let label = "\(crl.isDelta ? "delta " : "")CRL of \(crl.issuer.rfc4514String)"
        if let oid = crl.facts.unsupportedCriticalExtension {
            notes.append("\(label) has an unsupported critical extension \(oid) (RFC 5280 §5.2, §5.3)")
            return .unusable
        }
        if let f = digestFailure(crl.signatureAlgorithm) {
            notes.append("\(label) is signed with \(f)")
            return .unusable
        }
        var result = Usability.usable
        // Both tests must hold positively: a time that is not a number fails them (fail closed).
        if !(Double(crl.thisUpdate) <= time) {
            notes.append("\(label) is not yet valid (thisUpdate \(DERTime.rfc3339(crl.thisUpdate)))")
            result = .revokesOnly
        }
        // (a)(2): "If the current time is after the value of the CRL next update field, then"
        // the CRL may not be used. Whole seconds, inclusive (as certificate validity).
        if let next = crl.nextUpdate, !(time < Double(next) + 1) {
            notes.append("\(label) is stale (nextUpdate \(DERTime.rfc3339(next)))")
            result = .revokesOnly
        }
        // §5.2.3: conforming CRL issuers MUST include the CRL number, non-critical.
        if crl.facts.crlNumber == nil {
            notes.append("\(label) has no cRLNumber (RFC 5280 §5.2.3)")
            result = .revokesOnly
        }
        if crl.facts.crlNumberCritical || crl.facts.authorityKeyIdentifierCritical {
            notes.append("\(label) marks cRLNumber or authorityKeyIdentifier critical (RFC 5280 §5.2.1, §5.2.3)")
            result = .revokesOnly
        }
        return result
    }

    /// Whether entry `e` of a CRL that is only `revokesOnly` revokes: removeFromCRL never does
    /// (§5.3.1), and certificateHold — the one reversible reason (§5.3.1, RFC 6960 §2.2) —
    /// only while the CRL is current (a CRL that is current but lacks its cRLNumber still
    /// holds).
    func revokesWhenNotCurrent(_ e: RevokedCertificate, _ crl: CertificateList) -> Bool {
        switch e.reason {
        case .removeFromCRL?: return false
        case .certificateHold?:
            return Double(crl.thisUpdate) <= time && crl.nextUpdate.map { time < Double($0) + 1 } ?? true
        default: return true
        }
    }

    func digestFailure(_ a: SignatureAlgorithm) -> String? { algorithms.revocationDataRefusal(a) }

    /// §6.3.3 (f), (g): the CRL's signature verifies with the key of a certificate that may
    /// sign CRLs (cRLSign when keyUsage is present) and that is either the certificate's issuer
    /// on the path, or a certificate whose own path ends at the same anchor — validated like any
    /// path (§6.1), its revocation status included (§6.3.3 (f)), with the same CRLs, OCSP
    /// responses and policy, within the one verification budget. A signer whose status is being
    /// established (an enclosing check) does not sign for it: a status only a CRL the signer
    /// signs itself could decide stays undetermined.
    func signerValid(_ crl: CertificateList, directIssuer: Certificate?, notes: inout [String]) -> Bool {
        let label = "\(crl.isDelta ? "delta " : "")CRL of \(crl.issuer.rfc4514String)"
        var why = "no certificate of \(crl.issuer.rfc4514String) verifies its signature"
        func tryCandidate(_ s: Certificate) -> Bool {
            if let aki = crl.facts.authorityKeyIdentifier, let ski = (try? s.subjectKeyIdentifier()) ?? nil, aki != ski
            {
                return false
            }
            if options.crlSignerChain.contains(s) {
                why =
                    "its signer \(s.subject.rfc4514String) is the CRL signer whose own status is being checked"
                    + " (a CRL cannot vouch for its own signer, RFC 5280 §6.3.3 (f))"
                return false
            }
            if let ku = (try? s.keyUsage()) ?? nil, !ku.contains(.cRLSign) {
                why = "its issuer \(s.subject.rfc4514String) lacks the cRLSign key usage (RFC 5280 §6.3.3 (f))"
                return false
            }
            guard
                let verdict = work.verify(
                    crl.tbsCertList, signer: s,
                    {
                        verifier.verifySignedData(
                            algorithm: crl.signatureAlgorithm, signed: crl.tbsCertList, signature: crl.signature,
                            signer: s)
                    })
            else {
                why = "the verification budget is exhausted"
                return false
            }
            switch verdict {
            case .valid: return true
            case .unsupportedAlgorithm: why = "its signature algorithm \(crl.signatureAlgorithm.name) cannot be checked"
            default: why = "its signature does not verify with the key of \(s.subject.rfc4514String)"
            }
            return false
        }
        if let direct = directIssuer, tryCandidate(direct) { return true }
        // A separate CRL signer: another key (same name, or an indirect CRL's issuer); it must
        // validate to the same anchor, revocation included.
        // Every candidate of the CRL issuer's name is tried: the verification's one budget
        // bounds the work (each costs a signature check, a signer's path its own checks), and
        // running out fails the verification closed whatever the revocation policy
        // (`Session.revocationFailure`). A count per CRL used to stop after four candidates and
        // leave the CRL unused: a peer that sent four junk certificates with the CRL issuer's
        // name ahead of the real one turned a revoking indirect CRL into "undetermined", which
        // soft fail trusts (found by review, 2026-12-03).
        var seen: [Certificate] = directIssuer.map { [$0] } ?? []
        for s in certificates + [anchor.certificate] where s.subject.matchesForChaining(crl.issuer) && !seen.contains(s)
        {
            seen.append(s)
            guard tryCandidate(s) else { continue }
            if s == anchor.certificate { return true }
            // Nested signer paths are bounded (each level is a verification of its own, all
            // charged to the one budget).
            if options.crlSignerChain.count >= RevocationOptions.maximumCRLSignerDepth {
                why =
                    "its signer \(s.subject.rfc4514String) would need a CRL signer path nested deeper than"
                    + " \(RevocationOptions.maximumCRLSignerDepth)"
                continue
            }
            var store = TrustStore()
            // The anchor already ended the path this CRL serves, under that path's purpose: its
            // trust settings (if any) were applied there and are not asked again of the
            // signer's `.basic` path.
            store.add(TrustAnchor(anchor, trustSettings: nil))
            var o = VerificationOptions(purpose: .basic, time: time)
            o.algorithms = algorithms
            // §6.3.3 (f): the signer's path is checked for revocation like the path it serves
            // (the whole path, or only the signer itself when only leaves are checked).
            var nested = options
            nested.crlSignerChain.append(s)
            o.revocation = nested
            guard
                let result = work.validateSigner(
                    ChainVerifier(anchors: store, signatureVerifier: verifier),
                    leaf: s, intermediates: certificates, options: o)
            else {
                why = "the verification budget is exhausted"
                break
            }
            if case .trusted(_, _, let details) = result {
                // Under soft fail the signer's path is trusted with an undetermined status;
                // the CRL then decides nothing either (the certificate it serves is reported
                // undetermined, never good on the word of a signer of unknown status).
                guard let open = details.revocation.first(where: { $0.status != .good }),
                    case .undetermined(let reason) = open.status
                else { return true }
                why =
                    "the revocation status of \(open.certificateIndex == 0 ? "its signer \(s.subject.rfc4514String)" : "its signer's issuer") is undetermined: \(reason)"
                continue
            }
            let reasons = result.failures.prefix(2).map(\.message).joined(separator: "; ")
            why = "the path of its signer \(s.subject.rfc4514String) does not validate to the path's anchor: \(reasons)"
        }
        notes.append("\(label) is not usable: \(why)")
        return false
    }

    /// §6.3.3 (c): the newest usable delta CRL for `complete`: same issuer, same IDP, same AKI,
    /// BaseCRLNumber ≤ the complete CRL's number < the delta's number (§5.2.4).
    func delta(for complete: CertificateList, directIssuer: Certificate?, notes: inout [String]) -> CertificateList? {
        guard let base = complete.facts.crlNumber else { return nil }
        var best: CertificateList?
        for d in options.crls where d.isDelta {
            guard d.issuer.matchesForChaining(complete.issuer),
                d.facts.issuingDistributionPointEncoding == complete.facts.issuingDistributionPointEncoding,
                d.facts.authorityKeyIdentifier == complete.facts.authorityKeyIdentifier,
                let dn = d.facts.crlNumber, let db = d.facts.deltaBaseCRLNumber,
                compareNumbers(db, base) <= 0, compareNumbers(dn, base) > 0
            else { continue }
            if let b = best, let bn = b.facts.crlNumber, compareNumbers(bn, dn) >= 0 { continue }
            guard usability(d, notes: &notes) == .usable,
                signerValid(d, directIssuer: directIssuer, notes: &notes)
            else { continue }
            best = d
        }
        return best
    }

    /// INTEGER content octets of non-negative numbers, compared numerically.
    func compareNumbers(_ a: ByteSpan, _ b: ByteSpan) -> Int {
        let x = Array(a.bytes.drop { $0 == 0 })
        let y = Array(b.bytes.drop { $0 == 0 })
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }

    /// The entry of `crl` for `c` (serial, and for indirect CRLs the certificate issuer, §5.3.3).
    func entry(in crl: CertificateList, for c: Certificate) -> RevokedCertificate? {
        let indirect = crl.facts.issuingDistributionPoint?.indirectCRL == true
        // The sorted-index range and one entry decoded at a time: no array per lookup.
        for i in crl.entryIndices(serial: c.serialNumber) {
            guard let e = crl.entry(sortedIndex: i) else { continue }
            if !indirect { return e }
            if let names = e.certificateIssuer {
                if self.names(names, contain: c.issuer) { return e }
            } else if crl.issuer.matchesForChaining(c.issuer) {
                return e
            }
        }
        return nil
    }

    func names(_ names: GeneralNames, contain dn: DistinguishedName) -> Bool {
        for n in names { if case .directoryName(let d) = n, d.matchesForChaining(dn) { return true } }
        return false
    }

    func sharesName(_ a: GeneralNames, _ b: GeneralNames) -> Bool {
        for x in a { for y in b where generalNamesEqual(x, y) { return true } }
        return false
    }

    func generalNamesEqual(_ a: GeneralName, _ b: GeneralName) -> Bool {
        switch (a, b) {
        case (.directoryName(let x), .directoryName(let y)): return x.matchesForChaining(y)
        case (.uri(let x), .uri(let y)), (.dnsName(let x), .dnsName(let y)), (.rfc822Name(let x), .rfc822Name(let y)),
            (.ipAddress(let x), .ipAddress(let y)), (.registeredID(let x), .registeredID(let y)),
            (.x400Address(let x), .x400Address(let y)), (.ediPartyName(let x), .ediPartyName(let y)):
            return x == y
        case (.otherName(let t1, let v1), .otherName(let t2, let v2)): return t1 == t2 && v1 == v2
        default: return false
        }
    }
}

// MARK: - Work budget

/// The revocation work of one verification, shared by every candidate path (why: a hostile
/// peer's intermediates can make many complete paths, each checked against every CRL; without
/// a bound that multiplies signature checks). Verdicts on the same signed bytes and signer are
/// cached; each new signature check spends one of the verification's
/// `VerificationBudget.signatureChecks`, and a separate CRL signer's path validation spends
/// from the same budget whatever it uses. The session hands its budget in before checking a
/// path and takes what is left back after: there is no separate revocation limit. When the
/// budget runs out, the remaining sources are not used and `exhausted` is set; the session
/// then fails the verification with `budgetExhausted` (whatever the revocation policy).
final class RevocationWork {
    /// What is left of the verification's budget while revocation checking runs.
    var budget: VerificationBudget
    /// Set when a check was refused for want of budget.
    var exhausted = false
    private var verdicts: [Key: SignatureVerdict] = [:]

    init(budget: VerificationBudget = .standard) {
        self.budget = budget
    }

    /// The signed bytes by identity: their storage's address and range (every CRL, response
    /// and certificate stays alive in the options, path or pool for the whole verification, so
    /// an address is never reused within one `RevocationWork`), and the signer's encoding.
    struct Key: Hashable {
        let address: UInt
        let start: Int
        let end: Int
        let signer: [UInt8]
    }

    /// The cached verdict, or `check()` when the budget allows (nil when it does not).
    func verify(_ signed: ByteSpan, signer: Certificate, _ check: () -> SignatureVerdict) -> SignatureVerdict? {
        // The slice shares the storage: its base address is where the signed bytes live.
        let address = signed.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let key = Key(address: address, start: signed.start, end: signed.end, signer: signer.der)
        if let v = verdicts[key] { return v }
        guard !exhausted, budget.spendSignatureCheck() else {
            exhausted = true
            return nil
        }
        let v = check()
        verdicts[key] = v
        return v
    }

    /// Validates a separate CRL signer's own path (a verification of its own), charged to
    /// `budget`; nil (and `exhausted` set) when the budget ran out before or during it.
    func validateSigner(
        _ verifier: ChainVerifier, leaf: Certificate, intermediates: [Certificate],
        options: VerificationOptions
    ) -> TrustResult? {
        if exhausted || budget.signatureChecks <= 0 {
            exhausted = true
            return nil
        }
        var charged = verifier
        charged.budget = budget
        var session = Session(verifier: charged, leaf: leaf, intermediates: intermediates)
        let result = session.run(options)
        budget = session.budget
        if session.budgetHit {
            exhausted = true
            return nil
        }
        return result
    }
}

// MARK: - Path hook

extension RevocationChecker {
    /// The failures the statuses mean under the policy: revoked always, undetermined under hard fail.
    static func failures(_ statuses: [CertificateRevocationStatus], policy: RevocationOptions.Policy) -> [TrustFailure]
    {
        var out: [TrustFailure] = []
        for s in statuses {
            switch s.status {
            case .good: break
            case .revoked:
                out.append(TrustFailure(.revoked, at: s.certificateIndex, context: .revocation(s)))
            case .undetermined:
                if policy == .hardFail {
                    out.append(TrustFailure(.revocationUndetermined, at: s.certificateIndex, context: .revocation(s)))
                }
            }
        }
        return out.sorted { ($0.kind, -$0.certificateIndex) > ($1.kind, -$1.certificateIndex) }
    }
}
