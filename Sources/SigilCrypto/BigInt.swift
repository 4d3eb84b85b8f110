// A thin internal layer over GMP's low-level `mpn` functions (GMP manual §8 "Low-level
// Functions"): fixed-size little-endian limb vectors, caller-owned memory, no allocation.
// GMP types never leave this module; limbs are plain `UInt` (GMP's mp_limb_t on LP64).

import CGMP
import CSigilBignum
import Synchronization

/// Bits per limb. The `mpn` layer is only used on 64-bit limbs (x86-64, arm64 Linux/Darwin).
@usableFromInline let limbBits = 64

/// Loads the big-endian unsigned integer `bytes` into `count` little-endian limbs at `out`
/// (zero-filled above). Precondition: `bytes.count <= 8 * count`.
@inline(__always)
func limbsFromBigEndian(_ bytes: UnsafeRawBufferPointer, _ out: UnsafeMutablePointer<UInt>, _ count: Int) {
    var end = bytes.count
    var i = 0
    // Whole 8-byte limbs from the end (least significant first).
    while end >= 8 {
        out[i] = UInt(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)))
        end -= 8
        i += 1
    }
    if end > 0 {
        var v: UInt = 0
        for j in 0..<end { v = (v << 8) | UInt(bytes[j]) }
        out[i] = v
        i += 1
    }
    while i < count {
        out[i] = 0
        i += 1
    }
}

/// Writes the low `byteCount` bytes of the `count`-limb integer at `limbs` as big-endian bytes.
/// Returns false when the value does not fit (I2OSP "integer too large", RFC 8017 §4.1).
@inline(__always)
func limbsToBigEndian(_ limbs: UnsafePointer<UInt>, _ count: Int, _ out: UnsafeMutableRawPointer, _ byteCount: Int)
    -> Bool
{
    // Any non-zero byte beyond byteCount means the integer is too large.
    if byteCount < count * 8 {
        for k in byteCount..<(count * 8) where (limbs[k / 8] >> UInt((k % 8) * 8)) & 0xFF != 0 {
            return false
        }
    }
    // Whole limbs from the end (least significant first), then any remaining bytes one by one.
    var k = 0
    while k + 8 <= byteCount && k / 8 < count {
        out.storeBytes(of: UInt64(limbs[k / 8]).bigEndian, toByteOffset: byteCount - 8 - k, as: UInt64.self)
        k += 8
    }
    while k < byteCount {
        // Byte k from the least significant end goes to out[byteCount - 1 - k].
        let byte: UInt8 = k / 8 < count ? UInt8(truncatingIfNeeded: limbs[k / 8] >> UInt((k % 8) * 8)) : 0
        out.storeBytes(of: byte, toByteOffset: byteCount - 1 - k, as: UInt8.self)
        k += 1
    }
    return true
}

/// The Montgomery multiplication kernels `modPow` can run on.
@usableFromInline
enum MontgomeryKernel: Sendable, CaseIterable {
    /// GMP's `mpn` multiplication / squaring, then `redc` (GMP's `addmul_1` rows).
    case gmp
    /// CSigilBignum's MULX/ADX kernels (x86-64 with BMI2 and ADX only).
    case mulx
    /// CSigilBignum's AVX-512 IFMA exponentiation in radix 2^52 (rsa_ifma.c; x86-64 with
    /// AVX512F + AVX512-IFMA, moduli up to 64 limbs — larger ones run `mulx` or `gmp`).
    case ifma

    /// Whether this CPU can run the kernel.
    var isAvailable: Bool {
        switch self {
        case .gmp: return true
        case .mulx: return csigil_bignum_mulx_supported() != 0
        case .ifma: return csigil_bignum_ifma_supported() != 0
        }
    }

    /// The fastest kernel this CPU can run (the CPU checks are cached on the C side).
    @inline(__always)
    static var preferred: MontgomeryKernel {
        if csigil_bignum_ifma_supported() != 0 { return .ifma }
        return csigil_bignum_mulx_supported() != 0 ? .mulx : .gmp
    }
}

/// An odd modulus and the fixed exponent it is used with (RSA's public exponent), over memory
/// the caller owns and keeps alive while the view is used, so that x^e mod m is one call.
///
/// Montgomery 1985; the REDC loop is the word-by-word form (Koç, Acar & Kaliski 1996, "SOS"),
/// with carries parked in the limbs it zeroes, as GMP's own mpn_redc_1 does. R = 2^(64·n).
///
/// No R² mod m is kept for these kernels (the IFMA kernel has `IFMASquareCache`): entering
/// Montgomery form (x·R mod m) is one division per exponentiation instead of a division at set-up plus a Montgomery multiplication by R² per
/// exponentiation. Keys are usually parsed for one verification (a certificate's issuer key), so
/// this saves the set-up division and costs about as much as the multiplication it replaces.
struct MontgomeryView {
    /// m (n limbs, top limb non-zero) | e (`exponentCount` limbs, top limb non-zero); all
    /// little-endian.
    let limbs: UnsafePointer<UInt>
    /// n, the modulus size in limbs.
    let count: Int
    /// Limbs of e.
    let exponentCount: Int
    /// -m^-1 mod 2^64.
    let negInverse: UInt

