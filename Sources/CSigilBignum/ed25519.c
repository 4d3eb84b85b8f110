/* Ed25519 signature verification (RFC 8032 §5.1.7), the group part: decode A (§5.1.3), check
 * S < L, compute [S]B - [k]A and compare its encoding (§5.1.2) with R. The caller hashes
 * k = SHA-512(R || A || M) and reduces it mod L (SigilCrypto/EdDSA.swift).
 *
 * VARIABLE TIME, on purpose: verification inputs (key, message, signature) are public. Do not
 * reuse this code for signing.
 *
 * Field GF(2^255 - 19): four unsigned 64-bit limbs, values kept below 2^256 and congruent
 * mod p, not necessarily below p (2^256 = 38 mod p: a carry out of an addition or of a
 * product's high half folds back as 38). Products in unsigned __int128 (clang emits MUL/MULX
 * with ADD/ADC chains): 16 limb products and a 4-product fold, squares 10 + 4. Every operation
 * accepts any input below 2^256, so the point formulas need no bound bookkeeping; fe_tobytes
 * is the only full reduction. (Measured here: about 10 % faster over a whole verification than
 * five radix-2^51 limbs, whose 25 products and carries cost more instructions.)
 *
 * Curve: edwards25519, -x^2 + y^2 = 1 + d x^2 y^2 (RFC 8032 §5.1). Points: extended coordinates
 * (X:Y:Z:T), x = X/Z, y = Y/Z, T = XY/Z (Hisil, Wong, Carter, Dawson 2008), the "completed"
 * form ((X:Z), (Y:T)) that doubling and addition produce, projective (X:Y:Z) between two
 * doublings, and the cached (Y+X, Y-X, Z, 2dT) / affine precomputed (y+x, y-x, 2dxy) forms of
 * addends. The formulas are complete on this curve (a = -1 a square, d a non-square), so the
 * adversarial inputs of verification (small-order keys, R equal to a table point) need no
 * special case.
 *
 * Double-scalar multiplication: [S]B + [k](-A) with interleaved wNAFs sharing one chain of
 * doublings: width 8 for S over a static table of the 64 odd multiples of B
 * (ed25519_btable.h, Scripts/gen_ed25519_btable.py), width 5 for k over the 8 odd multiples of
 * -A computed per verification (on the stack: no heap allocation).
 */
#include "CSigilBignum.h"
#include "CSigilEdDSA.h"

#include <string.h>

typedef uint64_t u64;
typedef unsigned __int128 u128;

#define INL __attribute__((always_inline)) static inline
#define M51 ((u64)0x7ffffffffffff)

typedef struct { u64 v[4]; } fe;

/* ---- field ---------------------------------------------------------------------------- */

static const fe FE_D = {{0x75eb4dca135978a3ULL, 0x00700a4d4141d8abULL, 0x8cc740797779e898ULL, 0x52036cee2b6ffe73ULL}};
static const fe FE_D2 = {{0xebd69b9426b2f159ULL, 0x00e0149a8283b156ULL, 0x198e80f2eef3d130ULL, 0x2406d9dc56dffce7ULL}};
/* 2^((p-1)/4), a square root of -1 (RFC 8032 §5.1.3 step 3). */
static const fe FE_SQRTM1 = {{0xc4ee1b274a0ea0b0ULL, 0x2f431806ad2fe478ULL, 0x2b4d00993dfbd7a7ULL, 0x2b8324804fc1df0bULL}};

INL u64 addc(u64 a, u64 b, u64 cin, u64 *cout) {
    unsigned long long c;
    u64 r = __builtin_addcll(a, b, cin, &c);
    *cout = c;
    return r;
}
INL u64 subb(u64 a, u64 b, u64 bin, u64 *bout) {
    unsigned long long c;
    u64 r = __builtin_subcll(a, b, bin, &c);
    *bout = c;
    return r;
}

