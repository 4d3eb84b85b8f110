// Sigil's verdict against OpenSSL's X509_verify_cert on the same generated chain.
//
// Both sides: server purpose, the same host, 2030-01-01T00:00:00Z, the same anchors (any
// anchor is a trust anchor: Sigil by design, OpenSSL with X509_V_FLAG_PARTIAL_CHAIN), the same
// presented certificates (those a side cannot parse are dropped; a leaf that does not parse is
// refused). OpenSSL runs with X509_V_FLAG_X509_STRICT and auth level 2, and a verify callback
// that records every error instead of stopping at the first.
//
// A disagreement where Sigil trusts and OpenSSL refuses is a finding unless every OpenSSL
// error is explained by a row of `DiffVerify.documented` (Fuzz/README.md), whose predicate is
// re-checked on the chain. Sigil refusing what OpenSSL trusts is not a false trust; those
// classes are counted (diffbatch) and documented too, but never trap.

import COpenSSLDiff
import FuzzSupport
import Sigil
import SigilTrust
import SigilX509

public struct DiffOutcome {
    public var sigilTrusted = false
    public var sigilReason = ""
    public var openSSLTrusted = false
    public var openSSLErrors: [Int32] = []
    public var notes: [String] = []
    public var ders: [[UInt8]] = []
    public var presented: [[UInt8]] = []
    public var anchors: [[UInt8]] = []
    public var host: String?
    public var sigilPath: [Certificate] = []
    /// Rows of `documented` that explain an S+/O- disagreement (empty otherwise).
    public var explainedBy: [String] = []
    public var isFinding = false

    public var agree: Bool { sigilTrusted == openSSLTrusted }

    public var classKey: String {
        switch (sigilTrusted, openSSLTrusted) {
        case (true, true): return "agree: both trust"
        case (false, false): return "agree: both refuse"
        case (true, false):
            let names = Set(openSSLErrors.map { DiffVerify.errorName($0) }).sorted()
            return "Sigil trusts, OpenSSL refuses: " + names.joined(separator: ", ")
        case (false, true): return "Sigil refuses (\(sigilReason)), OpenSSL trusts"
        }
    }
}

public enum DiffVerify {
    public static let time = DiffChain.time

    /// What a row's predicate sees: Sigil's trusted path, the host, and the certificates
    /// OpenSSL could not decode.
    struct Context {
        let path: [Certificate]
        let host: String?
        let undecodable: [[UInt8]]
    }

    /// Pseudo error: a certificate of Sigil's trusted path does not decode in OpenSSL.
    static let undecodableOnPath: Int32 = -2

    /// A documented reason for OpenSSL (strict) to refuse a chain Sigil trusts.
    struct Row: Sendable {
        let id: String
        let error: Int32
        /// Re-checks the documented condition on the chain Sigil trusted (path leaf first).
        let holds: @Sendable (Context) -> Bool
    }

    static func ext(_ c: Certificate, _ oid: [UInt8]) -> Extension? { c.extension(oid) }

