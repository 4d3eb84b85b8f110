/* P-256 (secp256r1, FIPS 186-5 / SP 800-186 §3.2.1.3) field arithmetic and the double-scalar
 * multiplication u1·G + u2·Q of ECDSA verification (SEC 1 §4.1.4 step 5), with steps 6-8 around
 * it (csigil_p256_verify: the key's Montgomery conversion, R at infinity, x_R mod n == r).
 *
 * VARIABLE TIME, on purpose: this code only serves signature *verification*, where every input
 * (public key, digest, signature, hence u1 and u2) is public. It branches on digits and on
 * the exceptional cases of the addition formulas. Do not reuse it for signing or key agreement.
 *
 * Field: p = 2^256 - 2^224 + 2^192 + 2^96 - 1, Montgomery form with R = 2^256 (the same
 * representation as SigilCrypto's P256Field), elements lazily reduced: below 2^256, congruent,
 * not necessarily below p (see fadd). The output point is in that form too.
 *  - Products: 4x4 limbs with MULX and two carry chains (ADCX for the low halves, ADOX for the
 *    high halves; Ozturk, Guilford, Gopal & Feghali 2012), or a portable unsigned __int128
 *    version when the CPU lacks BMI2/ADX. Squares compute the 6 cross products once.
 *  - REDC without multiplying by -p^-1 (it is 1 mod 2^64): with m the low limb,
 *    m·p = m·2^256 - m·2^224 + m·2^192 + m·2^96 - m, so limb 0 clears exactly, m·2^96 lands on
 *    limbs 1-2 as shifts and m·(2^64 - 2^32 + 1)·2^192 on limbs 3-4, also as shifts (no
 *    product; in the MULX version one add pass and one sub pass, 8 instructions a round:
 *    reduce_round in Scripts/gen_p256_mulx.py). Both versions form the whole 512-bit product
 *    first and reduce only its low half: (T_lo + M·p) / R <= p, then T_hi is added and p
 *    subtracted once if needed: inputs below p give a result below p (T_hi < p, the sum is
 *    below 2p); any inputs below 2^256 give a congruent result below 2^256. The MULX version
 *    (p256_mulx.h) subtracts p only when the result carried out of 2^256. (It reduced one
 *    round after each row until 2026-12; the whole product first runs ~12 % fewer
 *    instructions, and with pdbl's order re-tuned for it the double-scalar multiplication
 *    took ~5-6 % less time in a C harness.)
 * Points: Jacobian (X, Y, Z) ~ (X/Z^2, Y/Z^3), Z = 0 is infinity; formulas from the
 * Explicit-Formulas Database, chosen for the fewest additions (at this speed of the products an
 * addition or subtraction costs about a fifth of a product): dbl-2001-b (a = -3, 4M + 4S) with
 * its result scaled by 1/2 (8 additions instead of 14), add-1998-cmo-2 with Z2^2, Z2^3 cached
 * (the table of Q, itself built by co-Z additions: q_table), madd-2004-hmv (the static affine
 * table of G, p256_gtable.h). The exceptional cases (an input at infinity, P + P, P + (-P))
 * are detected and handled: a verifier sees attacker-chosen keys and signatures, so the two
 * halves of the sum may collide on purpose.
 * Where the time goes (AMD EPYC Zen 4, 2026-11, perf on VerifySignatureP256_Sigil, 36.0 us per
 * certificate signature): the loop of mul_public 87 %, the table of Q 2.5 %, SHA-256 of the TBS
 * 1.8 %, GMP's gcdext (s^-1 mod n) 1.9 %, the rest (DER, key validation, u1/u2) ~6 %. In the
 * loop (C harness): 256 doublings at ~92 ns (~73 %), ~43 additions of Q-table entries at
 * ~145 ns (~19 %), ~23 mixed additions of G at ~119 ns (~8 %). A product's latency is ~14 ns,
 * its throughput (independent products) ~10 ns: the loop is bound by throughput and by how much
 * of it the out-of-order window (a few products wide) can overlap, so the order of the
 * operations inside each formula matters (pdbl, padd, pmadd: ~9 % of the loop). 23 extra
 * mixed additions into an independent second accumulator cost their full price (+3.2 us of
 * ~38), so moving u1·G to a separate doubling-free comb chain run alongside would not hide it;
 * a width-12 G table (1024 entries) gained ~0.5 % (in use since the third pass below); a width-4
 * or width-6 wNAF of u2 is slower than 5. An affine table of Q (mixed additions, ~26 ns less
 * each) needs one field inversion, which costs about what it saves (GMP ~1 us).
 * 2026-12 (C harness, the whole u1 G + u2 Q against the kernel described above, same
 * sitting): products with fewer instructions (p256_mulx.h: ~104 a product, ~80 a square;
 * about 2 % by themselves, although ~12 % fewer instructions run), pdbl's order re-tuned for
 * them (~4 %), and Z^2 carried from each operation to the next (pdbl_zz: ~3 %): ~0.93x in
 * all, ~0.95x with SwiftPM's flags (-fno-omit-frame-pointer: one register fewer around the
 * 11-register asm); VerifySignatureP256_Sigil 36.0 -> 34.3-34.5 us (swift-certificates 50.5
 * in the same runs: 0.71x -> 0.68x). Measured there: fewer instructions help less than a shorter chain of dependent
 * operations (a product's latency, ~45 cycles, is dominated by its serial carry chains; the
 * random orders of pdbl's operations span ~13 %), so that is where further speed is: fewer
 * operations on the doubling's loop-carried chain (Y -> gamma -> beta -> X3' -> Y3', now the
 * longest) rather than fewer instructions per product.
 * 2026-12, second pass (same harness, SwiftPM's flags -O2 -fPIC -fno-omit-frame-pointer, against
 * the kernel above; VerifySignatureP256 numbers in the commit messages): Y3 of the doubling and of
 * both additions as a difference of two products with a single reduction (fmul_sub: the 512-bit
 * products subtracted before one REDC, p256_mulx.h's mul_sub; ~40 instructions fewer each time):
 * ~3 %; padd's order hill-climbed again (V before H^3 and R^2, S1 H^3 after X3, Z3^2 last):
 * ~2 %; the wNAF digits by runs of equal bits, the two scalars interleaved: ~0.5 %
 * (mul_public 0.95x in all; a repeated fixed u1, u2 as in the benchmark: 0.96x). With steps 6-8
 * moved here from Swift (csigil_p256_verify), VerifySignatureP256_Sigil against swift-certificates
 * (BoringSSL) in the same runs, on a loaded shared machine: 0.683x before, 0.663x, 0.662x,
 * 0.658x after. Tried there and not kept: pmadd's order (its climb found nothing
 * better) and pdbl's (the kept gamma^2 in other places: slower); the products in 10 registers
 * instead of 11 (T_lo's limb 0 in a stack slot, shifts by immediates; meant to give back the
 * register that -fno-omit-frame-pointer takes, which costs ~2.3 % here: +0.3 %, within noise);
 * "adc $0" closing each row instead of "mov $0; adcx" (slower); a width-6 wNAF of u2 with 16
 * entries (no better: the 8 extra co-Z entries cost what the ~6 fewer additions save); -Y of
 * every Q entry precomputed instead of one negation per negative digit (the register
 * allocator fails on the pointer choice around the asm); s^-1 mod n by GMP's gcdext costs
 * ~0.7 us of a repeated verification (1.25 us with random s) and U = s instead of s + n saves
 * only ~30 ns of it.
 * 2026-12, third pass: the G table widened to w = 12 (1024 entries, 64 KiB; HMV's expected
 * 256 / (w + 1) additions: ~23.3 -> ~19.7, the benchmark's u1 24 -> 20), and digits +-1 of u2
 * added as a mixed addition of the affine Q (the table's entry 0, Z = 1; about an eighth of
 * u2's ~43 digits, the benchmark's 6 of 44). Callgrind, C harness, the benchmark's signature:
 * 637k -> 628k -> 627k instructions a verification; times (minimum of 25 sittings of 300,
 * shared 2-core machine): 31.05 -> 30.79 -> 30.83 us, random scalars 31.10 -> 30.70 -> 30.95
 * (within the noise of each other). Tried there and not kept: s^-1 mod n by a variable-time
 * Bernstein-Yang safegcd in C (62-divstep batches, signed 62-bit limbs): correct, but
 * ~1.4 us against GMP's gcdext ~0.85 us (~144 dependent inner steps a 256-bit inverse,
 * whatever the cap on the bits cleared per step); u1, u2 by portable Montgomery products
 * modulo n instead of mpn_mul_n + mpn_tdiv_qr: ~115 ns against ~145 ns, too little to keep.
 */
