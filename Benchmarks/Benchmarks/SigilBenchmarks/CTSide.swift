import Benchmark
import Foundation
import Sigil

// Certificate Transparency: checking the 3 embedded SCTs of a 200-day certificate
// (Fixtures/ct/generated/d200-three.der, 3 P-256 logs) — the budget is ≤ 3.3 P-256
// verifications for the whole check — and the precertificate TBS reconstruction alone
// (RFC 6962 §3.2; budget ≤ 2 µs, ≤ 1 allocation).
func registerCTBenchmarks() {
    let dir = Inputs.root + "/Fixtures/ct/generated/"
    guard let leaf = try? Certificate(der: Inputs.read(dir + "d200-three.der")),
        let issuer = try? Certificate(der: Inputs.read(dir + "issuer.der")),
        let list = try? CTLogList(json: Inputs.read(dir + "log_list.json"))
    else { return }
    let time: Int64 = 1_780_272_000  // 2026-06-01, generate.py's time of check

    Benchmark("CTCheck3EmbeddedSCTs_Sigil") { b in
        for _ in b.scaledIterations {
            blackHole(SCTVerifier.check(leaf, issuer: issuer, logList: list, at: time))
        }
    }
    Benchmark("CTPrecertTBSReconstruct_Sigil") { b in
        for _ in b.scaledIterations {
            blackHole(PrecertificateTBS(leaf)?.count)
        }
    }
    // One P-256 verification, the unit of the budget above: the SCT, its log and the signed
    // data's digest are prepared here, outside the measured closure (inside it, that setup's
    // parsing, reconstruction and hashing counted as part of "one verification").
    guard case .sct(let sct)? = try? leaf.embeddedSCTs()?.first, let log = list.log(id: sct.logID),
        let p = PrecertificateTBS(leaf)
    else { return }
    let digest = SCTVerifier.signedDataDigest(
        sct, precert: p, issuerKeyHash: SHA256.hash(issuer.subjectPublicKeyInfo.bytes).bytes)
    Benchmark("CTOneP256Verify_Sigil") { b in
        for _ in b.scaledIterations {
            blackHole(SCTVerifier.verifySignature(sct, key: log.key, digest: digest))
        }
    }
}
