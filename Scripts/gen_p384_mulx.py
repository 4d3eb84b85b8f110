#!/usr/bin/env python3
"""Generates Sources/CSigilBignum/p384_mulx.h: the P-384 Montgomery product and square with MULX,
ADCX, ADOX (one asm statement each), included by p384.c in optimised x86-64 builds.

    python3 Scripts/gen_p384_mulx.py > Sources/CSigilBignum/p384_mulx.h

R = 2^384, -p^-1 = 2^32 + 1 (mod 2^64), p = 2^384 - c with c = 2^128 + 2^96 - 2^32 + 1.
Product: interleaved (CIOS) Montgomery multiplication: for i = 0..5, A += a·b_i (one row, the two
carry chains of Ozturk, Guilford, Gopal & Feghali (2012): low halves on CF with ADCX, high halves
on OF with ADOX), then one round A = (A + m·p) / 2^64 with m = A_0 (2^32 + 1) mod 2^64, formed
as A + m·2^384 - m·c with shifts (round_v), no product. For a, b < 2^384 the accumulator stays
below 2^385 after every round (6 limbs and a top bit) and below 2^450 after a row (8 limbs);
the result is below 2^384 + p (below 2p for a, b < p), the caller subtracts p once (final_sub).
Square: the 15 cross products once (rows on CF/OF), one pass doubling them (ADCX t, t) and adding
the six squares (ADOX), limb 0 and the high half parked in memory, six rounds on the low half
alone, then the high half added. Register names are rotated: the limb a round clears becomes
the top limb of the next row (product) or the window's new top (square).

Measured in a C harness (2026-12, AMD EPYC, 3 GHz, the whole u1·G + u2·Q of p384.c): 164.8 µs
with the compiler's MULX code (unsigned __int128), 138.2 µs with this product (the square as a
product), 135.1 µs with the dedicated square and final_sub's branch, 123.1 µs once the rounds
formed m·c with shifts instead of two MULX (hi(m c0) + lo(m c1)): the round's latency to the next
row was the bound (a product's latency was ~ its throughput in the harness).
"""

T = [f"t{k}" for k in range(8)]


def r(name):
    return f"%[{name}]"


def round_v(a0):
    """The multiple of p of one Montgomery round without a product. m = A_0 (2^32 + 1) mod 2^64
    (-p^-1 = 2^32 + 1) replaces A_0 in its register, and with p = 2^384 - c,
    A + m p = A + m 2^384 - m c where m c ≡ A_0 (mod 2^64). With t = A_0 << 32 (mod 2^64, which is
    also m << 32), u = m >> 32 and b0 the carry of A_0 + t (m = A_0 + t - b0 2^64),
    V = (m c - A_0) / 2^64 = (t - u - b0) + 2^64 (u + m) (checked exhaustively over edge cases and
    2·10^5 random limbs in Python). V0 = t - u - b0 with borrow beta, then u - beta >= 0 (beta = 1
    needs t < u + b0, impossible for u = 0: t = 0 gives b0 = 0), V1 + 2^64 V2 = u - beta + m.
    Leaves V0 in lo, V1 in hi, V2 in rdx; 9 instructions, its latency to V0 four single-cycle
    steps instead of a product's (the earlier version formed hi(m c0) + lo(m c1) with two MULX)."""
    return ["movl $32, %%edx",
            f"shlxq %%rdx, {a0}, %[lo]",  # t
            f"addq %[lo], {a0}",  # m, CF = b0
            f"shrxq %%rdx, {a0}, %[hi]",  # u (SHRX leaves the flags)
            "sbbq %[hi], %[lo]",  # V0 = t - u - b0, CF = beta
            "sbbq $0, %[hi]",  # u - beta, no borrow
            f"addq {a0}, %[hi]",  # V1, CF = V2
            "movl $0, %%edx",
            "adcq $0, %%rdx"]  # V2


