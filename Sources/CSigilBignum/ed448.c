/* Ed448 signature verification (RFC 8032 §5.2.7), the group part: decode A (§5.2.3), check
 * S < L, compute [S]B - [k]A and compare its encoding (§5.2.2) with R. The caller computes
 * k = SHAKE256(dom4(0, "") || R || A || M, 114) mod L (SigilCrypto/EdDSA.swift).
 *
 * VARIABLE TIME, on purpose: verification inputs are public. Do not reuse for signing.
 *
 * Field GF(p), p = 2^448 - 2^224 - 1: eight unsigned radix-2^56 limbs, products in unsigned
 * __int128, Karatsuba over φ = 2^224 (φ^2 = φ + 1 mod p: three 4x4-limb products, no separate
 * reduction step). Products return limbs below 2^57; fe_add/fe_sub results (below 2^59; fe_sub
 * adds 4p first, its subtrahend below 2^58) feed products only, which keeps every column
 * below 2^126.
 *
 * Curve: edwards448, x^2 + y^2 = 1 + d x^2 y^2, d = -39081 (RFC 8032 §5.2; a = 1). Points in
 * extended coordinates (X:Y:Z:T) with the completed form of ed25519.c; the a = 1 formulas of
 * Hisil, Wong, Carter, Dawson 2008 (add-2008-hwcd, dbl-2008-hwcd), complete on this curve
 * (a a square, d a non-square), so no input needs a special case.
 *
 * Double-scalar multiplication [S]B + [k](-A): interleaved wNAFs sharing one chain of about 446
 * doublings, width 7 for S over a static table of the 32 odd multiples of B (ed448_btable.h,
 * Scripts/gen_ed448_btable.py), width 5 for k over the 8 odd multiples of -A (on the stack).
 */
#include "CSigilEdDSA.h"

#include <string.h>

typedef uint64_t u64;
typedef unsigned __int128 u128;

#define INL __attribute__((always_inline)) static inline
#define M56 ((u64)0xffffffffffffffULL)

typedef struct { u64 v[8]; } fe;

/* ---- field ---------------------------------------------------------------------------- */

INL void fe_0(fe *h) { memset(h, 0, sizeof *h); }
INL void fe_1(fe *h) { fe_0(h); h->v[0] = 1; }

INL void fe_add(fe *h, const fe *f, const fe *g) {
    for (int i = 0; i < 8; i++) h->v[i] = f->v[i] + g->v[i];
}

/* h = f - g + 4p (4p's limbs: 2^58 - 4, and 2^58 - 8 at limb 4); g below 2^58 - 8. */
INL void fe_sub(fe *h, const fe *f, const fe *g) {
    for (int i = 0; i < 8; i++) h->v[i] = f->v[i] + (i == 4 ? 0x3fffffffffffff8ULL : 0x3fffffffffffffcULL) - g->v[i];
}

INL void fe_neg(fe *h, const fe *f) {
    fe z;
    fe_0(&z);
    fe_sub(h, &z, f);
}

/* One carry pass over limbs below 2^63: limbs below 2^56 except limbs 0 and 4 (below 2^57). */
INL void fe_reduce(fe *h) {
    u64 c = h->v[7] >> 56;
    h->v[7] &= M56;
    for (int i = 6; i >= 0; i--) {
        u64 ci = h->v[i] >> 56;
        h->v[i] &= M56;
        h->v[i + 1] += ci;
    }
    /* 2^448 = 2^224 + 1 */
    h->v[0] += c;
    h->v[4] += c;
}

/* Carries the eight column sums (each below 2^126) into limbs below 2^56 (limbs 1 and 5 below
   2^56 + 2^15); the carry out of limb 7 wraps to limbs 0 and 4 (2^448 = 2^224 + 1). */
INL void fe_carry_wide(fe *h, u128 r[8]) {
    for (int k = 0; k < 7; k++) {
        r[k + 1] += r[k] >> 56;
        r[k] &= M56;
    }
    u128 top = r[7] >> 56;
    r[7] &= M56;
    r[0] += top;
    r[4] += top;
    r[1] += r[0] >> 56;
    r[0] &= M56;
    r[5] += r[4] >> 56;
    r[4] &= M56;
    for (int k = 0; k < 8; k++) h->v[k] = (u64)r[k];
}

