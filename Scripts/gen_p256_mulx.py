#!/usr/bin/env python3
"""Generates Sources/CSigilBignum/p256_mulx.h: the P-256 Montgomery multiplication and squaring
(MULX/ADCX/ADOX, one asm statement each, product and reduction together) included by p256.c.

    python3 Scripts/gen_p256_mulx.py > Sources/CSigilBignum/p256_mulx.h

Both form the whole 512-bit product T = T_lo + 2^256 T_hi first (mul, sqr), then reduce_tail:
four Montgomery rounds on T_lo alone, then T_hi added and p subtracted once if that carried.
p = 2^256 - 2^224 + 2^192 + 2^96 - 1 and -p^-1 = 1 (mod 2^64), so a round's multiple of p
(m = the low limb) is m·p = m·2^256 - m·2^224 + m·2^192 + m·2^96 - m: shifts, additions and
subtractions, no product (reduce_round). Register names are rotated (the window of the rounds
moves down one register per round instead of moving data).

Measured in a C harness (2026-12, AMD EPYC Zen 4) against the previous version, which
interleaved one reduction round after each row of the product (12 instructions a round, m·p3
formed with register copies): the double-scalar multiplication executes ~12 % fewer
instructions (callgrind) and ran ~2 % faster with the same point formulas (pdbl's order was
then re-tuned for these products, p256.c). Variants that were no faster there: the interleaved
form with these rounds (a count register for SHLX/SHRX) or with 11-instruction rounds; rounds
forming m·p3 off the carry chain (lo = m - t, hi = m - u - borrow); the final correction as a
CMOV of y - p (shorter latency, 5 more instructions: 2-3 % slower); b passed in the registers
of T_hi instead of memory (slower: register pressure around the asm).

Differences of products (optimised builds): mul_wide / sqr_wide return the whole 512-bit product
unreduced, mul_sub reduces a·b minus such a product with one reduce_tail (p256.c's fmul_sub, for
Y3 in the point formulas). Measured there (2026-12, second pass): ~3 % off the double-scalar
multiplication. Not kept: the same products in 10 registers instead of 11 (T_lo's limb 0 in a
stack slot, shifts by immediates instead of SHLX with a count register), to give back the
register that SwiftPM's -fno-omit-frame-pointer takes (that flag costs ~2.3 % there): +0.3 %,
within noise; "adcq $0" closing each row instead of "movl $0; adcxq" (slower).
"""

# Operands are memory operands named by limb (no pointer registers in optimised builds).
A = lambda k: f"%[a{k}]"
B = lambda k: f"%[b{k}]"


def reduce_round(s, t, u):
    """One Montgomery round on the 4-limb window s (value S < 2^256), m = s[0], rdx = 32:
    S' = (S + m·p) / 2^64. With t = m << 32 (mod 2^64) and u = m >> 32 (so m·2^32 = u·2^64 + t),
    m·p = m·2^256 - m·2^224 + m·2^192 + m·2^96 - m, and relative to limb 1:
        S' = (s1 + t) + 2^64 (s2 + u) + 2^128 (s3 + m - t) + 2^192 (m - u)
    (the -m cancels s0 = m exactly). One add/adc pass adds [t, u, m, 0] to [s1, s2, s3, m] (the
    register of m becomes the new top limb), one sub/sbb pass subtracts [t, u] at limbs 2-3. Both
    passes compute modulo 2^256 and the true S' lies in [0, 2^256) (S' < (2^256 + 2^64 p) / 2^64
    = 2^192 + p < 2^256), so the carries and the borrow lost out of limb 3 cancel and S' is
    exact. 8 instructions, no product, no register copy (SHLX/SHRX take the count in rdx)."""
    m = s[0]
    asm = [
        f"shlxq %%rdx, %[{m}], %[{t}]",
        f"shrxq %%rdx, %[{m}], %[{u}]",
        f"addq %[{t}], %[{s[1]}]",
        f"adcq %[{u}], %[{s[2]}]",
        f"adcq %[{m}], %[{s[3]}]",
        f"adcq $0, %[{m}]",
        f"subq %[{t}], %[{s[3]}]",
        f"sbbq %[{u}], %[{m}]",
    ]
    return asm, s[1:] + [m]