#include "CSigilBignum.h"

typedef csigil_limb limb;
typedef unsigned __int128 u128;

#define INL __attribute__((always_inline)) static inline

static const limb P0 = 0xffffffffffffffffUL, P1 = 0x00000000ffffffffUL, P3 = 0xffffffff00000001UL;
/* R mod p (the element 1 in Montgomery form). */
static const limb ONE[4] = {0x0000000000000001UL, 0xffffffff00000000UL, 0xffffffffffffffffUL, 0x00000000fffffffeUL};

typedef struct { limb v[4]; } fe;

/* Carry chains with clang's builtins (add/adc, sub/sbb). */
INL limb addc(limb a, limb b, limb cin, limb *cout) { return __builtin_addcl(a, b, cin, cout); }
INL limb subb(limb a, limb b, limb bin, limb *bout) { return __builtin_subcl(a, b, bin, bout); }

/* r ≡ (t0..t7) · 2^-256 (mod p): below p when t < p·2^256 (t = a·b, a, b < p), else below 2^256. */
INL void redc(fe *r, limb t0, limb t1, limb t2, limb t3, limb t4, limb t5, limb t6, limb t7) {
    limb s0 = t0, s1 = t1, s2 = t2, s3 = t3, c;
    /* One round: s = (s + m·p) / 2^64 with m = s0; stays below 2^256 (s < 2^256 and
       (2^256 + 2^64 p) / 2^64 = 2^192 + p < 2^256), so no carry leaves the window. */
    /* m·P3 = m·2^64 - m·2^32 + m without a product: m·2^32 = (m >> 32)·2^64 + (m << 32), so
       m·P3 = (m - (m >> 32))·2^64 + (m - (m << 32)), the low difference borrowing from the high
       one (exact: m·P3 < 2^128). */
#define P256_ROUND                                                         \
    {                                                                      \
        limb m = s0, bw, lo, hi;                                           \
        lo = subb(m, m << 32, 0, &bw);                                     \
        hi = m - (m >> 32) - bw;                                           \
        s0 = addc(s1, m << 32, 0, &c);                                     \
        s1 = addc(s2, m >> 32, c, &c);                                     \
        s2 = addc(s3, lo, c, &c);                                          \
        s3 = hi + c;                                                       \
    }
    P256_ROUND P256_ROUND P256_ROUND P256_ROUND
#undef P256_ROUND
    /* + T_hi: below p + 2^256 < 2p. */
    s0 = addc(s0, t4, 0, &c);
    s1 = addc(s1, t5, c, &c);
    s2 = addc(s2, t6, c, &c);
    s3 = addc(s3, t7, c, &c);
    limb b, d0, d1, d2, d3;
    d0 = subb(s0, P0, 0, &b);
    d1 = subb(s1, P1, b, &b);
    d2 = subb(s2, 0, b, &b);
    d3 = subb(s3, P3, b, &b);
    (void)subb(c, 0, b, &b);  /* b = 1: s < p (no carry out and the subtraction borrowed) */
    limb keep = 0 - b;
    r->v[0] = (s0 & keep) | (d0 & ~keep);
    r->v[1] = (s1 & keep) | (d1 & ~keep);
    r->v[2] = (s2 & keep) | (d2 & ~keep);
    r->v[3] = (s3 & keep) | (d3 & ~keep);
}

/* ---- Products, portable ---- */

