/* Modular exponentiation x^e mod m for RSA public-key operations with AVX-512 IFMA
 * (VPMADD52LUQ / VPMADD52HUQ: 52×52-bit products added to 64-bit lanes).
 *
 * Numbers are held in radix 2^52, D = 8·V digits (V 512-bit vectors of eight digits), so that
 * R = 2^(52·D) > 4m. The multiplication is Montgomery's, word by word with the reduction
 * interleaved (Montgomery 1985), in the "almost Montgomery multiplication" form of Gueron &
 * Krasnov, "Accelerating Big Integer Arithmetic Using Intel IFMA Extensions" (ARITH 2016),
 * the layout OpenSSL's rsaz-2k-avx512 uses: for inputs a, b < 2m the result a·b·R^-1 (mod m) is
 * below 2m without a final subtraction, so the exponentiation subtracts once at the end.
 *
 * One step i of AMM(a, b), with the accumulator T = acc0 + Σ_{j≥1} lane_j·2^(52j):
 *   T += a·b_i;  y = T·(−m^-1) mod 2^52;  T += m·y;  T /= 2^52 (exact).
 * Lane 0 is kept in a scalar register (acc0) with the full 104-bit products a_0·b_i and m_0·y,
 * so the carry out of lane 0 is exact; the vector lanes take the low halves of a_j·b_i, m_j·y at
 * lane j and the high halves at lane j + 1 (added after the one-lane shift that divides by
 * 2^52). The vector's own lane 0 is never read except once per step, right after the shift and
 * before the high halves (which acc0's carry already holds) are added.
 *
 * Variable time: for public exponents and public inputs (signature verification) only.
 * Only the functions here use AVX-512 (per-function target attributes); Swift calls them only
 * after csigil_bignum_ifma_supported() said yes (CPU flags and OS-enabled ZMM state).
 */
#include "CSigilBignum.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>

static int csigil_ifma_probe(void) {
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid(1, a, b, c, d);
    if (!((c >> 27) & 1)) return 0; /* OSXSAVE: XGETBV usable */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    /* XCR0: SSE (1), AVX (2), opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7) state enabled by the OS. */
    if ((lo & 0xE6) != 0xE6) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    /* CPUID.(EAX=7,ECX=0):EBX AVX512F[16], AVX512IFMA[21], BMI2[8]. */
    return (int)(((b >> 16) & 1) & ((b >> 21) & 1) & ((b >> 8) & 1));
}