/* Karatsuba over φ = 2^224 ("golden" prime: φ^2 = φ + 1 mod p). With f = f0 + f1 φ and
   g = g0 + g1 φ (four limbs each), f g = (z0 + z2) + (z1 - z0) φ where z0 = f0 g0, z2 = f1 g1,
   z1 = (f0 + f1)(g0 + g1): 48 limb products instead of 64. z1 - z0 >= 0 column by column. Its
   columns j = 0..6 land at j + 4; those at 8..10 fold to j - 4 and j. Inputs below 2^59: each
   product below 2^120, each result column below 2^125. */
INL void fe_karatsuba_columns(u128 r[8], const u128 z0[7], const u128 z1[7], const u128 z2[7]) {
    u128 m[7];
    for (int k = 0; k < 7; k++) m[k] = z1[k] - z0[k];
    r[0] = z0[0] + z2[0] + m[4];
    r[1] = z0[1] + z2[1] + m[5];
    r[2] = z0[2] + z2[2] + m[6];
    r[3] = z0[3] + z2[3];
    r[4] = z0[4] + z2[4] + m[0] + m[4];
    r[5] = z0[5] + z2[5] + m[1] + m[5];
    r[6] = z0[6] + z2[6] + m[2] + m[6];
    r[7] = m[3];
}

#define MUL4(z, a, b)                                                                            \
    do {                                                                                         \
        z[0] = (u128)a[0] * b[0];                                                                \
        z[1] = (u128)a[0] * b[1] + (u128)a[1] * b[0];                                            \
        z[2] = (u128)a[0] * b[2] + (u128)a[1] * b[1] + (u128)a[2] * b[0];                        \
        z[3] = (u128)a[0] * b[3] + (u128)a[1] * b[2] + (u128)a[2] * b[1] + (u128)a[3] * b[0];    \
        z[4] = (u128)a[1] * b[3] + (u128)a[2] * b[2] + (u128)a[3] * b[1];                        \
        z[5] = (u128)a[2] * b[3] + (u128)a[3] * b[2];                                            \
        z[6] = (u128)a[3] * b[3];                                                                \
    } while (0)

#define SQR4(z, a)                                                                               \
    do {                                                                                         \
        z[0] = (u128)a[0] * a[0];                                                                \
        z[1] = (u128)(2 * a[0]) * a[1];                                                          \
        z[2] = (u128)(2 * a[0]) * a[2] + (u128)a[1] * a[1];                                      \
        z[3] = (u128)(2 * a[0]) * a[3] + (u128)(2 * a[1]) * a[2];                                \
        z[4] = (u128)(2 * a[1]) * a[3] + (u128)a[2] * a[2];                                      \
        z[5] = (u128)(2 * a[2]) * a[3];                                                          \
        z[6] = (u128)a[3] * a[3];                                                                \
    } while (0)

/* h = f·g, inputs below 2^59 per limb. */
INL void fe_mul(fe *h, const fe *f, const fe *g) {
    const u64 *f0 = f->v, *f1 = f->v + 4, *g0 = g->v, *g1 = g->v + 4;
    u64 fs[4] = {f0[0] + f1[0], f0[1] + f1[1], f0[2] + f1[2], f0[3] + f1[3]};
    u64 gs[4] = {g0[0] + g1[0], g0[1] + g1[1], g0[2] + g1[2], g0[3] + g1[3]};
    u128 z0[7], z1[7], z2[7], r[8];
    MUL4(z0, f0, g0);
    MUL4(z2, f1, g1);
    MUL4(z1, fs, gs);
    fe_karatsuba_columns(r, z0, z1, z2);
    fe_carry_wide(h, r);
}

/* h = f^2 (f below 2^59; the doubled operands stay below 2^61, products below 2^121). */
INL void fe_sq(fe *h, const fe *f) {
    const u64 *f0 = f->v, *f1 = f->v + 4;
    u64 fs[4] = {f0[0] + f1[0], f0[1] + f1[1], f0[2] + f1[2], f0[3] + f1[3]};
    u128 z0[7], z1[7], z2[7], r[8];
    SQR4(z0, f0);
    SQR4(z2, f1);
    SQR4(z1, fs);
    fe_karatsuba_columns(r, z0, z1, z2);
    fe_carry_wide(h, r);
}

INL void fe_sqn(fe *h, const fe *f, int n) {
    fe_sq(h, f);
    while (--n > 0) fe_sq(h, h);
}

