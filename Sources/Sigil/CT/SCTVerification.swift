import SigilCrypto
import SigilDER
import SigilX509

/// One SCT and its status.
public struct SCTCheck: Sendable {
    /// The SCT, when it decoded.
    public let sct: SignedCertificateTimestamp?
    /// The log ID (also of a malformed SCT when its first 33 bytes are there), else nil.
    public let logID: [UInt8]?
    /// The log of the list with that ID.
    public let log: CTLog?
    /// Where it came from.
    public let origin: SCTOrigin
    /// Its status.
    public let status: SCTStatus
    /// For a malformed SCT: why.
    public let decodingError: SCTDecodingError?
}

/// SCT verification (RFC 6962 §3.2, §5.2): builds the signed data of each SCT and checks it with
/// its log's key.
public enum SCTVerifier {
    /// Checks every SCT of `certificate` from the three sources.
    ///
    /// - Parameters:
    ///   - issuer: the certificate's issuer (for the precert entry's `issuer_key_hash`); without
    ///     it embedded SCTs are `issuer-unknown`.
    ///   - ocspSCTList / tlsSCTList: the TLS bytes of a `SignedCertificateTimestampList` from an
    ///     OCSP response's singleExtension or the TLS extension, when the caller has them.
    ///   - logList: the logs; nil makes every SCT `unknown-log`.
    ///   - time: the verification time (seconds since the epoch).
    /// - Returns: one check per SCT, embedded first; a source whose list framing is malformed
    ///   gives one `malformed` entry (nothing of it counts).
    public static func check(
        _ certificate: Certificate, issuer: Certificate?, ocspSCTList: [UInt8]? = nil, tlsSCTList: [UInt8]? = nil,
        logList: CTLogList?, at time: Int64
    ) -> [SCTCheck] {
        var out: [SCTCheck] = []
        var sources: [(SCTOrigin, Result<[SCTListEntry], SCTDecodingError>)] = []
        do {
            if let e = try certificate.embeddedSCTs() { sources.append((.embedded, .success(e))) }
        } catch { sources.append((.embedded, .failure(error))) }
        for (origin, bytes) in [(SCTOrigin.ocsp, ocspSCTList), (.tls, tlsSCTList)] {
            guard let bytes else { continue }
            do { sources.append((origin, .success(try SCTList.decode(bytes, origin: origin)))) } catch {
                sources.append((origin, .failure(error)))
            }
        }
        if sources.isEmpty { return [] }
        let precert = PrecertificateTBS(certificate)
        // RFC 6962 §3.2: issuer_key_hash is of the CA that issues the final certificate. When the
        // precertificate came from a Precertificate Signing Certificate (§3.1), that is the CA
        // which certified the signing certificate — the final certificate's own issuer. A signing
        // certificate offered as the issuer (EKU 1.3.6.1.4.1.11129.2.4.4: it signs precertificates
        // only) therefore does not give the key: the SCTs are `issuer-unknown`, never checked
        // against the wrong hash.
        let issuerKeyHash = issuer.flatMap {
            isPrecertificateSigningCertificate($0) ? nil : SHA256.hash($0.subjectPublicKeyInfo.bytes).bytes
        }
        for (origin, result) in sources {
            switch result {
            case .failure(let e):
                out.append(
                    SCTCheck(sct: nil, logID: nil, log: nil, origin: origin, status: .malformed, decodingError: e))
            case .success(let entries):
                for entry in entries {
                    switch entry {
                    case .malformed(let e, let raw):
                        let id = raw.count >= 33 ? Array(raw[1..<33]) : nil
                        out.append(
                            SCTCheck(
                                sct: nil, logID: id, log: id.flatMap { logList?.log(id: $0) }, origin: origin,
                                status: .malformed, decodingError: e))
                    case .sct(let sct):
                        let log = logList?.log(id: sct.logID)
                        let status = self.status(
                            sct, log: log, certificate: certificate, precert: precert, issuerKeyHash: issuerKeyHash,
                            at: time)
                        out.append(
                            SCTCheck(
                                sct: sct, logID: sct.logID, log: log, origin: origin, status: status,
                                decodingError: nil))
                    }
                }
            }
        }
        return out
    }

