import Foundation
import XCTest

@testable import SigilCrypto

/// A quick timing loop for EdDSA verification (1 KiB message, as a certificate TBS), run only
/// when SIGIL_TIMING=1 (release build: `swift build -c release -Xswiftc -enable-testing
/// --build-tests`, then `SIGIL_TIMING=1 swift test -c release --skip-build --filter
/// EdDSATimingTests`). Prints the best of several rounds, in thread CPU time (the machine is
/// shared). The package-benchmark rows are the reference; this is for iterating.
final class EdDSATimingTests: XCTestCase {
    func cpuNanoseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
    }

    func best(_ rounds: Int, _ n: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let t0 = cpuNanoseconds()
            for _ in 0..<n { body() }
            best = min(best, (cpuNanoseconds() - t0) / Double(n))
        }
        return best / 1000
    }

    func testTiming() throws {
        guard ProcessInfo.processInfo.environment["SIGIL_TIMING"] == "1" else {
            print("SKIPPED EdDSATimingTests: set SIGIL_TIMING=1 (release build)")
            return
        }
        let data = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Fixtures/eddsa/signatures.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: [[String: String]]])
        for (name, curve) in [("ed25519", EdDSACurveForTests.ed25519), ("ed448", .ed448)] {
            let c = try XCTUnwrap(json[name]?.first { $0["message"]!.count == 2048 })  // the 1024-byte message
            let pk = hexBytes(c["publicKey"]!)
            let msg = hexBytes(c["message"]!)
            let sig = hexBytes(c["signature"]!)
            XCTAssertNil(eddsaCheck(curve, publicKey: pk, message: msg, signature: sig))
            var failures = 0
            let us = pk.withUnsafeBytes { p in
                msg.withUnsafeBytes { m in
                    sig.withUnsafeBytes { s in
                        best(15, curve == .ed25519 ? 2000 : 400) {
                            do throws(CryptoError) {
                                switch curve {
                                case .ed25519: try Ed25519.verify(signature: s, message: m, publicKey: p)
                                case .ed448: try Ed448.verify(signature: s, message: m, publicKey: p)
                                }
                            } catch { failures += 1 }
                        }
                    }
                }
            }
            XCTAssertEqual(failures, 0)
            let hashUs = msg.withUnsafeBytes { m in
                best(15, 2000) {
                    if curve == .ed25519 {
                        _ = SHA512.hash(m)
                    } else {
                        var h = SHAKE256()
                        h.update(m)
                        var out: (UInt64, UInt64) = (0, 0)
                        withUnsafeMutableBytes(of: &out) { h.squeeze(into: $0) }
                    }
                }
            }
            print(
                "TIMING \(name) verify, 1024-byte message: \(String(format: "%.2f", us)) µs (its hash alone \(String(format: "%.2f", hashUs)) µs)"
            )
        }
    }
}
