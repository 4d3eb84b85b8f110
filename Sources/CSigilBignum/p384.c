/* P-384 (secp384r1, FIPS 186-5 / SP 800-186 §3.2.1.4) field arithmetic and the double-scalar
 * multiplication u1·G + u2·Q of ECDSA verification (SEC 1 §4.1.4 step 5).
 *
 * VARIABLE TIME, on purpose: this code only serves signature *verification*, where every input
 * (public key, digest, signature, hence u1 and u2) is public. It branches on digits and on
 * the exceptional cases of the addition formulas. Do not reuse it for signing or key agreement.
 *
 * Field: p = 2^384 - 2^128 - 2^96 + 2^32 - 1, Montgomery form with R = 2^384, every element
 * fully reduced (below p). The Swift side (P384Reduction) keeps plain integers: the kernel
 * converts Q in and the result out.
 *  - Products, where the CPU has BMI2 and ADX (csigil_bignum_mulx_supported(), the double-scalar
 *    multiplication compiled a second time with target("bmi2,adx")) in optimised x86-64 builds:
 *    hand-written MULX/ADCX/ADOX (p384_mulx.h, Scripts/gen_p384_mulx.py): the product as
 *    interleaved rows and Montgomery rounds, the square as its 15 cross products once, doubled,
 *    plus the squares, then six rounds on the low half; every round forms its multiple of p with
 *    shifts (-p^-1 = 2^32 + 1 mod 2^64 and p = 2^384 - c, c = 2^128 + 2^96 - 2^32 + 1), no
 *    product. Elsewhere (other CPUs, debug builds): portable C, 6x6 limbs, operand scanning with
 *    unsigned __int128, then six word-by-word REDC rounds, each subtracting m·c (two products
 *    instead of six, see redc). Squares form the 15 cross products once and double them.
 *    Inputs below p give a REDC result below 2p; one conditional subtraction brings it below p
 *    (final_sub: a branch that almost never takes the subtraction).
 * Points: Jacobian (X, Y, Z) ~ (X/Z^2, Y/Z^3), Z = 0 is infinity; the same formulas as p256.c
 * (Explicit-Formulas Database): dbl-2001-b (a = -3) scaled by 1/2, add-1998-cmo-2 with Z2^2, Z2^3
 * cached (the table of Q, width-5 wNAF), madd-2004-hmv (the static affine table of G,
 * p384_gtable.h, width-12 wNAF). The exceptional cases (an input at infinity, P + P, P + (-P))
 * are detected and handled: a verifier sees attacker-chosen keys and signatures.
 */
#include "CSigilBignum.h"

typedef csigil_limb limb;
typedef unsigned __int128 u128;

#define INL __attribute__((always_inline)) static inline
#define NL 6

static const limb P[NL] = {0x00000000ffffffffUL, 0xffffffff00000000UL, 0xfffffffffffffffeUL,
                           0xffffffffffffffffUL, 0xffffffffffffffffUL, 0xffffffffffffffffUL};
/* R mod p and R^2 mod p (R = 2^384). */
static const limb ONE[NL] = {0xffffffff00000001UL, 0x00000000ffffffffUL, 0x0000000000000001UL, 0, 0, 0};
static const limb RR[NL] = {0xfffffffe00000001UL, 0x0000000200000000UL, 0xfffffffe00000000UL,
                            0x0000000200000000UL, 0x0000000000000001UL, 0};
#define N0 0x0000000100000001UL /* -p^-1 mod 2^64 */

typedef struct { limb v[NL]; } fe;

INL limb addc(limb a, limb b, limb cin, limb *cout) { return __builtin_addcl(a, b, cin, cout); }
INL limb subb(limb a, limb b, limb bin, limb *bout) { return __builtin_subcl(a, b, bin, bout); }

/* r = s - p if s (with carry-out `top`) >= p, else s. s < 2p. Branches (variable time, see
   above): s >= p needs top = 1 or s_5 = 2^64 - 1 (= p_5), about 2^-64 of the products here, so
   the common case is one well-predicted test and a copy instead of a subtraction and a select. */
