// EdDSA signature verification (RFC 8032): Ed25519 (§5.1.7) and Ed448 (§5.2.7), pure
// variants only (no context for Ed25519, dom4 with an empty context for Ed448: what RFC 8410
// X.509 signatures use). The hashing and the reduction of the hash modulo L are here; the group
// arithmetic is the C kernel of CSigilBignum (ed25519.c, ed448.c). No heap allocation per
// verification: digests, limbs and scalars live in fixed-size inline values.
//
// Semantics, as RFC 8032 writes them (where common libraries differ, the difference is named):
// - A and R decode strictly (§5.1.3 / §5.2.3): y >= p fails, x = 0 with the sign bit set fails,
//   a y without a square root fails. (Go's crypto/ed25519, OpenSSL 3.0 and BoringSSL accept a
//   non-canonical A with y >= p, and Go, OpenSSL and pyca an A with x = 0 and the sign bit set;
//   Sigil refuses both, as RFC 8032 asks: Fixtures/eddsa/ed25519-edges.json records each
//   verifier's verdict, Ed25519EdgeTests checks Sigil against RFC 8032's.)
// - S < L is required (§5.1.7 / §5.2.7 step 1); an S >= L is refused, not reduced.
// - The cofactorless equation [S]B = R + [k]A is checked (§5.1.7 step 3 and §5.2.7 step 3 say
//   it is sufficient), with R compared in its encoding: a signature whose R is a non-canonical
//   encoding of the right point fails.
// - Small-order and mixed-order A and R are accepted when the equation holds: RFC 8032 does not
//   exclude them, and neither does Sigil.

import CGMP
import CSigilBignum

/// Ed25519 signature verification (RFC 8032 §5.1.7, "pure" Ed25519, no context).
public enum Ed25519 {
    /// Public key length in bytes (RFC 8032 §5.1.5).
    public static let publicKeyCount = 32
    /// Signature length in bytes (RFC 8032 §5.1.6).
    public static let signatureCount = 64

    /// The group order L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1),
    /// little-endian 64-bit limbs.
    static let order: (UInt, UInt, UInt, UInt) = (
        0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 0x1000_0000_0000_0000
    )

    /// Verifies `signature` (64 bytes: R then S) over `message` with the 32-byte public key.
    /// Throws `.malformedKey` when the key does not decode (RFC 8032 §5.1.3),
    /// `.malformedSignature` for a wrong length, `.badSignature` otherwise.
    public static func verify(
        signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        guard publicKey.count == publicKeyCount else { throw .malformedKey }
        guard signature.count == signatureCount else { throw .malformedSignature }
        // §5.1.7 step 2: k = SHA-512(dom2(F, C) || R || A || PH(M)); dom2 is empty for Ed25519.
        var h = SHA512()
        h.update(UnsafeRawBufferPointer(rebasing: signature[0..<32]))
        h.update(publicKey)
        h.update(message)
        let digest = h.finalize()
        var k: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
        digest.withUnsafeBytes { d in
            reduce(d, modulo: order, into: &k)
        }
        let result = withUnsafeBytes(of: &k) { kb in
            csigil_ed25519_verify(
                signature.baseAddress!.assumingMemoryBound(to: UInt8.self),
                publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                kb.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        try eddsaVerdict(result)
    }

    /// Whether `publicKey` is a valid Ed25519 public key encoding (32 bytes that decode to a
    /// curve point per RFC 8032 §5.1.3).
    public static func isValidPublicKey(_ publicKey: UnsafeRawBufferPointer) -> Bool {
        guard publicKey.count == publicKeyCount else { return false }
        return csigil_ed25519_decode_point(publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self)) != 0
    }
}

/// Ed448 signature verification (RFC 8032 §5.2.7, "pure" Ed448 with an empty context: what
/// RFC 8410 §6 X.509 signatures use).
public enum Ed448 {
    /// Public key length in bytes (RFC 8032 §5.2.5).
    public static let publicKeyCount = 57
    /// Signature length in bytes (RFC 8032 §5.2.6).
    public static let signatureCount = 114

