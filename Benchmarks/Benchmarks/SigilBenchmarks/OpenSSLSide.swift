import Benchmark
import COpenSSL
import Sigil

// OpenSSL 3's libcrypto through the small C helpers in Sources/COpenSSL, on the same inputs.

/// Owns OpenSSL objects for the lifetime of the process (benchmarks never free them).
final class OpenSSLHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer?) {
        guard let pointer else { fatalError("OpenSSL object creation failed") }
        self.pointer = pointer
    }
}

func openSSLParse(_ der: [UInt8]) -> OpenSSLHandle {
    OpenSSLHandle(der.withUnsafeBufferPointer { sb_x509_parse($0.baseAddress, $0.count) })
}

func openSSLChainContext(_ chain: Inputs.Chain) -> OpenSSLHandle {
    OpenSSLHandle(
        chain.root.withUnsafeBufferPointer {
            sb_chain_ctx_new($0.baseAddress, $0.count, chain.host, time_t(Inputs.time))
        })
}

func registerOpenSSLBenchmarks() {
    let leaf = Inputs.leaf

    Benchmark("ParseLeaf_OpenSSL") { b in
        leaf.withUnsafeBufferPointer { buf in
            for _ in b.scaledIterations { blackHole(sb_parse_and_free(buf.baseAddress, buf.count)) }
        }
    }

    let roots = Inputs.bundleDER
    Benchmark("ParseSystemRoots_OpenSSL") { b in
        for _ in b.scaledIterations {
            for der in roots {
                der.withUnsafeBufferPointer { blackHole(sb_parse_and_free($0.baseAddress, $0.count)) }
            }
        }
    }

    let bundle = Inputs.bundle
    Benchmark("PEMDecodeBundle_OpenSSL") { b in
        bundle.withUnsafeBufferPointer { buf in
            for _ in b.scaledIterations {
                let n = sb_pem_decode_all(buf.baseAddress, buf.count)
                precondition(n == roots.count)
            }
        }
    }

    Benchmark("LoadBundleAnchors_OpenSSL") { b in
        bundle.withUnsafeBufferPointer { buf in
            for _ in b.scaledIterations { blackHole(sb_store_load_pem(buf.baseAddress, buf.count)) }
        }
    }

    for family in ["rsa2048", "rsa4096", "p256", "p384", "p521", "ed25519", "ed448"] {
        let chain = Inputs.chain(family)
        let child = openSSLParse(chain.leaf)
        let issuer = openSSLParse(chain.intermediate)
        precondition(sb_x509_verify(child.pointer, issuer.pointer) == 1, "OpenSSL \(family) signature")
        Benchmark("VerifySignature\(Inputs.tag(family))_OpenSSL") { b in
            for _ in b.scaledIterations { blackHole(sb_x509_verify(child.pointer, issuer.pointer)) }
        }
    }

    // EdDSA: also EVP_DigestVerify alone over the certificate's TBS with the issuer's key (what
    // X509_verify does after re-encoding the TBS), and over the 1 KiB sample.
    for family in ["ed25519", "ed448"] {
        let chain = Inputs.chain(family)
        let parsed = try! Certificate(der: chain.leaf)
        let tbs = Array(parsed.tbsCertificate.bytes)
        let signature = Array(parsed.signature.bytes)
        let issuer = openSSLParse(chain.intermediate)
        let key = OpenSSLHandle(OpaquePointer(sb_x509_get0_pubkey(issuer.pointer)))
        func verify(_ key: OpenSSLHandle, _ message: [UInt8], _ signature: [UInt8]) -> Int32 {
            message.withUnsafeBufferPointer { m in
                signature.withUnsafeBufferPointer { s in
                    sb_eddsa_verify(
                        UnsafeMutableRawPointer(key.pointer), m.baseAddress, m.count, s.baseAddress, s.count)
                }
            }
        }
        precondition(verify(key, tbs, signature) == 1, "OpenSSL EVP \(family) TBS")
        Benchmark("VerifySignature\(Inputs.tag(family))_OpenSSLEVP") { b in
            for _ in b.scaledIterations { blackHole(verify(key, tbs, signature)) }
        }
        let sample = Inputs.eddsaSample(family)
        let raw = OpenSSLHandle(
            sample.publicKey.withUnsafeBufferPointer {
                OpaquePointer(sb_eddsa_raw_public_key(family == "ed448" ? 1 : 0, $0.baseAddress, $0.count))
            })
        precondition(verify(raw, sample.message, sample.signature) == 1, "OpenSSL EVP \(family) 1 KiB")
        Benchmark("Verify\(Inputs.tag(family))_1KiB_OpenSSLEVP") { b in
            for _ in b.scaledIterations { blackHole(verify(raw, sample.message, sample.signature)) }
        }
    }

    for size in [64, 1024, 16384] {
        let data = Inputs.bytes(size)
        let label = size >= 1024 ? "\(size / 1024)KiB" : "\(size)B"
        // The one-shot SHA256() (EVP under the hood in 3.0: fetch + context allocation) and the
        // low-level SHA256_Init/Update/Final (no allocation) — the faster one is the bar.
        for (suffix, hash) in [("OpenSSL", sb_sha256), ("OpenSSLLowLevel", sb_sha256_lowlevel)] {
            Benchmark("SHA256_\(label)_\(suffix)") { b in
                var out = [UInt8](repeating: 0, count: 32)
                data.withUnsafeBytes { buf in
                    out.withUnsafeMutableBufferPointer { o in
                        for _ in b.scaledIterations {
                            hash(buf.baseAddress, buf.count, o.baseAddress)
                            blackHole(o[0])
                        }
                    }
                }
            }
        }
    }

    for family in ["rsa2048", "p256", "p384", "ed25519"] {
        let chain = Inputs.chain(family)
        let tag = Inputs.tag(family)
        let parseContext = openSSLChainContext(chain)
        let preparsed = openSSLChainContext(chain)
        chain.leaf.withUnsafeBufferPointer { _ = sb_chain_set_leaf(preparsed.pointer, $0.baseAddress, $0.count) }
        chain.intermediate.withUnsafeBufferPointer {
            _ = sb_chain_add_intermediate(preparsed.pointer, $0.baseAddress, $0.count)
        }
        precondition(
            sb_chain_verify_parsed(preparsed.pointer) == 1,
            "OpenSSL \(family) chain: " + String(cString: sb_chain_last_error(preparsed.pointer)))
        let leafDER = chain.leaf
        let intermediateDER = chain.intermediate
        Benchmark("ChainParse\(tag)_OpenSSL") { b in
            leafDER.withUnsafeBufferPointer { l in
                intermediateDER.withUnsafeBufferPointer { i in
                    for _ in b.scaledIterations {
                        let ok = sb_chain_verify_der(
                            parseContext.pointer, l.baseAddress, l.count, i.baseAddress, i.count)
                        precondition(ok == 1)
                    }
                }
            }
        }
        Benchmark("ChainPreparsed\(tag)_OpenSSL") { b in
            for _ in b.scaledIterations { blackHole(sb_chain_verify_parsed(preparsed.pointer)) }
        }
    }

    for n in [0, 100, 1000] {
        let context = openSSLChainContext(Pools.chain)
        Pools.chain.leaf.withUnsafeBufferPointer { _ = sb_chain_set_leaf(context.pointer, $0.baseAddress, $0.count) }
        for der in Pools.intermediates(pool: n) {
            der.withUnsafeBufferPointer { _ = sb_chain_add_intermediate(context.pointer, $0.baseAddress, $0.count) }
        }
        precondition(
            sb_chain_verify_parsed(context.pointer) == 1,
            "OpenSSL pool \(n): " + String(cString: sb_chain_last_error(context.pointer)))
        Benchmark("PathBuildPool\(n)_OpenSSL") { b in
            for _ in b.scaledIterations { blackHole(sb_chain_verify_parsed(context.pointer)) }
        }
    }
}
