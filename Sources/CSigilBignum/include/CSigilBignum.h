#ifndef CSIGILBIGNUM_H
#define CSIGILBIGNUM_H
/* Montgomery multiplication kernels using the x86 BMI2/ADX instructions (MULX, ADCX, ADOX),
   compiled per function with target attributes and chosen at run time. */
#include <stddef.h>

/* A 64-bit limb, as GMP's mp_limb_t on LP64 (imports into Swift as UInt). */
typedef unsigned long csigil_limb;

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

#endif
