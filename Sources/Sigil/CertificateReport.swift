import SigilDER
import SigilX509

/// Human-readable and JSON reports of a certificate (what `sigil inspect` prints).
///
/// Built on the inspector's lenient view (`LenientCertificate`): a certificate the strict parser
/// refuses is still shown, field by field, with each violation listed under warnings (clause
/// and byte offset). For a certificate the strict parser accepts, every field comes from the
/// strict parser. Every extension accessor is exercised; a malformed extension value is
/// reported as a warning and recorded in `problems`.
public struct CertificateReport {
    /// What the inspector read.
    public private(set) var inspected: LenientCertificate
    /// The strictly parsed certificate, nil when only the lenient reader could read it.
    public var certificate: Certificate? { inspected.strictCertificate }
    /// The time "expires in N days" is computed against (seconds since the epoch).
    public let now: Int64
    /// Malformed extensions found while rendering.
    public private(set) var problems: [String] = []
    /// Every violation found: while reading, and malformed extension values found while
    /// rendering (complete once `json` or `text` has run).
    public var warnings: [InspectionWarning] { inspected.warnings }

    /// A report of a certificate the strict parser accepted; `now` is the reference time in
    /// seconds since the Unix epoch (UTC) for the validity summary.
    public init(_ certificate: Certificate, now: Int64) {
        self.inspected = LenientCertificate(certificate)
        self.now = now
    }

    /// A report of what the lenient reader found (possibly a certificate the strict parser
    /// refuses; its violations appear in ``warnings``); `now` is in seconds since the Unix epoch.
    public init(_ inspected: LenientCertificate, now: Int64) {
        self.inspected = inspected
        self.now = now
    }

    /// The decoder of extension values (nil when there is none to decode).
    var carrier: Certificate? { inspected.extensionCarrier }

    // MARK: shared decoding

    struct MalformedName {
        var kind: String
        var value: String
        var offset: Int
        var reason: String
    }

    struct SANs {
        var dns: [String] = [], ip: [String] = [], email: [String] = [], uri: [String] = []
        var other: [String] = []
        var malformed: [MalformedName] = []

        init() {}

        /// The lists of a subjectAltName the strict decoder read.
        init(_ names: GeneralNames) {
            for n in names {
                switch n {
                case .dnsName(let v): dns.append(v.latin1String)
                case .ipAddress(let v): ip.append(IPAddressText.format(v.array))
                case .rfc822Name(let v): email.append(v.latin1String)
                case .uri(let v): uri.append(v.latin1String)
                default: other.append(n.description)
                }
            }
        }
    }

    /// The RFC clause defining each extension Sigil decodes, for warnings.
    static let extensionClauses: [String: String] = [
        "subjectAltName": "RFC 5280 §4.2.1.6", "issuerAltName": "RFC 5280 §4.2.1.7",
        "basicConstraints": "RFC 5280 §4.2.1.9", "keyUsage": "RFC 5280 §4.2.1.3",
        "extKeyUsage": "RFC 5280 §4.2.1.12", "subjectKeyIdentifier": "RFC 5280 §4.2.1.2",
        "authorityKeyIdentifier": "RFC 5280 §4.2.1.1", "nameConstraints": "RFC 5280 §4.2.1.10",
        "certificatePolicies": "RFC 5280 §4.2.1.4", "policyMappings": "RFC 5280 §4.2.1.5",
        "policyConstraints": "RFC 5280 §4.2.1.11", "inhibitAnyPolicy": "RFC 5280 §4.2.1.14",
        "authorityInfoAccess": "RFC 5280 §4.2.2.1", "cRLDistributionPoints": "RFC 5280 §4.2.1.13",
        "CRL distribution points": "RFC 5280 §4.2.1.13", "freshestCRL": "RFC 5280 §4.2.1.15",
        "Freshest CRL": "RFC 5280 §4.2.1.15", "signedCertificateTimestampList": "RFC 6962 §3.3",
    ]

    mutating func attempt<T>(_ what: String, _ body: (Certificate) throws(DERError) -> T?) -> T? {
        attempt(carrier, what, body)
    }

