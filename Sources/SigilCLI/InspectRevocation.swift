import Sigil
import SigilDER
import SigilX509

/// `sigil inspect` of CRLs (RFC 5280 §5) and OCSP responses (RFC 6960 §4.2.1): the fields as the
/// strict parsers read them. A CRL or response those parsers refuse is reported as an error
/// (nothing here feeds revocation checking, which reads the files itself).
enum RevocationReport {
    static func time(_ t: Int64?) -> String { t.map(DERTime.rfc3339) ?? "-" }

    // MARK: CRL

    static func json(_ crl: CertificateList) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("type", .string("crl")), ("version", .int(Int64(crl.version))),
            ("issuer", .string(crl.issuer.rfc4514String)),
            ("thisUpdate", .string(time(crl.thisUpdate))),
            ("nextUpdate", crl.nextUpdate.map { .string(time($0)) } ?? .null),
            ("signatureAlgorithm", .string(crl.signatureAlgorithm.name)),
        ]
        o.append(("crlNumber", crl.facts.crlNumber.map { .string("0x" + $0.hex) } ?? .null))
        o.append(("deltaBaseCRLNumber", crl.facts.deltaBaseCRLNumber.map { .string("0x" + $0.hex) } ?? .null))
        o.append(("authorityKeyIdentifier", crl.facts.authorityKeyIdentifier.map { .string($0.hex) } ?? .null))
        o.append(("issuingDistributionPoint", .bool(crl.facts.issuingDistributionPoint != nil)))
        o.append(("revokedCount", .int(Int64(crl.revokedCount))))
        o.append(
            (
                "revoked",
                .array(
                    crl.revokedCertificates.map { e in
                        .object([
                            ("serial", .string(e.serialNumber.hex)),
                            ("revocationDate", .string(time(e.revocationDate))),
                            ("reason", e.reason.map { .string($0.name) } ?? .null),
                            ("invalidityDate", e.invalidityDate.map { .string(time($0)) } ?? .null),
                        ])
                    })
            ))
        if let u = crl.facts.unsupportedCriticalExtension {
            o.append(
                (
                    "warnings",
                    .array([
                        .string("unsupported critical CRL extension \(u): the CRL is unusable for revocation checking")
                    ])
                ))
        }
        return .object(o)
    }

    static func text(_ crl: CertificateList) -> String {
        var lines: [String] = []
        func row(_ k: String, _ v: String) {
            lines.append("  " + k.padding(toLength: 22, withPad: " ", startingAt: 0) + v)
        }
        row("Version", "v\(crl.version)")
        row("Issuer", crl.issuer.rfc4514String)
        row("This update", time(crl.thisUpdate))
        row("Next update", time(crl.nextUpdate))
        row("Signature algorithm", crl.signatureAlgorithm.name)
        if let n = crl.facts.crlNumber { row("CRL number", "0x" + n.hex) }
        if let d = crl.facts.deltaBaseCRLNumber { row("Delta of CRL number", "0x" + d.hex) }
        if let a = crl.facts.authorityKeyIdentifier { row("Authority key ID", a.hex) }
        if crl.facts.issuingDistributionPoint != nil { row("Issuing dist. point", "present") }
        if let u = crl.facts.unsupportedCriticalExtension {
            row("Warning", "unsupported critical extension \(u) (unusable)")
        }
        row("Revoked", "\(crl.revokedCount)")
        for e in crl.revokedCertificates {
            var s = "    serial \(e.serialNumber.hex)  \(time(e.revocationDate))"
            if let r = e.reason { s += "  \(r.name)" }
            if let i = e.invalidityDate { s += "  invalid since \(time(i))" }
            lines.append(s)
        }
        return lines.joined(separator: "\n")
    }

    // MARK: OCSP

    static func statusName(_ s: OCSPCertStatus) -> String {
        switch s {
        case .good: return "good"
        case .revoked: return "revoked"
        case .unknown: return "unknown"
        }
    }

    static func single(_ r: SingleResponse) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("serial", .string(r.certID.serialNumber.hex)),
            ("hashAlgorithm", .string(r.certID.hashAlgorithm.name)),
            ("issuerNameHash", .string(r.certID.issuerNameHash.hex)),
            ("issuerKeyHash", .string(r.certID.issuerKeyHash.hex)),
            ("status", .string(statusName(r.status))),
            ("thisUpdate", .string(time(r.thisUpdate))),
            ("nextUpdate", r.nextUpdate.map { .string(time($0)) } ?? .null),
        ]
        if case .revoked(let t, let reason) = r.status {
            o.append(("revocationTime", .string(time(t))))
            o.append(("reason", reason.map { .string($0.name) } ?? .null))
        }
        return .object(o)
    }

    static func json(_ r: OCSPResponse) -> JSONValue {
        var o: [(String, JSONValue)] = [("type", .string("ocsp")), ("responseStatus", .string("\(r.status)"))]
        if let b = r.basic {
            switch b.responderID {
            case .byName(let n): o.append(("responderName", .string(n.rfc4514String)))
            case .byKey(let k): o.append(("responderKeyHash", .string(k.hex)))
            }
            o.append(("producedAt", .string(time(b.producedAt))))
            o.append(("signatureAlgorithm", .string(b.signatureAlgorithm.name)))
            o.append(("certificates", .array(b.certificates.map { .string($0.subject.rfc4514String) })))
            o.append(("responses", .array(b.responses.map(single))))
        }
        return .object(o)
    }

    static func text(_ r: OCSPResponse) -> String {
        var lines: [String] = []
        func row(_ k: String, _ v: String) {
            lines.append("  " + k.padding(toLength: 22, withPad: " ", startingAt: 0) + v)
        }
        row("Response status", "\(r.status)")
        if let b = r.basic {
            switch b.responderID {
            case .byName(let n): row("Responder (name)", n.rfc4514String)
            case .byKey(let k): row("Responder (key hash)", k.hex)
            }
            row("Produced at", time(b.producedAt))
            row("Signature algorithm", b.signatureAlgorithm.name)
            for c in b.certificates { row("Certificate", c.subject.rfc4514String) }
            for s in b.responses {
                row("Serial", s.certID.serialNumber.hex)
                row("  Status", statusName(s.status))
                if case .revoked(let t, let reason) = s.status {
                    row("  Revoked at", time(t) + (reason.map { " (\($0.name))" } ?? ""))
                }
                row("  This update", time(s.thisUpdate))
                row("  Next update", time(s.nextUpdate))
                row("  CertID hash", s.certID.hashAlgorithm.name)
            }
        }
        return lines.joined(separator: "\n")
    }
}
