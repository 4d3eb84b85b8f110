/* Montgomery multiplication and squaring with the x86 BMI2/ADX instructions (MULX, ADCX, ADOX).
 *
 * Product-then-REDC (the "separated operand scanning" order of Koç, Acar & Kaliski 1996): the
 * 2n-limb product (or square) is formed row by row, then reduced word by word. Every row is one
 * `addmul_row`, an inline-assembly loop that keeps two independent carry chains (OF through
 * ADOX for the high halves of the products, CF through ADCX for the accumulator), the
 * technique of Intel's "New Instructions Supporting Large Integer Arithmetic" (Ozturk, Guilford,
 * Gopal & Feghali, 2012). The loop counts with LEA and JRCXZ, which leave the flags alone, so
 * the two chains run across the whole row.
 *
 * Only these functions use the instructions (per-function target attributes plus hand-written
 * assembly); Swift calls them only after csigil_bignum_mulx_supported() said yes.
 */
#include "CSigilBignum.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static int csigil_probe(void) {
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    /* CPUID.(EAX=7,ECX=0):EBX.BMI2[bit 8] and .ADX[bit 19]. */
    return (int)(((b >> 8) & 1) & ((b >> 19) & 1));
}

int csigil_bignum_mulx_supported(void) {
    /* -1 unknown; racing first calls compute the same value, so a relaxed atomic is enough. */
    static int cached = -1;
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = csigil_probe();
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

#define MX __attribute__((target("bmi2,adx")))

/* rp[0..len) += up[0..len) * v; returns the carry out (one limb: v·U + R < 2^(64(len+1))).
 * len >= 1. Single limbs first (len mod 4), then blocks of four. */
MX static inline csigil_limb addmul_row(csigil_limb *rp, const csigil_limb *up, size_t len, csigil_limb v) {
    csigil_limb cnt = len & 3, quads = len >> 2;
    csigil_limb lo, hi, prev;
    __asm__(
        "xor %k[prev], %k[prev]\n\t"          /* prev = 0; CF = OF = 0 */
        "1:\n\t"
        "jrcxz 2f\n\t"
        "mulx (%[up]), %[lo], %[hi]\n\t"
        "adox %[prev], %[lo]\n\t"
        "adcx (%[rp]), %[lo]\n\t"
        "mov %[lo], (%[rp])\n\t"
        "mov %[hi], %[prev]\n\t"
        "lea 8(%[up]), %[up]\n\t"
        "lea 8(%[rp]), %[rp]\n\t"
        "lea -1(%%rcx), %%rcx\n\t"
        "jmp 1b\n"
        "2:\n\t"
        "mov %[quads], %%rcx\n"
        "3:\n\t"
        "jrcxz 4f\n\t"
        "mulx (%[up]), %[lo], %[hi]\n\t"
        "adox %[prev], %[lo]\n\t"
        "adcx (%[rp]), %[lo]\n\t"
        "mov %[lo], (%[rp])\n\t"
        "mulx 8(%[up]), %[lo], %[prev]\n\t"
        "adox %[hi], %[lo]\n\t"
        "adcx 8(%[rp]), %[lo]\n\t"
        "mov %[lo], 8(%[rp])\n\t"
        "mulx 16(%[up]), %[lo], %[hi]\n\t"
        "adox %[prev], %[lo]\n\t"
        "adcx 16(%[rp]), %[lo]\n\t"
        "mov %[lo], 16(%[rp])\n\t"
        "mulx 24(%[up]), %[lo], %[prev]\n\t"
        "adox %[hi], %[lo]\n\t"
        "adcx 24(%[rp]), %[lo]\n\t"
        "mov %[lo], 24(%[rp])\n\t"
        "lea 32(%[up]), %[up]\n\t"
        "lea 32(%[rp]), %[rp]\n\t"
        "lea -1(%%rcx), %%rcx\n\t"
        "jmp 3b\n"
        "4:\n\t"
        "mov $0, %k[lo]\n\t"                  /* MOV leaves the flags alone */
        "adox %[lo], %[prev]\n\t"
        "adcx %[lo], %[prev]\n\t"
        : [up] "+r"(up), [rp] "+r"(rp), "+c"(cnt), [lo] "=&r"(lo), [hi] "=&r"(hi), [prev] "=&r"(prev)
        : [quads] "r"(quads), "d"(v)
        : "cc", "memory");
    return prev;
}

#include "montgomery_rows.h"

#define INLINE __attribute__((always_inline)) static inline

/* rp[0..n) += up[0..n) * v: the unrolled row for the generated lengths (1...32, 48, 64), else
   the loop. In the specialised callers below n is a constant and the switch folds away. */
MX INLINE csigil_limb row(csigil_limb *rp, const csigil_limb *up, size_t n, csigil_limb v) {
    switch (n) {
    case 1: return addmul_row_1(rp, up, v);
    case 2: return addmul_row_2(rp, up, v);
    case 3: return addmul_row_3(rp, up, v);
    case 4: return addmul_row_4(rp, up, v);
    case 5: return addmul_row_5(rp, up, v);
    case 6: return addmul_row_6(rp, up, v);
    case 7: return addmul_row_7(rp, up, v);
    case 8: return addmul_row_8(rp, up, v);
    case 9: return addmul_row_9(rp, up, v);
    case 10: return addmul_row_10(rp, up, v);
    case 11: return addmul_row_11(rp, up, v);
    case 12: return addmul_row_12(rp, up, v);
    case 13: return addmul_row_13(rp, up, v);
    case 14: return addmul_row_14(rp, up, v);
    case 15: return addmul_row_15(rp, up, v);
    case 16: return addmul_row_16(rp, up, v);
    case 17: return addmul_row_17(rp, up, v);
    case 18: return addmul_row_18(rp, up, v);
    case 19: return addmul_row_19(rp, up, v);
    case 20: return addmul_row_20(rp, up, v);
    case 21: return addmul_row_21(rp, up, v);
    case 22: return addmul_row_22(rp, up, v);
    case 23: return addmul_row_23(rp, up, v);
    case 24: return addmul_row_24(rp, up, v);
    case 25: return addmul_row_25(rp, up, v);
    case 26: return addmul_row_26(rp, up, v);
    case 27: return addmul_row_27(rp, up, v);
    case 28: return addmul_row_28(rp, up, v);
    case 29: return addmul_row_29(rp, up, v);
    case 30: return addmul_row_30(rp, up, v);
    case 31: return addmul_row_31(rp, up, v);
    case 32: return addmul_row_32(rp, up, v);
    case 48: return addmul_row_48(rp, up, v);
    case 64: return addmul_row_64(rp, up, v);
    default: return addmul_row(rp, up, n, v);
    }
}

/* r = REDC(t) = t·R^-1 mod m, fully reduced; t (2n limbs) is destroyed. t < m·R. */
MX INLINE void redc(csigil_limb *r, csigil_limb *t, const csigil_limb *m, size_t n, csigil_limb ninv) {
    #pragma clang loop unroll(disable)
    for (size_t i = 0; i < n; i++) {
        csigil_limb q = t[i] * ninv;              /* makes limb i zero */
        t[i] = row(t + i, m, n, q);          /* park the carry (it belongs at limb i + n) */
    }
    unsigned char c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned long long s;
        c = _addcarry_u64(c, t[n + i], t[i], &s);
        r[i] = s;
    }
    /* Result < 2m: one conditional subtraction. */
    int ge = c;
    if (!ge) {
        ge = 1;
        for (size_t i = n; i-- > 0;) {
            if (r[i] != m[i]) { ge = r[i] > m[i]; break; }
        }
    }
    if (ge) {
        unsigned char b = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned long long d;
            b = _subborrow_u64(b, r[i], m[i], &d);
            r[i] = d;
        }
    }
}

