/* Base64 decoding (RFC 4648 §4, standard alphabet) 32 characters at a time with AVX2, for
 * the PEM reader's usual 64-character lines.
 *
 * Only the functions marked AVX2 are compiled with the extension enabled (per-function target
 * attribute), so the rest of the binary runs on any x86-64; Swift calls them only after
 * csigil_base64_avx2_supported() said yes, and otherwise decodes in portable Swift
 * (`Base64.decodeWide`).
 *
 * The method is the vectorised lookup of W. Muła and D. Lemire, "Faster Base64 Encoding and
 * Decoding Using AVX2 Instructions" (ACM TOW 2018), written here from its description:
 *   - validity: each character's high and low nibbles index two 16-entry bit-class tables
 *     (PSHUFB); a character is outside the alphabet exactly when the two classes share a bit;
 *   - value: one offset per high nibble (with '/' moved to its own slot) added to the
 *     character gives its 6-bit value;
 *   - packing: PMADDUBSW then PMADDWD join four 6-bit values into 24 bits per 32-bit lane,
 *     PSHUFB puts the three octets of each lane in order, VPERMD closes the gap between the
 *     two 128-bit halves.
 */
#include "CSigilBase64.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

static int sigil_probe(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx) return 0;
    /* XGETBV(0): the OS saves XMM (bit 1) and YMM (bit 2) state. */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (int)((b >> 5) & 1); /* CPUID.(EAX=7,ECX=0):EBX.AVX2[bit 5] */
}

int csigil_base64_avx2_supported(void) {
    /* -1 unknown; racing first calls compute the same value, so a plain relaxed atomic is enough. */
    static int cached = -1;
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = sigil_probe();
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

/* 6-bit values of the alphabet, 0x80 for any other octet (the scalar tail). */
static const uint8_t sigil_b64_values[256] = {
#define X 0x80
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, 62, X, X, X, 63,                 /* '+' 0x2B, '/' 0x2F */
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X, X, X, X, X, X,         /* '0'..'9' */
    X, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,              /* 'A'..'O' */
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X, X, X, X, X,        /* 'P'..'Z' */
    X, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,    /* 'a'..'o' */
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, X, X, X, X, X,        /* 'p'..'z' */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
#undef X
};

#define AVX2 __attribute__((target("avx2")))

/* Bit classes. High nibble: 0, 1 and 8..F are never in the alphabet (bit 0x10); 2 holds
 * '+' and '/' (bit 0x01); 3 holds '0'..'9' (0x02); 4 and 6 hold letters from low nibble 1
 * (0x04); 5 and 7 hold letters up to low nibble A (0x08). The low-nibble table sets, for
 * each low nibble, the classes in which it is NOT a character of the alphabet (and always
 * 0x10). Tested exhaustively against the scalar table over all 256 octets. */
#define SIGIL_LUT_LO                                                                             \
    0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A
#define SIGIL_LUT_HI                                                                             \
    0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10
/* Offset added to a character, by high nibble; slot 1 is '/' (high nibble 2, minus 1). */
#define SIGIL_LUT_ROLL 0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0

AVX2 int csigil_base64_decode_avx2(const uint8_t *src, size_t count, uint8_t *dst) {
    const __m256i lut_lo = _mm256_setr_epi8(SIGIL_LUT_LO, SIGIL_LUT_LO);
    const __m256i lut_hi = _mm256_setr_epi8(SIGIL_LUT_HI, SIGIL_LUT_HI);
    const __m256i lut_roll = _mm256_setr_epi8(SIGIL_LUT_ROLL, SIGIL_LUT_ROLL);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i slash = _mm256_set1_epi8(0x2F);
    /* PMADDUBSW: a * 64 + b per 16 bits; PMADDWD: (ab) * 4096 + (cd) per 32 bits. */
    const __m256i merge1 = _mm256_set1_epi32(0x01400140);
    const __m256i merge2 = _mm256_set1_epi32(0x00011000);
    /* The 24 bits of lane j are its octets 2, 1, 0 (most significant first). */
    const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                           2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    size_t i = 0, o = 0;
    while (count - i >= 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i hi = _mm256_and_si256(_mm256_srli_epi32(in, 4), nibble);
        __m256i lo = _mm256_and_si256(in, nibble);
        __m256i classes_lo = _mm256_shuffle_epi8(lut_lo, lo);
        __m256i classes_hi = _mm256_shuffle_epi8(lut_hi, hi);
        if (!_mm256_testz_si256(classes_lo, classes_hi)) return 0;
        __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(_mm256_cmpeq_epi8(in, slash), hi));
        __m256i values = _mm256_add_epi8(in, roll);
        __m256i merged = _mm256_madd_epi16(_mm256_maddubs_epi16(values, merge1), merge2);
        __m256i packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(merged, order), gather);
        _mm256_storeu_si256((__m256i *)(dst + o), packed);
        i += 32;
        o += 24;
    }
    while (count - i >= 4) {
        uint32_t a = sigil_b64_values[src[i]], b = sigil_b64_values[src[i + 1]];
        uint32_t c = sigil_b64_values[src[i + 2]], d = sigil_b64_values[src[i + 3]];
        if ((a | b | c | d) & 0x80) return 0;
        uint32_t v = a << 18 | b << 12 | c << 6 | d;
        dst[o] = (uint8_t)(v >> 16);
        dst[o + 1] = (uint8_t)(v >> 8);
        dst[o + 2] = (uint8_t)v;
        i += 4;
        o += 3;
    }
    return 1;
}

#else

int csigil_base64_avx2_supported(void) { return 0; }

int csigil_base64_decode_avx2(const uint8_t *src, size_t count, uint8_t *dst) {
    (void)src;
    (void)count;
    (void)dst;
    return 0;
}

#endif
