import SigilDER
import SigilX509

extension CheckUnit {
    /// Signature and key algorithms, and the signatures themselves: the algorithm of each
    /// signature relied on (`Checks.algorithmFailure`) and the verdicts of the signature seam
    /// depend on the issuer, so they run in `Session.check(candidate:at:path:options:)`; the keys are
    /// judged here.
    static let algorithms = CheckUnit(
        .algorithms, "algorithms", clauses: "RFC 5280 §6.1.3 (a)(1); BR §6.1.5, §7.1.3; RFC 8410",
        produces: [.unsupportedAlgorithm, .weakAlgorithm, .weakKey, .badSignature, .malformedCertificate])
}

extension Checks {
    /// The algorithms unit's check of the end-entity certificate: its key under the server and
    /// client profiles (the leaf's key is never used by path validation; `Session.run` also
    /// checks that it decodes).
    static func leafKeyFailures(
        _ c: Certificate, _ f: CertificateFacts, _ options: VerificationOptions, _ out: inout [TrustFailure]
    ) {
        guard options.profile != .basic else { return }
        if let kf = keyFailure(c, f, policy: options.algorithms) { out.append(kf) }
    }

    /// The algorithms unit's check of a certificate acting as an issuer: its key.
    static func issuerKeyFailures(
        _ c: Certificate, _ f: CertificateFacts, _ options: VerificationOptions, _ out: inout [TrustFailure]
    ) {
        if let kf = keyFailure(c, f, policy: options.algorithms) { out.append(kf) }
    }

    /// Key acceptability (BR §6.1.5, §7.1.3.1): RSA ≥ minimum and a multiple of 8 bits, EC on an
    /// allowed named curve, Ed25519/Ed448 unless the policy disallows EdDSA.
    static func keyFailure(_ c: Certificate, _ f: CertificateFacts, policy: AlgorithmPolicy) -> TrustFailure? {
        switch c.publicKeyAlgorithm {
        case .rsa, .rsaPSS:
            // The fact block holds the size in 16 bits, saturated: a larger key is measured again.
            guard let bits = f.publicKeyBits == UInt16.max ? c.publicKeyBitCount : f.publicKeyBitCount else {
                return TrustFailure(.malformedCertificate, at: 0, "RSA key is malformed")
            }
            if bits < policy.minimumRSABits {
                return TrustFailure(.weakKey, at: 0, "RSA key of \(bits) bits (minimum \(policy.minimumRSABits))")
            }
            if policy.requireRSAByteMultiple && bits % 8 != 0 {
                return TrustFailure(.weakKey, at: 0, "RSA key of \(bits) bits is not a multiple of 8 (BR §6.1.5)")
            }
            return nil
        case .ec(let curve):
            if !policy.allows(curve) {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "EC curve \(curve.name) is not allowed")
            }
            return nil
        case .ecExplicitParameters:
            return TrustFailure(.unsupportedAlgorithm, at: 0, "EC key with explicit curve parameters (RFC 5480 §2.1.1)")
        case .ed25519, .ed448:
            // RFC 8410 keys have one size each (no weak sizes); only the policy can refuse them.
            if !policy.allowEdDSA {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "\(c.publicKeyAlgorithm.name) keys are not allowed")
            }
            return nil
        case .unknown:
            return TrustFailure(.unsupportedAlgorithm, at: 0, "unsupported public key algorithm")
        }
    }

    /// The signature algorithm of `signed` and the key of `issuer` under the policy.
    static func algorithmFailure(signed: Certificate, issuer: Certificate, policy: AlgorithmPolicy) -> TrustFailure? {
        // The caller's restriction first (only narrows what the rules below allow).
        if let allowed = policy.allowedSignatureAlgorithms {
            let name = SignatureAlgorithmName(signed.signatureAlgorithm)
            if name.map({ !allowed.contains($0) }) ?? true {
                return TrustFailure(
                    .weakAlgorithm, at: 0,
                    "signed with \(signed.signatureAlgorithm.name), not an allowed signature algorithm")
            }
        }
        switch signed.signatureAlgorithm {
        case .rsaPKCS1(let d), .ecdsa(let d):
            if !policy.allows(d) {
                return TrustFailure(.weakAlgorithm, at: 0, "signed with \(signed.signatureAlgorithm.name)")
            }
        case .rsaPSS(let p):
            if !policy.allowRSAPSS {
                return TrustFailure(.unsupportedAlgorithm, at: 0, "RSA-PSS signatures are not allowed")
            }
            if !policy.allows(p.hash) || !policy.allows(p.mgf1Hash) {
                return TrustFailure(.weakAlgorithm, at: 0, "signed with \(signed.signatureAlgorithm.name)")
            }
        case .ed25519, .ed448:
            // RFC 8410: no digest parameter to judge (Ed25519 hashes with SHA-512, Ed448 with
            // SHAKE256, RFC 8032 §5.1/§5.2).
            if !policy.allowEdDSA {
                return TrustFailure(
                    .unsupportedAlgorithm, at: 0, "\(signed.signatureAlgorithm.name) signatures are not allowed")
            }
        case .unknown:
            return TrustFailure(
                .unsupportedAlgorithm, at: 0, "signature algorithm \(signed.signatureAlgorithmOID) is not supported")
        }
        return nil
    }
}
