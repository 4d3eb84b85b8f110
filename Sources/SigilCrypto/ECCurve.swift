/// The NIST prime curves Sigil verifies signatures on (FIPS 186-5, SP 800-186 §3.2.1).
/// All three have a = -3, prime order n (cofactor 1) and n < p.
public enum ECCurve: Sendable, Hashable, CaseIterable {
    /// secp256r1 / prime256v1, OID 1.2.840.10045.3.1.7.
    case p256
    /// secp384r1, OID 1.3.132.0.34.
    case p384
    /// secp521r1, OID 1.3.132.0.35.
    case p521

    /// Bit length of the field prime p and of the group order n (equal for these curves).
    @inlinable public var bitCount: Int {
        switch self {
        case .p256: return 256
        case .p384: return 384
        case .p521: return 521
        }
    }

    /// Bytes of one coordinate (and of one scalar) in fixed-length encodings: ceil(bits / 8).
    @inlinable public var coordinateByteCount: Int { (bitCount + 7) / 8 }

    /// Limbs (64-bit) of one field element or scalar.
    var limbCount: Int {
        switch self {
        case .p256: return 4
        case .p384: return 6
        case .p521: return 9
        }
    }
}

/// Constants of one curve and its base-point table, immutable once built. Allocated once per
/// process and never freed (these live as long as the globals below).
final class ECCurveData: @unchecked Sendable {
    let orderBits: Int
    /// Field prime, group order, curve coefficient b (little-endian limbs; b in the field's
    /// internal representation, see `ECFieldImpl`).
    let p: UnsafeMutablePointer<UInt>
    let n: UnsafeMutablePointer<UInt>
    let b: UnsafeMutablePointer<UInt>
    /// (p + 1) / 4: every one of these primes is 3 mod 4, so sqrt(a) = a^((p+1)/4) when a is a
    /// square (used to decompress points, SEC 1 §2.3.4).
    let sqrtExponent: UnsafeMutablePointer<UInt>
    /// Affine odd multiples G, 3G, ..., (2^(w-1) - 1)G for the wNAF of u1, `gTableCount`
    /// entries of x||y (2 * limbs each).
    let gTable: UnsafeMutablePointer<UInt>

    /// Window width of the base-point wNAF: 64 precomputed points; wider windows shorten the
    /// additions only a little more (1/(w+1) of the bits) while the table grows 2x per step.
    static let gWindow = 8  // at most 8: wNAF digits are stored as Int8
    static let gTableCount = 1 << (gWindow - 2)

    init<R: ECFieldImpl>(_ reduction: R.Type, orderBits: Int, p: [UInt], n: [UInt], b: [UInt], gx: [UInt], gy: [UInt]) {
        let l = R.limbCount
        self.orderBits = orderBits
        func constant(_ v: [UInt]) -> UnsafeMutablePointer<UInt> {
            let ptr = UnsafeMutablePointer<UInt>.allocate(capacity: l)
            for i in 0..<l { ptr[i] = v[i] }
            return ptr
        }
        self.p = constant(p)
        self.n = constant(n)
        // b in the field's internal representation (Montgomery form for P-256/P-384).
        let bInternal = constant(b)
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 3 * l + 2) { t in
            let tmp = t.baseAddress!
            limbsCopy(tmp + 2 * l + 2, bInternal, l)
            R.encode(bInternal, tmp + 2 * l + 2, tmp)
        }
        self.b = bInternal
        self.sqrtExponent = constant(p)
        // (p + 1) / 4: p + 1 does not overflow the limbs (p < 2^(64 l) - 1 for all three).
        var carry: UInt = 1
        for i in 0..<l {
            let (s, o) = sqrtExponent[i].addingReportingOverflow(carry)
            sqrtExponent[i] = s
            carry = o ? 1 : 0
        }
        for i in 0..<l {
            sqrtExponent[i] = (sqrtExponent[i] >> 2) | (i + 1 < l ? sqrtExponent[i + 1] << 62 : 0)
        }
        self.gTable = UnsafeMutablePointer<UInt>.allocate(capacity: ECCurveData.gTableCount * 2 * l)
        ecBuildAffineOddMultiples(R.self, p: self.p, x: gx, y: gy, count: ECCurveData.gTableCount, into: gTable)
        // Fully reduced below p (a lazily reduced field leaves values below 2^(64 l)): the P-256
        // C kernel negates y as p - y.
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * l + 2) { t in
            let f = ECFieldOps<R>(p: self.p, scratch: t.baseAddress!)
            for k in 0 ..< 2 * ECCurveData.gTableCount { f.canonicalize(gTable + l * k) }
        }
    }
}

// Built on first use: Swift initialises globals lazily and exactly once (swift_once), which
// makes the base-point tables thread-safe without locks of our own.
let p256CurveData = ECCurveData(
    P256Field.self, orderBits: 256,
    p: [0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001],
    n: [0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000],
    b: [0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7],
    gx: [0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247],
    gy: [0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b])

let p384CurveData = ECCurveData(
    P384Reduction.self, orderBits: 384,
    p: [0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff],
    n: [0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff],
    b: [0x2a85c8edd3ec2aef, 0xc656398d8a2ed19d, 0x0314088f5013875a, 0x181d9c6efe814112, 0x988e056be3f82d19, 0xb3312fa7e23ee7e4],
    gx: [0x3a545e3872760ab7, 0x5502f25dbf55296c, 0x59f741e082542a38, 0x6e1d3b628ba79b98, 0x8eb1c71ef320ad74, 0xaa87ca22be8b0537],
    gy: [0x7a431d7c90ea0e5f, 0x0a60b1ce1d7e819d, 0xe9da3113b5f0b8c0, 0xf8f41dbd289a147c, 0x5d9e98bf9292dc29, 0x3617de4a96262c6f])

let p521CurveData = ECCurveData(
    P521Reduction.self, orderBits: 521,
    p: [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
        0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x00000000000001ff],
    n: [0xbb6fb71e91386409, 0x3bb5c9b8899c47ae, 0x7fcc0148f709a5d0, 0x51868783bf2f966b, 0xfffffffffffffffa,
        0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x00000000000001ff],
    b: [0xef451fd46b503f00, 0x3573df883d2c34f1, 0x1652c0bd3bb1bf07, 0x56193951ec7e937b, 0xb8b489918ef109e1,
        0xa2da725b99b315f3, 0x929a21a0b68540ee, 0x953eb9618e1c9a1f, 0x0000000000000051],
    gx: [0xf97e7e31c2e5bd66, 0x3348b3c1856a429b, 0xfe1dc127a2ffa8de, 0xa14b5e77efe75928, 0xf828af606b4d3dba,
         0x9c648139053fb521, 0x9e3ecb662395b442, 0x858e06b70404e9cd, 0x00000000000000c6],
    gy: [0x88be94769fd16650, 0x353c7086a272c240, 0xc550b9013fad0761, 0x97ee72995ef42640, 0x17afbd17273e662c,
         0x98f54449579b4468, 0x5c8a5fb42c7d1bd9, 0x39296a789a3bc004, 0x0000000000000118])
