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
        case truncated = 1            // a header or value runs past the end of its container
        case indefiniteLength         // X.690 §10.1: DER uses the definite form only
        case nonMinimalLength         // X.690 §10.1: length in the fewest octets
        case lengthTooLong            // more than 4 length octets (values over 4 GiB)
        case highTagNumber            // tag number ≥ 31 (multi-byte tag form): not used by X.509
        case unexpectedTag            // the next value is not of the expected type
        case trailingData             // bytes left over inside a constructed value or after it
        case nestingTooDeep           // more than `DERReader.maximumDepth` nested values
        case nonMinimalInteger        // X.690 §8.3.2: superfluous leading 0x00 / 0xFF
        case emptyInteger             // X.690 §8.3.1: at least one content octet
        case integerOutOfRange        // negative where unsigned is required, or too large
        case invalidBoolean           // X.690 §11.1: FALSE is 0x00, TRUE is 0xFF, one octet
        case invalidBitString         // X.690 §11.2: unused bits 0...7, 0 when empty, padding zero
        case invalidObjectIdentifier  // X.690 §8.19: non-empty, minimal base-128 arcs
        case invalidNull              // X.690 §8.8: no content
        case invalidTime              // RFC 5280 §4.1.2.5 format or calendar
        case invalidString            // character set or encoding of a string type
        case defaultValueEncoded      // X.690 §11.5: a DEFAULT value must be omitted
        case tooLarge                 // input over the stated size limit

        // X.509 structure (RFC 5280 §4.1)
        case invalidVersion           // version not v1/v2/v3, or v1 encoded explicitly
        case signatureAlgorithmMismatch // §4.1.1.2: outer and TBS algorithms differ
        case extensionsNotAllowed     // §4.1.2.9: extensions only in v3
        case uniqueIdentifierNotAllowed // §4.1.2.8: unique IDs only in v2/v3
        case duplicateExtension       // §4.2: at most one instance of an extension
        case emptyExtensions          // §4.1: Extensions ::= SEQUENCE SIZE (1..MAX)
        case invalidSerialNumber      // §4.1.2.2: positive, at most 20 octets (see Certificate)
        case invalidAlgorithmParameters // parameters not as the algorithm requires
        case invalidExtension         // an extension value does not match its ASN.1 definition
        case invalidName              // a Name / GeneralName is not well formed
        case invalidPublicKey         // SubjectPublicKeyInfo content is not well formed
        case invalidPEM               // PEM armour malformed
        case invalidBase64            // base64 body malformed
        case noCertificate            // input held no certificate
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