INL void final_sub(fe *r, const limb s[NL], limb top) {
    if (__builtin_expect(top == 0 && s[NL - 1] != ~(limb)0, 1)) {
        _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) r->v[i] = s[i];
        return;
    }
    limb d[NL], b = 0;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) d[i] = subb(s[i], P[i], b, &b);
    (void)subb(top, 0, b, &b); /* b = 1: s < p */
    limb keep = 0 - b;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) r->v[i] = (s[i] & keep) | (d[i] & ~keep);
}

/* r ≡ t · 2^-384 (mod p), t < p · 2^384 (12 limbs, clobbered): below p.
   Word-by-word REDC using the shape of p: p = 2^384 - c with c = 2^128 + 2^96 - 2^32 + 1
   = (1, 2^32 - 1, 2^64 - 2^32 + 1) in limbs (c is also R mod p). Round i adds m·p·2^(64 i) for
   m = t_i·(-p^-1) mod 2^64, i.e. subtracts m·c (three limbs and m at the third: two products)
   at limb i, which clears limb i, and adds m at limb i + 6. t + m·p stays non-negative, and m
   covers the borrow out of limb i + 5 (m = 0 makes m·c = 0). */
INL void redc(fe *r, limb t[2 * NL]) {
    limb top = 0; /* carry into limb i + NL of round i */
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) {
        limb m = t[i] * N0;
        u128 a = (u128)m * 0xffffffff00000001UL;
        u128 b = (u128)m * 0x00000000ffffffffUL + (limb)(a >> 64);
        /* m·c = (limb)a + (limb)b·2^64 + ((limb)(b >> 64) + m)·2^128; the last may carry. */
        limb c2lo, c2hi;
        c2lo = addc((limb)(b >> 64), m, 0, &c2hi);
        limb bw;
        (void)subb(t[i], (limb)a, 0, &bw); /* limb i becomes 0 */
        t[i + 1] = subb(t[i + 1], (limb)b, bw, &bw);
        t[i + 2] = subb(t[i + 2], c2lo, bw, &bw);
        t[i + 3] = subb(t[i + 3], c2hi, bw, &bw);
        t[i + 4] = subb(t[i + 4], 0, bw, &bw);
        t[i + 5] = subb(t[i + 5], 0, bw, &bw);
        limb c, c1;
        t[i + NL] = addc(t[i + NL], m - bw, 0, &c);
        t[i + NL] = addc(t[i + NL], top, 0, &c1);
        top = c + c1;
    }
    final_sub(r, t + NL, top);
}

INL void fmul_c(fe *r, const fe *a, const fe *b) {
    limb t[2 * NL];
    {
        limb c = 0;
        _Pragma("clang loop unroll(full)") for (int j = 0; j < NL; j++) {
            u128 s = (u128)a->v[j] * b->v[0] + c;
            t[j] = (limb)s;
            c = (limb)(s >> 64);
        }
        t[NL] = c;
    }
    _Pragma("clang loop unroll(full)") for (int i = 1; i < NL; i++) {
        limb c = 0;
        _Pragma("clang loop unroll(full)") for (int j = 0; j < NL; j++) {
            u128 s = (u128)a->v[j] * b->v[i] + t[i + j] + c;
            t[i + j] = (limb)s;
            c = (limb)(s >> 64);
        }
        t[i + NL] = c;
    }
    redc(r, t);
}

INL void fsqr_c(fe *r, const fe *a) {
    limb t[2 * NL];
    _Pragma("clang loop unroll(full)") for (int i = 0; i < 2 * NL; i++) t[i] = 0;
    /* Cross products a_i a_j, i < j. */
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL - 1; i++) {
        limb c = 0;
        _Pragma("clang loop unroll(full)") for (int j = i + 1; j < NL; j++) {
            u128 s = (u128)a->v[i] * a->v[j] + t[i + j] + c;
            t[i + j] = (limb)s;
            c = (limb)(s >> 64);
        }
        t[i + NL] = c;
    }
    /* Double, then add the squares. */
    t[2 * NL - 1] = t[2 * NL - 2] >> 63;
    _Pragma("clang loop unroll(full)") for (int i = 2 * NL - 2; i > 0; i--) t[i] = (t[i] << 1) | (t[i - 1] >> 63);
    limb c = 0;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) {
        u128 q = (u128)a->v[i] * a->v[i];
        t[2 * i] = addc(t[2 * i], (limb)q, c, &c);
        t[2 * i + 1] = addc(t[2 * i + 1], (limb)(q >> 64), c, &c);
    }
    redc(r, t);
}

