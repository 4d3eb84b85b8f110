@_spi(SigilInternal) import SigilDER

/// An OCSP response (RFC 6960 §4.2.1), e.g. the one a TLS server staples to its handshake.
///
/// The response owns its DER bytes once; every field is a view of them (the responder
/// certificates it embeds are parsed into `Certificate` values of their own, which copy their
/// few hundred bytes). Parsing is strict DER and validates the whole structure; whether the
/// response may be believed (signature, responder, CertID, freshness) is decided by the trust
/// layer (`OCSPVerifier` in SigilTrust).
///
///     OCSPResponse ::= SEQUENCE {
///        responseStatus  OCSPResponseStatus,
///        responseBytes   [0] EXPLICIT ResponseBytes OPTIONAL }
///     ResponseBytes ::= SEQUENCE { responseType OBJECT IDENTIFIER, response OCTET STRING }
public struct OCSPResponse: Sendable {
    /// Responses larger than this are refused (stapled responses are a few KiB).
    public static let maximumSize = 1 << 20
    /// At most this many SingleResponses in a response (more: `.tooLarge`).
    public static let maximumResponses = 256
    /// At most this many certificates embedded in the BasicOCSPResponse (more: `.tooLarge`).
    public static let maximumCertificates = 16

    /// `OCSPResponseStatus ::= ENUMERATED` (§4.2.1; 4 is not used).
    public enum Status: Int64, Sendable, Hashable {
        /// 0: the response carries responseBytes (the only status that does).
        case successful = 0
        /// 1: the request did not conform to the OCSP syntax.
        case malformedRequest = 1
        /// 2: the responder reached an inconsistent internal state.
        case internalError = 2
        /// 3: the responder cannot answer now; try again later.
        case tryLater = 3
        /// 5: the request must be signed.
        case sigRequired = 5
        /// 6: the client is not authorized to make this query.
        case unauthorized = 6
    }

    /// The whole DER encoding.
    public let der: [UInt8]
    /// The responder's responseStatus (§4.2.1).
    public let status: Status
    /// The BasicOCSPResponse, present exactly when `status` is successful.
    public let basic: BasicOCSPResponse?

    /// Parses a DER OCSPResponse; the whole input must be one response, at most `maximumSize`
    /// bytes (else `.tooLarge`). Throws `.integerOutOfRange` for an unassigned status,
    /// `.unexpectedTag` when responseBytes are present without a successful status (or missing
    /// with it) or their type is not id-pkix-ocsp-basic, and the DER errors of the structure;
    /// an embedded certificate that `Certificate(der:)` refuses refuses the response (its error,
    /// with the offset made absolute).
    public init(der: [UInt8]) throws(DERError) {
        guard der.count <= OCSPResponse.maximumSize else { throw DERError(.tooLarge, at: OCSPResponse.maximumSize) }
        let parsed = try withStorage(der) { (buf) throws(DERError) -> (Status, BasicOCSPResponse?) in
            var outer = DERReader(buf)
            let v = try outer.read(.sequence)
            try outer.finish()
            return try DERReader.enter(v) { (r) throws(DERError) -> (Status, BasicOCSPResponse?) in
                let s = try r.read(.enumerated)
                guard let status = Status(rawValue: try s.decodeInt64()) else {
                    throw DERError(.integerOutOfRange, at: s.contentStart)
                }
                let bytes = try r.readOptional(.contextConstructed(0))
                // §4.2.1: responseBytes accompany a successful status, and only it.
                if (status == .successful) != (bytes != nil) {
                    throw DERError(.unexpectedTag, at: bytes?.start ?? r.position)
                }
                guard let bytes else { return (status, nil) }
                let basic = try DERReader.enter(bytes) { (b) throws(DERError) -> BasicOCSPResponse in
                    try b.enter(.sequence) { (rb) throws(DERError) -> BasicOCSPResponse in
                        let typeAt = rb.position
                        let type = try rb.readObjectIdentifier()
                        // §4.2.1: id-pkix-ocsp-basic is the one type responders use.
                        guard OID.ocspBasic.matches(type) else { throw DERError(.unexpectedTag, at: typeAt) }
                        let inner = try rb.read(.octetString)
                        var ir = DERReader(input: buf, from: inner.contentStart, to: inner.end, depth: 0)
                        let basic = try BasicOCSPResponse.parse(&ir, storage: der)
                        try ir.finish()
                        return basic
                    }
                }
                return (status, basic)
            }
        }
        self.der = der
        self.status = parsed.0
        self.basic = parsed.1
    }

