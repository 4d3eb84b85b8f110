import CGMP
import CSigilBignum
@_spi(SigilInternal) import SigilDER

/// An ECDSA public key on P-256, P-384 or P-521, validated on creation (SEC 1 §3.2.2.1 partial
/// public-key validation, which is complete for these prime-order curves): coordinates below p,
/// point on the curve, not the point at infinity.
///
/// Verification is not constant time: every input of a verification is public.
public struct ECDSAPublicKey: Sendable {
    /// The key's curve.
    public let curve: ECCurve
    /// x then y, `curve.limbCount` little-endian limbs each; room for P-521 (9 + 9).
    var storage: ECLimbStorage

    /// Parses an X9.62 / SEC 1 §2.3.3 point encoding, as carried in a SubjectPublicKeyInfo:
    /// uncompressed `04 || X || Y`, or compressed `02 || X` / `03 || X` (y recovered with
    /// sqrt = a^((p+1)/4), SEC 1 §2.3.4). Anything else (the infinity encoding `00`, hybrid
    /// `06`/`07`, wrong lengths, coordinates >= p, points off the curve) is `.malformedKey`.
    public init(curve: ECCurve, x963: UnsafeRawBufferPointer) throws(CryptoError) {
        self.curve = curve
        self.storage = ECLimbStorage()
        let size = curve.coordinateByteCount
        guard let form = x963.first else { throw .malformedKey }
        let ok: Bool
        switch form {
        case 0x04 where x963.count == 1 + 2 * size:
            let xb = UnsafeRawBufferPointer(rebasing: x963[1..<1 + size])
            let yb = UnsafeRawBufferPointer(rebasing: x963[1 + size..<1 + 2 * size])
            ok = storage.withLimbs { xy in
                ecSetPoint(curve, xy, x: xb, y: yb, compressedOdd: nil)
            }
        case 0x02 where x963.count == 1 + size, 0x03 where x963.count == 1 + size:
            let xb = UnsafeRawBufferPointer(rebasing: x963[1..<1 + size])
            ok = storage.withLimbs { xy in
                ecSetPoint(curve, xy, x: xb, y: nil, compressedOdd: form == 0x03)
            }
        default:
            ok = false
        }
        guard ok else { throw .malformedKey }
    }

    /// The uncompressed encoding `04 || X || Y`.
    public var x963Representation: [UInt8] {
        let size = curve.coordinateByteCount
        let l = curve.limbCount
        var out = [UInt8](repeating: 0, count: 1 + 2 * size)
        out[0] = 4
        var s = storage
        s.withLimbs { xy in
            out.withUnsafeMutableBytes { o in
                limbsToBigEndian(xy, l, UnsafeMutableRawBufferPointer(rebasing: o[1..<1 + size]))
                limbsToBigEndian(xy + l, l, UnsafeMutableRawBufferPointer(rebasing: o[1 + size..<1 + 2 * size]))
            }
        }
        return out
    }

    /// Verifies a DER `Ecdsa-Sig-Value` (RFC 5480 §2.2 / RFC 3279 §2.2.3,
    /// `SEQUENCE { r INTEGER, s INTEGER }`, strict DER, nothing after it) over a message
    /// digest (SEC 1 §4.1.4).
    ///
    /// - Parameter digest: the hash of the signed message, any length: the leftmost
    ///   min(8 * digest.count, bitCount) bits are used (SEC 1 §4.1.3 step 5), so SHA-512 with
    ///   P-256 works as X9.62 specifies. Which hash is acceptable is the caller's policy.
    /// - Throws: `.malformedSignature` for bad DER or r, s outside [1, n-1]; `.badSignature`
    ///   when the signature does not verify.
    public func verify(signatureDER: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer) throws(CryptoError) {
        try verify(signatureDER: signatureDER, digest: digest, p256UseMulx: true)
    }