INL void mul_portable(fe *r, const fe *a, const fe *b) {
    limb t[8] = {0};
    for (int i = 0; i < 4; i++) {
        limb c = 0;
        for (int j = 0; j < 4; j++) {
            u128 s = (u128)a->v[j] * b->v[i] + t[i + j] + c;
            t[i + j] = (limb)s;
            c = (limb)(s >> 64);
        }
        t[i + 4] = c;
    }
    redc(r, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
}

INL void sqr_portable(fe *r, const fe *a) {
    limb a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    u128 s;
    limb c, t1, t2, t3, t4, t5, t6, t7;
    /* Cross products, limbs 1..6. */
    s = (u128)a0 * a1;            t1 = (limb)s; c = (limb)(s >> 64);
    s = (u128)a0 * a2 + c;        t2 = (limb)s; c = (limb)(s >> 64);
    s = (u128)a0 * a3 + c;        t3 = (limb)s; t4 = (limb)(s >> 64);
    s = (u128)a1 * a2 + t3;       t3 = (limb)s; c = (limb)(s >> 64);
    s = (u128)a1 * a3 + t4 + c;   t4 = (limb)s; t5 = (limb)(s >> 64);
    s = (u128)a2 * a3 + t5;       t5 = (limb)s; t6 = (limb)(s >> 64);
    t7 = t6 >> 63;
    t6 = (t6 << 1) | (t5 >> 63);
    t5 = (t5 << 1) | (t4 >> 63);
    t4 = (t4 << 1) | (t3 >> 63);
    t3 = (t3 << 1) | (t2 >> 63);
    t2 = (t2 << 1) | (t1 >> 63);
    t1 = t1 << 1;
    u128 q0 = (u128)a0 * a0, q1 = (u128)a1 * a1, q2 = (u128)a2 * a2, q3 = (u128)a3 * a3;
    limb t0 = (limb)q0;
    t1 = addc(t1, (limb)(q0 >> 64), 0, &c);
    t2 = addc(t2, (limb)q1, c, &c);
    t3 = addc(t3, (limb)(q1 >> 64), c, &c);
    t4 = addc(t4, (limb)q2, c, &c);
    t5 = addc(t5, (limb)(q2 >> 64), c, &c);
    t6 = addc(t6, (limb)q3, c, &c);
    t7 = t7 + (limb)(q3 >> 64) + c;
    redc(r, t0, t1, t2, t3, t4, t5, t6, t7);
}

/* ---- Products with MULX / ADCX / ADOX (only run after csigil_bignum_mulx_supported()) ---- */

#if defined(__x86_64__)
/* Inlined into the point formulas: the asm statements take a and b as memory operands and
   return the result in registers (10 or 12 registers, no pointers), which leaves the register
   allocator room (an earlier version with pointer operands and stores inside the asm needed
   14 and had to stay out of line, paying a call and 5 pushes/pops per product). No target
   attribute: only the callers that run them need bmi2/adx (the assembler takes the
   instructions anyway). */
#define MX_INLINE __attribute__((always_inline)) static inline
#define MX_SQR __attribute__((noinline)) static
#include "p256_mulx.h"
#define P256_HAVE_MULX 1
#else
#define P256_HAVE_MULX 0
#endif

/* `mx` is a compile-time constant in every caller (the two instantiations of the scalar
   multiplication below), so these select one path without a run-time branch. */
INL void fmul(fe *r, const fe *a, const fe *b, const int mx) {
#if P256_HAVE_MULX
    if (mx) { mul_mulx(r, a, b); return; }
#endif
    (void)mx;
    mul_portable(r, a, b);
}

INL void fsqr(fe *r, const fe *a, const int mx) {
#if P256_HAVE_MULX
    if (mx) { sqr_mulx(r, a); return; }
#endif
    (void)mx;
    sqr_portable(r, a);
}

/* A product kept for fmul_sub: the whole 512-bit product (MULX, optimised builds: p256_mulx.h's
   mul_wide / sqr_wide) or the reduced product in v[0..3] (otherwise). fmul_sub(r, a, b, e) is
   r ≡ a b - e: with the 512-bit e one reduction for both products and no separate subtraction
   (mul_sub_mulx), otherwise a product and fsub. Same residue either way (the representatives
   below 2^256 may differ, which the lazy representation allows). Used where a formula ends in a
   difference of two products: Y3 of the doubling and of both additions. */
typedef struct { limb v[8]; } fkeep;

INL void fmul_keep(fkeep *e, const fe *a, const fe *b, const int mx) {
#if defined(P256_HAVE_MULSUB)
    if (mx) { mul_wide(e->v, a, b); return; }
#endif
    fe t;
    fmul(&t, a, b, mx);
    for (int k = 0; k < 4; k++) e->v[k] = t.v[k];
}

INL void fsqr_keep(fkeep *e, const fe *a, const int mx) {
#if defined(P256_HAVE_MULSUB)
    if (mx) { sqr_wide(e->v, a); return; }
#endif
    fe t;
    fsqr(&t, a, mx);
    for (int k = 0; k < 4; k++) e->v[k] = t.v[k];
}

/* Lazy reduction. Field elements are kept below 2^256 and congruent mod p, not necessarily below
   p (p < 2^256 < 2p): the products return such values (the MULX version subtracts p only when
   the result carried out of 2^256) and accept them, and the sums and differences below need one
   masked correction instead of a comparison with p and a selection. Measured in a C harness:
   the double-scalar multiplication 27.4 -> 25.8 us. Only equality needs care: zero is 0 or p
   (fis_zero; the caller compares the output point through SigilCrypto's lazy-aware equality).

   r ≡ a + b (mod p), below 2^256: with c the carry of a + b, subtract p when c = 1; that leaves
   a + b - p below 2^256 unless the low 256 bits were >= p (the subtraction did not borrow;
   a + b >= 2^256 + p needs a, b both above 2^255 + p/2, about 2^-66 of random pairs), and then
   p is subtracted once more: a + b - 2p < 2^256. The second correction is a branch that is
   never taken in practice.
   r ≡ a - b (mod p), below 2^256: add p when a - b borrowed; a - b + p is still negative only
   when b > a + p (b >= p and a < 2^224), then add p once more. */
#if defined(__x86_64__)
/* In asm: the carry flag decides both corrections; written in C, clang splits the carry chains
   around the rare branch (measured: more instructions than the full reduction). c = carry,
   bw = borrow of the correction: the usual cases have c == bw (m == t1 below), the rare one
   c = 1, bw = 0 for the sum (c = 0 is never followed by a borrow), and the mirror image for the
   difference. */
INL void fadd(fe *r, const fe *a, const fe *b) {
    limb d0 = a->v[0], d1 = a->v[1], d2 = a->v[2], d3 = a->v[3], m, t1, t3;
    __asm__(
        "addq %[b0], %[d0]\n\t"
        "adcq %[b1], %[d1]\n\t"
        "adcq %[b2], %[d2]\n\t"
        "adcq %[b3], %[d3]\n\t"
        "sbbq %[m], %[m]\n\t"              /* m = -c */
        "movq %[m], %[t3]\n\t"
        "andq %[p3], %[t3]\n\t"            /* p3 & m */
        "movl %k[m], %k[t1]\n\t"           /* p1 & m (p1 = 2^32 - 1) */
        "subq %[m], %[d0]\n\t"             /* p0 & m = m */
        "sbbq %[t1], %[d1]\n\t"
        "sbbq $0, %[d2]\n\t"
        "sbbq %[t3], %[d3]\n\t"
        "sbbq %[t1], %[t1]\n\t"            /* -bw */
        "cmpq %[t1], %[m]\n\t"
        "je 1f\n\t"
        "subq $-1, %[d0]\n\t"              /* rare: subtract p again */
        "sbbq %[p1], %[d1]\n\t"
        "sbbq $0, %[d2]\n\t"
        "sbbq %[p3], %[d3]\n\t"
        "1:\n\t"
        : [d0] "+&r"(d0), [d1] "+&r"(d1), [d2] "+&r"(d2), [d3] "+&r"(d3), [m] "=&r"(m), [t1] "=&r"(t1),
          [t3] "=&r"(t3)
        : [b0] "m"(b->v[0]), [b1] "m"(b->v[1]), [b2] "m"(b->v[2]), [b3] "m"(b->v[3]), [p3] "m"(P3), [p1] "m"(P1)
        : "cc");
    r->v[0] = d0; r->v[1] = d1; r->v[2] = d2; r->v[3] = d3;
}

INL void fsub(fe *r, const fe *a, const fe *b) {
    limb d0 = a->v[0], d1 = a->v[1], d2 = a->v[2], d3 = a->v[3], m, t1, t3;
    __asm__(
        "subq %[b0], %[d0]\n\t"
        "sbbq %[b1], %[d1]\n\t"
        "sbbq %[b2], %[d2]\n\t"
        "sbbq %[b3], %[d3]\n\t"
        "sbbq %[m], %[m]\n\t"              /* m = -bw */
        "movq %[m], %[t3]\n\t"
        "andq %[p3], %[t3]\n\t"
        "movl %k[m], %k[t1]\n\t"
        "addq %[m], %[d0]\n\t"
        "adcq %[t1], %[d1]\n\t"
        "adcq $0, %[d2]\n\t"
        "adcq %[t3], %[d3]\n\t"
        "sbbq %[t1], %[t1]\n\t"            /* -c */
        "cmpq %[t1], %[m]\n\t"
        "je 1f\n\t"
        "addq $-1, %[d0]\n\t"              /* rare: add p again */
        "adcq %[p1], %[d1]\n\t"
        "adcq $0, %[d2]\n\t"
        "adcq %[p3], %[d3]\n\t"
        "1:\n\t"
        : [d0] "+&r"(d0), [d1] "+&r"(d1), [d2] "+&r"(d2), [d3] "+&r"(d3), [m] "=&r"(m), [t1] "=&r"(t1),
          [t3] "=&r"(t3)
        : [b0] "m"(b->v[0]), [b1] "m"(b->v[1]), [b2] "m"(b->v[2]), [b3] "m"(b->v[3]), [p3] "m"(P3), [p1] "m"(P1)
        : "cc");
    r->v[0] = d0; r->v[1] = d1; r->v[2] = d2; r->v[3] = d3;
}
#else
INL void fadd(fe *r, const fe *a, const fe *b) {
    limb c, bw, s0, s1, s2, s3;
    s0 = addc(a->v[0], b->v[0], 0, &c);
    s1 = addc(a->v[1], b->v[1], c, &c);
    s2 = addc(a->v[2], b->v[2], c, &c);
    s3 = addc(a->v[3], b->v[3], c, &c);
    limb mask = 0 - c;
    s0 = subb(s0, mask, 0, &bw);
    s1 = subb(s1, P1 & mask, bw, &bw);
    s2 = subb(s2, 0, bw, &bw);
    s3 = subb(s3, P3 & mask, bw, &bw);
    if (__builtin_expect(c & (bw ^ 1), 0)) {
        s0 = subb(s0, P0, 0, &bw);
        s1 = subb(s1, P1, bw, &bw);
        s2 = subb(s2, 0, bw, &bw);
        s3 = subb(s3, P3, bw, &bw);
    }
    r->v[0] = s0; r->v[1] = s1; r->v[2] = s2; r->v[3] = s3;
}

INL void fsub(fe *r, const fe *a, const fe *b) {
    limb bw, c, d0, d1, d2, d3;
    d0 = subb(a->v[0], b->v[0], 0, &bw);
    d1 = subb(a->v[1], b->v[1], bw, &bw);
    d2 = subb(a->v[2], b->v[2], bw, &bw);
    d3 = subb(a->v[3], b->v[3], bw, &bw);
    limb mask = 0 - bw;
    d0 = addc(d0, mask, 0, &c);
    d1 = addc(d1, P1 & mask, c, &c);
    d2 = addc(d2, 0, c, &c);
    d3 = addc(d3, P3 & mask, c, &c);
    if (__builtin_expect(bw & (c ^ 1), 0)) {
        d0 = addc(d0, P0, 0, &c);
        d1 = addc(d1, P1, c, &c);
        d2 = addc(d2, 0, c, &c);
        d3 = addc(d3, P3, c, &c);
    }
    r->v[0] = d0; r->v[1] = d1; r->v[2] = d2; r->v[3] = d3;
}
#endif

/* r ≡ a b - e (see fkeep). r may alias a or b. */
INL void fmul_sub(fe *r, const fe *a, const fe *b, const fkeep *e, const int mx) {
#if defined(P256_HAVE_MULSUB)
    if (mx) { mul_sub_mulx(r, a, b, e->v); return; }
#endif
    fe t, u;
    fmul(&t, a, b, mx);
    for (int k = 0; k < 4; k++) u.v[k] = e->v[k];
    fsub(r, &t, &u);
}

/* a ≡ 0 (mod p): a is 0 or p. */
INL int fis_zero(const fe *a) {
    return ((a->v[0] | a->v[1] | a->v[2] | a->v[3]) == 0) ||
           (a->v[0] == P0 && a->v[1] == P1 && a->v[2] == 0 && a->v[3] == P3);
}

typedef struct { fe x, y, z; } jac;
/* A table entry of Q: Jacobian point with Z^2 and Z^3 cached. */
typedef struct { fe x, y, z, zz, zzz; } qentry;

/* r ≡ a / 2 (mod p), below 2^256 for any a below 2^256: add p when a is odd (the sum, below
   2^256 + p, is even), then shift the 257-bit sum right. */
INL void fhalf(fe *r, const fe *a) {
    limb mask = 0 - (a->v[0] & 1), c, s0, s1, s2, s3;
    s0 = addc(a->v[0], P0 & mask, 0, &c);
    s1 = addc(a->v[1], P1 & mask, c, &c);
    s2 = addc(a->v[2], 0, c, &c);
    s3 = addc(a->v[3], P3 & mask, c, &c);
    r->v[0] = (s0 >> 1) | (s1 << 63);
    r->v[1] = (s1 >> 1) | (s2 << 63);
    r->v[2] = (s2 >> 1) | (s3 << 63);
    r->v[3] = (s3 >> 1) | (c << 63);
}

/* r = 2a, with dz = Z^2 given and zz = Z3^2 returned (r, zz may alias a, dz). Doubling
   infinity (Z = 0, dz = 0) gives Z = 0, zz = 0.
   Z^2 carried between the loop's operations: the doubling's longest chain starts at delta
   (delta -> X +- delta -> alpha -> alpha' -> alpha'^2 -> X3' -> Y3'), and Z3' = Y Z is known
   early, so Z3'^2 is squared here, inside the doubling's out-of-order overlap, for the next
   operation (the next doubling's delta, or the addition's Z1^2; padd_zz and pmadd_zz return
   their Z3^2 likewise) instead of heading the next doubling's chain. Same operations, same
   values; C harness 2026-12: the double-scalar multiplication ~3-4 % faster.
   dbl-2001-b (a = -3): delta = Z^2, gamma = Y^2, beta = X gamma, alpha = 3 (X - delta)(X + delta),
   X3 = alpha^2 - 8 beta, Y3 = alpha (4 beta - X3) - 8 gamma^2, Z3 = 2 Y Z; returned as the same
   point scaled by 1/2 ((X, Y, Z) ~ (X/4, Y/8, Z/2) in Jacobian coordinates):
   alpha' = alpha / 2, X3' = alpha'^2 - 2 beta, Y3' = alpha' (beta - X3') - gamma^2, Z3' = Y Z.
   4M + 4S and 8 additions/subtractions/halvings instead of 14.
   Order of the operations: the loop of doublings is bound by the core's throughput, and the
   products are opaque asm blocks that run in program order as far as the out-of-order window
   (a few products wide) lets them overlap, so the order matters (random dependency-respecting
   orders of these 16 operations span ~13 % of the whole double-scalar multiplication). This
   one came from a hill climb over orders in a C harness (timing the whole u1 G + u2 Q against
   the previous kernel, 2026-12, with the products of p256_mulx.h that reduce after the whole
   512-bit product): the alpha chain (delta -> X +- delta -> alpha -> alpha' -> alpha'^2), the
   longest one inside a doubling, starts first, beta and Y Z fill in behind it, 2 beta and
   gamma^2 just before their use; ~4 % faster than the order tuned for the earlier products
   (gamma first). Every order computes exactly the same values (same operations, same lazily
   reduced results); the results go to r last, so r may alias a. Y3' = alpha' w - gamma^2 with one
   reduction (fmul_sub; gamma^2 kept as its 512-bit square): the same residue, not necessarily
   the same representative below 2^256. */
INL void pdbl_zz(jac *r, fe *zz, const jac *a, const fe *dz, const int mx) {
    fe gamma, beta, beta2, alpha, alphap, half, t, u, t2, x3, w, y3, z3, zz3;
    fkeep g2;
    fadd(&u, &a->x, dz);
    fsub(&t, &a->x, dz);
    fsqr(&gamma, &a->y, mx);
    fmul(&alpha, &t, &u, mx);
    fmul(&beta, &a->x, &gamma, mx);
    fhalf(&half, &alpha);
    fadd(&alphap, &alpha, &half);      /* alpha' = 3 (X - delta)(X + delta) / 2 */
    fmul(&z3, &a->y, &a->z, mx);       /* Z3' = Y Z */
    fsqr(&t2, &alphap, mx);
    fadd(&beta2, &beta, &beta);
    fsub(&x3, &t2, &beta2);            /* X3' = alpha'^2 - 2 beta */
    fsub(&w, &beta, &x3);
    fsqr_keep(&g2, &gamma, mx);
    fsqr(&zz3, &z3, mx);               /* the next doubling's delta, or the addition's Z1^2 */
    fmul_sub(&y3, &w, &alphap, &g2, mx); /* Y3' = alpha' (beta - X3') - gamma^2 */
    r->x = x3; r->y = y3; r->z = z3;   /* r may alias a: written last */
    *zz = zz3;
}

/* r = 2a (r may alias a), Z^2 computed here: the doublings outside the loop (pdbl_rare). */
INL void pdbl(jac *r, const jac *a, const int mx) {
    fe delta, zz;
    fsqr(&delta, &a->z, mx);
    pdbl_zz(r, &zz, a, &delta, mx);    /* zz unused: its square is dead code */
}

/* The doubling inside the additions' exceptional branches (P + P) and for 2Q: out of line, so
   that the hot loop holds one copy of each formula (the whole loop fits the instruction cache). */
__attribute__((noinline)) static void pdbl_rare(jac *r, const jac *a, const int mx) { pdbl(r, a, mx); }

/* r = a + b, b a Q-table entry (never infinity) with y replaced by `by` (b's y or its
   negation), with z1zz = Z1^2 given and zz = Z3^2 returned (see pdbl_zz; zz may alias z1zz).
   negation). add-1998-cmo-2 with Z2^2, Z2^3 cached: 11M + 3S and 7 additions/subtractions.
   r may alias a: every read of a precedes the write of the same coordinate of r. The order
   (like pdbl's, the fastest of the orders tried in the C harness: 162 -> 145 ns, then re-climbed
   for the current products, 2026-12) starts the products of H^2, V, H^3, R^2 before the test for
   the exceptional cases; they are only wasted when the branch (never taken on honest input)
   returns. Y3 = R (V - X3) - S1 H^3 with one reduction (fmul_sub). */
INL void padd_zz(jac *r, fe *zz, const jac *a, const fe *z1zz, const qentry *b, const fe *by, const int mx) {
    if (fis_zero(&a->z)) {
        r->x = b->x; r->y = *by; r->z = b->z;
        *zz = b->zz;
        return;
    }
    fe z1z1 = *z1zz, z1z1z1, u1, u2, s1, s2, h, rr, hh, hhh, v, rr2, zh, t, x3, z3, y3, zz3;
    fkeep s1h3;
    fmul(&u1, &a->x, &b->zz, mx);      /* U1 = X1 Z2^2 */
    fmul(&u2, &b->x, &z1z1, mx);       /* U2 = X2 Z1^2 */
    fmul(&s1, &a->y, &b->zzz, mx);     /* S1 = Y1 Z2^3 */
    fmul(&z1z1z1, &a->z, &z1z1, mx);
    fsub(&h, &u2, &u1);                /* H = U2 - U1 */
    fmul(&s2, by, &z1z1z1, mx);        /* S2 = Y2 Z1^3 */
    fsub(&rr, &s2, &s1);               /* R = S2 - S1 */
    fsqr(&hh, &h, mx);
    fmul(&zh, &a->z, &h, mx);
    fmul(&v, &u1, &hh, mx);            /* V = U1 H^2 */
    fmul(&hhh, &hh, &h, mx);
    fsqr(&rr2, &rr, mx);
    if (fis_zero(&h)) {
        if (fis_zero(&rr)) {
            pdbl_rare(r, a, mx);       /* same point */
            fsqr(zz, &r->z, mx);
        } else {
            r->z = (fe){{0, 0, 0, 0}}; /* a = -b: infinity */
            *zz = r->z;
        }
        return;
    }
    fsub(&t, &rr2, &hhh);
    fsub(&t, &t, &v);
    fsub(&x3, &t, &v);                 /* X3 = R^2 - H^3 - 2V */
    fmul_keep(&s1h3, &s1, &hhh, mx);
    fmul(&z3, &zh, &b->z, mx);         /* Z3 = Z1 Z2 H */
    fsub(&v, &v, &x3);
    fmul_sub(&y3, &rr, &v, &s1h3, mx); /* Y3 = R (V - X3) - S1 H^3 */
    fsqr(&zz3, &z3, mx);               /* last: needed by the next doubling's first operations only */
    r->x = x3; r->y = y3; r->z = z3;   /* r may alias a: written last */
    *zz = zz3;
}

/* r = a + b as padd_zz, Z1^2 computed here (q_table_general). */
INL void padd(jac *r, const jac *a, const qentry *b, const fe *by, const int mx) {
    fe z1z1, zz;
    fsqr(&z1z1, &a->z, mx);
    padd_zz(r, &zz, a, &z1z1, b, by, mx);
}

/* r = a + (qx, qy), an affine point (never infinity), with z1zz = Z1^2 given and zz = Z3^2
   returned (see pdbl_zz; zz may alias z1zz). madd-2004-hmv: 8M + 3S and 7
   additions/subtractions. r may alias a: every read of a precedes the write of the same
   coordinate of r. Order as in padd (harness: 127 -> 119 ns). Y3 = R (V - X3) - Y1 H^3 with one
   reduction (fmul_sub). */
INL void pmadd_zz(jac *r, fe *zz, const jac *a, const fe *z1zz, const fe *qx, const fe *qy, const int mx) {
    if (fis_zero(&a->z)) {
        r->x = *qx; r->y = *qy;
        r->z = (fe){{ONE[0], ONE[1], ONE[2], ONE[3]}};
        *zz = r->z;
        return;
    }
    fe z1z1 = *z1zz, z1z1z1, h, rr, hh, hhh, v, rr2, t;
    fkeep y1h3;
    fmul(&z1z1z1, &a->z, &z1z1, mx);
    fmul(&h, qx, &z1z1, mx);           /* U2 = X2 Z1^2 */
    fsub(&h, &h, &a->x);               /* H = U2 - X1 */
    fmul(&rr, qy, &z1z1z1, mx);        /* S2 = Y2 Z1^3 */
    fsqr(&hh, &h, mx);
    fmul(&hhh, &hh, &h, mx);
    fsub(&rr, &rr, &a->y);             /* R = S2 - Y1 */
    if (fis_zero(&h)) {
        if (fis_zero(&rr)) {
            pdbl_rare(r, a, mx);
            fsqr(zz, &r->z, mx);
        } else {
            r->z = (fe){{0, 0, 0, 0}};
            *zz = r->z;
        }
        return;
    }
    fmul(&v, &a->x, &hh, mx);          /* V = X1 H^2 */
    fsqr(&rr2, &rr, mx);
    fmul_keep(&y1h3, &a->y, &hhh, mx);
    fsub(&t, &rr2, &hhh);
    fsub(&t, &t, &v);
    fsub(&r->x, &t, &v);               /* X3 = R^2 - H^3 - 2V */
    fsub(&v, &v, &r->x);
    fe z3;
    fmul(&z3, &a->z, &h, mx);          /* Z3 = Z1 H */
    fsqr(zz, &z3, mx);
    fmul_sub(&r->y, &rr, &v, &y1h3, mx); /* Y3 = R (V - X3) - Y1 H^3 */
    r->z = z3;
}

#define QTABLE 8  /* odd multiples Q, 3Q, ..., 15Q: the wNAF window of u2 is 5 */

/* The table of Q by general additions of 2Q (handles every exceptional case; q_table's fallback). */
__attribute__((noinline)) static void q_table_general(qentry tab[QTABLE], const limb q[8], const int mx) {
    jac acc, twice;
    for (int k = 0; k < 4; k++) { tab[0].x.v[k] = q[k]; tab[0].y.v[k] = q[4 + k]; tab[0].z.v[k] = ONE[k]; }
    tab[0].zz = tab[0].z;
    tab[0].zzz = tab[0].z;
    acc.x = tab[0].x; acc.y = tab[0].y; acc.z = tab[0].z;
    pdbl_rare(&twice, &acc, mx);
    /* 2Q as a table entry (its Z^2, Z^3 cached) to build 3Q, 5Q, ... by additions. Q has
       prime order n, so no multiple below 16 is infinity or equal to another. */
    qentry two;
    two.x = twice.x; two.y = twice.y; two.z = twice.z;
    fsqr(&two.zz, &two.z, mx);
    fmul(&two.zzz, &two.zz, &two.z, mx);
    for (int k = 1; k < QTABLE; k++) {
        padd(&acc, &acc, &two, &two.y, mx);
        tab[k].x = acc.x; tab[k].y = acc.y; tab[k].z = acc.z;
        fsqr(&tab[k].zz, &acc.z, mx);
        fmul(&tab[k].zzz, &tab[k].zz, &acc.z, mx);
    }
}

/* Builds the table of Q (out of line: runs once per verification): Q (Z = 1), then 3Q, 5Q, ...,
   15Q, each the previous one plus 2Q by a co-Z addition (Meloni 2007, "New point addition
   formulae for ECC applications", ZADDU): when P1 and P2 share Z, with H = X1 - X2,
   C = H^2, W1 = X1 C, W2 = X2 C, A1 = Y1 (W1 - W2): P1 + P2 = ((Y1 - Y2)^2 - W1 - W2,
   (Y1 - Y2)(W1 - X3) - A1, Z H), and (W1, A1, Z H) is P1 again with that same Z, ready for the
   next addition. 5M + 2S per entry instead of 11M + 3S (harness: the table 1.3 -> 0.8 us).
   Q has prime order n (a validated key), so kQ = +-2Q (H = 0) cannot happen for odd k < 15;
   anything else goes to the general additions. */
__attribute__((noinline)) static void q_table(qentry tab[QTABLE], const limb q[8], const int mx) {
    jac acc, d;
    for (int k = 0; k < 4; k++) { tab[0].x.v[k] = q[k]; tab[0].y.v[k] = q[4 + k]; tab[0].z.v[k] = ONE[k]; }
    tab[0].zz = tab[0].z;
    tab[0].zzz = tab[0].z;
    acc.x = tab[0].x; acc.y = tab[0].y; acc.z = tab[0].z;
    pdbl_rare(&d, &acc, mx);           /* D = 2Q */
    fe zz, zzz, c, w1, w2, h, ry, t;
    fsqr(&zz, &d.z, mx);
    fmul(&zzz, &zz, &d.z, mx);
    fmul(&acc.x, &acc.x, &zz, mx);     /* Q with D's Z */
    fmul(&acc.y, &acc.y, &zzz, mx);
    acc.z = d.z;
    for (int k = 1; k < QTABLE; k++) {
        fsub(&h, &d.x, &acc.x);        /* H = X_D - X_acc */
        if (__builtin_expect(fis_zero(&h), 0)) {
            q_table_general(tab, q, mx);
            return;
        }
        fsub(&ry, &d.y, &acc.y);
        fsqr(&c, &h, mx);
        fmul(&w1, &d.x, &c, mx);       /* W1 = X_D C: D's new X */
        fmul(&w2, &acc.x, &c, mx);
        fsub(&t, &w1, &w2);
        fmul(&d.y, &d.y, &t, mx);      /* A1 = Y_D (W1 - W2): D's new Y */
        d.x = w1;
        fmul(&acc.z, &acc.z, &h, mx);  /* Z3 = Z H */
        fsqr(&t, &ry, mx);
        fsub(&t, &t, &w1);
        fsub(&acc.x, &t, &w2);         /* X3 = (Y_D - Y_acc)^2 - W1 - W2 */
        fsub(&t, &w1, &acc.x);
        fmul(&t, &ry, &t, mx);
        fsub(&acc.y, &t, &d.y);        /* Y3 = (Y_D - Y_acc)(W1 - X3) - A1 */
        d.z = acc.z;
        tab[k].x = acc.x; tab[k].y = acc.y; tab[k].z = acc.z;
        fsqr(&tab[k].zz, &acc.z, mx);
        fmul(&tab[k].zzz, &tab[k].zz, &acc.z, mx);
    }
}

#include "p256_gtable.h"

/* Width-w NAF of the scalar k < 2^256 (HMV algorithm 3.35, computed by reading windows of bits in
   place with a carry, as libsecp256k1 does, instead of shifting the whole number once per bit):
   digits 0 or odd with |d| < 2^(w-1), least significant first, at most one non-zero digit in any
   w consecutive ones; k < 2^256 needs at most 257 digits, no carry is left. The number of
   digits up to the last non-zero one is last + 1 (0 for k = 0). Variable time (public scalars).
   A bit equal to the carry gives a zero digit and leaves the carry as it is (0 + 0, or 1 + 1
   carried on), so a whole run of them is skipped at once: the trailing zeros of the next 64
   bits XOR the carry's mask. One step (a skip and, unless the run reached past the window's
   reliable part, a digit) per call; mul_public runs the two scalars' steps interleaved (two
   independent chains). Measured (C, 2026-12, u1 with w = 10 and u2 with w = 5): 721 -> 269 ns
   for random scalars; a fixed scalar, whose bit-by-bit branches the predictor learns (as in a
   benchmark repeating one signature), 220 -> 245 ns. Same digits as the bit-by-bit version (C
   comparison over 14 M scalar and width pairs, edge patterns included). */
typedef struct { limb k[6]; short *out; int w, carry, pos, last; } wnaf_state;

static void wnaf_init(wnaf_state *s, short out[257], const limb k[4], int w) {
    for (int i = 0; i < 4; i++) s->k[i] = k[i];
    s->k[4] = 0;                       /* padding: the windows read up to limb 5 */
    s->k[5] = 0;
    for (int i = 0; i < 257; i++) out[i] = 0;
    s->out = out;
    s->w = w;
    s->carry = 0;
    s->pos = 0;
    s->last = -1;
}

INL void wnaf_step(wnaf_state *s) {
    int pos = s->pos;
    if (pos >= 257) return;
    int li = pos >> 6, off = pos & 63;
    /* bits pos .. pos + 63 (the double shift is 0 for off = 0) */
    limb v = (s->k[li] >> off) | ((s->k[li + 1] << 1) << (63 - off));
    limb run = v ^ (0 - (limb)s->carry); /* bits that differ from the carry */
    int z = run ? __builtin_ctzl(run) : 64;
    if (z > 64 - 16) {                 /* the digit's w <= 15 bits may leave the window: reread */
        s->pos = pos + z;
        return;
    }
    pos += z;
    if (pos >= 257) {
        s->pos = pos;
        return;
    }
    v >>= z;
    int w = s->w;
    int now = 257 - pos < w ? 257 - pos : w;
    int word = (int)(v & ((1UL << now) - 1)) + s->carry;
    s->carry = (word >> (w - 1)) & 1;
    word -= s->carry << w;
    s->out[pos] = (short)word;
    s->last = pos;
    s->pos = pos + now;
}

static size_t wnaf(short out[257], const limb k[4], int w) {
    wnaf_state s;
    wnaf_init(&s, out, k, w);
    while (s.pos < 257) wnaf_step(&s);
    return (size_t)(s.last + 1);
}

INL int mul_public(limb out[12], fe *zz_out, const limb u1[4], const limb u2[4], const limb q[8], const int mx) {
    qentry tab[QTABLE];
    jac acc;
    short d1[257], d2[257];
    wnaf_state n1, n2;
    wnaf_init(&n1, d1, u1, P256_GWINDOW);
    wnaf_init(&n2, d2, u2, 5);
    while (n1.pos < 257 || n2.pos < 257) {
        wnaf_step(&n1);
        wnaf_step(&n2);
    }
    size_t len1 = (size_t)(n1.last + 1), len2 = (size_t)(n2.last + 1);
    q_table(tab, q, mx);
    /* Interleaved wNAF (Shamir's trick, HMV algorithm 3.51): one chain of doublings. One call
       site per formula keeps the loop small. */
    acc.z = (fe){{0, 0, 0, 0}};
    fe zz = acc.z;                     /* Z(acc)^2 */
    int started = 0;
    size_t len = len1 > len2 ? len1 : len2;
    const fe zero = {{0, 0, 0, 0}};
    for (size_t i = len; i-- > 0;) {
        if (started) pdbl_zz(&acc, &zz, &acc, &zz, mx);
        /* Up to two mixed additions of affine points: +-G multiples, and +-Q itself (the
           table's entry 0 has Z = 1: digit +-1 of u2, about an eighth of its digits, costs a
           mixed addition, 8M + 3S, instead of 11M + 3S). Copied to px, py so that one call
           site of pmadd_zz serves both. */
        fe px[2], py[2];
        int np = 0;
        int a = d2[i];
        if (a != 0) {
            int ai = (a < 0 ? -a : a) >> 1;
            const qentry *e = &tab[ai];
            if (ai == 0) {
                px[0] = e->x;
                py[0] = e->y;
                if (a < 0) fsub(&py[0], &zero, &py[0]);
                np = 1;
            } else {
                fe ny;
                const fe *y = &e->y;
                if (a < 0) {
                    fsub(&ny, &zero, &e->y);
                    y = &ny;
                }
                padd_zz(&acc, &zz, &acc, &zz, e, y, mx);
                started = 1;
            }
        }
        int b = d1[i];
        if (b != 0) {
            const limb *g = P256_GTABLE[(b < 0 ? -b : b) >> 1];
            for (int k = 0; k < 4; k++) { px[np].v[k] = g[k]; py[np].v[k] = g[4 + k]; }
            if (b < 0) fsub(&py[np], &zero, &py[np]);
            np++;
        }
        for (int k = 0; k < np; k++) {
            pmadd_zz(&acc, &zz, &acc, &zz, &px[k], &py[k], mx);
            started = 1;
        }
    }
    for (int k = 0; k < 4; k++) { out[k] = acc.x.v[k]; out[4 + k] = acc.y.v[k]; out[8 + k] = acc.z.v[k]; }
    *zz_out = zz;                      /* Z^2, carried through the loop */
    return !fis_zero(&acc.z);
}

static const limb RR[4] = {0x0000000000000003UL, 0xfffffffbffffffffUL, 0xfffffffffffffffeUL, 0x00000004fffffffdUL}; /* R^2 mod p */
static const limb NN[4] = {0xf3b9cac2fc632551UL, 0xbce6faada7179e84UL, 0xffffffffffffffffUL, 0xffffffff00000000UL}; /* n */

/* a - p when a >= p (a below 2^256 < 2p). */
INL void fcanon(fe *a) {
    limb b, d0, d1, d2, d3;
    d0 = subb(a->v[0], P0, 0, &b);
    d1 = subb(a->v[1], P1, b, &b);
    d2 = subb(a->v[2], 0, b, &b);
    d3 = subb(a->v[3], P3, b, &b);
    if (!b) { a->v[0] = d0; a->v[1] = d1; a->v[2] = d2; a->v[3] = d3; }
}

#if P256_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static int mul_public_mulx(limb out[12], fe *zz, const limb u1[4], const limb u2[4], const limb q[8]) {
    return mul_public(out, zz, u1, u2, q, 1);
}
#endif

