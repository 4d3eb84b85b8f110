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

# Operands are memory operands named by limb (no pointer registers: the statement needs 10
# registers with rdx, so the compiler can inline it into the point formulas).
A = lambda k: f"%[a{k}]"
B = lambda k: f"%[b{k}]"


def reduce_m_p3(m, lo, hi):
    """m·p3 = m·2^64 - m·2^32 + m (p3 = 2^64 - 2^32 + 1) without a multiplication: with
    t = m << 32 (mod 2^64) and u = m >> 32, m·2^32 = u·2^64 + t, so m·p3 = (m - u)·2^64 + (m - t)
    where the low difference may borrow from the high one: lo = m - t, hi = m - u - borrow
    (exact, m·p3 < 2^128). Leaves t in rdx and u in m (the m·2^96 part of m·p, at limbs 1-2),
    lo:hi = m·p3. Four ALU instructions and two register copies instead of a MULX: on CPUs
    where MULX issues at one per two cycles (AMD Zen) the product is MULX-bound, so this takes
    4 of the 20 MULX out of a product and 4 of the 14 out of a square."""
    return [
        f"movq %[{m}], %%rdx",
        f"movq %[{m}], %[{lo}]",
        f"movq %[{m}], %[{hi}]",
        "shlq $32, %%rdx",
        f"shrq $32, %[{m}]",
        f"subq %%rdx, %[{lo}]",
        f"sbbq %[{m}], %[{hi}]",
    ]


def reduce_round(w, f):
    """Window w[0..4] plus top limb f; m = w[0]. Returns the asm and the new window (w[1..4], f),
    the freed register (w[0])."""
    m = w[0]
    asm = reduce_m_p3(m, "lo", "hi") + [
        f"addq %%rdx, %[{w[1]}]",
        f"adcq %[{m}], %[{w[2]}]",
        f"adcq %[lo], %[{w[3]}]",
        f"adcq %[hi], %[{w[4]}]",
        f"adcq $0, %[{f}]",
    ]
    return asm, w[1:] + [f], m


def final_subtract(y, u, v):
    """y[0..3] plus the carry limb y[4] (0 or 1): the value is below 2^256 + p. Lazy reduction:
    subtract p only when the carry is set (then the value minus p is below 2^256), keep y
    otherwise: the result is below 2^256, congruent, not necessarily below p (p256.c's
    additions and comparisons take such values). 9 instructions instead of the 13 of a full
    reduction below p. Left in y[0..3]; u and v are scratch registers."""
    return [
        f"negq %[{y[4]}]",              # mask m = 0 or 2^64 - 1
        f"movq %[{y[4]}], %[{u}]",
        f"andq %[p1], %[{u}]",
        f"movq %[{y[4]}], %[{v}]",
        f"andq %[p3], %[{v}]",
        f"subq %[{y[4]}], %[{y[0]}]",   # p0 & m = m
        f"sbbq %[{u}], %[{y[1]}]",
        f"sbbq $0, %[{y[2]}]",
        f"sbbq %[{v}], %[{y[3]}]",
    ], y[:4]