    /// L = 2^446 - 13818066809895115352007386748515426880336692474882178609894547503885
    /// (RFC 8032 §5.2), little-endian 64-bit limbs.
    static let order: (UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (
        0x2378_c292_ab58_44f3, 0x216c_c272_8dc5_8f55, 0xc44e_db49_aed6_3690, 0xffff_ffff_7cca_23e9,
        0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x3fff_ffff_ffff_ffff
    )

    /// dom4(0, "") (RFC 8032 §5.2): "SigEd448", octet(0) (not prehashed), octet(0) (context
    /// length), no context.
    static let dom4: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
        0x53, 0x69, 0x67, 0x45, 0x64, 0x34, 0x34, 0x38, 0x00, 0x00
    )

    /// Verifies `signature` (114 bytes: R then S) over `message` with the 57-byte public key.
    /// Throws `.malformedKey` when the key does not decode (RFC 8032 §5.2.3),
    /// `.malformedSignature` for a wrong length, `.badSignature` otherwise.
    public static func verify(
        signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        guard publicKey.count == publicKeyCount else { throw .malformedKey }
        guard signature.count == signatureCount else { throw .malformedSignature }
        // §5.2.7 step 2: k = SHAKE256(dom4(0, "") || R || A || M, 114), little-endian, mod L.
        var h = SHAKE256()
        var prefix = dom4
        withUnsafeBytes(of: &prefix) { h.update($0) }
        h.update(UnsafeRawBufferPointer(rebasing: signature[0..<57]))
        h.update(publicKey)
        h.update(message)
        var digest:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var k: (UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { d in
            let out = UnsafeMutableRawBufferPointer(rebasing: d[0..<114])
            h.squeeze(into: out)
            reduce(UnsafeRawBufferPointer(out), modulo: order, into: &k)
        }
        let result = withUnsafeBytes(of: &k) { kb in
            csigil_ed448_verify(
                signature.baseAddress!.assumingMemoryBound(to: UInt8.self),
                publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                kb.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        try eddsaVerdict(result)
    }

    /// Whether `publicKey` is a valid Ed448 public key encoding (57 bytes that decode to a curve
    /// point per RFC 8032 §5.2.3).
    public static func isValidPublicKey(_ publicKey: UnsafeRawBufferPointer) -> Bool {
        guard publicKey.count == publicKeyCount else { return false }
        return csigil_ed448_decode_point(publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self)) != 0
    }
}

/// A C kernel's answer (`csigil_ed25519_verify`, `csigil_ed448_verify`) as the seam's error:
/// the key did not decode (RFC 8032 §5.1.3 / §5.2.3), or the signature does not verify.
@inline(__always)
func eddsaVerdict(_ result: Int32) throws(CryptoError) {
    switch result {
    case CSIGIL_EDDSA_VALID: return
    case CSIGIL_EDDSA_BAD_KEY: throw .malformedKey
    default: throw .badSignature
    }
}

/// `bytes` (little-endian, any length up to 15 limbs) reduced modulo `modulus` (a tuple of
/// 64-bit limbs whose top limb is not zero) into `out`, with GMP's division on stack buffers.
@inline(__always)
func reduce<T>(_ bytes: UnsafeRawBufferPointer, modulo modulus: T, into out: inout T) {
    var m = modulus
    withUnsafeMutableBytes(of: &m) { mb in
        withUnsafeMutableBytes(of: &out) { ob in
            let dn = mb.count / 8
            // Limbs of the input; the quotient is not needed but GMP writes it (nn - dn + 1 limbs).
            var n: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var q = n
            withUnsafeMutableBytes(of: &n) { nb in
                withUnsafeMutableBytes(of: &q) { qb in
                    nb.copyMemory(from: bytes)
                    let nn = (bytes.count + 7) / 8
                    let np = nb.baseAddress!.assumingMemoryBound(to: UInt.self)
                    for i in 0..<nn { np[i] = UInt(littleEndian: np[i]) }
                    __gmpn_tdiv_qr(
                        qb.baseAddress!.assumingMemoryBound(to: UInt.self),
                        ob.baseAddress!.assumingMemoryBound(to: UInt.self), 0, np, nn,
                        mb.baseAddress!.assumingMemoryBound(to: UInt.self), dn)
                    let op = ob.baseAddress!.assumingMemoryBound(to: UInt.self)
                    for i in 0..<dn { op[i] = op[i].littleEndian }
                }
            }
        }
    }
}