INL void fe_0(fe *h) { memset(h, 0, sizeof *h); }
INL void fe_1(fe *h) { fe_0(h); h->v[0] = 1; }
INL void fe_reduce(fe *h) { (void)h; }

/* h = f + g mod p, below 2^256 (2^256 = 38 mod p: a carry out is folded back as 38). */
INL void fe_add(fe *h, const fe *f, const fe *g) {
    u64 c;
    u64 h0 = addc(f->v[0], g->v[0], 0, &c);
    u64 h1 = addc(f->v[1], g->v[1], c, &c);
    u64 h2 = addc(f->v[2], g->v[2], c, &c);
    u64 h3 = addc(f->v[3], g->v[3], c, &c);
    h0 = addc(h0, 38 & (0 - c), 0, &c);
    h1 = addc(h1, 0, c, &c);
    h2 = addc(h2, 0, c, &c);
    h3 = addc(h3, 0, c, &c);
    h->v[0] = h0 + (38 & (0 - c)); /* a second carry leaves h0 < 38: no overflow */
    h->v[1] = h1;
    h->v[2] = h2;
    h->v[3] = h3;
}

/* h = f - g mod p, below 2^256 (a borrow means +2^256 = +38: subtract 38). */
INL void fe_sub(fe *h, const fe *f, const fe *g) {
    u64 b;
    u64 h0 = subb(f->v[0], g->v[0], 0, &b);
    u64 h1 = subb(f->v[1], g->v[1], b, &b);
    u64 h2 = subb(f->v[2], g->v[2], b, &b);
    u64 h3 = subb(f->v[3], g->v[3], b, &b);
    h0 = subb(h0, 38 & (0 - b), 0, &b);
    h1 = subb(h1, 0, b, &b);
    h2 = subb(h2, 0, b, &b);
    h3 = subb(h3, 0, b, &b);
    h->v[0] = h0 - (38 & (0 - b)); /* a second borrow leaves h0 >= 2^64 - 38 */
    h->v[1] = h1;
    h->v[2] = h2;
    h->v[3] = h3;
}

INL void fe_neg(fe *h, const fe *f) {
    fe z;
    fe_0(&z);
    fe_sub(h, &z, f);
}

/* 512-bit t reduced to 256 bits: t_lo + 38 t_hi, then the top word folded again. */
INL void fe_reduce512(fe *h, const u64 t[8]) {
    u128 c = (u128)t[4] * 38 + t[0];
    u64 h0 = (u64)c;
    c = (c >> 64) + (u128)t[5] * 38 + t[1];
    u64 h1 = (u64)c;
    c = (c >> 64) + (u128)t[6] * 38 + t[2];
    u64 h2 = (u64)c;
    c = (c >> 64) + (u128)t[7] * 38 + t[3];
    u64 h3 = (u64)c;
    u64 top = (u64)(c >> 64); /* < 39 */
    u64 k;
    h0 = addc(h0, top * 38, 0, &k);
    h1 = addc(h1, 0, k, &k);
    h2 = addc(h2, 0, k, &k);
    h3 = addc(h3, 0, k, &k);
    h->v[0] = h0 + (38 & (0 - k));
    h->v[1] = h1;
    h->v[2] = h2;
    h->v[3] = h3;
}

