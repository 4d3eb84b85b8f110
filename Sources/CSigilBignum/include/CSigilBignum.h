#ifndef CSIGILBIGNUM_H
#define CSIGILBIGNUM_H
/* Montgomery multiplication kernels using the x86 BMI2/ADX instructions (MULX, ADCX, ADOX),
   compiled per function with target attributes and chosen at run time. */
#include <stddef.h>

/* A 64-bit limb, as GMP's mp_limb_t on LP64 (imports into Swift as UInt). */
typedef unsigned long csigil_limb;

/* RSA public-key exponentiation with AVX-512 IFMA (rsa_ifma.c). */
#include "CSigilRSAIFMA.h"

/* EdDSA group arithmetic (ed25519.c, ed448.c). */
#include "CSigilEdDSA.h"

/* 1 when the CPU has BMI2 and ADX (CPUID leaf 7 EBX bits 8 and 19), else 0. Probed once, then
   cached. Always 0 off x86-64. */
int csigil_bignum_mulx_supported(void);

/* r = a·b·R^-1 mod m, fully reduced, R = 2^(64n); `ninv` = -m^-1 mod 2^64; a, b < m; m odd,
   n >= 1 limbs. `t`: 2n limbs of scratch. r may alias a or b, but not t or m.
   Precondition: csigil_bignum_mulx_supported() != 0. */
void csigil_mont_mul_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *b,
                          const csigil_limb *m, size_t n, csigil_limb ninv, csigil_limb *t);

/* r = a²·R^-1 mod m, as csigil_mont_mul_mulx(r, a, a, ...) but with the squaring shortcut. */
void csigil_mont_sqr_mulx(csigil_limb *r, const csigil_limb *a, const csigil_limb *m,
                          size_t n, csigil_limb ninv, csigil_limb *t);

/* P-256 (p256.c; variable time: for signature verification only, all inputs public).
   R = u1·G + u2·Q for scalars u1, u2 < 2^256 (4 little-endian limbs) and q = the affine public
   key (x then y, Montgomery form with R = 2^256, reduced below p): interleaved width-12 wNAF of
   u1 over the static table of G (p256_gtable.h) and width-5 wNAF of u2. Writes R as Jacobian
   X, Y, Z (Montgomery form, lazily reduced: below 2^256, not necessarily below p) to out and
   returns 1, or returns 0 when R is the point at infinity. use_mulx = 0 forces the portable products (tests); otherwise MULX/ADX are used when
   the CPU has them. */
int csigil_p256_mul_public(csigil_limb out[12], const csigil_limb u1[4], const csigil_limb u2[4],
                           const csigil_limb q[8], int use_mulx);

/* SEC 1 §4.1.4 steps 5-8 for P-256 once u1 and u2 are known: R = u1·G + u2·Q as above, then
   whether x_R mod n == r without inverting Z (x_R = X / Z^2, and n < p < 2n: X == r·Z^2, or
   X == (r + n)·Z^2 when r + n < p). q = the affine key as plain integers below p (x then y),
   r in [1, n-1]. Returns 1 when the signature verifies, 0 otherwise (R at infinity included). */
int csigil_p256_verify(const csigil_limb u1[4], const csigil_limb u2[4], const csigil_limb q[8],
                       const csigil_limb r[4], int use_mulx);

/* For tests: the static table of G (count entries of x, y, 8 limbs each, (2k+1)·G in
   Montgomery form) and the width-w NAF of k < 2^256 that the kernel uses (257 digits, least
   significant first; returns the count up to the last non-zero digit), 2 <= w <= 15. */
const csigil_limb *csigil_p256_gtable(size_t *count, int *window);
size_t csigil_p256_wnaf(short out[257], const csigil_limb k[4], int w);
/* SEC 1 §3.2.2.1 step 3 for P-256: whether y^2 = x^3 - 3x + b (mod p), for x, y plain integers below
   p (4 little-endian limbs; the caller checks the range). use_mulx as above. */
int csigil_p256_on_curve(const csigil_limb x[4], const csigil_limb y[4], int use_mulx);

/* One P-256 field operation on Montgomery-form values below 2^256, for tests: op 0 r = a·b·R^-1,
   1 r = a²·R^-1, 2 r = a + b, 3 r = a - b, 4 r = a / 2, 5 r = (a·b - b²)·R^-1, 6 r = (a² - a·b)·R^-1
   (mod p; 5 and 6 are the kernel's differences of products with one reduction); results
   congruent and below 2^256, not necessarily below p (the kernel's lazy reduction). use_mulx
   as above. */
void csigil_p256_field_op(int op, csigil_limb r[4], const csigil_limb a[4], const csigil_limb b[4], int use_mulx);

/* P-384 (p384.c; variable time: for signature verification only, all inputs public).
   R = u1·G + u2·Q for scalars u1, u2 < 2^384 (6 little-endian limbs) and q = the affine public
   key (x then y, plain integers below p): interleaved width-12 wNAF of u1 over the static table
   of G (p384_gtable.h) and width-5 wNAF of u2. Writes R as Jacobian X, Y, Z (plain integers,
   below p) to out and returns 1, or returns 0 when R is the point at infinity. use_mulx = 0
   forces the build without MULX (tests); otherwise MULX is used when the CPU has BMI2/ADX. */
int csigil_p384_mul_public(csigil_limb out[18], const csigil_limb u1[6], const csigil_limb u2[6],
                           const csigil_limb q[12], int use_mulx);
/* 1 when y^2 == x^3 - 3x + b on P-384 (SEC 1 §3.2.2.1 step 3), x, y plain integers below p. */
int csigil_p384_on_curve(const csigil_limb x[6], const csigil_limb y[6], int use_mulx);

/* For tests: the static table of G (count entries of x, y, 12 limbs each, (2k+1)·G in
   Montgomery form, R = 2^384) and the kernel's width-w NAF of k < 2^384 (385 digits). */
const csigil_limb *csigil_p384_gtable(size_t *count, int *window);
size_t csigil_p384_wnaf(short out[385], const csigil_limb k[6], int w);

/* One P-384 field operation on Montgomery-form values below p, for tests: op 0 r = a·b·R^-1,
   1 r = a²·R^-1, 2 r = a + b, 3 r = a - b, 4 r = a / 2 (mod p); results below p. The products
   also accept any a, b below 2^384 (result congruent, below 2^384). */
void csigil_p384_field_op(int op, csigil_limb r[6], const csigil_limb a[6], const csigil_limb b[6], int use_mulx);

#endif