/* d·f for d = -39081: 39081·f (limbs below 2^59 times 2^16) reduced, then negated. */
INL void fe_mul_d(fe *h, const fe *f) {
    fe t;
    u128 c[8];
    for (int i = 0; i < 8; i++) c[i] = (u128)f->v[i] * 39081;
    for (int k = 0; k < 7; k++) {
        c[k + 1] += c[k] >> 56;
        c[k] &= M56;
    }
    u128 top = c[7] >> 56;
    c[7] &= M56;
    c[0] += top;
    c[4] += top;
    for (int k = 0; k < 8; k++) t.v[k] = (u64)c[k];
    fe_reduce(&t);
    fe_neg(h, &t);
    fe_reduce(h);
}

/* Canonical little-endian encoding (56 bytes) of f mod p, f's limbs below 2^59. */
static void fe_tobytes(uint8_t s[56], const fe *f) {
    fe h = *f;
    fe_reduce(&h);
    fe_reduce(&h);
    /* Now h < 2^448 + 2^225, below 2p: subtract p once when h >= p. Compute h - p with borrows;
       keep it when it does not go negative. */
    u64 r[8];
    int64_t borrow = 0;
    for (int i = 0; i < 8; i++) {
        int64_t pi = (int64_t)(i == 4 ? M56 - 1 : M56);
        int64_t t = (int64_t)h.v[i] - pi + borrow;
        borrow = t >> 56; /* arithmetic shift: -1 or 0 (h's limbs < 2^57) or 1 */
        r[i] = (u64)t & M56;
    }
    /* h - p = Σ r_i 2^(56i) + borrow·2^448: non-negative when borrow >= 0 */
    if (borrow >= 0)
        for (int i = 0; i < 8; i++) h.v[i] = r[i];
    /* After the passes the limbs may still exceed 2^56 by a carry: normalise exactly. */
    u64 c = 0;
    for (int i = 0; i < 8; i++) {
        u64 t = h.v[i] + c;
        h.v[i] = t & M56;
        c = t >> 56;
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 7; j++) s[7 * i + j] = (uint8_t)(h.v[i] >> (8 * j));
}

static int fe_iszero(const fe *f) {
    uint8_t s[56];
    fe_tobytes(s, f);
    uint8_t acc = 0;
    for (int i = 0; i < 56; i++) acc |= s[i];
    return acc == 0;
}

static int fe_isodd(const fe *f) {
    uint8_t s[56];
    fe_tobytes(s, f);
    return s[0] & 1;
}

static int fe_equal(const fe *f, const fe *g) {
    uint8_t a[56], b[56];
    fe_tobytes(a, f);
    fe_tobytes(b, g);
    return memcmp(a, b, 56) == 0;
}

/* z^((p-3)/4) = z^(2^446 - 2^222 - 1) = (z^(2^223 - 1))^(2^223) · z^(2^222 - 1). */
static void fe_pow_p34(fe *out, const fe *z) {
    fe e2, e3, e6, e12, e24, e48, e96, t, e222, e223;
    fe_sq(&t, z);
    fe_mul(&e2, &t, z);          /* 2^2 - 1 */
    fe_sq(&t, &e2);
    fe_mul(&e3, &t, z);          /* 2^3 - 1 */
    fe_sqn(&t, &e3, 3);
    fe_mul(&e6, &t, &e3);        /* 2^6 - 1 */
    fe_sqn(&t, &e6, 6);
    fe_mul(&e12, &t, &e6);       /* 2^12 - 1 */
    fe_sqn(&t, &e12, 12);
    fe_mul(&e24, &t, &e12);      /* 2^24 - 1 */
    fe_sqn(&t, &e24, 24);
    fe_mul(&e48, &t, &e24);      /* 2^48 - 1 */
    fe_sqn(&t, &e48, 48);
    fe_mul(&e96, &t, &e48);      /* 2^96 - 1 */
    fe_sqn(&t, &e96, 96);
    fe_mul(&t, &t, &e96);        /* 2^192 - 1 */
    fe_sqn(&t, &t, 24);
    fe_mul(&t, &t, &e24);        /* 2^216 - 1 */
    fe_sqn(&t, &t, 6);
    fe_mul(&e222, &t, &e6);      /* 2^222 - 1 */
    fe_sq(&t, &e222);
    fe_mul(&e223, &t, z);        /* 2^223 - 1 */
    fe_sqn(&t, &e223, 223);
    fe_mul(out, &t, &e222);
}

