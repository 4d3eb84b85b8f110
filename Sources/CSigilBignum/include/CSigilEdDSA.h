#ifndef CSIGIL_EDDSA_H
#define CSIGIL_EDDSA_H
/* EdDSA verification kernels (RFC 8032): the group arithmetic of Ed25519 (ed25519.c) and
   Ed448 (ed448.c). Hashing and the reduction of the hash modulo L are the caller's
   (SigilCrypto/EdDSA.swift). Variable time: verification inputs are public. */
#include <stdint.h>

#define CSIGIL_EDDSA_VALID 1
#define CSIGIL_EDDSA_BAD_SIGNATURE 0
#define CSIGIL_EDDSA_BAD_KEY (-1)

/* RFC 8032 §5.1.7 given k = SHA-512(R || A || M) mod L (32 little-endian bytes, < L):
   CSIGIL_EDDSA_BAD_KEY when A does not decode (§5.1.3), CSIGIL_EDDSA_BAD_SIGNATURE when
   S >= L or [S]B != R + [k]A (R compared as encoded), else CSIGIL_EDDSA_VALID. */
int csigil_ed25519_verify(const uint8_t signature[64], const uint8_t public_key[32], const uint8_t k_reduced[32]);

/* 1 when the 32 bytes decode to a point of edwards25519 (RFC 8032 §5.1.3, strictly), else 0. */
int csigil_ed25519_decode_point(const uint8_t encoded[32]);

/* RFC 8032 §5.2.7 given k = SHAKE256(dom4(0, "") || R || A || M, 114) mod L (56 little-endian
   bytes, < L); results as csigil_ed25519_verify. */
int csigil_ed448_verify(const uint8_t signature[114], const uint8_t public_key[57], const uint8_t k_reduced[56]);

/* 1 when the 57 bytes decode to a point of edwards448 (RFC 8032 §5.2.3, strictly), else 0. */
int csigil_ed448_decode_point(const uint8_t encoded[57]);

#endif
