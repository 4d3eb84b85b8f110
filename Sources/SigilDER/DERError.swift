/// A parse failure: what went wrong and the absolute byte offset (from the start of the input
/// handed to the reader) where it was detected. Small and trivially copyable: no strings are
/// built while parsing; `description` renders one only when asked.
///
/// One error type serves the DER layer and the X.509 structure above it, so a failure deep
/// inside a certificate surfaces unchanged, with its offset, to the caller.
public struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong (one case per rule broken).
    public enum Kind: UInt8, Sendable, CaseIterable {
        // X.690 encoding
        /// A header or value runs past the end of its container (also: a BasicOCSPResponse
        /// whose list of SingleResponses is empty).
        case truncated = 1
        /// X.690 §10.1: DER uses the definite length form only.
        case indefiniteLength
        /// X.690 §10.1: a length must be encoded in the fewest octets.
        case nonMinimalLength
        /// More than 4 length octets (values of 4 GiB or more).
        case lengthTooLong
        /// Tag number ≥ 31 (the multi-byte tag form), which X.509 does not use.
        case highTagNumber
        /// The next value is not of the expected type (or a CHOICE alternative is unknown).
        case unexpectedTag
        /// Bytes left over inside a constructed value or after the outermost value.
        case trailingData
        /// More than `DERReader.maximumDepth` nested constructed values.
        case nestingTooDeep
        /// X.690 §8.3.2: a superfluous leading 0x00 or 0xFF octet.
        case nonMinimalInteger
        /// X.690 §8.3.1: an INTEGER has at least one content octet.
        case emptyInteger
        /// Negative where unsigned is required, too large for the target type, or an unassigned
        /// ENUMERATED value (OCSP status or reason).
        case integerOutOfRange
        /// X.690 §11.1: one content octet, 0x00 for FALSE and 0xFF for TRUE.
        case invalidBoolean
        /// X.690 §11.2: unused bits 0...7, 0 when empty, and the padding bits zero.
        case invalidBitString
        /// X.690 §8.19: non-empty, arcs in minimal base-128 form.
        case invalidObjectIdentifier
        /// X.690 §8.8: a NULL has no content.
        case invalidNull
        /// RFC 5280 §4.1.2.5: UTCTime/GeneralizedTime not in the required format, or not a calendar
        /// date and time.
        case invalidTime
        /// A string's characters are outside its type's set, or its encoding (UTF-8, BMP) is
        /// malformed.
        case invalidString
        /// X.690 §11.5: a value equal to its DEFAULT must be omitted.
        case defaultValueEncoded
        /// An input or a count over a stated limit (`Certificate.maximumSize`, the maximum number
        /// of extensions, CRL entries' extensions, OCSP responses, PEM input size...).
        case tooLarge

        // X.509 structure (RFC 5280 §4.1)
        /// RFC 5280 §4.1.2.1: a version other than v1/v2/v3, or v1 encoded explicitly (CRLs: other
        /// than v2, §5.1.2.1).
        case invalidVersion
        /// RFC 5280 §4.1.1.2: the outer and TBS signature algorithms differ (CRLs: §5.1.1.2).
        case signatureAlgorithmMismatch
        /// RFC 5280 §4.1.2.9: extensions only in v3 (CRLs: only in v2).
        case extensionsNotAllowed
        /// RFC 5280 §4.1.2.8: unique identifiers only in v2 and v3.
        case uniqueIdentifierNotAllowed
        /// RFC 5280 §4.2: at most one instance of an extension.
        case duplicateExtension
        /// RFC 5280 §4.1: `Extensions ::= SEQUENCE SIZE (1..MAX)`: not empty when present.
        case emptyExtensions
        /// RFC 5280 §4.1.2.2: positive, at most 20 octets (see `Certificate`; a CRL entry's serial:
        /// at most 20 octets).
        case invalidSerialNumber
        /// AlgorithmIdentifier parameters are not as the algorithm requires (absent, NULL,
        /// RSASSA-PSS-params...).
        case invalidAlgorithmParameters
        /// An extension value does not match its ASN.1 definition (also an OCSP KeyHash that is not
        /// 20 octets).
        case invalidExtension
        /// A Name or GeneralName is not well formed (e.g. an empty CRL issuer, an iPAddress of the
        /// wrong length, an attribute whose type takes a string — CN, O, C, … — with a value
        /// that is not a string: offset of the value).
        case invalidName
        /// The SubjectPublicKeyInfo content is not well formed.
        case invalidPublicKey
        /// PEM armour is malformed (RFC 7468); the error offset is the 1-based line number.
        case invalidPEM
        /// A PEM base64 body is malformed; the error offset is the 1-based line number.
        case invalidBase64
        /// The input held no certificate (or no CRL / OCSP response where one was expected).
        case noCertificate
    }

    /// What went wrong.
    public var kind: Kind
    /// Absolute offset in the input (for PEM errors: the 1-based line number).
    public var offset: Int

    /// An error of `kind` at absolute `offset`.
    @inlinable
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The message and where (offset, or line for PEM errors).
    public var description: String {
        if kind == .invalidPEM || kind == .invalidBase64 {
            return "\(kind.message) (line \(offset))"
        }
        return "\(kind.message) (at byte offset \(offset))"
    }
}

extension DERError.Kind {
    /// A one-line human message for the kind.
    public var message: String {
        switch self {
        case .truncated: return "truncated: a value runs past the end of its container"
        case .indefiniteLength: return "indefinite length is not allowed in DER"
        case .nonMinimalLength: return "length is not minimally encoded"
        case .lengthTooLong: return "length uses more than 4 octets"
        case .highTagNumber: return "high tag number form is not supported"
        case .unexpectedTag: return "unexpected tag"
        case .trailingData: return "unexpected trailing data"
        case .nestingTooDeep: return "values nested too deeply"
        case .nonMinimalInteger: return "INTEGER is not minimally encoded"
        case .emptyInteger: return "INTEGER has no content octets"
        case .integerOutOfRange: return "INTEGER out of range"
        case .invalidBoolean: return "BOOLEAN is not 0x00 or 0xFF"
        case .invalidBitString: return "BIT STRING is malformed"
        case .invalidObjectIdentifier: return "OBJECT IDENTIFIER is malformed"
        case .invalidNull: return "NULL has content"
        case .invalidTime: return "time is malformed or not a real date"
        case .invalidString: return "string has characters outside its type"
        case .defaultValueEncoded: return "a DEFAULT value is encoded explicitly"
        case .tooLarge: return "input exceeds the size limit"
        case .invalidVersion: return "certificate version is invalid"
        case .signatureAlgorithmMismatch: return "signature algorithm differs from the one in the TBS certificate"
        case .extensionsNotAllowed: return "extensions present in a certificate that is not v3"
        case .uniqueIdentifierNotAllowed: return "unique identifier present in a v1 certificate"
        case .duplicateExtension: return "extension appears more than once"
        case .emptyExtensions: return "extensions field is present but empty"
        case .invalidSerialNumber: return "serial number is invalid"
        case .invalidAlgorithmParameters: return "algorithm parameters are invalid"
        case .invalidExtension: return "extension value is malformed"
        case .invalidName: return "name is malformed"
        case .invalidPublicKey: return "public key is malformed"
        case .invalidPEM: return "PEM armour is malformed"
        case .invalidBase64: return "base64 is malformed"
        case .noCertificate: return "no certificate found"
        }
    }
}