def mul():
    L = [
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
    asm, w, free = reduce_round(["x0", "x1", "x2", "x3", "x4"], "x5")
    L += asm
    for i in (1, 2, 3):
        f = free
        L += [f"movq {B(i)}, %%rdx", f"xorl %k[{f}], %k[{f}]"]
        for k in range(4):
            L += [f"mulxq {A(k)}, %[lo], %[hi]", f"adcxq %[lo], %[{w[k]}]", f"adoxq %[hi], %[{w[k + 1]}]"]
        L += ["movl $0, %k[lo]", f"adcxq %[lo], %[{w[4]}]", f"adoxq %[lo], %[{f}]", f"adcxq %[lo], %[{f}]"]
        asm, w, free = reduce_round(w, f)
        L += asm
    asm, out = final_subtract(w, "lo", "hi")
    return L + asm, out


def sqr():
    # Cross products a_i a_j (i < j) at limbs 1..6, doubled, plus the squares: t0..t7.
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
    # Reduce the low half: s = (T_lo + M p) / 2^256 <= p, four rounds on a 4-limb window
    # (each round's result stays below 2^256, so the top limb takes the product's high half
    # plus the carry without overflowing).
    s = ["t0", "t1", "t2", "t3"]
    lo, hi = "lo", "hi"
    for _ in range(4):
        m = s[0]
        L += [
            *reduce_m_p3(m, lo, hi),
            f"addq %%rdx, %[{s[1]}]",
            f"adcq %[{m}], %[{s[2]}]",
            f"adcq %[{lo}], %[{s[3]}]",
            f"adcq $0, %[{hi}]",
        ]
        s, lo, hi = s[1:] + [hi], m, lo
    # + T_hi, carry into `lo` (a free register now).
    c = lo
    L += [
        f"movl $0, %k[{c}]",
        f"addq %[t4], %[{s[0]}]",
        f"adcq %[t5], %[{s[1]}]",
        f"adcq %[t6], %[{s[2]}]",
        f"adcq %[t7], %[{s[3]}]",
        f"adcq $0, %[{c}]",
    ]
    asm, out = final_subtract(s + [c], "t6", "t7")
    return L + asm, out


def sqr_inline():
    """The square in 9 registers with rdx (for inlining): t0 doubles as the cross products'
    temporary, the squares' low halves go through rdx, the top limb t7 is kept in memory and
    the rest of the high half t4..t6 joins it there (outputs h0..h3, a stack slot of the
    caller) while the low half is reduced."""
    cross, _ = sqr()
    cut = cross.index("movq %[a0], %%rdx", 1)  # start of the squares
    L = [l.replace("%[lo]", "%[t0]") for l in cross[:cut]]
    # t7 (the doubling's carry and the top limb) lives in memory from the start: 9 registers.
    L = [("movq $0, %[h3]" if l == "xorl %k[t7], %k[t7]" else
          "adcq $0, %[h3]" if l == "adcq $0, %[t7]" else l) for l in L]
    assert "%[t7]" not in "".join(L)
    L += [
        "movq %[a0], %%rdx",
        "mulxq %%rdx, %[t0], %[hi]",
        "addq %[hi], %[t1]",
        "movq %[a1], %%rdx",
        "mulxq %%rdx, %%rdx, %[hi]",
        "adcq %%rdx, %[t2]",
        "adcq %[hi], %[t3]",
        "movq %[a2], %%rdx",
        "mulxq %%rdx, %%rdx, %[hi]",
        "adcq %%rdx, %[t4]",
        "adcq %[hi], %[t5]",
        "movq %[a3], %%rdx",
        "mulxq %%rdx, %%rdx, %[hi]",
        "adcq %%rdx, %[t6]",
        "adcq %[hi], %[h3]",
        "movq %[t4], %[h0]",
        "movq %[t5], %[h1]",
        "movq %[t6], %[h2]",
    ]
    s = ["t0", "t1", "t2", "t3"]
    lo, hi = "t4", "t5"
    for _ in range(4):
        m = s[0]
        L += [
            *reduce_m_p3(m, lo, hi),
            f"addq %%rdx, %[{s[1]}]",
            f"adcq %[{m}], %[{s[2]}]",
            f"adcq %[{lo}], %[{s[3]}]",
            f"adcq $0, %[{hi}]",
        ]
        s, lo, hi = s[1:] + [hi], m, lo
    c = lo
    L += [
        f"movl $0, %k[{c}]",
        f"addq %[h0], %[{s[0]}]",
        f"adcq %[h1], %[{s[1]}]",
        f"adcq %[h2], %[{s[2]}]",
        f"adcq %[h3], %[{s[3]}]",
        f"adcq $0, %[{c}]",
    ]
    asm, out = final_subtract(s + [c], "t6", "hi")
    return L + asm, out


def emit(lines):
    return "".join(f'        "{l}\\n\\t"\n' for l in lines)


MEM_A = ", ".join(f'[a{k}] "m"(a->v[{k}])' for k in range(4))
MEM_B = ", ".join(f'[b{k}] "m"(b->v[{k}])' for k in range(4))
MUL, MUL_OUT = mul()
SQR, SQR_OUT = sqr()
SQRI, SQRI_OUT = sqr_inline()


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
    store = " ".join(f"r->v[{k}] = {'d' if reg == 'rdx' else reg};" for k, reg in enumerate(result))
    return ", ".join(ops), store


MUL_OPS, MUL_STORE = outputs(["x0", "x1", "x2", "x3", "x4", "x5", "lo", "hi"], MUL_OUT)
SQR_OPS, SQR_STORE = outputs(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "lo", "hi"], SQR_OUT)
SQRI_OPS, SQRI_STORE = outputs(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "hi"], SQRI_OUT)
SQRI_OPS += ", " + ", ".join(f'[h{k}] "=m"(h.v[{k}])' for k in range(4))
CONSTS = '[p3] "m"(P256_P3), [p1] "m"(P256_P1)'

