@_spi(SigilInternal) import SigilDER
import SigilX509

/// Checks OCSP responses for one certificate of a validated path (RFC 6960 §3.2, §4.2.2.2).
struct OCSPChecker {
    let options: RevocationOptions
    let time: Double
    let algorithms: AlgorithmPolicy
    let verifier: any CertificateSignatureVerifier
    let work: RevocationWork

    /// `.good`, `.revoked` or nil (no usable response for `c`; `notes` say why).
    ///
    /// Across separate responses a revoked answer wins, and a good one outweighs another
    /// response's "unknown": RFC 6960 §2.2 makes unknown "the responder doesn't know about the
    /// certificate being requested" — no information, as Chrome's CheckCertRevocation reads an
    /// unknown stapled response before it asks the next source. Inside one response, two
    /// answers for the same CertID that disagree are read strictly (`status(of:issuer:in:)`).
    func status(of c: Certificate, issuer: Certificate, notes: inout [String]) -> RevocationStatus? {
        var result: RevocationStatus?
        for response in options.ocspResponses {
            switch status(of: c, issuer: issuer, in: response, notes: &notes) {
            case .revoked(let r, let d)?: return .revoked(reason: r, date: d)
            case .good?: result = .good
            default: break
            }
        }
        return result
    }

    /// One response's verdict on `c`: nil when it says nothing usable about it.
    func status(of c: Certificate, issuer: Certificate, in response: OCSPResponse, notes: inout [String])
        -> RevocationStatus?
    {
        guard response.status == .successful, let basic = response.basic else {
            notes.append("an OCSP response has status \(response.status)")
            return nil
        }
        // 1. (§3.2) The response is about this certificate: CertID match.
        let singles = basic.responses.filter { matches($0.certID, c, issuer) }
        if singles.isEmpty { return nil }
        // 2.–3. Signed by the issuer or by a responder the issuer authorised.
        if let why = signerFailure(basic, issuer: issuer, subject: c) {
            notes.append("OCSP response is not usable: \(why)")
            return nil
        }
        if let oid = basic.unsupportedCriticalExtension {
            notes.append("OCSP response has an unsupported critical extension \(oid)")
            return nil
        }
        // RFC 6960 §4.2.1 makes `responses` a sequence, and neither §3.2 nor §4.2.2.3 says what
        // two SingleResponses for one certificate mean. Every fresh one is read and the
        // strictest answer wins — revoked, then unknown (undetermined), then good — as Chrome's
        // GetRevocationStatusForCert ("we keep only the strictest status (REVOKED > UNKNOWN >
        // GOOD)"). OpenSSL's OCSP_resp_find_status and Go's ocsp.ParseResponseForCert take the
        // first match, which lets a good placed first hide a revoked one
        // (Fixtures/revocation/multi/, `gen_revocation.py --multi-only`). A stale or not yet
        // valid SingleResponse (§3.2 items 4-5) shows nothing good or unknown, but one that says
        // revoked for another reason than certificateHold still revokes (`status(of:notes:)`).
        var result: RevocationStatus?
        var unknown = false
        for single in singles {
            switch status(of: single, notes: &notes) {
            case .revoked(let r, let d)?: return .revoked(reason: r, date: d)
            case .good?: result = .good
            case .undetermined?: unknown = true
            case nil: break
            }
        }
        return unknown ? nil : result
    }