__attribute__((noinline))
static int mul_public_portable(limb out[12], fe *zz, const limb u1[4], const limb u2[4], const limb q[8]) {
    return mul_public(out, zz, u1, u2, q, 0);
}

/* csigil_p256_verify: Q into Montgomery form below p, R = u1 G + u2 Q, then the comparison of
   X with c Z^2 for c = r and, when r + n < p, c = r + n (SEC 1 §4.1.4 step 8 without the
   inversion of Z; Z^2 comes from the loop). */
INL int verify(const limb u1[4], const limb u2[4], const limb q[8], const limb r[4], const int mx) {
    fe x, y, rr, t, d;
    const fe r2 = {{RR[0], RR[1], RR[2], RR[3]}};
    for (int k = 0; k < 4; k++) { x.v[k] = q[k]; y.v[k] = q[4 + k]; }
    fmul(&x, &x, &r2, mx);             /* inputs below p: congruent, below 2^256 */
    fmul(&y, &y, &r2, mx);
    fcanon(&x);
    fcanon(&y);
    limb qm[8], out[12];
    for (int k = 0; k < 4; k++) { qm[k] = x.v[k]; qm[4 + k] = y.v[k]; }
    fe zz;
    int finite;
#if P256_HAVE_MULX
    if (mx) finite = mul_public_mulx(out, &zz, u1, u2, qm);
    else
#endif
        finite = mul_public_portable(out, &zz, u1, u2, qm);
    if (!finite) return 0;             /* step 7: R at infinity */
    fe X = {{out[0], out[1], out[2], out[3]}};
    for (int k = 0; k < 4; k++) rr.v[k] = r[k];
    fmul(&rr, &rr, &r2, mx);
    fmul(&t, &rr, &zz, mx);
    fsub(&d, &t, &X);
    if (fis_zero(&d)) return 1;
    /* r + n, when below p (then also below 2^256) */
    limb c, s0, s1, s2, s3, b;
    s0 = addc(r[0], NN[0], 0, &c);
    s1 = addc(r[1], NN[1], c, &c);
    s2 = addc(r[2], NN[2], c, &c);
    s3 = addc(r[3], NN[3], c, &c);
    if (c) return 0;
    (void)subb(s0, P0, 0, &b);
    (void)subb(s1, P1, b, &b);
    (void)subb(s2, 0, b, &b);
    (void)subb(s3, P3, b, &b);
    if (!b) return 0;                  /* r + n >= p */
    rr.v[0] = s0; rr.v[1] = s1; rr.v[2] = s2; rr.v[3] = s3;
    fmul(&rr, &rr, &r2, mx);
    fmul(&t, &rr, &zz, mx);
    fsub(&d, &t, &X);
    return fis_zero(&d);
}

