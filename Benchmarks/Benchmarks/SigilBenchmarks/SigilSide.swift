import Benchmark
@_spi(SigilInternal) import Sigil
@_spi(SigilInternal) import SigilTrust

// Sigil's side of every comparison. Names are `<Operation>_<Library>`; run.sh groups on the
// operation and computes peer/Sigil ratios.

/// Reads every field of a parsed certificate and decodes every extension Sigil knows,
/// iterating every list. Returns a checksum so nothing is optimised away. Allocates nothing.
@inline(never)
func sigilWalk(_ c: Certificate) throws(DERError) -> Int {
    var acc = Int(c.version.rawValue) &+ c.serialNumber.count
    acc &+= Int(truncatingIfNeeded: c.notBefore ^ c.notAfter)
    blackHole(c.signatureAlgorithm)
    blackHole(c.publicKeyAlgorithm)
    acc &+= c.publicKeyBitCount ?? 0
    acc &+= c.publicKeyBytes.count &+ c.signature.count &+ c.tbsCertificate.count
    for rdn in c.issuer { for a in rdn { acc &+= a.type.count &+ a.value.count } }
    for rdn in c.subject { for a in rdn { acc &+= a.type.count &+ a.value.count } }
    for e in c.extensions { acc &+= e.oid.count &+ e.value.count &+ (e.critical ? 1 : 0) }
    // Everything Sigil decodes, strictly (duplicates, trailing bytes, string types ...).
    try c.validateExtensions()
    // And read what the decoders hand back, as a caller would.
    if let bc = try c.basicConstraints() { acc &+= (bc.isCA ? 1 : 0) &+ (bc.pathLength ?? 0) }
    if let ku = try c.keyUsage() { acc &+= Int(ku.rawValue) }
    if let eku = try c.extendedKeyUsage() { for o in eku { acc &+= o.count } }
    if let san = try c.subjectAlternativeNames() {
        for n in san {
            blackHole(n)
            acc &+= 1
        }
    }
    if let ski = try c.subjectKeyIdentifier() { acc &+= ski.count }
    if let aki = try c.authorityKeyIdentifier() {
        acc &+= aki.keyIdentifier?.count ?? 0
        if let names = aki.authorityCertIssuer { for n in names { blackHole(n) } }
        acc &+= aki.authorityCertSerialNumber?.count ?? 0
    }
    if let cp = try c.certificatePolicies() { for p in cp { acc &+= p.policyIdentifier.count } }
    if let aia = try c.authorityInformationAccess() {
        for d in aia {
            acc &+= d.method.count
            blackHole(d.location)
        }
    }
    if let dps = try c.crlDistributionPoints() {
        for dp in dps { if let names = dp.fullName { for n in names { blackHole(n) } } }
    }
    if let nc = try c.nameConstraints() {
        if let p = nc.permitted { for n in p { blackHole(n) } }
        if let e = nc.excluded { for n in e { blackHole(n) } }
    }
    return acc
}

/// Parse + decode the usual extension set of a web leaf (AIA, SKI, AKI, EKU, BC, KU, SAN), and
/// read what the decoders hand back as a verifier would (issue 11's "extension set" row).
@inline(never)
func sigilDecodeExtensions(_ c: Certificate) throws(DERError) -> Int {
    var acc = 0
    if let aia = try c.authorityInformationAccess() {
        for d in aia {
            acc &+= d.method.count
            blackHole(d.location)
        }
    }
    if let ski = try c.subjectKeyIdentifier() { acc &+= ski.count }
    if let aki = try c.authorityKeyIdentifier() { acc &+= aki.keyIdentifier?.count ?? 0 }
    if let eku = try c.extendedKeyUsage() { for o in eku { acc &+= o.count } }
    if let bc = try c.basicConstraints() { acc &+= (bc.isCA ? 1 : 0) &+ (bc.pathLength ?? 0) }
    if let ku = try c.keyUsage() { acc &+= Int(ku.rawValue) }
    if let san = try c.subjectAlternativeNames() {
        for n in san {
            blackHole(n)
            acc &+= 1
        }
    }
    return acc
}