    /// A response from a file: DER, or PEM with an `OCSP RESPONSE` block.
    public static func load(_ bytes: [UInt8]) throws(DERError) -> OCSPResponse {
        if PEM.looksLikePEM(bytes) {
            let blocks = try PEM.decodeBlocks(bytes, labels: ["OCSP RESPONSE"])
            guard let first = blocks.first else { throw DERError(.noCertificate, at: 0) }
            return try OCSPResponse(der: first)
        }
        return try OCSPResponse(der: bytes)
    }
}

/// `BasicOCSPResponse ::= SEQUENCE { tbsResponseData ResponseData,
///     signatureAlgorithm AlgorithmIdentifier, signature BIT STRING,
///     certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }`
/// `ResponseData ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1,
///     responderID ResponderID, producedAt GeneralizedTime,
///     responses SEQUENCE OF SingleResponse,
///     responseExtensions [1] EXPLICIT Extensions OPTIONAL }`   (RFC 6960 §4.2.1)
public struct BasicOCSPResponse: Sendable {
    /// `ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash }` (explicit tags);
    /// KeyHash is the SHA-1 of the responder's subjectPublicKey bits.
    public enum ResponderID: Sendable {
        /// The responder's subject name.
        case byName(DistinguishedName)
        /// The SHA-1 hash of the responder's subjectPublicKey bits (20 octets, checked).
        case byKey(ByteSpan)
    }

    /// The ResponseData encoding: the bytes the signature covers.
    public let tbsResponseData: ByteSpan
    /// How `signature` was made over `tbsResponseData`.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature BIT STRING's bits (after the unused-bits octet, which must be 0).
    public let signature: ByteSpan
    /// Who signed: by name or by key hash (§4.2.2.3).
    public let responderID: ResponderID
    /// When the responder signed, seconds since the Unix epoch (UTC).
    public let producedAt: Int64
    /// The SingleResponses, in order: at least one, at most `OCSPResponse.maximumResponses`.
    public let responses: [SingleResponse]
    /// The certificates the responder included (a delegated responder's, §4.2.2.2).
    public let certificates: [Certificate]
    /// The dotted OID of the first critical response or single-response extension Sigil does
    /// not process (the response must then not be used). The nonce is understood.
    public let unsupportedCriticalExtension: String?

    static func parse(_ r: inout DERReader, storage: [UInt8]) throws(DERError) -> BasicOCSPResponse {
        try r.enter(.sequence) { (b) throws(DERError) -> BasicOCSPResponse in
            let tbs = try b.read(.sequence)
            var unsupported: String?
            var responderID: ResponderID = .byKey(ByteSpan(storage, 0, 0))
            var producedAt: Int64 = 0
            var responses: [SingleResponse] = []
            try DERReader.enter(tbs) { (t) throws(DERError) in
                if let v = try t.readOptional(.contextConstructed(0)) {
                    let n = try DERReader.enter(v) { (e) throws(DERError) -> Int64 in try e.readInt64() }
                    if n == 0 { throw DERError(.defaultValueEncoded, at: v.start) }
                    throw DERError(.invalidVersion, at: v.contentStart)
                }
                let rid = try t.readAny()
                switch rid.tag {
                case .contextConstructed(1):
                    let name = try DERReader.enter(rid) { (n) throws(DERError) -> DERValue in
                        try DistinguishedName.validate(&n)
                    }
                    responderID = .byName(DistinguishedName(encoded: ByteSpan(storage, name.start, name.end)))
                case .contextConstructed(2):
                    let key = try DERReader.enter(rid) { (k) throws(DERError) -> DERValue in try k.read(.octetString) }
                    // KeyHash ::= OCTET STRING -- SHA-1 hash (20 octets)
                    if key.contentCount != 20 { throw DERError(.invalidExtension, at: key.start) }
                    responderID = .byKey(ByteSpan(storage, key.contentStart, key.end))
                default:
                    throw DERError(.unexpectedTag, at: rid.start)
                }
                let produced = try t.read(.generalizedTime)
                // RFC 6960 times may carry fractional seconds (X.690 §11.7): whole seconds kept.
                producedAt = try DERTime.decodeAllowingFraction(produced).seconds
                let list = try t.read(.sequence)
                try DERReader.enter(list) { (l) throws(DERError) in
                    if l.isAtEnd { throw DERError(.truncated, at: list.start) }
                    while !l.isAtEnd {
                        if responses.count >= OCSPResponse.maximumResponses {
                            throw DERError(.tooLarge, at: l.position)
                        }
                        let (single, u) = try SingleResponse.parse(&l, storage: storage)
                        responses.append(single)
                        if unsupported == nil { unsupported = u }
                    }
                }
                if let e = try t.readOptional(.contextConstructed(1)) {
                    let u = try DERReader.enter(e) { (x) throws(DERError) -> String? in
                        try ocspExtensions(&x, understood: [OID.ocspNonce])
                    }
                    if unsupported == nil { unsupported = u }
                }
            }
            let signatureAlgorithm = try SignatureAlgorithm.parse(&b)
            let sigValue = try b.read(.bitString)
            let sig = try sigValue.decodeBitString()
            if sig.unusedBits != 0 { throw DERError(.invalidBitString, at: sigValue.contentStart) }
            var certificates: [Certificate] = []
            if let c = try b.readOptional(.contextConstructed(0)) {
                try DERReader.enter(c) { (x) throws(DERError) in
                    try x.enter(.sequence) { (l) throws(DERError) in
                        while !l.isAtEnd {
                            if certificates.count >= OCSPResponse.maximumCertificates {
                                throw DERError(.tooLarge, at: l.position)
                            }
                            let v = try l.read(.sequence)
                            do throws(DERError) {
                                certificates.append(try Certificate(der: Array(storage[v.start..<v.end])))
                            } catch {
                                // Offsets inside the embedded certificate, made absolute.
                                throw DERError(error.kind, at: v.start + error.offset)
                            }
                        }
                    }
                }
            }
            return BasicOCSPResponse(
                tbsResponseData: ByteSpan(storage, tbs.start, tbs.end), signatureAlgorithm: signatureAlgorithm,
                signature: ByteSpan(storage, sig.offset, sigValue.end), responderID: responderID,
                producedAt: producedAt, responses: responses, certificates: certificates,
                unsupportedCriticalExtension: unsupported)
        }
    }

