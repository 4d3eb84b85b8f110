import SigilDER
import SigilX509

/// Human-readable and JSON reports of a certificate (what `sigil inspect` prints).
///
/// Every accessor is exercised; a malformed extension is reported in place and recorded in
/// `problems` (the CLI exits 1 when there are any).
public struct CertificateReport {
    public let certificate: Certificate
    /// The time "expires in N days" is computed against (seconds since the epoch).
    public let now: Int64
    /// Malformed extensions found while rendering.
    public private(set) var problems: [String] = []

    public init(_ certificate: Certificate, now: Int64) {
        self.certificate = certificate
        self.now = now
    }

    // MARK: shared decoding

    struct SANs {
        var dns: [String] = [], ip: [String] = [], email: [String] = [], uri: [String] = []
        var other: [String] = []
    }

    mutating func attempt<T>(_ what: String, _ body: () throws(DERError) -> T?) -> T? {
        do {
            return try body()
        } catch {
            problems.append("\(what): \(error)")
            return nil
        }
    }

    mutating func sans() -> SANs? {
        let c = certificate
        guard let names = attempt("subjectAltName", { () throws(DERError) in try c.subjectAlternativeNames() }) else { return nil }
        var s = SANs()
        for n in names {
            switch n {
            case .dnsName(let v): s.dns.append(v.latin1String)
            case .ipAddress(let v): s.ip.append(IPAddressText.format(v.array))
            case .rfc822Name(let v): s.email.append(v.latin1String)
            case .uri(let v): s.uri.append(v.latin1String)
            default: s.other.append(n.description)
            }
        }
        return s
    }

    var keyDescription: (algorithm: String, bits: Int?, curve: String?) {
        switch certificate.publicKeyAlgorithm {
        case .rsa: return ("rsa", certificate.publicKeyBitCount, nil)
        case .rsaPSS: return ("rsa-pss", certificate.publicKeyBitCount, nil)
        case .ec(let c): return ("ec", certificate.publicKeyBitCount, c == .other ? nil : c.name)
        case .ecExplicitParameters: return ("ec", nil, nil)
        case .ed25519: return ("ed25519", 256, nil)
        case .ed448: return ("ed448", 456, nil)
        case .unknown:
            let oid = (try? certificate.publicKeyAlgorithmIdentifier.read { (r) throws(DERError) -> String in
                try r.enter(.sequence) { (a) throws(DERError) -> String in
                    let o = objectIdentifierDottedString(try a.readObjectIdentifier())
                    while !a.isAtEnd { try a.skip() }
                    return o
                }
            }) ?? "unknown"
            return (oid, nil, nil)
        }
    }

    static func dotted(_ s: ByteSpan) -> String {
        (try? s.withUnsafeBytes { (b) throws(DERError) -> String in objectIdentifierDottedString(b) }) ?? "?"
    }

    static func oidName(_ s: ByteSpan) -> String {
        let d = dotted(s)
        let n: String?? = try? s.withUnsafeBytes { (b) throws(DERError) -> String? in OID.displayName(b) }
        if let n, let name = n {
            return "\(name) (\(d))"
        }
        return d
    }

    // MARK: JSON