    /// id-kp 1.3.6.1.4.1.11129.2.4.4, the Precertificate Signing Certificate's extended key
    /// usage (RFC 6962 §3.1).
    public static let precertificateSigningEKU: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x04]

    /// Whether `c` is a Precertificate Signing Certificate (its EKU holds
    /// 1.3.6.1.4.1.11129.2.4.4, RFC 6962 §3.1). A malformed EKU counts as not one.
    public static func isPrecertificateSigningCertificate(_ c: Certificate) -> Bool {
        guard let eku = try? c.extendedKeyUsage() else { return false }
        return eku.contains(precertificateSigningEKU)
    }

    static func status(
        _ sct: SignedCertificateTimestamp, log: CTLog?, certificate: Certificate, precert: PrecertificateTBS?,
        issuerKeyHash: [UInt8]?, at time: Int64
    ) -> SCTStatus {
        guard let log else { return .unknownLog }
        let digest: HashDigest
        if sct.origin == .embedded {
            // An embedded SCT signs a precert_entry: without the issuer key, or in a certificate
            // whose TBS cannot be rebuilt, it cannot be checked and does not count.
            guard let issuerKeyHash else { return .issuerUnknown }
            guard let precert else { return .invalid }
            digest = signedDataDigest(sct, precert: precert, issuerKeyHash: issuerKeyHash)
        } else {
            digest = signedDataDigest(sct, x509: certificate.der)
        }
        guard verifySignature(sct, key: log.key, digest: digest) else { return .invalid }
        // RFC 6962 §5.2: a client checks the timestamp is not in the future. The timestamp is
        // in milliseconds (§3.2), the time of check in whole seconds: the SCT is in the future
        // when it is later than the time's first millisecond (one 999 ms later is refused too).
        if isInFuture(sct.timestamp, at: time) { return .invalid }
        guard log.acceptsSCT(issuedAt: sct.timestampSeconds, at: time) else { return .logNotAcceptable }
        if let (a, b) = log.temporalInterval, !(certificate.notAfter >= a && certificate.notAfter < b) {
            return .logNotAcceptable
        }
        return .valid
    }

    /// Whether an SCT timestamp (milliseconds since the epoch, RFC 6962 §3.2) is later than the
    /// time of check `time` (seconds since the epoch), compared in milliseconds. A time before
    /// the epoch puts every timestamp in the future; one whose milliseconds overflow 64 bits
    /// none.
    static func isInFuture(_ timestamp: UInt64, at time: Int64) -> Bool {
        guard time >= 0 else { return true }
        let (limit, overflow) = UInt64(time).multipliedReportingOverflow(by: 1000)
        return !overflow && timestamp > limit
    }

    /// `digitally-signed` needs hash sha256(4) with ecdsa(3) for a P-256 key or rsa(1) for an RSA
    /// key (RFC 6962 §2.1.4); everything else is invalid.
    public static func verifySignature(_ sct: SignedCertificateTimestamp, key: CTLogKey, digest: HashDigest) -> Bool {
        guard sct.hashAlgorithm == 4 else { return false }
        return sct.signature.withUnsafeBytes { sig in
            digest.withUnsafeBytes { d in
                switch key {
                case .p256(let k):
                    guard sct.signatureAlgorithm == 3 else { return false }
                    return (try? k.verify(signatureDER: sig, digest: d)) != nil
                case .rsa(let k):
                    guard sct.signatureAlgorithm == 1 else { return false }
                    return (try? k.verifyPKCS1v15(signature: sig, digest: d, hash: .sha256)) != nil
                }
            }
        }
    }

    static func absorbHeader(_ h: inout SHA256, _ sct: SignedCertificateTimestamp, entryType: UInt8) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { p in
            p[0] = 0  // sct_version = v1
            p[1] = 0  // signature_type = certificate_timestamp
            for k in 0..<8 { p[2 + k] = UInt8(truncatingIfNeeded: sct.timestamp >> (56 - 8 * UInt64(k))) }
            p[10] = 0
            p[11] = entryType  // LogEntryType: x509_entry(0), precert_entry(1)
            h.update(UnsafeRawBufferPointer(p))
        }
    }

    static func absorbLength(_ h: inout SHA256, _ n: Int, octets: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3) { p in
            for k in 0..<octets { p[k] = UInt8(truncatingIfNeeded: n >> (8 * (octets - 1 - k))) }
            h.update(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: p[0..<octets])))
        }
    }

    static func absorbExtensions(_ h: inout SHA256, _ sct: SignedCertificateTimestamp) {
        absorbLength(&h, sct.extensions.count, octets: 2)  // CtExtensions opaque<0..2^16-1>
        sct.extensions.withUnsafeBytes { h.update($0) }
    }

    /// SHA-256 of the signed struct for a precert_entry: `PreCert { issuer_key_hash[32];
    /// TBSCertificate tbs_certificate<1..2^24-1> }` — hashed chunk by chunk, nothing copied.
    public static func signedDataDigest(
        _ sct: SignedCertificateTimestamp, precert: PrecertificateTBS, issuerKeyHash: [UInt8]
    ) -> HashDigest {
        var h = SHA256()
        absorbHeader(&h, sct, entryType: 1)
        issuerKeyHash.withUnsafeBytes { h.update($0) }
        absorbLength(&h, precert.count, octets: 3)
        precert.forEachChunk { h.update($0) }
        absorbExtensions(&h, sct)
        return h.finalize()
    }

    /// SHA-256 of the signed struct for an x509_entry: `ASN.1Cert <1..2^24-1>` (the final
    /// certificate, for SCTs delivered by OCSP or TLS).
    public static func signedDataDigest(_ sct: SignedCertificateTimestamp, x509 der: [UInt8]) -> HashDigest {
        var h = SHA256()
        absorbHeader(&h, sct, entryType: 0)
        absorbLength(&h, der.count, octets: 3)
        der.withUnsafeBytes { h.update($0) }
        absorbExtensions(&h, sct)
        return h.finalize()
    }
}