    /// `Extensions` inside an explicit tag: validated, duplicates refused; returns the dotted OID
    /// of the first critical extension not in `understood`.
    static func ocspExtensions(_ x: inout DERReader, understood: [[UInt8]]) throws(DERError) -> String? {
        let list = try x.read(.sequence)
        var unsupported: String?
        var count = 0
        try DERReader.enter(list) { (r) throws(DERError) in
            if r.isAtEnd { throw DERError(.emptyExtensions, at: list.start) }
            let first = r.position
            while !r.isAtEnd {
                let at = r.position
                count += 1
                if count > 32 { throw DERError(.tooLarge, at: at) }
                let (oid, critical, _) = try CertificateList.readExtension(&r)
                try CertificateList.checkDuplicate(oid, in: r.input, from: first, to: at, at: at)
                if critical && unsupported == nil && !understood.contains(where: { $0.matches(oid) }) {
                    unsupported = DERValue.dottedObjectIdentifier(oid)
                }
            }
        }
        return unsupported
    }
}

/// `CertID ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, issuerNameHash OCTET STRING,
///     issuerKeyHash OCTET STRING, serialNumber CertificateSerialNumber }` (RFC 6960 §4.1.1):
/// the hashes of the issuer's DER-encoded name and of its subjectPublicKey bits.
public struct OCSPCertID: Sendable {
    /// The hash behind both issuer hashes: any digest Sigil knows by OID (SHA-1, SHA-2, and MD5
    /// or MD2, which parse; whether one is acceptable is the trust layer's decision).
    public let hashAlgorithm: DigestAlgorithm
    /// The hash of the issuer's DER-encoded subject name.
    public let issuerNameHash: ByteSpan
    /// The hash of the issuer's subjectPublicKey BIT STRING value (excluding tag, length and
    /// unused-bits octet).
    public let issuerKeyHash: ByteSpan
    /// INTEGER content octets.
    public let serialNumber: ByteSpan
}

/// `CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo,
///     unknown [2] IMPLICIT UnknownInfo }`,
/// `RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }`
public enum OCSPCertStatus: Sendable, Hashable {
    /// The responder knows of no revocation of the certificate (§2.2).
    case good
    /// Revoked at `time` (seconds since the Unix epoch, UTC), with the reason when given.
    case revoked(time: Int64, reason: CRLReason?)
    /// The responder does not know the certificate.
    case unknown
}

/// `SingleResponse ::= SEQUENCE { certID CertID, certStatus CertStatus,
///     thisUpdate GeneralizedTime, nextUpdate [0] EXPLICIT GeneralizedTime OPTIONAL,
///     singleExtensions [1] EXPLICIT Extensions OPTIONAL }`
public struct SingleResponse: Sendable {
    /// Which certificate the status is for.
    public let certID: OCSPCertID
    /// The certificate's status.
    public let status: OCSPCertStatus
    /// When the status was known to be correct, seconds since the Unix epoch (UTC).
    public let thisUpdate: Int64
    /// When newer information will be available (seconds since the Unix epoch, UTC); nil when
    /// absent (§4.2.2.1: then newer information is always available).
    public let nextUpdate: Int64?
    /// The content of `singleExtensions` (a `SEQUENCE OF Extension` TLV), when present: read by
    /// Certificate Transparency for the SCT list of RFC 6962 §3.3 (1.3.6.1.4.1.11129.2.4.5).
    public var singleExtensions: ByteSpan? = nil

