/* Modular exponentiation x^e mod m for RSA public-key operations with AVX-512 IFMA
 * (VPMADD52LUQ / VPMADD52HUQ: 52×52-bit products added to 64-bit lanes).
 *
 * Numbers are held in radix 2^52, D = 8·V digits (V 512-bit vectors of eight digits), so that
 * R = 2^(52·D) > 4m. The multiplication is Montgomery's, word by word with the reduction
 * interleaved (Montgomery 1985), in the "almost Montgomery multiplication" form of Gueron &
 * Krasnov, "Accelerating Big Integer Arithmetic Using Intel IFMA Extensions" (ARITH 2016),
 * the layout OpenSSL's rsaz-2k-avx512 uses: for inputs a, b < 2m the result a·b·R^-1 (mod m) is
 * below 2m without a final subtraction, so the exponentiation subtracts once at the end.
 * Squarings use Gueron & Krasnov's "almost Montgomery squaring" (ams below: each cross product once)
 * for moduli of five vectors (RSA-2048) and up.
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
    /* CPUID.(EAX=7,ECX=0):EBX AVX512F[16], AVX512IFMA[21], BMI2[8], AVX512VL[31]: every feature
       the kernel's target attribute lets the compiler use (avx512vl included, so that no
       EVEX-encoded 128/256-bit instruction can run on a CPU, or a VM's filtered CPUID, without it). */
    return (int)(((b >> 16) & 1) & ((b >> 21) & 1) & ((b >> 8) & 1) & ((b >> 31) & 1));
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

#define IFMA __attribute__((target("avx512f,avx512ifma,avx512vl,bmi2")))
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
 * −m^-1 mod 2^52.
 *
 * Step i takes T = acc0 + Σ_{j≥1} lane_j·2^(52j) to (T + a·b_i + m·y)/2^52. The vector part of
 * the new T is shift(R) + HQ, HQ = lo(a_{j+1}·b_i) + hi(a_j·b_i) + lo(m_{j+1}·y) + hi(m_j·y) at
 * lane j ("lo"/"hi": bits 0–51 / 52–103 of a 52×52-bit product; shifted copies a_{j+1}, m_{j+1} of
 * a and m make the low halves land one lane down, so R is shifted once per step and the
 * recurrence through R is one shift and one add). The scalar side keeps lanes 0 and 1 of T
 * exactly, so the next y never waits for the vector unit:
 *   c = acc0 + lo(a_0·b_i);  y = c·k0 mod 2^52  (so c + lo(m_0·y) ≡ 0 mod 2^52);
 *   carry = (acc0 + a_0·b_i + m_0·y) >> 52 = hi(a_0·b_i) + (c >> 52) + [c mod 2^52 ≠ 0] + hi(m_0·y);
 *   new acc0  = carry + lane_1 + lo(a_1·b_i) + lo(m_1·y);
 *   new lane_1 = lane 2 of R before the step (read from the vector, which had a whole step to
 *                produce it) + lo(a_2·b_i) + hi(a_1·b_i) + lo(m_2·y) + hi(m_1·y).
 * The y-independent terms (from a and b) are computed for all i up front with the vector unit
 * (L0, K, J). hi(m_j·y) = the high 64 bits of (m_j·2^12)·y (m_j < 2^52). The vector's lanes
 * 1, 2, ... are exact; its lane 0 lacks the carry out of lane 0 and is never read: lane 0 lives in
 * acc0, written back at the end. */
