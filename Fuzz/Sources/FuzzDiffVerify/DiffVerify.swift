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
@_spi(SigilInternal) import Sigil
@_spi(SigilInternal) import SigilTrust
import SigilX509

public struct DiffOutcome {
    public var sigilTrusted = false
    public var sigilReason = ""
    public var openSSLTrusted = false
    public var openSSLErrors: [Int32] = []
    /// Depth (0 = leaf) of each recorded OpenSSL error, parallel to `openSSLErrors`.
    public var openSSLDepths: [Int32] = []
    /// Go's crypto/x509 (Fuzz/oracle-go), when the helper is available.
    public var go: GoVerdict?
    public var notes: [String] = []
    public var ders: [[UInt8]] = []
    public var presented: [[UInt8]] = []
    public var anchors: [[UInt8]] = []
    public var host: String?
    public var sigilPath: [Certificate] = []
    /// Rows of `documented` that explain an S+/O- disagreement (empty otherwise).
    public var explainedBy: [String] = []
    public var isFinding = false
    /// Go refused what Sigil trusts and no Go row explains it (part of `isFinding`).
    public var goUnexplained = false
    /// Class (a): Sigil trusts a certificate its parser should refuse (a regression: a finding).
    public var knownSigilBug = false

    public var agree: Bool { sigilTrusted == openSSLTrusted && (go.map { $0.trusted == sigilTrusted } ?? true) }

    /// Go's column: "trusted", "refused (Kind)", or "—" without the helper.
    public var goColumn: String {
        guard let go else { return "—" }
        return go.trusted ? "trusted" : "refused (\(go.kind))"
    }

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
        /// OpenSSL's errors with their depths (0 = leaf).
        var errors: [(error: Int32, depth: Int32)] = []
        /// Certificates Go could not parse (dropped from its pools).
        var goDropped: [[UInt8]] = []
        /// Those of them Go dropped because it could not parse a subjectAltName URI (its
        /// ParseCertificate error, as oracle-go reports it: `dropped=r0:uri`).
        var goDroppedForURI: [[UInt8]] = []
        /// OpenSSL's chain (0 = leaf) as the input certificates it used (nil: not an input).
        var openSSLChain: [[UInt8]?] = []

        /// Whether every certificate at which OpenSSL reported `error` is one of its chain's
        /// that is not on Sigil's path.
        func onlyOffPath(_ error: Int32) -> Bool {
            let ds = depths(error)
            return !ds.isEmpty
                && ds.allSatisfy { d in
                    guard d >= 0, Int(d) < openSSLChain.count, let der = openSSLChain[Int(d)] else { return false }
                    return !path.contains { $0.der == der }
                }
        }

        /// Whether at every depth d where OpenSSL reported `error` (a signature failure of
        /// chain[d]) the issuer OpenSSL chose, chain[d + 1], is not on Sigil's path.
        func onlyIssuerOffPath(_ error: Int32) -> Bool {
            let ds = depths(error)
            return !ds.isEmpty
                && ds.allSatisfy { d in
                    let k = Int(d) + 1
                    guard d >= 0, k < openSSLChain.count, let der = openSSLChain[k] else { return false }
                    return !path.contains { $0.der == der }
                }
        }