#if defined(__x86_64__) && defined(__OPTIMIZE__)
#define P384_ASM 1
#include "p384_mulx.h"
#else
#define P384_ASM 0
#endif

/* mx (a constant after inlining): the MULX/ADCX/ADOX product (p384_mulx.h), only where the CPU
   has BMI2 and ADX, in optimised x86-64 builds; otherwise the portable C above. */
INL void fmul(fe *r, const fe *a, const fe *b, int mx) {
#if P384_ASM
    if (mx) {
        limb s[NL], top;
        mont_mul_mulx(s, &top, a, b);
        final_sub(r, s, top);
        return;
    }
#endif
    (void)mx;
    fmul_c(r, a, b);
}

INL void fsqr(fe *r, const fe *a, int mx) {
#if P384_ASM
    if (mx) {
        limb s[NL], top;
        mont_sqr_mulx(s, &top, a);
        final_sub(r, s, top);
        return;
    }
#endif
    (void)mx;
    fsqr_c(r, a);
}

/* r = a + b mod p, a, b < p. */
INL void fadd(fe *r, const fe *a, const fe *b) {
    limb s[NL], c = 0;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) s[i] = addc(a->v[i], b->v[i], c, &c);
    final_sub(r, s, c);
}

/* r = a - b mod p, a, b < p. */
INL void fsub(fe *r, const fe *a, const fe *b) {
    limb d[NL], bw = 0, c = 0;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) d[i] = subb(a->v[i], b->v[i], bw, &bw);
    limb mask = 0 - bw;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) r->v[i] = addc(d[i], P[i] & mask, c, &c);
}

/* r = a / 2 mod p, a < p: add p when a is odd (the sum is even, below 2p), shift right. */
INL void fhalf(fe *r, const fe *a) {
    limb mask = 0 - (a->v[0] & 1), c = 0, s[NL];
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) s[i] = addc(a->v[i], P[i] & mask, c, &c);
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL - 1; i++) r->v[i] = (s[i] >> 1) | (s[i + 1] << 63);
    r->v[NL - 1] = (s[NL - 1] >> 1) | (c << 63);
}

INL int fis_zero(const fe *a) {
    limb o = 0;
    _Pragma("clang loop unroll(full)") for (int i = 0; i < NL; i++) o |= a->v[i];
    return o == 0;
}

static const fe FE_ZERO = {{0, 0, 0, 0, 0, 0}};

typedef struct { fe x, y, z; } jac;
typedef struct { fe x, y, z, zz, zzz; } qentry;

/* r = 2a (see p256.c for the derivation of the halved dbl-2001-b). r may alias a. */
INL void pdbl(jac *r, const jac *a, int mx) {
    /* Ordered so that no product needs the one just before it (meant to let the out-of-order
       window overlap the long MULX products; measured neutral in the C harness, within ±2 %). */
    fe delta, gamma, beta, alpha, t, u, g2;
    fsqr(&delta, &a->z, mx);
    fsqr(&gamma, &a->y, mx);
    fsub(&t, &a->x, &delta);
    fadd(&u, &a->x, &delta);
    fmul(&alpha, &t, &u, mx);
    fmul(&beta, &a->x, &gamma, mx);
    fmul(&r->z, &a->y, &a->z, mx);
    fhalf(&t, &alpha);
    fadd(&alpha, &alpha, &t);
    fsqr(&t, &alpha, mx);
    fsqr(&g2, &gamma, mx);
    fsub(&t, &t, &beta);
    fsub(&r->x, &t, &beta);
    fsub(&u, &beta, &r->x);
    fmul(&u, &u, &alpha, mx);
    fsub(&r->y, &u, &g2);
}

__attribute__((noinline)) static void pdbl_rare(jac *r, const jac *a, int mx) { pdbl(r, a, mx); }

