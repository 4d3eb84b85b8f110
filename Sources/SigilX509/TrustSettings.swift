@_spi(SigilInternal) import SigilDER

/// The trust settings OpenSSL writes after the certificate in a `TRUSTED CERTIFICATE` PEM block
/// (`openssl x509 -addtrust … -addreject … -trustout`; Fedora's `ca-bundle.trust.crt`, LFS
/// make-ca): the purposes a trust anchor is trusted for and rejected for, as extended key usage
/// OIDs. OpenSSL's `X509_CERT_AUX`:
///
///     X509_CERT_AUX ::= SEQUENCE {
///         trust   SEQUENCE OF OBJECT IDENTIFIER OPTIONAL,
///         reject  [0] IMPLICIT SEQUENCE OF OBJECT IDENTIFIER OPTIONAL,
///         alias   UTF8String OPTIONAL,
///         keyid   OCTET STRING OPTIONAL,
///         other   [1] IMPLICIT SEQUENCE OF AlgorithmIdentifier OPTIONAL }
///
/// A distrust a bundle states is never dropped (an anchor rejected for serverAuth must not end
/// a server chain): `permits(_:)` is OpenSSL's rule (`obj_trust`, x509_trust.c), and settings
/// that do not decode permit nothing.
public struct CertificateTrustSettings: Sendable, Hashable {
    /// The purposes the anchor is trusted for (OID content octets); nil when the block has no
    /// trust list (then only `rejected` restricts it).
    public var trusted: [[UInt8]]?
    /// The purposes the anchor is rejected for (OID content octets).
    public var rejected: [[UInt8]]

    /// Settings with the given lists.
    public init(trusted: [[UInt8]]?, rejected: [[UInt8]]) {
        self.trusted = trusted
        self.rejected = rejected
    }

    /// Settings that permit nothing: what an undecodable `X509_CERT_AUX` is read as.
    public static let permitNothing = CertificateTrustSettings(trusted: [], rejected: [])

    /// May an anchor with these settings end a path for the purpose `eku` (an extended key
    /// usage's OID content; `OID.anyExtendedKeyUsage` for a verification with no purpose, as
    /// OpenSSL's default trust asks)? No when `rejected` lists it or anyExtendedKeyUsage; else,
    /// when there is a trust list, only if it lists it or anyExtendedKeyUsage; else yes.
    public func permits(_ eku: [UInt8]) -> Bool {
        if rejected.contains(eku) || rejected.contains(OID.anyExtendedKeyUsage) { return false }
        guard let trusted else { return true }
        return trusted.contains(eku) || trusted.contains(OID.anyExtendedKeyUsage)
    }

    /// The settings of one anchor given twice with `self` and `other` (a bundle holding the same
    /// root as a plain and a trusted block, or two trusted blocks): what both permit — every
    /// rejection kept, the trust lists intersected (no list permits every purpose).
    public func combined(with other: CertificateTrustSettings) -> CertificateTrustSettings {
        var rejected = self.rejected
        for r in other.rejected where !rejected.contains(r) { rejected.append(r) }
        let trusted: [[UInt8]]?
        switch (self.trusted, other.trusted) {
        case (nil, nil): trusted = nil
        case (let a?, nil): trusted = a
        case (nil, let b?): trusted = b
        case (let a?, let b?):
            // anyExtendedKeyUsage in one list permits whatever the other lists.
            if a.contains(OID.anyExtendedKeyUsage) {
                trusted = b
            } else if b.contains(OID.anyExtendedKeyUsage) {
                trusted = a
            } else {
                trusted = a.filter { b.contains($0) }
            }
        }
        return CertificateTrustSettings(trusted: trusted, rejected: rejected)
    }

    /// Decodes `X509_CERT_AUX` (the bytes after the certificate in a `TRUSTED CERTIFICATE`
    /// block), strictly: DER, the fields in order, nothing after them. Throws on anything else;
    /// callers read a failure as `permitNothing`.
    public init(auxDER: [UInt8]) throws(DERError) {
        var trusted: [[UInt8]]? = nil
        var rejected: [[UInt8]] = []
        try withStorage(auxDER) { (b) throws(DERError) in
            var top = DERReader(b)
            try top.enter(.sequence) { (r) throws(DERError) in
                func oids(_ list: DERValue) throws(DERError) -> [[UInt8]] {
                    var out: [[UInt8]] = []
                    try DERReader.enter(list) { (l) throws(DERError) in
                        while !l.isAtEnd { out.append(Array(try l.readObjectIdentifier())) }
                    }
                    return out
                }
                if let t = try r.readOptional(.sequence) { trusted = try oids(t) }
                if let j = try r.readOptional(.contextConstructed(0)) { rejected = try oids(j) }
                // alias and keyid (primitive: the tags read are the primitive ones) are not used.
                _ = try r.readOptional(.utf8String)
                _ = try r.readOptional(.octetString)
                _ = try r.readOptional(.contextConstructed(1))
                if !r.isAtEnd { throw DERError(.trailingData, at: r.position) }
            }
            if !top.isAtEnd { throw DERError(.trailingData, at: top.position) }
        }
        self.init(trusted: trusted, rejected: rejected)
    }
}

extension PEM {
    /// A `TRUSTED CERTIFICATE` block's content split into the certificate's TLV and its trust
    /// settings: nil settings when nothing follows the certificate, `permitNothing` when what
    /// follows does not decode as `X509_CERT_AUX` (fail closed), nil certificate bytes when the
    /// content does not start with a TLV (the block then decodes as no certificate).
    public static func splitTrustedCertificate(_ der: [UInt8]) -> (
        certificate: [UInt8], settings: CertificateTrustSettings?
    ) {
        guard let first = firstTLV(der) else { return (der, .permitNothing) }
        if first.count == der.count { return (first, nil) }
        let aux = Array(der[first.count...])
        return (first, (try? CertificateTrustSettings(auxDER: aux)) ?? .permitNothing)
    }
}