        /// The depths at which OpenSSL reported `error`.
        func depths(_ error: Int32) -> [Int32] { errors.filter { $0.error == error }.map(\.depth) }
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
        // RFC 5280 §4.2.1.9: "Conforming CAs MUST mark this extension as critical in all CA
        // certificates that contain public keys used to validate digital signatures on
        // certificates" — an issuance rule for issuing CAs, enforced by Sigil on every issuer of
        // the path (profile violation); the leaf's key validates no certificate of the path,
        // and §6.1 reads basicConstraints only in step (k), for intermediates. Limbo
        // rfc5280::ca-as-leaf (a CA certificate as end entity: success). OpenSSL strict refuses
        // a non-critical cA basicConstraints anywhere (error 89); Go does not check criticality.
        // Only at depth 0 and only when the leaf is such a CA certificate.
        Row(id: "D8 CA leaf, basicConstraints not critical", error: 89 /* CA_BCONS_NOT_CRITICAL */) { c in
            guard c.depths(89).allSatisfy({ $0 == 0 }), let leaf = c.path.first,
                let e = leaf.extension(OID.basicConstraints), !e.critical
            else { return false }
            return ((try? leaf.basicConstraints()) ?? nil)?.isCA == true
        },
        // RFC 5280 §4.2.1.2: the subjectKeyIdentifier "MUST appear in all conforming CA
        // certificates, that is, all certificates including the basic constraints extension
        // where the value of cA is TRUE" — an issuance rule whose purpose is path building (the
        // SKI is matched against the AKI of the certificates the CA issues). Sigil requires it on
        // every issuer of the path (profile violation); in the leaf position nothing is issued
        // by the key and §6.1 never reads the SKI. Limbo rfc5280::ca-as-leaf (a CA certificate as
        // end entity: success). OpenSSL strict refuses a cA certificate without SKI anywhere
        // (86); Go trusts. Only at depth 0, only when the leaf is such a certificate.
        Row(id: "D11 CA leaf without SKI", error: 86 /* MISSING_SUBJECT_KEY_IDENTIFIER */) { c in
            guard c.depths(86).allSatisfy({ $0 == 0 }), let leaf = c.path.first,
                leaf.extension(OID.subjectKeyIdentifier) == nil
            else { return false }
            return ((try? leaf.basicConstraints()) ?? nil)?.isCA == true
        },
        // RFC 5280 §3.2 / §6.1: a *self-signed* certificate is a self-issued one "where the
        // digital signature may be verified by the public key bound into the certificate".
        // OpenSSL flags a certificate self-signed (EXFLAG_SS) when its subject equals its issuer
        // and its own AKI does not contradict its own SKI — without the signature — and then
        // stops building: 18 at the leaf, 19 above it. Sigil's path has the certificate signed
        // by another key (its issuer on the path), so it is self-issued, not self-signed, and is
        // validated as any other (limbo rfc5280::nc::excluded-self-issued-leaf and
        // pathlen::self-issued-certs-pathlen validate self-issued certificates as path members).
        // Go builds the path as Sigil does. Sigil requires the AKI keyIdentifier of such a
        // certificate (not self-signed: §4.2.1.1), so what remains is a missing SKI or an SKI equal
        // to the AKI keyIdentifier.
        Row(id: "D9 self-issued taken for self-signed", error: 18 /* DEPTH_ZERO_SELF_SIGNED_CERT */) { c in
            c.depths(18).allSatisfy { $0 == 0 } && selfIssuedNotSelfSigned(c.path, at: 0)
        },
        Row(id: "D9 self-issued taken for self-signed", error: 19 /* SELF_SIGNED_CERT_IN_CHAIN */) { c in
            c.path.indices.dropFirst().contains { selfIssuedNotSelfSigned(c.path, at: $0) }
        },
        // RFC 5280 §6.1 validates *a* path; RFC 4158 (§2.4, §3): a path builder that meets a
        // certificate it cannot use tries another. OpenSSL builds one chain and reports the
        // errors met on it without backtracking: here an unhandled critical extension (34) on
        // a certificate of OpenSSL's chain that is not on Sigil's path (e.g. an intermediate
        // with a critical AKI, which Sigil refuses — RFC 5280 §4.2.1.1 — going to an anchor
        // with the same name and key instead). Only when every certificate OpenSSL reported
        // 34 at is off Sigil's path (OpenSSL's chain mapped back to the inputs). Go trusts.
        Row(id: "D10 error off Sigil's path", error: 34 /* UNHANDLED_CRITICAL_EXTENSION */) { c in
            c.onlyOffPath(34)
        },
        // The same for a CA without SKI (86, strict) that OpenSSL took as an issuer (an anchor
        // with the issuer's name) and the signature failure (7) that follows from that choice:
        // OpenSSL checks the child's signature with the key of a certificate Sigil's path does
        // not use, and does not try the other candidate.
        Row(id: "D10 error off Sigil's path", error: 86 /* MISSING_SUBJECT_KEY_IDENTIFIER */) { c in
            c.onlyOffPath(86)
        },
        // And a CA with a non-critical basicConstraints on OpenSSL's chain but not on Sigil's
        // (Sigil refuses it as an issuer, RFC 5280 §4.2.1.9, and goes to an anchor with the same
        // name and key); at depth 0 it is row D8.
        Row(id: "D10 error off Sigil's path", error: 89 /* CA_BCONS_NOT_CRITICAL */) { c in
            c.onlyOffPath(89)
        },
        Row(id: "D10 error off Sigil's path", error: 7 /* CERT_SIGNATURE_FAILURE */) { c in
            c.onlyIssuerOffPath(7)
        },
        // And a presented "intermediate" without basicConstraints (strict: 79 invalid CA, 82
        // keyCertSign in a non-CA certificate, RFC 5280 §4.2.1.3) that OpenSSL took as the
        // leaf's issuer while an anchor with the same name and key issues the leaf directly
        // (the final campaign's chunk 2; Go trusts; Sigil never uses a non-CA as an issuer).
        Row(id: "D10 error off Sigil's path", error: 79 /* INVALID_CA (strict) */) { c in
            c.onlyOffPath(79)
        },
        Row(id: "D10 error off Sigil's path", error: 82 /* KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA */) { c in
            c.onlyOffPath(82)
        },
        // And a presented "intermediate" re-encoded as version 1 with extensions (strict: 93
        // extensions require v3, RFC 5280 §4.1.2.1) beside an anchor with its name and key that
        // issues the leaf directly (the final campaign's chunk 3; Go trusts). Sigil's parser
        // refuses the explicit DEFAULT version (X.690 §11.5) and never uses that certificate.
        Row(id: "D10 error off Sigil's path", error: 93 /* EXTENSIONS_REQUIRE_VERSION_3 */) { c in
            c.onlyOffPath(93)
        },
        // And 26 (unsuitable purpose) on an anchor without extensions that OpenSSL took as the
        // leaf's issuer by name while Sigil's path goes through another certificate of that name
        // (the final 10-minute chunk; Go trusts).
        Row(id: "D10 error off Sigil's path", error: 26 /* INVALID_PURPOSE */) { c in
            c.onlyOffPath(26)
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

    /// Path certificate `i` (not the anchor) is self-issued, signed by another key (its issuer on
    /// the path), and OpenSSL's self-signed test (X509_check_akid of the certificate against
    /// itself) passes: no AKI keyIdentifier, no SKI, or the two equal.
    static func selfIssuedNotSelfSigned(_ path: [Certificate], at i: Int) -> Bool {
        guard i + 1 < path.count else { return false }
        let c = path[i]
        guard c.isSelfIssued, c.subjectPublicKeyInfo != path[i + 1].subjectPublicKeyInfo else { return false }
        let kid = ((try? c.authorityKeyIdentifier()) ?? nil)?.keyIdentifier
        let ski = (try? c.subjectKeyIdentifier()) ?? nil
        guard let kid, let ski else { return true }
        return kid == ski
    }

    /// Documented reasons for Go's crypto/x509 (1.19) to refuse a chain Sigil trusts; `kind` is
    /// oracle-go's error class. Re-checked on Sigil's path as the OpenSSL rows.
    struct GoRow: Sendable {
        let id: String
        let kind: String
        let holds: @Sendable (Context) -> Bool
    }

    static let goDocumented: [GoRow] = [
        // Go 1.19 does no certificate policy processing: a critical policyConstraints,
        // policyMappings or inhibitAnyPolicy is an unhandled critical extension. Sigil (and
        // OpenSSL) process them (RFC 5280 §6.1, PolicyTree.swift).
        GoRow(id: "G1 Go: no policy processing", kind: "UnhandledCriticalExtension") { c in
            c.path.contains { cert in
                [OID.policyConstraints, OID.policyMappings, OID.inhibitAnyPolicy].contains {
                    cert.extension($0)?.critical == true
                }
            }
        },
        // The same on an issuer (intermediate or anchor) of Sigil's path: Go rejects that
        // candidate issuer and, with no other, reports UnknownAuthority (the final campaign's
        // chunk 2: an anchor with a critical inhibitAnyPolicy; OpenSSL trusts too).
        GoRow(id: "G1 Go: no policy processing", kind: "UnknownAuthority") { c in
            c.path.dropFirst().contains { cert in
                [OID.policyConstraints, OID.policyMappings, OID.inhibitAnyPolicy].contains {
                    cert.extension($0)?.critical == true
                }
            }
        },
        // Go matches issuer and subject as bytes; RFC 5280 §7.1 compares names after LDAP
        // StringPrep (case, insignificant spaces), as Sigil and OpenSSL do.
        GoRow(id: "G2 Go: names compared as bytes", kind: "UnknownAuthority") { c in
            c.path.indices.dropLast().contains { i in
                c.path[i].issuer.encoded.bytes != c.path[i + 1].subject.encoded.bytes
            }
        },
        // RFC 5280 §6.1.4 (l) and §4.2.1.9: pathLenConstraint limits the *non-self-issued*
        // intermediates below a CA (limbo pathlen::self-issued-certs-pathlen: success). Go 1.19
        // counts every intermediate (TooManyIntermediates). Only when Sigil's path has a CA
        // whose limit all intermediates below exceed and the non-self-issued ones do not.
        GoRow(id: "G4 Go: self-issued intermediates counted for pathLen", kind: "TooManyIntermediates") { c in
            c.path.indices.dropFirst().contains { i in
                guard let p = ((try? c.path[i].basicConstraints()) ?? nil)?.pathLength else { return false }
                let below = c.path[1..<i]
                return below.count > p && below.filter { !$0.isSelfIssued }.count <= p
            }
        },
        // Go 1.19's Name parser takes only T61, Printable, UTF8, BMP, IA5 and NumericString
        // values and drops the certificate otherwise (as OpenSSL does with its own set: D6).
        GoRow(id: "G3 Go: non-string attribute value (D6)", kind: "UnknownAuthority") { c in
            let onPath = c.goDropped.filter { d in c.path.contains { $0.der == d } }
            return !onPath.isEmpty
                && onPath.allSatisfy { der in
                    guard let cert = c.path.first(where: { $0.der == der }) else { return false }
                    return hasValue(cert.subject, outside: goStringTags) || hasValue(cert.issuer, outside: goStringTags)
                }
        },
        // Go 1.19 refuses to parse a certificate whose subjectAltName URI it cannot parse
        // (x509 parseSANExtension: url.Parse, then the host must be a domain,
        // domainToReverseLabels) and drops it. Found twice: "https://le`f.diff.sigil.test/" (a
        // host byte url.Parse refuses) and "https://le:f.diff.sigil.test/" (a port that is not
        // digits) in the anchor's SAN. Sigil and OpenSSL do not judge URI syntax when parsing
        // (RFC 5280 §4.2.1.6 asks CAs for RFC 3986 URIs); Sigil reads a URI's host only under a
        // URI name constraint, where a host it cannot read fails closed (NameConstraints.swift
        // `uriHost`). OpenSSL trusts. Decided by Go's own parse error (oracle-go reports it per
        // dropped certificate), for certificates that do carry a URI in their subjectAltName.
        GoRow(id: "G5 Go: subjectAltName URI it cannot parse", kind: "UnknownAuthority") { c in
            let onPath = c.goDropped.filter { d in c.path.contains { $0.der == d } }
            return !onPath.isEmpty
                && onPath.allSatisfy { der in
                    guard c.goDroppedForURI.contains(der), let cert = c.path.first(where: { $0.der == der }) else {
                        return false
                    }
                    return hasURIName(cert)
                }
        },
        // Go 1.19 implements name constraints on dNSName, rfc822Name, URI and iPAddress only
        // (parseNameConstraintsExtension): a critical nameConstraints with a subtree of another
        // form — directoryName above all — is an unhandled critical extension wherever it sits.
        // Sigil processes directoryName subtrees (RFC 5280 §4.2.1.10, §7.1; NameConstraints.swift)
        // and fails closed for a constrained form it cannot compare that the names below carry;
        // OpenSSL processes them too and trusts. Found by FuzzVerifyDiff (2026-12-03): an anchor
        // with a critical excluded directoryName O=… subtree
        // (Fixtures/fuzz-regressions/FuzzVerifyDiff/anchor-nc-dirname-go-unhandled-found-2c6058e5.bin).
        GoRow(id: "G6 Go: nameConstraints form it does not implement", kind: "UnhandledCriticalExtension") { c in
            c.path.contains(where: hasGoUnsupportedCriticalNameConstraint)
        },
    ]

    /// Whether `cert` has a critical nameConstraints with a subtree whose form Go 1.19 does not
    /// implement (anything but dNSName, rfc822Name, URI, iPAddress).
    static func hasGoUnsupportedCriticalNameConstraint(_ cert: Certificate) -> Bool {
        guard cert.extension(OID.nameConstraints)?.critical == true, let nc = (try? cert.nameConstraints()) ?? nil
        else { return false }
        func unsupported(_ trees: GeneralSubtrees?) -> Bool {
            guard let trees else { return false }
            for name in trees {
                switch name {
                case .dnsName, .rfc822Name, .uri, .ipAddress: continue
                default: return true
                }
            }
            return false
        }
        return unsupported(nc.permitted) || unsupported(nc.excluded)
    }

    /// Whether `cert`'s subjectAltName holds a uniformResourceIdentifier.
    static func hasURIName(_ cert: Certificate) -> Bool {
        guard let sans = (try? cert.subjectAlternativeNames()) ?? nil else { return false }
        return sans.contains { if case .uri = $0 { return true } else { return false } }
    }

    /// The value tags Go 1.19's parseName accepts (parseASN1String).
    static let goStringTags: Set<UInt8> = [0x14, 0x13, 0x0C, 0x1E, 0x16, 0x12]

    /// Class (a), a Sigil parser bug fixed by issue 21 milestone 2 ("Strict DER in ANY-typed
    /// fields; string-syntax name attributes take strings"), kept as an independent check: a
    /// Name attribute value with a constructed tag whose contents are not a sequence of DER
    /// values (the finding: an O= value tagged [PRIVATE 16] constructed over "Sigil Diff"), or a
    /// non-string value (e.g. [16] primitive) for an attribute type whose X.520 / RFC 5280
    /// Appendix A syntax is a string (DirectoryString, PrintableString, IA5String). Sigil's
    /// Name parser took the value as ANY; OpenSSL and Go refuse the certificate. Since the fix
    /// Sigil refuses these chains; a trusted one is a finding (a regression), never documented.
    static let knownSigilBug =
        "A Sigil wrong (a regression of the issue 21 fix): Name attribute value (constructed non-DER, or non-string for a string type)"

    /// Attribute types with a string syntax: id-at 2.5.4.x (X.520 §6; RFC 5280 Appendix A.1),
    /// domainComponent, userId, emailAddress, EV jurisdiction names.
    static func hasStringSyntax(_ oid: ArraySlice<UInt8>) -> Bool {
        let o = Array(oid)
        if o.count == 3 && o[0] == 0x55 && o[1] == 0x04 {
            return [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 18, 20, 41, 42, 43, 44, 46, 65, 97].contains(o[2])
        }
        let ev: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01]
        if o.count == 11 && Array(o.prefix(10)) == ev { return (1...3).contains(o[10]) }
        return o == OID.domainComponent || o == OID.userID || o == OID.emailAddress
    }