    /// `attempt` with the carrier given (read once by the caller).
    mutating func attempt<T>(_ carrier: Certificate?, _ what: String, _ body: (Certificate) throws(DERError) -> T?)
        -> T?
    {
        guard let c = carrier else { return nil }
        do {
            return try body(c)
        } catch {
            let offset = inspected.originalOffset(error.offset)
            let message = "\(what): \(error.kind.message)"
            problems.append("\(what): \(DERError(error.kind, at: offset))")
            inspected.addWarning(
                clause: CertificateReport.extensionClauses[what] ?? "RFC 5280 §4.2", carrierOffset: error.offset,
                message: message)
            return nil
        }
    }

    mutating func sans() -> SANs? { sans(carrier) }

    mutating func sans(_ carrier: Certificate?) -> SANs? {
        if let names = attempt(
            carrier, "subjectAltName", { (c) throws(DERError) in try c.subjectAlternativeNames() })
        {
            return SANs(names)
        }
        guard let s = lenientSANs() else { return nil }
        for m in s.malformed {
            inspected.addWarning(
                InspectionWarning(
                    clause: "RFC 5280 §4.2.1.6", offset: m.offset,
                    message: "subjectAltName \(m.kind) \"\(m.value)\": \(m.reason)"))
        }
        return s
    }

    /// Every entry of a subjectAltName the strict decoder refused (RFC 5280 §4.2.1.6),
    /// the malformed ones marked: IA5String forms with non-ASCII octets are shown decoded as
    /// UTF-8 (as OpenSSL and Python `cryptography` show them) and listed as malformed.
    func lenientSANs() -> SANs? {
        guard let c = carrier, let e = c.extension(OID.subjectAltName) else { return nil }
        var reader = BERReader(c.der)
        guard let list = try? reader.parse(at: e.value.start, limit: e.value.end), list.tag == 0x30 else { return nil }
        var s = SANs()
        let storage = c.der
        for n in list.children {
            let content = storage[n.contentStart..<n.contentEnd]
            let at = inspected.originalOffset(n.start)
            func ia5(_ kind: String) -> (String, MalformedName?) {
                let text = String(decoding: content, as: UTF8.self)
                guard let bad = content.firstIndex(where: { $0 >= 0x80 }) else { return (text, nil) }
                return (
                    text,
                    MalformedName(
                        kind: kind, value: text, offset: inspected.originalOffset(bad),
                        reason: "non-ASCII octet in an IA5String")
                )
            }
            switch n.tag {
            case 0x81, 0x82, 0x86:
                let kind = n.tag == 0x82 ? "dns" : n.tag == 0x81 ? "email" : "uri"
                let (text, bad) = ia5(kind)
                if n.tag == 0x82 {
                    s.dns.append(text)
                } else if n.tag == 0x81 {
                    s.email.append(text)
                } else {
                    s.uri.append(text)
                }
                if let bad { s.malformed.append(bad) }
            case 0x87:
                if content.count == 4 || content.count == 16 {
                    s.ip.append(IPAddressText.format(Array(content)))
                } else {
                    s.malformed.append(
                        MalformedName(
                            kind: "ip", value: "#" + ByteSpan.hexString(content), offset: at,
                            reason: "iPAddress of \(content.count) octets (4 or 16)"))
                }
            case 0x88:
                s.other.append("RID:" + OID.dotted(Array(content)))
            case 0xA0:
                if let t = n.children.first, t.tag == 0x06 {
                    s.other.append(
                        "othername:"
                            + OID.dotted(Array(storage[t.contentStart..<t.contentEnd])))
                } else {
                    s.malformed.append(
                        MalformedName(
                            kind: "otherName", value: "#" + ByteSpan.hexString(content), offset: at,
                            reason: "malformed otherName"))
                }
            case 0xA3: s.other.append("X400Name")
            case 0xA4:
                if let name = n.children.first, name.tag == 0x30 {
                    if let dn = try? DistinguishedName(der: Array(storage[name.start..<name.end])) {
                        s.other.append("DirName:" + dn.rfc4514String)
                    } else {
                        s.malformed.append(
                            MalformedName(
                                kind: "directoryName", value: "#" + ByteSpan.hexString(content), offset: at,
                                reason: "malformed Name in a directoryName"))
                    }
                } else {
                    s.malformed.append(
                        MalformedName(
                            kind: "directoryName", value: "#" + ByteSpan.hexString(content), offset: at,
                            reason: "malformed directoryName"))
                }
            case 0xA5: s.other.append("EdiPartyName")
            default:
                s.malformed.append(
                    MalformedName(
                        kind: "tag 0x" + ByteSpan.hexString([n.tag]), value: "#" + ByteSpan.hexString(content),
                        offset: at,
                        reason: "not a GeneralName"))
            }
        }
        return s
    }

