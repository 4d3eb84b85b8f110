import SigilCrypto
@_spi(SigilInternal) import SigilDER
@_spi(SigilInternal) import SigilX509

extension CertificateReport {
    /// What `sigil inspect --json` writes for the certificate `der` (without the line feed):
    /// the report object (``writeJSON(into:sha256:spkiSha256:)``) with the SHA-256 of `der`
    /// and of its SubjectPublicKeyInfo, and — when the strictly parsed certificate embeds
    /// SCTs (RFC 6962 §3.3) — a last member `scts` listing them as the whole-file path does
    /// without a log list (every one unknown-log). Throws what `LenientCertificate(der:)`
    /// throws, having written nothing.
    ///
    /// A certificate the strict parser accepts, that `CleanCheck` proves the lenient walk would
    /// find nothing in, and whose extension values all decode (no warning to add) is written
    /// straight from the strict `Certificate` (``writeClean``): no `LenientCertificate` or
    /// report is built, moved and copied for it. Every other one takes the report path; both
    /// give the same bytes (`LenientFastPathTests`).
    @_spi(SigilInternal)
    public static func writeInspectJSON(der: [UInt8], now: Int64, into w: inout JSONWriter) throws(DERError) {
        try writeInspectJSON(der: der, now: now, into: &w, direct: true)
    }

    /// ``writeInspectJSON(der:now:into:)``; `direct: false` always takes the report path (the
    /// tests compare the two).
    static func writeInspectJSON(der: [UInt8], now: Int64, into w: inout JSONWriter, direct: Bool) throws(DERError) {
        guard der.count <= Certificate.maximumSize else { throw DERError(.tooLarge, at: Certificate.maximumSize) }
        let strict: Certificate
        do {
            strict = try Certificate(der: der)
        } catch {
            writeReport(
                CertificateReport(try LenientCertificate.refused(der, strictError: error), now: now), now: now,
                into: &w)
            return
        }
        if direct, let (key, warnings) = CleanCheck.summary(strict),
            writeClean(strict, key: key, warnings: warnings, now: now, into: &w)
        {
            return
        }
        writeReport(
            CertificateReport(LenientCertificate.read(der, strict: strict, strictError: nil), now: now), now: now,
            into: &w)
    }

    /// The report path of ``writeInspectJSON(der:now:into:)`` (the report lives in this frame
    /// only: built in place, handed in from the caller the whole value was copied).
    static func writeReport(_ report: consuming CertificateReport, now: Int64, into w: inout JSONWriter) {
        var report = report
        let sha = report.inspected.der.withUnsafeBytes { SHA256.hash($0) }
        let spki = report.inspected.subjectPublicKeyInfoSHA256
        report.writeJSON(into: &w, sha256: sha, spkiSha256: spki)
        // `SCTVerifier.check` finds nothing (and allocates its lists) without the extension:
        // only the embedded list is given, and `embeddedSCTs` is nil when it is absent.
        guard report.inspected.hasEmbeddedSCTList, let c = report.certificate else { return }
        appendSCTs(c, now: now, into: &w)
    }