    /// `p256UseMulx: false` runs P-256 and P-384 on the kernels' portable products even when the CPU
    /// has MULX/ADX (the tests check both paths on the same vectors).
    func verify(signatureDER: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer, p256UseMulx: Bool)
        throws(CryptoError)
    {
        let r: UnsafeRawBufferPointer
        let s: UnsafeRawBufferPointer
        do {
            var reader = DERReader(signatureDER)
            (r, s) = try reader.enter(.sequence) { (inner: inout DERReader) throws(DERError) in
                // readUnsignedIntegerBytes rejects empty, non-minimal and negative INTEGERs.
                let r = try inner.readUnsignedIntegerBytes()
                let s = try inner.readUnsignedIntegerBytes()
                return (r, s)
            }
            try reader.finish()
        } catch {
            throw .malformedSignature
        }
        try verify(r: r, s: s, digest: digest, p256UseMulx: p256UseMulx)
    }

    /// Verifies a signature given as the big-endian unsigned integers r and s, any length (leading
    /// zero bytes are allowed), over raw views. Sigil-internal (`@_spi(SigilInternal)`); outside
    /// Sigil use `verify(signatureDER:digest:)` or `verify(p1363Signature:digest:)`.
    @_spi(SigilInternal)
    public func verify(r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer)
        throws(CryptoError)
    {
        try verify(r: r, s: s, digest: digest, p256UseMulx: true)
    }

    /// Verifies an IEEE P1363 signature `r || s` (the JWS / JOSE form, RFC 7518 §3.4): exactly
    /// `2 * curve.coordinateByteCount` bytes, r then s, each big-endian and zero-padded to the
    /// coordinate size (32 bytes each for P-256, 48 for P-384, 66 for P-521), over a message
    /// digest as in `verify(signatureDER:digest:)`.
    ///
    /// - Throws: `.malformedSignature` for any other length or r, s outside [1, n-1];
    ///   `.badSignature` when the signature does not verify.
    public func verify(p1363Signature signature: [UInt8], digest: [UInt8]) throws(CryptoError) {
        let size = curve.coordinateByteCount
        guard signature.count == 2 * size else { throw .malformedSignature }
        let result = signature.withUnsafeBytes { (sig) -> Result<Void, CryptoError> in
            digest.withUnsafeBytes { (d) -> Result<Void, CryptoError> in
                do throws(CryptoError) {
                    try verify(
                        r: UnsafeRawBufferPointer(rebasing: sig[0..<size]),
                        s: UnsafeRawBufferPointer(rebasing: sig[size..<2 * size]), digest: d, p256UseMulx: true)
                    return .success(())
                } catch { return .failure(error) }
            }
        }
        try result.get()
    }

    /// Array convenience of `verify(signatureDER:digest:)`.
    public func verify(signatureDER: [UInt8], digest: [UInt8]) throws(CryptoError) {
        let result = signatureDER.withUnsafeBytes { (sig) -> Result<Void, CryptoError> in
            digest.withUnsafeBytes { (d) -> Result<Void, CryptoError> in
                do throws(CryptoError) {
                    try verify(signatureDER: sig, digest: d, p256UseMulx: true)
                    return .success(())
                } catch { return .failure(error) }
            }
        }
        try result.get()
    }

