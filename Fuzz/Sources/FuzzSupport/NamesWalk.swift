// FuzzNames: host / IP / e-mail reference parsing and matching against fuzzed
// subjectAltName encodings, and name constraints with fuzzed constraint and SAN encodings.
//
// Input: flags byte, then length-prefixed chunks (FuzzChunks): host text, e-mail text,
// SAN extnValue, nameConstraints extnValue, and the rest is a subject Name (used when
// flags bit 3 is set). The certificate is built by DER surgery on the fixture template
// `nameconstraints-leaf.der`: its extensions are replaced by the fuzzed SAN (flags bit 1)
// and nameConstraints (bit 2, critical when bit 0) extensions, the subject by the fuzzed one.

import SigilDER
import SigilTrust
import SigilX509

public enum NamesWalk {
    /// The template TBSCertificate's top-level elements (full TLVs), and the outer pieces.
    struct Template {
        var tbsElements: [[UInt8]] = []
        var signatureAlgorithm: [UInt8] = []
        var signatureValue: [UInt8] = []
    }

    static let template: Template = {
        let c = FuzzFixtures.shared.named("nameconstraints-leaf.der")
        var t = Template()
        let tbs = c.tbsCertificate.array
        t.tbsElements = elements(tbs)
        let outer = elements(c.der)
        t.signatureAlgorithm = outer[1]
        t.signatureValue = outer[2]
        return t
    }()

    /// The full TLVs of the elements of the SEQUENCE `der`.
    static func elements(_ der: [UInt8]) -> [[UInt8]] {
        let ranges: [Range<Int>] =
            (try? der.withUnsafeBytes { (buf) throws(DERError) -> [Range<Int>] in
                var r = DERReader(buf)
                let v = try r.readAny()
                return try DERReader.enter(v) { (inner) throws(DERError) -> [Range<Int>] in
                    var out: [Range<Int>] = []
                    while !inner.isAtEnd {
                        let e = try inner.readAny()
                        out.append(e.start..<e.end)
                    }
                    return out
                }
            }) ?? []
        return ranges.map { Array(der[$0]) }
    }

    /// The signature algorithm a certificate with the AlgorithmIdentifier `der` (in both the
    /// TBS and the outer field of the template) parses to; nil if it does not parse.
    public static func signatureAlgorithm(fromDER der: [UInt8]) -> SignatureAlgorithm? {
        var elems = template.tbsElements
        guard elems.count > 2 else { return nil }
        elems[2] = der
        let tbs = DERBuild.tlv(0x30, elems.flatMap { $0 })
        return (try? Certificate(der: DERBuild.tlv(0x30, tbs + der + template.signatureValue)))?.signatureAlgorithm
    }

    /// Builds the certificate: template fields, the given extensions and subject.
    public static func build(san: [UInt8]?, nameConstraints: [UInt8]?, critical: Bool, subject: [UInt8]?) -> [UInt8] {
        var elems = template.tbsElements
        // version [0], serial, signature, issuer, validity, subject, spki, [3] extensions
        if let subject, elems.count > 5 { elems[5] = subject }
        if let last = elems.last, last.first == 0xA3 { elems.removeLast() }
        var exts: [UInt8] = []
        if let san { exts += DERBuild.extension(OID.subjectAltName, critical: false, value: san) }
        if let nameConstraints {
            exts += DERBuild.extension(OID.nameConstraints, critical: critical, value: nameConstraints)
        }
        if !exts.isEmpty { elems.append(DERBuild.tlv(0xA3, DERBuild.tlv(0x30, exts))) }
        let tbs = DERBuild.tlv(0x30, elems.flatMap { $0 })
        return DERBuild.tlv(0x30, tbs + template.signatureAlgorithm + template.signatureValue)
    }

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        let flags = input.byte()
        let hostBytes = input.next() ?? []
        let emailBytes = input.next() ?? []
        let sanValue = input.next() ?? []
        let ncValue = input.next() ?? []
        let subject = input.rest()
        let host = String(decoding: hostBytes, as: UTF8.self)
        let email = String(decoding: emailBytes, as: UTF8.self)