def emit():
    L = []
    # Row 0: A = a·b_0 (A_7 = 0).
    A = T[:]
    L += [f"xorl %k[{A[7]}], %k[{A[7]}]", "movq %[b0], %%rdx",
          f"mulxq %[a0], {r(A[0])}, {r(A[1])}"]
    for j in range(1, 6):
        L += [f"mulxq %[a{j}], %[lo], {r(A[j + 1])}",
              f"{'addq' if j == 1 else 'adcq'} %[lo], {r(A[j])}"]
    L += [f"adcq $0, {r(A[6])}"]
    for i in range(6):
        if i > 0:
            # Row i: A += a·b_i. A_7 (the register the previous round cleared) starts at 0; the
            # xor also clears CF and OF.
            L += [f"xorl %k[{A[7]}], %k[{A[7]}]", f"movq %[b{i}], %%rdx"]
            for j in range(6):
                L += [f"mulxq %[a{j}], %[lo], %[hi]",
                      f"adcxq %[lo], {r(A[j])}",
                      f"adoxq %[hi], {r(A[j + 1])}"]
            # CF is owed to A_6, OF to A_7; mov leaves the flags alone.
            L += ["movl $0, %k[lo]",
                  f"adcxq %[lo], {r(A[6])}",
                  f"adoxq %[lo], {r(A[7])}",
                  f"adcxq %[lo], {r(A[7])}"]
        # Round (round_v): V in lo, hi, rdx; A_0's register holds m.
        L += round_v(r(A[0]))
        L += [f"addq {r(A[0])}, {r(A[6])}",  # + m·2^384 (limb 6 before the shift)
              f"adcq $0, {r(A[7])}",
              f"subq %[lo], {r(A[1])}",
              f"sbbq %[hi], {r(A[2])}",
              f"sbbq %%rdx, {r(A[3])}",
              f"sbbq $0, {r(A[4])}",
              f"sbbq $0, {r(A[5])}",
              f"sbbq $0, {r(A[6])}",
              f"sbbq $0, {r(A[7])}"]
        A = A[1:] + A[:1]
    return L, A


def emit_sqr():
    """The square: the 15 cross products a_i a_j (i < j) once (rows on CF/OF), then one pass that
    doubles them (ADCX t, t on CF) and adds the six squares a_i^2 (ADOX on OF); limb 0 and the
    high half go to memory (h, l0). Then six rounds on the low half alone (a window of six
    registers, the special form as in the product): S = (T_lo + M p) / 2^384 <= p, and
    S + T_hi = (T + M p) / 2^384 < 2p for T = a^2 < p^2: the caller subtracts p once."""
    t = {k: f"t{k}" for k in range(1, 11)}
    L = ["movq %[a0], %%rdx", f"mulxq %[a1], {r(t[1])}, {r(t[2])}"]
    for j in range(2, 6):
        L += [f"mulxq %[a{j}], %[lo], {r(t[j + 1])}", f"{'addq' if j == 2 else 'adcq'} %[lo], {r(t[j])}"]
    L += [f"adcq $0, {r(t[6])}"]
    for i in (1, 2, 3):
        top = t[i + 6]
        L += [f"xorl %k[{top}], %k[{top}]", f"movq %[a{i}], %%rdx"]
        for j in range(i + 1, 6):
            L += [f"mulxq %[a{j}], %[lo], %[hi]", f"adcxq %[lo], {r(t[i + j])}", f"adoxq %[hi], {r(t[i + j + 1])}"]
        L += ["movl $0, %k[lo]", f"adcxq %[lo], {r(top)}"]
    L += ["movq %[a4], %%rdx", f"mulxq %[a5], %[lo], {r(t[10])}", f"addq %[lo], {r(t[9])}", f"adcq $0, {r(t[10])}"]
    # Doubling (CF) and squares (OF).
    L += ["movq %[a0], %%rdx", "mulxq %%rdx, %[lo], %[hi]", "movq %[lo], %[l0]", "xorl %k[lo], %k[lo]",
          f"adcxq {r(t[1])}, {r(t[1])}", f"adoxq %[hi], {r(t[1])}"]
    for k in range(1, 5):
        L += [f"movq %[a{k}], %%rdx", "mulxq %%rdx, %[lo], %[hi]",
              f"adcxq {r(t[2 * k])}, {r(t[2 * k])}", f"adoxq %[lo], {r(t[2 * k])}",
              f"adcxq {r(t[2 * k + 1])}, {r(t[2 * k + 1])}", f"adoxq %[hi], {r(t[2 * k + 1])}"]
    # Limb 11 = hi(a5^2) + the two carries.
    L += ["movq %[a5], %%rdx", "mulxq %%rdx, %[lo], %[hi]",
          f"adcxq {r(t[10])}, {r(t[10])}", f"adoxq %[lo], {r(t[10])}",
          "movl $0, %k[lo]", "adcxq %[lo], %[hi]", "adoxq %[lo], %[hi]"]
    for k in range(6, 11):
        L += [f"movq {r(t[k])}, %[h{k - 6}]"]
    L += ["movq %[hi], %[h5]", f"movq %[l0], {r(t[6])}"]
    w = [t[6], t[1], t[2], t[3], t[4], t[5]]
    for _ in range(6):
        w0 = r(w[0])
        L += round_v(w0)
        L += [f"subq %[lo], {r(w[1])}", f"sbbq %[hi], {r(w[2])}", f"sbbq %%rdx, {r(w[3])}",
              f"sbbq $0, {r(w[4])}", f"sbbq $0, {r(w[5])}", f"sbbq $0, {w0}"]  # new top: m - borrow
        w = w[1:] + w[:1]
    L += [f"addq %[h0], {r(w[0])}"] + [f"adcq %[h{k}], {r(w[k])}" for k in range(1, 6)]
    L += ["movl $0, %k[lo]", "adcq $0, %[lo]"]
    return L, w


