@_spi(SigilInternal) import SigilDER
import SigilX509

/// Why an SCT list or one SCT could not be decoded, with the byte offset in the list's bytes
/// (the TLS encoding, RFC 6962 §3.3), like `DERError`.
public struct SCTDecodingError: Error, Sendable, Hashable {
    /// What was wrong.
    public enum Reason: String, Sendable, Hashable {
        /// A length prefix runs past its enclosing bytes, or bytes are left over.
        case badLength
        /// An empty list or an empty SerializedSCT (both are `<1..2^16-1>`).
        case empty
        /// `sct_version` is not v1(0) (RFC 6962 §3.2).
        case unsupportedVersion
        /// `HashAlgorithm` none(0) (RFC 5246 §7.4.1.4.1; the `digitally-signed` struct of an
        /// SCT needs a hash).
        case hashNone
        /// `SignatureAlgorithm` anonymous(0) (RFC 5246 §7.4.1.4.1).
        case signatureAnonymous
    }
    /// What was wrong.
    public let reason: Reason
    /// Offset in the list's bytes (for a list parsed from a certificate: in the TLS list).
    public let offset: Int
    /// An error at `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}

/// One `SignedCertificateTimestamp` (RFC 6962 §3.2), decoded strictly:
///
///     struct {
///         Version sct_version;            -- v1(0), 1 octet
///         LogID id;                       -- opaque key_id[32]: SHA-256 of the log's SPKI
///         uint64 timestamp;               -- milliseconds since the epoch
///         CtExtensions extensions;        -- opaque <0..2^16-1>
///         digitally-signed struct { ... } -- RFC 5246 §4.7: hash(1) signature(1) opaque<0..2^16-1>
///     } SignedCertificateTimestamp;
public struct SignedCertificateTimestamp: Sendable, Hashable {
    /// The log's ID: SHA-256 of its DER SubjectPublicKeyInfo (RFC 6962 §3.2).
    public let logID: [UInt8]
    /// Milliseconds since 1970-01-01T00:00:00Z (RFC 6962 §3.2).
    public let timestamp: UInt64
    /// `CtExtensions` (none are defined by RFC 6962; carried into the signed data).
    public let extensions: [UInt8]
    /// TLS `HashAlgorithm` (RFC 5246 §7.4.1.4.1): 4 = sha256.
    public let hashAlgorithm: UInt8
    /// TLS `SignatureAlgorithm`: 1 = rsa, 3 = ecdsa.
    public let signatureAlgorithm: UInt8
    /// The signature: DER `ECDSA-Sig-Value` or the RSASSA-PKCS1-v1_5 octets.
    public let signature: [UInt8]
    /// How it was delivered.
    public let origin: SCTOrigin

    /// An SCT from its fields (for callers that build or alter one, such as tests).
    public init(
        logID: [UInt8], timestamp: UInt64, extensions: [UInt8], hashAlgorithm: UInt8, signatureAlgorithm: UInt8,
        signature: [UInt8], origin: SCTOrigin
    ) {
        self.logID = logID
        self.timestamp = timestamp
        self.extensions = extensions
        self.hashAlgorithm = hashAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        self.origin = origin
    }

    /// Seconds since the epoch, rounded down (what policy lifetimes compare with).
    public var timestampSeconds: Int64 { Int64(clamping: timestamp / 1000) }
}

/// An entry of a decoded list: an SCT, or the reason a SerializedSCT whose length prefix was
/// sound could not be decoded (such an SCT is `malformed` and never counts).
public enum SCTListEntry: Sendable, Hashable {
    /// A well-formed SCT.
    case sct(SignedCertificateTimestamp)
    /// A SerializedSCT that does not decode; `raw` holds its bytes (for the log ID when present).
    case malformed(SCTDecodingError, raw: [UInt8])
}

/// `SignedCertificateTimestampList` (RFC 6962 §3.3):
///
///     opaque SerializedSCT<1..2^16-1>;
///     struct { SerializedSCT sct_list <1..2^16-1>; } SignedCertificateTimestampList;
public enum SCTList {
    /// Decodes a list. The list framing (the outer length and each SerializedSCT's length) must be
    /// exact, or the whole list is refused (thrown, with the offset); an SCT inside a sound frame
    /// that does not decode is returned as `.malformed` with its offset in `bytes`.
    public static func decode(_ bytes: [UInt8], origin: SCTOrigin) throws(SCTDecodingError) -> [SCTListEntry] {
        guard bytes.count >= 2 else { throw SCTDecodingError(.badLength, at: 0) }
        let total = Int(bytes[0]) << 8 | Int(bytes[1])
        guard total == bytes.count - 2 else { throw SCTDecodingError(.badLength, at: 0) }
        guard total > 0 else { throw SCTDecodingError(.empty, at: 0) }
        var out: [SCTListEntry] = []
        var i = 2
        while i < bytes.count {
            guard bytes.count - i >= 2 else { throw SCTDecodingError(.badLength, at: i) }
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard n > 0 else { throw SCTDecodingError(.empty, at: i) }
            guard bytes.count - i - 2 >= n else { throw SCTDecodingError(.badLength, at: i) }
            let start = i + 2
            do {
                out.append(.sct(try decodeOne(bytes, start, start + n, origin: origin)))
            } catch {
                out.append(.malformed(error, raw: Array(bytes[start..<start + n])))
            }
            i = start + n
        }
        return out
    }