    /// One SingleResponse's answer: `.undetermined` for unknown (a note says so), nil when it
    /// is not fresh at the verification time — unless it says revoked for another reason than
    /// certificateHold. RFC 6960 §2.2: revoked means revoked "either temporarily (the revocation
    /// reason is certificateHold) or permanently"; a signed statement of a permanent revocation
    /// stays true after its nextUpdate (fail closed), so a fresh "good" beside it, in the same
    /// response or another, does not hide it. A stale hold may have been released: not used.
    func status(of single: SingleResponse, notes: inout [String]) -> RevocationStatus? {
        if case .revoked(let t, let reason) = single.status, reason != .certificateHold {
            return .revoked(reason: reason ?? .unspecified, date: t)
        }
        // 4.–5. Fresh at the verification time (§4.2.2.1, §3.2 items 4 and 5). Each test is
        // written so that freshness must hold positively: a time that is not a number fails it
        // (fail closed, as `Checks.within`).
        if !(Double(single.thisUpdate) <= time) {
            notes.append("OCSP response is not yet valid (thisUpdate \(DERTime.rfc3339(single.thisUpdate)))")
            return nil
        }
        if let next = single.nextUpdate {
            if !(time < Double(next) + 1) {
                notes.append("OCSP response is stale (nextUpdate \(DERTime.rfc3339(next)))")
                return nil
            }
        } else if !(time - Double(single.thisUpdate) <= Double(options.maximumOCSPAgeWithoutNextUpdate)) {
            notes.append(
                "OCSP response without nextUpdate is older than \(options.maximumOCSPAgeWithoutNextUpdate) s (thisUpdate \(DERTime.rfc3339(single.thisUpdate)))"
            )
            return nil
        }
        switch single.status {
        case .good: return .good
        case .revoked(let t, let reason): return .revoked(reason: reason ?? .unspecified, date: t)
        case .unknown:
            notes.append("the OCSP responder does not know the certificate (status unknown)")
            return .undetermined("unknown")
        }
    }

    /// RFC 6960 §4.1.1: issuerNameHash over the DER of the certificate's issuer field,
    /// issuerKeyHash over the issuer's subjectPublicKey bits, and the serial number.
    func matches(_ id: OCSPCertID, _ c: Certificate, _ issuer: Certificate) -> Bool {
        guard id.serialNumber == c.serialNumber,
            let nameHash = verifier.digest(id.hashAlgorithm, of: c.issuer.encoded),
            let keyHash = verifier.digest(id.hashAlgorithm, of: issuer.publicKeyBytes)
        else { return false }
        return id.issuerNameHash == nameHash && id.issuerKeyHash == keyHash
    }

    /// §4.2.2.2: the response is signed by the CA that issued the certificate, or by a
    /// delegated responder: a certificate issued directly by that CA, with id-kp-OCSPSigning in
    /// its extended key usage, valid now. The responderID must name the signer. A delegated
    /// responder's own revocation is not checked (id-pkix-ocsp-nocheck, §4.2.2.2.1, says not to;
    /// without it Sigil still does not, as OpenSSL). A responder holding the key of the
    /// certificate it answers for (`subject`) is refused: §4.2.2.2.1 leaves the responder's own
    /// status to local policy, and a key that vouches for itself would keep a compromised,
    /// revoked certificate "good" for as long as its holder signs fresh responses (a CA that
    /// gave id-kp-OCSPSigning to an end-entity certificate). Returns why not, or nil.
    func signerFailure(_ basic: BasicOCSPResponse, issuer: Certificate, subject: Certificate) -> String? {
        if let f = digestFailure(basic.signatureAlgorithm) { return "signed with \(f)" }
        var candidates: [Certificate] = []
        if identifies(basic.responderID, issuer) { candidates.append(issuer) }
        for c in basic.certificates where identifies(basic.responderID, c) && c != issuer { candidates.append(c) }
        if candidates.isEmpty { return "its responderID names neither the issuer nor an included certificate" }
        var why = "its signature does not verify"
        for s in candidates {
            if s != issuer {
                // Delegated responder.
                guard s.issuer.matchesForChaining(issuer.subject) else {
                    why = "the responder certificate is not issued by the certificate's issuer"
                    continue
                }
                if s.publicKeyBytes == subject.publicKeyBytes {
                    why =
                        "the responder certificate has the key of the certificate it answers for (it cannot vouch for itself)"
                    continue
                }
                guard let eku = (try? s.extendedKeyUsage()) ?? nil, eku.contains(OID.ocspSigning) else {
                    why = "the responder certificate lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2)"
                    continue
                }
                if !(time >= Double(s.notBefore) && time < Double(s.notAfter) + 1) {
                    why = "the responder certificate is not valid at the verification time"
                    continue
                }
                if s.version != .v3 || ((try? s.validateExtensions()) == nil) {
                    why = "the responder certificate is malformed"
                    continue
                }
                if s.extensions.contains(where: {
                    $0.critical && !Self.responderCritical.contains(where: $0.oid.matchesOID)
                }) {
                    why = "the responder certificate has an unsupported critical extension"
                    continue
                }
                if let f = digestFailure(s.signatureAlgorithm) {
                    why = "the responder certificate is signed with \(f)"
                    continue
                }
                // The responder's own key meets the algorithm policy, as every key on a path
                // must (BR §6.1.5): a 1024-bit responder key, forged, would answer "good" for
                // a revoked certificate (found by review, 2026-12-04; `openssl ocsp
                // -auth_level 2` likewise refuses it).
                if let kf = Checks.keyFailure(s, CertificateFacts(s), policy: algorithms) {
                    why = "the responder certificate's key is refused: \(kf.message)"
                    continue
                }
                guard
                    work.verify(s.tbsCertificate, signer: issuer, { verifier.verifySignature(of: s, issuer: issuer) })
                        == .valid
                else {
                    why = "the responder certificate's signature does not verify with the issuer's key"
                    continue
                }
            }
            let verdict = work.verify(basic.tbsResponseData, signer: s) {
                verifier.verifySignedData(
                    algorithm: basic.signatureAlgorithm, signed: basic.tbsResponseData,
                    signature: basic.signature, signer: s)
            }
            if verdict == .valid { return nil }
            if verdict == nil { return "the verification budget is exhausted" }
            why = "its signature does not verify with the key of \(s.subject.rfc4514String)"
        }
        return why
    }

