/* blockcrypt x86-64: SM3 with the message expansion in AVX and the rounds in BMI2 (driver sm3-avx). CPU: AVX, BMI2.
 * GB/T 32905-2016 (SM3 cryptographic hash algorithm), sections 5.3.2 (expansion) and 5.3.3 (compression). */
#include <immintrin.h>

#include "drivers.h"
#include "../../hash/md32.h"
#include "../../hash/sm3.h"

/* x86-64 only: a round keeps eight state words and three temporaries in
 * general registers, more than i386 has. */
#if defined(__x86_64__)

#define BC_X86_AVX_BMI2 __attribute__((target("avx,bmi2")))
#define INLINE static inline __attribute__((always_inline))

INLINE BC_X86_AVX_BMI2 __m128i rol128(__m128i x, int n)
{
	return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n));
}

INLINE BC_X86_AVX_BMI2 __m128i p1_128(__m128i x)
{
	return _mm_xor_si128(_mm_xor_si128(x, rol128(x, 15)), rol128(x, 23));
}

/* The expanded message of one block: W_0..W_67 and W'_j = W_j ^ W_(j+4). */
struct sm3_w {
	uint32_t w[68];
	uint32_t wp[64];
};

/* Words 0..15 of block p into x[0..3] and m, with W'_0..W'_11. */
INLINE BC_X86_AVX_BMI2 void expand_load(__m128i x[17], struct sm3_w *m, const uint8_t *p)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);

	for (int i = 0; i < 4; i++) {
		x[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
		_mm_storeu_si128((__m128i *)(m->w + 4 * i), x[i]);
		if (i)
			_mm_storeu_si128((__m128i *)(m->wp + 4 * (i - 1)), _mm_xor_si128(x[i - 1], x[i]));
	}
}

/* W_j..W_(j+3) for j = 4i (4 <= i < 17), and W'_(j-4)..W'_(j-1). They need
 * W_(j-3)..W_j, the last of which is being made: the four lanes are
 * computed with 0 in place of W_j, then, P1 being linear over XOR, lane 3
 * gets P1(W_j <<< 15) XORed in once lane 0 is known. */
INLINE BC_X86_AVX_BMI2 void expand_step(__m128i x[17], struct sm3_w *m, int i)
{
	/* Word offsets j-16, j-13, j-9, j-6 and j-3 from x[i-4..i-1]. */
	__m128i w16 = x[i - 4];
	__m128i w13 = _mm_alignr_epi8(x[i - 3], x[i - 4], 12);
	__m128i w9 = _mm_alignr_epi8(x[i - 2], x[i - 3], 12);
	__m128i w6 = _mm_alignr_epi8(x[i - 1], x[i - 2], 8);
	__m128i w3 = _mm_srli_si128(x[i - 1], 4);             /* W_(j-3..j-1), 0 */
	__m128i t = p1_128(_mm_xor_si128(_mm_xor_si128(w16, w9), rol128(w3, 15)));

	t = _mm_xor_si128(_mm_xor_si128(t, rol128(w13, 7)), w6);
	x[i] = _mm_xor_si128(t, p1_128(rol128(_mm_slli_si128(t, 12), 15)));
	_mm_storeu_si128((__m128i *)(m->w + 4 * i), x[i]);
	_mm_storeu_si128((__m128i *)(m->wp + 4 * (i - 1)), _mm_xor_si128(x[i - 1], x[i]));
}

/* One round (5.3.3) in fixed instructions, with the registers renamed
 * rather than shifted along (B, D, F and H change). The round's critical
 * path runs from E through SS1 and TT2 to P0; written in C, gcc's grouping
 * of the sums and its three-operand LEA (2 cycles on Zen) make it about a
 * cycle and a half longer than this order: A <<< 12 plus T_j first, then
 * + E and <<< 7 (SS1); H + W_j + GG before SS1 is added; P0 as two RORX
 * and two XORs. GG and FF leave their value in t3 (FF may use t2). */
#define GG0 "mov %[Rf], %[t3]\n\txor %[Rg], %[t3]\n\txor %[Re], %[t3]\n\t"
#define GG1 "mov %[Rf], %[t3]\n\txor %[Rg], %[t3]\n\tand %[Re], %[t3]\n\txor %[Rg], %[t3]\n\t"
#define FF0 "mov %[Ra], %[t3]\n\txor %[Rb], %[t3]\n\txor %[Rc], %[t3]\n\t"
#define FF1 "mov %[Ra], %[t3]\n\tor %[Rb], %[t3]\n\tand %[Rc], %[t3]\n\t" \
            "mov %[Ra], %[t2]\n\tand %[Rb], %[t2]\n\tor %[t2], %[t3]\n\t"
