import SigilCrypto
@_spi(SigilInternal) import SigilDER
import SigilX509

/// What the inspector says about a SubjectPublicKeyInfo.
public struct PublicKeySummary: Sendable, Hashable {
    /// rsa, rsa-pss, ec, dsa, ed25519, ed448, or the dotted OID of anything else.
    public var algorithm: String
    /// RSA modulus bits; EC field size; DSA p bits; 256 for Ed25519, 456 for Ed448.
    public var bits: Int?
    /// EC only: P-256 / P-384 / P-521, the dotted OID of another named curve, or — for
    /// explicit parameters — the named curve they are exactly equal to (nil when none).
    public var curve: String?
    /// EC keys given with explicit (specifiedCurve) parameters instead of a named curve.
    public var explicitParameters: Bool = false
    /// RSA public exponent when it fits 64 bits.
    public var rsaExponent: UInt64?
}

/// One extension as listed in the certificate (duplicates included), in order.
public struct ExtensionSummary: Sendable, Hashable {
    /// The extension's `extnID` in dotted form, e.g. "2.5.29.19".
    public var oid: String
    /// The `critical` flag as encoded (false when the DEFAULT FALSE field is absent).
    public var critical: Bool
    /// Offset of the extension's OID content octets in the certificate.
    public var offset: Int
}

/// A certificate as the inspector reads it: every field it can, with each violation of DER or
/// RFC 5280 recorded as a warning (clause and byte offset).
///
/// This is a *view for inspection only*. It is a separate type from `Certificate`, lives in the
/// `Sigil` umbrella (the trust layer cannot even name it), and offers no way to make a
/// `Certificate` out of bytes the strict parser refused: `strictCertificate` is the strict
/// parser's own result, nil when it refused. A certificate only this reader accepts is
/// therefore never trusted. Reading is BER-tolerant (X.690 §8) in the ways OpenSSL's
/// `d2i_X509` is: any definite length form, indefinite lengths, non-minimal INTEGERs, odd time
/// encodings, unknown versions, extensions in v1, duplicate extensions, negative serials,
/// mismatched or wrongly parameterised algorithm identifiers.
public struct LenientCertificate: Sendable {
    /// The DER (or BER) bytes as given.
    public let der: [UInt8]
    /// The strict parser's result: nil when it refused the certificate (see `strictError`).
    public let strictCertificate: Certificate?
    /// Why the strict parser refused it.
    public let strictError: DERError?
    /// The DER and RFC 5280 violations found, by byte offset, without duplicates; beyond 64 a
    /// last warning counts the ones left out. Malformed extension values that
    /// ``CertificateReport`` finds while rendering are appended to the report's copy.
    public private(set) var warnings: [InspectionWarning] = []

    /// As encoded: 1, 2, 3 — or another number for an unknown version (raw value + 1).
    public private(set) var version = 1
    /// Lowercase hex of the serial's value in whole octets ("-" first when negative).
    public var serialHex: String { strictCertificate?.serialNumberHex ?? lenientSerialHex }
    var lenientSerialHex = "0"
    /// The issuer name: the strict parser's when it accepted the certificate, else the
    /// attributes the lenient reader could read, re-encoded in DER (each repair warned); nil
    /// when the field is missing.
    public private(set) var issuer: DistinguishedName?
    /// The subject name, read as ``issuer`` is.
    public private(set) var subject: DistinguishedName?
    /// Start of the validity period, seconds since the Unix epoch (UTC); nil when unreadable.
    public private(set) var notBefore: Int64?
    /// End of the validity period (inclusive, RFC 5280 §4.1.2.5), seconds since the Unix
    /// epoch (UTC); nil when unreadable.
    public private(set) var notAfter: Int64?
    /// Dotted OID of the outer signatureAlgorithm (what signs the certificate).
    public var signatureAlgorithmOID: String { strictCertificate?.signatureAlgorithmOID ?? lenientAlgorithmOIDs.outer }
    /// Dotted OID of the TBS `signature` field (equal to the outer one unless warned).
    public var tbsSignatureAlgorithmOID: String {
        strictCertificate?.signatureAlgorithmOID ?? lenientAlgorithmOIDs.tbs
    }
    var lenientAlgorithmOIDs = (outer: "", tbs: "")
    /// Display name of the outer signature algorithm (`SignatureAlgorithm.name`, e.g.
    /// "ECDSA with SHA-256"), a name for a few algorithms Sigil does not verify, or "unknown".
    public private(set) var signatureAlgorithmName = "unknown"
    /// What the SubjectPublicKeyInfo holds (algorithm "unknown" when unreadable).
    public private(set) var publicKey = PublicKeySummary(algorithm: "unknown")
    /// The SubjectPublicKeyInfo's bytes as encoded (what SPKI pins hash).
    public var subjectPublicKeyInfo: [UInt8] { strictCertificate?.subjectPublicKeyInfo.array ?? lenientSPKI }
    var lenientSPKI: [UInt8] = []
    /// SHA-256 of ``subjectPublicKeyInfo``, hashed where it lies.
    public var subjectPublicKeyInfoSHA256: HashDigest {
        if let c = strictCertificate { return c.subjectPublicKeyInfo.withUnsafeBytes { SHA256.hash($0) } }
        return lenientSPKI.withUnsafeBytes { SHA256.hash($0) }
    }
    /// True when the strictly parsed certificate carries the embedded SCT list extension
    /// (RFC 6962 §3.3; found once, while reading).
    public private(set) var hasEmbeddedSCTList = false
    /// The extensions as listed, in order, duplicates included.
    public var extensions: [ExtensionSummary] {
        guard let c = strictCertificate else { return lenientExtensions }
        // Fields of a strictly parsed certificate come from the strict parser.
        return c.extensions.map { e in
            ExtensionSummary(oid: OID.dotted(e.oid), critical: e.critical, offset: e.oid.start)
        }
    }
    var lenientExtensions: [ExtensionSummary] = []

    /// Decodes extension values: the strict certificate itself, or (when the strict parser
    /// refused the certificate, or an extension value needed repair) a stand-in certificate
    /// holding only the extensions, re-encoded in DER. Never leaves this module: its
    /// placeholder key, names and unknown signature algorithm could not verify anyway.
    var extensionCarrier: Certificate? { carrierIsStrict ? strictCertificate : repairedCarrier?.certificate }
    /// The stand-in certificate, when the carrier is not the strict certificate itself (which
    /// is then not stored twice), boxed: the rare case does not make every copy and move of
    /// this value 225 bytes larger.
    let repairedCarrier: CarrierBox?
    /// The extension carrier is `strictCertificate` (possibly nil).
    let carrierIsStrict: Bool
    /// Offsets in `extensionCarrier` → offsets in `der` (nil: the same bytes).
    let carrierMap: OffsetMap?

    /// The offset in `der` of an offset in the extension carrier.
    func originalOffset(_ carrierOffset: Int) -> Int { carrierMap?.original(carrierOffset) ?? carrierOffset }

    /// Wraps a certificate the strict parser accepted (warnings list its tolerated deviations).
    public init(_ certificate: Certificate) {
        self = LenientCertificate.read(certificate.der, strict: certificate, strictError: nil)
    }