IFMA INLINE void amm(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0,
                     const int V) {
    __m512i A[MAXV], As[MAXV], M[MAXV], Ms[MAXV], R[MAXV];
    const __m512i zero = _mm512_setzero_si512();
    for (int k = 0; k < V; k++) {
        A[k] = _mm512_loadu_si512((const void *)(a + 8 * k));
        M[k] = _mm512_loadu_si512((const void *)(m + 8 * k));
        R[k] = zero;
    }
    for (int k = 0; k < V; k++) {
        As[k] = _mm512_alignr_epi64(k + 1 < V ? A[k + 1] : zero, A[k], 1);
        Ms[k] = _mm512_alignr_epi64(k + 1 < V ? M[k + 1] : zero, M[k], 1);
    }
    /* The scalar side's y-independent terms, for every b_i at once: L0 = lo(a_0·b_i),
       K = hi(a_0·b_i) + lo(a_1·b_i), J = hi(a_1·b_i) + lo(a_2·b_i). */
    uint64_t L0[8 * MAXV], K[8 * MAXV], J[8 * MAXV];
    {
        const __m512i a0v = _mm512_set1_epi64((long long)a[0]), a1v = _mm512_set1_epi64((long long)a[1]),
                      a2v = _mm512_set1_epi64((long long)a[2]);
        for (int k = 0; k < V; k++) {
            const __m512i bv = _mm512_loadu_si512((const void *)(b + 8 * k));
            _mm512_storeu_si512((void *)(L0 + 8 * k), _mm512_madd52lo_epu64(zero, a0v, bv));
            _mm512_storeu_si512((void *)(K + 8 * k),
                                _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, a1v, bv), a0v, bv));
            _mm512_storeu_si512((void *)(J + 8 * k),
                                _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(zero, a2v, bv), a1v, bv));
        }
    }
    const uint64_t m0s = m[0] << 12, m1 = m[1], m1s = m[1] << 12, m2 = m[2];
    uint64_t acc0 = 0, lane1 = 0;
    for (int i = 0; i < 8 * V; i++) {
        const uint64_t bi = b[i];
        /* lane 2 of R before the step: with this step's J + lo(m_2·y) + hi(m_1·y) it is lane 1
           of T after the step. */
        const __m512i S0 = _mm512_alignr_epi64(V > 1 ? R[1] : zero, R[0], 1);
        const uint64_t r2 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(S0), 1);
        const uint64_t c = acc0 + L0[i];
        const uint64_t y = (c * k0) & MASK52;
        acc0 = (c >> 52) + ((c & MASK52) != 0) + (uint64_t)(((unsigned __int128)m0s * y) >> 64) + K[i] + lane1 +
               ((m1 * y) & MASK52);
        lane1 = r2 + J[i] + ((m2 * y) & MASK52) + (uint64_t)(((unsigned __int128)m1s * y) >> 64);
        const __m512i B = _mm512_set1_epi64((long long)bi), Y = _mm512_set1_epi64((long long)y);
        for (int k = 0; k < V; k++) {
            __m512i hq = _mm512_madd52lo_epu64(zero, As[k], B);
            hq = _mm512_madd52hi_epu64(hq, A[k], B);
            hq = _mm512_madd52lo_epu64(hq, Ms[k], Y);
            hq = _mm512_madd52hi_epu64(hq, M[k], Y);
            R[k] = _mm512_add_epi64(_mm512_alignr_epi64(k + 1 < V ? R[k + 1] : zero, R[k], 1), hq);
        }
    }
    R[0] = _mm512_mask_set1_epi64(R[0], 1, (long long)acc0);
    normalize(R, V);
    for (int k = 0; k < V; k++) _mm512_storeu_si512((void *)(out + 8 * k), R[k]);
}

/* out = AMS(a) = a²·R^-1 (mod m), below 2m when a < 2m and 4m < R: the same result as
 * amm(out, a, a, ...), with each cross product a_i·a_j (i < j) computed once (Gueron & Krasnov's
 * "almost Montgomery squaring"). out may alias a.
 *
 * a² = Σ_i a_i²·2^(104i) + Σ_i Σ_{j>i} a_i·2a_j·2^(52(i+j)). Step i runs AMM's step with b_i's row
 * a·b_i replaced by the row Σ_{j>i} a_i·2a_j·2^(52j) (window-relative, as AMM's rows are). VPMADD52
 * reads 52 bits of each source and 2a_j may have 53: with d_j = 2a_j mod 2^52 and c_j = bit 51 of
 * a_j (2a_j = d_j + c_j·2^52), the row is a_i·d_j (the low and high halves by VPMADD52 with the
 * digit vector d, masked to lanes j > i) plus a_i at lane j + 1 for each j > i with c_j = 1 (a
 * masked add of the broadcast a_i after the shift, the mask c's bits; the same for every step but
 * the one vector holding lane i). The diagonal a_i² sits at absolute digits 2i (low half) and
 * 2i + 1 (high half), which no step has to produce: those below D are in the accumulator from the
 * start (the window at step 0 covers absolute digits 0..D−1), those at D and above are added after
 * the last step (at digit p − D), since (T + m·Y)/R = (T_low + m·Y)/R + T_high exactly when
 * T_low + m·Y ≡ 0 (mod R).
 *
 * The scalar side is AMM's, with the row's terms at lanes 0, 1, 2 of the step (AMM's L0, K, J):
 * row i reaches lane p only for p > i, so L0 = 0, K = lo(a_0·d_1) at step 0, and J = lo(a_0·d_2) +
 * hi(a_0·d_1) + c_1·a_0 at step 0, lo(a_1·d_2) at step 1; zero otherwise.
 *
 * Lane bounds: each step adds at most five terms below 2^52 to a lane (two of m·y, two of a_i·d,
 * one a_i), the diagonal adds two, so every lane stays below (5·8V + 2)·2^52 < 2^61. */
