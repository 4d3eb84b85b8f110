import Benchmark
import COpenSSL
import Sigil

// CRL load and lookup: a synthetic CRL of 1 000 000 entries (16-octet random serials, a UTCTime,
// a reasonCode extension each: ≈ 50 MB), generated here at setup, never committed. Sigil keeps
// the DER and one sorted array of entry offsets; OpenSSL's d2i_X509_CRL builds an object per entry.

enum BigCRL {
    static let entryCount = 1_000_000

    /// (DER, the serials in list order).
    static let made: ([UInt8], [[UInt8]]) = {
        var x: UInt64 = 0x243F_6A88_85A3_08D3
        func next() -> UInt64 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return x
        }
        var serials: [[UInt8]] = []
        serials.reserveCapacity(entryCount)
        var entries: [UInt8] = []
        entries.reserveCapacity(entryCount * 52)
        let date = Array("250101000000Z".utf8)
        let reason: [UInt8] = [0x30, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x15, 0x04, 0x03, 0x0A, 0x01, 0x01]
        for _ in 0..<entryCount {
            var s =
                withUnsafeBytes(of: next().bigEndian) { Array($0) }
                + withUnsafeBytes(of: next().bigEndian) { Array($0) }
            s[0] = (s[0] & 0x7F) | 0x01  // positive, 16 octets, minimal
            serials.append(s)
            let body: [UInt8] = [0x02, 0x10] + s + [0x17, 0x0D] + date + reason
            entries += [0x30, UInt8(body.count)] + body
        }
        func tlv(_ tag: UInt8, _ c: [UInt8]) -> [UInt8] {
            let n = c.count
            if n < 0x80 { return [tag, UInt8(n)] + c }
            if n < 0x100 { return [tag, 0x81, UInt8(n)] + c }
            if n < 0x10000 { return [tag, 0x82, UInt8(n >> 8), UInt8(n & 0xFF)] + c }
            if n < 0x1000000 { return [tag, 0x83, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + c }
            return [tag, 0x84, UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + c
        }
        let alg: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        let name = tlv(0x30, tlv(0x31, tlv(0x30, [0x06, 0x03, 0x55, 0x04, 0x03] + tlv(0x0C, Array("Big CA".utf8)))))
        let crlNumber: [UInt8] = [
            0xA0, 0x0E, 0x30, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x04, 0x03, 0x02, 0x01, 0x07,
        ]
        let tbs = tlv(
            0x30,
            [0x02, 0x01, 0x01] + alg + name + [0x17, 0x0D] + date + [0x17, 0x0D] + Array("350101000000Z".utf8)
                + tlv(0x30, entries) + crlNumber)
        let sig: [UInt8] = [0x03, 0x09, 0x00, 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]
        return (tlv(0x30, tbs + alg + sig), serials)
    }()
}

extension BigCRL {
    static let probeCount = 1 << 16
    /// The lookup inputs, made once (not in the timed loop, where flipping a byte of a copied
    /// array cost both libraries an allocation): even i a listed serial, odd i one not listed.
    static let probes: [[UInt8]] = (0..<probeCount).map { i in
        var s = made.1[(i * 7919) % made.1.count]
        if i & 1 == 1 { s[15] ^= 0x5A }
        return s
    }
}

/// The next probe, kept across samples: each sample runs one iteration, so a counter starting at 0
/// in the closure looked up the same (listed, cached) serial every time.
nonisolated(unsafe) var crlProbeCounter = 0

/// Loaded in the lookup benchmarks' setup (not timed).
nonisolated(unsafe) var sigilCRL: CertificateList?
nonisolated(unsafe) var openSSLCRL: UnsafeMutableRawPointer?

func registerRevocationBenchmarks() {
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 5)
    Benchmark("CRLLoad1M_Sigil", configuration: slow) { b in
        let der = BigCRL.made.0
        for _ in b.scaledIterations {
            let crl = try CertificateList(der: der)
            precondition(crl.revokedCount == BigCRL.entryCount)
            blackHole(crl)
        }
    }
    Benchmark("CRLLoad1M_OpenSSL", configuration: slow) { b in
        let der = BigCRL.made.0
        der.withUnsafeBufferPointer { buf in
            for _ in b.scaledIterations { precondition(sb_crl_parse_and_free(buf.baseAddress, buf.count) == 1) }
        }
    }

    // One lookup per iteration, alternating a listed serial and one not listed.
    Benchmark(
        "CRLLookup1M_Sigil",
        configuration: .init(setup: {
            sigilCRL = try CertificateList(der: BigCRL.made.0)
            _ = BigCRL.probes
        })
    ) { b in
        let crl = sigilCRL!
        let probes = BigCRL.probes
        var i = crlProbeCounter
        defer { crlProbeCounter = i }
        for _ in b.scaledIterations {
            // The lookup `RevocationChecker.entry(in:for:)` makes: the sorted-index range, then the
            // first entry decoded (no array; `entries(serial:)` also builds one).
            let found = crl.firstEntry(serial: probes[i & (BigCRL.probeCount - 1)])
            if i & 1 == 0 { precondition(found != nil) }
            blackHole(found)
            i += 1
        }
    }
    Benchmark(
        "CRLLookup1M_OpenSSL",
        configuration: .init(setup: {
            openSSLCRL = BigCRL.made.0.withUnsafeBufferPointer { sb_crl_parse($0.baseAddress, $0.count) }
            _ = sb_crl_lookup(openSSLCRL, [1], 1)  // the first lookup sorts
            _ = BigCRL.probes
        })
    ) { b in
        let probes = BigCRL.probes
        var i = crlProbeCounter
        defer { crlProbeCounter = i }
        for _ in b.scaledIterations {
            let s = probes[i & (BigCRL.probeCount - 1)]
            let found = s.withUnsafeBufferPointer { sb_crl_lookup(openSSLCRL, $0.baseAddress, $0.count) }
            if i & 1 == 0 { precondition(found == 1) }
            blackHole(found)
            i += 1
        }
    }
}