    /// Reads `der` leniently. Throws only when not even the outline of a certificate can be
    /// found (the first failure, with its offset); certificates over `Certificate.maximumSize`
    /// are refused as the strict parser refuses them.
    public init(der: [UInt8]) throws(DERError) {
        guard der.count <= Certificate.maximumSize else { throw DERError(.tooLarge, at: Certificate.maximumSize) }
        // The strict result is not held in an Optional first (each wrap and unwrap moved the
        // whole Certificate).
        let strict: Certificate
        do {
            strict = try Certificate(der: der)
        } catch {
            self = try LenientCertificate.refused(der, strictError: error)
            return
        }
        self = LenientCertificate.read(der, strict: strict, strictError: nil)
    }

    /// Reads `der`, which the strict parser refused with `strictError`, leniently (what
    /// ``init(der:)`` does then).
    static func refused(_ der: [UInt8], strictError: DERError) throws(DERError) -> LenientCertificate {
        var reader = Reader(der)
        let fields = try reader.readCertificate()
        return LenientCertificate(
            der: der, strict: nil, strictError: strictError, fields: fields, warnings: reader.allWarnings())
    }

    static func read(_ der: [UInt8], strict: Certificate, strictError: DERError?) -> LenientCertificate {
        // Nothing to warn about (but a zero serial number) and nothing to repair (proved
        // without walking): the walk below would only confirm it.
        if let (key, warnings) = CleanCheck.summary(strict) {
            var fields = Fields()
            fields.publicKey = key
            return LenientCertificate(
                der: der, strict: strict, strictError: strictError, fields: fields, warnings: warnings)
        }
        return walk(der, strict: strict, strictError: strictError)
    }

    /// The full lenient walk over a strictly parsed certificate (what ``read`` skips when
    /// `CleanCheck` proves it would find nothing).
    static func walk(_ der: [UInt8], strict: Certificate, strictError: DERError?) -> LenientCertificate {
        var reader = Reader(der)
        // The walk runs for its warnings (tolerated deviations, string types X.520 does not name,
        // BER inside extension values); the fields it would rebuild come from the strict
        // certificate, so it skips re-encoding names, algorithm identifiers and the extension
        // carrier that would be thrown away.
        reader.strictAccepted = true
        if case .unknown = strict.signatureAlgorithm {} else { reader.needsSignatureName = false }
        // The strict parser accepted these bytes, so the lenient walk cannot fail on them; if it
        // ever did, the fields below come from the strict certificate anyway.
        let fields = (try? reader.readCertificate()) ?? Fields()
        return LenientCertificate(
            der: der, strict: strict, strictError: strictError, fields: fields, warnings: reader.allWarnings())
    }

    init(der: [UInt8], strict: Certificate?, strictError: DERError?, fields: Fields, warnings: [InspectionWarning]) {
        self.der = der
        self.strictCertificate = strict
        self.strictError = strictError
        self.warnings = warnings
        self.version = fields.version
        self.lenientSerialHex = fields.serialHex
        self.notBefore = fields.notBefore
        self.notAfter = fields.notAfter
        self.lenientAlgorithmOIDs = (fields.outerAlgorithmOID, fields.tbsAlgorithmOID)
        self.signatureAlgorithmName = fields.signatureAlgorithmName
        self.publicKey = fields.publicKey
        self.lenientSPKI = fields.spki
        self.lenientExtensions = fields.extensions
        self.issuer = fields.issuer
        self.subject = fields.subject
        if let c = strict {
            // Fields of a strictly parsed certificate come from the strict parser, so reports
            // of normal certificates are exactly what they were.
            self.version = Int(c.version.rawValue)
            self.issuer = c.issuer
            self.subject = c.subject
            self.notBefore = c.notBefore
            self.notAfter = c.notAfter
            if case .unknown = c.signatureAlgorithm {} else { self.signatureAlgorithmName = c.signatureAlgorithm.name }
            self.hasEmbeddedSCTList = c.extension(OID.signedCertificateTimestampList) != nil
        }
        if strict != nil, !fields.extensionValuesRepaired {
            carrierIsStrict = true
            repairedCarrier = nil
            carrierMap = nil
        } else if let carrier = fields.carrier, let cert = try? Certificate(der: carrier.bytes) {
            carrierIsStrict = false
            repairedCarrier = CarrierBox(cert)
            carrierMap = carrier.map
        } else {
            carrierIsStrict = true
            repairedCarrier = nil
            carrierMap = nil
            if strict == nil && !fields.extensions.isEmpty {
                self.warnings.append(
                    InspectionWarning(
                        clause: "RFC 5280 §4.1", offset: 0, message: "extension values could not be decoded"))
            }
        }
    }

    /// Adds a warning found while rendering (a malformed extension value), at an offset of
    /// the extension carrier.
    mutating func addWarning(clause: String, carrierOffset: Int, message: String) {
        let w = InspectionWarning(clause: clause, offset: originalOffset(carrierOffset), message: message)
        if !warnings.contains(w) { warnings.append(w) }
    }

    /// Adds a warning whose offset is already one of `der`.
    mutating func addWarning(_ w: InspectionWarning) {
        if !warnings.contains(w) { warnings.append(w) }
    }
}

/// A stand-in extension carrier (``LenientCertificate/repairedCarrier``).
final class CarrierBox: Sendable {
    let certificate: Certificate
    init(_ certificate: Certificate) { self.certificate = certificate }
}

// MARK: - The walk

extension LenientCertificate {
    struct Carrier {
        var bytes: [UInt8]
        var map: OffsetMap
    }

    struct Fields {
        var version = 1
        var serialHex = "0"
        var issuer: DistinguishedName?
        var subject: DistinguishedName?
        var notBefore: Int64?
        var notAfter: Int64?
        var outerAlgorithmOID = ""
        var tbsAlgorithmOID = ""
        var signatureAlgorithmName = "unknown"
        var publicKey = PublicKeySummary(algorithm: "unknown")
        var spki: [UInt8] = []
        var extensions: [ExtensionSummary] = []
        var carrier: Carrier?
        var extensionValuesRepaired = false
        var tbsAlgorithmNode: BERNode?
    }

    struct Reader {
        var ber: BERReader
        var bytes: [UInt8] { ber.bytes }

        /// The strict parser accepted these bytes: the fields it reads are not rebuilt (see
        /// `LenientCertificate.read`), only the warnings are gathered.
        var strictAccepted = false
        /// Whether the readable signature algorithm name is needed (the strict one is used
        /// unless the strict parser does not know the algorithm).
        var needsSignatureName = true

        init(_ bytes: [UInt8]) { ber = BERReader(bytes) }

        mutating func warn(_ clause: String, _ offset: Int, _ message: String) { ber.warn(clause, offset, message) }

        func allWarnings() -> [InspectionWarning] {
            var w = ber.warnings.sorted { $0.offset < $1.offset }
            if ber.droppedWarnings > 0 {
                w.append(
                    InspectionWarning(
                        clause: "X.690 §10", offset: 0, message: "\(ber.droppedWarnings) more warnings not shown"))
            }
            return w
        }

        // MARK: Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }

        mutating func readCertificate() throws(DERError) -> Fields {
            let root = try ber.parse(at: 0, limit: bytes.count)
            if root.end < bytes.count {
                warn("X.690 §8.1.1", root.end, "\(bytes.count - root.end) octets after the certificate")
            }
            guard root.tag == 0x30 else { throw DERError(.unexpectedTag, at: root.start) }
            let c = root.children
            guard c.count >= 3 else { throw DERError(.truncated, at: root.contentEnd) }
            if c.count > 3 { warn("RFC 5280 §4.1", c[3].start, "extra values after signatureValue") }
            guard c[0].tag == 0x30 else { throw DERError(.unexpectedTag, at: c[0].start) }
            var f = Fields()
            try readTBS(c[0], &f)

            // signatureAlgorithm (RFC 5280 §4.1.1.2) MUST equal the TBS signature field.
            let outer = c[1]
            guard outer.tag == 0x30, let outerOID = algorithmOID(outer) else {
                throw DERError(.unexpectedTag, at: outer.start)
            }
            f.outerAlgorithmOID = outerOID.dotted
            checkSignatureAlgorithm(outer, oid: outerOID.content, label: "signatureAlgorithm")
            let inner = f.tbsAlgorithmNode!
            if !bytes[outer.start..<outer.end].elementsEqual(bytes[inner.start..<inner.end]) {
                if f.outerAlgorithmOID != f.tbsAlgorithmOID {
                    warn(
                        "RFC 5280 §4.1.1.2", outer.start,
                        "signatureAlgorithm \(f.outerAlgorithmOID) differs from the TBS signature field \(f.tbsAlgorithmOID)"
                    )
                } else {
                    warn(
                        "RFC 5280 §4.1.1.2", outer.start,
                        "signatureAlgorithm is encoded differently from the TBS signature field")
                }
            }
            if needsSignatureName { f.signatureAlgorithmName = signatureAlgorithmName(outer, oid: outerOID.content) }

            let sig = c[2]
            if sig.tag != 0x03 {
                warn("RFC 5280 §4.1.1.3", sig.start, "signatureValue is not a BIT STRING")
            } else if sig.contentCount == 0 || bytes[sig.contentStart] != 0 {
                warn(
                    "RFC 5280 §4.1.1.3", sig.contentStart,
                    "signatureValue has unused bits (signatures are whole octets)")
            }
            return f
        }

        // MARK: TBSCertificate (RFC 5280 §4.1.2)

        mutating func readTBS(_ tbs: BERNode, _ f: inout Fields) throws(DERError) {
            let t = tbs.children
            var i = 0
            var rawVersion: Int64 = 0
            if i < t.count, t[i].tag == 0xA0 {
                let v = t[i]
                i += 1
                if v.children.count == 1, v.children[0].tag == 0x02, let n = smallInteger(v.children[0]) {
                    rawVersion = n
                    if n == 0 { warn("X.690 §11.5", v.start, "version v1 (the DEFAULT) encoded explicitly") }
                    if n < 0 || n > 2 {
                        warn(
                            "RFC 5280 §4.1.2.1", v.children[0].contentStart,
                            "unknown version \(n) (v\(n + 1)); read as v3")
                    }
                } else {
                    warn("RFC 5280 §4.1.2.1", v.start, "malformed version; read as v3")
                    rawVersion = 2
                }
            }
            f.version = Int(clamping: rawVersion + 1)

            guard i < t.count, t[i].tag == 0x02 else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            f.serialHex = readSerial(t[i])
            i += 1

            guard i < t.count, t[i].tag == 0x30, let sigOID = algorithmOID(t[i]) else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            f.tbsAlgorithmOID = sigOID.dotted
            f.tbsAlgorithmNode = t[i]
            checkSignatureAlgorithm(t[i], oid: sigOID.content, label: "signature")
            i += 1

            guard i < t.count, t[i].tag == 0x30 else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            f.issuer = readName(t[i], label: "issuer")
            i += 1

            // Validity ::= SEQUENCE { notBefore Time, notAfter Time }
            guard i < t.count, t[i].tag == 0x30 else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            let validity = t[i].children
            if validity.count == 2 {
                f.notBefore = readTime(validity[0], label: "notBefore")
                f.notAfter = readTime(validity[1], label: "notAfter")
            } else {
                warn("RFC 5280 §4.1.2.5", t[i].start, "validity does not hold exactly two times")
            }
            i += 1

            guard i < t.count, t[i].tag == 0x30 else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            f.subject = readName(t[i], label: "subject")
            i += 1

            guard i < t.count, t[i].tag == 0x30 else {
                throw DERError(.unexpectedTag, at: i < t.count ? t[i].start : tbs.contentEnd)
            }
            f.spki = Array(bytes[t[i].start..<t[i].end])
            f.publicKey = readSubjectPublicKeyInfo(t[i])
            i += 1

            // issuerUniqueID [1], subjectUniqueID [2] (§4.1.2.8, v2/v3 only), extensions [3] (v3).
            var sawExtensions = false
            while i < t.count {
                let n = t[i]
                i += 1
                switch n.tag {
                case 0x81, 0xA1, 0x82, 0xA2:
                    if f.version == 1 { warn("RFC 5280 §4.1.2.8", n.start, "unique identifier in a v1 certificate") }
                case 0xA3 where !sawExtensions:
                    sawExtensions = true
                    if f.version != 3 {
                        warn("RFC 5280 §4.1.2.9", n.start, "extensions in a v\(f.version) certificate (v3 only)")
                    }
                    readExtensions(n, &f)
                default:
                    warn("RFC 5280 §4.1", n.start, "unexpected value in TBSCertificate (tag 0x\(hex2(n.tag)))")
                }
            }
        }

        func hex2(_ b: UInt8) -> String { ByteSpan.hexString([b]) }

        // MARK: INTEGER helpers

        /// X.690 §8.3.2: warns about superfluous leading octets; returns the content.
        mutating func integerContent(_ n: BERNode) -> ArraySlice<UInt8> {
            let c = ber.content(n)
            if c.isEmpty {
                warn("X.690 §8.3.1", n.contentStart, "empty INTEGER")
            } else if c.count > 1 {
                let a = c[c.startIndex]
                let b = c[c.startIndex + 1]
                if (a == 0 && b & 0x80 == 0) || (a == 0xFF && b & 0x80 != 0) {
                    warn("X.690 §8.3.2", n.contentStart, "non-minimal INTEGER")
                }
            }
            return c
        }

        mutating func smallInteger(_ n: BERNode) -> Int64? {
            let c = integerContent(n)
            let trimmed = c.drop(while: { $0 == 0 })
            guard !c.isEmpty, trimmed.count <= 7 || (c.first! & 0x80 != 0 && c.count <= 8) else { return nil }
            var v: Int64 = c.first! & 0x80 != 0 ? -1 : 0
            for b in c { v = v << 8 | Int64(b) }
            return v
        }

        /// Sign and magnitude (big-endian, no leading zeros) of a two's complement INTEGER.
        static func signMagnitude(_ c: ArraySlice<UInt8>) -> (negative: Bool, magnitude: [UInt8]) {
            guard let first = c.first else { return (false, []) }
            if first & 0x80 == 0 { return (false, Array(c.drop(while: { $0 == 0 }))) }
            // Negate: invert and add one.
            var m = c.map { ~$0 }
            var i = m.count - 1
            while i >= 0 {
                let (v, carry) = m[i].addingReportingOverflow(1)
                m[i] = v
                if !carry { break }
                i -= 1
            }
            return (true, Array(m.drop(while: { $0 == 0 })))
        }