/* r = a + b, b a Q-table entry (never infinity) with y replaced by `by`. add-1998-cmo-2. */
INL void padd(jac *r, const jac *a, const qentry *b, const fe *by, int mx) {
    if (fis_zero(&a->z)) {
        r->x = b->x; r->y = *by; r->z = b->z;
        return;
    }
    /* Ordered as pdbl: no product right after the one it needs (neutral, as there). */
    fe z1z1, u1, u2, s1, s2, h, rr, hh, hhh, v, t, rr2, w;
    fsqr(&z1z1, &a->z, mx);
    fmul(&u1, &a->x, &b->zz, mx);
    fmul(&t, &a->z, &z1z1, mx);
    fmul(&s1, &a->y, &b->zzz, mx);
    fmul(&s2, by, &t, mx);
    fmul(&u2, &b->x, &z1z1, mx);
    fsub(&h, &u2, &u1);
    fsub(&rr, &s2, &s1);
    if (fis_zero(&h)) {
        if (fis_zero(&rr)) {
            pdbl_rare(r, a, mx);
        } else {
            r->z = FE_ZERO;
        }
        return;
    }
    fsqr(&hh, &h, mx);
    fmul(&t, &a->z, &h, mx);
    fsqr(&rr2, &rr, mx);
    fmul(&hhh, &hh, &h, mx);
    fmul(&v, &u1, &hh, mx);
    fmul(&r->z, &t, &b->z, mx);
    fmul(&w, &s1, &hhh, mx);
    fsub(&t, &rr2, &hhh);
    fsub(&t, &t, &v);
    fsub(&r->x, &t, &v);
    fsub(&v, &v, &r->x);
    fmul(&v, &rr, &v, mx);
    fsub(&r->y, &v, &w);
}

/* r = a + (qx, qy), affine, never infinity. madd-2004-hmv. */
INL void pmadd(jac *r, const jac *a, const fe *qx, const fe *qy, int mx) {
    if (fis_zero(&a->z)) {
        r->x = *qx; r->y = *qy;
        for (int k = 0; k < NL; k++) r->z.v[k] = ONE[k];
        return;
    }
    fe z1z1, t, h, rr, hh, hhh, v, rr2, w, x1 = a->x, y1 = a->y;
    fsqr(&z1z1, &a->z, mx);
    fmul(&h, qx, &z1z1, mx);
    fmul(&t, &a->z, &z1z1, mx);
    fsub(&h, &h, &x1);
    fmul(&rr, qy, &t, mx);
    fsub(&rr, &rr, &y1);
    if (fis_zero(&h)) {
        if (fis_zero(&rr)) {
            pdbl_rare(r, a, mx);
        } else {
            r->z = FE_ZERO;
        }
        return;
    }
    fsqr(&hh, &h, mx);
    fmul(&r->z, &a->z, &h, mx);
    fsqr(&rr2, &rr, mx);
    fmul(&hhh, &hh, &h, mx);
    fmul(&v, &x1, &hh, mx);
    fmul(&w, &y1, &hhh, mx);
    fsub(&t, &rr2, &hhh);
    fsub(&t, &t, &v);
    fsub(&r->x, &t, &v);
    fsub(&v, &v, &r->x);
    fmul(&v, &rr, &v, mx);
    fsub(&r->y, &v, &w);
}

#define QTABLE 8 /* odd multiples Q, 3Q, ..., 15Q: the wNAF window of u2 is 5 */

INL void q_table(qentry tab[QTABLE], const limb q[2 * NL], int mx) {
    jac acc, twice;
    const fe rr = {{RR[0], RR[1], RR[2], RR[3], RR[4], RR[5]}};
    fe x, y;
    for (int k = 0; k < NL; k++) { x.v[k] = q[k]; y.v[k] = q[NL + k]; }
    fmul(&tab[0].x, &x, &rr, mx); /* into Montgomery form */
    fmul(&tab[0].y, &y, &rr, mx);
    for (int k = 0; k < NL; k++) tab[0].z.v[k] = ONE[k];
    tab[0].zz = tab[0].z;
    tab[0].zzz = tab[0].z;
    acc.x = tab[0].x; acc.y = tab[0].y; acc.z = tab[0].z;
    pdbl_rare(&twice, &acc, mx);
    /* Q has prime order n: no multiple below 16 is infinity or equal to another. */
    qentry two;
    two.x = twice.x; two.y = twice.y; two.z = twice.z;
    fsqr(&two.zz, &two.z, mx);
    fmul(&two.zzz, &two.zz, &two.z, mx);
    for (int k = 1; k < QTABLE; k++) {
        padd(&acc, &acc, &two, &two.y, mx);
        tab[k].x = acc.x; tab[k].y = acc.y; tab[k].z = acc.z;
        fsqr(&tab[k].zz, &acc.z, mx);
        fmul(&tab[k].zzz, &tab[k].zz, &acc.z, mx);
    }
}

