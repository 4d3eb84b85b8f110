// Structural mutations of a DiffChain, each drawn from a DiffBytes source.

import FuzzSupport
import SigilX509

extension DiffChain {
    static let maximumMutations = 6

    /// Extension values a mutation may add or substitute (context: the certificate's index).
    func catalogue(_ k: Int, for i: Int) -> Ext {
        let key = certs[i].key
        let issuerKey = certs[i].issuerIndex.map { certs[min($0, certs.count - 1)].key } ?? 4
        let ipNet: [UInt8] = [0x87, 0x08, 192, 0, 2, 0, 255, 255, 255, 0]
        switch k % 48 {
        case 0: return DiffChain.bc(ca: true)
        case 1: return DiffChain.bc(ca: false)
        case 2: return DiffChain.bc(ca: true, pathLen: 0)
        case 3: return DiffChain.bc(ca: true, pathLen: 1)
        case 4: return Ext(oid: OID.basicConstraints, critical: true, value: D.seq(D.int(0)))  // cA absent, pathLen
        case 5: return Ext(oid: OID.basicConstraints, critical: false, value: D.seq(D.boolTrue))
        case 6: return DiffChain.ku(0x80)
        case 7: return DiffChain.ku(0x06)
        case 8: return DiffChain.ku(0x84)
        case 9: return DiffChain.ku(0x20)
        case 10: return DiffChain.ku(0x02)
        case 11: return DiffChain.ku(0)
        case 12: return DiffChain.eku([OID.serverAuth])
        case 13: return DiffChain.eku([OID.clientAuth])
        case 14: return DiffChain.eku([OID.anyExtendedKeyUsage])
        case 15: return DiffChain.eku([OID.codeSigning, OID.serverAuth])
        case 16: return DiffChain.eku([OID.ocspSigning])
        case 17: return DiffChain.eku([])
        case 18:
            return Ext(
                oid: OID.nameConstraints, critical: true,
                value: D.seq(D.tlv(0xA0, D.seq(D.tlv(0x80, DiffChain.dns("diff.sigil.test"))))))
        case 19:
            return Ext(
                oid: OID.nameConstraints, critical: true,
                value: D.seq(D.tlv(0xA0, D.seq(D.tlv(0x80, DiffChain.dns("other.test"))))))
        case 20:
            return Ext(
                oid: OID.nameConstraints, critical: true,
                value: D.seq(D.tlv(0xA1, D.seq(D.tlv(0x80, DiffChain.dns("leaf.diff.sigil.test"))))))
        case 21:
            return Ext(oid: OID.nameConstraints, critical: true, value: D.seq(D.tlv(0xA0, D.seq(D.tlv(0x80, ipNet)))))
        case 22:
            return Ext(
                oid: OID.nameConstraints, critical: true,
                value: D.seq(D.tlv(0xA1, D.seq(D.tlv(0x80, D.tlv(0xA4, NameSpec.simple("x", org: "Evil").encoded()))))))
        case 23: return Ext(oid: OID.nameConstraints, critical: true, value: D.seq())
        case 24:
            return Ext(
                oid: OID.nameConstraints, critical: false,
                value: D.seq(D.tlv(0xA0, D.seq(D.tlv(0x80, DiffChain.dns(".diff.sigil.test"))))))
        case 25: return DiffChain.san([DiffChain.dns("leaf.diff.sigil.test")])
        case 26: return DiffChain.san([DiffChain.dns("other.test")])
        case 27: return DiffChain.san([DiffChain.dns("*.diff.sigil.test")])
        case 28: return DiffChain.san([D.tlv(0x87, [192, 0, 2, 10])])
        case 29: return DiffChain.san([D.tlv(0x81, D.ascii("leaf@diff.sigil.test"))])
        case 30: return DiffChain.san([])
        case 31: return DiffChain.san([DiffChain.dns("LEAF.diff.sigil.test"), DiffChain.dns("x..test")])
        case 32: return DiffChain.san([D.tlv(0x86, D.ascii("https://leaf.diff.sigil.test/"))])
        case 33: return DiffChain.aki(issuerKey)
        case 34: return DiffChain.aki(4)
        case 35:
            return Ext(
                oid: OID.authorityKeyIdentifier, critical: false,
                value: D.seq(
                    D.tlv(0x80, DiffChain.keyID(issuerKey)),
                    D.tlv(0xA1, D.tlv(0xA4, NameSpec.simple("Sigil Diff Root").encoded())), D.tlv(0x82, [0x10, 0x01])))
        case 36: return Ext(oid: OID.authorityKeyIdentifier, critical: false, value: D.seq())
        case 37: return DiffChain.ski(key)
        case 38: return DiffChain.ski(4)
        case 39: return DiffChain.policies([DiffChain.policyOID])
        case 40: return DiffChain.policies([OID.anyPolicy])
        case 41: return DiffChain.policies([[0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xC4, 0x1A, 0x01]])
        case 42: return Ext(oid: OID.policyConstraints, critical: true, value: D.seq(D.tlv(0x80, [0x00])))
        case 43: return Ext(oid: OID.inhibitAnyPolicy, critical: true, value: D.int(0))
        case 44:
            return Ext(
                oid: OID.policyMappings, critical: true,
                value: D.seq(
                    D.seq(D.oid(DiffChain.policyOID), D.oid([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xC4, 0x1A, 0x02]))))
        case 45:
            return Ext(
                oid: [0x2B, 0x06, 0x01, 0x04, 0x01, 0x86, 0x8D, 0x1F, 0x01], critical: false, value: [0x05, 0x00])
        case 46:
            return Ext(
                oid: OID.authorityInfoAccess, critical: false,
                value: D.seq(D.seq(D.oid(OID.caIssuers), D.tlv(0x86, D.ascii("http://x.test/ca.der")))))
        default: return Ext(oid: OID.ctPrecertificatePoison, critical: true, value: [0x05, 0x00])
        }
    }