/* 1/z = z^(p-2) = (z^((p-3)/4))^4 · z. */
static void fe_invert(fe *out, const fe *z) {
    fe t;
    fe_pow_p34(&t, z);
    fe_sqn(&t, &t, 2);
    fe_mul(out, &t, z);
}

/* ---- group ---------------------------------------------------------------------------- */

typedef struct { fe X, Y, Z; } ge_p2;
typedef struct { fe X, Y, Z, T; } ge_p3;
typedef struct { fe X, Y, Z, T; } ge_p1p1; /* x = X/Z, y = Y/T */
typedef struct { fe X, Y, YplusX, YminusX, Z, Td; } ge_cached;
typedef struct { fe x, y, xyd; } ge448_affine;

#include "ed448_btable.h"

INL void p1p1_to_p2(ge_p2 *r, const ge_p1p1 *p) {
    fe_mul(&r->X, &p->X, &p->T);
    fe_mul(&r->Y, &p->Y, &p->Z);
    fe_mul(&r->Z, &p->Z, &p->T);
}

INL void p1p1_to_p3(ge_p3 *r, const ge_p1p1 *p) {
    fe_mul(&r->X, &p->X, &p->T);
    fe_mul(&r->Y, &p->Y, &p->Z);
    fe_mul(&r->Z, &p->Z, &p->T);
    fe_mul(&r->T, &p->X, &p->Y);
}

INL void p3_to_cached(ge_cached *r, const ge_p3 *p) {
    r->X = p->X;
    r->Y = p->Y;
    fe_add(&r->YplusX, &p->Y, &p->X);
    fe_sub(&r->YminusX, &p->Y, &p->X);
    r->Z = p->Z;
    fe_mul_d(&r->Td, &p->T);
}

/* dbl-2008-hwcd, a = 1: A = X^2, B = Y^2, C = 2Z^2, E = (X+Y)^2 - A - B, G = A + B,
   F = G - C, H = A - B; x3 = E/G, y3 = H/F. Inputs below 2^57, outputs below 2^59. */
INL void p2_dbl(ge_p1p1 *r, const ge_p2 *p) {
    fe a, b, c, s;
    fe_sq(&a, &p->X);
    fe_sq(&b, &p->Y);
    fe_sq(&c, &p->Z);
    fe_add(&c, &c, &c);          /* < 2^58 */
    fe_add(&s, &p->X, &p->Y);
    fe_sq(&s, &s);
    fe_add(&r->Z, &a, &b);       /* G < 2^58 */
    fe_sub(&r->X, &s, &r->Z);    /* E < 2^59 */
    fe_sub(&r->Y, &a, &b);       /* H < 2^59 */
    fe_sub(&r->T, &r->Z, &c);    /* F < 2^59 */
}

INL void p3_dbl(ge_p1p1 *r, const ge_p3 *p) {
    ge_p2 q = {p->X, p->Y, p->Z};
    p2_dbl(r, &q);
}

/* add-2008-hwcd, a = 1: A = X1 X2, B = Y1 Y2, C = T1 d T2, D = Z1 Z2,
   E = (X1+Y1)(X2+Y2) - A - B, F = D - C, G = D + C, H = B - A; x3 = E/G, y3 = H/F.
   Subtraction adds (-X2, Y2, -T2): A and C change sign and (X2+Y2) becomes (Y2-X2). */
INL void ge_add_cached(ge_p1p1 *r, const ge_p3 *p, const ge_cached *q, int sub) {
    fe a, b, c, d, e, t;
    fe_mul(&a, &p->X, &q->X);
    fe_mul(&b, &p->Y, &q->Y);
    fe_mul(&c, &p->T, &q->Td);
    fe_mul(&d, &p->Z, &q->Z);
    fe_add(&t, &p->X, &p->Y);
    fe_mul(&e, &t, sub ? &q->YminusX : &q->YplusX);
    if (!sub) {
        fe_add(&t, &a, &b);
        fe_sub(&r->X, &e, &t);   /* E */
        fe_sub(&r->Y, &b, &a);   /* H */
        fe_add(&r->Z, &d, &c);   /* G */
        fe_sub(&r->T, &d, &c);   /* F */
    } else {
        /* A' = -A, C' = -C: E = e + A - B, H = B + A, G = D - C, F = D + C */
        fe_add(&t, &e, &a);
        fe_sub(&r->X, &t, &b);
        fe_add(&r->Y, &b, &a);
        fe_sub(&r->Z, &d, &c);
        fe_add(&r->T, &d, &c);
    }
}