    /// The limb counts (n, of e) for `modulus` and `exponent`, big-endian bytes without leading
    /// zeros; nil when the modulus is even or empty, or the exponent is empty (the caller checks
    /// e's other rules).
    @inline(__always)
    static func limbCounts(modulus: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard let last = modulus.last, last & 1 == 1, modulus[0] != 0, exponent.count > 0 else { return nil }
        return ((modulus.count + 7) / 8, (exponent.count + 7) / 8)
    }

    /// Writes m | e (n + el limbs, counts from `limbCounts`) at `out`; returns -m^-1 mod 2^64.
    @inline(__always)
    static func load(
        modulus: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt>,
        _ n: Int, _ el: Int
    ) -> UInt {
        limbsFromBigEndian(modulus, out, n)
        limbsFromBigEndian(exponent, out + n, el)
        // Newton–Hensel iteration for m0^-1 mod 2^64: x ← x(2 − m0·x) doubles the number
        // of correct low bits; m0·m0 ≡ 1 (mod 8) gives 3 to start, so 5 steps reach 96.
        let m0 = out[0]
        var inv = m0
        for _ in 0..<5 { inv = inv &* (2 &- m0 &* inv) }
        return 0 &- inv
    }

    /// Limbs of each of the two scratch areas `modPow` needs (kept apart so that each stays
    /// within the 1 KiB the standard library puts on the stack for 4096-bit moduli; above 1 KiB
    /// `withUnsafeTemporaryAllocation` allocates on the heap).
    static func scratchCount(_ n: Int) -> Int { 2 * n }

    /// r = REDC(t) = t · R^-1 mod m, fully reduced. `t` (2n limbs) is destroyed; `r` must not
    /// overlap `t`. Precondition: t < m·R (true for products of reduced values).
    @inline(__always)
    func redc(_ r: UnsafeMutablePointer<UInt>, _ t: UnsafeMutablePointer<UInt>, _ m: UnsafePointer<UInt>) {
        let n = count
        for i in 0..<n {
            let q = t[i] &* negInverse  // makes limb i of t + q·m·2^(64i) zero
            let carry = __gmpn_addmul_1(t + i, m, n, q)
            t[i] = carry  // park the carry (it belongs at limb i + n)
        }
        let top = __gmpn_add_n(r, t + n, t, n)
        // Result < 2m: one conditional subtraction reduces it.
        if top != 0 || limbsCompare(r, m, n) >= 0 {
            _ = __gmpn_sub_n(r, r, m, n)
        }
    }

    /// r = a · b · R^-1 mod m (a == b uses the squaring routine). `t`: 2n limbs of scratch
    /// (the double-length product, then REDC's working space).
    @inline(__always)
    func mul(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>,
        _ t: UnsafeMutablePointer<UInt>, _ m: UnsafePointer<UInt>, _ kernel: MontgomeryKernel
    ) {
        switch kernel {
        case .mulx:
            if a == b {
                csigil_mont_sqr_mulx(r, a, m, count, negInverse, t)
            } else {
                csigil_mont_mul_mulx(r, a, b, m, count, negInverse, t)
            }
        case .gmp, .ifma:  // (modPow never passes .ifma)
            if a == b {
                __gmpn_sqr(t, a, count)
            } else {
                __gmpn_mul_n(t, a, b, count)
            }
            redc(r, t, m)
        }
    }

    /// Whether the n-limb value at `x` is below m.
    func isReduced(_ x: UnsafePointer<UInt>) -> Bool { limbsCompare(x, limbs, count) < 0 }