INL void fe_mul(fe *h, const fe *f, const fe *g) {
    u64 a0 = f->v[0], a1 = f->v[1], a2 = f->v[2], a3 = f->v[3];
    u64 b0 = g->v[0], b1 = g->v[1], b2 = g->v[2], b3 = g->v[3];
    u64 t[8];
    u128 c;
    c = (u128)a0 * b0; t[0] = (u64)c;
    c = (c >> 64) + (u128)a0 * b1; t[1] = (u64)c;
    c = (c >> 64) + (u128)a0 * b2; t[2] = (u64)c;
    c = (c >> 64) + (u128)a0 * b3; t[3] = (u64)c; t[4] = (u64)(c >> 64);
    c = (u128)a1 * b0 + t[1]; t[1] = (u64)c;
    c = (c >> 64) + (u128)a1 * b1 + t[2]; t[2] = (u64)c;
    c = (c >> 64) + (u128)a1 * b2 + t[3]; t[3] = (u64)c;
    c = (c >> 64) + (u128)a1 * b3 + t[4]; t[4] = (u64)c; t[5] = (u64)(c >> 64);
    c = (u128)a2 * b0 + t[2]; t[2] = (u64)c;
    c = (c >> 64) + (u128)a2 * b1 + t[3]; t[3] = (u64)c;
    c = (c >> 64) + (u128)a2 * b2 + t[4]; t[4] = (u64)c;
    c = (c >> 64) + (u128)a2 * b3 + t[5]; t[5] = (u64)c; t[6] = (u64)(c >> 64);
    c = (u128)a3 * b0 + t[3]; t[3] = (u64)c;
    c = (c >> 64) + (u128)a3 * b1 + t[4]; t[4] = (u64)c;
    c = (c >> 64) + (u128)a3 * b2 + t[5]; t[5] = (u64)c;
    c = (c >> 64) + (u128)a3 * b3 + t[6]; t[6] = (u64)c; t[7] = (u64)(c >> 64);
    fe_reduce512(h, t);
}

/* h = f^2: the six cross products once, doubled, plus the four squares. */
INL void fe_sq(fe *h, const fe *f) {
    u64 a0 = f->v[0], a1 = f->v[1], a2 = f->v[2], a3 = f->v[3];
    u64 t[8];
    u128 c;
    /* cross products a_i a_j, i < j, into t[1..6] */
    c = (u128)a0 * a1; t[1] = (u64)c;
    c = (c >> 64) + (u128)a0 * a2; t[2] = (u64)c;
    c = (c >> 64) + (u128)a0 * a3; t[3] = (u64)c; t[4] = (u64)(c >> 64);
    c = (u128)a1 * a2 + t[3]; t[3] = (u64)c;
    c = (c >> 64) + (u128)a1 * a3 + t[4]; t[4] = (u64)c; t[5] = (u64)(c >> 64);
    c = (u128)a2 * a3 + t[5]; t[5] = (u64)c; t[6] = (u64)(c >> 64);
    /* doubled */
    t[7] = t[6] >> 63;
    t[6] = t[6] << 1 | t[5] >> 63;
    t[5] = t[5] << 1 | t[4] >> 63;
    t[4] = t[4] << 1 | t[3] >> 63;
    t[3] = t[3] << 1 | t[2] >> 63;
    t[2] = t[2] << 1 | t[1] >> 63;
    t[1] = t[1] << 1;
    /* plus the squares on the diagonal */
    u64 k;
    u128 s0 = (u128)a0 * a0, s1 = (u128)a1 * a1, s2 = (u128)a2 * a2, s3 = (u128)a3 * a3;
    t[0] = (u64)s0;
    t[1] = addc(t[1], (u64)(s0 >> 64), 0, &k);
    t[2] = addc(t[2], (u64)s1, k, &k);
    t[3] = addc(t[3], (u64)(s1 >> 64), k, &k);
    t[4] = addc(t[4], (u64)s2, k, &k);
    t[5] = addc(t[5], (u64)(s2 >> 64), k, &k);
    t[6] = addc(t[6], (u64)s3, k, &k);
    t[7] = t[7] + (u64)(s3 >> 64) + k;
    fe_reduce512(h, t);
}

INL void fe_sqn(fe *h, const fe *f, int n) {
    fe_sq(h, f);
    while (--n > 0) fe_sq(h, h);
}