/* The same with an affine table point (Z2 = 1). */
INL void ge_add_affine(ge_p1p1 *r, const ge_p3 *p, const ge448_affine *q, int sub) {
    fe a, b, c, e, t, u;
    fe_mul(&a, &p->X, &q->x);
    fe_mul(&b, &p->Y, &q->y);
    fe_mul(&c, &p->T, &q->xyd);
    fe_add(&t, &p->X, &p->Y);
    if (!sub) fe_add(&u, &q->y, &q->x);
    else fe_sub(&u, &q->y, &q->x);
    fe_mul(&e, &t, &u);
    if (!sub) {
        fe_add(&t, &a, &b);
        fe_sub(&r->X, &e, &t);
        fe_sub(&r->Y, &b, &a);
        fe_add(&r->Z, &p->Z, &c);
        fe_sub(&r->T, &p->Z, &c);
    } else {
        fe_add(&t, &e, &a);
        fe_sub(&r->X, &t, &b);
        fe_add(&r->Y, &b, &a);
        fe_sub(&r->Z, &p->Z, &c);
        fe_add(&r->T, &p->Z, &c);
    }
}

static int fe_frombytes_canonical(fe *h, const uint8_t s[56]) {
    for (int i = 0; i < 8; i++) {
        u64 w = 0;
        for (int j = 6; j >= 0; j--) w = w << 8 | s[7 * i + j];
        h->v[i] = w;
    }
    /* y >= p = 2^448 - 2^224 - 1 (limbs: all ones but limb 4, which is 2^56 - 2): limbs 5..7
       all ones, and limb 4 all ones (y >= 2^448 - 2^224 = p + 1, whatever limbs 0..3 hold) or
       limb 4 = 2^56 - 2 with limbs 0..3 all ones (y = p). */
    if ((h->v[5] & h->v[6] & h->v[7]) != M56) return 1;
    if (h->v[4] == M56) return 0;
    if (h->v[4] == M56 - 1 && (h->v[0] & h->v[1] & h->v[2] & h->v[3]) == M56) return 0;
    return 1;
}

/* RFC 8032 §5.2.3, strictly: bits 448..454 set (y >= 2^448) or y >= p fails (step 1); no square
   root fails (step 2-3); x = 0 with x_0 = 1 fails (step 4). Writes -A. Small-order points
   decode (RFC 8032 does not exclude them). */
static int ge_frombytes_negate(ge_p3 *h, const uint8_t s[57]) {
    if (s[56] & 0x7f) return 0;
    if (!fe_frombytes_canonical(&h->Y, s)) return 0;
    int x0 = s[56] >> 7;
    fe u, v, t, x, one;
    fe_1(&one);
    fe_sq(&u, &h->Y);
    fe_mul_d(&v, &u);
    fe_sub(&u, &u, &one);        /* u = y^2 - 1 */
    fe_reduce(&u);
    fe_sub(&v, &v, &one);        /* v = d y^2 - 1 */
    fe_reduce(&v);
    /* x = u^3 v (u^5 v^3)^((p-3)/4), step 2 */
    fe u2, u3, u5, v3;
    fe_sq(&u2, &u);
    fe_mul(&u3, &u2, &u);
    fe_mul(&u5, &u3, &u2);
    fe_sq(&v3, &v);
    fe_mul(&v3, &v3, &v);
    fe_mul(&t, &u5, &v3);
    fe_pow_p34(&t, &t);
    fe_mul(&x, &u3, &v);
    fe_mul(&x, &x, &t);
    /* step 3: v x^2 = u, else no square root */
    fe_sq(&t, &x);
    fe_mul(&t, &t, &v);
    if (!fe_equal(&t, &u)) return 0;
    if (fe_iszero(&x) && x0) return 0; /* step 4 */
    if (fe_isodd(&x) == x0) fe_neg(&x, &x); /* -A */
    fe_reduce(&x);
    h->X = x;
    fe_1(&h->Z);
    fe_mul(&h->T, &h->X, &h->Y);
    return 1;
}

/* ---- scalars -------------------------------------------------------------------------- */

/* L = 2^446 - 13818066809895115352007386748515426880336692474882178609894547503885. */
static const u64 ED448_L[7] = {0x2378c292ab5844f3ULL, 0x216cc2728dc58f55ULL, 0xc44edb49aed63690ULL,
                               0xffffffff7cca23e9ULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
                               0x3fffffffffffffffULL};