    /// out = x^e mod m for x < m (n limbs), e the stored exponent, which must be odd and ≥ 3.
    /// Left-to-right square-and-multiply in Montgomery form; public exponents only, so no
    /// constant-time concern. `product` and `work`: `scratchCount(n)` limbs each, overlapping
    /// neither each other, `x` nor `out`.
    ///
    /// The last step multiplies by x in *ordinary* form, which both applies the exponent's
    /// low bit (always 1: e is odd) and leaves Montgomery form: Mont(x^(e-1)·R, x) = x^e.
    /// For e = 65537 that is one division (into Montgomery form), 16 squarings and 1
    /// multiplication.
    ///
    /// `kernel`: the multiplication kernel (default: the fastest this CPU runs); tests pick one.
    func modPow(
        _ x: UnsafePointer<UInt>, _ out: UnsafeMutablePointer<UInt>,
        product t: UnsafeMutablePointer<UInt>, work: UnsafeMutablePointer<UInt>,
        kernel: MontgomeryKernel = .preferred
    ) {
        let n = count
        let xm = work  // n: x·R mod m
        let acc = work + n  // n
        do {
            let m = limbs
            let e = m + n
            if kernel == .ifma {
                let v = csigil_rsa_ifma_vectors(n)
                if v != 0 {
                    // The IFMA kernel's R is 2^(416·v) (v vectors of eight 52-bit digits); it
                    // enters Montgomery form with one multiplication by R² mod m, a constant of
                    // the modulus kept in `IFMASquareCache` (see there), left in t.
                    IFMASquareCache.squareOfR(m, n, vectors: v, into: t)
                    csigil_rsa_modexp_ifma_rr(out, x, t, m, n, e, exponentCount)
                    return
                }
            }
            // Moduli too large for the IFMA kernel run the next fastest.
            let kernel = kernel != .ifma ? kernel : (MontgomeryKernel.mulx.isAvailable ? .mulx : .gmp)
            // x·R mod m: the remainder of x·2^(64n) (t = 0^n | x) by m, left in t's low n limbs
            // (GMP allows the remainder over the numerator); the n + 1 quotient limbs go to
            // `work`, which is free until xm is set.
            t.initialize(repeating: 0, count: n)
            (t + n).update(from: x, count: n)
            __gmpn_tdiv_qr(work, t, 0, t, 2 * n, m, n)
            xm.update(from: t, count: n)
            acc.update(from: t, count: n)
            let topLimb = exponentCount - 1
            let topBit = limbBits - 1 - e[topLimb].leadingZeroBitCount
            // Bits below the top one, down to bit 1; bit 0 is handled by the final step.
            var limb = topLimb
            var bit = topBit - 1
            while limb >= 0 {
                while bit >= 0 {
                    if limb == 0 && bit == 0 { break }
                    mul(acc, acc, acc, t, m, kernel)
                    if (e[limb] >> UInt(bit)) & 1 == 1 { mul(acc, acc, xm, t, m, kernel) }
                    bit -= 1
                }
                if limb == 0 { break }
                limb -= 1
                bit = limbBits - 1
            }
            // Bit 0 (= 1): square, then multiply by ordinary x to leave Montgomery form.
            mul(acc, acc, acc, t, m, kernel)
            mul(out, acc, x, t, m, kernel)
        }
    }

}

/// An odd modulus prepared for Montgomery multiplication, with the fixed exponent it is used
/// with (RSA's public exponent), so that x^e mod m is one call. The arithmetic lives in
/// `MontgomeryView`, which works on caller-owned memory; this type owns that memory.
///
/// Everything lives in one array (`storage` = m | e), so a key costs one allocation.
/// (`RSAPublicKey.withVerifyingKey(pkcs1DER:_:)` prepares a view in temporary memory instead:
/// no allocation per verification.)
@usableFromInline
struct MontgomeryModulus: Sendable, Hashable {
    /// m (n limbs, top limb non-zero) | e (`exponentCount` limbs, top
    /// limb non-zero); all little-endian.
    let storage: [UInt]
    /// n, the modulus size in limbs.
    let count: Int
    /// Limbs of e.
    let exponentCount: Int
    /// -m^-1 mod 2^64.
    let negInverse: UInt

    /// `modulus` and `exponent`: big-endian bytes without leading zeros. Returns nil when the
    /// modulus is even or empty, or the exponent is empty (the caller checks e's other rules).
    init?(bigEndian modulus: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer) {
        guard let (n, el) = MontgomeryView.limbCounts(modulus: modulus, exponent: exponent) else { return nil }
        var inverse: UInt = 0
        storage = [UInt](unsafeUninitializedCapacity: n + el) { buf, initialized in
            inverse = MontgomeryView.load(modulus: modulus, exponent: exponent, into: buf.baseAddress!, n, el)
            initialized = n + el
        }
        count = n
        exponentCount = el
        negInverse = inverse
    }

    /// Calls `body` with a view of this modulus (valid only inside `body`).
    @inline(__always)
    func withView<R>(_ body: (MontgomeryView) -> R) -> R {
        storage.withUnsafeBufferPointer { sb in
            body(
                MontgomeryView(
                    limbs: sb.baseAddress!, count: count, exponentCount: exponentCount, negInverse: negInverse))
        }
    }

    /// Limbs of each of the two scratch areas `modPow` needs (see `MontgomeryView.scratchCount`).
    static func scratchCount(_ n: Int) -> Int { MontgomeryView.scratchCount(n) }

    /// The Montgomery multiplication kernels `modPow` can run on.
    @usableFromInline typealias Kernel = MontgomeryKernel