/* Canonical little-endian encoding of f mod p (RFC 8032 §5.1.2). */
static void fe_tobytes(uint8_t s[32], const fe *f) {
    u64 h0 = f->v[0], h1 = f->v[1], h2 = f->v[2], h3 = f->v[3], c;
    /* fold bit 255: 2^255 = 19 mod p; now h < 2^255 + 19 */
    u64 top = h3 >> 63;
    h3 &= 0x7fffffffffffffffULL;
    h0 = addc(h0, 19 * top, 0, &c);
    h1 = addc(h1, 0, c, &c);
    h2 = addc(h2, 0, c, &c);
    h3 = addc(h3, 0, c, &c);
    /* h >= p exactly when h + 19 reaches 2^255: then the result is h + 19 - 2^255 */
    u64 g0 = addc(h0, 19, 0, &c);
    u64 g1 = addc(h1, 0, c, &c);
    u64 g2 = addc(h2, 0, c, &c);
    u64 g3 = addc(h3, 0, c, &c);
    if (g3 >> 63) {
        h0 = g0;
        h1 = g1;
        h2 = g2;
        h3 = g3 & 0x7fffffffffffffffULL;
    }
    u64 w[4] = {h0, h1, h2, h3};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) s[8 * i + j] = (uint8_t)(w[i] >> (8 * j));
}

INL u64 load64(const uint8_t *s) {
    u64 r = 0;
    for (int j = 7; j >= 0; j--) r = r << 8 | s[j];
    return r;
}

/* The low 255 bits of s; returns 0 when that integer is >= p (RFC 8032 §5.1.3 step 1). */
static int fe_frombytes_canonical(fe *h, const uint8_t s[32]) {
    h->v[0] = load64(s);
    h->v[1] = load64(s + 8);
    h->v[2] = load64(s + 16);
    h->v[3] = load64(s + 24) & 0x7fffffffffffffffULL;
    /* y >= p = 2^255 - 19: limbs 1, 2 all ones, limb 3 = 2^63 - 1, limb 0 >= 2^64 - 19 */
    if ((h->v[1] & h->v[2]) == ~0ULL && h->v[3] == 0x7fffffffffffffffULL && h->v[0] >= 0xffffffffffffffedULL) return 0;
    return 1;
}

static int fe_iszero(const fe *f) {
    uint8_t s[32];
    fe_tobytes(s, f);
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++) acc |= s[i];
    return acc == 0;
}

static int fe_isodd(const fe *f) {
    uint8_t s[32];
    fe_tobytes(s, f);
    return s[0] & 1;
}

static int fe_equal(const fe *f, const fe *g) {
    uint8_t a[32], b[32];
    fe_tobytes(a, f);
    fe_tobytes(b, g);
    return memcmp(a, b, 32) == 0;
}

/* z^(2^250 - 1) and z^11, the common part of the two exponentiations below. */
INL void fe_pow_2_250_1(fe *z250, fe *z11, const fe *z) {
    fe z2, z9, t, z5, z10, z20, z50, z100;
    fe_sq(&z2, z);            /* 2 */
    fe_sqn(&t, &z2, 2);       /* 8 */
    fe_mul(&z9, z, &t);       /* 9 */
    fe_mul(z11, &z2, &z9);    /* 11 */
    fe_sq(&t, z11);           /* 22 */
    fe_mul(&z5, &z9, &t);     /* 2^5 - 1 */
    fe_sqn(&t, &z5, 5);
    fe_mul(&z10, &t, &z5);    /* 2^10 - 1 */
    fe_sqn(&t, &z10, 10);
    fe_mul(&z20, &t, &z10);   /* 2^20 - 1 */
    fe_sqn(&t, &z20, 20);
    fe_mul(&t, &t, &z20);     /* 2^40 - 1 */
    fe_sqn(&t, &t, 10);
    fe_mul(&z50, &t, &z10);   /* 2^50 - 1 */
    fe_sqn(&t, &z50, 50);
    fe_mul(&z100, &t, &z50);  /* 2^100 - 1 */
    fe_sqn(&t, &z100, 100);
    fe_mul(&t, &t, &z100);    /* 2^200 - 1 */
    fe_sqn(&t, &t, 50);
    fe_mul(z250, &t, &z50);   /* 2^250 - 1 */
}

