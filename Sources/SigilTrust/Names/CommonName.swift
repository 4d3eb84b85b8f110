import SigilDER
import SigilX509

extension Certificate {
    /// CA/B Forum BR §7.1.4.3 (subject commonName, "deprecated"): for a publicly trusted TLS
    /// server certificate, a subject Common Name, if present, must be exactly one value that
    /// repeats one of the subjectAltName entries:
    /// - a dNSName: "a character-for-character copy of the dNSName entry value" (so case and
    ///   A-label/U-label form must be identical);
    /// - an iPAddress: IPv4 in the RFC 3986 §3.2.2 dotted-quad form (`192.0.2.1`, no leading
    ///   zeros, no hex), IPv6 in the RFC 5952 §4 text form (lowercase, leading zeros dropped,
    ///   longest zero run compressed).
    ///
    /// This is a CA/B Forum (webpki) profile check, not a name match: Sigil never
    /// *uses* the CN to identify a server (see `Certificate.matches(_:)`). True when there is no CN.
    /// Throws only when the subjectAltName extension is malformed.
    public func commonNameIsConsistentWithSubjectAltName() throws(DERError) -> Bool {
        let cert = self
        var commonName: NameAttribute?
        for rdn in cert.subject {
            for atv in rdn where atv.type == OID.commonName {
                if commonName != nil { return false }  // "exactly one"
                commonName = atv
            }
        }
        guard let cn = commonName else { return true }
        // The value as it is encoded: only the ASCII-compatible string types can repeat an IA5 SAN.
        guard cn.valueTag == .utf8String || cn.valueTag == .printableString || cn.valueTag == .ia5String else {
            return false
        }
        let text = cn.value.bytes
        guard let sans = try cert.subjectAlternativeNames() else { return false }
        for name in sans {
            switch name {
            case .dnsName(let d):
                if d.bytes.elementsEqual(text) { return true }
            case .ipAddress(let a):
                if IPAddressText.format(a.array).utf8.elementsEqual(text) { return true }
            default:
                continue
            }
        }
        return false
    }
}

/// The former free-function spelling of `Certificate.commonNameIsConsistentWithSubjectAltName()`.
@available(*, deprecated, renamed: "Certificate.commonNameIsConsistentWithSubjectAltName()")
public func commonNameIsConsistentWithSubjectAltName(_ cert: Certificate) throws(DERError) -> Bool {
    try cert.commonNameIsConsistentWithSubjectAltName()
}