def reduce_tail(lo_half, hi_half, t, u):
    """T = T_lo + 2^256 T_hi (8 limbs, T < 2^512) to r ≡ T·2^-256 (mod p), r < 2^256.
    Four rounds on T_lo alone: S = (T_lo + M·p) / 2^256 with M < 2^256, so S < p + 1, S <= p.
    Then S + T_hi < p + 2^256: when that carries out of 2^256 (mask = -carry) subtract p once,
    which leaves it below p < 2^256; otherwise keep it (below 2^256, congruent, not necessarily
    below p: the lazy reduction described in p256.c). mask & p1 is the 32-bit move of the mask
    (p1 = 2^32 - 1, zero-extended), mask & p0 = mask. Returns the asm and the result registers."""
    L = ["movl $32, %%edx"]
    s = list(lo_half)
    for _ in range(4):
        asm, s = reduce_round(s, t, u)
        L += asm
    L += [f"addq %[{hi_half[0]}], %[{s[0]}]"]
    L += [f"adcq %[{hi_half[k]}], %[{s[k]}]" for k in (1, 2, 3)]
    L += [
        "sbbq %%rdx, %%rdx",
        f"movl %%edx, %k[{t}]",
        f"movq %%rdx, %[{u}]",
        f"andq %[p3], %[{u}]",
        f"subq %%rdx, %[{s[0]}]",
        f"sbbq %[{t}], %[{s[1]}]",
        f"sbbq $0, %[{s[2]}]",
        f"sbbq %[{u}], %[{s[3]}]",
    ]
    return L, s


def mul_rows():
    """The 512-bit product t0..t7 by operand scanning: row 0 with add/adc, rows 1-3 with the two
    carry chains of Ozturk, Guilford, Gopal & Feghali (2012): ADCX adds the low halves, ADOX the
    high halves; the row's new top limb starts at 0 (the XOR that clears CF and OF) and takes
    both chains' carries (no overflow: after row i the partial product is below 2^(64(i+5)))."""
    t = [f"t{k}" for k in range(8)]
    L = [
        f"movq {B(0)}, %%rdx",
        f"mulxq {A(0)}, %[t0], %[t1]",
        f"mulxq {A(1)}, %[lo], %[t2]",
        "addq %[lo], %[t1]",
        f"mulxq {A(2)}, %[lo], %[t3]",
        "adcq %[lo], %[t2]",
        f"mulxq {A(3)}, %[lo], %[t4]",
        "adcq %[lo], %[t3]",
        "adcq $0, %[t4]",
    ]
    for i in (1, 2, 3):
        L += [f"movq {B(i)}, %%rdx", f"xorl %k[{t[i + 4]}], %k[{t[i + 4]}]"]
        for k in range(4):
            L += [f"mulxq {A(k)}, %[lo], %[hi]", f"adcxq %[lo], %[{t[i + k]}]", f"adoxq %[hi], %[{t[i + k + 1]}]"]
        L += ["movl $0, %k[lo]", f"adcxq %[lo], %[{t[i + 4]}]"]
    return L


def mul():
    t = [f"t{k}" for k in range(8)]
    asm, out = reduce_tail(t[:4], t[4:], "lo", "hi")
    return mul_rows() + asm, out


def sqr_rows():
    """The 512-bit square t0..t7: the 6 cross products a_i a_j (i < j) at limbs 1..6, doubled,
    plus the 4 squares a_i^2."""
    L = [
        f"movq {A(0)}, %%rdx",
        f"mulxq {A(1)}, %[t1], %[t2]",
        f"mulxq {A(2)}, %[lo], %[t3]",
        "addq %[lo], %[t2]",
        f"mulxq {A(3)}, %[lo], %[t4]",
        "adcq %[lo], %[t3]",
        f"movq {A(1)}, %%rdx",
        f"mulxq {A(3)}, %[lo], %[t5]",
        "adcq %[lo], %[t4]",
        "adcq $0, %[t5]",
        f"mulxq {A(2)}, %[lo], %[hi]",
        "addq %[lo], %[t3]",
        "adcq %[hi], %[t4]",
        f"movq {A(2)}, %%rdx",
        f"mulxq {A(3)}, %[lo], %[t6]",
        "adcq %[lo], %[t5]",
        "adcq $0, %[t6]",
        "xorl %k[t7], %k[t7]",
        "addq %[t1], %[t1]",
        "adcq %[t2], %[t2]",
        "adcq %[t3], %[t3]",
        "adcq %[t4], %[t4]",
        "adcq %[t5], %[t5]",
        "adcq %[t6], %[t6]",
        "adcq $0, %[t7]",
        f"movq {A(0)}, %%rdx",
        "mulxq %%rdx, %[t0], %[hi]",
        f"movq {A(1)}, %%rdx",
        "addq %[hi], %[t1]",
        "mulxq %%rdx, %[lo], %[hi]",
        "adcq %[lo], %[t2]",
        "adcq %[hi], %[t3]",
        f"movq {A(2)}, %%rdx",
        "mulxq %%rdx, %[lo], %[hi]",
        "adcq %[lo], %[t4]",
        "adcq %[hi], %[t5]",
        f"movq {A(3)}, %%rdx",
        "mulxq %%rdx, %[lo], %[hi]",
        "adcq %[lo], %[t6]",
        "adcq %[hi], %[t7]",
    ]
    return L