def main():
    L, A = emit()
    out = []
    out.append("/* Generated by Scripts/gen_p384_mulx.py; do not edit. Included by p384.c (optimised x86-64")
    out.append(" * builds, called only where the CPU has BMI2 and ADX). P-384 Montgomery product with MULX,")
    out.append(" * ADCX, ADOX: s + 2^384 top ≡ a·b·2^-384 (mod p), below 2^384 + p for a, b below 2^384, below")
    out.append(" * 2p for a, b below p (interleaved rows and reduction rounds, the rounds without products: see")
    out.append(" * the script). The limbs of a, b are memory operands; the result comes back in registers (the")
    out.append(" * caller subtracts p once). VARIABLE TIME callers only (p384.c), though these two are not. */")
    out.append("")
    out.append("INL void mont_mul_mulx(limb s[NL], limb *top, const fe *a, const fe *b) {")
    out.append("    limb t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, d;")
    out.append("    __asm__(")
    for ins in L:
        out.append(f'        "{ins}\\n\\t"')
    out.append('        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),')
    out.append('          [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d)')
    out.append('        : [a0] "m"(a->v[0]), [a1] "m"(a->v[1]), [a2] "m"(a->v[2]), [a3] "m"(a->v[3]),')
    out.append('          [a4] "m"(a->v[4]), [a5] "m"(a->v[5]), [b0] "m"(b->v[0]), [b1] "m"(b->v[1]),')
    out.append('          [b2] "m"(b->v[2]), [b3] "m"(b->v[3]), [b4] "m"(b->v[4]), [b5] "m"(b->v[5])')
    out.append('        : "cc");')
    out.append("    (void)d;")
    out.append("    " + " ".join(f"s[{k}] = {A[k]};" for k in range(6)))
    out.append(f"    *top = {A[6]};")
    out.append("}")
    L, w = emit_sqr()
    out.append("")
    out.append("/* s + 2^384 top ≡ a^2·2^-384 (mod p), below 2^384 + p for a below 2^384, below 2p for a below p. */")
    out.append("INL void mont_sqr_mulx(limb s[NL], limb *top, const fe *a) {")
    out.append("    limb t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, lo, hi, d, h[6], l0;")
    out.append("    __asm__(")
    for ins in L:
        out.append(f'        "{ins}\\n\\t"')
    out.append('        : [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),')
    out.append('          [t6] "=&r"(t6), [t7] "=&r"(t7), [t8] "=&r"(t8), [t9] "=&r"(t9), [t10] "=&r"(t10),')
    out.append('          [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d), [h0] "=m"(h[0]), [h1] "=m"(h[1]), [h2] "=m"(h[2]),')
    out.append('          [h3] "=m"(h[3]), [h4] "=m"(h[4]), [h5] "=m"(h[5]), [l0] "=m"(l0)')
    out.append('        : [a0] "m"(a->v[0]), [a1] "m"(a->v[1]), [a2] "m"(a->v[2]), [a3] "m"(a->v[3]),')
    out.append('          [a4] "m"(a->v[4]), [a5] "m"(a->v[5])')
    out.append('        : "cc");')
    out.append("    (void)d; (void)t7; (void)t8; (void)t9; (void)t10;")
    out.append("    " + " ".join(f"s[{k}] = {w[k]};" for k in range(6)))
    out.append("    *top = lo;")
    out.append("}")
    print("\n".join(out))


main()