    mutating func applyMutations(_ b: inout DiffBytes) {
        // Mostly few mutations: a chain that stays close to valid shows the finer differences.
        let n = [0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6][b.pick(12)]
        for _ in 0..<n { mutate(&b) }
    }

    mutating func mutate(_ b: inout DiffBytes) {
        let op = b.pick(19)
        let i = b.pick(certs.count)
        switch op {
        case 0:  // remove an extension
            if !certs[i].extensions.isEmpty {
                let e = b.pick(certs[i].extensions.count)
                notes.append("c\(i) -ext \(extName(certs[i].extensions[e].oid))")
                certs[i].extensions.remove(at: e)
            }
        case 1:  // duplicate an extension
            if !certs[i].extensions.isEmpty {
                let e = b.pick(certs[i].extensions.count)
                notes.append("c\(i) dup ext \(extName(certs[i].extensions[e].oid))")
                certs[i].extensions.append(certs[i].extensions[e])
            }
        case 2:  // flip critical
            if !certs[i].extensions.isEmpty {
                let e = b.pick(certs[i].extensions.count)
                certs[i].extensions[e].critical.toggle()
                notes.append("c\(i) critical=\(certs[i].extensions[e].critical) \(extName(certs[i].extensions[e].oid))")
            }
        case 3, 4:  // add or replace from the catalogue (replace: the same type if present)
            let e = catalogue(b.pick(256), for: i)
            if op == 4, let j = certs[i].extensions.firstIndex(where: { $0.oid == e.oid }) {
                certs[i].extensions[j] = e
                notes.append("c\(i) set \(extName(e.oid))=\(hex(e.value)) crit=\(e.critical)")
            } else {
                certs[i].extensions.insert(e, at: b.pick(certs[i].extensions.count + 1))
                notes.append("c\(i) +ext \(extName(e.oid))=\(hex(e.value)) crit=\(e.critical)")
            }
        case 5:  // validity edges
            let edges: [Int64] = [
                DiffChain.time - 1, DiffChain.time, DiffChain.time + 1, DiffChain.notBefore, DiffChain.notAfter,
                -631_152_000 /* 1950 */, 2_524_608_000 /* 2050 */, 2_524_607_999, 253_402_300_799 /* 9999 */,
            ]
            let t = edges[b.pick(edges.count)]
            if b.u8() & 1 == 0 {
                certs[i].notBefore = t
                notes.append("c\(i) notBefore=\(t)")
            } else {
                certs[i].notAfter = t
                notes.append("c\(i) notAfter=\(t)")
            }
        case 6:  // time encodings
            let f = TimeForm(rawValue: UInt8(b.pick(3)))!
            if b.u8() & 1 == 0 { certs[i].notBeforeForm = f } else { certs[i].notAfterForm = f }
            notes.append("c\(i) timeform \(f)")
        case 7: mutateName(i, &b)
        case 8:  // serial
            let serials: [[UInt8]] = [
                D.int(0), [0x02, 0x01, 0xFF], [0x02, 0x02, 0x00, 0x01],
                D.tlv(0x02, [0x01] + [UInt8](repeating: 0xAB, count: 20)),
                D.tlv(0x02, [0x00, 0x80] + [UInt8](repeating: 0x11, count: 19)), D.int(0x2002), D.int(0x1001),
            ]
            let s = b.pick(serials.count)
            certs[i].serial = serials[s]
            notes.append("c\(i) serial \(hex(serials[s]))")
        case 9:  // version
            let versions: [[UInt8]?] = [
                nil, [0xA0, 0x03, 0x02, 0x01, 0x00], [0xA0, 0x03, 0x02, 0x01, 0x01], [0xA0, 0x03, 0x02, 0x01, 0x03],
            ]
            let v = b.pick(versions.count)
            certs[i].version = versions[v]
            notes.append("c\(i) version \(versions[v].map(hex) ?? "absent")")
            if b.u8() & 1 == 1 {
                certs[i].uniqueIDs = true
                notes.append("c\(i) uniqueIDs")
            }
        case 10:  // algorithms
            let k = b.pick(9)
            switch k {
            case 0: certs[i].digest = .sha384
            case 1: certs[i].digest = .sha512
            case 2: certs[i].digest = .sha1
            case 3:  // inner and outer differ
                var a = algorithms(i)
                a.outer = D.seq(D.oid(OID.ecdsaWithSHA384))
                certs[i].algorithmOverride = a
            case 4:  // ECDSA with NULL parameters (RFC 5758 §3.2: MUST omit)
                let a = D.seq(D.oid(OID.ecdsaWithSHA256), [0x05, 0x00])
                certs[i].algorithmOverride = (a, a)
            case 5:  // RSA without NULL parameters (RFC 4055 §5: MUST be NULL)
                let a = D.seq(D.oid(OID.sha256WithRSAEncryption))
                certs[i].algorithmOverride = (a, a)
            case 7:  // the issuer's key becomes Ed25519 (an EdDSA-signed certificate)
                let ed = DiffKeys.files.firstIndex(of: "ed25519-root") ?? 0
                if let j = certs[i].issuerIndex, j < certs.count {  // j == i: a self-signed Ed25519 root
                    certs[j].key = ed
                } else {
                    certs[i].signerKeyOverride = ed
                }
            case 8:  // Ed25519 with NULL parameters (RFC 8410 §3: MUST be absent)
                let a = D.seq(D.oid(OID.ed25519), [0x05, 0x00])
                certs[i].signerKeyOverride = DiffKeys.files.firstIndex(of: "ed25519-root") ?? 0
                certs[i].algorithmOverride = (a, a)
            default:
                certs[i].digest = .sha256
            }
            notes.append("c\(i) algorithm \(k)")
        case 11: mutatePresentation(&b)
        case 12:  // subject key swap
            let k = b.pick(DiffKeys.shared.keys.count)
            certs[i].key = k
            notes.append("c\(i) key \(DiffKeys.files[k])")
        case 13:  // signature: wrong key or corrupted
            if b.u8() & 1 == 0 {
                let k = b.pick(DiffKeys.shared.keys.count)
                certs[i].signerKeyOverride = k
                notes.append("c\(i) signed by \(DiffKeys.files[k])")
            } else {
                certs[i].corruptSignature = true
                notes.append("c\(i) corrupt signature")
            }
        case 14:  // a raw edit of the TBS before signing (encodings)
            let off = b.u16()
            let x = b.u8() | 1
            certs[i].tbsPatches.append((off, x))
            notes.append("c\(i) tbs[\(off)]^=\(x)")
        case 15:
            let h = b.pick(DiffChain.hosts.count + 1)
            host = h < DiffChain.hosts.count ? DiffChain.hosts[h] : nil
            notes.append("host \(host ?? "none")")
        case 16: insertIntermediate(&b)
        case 17:  // anchors
            let k = b.pick(3)
            if k == 0, certs.count > 2 {
                anchors.append(1)
                notes.append("anchor +c1")
            } else if k == 1 {
                anchors = [certs.count > 2 ? 1 : 0]
                notes.append("anchor only c1")
            } else if let other = DiffFixturesExtra.shared.first {
                extraAnchors.append(other)
                notes.append("anchor +fixture")
            }
        default:  // an extension made empty or its value truncated
            if !certs[i].extensions.isEmpty {
                let e = b.pick(certs[i].extensions.count)
                let v = certs[i].extensions[e].value
                certs[i].extensions[e].value = b.u8() & 1 == 0 ? [] : Array(v.prefix(max(0, v.count - 1)))
                notes.append("c\(i) truncated \(extName(certs[i].extensions[e].oid))")
            }
        }
    }

