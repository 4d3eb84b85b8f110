import CSigilBignum

/// Limb helpers shared by P256KernelTests and P384KernelTests: little-endian 64-bit limbs of a
/// field element, `count` limbs (4 for P-256, 6 for P-384).
enum KernelLimbs {
    /// Big-endian hex of the limbs, zero-padded to 16 digits per limb.
    static func hex(_ l: [UInt]) -> String {
        l.reversed().map { String($0, radix: 16).leftPadded(16) }.joined()
    }

    /// The limbs of a hex number (at most 16·count digits).
    static func limbs(_ v: String, count: Int) -> [UInt] {
        let s = String(repeating: "0", count: max(0, 16 * count - v.count)) + v
        var out = [UInt](repeating: 0, count: count)
        let chars = Array(s.utf8)
        for i in 0..<count {
            let chunk = String(decoding: chars[(count - 1 - i) * 16..<(count - i) * 16], as: UTF8.self)
            out[i] = UInt(chunk, radix: 16)!
        }
        return out
    }

    /// v mod p for v < 2p.
    static func reduce(_ v: [UInt], _ p: [UInt]) -> [UInt] {
        guard limbsCompareArrays(v, p) >= 0 else { return v }
        var r = v
        var borrow: UInt = 0
        for i in 0..<p.count {
            let (d1, o1) = v[i].subtractingReportingOverflow(p[i])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            r[i] = d2
            borrow = (o1 || o2) ? 1 : 0
        }
        return r
    }

    /// p - k.
    static func pMinus(_ p: [UInt], _ k: UInt) -> [UInt] {
        var v = p
        var borrow = k
        for i in 0..<p.count where borrow != 0 {
            let (d, o) = v[i].subtractingReportingOverflow(borrow)
            v[i] = d
            borrow = o ? 1 : 0
        }
        return v
    }

    /// One field operation of a kernel (csigil_p256_field_op / csigil_p384_field_op).
    static func op(
        _ fn: (Int32, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt>?, UnsafePointer<UInt>?, Int32) -> Void,
        _ code: Int32, _ a: [UInt], _ b: [UInt], mulx: Bool
    ) -> [UInt] {
        var r = [UInt](repeating: 0, count: a.count)
        a.withUnsafeBufferPointer { ap in
            b.withUnsafeBufferPointer { bp in
                r.withUnsafeMutableBufferPointer { rp in
                    fn(code, rp.baseAddress!, ap.baseAddress!, bp.baseAddress!, mulx ? 1 : 0)
                }
            }
        }
        return r
    }
}