#define ROUND(a, b, c, d, e, f, g, h, j, GG, FF) do {                                                   \
		uint32_t t1_, t2_, t3_;                                                                  \
		__asm__("rorx $20, %[Ra], %[t1]\n\t"          /* A <<< 12 */                            \
		        "mov %[t1], %[t2]\n\t"                                                           \
		        "add %[T], %[t2]\n\t"                                                            \
		        "add %[Re], %[t2]\n\t"                                                           \
		        "rorx $25, %[t2], %[t2]\n\t"          /* SS1 */                                 \
		        "add %[W], %[Rh]\n\t"                                                            \
		        GG                                                                               \
		        "add %[t3], %[Rh]\n\t"                                                           \
		        "add %[t2], %[Rh]\n\t"                /* TT2 */                                 \
		        "xor %[t2], %[t1]\n\t"                /* SS2 */                                 \
		        "rorx $23, %[Rh], %[t2]\n\t"                                                     \
		        "rorx $15, %[Rh], %[t3]\n\t"                                                     \
		        "xor %[t2], %[Rh]\n\t"                                                           \
		        "xor %[t3], %[Rh]\n\t"                /* P0(TT2) */                             \
		        "add %[WP], %[Rd]\n\t"                                                           \
		        FF                                                                               \
		        "add %[t3], %[Rd]\n\t"                                                           \
		        "add %[t1], %[Rd]\n\t"                /* TT1 */                                 \
		        "rorx $23, %[Rb], %[Rb]\n\t"          /* B <<< 9 */                             \
		        "rorx $13, %[Rf], %[Rf]"               /* F <<< 19 */                            \
		        : [Rb] "+r"(b), [Rd] "+r"(d), [Rf] "+r"(f), [Rh] "+r"(h),                        \
		          [t1] "=&r"(t1_), [t2] "=&r"(t2_), [t3] "=&r"(t3_)                              \
		        : [Ra] "r"(a), [Rc] "r"(c), [Re] "r"(e), [Rg] "r"(g),                            \
		          [W] "m"(m->w[j]), [WP] "m"(m->wp[j]), [T] "m"(bc_sm3_t[j]));                   \
	} while (0)

#define ROUNDS4(j, GG, FF)                                      \
	ROUND(a, b, c, d, e, f, g, h, (j) + 0, GG, FF);         \
	ROUND(d, a, b, c, h, e, f, g, (j) + 1, GG, FF);         \
	ROUND(c, d, a, b, g, h, e, f, (j) + 2, GG, FF);         \
	ROUND(b, c, d, a, f, g, h, e, (j) + 3, GG, FF)

/* The 64 rounds of one block from m. With next, the next block (p) is
 * expanded in between: the expansion is a chain of dependent vector steps,
 * and run on its own before the rounds it would add its latency to every
 * block. (Expanded into the same block's rounds it is no better: a round
 * would then read words just stored from a vector, which the store buffer
 * does not forward to 4-byte loads at every offset.) */
INLINE BC_X86_AVX_BMI2 void rounds(uint32_t st[8], const struct sm3_w *m, struct sm3_w *next, const uint8_t *p)
{
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
	__m128i x[17];

	if (next)
		expand_load(x, next, p);
#pragma GCC unroll 16
	for (int j = 0; j < 64; j += 4) {
		if (j < 16) {
			ROUNDS4(j, GG0, FF0);
		} else {
			ROUNDS4(j, GG1, FF1);
		}
		if (next && j < 52)
			expand_step(x, next, 4 + j / 4);
	}
	st[0] ^= a; st[1] ^= b; st[2] ^= c; st[3] ^= d;
	st[4] ^= e; st[5] ^= f; st[6] ^= g; st[7] ^= h;
}

static BC_X86_AVX_BMI2 void rounds_only(uint32_t st[8], const struct sm3_w *m)
{
	rounds(st, m, NULL, NULL);
}

static BC_X86_AVX_BMI2 void rounds_and_expand(uint32_t st[8], const struct sm3_w *m, struct sm3_w *next,
                                              const uint8_t *p)
{
	rounds(st, m, next, p);
}

/* A single block (every short message, and every final) goes to the
 * portable code, whose expansion runs inside the rounds: here the first
 * block's expansion cannot overlap anything. */
static BC_X86_AVX_BMI2 void sm3_avx_compress(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	struct sm3_w m[2];
	__m128i x[17];
	int cur = 0;

	if (nblocks < 2) {
		bc_sm3_compress_generic(st, p, nblocks);
		return;
	}
	expand_load(x, &m[0], p);
	for (int i = 4; i < 17; i++)
		expand_step(x, &m[0], i);
	for (; nblocks; nblocks--, p += 64) {
		/* The expansion's stores must reach memory: the rounds read the words there. */
		__asm__("" : : "r"(m) : "memory");
		if (nblocks > 1)
			rounds_and_expand(st, &m[cur], &m[cur ^ 1], p + 64);
		else
			rounds_only(st, &m[cur]);
		cur ^= 1;
	}
	/* The message may be key material. */
	bc_wipe(m, sizeof(m));
}

/* Priority below sm3-generic's: on the AMD Zen 5 it was measured on, the
 * rounds are latency-bound (7 cycles from E to P0) and the portable code
 * already hides its scalar expansion in their idle slots, so moving the
 * expansion to vectors gains nothing there (best-case timings 3 % ahead,
 * bench-peers 5-10 % behind). It stays reachable by name, and tested, for
 * CPUs with fewer integer ports, where the expansion competes with them. */
BC_MD32_SHASH(sm3_avx, "sm3", "sm3-avx", 90, BC_CPU_AVX | BC_CPU_BMI2, bc_sm3_iv, sm3_avx_compress);

#endif