        /// CertificateSerialNumber (RFC 5280 §4.1.2.2): positive, at most 20 octets.
        mutating func readSerial(_ n: BERNode) -> String {
            let c = integerContent(n)
            let (negative, magnitude) = Reader.signMagnitude(c)
            if negative {
                warn("RFC 5280 §4.1.2.2", n.contentStart, "negative serial number")
            } else if magnitude.isEmpty {
                warn("RFC 5280 §4.1.2.2", n.contentStart, "serial number is zero (must be positive)")
            }
            if magnitude.count > 20 {
                warn("RFC 5280 §4.1.2.2", n.contentStart, "serial number of \(magnitude.count) octets (at most 20)")
            }
            if magnitude.isEmpty { return "0" }
            return (negative ? "-" : "") + ByteSpan.hexString(magnitude)
        }

        // MARK: AlgorithmIdentifier

        /// The OID of an `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`.
        mutating func algorithmOID(_ n: BERNode) -> (content: [UInt8], dotted: String)? {
            guard let o = n.children.first, o.tag == 0x06, o.contentCount > 0 else { return nil }
            if n.children.count > 2 {
                warn("RFC 5280 §4.1.1.2", n.children[2].start, "AlgorithmIdentifier has extra values")
            }
            let content = Array(ber.content(o))
            checkOID(o)
            return (content, OID.dotted(content))
        }

        /// X.690 §8.19.2: each arc in the fewest octets.
        mutating func checkOID(_ o: BERNode) {
            var atArcStart = true
            for i in o.contentStart..<o.contentEnd {
                if atArcStart && bytes[i] == 0x80 {
                    warn("X.690 §8.19.2", i, "OBJECT IDENTIFIER arc not minimally encoded")
                    return
                }
                atArcStart = bytes[i] & 0x80 == 0
            }
            if !atArcStart { warn("X.690 §8.19.2", o.contentEnd - 1, "OBJECT IDENTIFIER ends inside an arc") }
        }

        static let ecdsaOIDs: [[UInt8]] = [
            OID.ecdsaWithSHA1, OID.ecdsaWithSHA224, OID.ecdsaWithSHA256, OID.ecdsaWithSHA384, OID.ecdsaWithSHA512,
        ]
        static let rsaPKCS1OIDs: [[UInt8]] = [
            OID.md2WithRSAEncryption, OID.md5WithRSAEncryption, OID.sha1WithRSAEncryption,
            OID.sha224WithRSAEncryption, OID.sha256WithRSAEncryption,
            OID.sha384WithRSAEncryption, OID.sha512WithRSAEncryption,
        ]

        /// The parameter rules of each signature algorithm (RFC 5758 §3.2, RFC 4055 §5, RFC 8410 §3).
        mutating func checkSignatureAlgorithm(_ n: BERNode, oid: [UInt8], label: String) {
            let params = n.children.count > 1 ? n.children[1] : nil
            if Reader.ecdsaOIDs.contains(oid) {
                if let p = params {
                    warn(
                        "RFC 5758 §3.2", p.start,
                        p.tag == 0x05
                            ? "NULL parameters in the \(label) ECDSA algorithm (must be absent)"
                            : "parameters in the \(label) ECDSA algorithm (must be absent)")
                }
            } else if oid == OID.ed25519 || oid == OID.ed448 {
                if let p = params {
                    warn("RFC 8410 §3", p.start, "parameters in the \(label) EdDSA algorithm (must be absent)")
                }
            } else if Reader.rsaPKCS1OIDs.contains(oid) {
                if let p = params {
                    if p.tag != 0x05 {
                        warn("RFC 4055 §5", p.start, "\(label) RSA PKCS#1 v1.5 parameters are not NULL")
                    } else if p.contentCount != 0 {
                        warn("X.690 §8.8.2", p.contentStart, "NULL with content")
                    }
                } else {
                    warn("RFC 4055 §5", n.start, "\(label) RSA PKCS#1 v1.5 parameters absent (must be NULL; tolerated)")
                }
            } else if oid == OID.rsassaPSS {
                if (try? SignatureAlgorithm(algorithmIdentifier: reencode(n))) == nil {
                    warn("RFC 4055 §3.1", n.start, "\(label) RSASSA-PSS parameters are missing or malformed")
                }
            }
        }

        func reencode(_ n: BERNode) -> [UInt8] {
            var w = DERWriter(source: bytes)
            w.write(.node(n))
            return w.out
        }

        /// A readable name: the strict decoder's when it accepts the identifier (parameters
        /// that must be absent removed first), else from the OID.
        func signatureAlgorithmName(_ n: BERNode, oid: [UInt8]) -> String {
            var encoding = reencode(n)
            if Reader.ecdsaOIDs.contains(oid) || oid == OID.ed25519 || oid == OID.ed448 {
                var w = DERWriter(source: bytes)
                w.write(.constructed(tag: 0x30, children: [.node(n.children[0])], origin: n.start))
                encoding = w.out
            }
            if let a = try? SignatureAlgorithm(algorithmIdentifier: encoding) {
                if case .unknown = a {} else { return a.name }
            }
            for (o, name) in Reader.otherSignatureNames where o == oid { return name }
            if oid == OID.rsassaPSS { return "RSA-PSS (malformed parameters)" }
            return "unknown"
        }

        static let otherSignatureNames: [([UInt8], String)] = [
            (OID.dsaWithSHA1, "DSA with SHA-1"),
            ([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x01], "DSA with SHA-224"),
            ([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x02], "DSA with SHA-256"),
        ]

        // MARK: Name (RFC 5280 §4.1.2.4)

        /// Re-encodes the name in DER; string values outside their type's character set are
        /// warned about and carried as UTF8String (their text decoded as well as it can be).
        static let emptyName: DistinguishedName = {
            guard let n = try? DistinguishedName(der: [0x30, 0x00]) else {
                preconditionFailure("the empty Name is valid DER")
            }
            return n
        }()

