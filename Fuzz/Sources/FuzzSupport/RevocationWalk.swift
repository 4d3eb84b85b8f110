// FuzzCRL: parse the input as a CertificateList (RFC 5280 §5); on success iterate every entry,
// look each one up through the sorted serial index, decode the extensions.
// FuzzOCSP: parse the input as an OCSPResponse (RFC 6960); on success walk every field and ask
// for the status of each embedded certificate (exercising CertID hashing, signer and
// freshness checks on hostile input).

import Sigil
import SigilDER
import SigilX509

public enum CRLWalk {
    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        guard let crl = try? CertificateList(der: bytes) else { return }
        guard let again = try? CertificateList(der: crl.der) else {
            oracle(false, "re-parse of CertificateList.der fails")
            return
        }
        oracle(
            again.revokedCount == crl.revokedCount && again.thisUpdate == crl.thisUpdate
                && again.nextUpdate == crl.nextUpdate,
            "re-parse: fields differ")
        _ = crl.issuer.rfc4514String
        _ = crl.tbsCertList.count
        _ = crl.signature.count
        _ = crl.facts.crlNumber?.hex
        _ = crl.isDelta
        if let idp = crl.facts.issuingDistributionPoint, let names = idp.fullName {
            for n in names { _ = n.description }
        }
        // nameRelativeToCRLIssuer (§5.2.5): the CRL issuer's DN with one more RDN.
        if let idp = crl.facts.issuingDistributionPoint, let rel = idp.relativeName {
            oracle(idp.hasRelativeName && idp.fullName == nil, "IDP: relative name without hasRelativeName")
            if let name = crl.issuer.appending(relativeName: rel) {
                oracle(
                    name.reduce(0) { n, _ in n + 1 } == crl.issuer.reduce(0) { n, _ in n + 1 } + 1,
                    "IDP: the resolved name is not the issuer plus one RDN")
            }
        }
        for e in crl.extensions { _ = OID.dotted(e.oid) }
        var count = 0
        for entry in crl.revokedCertificates {
            count += 1
            _ = entry.reason?.name
            _ = entry.invalidityDate
            if let issuer = entry.certificateIssuer { for n in issuer { _ = n.description } }
            for x in entry.extensions { _ = x.critical }
            let found = crl.entries(serial: entry.serialNumber)
            oracle(!found.isEmpty, "an entry's serial is not found through the index")
            oracle(found.allSatisfy { $0.serialNumber == entry.serialNumber }, "lookup returned another serial")
            let range = crl.entryIndices(serial: Array(entry.serialNumber.bytes))
            oracle(range.count == found.count, "entryIndices and entries(serial:) disagree")
            oracle(
                crl.firstEntry(serial: entry.serialNumber)?.serialNumber == entry.serialNumber,
                "firstEntry misses a listed serial")
        }
        oracle(count == crl.revokedCount, "iteration count \(count) != revokedCount \(crl.revokedCount)")
    }
}

public enum OCSPWalk {
    /// The fixed verification time: 2030-01-01T00:00:00Z.
    public static let now = 1_893_456_000.0

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        guard let response = try? OCSPResponse(der: bytes) else { return }
        oracle((response.status == .successful) == (response.basic != nil), "status and body disagree")
        guard let basic = response.basic else { return }
        _ = basic.producedAt
        _ = basic.tbsResponseData.count
        switch basic.responderID {
        case .byName(let n): _ = n.rfc4514String
        case .byKey(let k): oracle(k.count == 20, "byKey is not a SHA-1 hash")
        }
        for single in basic.responses {
            _ = single.certID.serialNumber.hex
            _ = single.certID.hashAlgorithm
            _ = single.thisUpdate
            _ = single.nextUpdate
        }
        let verifier = SigilSignatureVerifier()
        for c in basic.certificates.prefix(4) {
            for issuer in basic.certificates.prefix(4) {
                let s = response.status(of: c, issuer: issuer, at: now, verifier: verifier)
                _ = s.name
            }
        }
    }
}