    /// Array convenience of `init(curve:x963:)`.
    public init(curve: ECCurve, x963: [UInt8]) throws(CryptoError) {
        let result = x963.withUnsafeBytes { (b) -> Result<ECDSAPublicKey, CryptoError> in
            do throws(CryptoError) { return .success(try ECDSAPublicKey(curve: curve, x963: b)) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    func verify(r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer, p256UseMulx: Bool)
        throws(CryptoError)
    {
        var st = storage
        let result = st.withLimbs { xy in
            switch curve {
            case .p256:
                return ecdsaVerify(
                    P256Field.self, p256CurveData, xy, r: r, s: s, digest: digest, p256UseMulx: p256UseMulx)
            case .p384:
                return ecdsaVerify(
                    P384Reduction.self, p384CurveData, xy, r: r, s: s, digest: digest, p256UseMulx: p256UseMulx)
            case .p521: return ecdsaVerify(P521Reduction.self, p521CurveData, xy, r: r, s: s, digest: digest)
            }
        }
        switch result {
        case .valid: return
        case .malformed: throw .malformedSignature
        case .invalid: throw .badSignature
        }
    }
}

/// Inline storage for two coordinates of up to 9 limbs (no heap allocation per key).
struct ECLimbStorage: Sendable {
    var limbs:
        (
            UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt,
            UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt
        )
    init() { limbs = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }

    mutating func withLimbs<T>(_ body: (UnsafeMutablePointer<UInt>) -> T) -> T {
        withUnsafeMutableBytes(of: &limbs) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: UInt.self))
        }
    }
}

enum ECVerifyResult { case valid, malformed, invalid }

// MARK: - Key validation