    /// The key as reported: the strict parser's description for the algorithms it decodes,
    /// the inspector's for the others (DSA, explicit EC parameters, unknown algorithms).
    var keyDescription: (algorithm: String, bits: Int?, curve: String?, explicit: Bool) {
        Self.keyDescription(certificate, inspected.publicKey)
    }

    /// ``keyDescription`` given the strict certificate and the inspector's key summary `k`.
    static func keyDescription(_ strict: Certificate?, _ k: PublicKeySummary) -> (
        algorithm: String, bits: Int?, curve: String?, explicit: Bool
    ) {
        if let c = strict {
            switch c.publicKeyAlgorithm {
            case .rsa: return ("rsa", c.publicKeyBitCount, nil, false)
            case .rsaPSS: return ("rsa-pss", c.publicKeyBitCount, nil, false)
            case .ec(let curve) where curve != .other: return ("ec", c.publicKeyBitCount, curve.name, false)
            case .ed25519: return ("ed25519", 256, nil, false)
            case .ed448: return ("ed448", 456, nil, false)
            default: break
            }
        }
        return (k.algorithm, k.bits, k.curve, k.explicitParameters)
    }

    static func oidName(_ s: ByteSpan) -> String {
        let d = OID.dotted(s)
        if let name = s.withUnsafeBytes({ OID.displayName($0) }) {
            return "\(name) (\(d))"
        }
        return d
    }

    // MARK: JSON

    /// The JSON object documented in the README (schema `sigil inspect --json`).
    public mutating func json(sha256: String?, spkiSha256: String?) -> JSONValue {
        let v = inspected
        var sanObject: JSONValue = .object([
            ("dns", .array([])), ("ip", .array([])), ("email", .array([])), ("uri", .array([])),
        ])
        if let s = sans() {
            var o: [(String, JSONValue)] = [
                ("dns", .array(s.dns.map(JSONValue.string))), ("ip", .array(s.ip.map(JSONValue.string))),
                ("email", .array(s.email.map(JSONValue.string))), ("uri", .array(s.uri.map(JSONValue.string))),
            ]
            if !s.malformed.isEmpty {
                o.append(
                    (
                        "malformed",
                        .array(
                            s.malformed.map { m in
                                .object([
                                    ("type", .string(m.kind)), ("value", .string(m.value)),
                                    ("offset", .int(Int64(m.offset))),
                                    ("reason", .string(m.reason)),
                                ])
                            })
                    ))
            }
            sanObject = .object(o)
        }
        var bc: JSONValue = .null
        if let b = attempt("basicConstraints", { (c) throws(DERError) in try c.basicConstraints() }) {
            var o: [(String, JSONValue)] = [("ca", .bool(b.isCA))]
            if let p = b.pathLength { o.append(("pathLen", .int(Int64(p)))) }
            bc = .object(o)
        }
        var ku: JSONValue = .null
        if let k = attempt("keyUsage", { (c) throws(DERError) in try c.keyUsage() }) {
            ku = .array(k.names.map(JSONValue.string))
        }
        var eku: JSONValue = .null
        if let e = attempt("extKeyUsage", { (c) throws(DERError) in try c.extendedKeyUsage() }) {
            eku = .array(e.map { .string(OID.dotted($0)) })
        }
        var ski: JSONValue = .null
        if let s = attempt("subjectKeyIdentifier", { (c) throws(DERError) in try c.subjectKeyIdentifier() }) {
            ski = .string(s.hex)
        }
        var aki: JSONValue = .null
        if let a = attempt("authorityKeyIdentifier", { (c) throws(DERError) in try c.authorityKeyIdentifier() }),
            let k = a.keyIdentifier
        {
            aki = .string(k.hex)
        }
        validateRemainingExtensions()
        let key = keyDescription
        var keyObject: [(String, JSONValue)] = [("algorithm", .string(key.algorithm))]
        keyObject.append(("bits", key.bits.map { .int(Int64($0)) } ?? .null))
        if let curve = key.curve { keyObject.append(("curve", .string(curve))) }
        if key.explicit { keyObject.append(("parameters", .string("explicit"))) }
        var object: [(String, JSONValue)] = [
            ("subject", .string(v.subject?.rfc4514String ?? "")),
            ("issuer", .string(v.issuer?.rfc4514String ?? "")),
            ("serial", .string(v.serialHex)),
            ("version", .int(Int64(v.version))),
            ("notBefore", v.notBefore.map { .string(DERTime.rfc3339($0)) } ?? .null),
            ("notAfter", v.notAfter.map { .string(DERTime.rfc3339($0)) } ?? .null),
            ("signatureAlgorithm", .string(v.signatureAlgorithmOID)),
            ("signatureAlgorithmName", .string(v.signatureAlgorithmName)),
        ]
        if v.tbsSignatureAlgorithmOID != v.signatureAlgorithmOID {
            object.append(("tbsSignatureAlgorithm", .string(v.tbsSignatureAlgorithmOID)))
        }
        object += [
            ("publicKey", .object(keyObject)),
            ("subjectAltNames", sanObject),
            ("basicConstraints", bc),
            ("keyUsage", ku),
            ("extendedKeyUsage", eku),
            ("subjectKeyIdentifier", ski),
            ("authorityKeyIdentifier", aki),
            (
                "extensions",
                .array(
                    v.extensions.map { e in
                        .object([("oid", .string(e.oid)), ("critical", .bool(e.critical))])
                    })
            ),
            ("sha256", sha256.map(JSONValue.string) ?? .null),
            ("spkiSha256", spkiSha256.map(JSONValue.string) ?? .null),
            ("parsedStrictly", .bool(v.strictCertificate != nil)),
        ]
        if let e = v.strictError { object.append(("strictError", .string(e.description))) }
        object.append(
            (
                "warnings",
                .array(
                    inspected.warnings.map { w in
                        .object([
                            ("clause", .string(w.clause)), ("offset", .int(Int64(w.offset))),
                            ("message", .string(w.message)),
                        ])
                    })
            ))
        return .object(object)
    }

