@_spi(SigilInternal) import SigilDER

/// OBJECT IDENTIFIER content octets (X.690 §8.19) of the identifiers Sigil knows. OIDs are
/// compared as content octets everywhere; nothing is decoded to arcs on the hot path.
public enum OID {
    // Signature algorithms (RFC 3279, RFC 4055, RFC 5758, RFC 8410)
    /// 1.2.840.113549.1.1.2
    public static let md2WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x02]
    /// 1.2.840.113549.1.1.4
    public static let md5WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x04]
    /// 1.2.840.113549.1.1.5
    public static let sha1WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]
    /// 1.2.840.113549.1.1.11
    public static let sha256WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
    /// 1.2.840.113549.1.1.12
    public static let sha384WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0C]
    /// 1.2.840.113549.1.1.13
    public static let sha512WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D]
    /// 1.2.840.113549.1.1.14
    public static let sha224WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0E]
    /// 1.2.840.113549.1.1.1
    public static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// 1.2.840.113549.1.1.10
    public static let rsassaPSS: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0A]
    /// 1.2.840.113549.1.1.8
    public static let mgf1: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x08]
    /// 1.2.840.10045.4.1
    public static let ecdsaWithSHA1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x01]
    /// 1.2.840.10045.4.3.1
    public static let ecdsaWithSHA224: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x01]
    /// 1.2.840.10045.4.3.2
    public static let ecdsaWithSHA256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
    /// 1.2.840.10045.4.3.3
    public static let ecdsaWithSHA384: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03]
    /// 1.2.840.10045.4.3.4
    public static let ecdsaWithSHA512: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x04]
    /// 1.3.101.112
    public static let ed25519: [UInt8] = [0x2B, 0x65, 0x70]
    /// 1.3.101.113
    public static let ed448: [UInt8] = [0x2B, 0x65, 0x71]
    /// 1.2.840.10040.4.3
    public static let dsaWithSHA1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x03]

    // Public keys and curves (RFC 5480)
    /// 1.2.840.10045.2.1
    public static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// 1.2.840.10045.3.1.7
    public static let secp256r1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    /// 1.3.132.0.34
    public static let secp384r1: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x22]
    /// 1.3.132.0.35
    public static let secp521r1: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x23]

    // Hashes (RFC 4055 §2.1, RFC 3279)
    /// 1.2.840.113549.2.2
    public static let md2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x02]
    /// 1.2.840.113549.2.5
    public static let md5: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x05]
    /// 1.3.14.3.2.26
    public static let sha1: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]
    /// 2.16.840.1.101.3.4.2.4
    public static let sha224: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
    /// 2.16.840.1.101.3.4.2.1
    public static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    /// 2.16.840.1.101.3.4.2.2
    public static let sha384: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
    /// 2.16.840.1.101.3.4.2.3
    public static let sha512: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]

    // Certificate extensions (RFC 5280 §4.2, RFC 6962 §3.3)
    /// 2.5.29.14
    public static let subjectKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x0E]
    /// 2.5.29.15
    public static let keyUsage: [UInt8] = [0x55, 0x1D, 0x0F]
    /// 2.5.29.17
    public static let subjectAltName: [UInt8] = [0x55, 0x1D, 0x11]
    /// 2.5.29.18
    public static let issuerAltName: [UInt8] = [0x55, 0x1D, 0x12]
    /// 2.5.29.19
    public static let basicConstraints: [UInt8] = [0x55, 0x1D, 0x13]
    /// 2.5.29.30
    public static let nameConstraints: [UInt8] = [0x55, 0x1D, 0x1E]
    /// 2.5.29.31
    public static let cRLDistributionPoints: [UInt8] = [0x55, 0x1D, 0x1F]
    /// 2.5.29.32
    public static let certificatePolicies: [UInt8] = [0x55, 0x1D, 0x20]
    /// 2.5.29.33
    public static let policyMappings: [UInt8] = [0x55, 0x1D, 0x21]
    /// 2.5.29.35
    public static let authorityKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x23]
    /// 2.5.29.36
    public static let policyConstraints: [UInt8] = [0x55, 0x1D, 0x24]
    /// 2.5.29.37
    public static let extKeyUsage: [UInt8] = [0x55, 0x1D, 0x25]
    /// 2.5.29.46
    public static let freshestCRL: [UInt8] = [0x55, 0x1D, 0x2E]
    /// 2.5.29.54
    public static let inhibitAnyPolicy: [UInt8] = [0x55, 0x1D, 0x36]
    /// 2.5.29.9
    public static let subjectDirectoryAttributes: [UInt8] = [0x55, 0x1D, 0x09]
    /// 1.3.6.1.5.5.7.1.1
    public static let authorityInfoAccess: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01]
    /// 1.3.6.1.5.5.7.1.11
    public static let subjectInfoAccess: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x0B]
    /// 1.3.6.1.4.1.11129.2.4.2
    public static let signedCertificateTimestampList: [UInt8] = [
        0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02,
    ]
    /// 1.3.6.1.4.1.11129.2.4.3
    public static let ctPrecertificatePoison: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x03]

    // Policies, access methods, qualifiers (RFC 5280 §4.2.1.4, §4.2.2.1)
    /// 2.5.29.32.0
    public static let anyPolicy: [UInt8] = [0x55, 0x1D, 0x20, 0x00]
    /// 1.3.6.1.5.5.7.2.1
    public static let cpsQualifier: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x01]
    /// 1.3.6.1.5.5.7.2.2
    public static let userNoticeQualifier: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x02]
    /// 1.3.6.1.5.5.7.48.1
    public static let ocsp: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01]
    /// 1.3.6.1.5.5.7.48.2
    public static let caIssuers: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x02]

    // Extended key usages (RFC 5280 §4.2.1.12)
    /// 2.5.29.37.0
    public static let anyExtendedKeyUsage: [UInt8] = [0x55, 0x1D, 0x25, 0x00]
    /// 1.3.6.1.5.5.7.3.1
    public static let serverAuth: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01]
    /// 1.3.6.1.5.5.7.3.2
    public static let clientAuth: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02]
    /// 1.3.6.1.5.5.7.3.3
    public static let codeSigning: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03]
    /// 1.3.6.1.5.5.7.3.4
    public static let emailProtection: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04]
    /// 1.3.6.1.5.5.7.3.8
    public static let timeStamping: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x08]
    /// 1.3.6.1.5.5.7.3.9
    public static let ocspSigning: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x09]

    // Name attributes (X.520, RFC 4519, RFC 2985)
    /// 2.5.4.3
    public static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    /// 2.5.4.4
    public static let surname: [UInt8] = [0x55, 0x04, 0x04]
    /// 2.5.4.5
    public static let serialNumber: [UInt8] = [0x55, 0x04, 0x05]
    /// 2.5.4.6
    public static let countryName: [UInt8] = [0x55, 0x04, 0x06]
    /// 2.5.4.7
    public static let localityName: [UInt8] = [0x55, 0x04, 0x07]
    /// 2.5.4.8
    public static let stateOrProvinceName: [UInt8] = [0x55, 0x04, 0x08]
    /// 2.5.4.9
    public static let streetAddress: [UInt8] = [0x55, 0x04, 0x09]
    /// 2.5.4.10
    public static let organizationName: [UInt8] = [0x55, 0x04, 0x0A]
    /// 2.5.4.11
    public static let organizationalUnitName: [UInt8] = [0x55, 0x04, 0x0B]
    /// 2.5.4.12
    public static let title: [UInt8] = [0x55, 0x04, 0x0C]
    /// 2.5.4.17
    public static let postalCode: [UInt8] = [0x55, 0x04, 0x11]
    /// 2.5.4.42
    public static let givenName: [UInt8] = [0x55, 0x04, 0x2A]
    /// 2.5.4.43
    public static let initials: [UInt8] = [0x55, 0x04, 0x2B]
    /// 2.5.4.44
    public static let generationQualifier: [UInt8] = [0x55, 0x04, 0x2C]
    /// 2.5.4.46
    public static let dnQualifier: [UInt8] = [0x55, 0x04, 0x2E]
    /// 2.5.4.65
    public static let pseudonym: [UInt8] = [0x55, 0x04, 0x41]
    /// 2.5.4.97
    public static let organizationIdentifier: [UInt8] = [0x55, 0x04, 0x61]
    /// 1.2.840.113549.1.9.1
    public static let emailAddress: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01]
    /// 0.9.2342.19200300.100.1.25
    public static let domainComponent: [UInt8] = [0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19]
    /// 0.9.2342.19200300.100.1.1
    public static let userID: [UInt8] = [0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x01]
    /// 2.5.4.15
    public static let businessCategory: [UInt8] = [0x55, 0x04, 0x0F]
    /// 1.3.6.1.4.1.311.60.2.1.3
    public static let jurisdictionCountry: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x03]
    /// 1.3.6.1.4.1.311.60.2.1.2
    public static let jurisdictionState: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x02]
    /// 1.3.6.1.4.1.311.60.2.1.1
    public static let jurisdictionLocality: [UInt8] = [
        0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x01,
    ]

    /// Short names for name attributes, as RFC 4514 §3 (and common practice) spells them.
    /// Attributes without a short name render as dotted OIDs.
    public static func attributeShortName(_ oid: UnsafeRawBufferPointer) -> String? {
        for (bytes, name) in attributeNames where DERValue.bytesEqual(oid, bytes) { return name }
        return nil
    }

    static let attributeNames: [([UInt8], String)] = [
        (commonName, "CN"), (countryName, "C"), (localityName, "L"), (stateOrProvinceName, "ST"),
        (streetAddress, "STREET"), (organizationName, "O"), (organizationalUnitName, "OU"),
        (domainComponent, "DC"), (userID, "UID"),
    ]

    /// Descriptive names for attribute and other OIDs (for reports; not RFC 4514 keywords).
    public static func displayName(_ oid: UnsafeRawBufferPointer) -> String? {
        for (bytes, name) in displayNames where DERValue.bytesEqual(oid, bytes) { return name }
        return nil
    }

    static let displayNames: [([UInt8], String)] = [
        (commonName, "commonName"), (surname, "surname"), (serialNumber, "serialNumber"),
        (countryName, "countryName"), (localityName, "localityName"),
        (stateOrProvinceName, "stateOrProvinceName"), (streetAddress, "streetAddress"),
        (organizationName, "organizationName"), (organizationalUnitName, "organizationalUnitName"),
        (title, "title"), (postalCode, "postalCode"), (givenName, "givenName"), (initials, "initials"),
        (generationQualifier, "generationQualifier"), (dnQualifier, "dnQualifier"),
        (pseudonym, "pseudonym"), (organizationIdentifier, "organizationIdentifier"),
        (emailAddress, "emailAddress"), (domainComponent, "domainComponent"), (userID, "userId"),
        (businessCategory, "businessCategory"), (jurisdictionCountry, "jurisdictionCountryName"),
        (jurisdictionState, "jurisdictionStateOrProvinceName"), (jurisdictionLocality, "jurisdictionLocalityName"),
        (subjectKeyIdentifier, "subjectKeyIdentifier"), (keyUsage, "keyUsage"),
        (subjectAltName, "subjectAltName"), (issuerAltName, "issuerAltName"),
        (basicConstraints, "basicConstraints"), (nameConstraints, "nameConstraints"),
        (cRLDistributionPoints, "cRLDistributionPoints"), (certificatePolicies, "certificatePolicies"),
        (policyMappings, "policyMappings"), (authorityKeyIdentifier, "authorityKeyIdentifier"),
        (policyConstraints, "policyConstraints"), (extKeyUsage, "extendedKeyUsage"),
        (freshestCRL, "freshestCRL"), (inhibitAnyPolicy, "inhibitAnyPolicy"),
        (authorityInfoAccess, "authorityInfoAccess"), (subjectInfoAccess, "subjectInfoAccess"),
        (signedCertificateTimestampList, "signedCertificateTimestampList"),
        (ctPrecertificatePoison, "ctPrecertificatePoison"),
        (subjectDirectoryAttributes, "subjectDirectoryAttributes"),
        (anyExtendedKeyUsage, "anyExtendedKeyUsage"), (serverAuth, "serverAuth"), (clientAuth, "clientAuth"),
        (codeSigning, "codeSigning"), (emailProtection, "emailProtection"), (timeStamping, "timeStamping"),
        (ocspSigning, "OCSPSigning"), (ocsp, "OCSP"), (caIssuers, "caIssuers"),
        (anyPolicy, "anyPolicy"), (cpsQualifier, "CPS"), (userNoticeQualifier, "userNotice"),
    ]
}