IFMA INLINE void ams(uint64_t *out, const uint64_t *a, const uint64_t *m, uint64_t k0, const int V) {
    __m512i Dd[MAXV], Ds[MAXV], M[MAXV], Ms[MAXV], R[MAXV], Hi[MAXV];
    __mmask8 cm[MAXV];
    const __m512i zero = _mm512_setzero_si512();
    const __m512i mask = _mm512_set1_epi64((long long)MASK52);
    const __m512i top = _mm512_set1_epi64(1LL << 51);
    /* The diagonal: lo(a_i²) at digit 2i, hi(a_i²) at 2i + 1; vector k of a gives digits 16k..16k+15,
       accumulator vectors 2k and 2k + 1 (below V: R, the window at step 0; from V: Hi, added at the
       end). */
    const __m512i even = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i odd = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    for (int k = 0; k < V; k++) {
        const __m512i A = _mm512_loadu_si512((const void *)(a + 8 * k));
        M[k] = _mm512_loadu_si512((const void *)(m + 8 * k));
        Dd[k] = _mm512_and_si512(_mm512_slli_epi64(A, 1), mask);
        cm[k] = _mm512_cmpge_epu64_mask(A, top);
        const __m512i lo = _mm512_madd52lo_epu64(zero, A, A);
        const __m512i hi = _mm512_madd52hi_epu64(zero, A, A);
        const __m512i e0 = _mm512_permutex2var_epi64(lo, even, hi);
        const __m512i e1 = _mm512_permutex2var_epi64(lo, odd, hi);
        if (2 * k < V) R[2 * k] = e0; else Hi[2 * k - V] = e0;
        if (2 * k + 1 < V) R[2 * k + 1] = e1; else Hi[2 * k + 1 - V] = e1;
    }
    for (int k = 0; k < V; k++) {
        Ds[k] = _mm512_alignr_epi64(k + 1 < V ? Dd[k + 1] : zero, Dd[k], 1);
        Ms[k] = _mm512_alignr_epi64(k + 1 < V ? M[k + 1] : zero, M[k], 1);
    }
    const uint64_t d1 = (a[1] << 1) & MASK52, d2 = (a[2] << 1) & MASK52;
    uint64_t K[8] = {0}, J[8] = {0};
    K[0] = (a[0] * d1) & MASK52;
    J[0] = ((a[0] * d2) & MASK52) + (uint64_t)(((unsigned __int128)(a[0] << 12) * d1) >> 64) + (a[1] >> 51) * a[0];
    J[1] = (a[1] * d2) & MASK52;
    const uint64_t m0s = m[0] << 12, m1 = m[1], m1s = m[1] << 12, m2 = m[2];
    /* Lanes 0 and 1 of the window at step 0: the diagonal's digits 0 and 1. */
    uint64_t acc0 = (a[0] * a[0]) & MASK52;
    uint64_t lane1 = (uint64_t)(((unsigned __int128)(a[0] << 12) * a[0]) >> 64);
#pragma clang loop unroll(full)
    for (int q = 0; q < V; q++) {
        for (int l = 0; l < 8; l++) {
            const int i = 8 * q + l;
            const __m512i S0 = _mm512_alignr_epi64(V > 1 ? R[1] : zero, R[0], 1);
            const uint64_t r2 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(S0), 1);
            const uint64_t c = acc0;
            const uint64_t y = (c * k0) & MASK52;
            /* (c + lo(m_0·y)) / 2^52, c + lo(m_0·y) ≡ 0 (mod 2^52): ⌈c / 2^52⌉. */
            acc0 = ((c + MASK52) >> 52) + (uint64_t)(((unsigned __int128)m0s * y) >> 64) + lane1 + ((m1 * y) & MASK52);
            lane1 = r2 + ((m2 * y) & MASK52) + (uint64_t)(((unsigned __int128)m1s * y) >> 64);
            if (q == 0) {
                acc0 += K[l];
                lane1 += J[l];
            }
            const __m512i B = _mm512_set1_epi64((long long)a[i]), Y = _mm512_set1_epi64((long long)y);
            const __mmask8 mlo = (__mmask8)(0xFFu << l), mhi = (__mmask8)(0xFEu << l);
            for (int k = 0; k < V; k++) {
                /* The row's terms first: they do not wait for y. */
                __m512i hq = zero;
                if (k == q) {
                    hq = _mm512_mask_madd52lo_epu64(hq, mlo, Ds[k], B);
                    hq = _mm512_mask_madd52hi_epu64(hq, mhi, Dd[k], B);
                    hq = _mm512_mask_add_epi64(hq, (__mmask8)(cm[k] & mhi), hq, B);
                } else if (k > q) {
                    hq = _mm512_madd52lo_epu64(hq, Ds[k], B);
                    hq = _mm512_madd52hi_epu64(hq, Dd[k], B);
                    hq = _mm512_mask_add_epi64(hq, cm[k], hq, B);
                }
                hq = _mm512_madd52lo_epu64(hq, Ms[k], Y);
                hq = _mm512_madd52hi_epu64(hq, M[k], Y);
                R[k] = _mm512_add_epi64(_mm512_alignr_epi64(k + 1 < V ? R[k + 1] : zero, R[k], 1), hq);
            }
        }
    }
    R[0] = _mm512_mask_set1_epi64(R[0], 1, (long long)acc0);
    for (int k = 0; k < V; k++) R[k] = _mm512_add_epi64(R[k], Hi[k]);
    normalize(R, V);
    for (int k = 0; k < V; k++) _mm512_storeu_si512((void *)(out + 8 * k), R[k]);
}