#if P256_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static int verify_mulx(const limb u1[4], const limb u2[4], const limb q[8], const limb r[4]) {
    return verify(u1, u2, q, r, 1);
}
#endif

__attribute__((noinline))
static int verify_portable(const limb u1[4], const limb u2[4], const limb q[8], const limb r[4]) {
    return verify(u1, u2, q, r, 0);
}

int csigil_p256_verify(const csigil_limb u1[4], const csigil_limb u2[4], const csigil_limb q[8],
                       const csigil_limb r[4], int use_mulx) {
#if P256_HAVE_MULX
    if (use_mulx && csigil_bignum_mulx_supported()) return verify_mulx(u1, u2, q, r);
#endif
    (void)use_mulx;
    return verify_portable(u1, u2, q, r);
}

/* SEC 1 §3.2.2.1 step 3 for P-256: y^2 == x^3 - 3x + b (mod p), for x, y below p (the caller
   checks the range, steps 1-2), plain integers in; the public key's validation. Variable time
   (a public key). */
static const limb BMONT[4] = {0xd89cdf6229c4bddfUL, 0xacf005cd78843090UL, 0xe5a220abf7212ed6UL, 0xdc30061d04874834UL}; /* b R mod p */

INL int on_curve(const limb xin[4], const limb yin[4], const int mx) {
    fe x, y, t, u, rhs;
    const fe r2 = {{RR[0], RR[1], RR[2], RR[3]}}, b = {{BMONT[0], BMONT[1], BMONT[2], BMONT[3]}};
    for (int k = 0; k < 4; k++) { x.v[k] = xin[k]; y.v[k] = yin[k]; }
    fmul(&x, &x, &r2, mx);             /* Montgomery form (lazily reduced, congruent) */
    fmul(&y, &y, &r2, mx);
    fsqr(&t, &x, mx);
    fmul(&rhs, &t, &x, mx);            /* x^3 */
    fadd(&u, &x, &x);
    fadd(&u, &u, &x);
    fsub(&rhs, &rhs, &u);              /* x^3 - 3x */
    fadd(&rhs, &rhs, &b);
    fsqr(&t, &y, mx);
    fsub(&t, &t, &rhs);
    return fis_zero(&t);               /* 0 or p */
}