MX INLINE void mont_mul(csigil_limb *r, const csigil_limb *a, const csigil_limb *b, const csigil_limb *m,
                        size_t n, csigil_limb ninv, csigil_limb *t) {
    for (size_t i = 0; i < n; i++) t[i] = 0;
    #pragma clang loop unroll(disable)
    for (size_t i = 0; i < n; i++) t[n + i] = row(t + i, b, n, a[i]);
    redc(r, t, m, n, ninv);
}

/* t[0..2n) = 2·t + Σ a[i]²·2^(128i) (other sizes than the generated ones). */
MX static void sqr_double_add_diag(csigil_limb *t, const csigil_limb *a, size_t n) {
    csigil_limb shiftIn = 0;
    unsigned char c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 sq = (unsigned __int128)a[i] * a[i];
        csigil_limb t0 = t[2 * i], t1 = t[2 * i + 1];
        csigil_limb d0 = (t0 << 1) | shiftIn;
        csigil_limb d1 = (t1 << 1) | (t0 >> 63);
        shiftIn = t1 >> 63;
        unsigned long long s0, s1;
        c = _addcarry_u64(c, d0, (csigil_limb)sq, &s0);
        c = _addcarry_u64(c, d1, (csigil_limb)(sq >> 64), &s1);
        t[2 * i] = s0;
        t[2 * i + 1] = s1;
    }
}

