/* SHA-256 with the x86 SHA extensions (SHA-NI).
 *
 * Only the functions below are compiled with the extensions enabled (per-function target
 * attribute), so the rest of the binary runs on any x86-64; Swift calls
 * csigil_sha256_ni_blocks only after csigil_sha256_ni_supported() said yes.
 *
 * The SHA256RNDS2 instruction works on the state split as ABEF / CDGH (Intel, "Intel SHA
 * Extensions", 2013, §"SHA-256"); each call does two rounds, taking W+K from the low 64 bits
 * of its third operand. SHA256MSG1/MSG2 compute the message schedule (FIPS 180-4 §6.2.2 step 1)
 * four words at a time.
 */
#include "CSigilSHA.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

static int sigil_probe(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!ssse3 || !sse41) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (int)((b >> 29) & 1);  /* CPUID.(EAX=7,ECX=0):EBX.SHA[bit 29] */
}

int csigil_sha256_ni_supported(void) {
    /* -1 unknown; racing first calls compute the same value, so a plain relaxed atomic is enough. */
    static int cached = -1;
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = sigil_probe();
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

/* FIPS 180-4 §4.2.2 constants, four per vector, K[i] in lane i. */
static const uint32_t K256[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define SHANI __attribute__((target("sha,sse4.1,ssse3")))

/* Four rounds (i = group 0..15). W[i%4] holds W[4i..4i+3]. Before the rounds' second half the
 * schedule for group i+1 is finished (MSG2), after it group i+3 is started (MSG1): the
 * interleaving Intel's reference code uses to hide the instructions' latency. */
#define ROUNDS4(i, Wi, Wprev, Wnext)                                                  \
    do {                                                                              \
        __m128i m = _mm_add_epi32(Wi, _mm_load_si128((const __m128i *)&K256[4 * (i)])); \
        s1 = _mm_sha256rnds2_epu32(s1, s0, m);                                        \
        if ((i) >= 3 && (i) <= 14) {                                                  \
            Wnext = _mm_add_epi32(Wnext, _mm_alignr_epi8(Wi, Wprev, 4));              \
            Wnext = _mm_sha256msg2_epu32(Wnext, Wi);                                  \
        }                                                                             \
        m = _mm_shuffle_epi32(m, 0x0E);                                               \
        s0 = _mm_sha256rnds2_epu32(s0, s1, m);                                        \
        if ((i) >= 1 && (i) <= 12) Wprev = _mm_sha256msg1_epu32(Wprev, Wi);           \
    } while (0)

SHANI void csigil_sha256_ni_blocks(uint32_t *state, const void *data, size_t blocks) {
    const uint8_t *p = (const uint8_t *)data;
    /* Byte swap within each 32-bit lane: message words are big-endian (FIPS 180-4 §3.1). */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);

    __m128i t = _mm_loadu_si128((const __m128i *)&state[0]);   /* D C B A */
    __m128i s1 = _mm_loadu_si128((const __m128i *)&state[4]);  /* H G F E */
    t = _mm_shuffle_epi32(t, 0xB1);                            /* C D A B */
    s1 = _mm_shuffle_epi32(s1, 0x1B);                          /* E F G H */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);                    /* A B E F */
    s1 = _mm_blend_epi16(s1, t, 0xF0);                         /* C D G H */

    while (blocks--) {
        const __m128i save0 = s0, save1 = s1;
        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), bswap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

        ROUNDS4(0, w0, w3, w1);
        ROUNDS4(1, w1, w0, w2);
        ROUNDS4(2, w2, w1, w3);
        ROUNDS4(3, w3, w2, w0);
        ROUNDS4(4, w0, w3, w1);
        ROUNDS4(5, w1, w0, w2);
        ROUNDS4(6, w2, w1, w3);
        ROUNDS4(7, w3, w2, w0);
        ROUNDS4(8, w0, w3, w1);
        ROUNDS4(9, w1, w0, w2);
        ROUNDS4(10, w2, w1, w3);
        ROUNDS4(11, w3, w2, w0);
        ROUNDS4(12, w0, w3, w1);
        ROUNDS4(13, w1, w0, w2);
        ROUNDS4(14, w2, w1, w3);
        ROUNDS4(15, w3, w2, w0);

        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
        p += 64;
    }

    t = _mm_shuffle_epi32(s0, 0x1B);                           /* F E B A */
    s1 = _mm_shuffle_epi32(s1, 0xB1);                          /* D C H G */
    s0 = _mm_blend_epi16(t, s1, 0xF0);                         /* D C B A */
    s1 = _mm_alignr_epi8(s1, t, 8);                            /* H G F E */
    _mm_storeu_si128((__m128i *)&state[0], s0);
    _mm_storeu_si128((__m128i *)&state[4], s1);
}

/* The whole SHA-256 of `len` bytes at `data` (FIPS 180-4 §5.1.1 padding, §5.3.3 initial value,
 * §6.2.2), the 32-byte big-endian digest written to `out`. One call instead of the block function
 * plus Swift's buffering: the whole blocks are compressed in place, the tail and the padding
 * (one or two blocks) are built on the stack, and the state stays in this function. */
SHANI void csigil_sha256_ni_oneshot(const void *data, size_t len, uint8_t *out) {
    uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = (const uint8_t *)data;
    size_t whole = len / 64, rest = len % 64;
    if (whole) csigil_sha256_ni_blocks(state, p, whole);
    uint8_t tail[128] __attribute__((aligned(16)));
    for (size_t i = 0; i < rest; i++) tail[i] = p[whole * 64 + i];
    tail[rest] = 0x80;
    /* 0x80 and the 64-bit length must fit: one block when rest <= 55, else two. */
    size_t blocks = rest < 56 ? 1 : 2;
    for (size_t i = rest + 1; i < blocks * 64 - 8; i++) tail[i] = 0;
    uint64_t bits = (uint64_t)len << 3;
    for (int i = 0; i < 8; i++) tail[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    csigil_sha256_ni_blocks(state, tail, blocks);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(state[i] >> 8);
        out[4 * i + 3] = (uint8_t)state[i];
    }
}

#else  /* not x86: no SHA-NI; the Swift side never calls the block function. */

int csigil_sha256_ni_supported(void) { return 0; }
void csigil_sha256_ni_blocks(uint32_t *state, const void *data, size_t blocks) {
    (void)state; (void)data; (void)blocks;
}
void csigil_sha256_ni_oneshot(const void *data, size_t len, uint8_t *out) {
    (void)data; (void)len; (void)out;
}

#endif