    /// r = a · b · R^-1 mod m (see `MontgomeryView.mul`).
    @inline(__always)
    func mul(
        _ r: UnsafeMutablePointer<UInt>, _ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>,
        _ t: UnsafeMutablePointer<UInt>, _ m: UnsafePointer<UInt>, _ kernel: Kernel
    ) {
        MontgomeryView(limbs: m, count: count, exponentCount: 0, negInverse: negInverse).mul(r, a, b, t, m, kernel)
    }

    /// Whether the n-limb value at `x` is below m.
    func isReduced(_ x: UnsafePointer<UInt>) -> Bool { withView { $0.isReduced(x) } }

    /// out = x^e mod m (see `MontgomeryView.modPow`).
    func modPow(
        _ x: UnsafePointer<UInt>, _ out: UnsafeMutablePointer<UInt>,
        product t: UnsafeMutablePointer<UInt>, work: UnsafeMutablePointer<UInt>,
        kernel: Kernel = .preferred
    ) {
        withView { $0.modPow(x, out, product: t, work: work, kernel: kernel) }
    }

    /// m as big-endian bytes without leading zeros.
    var modulusBigEndian: [UInt8] { bigEndianBytes(0, count) }
    /// e as big-endian bytes without leading zeros.
    var exponentBigEndian: [UInt8] { bigEndianBytes(count, exponentCount) }

    private func bigEndianBytes(_ offset: Int, _ limbs: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(limbs * 8)
        for i in stride(from: offset + limbs - 1, through: offset, by: -1) {
            for shift in stride(from: 56, through: 0, by: -8) {
                let b = UInt8(truncatingIfNeeded: storage[i] >> UInt(shift))
                if out.isEmpty && b == 0 { continue }
                out.append(b)
            }
        }
        return out
    }
}

/// R² mod m for the IFMA kernel (R = 2^(416v)), for the last `capacity` moduli used: with it a
/// verification enters Montgomery form with one Montgomery multiplication instead of a division
/// (the division costs about a fifth of an RSA-2048 verification). Certificate chains reuse few
/// issuer keys (intermediates, roots), which this keeps across verifications and threads.
///
/// Why hostile input cannot confuse it: an entry is found only by comparing every limb of the
/// modulus (no hash, no prefix), and its value is a pure function of that modulus, computed here
/// by GMP's division; so a lookup returns R² mod m for exactly the modulus asked about, or
/// nothing. A peer presenting many keys can only evict entries (round robin), which costs later
/// verifications the division they would pay without the cache; the memory is bounded
/// (`capacity` entries of at most 2·64 limbs). Moduli are public, so keeping them is no leak.
struct IFMASquareCache: Sendable {
    /// Number of moduli kept.
    static let capacity = 8
    /// Each entry: m (n limbs) | R² mod m (n limbs).
    var entries: [[UInt]] = []
    /// The entry to replace next when full.
    var next = 0

    private static let shared = Mutex(IFMASquareCache())

    /// Writes R² mod m (R = 2^(416·vectors)) for the n-limb odd modulus m to `out` (n limbs).
    static func squareOfR(_ m: UnsafePointer<UInt>, _ n: Int, vectors v: Int, into out: UnsafeMutablePointer<UInt>) {
        let found = shared.withLock { (cache) -> Bool in
            for entry in cache.entries where entry.count == 2 * n {
                let hit = entry.withUnsafeBufferPointer { eb -> Bool in
                    let e = eb.baseAddress!
                    guard limbsCompare(e, m, n) == 0 else { return false }
                    out.update(from: e + n, count: n)
                    return true
                }
                if hit { return true }
            }
            return false
        }
        if found { return }
        // R² = 2^(832v) = 2^(64·13v): 13v zero limbs and a one; its remainder by m (GMP's
        // division, the quotient discarded). 13v + 1 ≥ n limbs since 416v ≥ 64n + 2.
        let top = 13 * v
        var numerator = [UInt](repeating: 0, count: top + 1)
        numerator[top] = 1
        var quotient = [UInt](repeating: 0, count: top + 2 - n)
        var entry = [UInt](repeating: 0, count: 2 * n)
        entry.withUnsafeMutableBufferPointer { eb in
            let e = eb.baseAddress!
            e.update(from: m, count: n)
            numerator.withUnsafeMutableBufferPointer { nb in
                quotient.withUnsafeMutableBufferPointer { qb in
                    __gmpn_tdiv_qr(qb.baseAddress!, e + n, 0, nb.baseAddress!, top + 1, m, n)
                }
            }
            out.update(from: e + n, count: n)
        }
        shared.withLock { cache in
            if cache.entries.count < capacity {
                cache.entries.append(entry)
            } else {
                cache.entries[cache.next] = entry
                cache.next = (cache.next + 1) % capacity
            }
        }
    }
}
