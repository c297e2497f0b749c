/* blockcrypt x86: SHA-1 with the message schedule of two blocks in AVX2 and the rounds in BMI2 (driver sha1-avx2).
 * CPU: AVX2, BMI2. FIPS 180-4 section 6.1.2; the schedule as sha256-avx2's, four words per step. */
#include <immintrin.h>

#include "drivers.h"
#include "sha_avx2.h"
#include "../../hash/md32.h"
#include "../../hash/sha1.h"

#define BC_X86_AVX2_BMI2 __attribute__((target("avx2,bmi2")))
#define INLINE static inline __attribute__((always_inline))

INLINE BC_X86_AVX2_BMI2 __m256i rol1_256(__m256i x)
{
	return _mm256_or_si256(_mm256_slli_epi32(x, 1), _mm256_srli_epi32(x, 31));
}

/* W[t..t+3] of both blocks (one per 128-bit lane) from x0 = W[t-16..t-13],
 * x1, x2 and x3 = W[t-4..t-1]: W[t-3] comes from x3 for the first three;
 * the fourth needs W[t], made here, so its share rol1(W[t]) is XORed in
 * after (the rotate distributes over XOR). */
INLINE BC_X86_AVX2_BMI2 __m256i sched4(__m256i x0, __m256i x1, __m256i x2, __m256i x3)
{
	__m256i t = _mm256_xor_si256(_mm256_xor_si256(x0, _mm256_alignr_epi8(x1, x0, 8)),
	                             _mm256_xor_si256(x2, _mm256_srli_si256(x3, 4)));
	__m256i w = rol1_256(t);

	return _mm256_xor_si256(w, rol1_256(_mm256_slli_si256(w, 12)));
}

/* W[t] + K_t of a pair of blocks: words t..t+3 of the first block, then the
 * same of the second, for each t = 0, 4, ... 76. */
struct wk_pair {
	uint32_t v[160];
};

INLINE BC_X86_AVX2_BMI2 void store_wk(struct wk_pair *wk, int i, __m256i w)
{
	static const uint32_t k[4] = { BC_SHA1_K0, BC_SHA1_K1, BC_SHA1_K2, BC_SHA1_K3 };

	_mm256_storeu_si256((__m256i *)(wk->v + 8 * i), _mm256_add_epi32(w, _mm256_set1_epi32((int)k[i / 5])));
}

/* Words 0..15 of blocks p0 and p1 into x[0..3] and wk. */
INLINE BC_X86_AVX2_BMI2 void sched_load(__m256i x[4], struct wk_pair *wk, const uint8_t *p0, const uint8_t *p1)
{
	const __m256i bswap = _mm256_broadcastsi128_si256(
		_mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));

	for (int i = 0; i < 4; i++) {
		__m256i m = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + 16 * i))),
		                                    _mm_loadu_si128((const __m128i *)(p1 + 16 * i)), 1);
		x[i] = _mm256_shuffle_epi8(m, bswap);
		store_wk(wk, i, x[i]);
	}
}

/* Words 4i..4i+3 (4 <= i < 20); x[i % 4] held words 4i-16..4i-13. */
INLINE BC_X86_AVX2_BMI2 void sched_step(__m256i x[4], struct wk_pair *wk, int i)
{
	x[i % 4] = sched4(x[i % 4], x[(i + 1) % 4], x[(i + 2) % 4], x[(i + 3) % 4]);
	store_wk(wk, i, x[i % 4]);
}

/* The 80 rounds of one block from wk (a wk_pair's v or v + 4). With next,
 * the schedule of the next pair (p0, p1) is made in between, one step after
 * each five rounds. */
INLINE BC_X86_AVX2_BMI2 void rounds(uint32_t st[8], const uint32_t *wk, struct wk_pair *next,
                                    const uint8_t *p0, const uint8_t *p1)
{
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];
	__m256i x[4];

	if (next)
		sched_load(x, next, p0, p1);
#define WK(i) wk[((i) >> 2) * 8 + ((i) & 3)]
#pragma GCC unroll 16
	for (int i = 0; i < 16; i++) {
		if (i < 4) {
			BC_SHA1_ROUNDS5(5 * i, BC_SHA1_CH, WK);
		} else if (i < 8 || i >= 12) {
			BC_SHA1_ROUNDS5(5 * i, BC_SHA1_PARITY, WK);
		} else {
			BC_SHA1_ROUNDS5(5 * i, BC_SHA1_MAJ, WK);
		}
		if (next)
			sched_step(x, next, 4 + i);
	}
#undef WK
	st[0] += a; st[1] += b; st[2] += c; st[3] += d; st[4] += e;
}

/* compress: pairs of blocks through the rounds above (sha_avx2.h). */
BC_SHA_AVX2_PAIRS(sha1_avx2_compress, uint32_t, 64, 4, 4, 20, 4, bc_sha1_compress_generic)

BC_MD32_SHASH_FULL(sha1_avx2, "sha1", "sha1-avx2", 300, BC_CPU_AVX2 | BC_CPU_BMI2, bc_sha1_iv, 5, sha1_avx2_compress,
                   20, 0);