#include "p384_gtable.h"

#define NDIGITS 385
/* Width-w NAF of k < 2^384 (HMV algorithm 3.35, windows read in place with a carry; as
   p256.c's wnaf): digits 0 or odd, |d| < 2^(w-1), least significant first. Returns the count up
   to the last non-zero digit (0 for k = 0). */
static size_t wnaf(short out[NDIGITS], const limb k[NL], int w) {
    for (int i = 0; i < NDIGITS; i++) out[i] = 0;
    int carry = 0, pos = 0, last = -1;
    while (pos < NDIGITS) {
        int li = pos >> 6, off = pos & 63;
        limb v = li < NL ? k[li] >> off : 0;
        if ((int)(v & 1) == carry) { pos++; continue; }
        int now = NDIGITS - pos < w ? NDIGITS - pos : w;
        if (off + now > 64 && li + 1 < NL) v |= k[li + 1] << (64 - off);
        int word = (int)(v & ((1UL << now) - 1)) + carry;
        carry = (word >> (w - 1)) & 1;
        word -= carry << w;
        out[pos] = (short)word;
        last = pos;
        pos += now;
    }
    return (size_t)(last + 1);
}

INL int mul_public(limb out[3 * NL], const limb u1[NL], const limb u2[NL], const limb q[2 * NL], int mx) {
    qentry tab[QTABLE];
    jac acc;
    short d1[NDIGITS], d2[NDIGITS];
    size_t len1 = wnaf(d1, u1, P384_GWINDOW), len2 = wnaf(d2, u2, 5);
    q_table(tab, q, mx);
    acc.z = FE_ZERO;
    int started = 0;
    size_t len = len1 > len2 ? len1 : len2;
    for (size_t i = len; i-- > 0;) {
        if (started) pdbl(&acc, &acc, mx);
        int a = d2[i];
        if (a != 0) {
            const qentry *e = &tab[(a < 0 ? -a : a) >> 1];
            fe ny;
            const fe *y = &e->y;
            if (a < 0) {
                fsub(&ny, &FE_ZERO, &e->y);
                y = &ny;
            }
            padd(&acc, &acc, e, y, mx);
            started = 1;
        }
        int b = d1[i];
        if (b != 0) {
            const limb *g = P384_GTABLE[(b < 0 ? -b : b) >> 1];
            fe gx, gy;
            for (int k = 0; k < NL; k++) { gx.v[k] = g[k]; gy.v[k] = g[NL + k]; }
            if (b < 0) fsub(&gy, &FE_ZERO, &gy);
            pmadd(&acc, &acc, &gx, &gy, mx);
            started = 1;
        }
    }
    /* Out of Montgomery form: x · R · R^-1 = x (multiply by the plain 1). */
    const fe one = {{1, 0, 0, 0, 0, 0}};
    fe x, y, z;
    fmul(&x, &acc.x, &one, mx);
    fmul(&y, &acc.y, &one, mx);
    fmul(&z, &acc.z, &one, mx);
    for (int k = 0; k < NL; k++) { out[k] = x.v[k]; out[NL + k] = y.v[k]; out[2 * NL + k] = z.v[k]; }
    return !fis_zero(&acc.z);
}

#if defined(__x86_64__)
#define P384_HAVE_MULX 1
__attribute__((target("bmi2,adx"), noinline))
static int mul_public_mulx(limb out[3 * NL], const limb u1[NL], const limb u2[NL], const limb q[2 * NL]) {
    return mul_public(out, u1, u2, q, 1);
}
#else
#define P384_HAVE_MULX 0
#endif