    /// Appends the member `scts` (before the closing brace) when `c`'s embedded list holds any.
    static func appendSCTs(_ c: Certificate, now: Int64, into w: inout JSONWriter) {
        let scts = SCTVerifier.check(c, issuer: nil, logList: nil, at: now)
        if !scts.isEmpty, w.last == UInt8(ascii: "}") {
            w.removeLast()
            var text = ",\"scts\":" + JSONValue.array(scts.map(\.json)).serialized() + "}"
            text.withUTF8 { w.raw(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The direct path of ``writeInspectJSON(der:now:into:)`` for a strictly parsed certificate
    /// `c` that `CleanCheck` answered for (`key`, `warnings`): what the report path writes for
    /// it, when every extension value decodes. False, having written nothing, when one does
    /// not (the report path then adds its warning).
    static func writeClean(
        _ c: Certificate, key: PublicKeySummary, warnings: [InspectionWarning], now: Int64, into w: inout JSONWriter
    ) -> Bool {
        // The decoders `writeJSON` runs, in its order; a failure is a warning only the report
        // path writes.
        let s: SANs?
        let b: BasicConstraints?
        let k: KeyUsage?
        let e: ObjectIdentifierList?
        let ski: ByteSpan?
        let aki: AuthorityKeyIdentifier?
        do throws(DERError) {
            s = try c.subjectAlternativeNames().map(SANs.init)
            b = try c.basicConstraints()
            k = try c.keyUsage()
            e = try c.extendedKeyUsage()
            ski = try c.subjectKeyIdentifier()
            aki = try c.authorityKeyIdentifier()
        } catch {
            return false
        }
        guard remainingExtensionsDecode(c) else { return false }
        let sha = c.der.withUnsafeBytes { SHA256.hash($0) }
        let spki = c.subjectPublicKeyInfo.withUnsafeBytes { SHA256.hash($0) }
        w.withOutput { o in
            emit(
                &o, strict: c, lenient: nil, signatureAlgorithmName: c.signatureAlgorithm.name, warnings: warnings,
                key: Self.keyDescription(c, key), s: s, b: b, k: k, e: e, ski: ski, aki: aki, sha256: sha,
                spkiSha256: spki)
        }
        if c.extension(OID.signedCertificateTimestampList) != nil { appendSCTs(c, now: now, into: &w) }
        return true
    }
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
        let key = Self.keyDescription(inspected.strictCertificate, inspected.publicKey)
        let name = inspected.signatureAlgorithmName
        let warnings = inspected.warnings
        out.withOutput { o in
            // Read in place from here on (a copy of the inspected certificate retained its every
            // field). A strictly parsed certificate whose extensions needed no repair is its own
            // extension carrier (`LenientCertificate.init`): the carrier already taken serves,
            // passed as a borrowed argument (bound to a second local, it was copied again).
            if inspected.strictCertificate == nil {
                Self.emit(
                    &o, strict: nil, lenient: inspected, signatureAlgorithmName: name, warnings: warnings, key: key,
                    s: s, b: b, k: k, e: e, ski: ski, aki: aki, sha256: sha256, spkiSha256: spkiSha256)
            } else if inspected.carrierMap == nil {
                Self.emit(
                    &o, strict: carrier, lenient: nil, signatureAlgorithmName: name, warnings: warnings, key: key,
                    s: s, b: b, k: k, e: e, ski: ski, aki: aki, sha256: sha256, spkiSha256: spkiSha256)
            } else {
                Self.emit(
                    &o, strict: inspected.strictCertificate, lenient: nil, signatureAlgorithmName: name,
                    warnings: warnings, key: key, s: s, b: b, k: k, e: e, ski: ski, aki: aki, sha256: sha256,
                    spkiSha256: spkiSha256)
            }
        }
    }

    /// The object `writeJSON` writes, from its parts: the strict certificate (nil: only the
    /// lenient reader read it, `lenient`, which is consulted only then), the outer signature
    /// algorithm's name, the warnings, the key description and the decoded extensions.
    static func emit(
        _ o: inout ByteOutput, strict: Certificate?, lenient: LenientCertificate?, signatureAlgorithmName: String,
        warnings: [InspectionWarning], key: (algorithm: String, bits: Int?, curve: String?, explicit: Bool),
        s: SANs?, b: BasicConstraints?, k: KeyUsage?, e: ObjectIdentifierList?, ski: ByteSpan?,
        aki: AuthorityKeyIdentifier?, sha256: HashDigest?, spkiSha256: HashDigest?
    ) {
        // The fields of a strictly parsed certificate come from the strict parser (what
        // `LenientCertificate` holds for it too).
        // (Bound once: each `strict.map { … }` copied the whole Certificate.)
        let subject: DistinguishedName?
        let issuer: DistinguishedName?
        let version: Int
        let notBefore: Int64?
        let notAfter: Int64?
        if let c = strict {
            subject = c.subject
            issuer = c.issuer
            version = Int(c.version.rawValue)
            notBefore = c.notBefore
            notAfter = c.notAfter
        } else {
            subject = lenient?.subject
            issuer = lenient?.issuer
            version = lenient?.version ?? 1
            notBefore = lenient?.notBefore
            notAfter = lenient?.notAfter
        }
        o.append("{\"subject\":")
        o.jsonString { b in subject?.appendRFC4514(to: &b) }
        o.append(",\"issuer\":")
        o.jsonString { b in issuer?.appendRFC4514(to: &b) }
        o.append(",\"serial\":")
        if let c = strict {
            // `Certificate.serialNumberHex`, written in place: leading zero octets dropped.
            // (No closure here captures `c`: capturing it copied the whole Certificate.)
            let serial = c.serialNumber
            serial.withUnsafeBytes { s in
                var i = 0
                while i < s.count && s[i] == 0 { i += 1 }
                if i == s.count {
                    o.append("\"0\"")
                } else {
                    o.jsonHex(UnsafeRawBufferPointer(rebasing: s[i...]))
                }
            }
        } else {
            o.jsonString(lenient?.serialHex ?? "0")
        }
        o.append(",\"version\":")
        o.jsonInt(Int64(version))
        o.append(",\"notBefore\":")
        if let t = notBefore {
            o.jsonString { DERTime.appendRFC3339(t, to: &$0) }
        } else {
            o.append("null")
        }
        o.append(",\"notAfter\":")
        if let t = notAfter {
            o.jsonString { DERTime.appendRFC3339(t, to: &$0) }
        } else {
            o.append("null")
        }
        o.append(",\"signatureAlgorithm\":")
        if let c = strict, let (s, e) = Self.algorithmOID(c.signatureAlgorithmIdentifier) {
            // The strict certificate's outer and TBS identifiers are one encoding.
            let der = c.der
            o.jsonString { b in
                der.withUnsafeBytes {
                    DERValue.appendDottedObjectIdentifier(UnsafeRawBufferPointer(rebasing: $0[s..<e]), to: &b)
                }
            }
        } else {
            o.jsonString(strict?.signatureAlgorithmOID ?? lenient?.signatureAlgorithmOID ?? "")
        }
        o.append(",\"signatureAlgorithmName\":")
        o.jsonString(signatureAlgorithmName)
        if strict == nil, let l = lenient, l.tbsSignatureAlgorithmOID != l.signatureAlgorithmOID {
            o.append(",\"tbsSignatureAlgorithm\":")
            o.jsonString(l.tbsSignatureAlgorithmOID)
        }
        o.append(",\"publicKey\":{\"algorithm\":")
        o.jsonString(key.algorithm)
        o.append(",\"bits\":")
        if let bits = key.bits { o.jsonInt(Int64(bits)) } else { o.append("null") }
        if let curve = key.curve {
            o.append(",\"curve\":")
            o.jsonString(curve)
        }
        if key.explicit { o.append(",\"parameters\":\"explicit\"") }
        o.append("},\"subjectAltNames\":")
        if let s {
            o.append("{\"dns\":")
            o.jsonStrings(s.dns)
            o.append(",\"ip\":")
            o.jsonStrings(s.ip)
            o.append(",\"email\":")
            o.jsonStrings(s.email)
            o.append(",\"uri\":")
            o.jsonStrings(s.uri)
            if !s.malformed.isEmpty {
                o.append(",\"malformed\":[")
                for (i, m) in s.malformed.enumerated() {
                    if i > 0 { o.append(0x2C) }
                    o.append("{\"type\":")
                    o.jsonString(m.kind)
                    o.append(",\"value\":")
                    o.jsonString(m.value)
                    o.append(",\"offset\":")
                    o.jsonInt(Int64(m.offset))
                    o.append(",\"reason\":")
                    o.jsonString(m.reason)
                    o.append(0x7D)
                }
                o.append(0x5D)
            }
            o.append(0x7D)
        } else {
            o.append("{\"dns\":[],\"ip\":[],\"email\":[],\"uri\":[]}")
        }
        o.append(",\"basicConstraints\":")
        if let b {
            o.append("{\"ca\":")
            o.jsonBool(b.isCA)
            if let p = b.pathLength {
                o.append(",\"pathLen\":")
                o.jsonInt(Int64(p))
            }
            o.append(0x7D)
        } else {
            o.append("null")
        }
        o.append(",\"keyUsage\":")
        if let k {
            // `KeyUsage.names`, written in place (RFC 5280 §4.2.1.3 names, bit order).
            o.append(0x5B)
            var first = true
            for i in 0..<9 where k.rawValue & (1 << UInt16(i)) != 0 {
                if !first { o.append(0x2C) }
                first = false
                o.jsonString(KeyUsage.names[i])
            }
            o.append(0x5D)
        } else {
            o.append("null")
        }
        o.append(",\"extendedKeyUsage\":")
        if let e {
            // `OID.dotted` of each purpose, written in place.
            o.append(0x5B)
            var first = true
            for oid in e {
                if !first { o.append(0x2C) }
                first = false
                o.jsonString { b in oid.withUnsafeBytes { DERValue.appendDottedObjectIdentifier($0, to: &b) } }
            }
            o.append(0x5D)
        } else {
            o.append("null")
        }
        o.append(",\"subjectKeyIdentifier\":")
        if let ski { ski.withUnsafeBytes { o.jsonHex($0) } } else { o.append("null") }
        o.append(",\"authorityKeyIdentifier\":")
        if let id = aki?.keyIdentifier { id.withUnsafeBytes { o.jsonHex($0) } } else { o.append("null") }
        o.append(",\"extensions\":[")
        if let c = strict {
            var first = true
            c.forEachExtensionOID { oid, critical in
                if !first { o.append(0x2C) }
                first = false
                o.append("{\"oid\":")
                o.jsonString { b in DERValue.appendDottedObjectIdentifier(oid, to: &b) }
                o.append(",\"critical\":")
                o.jsonBool(critical)
                o.append(0x7D)
            }
        } else if let l = lenient {
            for (i, x) in l.extensions.enumerated() {
                if i > 0 { o.append(0x2C) }
                o.append("{\"oid\":")
                o.jsonString(x.oid)
                o.append(",\"critical\":")
                o.jsonBool(x.critical)
                o.append(0x7D)
            }
        }
        o.append("],\"sha256\":")
        if let sha256 { sha256.withUnsafeBytes { o.jsonHex($0) } } else { o.append("null") }
        o.append(",\"spkiSha256\":")
        if let spkiSha256 { spkiSha256.withUnsafeBytes { o.jsonHex($0) } } else { o.append("null") }
        o.append(",\"parsedStrictly\":")
        o.jsonBool(strict != nil)
        if strict == nil, let err = lenient?.strictError {
            o.append(",\"strictError\":")
            o.jsonString(err.description)
        }
        o.append(",\"warnings\":[")
        for (i, w) in warnings.enumerated() {
            if i > 0 { o.append(0x2C) }
            o.append("{\"clause\":")
            o.jsonString(w.clause)
            o.append(",\"offset\":")
            o.jsonInt(Int64(w.offset))
            o.append(",\"message\":")
            o.jsonString(w.message)
            o.append(0x7D)
        }
        o.append("]}")
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