    /// Decodes one SCT from `b[start..<end]` exactly (nothing may be left over).
    static func decodeOne(_ b: [UInt8], _ start: Int, _ end: Int, origin: SCTOrigin) throws(SCTDecodingError)
        -> SignedCertificateTimestamp
    {
        var p = start
        func need(_ k: Int) throws(SCTDecodingError) {
            if end - p < k { throw SCTDecodingError(.badLength, at: p) }
        }
        func u16() throws(SCTDecodingError) -> Int {
            try need(2)
            defer { p += 2 }
            return Int(b[p]) << 8 | Int(b[p + 1])
        }
        // §3.2: sct_version v1(0); other versions are not understood here.
        try need(1)
        guard b[p] == 0 else { throw SCTDecodingError(.unsupportedVersion, at: p) }
        p += 1
        try need(32 + 8)
        let logID = Array(b[p..<p + 32])
        p += 32
        var ts: UInt64 = 0
        for k in 0..<8 { ts = ts << 8 | UInt64(b[p + k]) }
        p += 8
        let extCount = try u16()
        try need(extCount)
        let ext = Array(b[p..<p + extCount])
        p += extCount
        // RFC 5246 §4.7 digitally-signed: SignatureAndHashAlgorithm, then opaque<0..2^16-1>.
        try need(2)
        if b[p] == 0 { throw SCTDecodingError(.hashNone, at: p) }
        if b[p + 1] == 0 { throw SCTDecodingError(.signatureAnonymous, at: p + 1) }
        let hash = b[p]
        let sigAlg = b[p + 1]
        p += 2
        let sigCount = try u16()
        try need(sigCount)
        let sig = Array(b[p..<p + sigCount])
        p += sigCount
        if p != end { throw SCTDecodingError(.badLength, at: p) }
        return SignedCertificateTimestamp(
            logID: logID, timestamp: ts, extensions: ext, hashAlgorithm: hash, signatureAlgorithm: sigAlg,
            signature: sig, origin: origin)
    }

    /// The TLS list carried by a DER extension value `OCTET STRING (SignedCertificateTimestampList)`
    /// (RFC 6962 §3.3 for the certificate extension and the OCSP singleExtension).
    public static func unwrapOctetString(_ extnValue: [UInt8]) -> [UInt8]? {
        let r: [UInt8]?? = extnValue.withUnsafeBytes { (b) -> [UInt8]? in
            var reader = DERReader(b)
            guard let v = try? reader.read(.octetString), (try? reader.finish()) != nil else { return nil }
            return Array(v.content)
        }
        return r ?? nil
    }
}

extension Certificate {
    /// The embedded SCT list (RFC 6962 §3.3, extension 1.3.6.1.4.1.11129.2.4.2), decoded; nil
    /// when absent. A list whose framing is malformed throws with the offset in its TLS bytes.
    public func embeddedSCTs() throws(SCTDecodingError) -> [SCTListEntry]? {
        guard let e = self.extension(OID.signedCertificateTimestampList) else { return nil }
        // extnValue content = DER OCTET STRING wrapping the TLS list (RFC 6962 §3.3).
        guard let list = SCTList.unwrapOctetString(e.value.array) else { throw SCTDecodingError(.badLength, at: 0) }
        return try SCTList.decode(list, origin: .embedded)
    }
}

extension SCTList {
    /// 1.3.6.1.4.1.11129.2.4.5, the OCSP singleExtension carrying an SCT list (RFC 6962 §3.3).
    public static let ocspExtensionOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x05]

    /// The TLS SCT lists carried by an OCSP response's singleExtensions (one per SingleResponse
    /// that has one), or nil when the response does not parse. The response's signature is not
    /// checked here: the SCTs are signed by their logs, which is what `SCTVerifier` checks.
    public static func fromOCSPResponse(_ der: [UInt8]) -> [[UInt8]]? {
        guard let r = try? OCSPResponse(der: der), let basic = r.basic else { return nil }
        var out: [[UInt8]] = []
        for single in basic.responses {
            guard let ext = single.singleExtensions else { continue }
            let found: [UInt8]?? = try? ext.read { (x) throws(DERError) -> [UInt8]? in
                let list = try x.read(.sequence)
                var e = DERReader(input: x.input, from: list.contentStart, to: list.end)
                while !e.isAtEnd {
                    let one = try e.read(.sequence)
                    var f = DERReader(input: x.input, from: one.contentStart, to: one.end)
                    let oid = try f.read(.objectIdentifier)
                    _ = try f.readOptional(.boolean)
                    let value = try f.read(.octetString)
                    if Array(oid.content) == ocspExtensionOID { return unwrapOctetString(Array(value.content)) }
                }
                return nil
            }
            if let l = found ?? nil { out.append(l) }
        }
        return out
    }
}
