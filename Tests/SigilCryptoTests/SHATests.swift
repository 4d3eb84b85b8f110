import Foundation
import XCTest

@testable import SigilCrypto

final class SHATests: XCTestCase {
    override func tearDown() {
        SHA256.setImplementation(.shaExtensions)
    }

    /// Both SHA-256 engines (when the CPU has SHA-NI), to run every SHA-224/256 check twice.
    var sha256Engines: [SHA256Implementation] {
        SHA256.hardwareAccelerationAvailable ? [.portable, .shaExtensions] : [.portable]
    }

    private func runMsgFile(_ file: String, _ algorithm: HashAlgorithm, minimum: Int) throws {
        guard let data = Vectors.load("nist/" + file, test: file) else { return }
        let records = Vectors.rsp(data).filter { $0["Len"] != nil }
        XCTAssertGreaterThanOrEqual(records.count, minimum, file)
        let engines: [SHA256Implementation] =
            (algorithm == .sha256 || algorithm == .sha224) ? sha256Engines : [.portable]
        for engine in engines {
            SHA256.setImplementation(engine)
            var checked = 0
            for r in records {
                let bits = Int(r["Len"]!)!
                XCTAssertEqual(bits % 8, 0)
                let msg = Array(hexBytes(r["Msg"]!).prefix(bits / 8))
                let expected = r["MD"]!.lowercased()
                XCTAssertEqual(algorithm.hash(msg).hex, expected, "\(file) Len=\(bits) engine=\(engine)")
                if algorithm == .sha256 {
                    // The type's own one-shot entry (with SHA-NI: csigil_sha256_ni_oneshot).
                    XCTAssertEqual(
                        msg.withUnsafeBytes { SHA256.hash($0) }.hex, expected, "\(file) one-shot Len=\(bits)")
                }
                // Incremental, in uneven pieces.
                var h = IncrementalHash(algorithm)
                var i = 0
                var step = 1
                while i < msg.count {
                    let end = min(msg.count, i + step)
                    msg[i..<end].withUnsafeBytes { h.update($0) }
                    i = end
                    step = step * 3 + 1
                }
                XCTAssertEqual(h.finalize().hex, expected, "\(file) incremental Len=\(bits)")
                checked += 1
            }
            XCTAssertEqual(checked, records.count)
        }
    }

    func testSHA1Vectors() throws {
        try runMsgFile("SHA1ShortMsg.rsp", .sha1, minimum: 65)
        try runMsgFile("SHA1LongMsg.rsp", .sha1, minimum: 64)
    }

    func testSHA256Vectors() throws {
        try runMsgFile("SHA256ShortMsg.rsp", .sha256, minimum: 65)
        try runMsgFile("SHA256LongMsg.rsp", .sha256, minimum: 64)
    }

    func testSHA384Vectors() throws {
        try runMsgFile("SHA384ShortMsg.rsp", .sha384, minimum: 129)
        try runMsgFile("SHA384LongMsg.rsp", .sha384, minimum: 128)
    }

    func testSHA512Vectors() throws {
        try runMsgFile("SHA512ShortMsg.rsp", .sha512, minimum: 129)
        try runMsgFile("SHA512LongMsg.rsp", .sha512, minimum: 128)
    }