    /// Documented OpenSSL-only refusals (Fuzz/README.md, "Differential verification").
    /// Each row names the clause Sigil follows; `holds` re-checks the condition on Sigil's path.
    static let documented: [Row] = [
        // RFC 5280 §4.1.2.5: "the period of time from notBefore through notAfter, inclusive".
        // OpenSSL's X509_cmp_time counts notAfter == now as expired.
        Row(id: "D1 notAfter inclusive", error: 10 /* X509_V_ERR_CERT_HAS_EXPIRED */) { c in
            c.path.contains { $0.notAfter == DiffChain.time }
        },
        // RFC 5280 §4.2.1.1 / §6.1: the AKI identifies, it is not a validation input; Sigil
        // tries a mismatching candidate after the matching ones and accepts it when its
        // signature verifies (limbo pathbuilding; RFC 4158 §3.5.12). OpenSSL's check_issued
        // (X509_check_akid) refuses the candidate: no issuer found.
        Row(id: "D2 AKI is a hint", error: 20 /* UNABLE_TO_GET_ISSUER_CERT_LOCALLY */, holds: akiMismatch),
        Row(id: "D2 AKI is a hint", error: 2 /* UNABLE_TO_GET_ISSUER_CERT */, holds: akiMismatch),
        Row(id: "D2 AKI is a hint", error: 30 /* SUBJECT_ISSUER_MISMATCH */, holds: akiMismatch),
        Row(id: "D2 AKI is a hint", error: 31 /* AKID_SKID_MISMATCH */, holds: akiMismatch),
        Row(id: "D2 AKI is a hint", error: 32 /* AKID_ISSUER_SERIAL_MISMATCH */, holds: akiMismatch),
        // RFC 5280 §4.2.1.9: "CAs MUST NOT include the pathLenConstraint field unless the cA
        // boolean is asserted and the key usage extension asserts the keyCertSign bit" — an
        // issuance rule; §6.1.4 (m) only reads pathLen in CA certificates. OpenSSL's strict
        // mode enforces it on every certificate; Sigil ignores pathLen where it has no meaning.
        Row(id: "D3 pathLen outside a CA", error: 80 /* PATHLEN_INVALID_FOR_NON_CA */, holds: pathLenOutsideCA),
        Row(id: "D3 pathLen outside a CA", error: 81 /* PATHLEN_WITHOUT_KU_KEY_CERT_SIGN */, holds: pathLenOutsideCA),
        // RFC 5280 §6.1.4 (n): "If a key usage extension is present, verify that the
        // keyCertSign bit is set" — an absent keyUsage does not restrict a CA. §4.2.1.3 ("MUST
        // include") binds issuing CAs; OpenSSL's strict mode enforces it on the verifier side,
        // also on a leaf whose basicConstraints say cA (limbo rfc5280::ca-as-leaf: success).
        Row(id: "D4 CA without keyUsage", error: 92 /* CA_CERT_MISSING_KEY_USAGE */) { c in
            c.path.enumerated().contains { i, cert in
                ((try? cert.keyUsage()) ?? nil) == nil
                    && (i > 0 || ((try? cert.basicConstraints()) ?? nil)?.isCA == true)
            }
        },
        // A reference identifier with one trailing dot is the same absolute DNS name (RFC 1034
        // §3.1; Sigil's DNSName strips it, as browsers do); X509_check_host compares it as text.
        Row(id: "D5 absolute host name", error: 62 /* HOSTNAME_MISMATCH */) { c in c.host?.hasSuffix(".") == true },
        // RFC 5280 §4.1.2.4: AttributeTypeAndValue ::= SEQUENCE { type, value ANY DEFINED BY
        // type }. Sigil takes any strict-DER value for an attribute type it does not know as a
        // string one (compared as bytes, printed as "#hex", RFC 4514 §2.4), and any of the
        // string types it decodes — VisibleString included — for the string-syntax types
        // (`AttributeSyntax`: CN, O, C, …; issue 21: a non-string value for them is refused).
        // OpenSSL's d2i_X509 refuses a value outside its string CHOICE (`stringTags`), so the
        // whole certificate is dropped. Only when every such certificate has such a value.
        Row(id: "D6 non-string attribute value", error: undecodableOnPath) { c in
            c.undecodable.allSatisfy { der in
                guard let cert = c.path.first(where: { $0.der == der }) else { return true }
                return hasNonStringValue(cert.subject) || hasNonStringValue(cert.issuer)
            }
        },
        // Every OpenSSL error reported while a certificate of the path was undecodable is a
        // consequence (the chain is built without it): accepted only together with D6.
        // A CA certificate in the leaf position whose keyUsage allows no TLS use (keyCertSign
        // only): RFC 5280 has no rule against it and limbo rfc5280::ca-as-leaf /
        // pathlen::validation-ignores-pathlen-in-leaf expect success; Sigil's TLS keyUsage rule
        // (RFC 8446 §4.4.2.2) applies to non-CA leaves. OpenSSL's SSL-server purpose refuses.
        Row(id: "D7 CA as leaf, keyUsage", error: 26 /* INVALID_PURPOSE */) { c in
            guard let leaf = c.path.first, ((try? leaf.basicConstraints()) ?? nil)?.isCA == true,
                let ku = (try? leaf.keyUsage()) ?? nil
            else { return false }
            return ku.isDisjoint(with: [.digitalSignature, .keyEncipherment, .keyAgreement])
        },
        Row(id: "D6 non-string attribute value", error: 20 /* UNABLE_TO_GET_ISSUER_CERT_LOCALLY */) { c in
            !c.undecodable.isEmpty
        },
        Row(id: "D6 non-string attribute value", error: 2 /* UNABLE_TO_GET_ISSUER_CERT */) { c in !c.undecodable.isEmpty
        },
    ]