    /// The string types Sigil's Name parser decodes (DERString).
    static let sigilStringTags: Set<UInt8> = [0x0C, 0x12, 0x13, 0x14, 0x16, 0x1A, 0x1C, 0x1E]

    static func hasConstructedNonDERValue(_ cert: Certificate) -> Bool {
        var found = false
        for name in [cert.subject, cert.issuer] {
            forEachAttribute(name.encoded.bytes) { type, tag, content in
                if tag & 0x20 != 0 && !isDERSequence(content, depth: 0) { found = true }
                if hasStringSyntax(type) && !sigilStringTags.contains(tag) { found = true }
            }
        }
        return found
    }

    /// An independent check: `bytes` is a concatenation of well-formed DER TLVs (low tags,
    /// minimal definite lengths), constructed ones recursively.
    static func isDERSequence(_ bytes: ArraySlice<UInt8>, depth: Int) -> Bool {
        if depth > 32 { return false }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let tag = bytes[i]
            if tag & 0x1F == 0x1F { return false }
            guard i + 1 < bytes.endIndex else { return false }
            var len = Int(bytes[i + 1])
            var h = 2
            if len & 0x80 != 0 {
                let k = len & 0x7F
                guard k >= 1, k <= 3, i + 2 + k <= bytes.endIndex else { return false }
                len = bytes[(i + 2)..<(i + 2 + k)].reduce(0) { $0 << 8 | Int($1) }
                if len < 128 || bytes[i + 2] == 0 { return false }
                h = 2 + k
            }
            guard i + h + len <= bytes.endIndex else { return false }
            if tag & 0x20 != 0 && !isDERSequence(bytes[(i + h)..<(i + h + len)], depth: depth + 1) { return false }
            i += h + len
        }
        return true
    }

    /// Calls `body` with the tag and contents of every AttributeValue of an encoded Name.
    static func forEachAttributeValue(_ e: ArraySlice<UInt8>, _ body: (UInt8, ArraySlice<UInt8>) -> Void) {
        forEachAttribute(e) { _, tag, content in body(tag, content) }
    }

    /// Calls `body` with the type (OID contents), value tag and value contents of every
    /// AttributeTypeAndValue of an encoded Name.
    static func forEachAttribute(
        _ e: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>, UInt8, ArraySlice<UInt8>) -> Void
    ) {
        func tlvs(_ b: ArraySlice<UInt8>) -> [(UInt8, ArraySlice<UInt8>)] {
            var out: [(UInt8, ArraySlice<UInt8>)] = []
            var i = b.startIndex
            while i + 1 < b.endIndex {
                let tag = b[i]
                var len = Int(b[i + 1])
                var h = 2
                if len & 0x80 != 0 {
                    let k = len & 0x7F
                    guard k <= 3, i + 2 + k <= b.endIndex else { return out }
                    len = b[(i + 2)..<(i + 2 + k)].reduce(0) { $0 << 8 | Int($1) }
                    h = 2 + k
                }
                let end = min(i + h + len, b.endIndex)
                out.append((tag, b[(i + h)..<end]))
                i = end
            }
            return out
        }
        guard let name = tlvs(e).first else { return }
        for rdn in tlvs(name.1) {
            for atv in tlvs(rdn.1) {
                let parts = tlvs(atv.1)
                if parts.count >= 2 { body(parts[0].1, parts[1].0, parts[1].1) }
            }
        }
    }

    static func hasValue(_ name: DistinguishedName, outside tags: Set<UInt8>) -> Bool {
        var found = false
        forEachAttributeValue(name.encoded.bytes) { tag, _ in if !tags.contains(tag) { found = true } }
        return found
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
            let options = VerificationOptions(purpose: .server(host: chain.host), time: Double(time))
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
            out.openSSLDepths = [0]
        } else {
            out.openSSLErrors = withUnsafeBytes(of: r.errors) { raw in
                Array(raw.bindMemory(to: Int32.self).prefix(Int(r.count)))
            }
            out.openSSLDepths = withUnsafeBytes(of: r.depths) { raw in
                Array(raw.bindMemory(to: Int32.self).prefix(Int(r.count)))
            }
        }

        // Go (third opinion), same inputs: the leaf, the presented certificates, the anchors.
        if let oracle = GoOracle.shared {
            out.go = oracle.verify(
                leaf: leafDER, intermediates: presented, roots: anchors, time: time, host: chain.host)
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
        var goDropped: [[UInt8]] = []
        var goDroppedForURI: [[UInt8]] = []
        if let g = out.go, !g.dropped.isEmpty {
            // Items "i<k>:<why>" / "r<k>:<why>" (oracle-go's `parseFailure`).
            for item in g.dropped.split(separator: ",") {
                let parts = item.dropFirst().split(separator: ":", maxSplits: 1)
                guard let first = parts.first, let k = Int(first) else { continue }
                var der: [UInt8]? = nil
                if item.hasPrefix("i"), k < presented.count { der = presented[k] }
                if item.hasPrefix("r"), k < anchors.count { der = anchors[k] }
                guard let d = der else { continue }
                goDropped.append(d)
                if parts.count == 2 && parts[1] == "uri" { goDroppedForURI.append(d) }
            }
        }
        let sources = withUnsafeBytes(of: r.chain_source) { raw in
            Array(raw.bindMemory(to: Int32.self).prefix(min(Int(r.chain_length), 32)))
        }
        let openSSLChain: [[UInt8]?] = sources.map { s in
            if s >= 0 && Int(s) < all.count { return all[Int(s)] }
            if s < 0 && s > -1000 && Int(-1 - s) < anchors.count { return anchors[Int(-1 - s)] }
            return nil
        }
        let context = Context(
            path: out.sigilPath, host: out.host,
            undecodable: undecodable.filter { d in out.sigilPath.contains { $0.der == d } },
            errors: Array(zip(out.openSSLErrors, out.openSSLDepths)), goDropped: goDropped,
            goDroppedForURI: goDroppedForURI,
            openSSLChain: openSSLChain)
        let goRefuses = out.go.map { !$0.trusted } ?? false
        if out.sigilTrusted && (!out.openSSLTrusted || goRefuses)
            && out.sigilPath.contains(where: hasConstructedNonDERValue)
        {
            // Class (a): Sigil's parser should have refused this certificate. Fixed by issue 21
            // milestone 2 (strict ANY, string-syntax attributes); met again, it is a finding.
            out.knownSigilBug = true
            out.isFinding = true
            out.explainedBy = [knownSigilBug]
            return out
        }
        var explained: [String] = []
        if out.sigilTrusted && !out.openSSLTrusted {
            var all = true
            let goTrusts = out.go?.trusted == true
            for e in Set(out.openSSLErrors) {
                if let row = documented.first(where: { $0.error == e && $0.holds(context) }) {
                    explained.append(row.id)
                } else if goTrusts && context.onlyOffPath(e) {
                    // D10 for any other error number: every certificate OpenSSL reported it at
                    // is off Sigil's path (OpenSSL's one chain, mapped back to the inputs), and
                    // the third verifier trusts the chain (RFC 5280 §6.1, RFC 4158 §3).
                    explained.append("D10 error off Sigil's path")
                } else {
                    all = false
                }
            }
            out.isFinding = !all
        }
        if out.sigilTrusted, let g = out.go, !g.trusted {
            if let row = goDocumented.first(where: { $0.kind == g.kind && $0.holds(context) }) {
                explained.append(row.id)
            } else {
                out.isFinding = true
                out.goUnexplained = true
            }
        }
        out.explainedBy = Set(explained).sorted()
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

    /// The harness's liveness check, run once per process before the first input: the unmutated
    /// chain must be trusted by Sigil, OpenSSL and Go (when present). Only "Sigil trusts, another
    /// verifier refuses" is a finding, so a build whose verifier refuses everything — broken, or
    /// stale (`Scripts/stale-build-guard.sh`: an incremental build once linked modules with two
    /// layouts of the options) — would otherwise run for hours and find nothing.
    public static let selfCheck: Void = {
        let o = evaluate(DiffChain.baseline())
        let goTrusts = o.go.map(\.trusted) ?? true
        if !(o.sigilTrusted && o.openSSLTrusted && goTrusts) {
            fatalError(
                "ORACLE SELF-CHECK: the unmutated baseline chain is not trusted by every verifier (Sigil: \(o.sigilTrusted ? "trusted" : o.sigilReason); OpenSSL: \(o.openSSLTrusted ? "trusted" : "refused \(o.openSSLErrors)"); Go: \(o.goColumn)): the build is broken, a run would mean nothing"
            )
        }
    }()

    /// The libFuzzer entry: traps on a finding.
    public static func fuzz(_ data: UnsafeRawBufferPointer) {
        selfCheck
        var b = DiffBytes(Array(data))
        let o = evaluate(&b)
        if o.isFinding {
            fatalError(
                "ORACLE: Sigil trusts a chain OpenSSL or Go refuses for an undocumented reason: \(o.classKey) ‖ Go: \(o.goColumn) \(o.go?.error ?? ""); mutations: \(o.notes.joined(separator: "; "))"
            )
        }
    }
}
