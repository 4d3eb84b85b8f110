#!/usr/bin/env python3
"""Generates Sources/CSigilBignum/p256_mulx.h: the P-256 Montgomery multiplication and squaring
(MULX/ADCX/ADOX, one asm statement each, product and reduction together) included by p256.c.

    python3 Scripts/gen_p256_mulx.py > Sources/CSigilBignum/p256_mulx.h

Register names are rotated here (the limbs of the running window move down one register per
reduction round instead of moving data), so the generated asm has no register moves for that.

p = 2^256 - 2^224 + 2^192 + 2^96 - 1 and -p^-1 = 1 (mod 2^64): a reduction round with
m = the low limb adds m·p = m·2^96 - m + m·p3·2^192 (p3 = 2^64 - 2^32 + 1 = p's top limb):
the low limb cancels exactly, m·2^96 is (m << 32) at limb 1 and (m >> 32) at limb 2, and
m·p3 lands on limbs 3-4 (computed with shifts and a borrow, see reduce_m_p3).
"""

import os

SEL = os.environ.get("SEL") == "1"
RB = os.environ.get("RB") == "1"

# Operands are memory operands named by limb (no pointer registers in optimised builds).
A = lambda k: f"%[a{k}]"
B = lambda k: f"%[b{k}]"


def final_select(y, cond, d):
    """y[0..3] plus a carry out of 2^256 (cond: the asm that leaves it in the zero flag's
    complement, i.e. ZF = 0 when the carry is set): the value is below 2^256 + p. Computes
    y - p in the four scratch registers d alongside (its borrow chain follows y's limbs as they
    arrive) and selects it with CMOV when the carry is set: (y + 2^256) - p < 2^256. Lazy: no
    reduction below p otherwise. Two or three cycles after the last carry instead of the six of
    a masked subtraction."""
    L = []
    for k in range(4):
        L.append(f"movq %[{y[k]}], %[{d[k]}]")
    L += [f"subq $-1, %[{d[0]}]", f"sbbq %[p1], %[{d[1]}]", f"sbbq $0, %[{d[2]}]", f"sbbq %[p3], %[{d[3]}]"]
    L += cond
    L += [f"cmovnzq %[{d[k]}], %[{y[k]}]" for k in range(4)]
    return L


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
    if SEL:
        L += ["sbbq %%rdx, %%rdx"] + final_select(s, ["testq %%rdx, %%rdx"], hi_half)
        return L, s
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