/* acc = acc²·R^-1 (mod m), below 2m: AMS from five vectors (RSA-2048) up, where it measured faster
 * than AMM on Zen 4 (min of 30 runs, e = 65537 exponentiations: V = 5 −2 to −3 %, V = 8 −7 %,
 * V = 10 −8 %); below, AMS's extra per-step work (masks, the masked adds of the bit-51 terms) is
 * not paid back by its fewer multiplications (V = 3: +7 %), so AMM squares. The gain is far below
 * the multiply count's (640 VPMADD52 instead of 800 at V = 5): on Zen 4 the step loop is not bound
 * by VPMADD52 alone (tried without effect: a 256-bit-vector AMS, the scalar side reading lane 3 for
 * a step more of slack, shifting the window two lanes every two steps, y broadcast from memory). */
IFMA INLINE void square(uint64_t *acc, const uint64_t *m, uint64_t k0, const int V) {
    if (V >= 5) ams(acc, acc, m, k0, V); else amm(acc, acc, acc, m, k0, V);
}

/* The exponentiation for one vector count V (see csigil_rsa_modexp_ifma_rr). rr = 0: `xr` is x·R
   mod m; rr = 1: `xr` is R² mod m, and x·R (mod m, below 2m) = AMM(x, R²). */
IFMA INLINE void modexp(csigil_limb *out, const csigil_limb *x, const csigil_limb *xr, const csigil_limb *m,
                        size_t n, const csigil_limb *e, size_t elen, const int rr, const int V) {
    const size_t D = 8 * (size_t)V;
    uint64_t md[8 * MAXV], xd[8 * MAXV], xrd[8 * MAXV], acc[8 * MAXV];
    to_radix52(md, m, n, D);
    to_radix52(xd, x, n, D);
    to_radix52(xrd, xr, n, D);
    /* −m^-1 mod 2^64 by Newton–Hensel (5 steps from 3 correct bits), then mod 2^52. */
    uint64_t inv = m[0];
    for (int i = 0; i < 5; i++) inv *= 2 - m[0] * inv;
    const uint64_t k0 = (0 - inv) & MASK52;
    if (rr) amm(xrd, xd, xrd, md, k0, V);

    for (size_t j = 0; j < D; j++) acc[j] = xrd[j];
    size_t top = elen - 1;
    int bit = 63 - __builtin_clzll(e[top]) - 1; /* below the top bit */
    for (size_t limb = top + 1; limb-- > 0;) {
        for (; bit >= 0; bit--) {
            if (limb == 0 && bit == 0) break;
            square(acc, md, k0, V);
            if ((e[limb] >> bit) & 1) amm(acc, acc, xrd, md, k0, V);
        }
        bit = 63;
    }
    /* Bit 0 (= 1): square, then multiply by ordinary x to leave Montgomery form: x^e, < 2m. */
    square(acc, md, k0, V);
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

IFMA static void modexp_any(csigil_limb *out, const csigil_limb *x, const csigil_limb *xr, const csigil_limb *m,
                              size_t n, const csigil_limb *e, size_t elen, int rr) {
    switch (csigil_rsa_ifma_vectors(n)) {
    case 1: modexp(out, x, xr, m, n, e, elen, rr, 1); break;
    case 2: modexp(out, x, xr, m, n, e, elen, rr, 2); break;
    case 3: modexp(out, x, xr, m, n, e, elen, rr, 3); break;
    case 4: modexp(out, x, xr, m, n, e, elen, rr, 4); break;
    case 5: modexp(out, x, xr, m, n, e, elen, rr, 5); break;
    case 6: modexp(out, x, xr, m, n, e, elen, rr, 6); break;
    case 7: modexp(out, x, xr, m, n, e, elen, rr, 7); break;
    case 8: modexp(out, x, xr, m, n, e, elen, rr, 8); break;
    case 9: modexp(out, x, xr, m, n, e, elen, rr, 9); break;
    case 10: modexp(out, x, xr, m, n, e, elen, rr, 10); break;
    default: __builtin_trap();
    }
}

void csigil_rsa_modexp_ifma_rr(csigil_limb *out, const csigil_limb *x, const csigil_limb *rr,
                               const csigil_limb *m, size_t n, const csigil_limb *e, size_t elen) {
    modexp_any(out, x, rr, m, n, e, elen, 1);
}

/* One AMM (square = 0) or AMS (square = 1) for tests, on (n + 1)-limb operands below 2m. */
IFMA INLINE void mont_op(csigil_limb *out, const csigil_limb *a, const csigil_limb *b, const csigil_limb *m,
                         size_t n, int square, const int V) {
    const size_t D = 8 * (size_t)V;
    uint64_t md[8 * MAXV], ad[8 * MAXV], bd[8 * MAXV], rd[8 * MAXV];
    to_radix52(md, m, n, D);
    to_radix52(ad, a, n + 1, D);
    to_radix52(bd, b, n + 1, D);
    uint64_t inv = m[0];
    for (int i = 0; i < 5; i++) inv *= 2 - m[0] * inv;
    const uint64_t k0 = (0 - inv) & MASK52;
    if (square) ams(rd, ad, md, k0, V); else amm(rd, ad, bd, md, k0, V);
    from_radix52(out, n + 1, rd, D);
}

IFMA void csigil_rsa_ifma_mont_test(csigil_limb *out, const csigil_limb *a, const csigil_limb *b,
                                    const csigil_limb *m, size_t n, int square) {
    switch (csigil_rsa_ifma_vectors(n)) {
    case 1: mont_op(out, a, b, m, n, square, 1); break;
    case 2: mont_op(out, a, b, m, n, square, 2); break;
    case 3: mont_op(out, a, b, m, n, square, 3); break;
    case 4: mont_op(out, a, b, m, n, square, 4); break;
    case 5: mont_op(out, a, b, m, n, square, 5); break;
    case 6: mont_op(out, a, b, m, n, square, 6); break;
    case 7: mont_op(out, a, b, m, n, square, 7); break;
    case 8: mont_op(out, a, b, m, n, square, 8); break;
    case 9: mont_op(out, a, b, m, n, square, 9); break;
    case 10: mont_op(out, a, b, m, n, square, 10); break;
    default: __builtin_trap();
    }
}

#else

int csigil_bignum_ifma_supported(void) { return 0; }
size_t csigil_rsa_ifma_vectors(size_t n) { (void)n; return 0; }
void csigil_rsa_modexp_ifma_rr(csigil_limb *out, const csigil_limb *x, const csigil_limb *rr,
                               const csigil_limb *m, size_t n, const csigil_limb *e, size_t elen) {
    (void)out; (void)x; (void)rr; (void)m; (void)n; (void)e; (void)elen;
    __builtin_trap();
}
void csigil_rsa_ifma_mont_test(csigil_limb *out, const csigil_limb *a, const csigil_limb *b,
                               const csigil_limb *m, size_t n, int square) {
    (void)out; (void)a; (void)b; (void)m; (void)n; (void)square;
    __builtin_trap();
}

#endif
