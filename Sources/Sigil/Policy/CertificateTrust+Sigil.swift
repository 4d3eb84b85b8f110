import SigilTrust
import SigilX509

extension CertificateTrust {
    /// A `SecTrustCreateWithCertificates` equivalent wired to Sigil: its signature verification,
    /// the system's roots, and the verification time defaulting to now (this is the outermost
    /// API; set `time` to evaluate at another moment).
    public init(
        certificates: [Certificate], policies: [VerificationPurpose], time: Double? = nil,
        systemAnchors: TrustStore = .system()
    ) {
        self.init(
            certificates: certificates, policies: policies, time: time ?? WallClock.now(),
            signatureVerifier: SigilSignatureVerifier(), systemAnchors: systemAnchors)
    }
}