__attribute__((noinline))
static int mul_public_portable(limb out[3 * NL], const limb u1[NL], const limb u2[NL], const limb q[2 * NL]) {
    return mul_public(out, u1, u2, q, 0);
}

/* y^2 == x^3 - 3x + b (SEC 1 §3.2.2.1 step 3) for x, y below p (plain integers): the key
   validation of an uncompressed P-384 public key. */
static const limb BMONT[NL] = {0x081188719d412dccUL, 0xf729add87a4c32ecUL, 0x77f2209b1920022eUL,
                               0xe3374bee94938ae2UL, 0xb62b21f41f022094UL, 0xcd08114b604fbff9UL}; /* b R mod p */

INL int on_curve(const limb xin[NL], const limb yin[NL], int mx) {
    fe x, y, t, u, rhs;
    const fe r2 = {{RR[0], RR[1], RR[2], RR[3], RR[4], RR[5]}};
    const fe b = {{BMONT[0], BMONT[1], BMONT[2], BMONT[3], BMONT[4], BMONT[5]}};
    for (int k = 0; k < NL; k++) { x.v[k] = xin[k]; y.v[k] = yin[k]; }
    fmul(&x, &x, &r2, mx); /* Montgomery form */
    fmul(&y, &y, &r2, mx);
    fsqr(&t, &x, mx);
    fmul(&rhs, &t, &x, mx); /* x^3 */
    fadd(&u, &x, &x);
    fadd(&u, &u, &x);
    fsub(&rhs, &rhs, &u); /* x^3 - 3x */
    fadd(&rhs, &rhs, &b);
    fsqr(&t, &y, mx);
    fsub(&t, &t, &rhs);
    return fis_zero(&t);
}

#if P384_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static int on_curve_mulx(const limb x[NL], const limb y[NL]) { return on_curve(x, y, 1); }
#endif

int csigil_p384_on_curve(const csigil_limb x[6], const csigil_limb y[6], int use_mulx) {
#if P384_HAVE_MULX
    if (use_mulx && csigil_bignum_mulx_supported()) return on_curve_mulx(x, y);
#endif
    (void)use_mulx;
    return on_curve(x, y, 0);
}

int csigil_p384_mul_public(csigil_limb out[18], const csigil_limb u1[6], const csigil_limb u2[6],
                           const csigil_limb q[12], int use_mulx) {
#if P384_HAVE_MULX
    if (use_mulx && csigil_bignum_mulx_supported()) return mul_public_mulx(out, u1, u2, q);
#endif
    (void)use_mulx;
    return mul_public_portable(out, u1, u2, q);
}

const csigil_limb *csigil_p384_gtable(size_t *count, int *window) {
    *count = sizeof P384_GTABLE / sizeof P384_GTABLE[0];
    *window = P384_GWINDOW;
    return &P384_GTABLE[0][0];
}

size_t csigil_p384_wnaf(short out[385], const csigil_limb k[6], int w) {
    if (w < 2 || w > 15) return 0;
    return wnaf(out, k, w);
}

INL void field_op(int op, fe *z, const fe *x, const fe *y, int mx) {
    switch (op) {
    case 0: fmul(z, x, y, mx); break;
    case 1: fsqr(z, x, mx); break;
    case 2: fadd(z, x, y); break;
    case 3: fsub(z, x, y); break;
    default: fhalf(z, x); break;
    }
}

#if P384_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static void field_op_mulx(int op, fe *z, const fe *x, const fe *y) { field_op(op, z, x, y, 1); }
#endif

void csigil_p384_field_op(int op, csigil_limb r[6], const csigil_limb a[6], const csigil_limb b[6], int use_mulx) {
    fe x, y, z;
    for (int k = 0; k < NL; k++) { x.v[k] = a[k]; y.v[k] = b[k]; }
#if P384_HAVE_MULX
    if (use_mulx && csigil_bignum_mulx_supported()) {
        field_op_mulx(op, &z, &x, &y);
        for (int k = 0; k < NL; k++) r[k] = z.v[k];
        return;
    }
#endif
    (void)use_mulx;
    field_op(op, &z, &x, &y, 0);
    for (int k = 0; k < NL; k++) r[k] = z.v[k];
}