/// Decodes and validates a point into `xy` (x then y, `limbs` each). With `y == nil`, the
/// point is compressed and `compressedOdd` gives the parity of y.
func ecSetPoint(
    _ curve: ECCurve, _ xy: UnsafeMutablePointer<UInt>, x: UnsafeRawBufferPointer,
    y: UnsafeRawBufferPointer?, compressedOdd: Bool?
) -> Bool {
    switch curve {
    case .p256: return ecSetPoint(P256Field.self, p256CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    case .p384: return ecSetPoint(P384Reduction.self, p384CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    case .p521: return ecSetPoint(P521Reduction.self, p521CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    }
}

func ecSetPoint<R: ECFieldImpl>(
    _: R.Type, _ c: ECCurveData, _ xy: UnsafeMutablePointer<UInt>,
    x: UnsafeRawBufferPointer, y: UnsafeRawBufferPointer?, compressedOdd: Bool?
) -> Bool {
    let n = R.limbCount
    let X = xy
    let Y = xy + n
    guard limbsFromBigEndian(X, n, x), limbsCompare(X, c.p, n) < 0 else { return false }
    if let y {
        guard limbsFromBigEndian(Y, n, y), limbsCompare(Y, c.p, n) < 0 else { return false }
        if R.self == P256Field.self {
            // P-256, uncompressed: y^2 == x^3 - 3x + b (SEC 1 §3.2.2.1 step 3) in the C kernel
            // (CSigilBignum/p256.c, MULX products when the CPU has them); the generic field
            // below took ~0.4 % of a certificate signature verification.
            return csigil_p256_on_curve(X, Y, 1) != 0
        }
        if R.self == P384Reduction.self {
            // P-384, uncompressed: the same check in its C kernel (CSigilBignum/p384.c).
            return csigil_p384_on_curve(X, Y, 1) != 0
        }
    }
    return withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * n + 2 + 5 * n) { buf in
        let scratch = buf.baseAddress!
        let f = ECFieldOps<R>(p: c.p, scratch: scratch)
        let rhs = scratch + 2 * n + 2
        let t = rhs + n
        let u = t + n
        let xi = u + n
        let yi = xi + n
        // rhs = x^3 - 3x + b, in the field's internal representation.
        f.encode(xi, X)
        f.sqr(t, xi)
        f.mul(rhs, t, xi)
        f.add(t, xi, xi)
        f.add(t, t, xi)
        f.sub(rhs, rhs, t)
        f.add(rhs, rhs, c.b)
        if let odd = compressedOdd {
            // SEC 1 §2.3.4 step 2.4: y = sqrt(rhs) = rhs^((p+1)/4) (p = 3 mod 4); whether it
            // really is a square root is checked below.
            f.pow(yi, rhs, c.sqrtExponent, n)
            f.decode(Y, yi)
            if (Y[0] & 1 != 0) != odd {
                f.neg(yi, yi)
                f.decode(Y, yi)
            }
            // y = 0 has no odd root; such a point would have order 2, which these curves
            // (prime order) do not have, but refuse it explicitly anyway.
            if (Y[0] & 1 != 0) != odd { return false }
        } else {
            f.encode(yi, Y)
        }
        // y^2 == rhs (SEC 1 §3.2.2.1 step 3). Infinity has no affine encoding, so it can't
        // get here; cofactor 1 makes the order check (step 4) automatic.
        f.sqr(u, yi)
        return f.equal(u, rhs, scratch: xi)  // xi, yi: 2n limbs no longer needed
    }
}

// MARK: - Verification (SEC 1 §4.1.4)

let ecScratchLimbs = 704
let ecScratchDigits = 1056

/// Runs `body` with zeroed scratch on the stack: limbs for the arithmetic and the tables, and
/// Int8 wNAF digits. InlineArray rather than withUnsafeTemporaryAllocation, which
/// heap-allocates above 1 KiB on Linux (measured: one or two mallocs per verification).
@inline(__always)
func withECScratch<T>(_ body: (UnsafeMutablePointer<UInt>, UnsafeMutablePointer<Int8>) -> T) -> T {
    var limbs = InlineArray<704, UInt>(repeating: 0)
    var digits = InlineArray<1056, Int8>(repeating: 0)
    var limbSpan = limbs.mutableSpan
    var digitSpan = digits.mutableSpan
    return limbSpan.withUnsafeMutableBufferPointer { l in
        digitSpan.withUnsafeMutableBufferPointer { d in body(l.baseAddress!, d.baseAddress!) }
    }
}

/// Window of the wNAF of u2 (the per-key point Q): 8 odd multiples computed per verification.
private let qWindow = 5  // CSigilBignum/p256.c's QTABLE assumes this window for P-256
private let qTableCount = 1 << (qWindow - 2)

func ecdsaVerify<R: ECFieldImpl>(
    _: R.Type, _ c: ECCurveData, _ q: UnsafePointer<UInt>,
    r rBytes: UnsafeRawBufferPointer, s sBytes: UnsafeRawBufferPointer,
    digest: UnsafeRawBufferPointer, p256UseMulx: Bool = true
) -> ECVerifyResult {
    // p256UseMulx = false: the P-256 kernel's portable products even on a CPU with MULX/ADX
    // (tests run the vectors through both).
    let n = R.limbCount
    let arithLimbs = ECArith<R>.scratchLimbs
    // Layout of the scratch (limbs): arithmetic | R (3n) | Q table (8 entries of X, Y, Z, Z^2,
    // Z^3: 5n each) | scalars.
    let scalarLimbs = 16 * n + 16
    let entry = 5 * n
    let total = arithLimbs + 3 * n + qTableCount * entry + scalarLimbs
    let digitsCapacity = c.orderBits + 2
    // Internal sizes, fixed per curve (P-521: 648 limbs, 1046 digits).
    guard total <= ecScratchLimbs, 2 * digitsCapacity <= ecScratchDigits else { return .invalid }
    return withECScratch { base, digitBase -> ECVerifyResult in
        let acc = base + arithLimbs
        let qTable = acc + 3 * n
        let sc = qTable + qTableCount * entry
        let r = sc
        let s = r + n
        let e = s + n
        let w = e + n
        let u1 = w + n
        let u2 = u1 + n
        let prod = u2 + n  // 2n + 2
        let quot = prod + 2 * n + 2  // n + 2
        let gU = quot + n + 2  // n + 2
        let gV = gU + n + 2  // n + 2
        let gG = gV + n + 2  // n + 2
        let gS = gG + n + 2  // n + 2

        // Step 1: r, s in [1, n-1] (SEC 1 §4.1.4 step 1).
        guard limbsFromBigEndian(r, n, rBytes), limbsFromBigEndian(s, n, sBytes),
            !limbsIsZero(r, n), !limbsIsZero(s, n),
            limbsCompare(r, c.n, n) < 0, limbsCompare(s, c.n, n) < 0
        else { return .malformed }

        // Steps 2-3: e = leftmost min(bits(n), 8 * len) bits of the digest, as an integer, then
        // reduced mod n (e < 2^bits(n) < 2n, so one subtraction).
        let keepBytes = min(digest.count, (c.orderBits + 7) / 8)
        _ = limbsFromBigEndian(e, n, UnsafeRawBufferPointer(rebasing: digest[0..<keepBytes]))
        let excess = keepBytes * 8 - c.orderBits
        if digest.count * 8 > c.orderBits && excess > 0 {
            _ = __gmpn_rshift(e, e, n, UInt32(excess))
        }
        if limbsCompare(e, c.n, n) >= 0 { _ = limbsSub(e, e, c.n, n) }

        // Step 4: w = s^-1 mod n with GMP's extended gcd. mpn_gcdext wants un >= vn and a
        // non-zero top limb in V: take U = s + n (same residue, never shorter than n), V = n.
        // Then 1 = U S + n T, so S = s^-1 (mod n), with |S| < n.
        let carry = limbsAdd(gU, s, c.n, n)
        gU[n] = carry
        let un = carry != 0 ? n + 1 : n
        limbsCopy(gV, c.n, n)
        var sn = 0
        let gn = __gmpn_gcdext(gG, gS, &sn, gU, un, gV, n)
        guard gn == 1, gG[0] == 1, sn != 0, abs(sn) <= n else { return .invalid }  // n is prime: unreachable
        for i in abs(sn)..<n { gS[i] = 0 }
        if sn > 0 {
            limbsCopy(w, gS, n)
        } else {
            _ = limbsSub(w, c.n, gS, n)
        }

        // Step 5: u1 = e w mod n, u2 = r w mod n.
        __gmpn_mul_n(prod, e, w, n)
        __gmpn_tdiv_qr(quot, u1, 0, prod, 2 * n, c.n, n)
        __gmpn_mul_n(prod, r, w, n)
        __gmpn_tdiv_qr(quot, u2, 0, prod, 2 * n, c.n, n)

        // Step 6: R = u1 G + u2 Q by interleaved wNAF (Shamir's trick, one shared chain of
        // doublings; HMV algorithm 3.51): G from a precomputed affine table (mixed additions),
        // Q from 8 Jacobian odd multiples computed per verification (w = 5).
        let arith = ECArith<R>(p: c.p, scratch: base)
        if R.self == P256Field.self {
            // P-256: steps 6-8 in the C kernel (CSigilBignum/p256.c: MULX/ADX products when the
            // CPU has them; width-12 wNAF of u1 over its static table of G, p256_gtable.h): Q
            // converted there, R at infinity rejected (step 7), and x_R mod n == r checked as
            // below, with the Z^2 of the kernel's loop.
            return csigil_p256_verify(u1, u2, q, r, p256UseMulx ? 1 : 0) != 0 ? .valid : .invalid
        } else if R.self == P384Reduction.self {
            // P-384: the C kernel (CSigilBignum/p384.c: Montgomery products, MULX when the CPU
            // has it; width-12 wNAF of u1 over its static table of G, p384_gtable.h). Q goes in
            // and R comes out as plain integers below p (this field's representation).
            let finite = csigil_p384_mul_public(acc, u1, u2, q, p256UseMulx ? 1 : 0)
            // Step 7: R at infinity rejects.
            if finite == 0 { return .invalid }
        } else {
            // w = 8 for G (the table of ECCurveData), 5 for Q.
            let d1 = digitBase
            let d2 = d1 + digitsCapacity
            let len1 = ecWNAF(u1, n, bits: c.orderBits, window: ECCurveData.gWindow, into: d1)
            let len2 = ecWNAF(u2, n, bits: c.orderBits, window: qWindow, into: d2)
            ecInterleavedMul(arith, c, acc: acc, qTable: qTable, q: q, d1: d1, len1: len1, d2: d2, len2: len2)
            // Step 7: R at infinity rejects.
            if arith.isInfinity(acc) { return .invalid }
        }
        do {
            // Step 8: v = x_R mod n == r, without an inversion: x_R = X / Z^2, and since
            // n < p < 2n, x_R mod n == r  iff  x_R == r  or  x_R == r + n (when r + n < p).
            // So compare X with r Z^2 and, if that fits, (r + n) Z^2 (libsecp256k1's trick).
            let z2 = arith.T(0)
            let rz2 = arith.T(1)
            let rn = arith.T(2)
            let ri = arith.T(3)
            arith.f.sqr(z2, acc + 2 * n)
            arith.f.encode(ri, r)
            arith.f.mul(rz2, ri, z2)
            let cmp = arith.T(4)  // 2n limbs: T(4), T(5)
            if arith.f.equal(rz2, acc, scratch: cmp) { return .valid }
            if limbsAdd(rn, r, c.n, n) == 0 && limbsCompare(rn, c.p, n) < 0 {
                arith.f.encode(ri, rn)
                arith.f.mul(rz2, ri, z2)
                if arith.f.equal(rz2, acc, scratch: cmp) { return .valid }
            }
            return .invalid
        }
    }
}

/// Step 6 of SEC 1 §4.1.4 for P-384 and P-521 (P-256 runs the C kernel): R = u1 G + u2 Q by
/// interleaved wNAF, G from the affine table, Q from 8 Jacobian odd multiples built here in
/// `qTable` (X, Y, Z, Z^2, Z^3 per entry). Leaves R (Jacobian) in `acc`.
@inline(__always)
func ecInterleavedMul<R: ECFieldImpl>(
    _ arith: ECArith<R>, _ c: ECCurveData, acc: UnsafeMutablePointer<UInt>,
    qTable: UnsafeMutablePointer<UInt>, q: UnsafePointer<UInt>,
    d1: UnsafeMutablePointer<Int8>, len1: Int, d2: UnsafeMutablePointer<Int8>, len2: Int
) {
    let n = R.limbCount
    let entry = 5 * n
    arith.f.encode(qTable, q)
    arith.f.encode(qTable + n, q + n)
    arith.f.setOne(qTable + 2 * n)
    arith.dbl(acc, qTable)  // 2Q, temporarily in acc
    for k in 1..<qTableCount {
        let dst = qTable + entry * k
        limbsCopy(dst, dst - entry, 3 * n)
        arith.add(dst, dst, acc, acc + n, acc + 2 * n)
    }
    for k in 0..<qTableCount {
        let e = qTable + entry * k
        arith.f.sqr(e + 3 * n, e + 2 * n)
        arith.f.mul(e + 4 * n, e + 3 * n, e + 2 * n)
    }
    limbsSet(acc + 2 * n, 0, n)  // infinity
    var started = false
    var i = max(len1, len2) - 1
    while i >= 0 {
        if started { arith.dbl(acc, acc) }
        let a = i < len2 ? Int(d2[i]) : 0
        if a != 0 {
            let e = qTable + entry * (abs(a) >> 1)
            var y = UnsafePointer(e + n)
            if a < 0 {
                arith.f.neg(arith.negY, e + n)
                y = UnsafePointer(arith.negY)
            }
            arith.add(acc, acc, e, y, e + 2 * n, bzPowers: (UnsafePointer(e + 3 * n), UnsafePointer(e + 4 * n)))
            started = true
        }
        let b = i < len1 ? Int(d1[i]) : 0
        if b != 0 {
            let entry = c.gTable + 2 * n * (abs(b) >> 1)
            var y = UnsafePointer(entry + n)
            if b < 0 {
                arith.f.neg(arith.negY, entry + n)
                y = UnsafePointer(arith.negY)
            }
            arith.madd(acc, acc, entry, y)
            started = true
        }
        i -= 1
    }
}