    /// CAVP SHA-256 Monte Carlo test (SHAVS §6.4): 100 checkpoints of 1000 chained hashes.
    func testSHA256Monte() throws {
        guard let data = Vectors.load("nist/SHA256Monte.rsp") else { return }
        let text = String(decoding: data, as: UTF8.self)
        guard let seedLine = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("Seed") }) else {
            return XCTFail("no seed")
        }
        var seed = hexBytes(String(seedLine.split(separator: "=")[1]))
        let expected = Vectors.rsp(data).compactMap { $0["MD"] }
        XCTAssertEqual(expected.count, 100)
        for engine in sha256Engines {
            SHA256.setImplementation(engine)
            var s = seed
            for j in 0..<expected.count {
                var md0 = s
                var md1 = s
                var md2 = s
                for _ in 3..<1003 {
                    var h = SHA256()
                    h.update(md0)
                    h.update(md1)
                    h.update(md2)
                    let next = h.finalize().bytes
                    md0 = md1
                    md1 = md2
                    md2 = next
                }
                XCTAssertEqual(hexString(md2), expected[j].lowercased(), "Monte j=\(j) engine=\(engine)")
                s = md2
            }
        }
        seed = []
    }

    /// FIPS 180-2 Appendix / NIST "Example Algorithms" digests (independent published values).
    func testPublishedExamples() {
        let abc = Array("abc".utf8)
        let two = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        for engine in sha256Engines {
            SHA256.setImplementation(engine)
            XCTAssertEqual(SHA224.hash(abc).hex, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
            XCTAssertEqual(SHA224.hash(two).hex, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
            XCTAssertEqual(SHA256.hash(abc).hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            XCTAssertEqual(
                SHA224.hash([UInt8](repeating: 0x61, count: 1_000_000)).hex,
                "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67")
        }
        XCTAssertEqual(SHA1.hash(abc).hex, "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(
            SHA384.hash(abc).hex,
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        XCTAssertEqual(
            SHA512.hash(abc).hex,
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
    }

    /// SHA-224 has no CAVP file here: compare with OpenSSL (an independent implementation) on
    /// many lengths around the block and padding boundaries.
    func testSHA224AgainstOpenSSL() throws {
        var rng = SystemRandomNumberGenerator()
        let lengths = Array(0...200) + [255, 256, 511, 512, 1000, 4096, 10_007]
        var msgs: [[UInt8]] = []
        for n in lengths { msgs.append((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
        // One openssl invocation per message is slow; batch through Python hashlib when present.
        let script = """
            import sys, hashlib
            for line in sys.stdin:
                print(hashlib.sha224(bytes.fromhex(line.strip())).hexdigest())
            """
        let input = msgs.map(hexString).joined(separator: "\n") + "\n"
        guard let out = runTool("/usr/bin/python3", ["-c", script], stdin: Data(input.utf8)) else {
            print("SKIPPED testSHA224AgainstOpenSSL: python3 not available")
            return
        }
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, msgs.count)
        for engine in sha256Engines {
            SHA256.setImplementation(engine)
            for (m, e) in zip(msgs, lines) { XCTAssertEqual(SHA224.hash(m).hex, e, "len \(m.count)") }
        }
        // And one value straight from the openssl CLI.
        if let o = runTool("/usr/bin/openssl", ["dgst", "-sha224", "-r"], stdin: Data(msgs[150])) {
            let hex = String(decoding: o, as: UTF8.self).split(separator: " ")[0]
            XCTAssertEqual(SHA224.hash(msgs[150]).hex, String(hex))
        }
    }

    /// The two SHA-256 engines agree on random inputs, lengths and split points.
    func testEnginesAgreeOnRandomInputs() {
        guard SHA256.hardwareAccelerationAvailable else {
            print("SKIPPED testEnginesAgreeOnRandomInputs: no SHA-NI on this CPU")
            return
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let n = Int.random(in: 0...3000, using: &rng)
            let msg = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let splits = (0..<3).map { _ in Int.random(in: 0...n, using: &rng) }.sorted()
            var results: [String] = []
            for engine in [SHA256Implementation.portable, .shaExtensions] {
                XCTAssertEqual(SHA256.setImplementation(engine), engine)
                var h = SHA256()
                var last = 0
                for s in splits + [n] {
                    msg[last..<s].withUnsafeBytes { h.update($0) }
                    last = s
                }
                results.append(h.finalize().hex)
                results.append(SHA256.hash(msg).hex)
                results.append(SHA224.hash(msg).hex)
            }
            XCTAssertEqual(results[0], results[1])
            XCTAssertEqual(Array(results[0...2]), Array(results[3...5]), "len \(n) splits \(splits)")
        }
    }

    func testFinalizeDoesNotConsume() {
        var h = SHA512()
        h.update(Array("ab".utf8))
        _ = h.finalize()
        h.update(Array("c".utf8))
        XCTAssertEqual(h.finalize(), SHA512.hash(Array("abc".utf8)))
        // Non-contiguous sequence path.
        XCTAssertEqual(
            SHA256.hash((0..<1000).lazy.map { UInt8(truncatingIfNeeded: $0) }),
            SHA256.hash((0..<1000).map { UInt8(truncatingIfNeeded: $0) }))
        XCTAssertEqual(HashAlgorithm.sha384.hash(Array("abc".utf8)).count, 48)
    }
}
