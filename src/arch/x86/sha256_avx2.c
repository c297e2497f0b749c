/* blockcrypt x86: SHA-256 and SHA-224 with the message schedule of two blocks in AVX2 and the rounds in BMI2 (drivers sha256-avx2, sha224-avx2).
 * CPU: AVX2, BMI2. FIPS 180-4 section 6.2.2; the two-block schedule follows Intel's "Fast SHA-256 Implementations" idea. */
#include <immintrin.h>

#include "drivers.h"
#include "sha_avx2.h"
#include "../../hash/md32.h"
#include "../../hash/sha256.h"

#define BC_X86_AVX2_BMI2 __attribute__((target("avx2,bmi2")))
#define INLINE static inline __attribute__((always_inline))

/* AVX2 has no 32-bit rotate: two shifts and an OR. */
INLINE BC_X86_AVX2_BMI2 __m256i ror256(__m256i x, int n)
{
	return _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - n));
}

INLINE BC_X86_AVX2_BMI2 __m256i ssig0_256(__m256i x)
{
	return _mm256_xor_si256(_mm256_xor_si256(ror256(x, 7), ror256(x, 18)), _mm256_srli_epi32(x, 3));
}

INLINE BC_X86_AVX2_BMI2 __m256i ssig1_256(__m256i x)
{
	return _mm256_xor_si256(_mm256_xor_si256(ror256(x, 17), ror256(x, 19)), _mm256_srli_epi32(x, 10));
}

/* W[t..t+3] of both blocks from x0 = W[t-16..t-13], x1, x2 and x3 = W[t-4..t-1]
 * (one block per 128-bit lane). sigma1 needs the two words before each: for
 * the lower two those of x3, for the upper two the lower two just made. */
INLINE BC_X86_AVX2_BMI2 __m256i sched4(__m256i x0, __m256i x1, __m256i x2, __m256i x3)
{
	__m256i w = _mm256_add_epi32(x0, _mm256_alignr_epi8(x3, x2, 4));         /* + W[t-7..t-4] */

	w = _mm256_add_epi32(w, ssig0_256(_mm256_alignr_epi8(x1, x0, 4)));       /* + s0(W[t-15..t-12]) */
	w = _mm256_add_epi32(w, ssig1_256(_mm256_srli_si256(x3, 8)));            /* lanes 0, 1 done */
	return _mm256_add_epi32(w, ssig1_256(_mm256_slli_si256(w, 8)));          /* lanes 2, 3 */
}

/* W[i] + K[i] of a pair of blocks: words i..i+3 of the first block, then the
 * same of the second, for each i = 0, 4, ... 60. */
struct wk_pair {
	uint32_t v[128];
};

INLINE BC_X86_AVX2_BMI2 void store_wk(struct wk_pair *wk, int i, __m256i w)
{
	__m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(bc_sha256_k + 4 * i)));

	_mm256_storeu_si256((__m256i *)(wk->v + 8 * i), _mm256_add_epi32(w, k));
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

/* Words 4i..4i+3 (4 <= i < 16); x[i % 4] held words 4i-16..4i-13. */
INLINE BC_X86_AVX2_BMI2 void sched_step(__m256i x[4], struct wk_pair *wk, int i)
{
	x[i % 4] = sched4(x[i % 4], x[(i + 1) % 4], x[(i + 2) % 4], x[(i + 3) % 4]);
	store_wk(wk, i, x[i % 4]);
}

/* The 64 rounds of one block from wk (a wk_pair's v or v + 4). With next,
 * the schedule of the next pair (p0, p1) is made in between: the schedule
 * is a chain of dependent vector steps, and run on its own before the
 * rounds it would add its whole latency to every pair. */
INLINE BC_X86_AVX2_BMI2 void rounds(uint32_t st[8], const uint32_t *wk, struct wk_pair *next,
                                    const uint8_t *p0, const uint8_t *p1)
{
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
	__m256i x[4];

	if (next)
		sched_load(x, next, p0, p1);
#define WK(i) wk[((i) >> 2) * 8 + ((i) & 3)]
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		BC_SHA256_ROUNDS8(8 * i, WK);
		if (next && i < 6) {
			sched_step(x, next, 4 + 2 * i);
			sched_step(x, next, 5 + 2 * i);
		}
	}
#undef WK
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/* compress: pairs of blocks through the rounds above (sha_avx2.h). */
BC_SHA_AVX2_PAIRS(sha256_avx2_compress, uint32_t, 64, 4, 4, 16, 4, bc_sha256_compress_generic)

BC_MD32_SHASH(sha256_avx2, "sha256", "sha256-avx2", 300, BC_CPU_AVX2 | BC_CPU_BMI2, bc_sha256_iv,
              sha256_avx2_compress);
BC_SHA224_SHASH(sha224_avx2, "sha224-avx2", 300, BC_CPU_AVX2 | BC_CPU_BMI2, sha256_avx2_compress);