/* 1/z = z^(p-2) = z^(2^255 - 21). */
INL void fe_invert(fe *out, const fe *z) {
    fe z250, z11, t;
    fe_pow_2_250_1(&z250, &z11, z);
    fe_sqn(&t, &z250, 5);
    fe_mul(out, &t, &z11);
}

/* z^((p-5)/8) = z^(2^252 - 3). */
INL void fe_pow22523(fe *out, const fe *z) {
    fe z250, z11, t;
    fe_pow_2_250_1(&z250, &z11, z);
    fe_sqn(&t, &z250, 2);
    fe_mul(out, &t, z);
}

/* ---- group ---------------------------------------------------------------------------- */

typedef struct { fe X, Y, Z; } ge_p2;
typedef struct { fe X, Y, Z, T; } ge_p3;
typedef struct { fe X, Y, Z, T; } ge_p1p1; /* x = X/Z, y = Y/T */
typedef struct { fe YplusX, YminusX, Z, T2d; } ge_cached;
typedef struct { fe ypx, ymx, xy2d; } ge_precomp;

#include "ed25519_btable.h"

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
    fe_add(&r->YplusX, &p->Y, &p->X);
    fe_sub(&r->YminusX, &p->Y, &p->X);
    r->Z = p->Z;
    fe_mul(&r->T2d, &p->T, &FE_D2);
}

/* dbl-2008-hwcd with a = -1: A = X^2, B = Y^2, C = 2Z^2, E = (X+Y)^2 - A - B;
   x3 = E / (B - A), y3 = (A + B) / (C - B + A). */
INL void p2_dbl(ge_p1p1 *r, const ge_p2 *p) {
    fe a, b, c, s;
    fe_sq(&a, &p->X);
    fe_sq(&b, &p->Y);
    fe_sq(&c, &p->Z);
    fe_add(&c, &c, &c);
    fe_add(&s, &p->X, &p->Y);
    fe_sq(&s, &s);
    fe_add(&r->Y, &b, &a);
    fe_sub(&r->Z, &b, &a);
    fe_sub(&r->X, &s, &r->Y);
    fe_add(&c, &c, &a);
    fe_sub(&r->T, &c, &b);
}

INL void p3_dbl(ge_p1p1 *r, const ge_p3 *p) {
    ge_p2 q = {p->X, p->Y, p->Z};
    p2_dbl(r, &q);
}

/* add-2008-hwcd-3 (k = 2d): p + q (sub = 0) or p - q (sub = 1), q cached. */
INL void ge_add_cached(ge_p1p1 *r, const ge_p3 *p, const ge_cached *q, int sub) {
    fe a, b, c, d, t;
    fe_sub(&t, &p->Y, &p->X);
    fe_mul(&a, &t, sub ? &q->YplusX : &q->YminusX);
    fe_add(&t, &p->Y, &p->X);
    fe_mul(&b, &t, sub ? &q->YminusX : &q->YplusX);
    fe_mul(&c, &p->T, &q->T2d);
    fe_mul(&d, &p->Z, &q->Z);
    fe_add(&d, &d, &d);
    fe_sub(&r->X, &b, &a);       /* E */
    fe_add(&r->Y, &b, &a);       /* H */
    if (sub) {
        fe_sub(&r->Z, &d, &c);   /* G = D - C' */
        fe_add(&r->T, &d, &c);   /* F = D + C' */
    } else {
        fe_add(&r->Z, &d, &c);   /* G = D + C */
        fe_sub(&r->T, &d, &c);   /* F = D - C */
    }
}