        mutating func readName(_ n: BERNode, label: String) -> DistinguishedName {
            var rdns: [DEROut] = []
            for set in n.children {
                guard set.tag == 0x31 else {
                    warn("RFC 5280 §4.1.2.4", set.start, "\(label): RDN is not a SET")
                    continue
                }
                if set.children.isEmpty { warn("RFC 5280 §4.1.2.4", set.start, "\(label): empty RDN") }
                var atvs: [DEROut] = []
                for atv in set.children {
                    guard atv.tag == 0x30, atv.children.count == 2, atv.children[0].tag == 0x06 else {
                        warn("RFC 5280 §4.1.2.4", atv.start, "\(label): malformed AttributeTypeAndValue")
                        continue
                    }
                    checkOID(atv.children[0])
                    let value = atv.children[1]
                    var out = DEROut.node(value)
                    let type = Array(ber.content(atv.children[0]))
                    let syntax = AttributeSyntax(type: type)
                    if DERString.isStringTag(DERTag(rawValue: value.tag)) || value.tag & 0xDF == 0x0C
                        || isStringTag(value.tag & 0xDF)
                    {
                        if let syntax, !syntax.allows(DERTag(rawValue: value.tag & 0xDF)) {
                            // Accepted by the strict parser (as by OpenSSL and pyca), but not the
                            // type X.520 / RFC 5280 names (a UTF8String countryName, say).
                            warn(
                                syntax == .directoryString ? "RFC 5280 §4.1.2.4" : "RFC 5280 Appendix A.1", value.start,
                                "\(label): \(attributeName(type)) is a \(stringTypeName(value.tag & 0xDF)), not a "
                                    + "\(syntax.name)")
                        }
                        if value.isConstructed {
                            warn("X.690 §10.2", value.start, "\(label): constructed string encoding")
                            out = .primitive(tag: 0x0C, content: Array(joinedContent(value).utf8), origin: value.start)
                        } else if let bad = invalidStringOffset(value) {
                            warn(
                                "X.680 §41", bad,
                                "\(label): \(stringTypeName(value.tag)) holds characters outside its type")
                            out = .primitive(tag: 0x0C, content: Array(lossyText(value).utf8), origin: value.start)
                        }
                    } else if let syntax {
                        // X.520: the type's values are strings; the strict parser refuses this
                        // certificate (`.invalidName`). Shown as the hex of the value's encoding.
                        warn(
                            syntax == .directoryString ? "RFC 5280 §4.1.2.4" : "RFC 5280 Appendix A.1", value.start,
                            "\(label): \(attributeName(type)) takes a \(syntax.name); its value (tag 0x"
                                + "\(hex2(value.tag))) is not a string")
                        out = hexText(value)
                    } else if let error = anyValueError(value) {
                        // ANY DEFINED BY an unknown type: not strict DER (X.690 §8.1.2.5, §10).
                        // An opaque value was warned about when it was read.
                        if !value.opaque {
                            warn(
                                "X.690 §10", error.offset,
                                "\(label): value of \(attributeName(type)) is not DER: \(error.kind.message)")
                        }
                        out = hexText(value)
                    }
                    atvs.append(.constructed(tag: 0x30, children: [.node(atv.children[0]), out], origin: atv.start))
                }
                rdns.append(.constructed(tag: 0x31, children: atvs, origin: set.start))
            }
            // Strictly parsed: the name is the strict parser's, and its DER re-encodes to itself
            // (no repairs to report).
            if strictAccepted { return Self.emptyName }
            var w = DERWriter(source: bytes)
            w.write(.constructed(tag: 0x30, children: rdns, origin: n.start))
            // Values re-encoded in DER (a non-minimal INTEGER, a BOOLEAN 01): the strict parser
            // refuses the original.
            for x in w.repairs { warn(x.clause, x.offset, "\(label): " + x.message) }
            // The re-encoding goes through the strict Name decoder (no unvalidated bytes behind
            // a DistinguishedName); what it still refuses is shown empty, with a warning.
            if let dn = try? DistinguishedName(der: w.out) { return dn }
            warn("RFC 5280 §4.1.2.4", n.start, "\(label): not readable as a Name even leniently; shown empty")
            return Self.emptyName
        }

        func isStringTag(_ tag: UInt8) -> Bool { DERString.isStringTag(DERTag(rawValue: tag)) }

        /// An attribute type's display name (`OID.displayName`), else its dotted OID.
        func attributeName(_ type: [UInt8]) -> String {
            type.withUnsafeBytes { OID.displayName($0) } ?? OID.dotted(type)
        }

        /// A value the strict Name decoder refuses, carried as the UTF8String "#" + hex of its
        /// original encoding (RFC 4514 §2.4's form for non-string values, escaped as text).
        func hexText(_ v: BERNode) -> DEROut {
            let hex = ByteSpan.hexString(Array(bytes[v.start..<v.end]))
            return .primitive(tag: 0x0C, content: Array(("#" + hex).utf8), origin: v.start)
        }