    /// Decodes the extensions the JSON does not show, so malformed ones are still reported.
    mutating func validateRemainingExtensions() { validateRemainingExtensions(carrier) }

    /// `validateRemainingExtensions()` with the carrier given. All of them are decoded in one
    /// go first; only when one is malformed are they decoded again one by one, each failure
    /// becoming a warning (the same warnings, in the same order).
    mutating func validateRemainingExtensions(_ carrier: Certificate?) {
        guard let c = carrier else { return }
        if Self.remainingExtensionsDecode(c) { return }
        _ = attempt(c, "certificatePolicies", { (c) throws(DERError) in try c.certificatePolicies() })
        _ = attempt(c, "authorityInfoAccess", { (c) throws(DERError) in try c.authorityInformationAccess() })
        _ = attempt(c, "cRLDistributionPoints", { (c) throws(DERError) in try c.crlDistributionPoints() })
        _ = attempt(c, "freshestCRL", { (c) throws(DERError) in try c.freshestCRL() })
        _ = attempt(c, "nameConstraints", { (c) throws(DERError) in try c.nameConstraints() })
        _ = attempt(c, "policyMappings", { (c) throws(DERError) in try c.policyMappings() })
        _ = attempt(c, "policyConstraints", { (c) throws(DERError) in try c.policyConstraints() })
        _ = attempt(c, "inhibitAnyPolicy", { (c) throws(DERError) in try c.inhibitAnyPolicy() })
        _ = attempt(c, "issuerAltName", { (c) throws(DERError) in try c.issuerAlternativeNames() })
        _ = attempt(
            c, "signedCertificateTimestampList",
            { (c) throws(DERError) in try c.signedCertificateTimestamps().map { $0.count } })
    }