/* The same with an affine precomputed q (Z2 = 1: madd-2008-hwcd-3). */
INL void ge_add_precomp(ge_p1p1 *r, const ge_p3 *p, const ge_precomp *q, int sub) {
    fe a, b, c, d, t;
    fe_sub(&t, &p->Y, &p->X);
    fe_mul(&a, &t, sub ? &q->ypx : &q->ymx);
    fe_add(&t, &p->Y, &p->X);
    fe_mul(&b, &t, sub ? &q->ymx : &q->ypx);
    fe_mul(&c, &p->T, &q->xy2d);
    fe_add(&d, &p->Z, &p->Z);
    fe_sub(&r->X, &b, &a);
    fe_add(&r->Y, &b, &a);
    if (sub) {
        fe_sub(&r->Z, &d, &c);
        fe_add(&r->T, &d, &c);
    } else {
        fe_add(&r->Z, &d, &c);
        fe_sub(&r->T, &d, &c);
    }
}

/* RFC 8032 §5.1.3, strictly: y >= p fails (step 1); no square root of u/v fails (step 3);
   x = 0 with x_0 = 1 fails (step 4). Writes the NEGATED point -A, which is what verification
   adds. Small-order and mixed-order points decode: RFC 8032 does not exclude them (§5.1.7 only
   asks that A decode), so neither does Sigil. */
INL int ge_frombytes_negate(ge_p3 *h, const uint8_t s[32]) {
    fe u, v, v3, vxx, check, x;
    if (!fe_frombytes_canonical(&h->Y, s)) return 0;
    int x0 = s[31] >> 7;
    fe_1(&h->Z);
    fe_sq(&u, &h->Y);
    fe_mul(&v, &u, &FE_D);
    fe_sub(&u, &u, &h->Z); /* u = y^2 - 1 */
    fe_reduce(&u);
    fe_add(&v, &v, &h->Z); /* v = d y^2 + 1 */
    fe_sq(&v3, &v);
    fe_mul(&v3, &v3, &v);  /* v^3 */
    fe_sq(&x, &v3);
    fe_mul(&x, &x, &v);
    fe_mul(&x, &x, &u);    /* u v^7 */
    fe_pow22523(&x, &x);
    fe_mul(&x, &x, &v3);
    fe_mul(&x, &x, &u);    /* x = u v^3 (u v^7)^((p-5)/8), step 2 */
    fe_sq(&vxx, &x);
    fe_mul(&vxx, &vxx, &v);
    if (!fe_equal(&vxx, &u)) {
        fe_neg(&check, &u);
        if (!fe_equal(&vxx, &check)) return 0; /* step 3: no square root */
        fe_mul(&x, &x, &FE_SQRTM1);
    }
    if (fe_iszero(&x) && x0) return 0; /* step 4 */
    if (fe_isodd(&x) == x0) fe_neg(&x, &x); /* -A: x of the opposite sign */
    fe_reduce(&x);
    h->X = x;
    fe_mul(&h->T, &h->X, &h->Y);
    return 1;
}

/* ---- scalars -------------------------------------------------------------------------- */

/* L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1), little-endian limbs. */
static const u64 ED25519_L[4] = {0x5812631a5cf5d3edULL, 0x14def9dea2f79cd6ULL, 0, 0x1000000000000000ULL};

/* S < L (RFC 8032 §5.1.7 step 1: "Check the group equation ... S must be in range 0 <= s < L";
   a non-reduced S is a malleability vector and is refused). */
static int scalar_is_canonical(const uint8_t s[32]) {
    for (int i = 3; i >= 0; i--) {
        u64 w = load64(s + 8 * i);
        if (w < ED25519_L[i]) return 1;
        if (w > ED25519_L[i]) return 0;
    }
    return 0; /* S == L */
}

/* Width-w NAF of a scalar below 2^255 (32 little-endian bytes): out[i] odd in
   (-2^(w-1), 2^(w-1)) or 0, at least w-1 zeros after each non-zero digit. */