        // Reference parsing alone.
        let id = ServerIdentity(host)
        if let id {
            // The canonical text of an identity parses back to the same identity.
            let again = ServerIdentity(id.description)
            oracle(
                again == id,
                "ServerIdentity(\(host.debugDescription)).description \(id.description.debugDescription) re-parses to \(String(describing: again))"
            )
        }
        if let ip = IPAddress(host) {
            oracle(IPAddress(bytes: ip.bytes) == ip, "IPAddress(bytes:) of a parsed address differs")
            oracle(IPAddress(ip.description) == ip, "IPAddress text round trip differs for \(ip.description)")
        }
        if let ip = IPAddress(bytes: hostBytes) { _ = IPAddress(ip.description) }
        _ = DNSName(host)

        let der = build(
            san: flags & 2 != 0 ? sanValue : nil,
            nameConstraints: flags & 4 != 0 ? ncValue : nil,
            critical: flags & 1 != 0,
            subject: flags & 8 != 0 ? subject : nil)
        guard let cert = try? Certificate(der: der) else { return }

        // nil: malformed SAN extension; []: none.
        let sans: [GeneralName]?
        do { sans = try cert.subjectAlternativeNames().map { Array($0) } ?? [] } catch { sans = nil }

        if let id {
            let first = try? cert.matches(id)
            let second = try? cert.matches(id)
            oracle(first == second, "matches is not deterministic")
            if first == true {
                guard let sans else {
                    oracle(false, "matches on a malformed SAN")
                    return
                }
                switch id {
                case .dns:
                    // A DNS reference only ever matches a dNSName entry.
                    oracle(
                        sans.contains {
                            if case .dnsName = $0 { return true }
                            return false
                        },
                        "DNS reference \(id) matches a certificate without a dNSName SAN")
                case .ip(let ref):
                    oracle(
                        sans.contains {
                            if case .ipAddress(let b) = $0 { return b == ref.bytes }
                            return false
                        },
                        "IP reference \(id) matches a certificate without that iPAddress SAN")
                }
            }
            if first == false, let sans {
                switch id {
                case .dns(let ref):
                    // A presented dNSName equal (ASCII case-insensitively) to a plain LDH
                    // reference matches it.
                    let plain = ref.bytes.allSatisfy {
                        ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E
                    }
                    if plain {
                        for case .dnsName(let p) in sans
                        where p.bytes.lazy.map(lower).elementsEqual(ref.bytes.lazy.map(lower)) {
                            oracle(false, "dNSName \(p.latin1String) does not match the equal reference \(ref)")
                        }
                    }
                case .ip(let ref):
                    for case .ipAddress(let b) in sans where b == ref.bytes {
                        oracle(false, "iPAddress SAN equal to the reference \(id) does not match")
                    }
                }
            }
        }

        let e1 = try? cert.matchesEmail(email)
        let e2 = try? cert.matchesEmail(email)
        oracle(e1 == e2, "matchesEmail is not deterministic")
        if e1 == true {
            let want = Array(email.utf8).map(lower)
            oracle(
                sans?.contains {
                    if case .rfc822Name(let b) = $0 { return b.bytes.map(lower) == want }
                    return false
                } == true,
                "matchesEmail(\(email.debugDescription)) without an equal rfc822Name SAN")
        }
        _ = try? cert.commonNameIsConsistentWithSubjectAltName()

        // Name constraints of the fuzzed extension against the same certificate's names.
        guard let nc = try? cert.nameConstraints() else { return }
        let full = NameConstraints.check(nc, for: cert)
        let again = NameConstraints.check(nc, for: cert)
        oracle(full == again, "checkNameConstraints is not deterministic")
        let small = NameConstraints.check(nc, for: cert, budget: 8)
        if small == .satisfied {
            oracle(full == .satisfied, "satisfied within 8 comparisons but not with the full budget: \(full)")
        }
        if case .unsupported = small {
        } else {
            // A result reached within a small budget is the same with the full one.
            oracle(small == full, "budget 8 gives \(small), full budget gives \(full)")
        }
        if nc.permitted == nil && nc.excluded == nil {
            oracle(full == .satisfied, "empty nameConstraints not satisfied: \(full)")
        }
        _ = NameConstraints.check(path: [cert, cert])
    }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