    /// The value tags OpenSSL's X509_NAME decoder takes (its `B_ASN1_PRINTABLE` CHOICE: UTF8String,
    /// NumericString, PrintableString, T61String, IA5String, UniversalString, BMPString, BIT STRING,
    /// SEQUENCE). Sigil also takes a VisibleString for any attribute, and any strict-DER value
    /// (VideotexString, GeneralString, INTEGER, …) for an attribute type without a string
    /// syntax; a certificate carrying one of them is dropped by OpenSSL only (found by the CI
    /// fuzz run: a root whose issuer CN became a VideotexString — which Sigil now refuses too,
    /// CN being a DirectoryString).
    static let stringTags: Set<UInt8> = [0x03, 0x0C, 0x12, 0x13, 0x14, 0x16, 0x1C, 0x1E, 0x30]

    /// Whether the (strictly parsed) name has a value OpenSSL refuses that Sigil accepts by its
    /// rules: outside `stringTags`, and either of a string type Sigil decodes (VisibleString) or
    /// of an attribute type with no string syntax. A non-string value of a string-syntax type
    /// (the issue 21 finding, O= as [PRIVATE 16]) is not documented: Sigil must refuse it.
    static func hasNonStringValue(_ name: DistinguishedName) -> Bool {
        for rdn in name {
            for atv in rdn where !stringTags.contains(atv.valueTag.rawValue) {
                if DERString.isStringTag(atv.valueTag) { return true }
                if atv.type.withUnsafeBytes({ AttributeSyntax(type: $0) }) == nil { return true }
            }
        }
        return false
    }

    static func akiMismatch(_ c: Context) -> Bool {
        let path = c.path
        for i in path.indices.dropLast() {
            let child = path[i]
            let issuer = path[i + 1]
            guard let aki = (try? child.authorityKeyIdentifier()) ?? nil else { continue }
            let ski = (try? issuer.subjectKeyIdentifier()) ?? nil
            if let kid = aki.keyIdentifier, let ski, kid != ski { return true }
            if let serial = aki.authorityCertSerialNumber, serial.bytes != issuer.serialNumber.bytes { return true }
            if aki.authorityCertIssuer != nil { return true }  // OpenSSL compares it with the issuer's issuer
        }
        return false
    }

    static func pathLenOutsideCA(_ ctx: Context) -> Bool {
        ctx.path.contains { c in
            guard let bc = (try? c.basicConstraints()) ?? nil, bc.pathLength != nil else { return false }
            let ku = (try? c.keyUsage()) ?? nil
            return !bc.isCA || ku == nil || !ku!.contains(.keyCertSign)
        }
    }

    public static func errorName(_ e: Int32) -> String {
        if e == -1 { return "leaf does not parse (d2i_X509)" }
        if e == undecodableOnPath { return "a certificate of Sigil's path does not decode in OpenSSL" }
        return "\(e) " + String(cString: sigil_diff_error_string(e))
    }

    /// Builds the chain from the bytes, verifies both ways, classifies.
    public static func evaluate(_ b: inout DiffBytes) -> DiffOutcome {
        var chain = DiffChain.baseline()
        chain.applyMutations(&b)
        return evaluate(chain)
    }