def mul(rb=False):
    """The 512-bit product t0..t7 by operand scanning: row 0 with add/adc, rows 1-3 with the two
    carry chains of Ozturk, Guilford, Gopal & Feghali (2012): ADCX adds the low halves, ADOX the
    high halves; the row's new top limb starts at 0 (the XOR that clears CF and OF) and takes
    both chains' carries (no overflow: after row i the partial product is below 2^(64(i+5)))."""
    t = [f"t{k}" for k in range(8)]
    Bi = (lambda i: f"%[t{i + 4}]") if rb else B
    L = [
        f"movq {Bi(0)}, %%rdx",
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
        L += [f"movq {Bi(i)}, %%rdx", f"xorl %k[{t[i + 4]}], %k[{t[i + 4]}]"]
        for k in range(4):
            L += [f"mulxq {A(k)}, %[lo], %[hi]", f"adcxq %[lo], %[{t[i + k]}]", f"adoxq %[hi], %[{t[i + k + 1]}]"]
        L += ["movl $0, %k[lo]", f"adcxq %[lo], %[{t[i + 4]}]"]
    asm, out = reduce_tail(t[:4], t[4:], "lo", "hi")
    return L + asm, out


def reduce_tail_short(lo_half, hi_half, t, u, v):
    """As reduce_tail, each round with m·p3 = m·2^192 + m·2^256 - m·2^224 formed off the carry
    chain: lo = m - t, hi = m - u - borrow (m·p3 < 2^128, exact), in m's register; then one
    4-step chain adds [t, u, lo, hi] at limbs 1-4."""
    L = ["movl $32, %%edx"]
    s = list(lo_half)
    for _ in range(4):
        m = s[0]
        L += [f"shlxq %%rdx, %[{m}], %[{t}]", f"shrxq %%rdx, %[{m}], %[{u}]",
              f"movq %[{m}], %[{v}]", f"subq %[{t}], %[{v}]", f"sbbq %[{u}], %[{m}]",
              f"addq %[{t}], %[{s[1]}]", f"adcq %[{u}], %[{s[2]}]", f"adcq %[{v}], %[{s[3]}]", f"adcq $0, %[{m}]"]
        s = s[1:] + [m]
    L += [f"addq %[{hi_half[0]}], %[{s[0]}]"]
    L += [f"adcq %[{hi_half[k]}], %[{s[k]}]" for k in (1, 2, 3)]
    if SEL:
        L += ["sbbq %%rdx, %%rdx"] + final_select(s, ["testq %%rdx, %%rdx"], hi_half)
        return L, s
    L += ["sbbq %%rdx, %%rdx", f"movl %%edx, %k[{t}]", f"movq %%rdx, %[{u}]", f"andq %[p3], %[{u}]",
          f"subq %%rdx, %[{s[0]}]", f"sbbq %[{t}], %[{s[1]}]", f"sbbq $0, %[{s[2]}]", f"sbbq %[{u}], %[{s[3]}]"]
    return L, s


def mul_interleaved(variant):
    """Operand scanning with one reduction round after each row (window w[0..4] plus the top f).
    variant 1: the round as two passes (add [t, u, m, m, 0], then subtract [t, u, 0] at limbs
    3-5); variant 2: lo = m - t, hi = m - u - borrow, one pass (as reduce_m_p3). rdx holds the
    row's multiplier, so the shift count 32 lives in register c32."""
    def rnd(w, f):
        m = w[0]
        if variant == 1:
            a = [f"shlxq %[c32], %[{m}], %[lo]", f"shrxq %[c32], %[{m}], %[hi]",
                 f"addq %[lo], %[{w[1]}]", f"adcq %[hi], %[{w[2]}]", f"adcq %[{m}], %[{w[3]}]",
                 f"adcq %[{m}], %[{w[4]}]", f"adcq $0, %[{f}]",
                 f"subq %[lo], %[{w[3]}]", f"sbbq %[hi], %[{w[4]}]", f"sbbq $0, %[{f}]"]
        else:
            a = [f"shlxq %[c32], %[{m}], %[lo]", f"shrxq %[c32], %[{m}], %[hi]",
                 f"addq %[lo], %[{w[1]}]", f"adcq %[hi], %[{w[2]}]",
                 f"movq %[{m}], %%rdx", f"subq %[lo], %%rdx", f"sbbq %[hi], %[{m}]",
                 ]
            # lo:hi = m·p3 would need the borrow of m - t before the adds; redo in the clean order
            a = [f"shlxq %[c32], %[{m}], %[lo]", f"shrxq %[c32], %[{m}], %[hi]",
                 f"movq %[{m}], %%rdx", f"subq %[lo], %%rdx", f"sbbq %[hi], %[{m}]",
                 f"addq %[lo], %[{w[1]}]", f"adcq %[hi], %[{w[2]}]",
                 f"adcq %%rdx, %[{w[3]}]", f"adcq %[{m}], %[{w[4]}]", f"adcq $0, %[{f}]"]
        return a, w[1:] + [f], m
    L = [
        "movl $32, %k[c32]",
        "xorl %k[x5], %k[x5]",
        f"movq {B(0)}, %%rdx",
        f"mulxq {A(0)}, %[x0], %[x1]",
        f"mulxq {A(1)}, %[lo], %[x2]",
        "addq %[lo], %[x1]",
        f"mulxq {A(2)}, %[lo], %[x3]",
        "adcq %[lo], %[x2]",
        f"mulxq {A(3)}, %[lo], %[x4]",
        "adcq %[lo], %[x3]",
        "adcq $0, %[x4]",
    ]
    asm, w, free = rnd(["x0", "x1", "x2", "x3", "x4"], "x5")
    L += asm
    for i in (1, 2, 3):
        f = free
        L += [f"movq {B(i)}, %%rdx", f"xorl %k[{f}], %k[{f}]"]
        for k in range(4):
            L += [f"mulxq {A(k)}, %[lo], %[hi]", f"adcxq %[lo], %[{w[k]}]", f"adoxq %[hi], %[{w[k + 1]}]"]
        L += ["movl $0, %k[lo]", f"adcxq %[lo], %[{w[4]}]", f"adoxq %[lo], %[{f}]", f"adcxq %[lo], %[{f}]"]
        asm, w, free = rnd(w, f)
        L += asm
    y = w
    if SEL:
        L += final_select(y, [f"testq %[{y[4]}], %[{y[4]}]"], ["lo", "hi", "rdx", "c32"])
        return [l.replace("%[rdx]", "%%rdx") for l in L], y[:4]
    L += [f"negq %[{y[4]}]", f"movl %k[{y[4]}], %k[lo]", f"movq %[{y[4]}], %[hi]", "andq %[p3], %[hi]",
          f"subq %[{y[4]}], %[{y[0]}]", f"sbbq %[lo], %[{y[1]}]", f"sbbq $0, %[{y[2]}]", f"sbbq %[hi], %[{y[3]}]"]
    return L, y[:4]


def sqr():
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
    t = [f"t{k}" for k in range(8)]
    if os.environ.get("SV") == "1":
        asm, out = reduce_tail_short(t[:4], t[4:], "lo", "hi", "v")
    else:
        asm, out = reduce_tail(t[:4], t[4:], "lo", "hi")
    return L + asm, out


def emit(lines):
    return "".join(f'        "{l}\\n\\t"\n' for l in lines)


MEM_A = ", ".join(f'[a{k}] "m"(a->v[{k}])' for k in range(4))
MEM_B = ", ".join(f'[b{k}] "m"(b->v[{k}])' for k in range(4))
import os
MV = int(os.environ.get("MV", "0"))
MUL, MUL_OUT = mul(RB) if MV == 0 else mul_interleaved(MV)
MULP, _ = mul() if MV == 0 else mul_interleaved(MV)
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
MREGS = REGS if MV == 0 else ["x0", "x1", "x2", "x3", "x4", "x5", "lo", "hi", "c32"]
MUL_OPS, MUL_STORE = outputs(MREGS, MUL_OUT)
MUL_OPS_RB = ", ".join([f'[{n}] "=&r"({n})' for n in MREGS if n not in ("t4", "t5", "t6", "t7")] +
                       [f'[t{k + 4}] "+&r"(t{k + 4})' for k in range(4)] + ['"=&d"(d)'])
MDECL_RB = ("limb " + ", ".join(n for n in MREGS if n not in ("t4", "t5", "t6", "t7")) + ", d;\n    " +
            "limb " + ", ".join(f"t{k + 4} = b->v[{k}]" for k in range(4)) + ";")
MDECL = "limb " + ", ".join(MREGS) + ", d;"
SREGS = REGS + (["v"] if os.environ.get("SV") == "1" else [])
SQR_OPS, SQR_STORE = outputs(SREGS, SQR_OUT)
SDECL = "limb " + ", ".join(SREGS) + ", d;"
CONSTS = '[p3] "m"(P256_P3), [p1] "m"(P256_P1)'
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
 * instructions address a and b through two pointer registers, out of line. */

static const limb P256_P3 = 0xffffffff00000001UL, P256_P1 = 0x00000000ffffffffUL;

#ifdef __OPTIMIZE__
MX_INLINE void mul_mulx(fe *r, const fe *a, const fe *b) {
    """ + (MDECL_RB if RB else MDECL) + """
    __asm__(
""" + emit(MUL) + """        : """ + (MUL_OPS_RB if RB else MUL_OPS) + """
        : """ + MEM_A + """,
          """ + ("" if RB else MEM_B + ",") + """
          """ + CONSTS + """
        : "cc");
    (void)d;
    """ + MUL_STORE + """
}

MX_INLINE void sqr_mulx(fe *r, const fe *a) {
    """ + SDECL + """
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
    """ + MDECL + """
    __asm__(
""" + emit(pointer_form(MULP)) + """        : """ + MUL_OPS + """
        : [ap] "r"(a->v), [bp] "r"(b->v), """ + CONSTS + """, "m"(*a), "m"(*b)
        : "cc");
    (void)d;
    """ + MUL_STORE + """
}

MX_SQR void sqr_mulx(fe *r, const fe *a) {
    """ + SDECL + """
    __asm__(
""" + emit(pointer_form(SQR)) + """        : """ + SQR_OPS + """
        : [ap] "r"(a->v), """ + CONSTS + """, "m"(*a)
        : "cc");
    (void)d;
    """ + SQR_STORE + """
}
#endif""")