MX INLINE void mont_sqr(csigil_limb *r, const csigil_limb *a, const csigil_limb *m,
                        size_t n, csigil_limb ninv, csigil_limb *t) {
    /* Off-diagonal products a[i]·a[j], i < j: row i adds a[i]·a[i+1..n) at limb 2i+1 and sets
       limb n+i, which no earlier row reached. */
    for (size_t i = 0; i < n; i++) t[i] = 0;
    t[n] = 0;
    t[2 * n - 1] = 0;
    #pragma clang loop unroll(disable)
    for (size_t i = 0; i + 1 < n; i++) t[n + i] = row(t + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
    /* t = 2·t + Σ a[i]²·2^(128i). */
    switch (n) {
    case 16: sqr_double_add_diag_16(t, a); break;
    case 32: sqr_double_add_diag_32(t, a); break;
    case 48: sqr_double_add_diag_48(t, a); break;
    case 64: sqr_double_add_diag_64(t, a); break;
    default: sqr_double_add_diag(t, a, n); break;
    }
    redc(r, t, m, n, ninv);
}

/* The public entry points, specialised for the unrolled sizes. */
MX void csigil_mont_mul_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *b, const csigil_limb *m,
                             size_t n, csigil_limb ninv, csigil_limb *t) {
    switch (n) {
    case 16: mont_mul(r, a, b, m, 16, ninv, t); break;
    case 32: mont_mul(r, a, b, m, 32, ninv, t); break;
    case 48: mont_mul(r, a, b, m, 48, ninv, t); break;
    case 64: mont_mul(r, a, b, m, 64, ninv, t); break;
    default: mont_mul(r, a, b, m, n, ninv, t); break;
    }
}

MX void csigil_mont_sqr_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *m,
                             size_t n, csigil_limb ninv, csigil_limb *t) {
    switch (n) {
    case 16: mont_sqr(r, a, m, 16, ninv, t); break;
    case 32: mont_sqr(r, a, m, 32, ninv, t); break;
    case 48: mont_sqr(r, a, m, 48, ninv, t); break;
    case 64: mont_sqr(r, a, m, 64, ninv, t); break;
    default: mont_sqr(r, a, m, n, ninv, t); break;
    }
}

#else

int csigil_bignum_mulx_supported(void) { return 0; }
void csigil_mont_mul_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *b, const csigil_limb *m,
                          size_t n, csigil_limb ninv, csigil_limb *t) {
    (void)r; (void)a; (void)b; (void)m; (void)n; (void)ninv; (void)t;
    __builtin_trap();
}
void csigil_mont_sqr_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *m,
                          size_t n, csigil_limb ninv, csigil_limb *t) {
    (void)r; (void)a; (void)m; (void)n; (void)ninv; (void)t;
    __builtin_trap();
}

#endif
