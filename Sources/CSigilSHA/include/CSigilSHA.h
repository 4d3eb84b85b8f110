#ifndef CSIGILSHA_H
#define CSIGILSHA_H
#include <stddef.h>
#include <stdint.h>

/* 1 when the CPU offers the SHA extensions plus SSSE3/SSE4.1 (CPUID leaf 7 EBX bit 29,
   leaf 1 ECX bits 9 and 19), else 0. Probed once, then cached. Always 0 off x86. */
int csigil_sha256_ni_supported(void);

/* SHA-256 compression (FIPS 180-4 §6.2.2) of `blocks` consecutive 64-byte blocks at `data`
   into `state` (8 native-endian words a..h) with the SHA-NI instructions.
   Precondition: csigil_sha256_ni_supported() != 0. */
void csigil_sha256_ni_blocks(uint32_t *state, const void *data, size_t blocks);

/* SHA-256 of `len` bytes at `data` (FIPS 180-4), the 32-byte digest written to `out`, with
   the SHA-NI instructions. Precondition: csigil_sha256_ni_supported() != 0. */
void csigil_sha256_ni_oneshot(const void *data, size_t len, uint8_t *out);

#endif