int csigil_bignum_ifma_supported(void) {
    static int cached = -1;
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = csigil_ifma_probe();
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

#define IFMA __attribute__((target("avx512f,avx512ifma,bmi2")))
#define INLINE __attribute__((always_inline)) static inline
#define MASK52 0xFFFFFFFFFFFFFULL
#define MAXV 10

/* dst[0..8V) = the low 52·8V bits of the n-limb x in radix 2^52. */
static void to_radix52(uint64_t *dst, const csigil_limb *x, size_t n, size_t digits) {
    for (size_t j = 0; j < digits; j++) {
        size_t bit = 52 * j, limb = bit / 64, off = bit % 64;
        uint64_t v = 0;
        if (limb < n) {
            v = x[limb] >> off;
            if (off > 12 && limb + 1 < n) v |= x[limb + 1] << (64 - off);
        }
        dst[j] = v & MASK52;
    }
}

/* out[0..count) = the normalised digits d (radix 2^52) as 64-bit limbs; bits beyond are dropped. */
static void from_radix52(csigil_limb *out, size_t count, const uint64_t *d, size_t digits) {
    unsigned __int128 acc = 0;
    unsigned nbits = 0;
    size_t k = 0, j = 0;
    while (k < count) {
        if (nbits < 64 && j < digits) {
            acc |= (unsigned __int128)d[j++] << nbits;
            nbits += 52;
            continue;
        }
        out[k++] = (csigil_limb)acc;
        acc >>= 64;
        nbits = nbits >= 64 ? nbits - 64 : 0;
    }
}

/* Carry propagation: every lane of r (values below 2^63) to a digit below 2^52, the carries
 * moving up one lane (the carry out of the top lane is dropped: callers' values are < R).
 * First pass: add each lane's carry (< 2^11) to the next lane. Then a lane can exceed 2^52 − 1
 * by at most that carry: a lane "generates" a carry if it is now > 2^52 − 1 and "propagates" one
 * if it equals 2^52 − 1; the carries into the lanes are ((G << 1) + P) ^ P over the lane bit
 * masks (a carry ripples through a run of propagating lanes like the addition's carry). */
IFMA INLINE void normalize(__m512i *r, const int V) {
    const __m512i mask = _mm512_set1_epi64((long long)MASK52);
    const __m512i zero = _mm512_setzero_si512();
    __m512i carry[MAXV];
    for (int k = 0; k < V; k++) {
        carry[k] = _mm512_srli_epi64(r[k], 52);
        r[k] = _mm512_and_si512(r[k], mask);
    }
    for (int k = V - 1; k >= 0; k--) {
        /* lane j of the shifted carries = carry of lane j − 1 */
        __m512i prev = k > 0 ? carry[k - 1] : zero;
        r[k] = _mm512_add_epi64(r[k], _mm512_alignr_epi64(carry[k], prev, 7));
    }
    unsigned __int128 g = 0, p = 0;
    for (int k = 0; k < V; k++) {
        __mmask8 gk = _mm512_cmpgt_epu64_mask(r[k], mask);
        __mmask8 pk = _mm512_cmpeq_epu64_mask(r[k], mask);
        g |= (unsigned __int128)gk << (8 * k);
        p |= (unsigned __int128)pk << (8 * k);
    }
    if (g == 0) return; /* no carry can start (the common case) */
    unsigned __int128 cin = ((g << 1) + p) ^ p;
    const __m512i one = _mm512_set1_epi64(1);
    for (int k = 0; k < V; k++) {
        __mmask8 ck = (__mmask8)(cin >> (8 * k));
        r[k] = _mm512_and_si512(_mm512_mask_add_epi64(r[k], ck, r[k], one), mask);
    }
}

/* out = AMM(a, b) = a·b·R^-1 (mod m), R = 2^(52·8V), below 2m when a, b < 2m and 4m < R; all
 * operands normalised radix-2^52 digit vectors of 8V digits (out may alias a or b). k0 =
 * −m^-1 mod 2^52. */
IFMA INLINE void amm(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0,
                     const int V) {
    __m512i A[MAXV], M[MAXV], R[MAXV];
    const __m512i zero = _mm512_setzero_si512();
    for (int k = 0; k < V; k++) {
        A[k] = _mm512_loadu_si512((const void *)(a + 8 * k));
        M[k] = _mm512_loadu_si512((const void *)(m + 8 * k));
        R[k] = zero;
    }
    const uint64_t a0 = a[0], m0 = m[0];
    uint64_t acc0 = 0;
    #pragma clang loop unroll_count(2)
    for (int i = 0; i < 8 * V; i++) {
        const uint64_t bi = b[i];
        unsigned __int128 t = (unsigned __int128)a0 * bi + acc0;
        const uint64_t y = ((uint64_t)t * k0) & MASK52;
        t += (unsigned __int128)m0 * y; /* ≡ 0 mod 2^52 */
        const uint64_t carry = (uint64_t)(t >> 52);
        const __m512i B = _mm512_set1_epi64((long long)bi), Y = _mm512_set1_epi64((long long)y);
        for (int k = 0; k < V; k++) {
            R[k] = _mm512_madd52lo_epu64(R[k], A[k], B);
            R[k] = _mm512_madd52lo_epu64(R[k], M[k], Y);
        }
        for (int k = 0; k < V - 1; k++) R[k] = _mm512_alignr_epi64(R[k + 1], R[k], 1);
        R[V - 1] = _mm512_alignr_epi64(zero, R[V - 1], 1);
        acc0 = carry + (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(R[0]));
        for (int k = 0; k < V; k++) {
            R[k] = _mm512_madd52hi_epu64(R[k], A[k], B);
            R[k] = _mm512_madd52hi_epu64(R[k], M[k], Y);
        }
    }
    R[0] = _mm512_mask_set1_epi64(R[0], 1, (long long)acc0);
    normalize(R, V);
    for (int k = 0; k < V; k++) _mm512_storeu_si512((void *)(out + 8 * k), R[k]);
}

/* The exponentiation for one vector count V (see csigil_rsa_modexp_ifma). */
IFMA INLINE void modexp(csigil_limb *out, const csigil_limb *x, const csigil_limb *xr, const csigil_limb *m,
                        size_t n, const csigil_limb *e, size_t elen, const int V) {
    const size_t D = 8 * (size_t)V;
    uint64_t md[8 * MAXV], xd[8 * MAXV], xrd[8 * MAXV], acc[8 * MAXV];
    to_radix52(md, m, n, D);
    to_radix52(xd, x, n, D);
    to_radix52(xrd, xr, n, D);
    /* −m^-1 mod 2^64 by Newton–Hensel (5 steps from 3 correct bits), then mod 2^52. */
    uint64_t inv = m[0];
    for (int i = 0; i < 5; i++) inv *= 2 - m[0] * inv;
    const uint64_t k0 = (0 - inv) & MASK52;

    for (size_t j = 0; j < D; j++) acc[j] = xrd[j];
    size_t top = elen - 1;
    int bit = 63 - __builtin_clzll(e[top]) - 1; /* below the top bit */
    for (size_t limb = top + 1; limb-- > 0;) {
        for (; bit >= 0; bit--) {
            if (limb == 0 && bit == 0) break;
            amm(acc, acc, acc, md, k0, V);
            if ((e[limb] >> bit) & 1) amm(acc, acc, xrd, md, k0, V);
        }
        bit = 63;
    }
    /* Bit 0 (= 1): square, then multiply by ordinary x to leave Montgomery form: x^e, < 2m. */
    amm(acc, acc, acc, md, k0, V);
    amm(acc, acc, xd, md, k0, V);

    /* To n + 1 limbs (2m may exceed 2^(64n)), then one conditional subtraction of m. */
    csigil_limb r[8 * MAXV * 52 / 64 + 2];
    from_radix52(r, n + 1, acc, D);
    int ge = r[n] != 0;
    if (!ge) {
        ge = 1;
        for (size_t i = n; i-- > 0;) {
            if (r[i] != m[i]) { ge = r[i] > m[i]; break; }
        }
    }
    if (ge) {
        unsigned char c = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned long long d;
            c = _subborrow_u64(c, r[i], m[i], &d);
            r[i] = d;
        }
    }
    for (size_t i = 0; i < n; i++) out[i] = r[i];
}

