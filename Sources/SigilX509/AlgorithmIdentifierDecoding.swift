import SigilDER

extension SignatureAlgorithm {
    /// Decodes one signature `AlgorithmIdentifier` encoding (the whole SEQUENCE TLV) with the
    /// same rules as certificate parsing, for callers that hold the encoding alone (the
    /// inspector names the algorithms of certificates the strict parser refuses).
    public init(algorithmIdentifier encoding: [UInt8]) throws(DERError) {
        self = try withStorage(encoding) { (b) throws(DERError) -> SignatureAlgorithm in
            var r = DERReader(b)
            let a = try SignatureAlgorithm.parse(&r)
            try r.finish()
            return a
        }
    }
}

extension PublicKeyAlgorithm {
    /// Decodes one SubjectPublicKeyInfo `AlgorithmIdentifier` encoding with the rules of
    /// certificate parsing (see `SignatureAlgorithm.init(algorithmIdentifier:)`).
    public init(algorithmIdentifier encoding: [UInt8]) throws(DERError) {
        self = try withStorage(encoding) { (b) throws(DERError) -> PublicKeyAlgorithm in
            var r = DERReader(b)
            let a = try PublicKeyAlgorithm.parse(&r)
            try r.finish()
            return a
        }
    }
}