        /// The strict-ANY verdict (`DERValue.validateAsAny`) on the value's DER re-encoding, with
        /// the error's offset mapped back to the certificate; nil when valid.
        /// True when `bytes[start..<end]` is exactly one value in strict DER (`readAnyValue`:
        /// minimal lengths, canonical primitives, constructed contents complete TLVs).
        func isStrictDER(_ start: Int, _ end: Int) -> Bool {
            guard start < end else { return false }
            return bytes.withUnsafeBytes { all -> Bool in
                do throws(DERError) {
                    var r = DERReader(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                    _ = try r.readAnyValue()
                    try r.finish()
                    return true
                } catch { return false }
            }
        }

        func anyValueError(_ v: BERNode) -> DERError? {
            if v.opaque { return DERError(.truncated, at: v.contentStart) }
            var w = DERWriter(source: bytes)
            w.write(.node(v))
            let out = w.out
            let result: DERError? = out.withUnsafeBytes { b -> DERError? in
                do throws(DERError) {
                    var r = DERReader(b)
                    _ = try r.readAnyValue()
                    try r.finish()
                    return nil
                } catch { return error }
            }
            guard var e = result else { return nil }
            e.offset = w.map.original(e.offset)
            return e
        }

        func stringTypeName(_ tag: UInt8) -> String {
            switch tag {
            case 0x0C: return "UTF8String"
            case 0x13: return "PrintableString"
            case 0x16: return "IA5String"
            case 0x1A: return "VisibleString"
            case 0x12: return "NumericString"
            case 0x1E: return "BMPString"
            case 0x1C: return "UniversalString"
            case 0x14: return "TeletexString"
            default: return "string"
            }
        }

        func invalidStringOffset(_ v: BERNode) -> Int? {
            bytes.withUnsafeBytes { b -> Int? in
                let s = DERString(
                    tag: DERTag(rawValue: v.tag),
                    bytes: UnsafeRawBufferPointer(rebasing: b[v.contentStart..<v.contentEnd]),
                    offset: v.contentStart)
                do throws(DERError) {
                    try s.validate()
                    return nil
                } catch { return error.offset }
            }
        }

        /// The text of a string value whatever its faults: UTF-8 with replacement characters,
        /// BMP/Universal by code units, the single-byte types as Latin-1.
        func lossyText(_ v: BERNode) -> String {
            let c = ber.content(v)
            switch v.tag {
            case 0x0C: return String(decoding: c, as: UTF8.self)
            case 0x1E:
                var s = String.UnicodeScalarView()
                var i = c.startIndex
                while i + 1 < c.endIndex {
                    s.append(Unicode.Scalar(UInt32(c[i]) << 8 | UInt32(c[i + 1])) ?? "\u{FFFD}")
                    i += 2
                }
                return String(s)
            case 0x1C:
                var s = String.UnicodeScalarView()
                var i = c.startIndex
                while i + 3 < c.endIndex {
                    s.append(
                        Unicode.Scalar(
                            UInt32(c[i]) << 24 | UInt32(c[i + 1]) << 16 | UInt32(c[i + 2]) << 8 | UInt32(c[i + 3]))
                            ?? "\u{FFFD}")
                    i += 4
                }
                return String(s)
            default:
                var s = String.UnicodeScalarView()
                for b in c { s.append(Unicode.Scalar(b)) }
                return String(s)
            }
        }

        /// Content of a constructed (BER) string: its primitive pieces, as text.
        func joinedContent(_ v: BERNode) -> String {
            var out = ""
            for c in v.children {
                out +=
                    c.isConstructed
                    ? joinedContent(c)
                    : lossyText(
                        BERNode(
                            tag: v.tag & 0xDF, start: c.start, contentStart: c.contentStart, contentEnd: c.contentEnd,
                            end: c.end, children: []))
            }
            return out
        }

        // MARK: Time (RFC 5280 §4.1.2.5)

        /// UTCTime `YYMMDDHHMM[SS](Z|±HHMM)` and GeneralizedTime
        /// `YYYYMMDDHH[MM[SS[.f…]]][Z|±HHMM]` — every X.680 form OpenSSL reads — with a warning
        /// for each departure from `YYMMDDHHMMSSZ` / `YYYYMMDDHHMMSSZ`. Nil when unreadable.
        mutating func readTime(_ n: BERNode, label: String) -> Int64? {
            guard n.tag == 0x17 || n.tag == 0x18, !n.isConstructed else {
                warn("RFC 5280 §4.1.2.5", n.start, "\(label) is not a UTCTime or GeneralizedTime")
                return nil
            }
            let c = Array(ber.content(n))
            let utc = n.tag == 0x17
            var i = 0
            func digits(_ k: Int) -> Int? {
                guard i + k <= c.count else { return nil }
                var v = 0
                for j in i..<(i + k) {
                    guard c[j] >= 0x30 && c[j] <= 0x39 else { return nil }
                    v = v * 10 + Int(c[j] - 0x30)
                }
                i += k
                return v
            }
            var canonical = true
            guard let y = digits(utc ? 2 : 4), let month = digits(2), let day = digits(2), let hour = digits(2) else {
                warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) is not a time: \(printable(c))")
                return nil
            }
            let year = utc ? (y >= 50 ? 1900 + y : 2000 + y) : y
            var minute = 0
            var second = 0
            if let m = digits(2) {
                minute = m
                if let s = digits(2) { second = s } else { canonical = false }
            } else {
                canonical = false
                if utc {
                    warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) is not a time: \(printable(c))")
                    return nil
                }
            }
            if !utc, i < c.count, c[i] == 0x2E || c[i] == 0x2C {
                canonical = false
                i += 1
                while i < c.count, c[i] >= 0x30 && c[i] <= 0x39 { i += 1 }
            }
            var offsetSeconds = 0
            if i < c.count, c[i] == 0x5A {
                i += 1
            } else if i < c.count, c[i] == 0x2B || c[i] == 0x2D {
                canonical = false
                let sign = c[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), let om = digits(2) else {
                    warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) has a malformed time zone: \(printable(c))")
                    return nil
                }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            } else {
                canonical = false
                if utc {
                    warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) is not a time: \(printable(c))")
                    return nil
                }
                // GeneralizedTime without a zone is local time (X.680 §46.3 a); read as UTC.
            }
            if i != c.count {
                warn("RFC 5280 §4.1.2.5", n.contentStart + i, "\(label) has trailing characters: \(printable(c))")
                return nil
            }
            if !canonical {
                warn(
                    utc ? "RFC 5280 §4.1.2.5.1" : "RFC 5280 §4.1.2.5.2", n.contentStart,
                    "\(label) \(printable(c)) is not in the form \(utc ? "YYMMDDHHMMSSZ" : "YYYYMMDDHHMMSSZ")")
            }
            if !utc && year >= 1950 && year < 2050 {
                warn("RFC 5280 §4.1.2.5", n.start, "\(label) is a GeneralizedTime before 2050 (must be UTCTime)")
            }
            guard month >= 1 && month <= 12, day >= 1, day <= DERTime.daysInMonth(year: year, month: month),
                hour < 24, minute < 60, second <= 60
            else {
                warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) \(printable(c)) is not a real date and time")
                return nil
            }
            if second == 60 { warn("RFC 5280 §4.1.2.5", n.contentStart, "\(label) has a leap second") }
            return DERTime.secondsSinceEpoch(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
                - Int64(offsetSeconds)
        }

        func printable(_ c: [UInt8]) -> String {
            var s = "\""
            for b in c.prefix(32) { s.unicodeScalars.append(b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "?") }
            return s + "\""
        }

        // MARK: SubjectPublicKeyInfo (RFC 5280 §4.1.2.7)

        mutating func readSubjectPublicKeyInfo(_ n: BERNode) -> PublicKeySummary {
            var k = PublicKeySummary(algorithm: "unknown")
            guard n.children.count == 2, n.children[0].tag == 0x30, let oid = algorithmOID(n.children[0]) else {
                warn("RFC 5280 §4.1.2.7", n.start, "malformed SubjectPublicKeyInfo")
                return k
            }
            let alg = n.children[0]
            let params = alg.children.count > 1 ? alg.children[1] : nil
            k.algorithm = oid.dotted
            let keyNode = n.children[1]
            var key: (start: Int, end: Int)?
            if keyNode.tag == 0x03, keyNode.contentCount >= 1 {
                if bytes[keyNode.contentStart] != 0 {
                    warn("RFC 5280 §4.1.2.7", keyNode.contentStart, "subjectPublicKey has unused bits")
                }
                key = (keyNode.contentStart + 1, keyNode.contentEnd)
            } else {
                warn("RFC 5280 §4.1.2.7", keyNode.start, "subjectPublicKey is not a BIT STRING")
            }
            switch oid.content {
            case OID.rsaEncryption, OID.rsassaPSS:
                k.algorithm = oid.content == OID.rsaEncryption ? "rsa" : "rsa-pss"
                if oid.content == OID.rsaEncryption {
                    if params == nil {
                        warn("RFC 3279 §2.3.1", alg.start, "rsaEncryption parameters absent (must be NULL; tolerated)")
                    } else if params!.tag != 0x05 {
                        warn("RFC 3279 §2.3.1", params!.start, "rsaEncryption parameters are not NULL")
                    }
                }
                // RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 A.1.1)
                if let key, let rsa = try? ber.parse(at: key.start, limit: key.end), rsa.tag == 0x30,
                    rsa.children.count == 2,
                    rsa.children[0].tag == 0x02, rsa.children[1].tag == 0x02
                {
                    let (neg, modulus) = Reader.signMagnitude(integerContent(rsa.children[0]))
                    if neg { warn("RFC 8017 §A.1.1", rsa.children[0].contentStart, "negative RSA modulus") }
                    k.bits = Reader.bitLength(modulus)
                    let (_, e) = Reader.signMagnitude(integerContent(rsa.children[1]))
                    if e.count <= 8 { k.rsaExponent = e.reduce(0) { $0 << 8 | UInt64($1) } }
                } else {
                    warn("RFC 8017 §A.1.1", key?.start ?? keyNode.start, "malformed RSAPublicKey")
                }
            case OID.ecPublicKey:
                k.algorithm = "ec"
                readECParameters(params, alg: alg, key: key, into: &k)
            case Reader.dsaOID:
                // Dss-Parms ::= SEQUENCE { p INTEGER, q INTEGER, g INTEGER } (RFC 3279 §2.3.2);
                // absent parameters are inherited from the issuer (size unknown here).
                k.algorithm = "dsa"
                if let p = params, p.tag == 0x30, p.children.count == 3, p.children.allSatisfy({ $0.tag == 0x02 }) {
                    k.bits = Reader.bitLength(Reader.signMagnitude(integerContent(p.children[0])).magnitude)
                } else if let p = params {
                    warn("RFC 3279 §2.3.2", p.start, "malformed DSA parameters")
                }
            case OID.ed25519, OID.ed448:
                k.algorithm = oid.content == OID.ed25519 ? "ed25519" : "ed448"
                k.bits = oid.content == OID.ed25519 ? 256 : 456
                if let p = params { warn("RFC 8410 §3", p.start, "EdDSA key parameters (must be absent)") }
            default:
                break
            }
            return k
        }

        static let dsaOID: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x38, 0x04, 0x01]
        static let primeField: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x01, 0x01]
        static let characteristicTwoField: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x01, 0x02]

        static func bitLength(_ magnitude: [UInt8]) -> Int? {
            guard let first = magnitude.first else { return nil }
            return (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
        }

        /// Named curves other than the three Sigil verifies, with their sizes (SEC 2, RFC 5639).
        static let otherCurves: [([UInt8], Int)] = [
            ([0x2B, 0x81, 0x04, 0x00, 0x0A], 256),  // secp256k1
            ([0x2B, 0x81, 0x04, 0x00, 0x21], 224),  // secp224r1
            ([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x01], 192),  // prime192v1
            ([0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07], 256),  // brainpoolP256r1
            ([0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0B], 384),  // brainpoolP384r1
            ([0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0D], 512),  // brainpoolP512r1
        ]

        /// `ECParameters ::= CHOICE { namedCurve OID, implicitCurve NULL, specifiedCurve SpecifiedECDomain }`
        /// (RFC 5480 §2.1.1: only namedCurve in PKIX; SEC 1 §C.2 for the others).
        mutating func readECParameters(
            _ params: BERNode?, alg: BERNode, key: (start: Int, end: Int)?, into k: inout PublicKeySummary
        ) {
            guard let p = params else {
                warn("RFC 5480 §2.1.1", alg.start, "id-ecPublicKey without parameters")
                return
            }
            switch p.tag {
            case 0x06:
                let c = Array(ber.content(p))
                if c == OID.secp256r1 {
                    k.curve = "P-256"
                    k.bits = 256
                } else if c == OID.secp384r1 {
                    k.curve = "P-384"
                    k.bits = 384
                } else if c == OID.secp521r1 {
                    k.curve = "P-521"
                    k.bits = 521
                } else {
                    k.curve = OID.dotted(c)
                    k.bits = Reader.otherCurves.first { $0.0 == c }?.1
                    if k.bits == nil, let key, key.end - key.start > 1, bytes[key.start] == 4 {
                        k.bits = (key.end - key.start - 1) / 2 * 8
                    }
                }
            case 0x05:
                warn("RFC 5480 §2.1.1", p.start, "implicitCurve (NULL) EC parameters: the curve is not given")
            case 0x30:
                k.explicitParameters = true
                warn(
                    "RFC 5480 §2.1.1", p.start, "specifiedCurve (explicit) EC parameters (PKIX requires a named curve)")
                // SpecifiedECDomain ::= SEQUENCE { version INTEGER, fieldID FieldID, curve Curve,
                //   base ECPoint, order INTEGER, cofactor INTEGER OPTIONAL, ... }
                // FieldID ::= SEQUENCE { fieldType OID, parameters ANY } (prime-p: INTEGER p;
                // characteristic-two: SEQUENCE { m INTEGER, ... }); Curve ::= SEQUENCE { a, b OCTET STRING, seed BIT STRING OPTIONAL }
                let s = p.children
                guard s.count >= 5, s[1].tag == 0x30, s[1].children.count >= 2, s[1].children[0].tag == 0x06 else {
                    warn("SEC 1 §C.2", p.start, "malformed specifiedCurve parameters")
                    return
                }
                let fieldType = Array(ber.content(s[1].children[0]))
                let fieldParams = s[1].children[1]
                if fieldType == Reader.primeField, fieldParams.tag == 0x02 {
                    let prime = Reader.signMagnitude(integerContent(fieldParams)).magnitude
                    k.bits = Reader.bitLength(prime)
                    if s[2].tag == 0x30, s[2].children.count >= 2, s[3].tag == 0x04, s[4].tag == 0x02 {
                        let a = Array(ber.content(s[2].children[0]).drop(while: { $0 == 0 }))
                        let b = Array(ber.content(s[2].children[1]).drop(while: { $0 == 0 }))
                        let base = Array(ber.content(s[3]))
                        let order = Reader.signMagnitude(integerContent(s[4])).magnitude
                        let cofactor =
                            s.count > 5 && s[5].tag == 0x02 ? Reader.signMagnitude(integerContent(s[5])).magnitude : [1]
                        k.curve = Reader.namedCurve(
                            prime: prime, a: a, b: b, base: base, order: order, cofactor: cofactor)
                    }
                } else if fieldType == Reader.characteristicTwoField, fieldParams.tag == 0x30,
                    let m = fieldParams.children.first, m.tag == 0x02
                {
                    k.bits = smallInteger(m).map { Int($0) }
                } else {
                    warn("SEC 1 §C.2", s[1].start, "unknown EC field type")
                }
            default:
                warn("RFC 5480 §2.1.1", p.start, "malformed EC parameters")
            }
        }

        /// The NIST curve whose domain parameters (SEC 2 §2.4.2, §2.5.1, §2.6.1) are exactly
        /// these, else nil. The base point may be compressed (SEC 1 §2.3.3).
        static func namedCurve(prime: [UInt8], a: [UInt8], b: [UInt8], base: [UInt8], order: [UInt8], cofactor: [UInt8])
            -> String?
        {
            for curve in knownCurves {
                let value = { (hex: String) -> [UInt8] in hexBytes(hex) }
                guard prime == value(curve.p), a == value(curve.a), b == value(curve.b), order == value(curve.n),
                    cofactor == [1]
                else { continue }
                let size = (curve.bits + 7) / 8
                let gx = value(curve.gx)
                let gy = value(curve.gy)
                func padded(_ v: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: size - v.count) + v }
                if base.count == 1 + 2 * size, base[0] == 4 {
                    if Array(base[1...size]) == padded(gx) && Array(base[(size + 1)...]) == padded(gy) {
                        return curve.name
                    }
                } else if base.count == 1 + size, base[0] == 2 || base[0] == 3 {
                    let odd = gy.last.map { $0 & 1 == 1 } ?? false
                    if Array(base[1...]) == padded(gx) && (base[0] == 3) == odd { return curve.name }
                }
            }
            return nil
        }

        static func hexBytes(_ hex: String) -> [UInt8] {
            var digits = Array(hex.utf8).map { c -> UInt8 in c <= 0x39 ? c - 0x30 : c - 0x61 + 10 }
            if digits.count % 2 == 1 { digits.insert(0, at: 0) }
            var out: [UInt8] = []
            var i = 0
            while i < digits.count {
                out.append(digits[i] << 4 | digits[i + 1])
                i += 2
            }
            return Array(out.drop(while: { $0 == 0 }))
        }

        /// SEC 2 domain parameters (values checked against `openssl ecparam -param_enc explicit`).
        static let knownCurves:
            [(name: String, bits: Int, p: String, a: String, b: String, gx: String, gy: String, n: String)] = [
                (
                    "P-256", 256,
                    "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
                    "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
                    "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
                    "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
                    "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
                    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
                ),
                (
                    "P-384", 384,
                    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
                    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffc",
                    "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
                    "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
                    "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
                    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"
                ),
                (
                    "P-521", 521,
                    "1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                    "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc",
                    "51953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
                    "c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
                    "11839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650",
                    "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409"
                ),
            ]

        // MARK: Extensions (RFC 5280 §4.1.2.9, §4.2)

        mutating func readExtensions(_ n: BERNode, _ f: inout Fields) {
            guard n.children.count == 1, let list = n.children.first, list.tag == 0x30 else {
                warn("RFC 5280 §4.1.2.9", n.start, "extensions field is not one SEQUENCE")
                return
            }
            if list.children.isEmpty { warn("RFC 5280 §4.1", list.start, "extensions field is present but empty") }
            var seen: [[UInt8]] = []
            var carrierExtensions: [DEROut] = []
            var repaired = false
            // Duplicate detection is quadratic: list at most this many (real certificates carry
            // about ten; the strict parser refuses more than 64).
            let limit = 1024
            if list.children.count > limit {
                warn(
                    "RFC 5280 §4.1", list.children[limit].start,
                    "\(list.children.count) extensions; only the first \(limit) are listed")
            }
            for e in list.children.prefix(limit) {
                let c = e.children
                guard e.tag == 0x30, c.count >= 2, c.count <= 3, c[0].tag == 0x06, c[0].contentCount > 0,
                    c[c.count - 1].tag == 0x04
                else {
                    warn("RFC 5280 §4.1", e.start, "malformed Extension")
                    continue
                }
                let oid = Array(ber.content(c[0]))
                // Named in warnings only; a strictly parsed certificate's list comes from the
                // strict parser, so the walk does not spell the OID out for it.
                func dotted() -> String { OID.dotted(oid) }
                var critical = false
                if c.count == 3 {
                    let b = c[1]
                    if b.tag != 0x01 || b.contentCount != 1 {
                        warn("RFC 5280 §4.1", b.start, "extension \(dotted()): critical is not a BOOLEAN")
                    } else {
                        let v = bytes[b.contentStart]
                        critical = v != 0
                        if v == 0 {
                            warn(
                                "X.690 §11.5", b.start,
                                "extension \(dotted()): critical FALSE (the DEFAULT) encoded explicitly")
                        } else if v != 0xFF {
                            warn("X.690 §11.1", b.contentStart, "extension \(dotted()): BOOLEAN is not 0x00 or 0xFF")
                        }
                    }
                }
                f.extensions.append(
                    ExtensionSummary(oid: strictAccepted ? "" : dotted(), critical: critical, offset: c[0].contentStart)
                )
                let before = ber.warnings.count
                checkOID(c[0])
                let badOID = ber.warnings.count != before
                if seen.contains(oid) {
                    warn("RFC 5280 §4.2", e.start, "duplicate extension \(dotted()) (only the first is decoded)")
                    repaired = true
                    continue
                }
                seen.append(oid)
                if badOID || carrierExtensions.count >= Certificate.maximumExtensionCount {
                    repaired = true
                    continue
                }
                // The value: re-encoded in DER when it parses as BER, else copied as it is.
                let octets = c[c.count - 1]
                var value: DEROut = .raw(start: octets.contentStart, end: octets.contentEnd)
                var probe = BERReader(bytes)
                if strictAccepted && !octets.isConstructed && isStrictDER(octets.contentStart, octets.contentEnd) {
                    // Strict DER already (X.690 §10, `readAnyValue`): its re-encoding is itself, so
                    // there is nothing to repair or report; the carrier is not built (below).
                } else if let v = try? probe.parse(at: octets.contentStart, limit: octets.contentEnd),
                    v.end == octets.contentEnd
                {
                    var w = DERWriter(source: bytes)
                    w.write(.node(v))
                    if !w.out.elementsEqual(bytes[octets.contentStart..<octets.contentEnd]) {
                        repaired = true
                        for x in probe.warnings { warn(x.clause, x.offset, "extension \(dotted()): " + x.message) }
                        for x in w.repairs { warn(x.clause, x.offset, "extension \(dotted()): " + x.message) }
                    }
                    value = .node(v)
                }
                if octets.isConstructed || c[0].isConstructed { repaired = true }
                var fields: [DEROut] = [.node(c[0])]
                if critical { fields.append(.primitive(tag: 0x01, content: [0xFF], origin: c[1].start)) }
                fields.append(.constructed(tag: 0x04, children: [value], origin: octets.start))
                carrierExtensions.append(.constructed(tag: 0x30, children: fields, origin: e.start))
            }
            f.extensionValuesRepaired = repaired
            // A strictly parsed certificate whose values needed no repair is its own carrier.
            if strictAccepted && !repaired { return }
            // The stand-in certificate that carries the extensions to the strict decoders:
            // placeholder version, serial, names, validity and key; an algorithm nothing
            // verifies (1.3.6.1.4.1.0.1, under the IANA-reserved enterprise number 0).
            let placeholderAlg: DEROut = .primitive(
                tag: 0x30, content: [0x06, 0x08, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x00, 0x01, 0x01], origin: 0)
            let time: [UInt8] = Array("700101000000Z".utf8)
            var tbs: [DEROut] = [
                .primitive(tag: 0xA0, content: [0x02, 0x01, 0x02], origin: 0),
                .primitive(tag: 0x02, content: [0x01], origin: 0),
                placeholderAlg,
                .primitive(tag: 0x30, content: [], origin: 0),
                .constructed(
                    tag: 0x30,
                    children: [
                        .primitive(tag: 0x17, content: time, origin: 0),
                        .primitive(tag: 0x17, content: time, origin: 0),
                    ], origin: 0),
                .primitive(tag: 0x30, content: [], origin: 0),
                .constructed(
                    tag: 0x30,
                    children: [
                        .primitive(tag: 0x30, content: [0x06, 0x03] + OID.ed25519, origin: 0),
                        .primitive(tag: 0x03, content: [UInt8](repeating: 0, count: 33), origin: 0),
                    ], origin: 0),
            ]
            if !carrierExtensions.isEmpty {
                tbs.append(
                    .constructed(
                        tag: 0xA3, children: [.constructed(tag: 0x30, children: carrierExtensions, origin: list.start)],
                        origin: n.start))
            }
            var w = DERWriter(source: bytes)
            w.write(
                .constructed(
                    tag: 0x30,
                    children: [
                        .constructed(tag: 0x30, children: tbs, origin: 0),
                        placeholderAlg,
                        .primitive(tag: 0x03, content: [0x00], origin: 0),
                    ], origin: 0))
            f.carrier = Carrier(bytes: w.out, map: w.map)
        }
    }
}
