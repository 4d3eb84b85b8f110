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
    /// entries of x||y (2 * limbs each); P-521 only: nil for P-256 and P-384, whose C kernels
    /// have static tables of their own (CSigilBignum/p256_gtable.h, p384_gtable.h).
    let gTable: UnsafeMutablePointer<UInt>!

    /// Window width of the base-point wNAF: 64 precomputed points; wider windows shorten the
    /// additions only a little more (1/(w+1) of the bits) while the table grows 2x per step.
    static let gWindow = 8  // at most 8: wNAF digits are stored as Int8
    static let gTableCount = 1 << (gWindow - 2)

    init<R: ECFieldImpl>(
        _ reduction: R.Type, orderBits: Int, p: [UInt], n: [UInt], b: [UInt], gx: [UInt], gy: [UInt],
        buildTable: Bool = true
    ) {
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
        guard buildTable else {
            self.gTable = nil
            return
        }
        self.gTable = UnsafeMutablePointer<UInt>.allocate(capacity: ECCurveData.gTableCount * 2 * l)
        ecBuildAffineOddMultiples(R.self, p: self.p, x: gx, y: gy, count: ECCurveData.gTableCount, into: gTable)
        // Fully reduced below p (a lazily reduced field leaves values below 2^(64 l)).
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * l + 2) { t in
            let f = ECFieldOps<R>(p: self.p, scratch: t.baseAddress!)
            for k in 0..<2 * ECCurveData.gTableCount { f.canonicalize(gTable + l * k) }
        }
    }
}

// Built on first use: Swift initialises globals lazily and exactly once (swift_once), which
// makes the base-point tables thread-safe without locks of our own.
let p256CurveData = ECCurveData(
    P256Field.self, orderBits: 256,
    p: [0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_ffff, 0x0000_0000_0000_0000, 0xffff_ffff_0000_0001],
    n: [0xf3b9_cac2_fc63_2551, 0xbce6_faad_a717_9e84, 0xffff_ffff_ffff_ffff, 0xffff_ffff_0000_0000],
    b: [0x3bce_3c3e_27d2_604b, 0x651d_06b0_cc53_b0f6, 0xb3eb_bd55_7698_86bc, 0x5ac6_35d8_aa3a_93e7],
    gx: [0xf4a1_3945_d898_c296, 0x7703_7d81_2deb_33a0, 0xf8bc_e6e5_63a4_40f2, 0x6b17_d1f2_e12c_4247],
    gy: [0xcbb6_4068_37bf_51f5, 0x2bce_3357_6b31_5ece, 0x8ee7_eb4a_7c0f_9e16, 0x4fe3_42e2_fe1a_7f9b],
    buildTable: false)

let p384CurveData = ECCurveData(
    P384Reduction.self, orderBits: 384,
    p: [
        0x0000_0000_ffff_ffff, 0xffff_ffff_0000_0000, 0xffff_ffff_ffff_fffe, 0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff,
    ],
    n: [
        0xecec_196a_ccc5_2973, 0x581a_0db2_48b0_a77a, 0xc763_4d81_f437_2ddf, 0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff,
    ],
    b: [
        0x2a85_c8ed_d3ec_2aef, 0xc656_398d_8a2e_d19d, 0x0314_088f_5013_875a, 0x181d_9c6e_fe81_4112,
        0x988e_056b_e3f8_2d19, 0xb331_2fa7_e23e_e7e4,
    ],
    gx: [
        0x3a54_5e38_7276_0ab7, 0x5502_f25d_bf55_296c, 0x59f7_41e0_8254_2a38, 0x6e1d_3b62_8ba7_9b98,
        0x8eb1_c71e_f320_ad74, 0xaa87_ca22_be8b_0537,
    ],
    gy: [
        0x7a43_1d7c_90ea_0e5f, 0x0a60_b1ce_1d7e_819d, 0xe9da_3113_b5f0_b8c0, 0xf8f4_1dbd_289a_147c,
        0x5d9e_98bf_9292_dc29, 0x3617_de4a_9626_2c6f,
    ],
    // The C kernel's static table (p384_gtable.h) serves u1 G: no Swift table of G.
    buildTable: false)

let p521CurveData = ECCurveData(
    P521Reduction.self, orderBits: 521,
    p: [
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x0000_0000_0000_01ff,
    ],
    n: [
        0xbb6f_b71e_9138_6409, 0x3bb5_c9b8_899c_47ae, 0x7fcc_0148_f709_a5d0, 0x5186_8783_bf2f_966b,
        0xffff_ffff_ffff_fffa,
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x0000_0000_0000_01ff,
    ],
    b: [
        0xef45_1fd4_6b50_3f00, 0x3573_df88_3d2c_34f1, 0x1652_c0bd_3bb1_bf07, 0x5619_3951_ec7e_937b,
        0xb8b4_8991_8ef1_09e1,
        0xa2da_725b_99b3_15f3, 0x929a_21a0_b685_40ee, 0x953e_b961_8e1c_9a1f, 0x0000_0000_0000_0051,
    ],
    gx: [
        0xf97e_7e31_c2e5_bd66, 0x3348_b3c1_856a_429b, 0xfe1d_c127_a2ff_a8de, 0xa14b_5e77_efe7_5928,
        0xf828_af60_6b4d_3dba,
        0x9c64_8139_053f_b521, 0x9e3e_cb66_2395_b442, 0x858e_06b7_0404_e9cd, 0x0000_0000_0000_00c6,
    ],
    gy: [
        0x88be_9476_9fd1_6650, 0x353c_7086_a272_c240, 0xc550_b901_3fad_0761, 0x97ee_7299_5ef4_2640,
        0x17af_bd17_273e_662c,
        0x98f5_4449_579b_4468, 0x5c8a_5fb4_2c7d_1bd9, 0x3929_6a78_9a3b_c004, 0x0000_0000_0000_0118,
    ])