size_t csigil_rsa_ifma_vectors(size_t n) {
    /* 52·8V ≥ 64n + 2 bits, so that R = 2^(52·8V) > 4m for every n-limb m. */
    size_t v = (64 * n + 2 + 415) / 416;
    return v <= MAXV ? v : 0;
}

IFMA void csigil_rsa_modexp_ifma(csigil_limb *out, const csigil_limb *x, const csigil_limb *xr,
                                 const csigil_limb *m, size_t n, const csigil_limb *e, size_t elen) {
    switch (csigil_rsa_ifma_vectors(n)) {
    case 1: modexp(out, x, xr, m, n, e, elen, 1); break;
    case 2: modexp(out, x, xr, m, n, e, elen, 2); break;
    case 3: modexp(out, x, xr, m, n, e, elen, 3); break;
    case 4: modexp(out, x, xr, m, n, e, elen, 4); break;
    case 5: modexp(out, x, xr, m, n, e, elen, 5); break;
    case 6: modexp(out, x, xr, m, n, e, elen, 6); break;
    case 7: modexp(out, x, xr, m, n, e, elen, 7); break;
    case 8: modexp(out, x, xr, m, n, e, elen, 8); break;
    case 9: modexp(out, x, xr, m, n, e, elen, 9); break;
    case 10: modexp(out, x, xr, m, n, e, elen, 10); break;
    default: __builtin_trap();
    }
}

#else

int csigil_bignum_ifma_supported(void) { return 0; }
size_t csigil_rsa_ifma_vectors(size_t n) { (void)n; return 0; }
void csigil_rsa_modexp_ifma(csigil_limb *out, const csigil_limb *x, const csigil_limb *xr,
                            const csigil_limb *m, size_t n, const csigil_limb *e, size_t elen) {
    (void)out; (void)x; (void)xr; (void)m; (void)n; (void)e; (void)elen;
    __builtin_trap();
}

#endif