    static let responderCritical: [[UInt8]] = [OID.basicConstraints, OID.keyUsage, OID.extKeyUsage, OID.subjectAltName]

    func identifies(_ id: BasicOCSPResponse.ResponderID, _ c: Certificate) -> Bool {
        switch id {
        case .byName(let n): return n.matchesForChaining(c.subject)
        case .byKey(let k):
            guard let h = verifier.digest(.sha1, of: c.publicKeyBytes) else { return false }
            return k == h
        }
    }

    func digestFailure(_ a: SignatureAlgorithm) -> String? { algorithms.revocationDataRefusal(a) }
}

extension ByteSpan {
    func matchesOID(_ oid: [UInt8]) -> Bool { self == oid }
}

// MARK: - Public entry points (TLS stapling)

extension OCSPResponse {
    /// The status this response gives `certificate`, issued by `issuer`, at `time`, with every
    /// RFC 6960 §3.2 check: CertID (SHA-1 or SHA-2), signer (the issuer or its delegated
    /// responder), freshness, response status. Undetermined says why the response cannot be used.
    /// For a response stapled to a TLS handshake (RFC 6066 §8), `certificate` is the peer's
    /// leaf and `issuer` the next certificate of the *validated* path.
    public func status(
        of certificate: Certificate, issuer: Certificate, at time: Double,
        verifier: any CertificateSignatureVerifier, algorithms: AlgorithmPolicy = .standard
    ) -> RevocationStatus {
        var notes: [String] = []
        let checker = OCSPChecker(
            options: RevocationOptions(ocspResponses: [self]), time: time, algorithms: algorithms,
            verifier: verifier, work: RevocationWork())
        if let s = checker.status(of: certificate, issuer: issuer, in: self, notes: &notes) { return s }
        return .undetermined(
            notes.isEmpty ? "the OCSP response is not about this certificate" : notes.joined(separator: "; "))
    }
}

extension ChainVerifier {
    /// Validates the chain and checks the leaf against an OCSP response stapled to the TLS
    /// handshake (the bytes as received, RFC 6066 §8 / RFC 6960 §4.2.1). `stapledOCSPResponse`
    /// nil (nothing stapled) or unparseable leaves the leaf undetermined, which fails under
    /// `.hardFail` and is reported under `.softFail`. Other revocation options already in
    /// `options.revocation` (CRLs) are kept; the scope is the leaf unless CRLs were given.
    @_spi(SigilInternal) public func verify(
        leaf: Certificate, intermediates: [Certificate], options: VerificationOptions,
        stapledOCSPResponse: [UInt8]?, policy: RevocationOptions.Policy
    ) -> TrustResult {
        var o = options
        var r = o.revocation ?? RevocationOptions(policy: policy)
        r.policy = policy
        if r.crls.isEmpty { r.scope = .leafOnly }
        if let bytes = stapledOCSPResponse, let response = try? OCSPResponse(der: bytes) {
            r.ocspResponses.append(response)
        }
        o.revocation = r
        return verify(leaf: leaf, intermediates: intermediates, options: o)
    }
}