def sqr():
    t = [f"t{k}" for k in range(8)]
    asm, out = reduce_tail(t[:4], t[4:], "lo", "hi")
    return sqr_rows() + asm, out


def mul_sub():
    """r ≡ (a·b - E)·2^-256 for a, b below 2^256 and E below 2^512 (the unreduced product of
    mul_wide or sqr_wide, in memory): the 512-bit a·b, E subtracted, and while the difference is
    negative p·2^256 added (once, or twice when E - a·b >= p·2^256, which needs E's factors both
    above ~2^256 - 2^225: a branch never taken in practice), which leaves T in [0, 2^512) for
    reduce_tail. One reduction instead of two and no separate subtraction: ~40 instructions fewer
    than two products and a field subtraction."""
    t = [f"t{k}" for k in range(8)]
    L = mul_rows()
    L += ["subq %[e0], %[t0]"] + [f"sbbq %[e{k}], %[t{k}]" for k in range(1, 8)]
    L += [
        "sbbq %[lo], %[lo]",
        "movl %k[lo], %%edx",
        "movq %[lo], %[hi]",
        "andq %[p3], %[hi]",
        "addq %[lo], %[t4]",
        "adcq %%rdx, %[t5]",
        "adcq $0, %[t6]",
        "adcq %[hi], %[t7]",
        "sbbq %%rdx, %%rdx",
        "cmpq %%rdx, %[lo]",
        "je 1f",
        "addq $-1, %[t4]",
        "adcq %[p1], %[t5]",
        "adcq $0, %[t6]",
        "adcq %[p3], %[t7]",
        "1:",
    ]
    asm, out = reduce_tail(t[:4], t[4:], "lo", "hi")
    return L + asm, out


def emit(lines):
    return "".join(f'        "{l}\\n\\t"\n' for l in lines)


MEM_A = ", ".join(f'[a{k}] "m"(a->v[{k}])' for k in range(4))
MEM_B = ", ".join(f'[b{k}] "m"(b->v[{k}])' for k in range(4))
MUL, MUL_OUT = mul()
SQR, SQR_OUT = sqr()


def pointer_form(lines):
    """The same instructions with the limbs addressed through pointer registers ap, bp."""
    out = []
    for l in lines:
        for k in range(4):
            l = l.replace(f"%[a{k}]", f"{8 * k}(%[ap])").replace(f"%[b{k}]", f"{8 * k}(%[bp])")
        out.append(l)
    return out


def outputs(names, result):
    """Output operands: every named register, rdx as the C variable `d`, early-clobber."""
    ops = [f'[{n}] "=&r"({n})' for n in names] + ['"=&d"(d)']
    store = " ".join(f"r->v[{k}] = {reg};" for k, reg in enumerate(result))
    return ", ".join(ops), store


REGS = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "lo", "hi"]
MUL_OPS, MUL_STORE = outputs(REGS, MUL_OUT)
SQR_OPS, SQR_STORE = outputs(REGS, SQR_OUT)
CONSTS = '[p3] "m"(P256_P3)'
MULSUB, MULSUB_OUT = mul_sub()
MULSUB_OPS, MULSUB_STORE = outputs(REGS, MULSUB_OUT)
WIDE_OPS, _ = outputs(REGS, [])
WIDE_STORE = " ".join(f"e[{k}] = t{k};" for k in range(8))
MEM_E = ", ".join(f'[e{k}] "m"(e[{k}])' for k in range(8))
DECL = "limb " + ", ".join(REGS) + ", d;"

