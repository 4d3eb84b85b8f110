// FuzzCertificate: parse the input as a certificate; on success call every accessor and
// every extension decoder, iterate everything, and render the `sigil inspect` reports.
// FuzzPEM: PEM bundle decoding with DER → PEM → DER round trips.

import Sigil
import SigilCrypto
import SigilDER
@_spi(SigilInternal) import SigilX509

public enum CertificateWalk {
    /// The fixed "now" of the reports: 2030-01-01T00:00:00Z.
    public static let now: Int64 = 1_893_456_000

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        guard let cert = try? Certificate(der: bytes) else { return }
        exercise(cert)
    }

    /// Every accessor, decoder and report of a parsed certificate, with the oracles.
    public static func exercise(_ cert: Certificate) {
        // Re-parse of `der` gives the same fields (the parser is a pure function of the bytes).
        guard let again = try? Certificate(der: cert.der) else {
            oracle(false, "re-parse of Certificate.der fails")
            return
        }
        oracle(again == cert, "re-parse: der differs")
        oracle(
            again.version == cert.version && again.notBefore == cert.notBefore && again.notAfter == cert.notAfter,
            "re-parse: version/validity differ")
        oracle(
            again.signatureAlgorithm == cert.signatureAlgorithm && again.publicKeyAlgorithm == cert.publicKeyAlgorithm,
            "re-parse: algorithms differ")
        oracle(again.serialNumberHex == cert.serialNumberHex, "re-parse: serial differs")
        oracle(again.subject.rfc4514String == cert.subject.rfc4514String, "re-parse: subject differs")
        oracle(again.extensionCount == cert.extensionCount, "re-parse: extension count differs")
        if let viaSequence = try? Certificate(derBytes: cert.der.lazy.map { $0 }) {
            oracle(viaSequence == cert, "Certificate(derBytes:) differs from Certificate(der:)")
        } else {
            oracle(false, "Certificate(derBytes:) rejects what Certificate(der:) accepts")
        }

        // Plain accessors.
        _ = cert.serialNumber.hex
        oracle(!cert.serialNumberHex.isEmpty, "empty serialNumberHex")
        _ = cert.tbsCertificate.count
        _ = cert.subjectPublicKeyInfo.count
        _ = cert.publicKeyAlgorithmIdentifier.hex
        _ = cert.publicKeyBytes.count
        _ = cert.signatureAlgorithmIdentifier.hex
        _ = cert.signature.count
        _ = cert.issuerUniqueID?.hex
        _ = cert.subjectUniqueID?.hex
        _ = cert.signatureAlgorithmOID
        _ = cert.signatureAlgorithm.name
        _ = cert.signatureAlgorithm.digest?.name
        _ = cert.publicKeyAlgorithm.name
        let bits = cert.publicKeyBitCount
        if let rsa = try? cert.rsaPublicKey() {
            _ = rsa.modulus.hex
            _ = rsa.exponent.hex
            if case .rsa = cert.publicKeyAlgorithm {
                oracle(bits == rsa.bitCount, "publicKeyBitCount != RSA modulus bits")
            }
        }
        // SigilCrypto's key parser is stricter than SigilX509's view (size and exponent
        // limits): whatever it accepts, the certificate layer accepts with the same size.
        if let key = try? RSAPublicKey(pkcs1DER: cert.publicKeyBytes.array) {
            switch cert.publicKeyAlgorithm {
            case .rsa, .rsaPSS:
                let view = try? cert.rsaPublicKey()
                oracle(view?.bitCount == key.bitCount, "SigilCrypto accepts an RSA key SigilX509 reads differently")
            default: break
            }
        }
        _ = cert.ecPoint?.count
        oracle(cert.notBefore <= Int64.max && cert.notAfter >= Int64.min, "validity")

        // Names.
        walkName(cert.subject)
        walkName(cert.issuer)
        oracle(cert.isSelfIssued == cert.issuer.matchesForChaining(cert.subject), "isSelfIssued")
        if cert.issuer.matchesForChaining(cert.subject) {
            oracle(
                cert.issuer.chainingHashValue == cert.subject.chainingHashValue,
                "names that match for chaining hash differently")
            oracle(cert.subject.matchesForChaining(cert.issuer), "matchesForChaining is not symmetric")
        }

        // Extensions: iteration, lookup, and every decoder.
        var count = 0
        for e in cert.extensions {
            count += 1
            _ = OID.dotted(e.oid)
            _ = e.name
            _ = e.critical
            // The parser rejects duplicate extensions, so the lookup finds this very one.
            if let found = cert.extension(e.oid.array) {
                oracle(found.value == e.value && found.critical == e.critical, "extension(oid) finds another extension")
            } else {
                oracle(false, "extension(oid) misses an iterated extension")
            }
        }
        oracle(count == cert.extensionCount, "extensions iterated \(count) != extensionCount \(cert.extensionCount)")

        var decoderThrew = false
        func attempt<T>(_ body: () throws(DERError) -> T) -> T? {
            do { return try body() } catch {
                decoderThrew = true
                return nil
            }
        }
        _ = attempt { () throws(DERError) in try cert.basicConstraints() }
        if let ku = attempt({ () throws(DERError) in try cert.keyUsage() }) { _ = ku?.names }
        if let eku = attempt({ () throws(DERError) in try cert.extendedKeyUsage() }), let eku {
            for o in eku { _ = o.count }
            _ = eku.map { OID.dotted($0) }
            _ = eku.contains(OID.serverAuth)
        }
        if let san = attempt({ () throws(DERError) in try cert.subjectAlternativeNames() }), let san {
            walkGeneralNames(san)
        }
        if let ian = attempt({ () throws(DERError) in try cert.issuerAlternativeNames() }), let ian {
            walkGeneralNames(ian)
        }
        if let ski = attempt({ () throws(DERError) in try cert.subjectKeyIdentifier() }) { _ = ski?.hex }
        if let aki = attempt({ () throws(DERError) in try cert.authorityKeyIdentifier() }), let aki {
            _ = aki.keyIdentifier?.hex
            if let names = aki.authorityCertIssuer { walkGeneralNames(names) }
            _ = aki.authorityCertSerialNumber?.hex
        }
        if let nc = attempt({ () throws(DERError) in try cert.nameConstraints() }), let nc {
            if let p = nc.permitted { for n in p { walkGeneralName(n) } }
            if let e = nc.excluded { for n in e { walkGeneralName(n) } }
        }
        if let cp = attempt({ () throws(DERError) in try cert.certificatePolicies() }), let cp {
            for p in cp {
                _ = OID.dotted(p.policyIdentifier)
                for q in p.qualifiers {
                    switch q {
                    case .cps(let s): _ = s.utf8.count
                    case .userNotice(let org, let numbers, let text): _ = (org?.count, numbers.count, text?.count)
                    case .other(let oid): _ = oid.count
                    }
                }
            }
        }
        if let pm = attempt({ () throws(DERError) in try cert.policyMappings() }), let pm {
            for m in pm { _ = (m.issuerDomainPolicy.hex, m.subjectDomainPolicy.hex) }
        }
        _ = attempt { () throws(DERError) in try cert.policyConstraints() }
        _ = attempt { () throws(DERError) in try cert.inhibitAnyPolicy() }
        if let aia = attempt({ () throws(DERError) in try cert.authorityInformationAccess() }), let aia {
            for d in aia {
                _ = d.method.hex
                walkGeneralName(d.location)
            }
        }
        for dps in [
            attempt({ () throws(DERError) in try cert.crlDistributionPoints() }),
            attempt({ () throws(DERError) in try cert.freshestCRL() }),
        ] {
            guard let dps = dps ?? nil else { continue }
            for dp in dps {
                if let f = dp.fullName { walkGeneralNames(f) }
                _ = (dp.hasRelativeName, dp.reasons)
                // nameRelativeToCRLIssuer (§4.2.1.13): appended to the issuer's DN.
                if let rel = dp.relativeName {
                    oracle(dp.hasRelativeName && dp.fullName == nil, "DP: relative name without hasRelativeName")
                    if let name = cert.issuer.appending(relativeName: rel) {
                        oracle(name.matchesForChaining(name), "DP: the resolved name does not match itself")
                    }
                }
                if let i = dp.crlIssuer { walkGeneralNames(i) }
            }
        }
        if let sct = attempt({ () throws(DERError) in try cert.signedCertificateTimestamps() }), let sct {
            oracle(sct.count >= 0 && sct.list.count >= 0, "SCT count")
        }
        let valid: Bool
        do {
            try cert.validateExtensions()
            valid = true
        } catch { valid = false }
        // validateExtensions decodes exactly the extensions the decoders do.
        oracle(
            valid == !decoderThrew,
            "validateExtensions \(valid ? "accepts" : "rejects") but a decoder \(decoderThrew ? "throws" : "does not throw")"
        )

        // The reports (`sigil inspect`).
        let sha = Fingerprint.sha256Hex(cert.der)
        let spki = Fingerprint.sha256Hex(cert.subjectPublicKeyInfo.bytes)
        oracle(sha?.count == 64, "fingerprint length")
        var report = CertificateReport(cert, now: now)
        let text = report.text(sha256: sha, spkiSha256: spki)
        oracle(!text.isEmpty, "empty text report")
        var report2 = CertificateReport(cert, now: now)
        let json = report2.json(sha256: sha, spkiSha256: spki).serialized()
        oracle(json.first == "{" && json.last == "}", "JSON report is not an object")
        if valid {
            oracle(
                report.problems.isEmpty && report2.problems.isEmpty,
                "report problems on a certificate whose extensions validate: \(report.problems + report2.problems)")
        }

        // DER → PEM → DER.
        let pem = PEM.encode(cert.der)
        if let blocks = try? PEM.certificatesDER(in: Array(pem.utf8)) {
            oracle(blocks.certificates == [cert.der] && blocks.skippedBlocks == 0, "PEM round trip differs")
        } else {
            oracle(false, "PEM.encode output does not decode")
        }
        _ = cert.pem.count

        // A self-issued certificate: check its own signature (bounded by the crypto's caps).
        if cert.isSelfIssued { _ = CertificateSignature.verify(cert, issuer: cert) }
    }

    static func walkName(_ name: DistinguishedName) {
        var attributes = 0
        for rdn in name {
            for atv in rdn {
                attributes += 1
                _ = OID.dotted(atv.type)
                _ = atv.typeShortName
                _ = atv.stringValue
                _ = atv.rfc4514String
                _ = atv.valueTag
                _ = atv.encodedValue.count
            }
        }
        let text = name.rfc4514String
        oracle(attributes == 0 || !text.isEmpty, "rfc4514String is empty for a name with \(attributes) attributes")
        oracle(name.isEmpty || !text.isEmpty, "rfc4514String is empty for a non-empty name (\(name.encoded.hex))")
        _ = name.values(of: [0x55, 0x04, 0x03])
        oracle(name.matchesForChaining(name), "matchesForChaining is not reflexive")
        _ = name.chainingHashValue
    }

    static func walkGeneralNames(_ names: GeneralNames) {
        for n in names { walkGeneralName(n) }
    }

    static func walkGeneralName(_ n: GeneralName) {
        let d = n.description
        oracle(!d.isEmpty, "empty GeneralName description")
        switch n {
        case .directoryName(let dn): walkName(dn)
        case .ipAddress(let b): _ = IPAddressText.format(b.array)
        case .dnsName(let s), .rfc822Name(let s), .uri(let s): _ = s.latin1String
        default: break
        }
    }
}