#if P256_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static int on_curve_mulx(const limb x[4], const limb y[4]) { return on_curve(x, y, 1); }
#endif

int csigil_p256_on_curve(const csigil_limb x[4], const csigil_limb y[4], int use_mulx) {
#if P256_HAVE_MULX
    if (use_mulx && csigil_bignum_mulx_supported()) return on_curve_mulx(x, y);
#endif
    (void)use_mulx;
    return on_curve(x, y, 0);
}

int csigil_p256_mul_public(csigil_limb out[12], const csigil_limb u1[4], const csigil_limb u2[4],
                           const csigil_limb q[8], int use_mulx) {
#if P256_HAVE_MULX
    fe zz;
    if (use_mulx && csigil_bignum_mulx_supported()) return mul_public_mulx(out, &zz, u1, u2, q);
#endif
    (void)use_mulx;
    fe zz2;
    return mul_public_portable(out, &zz2, u1, u2, q);
}

const csigil_limb *csigil_p256_gtable(size_t *count, int *window) {
    *count = sizeof P256_GTABLE / sizeof P256_GTABLE[0];
    *window = P256_GWINDOW;
    return &P256_GTABLE[0][0];
}

size_t csigil_p256_wnaf(short out[257], const csigil_limb k[4], int w) {
    if (w < 2 || w > 15) return 0;
    return wnaf(out, k, w);
}