print("""/* Generated by Scripts/gen_p256_mulx.py; do not edit. Included by p256.c.
 * P-256 Montgomery product / square with MULX, ADCX, ADOX: r ≡ a·b·2^-256 (mod p) for any a, b
 * below 2^256, the result below 2^256, not necessarily below p (lazy reduction: p is
 * subtracted only when the result carried out of 2^256; see final_subtract in the script, and
 * p256.c on the representation). Operand scanning with the
 * reduction interleaved (product row i, then one reduction round), the two carry chains of
 * Ozturk, Guilford, Gopal & Feghali (2012) in the rows; the square forms the cross products
 * once, doubles them, adds the squares, then reduces. The reduction rounds form m·p3 with
 * shifts and a subtraction (reduce_m_p3 in the script), no MULX. r may alias a or b.
 * Optimised builds inline the product into the point formulas (MX_INLINE): the limbs of a and
 * b are memory operands and the result comes back in registers, so the product needs only 9
 * registers with rdx and no pointer registers, and it is neither volatile nor a memory clobber
 * (the compiler sees exactly what it reads and writes). Unoptimised builds (swift test in
 * debug) materialise every memory operand's address in a register of its own, which does not
 * fit: there the same instructions address a and b through two pointer registers, out of line.
 * The inlined square needs 9 registers with rdx (its high half waits in a stack slot while
 * the low half is reduced). */

static const limb P256_P3 = 0xffffffff00000001UL, P256_P1 = 0x00000000ffffffffUL;

#ifdef __OPTIMIZE__
MX_INLINE void mul_mulx(fe *r, const fe *a, const fe *b) {
    limb x0, x1, x2, x3, x4, x5, lo, hi, d;
    __asm__(
""" + emit(MUL) + """        : """ + MUL_OPS + """
        : """ + MEM_A + """,
          """ + MEM_B + """,
          """ + CONSTS + """
        : "cc");
    """ + MUL_STORE + """
}

MX_INLINE void sqr_mulx(fe *r, const fe *a) {
    limb t0, t1, t2, t3, t4, t5, t6, hi, d;
    fe h;
    __asm__(
""" + emit(SQRI) + """        : """ + SQRI_OPS + """
        : """ + MEM_A + """,
          """ + CONSTS + """
        : "cc");
    """ + SQRI_STORE + """
}
#else
MX_SQR void mul_mulx(fe *r, const fe *a, const fe *b) {
    limb x0, x1, x2, x3, x4, x5, lo, hi, d;
    __asm__(
""" + emit(pointer_form(MUL)) + """        : """ + MUL_OPS + """
        : [ap] "r"(a->v), [bp] "r"(b->v), """ + CONSTS + """, "m"(*a), "m"(*b)
        : "cc");
    """ + MUL_STORE + """
}

MX_SQR void sqr_mulx(fe *r, const fe *a) {
    limb t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, d;
    __asm__(
""" + emit(pointer_form(SQR)) + """        : """ + SQR_OPS + """
        : [ap] "r"(a->v), """ + CONSTS + """, "m"(*a)
        : "cc");
    (void)d;
    """ + SQR_STORE + """
}
#endif""")
