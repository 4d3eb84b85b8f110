// SHAKE256 (FIPS 202 §6.2): the Keccak-f[1600] permutation (FIPS 202 §3.3, §3.2.1–§3.2.5) in a
// sponge with rate 1088 bits (136 bytes), domain suffix 1111 and pad10*1 (FIPS 202 §5.1, §B.2).
// Ed448 (RFC 8032 §5.2) hashes with SHAKE256(x, 114). No heap allocation: the 25-lane state and
// the partial block are inline values.

/// The 24 round constants RC[i] of ι (FIPS 202 §3.2.5).
private let keccakRoundConstants:
    (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808a, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808b, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008a, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000a,
        0x0000_0000_8000_808b, 0x8000_0000_0000_008b, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800a, 0x8000_0000_8000_000a,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008
    )

@inline(__always) private func rotl(_ x: UInt64, _ n: UInt64) -> UInt64 { x << n | x >> (64 &- n) }

/// Keccak-f[1600] on 25 lanes A[x + 5y] (FIPS 202 §3.1.2: lane (x, y) at index x + 5y, bit z of a
/// lane its bit z, lanes little-endian in the byte string).
@inline(never)
func keccakF1600(_ s: UnsafeMutablePointer<UInt64>) {
    var a00 = s[0]
    var a10 = s[1]
    var a20 = s[2]
    var a30 = s[3]
    var a40 = s[4]
    var a01 = s[5]
    var a11 = s[6]
    var a21 = s[7]
    var a31 = s[8]
    var a41 = s[9]
    var a02 = s[10]
    var a12 = s[11]
    var a22 = s[12]
    var a32 = s[13]
    var a42 = s[14]
    var a03 = s[15]
    var a13 = s[16]
    var a23 = s[17]
    var a33 = s[18]
    var a43 = s[19]
    var a04 = s[20]
    var a14 = s[21]
    var a24 = s[22]
    var a34 = s[23]
    var a44 = s[24]
    withUnsafeBytes(of: keccakRoundConstants) { rcRaw in
        let rc = rcRaw.bindMemory(to: UInt64.self)
        for round in 0..<24 {
            // θ (§3.2.1): C[x] = xor of column x; D[x] = C[x-1] ^ rot(C[x+1], 1).
            let c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04
            let c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14
            let c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24
            let c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34
            let c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44
            let d0 = c4 ^ rotl(c1, 1)
            let d1 = c0 ^ rotl(c2, 1)
            let d2 = c1 ^ rotl(c3, 1)
            let d3 = c2 ^ rotl(c4, 1)
            let d4 = c3 ^ rotl(c0, 1)
            a00 ^= d0
            a01 ^= d0
            a02 ^= d0
            a03 ^= d0
            a04 ^= d0
            a10 ^= d1
            a11 ^= d1
            a12 ^= d1
            a13 ^= d1
            a14 ^= d1
            a20 ^= d2
            a21 ^= d2
            a22 ^= d2
            a23 ^= d2
            a24 ^= d2
            a30 ^= d3
            a31 ^= d3
            a32 ^= d3
            a33 ^= d3
            a34 ^= d3
            a40 ^= d4
            a41 ^= d4
            a42 ^= d4
            a43 ^= d4
            a44 ^= d4
            // ρ and π (§3.2.2, §3.2.3): B[y, 2x+3y] = rot(A[x, y], r[x, y]); bXY is B at (x, y).
            let b00 = a00
            let b13 = rotl(a01, 36)
            let b21 = rotl(a02, 3)
            let b34 = rotl(a03, 41)
            let b42 = rotl(a04, 18)
            let b02 = rotl(a10, 1)
            let b10 = rotl(a11, 44)
            let b23 = rotl(a12, 10)
            let b31 = rotl(a13, 45)
            let b44 = rotl(a14, 2)
            let b04 = rotl(a20, 62)
            let b12 = rotl(a21, 6)
            let b20 = rotl(a22, 43)
            let b33 = rotl(a23, 15)
            let b41 = rotl(a24, 61)
            let b01 = rotl(a30, 28)
            let b14 = rotl(a31, 55)
            let b22 = rotl(a32, 25)
            let b30 = rotl(a33, 21)
            let b43 = rotl(a34, 56)
            let b03 = rotl(a40, 27)
            let b11 = rotl(a41, 20)
            let b24 = rotl(a42, 39)
            let b32 = rotl(a43, 8)
            let b40 = rotl(a44, 14)
            // χ (§3.2.4): A[x, y] = B[x, y] ^ (~B[x+1, y] & B[x+2, y]); ι (§3.2.5) on A[0, 0].
            a00 = b00 ^ (~b10 & b20) ^ rc[round]
            a10 = b10 ^ (~b20 & b30)
            a20 = b20 ^ (~b30 & b40)
            a30 = b30 ^ (~b40 & b00)
            a40 = b40 ^ (~b00 & b10)
            a01 = b01 ^ (~b11 & b21)
            a11 = b11 ^ (~b21 & b31)
            a21 = b21 ^ (~b31 & b41)
            a31 = b31 ^ (~b41 & b01)
            a41 = b41 ^ (~b01 & b11)
            a02 = b02 ^ (~b12 & b22)
            a12 = b12 ^ (~b22 & b32)
            a22 = b22 ^ (~b32 & b42)
            a32 = b32 ^ (~b42 & b02)
            a42 = b42 ^ (~b02 & b12)
            a03 = b03 ^ (~b13 & b23)
            a13 = b13 ^ (~b23 & b33)
            a23 = b23 ^ (~b33 & b43)
            a33 = b33 ^ (~b43 & b03)
            a43 = b43 ^ (~b03 & b13)
            a04 = b04 ^ (~b14 & b24)
            a14 = b14 ^ (~b24 & b34)
            a24 = b24 ^ (~b34 & b44)
            a34 = b34 ^ (~b44 & b04)
            a44 = b44 ^ (~b04 & b14)
        }
    }
    s[0] = a00
    s[1] = a10
    s[2] = a20
    s[3] = a30
    s[4] = a40
    s[5] = a01
    s[6] = a11
    s[7] = a21
    s[8] = a31
    s[9] = a41
    s[10] = a02
    s[11] = a12
    s[12] = a22
    s[13] = a32
    s[14] = a42
    s[15] = a03
    s[16] = a13
    s[17] = a23
    s[18] = a33
    s[19] = a43
    s[20] = a04
    s[21] = a14
    s[22] = a24
    s[23] = a34
    s[24] = a44
}