/* Single field operations, for the tests (not on the hot path). */
/* op 5: a b - b^2 (the square kept: sqr_wide), op 6: a^2 - a b (the product kept: mul_wide). */
INL void fmulsub_op(fe *r, const fe *a, const fe *b, int op, const int mx) {
    fkeep e;
    if (op == 5) {
        fsqr_keep(&e, b, mx);
        fmul_sub(r, a, b, &e, mx);
    } else {
        fmul_keep(&e, a, b, mx);
        fmul_sub(r, a, a, &e, mx);
    }
}

#if P256_HAVE_MULX
__attribute__((target("bmi2,adx"), noinline))
static void fmul_mulx_entry(fe *r, const fe *a, const fe *b) { fmul(r, a, b, 1); }
__attribute__((target("bmi2,adx"), noinline))
static void fsqr_mulx_entry(fe *r, const fe *a) { fsqr(r, a, 1); }
__attribute__((target("bmi2,adx"), noinline))
static void fmulsub_mulx_entry(fe *r, const fe *a, const fe *b, int op) { fmulsub_op(r, a, b, op, 1); }
#endif

void csigil_p256_field_op(int op, csigil_limb r[4], const csigil_limb a[4], const csigil_limb b[4], int use_mulx) {
    fe x, y, z;
    for (int k = 0; k < 4; k++) { x.v[k] = a[k]; y.v[k] = b[k]; }
    int mx = 0;
#if P256_HAVE_MULX
    mx = use_mulx && csigil_bignum_mulx_supported();
#endif
    (void)use_mulx;
    (void)mx;
    switch (op) {
    case 0:
#if P256_HAVE_MULX
        if (mx) { fmul_mulx_entry(&z, &x, &y); break; }
#endif
        fmul(&z, &x, &y, 0);
        break;
    case 1:
#if P256_HAVE_MULX
        if (mx) { fsqr_mulx_entry(&z, &x); break; }
#endif
        fsqr(&z, &x, 0);
        break;
    case 5:
    case 6:
#if P256_HAVE_MULX
        if (mx) { fmulsub_mulx_entry(&z, &x, &y, op); break; }
#endif
        fmulsub_op(&z, &x, &y, op, 0);
        break;
    case 2: fadd(&z, &x, &y); break;
    case 3: fsub(&z, &x, &y); break;
    default: fhalf(&z, &x); break;
    }
    for (int k = 0; k < 4; k++) r[k] = z.v[k];
}