    static func parse(_ r: inout DERReader, storage: [UInt8]) throws(DERError) -> (SingleResponse, String?) {
        try r.enter(.sequence) { (s) throws(DERError) -> (SingleResponse, String?) in
            let certID = try s.enter(.sequence) { (c) throws(DERError) -> OCSPCertID in
                let alg = try SignatureAlgorithm.parseHashIdentifierAllowingSHA1(&c)
                let name = try c.read(.octetString)
                let key = try c.read(.octetString)
                let serial = try c.read(.integer)
                _ = try serial.decodeIntegerBytes()
                return OCSPCertID(
                    hashAlgorithm: alg, issuerNameHash: ByteSpan(storage, name.contentStart, name.end),
                    issuerKeyHash: ByteSpan(storage, key.contentStart, key.end),
                    serialNumber: ByteSpan(storage, serial.contentStart, serial.end))
            }
            let st = try s.readAny()
            let status: OCSPCertStatus
            switch st.tag {
            case .contextPrimitive(0):
                try st.decodeNullContent()
                status = .good
            case .contextConstructed(1):
                status = try DERReader.enter(st) { (i) throws(DERError) -> OCSPCertStatus in
                    // The revocation time rounded down (earlier: revoked no later than stated).
                    let time = try DERTime.decodeAllowingFraction(try i.read(.generalizedTime)).seconds
                    var reason: CRLReason?
                    if let rv = try i.readOptional(.contextConstructed(0)) {
                        let e = try DERReader.enter(rv) { (x) throws(DERError) -> DERValue in try x.read(.enumerated) }
                        guard let rr = CRLReason(rawValue: try e.decodeInt64()) else {
                            throw DERError(.integerOutOfRange, at: e.contentStart)
                        }
                        reason = rr
                    }
                    return .revoked(time: time, reason: reason)
                }
            case .contextPrimitive(2):
                try st.decodeNullContent()
                status = .unknown
            default:
                throw DERError(.unexpectedTag, at: st.start)
            }
            // A fraction never lengthens the time the answer counts as current (RFC 6960
            // §4.2.2.1): thisUpdate rounded down (an age is measured from the earliest reading;
            // a thisUpdate less than a second ahead may count as reached), nextUpdate one second
            // below its whole seconds when it has a fraction (the checks accept a time up to
            // nextUpdate + 1, the end of its second: here the second before the fraction).
            let thisUpdate = try DERTime.decodeAllowingFraction(try s.read(.generalizedTime)).seconds
            var nextUpdate: Int64?
            if let n = try s.readOptional(.contextConstructed(0)) {
                nextUpdate = try DERReader.enter(n) { (x) throws(DERError) -> Int64 in
                    let t = try DERTime.decodeAllowingFraction(try x.read(.generalizedTime))
                    return t.fractional ? t.seconds - 1 : t.seconds
                }
            }
            var unsupported: String?
            var extensionsSpan: ByteSpan? = nil
            if let e = try s.readOptional(.contextConstructed(1)) {
                extensionsSpan = ByteSpan(storage, e.contentStart, e.end)
                unsupported = try DERReader.enter(e) { (x) throws(DERError) -> String? in
                    try BasicOCSPResponse.ocspExtensions(&x, understood: [])
                }
            }
            var single = SingleResponse(
                certID: certID, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate)
            single.singleExtensions = extensionsSpan
            return (single, unsupported)
        }
    }
}

extension DERValue {
    /// An IMPLICIT NULL: primitive, no content.
    func decodeNullContent() throws(DERError) {
        if tag.isConstructed { throw DERError(.unexpectedTag, at: start) }
        if contentCount != 0 { throw DERError(.invalidNull, at: contentStart) }
    }
}

extension SignatureAlgorithm {
    /// A hash AlgorithmIdentifier (CertID, RFC 6960 §4.1.1): SHA-1 or SHA-2, parameters NULL or absent.
    static func parseHashIdentifierAllowingSHA1(_ r: inout DERReader) throws(DERError) -> DigestAlgorithm {
        try r.enter(.sequence) { (h) throws(DERError) -> DigestAlgorithm in
            let at = h.position
            let oid = try h.readObjectIdentifier()
            let d: DigestAlgorithm
            if OID.sha1.matches(oid) {
                d = .sha1
            } else if let x = DigestAlgorithm.fromOID(oid) {
                d = x
            } else {
                throw DERError(.invalidAlgorithmParameters, at: at)
            }
            if !h.isAtEnd { try h.readNull() }
            return d
        }
    }
}
