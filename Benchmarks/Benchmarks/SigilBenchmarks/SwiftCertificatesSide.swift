import Benchmark
import Crypto
import Foundation
import SwiftASN1
import X509

// apple/swift-certificates 1.21.1 (on swift-asn1 and swift-crypto) on the same inputs.

/// The swift-certificates equivalent of `sigilWalk`: every field, and every extension
/// swift-certificates decodes (basic constraints, key usage, EKU, SAN, SKI, AKI, name
/// constraints, AIA — it has no decoder for policies, CRL distribution points or SCTs).
@inline(never)
func swiftCertificatesWalk(_ c: Certificate) throws -> Int {
    var acc = c.serialNumber.bytes.count
    blackHole(c.version)
    acc &+= Int(c.notValidBefore.timeIntervalSince1970) ^ Int(c.notValidAfter.timeIntervalSince1970)
    blackHole(c.signatureAlgorithm)
    blackHole(c.publicKey)
    acc &+= c.tbsCertificateBytes.count
    blackHole(c.signature)
    for rdn in c.issuer {
        for a in rdn {
            blackHole(a.type)
            blackHole(a.value)
        }
    }
    for rdn in c.subject {
        for a in rdn {
            blackHole(a.type)
            blackHole(a.value)
        }
    }
    for e in c.extensions {
        blackHole(e.oid)
        acc &+= e.value.count &+ (e.critical ? 1 : 0)
    }
    let x = c.extensions
    if let bc = try x.basicConstraints { blackHole(bc) }
    if let ku = try x.keyUsage { blackHole(ku) }
    if let eku = try x.extendedKeyUsage { for u in eku { blackHole(u) } }
    if let san = try x.subjectAlternativeNames {
        for n in san {
            blackHole(n)
            acc &+= 1
        }
    }
    if let ski = try x.subjectKeyIdentifier { acc &+= ski.keyIdentifier.count }
    if let aki = try x.authorityKeyIdentifier {
        acc &+= aki.keyIdentifier?.count ?? 0
        if let names = aki.authorityCertIssuer { for n in names { blackHole(n) } }
        blackHole(aki.authorityCertSerialNumber)
    }
    if let nc = try x.nameConstraints { blackHole(nc) }
    if let aia = try x.authorityInformationAccess { for d in aia { blackHole(d) } }
    return acc
}

/// The swift-certificates equivalent of `sigilDecodeExtensions`.
@inline(never)
func swiftCertificatesDecodeExtensions(_ c: Certificate) throws -> Int {
    var acc = 0
    let x = c.extensions
    if let aia = try x.authorityInformationAccess { for d in aia { blackHole(d) } }
    if let ski = try x.subjectKeyIdentifier { acc &+= ski.keyIdentifier.count }
    if let aki = try x.authorityKeyIdentifier { acc &+= aki.keyIdentifier?.count ?? 0 }
    if let eku = try x.extendedKeyUsage { for u in eku { blackHole(u) } }
    if let bc = try x.basicConstraints { blackHole(bc) }
    if let ku = try x.keyUsage { blackHole(ku) }
    if let san = try x.subjectAlternativeNames {
        for n in san {
            blackHole(n)
            acc &+= 1
        }
    }
    return acc
}