extension Array where Element == UInt8 {
    /// Byte-wise comparison with a buffer (for OID constants).
    @inlinable
    func matches(_ other: UnsafeRawBufferPointer) -> Bool { DERValue.bytesEqual(other, self) }
}

/// The extensions Sigil decodes, each with a slot in the certificate's extension index.
enum KnownExtension {
    /// The slot of a known extension OID (content octets), nil for others. Most are
    /// `id-ce` = 2.5.29.x (`55 1D xx`), decided by the last octet. Inlined: called out of
    /// line from the extension-list walk, which runs for every extension of every certificate
    /// parsed, the call and the registers saved around it cost as much as the comparisons.
    @inlinable @inline(__always)
    static func slot(_ oid: UnsafeRawBufferPointer) -> Int? {
        if oid.count == 3 && oid[0] == 0x55 && oid[1] == 0x1D {
            switch oid[2] {
            case 0x13: return 0  // basicConstraints
            case 0x0F: return 1  // keyUsage
            case 0x25: return 2  // extKeyUsage
            case 0x11: return 3  // subjectAltName
            case 0x12: return 4  // issuerAltName
            case 0x0E: return 5  // subjectKeyIdentifier
            case 0x23: return 6  // authorityKeyIdentifier
            case 0x1E: return 7  // nameConstraints
            case 0x20: return 8  // certificatePolicies
            case 0x21: return 9  // policyMappings
            case 0x24: return 10  // policyConstraints
            case 0x36: return 11  // inhibitAnyPolicy
            case 0x1F: return 12  // cRLDistributionPoints
            case 0x2E: return 13  // freshestCRL
            default: return nil
            }
        }
        // The two others compared as words (no array constants on this path, which runs for
        // every extension of every certificate parsed): 1.3.6.1.5.5.7.1.1 and
        // 1.3.6.1.4.1.11129.2.4.2, byte for byte as `OID.authorityInfoAccess` and
        // `OID.signedCertificateTimestampList`.
        if oid.count == 8 && oid.loadUnaligned(as: UInt64.self) == UInt64(littleEndian: 0x0101_0705_0501_062B) {
            return 14
        }
        if oid.count == 10 && oid.loadUnaligned(as: UInt64.self) == UInt64(littleEndian: 0x0279_D601_0401_062B)
            && oid[8] == 0x04 && oid[9] == 0x02
        {
            return 15
        }
        return nil
    }