static void wnaf(int8_t out[256], const uint8_t s[32], int w) {
    u64 k[5] = {load64(s), load64(s + 8), load64(s + 16), load64(s + 24), 0};
    memset(out, 0, 256);
    int carry = 0;
    for (int bit = 0; bit < 256;) {
        int b = (int)(k[bit >> 6] >> (bit & 63)) & 1;
        if (b == carry) {
            bit++;
            continue;
        }
        /* the next w bits (bits past 256 are zero) plus the carry */
        u64 lo = k[bit >> 6] >> (bit & 63);
        if ((bit & 63) + w > 64) lo |= k[(bit >> 6) + 1] << (64 - (bit & 63));
        int word = (int)(lo & ((1u << w) - 1)) + carry;
        carry = (word >> (w - 1)) & 1;
        word -= carry << w;
        out[bit] = (int8_t)word;
        bit += w;
    }
    /* a scalar below 2^255 leaves no carry past bit 255 */
}

/* The verification, inlined twice below: once compiled for BMI2/ADX (MULX products; chosen at
   run time when the CPU has them), once portable. */
INL int ed25519_verify(const uint8_t signature[64], const uint8_t public_key[32], const uint8_t k_reduced[32]) {
    ge_p3 negA;
    if (!ge_frombytes_negate(&negA, public_key)) return CSIGIL_EDDSA_BAD_KEY;
    if (!scalar_is_canonical(signature + 32)) return CSIGIL_EDDSA_BAD_SIGNATURE;

    int8_t kn[256], sn[256];
    wnaf(kn, k_reduced, 5);
    wnaf(sn, signature + 32, ED25519_BWINDOW);

    /* Odd multiples -A, -3A, ..., -15A, cached. */
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

    int i = 255;
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
            if (sn[i] > 0) ge_add_precomp(&t, &u, &ED25519_BTABLE[sn[i] >> 1], 0);
            else ge_add_precomp(&t, &u, &ED25519_BTABLE[(-sn[i]) >> 1], 1);
        }
        p1p1_to_p2(&r, &t);
    }

    /* Encode [S]B - [k]A (RFC 8032 §5.1.2) and compare with R as given: equal bytes exactly
       when R decodes (canonically, §5.1.3) to that point, so a non-canonical R (y >= p, or
       x = 0 with the sign bit set) is refused, as §5.1.7 step 1 requires. Cofactorless
       equation [S]B = R + [k]A (§5.1.7 step 3 allows it: "It's sufficient, but not required,
       to instead check [S]B = R + [k]A"). */
    fe zinv, x, y;
    fe_invert(&zinv, &r.Z);
    fe_mul(&x, &r.X, &zinv);
    fe_mul(&y, &r.Y, &zinv);
    uint8_t enc[32];
    fe_tobytes(enc, &y);
    enc[31] |= (uint8_t)(fe_isodd(&x) << 7);
    return memcmp(enc, signature, 32) == 0 ? CSIGIL_EDDSA_VALID : CSIGIL_EDDSA_BAD_SIGNATURE;
}

#if defined(__x86_64__)
__attribute__((target("bmi2,adx"), noinline)) static int ed25519_verify_mulx(
    const uint8_t signature[64], const uint8_t public_key[32], const uint8_t k_reduced[32]) {
    return ed25519_verify(signature, public_key, k_reduced);
}
#endif

__attribute__((noinline)) static int ed25519_verify_portable(
    const uint8_t signature[64], const uint8_t public_key[32], const uint8_t k_reduced[32]) {
    return ed25519_verify(signature, public_key, k_reduced);
}

int csigil_ed25519_verify(const uint8_t signature[64], const uint8_t public_key[32], const uint8_t k_reduced[32]) {
#if defined(__x86_64__)
    if (csigil_bignum_mulx_supported()) return ed25519_verify_mulx(signature, public_key, k_reduced);
#endif
    return ed25519_verify_portable(signature, public_key, k_reduced);
}

int csigil_ed25519_decode_point(const uint8_t encoded[32]) {
    ge_p3 p;
    return ge_frombytes_negate(&p, encoded);
}
