#ifndef CSIGILBASE64_H
#define CSIGILBASE64_H
#include <stddef.h>
#include <stdint.h>

/* 1 when the CPU offers AVX2 and the OS saves the YMM registers (CPUID leaf 7 EBX bit 5,
   leaf 1 ECX bits 27 OSXSAVE and 28 AVX, XCR0 bits 1-2), else 0. Probed once, then cached.
   Always 0 off x86. */
int csigil_base64_avx2_supported(void);

/* Decodes `count` base64 characters of the standard alphabet (RFC 4648 §4; `count` a
   multiple of 4, no padding, no blanks) from `src` into count / 4 * 3 octets at `dst`,
   with AVX2. Returns 1 when every character is in the alphabet, 0 otherwise (then `dst`
   holds garbage). Writes up to 8 octets beyond count / 4 * 3: `dst` must have that room.
   Precondition: csigil_base64_avx2_supported() != 0. */
int csigil_base64_decode_avx2(const uint8_t *src, size_t count, uint8_t *dst);

#endif
