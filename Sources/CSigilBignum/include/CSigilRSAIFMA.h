#ifndef CSIGILRSAIFMA_H
#define CSIGILRSAIFMA_H
/* RSA public-key exponentiation with AVX-512 IFMA (rsa_ifma.c), compiled per function with
   target attributes and chosen at run time. Included by CSigilBignum.h (csigil_limb). */
#include <stddef.h>

/* 1 when the CPU has AVX512F, AVX512-IFMA, AVX512VL and BMI2 and the OS saves the ZMM state (XGETBV),
   else 0. Probed once, then cached. Always 0 off x86-64. */
int csigil_bignum_ifma_supported(void);

/* V, the number of 8-digit radix-2^52 vectors used for n-limb moduli (R = 2^(416·V) > 4·2^(64n)),
   or 0 when n is too large for the kernel (more than 64 limbs). */
size_t csigil_rsa_ifma_vectors(size_t n);

/* out = x^e mod m, fully reduced (n limbs). m odd, n limbs with csigil_rsa_ifma_vectors(n) != 0;
   x < m; rr = R² mod m with R = 2^(416·V), V = csigil_rsa_ifma_vectors(n) (a constant of the
   modulus, which a caller can keep per key: x·R mod m is then one Montgomery multiplication);
   e (elen limbs, top limb non-zero) odd and >= 3. Variable time (public exponents only). out may
   alias x or rr. Precondition: csigil_bignum_ifma_supported() != 0. */
void csigil_rsa_modexp_ifma_rr(csigil_limb *out, const csigil_limb *x, const csigil_limb *rr,
                               const csigil_limb *m, size_t n, const csigil_limb *e, size_t elen);

/* For tests: one almost-Montgomery multiplication (square = 0: a·b) or squaring (square = 1: a², b
   unused) of the kernel, out = a·b·R^-1 (mod m), below 2m but not reduced; a, b, out: n + 1 limbs
   (2m may not fit in n), a, b < 2m. Same preconditions on m, n and the CPU as above. */
void csigil_rsa_ifma_mont_test(csigil_limb *out, const csigil_limb *a, const csigil_limb *b,
                               const csigil_limb *m, size_t n, int square);

#endif
