import SigilCrypto
import SigilDER
import SigilX509

extension CertificateReport {
    /// Writes the object of ``json(sha256:spkiSha256:)`` — the same members, in the same order,
    /// byte for byte what `json(…).serialized()` gives — straight into `out`, without building a
    /// `JSONValue` tree. The fingerprints are the digests themselves (written as hex), so a
    /// caller hashes each input once.
    public mutating func writeJSON(into out: inout JSONWriter, sha256: HashDigest?, spkiSha256: HashDigest?) {
        // Decode first, in the order `json` does: rendering adds warnings, written last. The
        // extension carrier is taken once (a `Certificate` is a large value: each `attempt`
        // reading it through `carrier` copied it).
        let carrier = self.carrier
        let s = sans(carrier)
        let b = attempt(carrier, "basicConstraints", { (c) throws(DERError) in try c.basicConstraints() })
        let k = attempt(carrier, "keyUsage", { (c) throws(DERError) in try c.keyUsage() })
        let e = attempt(carrier, "extKeyUsage", { (c) throws(DERError) in try c.extendedKeyUsage() })
        let ski = attempt(carrier, "subjectKeyIdentifier", { (c) throws(DERError) in try c.subjectKeyIdentifier() })
        let aki = attempt(
            carrier, "authorityKeyIdentifier", { (c) throws(DERError) in try c.authorityKeyIdentifier() })
        validateRemainingExtensions(carrier)
        let key = keyDescription
        // Read in place from here on (a copy of the inspected certificate retained its every field).
        // A strictly parsed certificate whose extensions needed no repair is its own extension
        // carrier (`LenientCertificate.init`): the carrier already taken serves, not a second copy.
        let strict: Certificate? =
            inspected.strictCertificate == nil
            ? nil : inspected.carrierMap == nil ? carrier : inspected.strictCertificate

        out.raw("{\"subject\":")
        out.string { b in inspected.subject?.appendRFC4514(to: &b) }
        out.raw(",\"issuer\":")
        out.string { b in inspected.issuer?.appendRFC4514(to: &b) }
        out.raw(",\"serial\":")
        if let c = strict {
            // `Certificate.serialNumberHex`, written in place: leading zero octets dropped.
            c.serialNumber.withUnsafeBytes { s in
                var i = 0
                while i < s.count && s[i] == 0 { i += 1 }
                if i == s.count { out.raw("\"0\"") } else { out.hexString(UnsafeRawBufferPointer(rebasing: s[i...])) }
            }
        } else {
            out.string(inspected.serialHex)
        }
        out.raw(",\"version\":")
        out.int(Int64(inspected.version))
        out.raw(",\"notBefore\":")
        if let t = inspected.notBefore { out.string { DERTime.appendRFC3339(t, to: &$0) } } else { out.null() }
        out.raw(",\"notAfter\":")
        if let t = inspected.notAfter { out.string { DERTime.appendRFC3339(t, to: &$0) } } else { out.null() }
        out.raw(",\"signatureAlgorithm\":")
        if let c = strict, let (s, e) = Self.algorithmOID(c.signatureAlgorithmIdentifier) {
            // The strict certificate's outer and TBS identifiers are one encoding.
            out.string { b in
                c.der.withUnsafeBytes {
                    DERValue.appendDottedObjectIdentifier(UnsafeRawBufferPointer(rebasing: $0[s..<e]), to: &b)
                }
            }
        } else {
            out.string(inspected.signatureAlgorithmOID)
        }
        out.raw(",\"signatureAlgorithmName\":")
        out.string(inspected.signatureAlgorithmName)
        if strict == nil && inspected.tbsSignatureAlgorithmOID != inspected.signatureAlgorithmOID {
            out.raw(",\"tbsSignatureAlgorithm\":")
            out.string(inspected.tbsSignatureAlgorithmOID)
        }
        out.raw(",\"publicKey\":{\"algorithm\":")
        out.string(key.algorithm)
        out.raw(",\"bits\":")
        if let bits = key.bits { out.int(Int64(bits)) } else { out.null() }
        if let curve = key.curve {
            out.raw(",\"curve\":")
            out.string(curve)
        }
        if key.explicit { out.raw(",\"parameters\":\"explicit\"") }
        out.raw("},\"subjectAltNames\":")
        if let s {
            out.raw("{\"dns\":")
            out.strings(s.dns)
            out.raw(",\"ip\":")
            out.strings(s.ip)
            out.raw(",\"email\":")
            out.strings(s.email)
            out.raw(",\"uri\":")
            out.strings(s.uri)
            if !s.malformed.isEmpty {
                out.raw(",\"malformed\":[")
                for (i, m) in s.malformed.enumerated() {
                    if i > 0 { out.byte(0x2C) }
                    out.raw("{\"type\":")
                    out.string(m.kind)
                    out.raw(",\"value\":")
                    out.string(m.value)
                    out.raw(",\"offset\":")
                    out.int(Int64(m.offset))
                    out.raw(",\"reason\":")
                    out.string(m.reason)
                    out.byte(0x7D)
                }
                out.byte(0x5D)
            }
            out.byte(0x7D)
        } else {
            out.raw("{\"dns\":[],\"ip\":[],\"email\":[],\"uri\":[]}")
        }
        out.raw(",\"basicConstraints\":")
        if let b {
            out.raw("{\"ca\":")
            out.bool(b.isCA)
            if let p = b.pathLength {
                out.raw(",\"pathLen\":")
                out.int(Int64(p))
            }
            out.byte(0x7D)
        } else {
            out.null()
        }
        out.raw(",\"keyUsage\":")
        if let k {
            // `KeyUsage.names`, written in place (RFC 5280 §4.2.1.3 names, bit order).
            out.byte(0x5B)
            var first = true
            for i in 0..<9 where k.rawValue & (1 << UInt16(i)) != 0 {
                if !first { out.byte(0x2C) }
                first = false
                out.string(KeyUsage.names[i])
            }
            out.byte(0x5D)
        } else {
            out.null()
        }
        out.raw(",\"extendedKeyUsage\":")
        if let e {
            // `OID.dotted` of each purpose, written in place.
            out.byte(0x5B)
            var first = true
            for oid in e {
                if !first { out.byte(0x2C) }
                first = false
                out.string { b in oid.withUnsafeBytes { DERValue.appendDottedObjectIdentifier($0, to: &b) } }
            }
            out.byte(0x5D)
        } else {
            out.null()
        }
        out.raw(",\"subjectKeyIdentifier\":")
        if let ski { ski.withUnsafeBytes { out.hexString($0) } } else { out.null() }
        out.raw(",\"authorityKeyIdentifier\":")
        if let id = aki?.keyIdentifier { id.withUnsafeBytes { out.hexString($0) } } else { out.null() }
        out.raw(",\"extensions\":[")
        if let c = strict {
            var first = true
            for x in c.extensions {
                if !first { out.byte(0x2C) }
                first = false
                out.raw("{\"oid\":")
                out.string { b in x.oid.withUnsafeBytes { DERValue.appendDottedObjectIdentifier($0, to: &b) } }
                out.raw(",\"critical\":")
                out.bool(x.critical)
                out.byte(0x7D)
            }
        } else {
            for (i, x) in inspected.extensions.enumerated() {
                if i > 0 { out.byte(0x2C) }
                out.raw("{\"oid\":")
                out.string(x.oid)
                out.raw(",\"critical\":")
                out.bool(x.critical)
                out.byte(0x7D)
            }
        }
        out.raw("],\"sha256\":")
        if let sha256 { sha256.withUnsafeBytes { out.hexString($0) } } else { out.null() }
        out.raw(",\"spkiSha256\":")
        if let spkiSha256 { spkiSha256.withUnsafeBytes { out.hexString($0) } } else { out.null() }
        out.raw(",\"parsedStrictly\":")
        out.bool(strict != nil)
        if let err = inspected.strictError {
            out.raw(",\"strictError\":")
            out.string(err.description)
        }
        out.raw(",\"warnings\":[")
        for (i, w) in inspected.warnings.enumerated() {
            if i > 0 { out.byte(0x2C) }
            out.raw("{\"clause\":")
            out.string(w.clause)
            out.raw(",\"offset\":")
            out.int(Int64(w.offset))
            out.raw(",\"message\":")
            out.string(w.message)
            out.byte(0x7D)
        }
        out.raw("]}")
    }

    /// Where the OID content of an AlgorithmIdentifier encoding lies in the certificate (what
    /// `signatureAlgorithmOID` spells).
    static func algorithmOID(_ identifier: ByteSpan) -> (Int, Int)? {
        try? identifier.read { (r) throws(DERError) -> (Int, Int) in
            try r.enter(.sequence) { (a) throws(DERError) -> (Int, Int) in
                let o = try a.read(.objectIdentifier)
                if !a.isAtEnd { try a.skip() }
                return (o.contentStart, o.end)
            }
        }
    }
}