    static func evaluate(_ chain: DiffChain) -> DiffOutcome {
        var out = DiffOutcome()
        precondition(DiffKeys.shared.ok, "DiffKeys: fixture keys not found (set SIGIL_ROOT)")
        let ders = chain.build()
        out.ders = ders
        out.notes = chain.notes
        out.host = chain.host
        let leafDER = ders[chain.leafIndex]
        let presented = chain.presented.map { $0 >= 0 ? ders[$0] : chain.extras[-$0 - 1] }
        let anchors = chain.anchors.map { ders[$0] } + chain.extraAnchors
        out.presented = presented
        out.anchors = anchors

        // Sigil.
        var store = TrustStore()
        for a in anchors { if let c = try? Certificate(der: a) { store.add(c) } }
        if let leaf = try? Certificate(der: leafDER) {
            let intermediates = presented.compactMap { try? Certificate(der: $0) }
            let options = VerificationOptions(kind: .server, time: Double(time), host: chain.host)
            let result = ChainVerifier(anchors: store).verify(
                leaf: leaf, intermediates: intermediates, options: options)
            switch result {
            case .trusted(let path, _, _):
                out.sigilTrusted = true
                out.explainedBy = []
                out.sigilPath = path
            case .untrusted(let failures):
                out.sigilReason = failures.first?.kind.name ?? "?"
            }
        } else {
            out.sigilReason = "leaf does not parse"
        }

        // OpenSSL.
        let all = [leafDER] + presented
        var r = sigil_diff_result()
        withPointers(all) { certs, lens in
            withPointers(anchors) { an, alens in
                let isIP = chain.host.map { $0.contains(":") || $0.allSatisfy { "0123456789.".contains($0) } } ?? false
                _ = sigil_diff_verify(
                    certs, lens, Int32(all.count), an, alens, Int32(anchors.count),
                    chain.host, isIP ? 1 : 0, time, 1, &r)
            }
        }
        out.openSSLTrusted = r.trusted != 0
        if r.parsed == 0 {
            out.openSSLErrors = [-1]
        } else {
            out.openSSLErrors = withUnsafeBytes(of: r.errors) { raw in
                Array(raw.bindMemory(to: Int32.self).prefix(Int(r.count)))
            }
        }

        var undecodable: [[UInt8]] = []
        for (i, d) in presented.enumerated() where i + 1 < 32 && r.undecodable_untrusted & (1 << UInt32(i + 1)) != 0 {
            undecodable.append(d)
        }
        for (j, d) in anchors.enumerated() where j < 32 && r.undecodable_anchors & (1 << UInt32(j)) != 0 {
            undecodable.append(d)
        }
        if out.sigilTrusted && out.sigilPath.contains(where: { undecodable.contains($0.der) }) {
            out.openSSLErrors.append(undecodableOnPath)
        }
        if out.sigilTrusted && !out.openSSLTrusted {
            var explained: [String] = []
            var all = true
            let context = Context(
                path: out.sigilPath, host: out.host,
                undecodable: undecodable.filter { d in out.sigilPath.contains { $0.der == d } })
            for e in Set(out.openSSLErrors) {
                if let row = documented.first(where: { $0.error == e && $0.holds(context) }) {
                    explained.append(row.id)
                } else {
                    all = false
                }
            }
            out.explainedBy = explained.sorted()
            out.isFinding = !all
        }
        return out
    }

    static func withPointers(
        _ items: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>) -> Void
    ) {
        // Copy into one contiguous allocation so every pointer stays valid during the call.
        let total = items.reduce(0) { $0 + $1.count }
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(total, 1))
        defer { storage.deallocate() }
        var ptrs: [UnsafePointer<UInt8>?] = []
        var lens: [Int] = []
        var off = 0
        for it in items {
            it.withUnsafeBufferPointer { src in
                if let base = src.baseAddress { (storage + off).update(from: base, count: src.count) }
            }
            ptrs.append(UnsafePointer(storage + off))
            lens.append(it.count)
            off += it.count
        }
        if ptrs.isEmpty {
            ptrs.append(nil)
            lens.append(0)
        }
        ptrs.withUnsafeBufferPointer { p in lens.withUnsafeBufferPointer { l in body(p.baseAddress!, l.baseAddress!) } }
    }

    /// The libFuzzer entry: traps on a finding.
    public static func fuzz(_ data: UnsafeRawBufferPointer) {
        var b = DiffBytes(Array(data))
        let o = evaluate(&b)
        if o.isFinding {
            fatalError(
                "ORACLE: Sigil trusts a chain OpenSSL refuses for an undocumented reason: \(o.classKey); mutations: \(o.notes.joined(separator: "; "))"
            )
        }
    }
}
