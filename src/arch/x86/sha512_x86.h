/* blockcrypt x86: the SHA-512 compression of the drivers that schedule two blocks in ymm (sha512-avx2, sha512-avx512).
 * FIPS 180-4, sections 4.1.3 (functions), 6.4.2 (schedule and rounds); the pairs of blocks as sha_avx2.h. */
#ifndef BC_SHA512_X86_H
#define BC_SHA512_X86_H

/* A template, included once by each driver: the drivers differ only in the
 * vector instructions of the schedule, which the includer defines first,
 * with its target attribute BC_X86_AVX2_BMI2 (at least avx2, bmi, bmi2):
 *   sha512x_ror(x, n)       each 64-bit lane of x rotated right by n (a constant)
 *   sha512x_xor3(a, b, c)   a ^ b ^ c
 * This file defines sha512x_compress(st, p, nblocks) over them: the rounds in
 * BMI instructions, the next pair's schedule in between. */
#include <immintrin.h>

#include "sha_avx2.h"
#include "../../hash/sha512.h"

#define SHA512X_INLINE static inline __attribute__((always_inline))

SHA512X_INLINE BC_X86_AVX2_BMI2 __m256i ssig0_256(__m256i x)
{
	return sha512x_xor3(sha512x_ror(x, 1), sha512x_ror(x, 8), _mm256_srli_epi64(x, 7));
}

SHA512X_INLINE BC_X86_AVX2_BMI2 __m256i ssig1_256(__m256i x)
{
	return sha512x_xor3(sha512x_ror(x, 19), sha512x_ror(x, 61), _mm256_srli_epi64(x, 6));
}

/* W[t], W[t+1] of both blocks (one per 128-bit lane) from the sixteen words
 * before, x[k % 8] holding W[2k], W[2k+1]: sigma1 needs W[t-2], W[t-1], the
 * vector just made, so no step waits on its own result (SHA-256's does). */
SHA512X_INLINE BC_X86_AVX2_BMI2 __m256i sched2(const __m256i x[8], int i)
{
	__m256i w = _mm256_add_epi64(x[i % 8], _mm256_alignr_epi8(x[(i + 5) % 8], x[(i + 4) % 8], 8)); /* + W[t-7..t-6] */

	w = _mm256_add_epi64(w, ssig0_256(_mm256_alignr_epi8(x[(i + 1) % 8], x[i % 8], 8)));         /* + s0(W[t-15..]) */
	return _mm256_add_epi64(w, ssig1_256(x[(i + 7) % 8]));                                         /* + s1(W[t-2..]) */
}

/* W[t] + K[t] of a pair of blocks: words t, t+1 of the first block, then the
 * same of the second, for each t = 0, 2, ... 78. */
struct wk_pair {
	uint64_t v[160];
};

SHA512X_INLINE BC_X86_AVX2_BMI2 void store_wk(struct wk_pair *wk, int i, __m256i w)
{
	__m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(bc_sha512_k + 2 * i)));

	_mm256_storeu_si256((__m256i *)(wk->v + 4 * i), _mm256_add_epi64(w, k));
}

/* Words 0..15 of blocks p0 and p1 into x[0..7] and wk. */
SHA512X_INLINE BC_X86_AVX2_BMI2 void sched_load(__m256i x[8], struct wk_pair *wk, const uint8_t *p0, const uint8_t *p1)
{
	const __m256i bswap = _mm256_broadcastsi128_si256(
		_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));

	for (int i = 0; i < 8; i++) {
		__m256i m = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + 16 * i))),
		                                    _mm_loadu_si128((const __m128i *)(p1 + 16 * i)), 1);
		x[i] = _mm256_shuffle_epi8(m, bswap);
		store_wk(wk, i, x[i]);
	}
}

/* Words 2i, 2i+1 (8 <= i < 40); x[i % 8] held words 2i-16, 2i-15. */
SHA512X_INLINE BC_X86_AVX2_BMI2 void sched_step(__m256i x[8], struct wk_pair *wk, int i)
{
	x[i % 8] = sched2(x, i);
	store_wk(wk, i, x[i % 8]);
}

/* One round as BC_SHA512_ROUND, the sums ordered for the two chains a round
 * waits on. h + wk and d + h + wk need nothing of this round; Ch(e, f, g) is
 * (e & f) + (~e & g) (the two never share a bit, the same truth table as
 * 4.1.3: AND and ANDN side by side instead of three dependent operations), so
 * the new e, d + T1, is two additions after Sigma1(e) instead of three.
 * One addition more than BC_SHA512_ROUND (25 instructions a round as gcc
 * 12 emits it, 6 of them RORX); the portable code, without ANDN, loses by
 * it. On a Xeon (family 6 model 207) the 80 rounds alone take 6.9 cycles a
 * round, 7.45 in BC_SHA512_ROUND's order: the dependency floor is 4 to 5
 * (Sigma1 and one addition; three RORX of one input on two ports already
 * take 3.9 cycles, not 3), and the rest is port contention. */
#define SHA512X_ROUND(a, b, c, d, e, f, g, h, wk) do {                                        \
		uint64_t t1_ = (h) + (wk), e_ = (d) + t1_;                                     \
		uint64_t ch_ = ((e) & (f)) + (~(e) & (g)), s1_ = BC_SHA512_BSIG1(e);           \
		uint64_t ab_ = (a) ^ (b);                                                      \
		t1_ += ch_;                                                                    \
		e_ += ch_;                                                                     \
		t1_ += s1_;                                                                    \
		(d) = e_ + s1_;                                                                \
		(h) = t1_ + ((b) ^ (ab_ & bc)) + BC_SHA512_BSIG0(a);                           \
		bc = ab_;                                                                      \
	} while (0)

/* The 80 rounds of one block from wk (a wk_pair's v or v + 2). With next,
 * the schedule of the next pair (p0, p1) is made in between, four steps
 * after each of the first eight groups of eight rounds. Both loops are
 * unrolled in full, so that x stays in registers (indexed by a variable, it
 * went through the stack: 5.2 cycles/byte, not 4.8). */
SHA512X_INLINE BC_X86_AVX2_BMI2 void rounds(uint64_t st[8], const uint64_t *wk, struct wk_pair *next,
                                            const uint8_t *p0, const uint8_t *p1)
{
	uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint64_t e = st[4], f = st[5], g = st[6], h = st[7], bc = b ^ c;
	__m256i x[8];

	if (next)
		sched_load(x, next, p0, p1);
#define WK(i) wk[((i) >> 1) * 4 + ((i) & 1)]
#pragma GCC unroll 10
	for (int i = 0; i < 10; i++) {
		BC_SHA512_ROUNDS8_OF(SHA512X_ROUND, 8 * i, WK);
		if (next && i < 8)
#pragma GCC unroll 4
			for (int j = 0; j < 4; j++)
				sched_step(x, next, 8 + 4 * i + j);
	}
#undef WK
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/* Single blocks: the rounds above with the schedule made as they go, in
 * general registers (the portable code's, sha512.h). */
static BC_X86_AVX2_BMI2 void sha512x_blocks(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
	BC_SHA512_COMPRESS_BODY(SHA512X_ROUND);
}

/* compress: pairs of blocks through the rounds above (sha_avx2.h). */
BC_SHA_AVX2_PAIRS(sha512x_compress, uint64_t, 128, 8, 8, 40, 2, sha512x_blocks)

#endif