    mutating func mutateName(_ i: Int, _ b: inout DiffBytes) {
        let k = b.pick(9)
        var n = certs[i].subject
        switch k {
        case 0:  // string type of the CN
            let tags: [UInt8] = [0x13, 0x0C, 0x16, 0x14, 0x1E]
            let t = tags[b.pick(tags.count)]
            for r in n.rdns.indices {
                for a in n.rdns[r].indices where n.rdns[r][a].oid == OID.commonName {
                    let s = n.rdns[r][a].value
                    n.rdns[r][a].tag = t
                    if t == 0x1E { n.rdns[r][a].value = s.flatMap { [0, $0] } }
                }
            }
        case 1:  // case change
            for r in n.rdns.indices {
                for a in n.rdns[r].indices {
                    n.rdns[r][a].value = n.rdns[r][a].value.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }
                }
            }
        case 2:  // extra spaces
            for r in n.rdns.indices {
                for a in n.rdns[r].indices { n.rdns[r][a].value = [0x20] + n.rdns[r][a].value + [0x20, 0x20] }
            }
        case 3: n = NameSpec(rdns: [])
        case 4: n.rdns.append([Attr(oid: OID.organizationalUnitName, tag: 0x0C, value: D.ascii("Unit"))])
        case 5: n = .simple("Sigil Diff Intermediate")  // collide with the intermediate
        case 6: n = .simple("Sigil Diff Root")
        case 7:  // multi-valued RDN
            if !n.rdns.isEmpty { n.rdns[0].append(Attr(oid: OID.countryName, tag: 0x13, value: D.ascii("XX"))) }
        default: n.rdns.reverse()
        }
        if b.u8() & 1 == 0 {
            certs[i].subject = n
            notes.append("c\(i) subject \(k)")
        } else {
            certs[i].issuerOverride = n
            notes.append("c\(i) issuer \(k)")
        }
    }

    mutating func mutatePresentation(_ b: inout DiffBytes) {
        let k = b.pick(6)
        switch k {
        case 0: presented.reverse()
        case 1: presented.append(0)  // the root presented too
        case 2: if let f = presented.first { presented.append(f) }
        case 3: presented.removeAll()  // intermediates missing
        case 4:
            if let x = DiffFixturesExtra.shared.randomElement(using: &b) {
                extras.append(x)
                presented.insert(-extras.count, at: 0)
            }
        default: presented.insert(leafIndex, at: 0)  // the leaf again
        }
        notes.append("presented \(k)")
    }

    mutating func insertIntermediate(_ b: inout DiffBytes) {
        guard certs.count == 3 else { return }
        // A second intermediate (key 3) between the intermediate and the leaf.
        var mid = certs[1]
        mid.subject = .simple("Sigil Diff Intermediate 2")
        mid.key = 3
        mid.issuerIndex = 1
        mid.serial = D.int(0x2003)
        mid.extensions = [
            DiffChain.bc(ca: true, pathLen: b.u8() & 1 == 0 ? nil : 0), DiffChain.ku(0x06), DiffChain.ski(3),
            DiffChain.aki(certs[1].key), DiffChain.eku([OID.serverAuth]),
        ]
        certs[1].extensions = certs[1].extensions.map {
            $0.oid == OID.basicConstraints && b.u8() & 1 == 0 ? DiffChain.bc(ca: true) : $0
        }
        var leaf = certs[2]
        leaf.issuerIndex = 2
        leaf.extensions = leaf.extensions.map { $0.oid == OID.authorityKeyIdentifier ? DiffChain.aki(3) : $0 }
        certs = [certs[0], certs[1], mid, leaf]
        presented = presented.map { $0 == 2 ? 3 : $0 } + [2]
        notes.append("+intermediate")
    }

    func extName(_ oid: [UInt8]) -> String {
        switch oid {
        case OID.basicConstraints: return "BC"
        case OID.keyUsage: return "KU"
        case OID.extKeyUsage: return "EKU"
        case OID.subjectAltName: return "SAN"
        case OID.nameConstraints: return "NC"
        case OID.authorityKeyIdentifier: return "AKI"
        case OID.subjectKeyIdentifier: return "SKI"
        case OID.certificatePolicies: return "CP"
        case OID.policyConstraints: return "PC"
        case OID.policyMappings: return "PM"
        case OID.inhibitAnyPolicy: return "IAP"
        case OID.authorityInfoAccess: return "AIA"
        case OID.ctPrecertificatePoison: return "CTpoison"
        default: return "unknown"
        }
    }
}

func hex(_ b: [UInt8]) -> String {
    let d = Array("0123456789abcdef")
    return String(b.prefix(24).flatMap { [d[Int($0 >> 4)], d[Int($0 & 15)]] }) + (b.count > 24 ? "…" : "")
}

/// A few unrelated fixture certificates (extra presented certificates, extra anchors).
enum DiffFixturesExtra {
    static let shared: [[UInt8]] = {
        let f = FuzzFixturesAccess.certificates
        return f.filter { $0.count > 0 }
    }()
}

extension Array {
    func randomElement(using b: inout DiffBytes) -> Element? { isEmpty ? nil : self[b.pick(count)] }
}

enum FuzzFixturesAccess {
    static let certificates: [[UInt8]] = [
        "p256-intermediate.der", "p256-root.der", "rsa2048-intermediate.der", "p384-leaf.der",
    ]
    .map { FuzzFixtures.shared.named($0).der }
}
