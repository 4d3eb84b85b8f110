#ifndef CSIGILBIGNUM_H
#define CSIGILBIGNUM_H
/* Montgomery multiplication kernels using the x86 BMI2/ADX instructions (MULX, ADCX, ADOX),
   compiled per function with target attributes and chosen at run time. */
#include <stddef.h>

/* A 64-bit limb, as GMP's mp_limb_t on LP64 (imports into Swift as UInt). */
typedef unsigned long csigil_limb;

/* RSA public-key exponentiation with AVX-512 IFMA (rsa_ifma.c). */
#include "CSigilRSAIFMA.h"

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
   R = u1·G + u2·Q from the width-8 wNAF digits d1 of u1 (len1 digits, least significant first)
   with `gtable` the affine odd multiples G, 3G, ..., 127G (x then y, 4 limbs each, Montgomery
   form with R = 2^256, reduced below p), and the width-5 wNAF digits d2 of u2 with q = the
   affine public key (x then y, Montgomery form, below p). Writes R as Jacobian X, Y, Z
   (Montgomery form, below p) to out and returns 1, or returns 0 when R is the point at
   infinity. use_mulx = 0 forces the portable products (tests); otherwise MULX/ADX are used when
   the CPU has them. */
int csigil_p256_mul_public(csigil_limb out[12], const signed char *d1, size_t len1, const csigil_limb *gtable,
                           const signed char *d2, size_t len2, const csigil_limb q[8], int use_mulx);

/* One P-256 field operation on Montgomery-form values below p, for tests: op 0 r = a·b·R^-1,
   1 r = a²·R^-1, 2 r = a + b, 3 r = a - b (mod p), results below p. (Products of inputs in
   [p, 2^256) give congruent results below 2^256.) use_mulx as above. */
void csigil_p256_field_op(int op, csigil_limb r[4], const csigil_limb a[4], const csigil_limb b[4], int use_mulx);

#endif