/// SHAKE256 (FIPS 202 §6.2), incremental absorb then one squeeze of any length.
public struct SHAKE256: Sendable {
    /// Rate in bytes: 1600 - 2·256 bits = 1088 bits (FIPS 202 §6.2).
    public static let rate = 136
    typealias Lanes = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )
    var state: Lanes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Bytes absorbed into the current block (XORed into the state directly).
    var used = 0

    /// A fresh sponge (all-zero state).
    public init() {}

    /// XORs `bytes` into the state, permuting after every full block (FIPS 202 §4, Algorithm 8).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var offset = 0
        var used = self.used
        withUnsafeMutableBytes(of: &state) { raw in
            let lanes = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
            while offset < bytes.count {
                if used == 0 {
                    // Whole blocks straight from the input, a lane at a time.
                    while bytes.count - offset >= Self.rate {
                        for i in 0..<(Self.rate / 8) {
                            lanes[i] ^= UInt64(
                                littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 * i, as: UInt64.self))
                        }
                        keccakF1600(lanes)
                        offset += Self.rate
                    }
                    if offset == bytes.count { break }
                }
                let n = min(Self.rate - used, bytes.count - offset)
                for j in 0..<n {
                    // byte k of the state is byte k % 8 of lane k / 8 (little-endian lanes)
                    let k = used + j
                    lanes[k >> 3] ^= UInt64(bytes[offset + j]) << (UInt64(k & 7) * 8)
                }
                used += n
                offset += n
                if used == Self.rate {
                    keccakF1600(lanes)
                    used = 0
                }
            }
        }
        self.used = used
    }

    /// Pads (SHAKE suffix 1111 then pad10*1: the byte 0x1F at the first free position and 0x80
    /// into the last byte of the block, FIPS 202 §B.2) and squeezes `output.count` bytes. The
    /// value itself is not changed.
    public func squeeze(into output: UnsafeMutableRawBufferPointer) {
        var s = state
        let used = self.used
        withUnsafeMutableBytes(of: &s) { raw in
            let lanes = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
            lanes[used >> 3] ^= UInt64(0x1f) << (UInt64(used & 7) * 8)
            lanes[(Self.rate - 1) >> 3] ^= UInt64(0x80) << (UInt64((Self.rate - 1) & 7) * 8)
            var produced = 0
            while true {
                keccakF1600(lanes)
                let n = min(Self.rate, output.count - produced)
                for j in 0..<n {
                    output[produced + j] = UInt8(truncatingIfNeeded: lanes[j >> 3] >> (UInt64(j & 7) * 8))
                }
                produced += n
                if produced == output.count { break }
            }
        }
    }

    /// One-shot SHAKE256 of `bytes`, `count` output bytes, as an array (tests, tools).
    public static func hash(_ bytes: UnsafeRawBufferPointer, count: Int) -> [UInt8] {
        var h = SHAKE256()
        h.update(bytes)
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { h.squeeze(into: $0) }
        return out
    }
}