    // Slot numbers, as `slot(_:)` assigns them.
    static var basicConstraints: Int { 0 }
    static var keyUsage: Int { 1 }
    static var extKeyUsage: Int { 2 }
    static var subjectAltName: Int { 3 }
    static var issuerAltName: Int { 4 }
    static var subjectKeyIdentifier: Int { 5 }
    static var authorityKeyIdentifier: Int { 6 }
    static var nameConstraints: Int { 7 }
    static var certificatePolicies: Int { 8 }
    static var policyMappings: Int { 9 }
    static var policyConstraints: Int { 10 }
    static var inhibitAnyPolicy: Int { 11 }
    static var cRLDistributionPoints: Int { 12 }
    static var freshestCRL: Int { 13 }
    static var authorityInfoAccess: Int { 14 }
    static var signedCertificateTimestampList: Int { 15 }

    /// The OID of slot `slot` (the inverse of `slot(_:)`).
    static func oid(_ slot: Int) -> [UInt8] {
        switch slot {
        case 0: return OID.basicConstraints
        case 1: return OID.keyUsage
        case 2: return OID.extKeyUsage
        case 3: return OID.subjectAltName
        case 4: return OID.issuerAltName
        case 5: return OID.subjectKeyIdentifier
        case 6: return OID.authorityKeyIdentifier
        case 7: return OID.nameConstraints
        case 8: return OID.certificatePolicies
        case 9: return OID.policyMappings
        case 10: return OID.policyConstraints
        case 11: return OID.inhibitAnyPolicy
        case 12: return OID.cRLDistributionPoints
        case 13: return OID.freshestCRL
        case 14: return OID.authorityInfoAccess
        default: return OID.signedCertificateTimestampList
        }
    }

    /// The slot of a known OID given as a constant.
    static func slot(_ oid: [UInt8]) -> Int? {
        oid.withUnsafeBytes { slot($0) }
    }
}

// The one spelling for dotted-decimal OIDs above the DER layer: `OID.dotted(_:)` renders
// content octets, `OID.content(dotted:)` parses text (both on SigilDER's primitives).
extension OID {
    /// Dotted-decimal text ("2.5.29.17") of OID content octets (X.690 §8.19; allocates).
    public static func dotted(_ content: ByteSpan) -> String {
        content.withUnsafeBytes { DERValue.dottedObjectIdentifier($0) }
    }

    /// Dotted-decimal text ("2.5.29.17") of OID content octets (X.690 §8.19; allocates).
    public static func dotted(_ content: [UInt8]) -> String {
        content.withUnsafeBytes { DERValue.dottedObjectIdentifier($0) }
    }

    /// The content octets of a dotted-decimal OID ("1.3.6.1.5.5.7.3.1"); nil when malformed.
    public static func content(dotted: String) -> [UInt8]? {
        DERValue.objectIdentifierContent(dotted: dotted)
    }
}
