import CGMP
import SigilDER

/// An ECDSA public key on P-256, P-384 or P-521, validated on creation (SEC 1 §3.2.2.1 partial
/// public-key validation, which is complete for these prime-order curves): coordinates below p,
/// point on the curve, not the point at infinity.
///
/// Verification is not constant time: every input of a verification is public.
public struct ECDSAPublicKey: Sendable {
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
            let xb = UnsafeRawBufferPointer(rebasing: x963[1 ..< 1 + size])
            let yb = UnsafeRawBufferPointer(rebasing: x963[1 + size ..< 1 + 2 * size])
            ok = storage.withLimbs { xy in
                ecSetPoint(curve, xy, x: xb, y: yb, compressedOdd: nil)
            }
        case 0x02 where x963.count == 1 + size, 0x03 where x963.count == 1 + size:
            let xb = UnsafeRawBufferPointer(rebasing: x963[1 ..< 1 + size])
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
        let size = curve.coordinateByteCount, l = curve.limbCount
        var out = [UInt8](repeating: 0, count: 1 + 2 * size)
        out[0] = 4
        var s = storage
        s.withLimbs { xy in
            out.withUnsafeMutableBytes { o in
                limbsToBigEndian(xy, l, UnsafeMutableRawBufferPointer(rebasing: o[1 ..< 1 + size]))
                limbsToBigEndian(xy + l, l, UnsafeMutableRawBufferPointer(rebasing: o[1 + size ..< 1 + 2 * size]))
            }
        }
        return out
    }

    /// Verifies a DER `Ecdsa-Sig-Value` (RFC 5480 §2.2 / RFC 3279 §2.2.3,
    /// `SEQUENCE { r INTEGER, s INTEGER }`, strict DER, nothing after it) over a message
    /// digest (SEC 1 §4.1.4).
    ///
    /// - Throws: `.malformedSignature` for bad DER or r, s outside [1, n-1]; `.badSignature`
    ///   when the signature does not verify.
    public func verify(signatureDER: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer) throws(CryptoError) {
        let r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer
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
        try verify(r: r, s: s, digest: digest)
    }

    /// Verifies a signature given as the big-endian unsigned integers r and s (for instance the
    /// two halves of an IEEE P1363 / JWS `r || s` signature; leading zero bytes are allowed).
    public func verify(r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer) throws(CryptoError) {
        var st = storage
        let result = st.withLimbs { xy in
            switch curve {
            case .p256: return ecdsaVerify(P256Reduction.self, p256CurveData, xy, r: r, s: s, digest: digest)
            case .p384: return ecdsaVerify(P384Reduction.self, p384CurveData, xy, r: r, s: s, digest: digest)
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
    var limbs: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt,
                                  UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt)
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
func ecSetPoint(_ curve: ECCurve, _ xy: UnsafeMutablePointer<UInt>, x: UnsafeRawBufferPointer,
                y: UnsafeRawBufferPointer?, compressedOdd: Bool?) -> Bool {
    switch curve {
    case .p256: return ecSetPoint(P256Reduction.self, p256CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    case .p384: return ecSetPoint(P384Reduction.self, p384CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    case .p521: return ecSetPoint(P521Reduction.self, p521CurveData, xy, x: x, y: y, compressedOdd: compressedOdd)
    }
}

func ecSetPoint<R: ECReduction>(_: R.Type, _ c: ECCurveData, _ xy: UnsafeMutablePointer<UInt>,
                                x: UnsafeRawBufferPointer, y: UnsafeRawBufferPointer?, compressedOdd: Bool?) -> Bool {
    let n = R.limbCount
    let X = xy, Y = xy + n
    guard limbsFromBigEndian(X, n, x), limbsCompare(X, c.p, n) < 0 else { return false }
    if let y {
        guard limbsFromBigEndian(Y, n, y), limbsCompare(Y, c.p, n) < 0 else { return false }
    }
    return withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * n + 2 + 4 * n) { buf in
        let scratch = buf.baseAddress!
        let f = ECFieldOps<R>(p: c.p, scratch: scratch)
        let rhs = scratch + 2 * n + 2, t = rhs + n, u = t + n, w = u + n
        // rhs = x^3 - 3x + b
        f.sqr(t, X)
        f.mul(rhs, t, X)
        f.add(t, X, X)
        f.add(t, t, X)
        f.sub(rhs, rhs, t)
        f.add(rhs, rhs, c.b)
        if let odd = compressedOdd {
            // SEC 1 §2.3.4 step 2.4: y = sqrt(rhs), fails if rhs is not a square.
            f.pow(Y, rhs, c.sqrtExponent, n)
            if (Y[0] & 1 != 0) != odd { f.neg(Y, Y) }
            // Y = 0 with odd parity requested: neg(0) = 0 stays even; the check below passes
            // (0^2 = rhs = 0) only for a point of order 2, which these curves do not have.
            if (Y[0] & 1 != 0) != odd { return false }
        }
        // y^2 == rhs (SEC 1 §3.2.2.1 step 3). Infinity has no affine encoding, so it can't
        // get here; cofactor 1 makes the order check (step 4) automatic.
        f.sqr(u, Y)
        _ = w
        return limbsCompare(u, rhs, n) == 0
    }
}

// MARK: - Verification (SEC 1 §4.1.4)

/// Window of the wNAF of u2 (the per-key point Q): 8 odd multiples computed per verification.
private let qWindow = 5
private let qTableCount = 1 << (qWindow - 2)

func ecdsaVerify<R: ECReduction>(_: R.Type, _ c: ECCurveData, _ q: UnsafePointer<UInt>,
                                 r rBytes: UnsafeRawBufferPointer, s sBytes: UnsafeRawBufferPointer,
                                 digest: UnsafeRawBufferPointer) -> ECVerifyResult {
    let n = R.limbCount
    let arithLimbs = ECArith<R>.scratchLimbs
    // Layout of the scratch (limbs): arithmetic | R (3n) | Q table (8 * 3n) | scalars.
    let scalarLimbs = 16 * n + 16
    let total = arithLimbs + 3 * n + qTableCount * 3 * n + scalarLimbs
    return withUnsafeTemporaryAllocation(of: UInt.self, capacity: total) { buf -> ECVerifyResult in
        let base = buf.baseAddress!
        let acc = base + arithLimbs
        let qTable = acc + 3 * n
        let sc = qTable + qTableCount * 3 * n
        let r = sc, s = r + n, e = s + n, w = e + n, u1 = w + n, u2 = u1 + n
        let prod = u2 + n                      // 2n + 2
        let quot = prod + 2 * n + 2            // n + 2
        let gU = quot + n + 2                  // n + 2
        let gV = gU + n + 2                    // n + 2
        let gG = gV + n + 2                    // n + 2
        let gS = gG + n + 2                    // n + 2

        // Step 1: r, s in [1, n-1] (SEC 1 §4.1.4 step 1).
        guard limbsFromBigEndian(r, n, rBytes), limbsFromBigEndian(s, n, sBytes),
              !limbsIsZero(r, n), !limbsIsZero(s, n),
              limbsCompare(r, c.n, n) < 0, limbsCompare(s, c.n, n) < 0 else { return .malformed }

        // Steps 2-3: e = leftmost min(bits(n), 8 * len) bits of the digest, as an integer, then
        // reduced mod n (e < 2^bits(n) < 2n, so one subtraction).
        let keepBytes = min(digest.count, (c.orderBits + 7) / 8)
        _ = limbsFromBigEndian(e, n, UnsafeRawBufferPointer(rebasing: digest[0 ..< keepBytes]))
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
        for i in abs(sn) ..< n { gS[i] = 0 }
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
        // doublings; HMV algorithm 3.51): G from the precomputed affine table (w = 8, mixed
        // additions), Q from 8 Jacobian odd multiples computed here (w = 5).
        let arith = ECArith<R>(p: c.p, scratch: base)
        limbsCopy(qTable, q, 2 * n)
        limbsSet(qTable + 2 * n, 1, n)
        arith.dbl(acc, qTable)  // 2Q, temporarily in acc
        for k in 1 ..< qTableCount {
            let dst = qTable + 3 * n * k
            limbsCopy(dst, dst - 3 * n, 3 * n)
            arith.add(dst, dst, acc, acc + n, acc + 2 * n)
        }
        let digitsCapacity = c.orderBits + 2
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * digitsCapacity) { dbuf -> ECVerifyResult in
            let d1 = dbuf.baseAddress!, d2 = d1 + digitsCapacity
            let len1 = ecWNAF(u1, n, window: ECCurveData.gWindow, into: d1, work: prod)
            let len2 = ecWNAF(u2, n, window: qWindow, into: d2, work: prod)
            limbsSet(acc + 2 * n, 0, n)  // infinity
            var started = false
            var i = max(len1, len2) - 1
            while i >= 0 {
                if started { arith.dbl(acc, acc) }
                let a = i < len2 ? Int(d2[i]) : 0
                if a != 0 {
                    let entry = qTable + 3 * n * (abs(a) >> 1)
                    var y = UnsafePointer(entry + n)
                    if a < 0 { arith.f.neg(arith.negY, entry + n); y = UnsafePointer(arith.negY) }
                    arith.add(acc, acc, entry, y, entry + 2 * n)
                    started = true
                }
                let b = i < len1 ? Int(d1[i]) : 0
                if b != 0 {
                    let entry = c.gTable + 2 * n * (abs(b) >> 1)
                    var y = UnsafePointer(entry + n)
                    if b < 0 { arith.f.neg(arith.negY, entry + n); y = UnsafePointer(arith.negY) }
                    arith.madd(acc, acc, entry, y)
                    started = true
                }
                i -= 1
            }
            // Step 7: R at infinity rejects.
            if arith.isInfinity(acc) { return .invalid }
            // Step 8: v = x_R mod n == r, without an inversion: x_R = X / Z^2, and since
            // n < p < 2n, x_R mod n == r  iff  x_R == r  or  x_R == r + n (when r + n < p).
            // So compare X with r Z^2 and, if that fits, (r + n) Z^2 (libsecp256k1's trick).
            let z2 = arith.T(0), rz2 = arith.T(1), rn = arith.T(2)
            arith.f.sqr(z2, acc + 2 * n)
            arith.f.mul(rz2, r, z2)
            if limbsCompare(rz2, acc, n) == 0 { return .valid }
            if limbsAdd(rn, r, c.n, n) == 0 && limbsCompare(rn, c.p, n) < 0 {
                arith.f.mul(rz2, rn, z2)
                if limbsCompare(rz2, acc, n) == 0 { return .valid }
            }
            return .invalid
        }
    }
}