    /// The JSON object documented in the README (schema `sigil inspect --json`).
    public mutating func json(sha256: String?, spkiSha256: String?) -> JSONValue {
        let c = certificate
        var sanObject: JSONValue = .object([("dns", .array([])), ("ip", .array([])), ("email", .array([])), ("uri", .array([]))])
        if let s = sans() {
            sanObject = .object([
                ("dns", .array(s.dns.map(JSONValue.string))), ("ip", .array(s.ip.map(JSONValue.string))),
                ("email", .array(s.email.map(JSONValue.string))), ("uri", .array(s.uri.map(JSONValue.string))),
            ])
        }
        var bc: JSONValue = .null
        if let b = attempt("basicConstraints", { () throws(DERError) in try c.basicConstraints() }) {
            var o: [(String, JSONValue)] = [("ca", .bool(b.isCA))]
            if let p = b.pathLength { o.append(("pathLen", .int(Int64(p)))) }
            bc = .object(o)
        }
        var ku: JSONValue = .null
        if let k = attempt("keyUsage", { () throws(DERError) in try c.keyUsage() }) { ku = .array(k.names.map(JSONValue.string)) }
        var eku: JSONValue = .null
        if let e = attempt("extKeyUsage", { () throws(DERError) in try c.extendedKeyUsage() }) { eku = .array(e.dotted.map(JSONValue.string)) }
        var ski: JSONValue = .null
        if let s = attempt("subjectKeyIdentifier", { () throws(DERError) in try c.subjectKeyIdentifier() }) { ski = .string(s.hex) }
        var aki: JSONValue = .null
        if let a = attempt("authorityKeyIdentifier", { () throws(DERError) in try c.authorityKeyIdentifier() }), let k = a.keyIdentifier {
            aki = .string(k.hex)
        }
        validateRemainingExtensions()
        let key = keyDescription
        var keyObject: [(String, JSONValue)] = [("algorithm", .string(key.algorithm))]
        keyObject.append(("bits", key.bits.map { .int(Int64($0)) } ?? .null))
        if let curve = key.curve { keyObject.append(("curve", .string(curve))) }
        return .object([
            ("subject", .string(c.subject.rfc4514String)),
            ("issuer", .string(c.issuer.rfc4514String)),
            ("serial", .string(c.serialNumberHex)),
            ("version", .int(Int64(c.version.rawValue))),
            ("notBefore", .string(DERTime.rfc3339(c.notBefore))),
            ("notAfter", .string(DERTime.rfc3339(c.notAfter))),
            ("signatureAlgorithm", .string(c.signatureAlgorithmOID)),
            ("signatureAlgorithmName", .string(c.signatureAlgorithm.name)),
            ("publicKey", .object(keyObject)),
            ("subjectAltNames", sanObject),
            ("basicConstraints", bc),
            ("keyUsage", ku),
            ("extendedKeyUsage", eku),
            ("subjectKeyIdentifier", ski),
            ("authorityKeyIdentifier", aki),
            ("extensions", .array(c.extensions.map { e in
                .object([("oid", .string(e.oidDotted)), ("critical", .bool(e.critical))])
            })),
            ("sha256", sha256.map(JSONValue.string) ?? .null),
            ("spkiSha256", spkiSha256.map(JSONValue.string) ?? .null),
        ])
    }

    /// Decodes the extensions the JSON does not show, so malformed ones are still reported.
    mutating func validateRemainingExtensions() {
        let c = certificate
        _ = attempt("certificatePolicies", { () throws(DERError) in try c.certificatePolicies() })
        _ = attempt("authorityInfoAccess", { () throws(DERError) in try c.authorityInformationAccess() })
        _ = attempt("cRLDistributionPoints", { () throws(DERError) in try c.crlDistributionPoints() })
        _ = attempt("freshestCRL", { () throws(DERError) in try c.freshestCRL() })
        _ = attempt("nameConstraints", { () throws(DERError) in try c.nameConstraints() })
        _ = attempt("policyMappings", { () throws(DERError) in try c.policyMappings() })
        _ = attempt("policyConstraints", { () throws(DERError) in try c.policyConstraints() })
        _ = attempt("inhibitAnyPolicy", { () throws(DERError) in try c.inhibitAnyPolicy() })
        _ = attempt("issuerAltName", { () throws(DERError) in try c.issuerAlternativeNames() })
        _ = attempt("signedCertificateTimestampList", { () throws(DERError) in try c.signedCertificateTimestamps().map { $0.count } })
    }

    // MARK: text