public enum PEMWalk {
    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        _ = PEM.looksLikePEM(bytes)
        if let blocks = try? PEM.decodeBlocks(bytes) {
            for der in blocks.certificates {
                // DER → PEM → DER, each block alone and all of them as one bundle.
                let pem = Array(PEM.encode(der).utf8)
                guard let again = try? PEM.decodeBlocks(pem) else {
                    oracle(false, "PEM.encode output (\(der.count) bytes of DER) does not decode")
                    return
                }
                oracle(again.certificates == [der] && again.skippedBlocks == 0, "PEM round trip differs")
                oracle(Base64.decode(Base64.encode(der)) == der, "Base64 round trip differs")
                if let c = try? Certificate(der: der) { _ = c.subject.rfc4514String }
            }
            let bundle = Array(blocks.certificates.map { PEM.encode($0) }.joined().utf8)
            if let again = try? PEM.decodeBlocks(bundle) {
                oracle(again.certificates == blocks.certificates, "bundle round trip differs")
            } else {
                oracle(false, "re-encoded bundle does not decode")
            }
        }
        if let blocks = try? PEM.certificatesDER(in: bytes) {
            oracle(!blocks.certificates.isEmpty, "certificatesDER returns no certificate without throwing")
        }
        // The streaming reader (its 64-character line fast path, refills mid-line) finds the
        // certificates the whole-text reader finds; blocks of other labels may fail in it only.
        if bytes.first != 0x30, let blocks = try? PEM.decodeBlocks(bytes) {
            for size in [256, 1 << 16] {
                var stream = ObjectStream(bytes: bytes, bufferSize: size, maximumObjectSize: 64 << 20)
                var found: [[UInt8]] = []
                while true {
                    do {
                        guard let o = try stream.next() else { break }
                        if o.isCertificateBlock { found.append(o.der) }
                    } catch {
                        continue
                    }
                }
                // A line longer than the buffer is handed over in pieces; the whole-text reader
                // sees it whole, so only inputs without such lines are compared.
                if size == 1 << 16 || !bytes.split(separator: 0x0A).contains(where: { $0.count >= size }) {
                    oracle(found == blocks.certificates, "ObjectStream (buffer \(size)) differs from PEM.decodeBlocks")
                }
            }
        }
        // The AVX2 decoder of PEM body lines (CSigilBase64) and the portable one agree on
        // every input: the same verdict and the same octets (whole quanta, no padding).
        let quanta = Array(bytes.prefix(4096).prefix(bytes.count & ~3))
        oracle(
            Base64.decodeQuanta(quanta, simd: true) == Base64.decodeQuanta(quanta, simd: false),
            "AVX2 and portable base64 decoders differ")
        // Base64 alone: decode the input; whatever decodes must re-encode to the same text.
        let text = bytes.prefix(4096).filter { $0 != 0x0A && $0 != 0x0D }
        if let decoded = Base64.decode(text) {
            oracle(Base64.encode(decoded) == Array(text), "Base64 decode accepts a non-canonical text")
        }
        _ = (try? Certificate.all(from: bytes))?.count
    }
}