print("""/* Generated by Scripts/gen_p256_mulx.py; do not edit. Included by p256.c.
 * P-256 Montgomery product / square with MULX, ADCX, ADOX: r ≡ a·b·2^-256 (mod p) for any a, b
 * below 2^256, the result below 2^256, not necessarily below p (lazy reduction: p is
 * subtracted only when the result carried out of 2^256; see reduce_tail in the script, and
 * p256.c on the representation). The whole 512-bit product first (the product: operand
 * scanning with the two carry chains of Ozturk, Guilford, Gopal & Feghali (2012); the square:
 * the cross products once, doubled, plus the squares), then four Montgomery rounds on its low
 * half alone, 8 instructions each with shifts instead of products (-p^-1 = 1 mod 2^64, and
 * m·p is m·2^96 - m + m·(2^64 - 2^32 + 1)·2^192: reduce_round in the script), then the high
 * half added and p subtracted once if that carried. r may alias a or b.
 * Optimised builds inline the product into the point formulas (MX_INLINE): the limbs of a and
 * b are memory operands and the result comes back in registers (10 registers with rdx, no
 * pointer registers), and it is neither volatile nor a memory clobber (the compiler sees
 * exactly what it reads and writes). Unoptimised builds (swift test in debug) materialise every
 * memory operand's address in a register of its own, which does not fit: there the same
 * instructions address a and b through two pointer registers, out of line, with a memory
 * clobber instead of memory operands for the limbs (13 registers). */

static const limb P256_P3 = 0xffffffff00000001UL;

#ifdef __OPTIMIZE__
MX_INLINE void mul_mulx(fe *r, const fe *a, const fe *b) {
    """ + DECL + """
    __asm__(
""" + emit(MUL) + """        : """ + MUL_OPS + """
        : """ + MEM_A + """,
          """ + MEM_B + """,
          """ + CONSTS + """
        : "cc");
    (void)d;
    """ + MUL_STORE + """
}

MX_INLINE void sqr_mulx(fe *r, const fe *a) {
    """ + DECL + """
    __asm__(
""" + emit(SQR) + """        : """ + SQR_OPS + """
        : """ + MEM_A + """,
          """ + CONSTS + """
        : "cc");
    (void)d;
    """ + SQR_STORE + """
}
#else
MX_SQR void mul_mulx(fe *r, const fe *a, const fe *b) {
    """ + DECL + """
    __asm__(
""" + emit(pointer_form(MUL)) + """        : """ + MUL_OPS + """
        : [ap] "r"(a->v), [bp] "r"(b->v), """ + CONSTS + """
        : "cc", "memory");
    (void)d;
    """ + MUL_STORE + """
}

MX_SQR void sqr_mulx(fe *r, const fe *a) {
    """ + DECL + """
    __asm__(
""" + emit(pointer_form(SQR)) + """        : """ + SQR_OPS + """
        : [ap] "r"(a->v), """ + CONSTS + """
        : "cc", "memory");
    (void)d;
    """ + SQR_STORE + """
}
#endif

/* Sums of products with one reduction (optimised builds only; p256.c composes fmul and fsub
 * otherwise): mul_wide / sqr_wide leave the whole 512-bit product in e[0..7], mul_sub reduces
 * a·b - E (see mul_sub in the script). */
#ifdef __OPTIMIZE__
#define P256_HAVE_MULSUB 1
static const limb P256_P1 = 0x00000000ffffffffUL;

MX_INLINE void mul_wide(limb e[8], const fe *a, const fe *b) {
    """ + DECL + """
    __asm__(
""" + emit(mul_rows()) + """        : """ + WIDE_OPS + """
        : """ + MEM_A + """,
          """ + MEM_B + """
        : "cc");
    (void)d;
    """ + WIDE_STORE + """
}

MX_INLINE void sqr_wide(limb e[8], const fe *a) {
    """ + DECL + """
    __asm__(
""" + emit(sqr_rows()) + """        : """ + WIDE_OPS + """
        : """ + MEM_A + """
        : "cc");
    (void)d;
    """ + WIDE_STORE + """
}

MX_INLINE void mul_sub_mulx(fe *r, const fe *a, const fe *b, const limb e[8]) {
    """ + DECL + """
    __asm__(
""" + emit(MULSUB) + """        : """ + MULSUB_OPS + """
        : """ + MEM_A + """,
          """ + MEM_B + """,
          """ + MEM_E + """,
          """ + CONSTS + """, [p1] "m"(P256_P1)
        : "cc");
    (void)d;
    """ + MULSUB_STORE + """
}
#endif""")