    /// The human-readable report.
    public mutating func text(sha256: String?, spkiSha256: String?) -> String {
        let c = certificate
        var lines: [(String, String)] = []
        func add(_ k: String, _ v: String) { lines.append((k, v)) }
        add("Subject", c.subject.rfc4514String.isEmpty ? "(empty)" : c.subject.rfc4514String)
        add("Issuer", c.issuer.rfc4514String.isEmpty ? "(empty)" : c.issuer.rfc4514String)
        add("Serial", c.serialNumberHex)
        add("Version", "v\(c.version.rawValue)")
        let days = { (a: Int64, b: Int64) -> Int64 in (a - b) / 86400 }
        var status: String
        if now < c.notBefore {
            status = "not yet valid: starts in \(days(c.notBefore, now)) days"
        } else if now > c.notAfter {
            status = "expired \(days(now, c.notAfter)) days ago"
        } else {
            status = "expires in \(days(c.notAfter, now)) days"
        }
        add("Valid from", DERTime.rfc3339(c.notBefore))
        add("Valid until", DERTime.rfc3339(c.notAfter) + " (" + status + ")")
        let key = keyDescription
        var keyText: String
        switch c.publicKeyAlgorithm {
        case .rsa, .rsaPSS:
            keyText = "\(c.publicKeyAlgorithm.name) \(key.bits.map(String.init) ?? "?")"
            if let rsa = try? c.rsaPublicKey(), rsa.exponent.count <= 8 {
                var e: UInt64 = 0
                for b in rsa.exponent.bytes { e = e << 8 | UInt64(b) }
                keyText += " (e=\(e))"
            }
        default:
            keyText = c.publicKeyAlgorithm.name
        }
        add("Public key", keyText)
        add("Signature", "\(c.signatureAlgorithm.name) (\(c.signatureAlgorithmOID))")

        func crit(_ oid: [UInt8]) -> String { c.extension(oid)?.critical == true ? "critical: " : "" }
        if let s = sans() {
            let all = s.dns.map { "DNS:" + $0 } + s.ip.map { "IP:" + $0 } + s.email.map { "email:" + $0 }
                + s.uri.map { "URI:" + $0 } + s.other
            add("Subject alt names", crit(OID.subjectAltName) + all.joined(separator: ", "))
        }
        if let ian = attempt("issuerAltName", { () throws(DERError) in try c.issuerAlternativeNames() }) {
            add("Issuer alt names", ian.map { $0.description }.joined(separator: ", "))
        }
        if let ku = attempt("keyUsage", { () throws(DERError) in try c.keyUsage() }) {
            add("Key usage", crit(OID.keyUsage) + ku.names.joined(separator: ", "))
        }
        if let eku = attempt("extKeyUsage", { () throws(DERError) in try c.extendedKeyUsage() }) {
            add("Extended key usage", crit(OID.extKeyUsage) + eku.map(CertificateReport.oidName).joined(separator: ", "))
        }
        if let bc = attempt("basicConstraints", { () throws(DERError) in try c.basicConstraints() }) {
            add("Basic constraints", crit(OID.basicConstraints) + (bc.isCA ? "CA" : "not a CA")
                + (bc.pathLength.map { ", path length \($0)" } ?? ""))
        }
        if let ski = attempt("subjectKeyIdentifier", { () throws(DERError) in try c.subjectKeyIdentifier() }) {
            add("Subject key ID", ski.hex)
        }
        if let aki = attempt("authorityKeyIdentifier", { () throws(DERError) in try c.authorityKeyIdentifier() }) {
            var parts: [String] = []
            if let k = aki.keyIdentifier { parts.append(k.hex) }
            if let i = aki.authorityCertIssuer { parts.append("issuer " + i.map { $0.description }.joined(separator: ", ")) }
            if let s = aki.authorityCertSerialNumber { parts.append("serial " + s.hex) }
            add("Authority key ID", parts.joined(separator: "; "))
        }
        if let nc = attempt("nameConstraints", { () throws(DERError) in try c.nameConstraints() }) {
            if let p = nc.permitted { add("Permitted names", p.map { $0.description }.joined(separator: ", ")) }
            if let e = nc.excluded { add("Excluded names", e.map { $0.description }.joined(separator: ", ")) }
        }
        if let policies = attempt("certificatePolicies", { () throws(DERError) in try c.certificatePolicies() }) {
            var out: [String] = []
            for p in policies {
                var s = CertificateReport.oidName(p.policyIdentifier)
                for q in p.qualifiers {
                    switch q {
                    case .cps(let uri): s += " [CPS: \(uri)]"
                    case .userNotice(let org, let numbers, let text):
                        var parts: [String] = []
                        if let org { parts.append("\(org) \(numbers.map(String.init).joined(separator: ","))") }
                        if let text { parts.append("\"\(text)\"") }
                        s += " [notice: \(parts.joined(separator: " "))]"
                    case .other(let oid): s += " [\(oid)]"
                    }
                }
                out.append(s)
            }
            add("Policies", crit(OID.certificatePolicies) + out.joined(separator: ", "))
        }
        if let m = attempt("policyMappings", { () throws(DERError) in try c.policyMappings() }) {
            add("Policy mappings", m.map { "\(CertificateReport.dotted($0.issuerDomainPolicy)) → \(CertificateReport.dotted($0.subjectDomainPolicy))" }.joined(separator: ", "))
        }
        if let pc = attempt("policyConstraints", { () throws(DERError) in try c.policyConstraints() }) {
            var parts: [String] = []
            if let r = pc.requireExplicitPolicy { parts.append("requireExplicitPolicy \(r)") }
            if let i = pc.inhibitPolicyMapping { parts.append("inhibitPolicyMapping \(i)") }
            add("Policy constraints", parts.joined(separator: ", "))
        }
        if let n = attempt("inhibitAnyPolicy", { () throws(DERError) in try c.inhibitAnyPolicy() }) {
            add("Inhibit anyPolicy", String(n))
        }
        if let aia = attempt("authorityInfoAccess", { () throws(DERError) in try c.authorityInformationAccess() }) {
            add("Authority info access", aia.map { "\(CertificateReport.oidName($0.method)) \($0.location.description)" }.joined(separator: ", "))
        }
        for (label, oid) in [("CRL distribution points", OID.cRLDistributionPoints), ("Freshest CRL", OID.freshestCRL)] {
            let dps = attempt(label, { () throws(DERError) in
                oid == OID.freshestCRL ? try c.freshestCRL() : try c.crlDistributionPoints()
            })
            if let dps {
                var out: [String] = []
                for dp in dps {
                    if let full = dp.fullName { out.append(contentsOf: full.map { $0.description }) }
                    if dp.hasRelativeName { out.append("(name relative to CRL issuer)") }
                    if let issuer = dp.crlIssuer { out.append("CRL issuer " + issuer.map { $0.description }.joined(separator: ", ")) }
                }
                add(label, out.joined(separator: ", "))
            }
        }
        if let scts = attempt("signedCertificateTimestampList", { () throws(DERError) in try c.signedCertificateTimestamps() }) {
            add("Embedded SCTs", String(scts.count))
        }
        let known: [[UInt8]] = [OID.subjectAltName, OID.issuerAltName, OID.keyUsage, OID.extKeyUsage, OID.basicConstraints,
                                OID.subjectKeyIdentifier, OID.authorityKeyIdentifier, OID.nameConstraints,
                                OID.certificatePolicies, OID.policyMappings, OID.policyConstraints, OID.inhibitAnyPolicy,
                                OID.authorityInfoAccess, OID.cRLDistributionPoints, OID.freshestCRL,
                                OID.signedCertificateTimestampList]
        let others = c.extensions.filter { e in !known.contains { e.oid == $0 } }
        if !others.isEmpty {
            add("Other extensions", others.map { ($0.name.map { n in "\(n) " } ?? "") + "(\($0.oidDotted))" + ($0.critical ? " critical" : "") }.joined(separator: ", "))
        }
        add("SHA-256", sha256 ?? "(unavailable)")
        add("SPKI SHA-256", spkiSha256 ?? "(unavailable)")
        for p in problems { add("MALFORMED", p) }
        let width = lines.map { $0.0.count }.max() ?? 0
        return lines.map { k, v in "  " + k + ":" + String(repeating: " ", count: width - k.count + 1) + v }.joined(separator: "\n")
    }
}