func registerSwiftCertificatesBenchmarks() {
    let leaf = Inputs.leaf

    Benchmark("ParseLeaf_SwiftCertificates") { b in
        for _ in b.scaledIterations { blackHole(try Certificate(derEncoded: leaf)) }
    }

    Benchmark("ParseWalkLeaf_SwiftCertificates") { b in
        for _ in b.scaledIterations { blackHole(try swiftCertificatesWalk(try Certificate(derEncoded: leaf))) }
    }

    Benchmark("ParseDecodeExtensions_SwiftCertificates") { b in
        for _ in b.scaledIterations {
            blackHole(try swiftCertificatesDecodeExtensions(try Certificate(derEncoded: leaf)))
        }
    }

    let roots = Inputs.bundleDER
    // swift-certificates rejects a few system roots Sigil accepts; count what it takes.
    let parseable = roots.filter { (try? Certificate(derEncoded: $0)) != nil }
    Benchmark("ParseSystemRoots_SwiftCertificates") { b in
        for _ in b.scaledIterations {
            for der in parseable { blackHole(try Certificate(derEncoded: der)) }
        }
    }

    let bundleString = String(decoding: Inputs.bundle, as: UTF8.self)
    Benchmark("PEMDecodeBundle_SwiftCertificates") { b in
        for _ in b.scaledIterations { blackHole(try PEMDocument.parseMultiple(pemString: bundleString)) }
    }

    // What a swift-certificates user does with the bundle: PEM → Certificate → CertificateStore.
    Benchmark("LoadBundleAnchors_SwiftCertificates") { b in
        for _ in b.scaledIterations {
            let docs = try PEMDocument.parseMultiple(pemString: bundleString)
            var certs: [Certificate] = []
            certs.reserveCapacity(docs.count)
            for d in docs { if let c = try? Certificate(pemDocument: d) { certs.append(c) } }
            blackHole(CertificateStore(certs))
        }
    }

    // Ed25519 through swift-crypto's Curve25519 (BoringSSL on Linux). swift-crypto has no
    // Ed448 and swift-certificates no Ed448 key type: no swift-certificates Ed448 row.
    for family in ["rsa2048", "rsa4096", "p256", "p384", "p521", "ed25519"] {
        let chain = Inputs.chain(family)
        let child = try! Certificate(derEncoded: chain.leaf)
        let issuer = try! Certificate(derEncoded: chain.intermediate)
        precondition(issuer.publicKey.isValidSignature(child.signature, for: child), "\(family) signature")
        Benchmark("VerifySignature\(Inputs.tag(family))_SwiftCertificates") { b in
            for _ in b.scaledIterations { blackHole(issuer.publicKey.isValidSignature(child.signature, for: child)) }
        }
    }

    let time = Date(timeIntervalSince1970: TimeInterval(Inputs.time))
    for family in ["rsa2048", "p256", "p384", "ed25519"] {
        let chain = Inputs.chain(family)
        let roots = CertificateStore([try! Certificate(derEncoded: chain.root)])
        let host = chain.host
        let leafCert = try! Certificate(derEncoded: chain.leaf)
        let intermediates = CertificateStore([try! Certificate(derEncoded: chain.intermediate)])
        let tag = Inputs.tag(family)
        let leafDER = chain.leaf
        let intermediateDER = chain.intermediate
        @Sendable func validate(_ leaf: Certificate, _ intermediates: CertificateStore) async -> Bool {
            var verifier = Verifier(rootCertificates: roots) {
                RFC5280Policy(validationTime: time)
                ServerIdentityPolicy(serverHostname: host, serverIP: nil)
            }
            let result = await verifier.validate(leaf: leaf, intermediates: intermediates)
            if case .validCertificate = result { return true }
            return false
        }
        Benchmark("ChainParse\(tag)_SwiftCertificates") { b in
            for _ in b.scaledIterations {
                let l = try Certificate(derEncoded: leafDER)
                let i = try Certificate(derEncoded: intermediateDER)
                let ok = await validate(l, CertificateStore([i]))
                precondition(ok, "swift-certificates \(family) chain")
                blackHole(ok)
            }
        }
        Benchmark("ChainPreparsed\(tag)_SwiftCertificates") { b in
            for _ in b.scaledIterations {
                let ok = await validate(leafCert, intermediates)
                precondition(ok, "swift-certificates \(family) chain")
                blackHole(ok)
            }
        }
    }

    let poolChain = Pools.chain
    let poolRoots = CertificateStore([try! Certificate(derEncoded: poolChain.root)])
    let poolLeaf = try! Certificate(derEncoded: poolChain.leaf)
    let poolHost = poolChain.host
    for n in [0, 100, 1000] {
        let intermediates = CertificateStore(Pools.intermediates(pool: n).map { try! Certificate(derEncoded: $0) })
        Benchmark("PathBuildPool\(n)_SwiftCertificates") { b in
            for _ in b.scaledIterations {
                var verifier = Verifier(rootCertificates: poolRoots) {
                    RFC5280Policy(validationTime: time)
                    ServerIdentityPolicy(serverHostname: poolHost, serverIP: nil)
                }
                let result = await verifier.validate(leaf: poolLeaf, intermediates: intermediates)
                guard case .validCertificate = result else { preconditionFailure("swift-certificates pool \(n)") }
                blackHole(result)
            }
        }
    }
}

/// swift-crypto's Ed25519 alone (`Curve25519.Signing.PublicKey.isValidSignature`, BoringSSL's
/// `ED25519_verify` on Linux) over the same 1 KiB message and signature as
/// `VerifyEd25519_1KiB_Sigil`.
func registerSwiftCryptoBenchmarks() {
    let sample = Inputs.eddsaSample("ed25519")
    let key = try! Curve25519.Signing.PublicKey(rawRepresentation: sample.publicKey)
    let message = sample.message
    let signature = sample.signature
    precondition(key.isValidSignature(signature, for: message), "swift-crypto Ed25519 1 KiB")
    Benchmark("VerifyEd25519_1KiB_SwiftCrypto") { b in
        for _ in b.scaledIterations { blackHole(key.isValidSignature(signature, for: message)) }
    }
}