INL u64 load64(const uint8_t *s) {
    u64 r = 0;
    for (int j = 7; j >= 0; j--) r = r << 8 | s[j];
    return r;
}

/* S (57 bytes) < L, RFC 8032 §5.2.7 step 1 ("0 <= s < L"). */
static int scalar_is_canonical(const uint8_t s[57]) {
    if (s[56] != 0) return 0;
    for (int i = 6; i >= 0; i--) {
        u64 w = load64(s + 8 * i);
        if (w < ED448_L[i]) return 1;
        if (w > ED448_L[i]) return 0;
    }
    return 0;
}

/* Width-w NAF of a scalar below 2^447 (56 little-endian bytes). */
static void wnaf(int8_t out[448], const uint8_t s[56], int w) {
    u64 k[8];
    for (int i = 0; i < 7; i++) k[i] = load64(s + 8 * i);
    k[7] = 0;
    memset(out, 0, 448);
    int carry = 0;
    for (int bit = 0; bit < 448;) {
        int b = (int)(k[bit >> 6] >> (bit & 63)) & 1;
        if (b == carry) {
            bit++;
            continue;
        }
        u64 lo = k[bit >> 6] >> (bit & 63);
        if ((bit & 63) + w > 64 && (bit >> 6) + 1 < 8) lo |= k[(bit >> 6) + 1] << (64 - (bit & 63));
        int word = (int)(lo & ((1u << w) - 1)) + carry;
        carry = (word >> (w - 1)) & 1;
        word -= carry << w;
        out[bit] = (int8_t)word;
        bit += w;
    }
}

int csigil_ed448_verify(const uint8_t signature[114], const uint8_t public_key[57], const uint8_t k_reduced[56]) {
    ge_p3 negA;
    if (!ge_frombytes_negate(&negA, public_key)) return CSIGIL_EDDSA_BAD_KEY;
    if (!scalar_is_canonical(signature + 57)) return CSIGIL_EDDSA_BAD_SIGNATURE;

    int8_t kn[448], sn[448];
    wnaf(kn, k_reduced, 5);
    wnaf(sn, signature + 57, ED448_BWINDOW);

    ge_cached Ai[8];
    ge_p1p1 t;
    ge_p3 u, A2;
    p3_to_cached(&Ai[0], &negA);
    p3_dbl(&t, &negA);
    p1p1_to_p3(&A2, &t);
    for (int i = 1; i < 8; i++) {
        ge_add_cached(&t, &A2, &Ai[i - 1], 0);
        p1p1_to_p3(&u, &t);
        p3_to_cached(&Ai[i], &u);
    }

    int i = 447;
    while (i >= 0 && kn[i] == 0 && sn[i] == 0) i--;
    ge_p2 r;
    fe_0(&r.X);
    fe_1(&r.Y);
    fe_1(&r.Z);
    for (; i >= 0; i--) {
        p2_dbl(&t, &r);
        if (kn[i]) {
            p1p1_to_p3(&u, &t);
            if (kn[i] > 0) ge_add_cached(&t, &u, &Ai[kn[i] >> 1], 0);
            else ge_add_cached(&t, &u, &Ai[(-kn[i]) >> 1], 1);
        }
        if (sn[i]) {
            p1p1_to_p3(&u, &t);
            if (sn[i] > 0) ge_add_affine(&t, &u, &ED448_BTABLE[sn[i] >> 1], 0);
            else ge_add_affine(&t, &u, &ED448_BTABLE[(-sn[i]) >> 1], 1);
        }
        p1p1_to_p2(&r, &t);
    }

    /* Encode [S]B - [k]A (§5.2.2) and compare with R as given (a non-canonical R never
       matches: §5.2.7 step 1 refuses it). Cofactorless equation [S]B = R + [k]A, which §5.2.7
       step 3 says is sufficient. */
    fe zinv, x, y;
    fe_invert(&zinv, &r.Z);
    fe_mul(&x, &r.X, &zinv);
    fe_mul(&y, &r.Y, &zinv);
    uint8_t enc[57];
    fe_tobytes(enc, &y);
    enc[56] = (uint8_t)(fe_isodd(&x) << 7);
    return memcmp(enc, signature, 57) == 0 ? CSIGIL_EDDSA_VALID : CSIGIL_EDDSA_BAD_SIGNATURE;
}

int csigil_ed448_decode_point(const uint8_t encoded[57]) {
    ge_p3 p;
    return ge_frombytes_negate(&p, encoded);
}
