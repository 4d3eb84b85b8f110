#ifndef SIGIL_CGMP_SHIM_H
#define SIGIL_CGMP_SHIM_H
#include <gmp.h>

/* GMP defines these as macros; Swift cannot call macros. */
static inline int sigil_mpz_sgn(const mpz_t z) { return mpz_sgn(z); }
static inline int sigil_mpz_odd_p(const mpz_t z) { return mpz_odd_p(z); }
static inline int sigil_mpz_cmp_ui(const mpz_t z, unsigned long v) { return mpz_cmp_ui(z, v); }
static inline int sigil_gmp_numb_bits(void) { return GMP_NUMB_BITS; }

/* ---- RSA / big-integer layer shims ---- */

/* ---- ECDSA shims ---- */

#endif