    /// True when every extension the JSON does not show decodes (what
    /// ``validateRemainingExtensions(_:)`` tries first, in one go).
    static func remainingExtensionsDecode(_ c: Certificate) -> Bool {
        do throws(DERError) {
            _ = try c.certificatePolicies()
            _ = try c.authorityInformationAccess()
            _ = try c.crlDistributionPoints()
            _ = try c.freshestCRL()
            _ = try c.nameConstraints()
            _ = try c.policyMappings()
            _ = try c.policyConstraints()
            _ = try c.inhibitAnyPolicy()
            _ = try c.issuerAlternativeNames()
            _ = try c.signedCertificateTimestamps()
            return true
        } catch {
            return false
        }
    }

    // MARK: text

    /// The human-readable report.
    public mutating func text(sha256: String?, spkiSha256: String?) -> String {
        let v = inspected
        var lines: [(String, String)] = []
        func add(_ k: String, _ v: String) { lines.append((k, v)) }
        let subject = v.subject?.rfc4514String ?? ""
        let issuer = v.issuer?.rfc4514String ?? ""
        add("Subject", subject.isEmpty ? "(empty)" : subject)
        add("Issuer", issuer.isEmpty ? "(empty)" : issuer)
        add("Serial", v.serialHex)
        add("Version", "v\(v.version)")
        let days = { (a: Int64, b: Int64) -> Int64 in (a - b) / 86400 }
        if let notBefore = v.notBefore, let notAfter = v.notAfter {
            var status: String
            if now < notBefore {
                status = "not yet valid: starts in \(days(notBefore, now)) days"
            } else if now > notAfter {
                status = "expired \(days(now, notAfter)) days ago"
            } else {
                status = "expires in \(days(notAfter, now)) days"
            }
            add("Valid from", DERTime.rfc3339(notBefore))
            add("Valid until", DERTime.rfc3339(notAfter) + " (" + status + ")")
        } else {
            add("Valid from", v.notBefore.map(DERTime.rfc3339) ?? "(unreadable)")
            add("Valid until", v.notAfter.map(DERTime.rfc3339) ?? "(unreadable)")
        }
        add("Public key", keyText)
        add("Signature", "\(v.signatureAlgorithmName) (\(v.signatureAlgorithmOID))")
        if v.tbsSignatureAlgorithmOID != v.signatureAlgorithmOID {
            add("TBS signature", "\(v.tbsSignatureAlgorithmOID) (differs from the outer algorithm)")
        }
        guard let c = carrier else { return finish(lines, sha256: sha256, spkiSha256: spkiSha256) }

        func crit(_ oid: [UInt8]) -> String { c.extension(oid)?.critical == true ? "critical: " : "" }
        if let s = sans() {
            func mark(_ kind: String, _ value: String) -> String {
                guard let m = s.malformed.first(where: { $0.kind == kind && $0.value == value }) else { return value }
                return value + " [MALFORMED: \(m.reason), offset \(m.offset)]"
            }
            let all =
                s.dns.map { "DNS:" + mark("dns", $0) } + s.ip.map { "IP:" + $0 }
                + s.email.map { "email:" + mark("email", $0) }
                + s.uri.map { "URI:" + mark("uri", $0) } + s.other
                + s.malformed.filter { !["dns", "email", "uri"].contains($0.kind) }.map {
                    "\($0.kind):\($0.value) [MALFORMED: \($0.reason), offset \($0.offset)]"
                }
            add("Subject alt names", crit(OID.subjectAltName) + all.joined(separator: ", "))
        }
        if let ian = attempt("issuerAltName", { (c) throws(DERError) in try c.issuerAlternativeNames() }) {
            add("Issuer alt names", ian.map { $0.description }.joined(separator: ", "))
        }
        if let ku = attempt("keyUsage", { (c) throws(DERError) in try c.keyUsage() }) {
            add("Key usage", crit(OID.keyUsage) + ku.names.joined(separator: ", "))
        }
        if let eku = attempt("extKeyUsage", { (c) throws(DERError) in try c.extendedKeyUsage() }) {
            add(
                "Extended key usage", crit(OID.extKeyUsage) + eku.map(CertificateReport.oidName).joined(separator: ", ")
            )
        }
        if let bc = attempt("basicConstraints", { (c) throws(DERError) in try c.basicConstraints() }) {
            add(
                "Basic constraints",
                crit(OID.basicConstraints) + (bc.isCA ? "CA" : "not a CA")
                    + (bc.pathLength.map { ", path length \($0)" } ?? ""))
        }
        if let ski = attempt("subjectKeyIdentifier", { (c) throws(DERError) in try c.subjectKeyIdentifier() }) {
            add("Subject key ID", ski.hex)
        }
        if let aki = attempt("authorityKeyIdentifier", { (c) throws(DERError) in try c.authorityKeyIdentifier() }) {
            var parts: [String] = []
            if let k = aki.keyIdentifier { parts.append(k.hex) }
            if let i = aki.authorityCertIssuer {
                parts.append("issuer " + i.map { $0.description }.joined(separator: ", "))
            }
            if let s = aki.authorityCertSerialNumber { parts.append("serial " + s.hex) }
            add("Authority key ID", parts.joined(separator: "; "))
        }
        if let nc = attempt("nameConstraints", { (c) throws(DERError) in try c.nameConstraints() }) {
            if let p = nc.permitted { add("Permitted names", p.map { $0.description }.joined(separator: ", ")) }
            if let e = nc.excluded { add("Excluded names", e.map { $0.description }.joined(separator: ", ")) }
        }
        if let policies = attempt("certificatePolicies", { (c) throws(DERError) in try c.certificatePolicies() }) {
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
        if let m = attempt("policyMappings", { (c) throws(DERError) in try c.policyMappings() }) {
            add(
                "Policy mappings",
                m.map {
                    "\(OID.dotted($0.issuerDomainPolicy)) → \(OID.dotted($0.subjectDomainPolicy))"
                }.joined(separator: ", "))
        }
        if let pc = attempt("policyConstraints", { (c) throws(DERError) in try c.policyConstraints() }) {
            var parts: [String] = []
            if let r = pc.requireExplicitPolicy { parts.append("requireExplicitPolicy \(r)") }
            if let i = pc.inhibitPolicyMapping { parts.append("inhibitPolicyMapping \(i)") }
            add("Policy constraints", parts.joined(separator: ", "))
        }
        if let n = attempt("inhibitAnyPolicy", { (c) throws(DERError) in try c.inhibitAnyPolicy() }) {
            add("Inhibit anyPolicy", String(n))
        }
        if let aia = attempt("authorityInfoAccess", { (c) throws(DERError) in try c.authorityInformationAccess() }) {
            add(
                "Authority info access",
                aia.map { "\(CertificateReport.oidName($0.method)) \($0.location.description)" }.joined(separator: ", ")
            )
        }
        for (label, oid) in [("CRL distribution points", OID.cRLDistributionPoints), ("Freshest CRL", OID.freshestCRL)]
        {
            let dps = attempt(
                label,
                { (c) throws(DERError) in
                    oid == OID.freshestCRL ? try c.freshestCRL() : try c.crlDistributionPoints()
                })
            if let dps {
                var out: [String] = []
                for dp in dps {
                    if let full = dp.fullName { out.append(contentsOf: full.map { $0.description }) }
                    if dp.hasRelativeName { out.append("(name relative to CRL issuer)") }
                    if let issuer = dp.crlIssuer {
                        out.append("CRL issuer " + issuer.map { $0.description }.joined(separator: ", "))
                    }
                }
                add(label, out.joined(separator: ", "))
            }
        }
        if let scts = attempt(
            "signedCertificateTimestampList", { (c) throws(DERError) in try c.signedCertificateTimestamps() })
        {
            add("Embedded SCTs", String(scts.count))
        }
        let known: [[UInt8]] = [
            OID.subjectAltName, OID.issuerAltName, OID.keyUsage, OID.extKeyUsage, OID.basicConstraints,
            OID.subjectKeyIdentifier, OID.authorityKeyIdentifier, OID.nameConstraints,
            OID.certificatePolicies, OID.policyMappings, OID.policyConstraints, OID.inhibitAnyPolicy,
            OID.authorityInfoAccess, OID.cRLDistributionPoints, OID.freshestCRL,
            OID.signedCertificateTimestampList,
        ]
        let others = c.extensions.filter { e in !known.contains { e.oid == $0 } }
        if !others.isEmpty {
            add(
                "Other extensions",
                others.map {
                    ($0.name.map { n in "\(n) " } ?? "") + "(\(OID.dotted($0.oid)))" + ($0.critical ? " critical" : "")
                }.joined(separator: ", "))
        }
        return finish(lines, sha256: sha256, spkiSha256: spkiSha256)
    }

    var keyText: String {
        let key = keyDescription
        if let c = certificate {
            switch c.publicKeyAlgorithm {
            case .rsa, .rsaPSS:
                var keyText = "\(c.publicKeyAlgorithm.name) \(key.bits.map(String.init) ?? "?")"
                if let rsa = try? c.rsaPublicKey(), rsa.exponent.count <= 8 {
                    var e: UInt64 = 0
                    for b in rsa.exponent.bytes { e = e << 8 | UInt64(b) }
                    keyText += " (e=\(e))"
                }
                return keyText
            case .ec(let curve) where curve != .other: return c.publicKeyAlgorithm.name
            case .ed25519, .ed448: return c.publicKeyAlgorithm.name
            default: break
            }
        }
        let k = inspected.publicKey
        let bits = k.bits.map(String.init) ?? "?"
        switch k.algorithm {
        case "rsa", "rsa-pss":
            return (k.algorithm == "rsa" ? "RSA " : "RSA-PSS ") + bits + (k.rsaExponent.map { " (e=\($0))" } ?? "")
        case "ec":
            if k.explicitParameters {
                return "EC explicit parameters, \(bits)-bit field"
                    + (k.curve.map { " (exactly \($0))" } ?? " (not a named curve)")
            }
            return "EC " + (k.curve ?? "(no curve)") + (k.curve?.hasPrefix("P-") == true ? "" : " (\(bits) bits)")
        case "dsa": return "DSA " + bits
        case "ed25519": return "Ed25519"
        case "ed448": return "Ed448"
        default: return "unknown (\(k.algorithm))"
        }
    }

    /// Lays the report out: labels padded to one column, long values wrapped at their list
    /// separators with continuation lines aligned under the value column, then the warnings.
    func finish(_ input: [(String, String)], sha256: String?, spkiSha256: String?) -> String {
        var lines = input
        lines.append(("SHA-256", sha256 ?? "(unavailable)"))
        lines.append(("SPKI SHA-256", spkiSha256 ?? "(unavailable)"))
        if inspected.strictCertificate == nil {
            lines.append(
                ("Strict parser", "REFUSED: " + (inspected.strictError?.description ?? "?") + " (never trusted)"))
        }
        let width = lines.map { $0.0.count }.max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        var out: [String] = []
        for (k, v) in lines {
            let head = "  " + k + ":" + String(repeating: " ", count: width - k.count + 1)
            let pieces = CertificateReport.wrap(
                v, width: max(40, CertificateReport.lineWidth - head.count),
                names: k == "Subject" || k == "Issuer")
            out.append(head + pieces[0])
            for p in pieces.dropFirst() { out.append(indent + p) }
        }
        let w = inspected.warnings
        if !w.isEmpty {
            out.append("  Warnings (\(w.count)):")
            for x in w { out.append("    - [offset \(x.offset)] \(x.clause): \(x.message)") }
        }
        return out.joined(separator: "\n")
    }

    static let lineWidth = 100

    /// Splits `value` into lines of at most `width` characters where possible, breaking after
    /// ", " list separators — or, in an RFC 4514 name (`names`), after each unescaped "," —
    /// and never inside an item (an item longer than the width stays whole).
    static func wrap(_ value: String, width: Int, names: Bool = false) -> [String] {
        if value.count <= width { return [value] }
        let chars = Array(value)
        let listStyle = !names
        var parts: [String] = []
        var current: [Character] = []
        var i = 0
        while i < chars.count {
            current.append(chars[i])
            if chars[i] == "," {
                if listStyle, i + 1 < chars.count, chars[i + 1] == " " {
                    current.append(" ")
                    i += 1
                    parts.append(String(current))
                    current = []
                } else if !listStyle, i == 0 || chars[i - 1] != "\\" {
                    parts.append(String(current))
                    current = []
                }
            }
            i += 1
        }
        if !current.isEmpty { parts.append(String(current)) }
        var lines: [String] = []
        var line = ""
        for p in parts {
            if !line.isEmpty && line.count + p.count > width {
                while line.last == " " { line.removeLast() }
                lines.append(line)
                line = ""
            }
            line += p
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