func sigilChainVerifier(_ chain: Inputs.Chain) -> ChainVerifier {
    var store = TrustStore()
    store.add(try! Certificate(der: chain.root), source: .custom)
    return ChainVerifier(anchors: store)
}

/// A signature verifier that performs no cryptography: it records the questions the trust
/// layer asks (signature checks and the leaf-key check) and answers "valid". With it,
/// `TrustLayer<tag>_Sigil` measures `ChainParse<tag>_Sigil` minus the signature checks
/// (issue 11's "trust-layer cost"). Benchmark-only: never use such a verifier for real trust.
final class RecordingSignatureVerifier: CertificateSignatureVerifier, @unchecked Sendable {
    var signatureChecks = 0
    var keyChecks = 0
    func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
        signatureChecks &+= 1
        return .valid
    }
    func subjectPublicKeyIsValid(_ certificate: Certificate) -> Bool {
        keyChecks &+= 1
        return true
    }
}

func sigilOptions(_ chain: Inputs.Chain) -> VerificationOptions {
    VerificationOptions(purpose: .server(host: chain.host), time: Double(Inputs.time))
}

func registerSigilBenchmarks() {
    let leaf = Inputs.leaf

    Benchmark("ParseLeaf_Sigil") { b in
        for _ in b.scaledIterations { blackHole(try Certificate(der: leaf)) }
    }

    Benchmark("ParseWalkLeaf_Sigil") { b in
        for _ in b.scaledIterations { blackHole(try sigilWalk(try Certificate(der: leaf))) }
    }

    Benchmark("ParseDecodeExtensions_Sigil") { b in
        for _ in b.scaledIterations { blackHole(try sigilDecodeExtensions(try Certificate(der: leaf))) }
    }

    let roots = Inputs.bundleDER
    Benchmark("ParseSystemRoots_Sigil") { b in
        for _ in b.scaledIterations {
            for der in roots { blackHole(try Certificate(der: der)) }
        }
    }

    let bundle = Inputs.bundle
    Benchmark("PEMDecodeBundle_Sigil") { b in
        for _ in b.scaledIterations { blackHole(try PEM.decodeBlocks(bundle)) }
    }

    Benchmark("LoadBundleAnchors_Sigil") { b in
        for _ in b.scaledIterations {
            var store = TrustStore()
            let added = store.add(contentsOf: bundle, source: .system)
            precondition(added == roots.count)
            blackHole(store)
        }
    }

    // One signature: the leaf's, with the intermediate's key (RSA-4096 and P-521: their own
    // fixture pairs).
    for family in ["rsa2048", "rsa4096", "p256", "p384", "p521", "ed25519", "ed448"] {
        let chain = Inputs.chain(family)
        let child = try! Certificate(der: chain.leaf)
        let issuer = try! Certificate(der: chain.intermediate)
        precondition(CertificateSignature.verify(child, issuer: issuer) == .verified, "\(family) signature")
        Benchmark("VerifySignature\(Inputs.tag(family))_Sigil") { b in
            for _ in b.scaledIterations { blackHole(CertificateSignature.verify(child, issuer: issuer)) }
        }
    }

    // The EdDSA primitive alone over a 1 KiB message (RFC 8032 §5.1.7 / §5.2.7), an
    // OpenSSL-made signature: no certificate, no algorithm dispatch.
    for family in ["ed25519", "ed448"] {
        let sample = Inputs.eddsaSample(family)
        let is25519 = family == "ed25519"
        func verify() -> Bool {
            sample.signature.withUnsafeBytes { s in
                sample.message.withUnsafeBytes { m in
                    sample.publicKey.withUnsafeBytes { k in
                        do throws(CryptoError) {
                            if is25519 {
                                try Ed25519.verify(signature: s, message: m, publicKey: k)
                            } else {
                                try Ed448.verify(signature: s, message: m, publicKey: k)
                            }
                            return true
                        } catch {
                            return false
                        }
                    }
                }
            }
        }
        precondition(verify(), "\(family) 1 KiB signature")
        Benchmark("Verify\(Inputs.tag(family))_1KiB_Sigil") { b in
            for _ in b.scaledIterations { blackHole(verify()) }
        }
    }

    for size in [64, 1024, 16384] {
        let data = Inputs.bytes(size)
        let label = size >= 1024 ? "\(size / 1024)KiB" : "\(size)B"
        for engine in [SHA256Implementation.portable, .shaExtensions] {
            let name = engine == .portable ? "SigilPortable" : "SigilSHANI"
            if engine == .shaExtensions && !SHA256.hardwareAccelerationAvailable { continue }
            Benchmark("SHA256_\(label)_\(name)") { b in
                let previous = SHA256.implementation
                SHA256.setImplementation(engine)
                defer { SHA256.setImplementation(previous) }
                data.withUnsafeBytes { buf in
                    for _ in b.scaledIterations { blackHole(SHA256.hash(buf)) }
                }
            }
        }
    }

    // Chain validation with host name: root trusted, leaf + intermediate from the peer.
    for family in ["rsa2048", "p256", "p384", "ed25519"] {
        let chain = Inputs.chain(family)
        let verifier = sigilChainVerifier(chain)
        let options = sigilOptions(chain)
        let leafCert = try! Certificate(der: chain.leaf)
        let intermediates = [try! Certificate(der: chain.intermediate)]
        let check = verifier.verify(leaf: leafCert, intermediates: intermediates, options: options)
        precondition(check.isTrusted, "Sigil \(family) chain: \(check.failures)")
        let tag = Inputs.tag(family)
        let leafDER = chain.leaf
        let intermediateDER = chain.intermediate
        Benchmark("ChainParse\(tag)_Sigil") { b in
            for _ in b.scaledIterations {
                let l = try Certificate(der: leafDER)
                let i = try Certificate(der: intermediateDER)
                blackHole(verifier.verify(leaf: l, intermediates: [i], options: options).isTrusted)
            }
        }
        // The same work as ChainParse with the signature checks answered by a recorder: the
        // trust layer's own cost (parse of leaf + intermediate included).
        let recorder = RecordingSignatureVerifier()
        let recordingVerifier = ChainVerifier(anchors: verifier.anchors, signatureVerifier: recorder)
        let recorded = recordingVerifier.verify(leaf: leafCert, intermediates: intermediates, options: options)
        precondition(
            recorded.isTrusted && recorder.signatureChecks == 2 && recorder.keyChecks == 1,
            "Sigil \(family) trust layer: \(recorded.failures), \(recorder.signatureChecks) signature checks")
        Benchmark("TrustLayer\(tag)_Sigil") { b in
            recorder.signatureChecks = 0
            for _ in b.scaledIterations {
                let l = try Certificate(der: leafDER)
                let i = try Certificate(der: intermediateDER)
                blackHole(recordingVerifier.verify(leaf: l, intermediates: [i], options: options).isTrusted)
            }
            // Two signatures per verification (leaf by intermediate, intermediate by root).
            precondition(recorder.signatureChecks == 2 * b.scaledIterations.count)
        }
        Benchmark("ChainPreparsed\(tag)_Sigil") { b in
            for _ in b.scaledIterations {
                blackHole(verifier.verify(leaf: leafCert, intermediates: intermediates, options: options).isTrusted)
            }
        }
        // The one evaluator without a cache, as an application calls it: `CertificateTrust` with
        // the chain's root as its anchor (anchorsOnly, the default), certificates already parsed;
        // and with the system's roots in force too (anchorsOnly false, the store loaded once).
        // Against ChainPreparsed: what the evaluator adds around the verifier (its anchor store).
        var evaluateOptions = options
        evaluateOptions.anchors = [try! Certificate(der: chain.root)]
        let evaluateTrust = CertificateTrust(
            certificates: [leafCert] + intermediates, options: evaluateOptions, systemAnchors: TrustStore(),
            signatureVerifier: SigilSignatureVerifier())
        precondition(evaluateTrust.evaluate().isTrusted, "Sigil \(family) evaluate")
        Benchmark("TrustEvaluate\(tag)_Sigil") { b in
            for _ in b.scaledIterations { blackHole(evaluateTrust.evaluate().isTrusted) }
        }
        evaluateOptions.anchorsOnly = false
        let plusSystemTrust = CertificateTrust(
            certificates: [leafCert] + intermediates, options: evaluateOptions, systemAnchors: Inputs.systemStore,
            signatureVerifier: SigilSignatureVerifier())
        precondition(plusSystemTrust.evaluate().isTrusted, "Sigil \(family) evaluate with the system roots")
        Benchmark("TrustEvaluatePlusSystem\(tag)_Sigil") { b in
            for _ in b.scaledIterations { blackHole(plusSystemTrust.evaluate().isTrusted) }
        }
        // A repeated chain answered by a `VerdictCache` (certificates as the peer sent them,
        // already parsed; host and anchor as above): the lookup, the stored key compared in place.
        var cachedOptions = options
        cachedOptions.anchors = [try! Certificate(der: chain.root)]
        var cachedTrust = CertificateTrust(
            certificates: [leafCert] + intermediates, options: cachedOptions, systemAnchors: TrustStore(),
            signatureVerifier: SigilSignatureVerifier())
        cachedTrust.verdictCache = VerdictCache(capacity: 1024, maximumAge: 86_400)
        // Held as a constant, as a verifier object holds its evaluator: a `var` captured by the
        // benchmark closure would be copied out of its box on every call (≈ 600 instructions of
        // retains for `CertificateTrust`'s fields), which is the harness's cost, not the lookup's.
        let cachedEvaluator = cachedTrust
        precondition(cachedEvaluator.evaluate().isTrusted, "Sigil \(family) cached chain")
        Benchmark("ChainCached\(tag)_Sigil") { b in
            for _ in b.scaledIterations { blackHole(cachedEvaluator.evaluate().isTrusted) }
        }
        // The same repeated chain given as DER, as a TLS stack hands it over
        // (`CertificateTrust.evaluate(der:)`): the lookup compares the bytes, nothing is parsed.
        let presentedDER = [leafDER, intermediateDER]
        precondition(try! cachedEvaluator.evaluate(der: presentedDER).isTrusted, "Sigil \(family) cached DER chain")
        Benchmark("ChainCachedDER\(tag)_Sigil") { b in
            for _ in b.scaledIterations { blackHole(try cachedEvaluator.evaluate(der: presentedDER).isTrusted) }
        }
    }

    // Path building: cross-signed dead end + N unrelated intermediates + the real one.
    let poolChain = Pools.chain
    let poolVerifier = sigilChainVerifier(poolChain)
    let poolOptions = sigilOptions(poolChain)
    let poolLeaf = try! Certificate(der: poolChain.leaf)
    for n in [0, 100, 1000] {
        let intermediates = Pools.intermediates(pool: n).map { try! Certificate(der: $0) }
        let check = poolVerifier.verify(leaf: poolLeaf, intermediates: intermediates, options: poolOptions)
        precondition(check.isTrusted, "Sigil pool \(n): \(check.failures)")
        Benchmark("PathBuildPool\(n)_Sigil") { b in
            for _ in b.scaledIterations {
                blackHole(
                    poolVerifier.verify(leaf: poolLeaf, intermediates: intermediates, options: poolOptions).isTrusted)
            }
        }
    }
}
